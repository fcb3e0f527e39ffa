"""How promising a position looks: a score, lower is better, 0 only when won.

The Patience score counts what stands between a position and the win:
- cards not yet home;
- blockers: tableau cards lying above a card that must go home before them (walking each
  pile from the bottom, a card counts when a more urgent card lies somewhere below it);
- urgent depth: how many cards lie above each card that could go home next;
- face-down cards, and cards in piles that others cover (Interlock's layers);
and rewards room to manoeuvre: free cells and empty tableau piles.
Mutated Solitaire has a score of its own (the rows each card still has to climb, the
face-down deck cards waiting for a flip); any other game gets cards home, blockers, urgent
depth and face-down cards over all its piles.
"""

from __future__ import annotations

from ..engine.cards import FACE_DOWN, OTHER_COLOUR
from ..engine.patience import Patience

DEFAULT_WEIGHTS = {"home": 8.0, "blockers": 1.0, "urgent": 0.5, "buried": 0.0, "down": 1.0,
                   "cells": 0.5, "empty": 1.0, "covered": 1.0, "reserve": 0.0,
                   "unsorted": 0.0, "rows": 0.5, "decks": 0.5, "orphans": 0.0}


def make_score(game, weights: dict | None = None):
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    unknown = set(w) - set(DEFAULT_WEIGHTS)
    if unknown:
        raise TypeError(f"unknown heuristic weights {sorted(unknown)}: known are {sorted(DEFAULT_WEIGHTS)}")
    if isinstance(game, Patience):
        return _cells_score(game, w) if _plain_cells_game(game) else _patience_score(game, w)
    if game.id == "mutated":
        return _mutated_score(game, w)
    return _generic_score(game, w)


def _generic_score(game, w):
    """Cards home, face-down cards, and blockers over every pile but the foundations
    (foundations taken to build up in suit from the Ace, as in Mutated Solitaire)."""
    total = game.card_count
    founds = game.foundation_indices
    others = tuple(i for i in range(len(game.pile_ids)) if i not in founds)
    w_home, w_down, w_block, w_urgent = w["home"], w["down"], w["blockers"], w["urgent"]

    def score(state) -> float:
        piles = state.piles
        home = sum(len(piles[f]) for f in founds)
        if home == total:
            return 0.0
        need = _need_tables(founds, True, game.decks, piles)
        blockers = urgent = down = 0
        for i in others:
            d, b, u, _, _ = _scan(piles[i], need)
            down, blockers, urgent = down + d, blockers + b, urgent + u
        return max(w_home * (total - home) + w_down * down + w_block * blockers + w_urgent * urgent, 0.5)

    return score


def _scan(pile, need):
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


def _need_tables(foundations, ace_up: bool, decks: int, piles):
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
        for order in range(1, 14):      # below: the highest mark under ``order``
            while k < len(marks) and marks[k] < order:
                below = marks[k]
                k += 1
            need[base | (order if ace_up else 14 - order)] = order - below
    return need


def _pile_valuer(game: Patience, w):
    """pile_value(pile, need): the weighted blockers, urgent depth, buried depth, face-down
    and unsorted cards of one tableau pile."""
    w_block, w_urgent, w_down = w["blockers"], w["urgent"], w["down"]
    w_buried, w_unsorted = w["buried"], w["unsorted"]
    fits = game.build.fits

    def pile_value(pile, need) -> float:
        down, blockers, urgent, _, deepest = _scan(pile, need)
        size = len(pile)
        value = w_block * blockers + w_urgent * urgent + w_down * down + w_buried * (size - 1 - deepest)
        if w_unsorted:
            run = size - 1
            while run > 0 and fits(pile[run - 1], pile[run]):
                run -= 1
            value += w_unsorted * run
        return value

    return pile_value


