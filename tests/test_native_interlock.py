"""Interlock's kernel (games/interlock/kernel.c) against the Python search: what
tests/test_kernels.py, which every kernel gets, leaves to the family.

- one expansion, on the positions real searches of several deals expand: the same moves
  (turns and redeals too), child positions, keys and scores, the same keys refused as seen,
  the list ended by a won child; keys of positions whose back piles are shuffled;
- the dead-end test in C, verdict for verdict with DeadEnds (plainly and by splits, with
  the memory of the positions asked before), and on deals dead at their start;
- whole searches with every weight at work and depth weights of no power of two, a lost
  deal proved lost alike, one search at any table and frontier size;
- where native.py hands over to C (a variant restating Interlock's rules too) and where it
  keeps the Python search (a replaced Python function, redeals beyond 32 bits);
- Interlock's rules and positions packed wrong: a clear error, and the search still usable
  after it; an error of a dead-end test called back;
- SOLWIDGET_PURE=1: no C, and the solver's results are the same.
"""

from __future__ import annotations

import functools
import importlib
import math
import random
from pathlib import Path

import native_checks as checks
import pytest
from native_checks import BIG, compiled, portfolio, run_search, search_types

import solwidget as sw
from solwidget.engine.state import State
from solwidget.games.interlock import deadends, native
from solwidget.games.interlock.expander import InterlockExpander
from solwidget.solver.profile import profile_for
from solwidget.solver.result import Progress
from solwidget.solver.search import _Search

ROOT = Path(__file__).resolve().parent.parent
# Every weight of the score at work, fractional (yet exact: multiples of 1/1024); and one
# so small that the score's floor of 0.5 is reached before the end.
FRACTIONAL = {
    "home": 6.5,
    "blockers": 1.25,
    "urgent": 0.75,
    "buried": 0.5,
    "unsorted": 0.375,
    "down": 0.25,
    "empty": 1.5,
    "covered": 2.125,
    "reserve": 0.125,
}
FLOORED = {**FRACTIONAL, "home": 0.25, "covered": 0.0, "empty": 6.0}


def needs_native():
    checks.needs_native(native)


@functools.cache
def game():
    return sw.load_game("interlock")


def native_search():
    return checks.native_search(game())


# ------------------------------------------------------------------ positions


@functools.cache
def searched_positions(deal, expansions=300, game_id="interlock") -> tuple:
    """The positions a Python search of the portfolio expands on this deal, in order, each
    with the moves that led to it."""
    g = sw.load_game(game_id)
    options = portfolio(g)[0]
    expander = profile_for(g).expander(g, options["weights"])
    search = _Search(expander, options["depth_weight"], BIG, BIG, options["explore"])
    start, played = expander.start(g.deal(deal))
    search.seed(start, (None, tuple(played), len(played)))
    seen, scored = [], expander.scored

    def recording(state, came_by, admit):
        seen.append((state, came_by))
        return scored(state, came_by, admit)

    expander.scored = recording
    search.run(expansions, Progress())
    return tuple(seen)


def python_successors(search, state) -> tuple[list, int]:
    """InterlockExpander's successors (no dead-end test) in search_core.successors' terms:
    (moves, child position, score), up to and including the first won child, which
    search_core gives as None; and how many keys were refused as seen before."""
    expander, seen, out, refused = search.expander, set(), [], 0
    for moves, child in expander._settled_moves(state):
        key = expander.key(child)
        if key in seen:
            refused += 1
            continue
        seen.add(key)
        value = expander.score(child)
        won = value == 0.0 and expander.is_won(child)
        out.append((search.encode_moves(moves), None if won else search.encode(child), value))
        if won:
            break
    return out, refused


# ------------------------------------------------------------------ one expansion


