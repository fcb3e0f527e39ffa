"""shorten.py: a shortened line is legal move by move and ends where the line ended."""

import random

import pytest

import solwidget as sw
from solwidget.solver.shorten import shorten

# A win of FreeCell's deal 495 as a search found it: a card sent to a cell and brought
# straight back (a rewrite of an earlier detour) drops two moves at once here, and the
# rewrites after it must be checked from the positions where they stand.
DEAL_495 = """
    t6 c0, t4 c1, t3 t2, t3 c2, t3 f0, t0 t6, t7 c3, c0 t7, t4 t7, t2 c0, t5 t6, t5 t3, c3
    t5, t2 c3, t2 f0, t1 f0, t0 f0, t0 f1, t2 f1, c2 t2, t0 t1, t5 t0 2, t6 t5, t3 t2, t3
    c2, c0 t3, t5 t6, t4 c0, t4 f2, t2 f1, t6 t5, t4 f1, t4 t3, c3 t4, t7 c3, c0 t7, t5 c0,
    t0 t3, c0 t6, t7 c0, c3 t7, t2 c3, c2 t2, t7 c2, c0 t7, t6 c0, t3 t0, c0 t5, t7 c0, c2
    t7, t3 t4 2, t7 c2, t5 t6, c0 t7, t6 c0, t0 t4, c0 t5, t2 c0, c3 t2, t5 t6, t0 t3 2, t7
    c3, t6 t5, t4 t3, c3 t7, t2 c3, t2 f1, t5 t6, t3 t4, t1 f1, t2 t1, t0 t7, c2 t0, t7 t0,
    t7 t2 2, t7 c2, c3 t7, t6 c3, t0 t2, c3 t5, t7 c3, c0 t7, t7 t4 2, t6 c0, t7 t1, t2 t0,
    c0 t6, t5 c0, t0 t2, c0 t6, t4 c0, c3 t4, t5 c3, t5 f2, t2 t0, t5 t2, c3 t5, t6 t5, t4
    c3, t4 f0, t7 t5, t7 f2, c0 f2, t1 t7, t1 f0, t2 c0, t0 t2, c0 t0, t6 c0, t4 t3, t4 f0,
    c0 t6, t4 t5 2, t6 t4 2, t6 f3, t1 c0, t6 t2, c2 t6, t1 c2, t1 f3, t1 f2, t3 f2, c2 t3,
    t6 c2, c0 t2, t6 c0, t6 f3, c3 f3, t7 f3, t3 f3, t2 f3, t3 f1, t5 f3, t1 t6, t1 f2, t2
    f0, t3 f2, t3 f0, t3 t1, t3 f1, t0 f3, t2 f2, t2 f0, t5 f1, t0 f1, t5 f3, t2 f3, t6 f2,
    t0 f2, t1 f1, t2 f1, t5 f0, t4 f3, t5 f2, c1 f1, c2 f0, t2 f2, t4 f0, c0 f3
"""


def replayed(start, moves):
    state = start
    for move in moves:
        state = state.play(move)  # IllegalMove if a rewrite broke the line
    return state


def test_a_win_shortened_replays_to_the_same_position():
    start = sw.load_game("freecell").deal(495)
    moves = [start.game.parse_move(text.strip()) for text in DEAL_495.split(",")]
    end = replayed(start, moves)
    assert end.is_won()
    short = shorten(start, moves)
    assert len(short) < len(moves)
    assert replayed(start, short) == end


def wandering_line(state, rng, length):
    """Legal moves at random, most of them moving on the cards the move before moved: the
    detours and loops that shorten.py takes out, and rewrites that make new ones."""
    game, moves = state.game, []
    while len(moves) < length:
        choices = list(game.iter_moves(state))
        if not choices:
            break
        again = [m for m in choices if moves and m.src == moves[-1].dst]
        move = rng.choice(again if again and rng.random() < 0.7 else choices)
        moves.append(move)
        state = state.play(move)
    return moves


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire"])
def test_a_shortened_wandering_line_replays_to_the_same_position(game_id):
    game = sw.load_game(game_id)
    rng = random.Random(7)
    for number in range(1, 61):
        start = game.deal(number)
        moves = wandering_line(start, rng, 80)
        short = shorten(start, moves)
        assert len(short) <= len(moves)
        assert replayed(start, short) == replayed(start, moves)


def test_a_win_is_shortened_as_the_games_profile_says_unless_the_caller_says():
    """FreeCell's family spares the shortener's time (its profile's ``shorten_wins``); any
    game's wins are shortened when the caller asks, and not when the caller says not."""
    freecell = sw.load_game("freecell").deal(4)
    as_found = sw.solve(freecell, max_states=20_000)
    shortened = sw.solve(freecell, max_states=20_000, shorten_wins=True)
    assert as_found.status == shortened.status == "won"
    assert len(shortened.moves) < len(as_found.moves)
    assert shortened.moves == shorten(freecell, as_found.moves)
    assert replayed(freecell, shortened.moves).is_won()
    mutated = sw.load_game("mutated").deal(2)
    as_found = sw.solve(mutated, max_states=20_000, shorten_wins=False)
    by_default = sw.solve(mutated, max_states=20_000)
    assert len(by_default.moves) < len(as_found.moves)
    assert by_default.moves == shorten(mutated, as_found.moves)
