"""The widget's Python side, with the test playing the browser's part.

Messages go in as the comm delivers them (``_handle_custom_msg``, ``set_state``); what
the widget sends back is recorded with ``SyncRecorder``. Every game is covered.
"""

from __future__ import annotations

import json
import re

import ipywidgets
import pytest

import solwidget as sw
import solwidget.engine.game as game_module
from solwidget.engine import geometry
from solwidget.engine.cards import FACE_DOWN, card_name
from solwidget.engine.deals import check_deal_number, deal_rule
from solwidget.engine.errors import InvalidDeal
from solwidget.engine.words import reason_words
from solwidget.widget import sync
from solwidget.widget.measure import SyncRecorder, browser_move, bytes_per_move, encoded_size, playout
from solwidget.widget.widget import pile_trait

GAMES = sw.games()


def send(widget, content):
    """A custom message from the browser; returns (update messages, custom replies)."""
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg(content, [])
    updates = [m["state"] for m in recorder.messages if m["method"] == "update"]
    replies = [m["content"] for m in recorder.messages if m["method"] == "custom"]
    return updates, replies


def synced(widget) -> dict:
    return json.loads(json.dumps({k: v for k, v in widget.get_state().items() if not k.startswith("_")}))


def snapshot(widget):
    return widget.state, list(widget.line), widget.moves_made, synced(widget)


def an_illegal_move(state):
    """A move between two piles that the rules refuse, with the reason."""
    game = state.game
    legal = set(state.legal_moves())
    for src, cards in zip(game.pile_ids, state.piles):
        if not cards or cards[-1] & FACE_DOWN:
            continue
        for dst in game.pile_ids:
            move = sw.Move(src, dst)
            if dst != src and move not in legal and game.pile_kinds[src] != "stock":
                return move, state.explain(move)
    raise AssertionError("no illegal move found")


@pytest.fixture(params=GAMES)
def widget(request):
    return sw.SolitaireWidget(request.param, deal=5)


# ------------------------------------------------------------------ what the browser sees
def stacks(widget) -> set[str]:
    """Piles that do not fan: only their top two cards are drawn, and synced."""
    return {p["id"] for p in widget.board["piles"] if p["fan"] == "none"}


def shown_piles(widget) -> dict[str, list[str]]:
    """Each pile trait, one code per card (``"back*N"`` runs expanded)."""
    state = synced(widget)
    return {pid: sync.expand_pile(state[pile_trait(pid)]) for pid in widget.game.pile_ids}


def test_every_pile_is_synced_as_the_player_sees_it(widget):
    shown = shown_piles(widget)
    for pid, cards in zip(widget.game.pile_ids, widget.state.piles):
        assert len(shown[pid]) == len(cards)
        beneath = len(cards) - 2 if pid in stacks(widget) else 0  # a stack's cards under its top two
        for index, (code, card) in enumerate(zip(shown[pid], cards)):
            face_up = not card & FACE_DOWN and index >= beneath
            assert code == (card_name(card) if face_up else "back")


def test_hidden_cards_are_synced_as_a_count():
    widget = sw.SolitaireWidget("quadruple_interchange", deal=1)
    stock = synced(widget)["pile_stock"]
    assert stock == [f"back*{len(widget.state.pile('stock'))}"]
    for _ in range(5):
        widget.play("stock waste")
    waste = widget.state.to_dict()["piles"]["waste"]
    assert len(waste) >= 5
    assert synced(widget)["pile_waste"] == [
        f"back*{len(waste) - 2}",
        *waste[-2:],
    ]  # a stack: its top two drawn


@pytest.mark.parametrize(
    "codes, compact",
    [
        ([], []),
        (["QH"], ["QH"]),
        (["back"], ["back"]),
        (["back", "back", "QH"], ["back*2", "QH"]),
        (["back", "QH", "back", "back", "back", "KS", "back"], ["back", "QH", "back*3", "KS", "back"]),
    ],
)
def test_runs_of_backs_compact_and_expand(codes, compact):
    assert sync.compact_pile(codes) == compact
    assert sync.expand_pile(compact) == codes


