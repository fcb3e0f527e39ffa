"""Turn dominance (search.py, ``_Search._admit_turned``): a search that took a position skips
the positions it reaches by turns of the stock alone. Checked against the engine's own turns
on every small reserve, and by searching endgames to their end with and without it."""

import itertools

import pytest
from test_solver_interlock import small_position

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN
from solwidget.games.interlock import deadends
from solwidget.solver import search
from solwidget.solver.keys import turns_of
from solwidget.solver.profile import profile_for
from solwidget.solver.stock import is_turn

GAME = sw.load_game("guardian")
BY_DRAW = {
    3: GAME,
    **{
        draw: sw.variant(
            "guardian", id=f"guardian_draw_{draw}", name=f"Guardian, {draw} a turn", draw=draw
        ).game()
        for draw in (2, 4)
    },
}


def _with_reserve(game, n: int, on_waste: int) -> sw.State:
    """Every card home but the spades from ``13 - n + 1``, which lie in the reserve in rank
    order of turning, ``on_waste`` of them on the waste."""
    home = 13 - n
    piles = {pid: [] for pid in game.pile_ids}
    for f, suit in zip(game.foundation_indices, "CDHS"):
        piles[game.pile_ids[f]] = [r + suit for r in "A23456789TJQK"[: 13 if suit != "S" else home]]
    order = [r + "S" for r in "A23456789TJQK"[home:]]
    piles["waste"] = order[:on_waste]
    piles["stock"] = [f"[{card}]" for card in reversed(order[on_waste:])]
    return game.state_from_dict({"game": game.id, "piles": piles})


def _counts_reached(state: sw.State) -> set[int]:
    """The waste's counts that the engine's turns and redeals reach from ``state``."""
    game, waste = state.game, state.game.waste_index
    seen, todo, counts = {state.piles}, [state], set()
    while todo:
        now = todo.pop()
        counts.add(len(now.piles[waste]))
        for move in game.legal_moves(now):
            if is_turn(move):
                after = game.apply_legal(now, move)
                if after.piles not in seen:
                    seen.add(after.piles)
                    todo.append(after)
    return counts


def _fresh_search(game) -> search._Search:
    expander = profile_for(game).expander(game, None)
    assert expander.turns == game.draw == turns_of(game)
    return search._Search(expander, 0.5, 10**6, 10**6)


@pytest.mark.parametrize("draw", sorted(BY_DRAW))
def test_a_count_is_refused_exactly_where_a_count_taken_reaches_it_by_turns(draw):
    game = BY_DRAW[draw]
    refused = 0
    for n in range(1, 10):
        states = [_with_reserve(game, n, w) for w in range(n + 1)]
        for first in states:
            reached = _counts_reached(first)
            for second in states:
                s = _fresh_search(game)
                assert s._admit_turned(s.key(first))
                taken = s._admit_turned(s.key(second))
                assert taken == (len(second.piles[game.waste_index]) not in reached), (n, first, second)
                refused += not taken
    assert refused > 150  # of 384 pairs: those a count taken reaches


@pytest.mark.parametrize("draw", sorted(BY_DRAW))
def test_every_count_taken_counts_whatever_the_order_they_come_in(draw):
    # three counts of one position, in every order: each is refused exactly where a count
    # taken before it reaches it (one refused adds nothing: one taken reaches all it reaches)
    game = BY_DRAW[draw]
    for n in (4, 7, 9):
        states = [_with_reserve(game, n, w) for w in range(n + 1)]
        reached = [_counts_reached(state) for state in states]
        keys = [_fresh_search(game).key(state) for state in states]
        for order in itertools.product(range(n + 1), repeat=3):
            s, taken = _fresh_search(game), set()
            for w in order:
                assert s._admit_turned(keys[w]) == (w not in taken), (n, order)
                taken |= reached[w]


def test_the_key_keeps_the_stock_and_waste_one_for_one():
    s = _fresh_search(GAME)
    keys = {s.key(_with_reserve(GAME, n, w)) for n in range(1, 10) for w in range(n + 1)}
    assert len(keys) == sum(n + 1 for n in range(1, 10))
    state = _with_reserve(GAME, 5, 2)
    assert s.key(state)[-2:] == bytes((5, 2))
    assert all(card & FACE_DOWN for card in state.piles[GAME.stock_index])


def _searched_to_the_end(state: sw.State) -> tuple[str, int]:
    result = sw.solve(state, max_states=200_000)
    return result.status, result.progress.expanded


@pytest.mark.parametrize("left, runs", [((16, 22), 0.0), ((20, 26), 0.5)])
def test_endgames_get_the_same_verdicts_without_turn_dominance(left, runs, monkeypatch):
    # the Python search (the kernel in C admits as it does: tests/test_native_interlock.py),
    # no dead-end test, so that the searches walk the stock; every win is replayed by solve
    monkeypatch.setattr(type(profile_for(GAME)), "compiled_search", lambda self, *args: None)
    monkeypatch.setattr(deadends, "applies", lambda game: False)
    starts = [small_position(seed, left, runs, game=GAME) for seed in range(30)]
    with_it = [_searched_to_the_end(start) for start in starts]
    monkeypatch.setattr(search._Search, "_admit_turned", search._Search.admit)
    without = [_searched_to_the_end(start) for start in starts]
    assert [status for status, _ in with_it] == [status for status, _ in without]
    statuses = {status for status, _ in with_it}
    assert statuses == {"won", "lost"}, statuses
    lost = [i for i, (status, _) in enumerate(with_it) if status == "lost"]
    assert sum(with_it[i][1] for i in lost) < sum(without[i][1] for i in lost)
