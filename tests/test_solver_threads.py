"""One Solver shared by threads: the widget's worker stepping it while a cell solves it, or
any threads stepping it at once. They take turns a step at a time, so together they run the
very search one thread runs: the same result, the same positions expanded, never more than
the budget, and "lost" only where the search proves it.

Each case runs the search alone first, then shared, several times (a race shows in some
runs, not all), on the compiled search and on the Python search, and through the widget."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers import printed_json

import solwidget as sw
from solwidget.solver.profile import profile_for

ROOT = Path(__file__).resolve().parent.parent
# Open after 10 s of CPU: far beyond 60,000 states.
QUADRUPLE_375 = sw.load_game("quadruple_interchange").deal(375)
# (state, budget): a deal unknown at its budget, one won within it, one proved lost within it
# (its frontier runs empty; every search's memory is released when the search ends)
CASES = {
    "unknown": (QUADRUPLE_375, 20_000),
    "won": (sw.load_game("freecell").deal(1), 20_000),
    "lost": (sw.load_game("interlock").deal(12), 20_000),
}


def solver_of(state, python: bool, **options) -> sw.Solver:
    """A Solver on ``state``: the Python search if ``python``, else the one the game's
    profile picks (compiled where it has one)."""
    with pytest.MonkeyPatch.context() as patch:
        if python:
            patch.setattr(type(profile_for(state.game)), "compiled_search", lambda self, *args: None)
        return sw.Solver(state, **options)


def outcome(solver) -> tuple:
    result = solver.result
    return (
        result.status,
        [str(m) for m in result.moves],
        result.progress.expanded,
        result.progress.generated,
        result.reason,
    )


def stepped_by_threads(solver, threads: int, chunk: int) -> list:
    """Step ``solver`` from ``threads`` threads at once, ``chunk`` states a step, until it is
    done; the errors they met."""
    errors, start = [], threading.Barrier(threads)

    def stepper():
        start.wait()
        try:
            while not solver.done:
                solver.step(chunk)
        except Exception as error:  # noqa: BLE001 - the test reports any
            errors.append(error)

    workers = [threading.Thread(target=stepper) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors


@pytest.mark.parametrize("python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_threads_stepping_one_solver_run_the_search_of_one_thread(case, python):
    state, budget = CASES[case]
    if python and case == "unknown":
        budget = 3000  # the Python search is slower: the same race, sooner
    alone = solver_of(state, python, max_states=budget)
    alone.solve()
    assert alone.result.status == case
    for run in range(4 if python else 6):
        solver = solver_of(state, python, max_states=budget)
        errors = stepped_by_threads(solver, threads=2 + run % 2, chunk=(5000, 97, 7)[run % 3])
        assert errors == []
        assert outcome(solver) == outcome(alone), f"run {run}"
        assert solver.progress.expanded <= budget


def test_the_compiled_search_is_shared_in_the_issues_own_steps():
    state, budget = QUADRUPLE_375, 60_000
    alone = sw.solve(state, max_states=budget)
    for _ in range(3):
        solver = sw.Solver(state, max_states=budget)
        assert stepped_by_threads(solver, threads=2, chunk=5000) == []
        assert solver.result.status == "unknown" and solver.progress.expanded == budget
        assert outcome(solver) == (
            alone.status,
            [],
            alone.progress.expanded,
            alone.progress.generated,
            alone.reason,
        )


def test_a_solver_shown_in_the_widget_and_solved_in_a_cell_gives_one_answer():
    state, budget = CASES["unknown"]
    alone = sw.solve(state, max_states=budget)
    widget = sw.SolitaireWidget(state.game, state=state)
    for _ in range(3):
        solver = sw.Solver(state, max_states=budget)
        widget.show_solver(solver, steps=500, every=0.0)  # in the background
        result = solver.solve()  # here, "in the cell"
        widget.wait()
        assert (result.status, result.progress.expanded) == (alone.status, budget)
        shown = widget.solver_progress
        assert shown["status"] == "unknown" and shown["expanded"] == budget
        assert shown["summary"].startswith("unknown at the budget")


def test_a_won_solver_shown_in_the_widget_and_solved_in_a_cell_offers_its_win():
    state, budget = CASES["won"]
    alone = sw.solve(state, max_states=budget)
    widget = sw.SolitaireWidget(state.game, state=state)
    for _ in range(4):
        solver = sw.Solver(state, max_states=budget)
        widget.show_solver(solver, steps=50, every=0.0)
        result = solver.solve(chunk=50)
        widget.wait()
        assert result.status == "won" and result.moves == alone.moves
        assert widget.solver_progress["status"] == "won"
        assert widget.solution == [str(m) for m in alone.moves]


def test_progress_and_result_read_while_threads_step_are_whole():
    """A reader sees the figures of one moment (a copy made after a step), and ``result``
    only once the search has ended, with the progress it ended at."""
    state, budget = CASES["won"]
    solver = sw.Solver(state, max_states=budget)
    seen, stop = [], threading.Event()

    def reader():
        while not stop.is_set():
            progress, result = solver.progress, solver.result
            seen.append((progress.expanded, progress.generated, len(progress.best_line), result))

    watcher = threading.Thread(target=reader)
    watcher.start()
    try:
        assert stepped_by_threads(solver, threads=2, chunk=7) == []
    finally:
        stop.set()
        watcher.join()
    expanded = [e for e, _, _, _ in seen]
    assert expanded == sorted(expanded)
    ended = [r for *_, r in seen if r is not None]
    assert all(r is solver.result for r in ended)
    assert solver.result.progress is solver.progress
    assert solver.result.status == "won"


PURE_SCRIPT = """
import json, threading
import solwidget as sw
from solwidget.games.interchange import native

def outcome(solver):
    r = solver.result
    return [r.status, [str(m) for m in r.moves], r.progress.expanded, r.progress.generated]

state = sw.load_game("quadruple_interchange").deal(17)
alone = sw.Solver(state, max_states=2000)
alone.solve()
runs = []
for run in range(4):
    solver = sw.Solver(state, max_states=2000)
    errors = []
    def stepper():
        try:
            while not solver.done:
                solver.step((500, 13)[run % 2])
        except Exception as error:
            errors.append(repr(error))
    workers = [threading.Thread(target=stepper) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    runs.append([errors, outcome(solver)])
print(json.dumps({"compiled": native.search_core is not None, "alone": outcome(alone), "runs": runs}))
"""


def test_threads_share_a_solver_in_pure_python():
    """Under SOLWIDGET_PURE=1 every module runs from its Python file (the frontier's heap
    among them, which two threads at once used to break)."""
    seen = printed_json(PURE_SCRIPT, ROOT, pure=True)
    assert not seen["compiled"] and seen["alone"][0] == "unknown" and seen["alone"][2] == 2000
    for errors, found in seen["runs"]:
        assert errors == [] and found == seen["alone"]