def test_no_face_down_card_reaches_the_browser(widget):
    state = synced(widget)
    shown = [code for codes in shown_piles(widget).values() for code in codes]
    cards = [c for pile in widget.state.piles for c in pile]
    up = [
        c
        for pid, pile in zip(widget.game.pile_ids, widget.state.piles)
        for c in (pile[-2:] if pid in stacks(widget) else pile)
        if not c & FACE_DOWN
    ]
    assert len(shown) == len(cards)
    assert sorted(c for c in shown if c != "back") == sorted(card_name(c) for c in up)
    if widget.game.decks == 1:  # then a hidden card's name would give it away anywhere
        text = json.dumps({k: v for k, v in state.items() if k != "board"})
        for card in cards:
            if card & FACE_DOWN:
                assert not re.search(rf"(?<![A-Za-z0-9]){card_name(card & ~FACE_DOWN)}(?![A-Za-z0-9])", text)


def test_board_status_and_legal_moves_are_synced(widget):
    state = synced(widget)
    assert {p["id"] for p in state["board"]["piles"]} == set(widget.game.pile_ids)
    assert state["board"]["geometry"] == geometry.as_data()
    assert state["legal"] == [str(m) for m in widget.state.legal_moves()]
    assert state["status"]["moves"] == 0
    assert state["status"]["total"] == widget.game.card_count
    assert state["game_id"] == widget.game.id and state["deal"] == "5"  # text: exact at any size


def test_layout_is_ipywidgets_layout_and_syncs_as_one():
    widget = sw.SolitaireWidget("freecell", deal=1)
    assert isinstance(widget.layout, ipywidgets.Layout)
    assert synced(widget)["layout"] == f"IPY_MODEL_{widget.layout.model_id}"
    with SyncRecorder(widget.layout) as recorder:
        widget.layout.width = "600px"
    assert [m["state"] for m in recorder.messages if m["method"] == "update"] == [{"width": "600px"}]


# ------------------------------------------------------------------ moves from the browser
def test_a_legal_move_applies_and_sends_only_what_changed(widget):
    move = widget.state.legal_moves()[0]
    expected = widget.state.play(move)
    before = widget.state
    updates, replies = send(widget, json.loads(json.dumps(sync_move(move))))
    assert widget.state == expected and widget.history == [move] and widget.moves_made == 1
    assert replies == []
    sent_piles = {k for update in updates for k in update if k.startswith("pile_")}
    assert sent_piles == {pile_trait(p) for p in sync.changed_piles(before, expected)}
    assert sent_piles and len(sent_piles) < len(widget.game.pile_ids)


def sync_move(move):
    """The message the browser sends for ``move``: its text, as the kernel gave it."""
    return {"type": "move", "move": str(move)}


def test_a_move_from_the_browser_is_its_text_read_once(monkeypatch):
    widget = sw.SolitaireWidget("mutated", deal=1)
    move = next(m for m in widget.state.legal_moves() if m.card)  # "d1 r1c2 QH": a card named
    texts = []
    reader = game_module.parse_move_text
    monkeypatch.setattr(
        game_module,
        "parse_move_text",
        lambda text: (texts.append(text) if isinstance(text, str) else None) or reader(text),
    )
    send(widget, {"type": "move", "move": str(move)})
    assert widget.history == [move] and texts == [str(move)]


def test_an_illegal_move_is_refused_with_the_rules_reason(widget):
    move, reason = an_illegal_move(widget.state)
    before = snapshot(widget)
    updates, replies = send(widget, sync_move(move))
    assert widget.state == before[0] and widget.line == before[1] and widget.moves_made == 0
    words = reason_words(widget.state, reason)  # the rule, in the board's words
    assert replies == [{"type": "error", "text": words}]
    assert widget.message == words and widget.message_kind == "error"
    assert all(not k.startswith("pile_") for update in updates for k in update)


