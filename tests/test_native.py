"""The FreeCell family's kernel (games/freecell/kernel.c) against the Python search: what
tests/test_kernels.py, which every kernel gets, leaves to the family.

kernel.c is a second writing of ``CellsExpander``'s successors, keys and scores, and
native.py runs it in their place only where it is the very same search. These tests compare
them on the family's games and on variants of their shape (other cell counts, builds and
piles):

- one expansion: the same moves, child positions and scores, in the same order, on both
  sides the undo of the last move skipped, a second move to one position refused, and the
  list ended by a won child;
- keys: equal in C exactly when Python's are (the order of tableau piles and of cells aside);
- whole searches: the same expansions, positions generated, frontier, best line and result,
  at the portfolio's searches, with exploration, with every weight at work, run a step at
  a time, and with tables and frontiers so small that they evict and trim (down to none);
- where native.py hands over to C (exact weights, a finite depth weight, autoplay, the
  family's shape) and where it keeps the Python search;
- rules packed wrong (kinds of piles out of their runs, too many piles, two decks, ...): a
  clear error;
- SOLWIDGET_PURE=1: no C, and the solver's results are the same.
"""

from __future__ import annotations

import functools
import math
import random
from pathlib import Path

import native_checks as checks
import pytest
from native_checks import (
    BIG,
    compiled,
    native_search,
    portfolio,
    search_types,
    solved_both_ways,
    walk,
    words,
)

import solwidget as sw
from solwidget.engine.moves import Move
from solwidget.engine.state import State
from solwidget.games.freecell import native
from solwidget.games.freecell.expander import CellsExpander
from solwidget.games.freecell.moves import fits
from solwidget.solver.profile import profile_for
from solwidget.solver.search import _Search

ROOT = Path(__file__).resolve().parent.parent
FAMILY = ("freecell", "reversed_solitaire", "inverted_freecell")
# Variants of the family's shape (moves.fits), so run by search_core too: Baker's Game with
# three cells is won on some of its first deals and proved lost on others.
VARIANTS = {
    "native_two_cells": ("freecell", {"cells": 2}),
    "native_six_cells": ("freecell", {"cells": 6}),
    "native_bakers_three_cells": ("freecell", {"build": "down in suit", "cells": 3}),
    "native_reversed_ten_piles": ("reversed_solitaire", {"piles": 10, "cells": 3}),
    "native_inverted_any_suit": ("inverted_freecell", {"build": "up regardless of suit", "cells": 5}),
}
GAMES = FAMILY + tuple(VARIANTS)
# Every weight of the score at work, fractional (yet exact: multiples of 1/1024); and with
# empty piles prized so much that the score's floor of 0.5 is reached before the end.
FRACTIONAL = {
    "home": 6.5,
    "blockers": 1.25,
    "urgent": 0.75,
    "buried": 0.5,
    "unsorted": 0.375,
    "cells": 0.625,
    "empty": 1.5,
}
FLOORED = {**FRACTIONAL, "home": 0.25, "empty": 6.0}
FLOOR_DEALS = (1, 2, 3, 7)  # their walks and wins reach children scored at the floor, every game


def needs_native():
    checks.needs_native(native)


@functools.cache
def load(game_id):
    return checks.load_variant(game_id, VARIANTS)


# ------------------------------------------------------------------ positions


@functools.cache
def winning_moves(game, deal) -> tuple:
    """A win of the deal that the solver finds (none if it finds none)."""
    return tuple(sw.solve(game.deal(deal), max_states=20_000).moves)


def winning_line(game, deal):
    """(position, the move that led to it) along a win of the deal."""
    state = game.deal(deal)
    for move in winning_moves(game, deal):
        state = state.play(move)
        yield state, move


def positions(game, expander, deals=(1, 2, 3), steps=80):
    """Settled positions as the search holds them, each with the moves that led to it:
    along random walks, and along a winning line, whose last positions have a won child."""
    for deal in deals:
        for state, move in [*walk(game, deal, steps), *winning_line(game, deal)]:
            settled, played = expander.start(state)
            yield settled, (move, *played)


def shuffled(game, piles, rng) -> tuple:
    """The same position with its tableau piles, and its cells, in another order."""
    piles = list(piles)
    for ids in (game.tableau_indices, game.cell_indices):
        chosen = [piles[i] for i in ids]
        rng.shuffle(chosen)
        for i, pile in zip(ids, chosen):
            piles[i] = pile
    return tuple(piles)


