"""The SVG picture and the widget draw one board: for each seed game, in a position with long
fans (squeezed, pushing rows down), every pile and every drawn card sits at the same place in
the picture (``State._repr_svg_``) and in the widget's DOM, in JupyterLab 4 and in Notebook 7,
up to scale (both in card widths from the board's corner)."""

from __future__ import annotations

import inspect
import json
import math
import xml.etree.ElementTree as ET

import pytest
from helpers import JS_DOM_PLACES, long_fan_positions, svg_places

from solwidget.engine import geometry
from solwidget.engine.svg import PAD, state_svg

pytestmark = pytest.mark.browser

UNIT = inspect.signature(state_svg).parameters["unit"].default  # State._repr_svg_'s pixels per card width
TOLERANCE = 0.01  # card widths (under a pixel at the widget's largest cards)
SEED_GAMES = ("reversed_solitaire", "triple_interchange", "interlock", "mutated")


@pytest.fixture(scope="module")
def positions():
    return long_fan_positions()


@pytest.fixture(scope="module")
def notebook(module_notebook, positions):
    cells = ["import json\nimport solwidget as sw\nwidgets = {}"] + [
        f"state = sw.load_game({game!r}).state_from_dict(json.loads({json.dumps(state.to_dict())!r}))\n"
        f"widgets[{game!r}] = sw.SolitaireWidget(state=state, game={game!r})\nwidgets[{game!r}]"
        for game, state in positions.items()
    ]
    nb = module_notebook(cells)
    nb.page.wait_for_function(f"() => document.querySelectorAll('.sw-root').length === {len(positions)}")
    return nb


def test_the_positions_have_long_fans(positions):
    """Each position has a down fan squeezed to its room, or one that pushes a row down."""
    for game, state in positions.items():
        layout = state.game.layout()
        shown = state.visible()
        placed = geometry.place(layout, shown)["piles"]
        squeezed = [
            p["id"]
            for p in layout["piles"]
            if p["fan"] == "down"
            and len(shown[p["id"]]) > 1
            and placed[p["id"]]["cards"][-1][1]
            < geometry.fan_offsets(shown[p["id"]], "down", math.inf)[-1] - 0.01
        ]
        pushed = [p["id"] for p in layout["piles"] if placed[p["id"]]["y"] > p["y"]]
        assert squeezed or pushed, game


@pytest.mark.parametrize("index, game", list(enumerate(SEED_GAMES)))
def test_the_picture_and_the_widget_draw_the_same_board(notebook, positions, index, game):
    state = positions[game]
    assert notebook.value(f"widgets[{game!r}].state.to_dict()") == json.loads(json.dumps(state.to_dict()))
    svg = notebook.value(f"widgets[{game!r}].state._repr_svg_()")  # the picture the notebook shows
    picture = svg_places(svg, UNIT)
    drawn = notebook.page.evaluate(JS_DOM_PLACES, index)
    assert set(drawn["piles"]) == set(picture)
    for pid, (corner, cards) in picture.items():
        dom_corner, dom_cards = drawn["piles"][pid]
        assert dom_corner == pytest.approx(corner, abs=TOLERANCE), (game, pid)
        assert len(dom_cards) == len(cards), (game, pid)
        for dom_card, card in zip(dom_cards, cards):
            assert dom_card == pytest.approx(card, abs=TOLERANCE), (game, pid)
    size = ET.fromstring(svg).attrib  # whole pixels, the felt's padding included
    assert drawn["width"] == pytest.approx(float(size["width"]) / UNIT - 2 * PAD, abs=0.02)
    assert drawn["height"] == pytest.approx(float(size["height"]) / UNIT - 2 * PAD, abs=0.02)