@functools.cache
def compared_successors(deal) -> tuple[int, int, int, int]:
    """C's successors against Python's on the positions a search of the deal expands:
    (children, with a bridge, with a turn, keys refused as seen before)."""
    search = native_search()
    core = search.core
    children = bridges = turns = refusals = 0
    for state, came_by in searched_positions(deal):
        expected, refused = python_successors(search, state)
        generated_before = core.generated
        got, asked = core.successors(search.encode(state), search.encode_moves(came_by), dead_ends=False)
        assert got == expected, f"deal {deal}: {state.piles}"
        assert len(asked) == len(expected) + refused  # the same admit calls
        refusals += refused
        assert core.generated == generated_before  # a scratch search: this one untouched
        for moves, child, _ in got:
            decoded = search.decode_moves(moves)
            bridges += any(m.src == "waste" for m in decoded)
            turns += any(m.src == "stock" for m in decoded)
            if child is not None:
                assert core.key(child) == search.key(State(game(), *search.decode(child)))
        children += len(got)
    return children, bridges, turns, refusals


@pytest.mark.parametrize("deal", [3, 4, 8, 11, 12])
def test_successors_are_pythons_move_for_move(deal):
    needs_native()
    children, bridges, turns, _ = compared_successors(deal)
    assert children > 50 and bridges and turns


def test_successors_refused_as_seen_are_asked_alike():
    needs_native()
    assert sum(compared_successors(deal)[3] for deal in (3, 4, 8, 11, 12)) > 0


def test_a_won_child_ends_the_successors():
    needs_native()
    search = native_search()
    line = sw.solve(game().deal(1), max_states=20_000).moves
    state, ended = game().deal(1), 0
    for move in line:
        settled = search.expander.start(state)[0]
        expected, _ = python_successors(search, settled)
        assert search.core.successors(search.encode(settled), b"", dead_ends=False)[0] == expected
        ended += bool(expected) and expected[-1][1] is None
        state = state.play(move)
    assert ended


def test_keys_are_the_python_keys_on_shuffled_positions():
    # uncovered back piles in every order: the key sorts them as keys.backs_uncovered does
    needs_native()
    search, rng = native_search(), random.Random(7)
    g = game()
    backs = [t for t in g.tableau_indices if g.layer[t] == 0]
    for deal in (2, 5):
        for state, _ in searched_positions(deal)[::10]:
            piles = list(state.piles)
            chosen = [piles[t] for t in backs]
            rng.shuffle(chosen)
            for t, pile in zip(backs, chosen):
                piles[t] = pile
            shuffled = State(g, tuple(piles), state.extra)
            assert search.core.key(search.encode(shuffled)) == search.key(shuffled)


# ------------------------------------------------------------------ dead ends


def dead_verdicts(deal, game_id="interlock") -> tuple[int, int, int]:
    """The C test's verdicts against DeadEnds.is_dead's on the positions a search of the deal
    asks about, in its order (the test remembers what it was asked: how many positions it
    left alive, the killer splits, so the splits' verdicts depend on the sequence and both
    sides see the same one): (positions, dead, dead by splits only)."""
    g = sw.load_game(game_id)
    search = checks.native_search(g)
    python = deadends.DeadEnds(g)
    positions = [state for state, _ in searched_positions(deal, 2500, game_id)]
    verdicts = [search.core.dead(search.encode(state)) for state in positions]
    assert verdicts == [python.is_dead(state) for state in positions], deal
    plain = deadends.DeadEnds(g)
    by_splits = sum(
        dead and plain._closure(plain.face_up(state.piles), plain.pair)
        for state, dead in zip(positions, verdicts)
    )
    return len(positions), sum(verdicts), by_splits


@pytest.mark.parametrize("deal", [8, 11, 12, 36, 105])
def test_the_dead_end_test_is_pythons_verdict_for_verdict(deal):
    needs_native()
    positions, _, _ = dead_verdicts(deal)
    assert positions > 100


def test_the_dead_end_test_finds_dead_ends_plainly_and_by_splits():
    needs_native()
    found = [dead_verdicts(deal) for deal in (8, 11, 12)]
    assert sum(dead for _, dead, _ in found) > 20
    assert sum(split for _, _, split in found) > 0


def test_guardian_s_dead_end_test_is_pythons_verdict_for_verdict():
    # an empty back pile takes any card (host splits at the search's start, no other split),
    # face-down cards read face up; deals 118 and 130 are dead at the deal by a host split
    needs_native()
    found = [dead_verdicts(deal, "guardian") for deal in (2, 5, 53)]
    assert all(positions > 100 for positions, _, _ in found)
    assert sum(dead for _, dead, _ in found) > 20
    assert [dead_verdicts(deal, "guardian") for deal in (118, 130)] == [(1, 1, 1)] * 2


