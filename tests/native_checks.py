"""Checks the four families' compiled searches share (tests/test_kernels.py and
tests/test_native*.py): a family's test file hands them what is its own (its games, its
searches, its sample).
"""

from __future__ import annotations

import json
import os
import random
import textwrap
from typing import NamedTuple

import pytest
from helpers import printed_json

import solwidget as sw
from solwidget.engine.state import State
from solwidget.solver.native_search import search_core
from solwidget.solver.profile import profile_for
from solwidget.solver.result import Progress
from solwidget.solver.search import _Search

BIG = 10**6  # table and frontier sizes that neither evict nor trim


def needs_native(native) -> None:
    """Skip the test (fail it under CI) where ``native`` (a family's native.py) has no
    search_core."""
    if native.search_core is None:
        message = (
            "search_core does not run here: not built, older than its source (python3 dev.py "
            "setup builds it) or SOLWIDGET_PURE=1"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the compiled search: {message}")
        pytest.skip(message)


def load_variant(game_id, variants: dict):
    """The game ``game_id``, or where ``variants`` names it ({id: (base, changes)}) that
    variant of its base game."""
    if game_id in variants:
        base, changes = variants[game_id]
        return sw.variant(base, id=game_id, name=game_id.replace("_", " "), **changes).game()
    return sw.load_game(game_id)


def portfolio(game) -> tuple[dict, ...]:
    return profile_for(game).portfolio_for(game)


def compiled(game, options, table_size=BIG, frontier_size=BIG, **expander_options):
    """The profile's compiled search for one search of ``options`` (None where the Python
    search runs), as the solver asks for it; ``expander_options``: autoplay, compress."""
    profile = profile_for(game)
    expander = profile.expander(game, options.get("weights"), **expander_options)
    return profile.compiled_search(
        expander,
        options.get("weights"),
        options.get("depth_weight", 0.5),
        table_size,
        frontier_size,
        options.get("explore", 0.0),
    )


def native_search(game, options=None, table_size=BIG, frontier_size=BIG):
    """The family's NativeSearch for one search of ``options`` (the portfolio's first by
    default)."""
    search = compiled(game, portfolio(game)[0] if options is None else options, table_size, frontier_size)
    assert isinstance(search, profile_for(game).native)
    return search


def walk(game, deal, steps):
    """(position, the move that led to it) along a seeded random walk through legal moves."""
    rng = random.Random(f"{game.id} {deal}")
    state = game.deal(deal)
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        state = state.play(move)
        yield state, move


def c_successors(search, position, came_by=(), dead_ends=True) -> tuple[list, list]:
    """search_core.successors, its moves read back as the engine's (a kernel may pack several
    in one, as a run of turns), and the keys it asked."""
    children, asked = search.core.successors(position, search.encode_moves(came_by), dead_ends=dead_ends)
    return [(search.decode_moves(moves), child, value) for moves, child, value in children], asked


def python_successors(search, state, came_by, dead_ends=True, encoded=False) -> tuple[list, list]:
    """The expander's successors (``scored``) in search_core.successors' terms: (the engine's
    moves, or ``encoded`` the kernel's, child position, score), up to and including the
    first won child (the search stops there), which search_core gives as None; and every key
    asked of the table, in order, each admitted once, as a fresh transposition table does.
    Without ``dead_ends``, the expander's dead-end test is not asked."""
    expander, seen, asked, out = search.expander, set(), [], []

    def admit(key) -> bool:
        asked.append(key)
        if key in seen:
            return False
        seen.add(key)
        return True

    with pytest.MonkeyPatch.context() as patch:
        if not dead_ends:
            patch.setattr(expander, "dead_ends", None)
        for moves, child, value in expander.scored(state, came_by, admit):
            if type(child) is tuple:
                child = State(expander.game, child, ())
            if value is None:
                value = expander.score(child)
            won = value == 0.0 and expander.is_won(child)
            moves = search.encode_moves(moves) if encoded else list(moves)
            out.append((moves, None if won else search.position(child), value))
            if won:
                break
    return out, asked


def make_solver(state, python, **options):
    """A Solver on ``state``: Python's search if ``python`` (the game's profile offering none
    compiled), else the one its profile picks."""
    with pytest.MonkeyPatch.context() as patch:
        if python:
            patch.setattr(type(profile_for(state.game)), "compiled_search", lambda self, *args: None)
        return sw.Solver(state, **options)


def words(moves) -> str:
    return " ".join(map(str, moves))


def search_types(solver) -> set:
    return {type(search) for search in solver._searches}


class Outcome(NamedTuple):
    """All a finished solver tells, but the time."""

    status: str
    reason: str
    moves: str
    expanded: int
    generated: int
    frontier: int
    depth: int
    best_score: float | None
    best_line: str
    skipped: list
    complete: list


def outcome(solver) -> Outcome:
    result, p = solver.result, solver.result.progress
    return Outcome(
        result.status,
        result.reason,
        words(result.moves),
        p.expanded,
        p.generated,
        p.frontier,
        p.depth,
        p.best_score,
        words(p.best_line),
        [s.skipped for s in solver._searches],
        [s.complete for s in solver._searches],
    )


def solved_both_ways(state, native_type, **options) -> tuple[Outcome, Outcome]:
    """The outcomes of the compiled and the Python search on ``state``. ``native_type``: the
    search the compiled side must run, or None where the position decides it."""
    runs = []
    for python in (False, True):
        run = make_solver(state, python, **options)
        if python or native_type is not None:
            assert search_types(run) == ({_Search} if python else {native_type})
        run.solve()
        runs.append(outcome(run))
    return tuple(runs)


def searches(fractional: dict, floored: dict) -> dict:
    """The options of whole searches a family's kernel is run with besides its portfolio:
    every weight of the score at work (``fractional``, and ``floored``: so that the score's
    floor of 0.5 is met), and depth weights of no power of two."""
    return {
        "the portfolio": {},
        "every weight at work": {
            "portfolio": [
                {"depth_weight": 0.25, "weights": fractional},
                {"depth_weight": 0.75, "explore": 0.2, "weights": floored},
            ]
        },
        "depth weights of no power of two": {
            "portfolio": [
                {"depth_weight": 1 / 3, "weights": fractional},
                {"depth_weight": 0.1, "explore": 0.2},
            ]
        },
    }


def statuses_alike(game, deals, native_type, **options) -> set[str]:
    """The statuses of the searches of these deals, each found alike compiled and in Python."""
    statuses = set()
    for deal in deals:
        in_c, in_python = solved_both_ways(game.deal(deal), native_type, **options)
        assert in_c == in_python, f"{game.id} deal {deal}"
        statuses.add(in_c.status)
    return statuses


def progress_seen(solver) -> tuple:
    p = solver.progress
    return (solver.done, p.expanded, p.generated, p.frontier, p.depth, p.best_score, words(p.best_line))


CHUNKS = (1, 7, 13, 2, 29, 5, 61)  # odd step sizes, to step a solver by


def stepped_both_ways(state, max_states) -> tuple:
    """The compiled and the Python search on ``state`` stepped in CHUNKS, in turn: each's
    (progress after every step, outcome)."""
    seen = []
    for python in (False, True):
        run, steps = make_solver(state, python, max_states=max_states), []
        while not run.done:
            run.step(CHUNKS[len(steps) % len(CHUNKS)])
            steps.append(progress_seen(run))
        seen.append((steps, outcome(run)))
    return tuple(seen)


class Told(NamedTuple):
    """What a search tells after a burst of expansions."""

    done: int  # positions the burst popped
    expanded: int  # expansions counted so far (the solver's budget)
    depth: int
    won_line: str | None
    generated: int
    waiting: int
    complete: bool
    best_score: float | None
    best_line: str


def run_search(search, state, bursts) -> list[Told]:
    """Seed ``search`` (a NativeSearch or a _Search) with ``state`` and run it burst by burst:
    what it tells after each."""
    start, played = search.expander.start(state)
    search.seed(start, (None, tuple(played), len(played)))
    progress, seen = Progress(), []
    for burst in bursts:
        done, won = search.run(burst, progress)
        seen.append(
            Told(
                done,
                progress.expanded,
                progress.depth,
                None if won is None else words(search.line(won)),
                search.generated,
                search.waiting,
                search.complete,
                search.best_score,
                words(search.best_line()),
            )
        )
        if won is not None or not search.waiting:
            break
    return seen


def one_search_both_ways(state, options, table_size, frontier_size, bursts) -> tuple[list, list]:
    """One search of ``options`` on ``state``, compiled and in Python, with these sizes, run
    burst by burst: what each tells after each burst."""
    game = state.game
    expander = profile_for(game).expander(game, options.get("weights"))
    explore = options.get("explore", 0.0)
    in_python = _Search(expander, options.get("depth_weight", 0.5), table_size, frontier_size, explore)
    in_c = native_search(game, options, table_size, frontier_size)
    return run_search(in_c, state, bursts), run_search(in_python, state, bursts)


def bounded_runs(game) -> tuple[list, list, list]:
    """The compiled search of deal 1 run 400 expansions twice: unbounded, with a table of 64
    keys, and with a frontier of 50 positions."""
    bursts = [400, 400]
    return tuple(
        run_search(native_search(game, table_size=table, frontier_size=frontier), game.deal(1), bursts)
        for table, frontier in ((BIG, BIG), (64, BIG), (BIG, 50))
    )


def refusal(call, *args):
    """The error ``call(*args)`` raises, or None."""
    try:
        call(*args)
    except Exception as error:  # noqa: BLE001 - the caller checks which
        return error
    return None


def refused(error, kind, words) -> bool:
    return type(error) is kind and words in str(error)


def assert_constructions_refused(search_type, core_arguments, constructions: dict) -> None:
    """``search_type`` refuses each case of ``constructions`` ({case: (index, value, kind,
    words)}): ``core_arguments()`` with the argument at ``index`` made ``value``, with a
    ``kind`` error that says ``words``."""
    for case, (index, value, kind, words) in constructions.items():
        arguments = core_arguments()
        arguments[index] = value
        assert refused(refusal(search_type, *arguments), kind, words), case


def assert_refused(calls, cases: dict) -> None:
    """Each call of ``calls(bad)`` ((call, args) pairs) refuses each ``bad`` of ``cases``
    ({case: (bad, kind, words)}) with a ``kind`` error that says ``words``."""
    for case, (bad, kind, words) in cases.items():
        for call, args in calls(bad):
            assert refused(refusal(call, *args), kind, words), f"{call.__name__}: {case}"


def assert_positions_refused(core, cases: dict) -> None:
    """Each call of ``core`` that reads a position (seed, successors, key, score, dead)
    refuses each position of ``cases`` ({case: (position, kind, words)})."""
    assert_refused(
        lambda bad: (
            (core.seed, (bad, b"")),
            (core.successors, (bad, b"")),
            (core.key, (bad,)),
            (core.score, (bad,)),
            (core.dead, (bad,)),
        ),
        cases,
    )


def assert_moves_refused(core, position, cases: dict) -> None:
    """``core.seed`` and ``core.successors`` at ``position`` refuse each of ``cases``
    ({case: (moves, kind, words)})."""
    assert_refused(lambda bad: ((core.seed, (position, bad)), (core.successors, (position, bad))), cases)


def assert_pools_refused(core) -> None:
    """``core.pool`` takes two KeyPools or two Nones, nothing else."""
    for pools in ((search_core.KeyPool(), None), (set(), None), (set(), set())):
        assert refused(refusal(core.pool, *pools), TypeError, "two KeyPools or two Nones"), pools


def assert_no_such_node(core) -> None:
    """``core.line`` refuses a node before the first and the first of no seeded search."""
    for node in (-1, 0):
        assert refused(refusal(core.line, node), IndexError, "search_core: no such node")


def assert_counts_refused(core) -> None:
    """``core.trim`` refuses a negative count of entries to keep, ``core.alone`` a table of
    no keys (one is ``_Search.go_alone``'s smallest: a table evicting at every key), and both
    a count of no integer."""
    assert refused(refusal(core.trim, -1), ValueError, "search_core: trim keeps 0 or more entries, not -1")
    assert refused(refusal(core.trim, "2"), TypeError, "")
    for size in (-1, 0):
        assert refused(
            refusal(core.alone, size), ValueError, f"alone takes a table of 1 key or more, not {size}"
        )
    assert refused(refusal(core.alone, "2"), TypeError, "")


SAMPLE = """
import json
import solwidget as sw
from solwidget.solver import native_search


def sample():
    seen = []
    for game, deal, states in runs():
        solver = sw.Solver(game.deal(deal), max_states=states)
        result, p = solver.solve(), solver.progress
        seen.append([game.id, deal, result.status, " ".join(map(str, result.moves)), p.expanded,
                     p.generated, p.frontier, p.best_score, " ".join(map(str, p.best_line)),
                     sorted({type(search).__name__ for search in solver._searches})])
    return {"search_core": native_search.search_core is not None, "seen": seen}
"""


def sampled_pure_and_compiled(runs: str, root) -> tuple[dict, dict]:
    """The solver's results on what ``runs()`` lists ((game, deal, max_states) each; ``runs``
    is its source) under SOLWIDGET_PURE=1 (in a subprocess) and here: (pure, compiled), each
    checked to have run only its own searches, and the same rows but the searches' kinds. A
    row: the game's id, the deal, the status, the moves, the progress, the searches' kinds."""
    sample = textwrap.dedent(runs) + SAMPLE
    pure = printed_json(sample + "\nprint(json.dumps(sample()))\n", root, pure=True)
    here = {}
    exec(sample, here)
    mine = json.loads(json.dumps(here["sample"]()))
    assert not pure["search_core"] and mine["search_core"]
    assert {kind for row in pure["seen"] for kind in row[-1]} == {"_Search"}
    assert {kind for row in mine["seen"] for kind in row[-1]} == {"NativeSearch"}
    assert [row[:-1] for row in pure["seen"]] == [row[:-1] for row in mine["seen"]]
    return pure, mine
