"""The Interchange family's moves: the rules' one move generator.

``Moves(game).plans`` yields every legal move in the order of ``Patience.iter_moves``
(``every=True``: the engine's ``iter_moves``, rules.py), or only the moves the solver
expands (``every=False``: expander.py): none from the stock or waste (its bridges and stock
compression replace them: reductions.py, solver/stock.py), and none of the key-equal
duplicates it skips (a card goes only to the first empty foundation, a run only to the
first empty pile, and never a whole pile there). Each move comes with its source,
destination and count as pile indices, so that the solver makes positions straight from
the piles and reads no Move back. It holds where a run moves whole however long and there
are no free cells (``fits``): every game of the family, and the variants that keep that;
the others keep ``Patience.iter_moves``. The engine's refusals (``Patience._refusal``) are a
second, independent encoding of the rules; tests/test_interchange_family.py checks the
moves against ``Patience.iter_moves`` on random positions of every game of the family.
"""

from __future__ import annotations

from ...engine.cards import FACE_DOWN
from ...engine.moves import Move


def fits(game) -> bool:
    """Does ``Moves`` give ``game``'s moves? A run moves whole however long (no group limit
    to ask), there are no free cells, and there is a stock. (The family changes none of
    Patience's hooks: every pile gives and takes, and no move is extra.)"""
    return game.group in ("run", "yukon") and not game.cell_indices and bool(game.draw)


class Moves:
    """One game's move generator, with the tables it reads."""

    def __init__(self, game):
        self.game = game
        self.tableau_indices, self.tableau = game.tableau_indices, frozenset(game.tableau_indices)
        self.stock, self.waste = game.stock_index, game.waste_index
        self.start, self.redeals = game.foundation_start, game.redeals
        self.fits_on, self.run_length = game.fits_on, game.run_length
        self.one = game.one_card_moves
        self.empty_takes = [game.empty_pile_takes((), None, card) for card in range(128)]
        self.deal = Move("stock", "waste")
        self.redeal = Move("waste", "stock")
        self._runs: dict = {}  # (source, destination, count) -> its Move

    def run_move(self, src, dst, n) -> Move:
        """The move of the top ``n`` cards of pile ``src`` to pile ``dst``, made once."""
        if n == 1:
            return self.one[src][dst]
        move = self._runs.get((src, dst, n))
        if move is None:
            ids = self.game.pile_ids
            move = self._runs[src, dst, n] = Move(ids[src], ids[dst], n)
        return move

    def runs(self, piles) -> list:
        """(pile, its run's length) for each tableau pile that holds cards."""
        run_length = self.run_length
        return [(t, run_length(piles[t])) for t in self.tableau_indices if piles[t]]

    def plans(self, piles, extra, every=True, source=None, runs=None):
        """(move, source, destination, count) for each legal move, or for each the solver
        expands (above); ``source``: only those from that pile index; ``runs``: ``runs(piles)``
        if the caller has it. A turn of the stock or a redeal comes as its move, the stock
        and the waste, and 1."""
        one, T, waste, start = self.one, self.tableau_indices, self.waste, self.start
        if source is not None:
            runs = (
                [(source, self.run_length(piles[source]))] if source in self.tableau and piles[source] else []
            )
        elif runs is None:
            runs = self.runs(piles)
        top = piles[waste][-1] if every and piles[waste] and source in (None, waste) else None
        wants, empty_fs = self.game.foundation_wants(piles)
        if not every:
            empty_fs = empty_fs[:1]
        for src, _ in runs:  # to the foundations
            card = piles[src][-1]
            if not card & FACE_DOWN:
                for f in empty_fs if card & 15 == start else wants.get(card, ()):
                    yield one[src][f], src, f, 1
        if top is not None:
            for f in empty_fs if top & 15 == start else wants.get(top, ()):
                yield one[waste][f], waste, f, 1
        takes: dict[int, list[int]] = {}  # card -> the piles it fits on
        empties: list[int] = []  # the empty piles
        fits_on = self.fits_on
        for dst in T:
            if piles[dst]:
                for card in fits_on[piles[dst][-1]]:
                    takes.setdefault(card, []).append(dst)
            elif every or not empties:
                empties.append(dst)
        empty_takes = self.empty_takes
        for src, run in runs:  # on the tableau, by destination then count
            pile = piles[src]
            found = [(dst, n) for n in range(1, run + 1) for dst in takes.get(pile[-n], ()) if dst != src]
            if empties:
                most = run if every else min(run, len(pile) - 1)
                found += [(dst, n) for dst in empties for n in range(1, most + 1) if empty_takes[pile[-n]]]
            found.sort()
            for dst, n in found:
                yield one[src][dst] if n == 1 else self.run_move(src, dst, n), src, dst, n
        if top is not None:  # from the waste to the tableau
            fitting = takes.get(top, []) + (empties if empty_takes[top] else [])
            for dst in sorted(fitting):
                yield one[waste][dst], waste, dst, 1
        if every and source in (None, self.stock, waste):
            stock = self.stock
            if piles[stock]:
                if source in (None, stock):
                    yield self.deal, stock, waste, 1
            elif (
                source in (None, waste) and piles[waste] and (self.redeals is None or extra[0] < self.redeals)
            ):
                yield self.redeal, waste, stock, 1
