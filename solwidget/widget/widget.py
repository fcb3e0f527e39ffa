"""SolitaireWidget: play any game of solwidget in a notebook, watch the solver, replay a win.

The kernel holds the rules and the truth; the browser draws what a player may see and
sends back what the person tried. Each pile is its own synced trait (``pile_t3``), so a
move sends only the piles it changed, plus the new legal moves and status.
"""

from __future__ import annotations

import base64
import math
import threading
import time
from collections.abc import Iterable
from html import escape
from pathlib import Path

import anywidget
import traitlets

from ..engine.checks import flag, is_real, is_whole, real_number, refuse, shown, whole_number
from ..engine.deals import DEAL_LIMITS, check_deal_number
from ..engine.errors import IllegalMove, InvalidOption, SolwidgetError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.registry import load_game
from ..engine.state import State
from . import sync

STATIC = Path(__file__).resolve().parent.parent / "static"


def _static(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise RuntimeError(f"the widget's front end {path} is not built: run `npm run build` "
                           "(or `python3 dev.py setup`) in the solwidget checkout")
    return path


class InvalidTrait(SolwidgetError, traitlets.TraitError):
    """A trait set from Python to a value it cannot take: the project's error (as for every
    bad input), and traitlets' own TraitError too (as code written for traitlets expects)."""


def pile_trait(pid: str) -> str:
    """The name of the synced trait that holds pile ``pid``."""
    return f"pile_{pid}"


class SolitaireWidget(anywidget.AnyWidget):
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
    deal_limits = traitlets.List(traitlets.Unicode()).tag(sync=True)   # first and last deal, as text
    four_colour = traitlets.Bool(False).tag(sync=True)
    # The board (the game's layout and the geometry it is drawn with), sent once. Not named
    # ``layout``: that is ipywidgets' Layout (``w.layout.width = "600px"``), which it keeps.
    board = traitlets.Dict().tag(sync=True)
    extras = traitlets.Dict().tag(sync=True)
    legal = traitlets.List(traitlets.Unicode()).tag(sync=True)
    status = traitlets.Dict().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("").tag(sync=True)     # "", "info" or "error"
    highlight = traitlets.List(traitlets.Unicode()).tag(sync=True)
    moves_made = traitlets.Int(0).tag(sync=True)
    history_length = traitlets.Int(0).tag(sync=True)
    solver_progress = traitlets.Dict().tag(sync=True)
    solution = traitlets.List(traitlets.Unicode()).tag(sync=True)
    busy = traitlets.Unicode("").tag(sync=True)              # "", "solving" or "replaying"

    # Seconds between the moves of a replay that the browser's Replay button starts.
    replay_delay = traitlets.Float(0.4, min=0.0)
    HINT_SECONDS = 2.0          # the longest a hint searches unless told otherwise

    # The engine's position (observable from Python, never sent: it knows face-down cards).
    state = traitlets.Instance(State, allow_none=True)

    def __init__(self, game: str | Game = "reversed_solitaire", deal: int = 1, four_colour: bool = False,
                 state: State | None = None, **options):
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
        start = state if state is not None else the_game.deal(deal)
        _static("widget.js"), _static("widget.css")
        self.add_traits(**{pile_trait(pid): traitlets.List(traitlets.Unicode()).tag(sync=True)
                           for pid in the_game.pile_ids})
        super().__init__(game_id=the_game.id, deal=deal, four_colour=four_colour,
                         deal_limits=[str(limit) for limit in the_game.deal_limits],
                         board=sync.board_of(the_game))
        self.game = the_game
        self._stacks = {p["id"] for p in self.board["piles"] if p["fan"] == "none"}
        self._lock = threading.RLock()
        self._stop = threading.Event()          # set by stop(): the worker ends soon
        self._worker: threading.Thread | None = None
        self._generation = 0                    # bumped to cancel a worker without waiting
        self._solution_from: State | None = None
        self._shown: State | None = None     # the position the browser has
        self._states: list[State] = [start]
        self._line: list[Move] = []
        self._show(0, message="")
        self.on_msg(self._on_message)

    # ------------------------------------------------------------ reading
    @property
    def history(self) -> list[Move]:
        """The moves played from the start to the current position."""
        return self._line[:self.moves_made]

    @property
    def line(self) -> list[Move]:
        """Every move of the current line, including those undone (redo goes along it)."""
        return list(self._line)

    def __repr__(self) -> str:
        status = self.status
        return (f"SolitaireWidget({self.game_id!r}, deal={self.deal}: {status.get('moves', 0)} moves, "
                f"{status.get('home', 0)}/{status.get('total', 0)} cards home"
                f"{', won' if status.get('won') else ''})")

    def _repr_html_(self) -> str:
        """A still picture of the position, kept beside the live view in a saved notebook:
        a page that does not run the widget (a notebook not yet trusted) shows it instead."""
        svg = base64.b64encode(self.state._repr_svg_().encode()).decode("ascii")
        return (f'<img src="data:image/svg+xml;base64,{svg}" style="max-width:100%;height:auto" '
                f'alt="{escape(repr(self))}">')

    # ------------------------------------------------------------ playing
    def play(self, move: Move | str) -> State:
        """Play one move (a Move or text like ``"t3 f0"``); IllegalMove says why not."""
        with self._lock:
            new = self.state.play(move)      # raises, changing nothing, when illegal
            self._cancel_replay()
            move = self.game.parse_move(move)
            del self._states[self.moves_made + 1:], self._line[self.moves_made:]
            self._states.append(new)
            self._line.append(move)
            self._show(self.moves_made + 1)
            return new

    def undo(self) -> State:
        """Take back the last move (the toolbar's Undo); returns the position shown.

        Raises:
            SolwidgetError: no move has been made.
        """
        with self._lock:
            if self.moves_made == 0:
                raise SolwidgetError("nothing to undo")
            self._cancel_replay()
            self._show(self.moves_made - 1)
            return self.state

    def redo(self) -> State:
        """Play again the move that ``undo`` took back (the toolbar's Redo); returns the position shown.

        Raises:
            SolwidgetError: nothing was undone, or a new move has been played since.
        """
        with self._lock:
            if self.moves_made == len(self._line):
                raise SolwidgetError("nothing to redo")
            self._cancel_replay()
            self._show(self.moves_made + 1)
            return self.state

    def seek(self, index: int) -> State:
        """Go to the position after ``index`` moves of the current line (the scrubber)."""
        with self._lock:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= len(self._line):
                raise SolwidgetError(f"no position {index!r}: the line has {len(self._line)} moves")
            self._cancel_replay()
            self._show(index)
            return self.state

    def restart(self) -> State:
        """Back to the start of this deal, forgetting the moves."""
        with self._lock:
            self._reset(self._states[0], message="restarted")
            return self.state

    def new_deal(self, number: int | None = None) -> State:
        """Deal ``number`` (the next one when not given)."""
        with self._lock:
            number = self.deal + 1 if number is None else number
            start = self.game.deal(number)      # raises InvalidDeal before anything changes
            self.deal = number
            self._reset(start, message=f"deal {number}")
            return self.state

    def autoplay(self) -> list[Move]:
        """Play the provably safe moves to the foundations (the solver's); return them."""
        from ..solver import safe_moves
        with self._lock, self.hold_sync():
            played = safe_moves(self.state)
            for move in played:
                self.play(move)
            self._say(f"autoplay: {len(played)} card{'s' * (len(played) != 1)} home" if played
                      else "autoplay: no safe move to the foundations", "info")
        return played

    def hint(self, **budget):
        """Ask the solver for a hint; highlight its move. Returns the Hint, or None.

        ``budget`` goes to ``sw.hint`` (max_states, max_seconds); by default the search
        stops after ``HINT_SECONDS``, so that a click on Hint answers promptly.
        """
        from ..solver import hint as solver_hint
        budget.setdefault("max_seconds", self.HINT_SECONDS)
        said = self.message, self.message_kind
        self._say("looking for a hint…", "info")
        try:
            found = solver_hint(self.state, **budget)
        except SolwidgetError:          # a bad budget: the widget stays as it was
            self._say(*said)
            raise
        with self._lock, self.hold_sync():
            if found is None:
                self.highlight = []
                self._say("no hint: no move helps here", "info")
                return None
            self.highlight = [str(found.move)]
            why = "it leads to a win" if found.winning else "the most promising move"
            self._say(f"hint: {found.move} ({why})", "info")
        return found

    # ------------------------------------------------------------ the solver
    def solve(self, background: bool = True, steps: int = 500, **options) -> None:
        """Run the solver on the current position, showing its progress; offer the win."""
        from ..solver import Solver
        self.show_solver(Solver(self.state, **options), background=background, steps=steps)

    def show_solver(self, solver, background: bool = True, steps: int = 500, every: float = 0.2) -> None:
        """Show a running search live: its progress and best line, then its result.

        The solver is stepped ``steps`` states at a time, in a background thread (or here,
        when ``background`` is False); progress is sent at most every ``every`` seconds.
        A win is offered for replay from the position the search started at.
        """
        if not callable(getattr(solver, "step", None)):
            raise refuse("solver", "a Solver (sw.Solver(state))", solver)
        whole_number("steps", steps, 1)
        real_number("every", every, 0.0)
        flag("background", background)
        start = solver.state if isinstance(getattr(solver, "state", None), State) else self.state

        def run(cancelled):
            last = 0.0
            while not solver.done and not cancelled():
                progress = solver.step(steps)
                now = time.monotonic()
                if now - last >= every and not cancelled():
                    with self._lock:        # one thread at a time changes what is synced
                        self.solver_progress = _progress_dict(progress, running=True)
                    last = now
            if not cancelled() or self._stop.is_set():
                self._solver_finished(solver, start)

        self._start("solving", run, background)

    def _solver_finished(self, solver, start: State) -> None:
        progress = _progress_dict(solver.progress, running=False)
        result = solver.result if solver.done else None
        with self._lock, self.hold_sync():
            if result is None:
                progress["status"] = "stopped"
                self._say("solver stopped", "info")
            else:
                progress["status"] = result.status
                if result.status == "won":
                    self._solution_from = start
                    self.solution = [str(m) for m in result.moves]
                    self._say(f"solved: a win in {len(result.moves)} moves; press Replay to watch it",
                              "info")
                elif result.status == "lost":
                    self._say("the solver proved that this position cannot be won", "info")
                else:
                    self._say("the solver ran out of budget without an answer", "info")
            self.solver_progress = progress

    def replay(self, moves=None, delay: float | None = 0.4, background: bool = True) -> None:
        """Put ``moves`` after the current position and step through them, ``delay`` seconds
        apart (``delay=None`` only sets up the scrubber). Without ``moves``, replay the
        solver's win from the position it was found for (going back to it if need be)."""
        if moves is not None and (isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable)):
            raise refuse("moves", "a list of moves (Move or text like 't3 f0'), or None", moves)
        if delay is not None:
            real_number("delay", delay, 0.0)
        flag("background", background)
        self._cancel_replay()
        with self._lock:
            if moves is None:
                moves = self.solution
                self._go_to_solution_start()
            start = self.moves_made
            states, line = [self.state], []
            for move in moves:                  # check the whole line before changing anything
                move = self.game.parse_move(move)
                states.append(states[-1].play(move))
                line.append(move)
            del self._states[start + 1:], self._line[start:]
            self._states += states[1:]
            self._line += line
            self._show(start, message=f"replay: {len(line)} moves; use the slider to go back and forth",
                       kind="info")
        if delay is None:
            return

        def run(cancelled):
            for index in range(start + 1, start + len(line) + 1):
                if self._stop.wait(delay) or cancelled():
                    return
                with self._lock:
                    self._show(index)

        self._start("replaying", run, background)

    def _go_to_solution_start(self) -> None:
        if not self.solution:
            raise SolwidgetError("nothing to replay: solve first")
        if self.state == self._solution_from:
            return
        for index in range(len(self._states) - 1, -1, -1):
            if self._states[index] == self._solution_from:
                self._show(index)
                return
        raise SolwidgetError("the solver's win starts from another position: press Solve again")

    def stop(self) -> None:
        """Stop a running solver or replay, and wait for it."""
        self._stop.set()
        self.wait()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running solver or replay to finish."""
        worker = self._worker
        if worker is not None and worker is not threading.current_thread():
            worker.join(timeout)

    def _cancel_replay(self) -> None:
        """A person's move, undo or seek takes over from a running replay."""
        if self.busy == "replaying":
            self._generation += 1
            self.busy = ""

    def _start(self, what: str, run, background: bool) -> None:
        """Run ``run(cancelled)`` as the one worker; a newer worker cancels older ones."""
        self.stop()
        self._stop.clear()
        self._generation += 1
        generation = self._generation

        def cancelled() -> bool:
            return self._stop.is_set() or generation != self._generation

        def guarded():
            try:
                run(cancelled)
            finally:
                if generation == self._generation:
                    self.busy = ""

        self.busy = what

        if background:
            self._worker = threading.Thread(target=guarded, name=f"solwidget-{what}", daemon=True)
            self._worker.start()
        else:
            guarded()

    # ------------------------------------------------------------ syncing
    def _reset(self, start: State, message: str) -> None:
        self._generation += 1                   # a solver or replay of the old game ends
        self.busy = ""
        self._states, self._line = [start], []
        self.solution = []
        self.solver_progress = {}
        self._show(0, message=message, kind="info")

    def _show(self, index: int, message: str = "", kind: str = "") -> None:
        """Make position ``index`` of the line current and send what changed."""
        before, after = self._shown, self._states[index]
        hidden = sync.hidden_below(after)
        with self.hold_sync():
            for pid in sync.changed_piles(before, after):
                pile = after.piles[self.game.pile_index(pid)]
                setattr(self, pile_trait(pid), sync.synced_pile(sync.visible_pile(pile, hidden.get(pid, 0)),
                                                                  pid in self._stacks))
            self._shown = after
            self.state = after
            self.extras = sync.extras_of(after)
            self.moves_made = index
            self.history_length = len(self._line)
            self.legal = sync.legal_texts(after)
            self.status = sync.status_of(after, index)
            self.highlight = []
            self._say(message, kind)

    def _say(self, text: str, kind: str = "") -> None:
        self.message_kind = kind if text else ""
        self.message = text

    @traitlets.observe("state")
    def _state_set(self, change) -> None:
        """``w.state = s`` from user code starts a new line at ``s``."""
        new = change["new"]
        if new is self._shown:
            return
        if new is None:         # a None passes the trait's validation (allow_none): put it back
            self.state = change["old"]
            raise InvalidTrait("state must be a State of this widget's game, not None")
        if new.game != self.game:
            self.state = change["old"]
            raise SolwidgetError(f"this widget plays {self.game.id}; the state is of {new.game.id}")
        with self._lock:
            self._states, self._line = [new], []
            self._show(0, message="position set", kind="info")

    # ------------------------------------------------------------ traits set from Python
    def __setattr__(self, name, value):
        """A trait set to a value of the wrong type raises InvalidTrait, in the project's words;
        a bool is no number and a number no bool (traitlets would take 1 for True and back)."""
        trait = getattr(type(self), name, None)        # a trait is a descriptor of the class
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
            return check_deal_number(proposal["value"], self.game.deal_limits if hasattr(self, "game")
                                     else DEAL_LIMITS)
        except SolwidgetError as err:
            raise InvalidTrait(f"deal: {err}") from None

    @traitlets.validate("replay_delay")
    def _valid_delay(self, proposal):
        delay = proposal["value"]
        if not 0 <= delay < math.inf:
            raise InvalidTrait(f"replay_delay must be a finite number of seconds >= 0, not {shown(delay)}")
        return delay

    @traitlets.validate("state")
    def _valid_state(self, proposal):
        state = proposal["value"]
        if state is not None and hasattr(self, "game") and state.game != self.game:
            raise InvalidTrait(f"state must be a State of {self.game.id}, the game this widget plays, "
                               f"not one of {state.game.id}")
        return state

    # ------------------------------------------------------------ the browser
    BROWSER_TRAITS = frozenset({"four_colour"})     # the only traits the browser may set

    def set_state(self, sync_data) -> None:
        """Trait updates from the browser: only the four-colour switch, as a bool; anything
        else refuses the whole update (the game changes only through checked messages)."""
        try:
            sync.check_sync_data(sync_data, self.BROWSER_TRAITS)
        except SolwidgetError as err:
            self._refuse(str(err))
            return
        super().set_state(sync_data)

    def _on_message(self, _widget, content, _buffers) -> None:
        try:
            request = sync.check_message(self.game, content, len(self._line))
        except SolwidgetError as err:
            self._refuse(str(err))
            return
        try:
            self._handle(request)
        except IllegalMove as err:
            self._refuse(err.reason)
        except ImportError:
            self._refuse("the solver is not available in this installation")
        except SolwidgetError as err:
            self._refuse(str(err))

    def _refuse_pickup(self, request: dict) -> None:
        """The browser refused to pick up cards (face down, or in a covered pile): say why,
        in the rules' words."""
        reason = self.game.pickup_refusal(self.state, request["src"], request["index"], request["n"])
        if reason:
            self._refuse(reason)

    def _refuse(self, reason: str) -> None:
        with self.hold_sync():
            self._say(reason, "error")
        self.send({"type": "error", "text": reason})

    def _handle(self, request: dict) -> None:
        kind = request["type"]
        if kind == "move":
            self.play(request["move"])
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
            elif name == "replay":
                self.replay(delay=self.replay_delay)
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


def _progress_dict(progress, running: bool) -> dict:
    """The solver's progress as plain data for the browser."""
    def number(name):
        value = getattr(progress, name, None)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    line = getattr(progress, "best_line", None) or []
    return {"running": running, "expanded": number("expanded"), "frontier": number("frontier"),
            "depth": number("depth"), "best_score": number("best_score"),
            "elapsed": number("elapsed"), "rate": number("rate"),
            "best_line": [str(m) for m in line][:200]}
