"""The widget in a real browser, in JupyterLab 4 and in Notebook 7: what a person does reaches the kernel.

Each test opens a notebook that shows `sw.SolitaireWidget`, acts on the page with the mouse, then
reads the kernel (through the page's own kernel connection) and the drawn board, and checks that
they agree. The front end knows no rules, so a card drawn in a new place means the kernel moved it.
"""

from __future__ import annotations

import pytest
from harness import BOARD_HELPERS, JS_DRAWN_BOARD, shows, wait_for_board

pytestmark = pytest.mark.browser

GAME, DEAL = "reversed_solitaire", 1

WIDGET_CELL = f"""
import solwidget as sw
w = sw.SolitaireWidget({GAME!r}, deal={DEAL})
w
"""

# Helpers defined in the kernel, so that each probe is one short expression.
HELPERS_CELL = '''
from solwidget.engine.moves import Move
from solwidget.engine.words import reason_words

def _single_card_moves(state, legal):
    """(src, dst, card, reason) for one-card moves from a tableau top card, legal or not."""
    kinds = state.game.pile_kinds
    piles = state.to_dict()["piles"]
    found = []
    for src, cards in piles.items():
        if kinds[src] != "tableau" or not cards or cards[-1].startswith("["):
            continue
        for dst in piles:
            if dst == src or kinds[dst] not in ("tableau", "cell"):
                continue
            reason = state.explain(Move(src, dst, 1))
            if (reason is None) == legal:       # the widget says the reason in the board's words
                found.append((src, dst, cards[-1], reason and reason_words(state, reason)))
    # tableau to tableau first: the target pile then holds cards to click on or drop onto
    return sorted(found, key=lambda m: kinds[m[1]] != "tableau")

def _line(state, length):
    """A few legal moves in a row, each changing the position, as text."""
    seen, line = {state}, []
    while len(line) < length:
        step = next(((m, s) for m, s in state.game.successors(state) if s not in seen), None)
        if step is None:
            break
        line.append(str(step[0]))
        state = step[1]
        seen.add(state)
    return line
'''


def card(page, pile: str, name: str):
    return page.locator(f'[data-pile="{pile}"] [data-card="{name}"]').last


def pile(page, pid: str):
    return page.locator(f'[data-pile="{pid}"]')


def kernel_position(nb) -> dict:
    return nb.value("{'piles': w.state.to_dict()['piles'], 'history': len(w.history)}")


def drag(page, source, target) -> None:
    """Press on ``source``, move in steps to ``target``'s middle, release: a real mouse drag."""
    page.locator('[data-role="status"]').scroll_into_view_if_needed()  # the board's bottom edge
    source.scroll_into_view_if_needed()
    start, end = source.bounding_box(), target.bounding_box()
    viewport = page.viewport_size
    for box in (start, end):
        assert box["y"] >= 0 and box["y"] + box["height"] / 2 <= viewport["height"], "drag ends on screen"
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + min(12, start["height"] / 2))
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 10, start["y"] + 20, steps=4)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()


@pytest.fixture(scope="module")
def shown(module_notebook):
    """One notebook per front end (opening one is the slow part), with the helpers in its kernel."""
    return module_notebook([BOARD_HELPERS + HELPERS_CELL, WIDGET_CELL])


@pytest.fixture
def widget(shown):
    """A new widget in that notebook (its cell run again), drawn as dealt, alone on the page."""
    shown.run_cell(1)
    wait_for_board(shown, shown.value("_board(w.state)"))
    assert shown.page.locator('[data-role="status"]').count() == 1, "one widget on the page"
    return shown


def test_click_card_then_pile_moves_it_in_the_kernel(widget):
    src, dst, name, _ = widget.value("_single_card_moves(w.state, legal=True)")[0]
    before = kernel_position(widget)

    card(widget.page, src, name).click()
    pile(widget.page, dst).click()

    card(widget.page, dst, name).wait_for()
    after = kernel_position(widget)
    assert after["history"] == before["history"] + 1
    assert after["piles"][dst] == before["piles"][dst] + [name]
    assert after["piles"][src] == before["piles"][src][:-1]
    wait_for_board(widget, widget.value("_board(w.state)"))


def test_drag_and_drop_moves_a_card_in_the_kernel(widget):
    src, dst, name, _ = widget.value("_single_card_moves(w.state, legal=True)")[0]
    before = kernel_position(widget)

    drag(widget.page, card(widget.page, src, name), pile(widget.page, dst))

    card(widget.page, dst, name).wait_for()
    after = kernel_position(widget)
    assert after["history"] == before["history"] + 1
    assert after["piles"][dst] == before["piles"][dst] + [name]
    wait_for_board(widget, widget.value("_board(w.state)"))


def test_illegal_attempt_shows_the_reason_and_changes_nothing(widget):
    src, dst, name, reason = widget.value("_single_card_moves(w.state, legal=False)")[0]
    before = kernel_position(widget)
    message = widget.page.locator('[data-role="message"]')

    card(widget.page, src, name).click()
    pile(widget.page, dst).click()

    message.filter(has_text=reason).wait_for()
    assert reason in message.inner_text()
    assert kernel_position(widget) == before
    wait_for_board(widget, widget.value("_board(w.state)"))
    assert card(widget.page, src, name).is_visible()


def test_undo_button_restores_the_position(widget):
    src, dst, name, _ = widget.value("_single_card_moves(w.state, legal=True)")[0]
    dealt = kernel_position(widget)
    card(widget.page, src, name).click()
    pile(widget.page, dst).click()
    card(widget.page, dst, name).wait_for()

    widget.page.locator('[data-action="undo"]').click()

    card(widget.page, src, name).wait_for()
    assert kernel_position(widget) == dealt
    wait_for_board(widget, widget.value("_board(w.state)"))


def test_replay_draws_each_position_of_the_line(widget):
    line = widget.value("_line(w.state, 4)")
    assert len(line) == 4
    steps = widget.value(
        f"[_board(s) for s in __import__('itertools').accumulate({line!r}, "
        "lambda s, m: s.play(m), initial=w.state)][1:]"
    )
    widget.page.evaluate(f"""() => {{
        window._sw_seen = [];
        const record = () => window._sw_seen.push(({JS_DRAWN_BOARD})());
        window._sw_observer = new MutationObserver(record);
        window._sw_observer.observe(document.body, {{subtree: true, childList: true}});
    }}""")

    widget.run(f"w.replay({line!r}, delay=0.3)")

    wait_for_board(widget, steps[-1])
    seen = widget.page.evaluate("() => { window._sw_observer.disconnect(); return window._sw_seen; }")
    stacks = widget.value("_stacks(w.state)")
    drawn_steps = [step for step in steps if any(shows(board, step, stacks) for board in seen)]
    assert drawn_steps == steps, "every position of the replay is drawn in turn"
    widget.run("w.wait(10)")
    assert widget.value("[str(m) for m in w.history]") == line
    assert widget.value("_board(w.state)") == steps[-1]