MALFORMED = [
    "t0 f0",
    ["move", "t0", "f0"],
    {},
    {"type": "teleport"},
    {"type": "move"},
    {"type": "move", "move": ""},
    {"type": "move", "move": "t0"},
    {"type": "move", "move": "nowhere t0"},
    {"type": "move", "move": "t0 nowhere"},
    {"type": "move", "move": "t0 f0 0"},
    {"type": "move", "move": "t0 f0 -3"},
    {"type": "move", "move": "t0 f0 1.5"},
    {"type": "move", "move": "t0 f0 1000000000"},
    {"type": "move", "move": "t0 f0 ZZ"},
    {"type": "move", "move": "t0 f0 2 3"},
    {"type": "move", "move": "t0 f0 " + "9" * 40},
    {"type": "move", "move": 12},
    {"type": "move", "move": ["t0", "f0"]},
    {"type": "move", "move": {"src": "t0", "dst": "f0"}},
    {"type": "move", "src": "t0", "dst": "f0"},  # fields, no text
    {"type": "move", "move": "t0 f0", "sneaky": 1},
    {"type": "move", "move": "t0 f0", "pad": "x" * 5000},
    {"type": "action"},
    {"type": "action", "name": "cheat"},
    {"type": "action", "name": "undo", "deal": 3},
    {"type": "action", "name": "new", "deal": 0},
    {"type": "action", "name": "new", "deal": "seven"},
    {"type": "action", "name": "new", "deal": "100000000000000000000"},
    {"type": "seek", "index": 5},
    {"type": "seek", "index": -1},
    {"type": "seek"},
    {"type": "action", "name": "undo"},  # nothing to undo yet
    {"type": "action", "name": "redo"},  # nothing to redo
    {"type": "action", "name": "replay"},  # nothing to replay
]


@pytest.mark.parametrize("content", MALFORMED, ids=lambda c: json.dumps(c)[:40])
def test_a_malformed_message_changes_nothing(content):
    for game in ("freecell", "mutated", "triple_interchange"):
        widget = sw.SolitaireWidget(game, deal=2)
        before = snapshot(widget)
        _updates, replies = send(widget, content)
        assert len(replies) == 1 and replies[0]["type"] == "error" and replies[0]["text"]
        assert widget.state == before[0] and widget.line == before[1] and widget.moves_made == 0
        after = synced(widget)
        assert {k: v for k, v in after.items() if k not in ("message", "message_kind")} == {
            k: v for k, v in before[3].items() if k not in ("message", "message_kind")
        }
        assert after["message"] == replies[0]["text"] and after["message_kind"] == "error"


def test_the_browser_may_set_only_the_four_colour_switch():
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = snapshot(widget)
    with SyncRecorder(widget) as recorder:
        widget.set_state({"pile_t0": ["AS"], "legal": ["t0 f0"], "four_colour": True})
    assert widget.state == before[0] and synced(widget)["pile_t0"] == before[3]["pile_t0"]
    assert widget.four_colour is False
    assert any(m["method"] == "custom" for m in recorder.messages)
    widget.set_state({"four_colour": True})
    assert widget.four_colour is True
    widget.set_state({"four_colour": "yes"})
    assert widget.four_colour is True and widget.message_kind == "error"


# ------------------------------------------------------------------ undo, redo, seek, actions
def test_undo_and_redo_from_the_browser(widget):
    line = playout(widget.state, 3)
    states = [widget.state]
    for move in line:
        send(widget, sync_move(move))
        states.append(widget.state)
    send(widget, {"type": "action", "name": "undo"})
    assert widget.state == states[-2] and widget.moves_made == len(line) - 1
    assert widget.history == line[:-1] and widget.line == line
    assert synced(widget)["history_length"] == len(line)
    send(widget, {"type": "action", "name": "redo"})
    assert widget.state == states[-1] and widget.history == line
    send(widget, {"type": "seek", "index": 0})
    assert widget.state == states[0]
    # a new move after going back replaces the rest of the line
    send(widget, sync_move(line[0]))
    assert widget.line == line[:1] and widget.state == states[1]


def test_restart_and_new_deal_actions():
    widget = sw.SolitaireWidget("interlock", deal=3)
    start = widget.state
    send(widget, sync_move(widget.state.legal_moves()[0]))
    send(widget, {"type": "action", "name": "restart"})
    assert widget.state == start and widget.line == []
    send(widget, {"type": "action", "name": "new", "deal": 11})
    assert widget.deal == 11 and widget.state == sw.load_game("interlock").deal(11)
    send(widget, {"type": "action", "name": "new"})
    assert widget.deal == 12 and widget.state == sw.load_game("interlock").deal(12)


