"""State._repr_svg_ and the board's geometry: a position draws itself with no widget, showing
only what a player sees, where the engine's geometry places it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest
from helpers import svg_places

import solwidget as sw
from solwidget.engine import geometry
from solwidget.engine.cards import FACE_DOWN, card_name
from solwidget.engine.geometry import fan_offsets, place, row_shifts
from solwidget.engine.svg import state_svg

NS = "{http://www.w3.org/2000/svg}"


def drawn_cards(svg: str) -> dict[str, list[str]]:
    """pile id -> the data-card codes drawn in that pile's group."""
    root = ET.fromstring(svg)
    out = {}
    for group in root.iter(f"{NS}g"):
        if "data-pile" in group.attrib:
            out[group.attrib["data-pile"]] = [
                g.attrib["data-card"] for g in group.iter(f"{NS}g") if "data-card" in g.attrib
            ]
    return out


@pytest.mark.parametrize("game_id", sw.games())
def test_every_pile_and_every_face_up_card_is_drawn(game_id):
    state = sw.load_game(game_id).deal(3)
    state = state.play(state.legal_moves()[0])
    drawn = drawn_cards(state._repr_svg_())
    layout = {p["id"]: p for p in state.game.layout()["piles"]}
    assert set(drawn) == set(state.game.pile_ids)
    for pid, codes in state.visible().items():
        shown = codes[-2:] if layout[pid]["fan"] == "none" else codes  # stacks show their top two
        assert drawn[pid] == shown, pid


@pytest.mark.parametrize("game_id", [g for g in sw.games() if sw.load_game(g).decks == 1])
def test_face_down_cards_are_drawn_as_backs_only(game_id):
    state = sw.load_game(game_id).deal(4)
    svg = state._repr_svg_()
    names = set(card_name(c) for pile in state.piles for c in pile if not c & FACE_DOWN)
    for pile in state.piles:
        for card in pile:
            if card & FACE_DOWN:
                name = card_name(card & ~FACE_DOWN)
                assert name not in names and f'data-card="{name}"' not in svg


def test_the_picture_is_deterministic_and_as_tall_as_its_cards_reach():
    state = sw.load_game("triple_interchange").deal(9)
    svg = state._repr_svg_()
    assert svg == sw.load_game("triple_interchange").deal(9)._repr_svg_()
    root = ET.fromstring(svg)
    layout = state.game.layout()
    assert float(root.attrib["width"]) == pytest.approx(layout["width"] * 44 + 2 * 13.2, abs=1)
    lowest = max(
        y + geometry.CARD_ASPECT + cards[-1][1] for (_, y), cards in svg_places(svg, 44).values() if cards
    )
    height = (float(root.attrib["height"]) - 2 * 13.2) / 44  # whole pixels: +-0.5 / 44
    assert lowest + 0.2 - 0.012 <= height <= lowest + 0.2 + 0.25 + 0.012  # a margin, in quarter steps


@pytest.mark.parametrize("game_id", sw.games())
def test_the_picture_draws_where_the_geometry_places(game_id):
    state = sw.load_game(game_id).deal(5)
    board = place(state.game.layout(), state.visible())
    unit = 50.0
    drawn = svg_places(state_svg(state, unit=unit), unit)
    assert set(drawn) == set(board["piles"])
    for pid, ((x, y), cards) in drawn.items():
        placed = board["piles"][pid]
        assert (x, y) == (pytest.approx(placed["x"], abs=0.003), pytest.approx(placed["y"], abs=0.003)), pid
        expected = placed["cards"] if state.visible()[pid] else []
        assert cards == [
            (pytest.approx(dx, abs=0.003), pytest.approx(dy, abs=0.003)) for dx, dy in expected
        ], pid


def test_a_built_decks_hidden_cards_are_backs():
    state = sw.load_game("mutated").deal(1).play("d1 build")
    base = state.to_dict()["decks"]["d1"]["base"]
    beneath = [c for c in state.pile("d1")[:base] if not c.startswith("[")]
    assert beneath, "deal 1's d1 has face-up cards beneath its base"
    drawn = drawn_cards(state._repr_svg_())["d1"]
    assert drawn == ["back"] * base + state.pile("d1")[base:]
    assert not set(beneath) & set(drawn)


class Veiled(type(sw.load_game("freecell"))):
    """FreeCell whose rules hide the two lowest cards of t0, and whose positions carry a
    pile entry with a "base" index that hides nothing."""

    id = "test_veiled_freecell"

    def hidden_below(self, state):
        return {"t0": 2}

    def _extra_to_dict(self, extra):
        return {"marks": {"t1": {"base": 3}}}


