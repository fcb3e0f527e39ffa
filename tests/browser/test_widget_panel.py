"""The widget's words, replay bar, safe moves home and solver panel in a real browser, in
JupyterLab 4 and in Notebook 7: what the page shows agrees with the kernel."""

from __future__ import annotations

import re

import pytest
from harness import BOARD_HELPERS, wait_for_board

pytestmark = pytest.mark.browser

PILE_ID = re.compile(r"\b(?:[ftc]\d+|r\dc\d|r2x|d\d)\b")
SEED_GAMES = ["reversed_solitaire", "triple_interchange", "interlock", "mutated"]

HELPERS_CELL = '''
import solwidget as sw
from solwidget.engine.moves import Move
from solwidget.engine.words import move_words, reason_words
GAME, DEAL = "freecell", 1

def _refused(state):
    """A one-card move from a face-up tableau top that the rules refuse, and its words."""
    piles = state.to_dict()["piles"]
    for src, cards in piles.items():
        if state.game.pile_kinds[src] == "tableau" and cards and not cards[-1].startswith("["):
            for dst in piles:
                reason = state.explain(Move(src, dst)) if dst != src else None
                if reason and state.game.pile_kinds[dst] == "tableau":
                    return src, dst, reason_words(state, reason)

def _sends_cards_home(game_id):
    """A position of a won line, and a one-card move from it after which cards go home safely."""
    game = sw.load_game(game_id)
    for deal in range(1, 40):
        state = game.deal(deal)
        for move in sw.solve(state, max_states=30_000).moves:
            after = state.play(move)
            plain = move.n == 1 and move.card is None and move.dst in game.pile_kinds
            if plain and game.pile_kinds[move.src] != "stock" and sw.safe_moves(after) and not sw.safe_moves(state):
                return state.to_dict(), str(move), [str(m) for m in sw.safe_moves(after)]
            state = after
'''

WIDGET_CELL = """
w = sw.SolitaireWidget(GAME, deal=DEAL)
w
"""


@pytest.fixture(scope="module")
def shown(module_notebook):
    return module_notebook([BOARD_HELPERS + HELPERS_CELL, WIDGET_CELL])


def new_widget(nb, game="freecell", deal=1):
    """A new widget of ``game`` in the notebook (its cell run again), drawn as dealt."""
    nb.run(f"GAME, DEAL = {game!r}, {deal}")
    nb.run_cell(1)
    wait_for_board(nb, nb.value("_board(w.state)"))
    return nb.page


def message(page):
    return page.locator('[data-role="message"]')


def position(page, made, length):
    page.locator('[data-role="position"]').filter(has_text=re.compile(rf"^{made} / {length}$")).wait_for()


# ------------------------------------------------------------------ words
def test_a_refusal_is_said_in_card_names(shown):
    page = new_widget(shown)
    src, dst, words = shown.value("_refused(w.state)")
    page.focus(f'[data-pile="{src}"]')
    page.keyboard.press("Enter")
    page.focus(f'[data-pile="{dst}"]')
    page.keyboard.press("Enter")
    message(page).filter(has_text=words).wait_for()
    assert message(page).inner_text() == words
    assert not PILE_ID.search(words) and re.search(r"[♣♦♥♠]", words)
    assert shown.value("len(w.history)") == 0


def test_a_hint_is_said_in_card_names(shown):
    page = new_widget(shown)
    page.locator('[data-action="hint"]').click()
    message(page).filter(has_text="hint: ").wait_for()
    page.locator(".sw-hint-src").first.wait_for()
    expected = shown.value("'hint: ' + move_words(w.state, w.highlight[0])")
    assert message(page).inner_text().startswith(expected)
    assert not PILE_ID.search(message(page).inner_text())


def test_the_pile_ids_switch_labels_the_piles(shown):
    page = new_widget(shown)
    page.locator('[data-role="show-ids"]').check()
    page.locator(".sw-root.sw-show-ids").wait_for()
    shown.reaches("w.show_ids", True)
    label = page.evaluate(
        """() => getComputedStyle(document.querySelector('[data-pile="t3"]'), '::after').content"""
    )
    assert label == '"t3"'


