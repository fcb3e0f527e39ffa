"""The types that the search and a family's solver code share: what an expander yields,
what a score and a key are, and what a family's test of dead ends answers.

A family speaks to the search through ``expand.GenericExpander`` (which its expanders
subclass) and ``profile.Profile``; the names below say what flows between them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import State
from .budget import Weights as Weights

if TYPE_CHECKING:
    from .expand import GenericExpander
    from .result import Progress
    from .search import _Closure as Closure

Moves = tuple[Move, ...]  # the moves from a position to one of its successors
Successor = tuple[Moves, State]  # those moves and the position they lead to
Scored = tuple[Moves, State, "float | None"]  # with the child's score, when known cheaply
ScoreOf = Callable[[State], float]  # lower is better, 0 only when won
KeyOf = Callable[[State], Hashable]  # equal only for positions that play alike (keys.py)
Admit = Callable[[Hashable], bool]  # does the search take a position of this key?

# A node of a search's tree: (parent, the moves from it, depth in moves); the start's
# parent is None. A frontier entry: (priority, order among equals, position, its node).
Node = tuple["Node | None", Moves, int]
Entry = tuple[float, int, State, Node]

MovesFrom = TypeVar("MovesFrom", covariant=True)
_MovesFrom = TypeVar("_MovesFrom")


class DeadEnds(Protocol):
    """A family's test of positions proved lost (its lemmas): ``is_dead`` never says so of
    a position from which a win exists."""

    def is_dead(self, state: State, /) -> bool: ...


class SiblingScore(Protocol[MovesFrom]):
    """A score that also scores the children of a position from the parts they share with
    it: ``moves_from`` (each family's own signature) for the hot loop of its expander."""

    def __call__(self, state: State, /) -> float: ...

    @property
    def moves_from(self) -> MovesFrom: ...


def sibling_score(score: ScoreOf, moves_from: _MovesFrom) -> SiblingScore[_MovesFrom]:
    """``score`` with its ``moves_from`` kept on it: the score stays a plain function, the
    quickest call for the search, which scores every child it admits."""
    setattr(score, "moves_from", moves_from)  # noqa: B010 - a function's attribute, set once
    return cast("SiblingScore[_MovesFrom]", score)


Bridges = Callable[[Patience, State], Iterable[Successor]]  # a family's reserve plays (expand.py)


class Search(Protocol):
    """What ``Solver`` asks of one search of its portfolio: search.py's ``_Search``, or a
    family's compiled search (native_search.py), which expands exactly the same."""

    @property
    def expander(self) -> GenericExpander: ...
    @property
    def waiting(self) -> int: ...
    @property
    def generated(self) -> int: ...
    @property
    def complete(self) -> bool: ...
    @property
    def skipped(self) -> int: ...
    @property
    def best_score(self) -> float | None: ...
    @property
    def position_bytes(self) -> int: ...  # a waiting position's memory, reckoned
    @property
    def key_bytes(self) -> int | None: ...  # a key's memory as measured, or None

    frontier_size: int  # positions it holds at most after an expansion

    def key(self, state: State, /) -> Hashable: ...
    def seed(self, state: State, node: Node) -> None: ...
    def pool(self, closure: Closure | None) -> None: ...
    def hold(self) -> None: ...
    def go_alone(self, table_size: int) -> None: ...
    # The won node is the search's own (a Node in Python, a handle in C), only handed back
    # to its ``line``: the one value a search does not type for others.
    def run(self, burst: int, progress: Progress) -> tuple[int, Any]: ...
    def line(self, node: Any) -> list[Move]: ...
    def best_line(self) -> list[Move]: ...
    def release(self) -> None: ...
    def trim(self, keep: int) -> None: ...
    def keep_keys(self, table_size: int) -> None: ...


class CompiledSearch(Search, Protocol):
    """A family's compiled search (``Profile.compiled_search``)."""

    def holds(self, state: State) -> bool: ...


class NativeSearchClass(Protocol):
    """A family's class of compiled searches (``Profile.native``: native_search.py's
    ``NativeSearch`` subclassed), which makes one where its kernel runs the same search."""

    def compiled_search(
        self,
        expander: GenericExpander,
        weights: Weights | None,
        depth_weight: float,
        table_size: int,
        frontier_size: int,
        explore: float,
    ) -> CompiledSearch | None: ...
