"""The Interchange family's compiled search (search_core.c): the tables it is handed, and
when it runs.

search_core.c runs search.py's ``_Search`` with ``InterchangeExpander``'s successors, keys
and scores, position for position, at a fraction of the cost a position. It holds no rule
of its own: every table it plays by is read here from the game (which card goes on which,
what an empty pile takes, where each kind of pile lies, how many decks) and from the
score's weights. It runs only where it is the same search:

- the expander is ``InterchangeExpander`` (expander.fast_path: Triple and Quadruple
  Interchange and the variants of their shape), plays safe moves, tests dead ends with
  reductions.py's ``DeadEnds`` (search_core's is_dead is its twin), and the game's piles lie
  as search_core reads them (the foundations, the tableau, the stock, the waste; no cells)
  within its bounds (a key of at most 255 bytes), and so does every position the search
  reaches from the one it starts at (``holds``: a tableau pile of at most MAX_PILE cards,
  fewer than native_search.REDEALS_HELD redeals made);
- every weight the score reads (not ``cells`` nor ``covered``: no free cells, no pile
  covers another) is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolio's weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, search_loop.h's ``loop_priority``);
- the extension module was built from the C source as it is now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

A NativeSearch sits in a portfolio as a ``_Search`` does (solver/native_search.py): it
takes part in a pooled loss proof (search.py's ``_Closure``) by adding the same bytes keys
to the closure's two sets of keys (made KeyPools, search_loop.h's).
tests/test_native_interchange.py compares the two successor by successor and search by
search.
"""

from __future__ import annotations

import functools
from array import array

from ...compiled import native_module
from ...engine.cards import ACE, FACE_DOWN
from ...engine.state import State
from ...solver import native_search
from ...solver.heuristics import weights_of
from ...solver.native_search import core_weights
from ...solver.stock import REDEAL, TURN
from . import reductions
from .expander import InterchangeExpander

search_core = native_module("solwidget.games.interchange.search_core")

WEIGHTS = ("home", "blockers", "urgent", "buried", "down", "empty", "reserve", "unsorted")  # search_core's order
TURNS, REDEAL_CODE = 0x8000, 0x4000       # search_core's move codes (its header comment)


def fits_core(game) -> bool:
    """Does search_core hold ``game``'s positions and keys (its layout and bounds)?"""
    F, T = game.foundation_indices, game.tableau_indices
    return (not game.cell_indices and tuple(range(len(F))) == F and tuple(range(len(F), len(F) + len(T))) == T
            and (len(F) + len(T), len(F) + len(T) + 1) == (game.stock_index, game.waste_index)
            and len(game.pile_ids) <= search_core.MAX_PILES and game.card_count <= search_core.MAX_CARDS
            and game.card_count + len(F) + len(T) + 1 <= 255 and len(F) <= 4 * game.decks
            and game.foundation_start == ACE and game.step == 1)


def compiled_search(expander, weights, depth_weight, table_size, frontier_size, explore):
    """A NativeSearch doing what ``_Search`` would with these arguments, or None where it
    would not be the same search (see the module docstring)."""
    if search_core is None or type(expander) is not InterchangeExpander or not expander.autoplay:
        return None
    if type(expander.dead_ends) is not reductions.DeadEnds:    # search_core's is_dead is its twin
        return None
    if not fits_core(expander.game) or not 0.0 <= explore < 1.0:
        return None
    w = core_weights(weights_of(weights), WEIGHTS, depth_weight)
    if w is None:
        return None
    return NativeSearch(expander, w, depth_weight, table_size, frontier_size, explore)


def holds(game, state) -> bool:
    """Does search_core hold every position reached from ``state``? A tableau pile grows only
    by cards built on its top card, each on the one below, so it never holds more than its
    cards now and the longest such run (``longest_run``); search_core keeps MAX_PILE cards a
    pile. Its count of redeals made has 32 bits (native_search.REDEALS_HELD)."""
    run = longest_run(game)
    return (run is not None and state.extra[0] < native_search.REDEALS_HELD
            and all(len(state.piles[t]) + run <= search_core.MAX_PILE for t in game.tableau_indices))


@functools.lru_cache(maxsize=8)
def longest_run(game) -> int | None:
    """The most cards a run built by ``game``'s rules holds, each card on the one below (a
    King down to an Ace: 13), or None where the cards that go on one another make a cycle,
    so that a run has no end."""
    fits_on = game.fits_on
    longest: dict[int, int] = {}
    for first in range(128):
        todo = [(first, iter(fits_on[first]))]          # a depth-first walk without recursion
        walking = {first}
        while todo:
            card, children = todo[-1]
            child = next(children, None)
            if child is None:
                longest[card] = 1 + max((longest[c] for c in fits_on[card]), default=0)
                walking.discard(card)
                todo.pop()
            elif child in walking:
                return None
            elif child not in longest:
                walking.add(child)
                todo.append((child, iter(fits_on[child])))
    return max(longest.values())


