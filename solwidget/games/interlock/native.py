"""Interlock's compiled search: its kernel (kernel.c), the rules it is handed, and when it
runs.

kernel.c, run by the compiled search (solver/search_core.c), expands as search.py's
``_Search`` with ``InterlockExpander``'s successors, keys and scores, position for
position, at a fraction of the cost a position. It holds no rule of its own: every table it
plays by is packed here from the game (``pack_rules``; the layout: which piles cover which,
which are gone once empty, which are back piles; which card goes on which; which cards may
head a group to an empty back pile; the suits that make a card safe, bridges._safe_next)
and from the score's weights. The dead-end test (deadends.py's DeadEnds, whose tables and
constants it is handed) runs in C too, asked of every position expanded as
PatienceExpander.expand asks it; a test of another kind is called back in Python. It runs
only where it is the same search:

- the expander is InterlockExpander (expander.fast_path: bridges.applies, no face-down
  cards, Kings alone to empty back piles) with safe moves played, at most the kernel's
  MAX_PILES piles, and a start with fewer than native_search.REDEALS_HELD redeals made
  (``holds``: the kernel counts them in 32 bits);
- or, for the other games of the family (Love a Duck, Guardian), the general
  InterlockFamilyExpander with safe moves played (``_general``): the kernel then plays
  autoplay.py's safe moves (and autoplay.is_safe_or_lemma's where bridges.tops_safe says so:
  Guardian), keys.py's plain key (the uncovered back piles sorted) and stock.py's walk of a
  stock that draws two cards or more with unlimited redeals (or no stock), with runs or
  Yukon groups as the game says (not Yukon groups over face-down cards), no cell and one
  deck, foundations up from the Ace and the tableau down in alternating colours (the safe
  moves' rule reads them);
- every weight is a multiple of 1/1024 below 2**20, so that every sum of the score is
  exact in a double and the C sums, added in another order, are the Python ones to the last
  bit (the portfolio's weights all are); the depth weight is any finite number (a priority
  is one product and one sum on both sides, loop.h's ``loop_priority``);
- none of the Python functions it writes again was replaced since native.py was imported
  (tests do, to switch a reduction off); a replaced part of the dead-end test is called
  back in Python instead;
- the extension module was built from the C sources as they are now, and SOLWIDGET_PURE=1 is
  not set (solwidget/compiled.py): else the Python search runs, with the same results.

tests/test_kernels.py and tests/test_native_interlock.py compare the two successor by
successor and search by search.
"""

from __future__ import annotations

import functools

from ...engine.cards import ACE, OTHER_COLOUR
from ...engine.moves import Move
from ...engine.patience import Build
from ...engine.state import State
from ...solver import native_search
from ...solver.native_search import search_core
from ...solver.stock import REDEAL, TURN
from . import bridges, deadends
from .expander import InterlockExpander, InterlockFamilyExpander, fast_path

NONE = 0xFF


def _mirrored() -> tuple:
    """The Python functions kernel.c writes again (the successors, the safe cards, the
    key, the score), as they are now: a test or a caller that replaces one of them changes
    the Python search, and then kernel.c is not the same search."""
    from ...solver import autoplay, expand, heuristics, stock
    from ...solver import keys as solver_keys
    from . import bridges, keys, moves
    from . import expander as expander_module

    return (
        bridges.bridges,
        bridges.home_bridges,
        stock.hosts_in_order,
        bridges.settle,
        bridges._safe_card,
        bridges._safe_next,
        bridges.tops_safe,
        autoplay.is_safe_or_lemma,
        autoplay.lemma_safe,
        autoplay.lemma_needs,
        autoplay._cards_home,
        autoplay.cards_home,
        bridges._units,
        bridges._chains,
        stock.cycle,
        stock.turn_up,
        stock.play_off,
        stock.play_bridge,
        stock.home_chains,
        stock.play_home,
        stock.waste_plays,
        stock.reachable_tops,
        stock._walk,
        *vars(stock._Wanted).values(),
        autoplay.settle,
        autoplay.safe_move,
        autoplay.is_safe,
        autoplay._wanted,
        autoplay._sources,
        autoplay._home_tops,
        autoplay._copies_home,
        keys.backs_uncovered,
        expander_module.backs_uncovered,
        solver_keys.patience_key,
        solver_keys._cycle_key,
        heuristics.make_score,
        heuristics.patience_score,
        heuristics.scan_pile,
        heuristics.need_tables,
        *vars(moves.InterlockMoves).values(),
        *vars(InterlockExpander).values(),
        *vars(expander_module.InterlockFamilyExpander).values(),
        *vars(expand.PatienceExpander).values(),
        *vars(expand.GenericExpander).values(),
    )


