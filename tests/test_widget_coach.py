"""The coach in the widget, from Python: the meter after every move, the losing move flagged
with a way back, hints on a lost position, winnable-only deals, and bad input refused."""

import time

import pytest
from test_coach import played_with_a_mistake, replays_to_a_win

import solwidget as sw
from solwidget.coach import LOST, UNKNOWN, WINNABLE


def settled(w, timeout=60.0):
    """Wait until the meter is not judging any more."""
    end = time.monotonic() + timeout
    while w.coach_note.get("judging") and time.monotonic() < end:
        time.sleep(0.02)
    assert not w.coach_note.get("judging"), "the coach did not answer in time"
    return w.verdict


@pytest.fixture(scope="module")
def mistake():
    return played_with_a_mistake()


def losing_number(start, line):
    return sw.review(start, line, max_seconds=5.0, crossroads=False).first_losing.number


def test_the_coach_is_off_unless_asked():
    w = sw.SolitaireWidget("reversed_solitaire", deal=3)
    assert w.coach is False and w.verdict == "" and w.coach_note == {}


def test_the_verdict_follows_every_move_undo_and_redo(mistake):
    start, line = mistake
    losing = losing_number(start, line)
    w = sw.SolitaireWidget("reversed_solitaire", deal=3, coach=True, coach_seconds=5.0)
    assert settled(w) == WINNABLE
    for move in line[: losing - 1]:
        w.play(move)
    assert settled(w) == WINNABLE
    w.play(line[losing - 1])
    assert settled(w) == LOST
    note = w.coach_note
    assert note["losing_move"] == losing and note["back_to"] == losing - 1
    said = sw.engine.words.move_words(w._states[losing - 1], line[losing - 1])
    assert note["lost_text"] == f"moving {said} lost the game: from here no line wins"
    w.undo()
    assert settled(w) == WINNABLE and w.coach_note.get("back_to") is None
    w.redo()
    assert settled(w) == LOST and w.coach_note["losing_move"] == losing
    w.seek(w.coach_note["back_to"])
    assert settled(w) == WINNABLE and w.moves_made == losing - 1


def test_known_verdicts_answer_at_once():
    w = sw.SolitaireWidget("reversed_solitaire", deal=1, coach=True, coach_seconds=10.0)
    assert settled(w) == WINNABLE
    win = w._judge.known(w.state).line
    for move in win[:10]:
        w.play(move)
        assert w.verdict == WINNABLE and not w.coach_note["judging"]  # no search needed


def test_a_losing_move_found_after_quick_moves(mistake):
    """Moves played faster than the meter judges: the losing move is still found."""
    start, line = mistake
    w = sw.SolitaireWidget("reversed_solitaire", deal=3, coach=True, coach_seconds=5.0)
    for move in line:
        w.play(move)
    assert settled(w) == LOST
    assert w.coach_note["losing_move"] == losing_number(start, line)


def test_a_hint_on_a_lost_position_says_so_and_where_the_game_was_lost(mistake):
    start, line = mistake
    losing = losing_number(start, line)
    w = sw.SolitaireWidget("reversed_solitaire", deal=3, coach=True, coach_seconds=5.0)
    for move in line[: losing + 1]:
        w.play(move)
    assert settled(w) == LOST
    found = w.hint(max_seconds=30, max_states=None)
    assert found.lost and w.highlight == []
    assert (
        w.message
        == f"hint: no move wins from here: this position is lost (proved); the game was lost at move {losing}"
    )


def test_hint_says_a_position_is_lost_without_a_coach(mistake):
    start, line = mistake
    state = start
    for move in line:
        state = state.play(move)
    found = sw.hint(state, max_states=None, max_seconds=30)
    assert found.lost and str(found) == "no move wins from here: this position is lost (proved)"
    assert "promising" not in str(found)


def test_a_coach_turned_off_stops_and_says_nothing():
    w = sw.SolitaireWidget("triple_interchange", deal=765, coach=True, coach_seconds=60.0)
    assert w.coach_note["judging"] and w.verdict == UNKNOWN
    w.coach = False
    assert w.verdict == "" and w.coach_note == {}


