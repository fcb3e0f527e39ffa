"""Best-first search over positions, one bounded step at a time.

A solver runs a small portfolio of best-first searches in turn, a slice of expansions each
(deterministic: the turns do not depend on time). Each search orders its frontier by
``score + depth_weight * moves so far`` (a weighted A*; the score alone dives fastest, the
depth term shortens wins and widens the search on a plateau), ties broken by generation
order, newest first. The default portfolio pairs a depth weight of 0.5 with a pure greedy
search that also prizes free cells, empty piles and ordered piles: where one stalls on a
plateau of the heuristic, the other often walks through. A search may also explore
(frontier.py): a share of its expansions goes to random kinds of positions, which gets it
off a plateau sooner. The first search opens with a longer turn, since most deals are won
by it alone. Wins are noticed when a position is generated, shortened (shorten.py) and
replayed through ``State.play`` before they are returned.

Why "lost" is a proof. The successor function loses no win (expand.py: legal moves only,
safe foundation moves, key-equal duplicates skipped, stock turns folded into the plays they
serve; mutated.py for Mutated Solitaire's own safe and skipped moves; positions proved dead,
deadends.py, interchange.py and mutated_deadends.py, get no successors), and a search skips a
position only when its key is in that search's transposition table (``admit``), or when it
is the position before the last move, undone (expanded already: CellsExpander). Every key
enters the table together with a position pushed on the frontier, so at any time each key
in the table belongs to a position expanded or still waiting. Evicting keys keeps this true
(it only makes the search redo work), so when one search's frontier runs empty its
expanded positions are closed under successors: every reachable position was expanded,
none won. A frontier is never silently cut: if it must be trimmed to bound memory, that
search records it and can no longer answer "lost", only "won" or "unknown".

Memory: the tables keep at most ``table_size`` keys in all (two generations per search),
the frontiers at most ``frontier_size`` positions in all, both sized from the game's card
count (about 1 GB of waiting positions and 0.5 GB of keys), plus the search nodes of the
expanded positions (about 200 bytes each: 0.2 GB at the command line's default budget of a
million states), so a search stays under 2 GB whatever its budget. Measured: Mutated
Solitaire (tuple keys, the costliest) 483 MB after 140,000 expansions with 250,000
positions waiting and 390,000 keys.
"""

from __future__ import annotations

import gc
import time

from ..engine.moves import Move
from ..engine.state import State
from .expand import expander_for
from .frontier import Frontier
from .keys import key_bytes
from .result import Progress, SolveResult
from .shorten import shorten

DEFAULT_MAX_STATES = 200_000
TABLE_BYTES = 500_000_000     # transposition tables, all searches together
FRONTIER_BYTES = 1_000_000_000  # waiting positions, all searches together


def default_table_size(game) -> int:
    """Keys to keep within TABLE_BYTES (keys.key_bytes says what one costs)."""
    return TABLE_BYTES // key_bytes(game)


def default_frontier_size(game) -> int:
    """Positions to keep waiting, with their search nodes: measured at about 1.1 KB each for
    Mutated Solitaire (a position shares its unchanged piles with its parent); budgeted at
    600 + 8 bytes a card."""
    return FRONTIER_BYTES // (600 + 8 * game.card_count)
SLICE = 64                    # expansions per turn of each search
OPENING = 150                 # the first search's first turn: most deals are won in it
DEFAULT_PORTFOLIO = ({"depth_weight": 0.5},
                     {"depth_weight": 0.0, "weights": {"unsorted": 0.5, "cells": 1.0, "empty": 2.0}})
# Games with free cells: the greedy search above first, then an exploring weighted A* that
# prizes free cells and the cards the foundations want next. Chosen from each search's
# expansions alone on FreeCell deals 1-300 (fifteen candidates), checked on 1-1000: 576,700
# expansions for all 1000 deals, against 1,707,700 with 997 won for the pair used before
# (a weighted A* that prizes free cells, without exploring, beside the same greedy search
# with the same opening), whose hard deals took up to 200,000 each.
# Reversed Solitaire deals 1-100 at 20,000 a deal: 100 won instead of 99, 7 % more expansions;
# Inverted FreeCell deals 1-60: 40 % fewer.
CELLS_PORTFOLIO = (DEFAULT_PORTFOLIO[1],
                   {"depth_weight": 0.5, "explore": 0.3, "weights": {"urgent": 2.0, "cells": 1.0}})

