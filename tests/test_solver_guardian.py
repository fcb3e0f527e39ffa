"""Interlock's dead ends in Guardian (games/interlock/deadends.py): face-down cards read face
up, any card to an empty back pile, a stock turned three at a time. Checked as Interlock's
are: what the test calls dead is lost when searched to the end without it, and no
position on a win is dead."""

import pytest
from test_solver_interlock import small_position

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN
from solwidget.games.interlock import deadends
from solwidget.games.interlock.deadends import DeadEnds
from solwidget.solver.profile import profile_for

GAME = sw.load_game("guardian")


def _endgames(left, runs, seeds) -> list:
    return [small_position(seed, left, runs, game=GAME) for seed in seeds]


def _without_dead_ends(monkeypatch):
    monkeypatch.setattr(deadends, "applies", lambda game: False)


def test_the_dead_ends_apply_to_guardian_and_not_where_it_builds_in_suit():
    in_suit = sw.variant("guardian", id="guardian_in_suit", name="Guardian in suit", build="down in suit")
    assert deadends.applies(GAME) and not deadends.applies(in_suit.game())
    assert profile_for(GAME).lemmas(GAME)["dead ends"]
    piles = GAME.deal(1).piles
    hidden = [card for t in GAME.tableau_indices for card in piles[t] if card & FACE_DOWN]
    assert len(hidden) == 7  # the back and middle piles' cards: read face up
    read = DeadEnds(GAME).face_up(piles)
    assert [card | FACE_DOWN for t in GAME.tableau_indices for card in read[t][:1]][:7] == hidden


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_endgames_found_dead_are_lost_without_the_test(left, runs, monkeypatch):
    states = _endgames(left, runs, range(40))
    dead = [s for s in states if DeadEnds(GAME).is_dead(s)]
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(s, max_states=20_000).status for s in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 10, answers


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_no_position_of_a_winning_line_is_dead(left, runs):
    dead_ends, won = DeadEnds(GAME), 0
    for start in _endgames(left, runs, range(40)):
        result = sw.solve(start, max_states=20_000)
        if result.status == "won":
            won += 1
            state = start
            for move in result.moves:
                assert not dead_ends.is_dead(state), (GAME.to_dict(start), move)
                state = state.play(move)
    assert won >= 10


@pytest.mark.parametrize("number", [11, 16, 21])
def test_no_position_of_a_won_deal_is_dead(number):
    result = sw.solve(GAME.deal(number), max_seconds=30)
    assert result.status == "won", result
    state, dead_ends = GAME.deal(number), DeadEnds(GAME)
    for move in result.moves:
        assert not dead_ends.is_dead(state), move
        state = state.play(move)


def _five_over_three(game) -> sw.State:
    """All home but the spades from 3S: 3S face down in back pile t0 under middle pile t3
    (5S, its other cover t4 gone), the back pile t1 empty and uncovered, the rest of the
    spades in the stock."""
    piles = {pid: [] for pid in game.pile_ids}
    for f, suit in zip(game.foundation_indices, "CDHS"):
        piles[game.pile_ids[f]] = [r + suit for r in ("A23456789TJQK" if suit != "S" else "A2")]
    piles.update(t0=["[3S]"], t2=["[TS]"], t6=["JS"], t3=["5S"], t11=["QS"])
    piles["stock"] = [f"[{r}S]" for r in "46789K"]
    return game.state_from_dict({"game": game.id, "piles": piles})


def test_an_empty_back_pile_takes_any_card_so_the_five_may_leave_for_it(monkeypatch):
    # 5S must leave t3 for 3S to go home; its hosts, the red sixes, are home: only the empty
    # back pile t1 can take it, which Guardian allows and a King-only Guardian does not
    kings = sw.variant("guardian", id="guardian_kings", name="Guardian, Kings to spaces", empty="king").game()
    alive, dead = _five_over_three(GAME), _five_over_three(kings)
    assert not DeadEnds(GAME).is_dead(alive) and DeadEnds(kings).is_dead(dead)
    assert sw.solve(alive).status == "won"
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"
