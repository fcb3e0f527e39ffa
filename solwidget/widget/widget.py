"""SolitaireWidget: play any game of solwidget in a notebook, watch the solver, replay a win.

The kernel holds the rules and the truth; the browser draws what a player may see and
sends back what the person tried. Each pile is its own synced trait (``pile_t3``), so a
move sends only the piles it changed, plus the new legal moves and status.

This module holds the widget's traits, what it sends of a position, the checks of traits
set from Python and the dispatch of the browser's messages. The line of moves (play, undo,
redo, seek, replay) is ``line.LineMixin``'s, the background work (solver, hint, the
replay's steps) ``worker.WorkerMixin``'s, the coach ``coach.CoachMixin``'s.
"""

from __future__ import annotations

import base64
import math
import threading
import time
from html import escape
from pathlib import Path
from typing import ClassVar

import anywidget
import traitlets

from ..engine import words
from ..engine.checks import is_real, is_whole, refuse, shown
from ..engine.deals import DEAL_LIMITS, check_deal_number
from ..engine.errors import IllegalMove, InvalidOption, SolwidgetError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.registry import load_game
from ..engine.state import State
from . import sync
from .coach import CoachMixin, check_coach_options, first_winnable
from .line import LineMixin
from .worker import Exactly, WorkerMixin

STATIC = Path(__file__).resolve().parent.parent / "static"


