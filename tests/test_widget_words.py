"""The widget in the board's words (cards and places, not pile ids), its safe moves home,
its replay bar's height and its solver panel: the kernel's side, with no browser."""

from __future__ import annotations

import random
import re

import pytest

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN, card_name
from solwidget.engine.geometry import place
from solwidget.engine.words import card_words, line_words, move_words, pile_words, reason_words
from solwidget.solver.autoplay import settle
from solwidget.solver.profile import profile_for

SEED_GAMES = ["reversed_solitaire", "triple_interchange", "interlock", "mutated"]
PILE_ID = re.compile(r"\b(?:[ftc]\d+|r\dc\d|r2x|d\d)\b")


def send(widget, content):
    widget._handle_custom_msg(content, [])


def face_up_top(state, pid):
    cards = state.piles[state.game.pile_index(pid)]
    return card_name(cards[-1]) if cards and not cards[-1] & FACE_DOWN else None


# ------------------------------------------------------------------ words
@pytest.mark.parametrize("code, words", [("QH", "Q♥"), ("TS", "10♠"), ("AC", "A♣"), ("7D", "7♦")])
def test_cards_read_as_the_board_draws_them(code, words):
    assert card_words(code) == words


def test_a_move_to_a_cell_names_its_card_and_the_place():
    state = sw.load_game("freecell").deal(1)
    top = face_up_top(state, "t0")
    assert move_words(state, "t0 c0") == f"{card_words(top)} to a free cell"


def test_a_move_onto_a_card_names_both_cards():
    moves = [
        (state, move)
        for state in playouts("freecell", deals=[1], length=40)
        for move in state.legal_moves()
        if move.dst.startswith("t") and state.pile(move.dst)
    ]
    assert moves
    for state, move in moves:
        head = state.pile(move.src)[-move.n]
        assert move_words(state, move).startswith(card_words(head))
        assert move_words(state, move).endswith(f"onto {card_words(state.pile(move.dst)[-1])}")


def test_an_interlock_covering_refusal_names_the_cards_not_the_piles():
    state = sw.load_game("interlock").deal(7)
    for src, reason in (
        (pid, state.explain(f"{pid} f0")) for pid in state.game.pile_ids if pid.startswith("t")
    ):
        if reason and "is covered by" in reason:
            words = reason_words(state, reason)
            covers = re.findall(r"t\d+", reason.split("covered by")[1])
            assert words.startswith(f"{card_words(face_up_top(state, src))} is covered by ")
            assert all(card_words(face_up_top(state, c)) in words for c in covers)
            assert not PILE_ID.search(words)
            return
    pytest.fail("no covered pile in Interlock deal 7")


def test_a_mutated_refusal_names_the_card_and_its_row():
    state = sw.load_game("mutated").deal(5)
    card = face_up_top(state, "r3c1")
    words = reason_words(state, state.explain("r3c1 r1c1"))
    assert card_words(card) in words and "row 3" in words and "row 1" in words
    assert not PILE_ID.search(words)


def test_a_full_cell_is_named_as_a_place_with_its_card():
    state = sw.load_game("reversed_solitaire").deal(1).play("t0 c0")
    assert reason_words(state, state.explain("t1 c0")) == "that free cell already holds 6♠"


def test_the_stock_and_the_waste_are_named_once_as_places():
    state = sw.load_game("triple_interchange").deal(1).play("stock waste")
    words = reason_words(state, state.explain("waste stock"))
    assert words == "the stock still has cards: the waste is turned over only once the stock is empty"


def test_an_empty_back_pile_refusal_reads_as_one_sentence():
    state = sw.load_game("interlock").deal(1)
    reason = "t3 is an empty back pile: it takes only a King or a run headed by a King"
    assert reason_words(state, reason).startswith("that pile is an empty back pile: it takes only a King")


def test_quoted_move_text_stays_as_the_api_writes_it():
    state = sw.load_game("mutated").deal(5)
    reason = "write it like 'd2 r1c3 QH'"
    assert reason_words(state, reason) == reason


@pytest.mark.parametrize("game_id", ["guardian", "interchange", "triple_interchange"])
def test_no_refusal_names_a_face_down_card(game_id):
    state = sw.load_game(game_id).deal(3)
    game = state.game
    seen = {card_words(code) for pile in state.visible().values() for code in pile if code != "back"}
    hidden = {card_words(card_name(c & ~FACE_DOWN)) for pile in state.piles for c in pile if c & FACE_DOWN}
    unseen = hidden - seen  # several decks: a hidden copy of a seen card reveals nothing
    assert unseen
    said = 0
    for src in game.pile_ids:
        for dst in game.pile_ids:
            reason = state.explain(f"{src} {dst}") if src != dst else None
            if reason:
                words = reason_words(state, reason)
                said += 1
                assert not any(re.search(rf"(?<![\d\w]){re.escape(c)}", words) for c in unseen), words
    assert said > 10


