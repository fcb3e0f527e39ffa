"""Property tests over random deals and random playouts of every game in ``sw.games()``
(collected at import, so games added later are covered without touching this file).

At every position of a playout: each card is present exactly ``decks`` times; every legal
move is accepted by ``play()`` (and by ``successors()``, with the same result) and its text
parses back to it; random moves outside ``legal_moves()`` are refused with a reason that
names a rule (never the generic fallback) and change nothing; ``state_from_dict(to_dict())``
gives the position back.
"""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solwidget as sw
from solwidget.engine.cards import deck, face_up

GAMES = sw.games()

deal_numbers = st.one_of(st.integers(1, 31999), st.integers(32000, 10**9), st.just(sw.engine.deals.MAX_DEAL))
seeds = st.integers(0, 2**32 - 1)
PLAYOUT = 40  # moves per playout
FULL_CHECKS = 8  # positions per playout where every legal move is played


def check_cards(state):
    counts = Counter(face_up(c) for pile in state.piles for c in pile)
    assert counts == Counter({c: state.game.decks for c in deck(1)})


def check_every_legal_move(state, legal):
    game = state.game
    assert len(set(legal)) == len(legal), "legal_moves() lists a move twice"
    following = dict(game.successors(state))
    assert list(following) == legal
    for pid in game.pile_ids:  # what play() checks a move against
        assert list(game.iter_moves_from(state, pid)) == [move for move in legal if move.src == pid]
    for move in legal:
        assert game.parse_move(str(move)) == move
        assert state.explain(move) is None
        after = state.play(move)
        assert after == following[move]
        assert after != state or (move.src, move.dst) in {("stock", "waste"), ("waste", "stock")}


def random_move(game, rng):
    ids = list(game.pile_ids) + sorted(game.actions)
    return sw.Move(rng.choice(ids), rng.choice(ids), rng.choice((1, 1, 1, 2, 3, 4, 7, 13)))


def check_illegal_moves(state, legal, rng, tries=12):
    before = state.to_dict()
    legal = set(legal)
    for _ in range(tries):
        move = random_move(state.game, rng)
        if move in legal:
            continue
        reason = state.explain(move)
        assert isinstance(reason, str) and reason, f"{move} is not legal but has no reason"
        assert not reason.endswith("is not a legal move in this position"), f"{move}: no rule named"
        with pytest.raises(sw.IllegalMove) as err:
            state.play(move)
        assert err.value.reason == reason
    assert state.to_dict() == before


def playout(state, rng, moves=PLAYOUT):
    """Random legal moves from ``state``; yields each position (the first included)."""
    yield state
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            return
        state = state.play(rng.choice(legal))
        yield state


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=12)
@given(number=deal_numbers, seed=seeds)
def test_random_playouts_keep_every_rule(game_id, number, seed):
    game = sw.load_game(game_id)
    rng = random.Random(seed)
    full = set(rng.sample(range(PLAYOUT + 1), FULL_CHECKS))
    for i, state in enumerate(playout(game.deal(number), rng)):
        check_cards(state)
        legal = state.legal_moves()
        if i in full:
            check_every_legal_move(state, legal)
        check_illegal_moves(state, legal, rng)
        assert game.state_from_dict(state.to_dict()) == state
        if not legal:
            assert state.is_stuck() or state.is_won()


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8)
@given(number=deal_numbers, seed=seeds)
def test_deals_and_playouts_are_deterministic(game_id, number, seed):
    first = [s.to_dict() for s in playout(sw.load_game(game_id).deal(number), random.Random(seed), 15)]
    again = [s.to_dict() for s in playout(sw.load_game(game_id).deal(number), random.Random(seed), 15)]
    assert first == again
    check_cards(sw.load_game(game_id).deal(number))
