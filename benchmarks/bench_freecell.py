"""Our solver beside Freecell Solver (fc-solve) on Microsoft FreeCell deals 1..N, in one run.

    .venv/bin/python benchmarks/bench_freecell.py 1000          # deals 1..1000
    .venv/bin/python benchmarks/bench_freecell.py 20 --quiet    # a quick look

The deals are Microsoft's: FreeCell's deals 1-31999 are theirs, and from 32000 on, where
PySolFC (and solwidget) deal with the Mersenne Twister, ours solves the board fc-solve's
``make-microsoft-freecell-board`` prints, so that both solve the same deals.

fc-solve comes from Debian's package freecell-solver-bin:

    sudo apt-get install freecell-solver-bin

It is timed two ways, both with the "looking glass" preset (``-l lg``):

- **in one process** over the whole range, as a program that links the library runs it:
  ``freecell-solver-range-parallel-solve 1 N 1 -l lg`` deals the Microsoft deals itself and
  prints a time stamp as it finishes each one ("Reached Board No. 7 at 1796195617.065750"),
  and a line "Unsolved Board No. ..." or "Intractable Board No. ..." for a deal it could not
  solve. Its total is the span from its "Started at" stamp to the last board's, and each
  deal's time is the gap between stamps. This is the figure to beat. It prints no
  solutions, so its move counts are those of the per-deal run (the same search).
- **once per deal**: ``fc-solve -l lg -sn -p -t -sam BOARD``, a new process for each deal,
  printing its solution (standard notation, one move per line). A board is a text file with
  one column per line, bottom card first, cards as "KS", "TD". A solution's length is its
  number of "Move" lines, which is how we count ours too: a sequence move is one move.
  Its times include starting a process (a few ms a deal).

Ours runs in this process, deal after deal (wall-clock seconds per deal, no interpreter
start-up), over the whole range in a run of its own, as fc-solve's range solver runs. With
``--python-search`` it runs the deals again with the Python search in place of the family's
search in C (the FreeCell kernel, games/freecell/kernel.c), to show what the C search gains and that both
make the same searches. After the table come the deals each did not win (ours with its
verdict: "lost" is a proof), then the positions each searched a deal (our
expansions, fc-solve's states checked) and the time a position: what of the gap is the
search, and what the cost of a position; then the ratios of the totals.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import solwidget as sw
from solwidget.compiled import describe
from solwidget.engine.cards import card_name
from solwidget.engine.deals import MS_DEALS
from solwidget.solver.profile import profile_for

FC_SOLVE = "fc-solve"
FC_ARGS = ["-l", "lg", "-sn", "-p", "-t", "-sam"]
FC_RANGE = "freecell-solver-range-parallel-solve"
FC_RANGE_PRESET = ["-l", "lg"]
FC_BOARD = "make-microsoft-freecell-board"  # Microsoft's deal N, as fc-solve's tools deal it

STARTED = re.compile(r"^Started at (\d+\.\d+)$")
REACHED = re.compile(r"^Reached Board No\. (\d+) at (\d+\.\d+) \(total_num_iters=(\d+)\)")
CHECKED = re.compile(r"^Total number of states checked is (\d+)\.", re.M)
NOT_SOLVED = re.compile(r"^(?:Unsolved|Intractable) Board No\. (\d+) at")


@dataclass
class Run:
    """One solver's results over the deals: per deal, solved or not, seconds, moves."""

    name: str
    solved: list[bool]
    seconds: list[float]
    moves: list[int]  # 0 where not solved or not known
    total: float  # seconds for the whole range
    positions: list[int | None] | None = None  # a deal: fc-solve's states checked, our expansions

    def mean_moves(self) -> float | None:
        counted = [m for ok, m in zip(self.solved, self.moves) if ok and m]
        return statistics.mean(counted) if counted else None


def board_text(state) -> str:
    """fc-solve's board format: a column per line, bottom card first."""
    return "".join(" ".join(card_name(c) for c in state.piles[t]) + "\n" for t in state.game.tableau_indices)


def microsoft_deal(game, number: int):
    """Microsoft's deal ``number``: FreeCell's deal of that number below 32000, where PySolFC
    (and so solwidget) number the Microsoft deals; from 32000 on, where they deal with the
    Mersenne Twister instead (docs/rules.md, "Deals and their numbers"), the board that
    fc-solve's own tool prints, a column a line, bottom card first."""
    if number < MS_DEALS:
        return game.deal(number)
    board = subprocess.run([FC_BOARD, str(number)], capture_output=True, text=True, check=True).stdout
    columns = [line.split() for line in board.splitlines() if line.strip()]
    piles = {pid: [] for pid in game.pile_ids}
    piles.update(zip((game.pile_ids[t] for t in game.tableau_indices), columns, strict=True))
    return game.state_from_dict({"game": game.id, "piles": piles})


