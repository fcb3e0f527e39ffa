"""The Interchange family's kernel (games/interchange/kernel.c) against the Python search:
what tests/test_kernels.py, which every kernel gets, leaves to the family, on the games of
the fast path and on variants of their shape.

- one expansion, on positions taken from real searches: the same moves, child positions,
  scores and keys asked, with bridges and cards settled home among them; the same key for
  every position; the same dead-end verdicts (the C test, and the Python one asked from C);
- whole searches with every weight at work and depth weights of no power of two; pooled
  proofs of loss, before and after POOL_AFTER, C and Python searches in one pool, going
  alone (with a table of one key too);
- where native.py hands over to C and where it keeps the Python search (piles longer and
  redeals more than search_core keeps);
- Interchange's rules and positions packed wrong, KeyPools misused: a clear error, and the
  search still usable after it;
- SOLWIDGET_PURE=1: no C, and the solver's results are the same.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import native_checks as checks
import pytest
from native_checks import (
    BIG,
    c_successors,
    compiled,
    make_solver,
    native_search,
    outcome,
    portfolio,
    python_successors,
    refusal,
    refused,
    run_search,
    search_types,
    solved_both_ways,
)

import solwidget as sw
from solwidget.games.interchange import native
from solwidget.games.interchange.expander import InterchangeExpander
from solwidget.games.interchange.profile import InterchangeProfile
from solwidget.solver import search as search_module
from solwidget.solver.profile import profile_for
from solwidget.solver.result import Progress
from solwidget.solver.search import _Search

ROOT = Path(__file__).resolve().parent.parent
FAMILY = ("triple_interchange", "quadruple_interchange")
# Variants of the fast path's shape (expander.fast_path), so run by kernel.c too.
VARIANTS = {
    "native_ti_two_decks": ("triple_interchange", {"decks": 2, "piles": 7}),
    "native_ti_four_decks": ("triple_interchange", {"decks": 4, "piles": 9}),
}
GAMES = FAMILY + tuple(VARIANTS)
# Interchange's one pass and a variant with two redeals: the general successors, in C too
# (kernel.c's ``limit``); and one that turns three cards, which stays in Python.
VARIANTS |= {
    "native_two_redeals": ("interchange", {"redeals": 2}),
    "native_one_pass_draw_three": ("interchange", {"draw": 3}),
}
ONE_PASS = ("interchange", "native_two_redeals")
# Every weight the score reads at work, fractional (yet exact: multiples of 1/1024).
FRACTIONAL = {
    "home": 6.5,
    "blockers": 1.25,
    "urgent": 0.75,
    "buried": 0.5,
    "down": 2.375,
    "empty": 1.5,
    "reserve": 0.125,
    "unsorted": 0.375,
}


def needs_native():
    checks.needs_native(native)


@functools.cache
def load(game_id):
    return checks.load_variant(game_id, VARIANTS)


def python_dead_ends(search) -> native.NativeSearch:
    """A NativeSearch like ``search`` whose dead-end test is the expander's, in Python."""
    core = native.NativeSearch.__new__(native.NativeSearch)
    native.NativeSearch.__init__(
        core,
        search.expander,
        [8.0, 3.0, 0.5, 0.0, 6.0, 1.0, 0.0, 0.0],
        0.5,
        BIG,
        BIG,
        0.0,
        python_dead_ends=True,
    )
    return core


# ------------------------------------------------------------------ positions


@functools.cache
def searched_positions(game_id, deal, expansions=400) -> tuple:
    """The positions a Python search of the deal holds after some expansions (settled, as
    every position the search expands), and the expander it ran with."""
    game = load(game_id)
    options = portfolio(game)[0]
    expander = profile_for(game).expander(game, options.get("weights"))
    search = _Search(expander, options.get("depth_weight", 0.5), BIG, BIG)
    start, played = expander.start(game.deal(deal))
    search.seed(start, (None, tuple(played), len(played)))
    search.run(expansions, Progress())
    return expander, tuple(entry[2] for entry in search.frontier.entries())


