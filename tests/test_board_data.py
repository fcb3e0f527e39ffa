"""What the board is drawn from and what it asks, in Python: the layouts' narrower
arrangements (for narrow output areas), and the words for cards that cannot be picked up
(face down, or in a covered pile), which the widget sends when the browser asks."""

from __future__ import annotations

import json

import pytest

import solwidget as sw
from solwidget.engine import geometry
from solwidget.engine.cards import FACE_DOWN, card_name
from solwidget.engine.words import reason_words
from solwidget.widget import sync
from solwidget.widget.measure import SyncRecorder

GAMES = sw.games()
FOLDING = [g for g in GAMES if "narrower" in sw.load_game(g).layout()]


def overlapping(one: dict, other: dict) -> bool:
    return (
        one["z"] == other["z"]
        and abs(one["x"] - other["x"]) < 1
        and abs(one["y"] - other["y"]) < geometry.CARD_ASPECT
    )


# ------------------------------------------------------------------ narrower arrangements
def test_every_seed_game_has_an_arrangement_for_narrow_screens():
    assert {
        "triple_interchange",
        "quadruple_interchange",
        "interchange",
        "freecell",
        "reversed_solitaire",
        "interlock",
        "mutated",
    } <= set(FOLDING)


@pytest.mark.parametrize("game_id", FOLDING)
def test_a_narrower_arrangement_places_every_pile_apart_and_is_no_wider(game_id):
    layout = sw.load_game(game_id).layout()
    width = layout["width"]
    for index in range(1, len(layout["narrower"]) + 1):
        board = geometry.arranged(layout, index)
        assert [p["id"] for p in board["piles"]] == [p["id"] for p in layout["piles"]]
        assert board["width"] <= width
        width = board["width"]
        piles = board["piles"]
        assert max(p["x"] + 1 for p in piles) == pytest.approx(board["width"], abs=1e-6)
        assert min(p["x"] for p in piles) >= 0 and min(p["y"] for p in piles) == 0
        assert not [
            (a["id"], b["id"]) for i, a in enumerate(piles) for b in piles[i + 1 :] if overlapping(a, b)
        ]
        fans = [p for p in piles if p["fan"] == "down"]
        stacks = [p for p in piles if p["fan"] == "none"]
        assert min(p["y"] for p in fans) >= max(p["y"] for p in stacks) + geometry.CARD_ASPECT
        assert board["height"] >= max(p["y"] for p in piles) + geometry.CARD_ASPECT


@pytest.mark.parametrize("game_id", ["reversed_solitaire", "triple_interchange", "mutated"])
def test_the_narrowest_arrangement_of_a_seed_game_fits_a_phone(game_id):
    """At 40 px a card (a legible corner index), a 320 px screen's output area (about 280 px
    wide, felt padding taken off) holds seven card widths: these boards need no scrolling."""
    layout = sw.load_game(game_id).layout()
    assert geometry.arranged(layout, len(layout["narrower"]))["width"] <= 6.0


def test_the_narrow_mutated_board_puts_each_deck_beneath_its_row():
    narrow = geometry.arranged(sw.load_game("mutated").layout(), 1)
    places = {p["id"]: p for p in narrow["piles"]}
    for row in (1, 2, 3):
        deck = places[f"d{row}"]
        spaces = [places[f"r{row}c{col}"] for col in range(1, 6)]
        assert all(geometry.beneath(space, deck) for space in spaces), (
            "a fan of any space pushes the deck down"
        )
        if row < 3:
            assert geometry.beneath(deck, places[f"r{row + 1}c5"])
    assert places["r2x"]["y"] == places["d2"]["y"] and places["r2x"]["x"] > places["d2"]["x"] + 3


def test_triple_interchange_folds_its_foundations_to_the_tableaus_width():
    layout = sw.load_game("triple_interchange").layout()
    narrow = geometry.arranged(layout, 1)
    places = {p["id"]: (p["x"], p["y"]) for p in narrow["piles"]}
    tableau = [places[f"t{i}"] for i in range(9)]
    assert narrow["width"] == pytest.approx(tableau[-1][0] + 1 - tableau[0][0])
    assert [places[f"f{i}"][1] for i in range(12)] == [0] * 6 + [geometry.CARD_ASPECT + geometry.ROW_GAP] * 6
    assert [places[f"f{i + 6}"][0] for i in range(6)] == [places[f"f{i}"][0] for i in range(6)]
    assert geometry.arranged(layout, 0) is layout


@pytest.mark.parametrize("game_id", FOLDING)
def test_the_narrower_arrangement_is_drawn_by_the_same_geometry(game_id):
    state = sw.load_game(game_id).deal(2)
    layout = state.game.layout()
    board = geometry.place(geometry.arranged(layout, 1), state.visible())
    assert board["width"] == layout["narrower"][0]["width"]
    assert set(board["piles"]) == set(state.game.pile_ids)