def _dead_mirrored() -> tuple:
    """DeadEnds' methods and constants as they are now (see ``_mirrored``): where one was
    replaced, the C search calls the Python test back instead."""
    return (*vars(deadends.DeadEnds).values(), deadends.VIRTUALS, deadends.TWIN, deadends.ALL_HOME)


_MIRRORED, _DEAD_MIRRORED = _mirrored(), _dead_mirrored()


def _same(now, then) -> bool:
    return len(now) == len(then) and all(a is b for a, b in zip(now, then))


def _header(game, dead_in_c: bool) -> bytes:
    """pack_rules' first bytes: the piles, the cards, whether the dead-end test runs in C,
    the kind of successors (bit 0 the general ones, ``_general``; bit 1 Yukon groups; bit 2
    an empty back pile takes any card, as DeadEnds.any_to_empty reads it; bit 3 face-down
    cards; bit 4 the safe cards' lemma for the tableau's tops, bridges.tops_safe) and the
    cards a turn of the stock draws (0: no stock)."""
    kind = (
        int(not fast_path(game))
        | int(game.group == "yukon") << 1
        | int(game.empty_takes == "any") << 2
        | int(bool(game.face_down_cards)) << 3
        | int(bridges.tops_safe(game)) << 4
    )
    return bytes([len(game.pile_ids), game.card_count, int(dead_in_c), kind, game.draw])


def _general(expander) -> bool:
    """Is ``expander`` the general InterlockFamilyExpander of a game the kernel searches as
    it does (the module docstring): the plain key, the safe moves of autoplay.py and a
    stock walked two cards a turn or more with unlimited redeals (or none), by rules those
    read?"""
    game = expander.game
    stock = game.stock_index is not None and game.waste_index is not None
    return (
        type(expander) is InterlockFamilyExpander
        and not fast_path(game)
        and (
            (game.draw == 0 and not stock)
            or (stock and game.draw >= 2 and game.redeals is None and expander.compress)
        )
        and expander.bridge_moves is None
        and expander.plain
        and not expander.first_empty_only
        and game.group in ("run", "yukon")
        and not (game.group == "yukon" and game.face_down_cards)
        and game.build == Build(-1, "alternate")
        and game.foundation_start == ACE
    )


@functools.lru_cache(maxsize=8)
def pack_tables(game) -> bytes:
    """What kernel.c plays by, packed from ``game`` (its ``load``, after pack_rules' first
    bytes): the layout (by pile its kind, the two piles covering it, gone once empty, a back
    pile, the two piles it covers), which card goes on which, which cards head a group to an
    empty back pile, and the suits that make a card safe; the dead-end test's tables follow
    where the test runs in C (NativeSearch.rules)."""
    kinds = {"foundation": 0, "tableau": 2, "stock": 3, "waste": 4}
    layout = bytearray()
    for i, pid in enumerate(game.pile_ids):
        pair = game._pair[i] if i in game.tableau_indices else None
        covered = game.covered.get(i, ()) if i in game.tableau_indices else ()
        assert len(covered) <= 2 and (pair is None or len(pair) == 2)
        layout += bytes(
            (
                kinds[game.pile_kinds[pid]],
                *(pair or (NONE, NONE)),
                game._gone_when_empty[i],
                int(i in game.tableau_indices and game.layer[i] == 0),
                *covered,
                *(NONE,) * (2 - len(covered)),
            )
        )
    fits = bytes(over in game.fits_on[under] for under in range(64) for over in range(64))
    heads = bytes(card in game.generator.empty_heads for card in range(64))
    safe = bytes(s for suit in range(4) for s in OTHER_COLOUR[suit]) + bytes(suit ^ 3 for suit in range(4))
    return bytes(layout) + fits + heads + safe


def pack_dead_ends(dead) -> bytes:
    """DeadEnds' own tables and constants, for the dead-end test in C: the pairs, the
    virtual cards, then TWIN, KILLERS, KILLER_TRIES, SCOUT, PLAIN_FIRST, FIRST_DEPTH,
    NEVER_HOME, KING_DEPTH, NESTED_TRIES, NEST_SCOUT and PATIENCE."""
    assert len(deadends.VIRTUALS) == 3 and deadends.FIRST_DEPTH <= 2
    assert deadends.KILLERS <= 16 and deadends.NESTED_TRIES <= 16
    assert 0 < deadends.KING_DEPTH <= 4
    pair = bytes(c for card in range(64) for c in dead.pair[card])
    numbers = (
        deadends.TWIN,
        deadends.KILLERS,
        deadends.KILLER_TRIES,
        deadends.SCOUT,
        deadends.PLAIN_FIRST,
        deadends.FIRST_DEPTH,
        deadends.NEVER_HOME,
        deadends.KING_DEPTH,
        deadends.NESTED_TRIES,
        deadends.NEST_SCOUT,
        deadends.PATIENCE,
    )
    return pair + bytes(deadends.VIRTUALS) + b"".join(n.to_bytes(4, "little") for n in numbers)


