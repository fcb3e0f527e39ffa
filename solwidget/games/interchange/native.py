"""The Interchange family's compiled search: its kernel (kernel.c), the rules it is handed,
and when it runs.

kernel.c, run by the compiled search (solver/search_core.c), expands as search.py's
``_Search`` with ``InterchangeExpander``'s successors, keys and scores, position for
position, at a fraction of the cost a position. It holds no rule of its own: every table it
plays by is packed here from the game (``pack_rules``) (which card goes on which,
what an empty pile takes, where each kind of pile lies, how many decks) and from the
score's weights. It runs only where it is the same search:

- the expander is ``InterchangeExpander`` (expander.fast_path: every game of the family but
  Interchange's one pass, and the variants of their shape), or, for Interchange's one pass
  and the variants that limit the redeals, the general ``InterchangeFamilyExpander``
  (``_general``: one card a turn, the tableau piles alike, kernel.c's general successors),
  plays safe moves, tests dead ends with reductions.py's ``DeadEnds`` (kernel.c's is_dead
  and is_dead_piled are its twins, the second rule S's, once no redeal is left), and the
  game's piles lie as kernel.c reads them (the foundations, the tableau, the stock, the
  waste; no cells) within its bounds (a key of at most 255 bytes), and so does every
  position the search reaches from the one it starts at (``holds``: a tableau pile of at
  most MAX_PILE cards, fewer than native_search.REDEALS_HELD redeals made, and fewer than
  256 where the plain key writes them);
- every weight the score reads (not ``cells`` nor ``covered``: no free cells, no pile
  covers another) is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolio's weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, loop.h's ``loop_priority``);
- the extension module was built from the C sources as they are now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

A NativeSearch sits in a portfolio as a ``_Search`` does (solver/native_search.py): it
takes part in a pooled loss proof (search.py's ``_Closure``) by adding the same bytes keys
to the closure's two sets of keys (made search_core's KeyPools). tests/test_kernels.py and
tests/test_native_interchange.py compare the two successor by successor and search by
search.
"""

from __future__ import annotations

import functools
from array import array

from ...engine.cards import ACE, FACE_DOWN
from ...engine.state import State
from ...solver import native_search
from ...solver.native_search import search_core
from ...solver.stock import REDEAL, TURN, hosts_in_order
from . import reductions
from .expander import InterchangeExpander, InterchangeFamilyExpander, fast_path

KERNEL = "interchange"
TURNS, REDEAL_CODE = 0x8000, 0x4000  # kernel.c's move codes (its header comment)


def fits_core(game) -> bool:
    """Does kernel.c hold ``game``'s positions and keys (its layout and bounds)?"""
    F, T = game.foundation_indices, game.tableau_indices
    limits = search_core.limits(KERNEL)
    return (
        not game.cell_indices
        and tuple(range(len(F))) == F
        and tuple(range(len(F), len(F) + len(T))) == T
        and (game.stock_index, game.waste_index) == (len(F) + len(T), len(F) + len(T) + 1)
        and len(game.pile_ids) <= limits["MAX_PILES"]
        and game.card_count <= limits["MAX_CARDS"]
        and game.card_count + len(F) + len(T) + 1 <= 255
        and len(F) <= 4 * game.decks
        and game.foundation_start == ACE
        and game.step == 1
    )


def holds(game, state) -> bool:
    """Does kernel.c hold every position reached from ``state``? A tableau pile grows only
    by cards built on its top card, each on the one below, so it never holds more than its
    cards now and the longest such run (``longest_run``); kernel.c keeps MAX_PILE cards a
    pile. Its count of redeals made has 32 bits (native_search.REDEALS_HELD)."""
    run = longest_run(game)
    return (
        run is not None
        and state.extra[0] < native_search.REDEALS_HELD
        and all(
            len(state.piles[t]) + run <= search_core.limits(KERNEL)["MAX_PILE"] for t in game.tableau_indices
        )
    )


