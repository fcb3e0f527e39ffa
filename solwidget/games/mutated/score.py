"""Mutated Solitaire's score: cards home, and the road each other card still has to go."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...engine.cards import FACE_DOWN, OTHER_COLOUR
from ...engine.state import State
from ...solver.contract import SiblingScore, sibling_score
from ...solver.heuristics import DEFAULT_WEIGHTS, need_tables, scan_pile, weights_of
from .board import BUILD, DECKS, DRAW, R2X, ROW, SPACES

# The generic weights, and Mutated Solitaire's own: rows still to climb, face-down deck
# cards, orphans.
MUTATED_WEIGHTS = {**DEFAULT_WEIGHTS, "rows": 0.5, "decks": 0.5, "orphans": 0.0}


MutatedScore = SiblingScore[Callable[[State], Callable[[State, Sequence[int]], float]]]


def mutated_score(game, weights=None) -> MutatedScore:
    """Mutated Solitaire: cards home, and the road each other card still has to go.

    - rows: a card reaches the foundations only through row 1, one row a move, so a card in
      row N needs N moves at least (weighted by ``rows``);
    - decks: a deck card face down waits for a flip (a King into its row), one face up is
      free to take at any time, so only the face-down ones count (``decks``, plus ``down``);
    - spaces and built decks: blockers (a card above a more urgent one), urgent depth (cards
      on a card the foundations want next) and face-down cards, as in the generic score.
    - orphans: a card below row 1 climbs onto a host in the row above (one rank higher, of
      the other colour); when both its hosts are home (or lie beneath it in its own pile),
      one must come back first: each row it still has to climb counts (``orphans``). Cards
      lying on their host move with it and Kings climb into empty spaces: never orphans.
    Cards inside a deck in draw mode block nothing: any face-up one may be taken."""
    w = weights_of(weights, MUTATED_WEIGHTS)
    fits = BUILD.fits
    total = game.card_count
    founds = game.foundation_indices
    w_home, w_down, w_block, w_urgent = w["home"], w["down"], w["blockers"], w["urgent"]
    w_rows, w_decks, w_orphans = w["rows"], w["decks"], w["orphans"]
    stacks = tuple((i, ROW[i]) for i in SPACES + (R2X,))
    stack_row = [0] * len(ROW)  # by pile: its row if a space or r2x, else 0
    for i, row in stacks:
        stack_row[i] = row

    def hosts_gone(card, level, beneath=()) -> bool:
        """Are both hosts of ``card`` home or buried ``beneath`` it (Kings have none)?"""
        rank = card & 15
        if rank == 13:
            return False
        a, b = OTHER_COLOUR[card >> 4 & 3]
        return (level[a] > rank or (a << 4 | rank + 1) in beneath) and (
            level[b] > rank or (b << 4 | rank + 1) in beneath
        )

    def stack_orphans(pile, level) -> int:
        """The orphans of a space or built pile: a card lying on its host is carried by it;
        a host lying lower in the same pile is out of reach until the card leaves."""
        count = 0
        for j, card in enumerate(pile):
            under = pile[j - 1] if j else FACE_DOWN
            if not under & FACE_DOWN and fits(under, card):
                continue
            if hosts_gone(card, level, {c & 63 for c in pile[:j]}):
                count += 1
        return count

    def stack_value(pile, need, row, level):
        down, blockers, depth, urgent, _ = scan_pile(pile, need)
        urgent_depth = depth + urgent * (row - 1)  # an urgent card still climbs its rows
        value = w_down * down + w_block * blockers + w_urgent * urgent_depth + w_rows * row * len(pile)
        if w_orphans and row > 1:
            value += w_orphans * (row - 1) * stack_orphans(pile, level)
        return value

    # A move changes a few piles: the others' values come from these caches, valid while the
    # foundations (which fix every card's urgency and orphans) stay the same. By foundation
    # levels: the need table, and each row's values of the piles seen (a deck's by its mode).
    by_level: dict = {}
    stored = [0]  # values kept, for the size limit

    def level_caches(level, piles):
        caches = by_level.get(level)
        if caches is None:
            if stored[0] > 300_000:
                by_level.clear()
                stored[0] = 0
            caches = by_level[level] = (need_tables(founds, True, 1, piles), {}, {}, {}, {})
        return caches

    def deck_value(pile, base, row, level, need):
        loose = pile if base == DRAW else pile[:base]
        down = sum(1 for c in loose if c & FACE_DOWN)
        value = (w_decks + w_down) * down + w_rows * row * len(loose)
        if w_orphans and row > 1:  # any face-up card of a deck may be taken: none is buried
            value += w_orphans * (row - 1) * sum(1 for c in loose if hosts_gone(c, level))
        if base != DRAW:
            value += stack_value(pile[base:], need, row, level) + w_down * len(loose)
        return value

    def stack_part(known, pile, need, row, level) -> float:
        part = known.get(pile)
        if part is None:
            part = known[pile] = stack_value(pile, need, row, level)
            stored[0] += 1
        return part

    def deck_part(decks, d, pile, base, level, need) -> float:
        part = decks.get((d, pile, base))
        if part is None:
            part = decks[d, pile, base] = deck_value(pile, base, ROW[d], level, need)
            stored[0] += 1
        return part

    def foundation_levels(piles) -> tuple:
        level = [0, 0, 0, 0]
        for f in founds:
            if piles[f]:
                level[piles[f][0] >> 4 & 3] = len(piles[f])
        return tuple(level)

    def value_of(state) -> float:
        piles = state.piles
        level = foundation_levels(piles)
        home = sum(level)
        if home == total:
            return 0.0
        caches = level_caches(level, piles)
        need = caches[0]
        value = w_home * (total - home)
        for i, row in stacks:
            pile = piles[i]
            if pile:
                value += stack_part(caches[row], pile, need, row, level)
        decks = caches[4]
        for d, base in zip(DECKS, state.extra):
            pile = piles[d]
            if pile:
                value += deck_part(decks, d, pile, base, level, need)
        return max(value, 0.5)

    def moves_from(parent):
        """For the children of ``parent`` that leave its foundations as they are: a function
        (child, piles its move touched) -> its score, worked out from the parent's by the
        piles that change (every part is a multiple of a quarter with the portfolios'
        weights, so the sums are exact and the score is the one ``score`` gives). The parent
        is scored at the first call."""
        old, old_modes = parent.piles, parent.extra
        level = foundation_levels(old)
        known: tuple[float, list] | None = None  # the parent's score and caches, once asked

        def child_score(child, moved) -> float:
            """``moved``: the piles the child's move took cards from and put them on (the
            decks, which a King may flip, are looked at in any case)."""
            nonlocal known
            if known is None:
                known = value_of(parent), level_caches(level, old)
            value, caches = known
            if value <= 0.5:  # the floor: the parts do not add up to it
                return value_of(child)
            need, decks = caches[0], caches[4]
            piles = child.piles
            for i in moved:
                row = stack_row[i]
                pile, was = piles[i], old[i]
                if row and pile is not was:
                    if was:
                        value -= stack_part(caches[row], was, need, row, level)
                    if pile:
                        value += stack_part(caches[row], pile, need, row, level)
            for d, base, was_base in zip(DECKS, child.extra, old_modes):
                pile, was = piles[d], old[d]
                if pile is not was or base != was_base:
                    if was:
                        value -= deck_part(decks, d, was, was_base, level, need)
                    if pile:
                        value += deck_part(decks, d, pile, base, level, need)
            return max(value, 0.5)

        return child_score

    def score(state) -> float:  # value_of: moves_from, kept on score, may not refer to score
        return value_of(state)  # (a reference cycle, which only the garbage collector frees)

    return sibling_score(score, moves_from)
