"""A played line reviewed: the verdict before and after each move, the first move that lost a
winnable game, and the crossroads, where only one or two moves keep the game winnable.

Verdicts along a line are ordered: if the position after a move is winnable, so is the one
before it (that move, then the win), and if the position before a move is lost, so is the one
after it. So the winnable positions of a line come first, the lost ones last, and a search
for the boundary needs a handful of verdicts, not one per move: the position at the middle
of the stretch still open is judged, and the stretch halved. A verdict the budget leaves
"not known yet" splits the stretch in two, each searched on; but between two positions both
left "not known yet", the positions get only the verdicts known at once (``Judge.at_once``:
kept, inferred from their moves, or a family's dead-end lemma), without a search each: the
budget ran out at both ends, and positions a few moves apart are as hard as a rule, so a
search each would spend the budget again and again for nothing (a lemma still finds a loss
there, and the stretch before it is then searched). Every position before the last one found
winnable is winnable (with the line's moves to it, then its win), every one after the first
found lost is lost, and the moves between them are "not known yet".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..engine.checks import refuse
from ..engine.errors import IllegalMove, InvalidArgument, SolwidgetError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.state import State
from ..engine.words import move_words
from .judge import LOST, UNKNOWN, WINNABLE, Judge, Verdict

CROSSROADS = 2  # a position where at most this many moves keep a win is a crossroads
CHOICE_SECONDS = 0.1  # the most seconds for each alternative move weighed for crossroads


@dataclass
class Crossroads:
    """A winnable position where few legal moves keep the game winnable: ``keeping`` (each
    with a win found after it), ``losing`` (each proved lost), ``open`` (not known yet)."""

    index: int  # the position before move ``index`` (0: the start)
    state: State
    keeping: list[Move]
    losing: list[Move]
    open: list[Move] = field(default_factory=list)

    @property
    def is_crossroads(self) -> bool:
        """At most two moves keep a win, at least one other was proved lost, and none is
        open."""
        return len(self.keeping) <= CROSSROADS and bool(self.losing) and not self.open

    def __str__(self) -> str:
        keep = ", ".join(move_words(self.state, m) for m in self.keeping)
        return (
            f"before move {self.index + 1}: only {keep} keep{'s' if len(self.keeping) == 1 else ''} a win "
            f"({len(self.losing)} other moves lose)"
        )


@dataclass
class MoveReview:
    """One move of a reviewed line, and the verdicts before and after it."""

    number: int  # 1 for the first move
    move: Move
    words: str  # the move as a person says it ("7♠ to a free cell")
    before: str
    after: str

    @property
    def lost_the_game(self) -> bool:
        """Did this move turn a winnable position into a lost one?"""
        return self.before == WINNABLE and self.after == LOST

    def __str__(self) -> str:
        mark = "   <- lost the game here" if self.lost_the_game else ""
        return f"{self.number:4}. {self.move!s:12} {self.words:32} {self.before:>13} -> {self.after}{mark}"


@dataclass
class Review:
    """What ``review`` found: ``moves`` (a MoveReview each), ``first_losing`` (the first move
    that turned a winnable position into a lost one, or None), ``crossroads`` (the winnable
    positions of the line, before it was lost, where at most two moves keep a win),
    ``verdicts`` (one per position, the start first) and the seconds it took."""

    start: State
    moves: list[MoveReview]
    verdicts: list[Verdict]
    first_losing: MoveReview | None
    crossroads: list[Crossroads]
    seconds: float

    @property
    def lost_from_start(self) -> bool:
        """Was the first position of the line already lost?"""
        return self.verdicts[0].status == LOST

    def summary(self) -> str:
        """One sentence: where the game was lost, if it was."""
        if self.lost_from_start:
            return "the game was lost from the start: no line wins this deal"
        if self.first_losing is not None:
            m = self.first_losing
            return f"the game was lost at move {m.number}: {m.words} (from there no line wins)"
        last = self.verdicts[-1].status
        if last == WINNABLE:
            return "the game is still winnable after the last move"
        if last == LOST:
            return "the game was lost, but where is not known yet (some verdicts ran out of time)"
        return "not known yet whether the game is still winnable"

    def __str__(self) -> str:
        lines = [self.summary()]
        lines += [str(m) for m in self.moves]
        lines += [f"crossroads {c}" for c in self.crossroads]
        return "\n".join(lines)


def _line(game_or_state, moves) -> tuple[State, list[Move], list[State]]:
    """The start, the moves parsed, and every position of the line; a clear error for a move
    that is not legal where it is played (naming it by its number)."""
    if isinstance(game_or_state, Game):
        raise refuse(
            "game_or_state", "a State (game.deal(n)); a game needs a deal: game.deal(n)", game_or_state
        )
    if not isinstance(game_or_state, State):
        raise refuse("game_or_state", "a State (game.deal(n))", game_or_state)
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise refuse("moves", "a list of moves (Move or text like 't3 f0')", moves)
    start = game_or_state
    states, parsed = [start], []
    for number, move in enumerate(moves, 1):
        try:
            move = start.game.parse_move(move)
            states.append(states[-1].play(move))
        except IllegalMove as err:
            raise IllegalMove(
                err.move, f"move {number} of the line (moves[{number - 1}]) is not legal there: {err.reason}"
            ) from None
        except SolwidgetError as err:
            raise InvalidArgument(f"moves[{number - 1}] (move {number} of the line): {err}") from None
        parsed.append(move)
    return start, parsed, states


def review(
    game_or_state,
    moves,
    *,
    max_seconds: float | None = 1.0,
    max_states: int | None = None,
    crossroads: bool = True,
    judge: Judge | None = None,
) -> Review:
    """Review a played line: the verdict before and after each move, the first move that
    lost a winnable game, and the crossroads along the line (see the module docstring).

    Args:
        game_or_state: the position the line starts from (``game.deal(n)``).
        moves: the moves played, each a Move or text (``"t3 f0"``), legal in turn.
        max_seconds, max_states: the budget for each position judged (at least one a limit).
        crossroads: also weigh every legal move at each winnable position of the line, each
            within ``max_states`` and at most CHOICE_SECONDS of ``max_seconds``.
        judge: a Judge whose verdicts to use and add to (a new one by default).

    Returns:
        A Review; its ``first_losing`` is None when no move lost a winnable game.

    Raises:
        InvalidArgument: a bad position, moves or budget (the message names it).
        IllegalMove: a move is not legal where it is played (the message gives its number).

    Examples:
        With ``state`` FreeCell's deal 1:

        >>> report = sw.review(state, ["t0 c0", "t1 c1"], max_seconds=None, max_states=20_000)
        >>> report.summary(), report.first_losing
        ('the game is still winnable after the last move', None)
    """
    judge = judge if judge is not None else Judge(max_seconds, max_states)
    if judge.max_seconds != max_seconds or judge.max_states != max_states:
        Judge(max_seconds, max_states)  # the budget given is checked even with a judge
    began = time.perf_counter()
    start, parsed, states = _line(game_or_state, moves)
    verdicts = _verdicts(states, parsed, judge, max_seconds, max_states)
    reviews = [
        MoveReview(i + 1, move, move_words(states[i], move), verdicts[i].status, verdicts[i + 1].status)
        for i, move in enumerate(parsed)
    ]
    first = next((r for r in reviews if r.lost_the_game), None)
    found = []
    if crossroads:
        last = first.number - 1 if first is not None else len(parsed)
        for i in range(last + 1):
            if verdicts[i].status == WINNABLE and not states[i].is_won():
                seconds = None if max_seconds is None else min(CHOICE_SECONDS, max_seconds)
                choice = weigh_moves(states[i], judge, i, seconds, max_states, decide_only=True)
                if choice.is_crossroads:
                    found.append(choice)
    return Review(start, reviews, verdicts, first, found, time.perf_counter() - began)


def _verdicts(
    states: list[State], moves: list[Move], judge: Judge, max_seconds, max_states, cancelled=None
) -> list[Verdict]:
    """A verdict for every position of the line, from the fewest searches (module docstring).
    ``cancelled()``, if given, is asked while judging: True ends the review (Cancelled)."""
    found: dict[int, Verdict] = {}

    def ask(i: int, search: bool = True) -> Verdict:
        if i not in found:
            if search:
                found[i] = judge.judge(states[i], max_seconds, max_states, cancelled)
            else:
                found[i] = judge.at_once(states[i]) or Verdict(UNKNOWN)
            if cancelled is not None and cancelled():
                raise Cancelled
        return found[i]

    def boundary(lo: int, hi: int) -> None:
        """Positions lo and hi are judged; judge between them where the boundary may lie."""
        if hi - lo <= 1 or found[lo].status == LOST or found[hi].status == WINNABLE:
            return  # nothing between, or all between follow (module docstring)
        mid = (lo + hi) // 2
        verdict = ask(mid, search=found[lo].status != UNKNOWN or found[hi].status != UNKNOWN)
        if verdict.status != LOST:
            boundary(mid, hi)
        if verdict.status != WINNABLE:
            boundary(lo, mid)

    last = len(states) - 1
    ask(0)
    if last:
        ask(last)
        boundary(0, last)
    winnable = max((i for i, v in found.items() if v.status == WINNABLE), default=-1)
    lost = min((i for i, v in found.items() if v.status == LOST), default=last + 1)
    if winnable >= lost:
        raise AssertionError("coach bug: a winnable position after a lost one on the same line")
    verdicts = []
    for i in range(last + 1):
        if i in found:
            verdicts.append(found[i])
        elif i < winnable:  # the line's moves to a winnable position, then its win
            verdicts.append(
                judge.keep(states[i], Verdict(WINNABLE, (*moves[i:winnable], *found[winnable].line)))
            )
        elif i > lost:
            verdicts.append(judge.keep(states[i], Verdict(LOST)))
        else:
            verdicts.append(Verdict(UNKNOWN))
    return verdicts


class Cancelled(Exception):
    """A review stopped by its caller."""


def losing_move(
    states: list[State], moves: list[Move], judge: Judge, max_seconds: float | None, cancelled=None
) -> int | None:
    """The number of the move of this line that turned a winnable position into a lost one,
    where the verdicts found within ``max_seconds`` a position tell; else None (also when
    ``cancelled()`` became True)."""
    try:
        verdicts = _verdicts(states, moves, judge, max_seconds, None, cancelled)
    except Cancelled:
        return None
    return next(
        (
            i + 1
            for i in range(len(moves))
            if verdicts[i].status == WINNABLE and verdicts[i + 1].status == LOST
        ),
        None,
    )


def weigh_moves(
    state: State,
    judge: Judge,
    index: int = 0,
    max_seconds: float | None = CHOICE_SECONDS,
    max_states: int | None = None,
    decide_only: bool = False,
) -> Crossroads:
    """Every legal move of ``state`` judged, each within ``max_seconds`` and ``max_states``
    (None: no limit of that kind): which keep a win, which lose, which stay open. Moves whose
    verdicts are known come first. With ``decide_only``, stop once the position cannot be a
    crossroads (a third move keeps a win, or one stays open): the lists are then partial."""
    keeping: list[Move] = []
    losing: list[Move] = []
    open_: list[Move] = []
    successors = [(move, state.play(move)) for move in state.legal_moves()]
    successors.sort(key=lambda pair: judge.known(pair[1]) is None)  # stable: known first
    for move, after in successors:
        if after == state:
            continue  # a move that changes nothing is no choice
        status = judge.judge(after, max_seconds, max_states).status
        (keeping if status == WINNABLE else losing if status == LOST else open_).append(move)
        if decide_only and (len(keeping) > CROSSROADS or open_):
            break
    return Crossroads(index, state, keeping, losing, open_)
