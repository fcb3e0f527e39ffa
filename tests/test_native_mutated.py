"""Mutated Solitaire's kernel (games/mutated/kernel.c) against the Python search: what
tests/test_kernels.py, which every kernel gets, leaves to the family.

- one expansion, on positions taken from real searches of several deals (the frontiers of
  Python searches) and along winning lines: the same moves, child positions, keys and
  scores, in the same order, and the same keys asked of ``admit``, in the same order;
  positions read back from their bytes;
- the dead-end test in C, verdict for verdict with DeadEnds, on positions real searches
  expand and on positions near them;
- whole searches: each search of the portfolio alone, every weight at work, depth weights
  of no power of two, pooled proofs (lost deals proved lost the same way, with the same
  expansions and skips, C and Python searches in one portfolio, a search pooled late),
  going alone, one search at any table and frontier size;
- where native.py hands over to C (exact weights, autoplay, the dead-end test its own) and
  where it keeps Python;
- Mutated's rules, positions and moves packed wrong: a clear error, and the search still
  usable after it; an error of a dead-end test called back;
- SOLWIDGET_PURE=1: no C, and the solver's results are the same.
"""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path

import native_checks as checks
import pytest
from native_checks import BIG, outcome, run_search, search_types, words

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN
from solwidget.engine.state import State
from solwidget.games.mutated import native
from solwidget.games.mutated.deadends import DeadEnds
from solwidget.games.mutated.expander import MutatedExpander
from solwidget.games.mutated.profile import MutatedProfile
from solwidget.solver import search as search_module
from solwidget.solver.profile import profile_for
from solwidget.solver.result import Progress
from solwidget.solver.search import _Search

ROOT = Path(__file__).resolve().parent.parent
# Every weight of the score at work, fractional (yet exact: multiples of 1/1024); and with
# home cards cheap and orphans dear, so that the floor of 0.5 is met.
FRACTIONAL = {
    "home": 6.5,
    "blockers": 1.25,
    "urgent": 0.75,
    "down": 0.625,
    "rows": 0.375,
    "decks": 1.125,
    "orphans": 3.5,
}
FLOORED = {**FRACTIONAL, "home": 0.0, "rows": 0.0, "down": 0.0, "decks": 0.0, "orphans": 0.25}
LOST = (88, 154, 340)  # proved lost in about 6,000 to 8,500 expansions (154, 340 pool)
DEAD_AT_THE_DEAL = 160


def needs_native():
    checks.needs_native(native)


@functools.cache
def game():
    return sw.load_game("mutated")


def portfolio() -> tuple[dict, ...]:
    return checks.portfolio(game())


def compiled(options, **expander_options):
    return checks.compiled(game(), options, **expander_options)


def native_search(options=None):
    return checks.native_search(game(), options)


def solved_both_ways(state, **options) -> tuple:
    return checks.solved_both_ways(state, native.NativeSearch, **options)


# ------------------------------------------------------------------ positions


@functools.cache
def winning_moves(deal) -> tuple:
    return tuple(sw.solve(game().deal(deal), max_states=20_000).moves)


@functools.cache
def positions(options_index=1, deals=(1, 2, 3, 88, DEAD_AT_THE_DEAL), expansions=150) -> list:
    """Positions as a search holds them, with the moves that led to them: the frontiers of
    Python searches of several deals, and the settled positions along a winning line
    (whose last ones have a won child)."""
    options = portfolio()[options_index]
    found = []
    for deal in deals:
        expander = profile_for(game()).expander(game(), options.get("weights"))
        search = _Search(expander, options["depth_weight"], BIG, BIG, options.get("explore", 0.0))
        start, played = expander.start(game().deal(deal))
        search.seed(start, (None, tuple(played), len(played)))
        search.run(expansions, Progress())
        found += [(entry[2], entry[3][1]) for entry in search.frontier.entries()]
        state = game().deal(deal)
        for move in winning_moves(deal):
            state = state.play(move)
            settled, moves = expander.start(state)
            found.append((settled, (move, *moves)))
    return found


# ------------------------------------------------------------------ one expansion