# Mutated Solitaire has no cells, empty piles or sorting to prize: its greedy search leans on
# face-down deck cards (the flips still to come) rather than on rows (deals 1-30 at 2 s:
# 12 won instead of 10). Both searches weigh orphans (cards below row 1 whose hosts are both
# home), so that hosts stay out while their guests still climb: deals 1-50 at 20,000 states
# a deal, 47 won instead of 36 with 140,000 expansions instead of 400,000 (weights 4, 8, 16
# tried: 8 and 16 alike, 4 weaker).
# A third search, the greedy one's weights with a depth weight of 0.2, walks the plateaus
# the other two stall on: at 15,000 states a deal, deals 1-400 won 384 instead of 381 (109,
# 245, 264, 292 won; 93 no longer: it took 10,666 expansions, and each search now gets a
# third of them), in 740,200 expansions instead of 762,300 (with the dead ends of
# mutated_deadends.py on both sides, but for the 15,000 of deal 399 in the old figure); a
# loss proof takes half as many again (deal 88: 6,280 instead of 4,232; 154: 10,844 instead
# of 7,260). In place of the greedy search it won 109 too but lost 60 and 93 of deals 1-100.
MUTATED_PORTFOLIO = ({"depth_weight": 0.5, "weights": {"orphans": 8.0}},
                     {"depth_weight": 0.0, "weights": {"rows": 0.25, "decks": 1.0, "orphans": 8.0}},
                     {"depth_weight": 0.2, "weights": {"rows": 0.25, "decks": 1.0, "orphans": 8.0}})

# Triple Interchange: 36 face-down cards are most of the work, and in-suit runs are what
# frees them. Two weighted A* searches, depth weights 0.5 and 1 (a move's depth counts its
# stock turns): the second wins hard deals sooner (eleven of deals 1-100 at 25,000 states in
# 76,000 expansions instead of 134,200). Both count a face-down card 6 times and a blocker 3
# times, not twice and once: at 15,000 states a deal, deals 1-500 leave 7 open instead of
# 12 (1-200: none instead of 90, 161, 188), and the deals both win take 234,700 expansions
# instead of 338,200, for solutions 5 % longer. Of the 11 deals open before, 3 stay open;
# with 4 and 2 times, 5; with 8 and 4 times deal 66 goes unwon. Tried and dropped: a greedy
# third search (it won only easy deals), exploring (0.3 of the pops), and one search with
# the old weights beside one with these (9 of 16 hard deals open instead of 6).
TRIPLE_INTERCHANGE_PORTFOLIO = ({"depth_weight": 0.5, "weights": {"down": 6.0, "blockers": 3.0}},
                                {"depth_weight": 1.0, "weights": {"down": 6.0, "blockers": 3.0}})

# Interlock: the work is digging out the cards under the front layers, so the search counts
# a card in a covered pile as much as a card not yet home, and explores. Chosen at 6,000
# states a deal on 14 hard deals of 1-100 (4, 5, 7, 14, 22, 38, 42, 48, 68, 72, 74, 76, 77,
# 81): with the default greedy search beside it, 11 won with 23,000 expansions, against 4
# won with 69,000 for the default pair (covered 2: 5 won; 4: 7; 4 and exploring: 9; 16 and
# exploring: 11). Alone, as here, it decides as many of deals 1-50 and 101-200 at 8,000
# states (137 of 150), and proves a loss in half the expansions, since no second search
# walks the same positions again: at 20,000 states it decides 5 of the 16 deals left open,
# the pair 2.
INTERLOCK_PORTFOLIO = ({"depth_weight": 0.5, "explore": 0.3, "weights": {"covered": 8.0}},)


def default_portfolio(game):
    if game.id == "mutated":
        return MUTATED_PORTFOLIO
    if game.id == "interlock":
        return INTERLOCK_PORTFOLIO
    if game.id == "triple_interchange":
        return TRIPLE_INTERCHANGE_PORTFOLIO
    return CELLS_PORTFOLIO if getattr(game, "C", ()) else DEFAULT_PORTFOLIO


