"""The widget's line of moves: the positions from the start of the deal, the moves between
them, and the part that undo left for redo (``SolitaireWidget`` is a LineMixin).

``_states[i]`` is the position after ``i`` moves of ``_line``; ``moves_made`` is the
position shown, so ``_line[moves_made:]`` is what redo plays again. ``_heights`` keeps each
position's board height, so that the board keeps the height of the line's tallest position.
Playing, undo, redo, seek, restart, a new deal, autoplay and a replay change the line here;
``SolitaireWidget._show`` sends the position that results.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from ..engine import words
from ..engine.checks import flag, real_number, refuse
from ..engine.errors import SolwidgetError
from ..engine.game import Game
from ..engine.geometry import Layout, place
from ..engine.moves import Move
from ..engine.state import State


class LineMixin:
    """The line of moves of a SolitaireWidget, and the moves that change it."""

    # What the widget it is mixed into holds (SolitaireWidget).
    game: Game
    state: State | None
    deal: int
    moves_made: int
    auto_foundations: bool
    _layout: Layout
    _lock: threading.RLock
    _stop: threading.Event
    _states: list[State]
    _line: list[Move]
    _heights: list[float]
    _clock: float | None  # when the person's first move of this game was made
    _offered: list[Move]
    _solution_from: State | None
    hold_sync: Callable[[], AbstractContextManager[object]]

    if TYPE_CHECKING:  # and what it does: the widget's methods, and the other mixins'

        @property
        def _position(self) -> State: ...
        def _show(self, index: int, message: str = "", kind: str = "", timed: bool = False) -> None: ...
        def _reset(self, start: State, message: str) -> None: ...
        def _with_ids(self, words: str, ids: str) -> str: ...
        def _check_not_solving(self) -> None: ...
        def _cancel_replay(self) -> None: ...
        def _start(self, what: str, run: Callable[[Callable[[], bool]], None], background: bool) -> None: ...
        def _coach_deal(self, number: int | None, current: int) -> int: ...

    @property
    def history(self) -> list[Move]:
        """The moves played from the start to the current position."""
        return self._line[: self.moves_made]

    @property
    def line(self) -> list[Move]:
        """Every move of the current line, including those undone (redo goes along it)."""
        return list(self._line)

    def play(self, move: Move | str) -> State:
        """Play one move (a Move or text like ``"t3 f0"``); IllegalMove says why not."""
        return self._play(self.game.parse_move(move))

    def _play(self, move: Move) -> State:
        """Play ``move``, which the game has read already (``play``, or a move from the browser,
        whose text ``sync.check_message`` reads)."""
        with self._lock, self.hold_sync():
            self._check_not_solving()
            before = self._position
            new = before.play(move)  # raises, changing nothing, when illegal
            self._cancel_replay()
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
        del (
            self._states[self.moves_made + 1 :],
            self._line[self.moves_made :],
            self._heights[self.moves_made + 1 :],
        )
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
        befores = self._states[-len(played) - 1 : -1] if played else []
        return ", ".join(words.move_words(s, m).split(" ", 1)[0] for s, m in zip(befores, played))

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
            start = self.game.deal(number)  # raises InvalidDeal before anything changes
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
            played = self._line[start : self.moves_made]
            self._show(
                self.moves_made,
                message=f"autoplay: {home} home" if played else "autoplay: no card can go home safely now",
                kind="info",
                timed=bool(played),
            )
        return played

    def replay(
        self, moves: Iterable[Move | str] | None = None, delay: float | None = 0.4, background: bool = True
    ) -> None:
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
            for move in moves:  # check the whole line before changing anything
                move = self.game.parse_move(move)
                states.append(states[-1].play(move))
                line.append(move)
            del self._states[start + 1 :], self._line[start:]
            self._states += states[1:]
            self._line += line
            self._heights = self._heights[: start + 1]
            self._show(start, message=f"replay: {len(line)} moves; step with the replay bar", kind="info")
        if delay is None:
            return

        def run(cancelled: Callable[[], bool]) -> None:
            for index in range(start + 1, start + len(line) + 1):
                if self._stop.wait(delay):
                    return
                with self._lock:
                    if cancelled():  # asked under the lock: a move or a new deal may just have come
                        return
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

    def _line_height(self) -> float:
        """The height of the tallest position of the line (engine.geometry, as drawn)."""
        heights = self._heights
        del heights[len(self._states) :]
        for state in self._states[len(heights) :]:
            heights.append(place(self._layout, self.game.visible(state))["height"])
        return max(heights)