@pytest.mark.parametrize("options_index", [0, 1])
def test_successors_are_pythons_move_for_move(options_index):
    needs_native()
    search = native_search(portfolio()[options_index])
    counted = {"children": 0, "dead": 0, "won": 0, "built": 0, "named": 0, "settled": 0}
    for state, came_by in positions(options_index):
        encoded = native.encode(state.piles, state.extra)
        assert search.core.key(encoded) == search.key(state)
        assert search.core.score(encoded) == search.expander.score(state)
        in_c, asked_c = search.core.successors(encoded, native.encode_moves(came_by))
        in_python, asked_python = checks.python_successors(search, state, came_by, encoded=True)
        assert in_c == in_python, game().format(state)
        assert asked_c == asked_python, game().format(state)
        counted["children"] += len(in_c)
        counted["dead"] += search.expander.dead_ends.is_dead(state)
        counted["won"] += any(child is None for _, child, _ in in_c)
        counted["built"] += any(moves[1] == native.BUILD_DST for moves, _, _ in in_c)
        counted["named"] += any(moves[2] & native.CARD_MOVE for moves, _, _ in in_c)
        counted["settled"] += any(len(moves) > 3 for moves, _, _ in in_c)
    assert all(counted.values()), counted
    assert counted["children"] > 5000, counted


@functools.cache
def searched_positions(deals=(1, 2, 3, 23, 47, 85, 88, 154, 213, 282, 340), expansions=400) -> list:
    """Positions that real searches expand, as the expander sees them (every ``every``-th):
    the Python portfolio's, on won, lost and open deals."""
    seen = []
    real = MutatedExpander.scored

    def recording(self, state, came_by, admit):
        seen.append(state)
        return real(self, state, came_by, admit)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MutatedProfile, "compiled_search", lambda self, *args: None)
        patch.setattr(MutatedExpander, "scored", recording)
        for deal in deals:
            sw.solve(game().deal(deal), max_states=expansions)
    return seen


def test_dead_ends_are_deadends_pys_on_positions_of_real_searches():
    needs_native()
    core, test = native_search().core, DeadEnds()
    states = searched_positions()
    verdicts = [core.dead(native.encode(s.piles, s.extra)) for s in states]
    assert verdicts == [test.is_dead(s) for s in states]
    assert len(states) > 4000 and 50 < sum(verdicts) < len(states) - 50, (len(states), sum(verdicts))


def test_dead_ends_are_deadends_pys_on_positions_near_them():
    # the children of the positions above, and with two top cards of spaces traded
    needs_native()
    core, test, rng = native_search().core, DeadEnds(), random.Random(5)
    checked = dead = 0
    for state in searched_positions()[::7]:
        for _moves, child in children_of(state):
            verdict = core.dead(native.encode(child.piles, child.extra))
            assert verdict == test.is_dead(child), game().format(child)
            checked += 1
            dead += verdict
        piles = list(state.piles)
        held = [i for i in range(4, 20) if len(piles[i]) > 1]
        if len(held) >= 2:
            a, b = rng.sample(held, 2)
            piles[a], piles[b] = piles[a][:-1] + piles[b][-1:], piles[b][:-1] + piles[a][-1:]
            other = State(game(), tuple(piles), state.extra)
            assert core.dead(native.encode(other.piles, other.extra)) == test.is_dead(other)
            checked += 1
    assert checked > 5000 and dead > 50, (checked, dead)


def children_of(state):
    expander = MutatedExpander(game())
    for moves, child, _ in expander.scored(state, (), lambda key: True):
        yield moves, child


def test_positions_come_back_from_their_bytes():
    for state, _ in positions()[:200]:
        assert native.decode(native.encode(state.piles, state.extra)) == (state.piles, state.extra)


# ------------------------------------------------------------------ whole searches


SEARCHES = checks.searches(FRACTIONAL, FLOORED)


@pytest.mark.parametrize(
    "search",
    [
        "the portfolio",
        "search 0",
        "search 1",
        "search 2",
        "every weight at work",
        "depth weights of no power of two",
    ],
)
def test_whole_searches_are_pythons(search):
    needs_native()
    if search.startswith("search "):
        options = {"portfolio": [portfolio()[int(search[-1])]]}
    else:
        options = SEARCHES[search]
    deals = (1, 2, 3, 4, DEAD_AT_THE_DEAL)
    statuses = checks.statuses_alike(game(), deals, native.NativeSearch, max_states=1500, **options)
    assert {"won", "lost"} <= statuses


