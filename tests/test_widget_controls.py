"""The widget's controls through the browser's message path, with no browser: Solve's budget,
the replay bar's speed, refusals and Undo/Redo in the board's words, the names a screen
reader says, and a status that times the person's play only."""

from __future__ import annotations

import pytest

import solwidget as sw
from solwidget.engine.errors import SolwidgetError
from solwidget.engine.words import pile_names
from solwidget.widget import sync
from solwidget.widget.measure import SyncRecorder
from solwidget.widget.widget import InvalidTrait

PILE_ID = r"\b(?:[ftc]\d+|r\dc\d|r2x|d\d)\b"


def send(widget, content) -> list[dict]:
    """A custom message from the browser; returns the widget's custom replies."""
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg(content, [])
    return [m["content"] for m in recorder.messages if m["method"] == "custom"]


def browser_sets(widget, data) -> list[dict]:
    """Trait updates from the browser; returns the widget's custom replies."""
    with SyncRecorder(widget) as recorder:
        widget.set_state(data)
    return [m["content"] for m in recorder.messages if m["method"] == "custom"]


# ------------------------------------------------------------------ Solve's budget
@pytest.mark.parametrize("seconds", sync.SOLVE_BUDGETS)
def test_the_browser_may_choose_each_budget_of_solve(seconds):
    widget = sw.SolitaireWidget("freecell", deal=1)
    assert browser_sets(widget, {"solve_seconds": seconds}) == []
    assert widget.solve_seconds == seconds


@pytest.mark.parametrize("value", [0, 5, -1, 1e308, float("nan"), float("inf"), "10", True, [10], {"s": 1}])
def test_a_budget_that_is_not_offered_is_refused_and_changes_nothing(value):
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = widget.get_state()
    replies = browser_sets(widget, {"solve_seconds": value, "four_colour": True})
    assert len(replies) == 1 and replies[0]["type"] == "error"
    assert "may set solve_seconds only to one of 1, 10, 60, null" in replies[0]["text"]
    assert widget.solve_seconds == before["solve_seconds"] and widget.four_colour is False


@pytest.mark.parametrize("value", [0, -2.5, float("nan"), float("inf"), True, "60"])
def test_python_refuses_a_budget_that_is_not_a_positive_number(value):
    widget = sw.SolitaireWidget("freecell", deal=1)
    with pytest.raises(InvalidTrait, match="solve_seconds must be"):
        widget.solve_seconds = value
    assert widget.solve_seconds == 10.0


def test_solve_searches_for_the_time_chosen_with_no_other_limit(monkeypatch):
    solver = pytest.importorskip("solwidget.solver")
    made = []

    class Recording(solver.Solver):
        def __init__(self, state, **options):
            made.append(options)
            super().__init__(state, **options)

    monkeypatch.setattr(solver, "Solver", Recording)
    widget = sw.SolitaireWidget("freecell", deal=1)
    browser_sets(widget, {"solve_seconds": 1})
    send(widget, {"type": "action", "name": "solve"})
    widget.wait(30)
    browser_sets(widget, {"solve_seconds": None})
    send(widget, {"type": "action", "name": "solve"})
    widget.stop()
    assert made == [{"max_seconds": 1.0, "max_states": None}, {"max_seconds": None, "max_states": None}]
    assert widget.solver_progress["max_states"] is None and widget.solver_progress["max_seconds"] is None


@pytest.mark.slow
def test_solve_at_sixty_seconds_proves_triple_interchange_765_lost():
    """Under the old cap of 200,000 states the answer was "unknown"; 60 s with no state cap
    proves it (about 10 s compiled)."""
    pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("triple_interchange", deal=765)
    assert browser_sets(widget, {"solve_seconds": 60}) == []
    send(widget, {"type": "action", "name": "solve"})
    widget.wait(180)
    assert widget.solver_progress["status"] == "lost", widget.solver_progress.get("summary")
    assert widget.solver_progress["expanded"] > 200_000
    assert widget.message.startswith("solver: lost (proved")


# ------------------------------------------------------------------ the replay bar's speed
@pytest.mark.parametrize("delay", sync.REPLAY_SPEEDS)
def test_the_browser_sets_the_replay_speed(delay):
    widget = sw.SolitaireWidget("freecell", deal=1)
    assert browser_sets(widget, {"replay_delay": delay}) == []
    assert widget.replay_delay == delay


@pytest.mark.parametrize("value", [0.3, -1, None, "fast", float("nan")])
def test_a_speed_that_is_not_offered_is_refused(value):
    widget = sw.SolitaireWidget("freecell", deal=1)
    replies = browser_sets(widget, {"replay_delay": value})
    assert replies[0]["type"] == "error" and "may set replay_delay only to one of" in replies[0]["text"]
    assert widget.replay_delay == 0.5


