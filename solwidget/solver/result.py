"""What a search reports: its progress while it runs, its result once done, and hints."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.moves import Move


@dataclass
class Progress:
    """The search so far: what a progress bar or a live solver view shows."""

    expanded: int = 0             # states expanded
    generated: int = 0            # successor states produced (duplicates included)
    frontier: int = 0             # states waiting to be expanded
    depth: int = 0                # moves from the start to the state expanded last
    best_score: float | None = None   # lowest heuristic score seen (0 is a won position)
    elapsed: float = 0.0          # seconds spent inside step(), shortening a win included
    searching: float = 0.0        # of which expanding states
    best_line: list[Move] = field(default_factory=list)   # moves to the best-scored state

    @property
    def rate(self) -> float:
        """States expanded per second."""
        return self.expanded / self.searching if self.searching > 0 else 0.0

    def __str__(self) -> str:
        best = "-" if self.best_score is None else f"{self.best_score:g}"
        return (f"{self.expanded} states expanded, {self.frontier} waiting, depth {self.depth}, "
                f"best score {best}, {self.elapsed:.2f} s ({self.rate:,.0f} states/s)")


@dataclass
class SolveResult:
    """``status``: "won" (``moves`` win from the start), "lost" (proved: no win exists)
    or "unknown" (the budget ran out, or the search dropped states it could not keep)."""

    status: str
    moves: list[Move]
    progress: Progress
    reason: str = ""

    @property
    def won(self) -> bool:
        """True when the search found a win (``moves`` plays it from the start)."""
        return self.status == "won"

    def __str__(self) -> str:
        head = {"won": f"won in {len(self.moves)} moves", "lost": "lost: no sequence of moves wins",
                "unknown": f"unknown: {self.reason}"}[self.status]
        return f"{head} ({self.progress})"


@dataclass
class Hint:
    """A move to try: the first move of a win found (``winning``), else of the most
    promising line the search saw."""

    move: Move
    winning: bool
    moves: list[Move]
    lost: bool = False        # the search proved that no win exists from here

    def __str__(self) -> str:
        if self.winning:
            return f"{self.move}: the first move of a win in {len(self.moves)} moves"
        if self.lost:
            return f"{self.move}: the most promising move, though no sequence of moves wins from here"
        return f"{self.move}: the most promising move (no win found within the budget)"