@pytest.mark.parametrize("typed", ["0", "12x", "-3", "100000000000000000000"])
def test_the_kernel_alone_judges_the_deal_box_and_names_the_field(typed):
    """The box sends what is typed; the rule is engine.deals', and a refusal names the field
    the box shows it in. The board carries the rule in words, for the box's help."""
    widget = sw.SolitaireWidget("freecell", deal=3)
    assert widget.board["deal_rule"] == deal_rule(widget.game.deal_limits)
    with pytest.raises(InvalidDeal) as refusal:
        check_deal_number(int(typed) if typed.isdigit() else typed, widget.game.deal_limits)
    _, replies = send(widget, {"type": "action", "name": "new", "deal": typed})
    assert widget.deal == 3 and widget.state == sw.load_game("freecell").deal(3)
    assert replies == [{"type": "error", "text": str(refusal.value), "field": "deal"}]
    assert widget.message == str(refusal.value) and widget.message_kind == "error"


def test_python_api_play_undo_redo_and_errors():
    widget = sw.SolitaireWidget("freecell", deal=1)
    legal = widget.state.legal_moves()
    widget.play(str(legal[0]))
    assert widget.history == [legal[0]]
    with pytest.raises(sw.IllegalMove):
        widget.play("t0 f0")
    assert widget.history == [legal[0]]
    widget.undo()
    assert widget.moves_made == 0
    with pytest.raises(sw.SolwidgetError):
        widget.undo()
    widget.redo()
    assert widget.moves_made == 1
    with pytest.raises(sw.InvalidDeal):
        widget.new_deal(0)
    assert widget.deal == 1 and widget.moves_made == 1


def test_setting_the_state_from_python_starts_a_new_line():
    widget = sw.SolitaireWidget("freecell", deal=1)
    seen = []
    widget.observe(lambda change: seen.append(change["new"]), names="state")
    other = sw.load_game("freecell").deal(2)
    widget.state = other
    assert widget.state == other and widget.line == [] and seen[-1] == other
    assert synced(widget)["pile_t0"] == other.visible()["t0"]
    with pytest.raises(sw.SolwidgetError):
        widget.state = sw.load_game("interlock").deal(1)
    assert widget.state == other


def test_repr_is_deterministic():
    widget = sw.SolitaireWidget("triple_interchange", deal=7)
    assert repr(widget) == "SolitaireWidget('triple_interchange', deal=7: 0 moves, 0/156 cards home)"
    assert " at 0x" not in repr(widget)


def test_game_options_and_a_given_state():
    widget = sw.SolitaireWidget("freecell", deal=1, cells=2)
    assert [p for p in widget.game.pile_ids if p.startswith("c")] == ["c0", "c1"]
    state = sw.load_game("freecell").deal(9)
    assert sw.SolitaireWidget("freecell", state=state).state == state
    with pytest.raises(sw.SolwidgetError):
        sw.SolitaireWidget("interlock", state=state)
    with pytest.raises(sw.UnknownGame):
        sw.SolitaireWidget("no_such_game")


# ------------------------------------------------------------------ replay
def test_replay_sets_up_the_scrubber_and_seeks(widget):
    line = playout(widget.state, 4)
    start = widget.state
    widget.replay(line, delay=None)
    assert widget.moves_made == 0 and widget.line == line and widget.state == start
    assert synced(widget)["history_length"] == len(line)
    states = [start]
    for move in line:
        states.append(states[-1].play(move))
    for index in (len(line), 1, 0, len(line) - 1):
        send(widget, {"type": "seek", "index": index})
        assert widget.state == states[index] and widget.moves_made == index


def test_replay_animates_in_the_background_to_the_end():
    widget = sw.SolitaireWidget("triple_interchange", deal=2)
    line = playout(widget.state, 5)
    seen = []
    widget.observe(lambda change: seen.append(change["new"]), names="moves_made")
    widget.replay(line, delay=0.001)
    widget.wait(10)
    assert widget.moves_made == len(line) and widget.busy == ""
    assert seen == list(range(1, len(line) + 1))


def test_a_move_during_a_replay_takes_over():
    widget = sw.SolitaireWidget("triple_interchange", deal=2)
    line = playout(widget.state, 5)
    widget.replay(line, delay=30)
    assert widget.busy == "replaying"
    other = next(m for m in widget.state.legal_moves() if m != line[0])
    send(widget, sync_move(other))
    assert widget.busy == "" and widget.history == [other] and widget.line == [other]
    widget.stop()
    assert widget.history == [other]