def test_love_a_duck_s_dead_end_test_is_pythons_verdict_for_verdict():
    # Kings of its front piles that need the same empty back pile: the King split at work
    needs_native()
    found = [dead_verdicts(deal, "love_a_duck") for deal in (14, 34)]
    assert sum(split for _, _, split in found) > 100
    test = deadends.DeadEnds(sw.load_game("love_a_duck"))
    by_kings = 0
    for state, _ in searched_positions(34, 2500, "love_a_duck"):
        piles, uses = test.face_up(state.piles), bytearray(64)
        start = test._start(piles)
        by_kings += test._closure(piles, test.pair, (), uses, start) and test._kings_lost(piles, uses, start)
    assert by_kings > 100


def test_the_king_split_tried_in_vain_is_tried_only_at_every_scout_th_position(monkeypatch):
    # it fails on PATIENCE positions where Kings might share a back pile, then is tried on
    # every SCOUT-th such position only, until it proves one dead again (before it first
    # does, likewise); the verdict tests above hold C to the same sequence
    test = deadends.DeadEnds(sw.load_game("love_a_duck"))
    tried, cases = [], deadends.king_cases
    monkeypatch.setattr(deadends, "king_cases", lambda *args: tried.append(1) or cases(*args))
    idle = taken_up = 0
    for state, _ in searched_positions(34, 2500, "love_a_duck"):
        missed, sharing = test.kings_missed, test.sharing
        tried.clear()
        test.is_dead(state)
        if test.sharing == sharing:
            assert not tried  # no King shares a back pile: nothing to split
            continue
        patient = missed < deadends.PATIENCE
        assert bool(tried) == (patient or sharing % deadends.SCOUT == 0)
        idle += not tried
        taken_up += not patient and test.kings_missed == 0
    assert idle > 500 and taken_up > 2


def test_a_deal_proved_dead_at_its_start_is_so_in_c():
    needs_native()
    for deal in (13, 24, 26, 30):  # lost at the first expansion (nested splits or plain)
        search = native_search()
        start = search.expander.start(game().deal(deal))[0]
        assert search.core.dead(search.encode(start)) is deadends.DeadEnds(game()).is_dead(start) is True


# ------------------------------------------------------------------ whole searches


def solved_both_ways(state, **options) -> tuple:
    return checks.solved_both_ways(state, native.NativeSearch, **options)


SEARCHES = {
    "default": {},
    "greedy, no exploring": {"portfolio": [{"depth_weight": 0.0, "weights": {"covered": 8.0}}]},
    "every weight at work": {
        "portfolio": [
            {"depth_weight": 0.25, "explore": 0.2, "weights": FRACTIONAL},
            {"depth_weight": 0.75, "weights": FLOORED},
        ]
    },
    "depth weights of no power of two": {
        "portfolio": [{"depth_weight": 1 / 3, "explore": 0.2, "weights": FRACTIONAL}, {"depth_weight": 0.1}]
    },
}


@pytest.mark.parametrize("search", SEARCHES)
def test_whole_searches_are_pythons(search):
    needs_native()
    statuses = checks.statuses_alike(
        game(), range(1, 7), native.NativeSearch, max_states=2500, **SEARCHES[search]
    )
    assert "won" in statuses


def test_a_lost_deal_is_proved_lost_the_same_way():
    needs_native()
    lost = 0
    for deal in (845,):
        in_c, in_python = solved_both_ways(game().deal(deal), max_states=30_000)
        assert in_c == in_python
        lost += in_c.status == "lost"
    assert lost


# ------------------------------------------------------------------ where C runs


def test_the_compiled_search_runs_only_where_it_is_the_same_search():
    needs_native()
    g = game()
    assert isinstance(compiled(g, {"weights": FRACTIONAL, "depth_weight": 1 / 3}), native.NativeSearch)
    for inexact in (
        {"weights": {"covered": 0.1}},
        {"weights": {"home": 2.0**20}},
        {"depth_weight": math.inf},
    ):
        assert compiled(g, inexact) is None, inexact
    assert compiled(g, {}, autoplay=False) is None
    assert compiled(g, {}, compress=False) is None  # InterlockFamilyExpander, with a stock
    for other in ("love_a_duck", "guardian"):  # the general successors, in C
        og = sw.load_game(other)
        expander = profile_for(og).expander(og)
        assert type(expander) is not InterlockExpander
        assert isinstance(
            native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0), native.NativeSearch
        )
        assert compiled(og, {}, autoplay=False) is None
    guardian = sw.load_game("guardian")
    assert compiled(guardian, {}, compress=False) is None  # its turns as moves of their own