def tops_swapped(game, piles, rng) -> tuple:
    """Another position, close to this one: the top cards of two piles traded."""
    held = [i for i in game.tableau_indices + game.cell_indices if piles[i]]
    if len(held) < 2:
        return tuple(piles)
    a, b = rng.sample(held, 2)
    piles = list(piles)
    piles[a], piles[b] = piles[a][:-1] + piles[b][-1:], piles[b][:-1] + piles[a][-1:]
    return tuple(piles)


# ------------------------------------------------------------------ one expansion


def python_successors(search, state, came_by) -> tuple[list, int]:
    """CellsExpander.scored's successors in search_core.successors' terms, its moves as the
    kernel's (checks.python_successors), and how many children were refused for a key seen
    before: search_core.successors admits each key once, as a fresh transposition table
    does (two moves may reach one position, once both have sent their cards home)."""
    out, asked = checks.python_successors(search, state, came_by, encoded=True)
    return out, len(asked) - len(set(asked))


def undone_by_first(game, successors) -> tuple:
    """A move whose undo is the first successor's move, if that is a single move: came by
    it, the search skips that successor."""
    if not successors or len(successors[0][0]) != 3:
        return ()
    src, dst, n = successors[0][0]
    return (Move(game.pile_ids[dst], game.pile_ids[src], n),)


@pytest.mark.parametrize("game_id", GAMES)
def test_successors_are_pythons_move_for_move(game_id):
    needs_native()
    game = load(game_id)
    undone = won = floored = 0
    for options in (*portfolio(game), {"weights": FLOORED}):
        search = native_search(game, options)
        for state, came_by in positions(game, search.expander, deals=FLOOR_DEALS):
            position = search.encode(state.piles)
            every = search.core.successors(position, b"")[0]
            assert every == python_successors(search, state, ())[0], f"{game_id}: position {position.hex()}"
            won += any(child is None for _, child, _ in every)
            floored += any(score == 0.5 for _, _, score in every)
            for came in (came_by, came_by[:1], undone_by_first(game, every)):
                in_c = search.core.successors(position, search.encode_moves(came))[0]
                assert in_c == python_successors(search, state, came)[0], (
                    f"{game_id}: position {position.hex()}, came by {words(came)}"
                )
                undone += len(in_c) < len(every)
    assert undone > 0, "the undo of the last move was skipped somewhere"
    assert won > 0, "some position had a won child"
    assert floored > 0, "some child's score was the floor"


def test_two_moves_to_one_position_make_one_child():
    # as in the search, whose table refuses a key seen before
    needs_native()
    game = load("freecell")
    search = native_search(game)
    found = 0
    for state, _ in positions(game, search.expander):
        in_python, refused = python_successors(search, state, ())
        if refused:
            found += 1
            in_c, asked = search.core.successors(search.encode(state.piles), b"")
            assert in_c == in_python and len(asked) == len(in_python) + refused
    assert found > 0, "some position has two moves to one position"


# ------------------------------------------------------------------ keys


@pytest.mark.parametrize("game_id", GAMES)
def test_keys_are_equal_exactly_when_pythons_are(game_id):
    needs_native()
    game = load(game_id)
    search = native_search(game)
    rng = random.Random(game_id)
    pool = []
    for deal in range(1, 6):
        for state, _ in walk(game, deal, 80):
            piles = tuple(map(bytes, state.piles))
            settled = search.expander.start(State(game, piles, ()))[0].piles
            pool += [
                piles,
                settled,
                shuffled(game, piles, rng),
                shuffled(game, settled, rng),
                tops_swapped(game, piles, rng),
            ]
    python_keys = [search.expander.key(State(game, piles, ())) for piles in pool]
    c_keys = [search.core.key(search.encode(piles)) for piles in pool]
    pairs = set(zip(python_keys, c_keys))
    assert len(set(python_keys)) == len(pairs) == len(set(c_keys)), "the same pairs of positions share a key"
    assert len(set(pool)) > len(pairs) > 100, "the pool holds many keys, each of several positions"


# ------------------------------------------------------------------ whole searches


SEARCHES = {
    **checks.searches(FRACTIONAL, FLOORED),
    "one exploring search": {
        "portfolio": [{"depth_weight": 0.5, "explore": 0.3, "weights": {"urgent": 2.0, "cells": 1.0}}]
    },
}


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("search", SEARCHES)
def test_whole_searches_are_pythons(game_id, search):
    needs_native()
    statuses = checks.statuses_alike(
        load(game_id), range(1, 6), native.NativeSearch, max_states=2500, **SEARCHES[search]
    )
    assert "won" in statuses


