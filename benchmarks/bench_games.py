"""Every game, deals 1..N at a budget per deal: won / lost / unknown, times, states per second.

    .venv/bin/python benchmarks/bench_games.py 1000 --budget 10 \\
        --games reversed_solitaire triple_interchange interlock mutated
    .venv/bin/python benchmarks/bench_games.py 50 --budget 10            # every game, deals 1..50

"lost" is a proof (the search exhausted every position under sound reductions); "unknown"
means the budget ran out. Two worker processes at most: the machine is shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool

import solwidget as sw
from solwidget.compiled import describe


def solve_one(task):
    game_id, number, budget, max_states = task
    state = sw.load_game(game_id).deal(number)
    began = time.perf_counter()
    result = sw.solve(state, max_states=max_states, max_seconds=budget)
    return (
        game_id,
        number,
        result.status,
        time.perf_counter() - began,
        result.progress.expanded,
        result.progress.searching,
        len(result.moves),
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=50, help="deals 1..N (default 50)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal (default 10)")
    parser.add_argument("--max-states", type=int, default=None, help="states per deal (default: no limit)")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: every game)")
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2))
    args = parser.parse_args(argv)
    game_ids = args.games or sw.games()
    tasks = [(g, n, args.budget, args.max_states) for g in game_ids for n in range(1, args.n + 1)]
    rows = {g: [] for g in game_ids}
    with Pool(args.processes) as pool:
        for row in pool.imap_unordered(solve_one, tasks):
            rows[row[0]].append(row)
    print(f"solwidget {sw.__version__}, {describe()}")
    print(
        f"deals 1..{args.n}, budget {args.budget:g} s"
        + (f" / {args.max_states} states" if args.max_states else "")
        + " per deal"
    )
    print(
        f"{'game':24}{'won':>6}{'lost':>6}{'unknown':>9}{'decided':>9}{'median s':>10}{'worst s':>9}"
        f"{'states/s':>10}{'mean moves':>12}"
    )
    for game_id in game_ids:
        results = rows[game_id]
        count = {s: sum(1 for r in results if r[2] == s) for s in ("won", "lost", "unknown")}
        times = [r[3] for r in results]
        rate = sum(r[4] for r in results) / max(1e-9, sum(r[5] for r in results))
        wins = [r[6] for r in results if r[2] == "won"]
        decided = (count["won"] + count["lost"]) / len(results)
        print(
            f"{game_id:24}{count['won']:>6}{count['lost']:>6}{count['unknown']:>9}{decided:>9.1%}"
            f"{statistics.median(times):>10.2f}{max(times):>9.2f}{rate:>10.0f}"
            f"{statistics.mean(wins) if wins else 0:>12.1f}"
        )
    for game_id in game_ids:  # the deals to look at next
        open_deals = sorted(r[1] for r in rows[game_id] if r[2] == "unknown")
        if open_deals:
            print(f"{game_id} unknown: {' '.join(map(str, open_deals))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
