"""The solver measured in CPU time: fair on a machine that others share.

    .venv/bin/python benchmarks/bench_solver_cpu.py triple_interchange 1 100 --cpu 10
        deals 1-100, each searched until won, lost or 10 s of CPU: won / lost / unknown
    .venv/bin/python benchmarks/bench_solver_cpu.py mutated 1 1000 --cpu 1 --then 10 --quiet
        deals 1-1000 at 1 s of CPU, then the deals left unknown at 10 s: decided at each,
        and the expansions a deal within which 99 % and 99.9 % of them were decided (a
        measure that does not move with the machine's speed)
    .venv/bin/python benchmarks/bench_solver_cpu.py triple_interchange 1 20 --max-states 2000 --reps 3
        deals 1-20 at 2,000 states each: search CPU (min of 3 runs; shortening and replaying
        the wins left out), states per CPU second, and a fingerprint of every result (status,
        expansions, positions generated, moves) that stays the same while the searches do

``--python-search`` runs the Python search in place of the family's search in C: the same
searches (the same fingerprint), at the Python search's speed.

A wall-clock budget (bench_games.py) gives a search less work when other jobs share the
cores; a CPU budget does not. ``--portfolio`` takes a Python literal (a list of search
options) instead of the game's default, ``--table-size`` the keys a solve keeps (by default
what about 1.5 GB holds: docs/solver.md, "Memory"), ``--resident-limit`` the process's
resident memory past which the frontiers are cut (``search.RESIDENT_LIMIT``, 2 GB), to see
what a deal needs beyond the bound. ``--jobs 2`` searches two deals at a time, each in a
process of its own measured by its own CPU time (Linux: the processes are forked), and prints
the deals in their order. Two processes share the caches and the memory's bandwidth, so each
may expand fewer positions a second than one alone, and a deal decided near the budget may be
decided in one run and not in the other.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import json
import math
import multiprocessing
import time

from bench_freecell import without_compiled_search

import solwidget as sw
from solwidget.compiled import describe
from solwidget.solver import search


def within_cpu(game, number, seconds, options) -> tuple:
    """Deal ``number`` searched until won, lost or ``seconds`` of this process's CPU:
    (deal, status, expansions, CPU seconds)."""
    began = time.process_time()
    solver = search.Solver(game.deal(number), max_states=None, **options)
    with search.collector_paused():  # between the steps too, as Solver.solve (bench_games.py)
        while not solver.done and time.process_time() - began < seconds:
            solver.step(100)
    status = solver.result.status if solver.done else "unknown"
    return number, status, solver.progress.expanded, time.process_time() - began


_job: tuple = ()  # (game, seconds, options) of the deals the forked processes search


def _within_cpu_job(number: int) -> tuple:
    return within_cpu(_job[0], number, _job[1], _job[2])


@contextlib.contextmanager
def searched(game, deals, seconds, options, jobs):
    """The rows of ``within_cpu`` for ``deals``, in their order: ``jobs`` deals at a time,
    in as many forked processes, each searching deal after deal as one process alone does
    (they inherit ``game`` and ``options`` as they are)."""
    global _job
    if jobs == 1:
        yield (within_cpu(game, number, seconds, options) for number in deals)
        return
    _job = (game, seconds, options)
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield pool.imap(_within_cpu_job, deals)
    finally:
        _job = ()


def cpu_budget(game, deals, seconds, options, quiet=False, jobs=1) -> list[tuple]:
    """Each deal searched until won, lost or ``seconds`` of CPU, ``options`` given to the
    Solver; (deal, status, expansions, CPU seconds) a deal, and a summary line."""
    rows = []
    with searched(game, deals, seconds, options, jobs) as results:
        for row in results:
            rows.append(row)
            if not quiet:
                print(f"{row[0]:5d} {row[1]:8s} {row[2]:8d} {row[3]:6.2f} s", flush=True)
    statuses = [row[1] for row in rows]
    decided = len(rows) - statuses.count("unknown")
    expanded, cpu = sum(row[2] for row in rows), sum(row[3] for row in rows)
    print(
        f"at {seconds:g} s: won {statuses.count('won')}, lost {statuses.count('lost')}, unknown "
        f"{statuses.count('unknown')} {[row[0] for row in rows if row[1] == 'unknown']}: "
        f"{100 * decided / len(rows):.1f} % decided; {expanded} expansions in {cpu:.0f} s of CPU "
        f"({expanded / max(cpu, 1e-9):.0f} a second)",
        flush=True,
    )
    return rows


def then_longer(game, rows, seconds, options, quiet, jobs=1) -> list[tuple]:
    """The deals left unknown searched again at ``seconds``: a search is the same at any
    budget (its turns count expansions), so a deal decided within the first budget is
    decided within the longer one, and only the unknown ones need the longer run."""
    unknown = [row[0] for row in rows if row[1] == "unknown"]
    again = cpu_budget(game, unknown, seconds, options, quiet, jobs) if unknown else []
    by_deal = {row[0]: row for row in again}
    final = [by_deal.get(row[0], row) for row in rows]
    left = [row[0] for row in final if row[1] == "unknown"]
    print(
        f"at {seconds:g} s (the {len(unknown)} unknown deals searched again): "
        f"{100 * (len(final) - len(left)) / len(final):.1f} % decided, unknown {left}"
    )
    return final


def expansions_needed(rows, shares=(0.99, 0.999)) -> None:
    """The shares decided restated in expansions, which do not move with the machine's speed: for
    each share of the deals, the expansions within which that many were decided (the
    searches count expansions, so a deal is decided at the same count on any machine)."""
    decided = sorted(row[2] for row in rows if row[1] != "unknown")
    for share in shares:
        deals = math.ceil(share * len(rows))
        within = (
            f"within {decided[deals - 1]:,} expansions a deal"
            if deals <= len(decided)
            else f"not within these budgets ({len(decided)} decided)"
        )
        print(f"{100 * share:g} % of the deals ({deals}) decided {within}")


def fixed_states(game, deals, max_states, reps, options) -> None:
    finishing = search.Solver._finish_won
    spent = [0.0]

    def timed_finish(solver, node):  # shortening and replaying a win: not search
        began = time.process_time()
        finishing(solver, node)
        spent[0] += time.process_time() - began

    search.Solver._finish_won = timed_finish
    best = None
    for _ in range(reps):
        rows, spent[0] = [], 0.0
        began = time.process_time()
        for number in deals:
            result = search.Solver(game.deal(number), max_states=max_states, **options).solve()
            moves = hashlib.md5(" ".join(map(str, result.moves)).encode()).hexdigest()[:10]
            rows.append((number, result.status, result.progress.expanded, result.progress.generated, moves))
        cpu = time.process_time() - began - spent[0]
        best = cpu if best is None else min(best, cpu)
    search.Solver._finish_won = finishing
    expanded = sum(row[2] for row in rows)
    print(
        f"search CPU {best:.2f} s, {expanded} expansions: {expanded / best:.0f} states a CPU second; "
        f"won {sum(row[1] == 'won' for row in rows)} of {len(rows)}"
    )
    print("fingerprint", hashlib.md5(json.dumps(rows).encode()).hexdigest())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--cpu", type=float, default=None, help="CPU seconds a deal")
    parser.add_argument("--max-states", type=int, default=None, help="states a deal")
    parser.add_argument("--reps", type=int, default=3, help="runs at --max-states (the fastest counts)")
    parser.add_argument(
        "--then",
        type=float,
        default=None,
        help="with --cpu: search the deals left unknown again, this many CPU seconds",
    )
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument(
        "--jobs", type=int, default=1, help="with --cpu: deals searched at a time, a process each"
    )
    parser.add_argument("--portfolio", default=None, help="a Python literal: a list of search options")
    parser.add_argument(
        "--table-size", type=int, default=None, help="keys a solve keeps (Solver's table_size)"
    )
    parser.add_argument(
        "--resident-limit",
        type=int,
        default=None,
        help="bytes of resident memory past which the frontiers are cut (search.RESIDENT_LIMIT)",
    )
    parser.add_argument(
        "--python-search",
        action="store_true",
        help="the Python search in place of the family's search in C (the same searches)",
    )
    args = parser.parse_args(argv)
    if (args.cpu is None) == (args.max_states is None):
        parser.error("give one of --cpu and --max-states")
    if args.jobs < 1 or (args.jobs > 1 and args.cpu is None):
        parser.error("--jobs is at least 1, and above 1 only with --cpu")
    if args.jobs > 1 and "fork" not in multiprocessing.get_all_start_methods():
        parser.error("--jobs above 1 needs processes that fork (Linux)")
    if args.resident_limit is not None:
        if args.resident_limit <= 0:
            parser.error("--resident-limit is a number of bytes above 0")
        search.RESIDENT_LIMIT = args.resident_limit
    game = sw.load_game(args.game)
    deals = range(args.first, args.last + 1)
    options = {
        "portfolio": ast.literal_eval(args.portfolio) if args.portfolio else None,
        "table_size": args.table_size,
    }
    print(f"{args.game}, solwidget {describe()}" + (", the Python search" if args.python_search else ""))
    with without_compiled_search(game) if args.python_search else contextlib.nullcontext():
        run(game, deals, options, args)
    return 0


def run(game, deals, options, args) -> None:
    if args.cpu is not None:
        rows = cpu_budget(game, deals, args.cpu, options, args.quiet, args.jobs)
        if args.then:
            rows = then_longer(game, rows, args.then, options, args.quiet, args.jobs)
        expansions_needed(rows)
    else:
        fixed_states(game, deals, args.max_states, args.reps, options)


if __name__ == "__main__":
    raise SystemExit(main())
