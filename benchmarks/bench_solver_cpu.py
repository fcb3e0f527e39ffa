"""The solver measured in CPU time, one process: fair on a machine that others share.

    .venv/bin/python benchmarks/bench_solver_cpu.py triple_interchange 1 100 --cpu 10
        deals 1-100, each searched until won, lost or 10 s of CPU: won / lost / unknown
    .venv/bin/python benchmarks/bench_solver_cpu.py triple_interchange 1 20 --max-states 2000 --reps 3
        deals 1-20 at 2,000 states each: search CPU (min of 3 runs; shortening and replaying
        the wins left out), states per CPU second, and a fingerprint of every result (status,
        expansions, positions generated, moves) that stays the same while the searches do

A wall-clock budget (bench_games.py) gives a search less work when other jobs share the
cores; a CPU budget does not. ``--portfolio`` takes a Python literal (a list of search
options) instead of the game's default.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import time

import solwidget as sw
from solwidget.compiled import describe
from solwidget.solver import search


def cpu_budget(game, deals, seconds, portfolio) -> None:
    rows = []
    for number in deals:
        began = time.process_time()
        solver = search.Solver(game.deal(number), max_states=None, portfolio=portfolio)
        with search.collector_paused():     # between the steps too, as Solver.solve (bench_games.py)
            while not solver.done and time.process_time() - began < seconds:
                solver.step(100)
        status = solver.result.status if solver.done else "unknown"
        rows.append((number, status, solver.progress.expanded, time.process_time() - began))
        print(f"{number:5d} {status:8s} {rows[-1][2]:8d} {rows[-1][3]:6.2f} s", flush=True)
    statuses = [row[1] for row in rows]
    decided = len(rows) - statuses.count("unknown")
    expanded, cpu = sum(row[2] for row in rows), sum(row[3] for row in rows)
    print(f"won {statuses.count('won')}, lost {statuses.count('lost')}, unknown {statuses.count('unknown')} "
          f"{[row[0] for row in rows if row[1] == 'unknown']}: {100 * decided / len(rows):.0f} % decided; "
          f"{expanded} expansions in {cpu:.0f} s of CPU ({expanded / cpu:.0f} a second)")


def fixed_states(game, deals, max_states, reps, portfolio) -> None:
    finishing = search.Solver._finish_won
    spent = [0.0]

    def timed_finish(solver, node):              # shortening and replaying a win: not search
        began = time.process_time()
        finishing(solver, node)
        spent[0] += time.process_time() - began

    search.Solver._finish_won = timed_finish
    best = None
    for _ in range(reps):
        rows, spent[0] = [], 0.0
        began = time.process_time()
        for number in deals:
            result = search.Solver(game.deal(number), max_states=max_states, portfolio=portfolio).solve()
            moves = hashlib.md5(" ".join(map(str, result.moves)).encode()).hexdigest()[:10]
            rows.append((number, result.status, result.progress.expanded, result.progress.generated, moves))
        cpu = time.process_time() - began - spent[0]
        best = cpu if best is None else min(best, cpu)
    search.Solver._finish_won = finishing
    expanded = sum(row[2] for row in rows)
    print(f"search CPU {best:.2f} s, {expanded} expansions: {expanded / best:.0f} states a CPU second; "
          f"won {sum(row[1] == 'won' for row in rows)} of {len(rows)}")
    print("fingerprint", hashlib.md5(json.dumps(rows).encode()).hexdigest())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--cpu", type=float, default=None, help="CPU seconds a deal")
    parser.add_argument("--max-states", type=int, default=None, help="states a deal")
    parser.add_argument("--reps", type=int, default=3, help="runs at --max-states (the fastest counts)")
    parser.add_argument("--portfolio", default=None, help="a Python literal: a list of search options")
    args = parser.parse_args(argv)
    if (args.cpu is None) == (args.max_states is None):
        parser.error("give one of --cpu and --max-states")
    game = sw.load_game(args.game)
    deals = range(args.first, args.last + 1)
    portfolio = ast.literal_eval(args.portfolio) if args.portfolio else None
    print(f"{args.game}, solwidget {describe()}")
    if args.cpu is not None:
        cpu_budget(game, deals, args.cpu, portfolio)
    else:
        fixed_states(game, deals, args.max_states, args.reps, portfolio)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
