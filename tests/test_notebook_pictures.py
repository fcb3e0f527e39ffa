"""Pictures that a saved notebook shows before anything runs.

JupyterLab draws an SVG output, and a widget, only in a trusted notebook (one whose outputs
were made on this machine); a notebook opened from a clone shows instead the first output
format it deems safe, such as HTML. So the widget carries a still picture of its position as
HTML, and the teaching notebooks (notebooks/) are saved with their pictures as HTML images.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from IPython.core.formatters import DisplayFormatter

import solwidget as sw

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
# The lessons with boards, and the deal each opens on (06_winnability has plots, no boards).
DEALS = [
    ("01_reversed_solitaire", "reversed_solitaire", 1),
    ("02_triple_interchange", "triple_interchange", 1),
    ("03_interlock", "interlock", 1),
    ("04_mutated_solitaire", "mutated", 5),
    ("05_stepping_a_solver", "reversed_solitaire", 1),
]
IMAGE = re.compile(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def html_pictures(html: str) -> list[str]:
    """The SVG pictures inside HTML output, decoded."""
    return [base64.b64decode(data).decode() for data in IMAGE.findall(html)]


def saved_outputs(path: Path) -> list[dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [output for cell in cells if cell["cell_type"] == "code" for output in cell["outputs"]]


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


@pytest.mark.parametrize("game_id", ["reversed_solitaire", "interlock", "mutated"])
def test_a_widget_shows_a_still_picture_of_its_position_beside_its_view(game_id):
    widget = sw.SolitaireWidget(game_id, deal=3)
    bundle, _ = DisplayFormatter().format(widget)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert html_pictures(bundle["text/html"]) == [widget.state._repr_svg_()]

    after = widget.play(widget.state.legal_moves()[0])
    assert html_pictures(widget._repr_html_()) == [after._repr_svg_()]
    assert after._repr_svg_() != sw.load_game(game_id).deal(3)._repr_svg_()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_saved_widget_output_has_its_still_picture(path):
    for output in saved_outputs(path):
        data = output.get("data", {})
        if text(data.get("text/plain", "")).startswith("SolitaireWidget("):
            assert html_pictures(text(data.get("text/html", ""))), f"{path.name}: a widget with no picture"


@pytest.mark.parametrize(("stem", "game_id", "deal"), DEALS)
def test_a_lesson_is_saved_with_its_pictures_and_opens_on_the_deal(stem, game_id, deal):
    path = next(path for path in NOTEBOOKS if path.stem == stem)
    outputs = saved_outputs(path)
    pictures = [
        i
        for i, output in enumerate(outputs)
        if html_pictures(text(output.get("data", {}).get("text/html", "")))
    ]
    widgets = [
        i
        for i, output in enumerate(outputs)
        if "application/vnd.jupyter.widget-view+json" in output.get("data", {})
    ]
    assert len(pictures) >= 2, f"{stem} is saved without its pictures"
    assert all(pictures[0] < i for i in widgets), (
        f"{stem}: a live widget comes before the picture of the deal"
    )
    first = html_pictures(text(outputs[pictures[0]]["data"]["text/html"]))
    assert first == [sw.load_game(game_id).deal(deal)._repr_svg_()], (
        f"{stem}: its first picture is not the deal"
    )
