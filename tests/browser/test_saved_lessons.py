"""A teaching notebook as a reader first opens it: nothing run, outputs as saved.

Outputs saved elsewhere are not trusted, so the front end draws neither SVG output nor
widgets from them; the lessons' boards are HTML images, and each widget carries one too,
so every board shows before anything runs.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from harness import FIRST_LOAD_TIMEOUT, JS_NOTEBOOK_READY

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PICTURE = 'img[src^="data:image/svg+xml;base64,"]'


def saved_pictures(path: Path) -> int:
    """How many pictures the notebook's saved outputs hold."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    html = [
        "".join(output.get("data", {}).get("text/html", ""))
        for cell in cells
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
    ]
    return sum(len(re.findall(r'<img src="data:image/svg\+xml;base64,', text)) for text in html)


@pytest.mark.parametrize("stem", ["03_interlock", "05_stepping_a_solver"])
def test_a_saved_lesson_shows_every_board_before_anything_runs(module_page, jupyter, stem):
    name = f"saved-{stem}.ipynb"
    shutil.copy(NOTEBOOKS / f"{stem}.ipynb", jupyter.notebooks / name)
    module_page.goto(jupyter.notebook_url(name), timeout=FIRST_LOAD_TIMEOUT)
    module_page.wait_for_function(JS_NOTEBOOK_READY, arg=name, timeout=FIRST_LOAD_TIMEOUT)
    expected = saved_pictures(NOTEBOOKS / f"{stem}.ipynb")
    shown = module_page.wait_for_function(  # a front end may draw the cells a few at a time
        """([selector, expected]) => {
            const pictures = [...document.querySelectorAll(selector)];
            const loaded = pictures.filter(img => img.complete && img.naturalWidth > 100);
            return loaded.length >= expected && loaded.length;
        }""",
        arg=[f".jp-OutputArea-output {PICTURE}", expected],
    ).json_value()

    assert shown == expected
    as_text = module_page.locator(".jp-OutputArea-output", has_text=re.compile(r"^SolitaireWidget\("))
    assert as_text.count() == 0, "a widget shows as its text, not as a picture"