def test_pooled_proofs_prove_the_same_deals_lost_the_same_way():
    needs_native()
    skipped = 0
    for deal in LOST:
        in_c, in_python = solved_both_ways(game().deal(deal), max_states=12_000)
        assert in_c == in_python, f"deal {deal}"
        assert in_c.status == "lost", f"deal {deal}"
        skipped += sum(in_c.skipped)
    assert skipped > 0, "some search left positions to the others (POOL_AFTER)"


def test_going_alone_is_pythons(monkeypatch):
    # past alone_after the first search goes on alone with what it skipped (twins: it skips)
    needs_native()
    monkeypatch.setattr(search_module, "POOL_AFTER", 300)
    monkeypatch.setattr(profile_for(game()), "alone_after", 2000)
    twins = search_module.default_portfolio(game())[:1] * 2
    for searches in (twins, None):
        in_c, in_python = solved_both_ways(game().deal(154), max_states=20_000, portfolio=searches)
        assert in_c == in_python
        assert in_c.status == "lost" and in_c.expanded > 2000


def test_a_portfolio_of_c_and_python_searches_pools_one_proof():
    # the keys are the same bytes, so a C search and a Python one share a _Closure
    needs_native()
    original = MutatedProfile.compiled_search
    calls = []

    def every_other(self, *args):
        calls.append(1)
        return original(self, *args) if len(calls) % 2 else None

    runs = []
    for mixed in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(
                MutatedProfile, "compiled_search", every_other if mixed else (lambda self, *args: None)
            )
            run = sw.Solver(game().deal(154), max_states=12_000)
        if mixed:
            assert search_types(run) == {_Search, native.NativeSearch}
        run.solve()
        runs.append(outcome(run))
    assert runs[0] == runs[1] and runs[0].status == "lost"


def test_a_search_pooled_late_notes_the_keys_python_notes():
    # the solver pools its searches before they run; a search pooled after it ran notes
    # every key asked from then on, as _admit_pooled does
    needs_native()
    from solwidget.solver.search import _Closure

    seen, closures = [], []
    for search in (
        native_search(),
        _Search(profile_for(game()).expander(game(), portfolio()[0]["weights"]), 0.5, BIG, BIG),
    ):
        start, played = search.expander.start(game().deal(2))
        search.seed(start, (None, tuple(played), len(played)))
        progress = Progress()
        search.run(40, progress)
        closure = _Closure(search.key(start), BIG)
        search.pool(closure)
        search.run(60, progress)
        search.pool(None)
        search.run(30, progress)
        closures.append(closure)
        seen.append(
            (
                len(closure.expanded),
                len(closure.generated),
                progress.expanded,
                search.generated,
                search.waiting,
                words(search.best_line()),
            )
        )
    assert seen[0] == seen[1]
    assert seen[0][1] > seen[0][0] > 50
    # the C search's closure holds KeyPools (no iterating them): the same sizes, and every
    # key of the Python search's sets in them
    in_c, in_python = closures
    assert all(key in in_c.expanded for key in in_python.expanded)
    assert all(key in in_c.generated for key in in_python.generated)


@pytest.mark.parametrize("explore", [0.0, 0.3])
@pytest.mark.parametrize(
    "table_size, frontier_size", [(BIG, BIG), (2, BIG), (64, BIG), (BIG, 1), (BIG, 50), (100, 60)]
)
def test_one_search_is_pythons_at_any_table_and_frontier_size(table_size, frontier_size, explore):
    needs_native()
    bursts = [1, 2, 50, 3, 200, 11, 300]
    options = {**portfolio()[2], "explore": explore}
    for deal in (1, 3):
        in_c, in_python = checks.one_search_both_ways(
            game().deal(deal), options, table_size, frontier_size, bursts
        )
        assert in_c == in_python, (
            f"deal {deal}, table {table_size}, frontier {frontier_size}, explore {explore}"
        )


def test_the_small_sizes_above_change_the_compiled_search():
    needs_native()
    unbounded, evicting, trimming = checks.bounded_runs(game())
    assert evicting[-1] != unbounded[-1], "positions of evicted keys are admitted again"
    assert unbounded[-1].complete and not trimming[-1].complete, "a trimmed search is no longer complete"