def run_fc_solve(state, folder: Path, timeout: float) -> tuple[bool, float, int, int | None]:
    """One deal in a new fc-solve process: (solved, seconds, moves, states checked)."""
    path = folder / "board.txt"
    path.write_text(board_text(state))
    began = time.perf_counter()
    try:
        out = subprocess.run(
            [FC_SOLVE, *FC_ARGS, str(path)], capture_output=True, text=True, timeout=timeout
        ).stdout
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - began, 0, None
    seconds = time.perf_counter() - began
    solved = "This game is solveable." in out
    moves = sum(1 for line in out.splitlines() if line.startswith("Move"))
    checked = CHECKED.search(out)
    return solved, seconds, moves if solved else 0, int(checked.group(1)) if checked else None


def run_fc_solve_range(n: int, timeout: float) -> tuple[Run, float]:
    """Deals 1..n in one fc-solve process; also returns the process's whole wall time."""
    began = time.perf_counter()
    out = subprocess.run(
        [FC_RANGE, "1", str(n), "1", *FC_RANGE_PRESET],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    ).stdout
    wall = time.perf_counter() - began
    return parse_range_output(out, n), wall


def median_range_run(n: int, repeats: int) -> tuple[Run, float]:
    """The run of the range solver with the median total, of ``repeats`` runs."""
    runs = sorted(
        (run_fc_solve_range(n, timeout=max(600.0, 10.0 * n)) for _ in range(repeats)),
        key=lambda run_and_wall: run_and_wall[0].total,
    )
    return runs[len(runs) // 2]


def parse_range_output(out: str, n: int) -> Run:
    """The range solver's stamps as per-deal times; a deal with no "Reached" line fails loudly."""
    start, reached, iterations, failed = None, {}, {}, set()
    for line in out.splitlines():
        if match := STARTED.match(line):
            start = float(match.group(1))
        elif match := REACHED.match(line):
            reached[int(match.group(1))] = float(match.group(2))
            iterations[int(match.group(1))] = int(match.group(3))
        elif match := NOT_SOLVED.match(line):
            failed.add(int(match.group(1)))
    if start is None or sorted(reached) != list(range(1, n + 1)):
        raise RuntimeError(f"{FC_RANGE} printed no time stamp for some of deals 1..{n}:\n{out[-2000:]}")
    stamps = [start] + [reached[d] for d in range(1, n + 1)]
    seconds = [later - earlier for earlier, later in itertools.pairwise(stamps)]
    counts = [0] + [iterations[d] for d in range(1, n + 1)]
    positions = [later - earlier for earlier, later in itertools.pairwise(counts)]
    return Run(
        "fc-solve -l lg, one process",
        [d not in failed for d in range(1, n + 1)],
        seconds,
        [0] * n,
        stamps[-1] - start,
        positions,
    )


def run_ours(state, max_states, max_seconds, python_search=False) -> tuple[bool, float, int, int, str]:
    """One deal solved here: (won, seconds, moves, positions expanded, status), with the
    family's search in C where it runs, or with ``python_search`` the Python search instead."""
    with without_compiled_search(state.game) if python_search else contextlib.nullcontext():
        began = time.perf_counter()
        result = sw.solve(state, max_states=max_states, max_seconds=max_seconds)
        seconds = time.perf_counter() - began
    return result.status == "won", seconds, len(result.moves), result.progress.expanded, result.status


@contextlib.contextmanager
def without_compiled_search(game):
    """The game's profile offering no compiled search: the solver runs search.py's."""
    profile = profile_for(game)
    profile.compiled_search = lambda *options: None
    try:
        yield
    finally:
        del profile.compiled_search


def as_run(name: str, rows: list[tuple]) -> Run:
    solved, seconds, moves, *positions = (list(column) for column in zip(*rows))
    return Run(name, solved, seconds, moves, sum(seconds), positions[0] if positions else None)


def not_won(ours: list[tuple], theirs: Run) -> str:
    """The deals either solver did not win, ours with our verdict ("lost" is a proof)."""
    mine = [f"{number} ({status})" for number, (won, *_, status) in enumerate(ours, 1) if not won]
    fc = [str(number) for number, solved in enumerate(theirs.solved, 1) if not solved]
    return f"deals not won: ours {', '.join(mine) or 'none'}; fc-solve {', '.join(fc) or 'none'}"


def print_table(n: int, runs: list[Run]) -> None:
    width = max(len(run.name) for run in runs) + 2
    print(f"\nMicrosoft FreeCell deals 1..{n}")
    print(f"{'':{width}}{'solved':>10}{'total s':>10}{'median s':>10}{'worst s':>10}{'mean moves':>12}")
    for run in runs:
        mean = run.mean_moves()
        print(
            f"{run.name:{width}}{sum(run.solved):>6}/{n:<3}{run.total:>10.3f}"
            f"{statistics.median(run.seconds):>10.4f}{max(run.seconds):>10.3f}"
            f"{'-' if mean is None else f'{mean:.1f}':>12}"
        )


def print_positions(runs: list[Run]) -> None:
    """Positions searched a deal (ours expanded, fc-solve's states checked) and the time a
    position: how much of a gap is the search, and how much the cost of a position."""
    width = max(len(run.name) for run in runs) + 2
    print(
        f"\n{'positions a deal':{width}}{'total':>10}{'median':>10}{'90th pct':>10}{'worst':>10}"
        f"{'µs a position':>15}"
    )
    for run in runs:
        counts = sorted(run.positions)
        print(
            f"{run.name:{width}}{sum(counts):>10}{counts[len(counts) // 2]:>10}"
            f"{counts[int(len(counts) * 0.9)]:>10}{counts[-1]:>10}"
            f"{1e6 * run.total / max(sum(counts), 1):>15.1f}"
        )


def print_ratios(ours: Run, theirs: list[Run]) -> None:
    for run in theirs:
        print(
            f"ours / {run.name}: {ours.total / run.total:.1f}x total, "
            f"{statistics.median(ours.seconds) / statistics.median(run.seconds):.1f}x median"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=100, help="deals 1..N (default 100)")
    parser.add_argument("--max-states", type=int, default=200_000, help="our budget per deal, states")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="our budget per deal, seconds")
    parser.add_argument(
        "--fc-repeats",
        type=int,
        default=3,
        help="runs of fc-solve in one process; the median one is reported (default 3)",
    )
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument(
        "--python-search",
        action="store_true",
        help="ours again with the Python search in place of the search in C",
    )
    args = parser.parse_args(argv)
    missing = [tool for tool in (FC_SOLVE, FC_RANGE, FC_BOARD) if shutil.which(tool) is None]
    if missing:
        print(
            f"{' and '.join(missing)} not found: install them with 'sudo apt-get install freecell-solver-bin'",
            file=sys.stderr,
        )
        return 1
    one_process, process_wall = median_range_run(args.n, max(1, args.fc_repeats))
    game = sw.load_game("freecell")
    deals = [microsoft_deal(game, number) for number in range(1, args.n + 1)]
    # Each solver over the whole range in a run of its own, as fc-solve's range solver runs:
    # started between our deals, fc-solve's processes would leave ours cold caches.
    ours = [run_ours(state, args.max_states, args.max_seconds) for state in deals]
    python = (
        [run_ours(state, args.max_states, args.max_seconds, python_search=True) for state in deals]
        if args.python_search
        else []
    )
    with tempfile.TemporaryDirectory() as tmp:
        per_deal = [run_fc_solve(state, Path(tmp), timeout=max(60.0, args.max_seconds)) for state in deals]
    if not args.quiet:
        for number, (a, ta, ma, *_), (b, tb, mb, _), tc in zip(
            range(1, args.n + 1), ours, per_deal, one_process.seconds
        ):
            print(
                f"deal {number:5}: ours {'won' if a else '---'} {ta:7.3f} s {ma:4} moves | "
                f"fc-solve {'won' if b else '---'} {tb:7.3f} s {mb:4} moves, in one process {tc:8.5f} s"
            )
    ours_run = as_run("solwidget, one process", ours)
    per_deal_run = as_run("fc-solve -l lg, a process per deal", per_deal)
    one_process.moves = per_deal_run.moves  # the range solver prints no moves
    print(f"solwidget {describe()}")
    python_runs = [as_run("solwidget, Python search", python)] if python else []
    print_table(args.n, [ours_run, *python_runs, one_process, per_deal_run])
    print(not_won(ours, one_process))
    print(f"(fc-solve in one process: {process_wall:.3f} s from starting its process to its exit)")
    other = [
        d for d, a, b in zip(range(1, args.n + 1), one_process.positions, per_deal_run.positions) if a != b
    ]
    print(
        "fc-solve's searches the same both ways (states checked, deal by deal): "
        + (f"NO, on deals {', '.join(map(str, other[:10]))}{' ...' * (len(other) > 10)}" if other else "yes")
    )
    for run in python_runs:
        same = (ours_run.moves, ours_run.positions) == (run.moves, run.positions)
        print(
            f"our searches the same in C and in Python (expansions and solution lengths, deal by "
            f"deal): {'yes' if same else 'NO'}"
        )
    print_positions([ours_run, *python_runs, one_process])
    for run in python_runs:
        print(
            f"the Python search / ours: {run.total / ours_run.total:.1f}x total, "
            f"{statistics.median(run.seconds) / statistics.median(ours_run.seconds):.1f}x median"
        )
    print_ratios(ours_run, [one_process, per_deal_run])
    return 0


if __name__ == "__main__":
    sys.exit(main())