@functools.lru_cache(maxsize=8)
def _tables(game) -> tuple:
    """What search_core plays by, read from ``game``: the cards that go on each card (in
    the order Python's sets give them), the cards an empty tableau pile takes, and the
    build's fits as the unsorted weight reads them (face-down cards too)."""
    fits_on = tuple(bytes(game.fits_on[card]) for card in range(128))
    empty_takes = bytes(bool(game.generator.empty_takes[card]) for card in range(128))
    fits = game.build.fits
    builds = bytes(fits(under, over) for under in range(128) for over in range(128))
    return fits_on, empty_takes, builds


def encode(game, state) -> bytes:
    """A position as search_core keeps it: each foundation as its top card, each tableau
    pile as its length and cards, then the reserve: its length, the cards on the waste,
    its cards from the waste's bottom (face up), and the redeals (4 bytes)."""
    piles = state.piles
    out = bytearray(piles[f][-1] if piles[f] else 0 for f in game.foundation_indices)
    for t in game.tableau_indices:
        out.append(len(piles[t]))
        out += bytes(piles[t])
    waste, stock = piles[game.waste_index], piles[game.stock_index]
    out += bytes((len(waste) + len(stock), len(waste)))
    out += bytes(waste) + bytes(c & ~FACE_DOWN for c in reversed(stock))
    out += state.extra[0].to_bytes(4, "little")
    return bytes(out)


def decode(game, data: bytes) -> State:
    """The State that ``encode`` made ``data`` of."""
    piles: list[tuple[int, ...]] = [()] * len(game.pile_ids)
    at = 0
    for f in game.foundation_indices:
        top = data[at]
        at += 1
        piles[f] = tuple(range((top & 0x30) | ACE, top + 1)) if top else ()
    for t in game.tableau_indices:
        n = data[at]
        piles[t] = tuple(data[at + 1:at + 1 + n])
        at += 1 + n
    size, now = data[at], data[at + 1]
    order = data[at + 2:at + 2 + size]
    at += 2 + size
    piles[game.waste_index] = tuple(order[:now])
    piles[game.stock_index] = tuple(c | FACE_DOWN for c in reversed(order[now:]))
    return State(game, tuple(piles), (int.from_bytes(data[at:at + 4], "little"),))


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for an InterchangeExpander, run by search_core.c: the same
    expansions. ``python_dead_ends``: ask the expander's own dead-end test (reductions.py)
    from C, for the tests; else search_core's."""

    def __init__(self, expander, weights, depth_weight, table_size, frontier_size, explore,
                 python_dead_ends=False):
        game = expander.game
        self.expander = expander
        self._game = game
        self._index = game.index_of
        self._move = expander._run_move                 # (source, destination, cards) -> Move
        dead = None
        if python_dead_ends:
            is_dead = expander.dead_ends.is_dead
            dead = lambda data: is_dead(decode(game, data))  # noqa: E731
        # _Search keeps two generations of half the table each
        self.core = search_core.Search(len(game.foundation_indices), len(game.tableau_indices), *_tables(game), game.decks,
                                       game.card_count, tuple(weights), depth_weight, explore,
                                       table_size // 2, frontier_size, dead)

    def holds(self, state) -> bool:
        return holds(self._game, state)

    def encode(self, state) -> bytes:
        """A position as search_core keeps it (a State: the redeals made are in it too)."""
        return encode(self._game, state)

    def encode_moves(self, moves) -> bytes:
        codes = array("H")
        index = self._index
        for m in moves:
            if m == TURN:
                codes.append(TURNS | 1)
            elif m == REDEAL:
                codes.append(REDEAL_CODE)
            else:
                codes.append(index[m.src] << 9 | index[m.dst] << 4 | m.n)
        return codes.tobytes()

    def decode_moves(self, data: bytes) -> list:
        """The engine's moves of search_core's move codes."""
        out = []
        move = self._move
        for code in array("H", data):
            if code & TURNS:
                out += [TURN] * (code & 0x7FFF)
            elif code == REDEAL_CODE:
                out.append(REDEAL)
            else:
                out.append(move(code >> 9, code >> 4 & 31, code & 15))
        return out

    def seed(self, state, node) -> None:
        """The start; its moves are node[2] of the engine's (a code may turn the stock
        many times)."""
        self.core.seed(self.encode(state), self.encode_moves(node[1]), node[2])