# ------------------------------------------------------------------ where C runs


def test_the_compiled_search_runs_only_where_it_is_the_same_search():
    needs_native()
    exact_sums = {"weights": {"orphans": 3 / 1024, "home": 2.0**19}, "depth_weight": 1 / 3}
    assert isinstance(compiled(exact_sums), native.NativeSearch)
    for inexact in (
        {"weights": {"rows": 0.1}},
        {"weights": {"home": 2.0**20}},
        {"depth_weight": math.inf},
        {"depth_weight": math.nan},
        {"weights": {"orphans": 1 / 3}},
    ):
        assert compiled(inexact) is None, inexact
    assert compiled({}, autoplay=False) is None
    other = profile_for(sw.load_game("freecell")).expander(sw.load_game("freecell"))
    assert native.NativeSearch.compiled_search(other, None, 0.5, BIG, BIG, 0.0) is None

    class Subclassed(MutatedExpander):
        pass

    assert native.NativeSearch.compiled_search(Subclassed(game()), None, 0.5, BIG, BIG, 0.0) is None
    with pytest.MonkeyPatch.context() as patch:  # a test that replaces the dead-end test
        patch.setattr(DeadEnds, "is_dead", lambda self, state: False)
        assert compiled({}) is None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DeadEnds, "dead", lambda self, piles, modes: False)
        assert compiled({}) is None
    assert isinstance(compiled({}), native.NativeSearch)


@pytest.mark.parametrize(
    "options", [{"weights": {"rows": 0.1}}, {"weights": {"orphans": 1 / 3}}, {"autoplay": False}]
)
def test_where_c_cannot_run_the_same_search_python_runs_it(options):
    run = checks.make_solver(game().deal(1), False, max_states=1000, **options)
    assert search_types(run) == {_Search}
    assert run.solve().status in ("won", "unknown") and run.progress.expanded > 0


# ------------------------------------------------------------------ bad input


def core_arguments() -> list:
    """What NativeSearch passes to search_core.Search."""
    weights = (8.0, 1.0, 0.5, 1.0, 0.5, 0.5, 8.0)
    return ["mutated", native.pack_rules(), weights, 0.5, 0.0, BIG, BIG, None]


def rules_with(at: dict[int, int] | None = None, cut: int = 0, more: bytes = b"") -> bytes:
    """pack_rules(), its bytes at these offsets changed, ``cut`` bytes cut off its end and
    ``more`` added to it."""
    rules = bytearray(native.pack_rules())
    for offset, value in (at or {}).items():
        rules[offset] = value
    return bytes(rules[: len(rules) - cut]) + more


def bad_constructions() -> dict:
    """Search(...)'s arguments with one wrong: (the argument's index, its value, the error,
    words of its message)."""
    rules = native.pack_rules()
    piles, givers = rules[0], rules[2]
    kinds, rows = 3, 3 + piles  # where each table starts
    gives, fits = rows + piles, rows + piles + 3 * givers
    parents, colours = fits + 128 * 128, fits + 128 * 128 + 128
    size = "mutated rules of the wrong size for their piles"
    return {
        "a deck among the foundations": (1, rules_with({kinds + 1: 3}), ValueError, "a pile's kind or row"),
        "a space in row 0": (1, rules_with({rows + 5: 0}), ValueError, "a pile's kind or row"),
        "a fifth kind of pile": (1, rules_with({kinds + 5: 4}), ValueError, "a pile's kind or row"),
        "d2 in row 1": (1, rules_with({rows + piles - 2: 1}), ValueError, "rows 1, 2, 3"),
        "25 piles": (1, rules_with({0: 25}), ValueError, "1 to 24 piles"),
        "a giver more than packed": (1, rules_with({2: givers + 1}), ValueError, size),
        "a fits table one short": (1, rules_with(cut=1), ValueError, size),
        "a byte more": (1, rules_with(more=b"\x00"), ValueError, size),
        "a foundation giving": (1, rules_with({gives: 0}), ValueError, "a giver is a space"),
        "a parent of 64": (1, rules_with({parents + 10: 64}), ValueError, "parents are cards below 64"),
        "a suit of 4": (1, rules_with({colours: 4}), ValueError, "colours are suits 0 to 3"),
        "two decks of cards": (1, rules_with({1: 104}), ValueError, "one deck of 52 cards"),
        "a dead test that is no function": (7, 3, TypeError, "dead must be callable or None"),
    }


