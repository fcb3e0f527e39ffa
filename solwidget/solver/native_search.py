"""A family's search in C, seen from the solver: what ``Solver`` asks of a search.

The compiled search is one extension module, ``search_core`` (solver/search_core.c, over the
family-free loop of solver/loop.h), that drives a family's kernel (games/<family>/kernel.c,
the table of functions of solver/kernel.h). A family with a kernel subclasses
``NativeSearch`` in its ``native.py``: it names its kernel and its score's weights, packs
the game's rules into bytes for the kernel (``pack_rules``), says where the kernel runs the
same search as its Python expander (``accepts``) and how positions and moves are packed.
Its profile names that class (``Profile.native``). This class gives the rest: where to run
it (``compiled_search``) and ``_Search``'s interface (``run``, ``line``, ``pool``,
``waiting``, ...), the same for every family, so that ``Solver`` cannot tell the two
searches apart.
"""

from __future__ import annotations

import functools
import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import Protocol

from ..compiled import native_module
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.state import Piles, State
from . import frontier, search
from .contract import Moves, Node, Weights
from .expand import GenericExpander
from .heuristics import DEFAULT_WEIGHTS, weights_of
from .result import Progress

search_core = native_module("solwidget.solver.search_core")

# The redeals a position may have made for a C module that counts them in 32 bits: from
# fewer, no search makes the count wrap (it would take a line of 2**31 redeals, each a
# move of its own, and so as many search nodes: more memory than any machine has).
REDEALS_HELD = 2**31

# A search in C measures its keys' length once its tables hold this many (``key_bytes``).
KEYS_MEASURED = 65_536


def exact(value: float) -> bool:
    """Is ``value`` a multiple of 1/1024 below 2**20 (so that its sums stay exact)?"""
    return abs(value) < 2**20 and (float(value) * 1024).is_integer()  # times 1024: exact


def core_weights(weights: dict[str, float], names: Iterable[str], depth_weight: float) -> list[float] | None:
    """The weights ``names`` of ``weights`` (heuristics.weights_of's), in that order (the C
    module's), or None where the C search would not be Python's: a weight not ``exact``, or
    a depth weight not finite (any finite one gives Python's priorities: loop.h's
    ``loop_priority``)."""
    if not math.isfinite(depth_weight) or not all(exact(weights[name]) for name in names):
        return None
    return [weights[name] for name in names]


@functools.cache
def kernels() -> frozenset[str]:
    """The families whose kernels search_core was built with (none where it does not run)."""
    return frozenset(search_core.kernels()) if search_core is not None else frozenset()


class SearchCore(Protocol):
    """What this class asks of a C module's ``Search`` (its node: a handle of the module's own)."""

    waiting: int
    generated: int
    complete: bool
    skipped: int
    best_score: float | None
    best_node: object
    frontier_size: int
    stale_most: int
    table_half: int
    keys: int
    key_arena: int

    def pool(
        self, expanded: Collection[Hashable] | None, generated: Collection[Hashable] | None, /
    ) -> None: ...
    def seed(self, position: bytes, moves: bytes, /, *more: int) -> None: ...
    def run(self, burst: int, expanded: int, pool_after: int, /) -> tuple[int, int, object, int]: ...
    def line(self, node: object, /) -> bytes: ...
    def release(self) -> None: ...
    def hold(self) -> None: ...
    def alone(self, table_size: int, /) -> None: ...
    def trim(self, keep: int, /) -> None: ...