def test_what_a_player_sees_is_the_games_answer_not_read_from_its_position_data():
    state = Veiled().deal(1)
    seen = state.visible()
    assert seen["t0"] == ["back", "back"] + state.pile("t0")[2:]
    assert seen["t1"] == state.pile("t1")
    assert drawn_cards(state._repr_svg_())["t0"] == seen["t0"]
    assert state.game.visible_pile(state, "t0") == seen["t0"]
    assert state.game.pickup_refusal(state, "t0", 1, 1) == "a face-down card cannot be picked up"
    assert state.game.pickup_refusal(state, "t1", 0, 1) is None


def test_fans_shrink_to_their_room_backs_first():
    codes = ["back"] * 5 + ["QH"] * 10
    assert fan_offsets(["QH", "JS"], "down", room=5.0) == [0.0, 0.3]
    assert fan_offsets(["QH", "JS"], "none", room=5.0) == [0.0, 0.0]
    assert fan_offsets([], "down", room=5.0) == []
    natural = fan_offsets(codes, "down", room=10.0)
    assert natural[5] == pytest.approx(5 * 0.14) and natural[-1] == pytest.approx(5 * 0.14 + 9 * 0.3)
    # A little too long: only the backs close up, the face-up steps keep their size.
    offsets = fan_offsets(codes, "down", room=natural[-1] - 0.25)
    assert offsets[-1] == pytest.approx(natural[-1] - 0.25)
    assert offsets[5] == pytest.approx(5 * (0.14 - 0.05))
    assert [b - a for a, b in pairwise(offsets[5:])] == pytest.approx([0.3] * 9)
    # Much too long: the backs at their least, then every step alike.
    offsets = fan_offsets(codes, "down", room=2.0)
    assert offsets[0] == 0 and offsets[-1] == pytest.approx(2.0)
    steps = [b - a for a, b in pairwise(offsets)]
    assert steps[0] / steps[-1] == pytest.approx(geometry.MIN_BACK_STEP / 0.3)


def test_right_fans_stop_before_the_next_pile_and_unlimited_down_fans_push():
    layout = sw.load_game("mutated").layout()
    piles = {p["id"]: p for p in layout["piles"]}
    d2 = piles["d2"]
    assert geometry.fan_room(d2, layout) == pytest.approx(piles["r2x"]["x"] - d2["x"] - 1 - 0.1)
    assert geometry.fan_room(piles["r1c1"], layout) == float("inf")  # r2c1 lies beneath it
    assert geometry.fan_room(piles["r3c1"], layout) == pytest.approx(
        max(layout["height"] - piles["r3c1"]["y"] - geometry.CARD_ASPECT, geometry.MIN_FAN_ROOM)
    )


def test_the_layouts_use_the_geometry():
    freecell = {p["id"]: p for p in sw.load_game("freecell").layout()["piles"]}
    assert freecell["t0"]["y"] == pytest.approx(geometry.CARD_ASPECT + geometry.ROW_GAP)
    assert freecell["c1"]["x"] - freecell["c0"]["x"] == pytest.approx(1 + geometry.PILE_GAP)
    mutated = {p["id"]: p for p in sw.load_game("mutated").layout()["piles"]}
    assert mutated["r1c1"]["y"] == pytest.approx(geometry.CARD_ASPECT + geometry.ROW_GAP)


def test_the_geometry_is_sent_as_json_data():
    data = geometry.as_data()
    assert json.loads(json.dumps(data)) == data
    assert data["card_aspect"] == geometry.CARD_ASPECT and data["fan_step"] == geometry.FAN_STEP


def test_svg_needs_no_jupyter():
    # With these modules set to None, importing them raises ImportError.
    code = (
        "import sys; sys.modules['anywidget'] = sys.modules['ipywidgets'] = sys.modules['traitlets'] = None\n"
        "import solwidget as sw\n"
        "svg = sw.load_game('interlock').deal(1)._repr_svg_()\n"
        "assert svg.startswith('<svg')\n"
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_a_long_fan_moves_the_row_beneath_it_down():
    piles = [
        {"id": "a", "x": 0, "y": 0, "z": 0},
        {"id": "b", "x": 0.5, "y": 2.4, "z": 0},
        {"id": "c", "x": 3, "y": 2.4, "z": 0},
        {"id": "d", "x": 0, "y": 2.4, "z": 1},
    ]
    extents = {"a": 1.9, "b": 1.4, "c": 1.4, "d": 1.4}
    assert row_shifts(piles, extents) == {"a": 0, "b": 0, "c": 0, "d": 0}  # it fits the gap
    extents["a"] = 3.0
    shifts = row_shifts(piles, extents)
    assert shifts["b"] == shifts["c"] == pytest.approx(3.0 + geometry.PUSH_GAP - 2.4)  # the row moves as one
    assert shifts["a"] == 0 and shifts["d"] == 0  # another layer stays