def bad_positions(search) -> dict:
    """Positions of malformed piles or modes (a deal's piles, encoded, then spoilt):
    (position, the error, words of its message)."""
    state = game().deal(1)
    piles, modes = [bytes(pile) for pile in state.piles], state.extra
    good = native.encode(piles, modes)

    def changed(new: dict, new_modes=modes) -> bytes:
        return native.encode([new.get(i, pile) for i, pile in enumerate(piles)], new_modes)

    def home(*foundations) -> bytes:
        """The deal with these cards taken from their piles onto the foundations."""
        gone = {card for pile in foundations for card in pile}
        new = [bytes(c for c in pile if c & 63 not in gone) for pile in piles]
        new[: len(foundations)] = foundations
        return native.encode(new, modes)

    assert native.search_core is None or search.core.key(home(b"\x01\x02", b"\x11")), "a good one"
    malformed = "search_core: a malformed position"
    return {
        "a card of 128": (changed({5: piles[5][:-1] + b"\x80"}), ValueError, malformed),
        "a face-down card home": (changed({0: b"\x41"}), ValueError, malformed),
        "a pile of 40 cards": (changed({5: bytes(range(1, 41))}), ValueError, malformed),
        "a card twice": (changed({5: piles[5] + piles[6][-1:]}), ValueError, malformed),
        "a card twice, once face down": (
            changed({5: piles[5] + bytes([piles[6][0] ^ FACE_DOWN])}),
            ValueError,
            malformed,
        ),
        "a base beyond its deck": (changed({}, (7, -1, -1)), ValueError, malformed),
        "a mode byte of 200": (good[:-3] + bytes([200, 0, 0]), ValueError, malformed),
        "a foundation of a Two": (home(b"\x02"), ValueError, malformed),
        "a foundation out of order": (home(b"\x11\x13"), ValueError, malformed),
        "a foundation of two suits": (home(b"\x01\x12"), ValueError, malformed),
    }


BAD_MOVES = {
    "pile 23": (b"\x17\x00\x01", ValueError, "search_core: a move names no pile"),
    "a build from pile 23": (b"\x17\xff\x01", ValueError, "search_core: a move names no pile"),
}


def test_bad_input_is_refused_clearly_and_the_search_stays_usable():
    needs_native()
    checks.assert_constructions_refused(native.search_core.Search, core_arguments, bad_constructions())
    search = native_search()
    start = search.expander.start(game().deal(1))[0]
    core, position = search.core, native.encode(start.piles, start.extra)
    checks.assert_positions_refused(core, bad_positions(search))
    checks.assert_moves_refused(core, position, BAD_MOVES)
    bursts = [1, 30, 300, 1000]
    assert run_search(search, game().deal(1), bursts) == run_search(native_search(), game().deal(1), bursts)


def test_an_error_in_a_dead_end_test_called_back_comes_through_and_the_search_goes_on():
    needs_native()
    search = native_search()
    calls = []

    def failing(position):
        calls.append(1)
        if len(calls) == 3:
            raise KeyError("the test failed")
        return search.expander.dead_ends.dead(*native.decode(position))

    arguments = core_arguments()
    arguments[-1] = failing
    search.core = native.search_core.Search(*arguments)
    start, played = search.expander.start(game().deal(1))
    search.seed(start, (None, tuple(played), len(played)))
    with pytest.raises(KeyError, match="the test failed"):
        search.run(10, Progress())
    done, _ = search.run(10, Progress())
    assert done == 10 and search.waiting


# ------------------------------------------------------------------ SOLWIDGET_PURE=1

# The solver's results on the first deals, a deal lost at the deal and a lost deal proved
# with pooled searches (run here, and under SOLWIDGET_PURE=1).
RUNS = """
    def runs():
        game = sw.load_game("mutated")
        return [(game, deal, 10_000 if deal == 340 else 2500) for deal in (1, 2, 3, 160, 340)]
"""


def test_under_solwidget_pure_python_searches_and_finds_the_same():
    needs_native()
    _, mine = checks.sampled_pure_and_compiled(RUNS, ROOT)
    assert {row[2] for row in mine["seen"]} == {"won", "lost"}
