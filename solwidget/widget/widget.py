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
from typing import ClassVar

import anywidget
import traitlets

from ..engine import words
from ..engine.checks import flag, is_real, is_whole, real_number, refuse, shown, whole_number
from ..engine.deals import DEAL_LIMITS, check_deal_number
from ..engine.errors import IllegalMove, InvalidOption, SolwidgetError
from ..engine.game import Game
from ..engine.geometry import place
from ..engine.moves import Move
from ..engine.registry import load_game
from ..engine.state import State
from ..engine.visible import visible_piles
from . import browser, sync
from .coach import CoachMixin, check_coach_options, first_winnable

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


class SolitaireWidget(CoachMixin, anywidget.AnyWidget):
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
    HINT_SECONDS = 2.0          # the longest a hint searches unless told otherwise

    # The engine's position (observable from Python, never sent: it knows face-down cards).
    state = traitlets.Instance(State, allow_none=True)

    def __init__(self, game: str | Game = "reversed_solitaire", deal: int = 1, four_colour: bool = False,
                 state: State | None = None, coach: bool = False, winnable_only: bool = False,
                 coach_seconds: float = 1.0, **options):
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
        self.add_traits(**{pile_trait(pid): traitlets.List(traitlets.Unicode()).tag(sync=True)
                           for pid in the_game.pile_ids})
        super().__init__(game_id=the_game.id, deal=deal, four_colour=four_colour,
                         deal_limits=[str(limit) for limit in the_game.deal_limits],
                         board=sync.board_of(the_game))
        self.game = the_game
        self._layout = the_game.layout()        # the game's, fixed: measured against each move
        self._stacks = {p["id"] for p in self.board["piles"] if p["fan"] == "none"}
        self._lock = threading.RLock()
        self._stop = threading.Event()          # set by stop(): the worker ends soon
        self._worker: threading.Thread | None = None
        self._generation = 0                    # bumped to cancel a worker without waiting
        self._solution_from: State | None = None
        self._offered: list[Move] = []          # the solver's win, else its best line
        self._wins: dict = {}                   # position -> the rest of a win found from it
        self._shown: State | None = None     # the position the browser has
        self._states: list[State] = [start]
        self._line: list[Move] = []
        self._heights: list[float] = []          # board height of each position of the line
        self._clock: float | None = None         # when the person's first move of this game was made
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
        svg = base64.b64encode(self._position._repr_svg_().encode()).decode("ascii")
        return (f'<img src="data:image/svg+xml;base64,{svg}" style="max-width:100%;height:auto" '
                f'alt="{escape(repr(self))}">')

    # ------------------------------------------------------------ playing
    def play(self, move: Move | str) -> State:
        """Play one move (a Move or text like ``"t3 f0"``); IllegalMove says why not."""
        with self._lock, self.hold_sync():
            self._check_not_solving()
            before = self._position
            new = before.play(move)      # raises, changing nothing, when illegal
            self._cancel_replay()
            move = self.game.parse_move(move)
            self._append(new, move)
            said = words.move_words(before, move)
            if self.auto_foundations:
                home = self._play_safe_moves()
                if home:
                    said += f"; {home} home"
            self._show(self.moves_made, message=self._with_ids(said, str(move)), timed=True)
            return self._position

    def _append(self, new: State, move: Move) -> None:
        """Put ``move`` (leading to ``new``) after the current position, dropping the redo part;
        the person's clock starts with their first move."""
        if self._clock is None:
            self._clock = time.monotonic()
        del self._states[self.moves_made + 1:], self._line[self.moves_made:], self._heights[self.moves_made + 1:]
        self._states.append(new)
        self._line.append(move)
        self.moves_made = len(self._line)

    def _play_safe_moves(self) -> str:
        """Play the safe moves home from the current position; say which cards went."""
        from ..solver import safe_moves
        state = self._states[self.moves_made]
        played = safe_moves(state)
        for move in played:
            after = state.game.apply_legal(state, move)
            self._append(after, move)
            state = after
        befores = self._states[-len(played) - 1:-1] if played else []
        return ", ".join(words.move_words(s, m).split(" ", 1)[0] for s, m in zip(befores, played))

    def _check_not_solving(self) -> None:
        """The position stays put while the solver searches it: a move waits for Stop."""
        if self.busy == "solving":
            raise SolwidgetError("the solver is searching this position: wait for its answer, or press Stop")

    def _with_ids(self, words: str, ids: str) -> str:
        """Words for the person, with the move text beside them when pile ids are shown."""
        return f"{words} ({ids})" if self.show_ids and ids else words

    def undo(self) -> State:
        """Take back the last move (the toolbar's Undo); returns the position shown.

        Raises:
            SolwidgetError: no move has been made.
        """
        with self._lock:
            if self.moves_made == 0:
                raise SolwidgetError("nothing to undo")
            self._check_not_solving()
            self._cancel_replay()
            said = self._move_words(self.moves_made)
            self._show(self.moves_made - 1, message=f"undone: {said}", kind="info")
            return self._position

    def redo(self) -> State:
        """Play again the move that ``undo`` took back (the toolbar's Redo); returns the position shown.

        Raises:
            SolwidgetError: nothing was undone, or a new move has been played since.
        """
        with self._lock:
            if self.moves_made == len(self._line):
                raise SolwidgetError("nothing to redo")
            self._check_not_solving()
            self._cancel_replay()
            said = self._move_words(self.moves_made + 1)
            self._show(self.moves_made + 1, message=f"redone: {said}", kind="info")
            return self._position

    def seek(self, index: int) -> State:
        """Go to the position after ``index`` moves of the current line (the scrubber)."""
        with self._lock:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= len(self._line):
                raise SolwidgetError(f"no position {index!r}: the line has {len(self._line)} moves")
            self._check_not_solving()
            self._cancel_replay()
            self._show(index)
            return self._position

    def restart(self) -> State:
        """Back to the start of this deal, forgetting the moves."""
        with self._lock:
            self._reset(self._states[0], message="restarted")
            return self._position

    def new_deal(self, number: int | None = None) -> State:
        """Deal ``number`` (the next one when not given)."""
        with self._lock:
            number = self._coach_deal(number, self.deal)
            start = self.game.deal(number)      # raises InvalidDeal before anything changes
            self.deal = number
            self._reset(start, message=f"deal {number}")
            return self._position

    def autoplay(self) -> list[Move]:
        """Play the provably safe moves to the foundations (the solver's); return them."""
        with self._lock, self.hold_sync():
            self._check_not_solving()
            self._cancel_replay()
            start = self.moves_made
            home = self._play_safe_moves()
            played = self._line[start:self.moves_made]
            self._show(self.moves_made, message=f"autoplay: {home} home" if played
                       else "autoplay: no card can go home safely now", kind="info", timed=bool(played))
        return played

    def hint(self, **budget):
        """Ask the solver for a hint; highlight its move. Returns the Hint, or None.

        ``budget`` goes to ``sw.hint`` (max_states, max_seconds); by default the search
        stops after ``HINT_SECONDS``, so that a click on Hint answers promptly. Without a
        budget, a position on a win that a search of this widget found (Solve's, or an
        earlier hint's) answers at once with that win's next move.
        """
        from ..solver import Hint
        from ..solver import hint as solver_hint
        self._check_not_solving()
        known = None if budget else self._wins.get(_exactly(self._position))
        found: Hint | None
        if known:
            found = Hint(known[0], True, list(known))
        else:
            budget.setdefault("max_seconds", self.HINT_SECONDS)
            before = self.message, self.message_kind
            self._say("looking for a hint…", "info")
            try:
                found = solver_hint(self._position, **budget)
            except SolwidgetError:          # a bad budget: the widget stays as it was
                self._say(*before)
                raise
            if found is not None and found.winning:
                self._remember_win(self._position, found.moves)
        with self._lock, self.hold_sync():
            if found is None:
                self.highlight = []
                self._say("no hint: no move helps here", "info")
                return None
            self._coach_hint(found)
            if found.lost:          # no move to show: none wins
                self.highlight = []
                self._say(f"hint: {found.verdict}", "info")
                return found
            self.highlight = [str(found.move)]
            why = "it leads to a win" if found.winning else "the most promising move"
            said = self._with_ids(words.move_words(self._position, found.move), str(found.move))
            self._say(f"hint: {said}: {why}", "info")
        return found

    def _remember_win(self, start: State, moves) -> None:
        """Each position of a win, with the rest of the win from it (for ``hint``)."""
        if len(self._wins) > 50_000:
            self._wins.clear()
        state, moves = start, list(moves)
        for index, move in enumerate(moves):
            self._wins[_exactly(state)] = moves[index:]
            state = state.play(move)

    # ------------------------------------------------------------ the solver
    def solve(self, background: bool = True, steps: int = 500, **options) -> None:
        """Run the solver on the current position, showing its progress; offer the win.

        ``options`` go to ``sw.Solver``; without ``max_states`` or ``max_seconds`` the search
        has ``solve_seconds`` (the toolbar's choice) and no other limit."""
        from ..solver import Solver
        if "max_states" not in options and "max_seconds" not in options:
            options.update(max_seconds=self.solve_seconds, max_states=None)
        self.show_solver(Solver(self._position, **options), background=background, steps=steps)

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
        start = solver.state if isinstance(getattr(solver, "state", None), State) else self._position

        budget = _budget_of(solver)
        self.solver_progress = {**_progress_dict(solver.progress, running=True), **budget}

        def run(cancelled):
            last = 0.0
            while not solver.done and not cancelled():
                progress = solver.step(steps)
                now = time.monotonic()
                if now - last >= every and not cancelled():
                    with self._lock:        # one thread at a time changes what is synced
                        self.solver_progress = {**_progress_dict(progress, running=True), **budget}
                    last = now
            if not cancelled() or self._stop.is_set():
                self._solver_finished(solver, start)

        self._start("solving", run, background)

    def _solver_finished(self, solver, start: State) -> None:
        """One summary of the search that ended: won in N moves, lost (proved), unknown at
        the budget, or stopped; the line it offers (the win, else the best line) in words."""
        progress = {**_progress_dict(solver.progress, running=False), **_budget_of(solver)}
        result = solver.result if solver.done else None
        status = "stopped" if result is None else result.status
        line = list(result.moves) if result is not None and status == "won" else list(solver.progress.best_line or [])
        progress["status"] = status
        progress["summary"] = _summary(status, len(line), progress)
        progress["line_words"] = words.line_words(start, line[:200])
        if status == "won":
            self._remember_win(start, line)
        with self._lock, self.hold_sync():
            self._solution_from = start
            self._offered = line
            self.solution = [str(m) for m in line] if status == "won" else []
            self.solver_progress = progress
            self._say(f"solver: {progress['summary']}", "info")

    def replay(self, moves=None, delay: float | None = 0.4, background: bool = True) -> None:
        """Put ``moves`` after the current position and step through them, ``delay`` seconds
        apart (``delay=None`` only sets up the replay bar). Without ``moves``, replay the
        solver's win (else its best line) from the position it searched (going back to it
        if need be)."""
        if moves is not None and (isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable)):
            raise refuse("moves", "a list of moves (Move or text like 't3 f0'), or None", moves)
        if delay is not None:
            real_number("delay", delay, 0.0)
        flag("background", background)
        self._check_not_solving()
        self._cancel_replay()
        with self._lock:
            if moves is None:
                moves = self._offered
                self._go_to_solution_start()
            start = self.moves_made
            states, line = [self._position], []
            for move in moves:                  # check the whole line before changing anything
                move = self.game.parse_move(move)
                states.append(states[-1].play(move))
                line.append(move)
            del self._states[start + 1:], self._line[start:]
            self._states += states[1:]
            self._line += line
            self._heights = self._heights[:start + 1]
            self._show(start, message=f"replay: {len(line)} moves; step with the replay bar",
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
        if not self._offered:
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
        if background and not browser.background_allowed(background):
            background = False
            self._say(f"{what}: {browser.NO_THREADS}", "info")
        if background:
            self._worker = threading.Thread(target=guarded, name=f"solwidget-{what}", daemon=True)
            self._worker.start()
        else:
            guarded()

    # ------------------------------------------------------------ syncing
    def _reset(self, start: State, message: str) -> None:
        self._generation += 1                   # a solver or replay of the old game ends
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
            legal = after.legal_moves()
            self.legal = [str(move) for move in legal]
            self.action_words = self._action_words(after, legal)
            self.status = self._status(after, index, timed)
            self.move_words = self._move_said(index)
            self.board_min_height = self._line_height()
            self.highlight = []
            self._say(message, kind)
        self._coach_moved(index)

    def _move_said(self, index: int) -> str:
        """The move that led to position ``index``, in words, with its place in the line."""
        if not index:
            return ""
        return f"move {index} of {len(self._line)}: {self._move_words(index)}"

    def _move_words(self, index: int) -> str:
        """The move that led to position ``index``, in the board's words (with its text when
        pile ids are shown)."""
        move = self._line[index - 1]
        return self._with_ids(words.move_words(self._states[index - 1], move), str(move))

    def _status(self, state: State, index: int, timed: bool) -> dict:
        """The status line; a win the person played says how long their play took (a win
        reached by a replay, a seek or redo says its moves only)."""
        seconds = round(time.monotonic() - self._clock) if timed and self._clock is not None else None
        return sync.status_of(state, index, seconds)

    def _action_words(self, state: State, legal: list[Move]) -> dict:
        """Each legal action on a pile ("d1 build") in words, for its button."""
        return {str(m): words.move_words(state, m) for m in legal if m.dst in self.game.actions}

    def _line_height(self) -> float:
        """The height of the tallest position of the line (engine.geometry, as drawn)."""
        heights = self._heights
        del heights[len(self._states):]
        for state in self._states[len(heights):]:
            heights.append(place(self._layout, visible_piles(state))["height"])
        return max(heights)

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
            self._states, self._line, self._heights = [new], [], []
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

    @traitlets.validate("solve_seconds")
    def _valid_solve_seconds(self, proposal):
        seconds = proposal["value"]
        if seconds is not None and not 0 < seconds < math.inf:
            raise InvalidTrait(f"solve_seconds must be a positive, finite number of seconds or None "
                               f"(no limit), not {shown(seconds)}")
        return seconds

    @traitlets.validate("state")
    def _valid_state(self, proposal):
        state = proposal["value"]
        if state is not None and hasattr(self, "game") and state.game != self.game:
            raise InvalidTrait(f"state must be a State of {self.game.id}, the game this widget plays, "
                               f"not one of {state.game.id}")
        return state

    # ------------------------------------------------------------ the browser
    # All the browser may set, and the values it may set them to.
    BROWSER_TRAITS: ClassVar[dict[str, tuple]] = {
        "four_colour": sync.SWITCH, "show_ids": sync.SWITCH, "auto_foundations": sync.SWITCH,
        "coach": sync.SWITCH, "replay_delay": sync.REPLAY_SPEEDS, "solve_seconds": sync.SOLVE_BUDGETS}

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
            elif name == "replay":      # a win plays at the replay bar's speed; a best line waits there
                self.replay(delay=None)
                if self.solution:
                    self.send({"type": "play"})
            else:
                getattr(self, name)()


def _exactly(state: State) -> tuple:
    """A position exactly, as a dict key: not ``state.key()``, which may equate positions
    whose piles sit in other places (and so whose moves have other names)."""
    return state.piles, state.extra


def _budget_of(solver) -> dict:
    """The search's budget, for a progress bar: states and seconds (None: no limit)."""
    def limit(name):
        value = getattr(solver, name, None)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return {"max_states": limit("max_states"), "max_seconds": limit("max_seconds")}


def _summary(status: str, moves: int, progress: dict) -> str:
    """The one sentence that ends a search: what it found, then what it spent."""
    spent = f"{progress.get('expanded') or 0:,} states in {progress.get('elapsed') or 0:.1f} s"
    if status == "won":
        return f"won in {moves} moves ({spent})"
    if status == "lost":
        return f"lost (proved: no line wins; {spent})"
    if status == "unknown":
        return f"unknown at the budget ({spent}); its best line has {moves} moves"
    return f"stopped ({spent}); its best line has {moves} moves"


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
