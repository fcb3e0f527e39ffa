"""Our solver beside Freecell Solver (fc-solve) on Microsoft FreeCell deals 1..N.

    .venv/bin/python benchmarks/bench_freecell.py 1000          # deals 1..1000
    .venv/bin/python benchmarks/bench_freecell.py 100 --max-seconds 30

fc-solve comes from Debian's package freecell-solver-bin:

    sudo apt-get install freecell-solver-bin      # gives /usr/bin/fc-solve

It runs as ``fc-solve -l lg -sn -p -t -sam BOARD`` (the "looking glass" preset; standard
notation, one move per line): a board is a text file with one column per line, bottom card
first, cards as "KS", "TD". A solution's length is its number of "Move:" lines, which is
how we count ours too: a sequence move is one move, every move to a foundation counts.
Times are wall-clock seconds per deal: fc-solve's include starting its process (a few ms),
ours are in this process (no interpreter start-up).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import solwidget as sw
from solwidget.engine.cards import card_name

FC_SOLVE = "fc-solve"
FC_ARGS = ["-l", "lg", "-sn", "-p", "-t", "-sam"]


def board_text(state) -> str:
    """fc-solve's board format: a column per line, bottom card first."""
    game = state.game
    return "".join(" ".join(card_name(c) for c in state.piles[t]) + "\n" for t in game.T)


def run_fc_solve(state, folder: Path, timeout: float) -> tuple[bool, float, int]:
    path = folder / "board.txt"
    path.write_text(board_text(state))
    began = time.perf_counter()
    try:
        out = subprocess.run([FC_SOLVE, *FC_ARGS, str(path)], capture_output=True, text=True,
                             timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - began, 0
    seconds = time.perf_counter() - began
    solved = "This game is solveable." in out
    moves = sum(1 for line in out.splitlines() if line.startswith("Move"))
    return solved, seconds, moves if solved else 0


def run_ours(state, max_states, max_seconds) -> tuple[bool, float, int]:
    began = time.perf_counter()
    result = sw.solve(state, max_states=max_states, max_seconds=max_seconds)
    seconds = time.perf_counter() - began
    return result.status == "won", seconds, len(result.moves)


def summary(name, rows) -> dict:
    solved = [r for r in rows if r[0]]
    times = [r[1] for r in rows]
    return {"name": name, "solved": len(solved), "total": sum(times), "median": statistics.median(times),
            "worst": max(times), "mean_moves": statistics.mean(r[2] for r in solved) if solved else 0.0}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=100, help="deals 1..N (default 100)")
    parser.add_argument("--max-states", type=int, default=200_000, help="our budget per deal, states")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="our budget per deal, seconds")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args(argv)
    if shutil.which(FC_SOLVE) is None:
        print("fc-solve not found: install it with 'sudo apt-get install freecell-solver-bin'", file=sys.stderr)
        return 1
    game = sw.load_game("freecell")
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(1, args.n + 1):
            state = game.deal(number)
            theirs.append(run_fc_solve(state, Path(tmp), timeout=max(60.0, args.max_seconds)))
            ours.append(run_ours(state, args.max_states, args.max_seconds))
            if not args.quiet:
                (a, ta, ma), (b, tb, mb) = ours[-1], theirs[-1]
                print(f"deal {number:5}: ours {'won' if a else '---'} {ta:7.3f} s {ma:4} moves | "
                      f"fc-solve {'won' if b else '---'} {tb:7.3f} s {mb:4} moves", flush=True)
    a, b = summary("solwidget", ours), summary("fc-solve -l lg", theirs)
    print(f"\nMicrosoft FreeCell deals 1..{args.n}")
    print(f"{'':18}{'solved':>10}{'total s':>10}{'median s':>10}{'worst s':>10}{'mean moves':>12}")
    for s in (a, b):
        print(f"{s['name']:18}{s['solved']:>6}/{args.n:<3}{s['total']:>10.2f}{s['median']:>10.3f}"
              f"{s['worst']:>10.2f}{s['mean_moves']:>12.1f}")
    print(f"wall time ratio (ours / fc-solve): {a['total'] / b['total']:.1f}x total, "
          f"{a['median'] / b['median']:.1f}x median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