def test_a_replaced_python_function_keeps_the_python_search(monkeypatch):
    # tests switch reductions off by replacing what kernel.c writes again: the Python
    # search then runs, and a replaced part of the dead-end test is called back
    needs_native()
    g = game()
    bridges = importlib.import_module("solwidget.games.interlock.bridges")
    keys = importlib.import_module("solwidget.games.interlock.expander")
    for module, name, value in (
        (bridges, "home_bridges", None),
        (keys, "backs_uncovered", lambda game: None),
        (bridges, "_safe_next", lambda game, piles: ()),
    ):
        with monkeypatch.context() as patched:
            patched.setattr(module, name, value)
            assert compiled(g, portfolio(g)[0]) is None, name
    assert isinstance(compiled(g, portfolio(g)[0]), native.NativeSearch)
    with monkeypatch.context() as patched:
        patched.setattr(deadends.DeadEnds, "_lost_both_ways", lambda self, piles, *split: False)
        search = compiled(g, portfolio(g)[0])
        assert isinstance(search, native.NativeSearch)
        assert search.rules(search.expander)[2] == 0, "no dead-end test in C: it is called back"
        assert search.dead_test(search.expander) is not None
        in_c, in_python = solved_both_ways(g.deal(13), max_states=500)
        assert in_c == in_python


@functools.cache
def variant(base="interlock", **changes):
    variant_id = f"native_{base}_" + "_".join(f"{k}_{v}" for k, v in changes.items()).replace(" ", "_")
    return sw.variant(base, id=variant_id, name=variant_id.replace("_", " "), **changes).game()


def test_love_a_duck_is_searched_in_c_as_in_python_won_and_lost():
    # no stock: the kernel's general successors (autoplay's safe moves, the plain key,
    # Yukon groups); deal 713 is lost in a few hundred positions, deals 1 and 3 are won
    needs_native()
    duck = sw.load_game("love_a_duck")
    statuses = set()
    for deal in (1, 3, 713):
        in_c, in_python = solved_both_ways(duck.deal(deal), max_states=30_000)
        assert in_c == in_python
        statuses.add(in_c.status)
    assert statuses == {"won", "lost"}


def test_a_love_a_duck_variant_with_runs_is_searched_in_c_and_one_in_suit_is_not():
    needs_native()
    runs = variant("love_a_duck", moves="runs")
    assert runs.group == "run"
    assert isinstance(compiled(runs, portfolio(runs)[0]), native.NativeSearch)
    for deal in (1, 5):
        in_c, in_python = solved_both_ways(runs.deal(deal), max_states=2000)
        assert in_c == in_python
    in_suit = variant("love_a_duck", build="down in suit")
    assert compiled(in_suit, portfolio(in_suit)[0]) is None


def test_guardian_is_searched_in_c_as_in_python_won_and_lost():
    # a stock by threes walked, face-down cards turned up, any card to an empty back pile,
    # the dead-end test without splits; deals 632 and 448 are won, 240 and 4 lost
    needs_native()
    guardian = sw.load_game("guardian")
    statuses = []
    for deal in (632, 448, 240, 4):
        in_c, in_python = solved_both_ways(guardian.deal(deal), max_states=30_000)
        assert in_c == in_python
        statuses.append(in_c.status)
    assert statuses == ["won", "won", "lost", "lost"]


def test_guardian_variants_are_searched_in_c_only_where_the_kernel_walks_their_stock():
    needs_native()
    same = variant("guardian", draw=3, redeals="unlimited", empty="king")
    assert isinstance(compiled(same, portfolio(same)[0]), native.NativeSearch)
    for deal in (2, 5):
        in_c, in_python = solved_both_ways(same.deal(deal), max_states=2000)
        assert in_c == in_python
    for changes in ({"draw": 1}, {"redeals": 2}):  # a cycle of one card a turn; a redeal count
        other = variant("guardian", **changes)
        assert compiled(other, portfolio(other)[0]) is None, changes


