"""Verdicts on positions: "winnable" (a win found from here), "lost" (proved), or "not known
yet" (the budget ran out), each found once and kept.

What one verdict tells of others, and why it is sound:
- A win found from a position P is a line of legal moves; every position along it keeps the
  rest of the line as its own win, so each is winnable, with that rest (replayed by the
  solver before it is returned: search.py's ``_finish_won``).
- A position with a move to a winnable position is winnable: that move, then its win.
- A position whose legal moves all lead to positions proved lost is lost: every line from it
  starts with one of those moves (and a position with no legal move that is not won is lost).
- A position proved lost stays lost: the proof is of the position, not of how it was reached.
- A position that a dead-end lemma of its family decides (``Profile.explain_dead_end``) is
  lost: the lemma is a proof (each family proves its own, and tests it against exhaustive
  searches), and it answers at once where a search may take long.
So the judge keeps verdicts by position (a State is a value: equal positions, one verdict).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ..engine.checks import refuse
from ..engine.moves import Move
from ..engine.state import State
from ..solver.budget import check_max_states, check_seconds
from ..solver.profile import profile_for
from ..solver.result import SolveResult
from ..solver.search import Solver, collector_paused

WINNABLE, LOST, UNKNOWN = "winnable", "lost", "not known yet"
KEPT = 200_000  # verdicts kept (the oldest go first): a few hundred bytes each
STEP = 2000  # expansions between two looks at the clock and at a cancel


@dataclass(frozen=True)
class Verdict:
    """What the coach knows of a position: ``status`` is "winnable" (``line`` wins from it,
    each move legal in turn), "lost" (proved: no line wins) or "not known yet"; ``result``
    is the search that decided it, where one did (a lost verdict inferred from its moves has
    none)."""

    status: str
    line: tuple[Move, ...] = ()
    result: SolveResult | None = None

    @property
    def known(self) -> bool:
        """Is the verdict winnable or lost (not "not known yet")?"""
        return self.status != UNKNOWN

    def __str__(self) -> str:
        if self.status == WINNABLE:
            return f"winnable (a win in {len(self.line)} moves)"
        return self.status


def check_judge_budget(max_seconds, max_states) -> tuple:
    """A judge's budget per position: seconds and positions, at least one of them a limit."""
    seconds, states = check_seconds(max_seconds), check_max_states(max_states)
    if seconds is None and states is None:
        raise refuse(
            "max_seconds",
            "a positive number of seconds when max_states is None (a verdict needs some limit)",
            max_seconds,
        )
    return seconds, states


class Judge:
    """Verdicts on positions of any game, found by the solver within a budget per position
    and kept (see the module docstring). Thread-safe: the widget judges in the background.

    Examples:
        With ``state`` FreeCell's deal 1:

        >>> judge = sw.Judge(max_seconds=None, max_states=20_000)
        >>> judge.judge(state).status
        'winnable'
        >>> judge.known(state.play(judge.known(state).line[0])).status    # along the win: known
        'winnable'
    """

    def __init__(self, max_seconds: float | None = 1.0, max_states: int | None = None):
        self.max_seconds, self.max_states = check_judge_budget(max_seconds, max_states)
        self._known: OrderedDict[State, Verdict] = OrderedDict()
        self._lock = threading.Lock()
        self.searches = 0  # searches run, for the curious and the benchmarks

    # ------------------------------------------------------------ what is known
    def known(self, state: State) -> Verdict | None:
        """The verdict already known for ``state`` (kept, or a won position), else None."""
        if state.is_won():
            return Verdict(WINNABLE)
        with self._lock:
            verdict = self._known.get(state)
            if verdict is not None:
                self._known.move_to_end(state)
            return verdict

    def inferred(self, state: State) -> Verdict | None:
        """A verdict that the verdicts kept for ``state``'s successors give at once: winnable
        through a winnable successor, lost when every successor is lost (module docstring)."""
        known = self.known(state)
        if known is not None:
            return known
        successors = [(move, state.play(move)) for move in state.legal_moves()]
        verdicts = [(move, self.known(after)) for move, after in successors]
        for move, verdict in verdicts:
            if verdict is not None and verdict.status == WINNABLE:
                return self.keep(state, Verdict(WINNABLE, (move, *verdict.line)))
        if all(v is not None and v.status == LOST for _, v in verdicts):  # none: no move
            return self.keep(state, Verdict(LOST))
        return None

    def at_once(self, state: State) -> Verdict | None:
        """The verdict known, inferred from the successors, or given by a dead-end lemma of
        the game's family (``Profile.explain_dead_end``): no search. None if none of these."""
        verdict = self.inferred(state)
        if verdict is None and profile_for(state.game).explain_dead_end(state) is not None:
            verdict = self.keep(state, Verdict(LOST))
        return verdict

    # ------------------------------------------------------------ judging
    def judge(
        self,
        state: State,
        max_seconds: float | None = None,
        max_states: int | None = None,
        cancelled=None,
        step: int = STEP,
    ) -> Verdict:
        """The verdict on ``state``: at once (``at_once``), or searched for within the budget
        (this judge's, or the one given). ``cancelled()``, if given, is asked between steps
        of the search (``step`` expansions each): True stops it, and the verdict is "not
        known yet" (not kept)."""
        verdict = self.at_once(state)
        if verdict is not None:
            return verdict
        seconds = self.max_seconds if max_seconds is None and max_states is None else max_seconds
        states = self.max_states if max_seconds is None and max_states is None else max_states
        solver = Solver(state, max_states=states, max_seconds=seconds)
        self.searches += 1
        with collector_paused():
            while solver.result is None:
                if cancelled is not None and cancelled():
                    return Verdict(UNKNOWN)
                solver.step(step)
        return self.record(state, solver.result)

    def record(self, state: State, result: SolveResult) -> Verdict:
        """Keep what ``result``, a search from ``state``, tells (module docstring)."""
        if result.status == "won":
            self.record_line(state, result.moves)
            return self.keep(state, Verdict(WINNABLE, tuple(result.moves), result))
        if result.status == "lost":
            return self.keep(state, Verdict(LOST, (), result))
        return Verdict(UNKNOWN, (), result)

    def record_line(self, state: State, line) -> Verdict:
        """Keep a win ``line`` from ``state`` (replayed here: it must win) for every position
        along it."""
        at = state
        for move in line:
            at = at.play(move)
        if not at.is_won():
            raise refuse("line", "a line of moves that wins from the position", line)
        line = tuple(line)
        verdict = self.keep(state, Verdict(WINNABLE, line))
        at = state
        for i, move in enumerate(line[:-1]):
            at = at.play(move)
            self.keep(at, Verdict(WINNABLE, line[i + 1 :]))
        return verdict

    def keep(self, state: State, verdict: Verdict) -> Verdict:
        """Keep ``verdict`` for ``state`` (the shorter of two wins); returns the one kept."""
        with self._lock:
            old = self._known.get(state)
            if (
                old is not None
                and old.status == WINNABLE
                and verdict.status == WINNABLE
                and (len(old.line), verdict.result is None) < (len(verdict.line), False)
            ):
                return old  # a shorter win kept, or the same one with its search
            if old is not None and old.status != verdict.status:
                raise AssertionError(f"coach bug: a position judged both {old.status} and {verdict.status}")
            self._known[state] = verdict
            self._known.move_to_end(state)
            while len(self._known) > KEPT:
                self._known.popitem(last=False)
            return verdict

    def __len__(self) -> int:
        return len(self._known)
