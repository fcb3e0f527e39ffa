"""The board's drawing and input in headless Chromium, against the fake model fed by a real
SolitaireWidget: narrow output areas (the layout's narrower arrangement, legible cards, a
board that scrolls), cards that slide from where they were, pick-ups refused at once with
the rules' words, and a win's celebration; and the pure parts of js/motion.js and
js/geometry.js, imported as they are."""

from __future__ import annotations

import pytest
from helpers import JS_DOM_PLACES, long_fan_positions, position
from jsharness import JS_SLIDING, kernel, mount

import solwidget as sw
from solwidget.engine import geometry
from solwidget.engine.words import reason_words
from solwidget.widget.measure import playout

MIN_INDEX_PX = 10  # the least font size of a card's corner index

JS_CORNER_SIZES = """() => [...document.querySelectorAll('.sw-corner')].map(
    (c) => parseFloat(getComputedStyle(c).fontSize))"""

# Every pile scrolled into view in turn: is it then wholly inside the felt's visible part?
JS_EVERY_PILE_REACHABLE = """() => {
    const felt = document.querySelector('.sw-felt');
    const out = [];
    for (const pile of document.querySelectorAll('[data-pile]')) {
        pile.scrollIntoView({block: 'nearest', inline: 'nearest'});
        const box = pile.getBoundingClientRect(), view = felt.getBoundingClientRect();
        const inside = box.left >= view.left - 0.5 && box.left + Math.min(box.width, 40) <= view.right + 0.5;
        if (!inside) out.push(pile.dataset.pile);
    }
    felt.scrollLeft = 0;
    return out;
}"""


def unit(page) -> float:
    return page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.sw-root')).getPropertyValue('--u'))"
    )


def placed_as(page, layout: dict, state) -> None:
    """The widget draws every pile of ``state`` where the engine places it in ``layout``."""
    board = geometry.place(layout, state.visible())
    drawn = page.evaluate(JS_DOM_PLACES, 0)
    for pid, placed in board["piles"].items():
        assert drawn["piles"][pid][0] == pytest.approx([placed["x"], placed["y"]], abs=0.01), pid
    assert [drawn["width"], drawn["height"]] == pytest.approx([board["width"], board["height"]], abs=0.01)


