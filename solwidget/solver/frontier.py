"""The positions a search has generated and not yet expanded.

Best first, as a heap of ``(priority, -order, position, node)`` entries. With ``explore`` > 0,
that share of the pops takes instead a random entry of a random *type* (its rounded
priority and its depth): type-based exploration (Xie, Müller and Holte, AAAI 2014). A greedy
search stuck on a plateau or in a local minimum of its score keeps expanding look-alike
positions; picking types at random reaches the few positions of rarer types, which are
often the way out, and so cuts the long tail of hard deals. The choices come from a seeded
generator, so a search stays deterministic.

Every entry lives in the heap and in its type's bucket; an entry popped from one leaves a
stale copy in the other, its order remembered in ``taken`` until the copy turns up, where it
is dropped. ``len()`` counts the entries still waiting.

The stale copies are many: a pop from the heap leaves one in a bucket that a random draw
seldom reaches, so they grow with the pops, not with the entries waiting, and each keeps
its position. Past ``STALE_MOST`` of them they are swept out of the heap and the buckets at
once, each bucket keeping its order (``_sweep``): so an exploring frontier holds its waiting
entries twice and a million stale ones at most. A sweep costs a step an entry, twice the
waiting ones and the stale ones, after a million pops: a few steps a pop at the frontiers'
sizes (``search.default_frontier_size``). The draws after a sweep are not those the stale
copies would have made, so the sweep is part of the search: search_core (loop.h) sweeps at
the same pops, in the same way; a search that pops fewer than a million never sweeps.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable

from .contract import Entry

STALE_MOST = 1_000_000  # stale copies kept at most, before a sweep


class Frontier:
    def __init__(self, explore: float = 0.0, seed: int = 0):
        if not 0.0 <= explore < 1.0:
            raise ValueError(f"explore must be in [0, 1), not {explore!r}")
        self.explore = explore
        self.heap: list[Entry] = []
        self.waiting = 0
        self._rng = random.Random(seed)
        self._buckets: dict[tuple[int, int], list[Entry]] = {}  # by type: (priority, depth)
        self._types: list[tuple[int, int]] = []
        self._taken: set[int] = set()  # the orders of entries popped from one place
        self.stale_most = STALE_MOST

    def __len__(self) -> int:
        return self.waiting

    def push(self, entry: Entry) -> None:
        heapq.heappush(self.heap, entry)
        self.waiting += 1
        if self.explore:
            self._bucket(entry).append(entry)

    def pop(self) -> Entry:
        """The best entry, or with probability ``explore`` one of a random type."""
        self.waiting -= 1
        if not self.explore:
            return heapq.heappop(self.heap)
        entry = self._pop_random() if self._rng.random() < self.explore else self._pop_best()
        self._taken.add(entry[1])
        if len(self._taken) > self.stale_most:
            self._sweep()
        return entry

    def entries(self) -> list[Entry]:
        """The waiting entries, in no particular order."""
        taken = self._taken
        return [e for e in self.heap if e[1] not in taken]

    def keep(self, n: int, back: Iterable[Entry] = ()) -> None:
        """Keep only the ``n`` best waiting entries; ``back``: entries popped before, waiting
        again among them."""
        best = heapq.nsmallest(n, self.entries() + list(back))
        self.clear()
        for entry in best:
            self.push(entry)

    def clear(self) -> None:
        self.heap, self.waiting = [], 0
        self._buckets, self._types, self._taken = {}, [], set()

    def _sweep(self) -> None:
        """The stale copies out: the heap made again of its waiting entries, each bucket's
        waiting entries kept in their order (the draws read a bucket's order), an emptied
        bucket left for a draw to find, as before."""
        taken = self._taken
        self.heap = [e for e in self.heap if e[1] not in taken]
        heapq.heapify(self.heap)
        for bucket in self._buckets.values():
            bucket[:] = [e for e in bucket if e[1] not in taken]
        taken.clear()

    def _bucket(self, entry: Entry) -> list[Entry]:
        kind = (int(entry[0]), entry[3][2])
        bucket = self._buckets.get(kind)
        if bucket is None:
            bucket = self._buckets[kind] = []
            self._types.append(kind)
        return bucket

    def _pop_best(self) -> Entry:
        taken = self._taken
        while True:
            entry = heapq.heappop(self.heap)
            if entry[1] not in taken:
                return entry
            taken.discard(entry[1])  # popped from its bucket before

    def _pop_random(self) -> Entry:
        taken, types, rng = self._taken, self._types, self._rng
        while True:
            i = rng.randrange(len(types))
            bucket = self._buckets[types[i]]
            if not bucket:  # an emptied type goes for good
                del self._buckets[types[i]]
                types[i] = types[-1]
                types.pop()
                continue
            j = rng.randrange(len(bucket))
            bucket[j], bucket[-1] = bucket[-1], bucket[j]
            entry = bucket.pop()
            if entry[1] not in taken:
                return entry
            taken.discard(entry[1])  # popped from the heap before