def test_a_best_line_names_no_card_unseen_at_its_start():
    state = sw.load_game("triple_interchange").deal(1)
    result = sw.solve(state, max_states=20_000)
    assert result.status == "won"
    seen = {card_words(code) for pile in state.visible().values() for code in pile if code != "back"}
    words = line_words(state, result.moves)
    assert len(words) == len(result.moves)
    named = {c for text in words for c in re.findall(r"(?:10|[A2-9JQK])[♣♦♥♠]", text)}
    assert named and named <= seen
    assert "a card from the waste" in " ".join(words)  # cards turned up along the line


def test_foundations_are_named_by_their_suit():
    state = sw.load_game("freecell").deal(2)
    move = sw.safe_moves(state)[0]
    after = state.play(move)
    suit = card_words(after.pile(move.dst)[-1])[-1]
    assert pile_words(after, move.dst) == f"the {suit} foundation"
    assert pile_words(state, move.dst) == "an empty foundation"


# ------------------------------------------------------------------ safe moves home
def playouts(game_id, deals=range(1, 6), length=120):
    """Positions along random playouts of a few deals."""
    game = sw.load_game(game_id)
    for deal in deals:
        state, rng = game.deal(deal), random.Random(deal)
        for _ in range(length):
            yield state
            legal = state.legal_moves()
            if not legal:
                break
            state = state.play(rng.choice(legal))


def test_mutated_safe_moves_are_the_solvers_own():
    from solwidget.games.mutated.expander import settle as mutated_settle

    found = 0
    for state in playouts("mutated"):
        moves = sw.safe_moves(state)
        assert moves == mutated_settle(state)[1]
        found += bool(moves)
        for move in moves:
            state = state.play(move)  # legal, one after the other
    assert found


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire", "triple_interchange", "interlock"])
def test_autoplay_takes_at_least_the_searchs_safe_moves(game_id):
    game = sw.load_game(game_id)
    for state in playouts(game_id, deals=range(1, 3), length=60):
        autoplay = sw.safe_moves(state)
        end = state
        for move in autoplay:
            end = end.play(move)
            assert game.pile_kinds[move.dst] == "foundation"
        assert sw.safe_moves(end) == []
        home = sum(len(end.piles[f]) for f in game.foundation_indices)
        settled = settle(game, state)[0]
        assert home >= sum(len(settled.piles[f]) for f in game.foundation_indices)


def test_the_profile_answers_for_every_game():
    for game_id in sw.games():
        state = sw.load_game(game_id).deal(1)
        assert profile_for(state.game).safe_moves(state) == sw.safe_moves(state)


# ------------------------------------------------------------------ the widget
def test_auto_foundations_follow_each_move_in_mutated():
    widget = sw.SolitaireWidget("mutated", deal=5)
    widget.auto_foundations = True
    for state in playouts("mutated", deals=[5], length=300):
        moves = state.legal_moves()
        for move in moves:
            after = state.play(move)
            if sw.safe_moves(after):
                widget.state = state
                widget.auto_foundations = True
                send(widget, {"type": "move", "move": str(move)})
                assert widget.history == [move, *sw.safe_moves(after)]
                assert widget.message.startswith(move_words(state, move)) and "home" in widget.message
                return
    pytest.fail("no move of Mutated deal 5's playout lets a card go home safely")


def test_a_refusal_shows_the_move_text_only_when_pile_ids_are_shown():
    widget = sw.SolitaireWidget("freecell", deal=1)
    send(widget, {"type": "move", "move": "t0 f0"})
    words = widget.message
    assert not PILE_ID.search(words)
    widget.show_ids = True
    send(widget, {"type": "move", "move": "t0 f0"})
    assert widget.message.startswith(words) and widget.message != words


def test_the_browser_may_set_the_switches():
    widget = sw.SolitaireWidget("freecell", deal=1)
    widget.set_state({"show_ids": True, "auto_foundations": True})
    assert widget.show_ids and widget.auto_foundations


