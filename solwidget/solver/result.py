"""What a search reports: its progress while it runs, its result once done, and hints."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from ..engine.moves import Move
from ..engine.state import State

if TYPE_CHECKING:
    from .why import Why


@dataclass
class Progress:
    """The search so far: what a progress bar or a live solver view shows."""

    expanded: int = 0  # states expanded
    generated: int = 0  # successor states produced (duplicates included)
    frontier: int = 0  # states waiting to be expanded
    depth: int = 0  # moves from the start to the state expanded last
    best_score: float | None = None  # lowest heuristic score seen (0 is a won position)
    elapsed: float = 0.0  # seconds spent inside step(), shortening a win included
    searching: float = 0.0  # of which expanding states
    best_line: list[Move] = field(default_factory=list)  # moves to the best-scored state

    @property
    def rate(self) -> float:
        """States expanded per second."""
        return self.expanded / self.searching if self.searching > 0 else 0.0

    def __str__(self) -> str:
        best = "-" if self.best_score is None else f"{self.best_score:g}"
        return (
            f"{self.expanded} states expanded, {self.frontier} waiting, depth {self.depth}, "
            f"best score {best}, {self.elapsed:.2f} s ({self.rate:,.0f} states/s)"
        )


@dataclass
class SolveResult:
    """``status``: "won" (``moves`` win from the start), "lost" (proved: no win exists)
    or "unknown" (the budget ran out, or the search dropped states it could not keep)."""

    status: str
    moves: list[Move]
    progress: Progress
    reason: str = ""
    start: State | None = field(default=None, repr=False, compare=False)  # the position searched

    @cached_property
    def why(self) -> Why | None:
        """For a proved loss, why no line wins (a ``why.Why``: words, the cards to outline,
        example dead ends), else None."""
        if self.status != "lost" or self.start is None:
            return None
        from .why import explain

        return explain(self.start, self.progress.expanded)

    @property
    def won(self) -> bool:
        """True when the search found a win (``moves`` plays it from the start)."""
        return self.status == "won"

    def __str__(self) -> str:
        head = {
            "won": f"won in {len(self.moves)} moves",
            "lost": "lost: no sequence of moves wins",
            "unknown": f"unknown: {self.reason}",
        }[self.status]
        return f"{head} ({self.progress})"


@dataclass
class Hint:
    """A move to try: the first move of a win found (``winning``), else of the most
    promising line the search saw. On a position proved lost (``lost``) no move wins: the
    move is only the start of the line that got furthest, and ``lost_at``, where a coach
    knows it, is the number of the move that lost the game."""

    move: Move
    winning: bool
    moves: list[Move]
    lost: bool = False  # the search proved that no win exists from here
    lost_at: int | None = None

    @property
    def verdict(self) -> str:
        """What the hint says of the position, without its move."""
        if self.winning:
            return f"a win in {len(self.moves)} moves starts with this move"
        if self.lost:
            said = "no move wins from here: this position is lost (proved)"
            return said + (f"; the game was lost at move {self.lost_at}" if self.lost_at else "")
        return "the most promising move (no win found within the budget)"

    def __str__(self) -> str:
        if self.winning:
            return f"{self.move}: the first move of a win in {len(self.moves)} moves"
        if self.lost:
            return self.verdict
        return f"{self.move}: {self.verdict}"