def test_replay_the_win_asks_the_browser_to_play_it_at_the_bars_speed():
    widget = sw.SolitaireWidget("freecell", deal=1)
    win = sw.solve(widget.state, max_states=100_000).moves
    widget._offered, widget._solution_from, widget.solution = win, widget.state, [str(m) for m in win]
    assert send(widget, {"type": "action", "name": "replay"}) == [{"type": "play"}]
    assert widget.busy == "" and widget.history_length == len(win) and widget.moves_made == 0


# ------------------------------------------------------------------ words
def test_a_covered_interlock_card_is_refused_in_card_words():
    widget = sw.SolitaireWidget("interlock", deal=7)
    reason = widget.game.pickup_refusal(widget.state, "t9", 0, 1)
    assert "t9 is covered by t19 and t20" in reason
    replies = send(widget, {"type": "pick", "src": "t9", "index": 0, "n": 1})
    assert replies[0]["type"] == "error"
    import re

    assert not re.search(PILE_ID, widget.message), widget.message
    top = widget.state.pile("t19")[-1]
    assert "is covered by" in widget.message and sw.engine.words.card_words(top) in widget.message
    widget.show_ids = True
    send(widget, {"type": "pick", "src": "t9", "index": 0, "n": 1})
    assert widget.message.endswith(f"({reason})"), "with pile ids shown, the rule's text too"


def test_undo_and_redo_say_what_they_undid():
    widget = sw.SolitaireWidget("freecell", deal=1)
    said = sw.engine.words.move_words(widget.state, widget.game.parse_move("t0 c0"))
    widget.play("t0 c0")
    send(widget, {"type": "action", "name": "undo"})
    assert (widget.message, widget.message_kind) == (f"undone: {said}", "info")
    send(widget, {"type": "action", "name": "redo"})
    assert (widget.message, widget.message_kind) == (f"redone: {said}", "info")


def test_every_pile_has_a_spoken_name_and_the_board_carries_them():
    for game_id in ("reversed_solitaire", "triple_interchange", "interlock", "mutated"):
        widget = sw.SolitaireWidget(game_id, deal=1)
        names = widget.board["names"]
        assert set(names) == set(widget.game.pile_ids)
        assert len(set(names.values())) == len(names), "no two piles are named alike"
    names = pile_names(sw.load_game("reversed_solitaire").layout())
    assert names["t2"] == "the third tableau pile" and names["c0"] == "the first free cell"
    names = pile_names(sw.load_game("interlock").layout())
    assert names["t0"] == "the first back pile" and names["t19"] == "the first front pile"
    assert pile_names(sw.load_game("mutated").layout())["d1"] == "the deck in row 1"


def test_mutateds_build_button_is_named_in_words():
    widget = sw.SolitaireWidget("mutated", deal=1)
    builds = [m for m in widget.state.legal_moves() if m.dst == "build"]
    assert builds, "deal 1 offers a build"
    assert widget.action_words == {
        str(m): f"turn the deck in row {m.src[1]} into a built pile" for m in builds
    }


def test_mutateds_rules_panel_speaks_no_pile_ids():
    import re

    summary = sw.SolitaireWidget("mutated", deal=1).board["summary"]
    assert not re.search(PILE_ID + r"|\bdN\b", summary), summary


# ------------------------------------------------------------------ status
def test_a_replayed_win_is_not_timed_and_reads_as_every_win():
    widget = sw.SolitaireWidget("freecell", deal=1)
    win = sw.solve(widget.state, max_states=100_000).moves
    widget.play(win[0])  # the person's clock starts
    widget.replay(win[1:], delay=None)
    widget.seek(len(win))
    status = widget.status
    assert status["won"] and "seconds" not in status
    assert status["text"] == f"52/52 cards home · won in {len(win)} moves!"


def test_a_win_the_person_plays_says_how_long_it_took():
    widget = sw.SolitaireWidget("freecell", deal=1)
    win = sw.solve(widget.state, max_states=100_000).moves
    widget.replay(win[:-1], delay=None)
    widget.seek(len(win) - 1)
    widget.play(win[-1])
    assert widget.status["won"] and widget.status["seconds"] == 0
    assert widget.status["text"] == f"52/52 cards home · won in {len(win)} moves and 0 s!"


def test_a_win_reads_the_same_without_the_widget():
    game = sw.load_game("freecell")
    state = game.deal(1)
    for move in sw.solve(state, max_states=100_000).moves:
        state = state.play(move)
    assert sync.status_of(state, 90)["text"] == "52/52 cards home · won in 90 moves!"
    assert sync.status_of(state, 1, 75)["text"] == "52/52 cards home · won in 1 move and 1 min 15 s!"


def test_a_message_from_the_browser_that_does_not_fit_changes_nothing():
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = widget.get_state()
    replies = browser_sets(widget, {"replay_delay": 0.2, "moves_made": 3})
    assert "may not set moves_made" in replies[0]["text"]
    assert widget.replay_delay == before["replay_delay"]
    with pytest.raises(SolwidgetError):
        sync.check_sync_data([], widget.BROWSER_TRAITS)
