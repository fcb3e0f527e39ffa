"""A game with face-down cards and a stock (Triple Interchange, 156 cards) in a real browser, in
JupyterLab 4 and in Notebook 7: hidden cards are drawn as backs, and a click on the stock turns a
card in the kernel."""

from __future__ import annotations

import pytest
from harness import BOARD_HELPERS, wait_for_board

pytestmark = pytest.mark.browser

WIDGET_CELL = """
import solwidget as sw
w = sw.SolitaireWidget("triple_interchange", deal=1)
w
"""


@pytest.fixture(scope="module")
def widget(module_notebook):
    nb = module_notebook([BOARD_HELPERS, WIDGET_CELL])
    wait_for_board(nb, nb.value("_board(w.state)"))
    return nb


def test_face_down_cards_are_drawn_as_backs(widget):
    hidden = widget.value(
        "sum(card.startswith('[') for pid, cards in w.state.to_dict()['piles'].items()"
        " if pid.startswith('t') for card in cards)"
    )
    drawn = widget.page.locator('[data-pile^="t"] [data-card="back"]').count()
    assert hidden > 0
    assert drawn == hidden


def test_clicking_the_stock_turns_a_card_in_the_kernel(widget):
    before = widget.value("{'stock': len(w.state.pile('stock')), 'history': len(w.history)}")
    turned = widget.value("_board(w.state.play('stock waste'))")

    widget.page.locator('[data-pile="stock"]').click()

    wait_for_board(widget, turned)
    after = widget.value("{'stock': len(w.state.pile('stock')), 'history': len(w.history)}")
    assert after == {"stock": before["stock"] - 1, "history": before["history"] + 1}