def _static(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise RuntimeError(
            f"the widget's front end {path} is not built: run `npm run build` "
            "(or `python3 dev.py setup`) in the solwidget checkout"
        )
    return path


class InvalidTrait(SolwidgetError, traitlets.TraitError):
    """A trait set from Python to a value it cannot take: the project's error (as for every
    bad input), and traitlets' own TraitError too (as code written for traitlets expects)."""


def pile_trait(pid: str) -> str:
    """The name of the synced trait that holds pile ``pid``."""
    return f"pile_{pid}"


class SolitaireWidget(LineMixin, WorkerMixin, CoachMixin, anywidget.AnyWidget):
    """A game of patience in a notebook.

    ``SolitaireWidget("interlock", deal=7, four_colour=False, **game_options)``; ``game`` may
    also be a ``Game``, and ``state=`` starts from a given position instead of a deal.

    Play it by clicking, dragging, double-clicking or with the keyboard, or from Python
    (``play``, ``undo``, ``redo``, ``hint``, ``autoplay``, ``solve``, ``replay``); the
    position is ``state``, the moves so far ``history``. Its traits (``status``,
    ``message``, ``moves_made``, ...) can be observed like any widget's, and ``layout`` is
    ipywidgets' Layout, as for any widget (``w.layout.width = "600px"``).

    Args:
        game: a game id (see ``sw.games()``) or a Game.
        deal: the deal number (PySolFC's numbering).
        four_colour: draw the four suits in four colours.
        state: a position to start from instead of a deal.
        **options: the game's options, as ``load_game`` takes them.

    Raises:
        UnknownGame, InvalidDeal, InvalidOption: a bad game id, deal number or option.
        MissingExtra: the "widget" extra is not installed
            (``pip install "solwidget[widget]"``); raised when ``sw.SolitaireWidget``
            is first looked up.

    Examples:
        >>> w = sw.SolitaireWidget("freecell", deal=1)
        >>> w.play("t0 c0").pile("c0")
        ['6S']
        >>> w.undo() == sw.load_game("freecell").deal(1)
        True
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    # What the browser draws (synced); the piles are added per game as pile_<id> traits.
    game_id = traitlets.Unicode().tag(sync=True)
    # Synced as text: a deal number may have 20 digits, more than a JavaScript number holds.
    deal = traitlets.Int(1).tag(sync=True, to_json=lambda number, _widget: str(number))
    four_colour = traitlets.Bool(False).tag(sync=True)
    # The board (the game's layout and the geometry it is drawn with), sent once. Not named
    # ``layout``: that is ipywidgets' Layout (``w.layout.width = "600px"``), which it keeps.
    board = traitlets.Dict().tag(sync=True)
    extras = traitlets.Dict().tag(sync=True)
    legal = traitlets.List(traitlets.Unicode()).tag(sync=True)
    status = traitlets.Dict().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("").tag(sync=True)  # "", "info" or "error"
    highlight = traitlets.List(traitlets.Unicode()).tag(sync=True)
    moves_made = traitlets.Int(0).tag(sync=True)
    history_length = traitlets.Int(0).tag(sync=True)
    solver_progress = traitlets.Dict().tag(sync=True)
    solution = traitlets.List(traitlets.Unicode()).tag(sync=True)
    busy = traitlets.Unicode("").tag(sync=True)  # "", "solving" or "replaying"
    # The move that led to the position shown, in the board's words ("9♥ to a free cell").
    move_words = traitlets.Unicode("").tag(sync=True)
    # The board's least height (card widths): that of the tallest position of the line, so
    # that stepping through a replay keeps the board, and the controls below it, in place.
    board_min_height = traitlets.Float(0.0).tag(sync=True)
    # Pile ids on the board, for those who drive the widget from Python (ids are the API).
    show_ids = traitlets.Bool(False).tag(sync=True)
    # After each move of the person, play the safe moves to the foundations (Autoplay's).
    auto_foundations = traitlets.Bool(False).tag(sync=True)

    # Seconds between two moves when the replay bar plays (the browser's speed choice sets it).
    replay_delay = traitlets.Float(0.5, min=0.0).tag(sync=True)
    # The time Solve may search, in seconds (None: no limit, until Stop); the toolbar offers
    # sync.SOLVE_BUDGETS. No state budget is added to it: the budget given is the budget used.
    solve_seconds = traitlets.Float(10.0, allow_none=True).tag(sync=True)
    # The legal actions on a pile (Mutated's "d1 build") in words, for their buttons.
    action_words = traitlets.Dict().tag(sync=True)
    HINT_SECONDS = 2.0  # the longest a hint searches unless told otherwise

    # The engine's position (observable from Python, never sent: it knows face-down cards).
    state = traitlets.Instance(State, allow_none=True)

    def __init__(
        self,
        game: str | Game = "reversed_solitaire",
        deal: int = 1,
        four_colour: bool = False,
        state: State | None = None,
        coach: bool = False,
        winnable_only: bool = False,
        coach_seconds: float = 1.0,
        **options,
    ):
        if isinstance(game, Game):
            if options:
                raise InvalidOption("give options to load_game, or pass the game's id instead of a Game")
            the_game = game
        else:
            the_game = load_game(game, **options)
        if state is not None and not isinstance(state, State):
            raise refuse("state", "a State (game.deal(n)) or None", state)
        if state is not None and state.game != the_game:
            raise SolwidgetError(f"this state is of {state.game.id}, not {the_game.id}")
        coach, winnable_only, coach_seconds = check_coach_options(coach, winnable_only, coach_seconds)
        if winnable_only and state is None:
            deal = first_winnable(the_game, check_deal_number(deal, the_game.deal_limits))
        start = state if state is not None else the_game.deal(deal)
        _static("widget.js"), _static("widget.css")
        self.add_traits(
            **{
                pile_trait(pid): traitlets.List(traitlets.Unicode()).tag(sync=True)
                for pid in the_game.pile_ids
            }
        )
        super().__init__(
            game_id=the_game.id, deal=deal, four_colour=four_colour, board=sync.board_of(the_game)
        )
        self.game = the_game
        self._layout = the_game.layout()  # the game's, fixed: measured against each move
        self._stacks = {p["id"] for p in self.board["piles"] if p["fan"] == "none"}
        self._lock = threading.RLock()
        self._stop = threading.Event()  # set by stop(): the worker ends soon
        self._worker: threading.Thread | None = None
        self._generation = 0  # bumped to cancel a worker without waiting
        self._solution_from: State | None = None
        self._offered: list[Move] = []  # the solver's win, else its best line
        self._wins: dict[Exactly, list[Move]] = {}  # position -> the rest of a win found from it
        self._shown: State | None = None  # the position the browser has
        self._states: list[State] = [start]
        self._line: list[Move] = []
        self._heights: list[float] = []  # board height of each position of the line
        self._clock: float | None = None  # when the person's first move of this game was made
        self._show(0, message="")
        self._coach_start(coach, winnable_only, coach_seconds)
        self.on_msg(self._on_message)

    # ------------------------------------------------------------ reading
    @property
    def _position(self) -> State:
        """The position shown: ``state``, which is None only until the first ``_show``."""
        state = self.state
        assert state is not None
        return state

    def __repr__(self) -> str:
        status = self.status
        return (
            f"SolitaireWidget({self.game_id!r}, deal={self.deal}: {status.get('moves', 0)} moves, "
            f"{status.get('home', 0)}/{status.get('total', 0)} cards home"
            f"{', won' if status.get('won') else ''})"
        )

    def _repr_html_(self) -> str:
        """A still picture of the position, kept beside the live view in a saved notebook:
        a page that does not run the widget (a notebook not yet trusted) shows it instead."""
        svg = base64.b64encode(self._position._repr_svg_().encode()).decode("ascii")
        return (
            f'<img src="data:image/svg+xml;base64,{svg}" style="max-width:100%;height:auto" '
            f'alt="{escape(repr(self))}">'
        )

    def _with_ids(self, words: str, ids: str) -> str:
        """Words for the person, with the move text beside them when pile ids are shown."""
        return f"{words} ({ids})" if self.show_ids and ids else words

    # ------------------------------------------------------------ syncing
    def _reset(self, start: State, message: str) -> None:
        self._generation += 1  # a solver or replay of the old game ends
        self.busy = ""
        self._states, self._line, self._heights = [start], [], []
        self._clock = None
        self.solution, self._offered = [], []
        self._wins.clear()
        self.solver_progress = {}
        self._show(0, message=message, kind="info")

    def _show(self, index: int, message: str = "", kind: str = "", timed: bool = False) -> None:
        """Make position ``index`` of the line current and send what changed; ``timed``: the
        person's own move led there (a win then says how long their play took)."""
        before, after = self._shown, self._states[index]
        with self.hold_sync():
            for pid in sync.changed_piles(before, after):
                setattr(
                    self,
                    pile_trait(pid),
                    sync.synced_pile(self.game.visible_pile(after, pid), pid in self._stacks),
                )
            self._shown = after
            self.state = after
            self.extras = sync.extras_of(after)
            self.moves_made = index
            self.history_length = len(self._line)
            legal = after.legal_moves()
            self.legal = [str(move) for move in legal]
            self.action_words = self._action_words(after, legal)
            self.status = self._status(after, index, timed)
            self.move_words = self._move_said(index)
            self.board_min_height = self._line_height()
            self.highlight = []
            self._say(message, kind)
        self._coach_moved(index)

    def _status(self, state: State, index: int, timed: bool) -> dict:
        """The status line; a win the person played says how long their play took (a win
        reached by a replay, a seek or redo says its moves only)."""
        seconds = round(time.monotonic() - self._clock) if timed and self._clock is not None else None
        return sync.status_of(state, index, seconds)

    def _action_words(self, state: State, legal: list[Move]) -> dict:
        """Each legal action on a pile ("d1 build") in words, for its button."""
        return {str(m): words.move_words(state, m) for m in legal if m.dst in self.game.actions}

    def _say(self, text: str, kind: str = "") -> None:
        self.message_kind = kind if text else ""
        self.message = text

    @traitlets.observe("state")
    def _state_set(self, change) -> None:
        """``w.state = s`` from user code starts a new line at ``s``."""
        new = change["new"]
        if new is self._shown:
            return
        if new is None:  # a None passes the trait's validation (allow_none): put it back
            self.state = change["old"]
            raise InvalidTrait("state must be a State of this widget's game, not None")
        if new.game != self.game:
            self.state = change["old"]
            raise SolwidgetError(f"this widget plays {self.game.id}; the state is of {new.game.id}")
        with self._lock:
            self._states, self._line, self._heights = [new], [], []
            self._show(0, message="position set", kind="info")

    # ------------------------------------------------------------ traits set from Python
    def __setattr__(self, name, value):
        """A trait set to a value of the wrong type raises InvalidTrait, in the project's words;
        a bool is no number and a number no bool (traitlets would take 1 for True and back)."""
        trait = getattr(type(self), name, None)  # a trait is a descriptor of the class
        trait = trait if isinstance(trait, traitlets.TraitType) else None
        if trait is not None and not _plain_kind(trait, value):
            raise InvalidTrait(f"{name} must be {trait.info()}, not {shown(value)}")
        try:
            super().__setattr__(name, value)
        except (traitlets.TraitError, OverflowError) as err:
            if isinstance(err, SolwidgetError) or trait is None:
                raise
            raise InvalidTrait(f"{name} must be {trait.info()}, not {shown(value)}") from None

    @traitlets.validate("deal")
    def _valid_deal(self, proposal):
        try:
            return check_deal_number(
                proposal["value"], self.game.deal_limits if hasattr(self, "game") else DEAL_LIMITS
            )
        except SolwidgetError as err:
            raise InvalidTrait(f"deal: {err}") from None

    @traitlets.validate("replay_delay")
    def _valid_delay(self, proposal):
        delay = proposal["value"]
        if not 0 <= delay < math.inf:
            raise InvalidTrait(f"replay_delay must be a finite number of seconds >= 0, not {shown(delay)}")
        return delay

    @traitlets.validate("solve_seconds")
    def _valid_solve_seconds(self, proposal):
        seconds = proposal["value"]
        if seconds is not None and not 0 < seconds < math.inf:
            raise InvalidTrait(
                f"solve_seconds must be a positive, finite number of seconds or None "
                f"(no limit), not {shown(seconds)}"
            )
        return seconds

    @traitlets.validate("state")
    def _valid_state(self, proposal):
        state = proposal["value"]
        if state is not None and hasattr(self, "game") and state.game != self.game:
            raise InvalidTrait(
                f"state must be a State of {self.game.id}, the game this widget plays, "
                f"not one of {state.game.id}"
            )
        return state

    # ------------------------------------------------------------ the browser
    # All the browser may set, and the values it may set them to.
    BROWSER_TRAITS: ClassVar[dict[str, tuple]] = {
        "four_colour": sync.SWITCH,
        "show_ids": sync.SWITCH,
        "auto_foundations": sync.SWITCH,
        "coach": sync.SWITCH,
        "replay_delay": sync.REPLAY_SPEEDS,
        "solve_seconds": sync.SOLVE_BUDGETS,
    }

    def set_state(self, sync_data) -> None:
        """Trait updates from the browser: only ``BROWSER_TRAITS``, each to one of its values;
        anything else refuses the whole update (the game changes only through checked messages)."""
        try:
            checked = sync.check_sync_data(sync_data, self.BROWSER_TRAITS)
        except SolwidgetError as err:
            self._refuse(str(err))
            return
        super().set_state(checked)

    def _on_message(self, _widget, content, _buffers) -> None:
        try:
            request = sync.check_message(self.game, content, len(self._line))
        except sync.BadDeal as err:  # the deal box shows these words too
            self._refuse(str(err), field="deal")
            return
        except SolwidgetError as err:
            self._refuse(str(err))
            return
        try:
            self._handle(request)
        except IllegalMove as err:
            said = words.reason_words(self._position, err.reason)
            self._refuse(self._with_ids(said, err.reason if said != err.reason else ""))
        except ImportError:
            self._refuse("the solver is not available in this installation")
        except SolwidgetError as err:
            self._refuse(str(err))

    def _refuse_pickup(self, request: dict) -> None:
        """The browser refused to pick up cards (face down, or in a covered pile): say why,
        in the rules' words."""
        reason = self.game.pickup_refusal(self._position, request["src"], request["index"], request["n"])
        if reason:
            said = words.reason_words(self._position, reason)
            self._refuse(self._with_ids(said, reason if said != reason else ""))

    def _refuse(self, reason: str, field: str | None = None) -> None:
        """Say why a request is refused; ``field``: the browser's input it is about."""
        with self.hold_sync():
            self._say(reason, "error")
        self.send({"type": "error", "text": reason, **({"field": field} if field else {})})

    def _handle(self, request: dict) -> None:
        kind = request["type"]
        if kind == "move":
            self._play(request["move"])
        elif kind == "seek":
            self.seek(request["index"])
        elif kind == "pick":
            self._refuse_pickup(request)
        else:
            name = request["name"]
            if name == "new":
                self.new_deal(request.get("deal"))
            elif name == "solve":
                self.solve()
            elif name == "replay":  # a win plays at the replay bar's speed; a best line waits there
                self.replay(delay=None)
                if self.solution:
                    self.send({"type": "play"})
            else:
                getattr(self, name)()


def _plain_kind(trait, value) -> bool:
    """False when ``value`` is of a kind that traitlets would convert instead of refusing:
    a bool for a number (True as 1), a number for a bool, a float for an int (2.0 as 2)."""
    if isinstance(trait, traitlets.Bool):
        return isinstance(value, bool)
    if isinstance(trait, traitlets.Int):
        return is_whole(value)
    if isinstance(trait, traitlets.Float):
        return is_real(value)
    return True