@pytest.mark.parametrize("game_id", GAMES)
def test_successors_and_keys_asked_are_pythons_move_for_move(game_id):
    needs_native()
    game = load(game_id)
    counted = {"positions": 0, "children": 0, "refused": 0, "bridges": 0, "settled": 0}
    for deal, options in (
        (1, None),
        (2, None),
        (3, None),
        (1, {"depth_weight": 0.25, "weights": FRACTIONAL}),
    ):
        _expander, states = searched_positions(game_id, deal)
        search = native_search(game, options)
        for state in states[:120]:
            position = search.encode(state)
            assert native.decode(game, position) == state
            children, asked = c_successors(search, position)
            expected, keys = python_successors(search, state, ())
            # the same children (their keys admitted in this order) and the same keys refused
            assert (children, asked) == (expected, keys), f"{game_id}: position {position.hex()}"
            counted["positions"] += 1
            counted["children"] += len(children)
            counted["refused"] += len(keys) - len(set(keys))
            counted["bridges"] += sum(moves[0].src == "stock" for moves, _, _ in children)
            counted["settled"] += sum(
                any(m.dst.startswith("f") for m in moves[1:]) for moves, _, _ in children
            )
    assert all(counted.values()), counted


@pytest.mark.parametrize("game_id", GAMES)
def test_keys_and_dead_ends_are_pythons(game_id):
    needs_native()
    game = load(game_id)
    search = native_search(game)
    seen, dead = 0, 0
    deals = (1, 2, 3, 4, 5, 54, 324) if game_id == "triple_interchange" else (1, 2, 3, 4, 5)  # 54, 324: lost
    for deal in deals:
        expander, states = searched_positions(game_id, deal)
        for state in states:
            position = search.encode(state)
            assert search.core.key(position) == expander.key(state)
            verdict = expander.dead_ends.is_dead(state)
            assert search.core.dead(position) == verdict, f"{game_id}: position {position.hex()}"
            seen += 1
            dead += verdict
    assert seen > 1000
    assert dead > 0 or game_id != "triple_interchange", "some position was dead"


def test_the_python_dead_end_test_asked_from_c_gives_the_same_successors():
    needs_native()
    game = load("triple_interchange")
    search = native_search(game)
    asking = python_dead_ends(search)
    for deal in (1, 2):
        for state in searched_positions("triple_interchange", deal)[1][:80]:
            position = search.encode(state)
            assert asking.core.successors(position) == search.core.successors(position)


@pytest.mark.parametrize("game_id", ONE_PASS)
def test_the_general_successors_keys_and_dead_ends_are_pythons(game_id):
    # no bridges: the waste's card as any card, its plays after turns (and after a redeal,
    # while one is left), the plain key; rule S's dead ends once no redeal is left (deals
    # 49, 71 and 74 are open at the deal; most deals are lost there)
    needs_native()
    game = load(game_id)
    search = native_search(game)
    counted = {"positions": 0, "children": 0, "turned": 0, "redealt": 0, "dead": 0}
    for deal in (49, 71, 74):
        expander, states = searched_positions(game_id, deal)
        for state in states[:150]:
            position = search.encode(state)
            assert search.core.key(position) == expander.key(state)
            verdict = expander.dead_ends.is_dead(state)
            assert search.core.dead(position) == verdict, f"{game_id}: position {position.hex()}"
            children, asked = c_successors(search, position)
            assert (children, asked) == python_successors(search, state, ()), f"{game_id}: {position.hex()}"
            counted["positions"] += 1
            counted["children"] += len(children)
            counted["turned"] += sum(moves[0].src == "stock" for moves, _, _ in children)
            counted["redealt"] += sum(any(m.dst == "stock" for m in moves) for moves, _, _ in children)
            counted["dead"] += verdict
    if game_id == "interchange":
        del counted["redealt"]  # none left
    assert all(counted.values()), counted


@pytest.mark.parametrize("game_id", ONE_PASS)
def test_one_pass_searches_are_pythons_lost_and_open(game_id):
    needs_native()
    game = load(game_id)
    statuses = []
    for deal in (1, 5, 49, 71, 74):  # 1 (5 with two redeals) lost at the deal, the others open
        in_c, in_python = solved_both_ways(game.deal(deal), native.NativeSearch, max_states=3000)
        assert in_c == in_python
        statuses.append(in_c.status)
    assert "lost" in statuses and "unknown" in statuses


# ------------------------------------------------------------------ whole searches


SEARCHES = checks.searches(FRACTIONAL, FRACTIONAL)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("search", SEARCHES)
def test_whole_searches_are_pythons(game_id, search):
    needs_native()
    statuses = checks.statuses_alike(
        load(game_id), range(1, 5), native.NativeSearch, max_states=1500, **SEARCHES[search]
    )
    assert "won" in statuses


