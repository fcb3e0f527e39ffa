"""The FreeCell family's score: the generic Patience score, worked out with less work.

Free cells, no stock, no face-down cards, every tableau pile open: the score of a position
one move from another is its parent's, changed by the two piles the move touched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...engine.patience import Patience
from ...engine.state import State
from ...solver.contract import SiblingScore, Weights, sibling_score
from ...solver.heuristics import Cards, Need, PileValue, PileValues, ValuesByTops

SiblingsOf = Callable[[int, Cards, int, Cards], float]
CellsScore = SiblingScore[Callable[[Sequence[Cards]], SiblingsOf]]


def _face_up_pile_valuer(game: Patience, w: Weights) -> PileValue:
    """The generic pile_value (solver/heuristics.py) for piles without face-down cards,
    with less work: no face-down cards to count or mask, ordered runs read from the move tables."""
    w_block, w_urgent, w_buried, w_unsorted = w["blockers"], w["urgent"], w["buried"], w["unsorted"]
    fits_on = game.fits_on

    def pile_value(pile: Cards, need: Need) -> float:
        blockers = depth = 0
        lowest, size = 99, len(pile)
        deepest = size
        for j, card in enumerate(pile):  # as scan_pile
            n = need[card]
            if n > lowest:
                blockers += 1
            else:
                lowest, deepest = n, j
            if n == 1:
                depth += size - 1 - j
        value = w_block * blockers + w_urgent * depth + w_buried * (size - 1 - deepest)
        if w_unsorted:
            run = size - 1
            while run > 0 and pile[run] in fits_on[pile[run - 1]]:
                run -= 1
            value += w_unsorted * run
        return value

    return pile_value


def cells_score(game: Patience, w: Weights) -> CellsScore:
    """The generic Patience score (solver/heuristics.py, patience_score) for games of free
    cells, no stock and open piles, with less work a position: no stock, covering or closed
    piles to ask about, and the piles read as slices. A pile may be
    a tuple of cards (the engine's) or bytes (CellsExpander's)."""
    total, F, C, T = game.card_count, game.foundation_indices, game.cell_indices, game.tableau_indices
    founds, cells, tableau = (slice(ids[0], ids[-1] + 1) for ids in (F, C, T))
    assert all(ids == tuple(range(ids[0], ids[-1] + 1)) for ids in (F, C, T))
    w_home, w_cells, w_empty = w["home"], w["cells"], w["empty"]
    values = ValuesByTops(game, _face_up_pile_valuer(game, w))
    # The foundations last scored, their part, their pile values. (Written out in both
    # functions below, not shared by a third: compiled, closures share one scope, and a
    # closure the others call would make a reference cycle that keeps the tables alive.)
    last_foundations: Sequence[Cards] | None = None
    last_home, last_values = 0.0, PileValues([])

    def score(state: State) -> float:
        nonlocal last_foundations, last_home, last_values
        piles = state.piles
        foundations = piles[founds]
        if foundations != last_foundations:  # else a sibling's: the search scores siblings in a row
            home = sum(map(len, foundations))
            if home == total:
                return 0.0
            last_foundations, last_home = foundations, w_home * (total - home)
            last_values = values.of(foundations, piles)
        value, by_pile = last_home, last_values
        empty = 0
        for pile in piles[tableau]:
            if pile:
                part = by_pile.get(pile)
                if part is None:
                    part = values.add(by_pile, pile)
                value += part
            else:
                empty += 1
        filled = sum(map(bool, piles[cells]))
        value += w_cells * filled * (filled + 1) / 2 - w_empty * empty  # as patience_score adds
        return max(value, 0.5)

    in_tableau = [False] * (max(T) + 1)
    for t in T:
        in_tableau[t] = True
    blank = [0.0] * len(game.pile_ids)

    def moves_from(piles: Sequence[Cards]) -> SiblingsOf:
        """For the positions one move from the one with these piles that leave the
        foundations as they are: a function (source, its pile after, destination, its pile
        after) -> their score, worked out from this position's by the two piles that change.
        (With weights that are multiples of a power of two, as all the portfolios' are, every
        sum is exact and the score is the one ``score`` gives.)"""
        nonlocal last_foundations, last_home, last_values
        foundations = piles[founds]
        if foundations != last_foundations:
            last_foundations, last_home = foundations, w_home * (total - sum(map(len, foundations)))
            last_values = values.of(foundations, piles)
        home, by_pile = last_home, last_values

        def value_of(pile: Cards) -> float:
            value = by_pile.get(pile)
            return values.add(by_pile, pile) if value is None else value

        columns = piles[tableau]
        parts = list(map(by_pile.get, columns))
        if None in parts:  # seldom: the parent was scored with these foundations
            parts = list(map(value_of, columns))
        part = list(blank)
        part[tableau] = parts  # type: ignore[assignment]  # no None left: filled in just above
        core = home + sum(part)  # cards home, and the tableau piles' parts
        filled = sum(map(bool, piles[cells]))
        empty = len(columns) - sum(map(bool, columns))
        get = by_pile.get

        def after(src: int, rest: Cards, dst: int, grown: Cards) -> float:
            value = core - part[src] - part[dst]
            cells_filled, empties = filled, empty
            if in_tableau[src]:
                own = get(rest)
                value += values.add(by_pile, rest) if own is None else own
                if not rest:
                    empties += 1
            else:
                cells_filled -= 1
            if in_tableau[dst]:
                own = get(grown)
                value += values.add(by_pile, grown) if own is None else own
                if not piles[dst]:
                    empties -= 1
            else:
                cells_filled += 1
            return max(value + w_cells * cells_filled * (cells_filled + 1) / 2 - w_empty * empties, 0.5)

        return after

    return sibling_score(score, moves_from)