def _patience_score(game: Patience, w):
    total = game.card_count
    F, C, T = game.F, game.C, game.T
    assert F == tuple(range(F[0], F[-1] + 1))
    founds = slice(F[0], F[-1] + 1)
    w_home, w_cells, w_empty = w["home"], w["cells"], w["empty"]
    w_covered, w_reserve = w["covered"], w["reserve"]
    reserve_piles = tuple(i for i in (game.STOCK, game.WASTE) if i is not None and game.redeals is None)
    covering = type(game).can_give is not Patience.can_give     # Interlock's layers
    from ..rules.interlock import _InterlockFamily
    # Interlock's covering piles by index, as its can_give reads them (None: never covered)
    cover_pairs = game._pair if type(game).can_give is _InterlockFamily.can_give else None
    takes_all = type(game).can_take is Patience.can_take
    # Interlock's empty piles: those that may take a card, as its can_take reads them
    # (None: read by can_take): an emptied middle or front pile never does
    gone = (game._gone_when_empty if cover_pairs is not None
            and type(game).can_take is _InterlockFamily.can_take else None)
    values = _ValuesByTops(game, _pile_valuer(game, w))
    last = [None, 0, None]   # the foundations last scored, the cards home, their pile values

    def homes(piles) -> tuple:
        """(cards home, the pile values for these foundations)."""
        foundations = piles[founds]
        if foundations != last[0]:       # else a sibling's: the search scores siblings in a row
            last[:] = foundations, sum(map(len, foundations)), values.of(foundations, piles)
        return last[1], last[2]

    def score(state) -> float:
        piles = state.piles
        home, by_pile = homes(piles)
        if home == total:
            return 0.0
        value = w_home * (total - home)
        empty = covered = 0
        for t in T:
            pile = piles[t]
            if not pile:
                if gone is not None:
                    if not gone[t]:
                        pair = cover_pairs[t]
                        empty += pair is None or not (piles[pair[0]] or piles[pair[1]])
                elif takes_all or game.can_take(piles, t):
                    empty += 1
                continue
            if cover_pairs is not None:
                pair = cover_pairs[t]
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
        value += (w_covered * covered - w_reserve * reserve + w_cells * filled * (filled + 1) / 2
                  - w_empty * empty)
        return max(value, 0.5)

    def moves_from(piles):
        """For the positions one move from the one with these piles that moves cards from a
        tableau pile to another and may play reserve cards under them (a bridge), in a game
        of open piles that take anything (Triple Interchange): a function (source, its pile
        after, destination, its pile after, reserve cards played) -> their score, worked out
        from this position's by the two piles that change (exact with weights that are
        multiples of a power of two, as _cells_score's moves_from)."""
        assert cover_pairs is None and not covering and takes_all
        home, by_pile = homes(piles)

        def value_of(pile) -> float:
            value = by_pile.get(pile)
            return values.add(by_pile, pile) if value is None else value

        part = {t: value_of(piles[t]) for t in T}
        empty = sum(1 for t in T if not piles[t])
        filled = sum(1 for c in C if piles[c])
        core = (w_home * (total - home) + sum(part.values()) + w_cells * filled * (filled + 1) / 2
                - w_reserve * sum(len(piles[i]) for i in reserve_piles))

        known = by_pile.get

        def after(src, rest, dst, grown, played) -> float:
            empties = empty + (not rest) - (not piles[dst])
            left, got = known(rest), known(grown)       # value_of, written out: the hot path
            if left is None:
                left = values.add(by_pile, rest)
            if got is None:
                got = values.add(by_pile, grown)
            value = core - part[src] - part[dst] + left + got
            return max(value + w_reserve * played - w_empty * empties, 0.5)

        return after

    score.moves_from = moves_from
    return score


def _plain_cells_game(game: Patience) -> bool:
    """Free cells, no stock, every tableau pile open (the FreeCell family)."""
    cls = type(game)
    return (bool(game.C) and not game.draw and cls.can_give is Patience.can_give
            and cls.can_take is Patience.can_take)


def _face_up_pile_valuer(game: Patience, w):
    """_pile_valuer's pile_value for piles without face-down cards, with less work: no
    face-down cards to count or mask, ordered runs read from the move tables."""
    w_block, w_urgent, w_buried, w_unsorted = w["blockers"], w["urgent"], w["buried"], w["unsorted"]
    fits_on = game.fits_on

    def pile_value(pile, need) -> float:
        blockers = depth = 0
        lowest, size = 99, len(pile)
        deepest = size
        for j, card in enumerate(pile):      # as _scan
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


class _PileValues(dict):
    """Pile -> value, for one set of foundation tops, with the need table they fix."""
    __slots__ = ("need",)

    def __init__(self, need):
        super().__init__()
        self.need = need
        self[()] = self[b""] = 0.0       # an empty pile (either kind): nothing to weigh


class _ValuesByTops:
    """Pile values by foundation tops (which alone fix every card's urgency), then by pile: a
    move changes one or two piles, so most lookups hit. At most LIMIT values are kept."""
    LIMIT = 300_000

    def __init__(self, game: Patience, pile_value):
        self.game, self.pile_value = game, pile_value
        self.tables: dict = {}
        self.count = 0

    def of(self, foundations, piles) -> _PileValues:
        """The pile values for these foundation piles (``piles``: the whole position)."""
        tops = tuple(sorted([pile[-1] if pile else 0 for pile in foundations]))
        by_pile = self.tables.get(tops)
        if by_pile is None:
            if self.count > self.LIMIT:
                self.tables.clear()
                self.count = 0
            game = self.game
            by_pile = self.tables[tops] = _PileValues(_need_tables(game.F, game.step > 0, game.decks, piles))
        return by_pile

    def add(self, by_pile: _PileValues, pile) -> float:
        """A pile not valued yet: its value, kept."""
        self.count += 1
        value = by_pile[pile] = self.pile_value(pile, by_pile.need)
        return value


