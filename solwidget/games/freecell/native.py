"""The FreeCell family's compiled search: its kernel (kernel.c), the rules it is handed, and
when it runs.

kernel.c, run by the compiled search (solver/search_core.c), expands as search.py's
``_Search`` with ``CellsExpander``'s successors, keys and scores, position for position,
at a fraction of the cost a position. It holds no rule of its own: every table it plays by
is packed here from the game (``pack_rules``: which card goes on which, how many cards a
supermove carries, which cards go home safely, where each kind of pile lies) and from the
score's weights. It runs only where it is the same search:

- the game has CellsExpander's shape (moves.fits), at most the kernel's MAX_PILES piles,
  and the expander plays safe moves;
- every weight is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolios' weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, loop.h's ``loop_priority``);
- the extension module was built from the C sources as they are now, and SOLWIDGET_PURE=1
  is not set (solwidget/compiled.py): else the Python search runs, with the same results.

tests/test_kernels.py and tests/test_native.py compare the two successor by successor and
search by search.
"""

from __future__ import annotations

import functools

from ...engine.patience import supermove
from ...solver import native_search
from ...solver.native_search import search_core
from .expander import CellsExpander, safe_needs

KINDS = {"foundation": 0, "cell": 1, "tableau": 2}  # a pile's kind, as kernel.c reads it
SAFE_WAYS = 2  # the ways a card goes home safely (expander.safe_needs): kernel.c's SAFE_WAYS
NEVER = 0xFF  # cards home asked of a way that a card lacks: more than a suit has


@functools.lru_cache(maxsize=8)
def pack_rules(game) -> bytes:
    """What kernel.c plays by, read from ``game`` (its ``load``): the piles, the foundations'
    step and start rank and the cards; each pile's kind; which card goes on which (fits);
    when a card goes home safely (safe: by card, each of its ways, the cards home that it
    asks of each suit: expander.safe_needs); and a supermove's size by free cells and empty
    piles."""
    kinds = bytearray(len(game.pile_ids))
    for kind, piles in (
        (KINDS["foundation"], game.foundation_indices),
        (KINDS["cell"], game.cell_indices),
        (KINDS["tableau"], game.tableau_indices),
    ):
        for i in piles:
            kinds[i] = kind
    assert sorted(game.foundation_indices + game.cell_indices + game.tableau_indices) == list(
        range(len(kinds))
    )  # moves.fits: no stock
    fits = bytes(over in game.fits_on[under] for under in range(64) for over in range(64))
    safe = bytearray([NEVER]) * (64 * SAFE_WAYS * 4)
    for card, ways in enumerate(safe_needs(game)):
        assert len(ways) <= SAFE_WAYS
        for way, needs in enumerate(ways):
            at = (card * SAFE_WAYS + way) * 4
            safe[at : at + 4] = bytes(needs)
    sizes = bytes(
        min(supermove(cells, empty), 255)
        for cells in range(len(game.cell_indices) + 1)
        for empty in range(len(game.tableau_indices) + 1)
    )
    head = bytes([len(kinds), game.step & 0xFF, game.foundation_start, game.card_count])
    return head + bytes(kinds) + fits + bytes(safe) + sizes


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for a CellsExpander, run by kernel.c: the same expansions."""

    kernel = "freecell"
    weight_names = ("home", "blockers", "urgent", "buried", "unsorted", "cells", "empty")

    @classmethod
    def accepts(cls, expander, explore) -> bool:
        return (
            type(expander) is CellsExpander
            and expander.autoplay
            and len(expander.game.pile_ids) <= search_core.limits(cls.kernel)["MAX_PILES"]
        )

    pack_rules = staticmethod(pack_rules)

    def __init__(self, expander, weights, depth_weight, table_size, frontier_size, explore):
        super().__init__(expander, weights, depth_weight, table_size, frontier_size, explore)
        game = expander.game
        self._kinds = pack_rules(game)[4 : 4 + len(game.pile_ids)]
        self._moves = expander._move  # [source][destination][cards]
        self._index = game.index_of

    def encode(self, piles) -> bytes:
        """A position as kernel.c keeps it: a foundation as its top card, any other pile as
        its length and its cards."""
        out = bytearray()
        for kind, pile in zip(self._kinds, piles):
            if kind == KINDS["foundation"]:
                out.append(pile[-1] if pile else 0)
            else:
                out.append(len(pile))
                out += bytes(pile)
        return bytes(out)

    def encode_moves(self, moves) -> bytes:
        """Three bytes a move: source, destination, cards."""
        index = self._index
        return bytes(part for m in moves for part in (index[m.src], index[m.dst], m.n))

    def decode_moves(self, data: bytes) -> list:
        table = self._moves
        return [table[data[i]][data[i + 1]][data[i + 2]] for i in range(0, len(data), 3)]