@pytest.mark.parametrize("draw", [2, 4, 5])
def test_turn_dominance_is_pythons_at_every_draw_and_through_evictions(draw):
    # the counts taken kept beside a key for draws of up to four (search.MOST_TURNS), none
    # kept at five; tables of 500 keys evict a generation every 250 positions or so
    needs_native()
    game = variant("guardian", draw=draw)
    assert isinstance(compiled(game, portfolio(game)[0]), native.NativeSearch)
    for deal in (2, 5):
        in_c, in_python = solved_both_ways(game.deal(deal), max_states=3000, table_size=500)
        assert in_c == in_python


def test_a_variant_with_interlocks_rules_takes_the_compiled_search_and_finds_the_same():
    # a variant restating Interlock's rules gets its profile and fast path, so the C search;
    # one that builds down in suit does not (bridges.applies), and keeps the Python search
    needs_native()
    same = variant(draw=1, redeals="unlimited", moves="runs")
    assert isinstance(compiled(same, portfolio(same)[0]), native.NativeSearch)
    for deal in (3, 4):
        in_c, in_python = solved_both_ways(same.deal(deal), max_states=2000)
        assert in_c == in_python
    in_suit = variant(build="down in suit")
    expander = profile_for(in_suit).expander(in_suit)
    assert type(expander) is not InterlockExpander
    assert native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0) is None


@pytest.mark.parametrize("options", [{"weights": {"covered": 0.1}}, {"autoplay": False}])
def test_where_c_cannot_run_the_same_search_python_runs_it(options):
    run = checks.make_solver(game().deal(1), False, max_states=20_000, **options)
    assert search_types(run) == {_Search}
    assert run.solve().status == "won"


@pytest.mark.parametrize("redeals", [2**31 - 1, 2**31, 2**32 + 1, 10**30])
def test_redeals_search_core_cannot_count_are_searched_in_python_alike(redeals):
    # search_core counts the redeals made in 32 bits: it refused more with a bare OverflowError
    needs_native()
    state = game().state_from_dict({**game().deal(1).to_dict(), "redeals": redeals})
    held = redeals < 2**31
    assert search_types(checks.make_solver(state, False)) == ({native.NativeSearch} if held else {_Search})
    runs = checks.solved_both_ways(state, None, max_states=1500)
    assert runs[0] == runs[1] and runs[0].status == "won"


# ------------------------------------------------------------------ bad input


def core_arguments():
    return [
        "interlock",
        native.NativeSearch.pack_rules(game()),
        (8.0, 1.0, 0.5, 0.0, 1.0, 1.0, 8.0, 0.0, 0.0),
        0.5,
        0.3,
        BIG,
        BIG,
        None,
    ]


