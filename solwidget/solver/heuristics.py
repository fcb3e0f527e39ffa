"""How promising a position looks: a score, lower is better, 0 only when won.

The Patience score counts what stands between a position and the win:
- cards not yet home;
- blockers: tableau cards lying above a card that must go home before them (walking each
  pile from the bottom, a card counts when a more urgent card lies somewhere below it);
- urgent depth: how many cards lie above each card that could go home next;
- face-down cards, and cards in piles that others cover (Interlock's layers);
and rewards room to manoeuvre: free cells and empty tableau piles.
A family may bring a score of its own through its solver profile (profile.py); any other
game gets cards home, blockers, urgent depth and face-down cards over all its piles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.cards import FACE_DOWN
from ..engine.checks import shown
from ..engine.errors import InvalidArgument
from ..engine.game import Game
from ..engine.patience import Patience
from ..engine.state import Pile, Piles, State
from .contract import ScoreOf, SiblingScore, Weights, sibling_score

Need = list[int]  # need[card & 63], need_tables' table
Cards = Sequence[int]  # a pile as a score reads it: a tuple or bytes
PileValue = Callable[[Cards, Need], float]  # a tableau pile's part of the score
SiblingsOf = Callable[[int, Pile, int, Pile, int], float]  # patience_score's moves_from(piles)
PatienceScore = SiblingScore[Callable[[Piles], SiblingsOf]]
Covers = Sequence["tuple[int, int] | None"]  # by tableau pile: the two piles covering it

DEFAULT_WEIGHTS = {
    "home": 8.0,
    "blockers": 1.0,
    "urgent": 0.5,
    "buried": 0.0,
    "down": 1.0,
    "cells": 0.5,
    "empty": 1.0,
    "covered": 1.0,
    "reserve": 0.0,
    "unsorted": 0.0,
}


def weights_of(weights: Weights | None, defaults: Weights = DEFAULT_WEIGHTS) -> dict[str, float]:
    """Every weight of a score: ``defaults`` with ``weights`` given over them."""
    w = {**defaults, **(weights or {})}
    unknown = set(w) - set(defaults)
    if unknown:
        raise InvalidArgument(
            f"weights has no weight {', '.join(map(shown, sorted(unknown)))}: "
            f"this game's weights are {', '.join(sorted(defaults))}"
        )
    return w


def make_score(
    game: Game,
    weights: Weights | None = None,
    covers: Covers | None = None,
    gone: Sequence[bool] | None = None,
) -> ScoreOf:
    """The generic score of ``game``'s positions; ``covers`` and ``gone`` pass what a family
    knows of its Patience piles (as ``patience_score`` takes them)."""
    w = weights_of(weights)
    if isinstance(game, Patience):
        return patience_score(game, w, covers, gone)
    return _generic_score(game, w)


def _generic_score(game: Game, w: Weights) -> ScoreOf:
    """Cards home, face-down cards, and blockers over every pile but the foundations
    (foundations taken to build up in suit from the Ace, as in Mutated Solitaire)."""
    total = game.card_count
    founds = game.foundation_indices
    others = tuple(i for i in range(len(game.pile_ids)) if i not in founds)
    w_home, w_down, w_block, w_urgent = w["home"], w["down"], w["blockers"], w["urgent"]

    def score(state: State) -> float:
        piles = state.piles
        home = sum(len(piles[f]) for f in founds)
        if home == total:
            return 0.0
        need = need_tables(founds, True, game.decks, piles)
        blockers = urgent = down = 0
        for i in others:
            d, b, u, _, _ = scan_pile(piles[i], need)
            down, blockers, urgent = down + d, blockers + b, urgent + u
        return max(w_home * (total - home) + w_down * down + w_block * blockers + w_urgent * urgent, 0.5)

    return score


def scan_pile(pile: Cards, need: Need) -> tuple[int, int, int, int, int]:
    """Walk a pile from the bottom: (face-down cards, blockers, urgent depth, urgent cards,
    index of the most urgent card), where a blocker lies above a more urgent card and urgent
    depth counts the cards above each card the foundations want next."""
    blockers = depth = urgent = down = 0
    lowest = 99
    size = len(pile)
    deepest = size
    for j, card in enumerate(pile):
        if card & FACE_DOWN:
            down += 1
        n = need[card & 63]
        if n > lowest:
            blockers += 1
        else:
            lowest = n
            deepest = j
        if n == 1:
            depth += size - 1 - j
            urgent += 1
    return down, blockers, depth, urgent, deepest


def need_tables(foundations: Sequence[int], ace_up: bool, decks: int, piles: Sequence[Cards]) -> Need:
    """need[card & 63]: how many cards of its suit must go home before this one, plus one."""
    levels = [[0], [0], [0], [0]]
    for f in foundations:
        pile = piles[f]
        if pile:
            top = pile[-1]
            levels[top >> 4 & 3].append((top & 15) if ace_up else 14 - (top & 15))
    need = [0] * 64
    for suit in range(4):
        marks = levels[suit]
        base = suit << 4
        if len(marks) == 1 or decks == 1:
            level = max(marks)
            if ace_up:
                for rank in range(1, 14):
                    need[base | rank] = rank - level
            else:
                for rank in range(1, 14):
                    need[base | rank] = 14 - rank - level
            continue
        marks.sort()
        below, k = 0, 0
        for order in range(1, 14):  # below: the highest mark under ``order``
            while k < len(marks) and marks[k] < order:
                below = marks[k]
                k += 1
            need[base | (order if ace_up else 14 - order)] = order - below
    return need


def _pile_valuer(game: Patience, w: Weights) -> PileValue:
    """pile_value(pile, need): the weighted blockers, urgent depth, buried depth, face-down
    and unsorted cards of one tableau pile."""
    w_block, w_urgent, w_down = w["blockers"], w["urgent"], w["down"]
    w_buried, w_unsorted = w["buried"], w["unsorted"]
    fits = game.build.fits

    def pile_value(pile: Cards, need: Need) -> float:
        down, blockers, urgent, _, deepest = scan_pile(pile, need)
        size = len(pile)
        value = w_block * blockers + w_urgent * urgent + w_down * down + w_buried * (size - 1 - deepest)
        if w_unsorted:
            run = size - 1
            while run > 0 and fits(pile[run - 1], pile[run]):
                run -= 1
            value += w_unsorted * run
        return value

    return pile_value


def patience_score(
    game: Patience, w: Weights, covers: Covers | None = None, gone: Sequence[bool] | None = None
) -> PatienceScore:
    """Cards not home, blockers, urgent and face-down cards, covered cards, free cells and
    empty piles (the module docstring). A family whose piles cover each other may say how,
    for speed: ``covers[t]``, the pair of piles covering tableau pile ``t`` (None: never
    covered), exactly as its ``can_give`` reads them; ``gone[t]``, whether pile ``t`` takes
    no card once empty, as its ``can_take`` reads them."""
    total = game.card_count
    F, C, T = game.foundation_indices, game.cell_indices, game.tableau_indices
    assert tuple(range(F[0], F[-1] + 1)) == F
    founds = slice(F[0], F[-1] + 1)
    w_home, w_cells, w_empty = w["home"], w["cells"], w["empty"]
    w_covered, w_reserve = w["covered"], w["reserve"]
    reserve_piles = tuple(
        i for i in (game.stock_index, game.waste_index) if i is not None and game.redeals is None
    )
    covering = type(game).can_give is not Patience.can_give  # piles that cover others
    takes_all = type(game).can_take is Patience.can_take
    values = ValuesByTops(game, _pile_valuer(game, w))
    # the foundations last scored, the cards home, their pile values
    last_foundations: Piles | None = None
    last_home, last_values = 0, PileValues([])

    def homes(piles: Piles) -> tuple[int, PileValues]:
        """(cards home, the pile values for these foundations)."""
        nonlocal last_foundations, last_home, last_values
        foundations = piles[founds]
        if foundations != last_foundations:  # else a sibling's: the search scores siblings in a row
            last_foundations, last_home = foundations, sum(map(len, foundations))
            last_values = values.of(foundations, piles)
        return last_home, last_values

    def score(state: State) -> float:
        piles = state.piles
        home, by_pile = homes(piles)
        if home == total:
            return 0.0
        value = w_home * (total - home)
        empty = covered = 0
        for t in T:
            pile = piles[t]
            if not pile:
                if gone is not None and covers is not None:
                    if not gone[t]:
                        pair = covers[t]
                        empty += pair is None or not (piles[pair[0]] or piles[pair[1]])
                elif takes_all or game.can_take(piles, t):
                    empty += 1
                continue
            if covers is not None:
                pair = covers[t]
                if pair is not None and (piles[pair[0]] or piles[pair[1]]):
                    covered += len(pile)
            elif covering and not game.can_give(piles, t):
                covered += len(pile)
            part = by_pile.get(pile)
            if part is None:
                part = values.add(by_pile, pile)
            value += part
        filled = sum(1 for c in C if piles[c])
        reserve = sum(len(piles[i]) for i in reserve_piles)
        value += (
            w_covered * covered - w_reserve * reserve + w_cells * filled * (filled + 1) / 2 - w_empty * empty
        )
        return max(value, 0.5)

    def moves_from(piles: Piles) -> SiblingsOf:
        """For the positions one move from the one with these piles that moves cards from a
        tableau pile to another and may play reserve cards under them (a bridge), in a game
        of open piles that take anything: a function (source, its pile
        after, destination, its pile after, reserve cards played) -> their score, worked out
        from this position's by the two piles that change (exact with weights that are
        multiples of a power of two)."""
        assert covers is None and not covering and takes_all
        home, by_pile = homes(piles)

        def value_of(pile: Pile) -> float:
            value = by_pile.get(pile)
            return values.add(by_pile, pile) if value is None else value

        part = {t: value_of(piles[t]) for t in T}
        empty = sum(1 for t in T if not piles[t])
        filled = sum(1 for c in C if piles[c])
        core = (
            w_home * (total - home)
            + sum(part.values())
            + w_cells * filled * (filled + 1) / 2
            - w_reserve * sum(len(piles[i]) for i in reserve_piles)
        )

        known = by_pile.get

        def after(src: int, rest: Pile, dst: int, grown: Pile, played: int) -> float:
            empties = empty + (not rest) - (not piles[dst])
            left, got = known(rest), known(grown)  # value_of, written out: the hot path
            if left is None:
                left = values.add(by_pile, rest)
            if got is None:
                got = values.add(by_pile, grown)
            value = core - part[src] - part[dst] + left + got
            return max(value + w_reserve * played - w_empty * empties, 0.5)

        return after

    return sibling_score(score, moves_from)


class PileValues(dict[Cards, float]):
    """Pile -> value, for one set of foundation tops, with the need table they fix."""

    __slots__ = ("need",)

    def __init__(self, need: Need) -> None:
        super().__init__()
        self.need = need
        self[()] = self[b""] = 0.0  # an empty pile (either kind): nothing to weigh


class ValuesByTops:
    """Pile values by foundation tops (which alone fix every card's urgency), then by pile: a
    move changes one or two piles, so most lookups hit. At most LIMIT values are kept."""

    LIMIT = 300_000

    def __init__(self, game: Patience, pile_value: PileValue) -> None:
        self.game, self.pile_value = game, pile_value
        self.tables: dict[tuple[int, ...], PileValues] = {}
        self.count = 0

    def of(self, foundations: Sequence[Cards], piles: Sequence[Cards]) -> PileValues:
        """The pile values for these foundation piles (``piles``: the whole position)."""
        tops = tuple(sorted([pile[-1] if pile else 0 for pile in foundations]))
        by_pile = self.tables.get(tops)
        if by_pile is None:
            if self.count > self.LIMIT:
                self.tables.clear()
                self.count = 0
            game = self.game
            by_pile = self.tables[tops] = PileValues(
                need_tables(game.foundation_indices, game.step > 0, game.decks, piles)
            )
        return by_pile

    def add(self, by_pile: PileValues, pile: Cards) -> float:
        """A pile not valued yet: its value, kept."""
        self.count += 1
        value = by_pile[pile] = self.pile_value(pile, by_pile.need)
        return value
