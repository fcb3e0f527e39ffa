"""Peak memory of a solve with no limit on positions: the hardest deal of every game.

    .venv/bin/python benchmarks/bench_memory.py
        each game's hardest deal (HARDEST) solved with ``max_states=None`` for 10 minutes at
        most, one child process a solve, one at a time: a table of the game, the deal, the
        minutes searched, the positions expanded, the status, the child's peak resident memory
        (the kernel's VmHWM), the bound docs/solver.md states (search.MEMORY_BOUND) and whether
        the peak is within it
    .venv/bin/python benchmarks/bench_memory.py --minutes 1 --games guardian triple_interchange --jobs 2
        two games, a minute each, two children at a time
    .venv/bin/python benchmarks/bench_memory.py --minutes 10 --games guardian --python-search
        the same search in Python (as without a compiler), whose positions cost more than the
        frontier's size reckons: the solver's reading of its resident memory holds it

A child process a solve, so that each peak is that solve's alone: the interpreter, the games
and the search, nothing left over from another. A peak within the bound after a short run says
less than one after the full 10 minutes: memory grows with the positions expanded until the
frontiers and tables reach their sizes (docs/solver.md, "Memory").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# The hardest deal of each game: open or the longest decided in the game's study
# (docs/studies/GAME.parquet), or named in docs/solver.md and README.md as open or the longest proof.
HARDEST = {
    "freecell": 92,
    "inverted_freecell": 82,
    "reversed_solitaire": 9877,
    "interlock": 6581,  # lost after 8.8 million expansions, past its study's 60 s
    "mutated": 2359,  # open after 36 million expansions (4 minutes)
    "interchange": 49,  # open after 8.6 million expansions (30 s)
    "single_interchange": 1034,
    "triple_interchange": 8150,  # open after 17 million expansions (60 s), the most of its open deals
    "quadruple_interchange": 11,
    "unlimited": 339,
    "guardian": 1580,  # open after 15.2 million expansions (60 s), the most of its study's open deals
    "love_a_duck": 22,  # open after 3.4 million expansions (20 s)
}

CHILD = """
import json, sys, time
import solwidget as sw
from solwidget.solver import search
from solwidget.solver.profile import profile_for
game, deal, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
if sys.argv[4] == "python":  # the profile offers no compiled search: search.py's runs
    profile_for(sw.load_game(game)).compiled_search = lambda *options: None
began = time.perf_counter()
result = sw.solve(sw.load_game(game).deal(deal), max_states=None, max_seconds=seconds)
peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"status": result.status, "expanded": result.progress.expanded, "peak": peak,
                  "minutes": (time.perf_counter() - began) / 60, "bound": search.MEMORY_BOUND}))
"""


def measure(game: str, deal: int, minutes: float, python_search: bool = False) -> dict:
    """One solve in a child process (the search in Python with ``python_search``): its
    status, positions expanded, minutes and peak RSS."""
    search = "python" if python_search else "compiled"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, game, str(deal), str(60 * minutes), search],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        return {"game": game, "deal": deal, "error": done.stderr.strip().splitlines()[-1:]}
    return {"game": game, "deal": deal, **json.loads(done.stdout.splitlines()[-1])}


def row(r: dict) -> str:
    if "error" in r:
        return f"{r['game']:22s} {r['deal']:5d}  failed: {r['error']}"
    within = "within" if r["peak"] <= r["bound"] else "OVER"
    return (
        f"{r['game']:22s} {r['deal']:5d} {r['minutes']:7.2f} {r['expanded']:11,d} {r['status']:8s} "
        f"{r['peak'] / 1e9:8.2f} GB {r['bound'] / 1e9:6.2f} GB  {within}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="the budget of each solve")
    parser.add_argument("--games", nargs="+", default=list(HARDEST), choices=list(HARDEST))
    parser.add_argument("--jobs", type=int, default=1, help="children at a time (at most the cores)")
    parser.add_argument(
        "--python-search", action="store_true", help="the search in Python, not the family's in C"
    )
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.jobs < 1:
        parser.error("--minutes must be above 0 and --jobs at least 1")
    if args.python_search:
        print("the searches in Python, as without a compiler (--python-search)")
    print(
        f"{'game':22s} {'deal':>5s} {'minutes':>7s} {'expanded':>11s} {'status':8s} "
        f"{'peak RSS':>11s} {'bound':>9s}",
        flush=True,
    )
    began = time.perf_counter()
    over = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(lambda g: measure(g, HARDEST[g], args.minutes, args.python_search), args.games):
            print(row(r), flush=True)
            over += "error" in r or r["peak"] > r["bound"]
    print(
        f"{len(args.games) - over} of {len(args.games)} within the bound "
        f"({(time.perf_counter() - began) / 60:.1f} minutes)"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
