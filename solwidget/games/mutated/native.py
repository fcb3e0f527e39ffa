"""Mutated Solitaire's compiled search: its kernel (kernel.c), the rules it is handed, and
when it runs.

kernel.c, run by the compiled search (solver/search_core.c), expands as search.py's
``_Search`` with ``MutatedExpander``'s successors, keys, scores and pooled proofs, position
for position, at a fraction of the cost a position. It holds no rule of its own: every
table it plays by is packed here from the board (``pack_rules``; board.py:
each pile's kind and row, the rows each pile gives cards to, which card goes on which) and
the score's weights; its dead-end test is deadends.py's, written again (the same verdicts:
the tests compare them on positions of real searches). It runs only where it is the same
search:

- the expander is a MutatedExpander that plays safe moves (``autoplay``: else it asks the
  engine for every move, which the C does not write), of a MutatedSolitaire;
- the dead-end test is deadends.DeadEnds's, as written (a test that replaces its
  ``is_dead`` or ``dead`` gets the Python search, which asks the replacement);
- every weight is a multiple of 1/1024 below 2**20, so that every sum of the score is exact
  in a double and the C sums, added in another order, are the Python ones to the last bit
  (the portfolio's weights all are). The depth weight may be any finite number (the
  portfolio has 0.2): a priority, ``score + depth_weight * depth``, is one product and one
  sum in both writings, each rounded to a double the same way (loop.h's ``loop_priority``);
- the extension module was built from the C sources as they are now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

Its keys are the very bytes of expander.key, so a pooled proof (search.py's ``_Closure``)
holds them as the Python search would (in its two sets, made search_core's KeyPools by
solver/native_search.py), and C and Python searches may share one.
tests/test_kernels.py and tests/test_native_mutated.py compare the two successor by successor
and search by search.
"""

from __future__ import annotations

import functools

from ...engine.cards import OTHER_COLOUR
from ...solver import native_search
from ...solver.native_search import search_core  # noqa: F401 - the module its tests ask for
from .board import (
    BUILD_MOVES,
    CARD_BY_NAME,
    CARD_MOVES,
    DECKS,
    FITS,
    GIVERS,
    MOVES,
    PARENTS_OF,
    PILE_IDS,
    R2X,
    ROW,
    SPACES,
    F,
)
from .deadends import DeadEnds
from .expander import PARTNER, ROW1_SPACES, MutatedExpander
from .rules import MutatedSolitaire
from .score import MUTATED_WEIGHTS

_DEAD_END_TEST = (DeadEnds.is_dead, DeadEnds.dead)  # as deadends.py writes it

BUILD_DST, CARD_MOVE = 255, 128  # a move's destination for "dN build"; a named card's flag


@functools.lru_cache(maxsize=1)
def pack_rules(game=None) -> bytes:
    """What kernel.c plays by, packed from the board (its ``load``; every MutatedSolitaire
    has the one board): the piles, the cards and the givers; each pile's kind (0 foundation,
    1 space, 2 r2x, 3 deck) and row, the giving piles in GIVERS's order with the rows they
    give to, which card goes on which (FITS, PARENTS_OF), and the suits of each colour."""
    kinds = bytearray(len(PILE_IDS))
    for kind, piles in ((0, F), (1, SPACES), (2, (R2X,)), (3, DECKS)):
        for i in piles:
            kinds[i] = kind
    assert sorted(F + SPACES + (R2X,) + DECKS) == list(range(len(PILE_IDS)))
    # the key keeps r2x and the decks in place after the spaces (expander.REST), the decks
    # in rows 1, 2, 3 (moves.apply flips DECKS[row - 1]), the row-1 spaces in order
    assert tuple(range(SPACES[-1] + 1, len(PILE_IDS))) == (R2X,) + DECKS
    assert all(ROW[d] == i + 1 for i, d in enumerate(DECKS))
    assert tuple(s for s in SPACES if ROW[s] == 1) == ROW1_SPACES
    rows = bytes(ROW)
    givers = bytearray()
    for src, to_rows, _ in GIVERS:
        assert 1 <= len(to_rows) <= 2
        givers += bytes((src, *to_rows, *(255,) * (2 - len(to_rows))))
    fits = bytes(bool(FITS[under][over]) for under in range(128) for over in range(128))
    parents = bytearray()
    for card in range(64):
        hosts = PARENTS_OF[card]
        assert len(hosts) <= 2
        parents += bytes((*hosts, *(255,) * (2 - len(hosts))))
    colours = bytes(s for pair in OTHER_COLOUR for s in pair) + bytes(PARTNER)
    head = bytes([len(PILE_IDS), 52, len(GIVERS)])
    return head + bytes(kinds) + rows + bytes(givers) + fits + bytes(parents) + colours