@pytest.mark.parametrize("game_id", ["native_two_cells", "native_bakers_three_cells"])
def test_small_tables_and_frontiers_evict_and_trim_alike(game_id):
    needs_native()
    game = load(game_id)
    trimmed = 0
    for deal in (1, 2, 3):
        for table_size, frontier_size in ((1, BIG), (40, BIG), (BIG, 300), (150, 200)):
            in_c, in_python = solved_both_ways(
                game.deal(deal),
                native.NativeSearch,
                max_states=2500,
                table_size=table_size,
                frontier_size=frontier_size,
            )
            assert in_c == in_python, f"{game_id} deal {deal}, table {table_size}, frontier {frontier_size}"
            trimmed += not all(in_c.complete)
    assert trimmed > 0, "some frontier was trimmed"


def single_successor_position(game):
    """A position from which the search has one move to make (the first along the walks)."""
    expander = profile_for(game).expander(game)
    for deal in range(1, 20):
        for state, _ in walk(game, deal, 150):
            if len(list(expander.expand(expander.start(state)[0]))) == 1:
                return state
    raise AssertionError("no position with a single successor along the walks")


def test_a_frontier_of_no_positions_is_trimmed_alike():
    # frontier_size=1: a search trims its frontier to 1 // 2 = 0 positions once it holds two,
    # and at the end of a turn the one holding most keeps half while they hold more than one
    needs_native()
    state = single_successor_position(load("freecell"))
    in_c, in_python = solved_both_ways(state, native.NativeSearch, max_states=500, frontier_size=1)
    assert in_c == in_python
    assert not all(in_c.complete), "a frontier was trimmed"


@pytest.mark.parametrize("explore", [0.0, 0.3])
@pytest.mark.parametrize(
    "table_size, frontier_size", [(BIG, BIG), (2, BIG), (64, BIG), (BIG, 1), (BIG, 50), (100, 60)]
)
def test_one_search_is_pythons_at_any_table_and_frontier_size(table_size, frontier_size, explore):
    needs_native()
    bursts = [1, 2, 50, 3, 200, 11, 500]
    for game_id in FAMILY:
        game = load(game_id)
        options = {**portfolio(game)[1], "explore": explore}
        for deal in (1, 2):
            in_c, in_python = checks.one_search_both_ways(
                game.deal(deal), options, table_size, frontier_size, bursts
            )
            assert in_c == in_python, (
                f"{game_id} deal {deal}, table {table_size}, frontier {frontier_size}, explore {explore}"
            )


def test_the_small_sizes_above_change_the_compiled_search():
    needs_native()
    unbounded, evicting, trimming = checks.bounded_runs(load("freecell"))
    assert evicting[-1].waiting > unbounded[-1].waiting, "positions of evicted keys are admitted again"
    assert unbounded[-1].complete and not trimming[-1].complete, "a trimmed search is no longer complete"


# ------------------------------------------------------------------ where C runs


def test_the_compiled_search_runs_only_where_it_is_the_same_search():
    needs_native()
    for game_id in GAMES:
        game = load(game_id)
        assert fits(game)
        for options in portfolio(game):
            assert isinstance(compiled(game, options), native.NativeSearch), game_id
    freecell = load("freecell")
    # "down" is no weight of this score: inexact, it is no bar
    exact_sums = {"weights": {"cells": 3 / 1024, "home": 2.0**19, "down": 0.1}, "depth_weight": 1 / 3}
    assert isinstance(compiled(freecell, exact_sums), native.NativeSearch)
    for inexact in (
        {"weights": {"cells": 0.1}},
        {"weights": {"home": 2.0**20}},
        {"depth_weight": math.inf},
        {"depth_weight": math.nan},
    ):
        assert compiled(freecell, inexact) is None, inexact
    assert compiled(freecell, {}, autoplay=False) is None
    for changes in ({"cells": 0}, {"moves": "one card"}, {"empty": "king"}):
        game_id = "native_not_fitting_" + "_".join(map(str, changes.values())).replace(" ", "_")
        game = sw.variant("freecell", id=game_id, name=game_id, **changes).game()
        expander = profile_for(game).expander(game)
        assert not fits(game) and type(expander) is not CellsExpander
        assert native.NativeSearch.compiled_search(expander, None, 0.5, BIG, BIG, 0.0) is None, changes


@pytest.mark.parametrize("options", [{"weights": {"cells": 0.1}}, {"autoplay": False}])
def test_where_c_cannot_run_the_same_search_python_runs_it(options):
    run = checks.make_solver(load("freecell").deal(1), False, max_states=20_000, **options)
    assert search_types(run) == {_Search}
    assert run.solve().status == "won"


# ------------------------------------------------------------------ bad input


