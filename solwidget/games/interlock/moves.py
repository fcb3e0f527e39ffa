"""The Interlock family's moves: the rules' one move generator, which the solver shares.

``InterlockMoves(game).plans`` yields every legal move (``every=True``: the engine's
``iter_moves``, rules.py), or only what the solver's fast expander asks (``every=False``:
expander.py), each with the pile indices that make the position after it, so that the
solver reads no Move back into piles. The order is the one of ``Patience.iter_moves`` with
the family's hooks (covering, gone piles, dropdowns): home, then runs between tableau piles
by source, then destination and count, then the waste's card to the tableau, the stock's
turn, and last the dropdowns. It serves the games where no count limits a group (runs or
Yukon groups) and there are no free cells (``fits``); the others take
``Patience.iter_moves``, with this generator's dropdowns. The tests compare the two on
random positions of every game of the family and of variants, and the dropdowns with the
rules' refusals (rules.py), an independent encoding of them.
"""

from __future__ import annotations

from ...engine.cards import FACE_DOWN, deck
from ...engine.moves import Move


def fits(game) -> bool:
    """The shape ``plans`` is written for: groups of any length (runs or Yukon groups) and
    no free cells; it reads the family's other rules from the game."""
    return game.group in ("run", "yukon") and not game.cell_indices


class InterlockMoves:
    """A game's move generator, with the tables it reads."""

    def __init__(self, game):
        self.game = game
        self.tableau_indices = game.tableau_indices
        self.pair = game._pair  # covering piles by index (None: never covered)
        self.gone = game._gone_when_empty
        self.fits_on = game.fits_on
        self.run_length = game.run_length
        self.one = game.one_card_moves
        self.ids = game.pile_ids
        self.start = game.foundation_start
        self.waste, self.stock = game.waste_index, game.stock_index
        # the cards that may head a group to an empty back pile (the rule reads only the
        # card), and the piles that may be dropped onto, with the two piles covering each
        self.empty_heads = frozenset(
            c for c in deck() if game.empty_pile_takes((), game.tableau_indices[0], c)
        )
        self.droppers = [(x, *game.covers[x]) for x in game.tableau_indices if game.covers[x]]

    def _uncovered(self, piles, t) -> bool:
        pair = self.pair[t]
        return pair is None or not (piles[pair[0]] or piles[pair[1]])

    def plans(self, piles, extra, every=True, source=None):
        """(move, source pile, destination pile, count) for each legal move, or only those
        from pile index ``source``. Unless ``every``, what the solver asks: an Ace goes only
        to the first empty foundation (the key takes foundations as a set), and the waste
        and the stock give nothing (stock compression and the bridges stand for their moves)."""
        one, uncovered, start = self.one, self._uncovered, self.start
        tableau = (
            self.tableau_indices if source is None else (source,) if source in self.tableau_indices else ()
        )
        givers = [t for t in tableau if piles[t] and uncovered(piles, t)]
        waste = self.waste if every and source in (None, self.waste) else None
        if waste is not None and not piles[waste]:
            waste = None  # the waste's card, if it gives one
        wants, empty = self.game.foundation_wants(piles)
        if not every:
            empty = empty[:1]
        for src in (*givers, waste) if waste is not None else givers:
            card = piles[src][-1]
            if not card & FACE_DOWN:
                for f in empty if card & 15 == start else wants.get(card, ()):
                    yield one[src][f], src, f, 1
        takes, empty_takers = self._takers(piles)
        yield from self._tableau_moves(piles, givers, takes, empty_takers)
        if waste is not None:
            card = piles[waste][-1]
            fitting = takes.get(card, []) + (empty_takers if card in self.empty_heads else [])
            for dst in sorted(fitting):
                yield one[waste][dst], waste, dst, 1
        if every and self.stock is not None and source in (None, self.stock, self.waste):
            yield from self._turns(piles, extra, source)
        yield from self.dropdowns(piles, source)

    def _takers(self, piles):
        """(card -> the non-empty tableau piles it fits on, the empty piles that take cards)."""
        fits_on, uncovered = self.fits_on, self._uncovered
        takes: dict[int, list[int]] = {}
        empty_takers: list[int] = []
        for dst in self.tableau_indices:
            pile = piles[dst]
            if pile:
                if uncovered(piles, dst):
                    for card in fits_on[pile[-1]]:
                        takes.setdefault(card, []).append(dst)
            elif not self.gone[dst] and uncovered(piles, dst):
                empty_takers.append(dst)
        return takes, empty_takers

    def _tableau_moves(self, piles, givers, takes, empty_takers):
        """Groups leaving each of ``givers`` for other tableau piles, by destination then count."""
        one, ids, run_length, heads = self.one, self.ids, self.run_length, self.empty_heads
        for src in givers:
            pile = piles[src]
            run = run_length(pile)
            found = [(dst, n) for n in range(1, run + 1) for dst in takes.get(pile[-n], ()) if dst != src]
            if empty_takers:
                found += [(dst, n) for n in range(1, run + 1) if pile[-n] in heads for dst in empty_takers]
            found.sort()
            for dst, n in found:
                yield (one[src][dst] if n == 1 else Move(ids[src], ids[dst], n)), src, dst, n

    def _turns(self, piles, extra, source):
        """The stock's turn, or the waste turned back over once the stock is empty."""
        game = self.game
        if piles[self.stock]:
            if source in (None, self.stock):
                yield game._DEAL, self.stock, self.waste, 1
        elif (
            source in (None, self.waste)
            and piles[self.waste]
            and (game.redeals is None or extra[0] < game.redeals)
        ):
            yield game._REDEAL, self.waste, self.stock, 1

    def dropdowns(self, piles, source=None):
        """The dropdowns, by the pile dropped onto: a pile's only covering pile that still
        holds cards, itself uncovered, drops onto it whole if it is a run (Love a Duck: a
        face-up group) whose first card fits."""
        fits_on, run_length, ids = self.fits_on, self.run_length, self.ids
        for x, a, b in self.droppers:
            target = piles[x]
            if not target or bool(piles[a]) == bool(piles[b]):
                continue  # no covering pile holds cards, or both do
            y = a if piles[a] else b
            cards = piles[y]
            if (
                (source is None or source == y)
                and self._uncovered(piles, y)
                and cards[0] in fits_on[target[-1]]
                and run_length(cards) == len(cards)
            ):
                yield Move(ids[y], ids[x], len(cards)), y, x, len(cards)
