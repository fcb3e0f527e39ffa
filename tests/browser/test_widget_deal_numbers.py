"""Deal numbers typed in the widget's box reach the kernel exactly, and come back exactly, in
a real notebook (JupyterLab 4 and Notebook 7): numbers beyond 2**53 stay text all the way."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CELL = """
import solwidget as sw
w = sw.SolitaireWidget("freecell", deal=1)
w
"""

LONG_DEALS = ["123456789012345678", "99999999999999999999"]  # neither is a float's integer


@pytest.fixture(scope="module")
def notebook(module_notebook):
    return module_notebook([CELL])


@pytest.mark.parametrize("number", LONG_DEALS)
def test_a_long_deal_number_survives_the_round_trip(notebook, number):
    page = notebook.page
    box = page.locator('[data-role="deal"]')
    box.fill(number)
    page.click('[data-action="new"]')
    page.locator('[data-role="message"]').filter(has_text=f"deal {number}").wait_for()
    assert notebook.value("str(w.deal)") == number
    assert notebook.value(f"w.state == sw.load_game('freecell').deal({number})") is True
    page.click('[data-action="restart"]')  # the box is redrawn from the synced trait
    page.locator('[data-role="message"]').filter(has_text="restarted").wait_for()
    assert box.input_value() == number


def test_a_deal_number_out_of_range_is_refused_in_the_box(notebook):
    page = notebook.page
    before = notebook.value("[str(w.deal), w.moves_made]")
    box = page.locator('[data-role="deal"]')
    box.fill("100000000000000000000")
    page.click('[data-action="new"]')  # the kernel checks it, and answers
    page.locator('[data-role="message"]').filter(has_text="out of range").wait_for()
    assert "out of range" in box.evaluate("(input) => input.validationMessage")
    assert box.get_attribute("aria-invalid") == "true"
    assert notebook.value("[str(w.deal), w.moves_made]") == before
