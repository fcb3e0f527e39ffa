"""The FreeCell family's moves: the rules' one move generator, for the games of its shape.

``CellsMoves(game).plans(piles, every)`` gives each legal move with the pile indices and
count that make its position, in the engine's order (``Patience.iter_moves``'s):
``every=True`` gives every legal move (the engine's ``iter_moves``, rules.py),
``every=False`` all but the key-equal duplicates that the search skips (the solver's
``CellsExpander``, expander.py), which so reads no Move back into piles. What a pile or
the foundations imply is kept by pile and by foundations. Piles may be tuples (the
engine's) or bytes (the search's). A variant that loses the shape (``fits``: no cells, no
supermoves, ...) keeps ``Patience.iter_moves``; the tests compare the two move for move.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ...engine.moves import Move
from ...engine.patience import supermove

FOUNDATION, CELL, TABLEAU = 0, 1, 2
_KINDS = {"foundation": FOUNDATION, "cell": CELL, "tableau": TABLEAU}
Wanted = tuple[tuple[tuple[int, int], ...], ...]  # run_of: the (host, n) pairs for the top n <= k cards


def fits(game) -> bool:
    """The shape ``CellsMoves`` is written for: one deck, free cells, supermoves, no stock,
    no face-down cards, a symmetric tableau whose empty piles take any card."""
    return (
        game.decks == 1
        and bool(game.cell_indices)
        and not game.draw
        and not game.face_down_cards
        and game.group == "supermove"
        and game.empty_takes == "any"
        and game.symmetric_tableau
    )


class CellsMoves:
    """The legal moves of ``game`` (which ``fits``), made from the piles.

    ``facts_of`` says what the foundations take; a subclass may add to its tuple what else
    it wants to know of the foundations (the search's safe cards), kept in the same cache.
    """

    def __init__(self, game, runs_kept: int = 200_000, facts_kept: int = 50_000):
        self.game = game
        self.moves, self.one, self.hosts, self.counts_to = _tables(game)
        self.foundation_indices, self.cell_indices, self.tableau_indices = (
            game.foundation_indices,
            game.cell_indices,
            game.tableau_indices,
        )
        self.founds = slice(game.foundation_indices[0], game.foundation_indices[-1] + 1)
        assert (
            tuple(range(game.foundation_indices[0], game.foundation_indices[-1] + 1))
            == game.foundation_indices
        )
        self.starters = [suit << 4 | game.foundation_start for suit in range(4)]
        self.kinds = [_KINDS[game.pile_kinds[pid]] for pid in game.pile_ids]
        self.fits_on = game.fits_on
        self.runs: dict[Sequence[int], tuple[int, Wanted]] = {}  # pile -> run_of(pile)
        self.runs_kept = runs_kept
        self._facts: dict[Sequence[Sequence[int]], tuple] = {}  # foundations -> facts_of(piles)
        self.facts_kept = facts_kept  # one deck has 14**4 foundations: a search keeps them all

    def plans(self, piles, every=True, source=None) -> list:
        """(move, source index, destination index, cards moved) for each legal move, in the
        engine's order: to the foundations, from the tableau, from the cells, to a free cell;
        or only those from pile index ``source``. Unless ``every``, a card goes only to the
        first empty foundation, the first empty pile and the first free cell (the search's
        keys take each as a set), and a whole pile never to an empty one (the same position)."""
        one, hosts = self.one, self.hosts
        homes = self.foundation_facts(piles)[1 if every else 0]
        plans = []
        topped_by, empties = {}, []  # one deck: each card tops one pile at most
        for t in self.tableau_indices:
            pile = piles[t]
            if pile:
                card = pile[-1]
                topped_by[card] = t
                if card in homes and (source is None or source == t):
                    for f in homes[card]:
                        plans.append((one[t][f], t, f, 1))
            else:
                empties.append(t)
        held, free_cells = [], []
        for c in self.cell_indices:
            pile = piles[c]
            if pile:
                card = pile[0]
                held.append((c, card))
                if card in homes and (source is None or source == c):
                    for f in homes[card]:
                        plans.append((one[c][f], c, f, 1))
            else:
                free_cells.append(c)
        free = len(free_cells)
        limit, limit_to_empty = supermove(free, len(empties)), supermove(free, max(0, len(empties) - 1))
        to_empty = empties if every else empties[:1]
        left = 0 if every else 1  # the cards a run to an empty pile leaves at least
        givers: Iterable[int] = topped_by.values()
        if source is not None:
            givers = [t for t in givers if t == source]
            held = [(c, card) for c, card in held if c == source]
        runs, counts_to = self.runs, self.counts_to
        for src in givers:
            pile = piles[src]
            known = runs.get(pile)
            if known is None:
                known = self.run_of(pile)
            run, wanted = known
            found = []  # loops, not comprehensions: each of those is a call
            for host, n in wanted[run if run < limit else limit]:
                dst = topped_by.get(host)
                if dst is not None:
                    found.append((dst, n))
            if to_empty:
                most = min(run, limit_to_empty, len(pile) - left)
                for dst in to_empty:
                    found += counts_to[dst][most]
            if found:
                found.sort()
                moves = self.moves[src]
                for dst, n in found:
                    plans.append((moves[dst][n], src, dst, n))
        for c, card in held:
            fitting = []
            for host in hosts[card]:
                dst = topped_by.get(host)
                if dst is not None:
                    fitting.append(dst)
            fitting += to_empty
            fitting.sort()
            moves = one[c]
            for dst in fitting:
                plans.append((moves[dst], c, dst, 1))
        if free_cells:
            to_cells = free_cells if every else free_cells[:1]
            for src in givers:
                for c in to_cells:
                    plans.append((one[src][c], src, c, 1))
        return plans

    def allows(self, piles, src: int, dst: int, n: int) -> bool:
        """Is (``src``, ``dst``, ``n``) one of ``plans(piles)``'s moves? ``plans``' question
        for one move, read from the same tables, for a line checked move by move (a win
        replayed, or shortened): the top ``n`` cards of a tableau pile go on a card they
        fit, within the supermove's limit (the limit to an empty pile when it is empty), a
        card from a free cell on a card it fits or to an empty pile, a top card home or
        to a free cell. tests/test_freecell_family.py compares the two on every move."""
        pile, kind = piles[src], self.kinds
        if not pile or n < 1 or kind[src] == FOUNDATION:
            return False
        card, target, to = pile[-1], piles[dst], kind[dst]
        if to == FOUNDATION:
            return n == 1 and self.game.goes_home(target, card)
        if to == CELL:
            return n == 1 and kind[src] == TABLEAU and not target
        if kind[src] == CELL or n == 1:  # one card is a run, and a supermove carries one at least
            return n == 1 and (not target or card in self.fits_on[target[-1]])
        free = empties = 0  # loops, not sums of generators: each of those is a call
        for c in self.cell_indices:
            if not piles[c]:
                free += 1
        for t in self.tableau_indices:
            if not piles[t]:
                empties += 1
        run = self.game.run_length(pile)
        if target:
            return n <= min(run, supermove(free, empties)) and pile[-n] in self.fits_on[target[-1]]
        return n <= min(run, supermove(free, empties - 1))  # a run is never longer than its pile

    def run_of(self, pile) -> tuple:
        """(run, wanted): how many top cards of ``pile`` may move together as far as their
        order goes (the engine's run_length), and wanted[k], the (host, n) pairs for the top
        n <= k of them: the run of n cards may go on host. Kept by pile (a pile's hash is kept
        too when it is bytes): the moves of a whole position are asked again for its
        children, which share all but two of its piles, and a line checked move by move (a
        win shortened, then replayed) asks of the same piles again and again."""
        hosts = self.hosts
        run = self.game.run_length(pile)
        wanted: list[tuple[tuple[int, int], ...]] = [()]
        for n in range(1, run + 1):
            wanted.append(wanted[-1] + tuple((host, n) for host in hosts[pile[-n]]))
        # Tuples all through: the garbage collector stops tracking tuples of plain values,
        # so this cache, long-lived and large, costs its passes nothing.
        known = (run, tuple(wanted))
        if len(self.runs) >= self.runs_kept:
            self.runs.clear()
        self.runs[pile] = known
        return known

    def foundation_facts(self, piles) -> tuple:
        """``facts_of(piles)``, kept by foundations (at most ``facts_kept`` of them)."""
        foundations = piles[self.founds]
        facts = self._facts.get(foundations)
        if facts is None:
            if len(self._facts) >= self.facts_kept:
                self._facts.clear()
            facts = self._facts[foundations] = self.facts_of(piles)
        return facts

    def facts_of(self, piles) -> tuple:
        """(first homes, every home): card -> the foundations that take it next, for the
        first card of a suit only the first empty foundation, or every empty one."""
        by_card, empties = self.game.foundation_wants(piles)
        first = {card: (homes[0],) for card, homes in by_card.items()}  # one deck: one each
        every = dict(first)
        if empties:
            for card in self.starters:
                first[card], every[card] = (empties[0],), tuple(empties)
        return first, every


@functools.lru_cache(maxsize=8)
def _tables(game):
    """CellsMoves' tables, built once a game (the engine and each search make one):
    - moves[src][dst][n]: every Move (a run has 13 cards at most), and one[src][dst] its n = 1;
    - hosts[card]: the cards ``card`` may be built on (``fits_on`` read the other way);
    - counts_to[dst][k]: the (dst, n) pairs for n = 1 .. k, a run's moves to an empty pile."""
    ids = game.pile_ids
    moves = [
        [[None, one] + [Move(a, b, n) for n in range(2, 14)] for b, one in zip(ids, row)]
        for a, row in zip(ids, game.one_card_moves)
    ]
    hosts: list[list[int]] = [[] for _ in range(64)]
    for top in range(64):
        for card in game.fits_on[top]:
            hosts[card].append(top)
    counts_to = [[tuple((dst, n) for n in range(1, k + 1)) for k in range(14)] for dst in range(len(ids))]
    one = [[moves[1] for moves in row] for row in moves]
    return moves, one, hosts, counts_to