class NativeSearch(native_search.NativeSearch):
    """search.py's ``_Search`` for an InterlockExpander, or the family's general expander
    (``_general``), run by kernel.c: the same expansions."""

    kernel = "interlock"
    # "cells" counts no cell here (no free cells)
    weight_names = ("home", "blockers", "urgent", "buried", "down", "empty", "covered", "reserve", "unsorted")

    @classmethod
    def accepts(cls, expander, explore) -> bool:
        """An InterlockExpander, or the general expander of Love a Duck, Guardian and the
        like (``_general``), that plays safe moves, none of the Python functions the kernel
        writes again replaced, a game of one deck, no cells and at most MAX_PILES."""
        if (
            not (type(expander) is InterlockExpander or _general(expander))
            or not expander.autoplay
            or not _same(_mirrored(), _MIRRORED)
        ):
            return False
        game = expander.game
        return (
            len(game.pile_ids) <= search_core.limits(cls.kernel)["MAX_PILES"]
            and not game.cell_indices
            and game.card_count == 52
        )

    @staticmethod
    def pack_rules(game) -> bytes:
        """The game's rules, packed: the piles, the cards, no dead-end test in C, then
        ``pack_tables``."""
        return _header(game, False) + pack_tables(game)

    def __init__(self, expander, weights, depth_weight, table_size, frontier_size, explore):
        game = expander.game
        self.game = game
        self._F = frozenset(game.foundation_indices)
        self._index = game.index_of
        self._one = game.one_card_moves
        self._ids = game.pile_ids
        self._stock, self._waste = game.stock_index, game.waste_index
        super().__init__(expander, weights, depth_weight, table_size, frontier_size, explore)

    def rules(self, expander) -> bytes:
        """The game's rules, and DeadEnds' tables where its test runs in C (deadends.py's
        DeadEnds as written)."""
        game, dead = expander.game, expander.dead_ends
        if self._dead_in_c(dead):
            return _header(game, True) + pack_tables(game) + pack_dead_ends(dead)
        return self.pack_rules(game)

    def dead_test(self, expander):
        """A dead-end test of another kind than DeadEnds as written, called back in Python."""
        dead = expander.dead_ends
        if dead is None or self._dead_in_c(dead):
            return None
        decode, game = self.decode, self.game
        return lambda data: dead.is_dead(State(game, *decode(data)))

    @staticmethod
    def _dead_in_c(dead) -> bool:
        return type(dead) is deadends.DeadEnds and _same(_dead_mirrored(), _DEAD_MIRRORED)

    def pool(self, closure) -> None:
        assert closure is None, "Interlock pools no proofs"

    def holds(self, state) -> bool:
        """kernel.c counts the redeals made in 32 bits (a pile holds one deck at most)."""
        return self._stock is None or state.extra[0] < native_search.REDEALS_HELD

    def encode(self, state) -> bytes:
        """A position as kernel.c keeps it: a foundation as its top card, any other pile
        as its length and its cards, then the redeals (4 bytes, little-endian). It takes the
        State, not its piles: the redeals (State.extra) are part of the position."""
        out = bytearray()
        for i, pile in enumerate(state.piles):
            if i in self._F:
                out.append(pile[-1] if pile else 0)
            else:
                out.append(len(pile))
                out += bytes(pile)
        out += (state.extra[0] if self._stock is not None else 0).to_bytes(4, "little")
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
                piles.append(tuple(data[at + 1 : at + 1 + n]))
                at += 1 + n
        if self._stock is None:  # no stock: no redeals, and State.extra is empty
            return tuple(piles), ()
        return tuple(piles), (int.from_bytes(data[at : at + 4], "little"),)

    def encode_moves(self, moves) -> bytes:
        """Moves as kernel.c keeps them, 3 bytes each; a run of turns as (stock, waste, k)."""
        index = self._index
        out: list[list[int]] = []  # [source, destination, cards] of each move kept
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
        """The engine's Move objects of moves as kernel.c keeps them."""
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

    def position(self, state) -> bytes:
        """The start: the whole State encoded, its redeals with its piles (see encode)."""
        return self.encode(state)
