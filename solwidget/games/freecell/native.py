"""The FreeCell family's compiled search (search_core.c): the tables it is handed, and when
it runs.

search_core.c runs search.py's ``_Search`` with ``CellsExpander``'s successors, keys and
scores, position for position, at a fraction of the cost a position. It holds no rule of
its own: every table it plays by is read here from the game (which card goes on which,
how many cards a supermove carries, which cards go home safely, where each kind of pile
lies) and from the score's weights. It runs only where it is the same search:

- the game has CellsExpander's shape (moves.fits), at most search_core.MAX_PILES piles, and
  the expander plays safe moves;
- every weight is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolios' weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, search_loop.h's ``loop_priority``);
- the extension module was built from the C source as it is now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

tests/test_native.py compares the two successor by successor and search by search.
"""

from __future__ import annotations

import functools

from ...compiled import native_module
from ...engine.patience import supermove
from ...solver import native_search
from ...solver.heuristics import weights_of
from ...solver.native_search import core_weights
from .expander import CellsExpander, _safe_hosts

search_core = native_module("solwidget.games.freecell.search_core")

WEIGHTS = ("home", "blockers", "urgent", "buried", "unsorted", "cells", "empty")  # search_core's order


def compiled_search(expander, weights, depth_weight, table_size, frontier_size, explore):
    """A NativeSearch doing what ``_Search`` would with these arguments, or None where it
    would not be the same search (see the module docstring)."""
    if search_core is None or type(expander) is not CellsExpander or not expander.autoplay:
        return None
    if len(expander.game.pile_ids) > search_core.MAX_PILES:
        return None
    w = core_weights(weights_of(weights), WEIGHTS, depth_weight)
    if w is None:
        return None
    return NativeSearch(expander, w, depth_weight, table_size, frontier_size, explore)


@functools.lru_cache(maxsize=8)
def _tables(game) -> tuple:
    """What search_core plays by, read from ``game``: each pile's kind, which card goes on
    which, a supermove's size by free cells and empty piles, and when a card goes home safely."""
    kinds = bytearray(len(game.pile_ids))
    for kind, piles in ((0, game.foundation_indices), (1, game.cell_indices), (2, game.tableau_indices)):
        for i in piles:
            kinds[i] = kind
    assert sorted(game.foundation_indices + game.cell_indices + game.tableau_indices) == list(range(len(kinds)))   # moves.fits: no stock
    fits = bytes(over in game.fits_on[under] for under in range(64) for over in range(64))
    sizes = bytes(min(supermove(cells, empty), 255)
                  for cells in range(len(game.cell_indices) + 1) for empty in range(len(game.tableau_indices) + 1))
    suits, ranks = bytearray(64), bytearray(64)
    for card, hosts in enumerate(_safe_hosts(game)):
        for suit, rank in hosts:
            suits[card] |= 1 << suit
            ranks[card] = rank
    return bytes(kinds), fits, sizes, bytes(suits + ranks)


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for a CellsExpander, run by search_core.c: the same expansions."""

    def __init__(self, expander, weights, depth_weight, table_size, frontier_size, explore):
        game = expander.game
        tables = _tables(game)
        self.expander = expander
        self._kinds = tables[0]
        self._moves = expander._move                    # [source][destination][cards]
        self._index = game.index_of
        # _Search keeps two generations of half the table each
        self.core = search_core.Search(*tables, game.step, game.foundation_start, game.card_count,
                                       tuple(weights), depth_weight, explore, table_size // 2,
                                       frontier_size)

    def encode(self, piles) -> bytes:
        """A position as search_core keeps it: a foundation as its top card, any other pile
        as its length and its cards."""
        out = bytearray()
        for kind, pile in zip(self._kinds, piles):
            if kind == 0:
                out.append(pile[-1] if pile else 0)
            else:
                out.append(len(pile))
                out += pile
        return bytes(out)

    def encode_moves(self, moves) -> bytes:
        """Three bytes a move: source, destination, cards."""
        index = self._index
        return bytes(part for m in moves for part in (index[m.src], index[m.dst], m.n))

    def decode_moves(self, data: bytes) -> list:
        table = self._moves
        return [table[data[i]][data[i + 1]][data[i + 2]] for i in range(0, len(data), 3)]
