"""State._repr_svg_: a position draws itself with no widget, showing only what a player sees."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN, card_name
from solwidget.widget.svg import fan_offsets, row_shifts
from solwidget.widget.sync import visible_piles

NS = "{http://www.w3.org/2000/svg}"


def drawn_cards(svg: str) -> dict[str, list[str]]:
    """pile id -> the data-card codes drawn in that pile's group."""
    root = ET.fromstring(svg)
    out = {}
    for group in root.iter(f"{NS}g"):
        if "data-pile" in group.attrib:
            out[group.attrib["data-pile"]] = [g.attrib["data-card"] for g in group.iter(f"{NS}g")
                                              if "data-card" in g.attrib]
    return out


@pytest.mark.parametrize("game_id", sw.games())
def test_every_pile_and_every_face_up_card_is_drawn(game_id):
    state = sw.load_game(game_id).deal(3)
    state = state.play(state.legal_moves()[0])
    drawn = drawn_cards(state._repr_svg_())
    layout = {p["id"]: p for p in state.game.layout()["piles"]}
    assert set(drawn) == set(state.game.pile_ids)
    for pid, codes in visible_piles(state).items():
        shown = codes[-2:] if layout[pid]["fan"] == "none" else codes   # stacks show their top two
        assert drawn[pid] == [c for c in shown if c != "back"], pid


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


def test_the_picture_is_deterministic_and_sized_by_the_layout():
    state = sw.load_game("triple_interchange").deal(9)
    svg = state._repr_svg_()
    assert svg == sw.load_game("triple_interchange").deal(9)._repr_svg_()
    root = ET.fromstring(svg)
    layout = state.game.layout()
    assert float(root.attrib["width"]) == pytest.approx(layout["width"] * 44 + 2 * 13.2, abs=1)
    assert float(root.attrib["height"]) == pytest.approx(layout["height"] * 44 + 2 * 13.2, abs=1)


def test_a_built_decks_hidden_cards_are_backs():
    state = sw.load_game("mutated").deal(1).play("d1 build")
    base = state.to_dict()["decks"]["d1"]["base"]
    beneath = [c for c in state.pile("d1")[:base] if not c.startswith("[")]
    assert beneath, "deal 1's d1 has face-up cards beneath its base"
    drawn = drawn_cards(state._repr_svg_())["d1"]
    assert drawn == [state.pile("d1")[base]] + state.pile("d1")[base + 1:]


def test_fans_shrink_to_their_room():
    codes = ["back"] * 5 + ["QH"] * 10
    offsets = fan_offsets(codes, "down", room=2.0)
    assert offsets[0] == 0 and offsets[-1] == pytest.approx(2.0)
    assert fan_offsets(["QH", "JS"], "down", room=5.0) == [0.0, 0.3]
    assert fan_offsets(["QH", "JS"], "none", room=5.0) == [0.0, 0.0]


def test_svg_needs_no_jupyter():
    # With these modules set to None, importing them raises ImportError.
    code = ("import sys; sys.modules['anywidget'] = sys.modules['ipywidgets'] = sys.modules['traitlets'] = None\n"
            "import solwidget as sw\n"
            "svg = sw.load_game('interlock').deal(1)._repr_svg_()\n"
            "assert svg.startswith('<svg')\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_a_long_fan_moves_the_row_beneath_it_down():
    piles = [{"id": "a", "x": 0, "y": 0, "z": 0}, {"id": "b", "x": 0.5, "y": 2.4, "z": 0},
             {"id": "c", "x": 3, "y": 2.4, "z": 0}, {"id": "d", "x": 0, "y": 2.4, "z": 1}]
    extents = {"a": 1.9, "b": 1.4, "c": 1.4, "d": 1.4}
    assert row_shifts(piles, extents) == {"a": 0, "b": 0, "c": 0, "d": 0}      # it fits the gap
    extents["a"] = 3.0
    shifts = row_shifts(piles, extents)
    assert shifts["b"] == shifts["c"] == pytest.approx(3.0 + 0.45 - 2.4)       # the row moves as one
    assert shifts["a"] == 0 and shifts["d"] == 0                               # another layer stays