class NativeSearch(ABC):
    """``_Search``'s interface over search_core's ``Search`` (``core``) running the kernel
    ``kernel``: ``self.expander`` is the Python expander, whose ``start``, ``is_won`` and ``sound``
    the solver still asks. A subclass names ``kernel`` and ``weight_names`` and defines
    ``accepts``, ``pack_rules``, ``encode``, ``encode_moves`` and ``decode_moves``."""

    #: The family's kernel (its package's name, kernel.h's ``name``).
    kernel: str = ""
    #: The names of the score's weights (heuristics.weights_of's), in the kernel's order.
    weight_names: tuple[str, ...] = ()
    #: The weights a search's ``weights`` are given over (the family's score's).
    default_weights: Weights = DEFAULT_WEIGHTS

    expander: GenericExpander
    core: SearchCore

    def __init__(
        self,
        expander: GenericExpander,
        weights: Sequence[float],
        depth_weight: float,
        table_size: int,
        frontier_size: int,
        explore: float,
    ) -> None:
        self.expander = expander
        self.explore = explore
        # _Search keeps two generations of half the table each
        self.core = search_core.Search(
            self.kernel,
            self.rules(expander),
            tuple(weights),
            depth_weight,
            explore,
            table_size // 2,
            frontier_size,
            self.dead_test(expander),
        )
        self.core.stale_most = frontier.STALE_MOST  # sweeps where search.py's Frontier does

    def rules(self, expander: GenericExpander) -> bytes:
        """The rules the kernel plays by for ``expander``: its game's, packed (a family whose
        expander adds tables of its own, as a dead-end test's, packs them too)."""
        return self.pack_rules(expander.game)

    def dead_test(self, expander: GenericExpander) -> Callable[[bytes], bool] | None:
        """A dead-end test search_core calls back in place of the kernel's, a function of a
        packed position, or None (the kernel's own, if it has one)."""
        return None

    @classmethod
    def compiled_search(
        cls,
        expander: GenericExpander,
        weights: Weights | None,
        depth_weight: float,
        table_size: int,
        frontier_size: int,
        explore: float,
    ) -> NativeSearch | None:
        """A search of this class doing what ``_Search`` would with these arguments, or None
        where it would not be the same search: its kernel is not built here (or runs not:
        solwidget/compiled.py), the kernel does not take ``expander`` and ``explore``
        (``accepts``), a weight is not exact or the depth weight not finite
        (``core_weights``)."""
        if cls.kernel not in kernels() or not cls.accepts(expander, explore):
            return None
        w = core_weights(weights_of(weights, cls.default_weights), cls.weight_names, depth_weight)
        if w is None:
            return None
        return cls(expander, w, depth_weight, table_size, frontier_size, explore)

    @classmethod
    @abstractmethod
    def accepts(cls, expander: GenericExpander, explore: float) -> bool:
        """Does the kernel run the same search as ``expander`` (its type, its options, its
        game within the kernel's ``search_core.limits``) exploring ``explore`` of its pops?"""

    @staticmethod
    @abstractmethod
    def pack_rules(game: Game) -> bytes:
        """The rules of ``game`` as the kernel reads them (its ``load``)."""

    @abstractmethod
    def encode(self, piles: Piles) -> bytes:
        """A position as the C module keeps it."""

    @abstractmethod
    def encode_moves(self, moves: Moves) -> bytes:
        """Moves as the C module keeps them."""

    @abstractmethod
    def decode_moves(self, data: bytes) -> list[Move]:
        """The engine's moves of what ``line`` gives from the C module."""

    def holds(self, state: State) -> bool:
        """Does the C module hold every position a search from ``state`` reaches? A
        position the rules accept may lie beyond a C module's bounds (a pile longer than
        it keeps, a count wider than its bytes): then search.py runs the Python search, the
        same search without those bounds. Yes by default; a family whose module has such
        bounds says where they lie."""
        return True

    def key(self, state: State) -> Hashable:
        """The position's key: the expander's, which the C module makes byte for byte (its
        tests check it), so that a pooled proof may hold keys of both."""
        return self.expander.key(state)

    def pool(self, closure: search._Closure | None) -> None:
        """Take part in a pooled loss proof (search.py's ``_Closure``), or leave it (None).
        The closure's two sets of keys become the C module's KeyPools holding the same keys
        (sets of bytes keys with a set's ``add``, ``in`` and ``len``, all that search.py asks
        of them), so that the C search adds and looks up its keys without making a bytes
        object of each; a Python ``_Search`` of the same portfolio uses them as sets."""
        if closure is None:
            self.core.pool(None, None)
            return
        key_pool = sys.modules[type(self.core).__module__].KeyPool
        for name in ("expanded", "generated"):
            keys = getattr(closure, name)
            if not isinstance(keys, key_pool):
                pooled = key_pool()
                for key in keys:
                    pooled.add(key)
                setattr(closure, name, pooled)
        self.core.pool(closure.expanded, closure.generated)

    def position(self, state: State) -> bytes:
        """The position of ``state`` as the kernel reads it: its piles encoded (a family
        whose positions hold more, as a deck's mode, says so)."""
        return self.encode(state.piles)

    def seed(self, state: State, node: Node) -> None:
        """``_Search.seed``: the start, reached by the moves of ``node`` at its depth (the
        engine's moves: a kernel's move may stand for several)."""
        self.core.seed(self.position(state), self.encode_moves(node[1]), node[2])

    def run(self, burst: int, progress: Progress) -> tuple[int, object]:
        """Up to ``burst`` positions popped: (how many, the won node or None). POOL_AFTER is
        read here, as ``_Search`` reads it, so that a change to search.py's holds for both."""
        done, expanded, won, depth = self.core.run(burst, progress.expanded, search.POOL_AFTER)
        if expanded:
            progress.expanded += expanded
            progress.depth = depth
        return done, won

    def line(self, node: object) -> list[Move]:
        """The moves from the start to ``node`` (the engine's Move objects)."""
        return self.decode_moves(self.core.line(node))

    def best_line(self) -> list[Move]:
        node = self.core.best_node
        return [] if node is None else self.line(node)

    def release(self) -> None:
        self.core.release()

    def hold(self) -> None:
        """``_Search.hold``: the positions skipped are kept from now on."""
        self.core.hold()

    def go_alone(self, table_size: int) -> None:
        """``_Search.go_alone``: the held positions back, out of the pool, ``table_size`` keys."""
        self.core.alone(table_size)

    def trim(self, keep: int) -> None:
        """``_Search.trim``: the ``keep`` best waiting positions stay; the search can no
        longer prove a loss."""
        self.core.trim(keep)

    def keep_keys(self, table_size: int) -> None:
        """``_Search.keep_keys``: the tables keep ``table_size`` keys from now on."""
        self.core.table_half = table_size // 2

    @property
    def key_bytes(self) -> int | None:
        """A key's memory, reckoned from the keys the tables hold (None while they hold
        fewer than KEYS_MEASURED): its bytes and two for its length in an arena that holds
        at most an eighth unused once it is large (loop.h's GROW_IN_PLACE), and its slot of
        16 bytes in an array at least a quarter full (it doubles once half full)."""
        keys = self.core.keys
        if keys < KEYS_MEASURED:
            return None
        return self.core.key_arena * 9 // (8 * keys) + 4 * 16

    @property
    def position_bytes(self) -> int:
        """A waiting position's memory, reckoned: its slot (a byte a card, a byte a pile
        and a few), its frontier entry and its nodes (one or two a waiting position, each
        20 bytes and its moves), as in arrays just doubled (as they grow up to loop.h's
        GROW_IN_PLACE), about 2 x (cards + 150) bytes; an exploring search keeps its entry
        in its kind's bucket too, 2 x 24 bytes more (and a million stale entries at most,
        whose nodes are not kept: frontier.py)."""
        cards = self.expander.game.card_count
        return 2 * (cards + 150 + (24 if self.explore else 0))

    @property
    def frontier_size(self) -> int:
        return self.core.frontier_size

    @frontier_size.setter
    def frontier_size(self, size: int) -> None:
        self.core.frontier_size = size

    @property
    def waiting(self) -> int:
        return self.core.waiting

    @property
    def generated(self) -> int:
        return self.core.generated

    @property
    def complete(self) -> bool:
        return self.core.complete

    @property
    def skipped(self) -> int:
        return self.core.skipped

    @property
    def best_score(self) -> float | None:
        return self.core.best_score
