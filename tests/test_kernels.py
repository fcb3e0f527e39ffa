"""Every family's kernel (games/<family>/kernel.c) in the compiled search (solver/search_core.c)
against the family's Python search: the tests a kernel gets by being listed in FAMILIES.

A kernel is a second writing of its family's Python expander, and native.py runs it in its
place only where it is the very same search. These tests hold the two together for every
family alike; a family's own tests/test_native*.py adds what only it has (its variants, its
dead-end test, its pooled proofs, its bounds):

- one expansion: the same moves, child positions and scores in the same order, and the same
  number of keys asked of the table (the same keys, where the Python keys are bytes);
- keys: two positions share a key in C exactly when they do in Python;
- scores: the kernel's score of a position is the expander's;
- whole searches: the same expansions, positions generated, frontier, best line and result
  with the family's portfolio, stepped in odd chunks, and with tables and frontiers so
  small that they evict and trim;
- where the profile hands over to the kernel (the portfolio's searches) and where not (an
  inexact weight);
- bad input: rules, weights, positions, moves, nodes and counts refused with a clear error,
  and the search still usable after it.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import native_checks as checks
import pytest
from native_checks import BIG, c_successors, compiled, portfolio, python_successors, run_search, walk, words

import solwidget as sw
from solwidget.games.freecell import native as freecell_native
from solwidget.games.interchange import native as interchange_native
from solwidget.games.interlock import native as interlock_native
from solwidget.games.mutated import native as mutated_native
from solwidget.solver import frontier, native_search
from solwidget.solver.frontier import Frontier
from solwidget.solver.profile import profile_for

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Family:
    """A family with a kernel: its native.py, the games its tests play, whether its Python
    keys are the kernel's bytes (else they pair the same positions), and whether a probe of
    one expansion asks its dead-end test (not where the test remembers the positions asked
    before: a probe then expands without it on both sides)."""

    native: ModuleType
    games: tuple[str, ...]
    bytes_keys: bool = True
    dead_ends_in_probes: bool = True
    deals: tuple[int, ...] = (1, 2, 3)  # the first two are also stepped and made small

    @property
    def name(self) -> str:
        return self.native.NativeSearch.kernel


FAMILIES = {
    family.name: family
    for family in (
        Family(
            freecell_native,
            ("freecell", "reversed_solitaire", "inverted_freecell"),
            bytes_keys=False,
            deals=(10, 21, 1),  # FreeCell's first deals are won too soon to be stepped long
        ),
        Family(mutated_native, ("mutated",)),
        Family(
            interlock_native,
            ("interlock", "love_a_duck", "guardian"),
            dead_ends_in_probes=False,
            deals=(4, 8, 1),
        ),
        Family(
            interchange_native,
            ("triple_interchange", "quadruple_interchange", "unlimited", "single_interchange", "interchange"),
            deals=(2, 252, 1),
        ),
    )
}
CASES = [(family, game_id) for family in FAMILIES for game_id in FAMILIES[family].games]


def needs_native():
    checks.needs_native(native_search)


def native_search_of(family, game, options=None, table_size=BIG, frontier_size=BIG):
    search = checks.native_search(game, options, table_size, frontier_size)
    assert isinstance(search, FAMILIES[family].native.NativeSearch)
    return search


# ------------------------------------------------------------------ positions


# Deals whose random walks meet live positions, where deals 1-3 are dead from the start
# (most Single Interchange deals are: a dead position has no successors to compare).
WALKS = {"single_interchange": (28, 68, 82), "interchange": (49, 71, 74)}


@functools.cache
def positions(game_id, steps=60) -> tuple:
    """Settled positions as a search holds them, each with the moves that led to it, along
    random walks."""
    game = sw.load_game(game_id)
    expander = profile_for(game).expander(game)
    found = []
    for deal in WALKS.get(game_id, (1, 2, 3)):
        for state, move in walk(game, deal, steps):
            settled, played = expander.start(state)
            found.append((settled, (move, *played)))
    return tuple(found)


# ------------------------------------------------------------------ one expansion


@pytest.mark.parametrize("family, game_id", CASES)
def test_successors_and_keys_asked_are_pythons_move_for_move(family, game_id):
    needs_native()
    game = sw.load_game(game_id)
    search = native_search_of(family, game)
    dead_ends = FAMILIES[family].dead_ends_in_probes
    children = 0
    for state, came_by in positions(game_id):
        position = search.position(state)
        for came in ((), came_by):
            in_c, asked_in_c = c_successors(search, position, came, dead_ends)
            in_python, asked_in_python = python_successors(search, state, came, dead_ends)
            assert in_c == in_python, f"{game_id}: position {position.hex()}, came by {words(came)}"
            assert len(asked_in_c) == len(asked_in_python)
            if FAMILIES[family].bytes_keys:
                assert asked_in_c == asked_in_python
            children += len(in_c)
    assert children > 100


@pytest.mark.parametrize("family, game_id", CASES)
def test_keys_pair_positions_as_pythons_do(family, game_id):
    needs_native()
    game = sw.load_game(game_id)
    search = native_search_of(family, game)
    pool = [state for state, _ in positions(game_id)] + [
        search.expander.start(game.deal(deal))[0] for deal in range(1, 6)
    ]
    python_keys = [search.expander.key(state) for state in pool]
    c_keys = [search.core.key(search.position(state)) for state in pool]
    pairs = set(zip(python_keys, c_keys))
    assert len(set(python_keys)) == len(pairs) == len(set(c_keys)), "the same pairs of positions share a key"
    if FAMILIES[family].bytes_keys:
        assert python_keys == c_keys


@pytest.mark.parametrize("family, game_id", CASES)
def test_scores_are_the_expanders(family, game_id):
    needs_native()
    game = sw.load_game(game_id)
    for options in portfolio(game):
        search = native_search_of(family, game, options)
        for state, _ in positions(game_id):
            assert search.core.score(search.position(state)) == search.expander.score(state), game_id


# ------------------------------------------------------------------ whole searches


def solved_both_ways(family, state, **options) -> tuple:
    return checks.solved_both_ways(state, FAMILIES[family].native.NativeSearch, **options)


@pytest.mark.parametrize("family, game_id", CASES)
def test_whole_searches_are_pythons(family, game_id):
    needs_native()
    game = sw.load_game(game_id)
    for deal in FAMILIES[family].deals:
        in_c, in_python = solved_both_ways(family, game.deal(deal), max_states=2000)
        assert in_c == in_python, f"{game_id} deal {deal}"


@pytest.mark.parametrize("family", FAMILIES)
def test_stepped_in_odd_chunks_the_searches_agree_step_by_step(family):
    needs_native()
    game = sw.load_game(FAMILIES[family].games[0])
    steps_taken = []
    for deal in FAMILIES[family].deals[:2]:
        in_c, in_python = checks.stepped_both_ways(game.deal(deal), 1200)
        assert in_c == in_python, f"deal {deal}"
        steps_taken.append(len(in_python[0]))
    assert max(steps_taken) > 2 * len(checks.CHUNKS), "the chunk sizes came round"


@pytest.mark.parametrize("family", FAMILIES)
def test_small_tables_and_frontiers_evict_and_trim_alike(family):
    needs_native()
    game = sw.load_game(FAMILIES[family].games[0])
    trimmed = 0
    for deal in FAMILIES[family].deals[:2]:
        for table_size, frontier_size in ((1, BIG), (40, BIG), (BIG, 100), (150, 60), (BIG, 1)):
            in_c, in_python = solved_both_ways(
                family, game.deal(deal), max_states=1500, table_size=table_size, frontier_size=frontier_size
            )
            assert in_c == in_python, f"deal {deal}, table {table_size}, frontier {frontier_size}"
            trimmed += not all(in_c.complete)
    assert trimmed > 0, "some frontier was trimmed"


@pytest.mark.parametrize("family", FAMILIES)
def test_exploring_frontiers_sweep_their_stale_copies_alike(family, monkeypatch):
    # frontier.py's sweep past 25 stale copies, not a million: the draws after each sweep
    # are the same in C
    needs_native()
    monkeypatch.setattr(frontier, "STALE_MOST", 25)
    swept = []
    sweep = Frontier._sweep
    monkeypatch.setattr(Frontier, "_sweep", lambda self: swept.append(sweep(self)))
    game = sw.load_game(FAMILIES[family].games[0])
    exploring = [{**options, "explore": 0.4} for options in portfolio(game)]
    for deal in FAMILIES[family].deals:
        for frontier_size in (BIG, 60):
            in_c, in_python = solved_both_ways(
                family, game.deal(deal), max_states=1500, portfolio=exploring, frontier_size=frontier_size
            )
            assert in_c == in_python, f"deal {deal}, frontier {frontier_size}"
    assert len(swept) > 10, "the frontiers were swept"
    core = native_search_of(family, game, exploring[0]).core
    assert core.stale_most == 25
    with pytest.raises(ValueError, match="stale_most"):
        core.stale_most = -1
    assert core.stale_most == 25


# ------------------------------------------------------------------ where the kernel runs


def test_every_kernel_built_is_tested_here():
    needs_native()
    written = {path.parent.name for path in (ROOT / "solwidget" / "games").glob("*/kernel.c")}
    assert set(native_search.search_core.kernels()) == written == set(FAMILIES)


@pytest.mark.parametrize("family, game_id", CASES)
def test_the_profile_hands_the_portfolio_to_the_kernel_and_inexact_weights_to_python(family, game_id):
    needs_native()
    game = sw.load_game(game_id)
    for options in portfolio(game):
        assert isinstance(compiled(game, options), FAMILIES[family].native.NativeSearch)
        weights = dict.fromkeys(FAMILIES[family].native.NativeSearch.weight_names[:1], 0.1)
        assert compiled(game, {**options, "weights": weights}) is None


def test_the_twister_is_random_Random_0():
    needs_native()
    rng = random.Random(0)
    expected = [x for k in range(1, 3001) for x in (rng.random(), rng.randrange(k))]
    assert native_search.search_core.random(3000) == expected
    assert native_search.search_core.random(0) == []


# ------------------------------------------------------------------ bad input


def core_arguments(family, game) -> list:
    """What NativeSearch passes to search_core.Search for ``game``."""
    search = native_search_of(family, game)
    rules = search.pack_rules(game)
    return [family, rules, (1.0,) * len(search.weight_names), 0.5, 0.0, BIG, BIG]


def bad_constructions(family, game) -> dict:
    """Search(...)'s arguments with one wrong: (the argument's index, its value, the error,
    words of its message)."""
    rules = core_arguments(family, game)[1]
    count = len(FAMILIES[family].native.NativeSearch.weight_names)
    cases = {
        "no such kernel": (0, "no_such_family", ValueError, "search_core: no kernel of the family"),
        "a kernel named by bytes": (0, family.encode(), TypeError, ""),
        "no rules": (1, b"", ValueError, "search_core:"),
        "rules one byte long": (1, rules + b"\x00", ValueError, "search_core:"),
        "rules as text": (1, rules.hex(), TypeError, "must be bytes"),
        "a weight short": (
            2,
            (1.0,) * (count - 1),
            ValueError,
            f"search_core: {count} weights, not {count - 1}",
        ),
        "a weight more": (
            2,
            (1.0,) * (count + 1),
            ValueError,
            f"search_core: {count} weights, not {count + 1}",
        ),
        "a weight as text": (2, ("1",) * count, TypeError, "must be real number"),
        "weights of no sequence": (2, 1.0, TypeError, "search_core: the weights are a sequence of numbers"),
        "a depth weight as text": (3, "0.5", TypeError, ""),
    }
    for size in sorted({1, 4, len(rules) // 2, len(rules) - 1}):
        cases[f"rules cut to {size} bytes"] = (1, rules[:size], ValueError, "search_core:")
    return cases


def bad_positions(search, game) -> dict:
    """Malformed positions (a deal's, packed, then spoilt): (position, the error, words of its
    message)."""
    good = search.position(game.deal(1))
    malformed = "search_core: a malformed position"
    return {
        "one byte short": (good[:-1], ValueError, malformed),
        "one byte more": (good + b"\x00", ValueError, malformed),
        "no bytes": (b"", ValueError, malformed),
        "a bytearray": (bytearray(good), TypeError, "search_core: a position is bytes"),
        "text": (good.hex(), TypeError, "search_core: a position is bytes"),
    }


def bad_moves(family) -> dict:
    """Moves that are no moves of the kernel: (moves, the error, words of its message)."""
    limits = native_search.search_core.limits(family)
    size, most = limits["MOVE_BYTES"], limits["MOST_MOVES"]
    words = f"search_core: moves are bytes, {size} a move, at most {most}"
    cases = {
        "a move and a byte": (bytes(size + 1), ValueError, words),
        "a move too many": (bytes(size * (most + 1)), ValueError, words),
        "text": ("t0 c0", TypeError, "search_core: moves are bytes"),
    }
    if size > 1:
        cases["a byte short of a move"] = (bytes(size - 1), ValueError, words)
    return cases


def test_a_family_without_a_kernel_is_named_in_the_error_given_by_keyword_too():
    needs_native()
    arguments = {
        "rules": b"",
        "weights": (),
        "depth_weight": 0.5,
        "explore": 0.0,
        "table_half": 10,
        "frontier_size": 10,
    }
    for call in (
        lambda: native_search.search_core.Search(family="nope", **arguments),
        lambda: native_search.search_core.Search("nope", *arguments.values()),
    ):
        assert checks.refused(checks.refusal(call), ValueError, "search_core: no kernel of the family 'nope'")


def test_a_search_not_set_up_says_so():
    needs_native()
    core = native_search.search_core.Search.__new__(native_search.search_core.Search)
    for call, args in ((core.seed, (b"", b"")), (core.key, (b"",)), (core.run, (1, 0, 0))):
        assert checks.refused(
            checks.refusal(call, *args), RuntimeError, "search_core: the search was not set up"
        )


@pytest.mark.parametrize("family", FAMILIES)
def test_bad_input_is_refused_clearly_and_the_search_stays_usable(family):
    needs_native()
    game = sw.load_game(FAMILIES[family].games[0])
    checks.assert_constructions_refused(
        native_search.search_core.Search,
        lambda: core_arguments(family, game),
        bad_constructions(family, game),
    )
    search = native_search_of(family, game)
    core, position = search.core, search.position(search.expander.start(game.deal(1))[0])
    checks.assert_positions_refused(core, bad_positions(search, game))
    checks.assert_moves_refused(core, position, bad_moves(family))
    checks.assert_no_such_node(core)
    checks.assert_counts_refused(core)
    checks.assert_pools_refused(core)
    bursts = [1, 30, 300, 1000]
    assert run_search(search, game.deal(1), bursts) == run_search(
        native_search_of(family, game), game.deal(1), bursts
    )