@functools.lru_cache(maxsize=8)
def longest_run(game) -> int | None:
    """The most cards a run built by ``game``'s rules holds, each card on the one below (a
    King down to an Ace: 13), or None where the cards that go on one another make a cycle,
    so that a run has no end."""
    fits_on = game.fits_on
    longest: dict[int, int] = {}
    for first in range(128):
        todo = [(first, iter(fits_on[first]))]  # a depth-first walk without recursion
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
def pack_rules(game) -> bytes:
    """What kernel.c plays by, packed from ``game`` (its ``load``): the foundations, tableau
    piles, decks and cards, and the successors (the redeals allowed, for the general ones;
    255 for the bridged ones); the cards that go on each card, their count first (in the order
    InterchangeExpander takes them: ascending, stock.hosts_in_order), the cards an empty
    tableau pile takes, and the build's fits as the unsorted weight reads them (face-down cards too)."""
    # the bridged successors (255), or the redeals allowed (a game NativeSearch accepts:
    # fewer than 255, _general)
    limit = 255 if fast_path(game) else game.redeals
    head = bytes(
        [len(game.foundation_indices), len(game.tableau_indices), game.decks, game.card_count, limit]
    )
    fits_on = b"".join(bytes([len(hosts), *hosts]) for hosts in hosts_in_order(game))
    empty_takes = bytes(bool(game.generator.empty_takes[card]) for card in range(128))
    fits = game.build.fits
    builds = bytes(fits(under, over) for under in range(128) for over in range(128))
    return head + fits_on + empty_takes + builds


def encode(game, state) -> bytes:
    """A position as kernel.c keeps it: each foundation as its top card, each tableau
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
        piles[t] = tuple(data[at + 1 : at + 1 + n])
        at += 1 + n
    size, now = data[at], data[at + 1]
    order = data[at + 2 : at + 2 + size]
    at += 2 + size
    piles[game.waste_index] = tuple(order[:now])
    piles[game.stock_index] = tuple(c | FACE_DOWN for c in reversed(order[now:]))
    return State(game, tuple(piles), (int.from_bytes(data[at : at + 4], "little"),))


def _general(expander) -> bool:
    """Is ``expander`` the general InterchangeFamilyExpander of a game kernel.c searches as
    it does: one card a turn with the redeals limited (fewer than 255), its turns folded
    into the plays they serve, the tableau piles alike (a run to the first empty pile) and
    the plain key? kernel.c's general successors are that expander's."""
    game = expander.game
    return (
        type(expander) is InterchangeFamilyExpander
        and not fast_path(game)
        and expander.compress
        and expander.bridge_moves is None
        and expander.first_empty_only
        and game.draw == 1
        and game.redeals is not None
        and game.redeals < 255
    )


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for an InterchangeExpander, or the general expander of
    Interchange's one pass (``_general``), run by kernel.c: the same expansions.
    ``python_dead_ends``: ask the expander's own dead-end test (reductions.py) from C, for
    the tests; else kernel.c's."""

    kernel = KERNEL
    weight_names = ("home", "blockers", "urgent", "buried", "down", "empty", "reserve", "unsorted")

    @classmethod
    def accepts(cls, expander, explore) -> bool:
        """An InterchangeExpander, or the general expander of a game whose redeals are
        limited (``_general``), that plays safe moves, with reductions.py's dead-end test
        (kernel.c's is_dead and is_dead_piled are its twins), a game kernel.c holds
        (``fits_core``), exploring less than every pop."""
        return (
            (type(expander) is InterchangeExpander or _general(expander))
            and expander.autoplay
            and type(expander.dead_ends) is reductions.DeadEnds
            and fits_core(expander.game)
            and 0.0 <= explore < 1.0
        )

    pack_rules = staticmethod(pack_rules)

    def __init__(
        self, expander, weights, depth_weight, table_size, frontier_size, explore, python_dead_ends=False
    ):
        game = expander.game
        self._game = game
        self._index = game.index_of
        self._move = game.generator.run_move  # (source, destination, cards) -> Move
        self._python_dead_ends = python_dead_ends
        super().__init__(expander, weights, depth_weight, table_size, frontier_size, explore)

    def dead_test(self, expander):
        """The expander's own dead-end test, called back, where the tests ask for it."""
        if not self._python_dead_ends:
            return None
        game, is_dead = self._game, expander.dead_ends.is_dead
        return lambda data: is_dead(decode(game, data))

    def holds(self, state) -> bool:
        """``holds``; and, with the redeals limited, a count of them that the plain key
        writes in one byte."""
        return holds(self._game, state) and (self._game.redeals is None or state.extra[0] < 256)

    def encode(self, state) -> bytes:
        """A position as kernel.c keeps it (a State: the redeals made are in it too)."""
        return encode(self._game, state)

    def position(self, state) -> bytes:
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
        """The engine's moves of kernel.c's move codes."""
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