def test_replay_of_an_illegal_line_changes_nothing():
    widget = sw.SolitaireWidget("freecell", deal=1)
    line = playout(widget.state, 2) + ["t0 f0"]
    with pytest.raises(sw.IllegalMove):
        widget.replay(line, delay=None)
    assert widget.line == [] and widget.state == sw.load_game("freecell").deal(1)


# ------------------------------------------------------------------ hidden cards of built decks
def test_cards_beneath_a_built_decks_base_stay_hidden():
    widget = sw.SolitaireWidget("mutated", deal=1)
    deck = widget.state.pile("d1")
    widget.play("d1 build")
    shown = sync.expand_pile(synced(widget)["pile_d1"])
    base = widget.state.to_dict()["decks"]["d1"]["base"]
    assert shown[:base] == ["back"] * base
    assert shown[base] == deck[-1].strip("[]")
    text = json.dumps(synced(widget))
    for card in widget.state.pile("d1")[:base]:
        if not card.startswith("["):
            assert f'"{card}"' not in json.dumps(synced(widget)["pile_d1"])
    assert '"mode": "built"' in text


# ------------------------------------------------------------------ sizes
# Jupyter's envelope (header, parent header, metadata) adds about 1.1 KB to a move's two comm
# messages (the click, the update): the content must stay well under the other 0.9 KB.
MAX_CONTENT_BYTES = 800


def test_every_move_syncs_well_under_two_kilobytes_for_every_game():
    for game in GAMES:
        result = bytes_per_move(game, deal=1, moves=60)  # long enough to turn stocks
        assert result["moves"] > 0
        assert result["max"] <= MAX_CONTENT_BYTES, (game, result["sizes"])
        assert result["median"] < result["full"] / 3, game


def test_recorder_counts_what_the_comm_carries():
    widget = sw.SolitaireWidget("freecell", deal=1)
    with SyncRecorder(widget) as recorder:
        browser_move(widget, widget.state.legal_moves()[0])
    assert recorder.messages and recorder.bytes == sum(encoded_size(m) for m in recorder.messages)
    assert "_send" not in vars(widget)


# ------------------------------------------------------------------ the solver's part
# Deals whose hint shows a move, where deal 5 is proved lost (a lost position's hint shows none)
HINTED_DEALS = {"interchange": 49, "unlimited": 1, "single_interchange": 28}


def test_hint_highlights_a_legal_move_in_every_game(widget):
    pytest.importorskip("solwidget.solver")
    if widget.game.id in HINTED_DEALS:
        widget.new_deal(HINTED_DEALS[widget.game.id])
    found = widget.hint(max_states=150, max_seconds=1)
    assert found is not None and not found.lost and widget.highlight == [str(found.move)]
    assert found.move in widget.state.legal_moves()
    assert synced(widget)["highlight"] == [str(found.move)]


def test_hint_highlights_a_legal_move():
    pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("freecell", deal=1)
    _updates, replies = send(widget, {"type": "action", "name": "hint"})
    assert replies == []
    assert len(widget.highlight) == 1
    assert widget.game.parse_move(widget.highlight[0]) in widget.state.legal_moves()
    assert widget.message.startswith("hint: ")
    send(widget, sync_move(widget.game.parse_move(widget.highlight[0])))
    assert widget.highlight == []


def test_after_a_win_is_found_hint_answers_from_it_without_searching(monkeypatch):
    solver = pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("freecell", deal=1)
    widget.solve(background=False, max_states=100_000)
    win = [widget.game.parse_move(m) for m in widget.solution]

    def no_search(state, **budget):
        raise AssertionError("the hint searched again")

    monkeypatch.setattr(solver, "hint", no_search)
    for index in range(3):  # along the win: each hint is its next move
        found = widget.hint()
        assert found.winning and found.move == win[index] and found.moves == win[index:]
        assert widget.highlight == [str(win[index])] and widget.message.startswith("hint: ")
        widget.play(found.move)
    widget.play(next(m for m in widget.state.legal_moves() if m != win[3]))
    with pytest.raises(AssertionError, match="searched again"):  # off the win: a search
        widget.hint()
    widget.undo()
    assert widget.hint().move == win[3]
    widget.new_deal(2)
    with pytest.raises(AssertionError, match="searched again"):
        widget.hint()


