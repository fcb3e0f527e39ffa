"""The documentation's live board (docs/play.md), served as static files with no network:
each seed game deals and takes a click-click move, decided by the widget's Python in the page."""

from __future__ import annotations

import pytest
from lite_harness import LOAD_TIMEOUT

import solwidget as sw

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SEED_GAMES = ["reversed_solitaire", "triple_interchange", "interlock", "mutated"]  # docs/rules.md
DEAL = 1


def a_simple_move(game_id: str):
    """A legal one-card move of the deal between two piles (the card on top of its pile),
    with the top card of its destination after it: what a click-click plays and draws."""
    state = sw.load_game(game_id).deal(DEAL)
    for move in state.legal_moves():
        text = str(move)
        if len(text.split()) == 2 and not text.startswith(("stock", "waste")):
            after = state.play(move).to_dict()["piles"]
            return text.split(), after[text.split()[1]][-1]
    raise AssertionError(f"{game_id} deal {DEAL} has no one-card move")


def test_live_board_plays_a_move_of_each_seed_game(offline, docs_server):
    page = offline(docs_server.base)
    page.goto(f"{docs_server.base}/play/?game={SEED_GAMES[0]}&deal={DEAL}", timeout=LOAD_TIMEOUT)
    live = page.locator("[data-live-board]")
    for game_id in SEED_GAMES:
        page.select_option("[data-live=game]", game_id)
        page.wait_for_function(
            "(id) => document.querySelector('[data-live=status]').textContent.startsWith(id + ', deal ')",
            arg=game_id,
            timeout=LOAD_TIMEOUT,
        )
        (src, dst), card = a_simple_move(game_id)
        live.locator(f'[data-pile="{src}"] [data-card]').last.click()
        live.locator(f'[data-pile="{dst}"]').click()
        page.wait_for_function(
            "([dst, card]) => { const cards = document.querySelectorAll("
            '`[data-live-board] [data-pile="${dst}"] [data-card]`);'
            " return cards.length && cards[cards.length - 1].dataset.card === card; }",
            arg=[dst, card],
        )
        assert "1 move" in live.inner_text(), f"{game_id}: the move was not counted"