SEARCH_OPTIONS = frozenset({"depth_weight", "weights", "explore"})


def _checked_portfolio(portfolio) -> list[dict]:
    """The portfolio as a list of option dicts; a clear error for anything else."""
    searches = list(portfolio)
    if not searches:
        raise ValueError("a portfolio needs at least one search")
    for options in searches:
        if not isinstance(options, dict) or set(options) - SEARCH_OPTIONS:
            raise TypeError(f"a portfolio entry is a dict with keys among {sorted(SEARCH_OPTIONS)}, "
                            f"not {options!r}")
    return searches


class _Search:
    """One best-first search: its frontier, its transposition table, its best position."""

    def __init__(self, expander, depth_weight, table_size, frontier_size, explore=0.0):
        self.x = expander
        self.key = expander.key
        self.score = expander.score
        self.depth_weight = depth_weight
        self.table_size = table_size // 2
        self.frontier_size = frontier_size
        self.frontier = Frontier(explore)
        self.table, self.old_table = set(), set()
        self.order = 0
        self.generated = 0             # successors produced, duplicates included
        self.complete = True           # False once frontier positions were dropped
        self.best_score = None
        self.best_node = None

    def seed(self, state, node):
        self.table.add(self.key(state))
        self.order -= 1
        self.frontier.push((self.score(state) + self.depth_weight * node[2], self.order, state, node))

    def admit(self, key) -> bool:
        """Is ``key`` new to this search? It is recorded as seen (the expander asks, so that
        it need not build what is seen)."""
        self.generated += 1
        old = self.old_table
        if old and key in old:
            return False
        table = self.table
        size = len(table)
        table.add(key)                        # one hash of the key: it is costly
        if len(table) == size:
            return False
        if size + 1 >= self.table_size:       # evict the older generation (see above)
            self.old_table, self.table = table, set()
        return True

    def expand_next(self, progress):
        """Expand the best waiting position; return a won node, else None. The hot loop of
        every search, so written with locals; a score is 0 only for a won position."""
        _, _, state, node = self.frontier.pop()
        depth = node[2]
        progress.expanded += 1
        progress.depth = depth
        score, is_won, push = self.score, self.x.is_won, self.frontier.push
        depth_weight, best = self.depth_weight, self.best_score
        order = self.order
        for moves, child, value in self.x.scored(state, node[1], self.admit):
            child_node = (node, moves, depth + len(moves))
            if value is None:
                value = score(child)
            if value == 0.0 and is_won(child):
                return child_node
            if best is None or value < best:
                best = self.best_score = value
                self.best_node = child_node
            order -= 1                    # newest first among equals: the heap is a min-heap
            push((value + depth_weight * child_node[2], order, child, child_node))
        self.order = order
        if len(self.frontier) > self.frontier_size:
            self.trim()
        return None

    def trim(self):
        """Keep the better half of the frontier; this search can no longer prove a loss."""
        self.frontier.keep(self.frontier_size // 2)
        self.complete = False


class Solver:
    """A search that runs ``step(n)`` expansions at a time; ``solve()`` runs it to the end.

    Options: ``max_states`` and ``max_seconds`` (budgets, None for no limit), ``portfolio``
    (a list of ``{"depth_weight": w, "weights": {...}, "explore": share}``, one search each; giving
    ``depth_weight`` or ``weights`` instead runs that single search), ``autoplay`` (safe
    foundation moves) and ``compress_stock`` (turns folded into waste plays): both sound,
    off only to cross-check them; ``shorten_wins``, ``table_size`` and ``frontier_size`` (memory).
    """

    def __init__(self, state: State, *, max_states: int | None = DEFAULT_MAX_STATES,
                 max_seconds: float | None = None, depth_weight: float | None = None,
                 weights: dict | None = None, portfolio=None, autoplay: bool = True,
                 compress_stock: bool = True,
                 shorten_wins: bool = True, table_size: int | None = None,
                 frontier_size: int | None = None):
        if not isinstance(state, State):
            raise TypeError(f"Solver needs a State (game.deal(n)), not {type(state).__name__}")
        if portfolio is None:
            if depth_weight is None and weights is None:
                portfolio = default_portfolio(state.game)
            else:
                portfolio = ({"depth_weight": 0.5 if depth_weight is None else depth_weight,
                              "weights": weights},)
        self.state = state
        self.game = state.game
        self.max_states = max_states
        self.max_seconds = max_seconds
        self.shorten_wins = shorten_wins
        self.progress = Progress()
        self.result: SolveResult | None = None
        portfolio = _checked_portfolio(portfolio)
        k = len(portfolio)
        table_size = table_size or default_table_size(self.game)
        frontier_size = frontier_size or default_frontier_size(self.game)
        self._searches = [_Search(expander_for(self.game, p.get("weights"), autoplay, compress_stock),
                                  p.get("depth_weight", 0.5), table_size // k, frontier_size // k,
                                  p.get("explore", 0.0))
                          for p in portfolio]
        self._turn, self._slice_left = 0, OPENING
        start, played = self._searches[0].x.start(state)
        root = (None, tuple(played), len(played))
        if self._searches[0].x.is_won(start):
            self._finish_won(root)
            return
        for search in self._searches:
            search.seed(start, root)

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
        won = None
        collecting = gc.isenabled()
        gc.disable()            # a search makes no reference cycles: only its passes would cost
        try:
            left = n
            while left > 0 and won is None:
                search = self._next_search()
                if search is None or self._out_of_budget(began):
                    break
                burst = min(left, self._slice_left)          # the clock is read once a burst
                if self.max_states is not None:
                    burst = min(burst, self.max_states - progress.expanded)
                expand_next, frontier = search.expand_next, search.frontier
                done = 0
                while done < burst and frontier.waiting and won is None:
                    won = expand_next(progress)
                    done += 1
                self._slice_left -= done
                left -= done
        finally:
            if collecting:
                gc.enable()
            spent = time.perf_counter() - began
            progress.elapsed += spent
            progress.searching += spent
            progress.generated = sum(s.generated for s in self._searches)
            if self.result is None:
                progress.frontier = sum(len(s.frontier) for s in self._searches)
            scores = [s.best_score for s in self._searches if s.best_score is not None]
            progress.best_score = min(scores) if scores else None
        if won is not None:
            began = time.perf_counter()
            self._finish_won(won)
            progress.elapsed += time.perf_counter() - began
        elif self.result is None:
            progress.best_line = self.best_line
        return progress

    def solve(self, chunk: int = 5000) -> SolveResult:
        """Run to the end (a win, a proof of loss, or the budget) and return the result."""
        while self.result is None:
            self.step(chunk)
        return self.result

    @property
    def best_line(self) -> list[Move]:
        """The moves to the best-scored position any search has generated."""
        best = None
        for s in self._searches:
            if s.best_node is not None and (best is None or s.best_score < best.best_score):
                best = s
        return self._line(best.best_node) if best else []

    # ------------------------------------------------------------------ helpers
    def _next_search(self):
        """The search whose turn it is (round robin, SLICE expansions each: ``step`` counts
        them off ``_slice_left``), or None once the search is over (then ``self.result``
        says why)."""
        searches = self._searches
        for _ in range(len(searches) + 1):
            search = searches[self._turn]
            if self._slice_left > 0 and search.frontier:
                return search
            if not search.frontier and search.complete and search.x.sound:
                self.progress.best_line = self.best_line
                self.result = SolveResult("lost", [], self.progress)
                self._release()
                return None
            self._turn = (self._turn + 1) % len(searches)
            self._slice_left = SLICE
        self._finish_unknown("the searches dropped positions to bound their memory")
        return None

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

    def _finish_unknown(self, reason):
        self.progress.best_line = self.best_line
        self.result = SolveResult("unknown", [], self.progress, reason)
        self._release()

    def _release(self):
        self.progress.frontier = sum(len(s.frontier) for s in self._searches)
        for s in self._searches:
            s.frontier.clear()
            s.table, s.old_table = set(), set()


def solve(state: State, *, max_states: int | None = DEFAULT_MAX_STATES,
          max_seconds: float | None = None, **options) -> SolveResult:
    """Search from ``state`` until it is won, proved lost, or the budget runs out."""
    return Solver(state, max_states=max_states, max_seconds=max_seconds, **options).solve()
