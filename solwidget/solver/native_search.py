"""A family's search in C, seen from the solver: what ``Solver`` asks of a search.

A family whose search has a second writing in C (its ``search_core.c``, on the shared loop of
``solver/search_loop.h``) subclasses ``NativeSearch`` in its ``native.py``: it says how a
position and a move are encoded for its C module, and hands the module its tables. This class
gives the rest of ``_Search``'s interface (``run``, ``line``, ``pool``, ``waiting``, ...), the
same for every family, so that ``Solver`` cannot tell the two searches apart.
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable, Iterable
from typing import Protocol

from ..engine.moves import Move
from ..engine.state import Piles, State
from . import search
from .contract import Moves, Node
from .expand import GenericExpander
from .result import Progress

# The redeals a position may have made for a C module that counts them in 32 bits: from
# fewer, no search makes the count wrap (it would take a line of 2**31 redeals, each a
# move of its own, and so as many search nodes: more memory than any machine has).
REDEALS_HELD = 2 ** 31


def exact(value: float) -> bool:
    """Is ``value`` a multiple of 1/1024 below 2**20 (so that its sums stay exact)?"""
    return abs(value) < 2 ** 20 and (float(value) * 1024).is_integer()   # times 1024: exact


def core_weights(weights: dict[str, float], names: Iterable[str], depth_weight: float) -> list[float] | None:
    """The weights ``names`` of ``weights`` (heuristics.weights_of's), in that order (the C
    module's), or None where the C search would not be Python's: a weight not ``exact``, or
    a depth weight not finite (any finite one gives Python's priorities: search_loop.h's
    ``loop_priority``)."""
    if not math.isfinite(depth_weight) or not all(exact(weights[name]) for name in names):
        return None
    return [weights[name] for name in names]


class SearchCore(Protocol):
    """What this class asks of a C module's ``Search`` (its node: a handle of the module's own)."""

    waiting: int
    generated: int
    complete: bool
    skipped: int
    best_score: float | None
    best_node: object

    def pool(self, expanded: Collection[Hashable] | None, generated: Collection[Hashable] | None, /) -> None: ...
    def seed(self, position: bytes, moves: bytes, /, *more: int) -> None: ...
    def run(self, burst: int, expanded: int, pool_after: int, /) -> tuple[int, int, object, int]: ...
    def line(self, node: object, /) -> bytes: ...
    def release(self) -> None: ...
    def hold(self) -> None: ...
    def alone(self, table_size: int, /) -> None: ...
    def trim(self, keep: int, /) -> None: ...


class NativeSearch(ABC):
    """``_Search``'s interface over a C module's ``Search`` (``core``): a subclass sets
    ``self.expander`` (the Python expander, whose ``start``, ``is_won`` and ``sound`` the solver
    still asks), ``self.core``, and defines ``encode``, ``encode_moves`` and ``decode_moves``."""

    expander: GenericExpander
    core: SearchCore

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

    def seed(self, state: State, node: Node) -> None:
        self.core.seed(self.encode(state.piles), self.encode_moves(node[1]))

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