# ------------------------------------------------------------------ the replay bar
def test_the_replay_bar_steps_by_mouse_and_keyboard_and_the_board_keeps_its_height(shown):
    page = new_widget(shown)
    length = shown.value("len(sw.solve(w.state, max_states=50_000).moves)")
    shown.run("w.replay(sw.solve(w.state, max_states=50_000).moves, delay=None)")
    position(page, 0, length)
    board = page.locator(".sw-board")
    height = board.bounding_box()["height"]
    bar = page.locator('[data-role="replay-bar"]')
    assert bar.bounding_box()["width"] >= 0.9 * page.locator(".sw-root").bounding_box()["width"]
    heights = []

    for step, made in (("last", length), ("back", length - 1), ("first", 0), ("forward", 1)):
        page.locator(f'[data-step="{step}"]').click()
        position(page, made, length)
        heights.append(board.bounding_box()["height"])
    assert page.locator('[data-role="current-move"]').inner_text() == shown.value("w.move_words")
    assert not PILE_ID.search(shown.value("w.move_words"))

    bar.focus()
    for key, made in (("End", length), ("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)):
        page.keyboard.press(key)
        position(page, made, length)
        heights.append(board.bounding_box()["height"])
    assert shown.value("w.moves_made") == 1
    assert set(heights) == {height}, "the board keeps the height of the replay's tallest position"

    page.locator('[data-role="speed"]').select_option("0.2")
    page.locator('[data-step="play"]').click()
    page.wait_for_function(
        """() => parseInt(document.querySelector('[data-role="position"]').textContent) >= 4"""
    )
    page.locator('[data-step="play"]').click()  # pause
    paused = shown.value("w.moves_made")
    page.wait_for_timeout(500)
    assert shown.value("w.moves_made") == paused < length
    assert board.bounding_box()["height"] == height


# ------------------------------------------------------------------ safe moves home
@pytest.mark.parametrize("game", SEED_GAMES)
def test_cards_go_home_after_a_move_when_the_switch_is_on(shown, game):
    page = new_widget(shown, game)
    position_dict, move, home = shown.value(f"_sends_cards_home({game!r})")
    shown.run(f"w.state = w.game.state_from_dict({position_dict!r})")
    page.locator('[data-role="auto-foundations"]').check()
    for _ in range(50):  # the switch reaches the kernel as a trait
        if shown.value("w.auto_foundations"):
            break
        page.wait_for_timeout(100)
    assert shown.value("w.auto_foundations") is True
    src, dst = move.split(" ")[:2]
    page.focus(f'[data-pile="{src}"]')
    page.keyboard.press("Enter")
    page.focus(f'[data-pile="{dst}"]')
    page.keyboard.press("Enter")
    message(page).filter(has_text="home").wait_for()
    assert shown.value("[str(m) for m in w.history]") == [move, *home]
    wait_for_board(shown, shown.value("_board(w.state)"))
    page.locator('[data-role="auto-foundations"]').uncheck()


# ------------------------------------------------------------------ the solver panel
def test_the_solver_panel_shows_its_budget_and_blocks_moves_until_stopped(shown):
    page = new_widget(shown, "interchange", 49)  # a deal the solver does not decide soon
    page.locator('[data-action="solve"]').click()
    summary = page.locator('[data-role="solver-summary"]')
    # Solve's budget is the toolbar's choice, 10 s by default, and no state cap beside it.
    summary.filter(has_text=re.compile(r"searching… [\d,]+ states · [\d.]+ of 10 s")).wait_for()
    page.locator('[data-role="solver-bar"]').wait_for()
    page.locator(".sw-root.sw-solving").wait_for()
    page.locator('[data-action="hint"]').click()
    message(page).filter(has_text="press Stop").wait_for()
    assert shown.value("len(w.history)") == 0 and shown.value("w.busy") == "solving"
    page.locator('[data-action="stop"]').click()
    summary.filter(has_text=re.compile(r"^stopped \(")).wait_for()
    assert page.locator('[data-role="solver-bar"]').is_hidden()
    assert shown.value("w.solver_progress['status']") == "stopped"


def test_the_solver_panel_sums_up_a_win_and_offers_it(shown):
    page = new_widget(shown)
    page.locator('[data-action="solve"]').click()
    summary = page.locator('[data-role="solver-summary"]')
    summary.filter(has_text=re.compile(r"^won in \d+ moves")).wait_for()
    moves = shown.value("len(w.solution)")
    assert summary.inner_text().startswith(f"won in {moves} moves (")
    assert page.locator('[data-role="solver-line"] li').count() == min(moves, 200)
    assert page.locator('[data-role="solver-line"] li').first.inner_text() == shown.value(
        "w.solver_progress['line_words'][0]"
    )
    replay = page.locator('[data-action="replay"]')
    assert replay.inner_text() == "Replay the win" and replay.is_visible()
    assert not page.locator(".sw-root.sw-solving").count()