def _cells_score(game: Patience, w):
    """_patience_score's value for _plain_cells_game games, with less work a position: no
    stock, covering or closed piles to ask about, and the piles read as slices. A pile may be
    a tuple of cards (the engine's) or bytes (CellsExpander's)."""
    total, F, C, T = game.card_count, game.F, game.C, game.T
    founds, cells, tableau = (slice(ids[0], ids[-1] + 1) for ids in (F, C, T))
    assert all(ids == tuple(range(ids[0], ids[-1] + 1)) for ids in (F, C, T))
    w_home, w_cells, w_empty = w["home"], w["cells"], w["empty"]
    values = _ValuesByTops(game, _face_up_pile_valuer(game, w))
    last = [None, 0.0, None]   # the foundations last scored, their part, their pile values

    def foundations_part(piles, foundations, home):
        last[:] = foundations, w_home * (total - home), values.of(foundations, piles)

    def score(state) -> float:
        piles = state.piles
        foundations = piles[founds]
        if foundations != last[0]:       # else a sibling's: the search scores siblings in a row
            home = sum(map(len, foundations))
            if home == total:
                return 0.0
            foundations_part(piles, foundations, home)
        value, by_pile = last[1], last[2]
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
        value += w_cells * filled * (filled + 1) / 2 - w_empty * empty    # as _patience_score adds
        return max(value, 0.5)

    in_tableau = [False] * (max(T) + 1)
    for t in T:
        in_tableau[t] = True
    blank = [0.0] * len(game.pile_ids)

    def moves_from(piles):
        """For the positions one move from the one with these piles that leave the
        foundations as they are: a function (source, its pile after, destination, its pile
        after) -> their score, worked out from this position's by the two piles that change.
        (With weights that are multiples of a power of two, as all the portfolios' are, every
        sum is exact and the score is the one ``score`` gives.)"""
        foundations = piles[founds]
        if foundations != last[0]:
            foundations_part(piles, foundations, sum(map(len, foundations)))
        home, by_pile = last[1], last[2]

        def value_of(pile) -> float:
            value = by_pile.get(pile)
            return values.add(by_pile, pile) if value is None else value

        columns = piles[tableau]
        parts = list(map(by_pile.get, columns))
        if None in parts:                  # seldom: the parent was scored with these foundations
            parts = list(map(value_of, columns))
        part = list(blank)
        part[tableau] = parts
        core = home + sum(part)            # cards home, and the tableau piles' parts
        filled = sum(map(bool, piles[cells]))
        empty = len(columns) - sum(map(bool, columns))
        get = by_pile.get

        def after(src, rest, dst, grown) -> float:
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

    score.moves_from = moves_from
    return score


def _mutated_score(game, w):
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
    from ..rules.mutated import BUILD, DECKS, DRAW, R2X, ROW, SPACES
    fits = BUILD.fits
    total = game.card_count
    founds = game.foundation_indices
    w_home, w_down, w_block, w_urgent = w["home"], w["down"], w["blockers"], w["urgent"]
    w_rows, w_decks, w_orphans = w["rows"], w["decks"], w["orphans"]
    stacks = tuple((i, ROW[i]) for i in SPACES + (R2X,))
    stack_row = [0] * len(ROW)                 # by pile: its row if a space or r2x, else 0
    for i, row in stacks:
        stack_row[i] = row

    def hosts_gone(card, level, beneath=()) -> bool:
        """Are both hosts of ``card`` home or buried ``beneath`` it (Kings have none)?"""
        rank = card & 15
        if rank == 13:
            return False
        a, b = OTHER_COLOUR[card >> 4 & 3]
        return ((level[a] > rank or (a << 4 | rank + 1) in beneath)
                and (level[b] > rank or (b << 4 | rank + 1) in beneath))

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
        down, blockers, depth, urgent, _ = _scan(pile, need)
        urgent_depth = depth + urgent * (row - 1)      # an urgent card still climbs its rows
        value = w_down * down + w_block * blockers + w_urgent * urgent_depth + w_rows * row * len(pile)
        if w_orphans and row > 1:
            value += w_orphans * (row - 1) * stack_orphans(pile, level)
        return value

    # A move changes a few piles: the others' values come from these caches, valid while the
    # foundations (which fix every card's urgency and orphans) stay the same. By foundation
    # levels: the need table, and each row's values of the piles seen (a deck's by its mode).
    by_level: dict = {}
    stored = [0]            # values kept, for the size limit

    def level_caches(level, piles):
        caches = by_level.get(level)
        if caches is None:
            if stored[0] > 300_000:
                by_level.clear()
                stored[0] = 0
            caches = by_level[level] = (_need_tables(founds, True, 1, piles), {}, {}, {}, {})
        return caches

    def deck_value(pile, base, row, level, need):
        loose = pile if base == DRAW else pile[:base]
        down = sum(1 for c in loose if c & FACE_DOWN)
        value = (w_decks + w_down) * down + w_rows * row * len(loose)
        if w_orphans and row > 1:     # any face-up card of a deck may be taken: none is buried
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
        known = []

        def child_score(child, moved) -> float:
            """``moved``: the piles the child's move took cards from and put them on (the
            decks, which a King may flip, are looked at in any case)."""
            if not known:
                known[:] = value_of(parent), level_caches(level, old)
            value, caches = known
            if value <= 0.5:                          # the floor: the parts do not add up to it
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

    def score(state) -> float:       # value_of: moves_from, kept on score, may not refer to score
        return value_of(state)       # (a reference cycle, which only the garbage collector frees)

    score.moves_from = moves_from
    return score
