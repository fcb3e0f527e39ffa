"""Interlock's compiled search (search_core.c): the tables it is handed, and when it runs.

search_core.c runs search.py's ``_Search`` with ``InterlockExpander``'s successors, keys and
scores, position for position, at a fraction of the cost a position. It holds no rule of
its own: every table it plays by is read here from the game (the layout: which piles cover
which, which are gone once empty, which are back piles; which card goes on which, in the
order the game's ``fits_on`` sets give them; which cards may head a group to an empty back
pile; the suits that make a card safe, bridges._safe_next) and from the score's weights.
The dead-end test (deadends.py's DeadEnds, whose tables and constants it is handed) runs
in C too, asked of every position expanded as PatienceExpander.expand asks it; a test of
another kind would be called back in Python. It runs only where it is the same search:

- the expander is InterlockExpander (expander.fast_path: bridges.applies, no face-down
  cards, Kings alone to empty back piles) with safe moves played, at most
  search_core.MAX_PILES piles, and a start with fewer than native_search.REDEALS_HELD
  redeals made (``holds``: search_core counts them in 32 bits);
- every weight is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolio's weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, search_loop.h's ``loop_priority``);
- none of the Python functions it writes again was replaced since native.py was imported
  (tests do, to switch a reduction off); a replaced part of the dead-end test is called
  back in Python instead;
- the C replay of CPython's set order (the bridges onto an empty back pile start from the
  reserve's Kings in ``set(cycle)``'s order) gives the running Python's order;
- the extension module was built from the C source as it is now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

tests/test_native_interlock.py compares the two successor by successor and search by search.
"""

from __future__ import annotations

import functools
import random

from ...compiled import native_module
from ...engine.cards import OTHER_COLOUR, deck
from ...engine.moves import Move
from ...engine.state import State
from ...solver import native_search
from ...solver.heuristics import weights_of
from ...solver.native_search import core_weights
from ...solver.stock import REDEAL, TURN
from . import deadends
from .expander import InterlockExpander

search_core = native_module("solwidget.games.interlock.search_core")

WEIGHTS = ("home", "blockers", "urgent", "buried", "down", "empty", "covered", "reserve",
           "unsorted")  # search_core's order; "cells" counts no cell here (no free cells)
NONE = 0xFF


@functools.lru_cache(maxsize=1)
def set_order_holds() -> bool:
    """Does search_core's replay of CPython's set order give this Python's, on sets of
    every size a reserve may have?"""
    rng = random.Random(1)
    cards = deck()
    for size in range(0, 53):
        for _ in range(8):
            items = tuple(rng.sample(cards, size))
            if search_core.set_order(bytes(items)) != bytes(list(set(items))):
                return False
    return True


def _mirrored() -> tuple:
    """The Python functions search_core writes again (the successors, the safe cards, the
    key, the score), as they are now: a test or a caller that replaces one of them changes
    the Python search, and then search_core is not the same search."""
    from ...solver import expand, heuristics, stock
    from ...solver import keys as solver_keys
    from . import bridges, keys, moves
    from . import expander as expander_module
    return (bridges.bridges, bridges.home_bridges, bridges.settle, bridges._safe_card, bridges._safe_next,
            bridges._units, bridges._chains, stock.cycle, stock.turn_up, stock.play_off, stock.play_bridge,
            stock.home_chains, stock.play_home, keys.backs_uncovered, expander_module.backs_uncovered,
            solver_keys.patience_key, solver_keys._cycle_key, heuristics.make_score, heuristics.patience_score,
            heuristics.scan_pile, heuristics.need_tables, *vars(moves.InterlockMoves).values(),
            *vars(InterlockExpander).values(), *vars(expander_module.InterlockFamilyExpander).values(),
            *vars(expand.PatienceExpander).values(), *vars(expand.GenericExpander).values())


def _dead_mirrored() -> tuple:
    """DeadEnds' methods and constants as they are now (see ``_mirrored``): where one was
    replaced, the C search calls the Python test back instead."""
    return (*vars(deadends.DeadEnds).values(), deadends.VIRTUALS, deadends.TWIN, deadends.ALL_HOME)


_MIRRORED, _DEAD_MIRRORED = _mirrored(), _dead_mirrored()


def _same(now, then) -> bool:
    return len(now) == len(then) and all(a is b for a, b in zip(now, then))


def compiled_search(expander, weights, depth_weight, table_size, frontier_size, explore):
    """A NativeSearch doing what ``_Search`` would with these arguments, or None where it
    would not be the same search (see the module docstring)."""
    if search_core is None or type(expander) is not InterlockExpander or not expander.autoplay:
        return None
    if not _same(_mirrored(), _MIRRORED):
        return None
    game = expander.game
    if len(game.pile_ids) > search_core.MAX_PILES or game.cell_indices or game.card_count != 52:
        return None
    w = core_weights(weights_of(weights), WEIGHTS, depth_weight)
    if w is None:
        return None
    if not set_order_holds():
        return None
    return NativeSearch(expander, w, depth_weight, table_size, frontier_size, explore)


