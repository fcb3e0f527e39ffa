"""Deals the solver has won, and how hard each is.

Solving ahead, not a table shipped with the package. A verdict table for deals 1-10,000 of
every game would answer at once, but it is costly to make (a hundred thousand searches and
more, each up to its budget) and to keep true: a change of a rule, a variant (docs/variants.md)
or a new game would need a table of its own, and a variant made in a notebook has none. The
solver decides most deals of the seed games within a second, so the coach solves the deals
it needs when it needs them, keeps the verdicts in a small cache, and the widget solves the
next deals ahead in the background while the person plays.

The difficulty of a won deal is read off its found win: at each position along it, every
legal move is weighed (is there a win after it?), at twenty positions spread along it (all
of them weighed would take a search per move, thousands for a long win); a position where at most two moves keep a
win, and the others are proved lost, is a crossroads. Fewer crossroads, and a larger share
of moves that keep a win, make a kinder deal. A move whose verdict stays open within its
small budget is counted as open, never as keeping or losing.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from ..engine.checks import refuse, whole_number
from ..engine.deals import check_deal_number
from ..engine.game import Game
from ..engine.registry import load_game
from ..engine.state import State
from .judge import WINNABLE, Judge
from .review import weigh_moves

DEALS_KEPT = 5000  # deal verdicts kept (per game), the oldest go first
DEAL_SECONDS = 2.0  # the default budget to solve one deal
MAX_COUNT = 1000  # deals asked for at once
MAX_TRIED = 100  # deals tried per deal asked for, before giving up
WEIGHED = 20  # positions along a win whose moves are weighed for its difficulty
CHOICE_STATES = 1000  # the budget for each move weighed
_VERDICTS: dict = {}  # game -> OrderedDict(number -> status)


@dataclass
class Difficulty:
    """How hard a won deal is, along its found win: ``moves`` of the win, ``positions``
    weighed (spread along it), ``crossroads`` among them, and of the ``legal`` moves at those positions how many
    keep a win (``keeping``), lose (``losing``) or stayed open (``open``)."""

    moves: int
    positions: int
    crossroads: int
    legal: int
    keeping: int
    losing: int
    open: int

    @property
    def keeping_share(self) -> float:
        """The share of the legal moves on the way that keep a win (0 to 1)."""
        decided = self.keeping + self.losing
        return self.keeping / decided if decided else 1.0

    @property
    def level(self) -> str:
        """ "gentle", "tricky" or "hard": by crossroads per ten moves of the win."""
        rate = 10 * self.crossroads / max(1, self.positions)
        return "gentle" if rate < 0.5 else "tricky" if rate < 1.5 else "hard"

    def as_dict(self) -> dict:
        """The difficulty as plain data (the widget's ``difficulty`` trait), its words as ``text``."""
        return {
            "moves": self.moves,
            "positions": self.positions,
            "crossroads": self.crossroads,
            "legal": self.legal,
            "keeping": self.keeping,
            "losing": self.losing,
            "open": self.open,
            "keeping_share": round(self.keeping_share, 3),
            "level": self.level,
            "text": str(self),
        }

    def __str__(self) -> str:
        return (
            f"{self.level}: a win in {self.moves} moves; at {self.positions} positions along it, "
            f"{self.crossroads} crossroads (at most two moves keep a win) and {self.keeping_share:.0%} "
            f"of the moves keep it winnable"
        )


def difficulty(
    state: State,
    line,
    judge: Judge | None = None,
    positions: int = WEIGHED,
    choice_states: int = CHOICE_STATES,
) -> Difficulty:
    """The difficulty of the win ``line`` from ``state`` (see the module docstring): at
    ``positions`` positions spread evenly along it (all of them, if fewer), every legal move
    is judged within ``choice_states`` positions of search (so the answer is the same on
    every machine)."""
    judge = judge if judge is not None else Judge(max_seconds=None, max_states=choice_states)
    judge.record_line(state, line)
    positions = whole_number("positions", positions, 1)
    choice_states = whole_number("choice_states", choice_states, 1)
    chosen = (
        {round(i * len(line) / positions) for i in range(positions)}
        if len(line) > positions
        else set(range(len(line)))
    )
    weighed = crossroads = legal = keeping = losing = open_ = 0
    at = state
    for index, move in enumerate(line):
        if index in chosen:
            choice = weigh_moves(at, judge, index, max_seconds=None, max_states=choice_states)
            weighed += 1
            crossroads += bool(choice.is_crossroads)
            keeping, losing, open_ = (
                keeping + len(choice.keeping),
                losing + len(choice.losing),
                open_ + len(choice.open),
            )
            legal += len(choice.keeping) + len(choice.losing) + len(choice.open)
        at = at.play(move)
    return Difficulty(len(line), weighed, crossroads, legal, keeping, losing, open_)


def _game(game) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return load_game(game)
    raise refuse("game", "a game id (sw.games()) or a Game", game)


def _verdicts(game: Game) -> OrderedDict:
    return _VERDICTS.setdefault(game, OrderedDict())  # a Game is a value: equal games, one cache


def deal_verdict(game: Game, number: int, judge: Judge) -> str:
    """ "winnable", "lost" or "not known yet" for deal ``number``, solved once and kept."""
    kept = _verdicts(game)
    status = kept.get(number)
    if status is None or status not in (WINNABLE, "lost"):
        status = judge.judge(game.deal(number)).status
        kept[number] = status
        while len(kept) > DEALS_KEPT:
            kept.popitem(last=False)
    return status


def winnable_deals(
    game,
    count: int,
    start: int = 1,
    *,
    max_seconds: float | None = DEAL_SECONDS,
    max_states: int | None = None,
    judge: Judge | None = None,
) -> list[int]:
    """The first ``count`` deal numbers from ``start`` on that the solver has won.

    Each deal is solved within the budget (``max_seconds``, ``max_states``), once: the
    verdicts are kept. A deal the budget leaves open is skipped, so with a time budget the
    answer may depend on the machine; give ``max_states`` alone for one that does not.

    Args:
        game: a game id (``sw.games()``) or a Game.
        count: how many deal numbers (1 to 1000).
        start: the first deal number to try.
        max_seconds, max_states: the budget for each deal (at least one a limit).
        judge: a coach Judge to use (and whose wins to keep), else a new one.

    Returns:
        Deal numbers, in order; each deal has a win found (``sw.solve`` finds it again).

    Raises:
        InvalidArgument: a bad game, count, start or budget, or too many deals tried.

    Examples:
        >>> sw.winnable_deals("freecell", 3)
        [1, 2, 3]
    """
    game = _game(game)
    count = whole_number("count", count, 1, MAX_COUNT)
    number = check_deal_number(start, game.deal_limits)
    judge = judge if judge is not None else Judge(max_seconds, max_states)
    found: list[int] = []
    tried = 0
    while len(found) < count:
        if tried >= MAX_TRIED * count:
            raise refuse(
                "count",
                f"deals the solver wins within the budget: {tried} deals from {start} gave {len(found)}",
                count,
            )
        if deal_verdict(game, number, judge) == WINNABLE:
            found.append(number)
        tried += 1
        number += 1
        check_deal_number(number, game.deal_limits)
    return found