def test_the_board_keeps_the_height_of_the_lines_tallest_position():
    widget = sw.SolitaireWidget("freecell", deal=1)
    result = sw.solve(widget.state, max_states=50_000)
    widget.replay(result.moves, delay=None)
    layout = widget.game.layout()
    states = [widget.state]
    for move in result.moves:
        states.append(states[-1].play(move))
    tallest = max(place(layout, s.visible())["height"] for s in states)
    assert tallest > place(layout, states[0].visible())["height"]
    for index in (0, len(states) // 2, len(states) - 1, 3):
        widget.seek(index)
        assert widget.board_min_height == tallest
        move = widget.line[index - 1] if index else None
        assert widget.move_words == (
            f"move {index} of {len(states) - 1}: {move_words(states[index - 1], move)}" if index else ""
        )
    other = next(m for m in widget.state.legal_moves() if m != widget.line[3])
    widget.play(other)  # a new line from position 3: the rest is gone
    kept = [*states[:4], states[3].play(other)]
    assert widget.board_min_height == max(place(layout, s.visible())["height"] for s in kept)


def test_a_win_says_how_many_moves_it_took_and_how_long():
    widget = sw.SolitaireWidget("freecell", deal=1)
    moves = sw.solve(widget.state, max_states=50_000).moves
    for move in moves:
        widget.play(move)
    assert widget.status["won"]
    assert f"won in {len(moves)} moves and {widget.status['seconds']} s" in widget.status["text"]


def test_moves_wait_while_the_solver_searches():
    widget = sw.SolitaireWidget("interchange", deal=49)  # not decided in seconds
    widget.play("stock waste")
    widget.solve(max_states=10**7)
    before = widget.state
    send(widget, {"type": "move", "move": "stock waste"})
    for action in ("undo", "hint", "autoplay"):
        send(widget, {"type": "action", "name": action})
        assert widget.message_kind == "error" and "Stop" in widget.message
    assert widget.state == before and widget.busy == "solving"
    widget.stop()
    assert widget.solver_progress["status"] == "stopped"
    assert widget.solver_progress["summary"].startswith("stopped")
    widget.play("stock waste")


@pytest.mark.parametrize(
    "budget, status", [({"max_states": 100_000}, "won"), ({"max_states": 30}, "unknown")]
)
def test_the_solver_panel_ends_with_one_summary(budget, status):
    widget = sw.SolitaireWidget("freecell", deal=1)
    seen = []
    widget.observe(lambda change: seen.append(change["new"]), names="solver_progress")
    widget.solve(background=False, **budget)
    assert seen[0]["running"] and seen[0]["max_states"] == budget["max_states"]
    final = widget.solver_progress
    assert final["status"] == status and not final["running"]
    line = widget.solution if status == "won" else final["best_line"]
    if status == "won":
        assert final["summary"].startswith(f"won in {len(widget.solution)} moves (")
    else:
        assert final["summary"].startswith("unknown at the budget (")
        assert final["summary"].endswith(f"its best line has {len(line)} moves")
    assert final["line_words"] == line_words(widget.state, line)[:200]
    widget.replay(delay=None)  # the offered line, stepped on the replay bar
    assert widget.line == [widget.game.parse_move(m) for m in line]


def test_a_lost_position_is_summed_up_as_proved():
    from tests.test_solver import _stuck_freecell_like

    state = _stuck_freecell_like(
        "freecell", ["2D", "4D", "6D", "8D", "2H", "4H", "6H", "8H"], ["KC", "KD", "KH", "KS"]
    )
    widget = sw.SolitaireWidget("freecell", state=state)
    widget.solve(background=False)
    assert widget.solver_progress["summary"].startswith("lost (proved")


def test_autoplays_extra_moves_never_turn_a_won_position_into_a_lost_one():
    # Where Autoplay's rule goes further than the search's (a Two on its Ace), a position
    # the solver wins must not become one it proves lost (the proof is in autoplay.py).
    checked = 0
    for state in playouts("freecell", deals=range(1, 40), length=40):
        game = state.game
        extra = sw.safe_moves(state)
        if len(extra) <= len(settle(game, state)[1]):
            continue
        before = sw.solve(state, max_states=20_000)
        after = state
        for move in extra:
            after = after.play(move)
        if before.status == "won":
            assert sw.solve(after, max_states=40_000).status != "lost"
            checked += 1
        if checked == 3:
            return
    assert checked, "no position where Autoplay's rule goes further"


def test_an_empty_pile_is_named_by_its_place():
    from solwidget.engine.words import reason_words

    state = sw.load_game("freecell").deal(1)
    said = reason_words(state, state.explain("c0 t1"))
    assert said == "a free cell is empty"
