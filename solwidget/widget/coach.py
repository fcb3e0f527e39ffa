"""The coach in the widget: a winnability meter after every move, the move that lost the
game with one click back to before it, and deals the solver has won (``winnable_only``).

After each change of position (a move by hand or by ``play``, undo, redo, the replay bar, a
new deal) the widget asks ``_coach_moved``. A verdict already known answers at once; else a
background thread judges the position (solwidget.coach's Judge, ``coach_seconds`` at most) a
few hundred expansions at a time, asking between them whether a newer position came: then it
stops, and the newer one is judged. No move waits for a verdict, nor shares the kernel with a
search: after a message from the browser or a move, the search leaves the kernel alone for
QUIET seconds (it sleeps between its steps, holding no lock), so that the move's answer goes
out at once instead of taking turns with the search; and it pauses a moment between any two
steps, when a thread of the kernel that waits to read a message takes its turn. When a position judged lost
follows one judged winnable, the move between them lost the game: the widget says so in card
words, marks it (``coach_note["losing_move"]``) and the browser offers to go back to just
before it (a seek, checked as any other message).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import traitlets

from ..coach import LOST, UNKNOWN, WINNABLE, Judge
from ..coach.deals import deal_verdict, difficulty
from ..coach.review import losing_move
from ..engine import words
from ..engine.checks import flag, positive_number, shown
from ..engine.errors import SolwidgetError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.state import State
from ..solver.profile import profile_for

if TYPE_CHECKING:
    from ..solver import Hint

COACH_STEP = 300  # expansions between two looks for a newer position
QUIET = 0.1  # seconds the search leaves the kernel alone after a message or a move
PAUSE = 0.001  # seconds the search sleeps between its steps: a message's turn
AHEAD = 2  # deals solved ahead of the one dealt, with winnable_only
DEAL_SECONDS = 2.0  # the budget to solve one deal, with winnable_only
MAX_SKIPPED = 200  # deals tried for a winnable one before giving up
SAID = {
    WINNABLE: "winnable: a win is still there",
    LOST: "lost: from here no line wins",
    UNKNOWN: "not known yet",
}


class InvalidCoachSetting(SolwidgetError, traitlets.TraitError):
    """A coach trait set to a value it cannot take (the project's error, and traitlets')."""


class CoachMixin(traitlets.HasTraits):
    """The coach's traits and its work; SolitaireWidget calls ``_coach_start`` once, then
    ``_coach_moved(index)`` after every change of position, and ``_coach_deal(number)``
    before dealing."""

    coach = traitlets.Bool(False).tag(sync=True)
    coach_seconds = traitlets.Float(1.0).tag(sync=True)
    verdict = traitlets.Unicode("").tag(sync=True)  # "" with the coach off
    coach_note = traitlets.Dict().tag(sync=True)  # what the meter shows (see _note)
    winnable_only = traitlets.Bool(False).tag(sync=True)
    difficulty = traitlets.Dict().tag(sync=True)  # the deal's, once known ({} before)

    # What the widget it is mixed into holds (SolitaireWidget).
    game: Game
    state: State | None
    moves_made: int
    _states: list[State]
    _line: list[Move]
    _lock: threading.RLock
    hold_sync: Callable[[], AbstractContextManager[object]]
    _losing: tuple[int, State] | None  # (move number, the position after it) once found

    def _coach_start(self, coach: bool, winnable_only: bool, coach_seconds: float) -> None:
        self._judge = Judge(coach_seconds)
        self._coach_generation = 0
        self._coach_quiet_until = 0.0  # the search sleeps until then (``_coach_wait``)
        self._losing = None  # (move number, the position after it) once found
        self._deal_work = 0
        self.coach_seconds = coach_seconds
        self.winnable_only = winnable_only
        self.coach = coach  # the observer judges the position now

    # ------------------------------------------------------------ the meter
    @traitlets.validate("coach_seconds")
    def _valid_coach_seconds(self, proposal):
        seconds = proposal["value"]
        if not 0 < seconds < math.inf:
            raise InvalidCoachSetting(
                f"coach_seconds must be a positive, finite number of seconds, not {shown(seconds)}"
            )
        return seconds

    @traitlets.observe("coach")
    def _coach_switched(self, change) -> None:
        if not hasattr(self, "_judge"):
            return
        if change["new"]:
            self._coach_moved(self.moves_made)
        else:
            self._coach_generation += 1
            self.verdict, self.coach_note = "", {}

    def _handle_custom_msg(self, content, buffers):
        """A message from the browser: the search steps aside while the kernel answers it."""
        self._coach_quiet_until = time.monotonic() + QUIET
        # ipywidgets.Widget's method, which follows this mixin in SolitaireWidget's MRO
        super()._handle_custom_msg(content, buffers)  # type: ignore[misc]

    def _coach_wait(self, generation: int) -> None:
        """Sleep a moment (``PAUSE``: a thread of the kernel that waits to read a message gets
        its turn then, not after the interpreter's switch interval), and on while the kernel
        answers a message or a move (``QUIET``), or until a newer position comes."""
        time.sleep(PAUSE)
        while self._coach_generation == generation:
            left = self._coach_quiet_until - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.01))

    def _coach_moved(self, index: int) -> None:
        """Judge position ``index`` of the line: at once if known, else in the background."""
        if not hasattr(self, "_judge") or not self.coach:
            return
        self._coach_quiet_until = time.monotonic() + QUIET
        self._coach_generation += 1
        generation = self._coach_generation
        if self._losing and (
            self._losing[0] > len(self._line) or self._states[self._losing[0]] is not self._losing[1]
        ):
            self._losing = None  # the line changed where it was lost
        state = self._states[index]
        before = self._states[index - 1] if index else None
        known = self._judge.known(state)
        previous = self._judge.known(before) if before is not None else None
        settled = known is not None and (
            known.status == WINNABLE
            or before is None
            or self._losing
            or (previous is not None and previous.status == WINNABLE)
        )
        if settled and known is not None:  # nothing left to search: say it at once
            self._coach_show(index, known.status, previous.status if previous is not None else None)
            return
        self.verdict = UNKNOWN
        self.coach_note = self._note(index, UNKNOWN, judging=True)
        seconds = self.coach_seconds
        line = (self._states[: index + 1], self._line[:index])
        threading.Thread(
            target=self._coach_judge, args=(generation, index, state, before, seconds, line), daemon=True
        ).start()

    def _coach_judge(
        self,
        generation: int,
        index: int,
        state: State,
        before: State | None,
        seconds: float,
        line: tuple[list[State], list[Move]],
    ) -> None:
        """The background part of ``_coach_moved``: this position, then, if it is lost, the
        one before it (was this the move that lost the game?), and if that one is lost too
        and no losing move is known on this line, the line's verdicts back to its start
        (coach.review's boundary search: a handful of positions)."""

        def cancelled() -> bool:
            self._coach_wait(generation)
            return self._coach_generation != generation

        try:
            if cancelled():
                return
            status = self._judge.judge(state, seconds, None, cancelled, COACH_STEP).status
            previous = None
            if status == LOST and before is not None and not cancelled():
                previous = self._judge.judge(before, seconds, None, cancelled, COACH_STEP).status
            if previous == LOST and not self._losing and index > 1:
                number = losing_move(line[0], line[1], self._judge, seconds, cancelled)
                with self._lock:
                    if number is not None and not cancelled():
                        self._losing = (number, line[0][number])
        except Exception as err:  # noqa: BLE001 - a thread has no caller: say it in the widget
            with self._lock:
                if not cancelled():
                    self.coach_note = {"text": f"the coach failed: {err}", "verdict": UNKNOWN}
            return
        with self._lock:
            if not cancelled():
                self._coach_show(index, status, previous)

    def _coach_show(self, index: int, status: str, previous: str | None) -> None:
        """Show the verdict on position ``index``; ``previous``: the verdict before its move."""
        if status == LOST and previous == WINNABLE:
            self._losing = (index, self._states[index])
        with self.hold_sync():
            self.verdict = status
            self.coach_note = self._note(index, status)

    def _note(self, index: int, status: str, judging: bool = False) -> dict:
        """What the meter shows: its words, the verdict, and the move that lost the game (its
        number and the position to go back to), when known on this line up to ``index``."""
        text = "judging…" if judging else SAID[status]
        if status == UNKNOWN and not judging:
            text += f" (no answer within {self.coach_seconds:g} s)"
        note = {"text": text, "verdict": status, "judging": judging}
        if status == LOST and not judging:
            lemma = profile_for(self.game).explain_dead_end(self._states[index])
            if lemma is not None:  # a family's lemma decides it here: say which cards
                note.update(why=lemma.text, cards=list(lemma.cards))
        if self._losing and self._losing[0] <= index:
            number = self._losing[0]
            said = words.move_words(self._states[number - 1], self._line[number - 1])
            note.update(
                losing_move=number,
                back_to=number - 1,
                lost_text=f"moving {said} lost the game: from here no line wins"
                if number == index
                else f"the game was lost at move {number}: moving {said}",
            )
        return note

    def lost_at(self) -> int | None:
        """The number of the move that lost the game on the line played so far, if known."""
        losing = getattr(self, "_losing", None)
        if losing and losing[0] <= self.moves_made and self._states[losing[0]] is losing[1]:
            return losing[0]
        return None

    def _coach_hint(self, found: Hint) -> None:
        """What a hint found, for the coach: its win, or its proof that nothing wins."""
        if found.winning and self.state is not None:
            self._judge.record_line(self.state, found.moves)
        if found.lost:
            found.lost_at = self.lost_at()

    # ------------------------------------------------------------ winnable deals
    def _coach_deal(self, number: int | None, current: int) -> int:
        """The deal to give: ``number`` (the next when None), or with ``winnable_only`` the
        first one from there that the solver has won; the next ones are solved ahead."""
        number = current + 1 if number is None else number
        if not self.winnable_only:
            return number
        number = first_winnable(self.game, number)
        self._solve_ahead(number)
        return number

    def _solve_ahead(self, number: int) -> None:
        """Solve the next AHEAD deals in the background, and weigh this one's difficulty."""
        self._deal_work += 1
        work = self._deal_work
        self.difficulty = {}

        def run() -> None:
            judge = Judge(DEAL_SECONDS)
            state = self.game.deal(number)
            verdict = judge.judge(state)
            if verdict.status == WINNABLE and self._deal_work == work:
                found = difficulty(state, verdict.line, judge)
                with self._lock:
                    if self._deal_work == work:
                        self.difficulty = {"deal": number, **found.as_dict()}
            for ahead in range(number + 1, number + 1 + AHEAD):
                if self._deal_work != work:
                    return
                deal_verdict(self.game, ahead, judge)

        threading.Thread(target=run, daemon=True).start()


def first_winnable(game: Game, number: int) -> int:
    """The first deal from ``number`` on that the solver has won (kept: solved once)."""
    judge = Judge(DEAL_SECONDS)
    for tried in range(MAX_SKIPPED):
        if deal_verdict(game, number + tried, judge) == WINNABLE:
            return number + tried
    raise SolwidgetError(
        f"no deal from {number} to {number + MAX_SKIPPED - 1} was won by the solver within {DEAL_SECONDS:g} s"
    )


def check_coach_options(coach, winnable_only, coach_seconds) -> tuple[bool, bool, float]:
    """The coach's arguments of SolitaireWidget, checked before anything is built."""
    return (
        flag("coach", coach),
        flag("winnable_only", winnable_only),
        positive_number("coach_seconds", coach_seconds, accepted="a positive, finite number of seconds"),
    )