def test_bad_input_is_refused_clearly_and_the_search_stays_usable():
    needs_native()
    rules = native.NativeSearch.pack_rules(game())
    with_dead_ends = native.NativeSearch(native_search().expander, [1.0] * 9, 0.5, BIG, BIG, 0.0).rules(
        native_search().expander
    )
    assert with_dead_ends[2] == 1, "the dead-end test runs in C"
    twin = len(with_dead_ends) - 11 * 4  # TWIN, the first of the eleven numbers (pack_dead_ends)

    def number(k: int, value: int) -> bytes:  # the tables with their k-th number replaced
        at = twin + 4 * k
        return with_dead_ends[:at] + value.to_bytes(4, "little") + with_dead_ends[at + 4 :]

    size = "interlock rules of the wrong size for their piles"
    constructions = {
        "rules a byte short": (1, rules[:-1], ValueError, size),
        "a pile of no kind": (1, rules[:5] + b"\x07" + rules[6:], ValueError, "malformed layout"),
        "a card on five": (
            1,
            rules[: 5 + 7 * rules[0]] + b"\x01" * 64 + rules[5 + 7 * rules[0] + 64 :],
            ValueError,
            "malformed fits",
        ),
        "the dead-end test neither on nor off": (1, rules[:2] + b"\x02" + rules[3:], ValueError, "on or off"),
        "the dead-end tables left out": (1, rules[:2] + b"\x01" + rules[3:], ValueError, size),
        "successors of no known kind": (1, rules[:3] + b"\x10" + rules[4:], ValueError, "known kind"),
        "bridges that draw three": (1, rules[:4] + b"\x03" + rules[5:], ValueError, "draw one card"),
        "the general successors drawing one": (
            1,
            rules[:3] + bytes([rules[3] | 1]) + rules[4:],
            ValueError,
            "draw one card",
        ),
        "the general successors with no stock to draw from": (
            1,
            rules[:3] + bytes([rules[3] | 1, 0]) + rules[5:],
            ValueError,
            "malformed layout",
        ),
        "a twin of 64": (
            1,
            with_dead_ends[:twin] + b"\x40" + with_dead_ends[twin + 1 :],
            ValueError,
            "malformed dead-end tables",
        ),
        "Kings named five deep": (
            1,
            number(7, 5),
            ValueError,
            "malformed dead-end tables",
        ),
        "Kings named none deep": (
            1,
            number(7, 0),
            ValueError,
            "malformed dead-end tables",
        ),
        "nested killers tried 17 at a time": (1, number(8, 17), ValueError, "malformed dead-end tables"),
        "nested killers found at no interval": (1, number(9, 0), ValueError, "malformed dead-end tables"),
        "dead not callable": (7, 3, TypeError, "dead must be"),
    }
    checks.assert_constructions_refused(native.search_core.Search, core_arguments, constructions)
    search = native_search()
    core = search.core
    position = search.encode(search.expander.start(game().deal(1))[0])
    bad_positions = {
        "too short": (position[:-5], ValueError, "malformed position"),
        "a card 70 on the tableau": (position[:5] + b"\x46" + position[6:], ValueError, "malformed position"),
        "a foundation of no rank": (b"\x0e" + position[1:], ValueError, "malformed position"),
        "a card twice": (position[:5] + position[7:8] + position[6:], ValueError, "malformed position"),
    }
    checks.assert_positions_refused(core, bad_positions)
    bursts = [1, 30, 300]
    assert run_search(search, game().deal(1), bursts) == run_search(native_search(), game().deal(1), bursts)


def test_an_error_in_the_dead_end_test_is_raised_and_the_search_goes_on():
    needs_native()
    search = native_search()
    start, played = search.expander.start(game().deal(3))
    search.seed(start, (None, tuple(played), len(played)))
    calls = []
    is_dead = search.expander.dead_ends.is_dead

    def failing(state):
        calls.append(state)
        if len(calls) == 2:
            raise KeyError("dead-end test failed")
        return is_dead(state)

    core_args = core_arguments()
    core_args[-1] = lambda data: failing(State(game(), *search.decode(data)))
    search.core = native.search_core.Search(*core_args)
    search.seed(start, (None, tuple(played), len(played)))
    with pytest.raises(KeyError):
        search.run(10, Progress())
    done, _ = search.run(10, Progress())
    assert done == 10


@pytest.mark.parametrize("explore", [0.0, 0.3])
@pytest.mark.parametrize("table_size, frontier_size", [(BIG, BIG), (2, BIG), (64, BIG), (BIG, 50), (100, 60)])
def test_one_search_is_pythons_at_any_table_and_frontier_size(table_size, frontier_size, explore):
    needs_native()
    bursts = [1, 2, 50, 3, 200, 11, 500]
    options = {**portfolio(game())[0], "explore": explore}
    for deal in (3, 6):
        in_c, in_python = checks.one_search_both_ways(
            game().deal(deal), options, table_size, frontier_size, bursts
        )
        assert in_c == in_python, (
            f"deal {deal}, table {table_size}, frontier {frontier_size}, explore {explore}"
        )


# ------------------------------------------------------------------ SOLWIDGET_PURE=1

# The solver's results on the first deals and a lost deal (run here, and under
# SOLWIDGET_PURE=1).
RUNS = """
    def runs():
        game = sw.load_game("interlock")
        return [(game, deal, 3000) for deal in (1, 2, 3, 4, 845)]
"""


def test_under_solwidget_pure_python_searches_and_finds_the_same():
    needs_native()
    checks.sampled_pure_and_compiled(RUNS, ROOT)