def rules_with(game, **changes) -> bytes:
    """pack_rules(game), with ``changes``: header bytes by index (``at_<i>``) or pile kinds
    (``kinds``: {pile: kind})."""
    rules = bytearray(native.pack_rules(game))
    for index, kind in changes.pop("kinds", {}).items():
        rules[4 + index] = kind
    for name, value in changes.items():
        rules[int(name.removeprefix("at_"))] = value
    return bytes(rules)


def bad_rules(game) -> dict:
    """Rules packed wrong: (rules, words of the ValueError's message)."""
    run = "search_core: each kind of pile must be one run"
    one_deck = "search_core: one deck, foundations building by one"
    size = "search_core: freecell rules of the wrong size for their piles"
    rules = native.pack_rules(game)
    return {
        "a foundation among the cells": (
            rules_with(game, kinds={game.foundation_indices[0]: 1, game.cell_indices[0]: 0}),
            run,
        ),
        "a tableau pile among the foundations": (
            rules_with(game, kinds={game.foundation_indices[1]: 2}),
            run,
        ),
        "a fourth kind of pile": (rules_with(game, kinds={game.tableau_indices[0]: 3}), run),
        "no tableau": (rules_with(game, kinds=dict.fromkeys(game.tableau_indices, 1)), "tableau needed"),
        "33 piles": (bytes([33]) + rules[1:], "1 to 32 piles"),
        "no piles": (bytes([0]) + rules[1:], "1 to 32 piles"),
        "a supermove table one short": (rules[:-1], size),
        "a step of 2": (rules_with(game, at_1=2), one_deck),
        "a start rank of 0": (rules_with(game, at_2=0), one_deck),
        "two decks": (rules_with(game, at_3=104), one_deck),
    }


@pytest.mark.parametrize("game_id", ["freecell", "native_two_cells"])
def test_rules_packed_wrong_are_refused_clearly(game_id):
    needs_native()
    game = load(game_id)
    weights = (1.0,) * len(native.NativeSearch.weight_names)
    for case, (rules, words_) in bad_rules(game).items():
        error = checks.refusal(native.search_core.Search, "freecell", rules, weights, 0.5, 0.0, BIG, BIG)
        assert checks.refused(error, ValueError, words_), case
    native.search_core.Search("freecell", native.pack_rules(game), weights, 0.5, 0.0, BIG, BIG)


def bad_positions(good: bytes) -> dict:
    """Deal 1's position, packed (``good``), then spoilt: (position, the error, words of its
    message)."""
    first = good.index(7)  # the first tableau pile's length (deal 1: 7 cards)
    malformed = "search_core: a malformed position"

    def spoilt(at: int, card: int) -> bytes:
        position = bytearray(good)
        position[at] = card
        return bytes(position)

    return {
        "a card twice": (spoilt(first + 1, good[first + 2]), ValueError, malformed),
        "a bottom card twice": (spoilt(first + 1, good[first + 9]), ValueError, malformed),
        "a card of 0": (spoilt(first + 1, 0), ValueError, malformed),
        "a card of 64": (spoilt(first + 1, 64), ValueError, malformed),
        "cut short": (good[:-1], ValueError, malformed),
        "a byte more": (good + bytes([1]), ValueError, malformed),
    }


def test_positions_packed_wrong_are_refused_clearly():
    """The kernel reads the cards of one deck, each once: its keys order the piles by their
    bottom cards, told apart by that."""
    needs_native()
    search = native_search(load("freecell"))
    good = search.position(load("freecell").deal(1))
    assert good[good.index(7) + 9] not in good[good.index(7) + 1 : good.index(7) + 8]  # another pile's
    checks.assert_positions_refused(search.core, bad_positions(good))
    assert search.core.key(good)


# ------------------------------------------------------------------ SOLWIDGET_PURE=1

# The solver's results on the family's first deals and a lost deal of Baker's Game with three
# cells (run here, and under SOLWIDGET_PURE=1).
RUNS = """
    def runs():
        games = [sw.load_game(game_id) for game_id in ("freecell", "reversed_solitaire", "inverted_freecell")]
        bakers = sw.variant("freecell", id="native_bakers_three_cells", name="native bakers three cells",
                            build="down in suit", cells=3).game()
        return [(game, deal, 3000) for game in games for deal in (1, 2, 3)] + [(bakers, 4, 3000)]
"""


def test_under_solwidget_pure_python_searches_and_finds_the_same():
    needs_native()
    _, mine = checks.sampled_pure_and_compiled(RUNS, ROOT)
    assert {row[2] for row in mine["seen"]} == {"won", "lost", "unknown"}