def test_the_board_trait_carries_the_arrangements():
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    assert widget.board["narrower"] == widget.game.layout()["narrower"]
    assert len(json.dumps(widget.board["narrower"])) < 1500


# ------------------------------------------------------------------ cards that cannot be picked up
def test_a_covered_interlock_pile_gives_the_rules_words():
    state = sw.load_game("interlock").deal(7)
    game = state.game
    for pid in game.pile_ids:
        if game.pile_kinds[pid] != "tableau" or not state.pile(pid):
            continue
        reason = game.pickup_refusal(state, pid, len(state.pile(pid)) - 1, 1)
        refusal = state.explain(sw.Move(pid, "f0"))
        if reason is None:
            assert "covered" not in (refusal or ""), pid
        else:
            assert reason == refusal and "covered" in reason, pid
    assert game.pickup_refusal(state, "t0", 0, 1) == "t0 is covered by t9 and t10"
    assert game.pickup_refusal(state, "t29", 0, 1) is None


def test_face_down_cards_are_refused_and_never_named():
    state = sw.load_game("triple_interchange").deal(1)
    game = state.game
    for pid in game.pile_ids:
        cards = state.piles[game.pile_index(pid)]
        for index, card in enumerate(cards):
            reason = game.pickup_refusal(state, pid, index, len(cards) - index)
            if card & FACE_DOWN:
                assert reason == "a face-down card cannot be picked up", (pid, index)
            elif any(c & FACE_DOWN for c in cards[index:]):
                assert reason.startswith(f"{card_name(card)} lies under a face-down card"), (pid, index)
                assert not any(
                    card_name(c & ~FACE_DOWN) in reason
                    for c in cards[index:]
                    if c & FACE_DOWN and c & ~FACE_DOWN != card
                )
            else:
                assert reason is None, (pid, index)


def test_a_mutated_deck_gives_a_face_up_card_from_inside_but_no_hidden_one():
    state = sw.load_game("mutated").deal(1)
    game = state.game
    deck = state.pile("d1")
    inside = next(i for i, c in enumerate(deck[:-1]) if not c.startswith("["))
    assert game.pickup_refusal(state, "d1", inside, 1) is None
    assert game.pickup_refusal(state, "d1", 0, 1) == "a face-down card cannot be picked up"
    built = state.play("d1 build")
    base = built.to_dict()["decks"]["d1"]["base"]
    hidden = next(i for i in range(base) if not built.pile("d1")[i].startswith("["))
    assert game.pickup_refusal(built, "d1", hidden, 1) == "a face-down card cannot be picked up"


def test_no_such_cards_to_pick_up():
    state = sw.load_game("freecell").deal(1)
    assert state.game.pickup_refusal(state, "t0", 7, 1) == "t0 holds 7 cards: no 1 from card 7 up"
    assert state.game.pickup_refusal(state, "t0", 5, 3).startswith("t0 holds 7 cards")


# ------------------------------------------------------------------ the browser asks
def ask(widget, content):
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg(content, [])
    return [m["content"] for m in recorder.messages if m["method"] == "custom"]


def test_a_refused_pick_up_is_explained_and_changes_nothing():
    widget = sw.SolitaireWidget("interlock", deal=7)
    state, pile = widget.state, widget.pile_t0
    replies = ask(widget, {"type": "pick", "src": "t0", "index": 0, "n": 1})
    said = reason_words(state, "t0 is covered by t9 and t10")  # in the board's words
    assert replies == [{"type": "error", "text": said}] and "t9" not in said
    assert widget.message == said and widget.message_kind == "error"
    assert widget.state is state and widget.pile_t0 == pile and widget.history == []
    assert ask(widget, {"type": "pick", "src": "t29", "index": 0, "n": 1}) == []


@pytest.mark.parametrize(
    "content",
    [
        {"type": "pick", "src": "t0", "index": 0},
        {"type": "pick", "src": "t99", "index": 0, "n": 1},
        {"type": "pick", "src": "t0", "index": -1, "n": 1},
        {"type": "pick", "src": "t0", "index": 0, "n": 0},
        {"type": "pick", "src": "t0", "index": 0, "n": 1, "card": "AS"},
    ],
)
def test_a_malformed_pick_message_is_refused(content):
    widget = sw.SolitaireWidget("interlock", deal=7)
    with pytest.raises(sync.BadMessage):
        sync.check_message(widget.game, content, 0)
    state = widget.state
    replies = ask(widget, content)
    assert len(replies) == 1 and replies[0]["type"] == "error" and widget.state is state
