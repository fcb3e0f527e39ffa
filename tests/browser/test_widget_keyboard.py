"""Keyboard play in a real notebook, in JupyterLab 4 and in Notebook 7: the widget's keys
(arrows, Enter, u, r) reach the widget, not the notebook's own shortcuts (r: raw cell)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CELL = """
import solwidget as sw
game = sw.load_game("freecell")
deal = next(n for n in range(1, 500) if any(
    m.src[0] == m.dst[0] == "t" and m.n == 1 for m in game.deal(n).legal_moves()))
w = sw.SolitaireWidget("freecell", deal=deal)
move = next(m for m in w.state.legal_moves() if m.src[0] == m.dst[0] == "t" and m.n == 1)
w
"""

JS_CELL_KINDS = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(
    (cell) => cell.classList.contains('jp-CodeCell') ? 'code' : 'other')"""


@pytest.fixture(scope="module")
def notebook(module_notebook):
    return module_notebook([CELL])


def test_keys_play_undo_and_redo_in_the_kernel(notebook):
    page = notebook.page
    src, dst = notebook.value("[move.src, move.dst]")
    cells = page.evaluate(JS_CELL_KINDS)
    page.focus(f'[data-pile="{src}"]')
    page.keyboard.press("Enter")
    assert page.locator(f'[data-pile="{src}"] .sw-picked').count() == 1
    steps = int(dst[1:]) - int(src[1:])
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.pile") == dst
    page.keyboard.press("Enter")
    page.locator('[data-role="status"]').filter(has_text="1 move ").wait_for()
    assert notebook.value("[str(m) for m in w.history]") == [f"{src} {dst}"]

    page.keyboard.press("u")
    page.locator('[data-role="status"]').filter(has_text="0 moves").wait_for()
    page.keyboard.press("r")
    page.locator('[data-role="status"]').filter(has_text="1 move ").wait_for()
    assert notebook.value("w.moves_made") == 1
    assert page.evaluate(JS_CELL_KINDS) == cells, "the notebook's own shortcuts stayed out"