def encode(piles, modes) -> bytes:
    """A position as kernel.c keeps it: each pile as its length and its cards, then each
    deck's mode plus one."""
    out = bytearray()
    for pile in piles:
        out.append(len(pile))
        out += bytes(pile)
    out += bytes(mode + 1 for mode in modes)
    return bytes(out)


def decode(data: bytes) -> tuple:
    """``encode`` undone: (piles as bytes, modes)."""
    piles, at = [], 0
    for _ in PILE_IDS:
        n = data[at]
        piles.append(data[at + 1 : at + 1 + n])
        at += 1 + n
    return tuple(piles), tuple(b - 1 for b in data[at:])


INDEX = {pid: i for i, pid in enumerate(PILE_IDS)}


def encode_moves(moves) -> bytes:
    out = bytearray()
    for m in moves:
        if m.dst == "build":
            out += bytes((INDEX[m.src], BUILD_DST, 1))
        elif m.card is not None:
            out += bytes((INDEX[m.src], INDEX[m.dst], CARD_MOVE | CARD_BY_NAME[m.card]))
        else:
            out += bytes((INDEX[m.src], INDEX[m.dst], m.n))
    return bytes(out)


def decode_moves(data: bytes) -> list:
    """The engine's Move objects of kernel.c's move codes."""
    out = []
    for i in range(0, len(data), 3):
        src, dst, x = data[i], data[i + 1], data[i + 2]
        if dst == BUILD_DST:
            out.append(BUILD_MOVES[src])
        elif x & CARD_MOVE:
            out.append(CARD_MOVES[src, dst, x & 127])
        else:
            out.append(MOVES[src][dst][x])
    return out


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for a MutatedExpander, run by kernel.c: the same expansions."""

    kernel = "mutated"
    weight_names = ("home", "blockers", "urgent", "down", "rows", "decks", "orphans")
    default_weights = MUTATED_WEIGHTS

    @classmethod
    def accepts(cls, expander, explore) -> bool:
        """A MutatedExpander that plays safe moves (else it asks the engine for every move,
        which the kernel does not write), of a MutatedSolitaire, with deadends.py's test as
        written."""
        return (
            type(expander) is MutatedExpander
            and expander.autoplay
            and type(expander.game) is MutatedSolitaire
            and type(expander.dead_ends) is DeadEnds
            and (DeadEnds.is_dead, DeadEnds.dead) == _DEAD_END_TEST
        )

    pack_rules = staticmethod(pack_rules)

    def position(self, state) -> bytes:
        """A position as kernel.c keeps it (``encode``): the decks' modes (State.extra) are
        part of it."""
        return encode(state.piles, state.extra)

    def encode(self, state) -> bytes:
        """A position as kernel.c keeps it (``encode``). It takes the State, not its
        piles: the decks' modes (State.extra) are part of the position."""
        return encode(state.piles, state.extra)

    def encode_moves(self, moves) -> bytes:
        return encode_moves(moves)

    def decode_moves(self, data: bytes) -> list:
        return decode_moves(data)