@pytest.mark.parametrize("deal, states", [(54, 2000), (324, 3000), (595, 12000)])
def test_pooled_proofs_are_pythons(deal, states):
    # 54 and 324 are proved lost before POOL_AFTER, 595 searched past it: there a search
    # skips the positions the other expanded
    needs_native()
    in_c, in_python = solved_both_ways(
        load("triple_interchange").deal(deal), native.NativeSearch, max_states=states
    )
    assert in_c == in_python
    if deal != 595:
        assert in_c.status == "lost"
    else:
        assert in_c.expanded > search_module.POOL_AFTER and sum(in_c.skipped) > 0, "positions were skipped"


def test_going_alone_is_pythons(monkeypatch):
    # past alone_after the first search goes on alone with what it skipped (twins: it skips)
    needs_native()
    monkeypatch.setattr(search_module, "POOL_AFTER", 300)
    game = load("triple_interchange")
    monkeypatch.setattr(profile_for(game), "alone_after", 2000)
    twins = search_module.default_portfolio(game)[:1] * 2
    for deal, searches in ((785, twins), (595, None)):
        in_c, in_python = solved_both_ways(
            game.deal(deal), native.NativeSearch, max_states=20_000, portfolio=searches
        )
        assert in_c == in_python, deal
        assert in_c.status == "lost" and in_c.expanded > 2000


def test_c_and_python_searches_pool_one_proof():
    # the portfolio's exploring search left to Python: both add to the same KeyPools
    needs_native()
    game = load("triple_interchange")
    for deal, states in ((324, 3000), (595, 12000)):
        with pytest.MonkeyPatch.context() as patch:

            def native_unless_exploring(
                self, x, w, d, t, f, explore, compiled=InterchangeProfile.compiled_search
            ):
                return None if explore else compiled(self, x, w, d, t, f, explore)

            patch.setattr(InterchangeProfile, "compiled_search", native_unless_exploring)
            mixed = sw.Solver(game.deal(deal), max_states=states)
        assert [type(s) for s in mixed._searches] == [native.NativeSearch, _Search]
        mixed.solve()
        in_python = make_solver(game.deal(deal), True, max_states=states)
        in_python.solve()
        assert outcome(mixed) == outcome(in_python)
        assert outcome(mixed).status == "lost"


def test_the_key_pool_is_a_set_of_bytes_keys():
    needs_native()
    keys, plain = native.search_core.KeyPool(), set()
    for k in range(3000):
        key = bytes([k % 251]) * (k % 200)
        assert (key in keys) == (key in plain)
        keys.add(key)
        plain.add(key)
        assert len(keys) == len(plain)
    assert all(key in keys for key in plain) and b"\xff" not in keys


# ------------------------------------------------------------------ where C runs


def test_the_compiled_search_runs_only_where_it_is_the_same_search():
    needs_native()
    for game_id in GAMES:
        game = load(game_id)
        for options in portfolio(game):
            assert isinstance(compiled(game, options), native.NativeSearch), game_id
    triple = load("triple_interchange")
    exact_sums = {
        "weights": {"down": 3 / 1024, "home": 2.0**19, "cells": 0.1, "covered": 0.1},
        "depth_weight": 1 / 3,
    }  # cells and covered: read of no pile here
    assert isinstance(compiled(triple, exact_sums), native.NativeSearch)
    for inexact in (
        {"weights": {"down": 0.1}},
        {"weights": {"home": 2.0**20}},
        {"depth_weight": math.inf},
        {"weights": {"unsorted": 0.1}},
        {"weights": {"reserve": 1 / 2048}},
    ):
        assert compiled(triple, inexact) is None, inexact
    assert compiled(triple, {}, autoplay=False) is None
    assert compiled(triple, {}, compress=False) is None
    kings = sw.variant(
        "triple_interchange", id="native_ti_kings", name="native ti kings", empty="king"
    ).game()
    for game in (load("unlimited"), load("single_interchange"), kings):  # the bridges hold
        expander = profile_for(game).expander(game)
        assert isinstance(
            native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0), native.NativeSearch
        )
    for game_id in ONE_PASS:  # no bridges: the general successors, in C
        game = load(game_id)
        expander = profile_for(game).expander(game)
        assert type(expander) is not InterchangeExpander
        assert isinstance(
            native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0), native.NativeSearch
        )
        assert compiled(game, {}, compress=False) is None, game_id  # its turns as moves
    nothing = sw.variant(
        "triple_interchange", id="native_ti_none", name="native ti none", empty="none"
    ).game()
    for game in (nothing, load("native_one_pass_draw_three")):  # no dead ends; three a turn
        expander = profile_for(game).expander(game)
        assert type(expander) is not InterchangeExpander
        assert native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0) is None, game.id