def test_a_hint_that_finds_a_win_answers_the_next_hints():
    pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("freecell", deal=1)
    first = widget.hint(max_states=100_000)
    assert first.winning
    widget.play(first.move)
    assert widget.hint().moves == first.moves[1:]


def test_autoplay_plays_only_safe_foundation_moves():
    solver = pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("freecell", deal=1)
    widget.play("t0 c0")
    expected = solver.safe_moves(widget.state)
    played = widget.autoplay()
    assert played == expected and widget.history[1:] == expected
    assert all(widget.game.pile_kinds[m.dst] == "foundation" for m in played)


def test_solve_shows_progress_then_offers_a_replay_that_wins():
    pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("freecell", deal=1)
    progress = []
    widget.observe(lambda change: progress.append(change["new"]), names="solver_progress")
    widget.solve(background=False, max_states=100_000)
    final = widget.solver_progress
    assert final["status"] == "won" and final["expanded"] > 0 and not final["running"]
    assert widget.solution and widget.busy == ""
    # "Replay the win": the kernel lays the win out on the replay bar and asks the browser to
    # play it, at the bar's speed (the browser's clock), as every replay of the bar plays.
    _updates, replies = send(widget, {"type": "action", "name": "replay"})
    assert replies == [{"type": "play"}] and widget.busy == ""
    assert widget.moves_made == 0 and widget.history_length == len(widget.solution)
    for index in range(1, len(widget.solution) + 1):
        send(widget, {"type": "seek", "index": index})
    assert widget.state.is_won() and widget.status["won"]
    assert "seconds" not in widget.status and widget.status["text"].endswith(
        f"won in {len(widget.solution)} moves!"
    )
    send(widget, {"type": "action", "name": "replay"})  # again: back to where the win starts
    assert widget.moves_made == 0 and widget.line == [widget.game.parse_move(m) for m in widget.solution]
    send(widget, {"type": "action", "name": "new", "deal": 2})
    assert widget.solution == [] and widget.solver_progress == {}
    _updates, replies = send(widget, {"type": "action", "name": "replay"})
    assert replies == [{"type": "error", "text": "nothing to replay: solve first"}]


def test_a_new_deal_ends_a_running_search():
    pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    widget.solve(max_states=10**7)
    assert widget.busy == "solving"
    widget.new_deal(5)
    assert widget.busy == ""
    widget.wait(30)
    assert widget.solver_progress == {} and widget.solution == [] and widget.deal == 5


def test_a_new_deal_wins_over_a_search_step_already_taken():
    """The window that once let a finished step write the old deal's progress: the step
    is done and waits for the lock while the new deal is dealt."""
    import threading

    solver_module = pytest.importorskip("solwidget.solver")
    stepped = threading.Event()

    class Signalling(solver_module.Solver):
        def step(self, steps):
            progress = super().step(steps)
            stepped.set()
            return progress

    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    with widget._lock:  # the worker's step ends; its progress must wait for the lock
        widget.show_solver(Signalling(widget.state, max_states=10**7), every=0.0)
        assert stepped.wait(30)
        widget.new_deal(5)
    widget.wait(30)
    assert widget.solver_progress == {} and widget.solution == [] and widget.deal == 5


def test_show_solver_runs_in_the_background_and_stops():
    solver_module = pytest.importorskip("solwidget.solver")
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    solver = solver_module.Solver(widget.state, max_states=10**7)
    widget.show_solver(solver, steps=50, every=0.0)
    widget.stop()
    assert widget.busy == ""
    assert widget.solver_progress["status"] in ("stopped", "won", "lost", "unknown")
    assert widget.solver_progress["expanded"] >= 0


def test_hint_searches_within_a_time_budget_unless_told(monkeypatch):
    solver = pytest.importorskip("solwidget.solver")
    asked = []
    real_hint = solver.hint

    def fake_hint(state, **budget):
        asked.append(budget)
        return real_hint(state, max_states=200)

    monkeypatch.setattr(solver, "hint", fake_hint)
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    widget.hint()
    widget.hint(max_seconds=0.5, max_states=10)
    assert asked == [{"max_seconds": sw.SolitaireWidget.HINT_SECONDS}, {"max_seconds": 0.5, "max_states": 10}]
    assert widget.highlight and widget.game.parse_move(widget.highlight[0]) in widget.state.legal_moves()