@functools.lru_cache(maxsize=8)
def _tables(game) -> tuple:
    """What search_core plays by, read from ``game`` (see search_core's Search)."""
    kinds = {"foundation": 0, "tableau": 2, "stock": 3, "waste": 4}
    layout = bytearray()
    for i, pid in enumerate(game.pile_ids):
        pair = game._pair[i] if i in game.tableau_indices else None
        covered = game.covered.get(i, ()) if i in game.tableau_indices else ()
        assert len(covered) <= 2 and (pair is None or len(pair) == 2)
        layout += bytes((kinds[game.pile_kinds[pid]], *(pair or (NONE, NONE)), game._gone_when_empty[i],
                         int(i in game.tableau_indices and game.layer[i] == 0), *covered, *(NONE,) * (2 - len(covered))))
    fits = bytes(over in game.fits_on[under] for under in range(64) for over in range(64))
    order = bytearray([NONE]) * 256
    for card in range(64):
        hosted = list(game.fits_on[card])         # the frozenset's own order, as Python walks it
        assert len(hosted) <= 4
        order[4 * card:4 * card + len(hosted)] = bytes(hosted)
    heads = bytes(card in game.generator.empty_heads for card in range(64))
    safe = bytes(s for suit in range(4) for s in OTHER_COLOUR[suit]) + bytes(suit ^ 3 for suit in range(4))
    return bytes(layout), fits, bytes(order), heads, safe


def _dead_tables(dead) -> tuple:
    """DeadEnds' own tables and constants, for the dead-end test in C."""
    assert len(deadends.VIRTUALS) == 3 and deadends.FIRST_DEPTH <= 2 and deadends.KILLERS <= 16
    pair = bytes(c for card in range(64) for c in dead.pair[card])
    return (pair, bytes(deadends.VIRTUALS), deadends.TWIN, deadends.KILLERS, deadends.KILLER_TRIES,
            deadends.SCOUT, deadends.PLAIN_FIRST, deadends.FIRST_DEPTH)


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for an InterlockExpander, run by search_core.c: the same
    expansions."""

    def __init__(self, expander, weights, depth_weight, table_size, frontier_size, explore):
        game = expander.game
        self.expander = expander
        self.game = game
        self._F = frozenset(game.foundation_indices)
        self._index = game.index_of
        self._one = game.one_card_moves
        self._ids = game.pile_ids
        self._stock, self._waste = game.stock_index, game.waste_index
        dead = expander.dead_ends
        if dead is None:
            test = None
        elif type(dead) is deadends.DeadEnds and _same(_dead_mirrored(), _DEAD_MIRRORED):
            test = _dead_tables(dead)
        else:                                   # a test of another kind: asked in Python
            test = self._dead_callback(dead.is_dead)
        # _Search keeps two generations of half the table each
        self.core = search_core.Search(*_tables(game), game.card_count, tuple(weights), depth_weight,
                                       explore, table_size // 2, frontier_size, test)

    def _dead_callback(self, is_dead):
        decode, game = self.decode, self.game
        return lambda data: is_dead(State(game, *decode(data)))

    def pool(self, closure) -> None:
        assert closure is None, "Interlock pools no proofs"

    def holds(self, state) -> bool:
        """search_core counts the redeals made in 32 bits (a pile holds one deck at most)."""
        return state.extra[0] < native_search.REDEALS_HELD

    def encode(self, state) -> bytes:
        """A position as search_core keeps it: a foundation as its top card, any other pile
        as its length and its cards, then the redeals (4 bytes, little-endian). It takes the
        State, not its piles: the redeals (State.extra) are part of the position."""
        out = bytearray()
        for i, pile in enumerate(state.piles):
            if i in self._F:
                out.append(pile[-1] if pile else 0)
            else:
                out.append(len(pile))
                out += bytes(pile)
        out += state.extra[0].to_bytes(4, "little")
        return bytes(out)

    def decode(self, data) -> tuple:
        """(piles, extra) of an encoded position."""
        piles, at = [], 0
        for i in range(len(self._ids)):
            if i in self._F:
                top = data[at]
                at += 1
                piles.append(tuple(range(top & 0x30 | 1, top + 1)) if top else ())
            else:
                n = data[at]
                piles.append(tuple(data[at + 1:at + 1 + n]))
                at += 1 + n
        return tuple(piles), (int.from_bytes(data[at:at + 4], "little"),)

    def encode_moves(self, moves) -> bytes:
        """Moves as search_core keeps them, 3 bytes each; a run of turns as (stock, waste, k)."""
        index = self._index
        out: list[list[int]] = []
        for m in moves:
            if m == TURN:
                if out and out[-1][0] == self._stock and out[-1][2] < 255:
                    out[-1][2] += 1
                else:
                    out.append([self._stock, self._waste, 1])
            else:
                out.append([index[m.src], index[m.dst], m.n])
        return bytes(b for triple in out for b in triple)

    def decode_moves(self, data) -> list:
        """The engine's Move objects of moves as search_core keeps them."""
        moves, one, ids = [], self._one, self._ids
        for i in range(0, len(data), 3):
            src, dst, n = data[i], data[i + 1], data[i + 2]
            if src == self._stock:
                moves += [TURN] * n
            elif dst == self._stock:
                moves.append(REDEAL)
            else:
                moves.append(one[src][dst] if n == 1 else Move(ids[src], ids[dst], n))
        return moves

    def seed(self, state, node) -> None:
        """The start: the whole State encoded, its redeals with its piles (see encode)."""
        self.core.seed(self.encode(state), self.encode_moves(node[1]))
