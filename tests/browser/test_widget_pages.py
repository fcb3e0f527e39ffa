"""Every game's widget in a real notebook, in JupyterLab 4 and in Notebook 7, as an ipywidget
among others: each draws with no error logged in the page (conftest fails a test on any), and
ipywidgets' own ``layout`` set from Python is honoured."""

from __future__ import annotations

import pytest

import solwidget as sw

pytestmark = pytest.mark.browser

GAMES = sw.games()
CELLS = ["import solwidget as sw\nwidgets = {}"] + [
    f"widgets[{game!r}] = sw.SolitaireWidget({game!r}, deal=2)\nwidgets[{game!r}]" for game in GAMES
]

# Each widget's board (in the order of the cells): the game's name and how many piles it drew.
JS_BOARDS = """() => [...document.querySelectorAll('.sw-root')].map((root) => ({
    name: root.querySelector('.sw-title').textContent,
    piles: root.querySelectorAll('[data-pile]').length,
    cards: root.querySelectorAll('[data-card]').length}))"""


@pytest.fixture(scope="module")
def notebook(module_notebook):
    nb = module_notebook(CELLS)
    nb.page.wait_for_function(f"() => document.querySelectorAll('.sw-root').length === {len(GAMES)}")
    return nb


def test_every_game_draws_without_an_error_in_the_page(notebook):
    drawn = notebook.page.evaluate(JS_BOARDS)
    expected = [
        {"name": sw.load_game(game).name, "piles": len(sw.load_game(game).pile_ids)} for game in GAMES
    ]
    assert [{"name": board["name"], "piles": board["piles"]} for board in drawn] == expected
    assert all(board["cards"] > 0 for board in drawn)


def test_layout_width_set_from_python_is_honoured(notebook):
    page = notebook.page
    root = page.locator(".sw-root").first  # reversed_solitaire, the first game
    before = root.locator(".sw-felt").bounding_box()["width"]
    assert before > 600, "the board is wider than the width about to be set"

    notebook.run(f"widgets[{GAMES[0]!r}].layout.width = '600px'")

    page.wait_for_function("() => document.querySelector('.sw-root').parentElement.style.width === '600px'")
    page.wait_for_function(
        "() => document.querySelector('.sw-root .sw-felt').getBoundingClientRect().width <= 600"
    )
    assert root.evaluate("(r) => r.parentElement.getBoundingClientRect().width") == pytest.approx(600, abs=1)
    assert notebook.value(f"widgets[{GAMES[0]!r}].layout.width") == "600px"
