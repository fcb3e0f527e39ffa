"""The coach's meter in a real browser, in JupyterLab 4 and Notebook 7: the verdict shown after
a move, a losing move flagged and undone with one click, and no move blocked while judging."""

from __future__ import annotations

import inspect
import time

import pytest
from harness import BOARD_HELPERS, wait_for_board
from helpers import played_with_a_mistake

pytestmark = pytest.mark.browser

HELPERS_CELL = (
    inspect.getsource(played_with_a_mistake)
    + """
import solwidget as sw

_, LINE = played_with_a_mistake()
GAME, DEAL, OPTIONS = "reversed_solitaire", 3, {"coach_seconds": 5.0}
LOSING = sw.review(sw.load_game("reversed_solitaire").deal(3), LINE, max_seconds=5.0,
                   crossroads=False).first_losing.number
"""
)

WIDGET_CELL = """
w = sw.SolitaireWidget(GAME, deal=DEAL, **OPTIONS)
w
"""


@pytest.fixture(scope="module")
def shown(module_notebook):
    return module_notebook([BOARD_HELPERS + HELPERS_CELL, WIDGET_CELL])


def fresh(nb):
    nb.run_cell(1)
    wait_for_board(nb, nb.value("_board(w.state)"))
    return nb.page


def verdict_shown(page, text):
    page.locator('[data-role="verdict"]').filter(has_text=text).wait_for(timeout=30_000)


def test_the_toggle_turns_the_coach_on_and_the_verdict_shows_after_a_move(shown):
    page = fresh(shown)
    assert page.locator('[data-role="coach"]').is_hidden()
    page.locator('input[data-role="coach-switch"]').check()
    verdict_shown(page, "winnable")
    assert shown.value("w.coach") is True and shown.value("w.verdict") == "winnable"
    shown.run("w.play(LINE[0])")
    verdict_shown(page, "winnable")
    assert shown.value("w.moves_made") == 1
    page.locator('input[data-role="coach-switch"]').uncheck()
    page.locator('[data-role="coach"]').wait_for(state="hidden")
    assert shown.value("w.verdict") == ""


def test_a_losing_move_is_flagged_and_undone_with_one_click(shown):
    page = fresh(shown)
    shown.run("w.coach = True")
    verdict_shown(page, "winnable")
    losing = shown.value("LOSING")
    shown.run("for _m in LINE[:LOSING]: w.play(_m)")
    verdict_shown(page, "lost the game")
    said = page.locator('[data-role="verdict"]').inner_text()
    assert "no line wins" in said and any(suit in said for suit in "♣♦♥♠")
    assert page.locator('[data-role="current-move"]').inner_text().endswith("this move lost the game")
    back = page.locator('[data-action="coach-back"]')
    assert back.inner_text() == f"Go back to before move {losing}"
    back.click()
    page.locator('[data-role="position"]').filter(has_text=f"{losing - 1} / {losing}").wait_for()
    verdict_shown(page, "winnable")
    assert shown.value("w.moves_made") == losing - 1 and shown.value("w.verdict") == "winnable"
    assert back.is_hidden()


def test_no_move_waits_for_the_verdict(shown):
    # Triple Interchange deal 765 takes the solver seconds to prove lost: while the meter
    # judges, a move by clicks lands at once, and the new position is judged in its turn
    shown.run('GAME, DEAL, OPTIONS = "triple_interchange", 765, {"coach": True, "coach_seconds": 60.0}')
    page = fresh(shown)
    verdict_shown(page, "judging")
    shown.run(f"import inspect\nexec(inspect.cleandoc({_ONE_CARD_MOVE!r}))")
    src, dst = shown.value("_one_card_move(w.state)")
    began = time.monotonic()
    page.locator(f"[data-pile='{src}'] [data-card]").last.click(position={"x": 6, "y": 6})
    page.locator(f"[data-pile='{dst}']").click()
    page.locator('[data-role="position"]').filter(has_text="1 / 1").wait_for()
    assert time.monotonic() - began < 5
    assert shown.value("[str(m) for m in w.history]") == [f"{src} {dst}"]
    assert shown.value("w.coach_note['judging']") is True  # the new position, in its turn
    verdict_shown(page, "judging")
    shown.run("w.coach = False")


_ONE_CARD_MOVE = """
def _one_card_move(state):
    kinds = state.game.pile_kinds
    return next([m.src, m.dst] for m in state.legal_moves()
                if m.n == 1 and kinds[m.src] == "tableau" and kinds[m.dst] in ("tableau", "foundation"))
"""


def test_a_lost_deal_shows_why_and_outlines_its_cards(shown):
    shown.run('GAME, DEAL, OPTIONS = "interlock", 13, {"coach": True}')
    page = fresh(shown)
    verdict_shown(page, "lost")
    page.locator('[data-role="why"]').filter(has_text="2♣ can never go home").wait_for()
    outlined = page.evaluate(
        "() => [...document.querySelectorAll('.sw-coach-card')].map(n => n.dataset.card)"
    )
    assert sorted(set(outlined)) == ["2C", "6C"]
    shown.run("w.coach = False")
    page.locator(".sw-coach-card").first.wait_for(state="detached")