@pytest.mark.parametrize(
    "options", [{"weights": {"down": 0.1}}, {"autoplay": False}, {"compress_stock": False}]
)
def test_where_c_cannot_run_the_same_search_python_runs_it(options):
    run = make_solver(load("triple_interchange").deal(1), False, max_states=300, **options)
    assert search_types(run) == {_Search}
    run.solve()


def with_a_long_pile(game, cards):
    """Deal 1 of ``game`` with its first tableau pile made ``cards`` long by the bottom cards
    of the others, each pile's top still as dealt (face up): a position the rules accept."""
    position = game.deal(1).to_dict()
    first, *others = (game.pile_ids[t] for t in game.tableau_indices)
    piles = position["piles"]
    for pid in others:
        while len(piles[pid]) > 1 and len(piles[first]) < cards:
            piles[first].insert(0, piles[pid].pop(0))
    state = game.state_from_dict(position)
    assert len(state.piles[game.tableau_indices[0]]) == cards
    return state


@pytest.mark.parametrize(
    "game_id, cards",
    [
        ("quadruple_interchange", 51),
        ("quadruple_interchange", 52),
        ("quadruple_interchange", 63),
        ("quadruple_interchange", 70),
        ("triple_interchange", 60),
    ],
)
def test_a_pile_longer_than_search_core_keeps_is_searched_in_python_alike(game_id, cards):
    # search_core keeps MAX_PILE (64) cards a pile: a pile may grow by a run of 13 (King to
    # Ace) on its top, so from 52 cards on the Python search runs (where search_core refused
    # the start or failed in the search)
    needs_native()
    game = load(game_id)
    state = with_a_long_pile(game, cards)
    assert native.longest_run(game) == 13
    holds = cards + 13 <= native.search_core.limits("interchange")["MAX_PILE"]
    assert search_types(make_solver(state, False)) == ({native.NativeSearch} if holds else {_Search})
    runs = solved_both_ways(state, None, max_states=3000)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("redeals", [2**31 - 1, 2**31, 2**32 + 1, 10**30])
def test_redeals_search_core_cannot_count_are_searched_in_python_alike(redeals):
    needs_native()
    game = load("triple_interchange")
    state = game.state_from_dict({**game.deal(1).to_dict(), "redeals": redeals})
    held = redeals < 2**31
    assert search_types(make_solver(state, False)) == ({native.NativeSearch} if held else {_Search})
    runs = solved_both_ways(state, None, max_states=1500)
    assert runs[0] == runs[1] and runs[0].status == "won"


def test_a_table_of_one_key_goes_alone_as_in_python(monkeypatch):
    # going alone hands search_core a table of table_size keys: one was refused (a bare
    # ValueError once the portfolio went alone) where Python evicts at every key
    needs_native()
    game = load("triple_interchange")
    monkeypatch.setattr(profile_for(game), "alone_after", 1000)
    in_c, in_python = solved_both_ways(game.deal(1), native.NativeSearch, max_states=2000, table_size=1)
    assert in_c == in_python and in_c.expanded == 2000


# ------------------------------------------------------------------ bad input


def core_arguments(game) -> list:
    """What NativeSearch passes to search_core.Search for ``game``."""
    weights = (8.0, 3.0, 0.5, 0.0, 6.0, 1.0, 0.0, 0.0)
    return ["interchange", native.pack_rules(game), weights, 0.5, 0.0, BIG, BIG, None]


def rules_with(
    game, head: dict[int, int] | None = None, fits_on: dict[int, bytes] | None = None, cut: int = 0
):
    """pack_rules(game) with header bytes (``head``: by index) and cards' hosts (``fits_on``:
    by card, their bytes) changed, and ``cut`` bytes cut off its end."""
    rules = bytearray(native.pack_rules(game))
    for at, value in (head or {}).items():
        rules[at] = value
    hosts, at = [], 5
    for _card in range(128):
        hosts.append(bytes(rules[at : at + 1 + rules[at]]))
        at += 1 + rules[at]
    for card, cards in (fits_on or {}).items():
        hosts[card] = bytes([len(cards)]) + cards
    rest = bytes(rules[at:])
    packed = bytes(rules[:5]) + b"".join(hosts) + rest
    return packed[: len(packed) - cut]


