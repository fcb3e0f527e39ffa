"""The widget's background work: the solver's search shown live, hints, and a replay's steps
(``SolitaireWidget`` is a WorkerMixin).

One worker runs at a time (``_start``): a newer one cancels it, a person's move takes over
from a replay, and ``stop`` ends either. While the solver searches, the position stays put.
The widget's lock guards what is synced, since a worker's thread changes it too. The
coach's judge (widget/coach.py) runs beside them, on a thread of its own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ..engine import words
from ..engine.checks import flag, real_number, refuse, whole_number
from ..engine.errors import SolwidgetError
from ..engine.moves import Move
from ..engine.state import Extra, Piles, State
from . import browser

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..solver import Hint, Progress, Solver
    from ..solver.search import SolverOptions

    class SearchBudget(SolverOptions, total=False):
        """What ``hint`` and ``solve`` pass on (to ``sw.hint``, ``sw.Solver``): the search's
        budgets and options."""

        max_states: int | None
        max_seconds: float | None


Exactly = tuple[Piles, Extra]  # a position exactly (``_exactly``)


class WorkerMixin:
    """A SolitaireWidget's solver, hints and replay steps, on one worker thread."""

    # What the widget it is mixed into holds (SolitaireWidget).
    HINT_SECONDS: float
    state: State | None
    busy: str
    message: str
    message_kind: str
    highlight: list[str]
    solution: list[str]
    solver_progress: dict[str, object]
    solve_seconds: float | None
    _lock: threading.RLock
    _stop: threading.Event
    _worker: threading.Thread | None
    _generation: int
    _wins: dict[Exactly, list[Move]]  # position -> the rest of a win found from it
    _offered: list[Move]
    _solution_from: State | None
    hold_sync: Callable[[], AbstractContextManager[object]]

    if TYPE_CHECKING:  # and what it does: the widget's methods, and the coach's

        @property
        def _position(self) -> State: ...
        def _say(self, text: str, kind: str = "") -> None: ...
        def _with_ids(self, words: str, ids: str) -> str: ...
        def _coach_hint(self, found: Hint) -> None: ...

    def hint(self, **budget: Unpack[SearchBudget]) -> Hint | None:
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
            shown_before = self.message, self.message_kind
            self._say("looking for a hint…", "info")
            try:
                found = solver_hint(self._position, **budget)
            except SolwidgetError:  # a bad budget: the widget stays as it was
                self._say(*shown_before)
                raise
            if found is not None and found.winning:
                self._remember_win(self._position, found.moves)
        with self._lock, self.hold_sync():
            if found is None:
                self.highlight = []
                self._say("no hint: no move helps here", "info")
                return None
            self._coach_hint(found)
            if found.lost:  # no move to show: none wins
                self.highlight = []
                self._say(f"hint: {found.verdict}", "info")
                return found
            self.highlight = [str(found.move)]
            why = "it leads to a win" if found.winning else "the most promising move"
            said = self._with_ids(words.move_words(self._position, found.move), str(found.move))
            self._say(f"hint: {said}: {why}", "info")
        return found

    def _remember_win(self, start: State, moves: Iterable[Move]) -> None:
        """Each position of a win, with the rest of the win from it (for ``hint``)."""
        if len(self._wins) > 50_000:
            self._wins.clear()
        state, moves = start, list(moves)
        for index, move in enumerate(moves):
            self._wins[_exactly(state)] = moves[index:]
            state = state.play(move)

    # ------------------------------------------------------------ the solver
    def solve(self, background: bool = True, steps: int = 500, **options: Unpack[SearchBudget]) -> None:
        """Run the solver on the current position, showing its progress; offer the win.

        ``options`` go to ``sw.Solver``; without ``max_states`` or ``max_seconds`` the search
        has ``solve_seconds`` (the toolbar's choice) and no other limit."""
        from ..solver import Solver

        if "max_states" not in options and "max_seconds" not in options:
            options.update({"max_seconds": self.solve_seconds, "max_states": None})
        self.show_solver(Solver(self._position, **options), background=background, steps=steps)

    def show_solver(
        self, solver: Solver, background: bool = True, steps: int = 500, every: float = 0.2
    ) -> None:
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

        def run(cancelled: Callable[[], bool]) -> None:
            last = 0.0
            while not solver.done and not cancelled():
                progress = solver.step(steps)
                now = time.monotonic()
                if now - last >= every:
                    with self._lock:  # one thread at a time changes what is synced
                        if cancelled():  # asked again under the lock: a new deal may just have come
                            break
                        self.solver_progress = {**_progress_dict(progress, running=True), **budget}
                    last = now
            with self._lock:
                if not cancelled() or self._stop.is_set():  # Stop shows what was found
                    self._solver_finished(solver, start)

        self._start("solving", run, background)

    def _solver_finished(self, solver: Solver, start: State) -> None:
        """One summary of the search that ended: won in N moves, lost (proved), unknown at
        the budget, or stopped; the line it offers (the win, else the best line) in words."""
        progress = {**_progress_dict(solver.progress, running=False), **_budget_of(solver)}
        result = solver.result if solver.done else None
        status = "stopped" if result is None else result.status
        line = (
            list(result.moves)
            if result is not None and status == "won"
            else list(solver.progress.best_line or [])
        )
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

    def _check_not_solving(self) -> None:
        """The position stays put while the solver searches it: a move waits for Stop."""
        if self.busy == "solving":
            raise SolwidgetError("the solver is searching this position: wait for its answer, or press Stop")

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

    def _start(self, what: str, run: Callable[[Callable[[], bool]], None], background: bool) -> None:
        """Run ``run(cancelled)`` as the one worker; a newer worker cancels older ones."""
        self.stop()
        self._stop.clear()
        self._generation += 1
        generation = self._generation

        def cancelled() -> bool:
            return self._stop.is_set() or generation != self._generation

        def guarded() -> None:
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


def _exactly(state: State) -> Exactly:
    """A position exactly, as a dict key: not ``state.key()``, which may equate positions
    whose piles sit in other places (and so whose moves have other names)."""
    return state.piles, state.extra


def _budget_of(solver: Solver) -> dict[str, int | float | None]:
    """The search's budget, for a progress bar: states and seconds (None: no limit)."""

    def limit(name: str) -> int | float | None:
        value = getattr(solver, name, None)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    return {"max_states": limit("max_states"), "max_seconds": limit("max_seconds")}


def _summary(status: str, moves: int, progress: dict[str, object]) -> str:
    """The one sentence that ends a search: what it found, then what it spent."""
    spent = f"{progress.get('expanded') or 0:,} states in {progress.get('elapsed') or 0:.1f} s"
    if status == "won":
        return f"won in {moves} moves ({spent})"
    if status == "lost":
        return f"lost (proved: no line wins; {spent})"
    if status == "unknown":
        return f"unknown at the budget ({spent}); its best line has {moves} moves"
    return f"stopped ({spent}); its best line has {moves} moves"


def _progress_dict(progress: Progress, running: bool) -> dict[str, object]:
    """The solver's progress as plain data for the browser."""

    def number(name: str) -> int | float | None:
        value = getattr(progress, name, None)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    line = getattr(progress, "best_line", None) or []
    return {
        "running": running,
        "expanded": number("expanded"),
        "frontier": number("frontier"),
        "depth": number("depth"),
        "best_score": number("best_score"),
        "elapsed": number("elapsed"),
        "rate": number("rate"),
        "best_line": [str(m) for m in line][:200],
    }