# ------------------------------------------------------------------ narrow output areas
def test_a_narrow_output_area_gets_the_narrower_arrangement(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    layout = widget.game.layout()
    mount(page, widget, width=900)
    placed_as(page, layout, widget.state)
    mount(page, widget, width=600)  # 17.1 card widths would make cards of 34 px
    narrow = geometry.arranged(layout, 1)
    placed_as(page, narrow, widget.state)
    assert unit(page) == (600 - 16) // narrow["width"]
    assert page.evaluate("() => document.querySelector('.sw-felt').scrollWidth") <= 600


@pytest.mark.parametrize(
    "game_id, width, index",
    [
        ("reversed_solitaire", 250, 2),
        ("triple_interchange", 300, 2),
        ("mutated", 300, 1),
        ("interlock", 300, 1),
    ],
)
def test_the_narrowest_arrangements_are_drawn_as_the_engine_places_them(page, game_id, width, index):
    """Long fans in a wrapped tableau push its second row down, and in Mutated Solitaire's narrow
    board each row's fans push its deck down (the deck's ``span``), alike in both twins."""
    state = long_fan_positions()[game_id]
    widget = sw.SolitaireWidget(game_id, state=state)
    mount(page, widget, width=width)
    narrow = geometry.arranged(widget.game.layout(), index)
    assert page.get_attribute(".sw-board", "data-arrangement") == str(index)
    placed_as(page, narrow, state)
    pushed = geometry.place(narrow, state.visible())["piles"]
    if game_id != "interlock":  # its layers do not wrap: its rows are its own
        assert any(pushed[p["id"]]["y"] > p["y"] for p in narrow["piles"] if p["fan"] != "none"), (
            "a row was pushed"
        )


@pytest.mark.parametrize("game_id", ["reversed_solitaire", "triple_interchange", "interlock", "mutated"])
def test_at_320_pixels_cards_stay_legible_and_every_pile_is_in_reach(page, game_id):
    widget = sw.SolitaireWidget(game_id, deal=3)
    mount(page, widget, width=320)
    assert min(page.evaluate(JS_CORNER_SIZES)) >= MIN_INDEX_PX
    felt = page.locator(".sw-felt").bounding_box()
    assert felt["x"] + felt["width"] <= page.locator("#out").bounding_box()["x"] + 320 + 0.5
    assert page.evaluate(JS_EVERY_PILE_REACHABLE) == []


def test_the_arrangement_follows_the_width_both_ways(page):
    widget = sw.SolitaireWidget("quadruple_interchange", deal=1)
    mount(page, widget, width=1000)
    top = page.locator('[data-pile="f15"]').bounding_box()["y"]
    assert top == pytest.approx(page.locator('[data-pile="f0"]').bounding_box()["y"])
    page.evaluate("() => { document.getElementById('out').style.width = '500px'; }")
    page.wait_for_function(
        "() => document.querySelector('[data-pile=\"f15\"]').getBoundingClientRect().top"
        " > document.querySelector('[data-pile=\"f0\"]').getBoundingClientRect().bottom"
    )
    page.evaluate("() => { document.getElementById('out').style.width = '1000px'; }")
    page.wait_for_function(
        "() => document.querySelector('[data-pile=\"f15\"]').getBoundingClientRect().top"
        " === document.querySelector('[data-pile=\"f0\"]').getBoundingClientRect().top"
    )


# ------------------------------------------------------------------ slides
def click_move(page, widget, move) -> None:
    cards = page.locator(f'[data-pile="{move.src}"] [data-card]')
    cards.nth(cards.count() - move.n).click(position={"x": 6, "y": 6})
    page.click(f'[data-pile="{move.dst}"]')


def test_a_moved_card_slides_from_its_old_place_and_back_on_undo(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    move = next(m for m in widget.state.legal_moves() if m.src.startswith("t") and m.n == 1)
    mount(page, widget)
    card = widget.state.pile(move.src)[-1]
    old = page.locator(f'[data-pile="{move.src}"] [data-card="{card}"]').bounding_box()
    click_move(page, widget, move)
    kernel(page, widget, probe=JS_SLIDING)
    sliding = page.evaluate("() => window.probed")
    page.wait_for_function("() => document.getAnimations().length === 0")  # the slide is over
    new = page.locator(f'[data-pile="{move.dst}"] [data-card="{card}"]').bounding_box()
    assert [(s["pile"], s["card"]) for s in sliding] == [(move.dst, card)]
    dx, dy = (float(v.removesuffix("px")) for v in sliding[0]["start"].split())
    assert (dx, dy) == pytest.approx((old["x"] - new["x"], old["y"] - new["y"]), abs=1.5)
    page.keyboard.press("u")
    kernel(page, widget, probe=JS_SLIDING)
    assert [(s["pile"], s["card"]) for s in page.evaluate("() => window.probed")] == [(move.src, card)]


def test_each_step_of_a_replay_slides_its_cards(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=3)
    line = playout(widget.state, 4)
    widget.replay(line, delay=None)
    mount(page, widget)
    for index, move in enumerate(line, 1):
        page.wait_for_function("() => document.getAnimations().length === 0")  # the last step's slide is over
        widget.seek(index)
        kernel(page, widget, probe=JS_SLIDING)
        sliding = page.evaluate("() => window.probed")
        assert {s["pile"] for s in sliding} == {move.dst}, move
        assert len(sliding) == (1 if move.src == "stock" else move.n), move


def test_a_dragged_card_slides_from_where_it_was_dropped(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    move = next(m for m in widget.state.legal_moves() if m.src.startswith("t") and m.n == 1)
    mount(page, widget)
    card = page.locator(f'[data-pile="{move.src}"] [data-card]').last.bounding_box()
    target = page.locator(f'[data-pile="{move.dst}"]').bounding_box()
    page.mouse.move(card["x"] + 10, card["y"] + 10)
    page.mouse.down()
    page.mouse.move(card["x"] + 30, card["y"] + 30, steps=4)
    page.mouse.move(target["x"] + target["width"] / 2 + 7, target["y"] + target["height"] / 2 + 5, steps=6)
    ghost = page.locator(".sw-ghost .sw-card").bounding_box()
    page.mouse.up()
    kernel(page, widget, probe=JS_SLIDING)
    (sliding,) = page.evaluate("() => window.probed")
    page.wait_for_function("() => document.getAnimations().length === 0")
    landed = page.locator(f'[data-pile="{move.dst}"] [data-card]').last.bounding_box()
    dx, dy = (float(v.removesuffix("px")) for v in sliding["start"].split())
    assert (landed["x"] + dx, landed["y"] + dy) == pytest.approx((ghost["x"], ghost["y"]), abs=1.5)


def test_no_slide_under_reduced_motion(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    move = next(m for m in widget.state.legal_moves() if m.src.startswith("t") and m.n == 1)
    mount(page, widget)
    page.emulate_media(reduced_motion="reduce")
    try:
        click_move(page, widget, move)
        kernel(page, widget, probe=JS_SLIDING)
        assert widget.history == [move]
        assert page.evaluate("() => window.probed") == []
    finally:
        page.emulate_media(reduced_motion="no-preference")


def test_a_turned_stock_card_slides_from_the_stock(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    mount(page, widget)
    page.click('[data-pile="stock"]')
    kernel(page, widget, probe=JS_SLIDING)
    turned = widget.state.pile("waste")[-1]
    assert [(s["pile"], s["card"]) for s in page.evaluate("() => window.probed")] == [("waste", turned)]


JS_MATCH = """async ([departed, arrived]) => {
    const { matchSlides } = await import('/js/motion.js');
    return matchSlides(departed, arrived);
}"""


def card(code, pid, index):
    return {"code": code, "pid": pid, "index": index}


@pytest.mark.parametrize(
    "departed, arrived, pairs",
    [
        # a card that stayed in place is its own match, not a copy's that moved (three decks)
        (
            [card("7S", "t0", 4), card("7S", "t3", 2)],
            [card("7S", "t3", 2), card("7S", "t5", 6)],
            [[0, 1], [1, 0]],
        ),
        # a turned stock card: a back left the stock, a face arrived on the waste
        ([card("back", "stock", 30)], [card("KH", "waste", 0)], [[0, 0]]),
        # a card turned up where it lies does not slide in from another pile
        (
            [card("back", "t1", 3), card("7S", "t1", 4)],
            [card("9D", "t1", 3), card("7S", "t6", 2)],
            [[1, 1], [0, 0]],
        ),
        # nothing left for a card that arrived from nowhere
        ([], [card("AS", "f0", 0)], []),
    ],
)
def test_which_card_slides_from_where(page, departed, arrived, pairs):
    assert page.evaluate(JS_MATCH, [departed, arrived]) == pairs


JS_CHOOSE = """async ([board, pixels]) => {
    const { chooseArrangement } = await import('/js/geometry.js');
    return chooseArrangement(board, pixels, 40);
}"""


@pytest.mark.parametrize(
    "pixels, index, interlock",
    [
        (17.1 * 40, 0, 0),
        (17.1 * 40 - 1, 1, 0),
        (12.5 * 40 - 1, 1, 1),
        (10.2 * 40, 1, 1),
        (10.2 * 40 - 1, 2, 1),
        (5.6 * 40, 2, 1),
        (200, 2, 1),
    ],
)
def test_the_widest_legible_arrangement_is_chosen(page, pixels, index, interlock):
    """Triple Interchange: its own, the foundations folded (10.2 card widths), every row wrapped
    (5.6); past the narrowest, the narrowest. Interlock: its own, else its foundations brought
    left (as wide: its layers scroll)."""
    board = sw.load_game("triple_interchange").layout()
    assert page.evaluate(JS_CHOOSE, [board, pixels]) == index
    assert page.evaluate(JS_CHOOSE, [sw.load_game("interlock").layout(), pixels]) == interlock


# ------------------------------------------------------------------ pick-ups refused at once
def test_a_covered_card_is_not_picked_up_and_the_rules_say_why(page):
    widget = sw.SolitaireWidget("interlock", deal=7)
    mount(page, widget)
    page.click('[data-pile="t0"] [data-card]', position={"x": 6, "y": 6})
    assert page.locator(".sw-picked").count() == 0
    assert page.evaluate("() => window.model.sent") == [{"type": "pick", "src": "t0", "index": 0, "n": 1}]
    kernel(page, widget)
    reason = widget.game.pickup_refusal(widget.state, "t0", 0, 1)
    assert reason == "t0 is covered by t9 and t10"
    assert page.text_content('[data-role="message"]') == reason_words(widget.state, reason)
    assert page.get_attribute('[data-role="message"]', "data-kind") == "error"
    assert widget.history == []
    page.click('[data-pile="t19"] [data-card]', position={"x": 6, "y": 6})  # the next action starts
    assert page.locator(".sw-picked").count() == 1
    assert page.text_content('[data-role="message"]') == "", "the refusal is put away"


def test_a_face_down_card_is_not_picked_up_nor_named(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    mount(page, widget)
    page.click('[data-pile="t0"] [data-index="1"]', position={"x": 6, "y": 3})
    assert page.locator(".sw-picked").count() == 0
    assert page.evaluate("() => window.model.sent") == [{"type": "pick", "src": "t0", "index": 1, "n": 8}]
    kernel(page, widget)
    hidden = widget.state.pile("t0")[1].strip("[]")
    message = page.text_content('[data-role="message"]')
    assert message == widget.game.pickup_refusal(widget.state, "t0", 1, 8) and hidden not in message


# ------------------------------------------------------------------ a win
def near_win():
    return position("freecell", f0="AC-KC", f1="AD-KD", f2="AH-KH", f3="AS-QS", t0="KS")


def test_a_win_is_celebrated_on_the_board(page):
    widget = sw.SolitaireWidget("freecell", state=near_win())
    mount(page, widget)
    assert page.locator(".sw-celebrate").count() == 0
    page.dblclick('[data-pile="t0"] [data-card="KS"]')
    kernel(page, widget)
    assert widget.state.is_won()
    page.wait_for_selector(".sw-felt.sw-celebrate")
    names = page.evaluate(
        "() => document.querySelector('.sw-felt').getAnimations({subtree: true})"
        ".map((a) => a.animationName).filter(Boolean)"
    )
    assert {"sw-glow", "sw-cheer"} <= set(names)


def test_a_win_is_celebrated_without_motion_under_reduced_motion(page):
    widget = sw.SolitaireWidget("freecell", state=near_win())
    mount(page, widget)
    page.emulate_media(reduced_motion="reduce")
    try:
        page.dblclick('[data-pile="t0"] [data-card="KS"]')
        kernel(page, widget)
        page.wait_for_selector(".sw-felt.sw-celebrate")
        assert (
            page.evaluate("() => document.querySelector('.sw-felt').getAnimations({subtree: true}).length")
            == 0
        )
    finally:
        page.emulate_media(reduced_motion="no-preference")