def test_winnable_only_deals_only_won_deals_each_with_a_replayed_win():
    # Interlock deal 13 is lost at the deal: it is skipped
    w = sw.SolitaireWidget("interlock", deal=13, winnable_only=True)
    dealt = [w.deal]
    for _ in range(3):
        w.new_deal()
        dealt.append(w.deal)
    assert 13 not in dealt and dealt == sorted(set(dealt))
    for number in dealt:
        start = w.game.deal(number)
        assert replays_to_a_win(start, sw.solve(start, max_states=None, max_seconds=30).moves)
    end = time.monotonic() + 120
    while not w.difficulty and time.monotonic() < end:
        time.sleep(0.1)
    assert w.difficulty["deal"] == w.deal and 0 <= w.difficulty["keeping_share"] <= 1
    assert w.difficulty["level"] in ("gentle", "tricky", "hard")


@pytest.mark.parametrize(
    "options, name",
    [
        ({"coach": "yes"}, "coach"),
        ({"winnable_only": 1}, "winnable_only"),
        ({"coach_seconds": 0}, "coach_seconds"),
        ({"coach_seconds": float("inf")}, "coach_seconds"),
    ],
)
def test_bad_coach_options_are_refused_by_name(options, name):
    with pytest.raises(sw.SolwidgetError, match=name):
        sw.SolitaireWidget("reversed_solitaire", **options)


def test_bad_coach_traits_are_refused_and_change_nothing():
    w = sw.SolitaireWidget("reversed_solitaire", deal=3)
    for value in (0.0, -1.0, float("nan"), True, "1"):
        with pytest.raises(sw.SolwidgetError, match="coach_seconds"):
            w.coach_seconds = value
    assert w.coach_seconds == 1.0


def test_the_browser_may_switch_the_coach_and_nothing_else_of_it():
    w = sw.SolitaireWidget("reversed_solitaire", deal=3)
    sent = []
    w.send = lambda content, buffers=None: sent.append(content)
    for update in (
        {"coach": "yes"},
        {"verdict": "lost"},
        {"coach_seconds": 60.0},
        {"winnable_only": True},
        {"coach_note": {"losing_move": 1}},
    ):
        w.set_state(update)
        assert w.message_kind == "error" and sent[-1]["type"] == "error"
        assert (w.coach, w.verdict, w.coach_seconds, w.winnable_only) == (False, "", 1.0, False)
    w.set_state({"coach": True})
    assert w.coach is True and settled(w) == WINNABLE


def test_a_deal_lost_by_a_lemma_says_why_and_which_cards():
    w = sw.SolitaireWidget("interlock", deal=13, coach=True)
    assert settled(w) == LOST
    assert w.coach_note["why"].startswith("2♣ can never go home. It lies in a pile that stays covered")
    assert w.coach_note["cards"] == ["2C", "6C"]
    assert "losing_move" not in w.coach_note  # lost from the start: no move lost it


def test_the_search_steps_aside_while_the_kernel_answers_a_message():
    w = sw.SolitaireWidget("reversed_solitaire", deal=3, coach=True, coach_seconds=5.0)
    settled(w)
    w._handle_custom_msg({"type": "noop"}, [])
    assert w._coach_quiet_until > time.monotonic()
    began = time.monotonic()
    w._coach_wait(w._coach_generation)  # sleeps out the quiet time
    assert time.monotonic() - began > 0.05 and time.monotonic() >= w._coach_quiet_until
    w._coach_quiet_until = time.monotonic() + 60
    generation = w._coach_generation
    w.play(w.state.legal_moves()[0])  # a newer position ends the wait at once
    began = time.monotonic()
    w._coach_wait(generation)
    assert time.monotonic() - began < 1


def test_a_mutated_deal_lost_by_its_lemma_says_why_and_which_cards():
    w = sw.SolitaireWidget("mutated", deal=901, coach=True)
    assert settled(w) == LOST and w._judge.searches == 0
    assert w.coach_note["why"].startswith("A♣ can never go home: it never gets nearer than row 2")
    assert w.coach_note["cards"] == ["AC", "2D", "2H"]
