"""Best-first search over positions, one bounded step at a time.

The frontier is a heap ordered by ``score + depth_weight * moves so far`` (a weighted A*:
the score alone finds wins fastest, the depth term shortens them), ties broken by the
order in which positions were generated, newest first, so the search is deterministic.
Wins are noticed when a position is generated, shortened (shorten.py) and replayed through
``State.play`` before they are returned.

Why "lost" is a proof. The successor function loses no win (expand.py: legal moves only,
safe foundation moves, key-equal duplicates skipped, stock turns folded into the plays they
serve), and a position is skipped only when its key is in the transposition table. Every
key enters the table together with a position pushed on the frontier, so at any time each
key in the table belongs to a position expanded or still waiting. Evicting keys keeps this
true (it can only make the search redo work), so when the frontier runs empty the expanded
positions are closed under successors: every reachable position was expanded, none won.
The frontier itself is never silently cut: if it must be trimmed to bound memory, the
search records it and can no longer answer "lost", only "won" or "unknown".
"""

from __future__ import annotations

import heapq
import time

from ..engine.moves import Move
from ..engine.state import State
from .expand import expander_for
from .result import Progress, SolveResult
from .shorten import shorten

DEFAULT_MAX_STATES = 200_000
TABLE_SIZE = 2_000_000        # keys kept per generation (two generations: <= 4M keys, ~0.6 GB)
FRONTIER_SIZE = 1_500_000     # positions waiting; beyond this the worst half is dropped


class Solver:
    """A search that runs ``step(n)`` expansions at a time; ``solve()`` runs it to the end."""

    def __init__(self, state: State, *, max_states: int | None = DEFAULT_MAX_STATES,
                 max_seconds: float | None = None, depth_weight: float = 0.5,
                 weights: dict | None = None, autoplay: bool = True, shorten_wins: bool = True,
                 table_size: int = TABLE_SIZE, frontier_size: int = FRONTIER_SIZE):
        if not isinstance(state, State):
            raise TypeError(f"Solver needs a State (game.deal(n)), not {type(state).__name__}")
        self.state = state
        self.game = state.game
        self.max_states = max_states
        self.max_seconds = max_seconds
        self.depth_weight = depth_weight
        self.shorten_wins = shorten_wins
        self.table_size = table_size
        self.frontier_size = frontier_size
        self._x = expander_for(self.game, weights, autoplay)
        self.progress = Progress()
        self.result: SolveResult | None = None
        self._complete = True            # False once frontier states were dropped
        self._order = 0
        self._frontier = []
        self._table, self._old_table = set(), set()
        self._best_node = None
        start, played = self._x.start(state)
        root = (None, played, len(played))
        if self._x.is_won(start):
            self._finish_won(root)
            return
        self._remember(self._x.key(start))
        self._push(start, root)

    @property
    def done(self) -> bool:
        return self.result is not None

    # ------------------------------------------------------------------ the search
    def step(self, n: int = 1000) -> Progress:
        """Expand up to ``n`` more states; returns (and updates) ``self.progress``."""
        if self.result is not None:
            return self.progress
        began = time.perf_counter()
        progress = self.progress
        x, key_of, frontier = self._x, self._x.key, self._frontier
        score, dw = x.score, self.depth_weight
        try:
            for _ in range(n):
                if not frontier:
                    self._finish_exhausted()
                    break
                if self._out_of_budget(began):
                    break
                _, _, state, node = heapq.heappop(frontier)
                progress.expanded += 1
                progress.depth = node[2]
                for moves, child in x.expand(state):
                    progress.generated += 1
                    key = key_of(child)
                    if key in self._table or key in self._old_table:
                        continue
                    self._remember(key)
                    child_node = (node, moves, node[2] + len(moves))
                    if x.is_won(child):
                        progress.searching += time.perf_counter() - began
                        self._finish_won(child_node)
                        return progress
                    value = score(child)
                    if progress.best_score is None or value < progress.best_score:
                        progress.best_score = value
                        self._best_node = child_node
                    self._order += 1
                    heapq.heappush(frontier, (value + dw * child_node[2], -self._order, child, child_node))
                if len(frontier) > self.frontier_size:
                    self._trim()
        finally:
            spent = time.perf_counter() - began
            progress.elapsed += spent
            if self.result is None or self.result.status != "won":
                progress.searching += spent
            if self.result is None:
                progress.frontier = len(frontier)
                progress.best_line = self.best_line
        return progress

    def solve(self, chunk: int = 5000) -> SolveResult:
        """Run to the end (a win, a proof of loss, or the budget) and return the result."""
        while self.result is None:
            self.step(chunk)
        return self.result

    # ------------------------------------------------------------------ helpers
    def _push(self, state, node):
        self._order += 1
        heapq.heappush(self._frontier, (self._x.score(state), -self._order, state, node))

    def _remember(self, key):
        table = self._table
        table.add(key)
        if len(table) >= self.table_size:        # evict the older generation (see above)
            self._old_table = table
            self._table = set()

    def _trim(self):
        """Keep the better half of the frontier; the search can no longer prove a loss."""
        self._frontier[:] = heapq.nsmallest(self.frontier_size // 2, self._frontier)
        heapq.heapify(self._frontier)
        self._complete = False

    def _out_of_budget(self, began) -> bool:
        p = self.progress
        if self.max_states is not None and p.expanded >= self.max_states:
            self._finish_unknown(f"the budget of {self.max_states} states ran out")
            return True
        if self.max_seconds is not None and p.elapsed + time.perf_counter() - began >= self.max_seconds:
            self._finish_unknown(f"the budget of {self.max_seconds:g} s ran out")
            return True
        return False

    @staticmethod
    def _line(node) -> list[Move]:
        parts = []
        while node is not None:
            parts.append(node[1])
            node = node[0]
        return [m for moves in reversed(parts) for m in moves]

    def _finish_won(self, node):
        moves = self._line(node)
        if self.shorten_wins:
            moves = shorten(self.state, moves)
        final = self.state
        for move in moves:                  # the proof: replay through the rules
            final = final.play(move)
        if not final.is_won():
            raise AssertionError(f"solver bug: the line found does not win {self.game.id}")
        self.progress.best_score = 0.0
        self.progress.best_line = moves
        self.result = SolveResult("won", moves, self.progress)
        self._release()

    def _finish_exhausted(self):
        if self._complete and self._x.sound:
            self.result = SolveResult("lost", [], self.progress)
        else:
            self._finish_unknown("the search dropped positions to bound its memory")
            return
        self._release()

    def _finish_unknown(self, reason):
        self.progress.best_line = self._line(self._best_node) if self._best_node else []
        self.result = SolveResult("unknown", [], self.progress, reason)
        self._release()

    def _release(self):
        self.progress.frontier = len(self._frontier)
        self._frontier, self._table, self._old_table = [], set(), set()

    @property
    def best_line(self) -> list[Move]:
        return self._line(self._best_node) if self._best_node else []


def solve(state: State, *, max_states: int | None = DEFAULT_MAX_STATES,
          max_seconds: float | None = None, **options) -> SolveResult:
    """Search from ``state`` until it is won, proved lost, or the budget runs out."""
    return Solver(state, max_states=max_states, max_seconds=max_seconds, **options).solve()