def bad_constructions(game) -> dict:
    """Search(...)'s arguments with one wrong: (the argument's index, its value, the error,
    words of its message)."""
    size = "interchange rules of the wrong size"
    return {
        "no foundations": (1, rules_with(game, {0: 0}), ValueError, "foundations and tableau"),
        "40 piles": (1, rules_with(game, {1: 40}), ValueError, "foundations and tableau"),
        "a face-down card fitting": (
            1,
            rules_with(game, fits_on={0: bytes([65])}),
            ValueError,
            "face-up cards",
        ),
        "64 cards fitting": (
            1,
            rules_with(game, fits_on={0: bytes(range(64))}),
            ValueError,
            "fewer than 64 cards",
        ),
        "builds one short": (1, rules_with(game, cut=1), ValueError, size),
        "cut in the hosts": (1, native.pack_rules(game)[:41], ValueError, "cut short"),  # between two cards
        "a key too long": (1, rules_with(game, {3: 250}), ValueError, "255 bytes"),
        "a plain key too long": (1, rules_with(load("interchange"), {3: 238}), ValueError, "255 bytes"),
    }


def bad_positions(game, search) -> dict:
    """Positions of the right size but malformed cards (a deal's position, encoded, then
    spoilt): (position, the error, words of its message)."""
    good = search.encode(game.deal(1))
    malformed = "search_core: a malformed position"
    a_card_of_0 = bytearray(good)
    a_card_of_0[len(game.foundation_indices) + 1] = 0  # the first tableau pile's bottom card
    a_foundation_of_64 = bytes([64]) + good[1:]
    thirteen_cards_more = bytes([13]) + good[1:]  # a King home: the Ace to it
    return {
        "a card of rank 0": (bytes(a_card_of_0), ValueError, malformed),
        "a foundation of 64": (a_foundation_of_64, ValueError, malformed),
        "thirteen cards more": (thirteen_cards_more, ValueError, malformed),
    }


def test_bad_input_is_refused_clearly_and_the_search_stays_usable():
    needs_native()
    game = load("triple_interchange")
    checks.assert_constructions_refused(
        native.search_core.Search, lambda: core_arguments(game), bad_constructions(game)
    )
    search = native_search(game)
    core, position = search.core, search.encode(search.expander.start(game.deal(1))[0])
    checks.assert_positions_refused(core, bad_positions(game, search))
    keys = native.search_core.KeyPool()
    assert refused(refusal(keys.add, "key"), TypeError, "a key is bytes")
    assert refused(refusal(keys.add, bytes(65536)), ValueError, "a key longer than it keeps")
    assert refused(refusal(keys.__contains__, 1), TypeError, "a key is bytes")
    arguments = core_arguments(game)
    arguments[-1] = lambda position: 1 / 0  # a dead-end test that fails: its error comes out
    failing = native.search_core.Search(*arguments)
    failing.seed(position, b"", 0)
    assert type(refusal(failing.run, 5, 0, 8000)) is ZeroDivisionError
    assert failing.key(position) == search.expander.key(search.expander.start(game.deal(1))[0])
    bursts = [1, 30, 300, 1000]
    assert run_search(search, game.deal(1), bursts) == run_search(native_search(game), game.deal(1), bursts)


# ------------------------------------------------------------------ SOLWIDGET_PURE=1

# The solver's results on the family's first deals and a lost deal (run here, and under
# SOLWIDGET_PURE=1).
RUNS = """
    def runs():
        deals = [("triple_interchange", 1), ("triple_interchange", 2), ("triple_interchange", 54),
                 ("quadruple_interchange", 1)]
        return [(sw.load_game(game_id), deal, 1500) for game_id, deal in deals]
"""


def test_under_solwidget_pure_python_searches_and_finds_the_same():
    needs_native()
    _, mine = checks.sampled_pure_and_compiled(RUNS, ROOT)
    assert {row[2] for row in mine["seen"]} >= {"won", "lost"}
