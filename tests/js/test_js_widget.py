"""The front end in headless Chromium, against a fake model fed by a real SolitaireWidget.

``mount`` gives the page the widget's synced traits; ``kernel`` delivers what the page sent
to the widget and sends the changed traits back, as the Jupyter comm would.
"""

from __future__ import annotations

import re

import pytest
from helpers import JS_DOM_PLACES, long_fan_positions
from jsharness import JS_SLIDING, kernel, mount

import solwidget as sw
from solwidget.engine import geometry
from solwidget.engine.deals import deal_rule
from solwidget.engine.words import reason_words
from solwidget.widget.measure import playout

ACTIONS = ["new", "restart", "undo", "redo", "hint", "autoplay", "solve"]


def sent(page) -> list[dict]:
    return page.evaluate("() => window.model.sent")


def dom_piles(page) -> dict[str, list[str]]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-pile]')].map(
        (p) => [p.dataset.pile, [...p.querySelectorAll('[data-card]')].map((c) => c.dataset.card)]))""")


def card_selector(pid: str, index: int) -> str:
    return f'[data-pile="{pid}"] [data-index="{index}"]'


CORNER = {"x": 6, "y": 6}  # a fanned card shows its top-left corner


def click_card(page, pid: str, index: int, **options) -> None:
    page.click(card_selector(pid, index), position=CORNER, **options)


def deal_with(game_id: str, wanted) -> int:
    """The first deal whose opening position has a legal move for which ``wanted`` is true."""
    game = sw.load_game(game_id)
    return next(n for n in range(1, 500) if any(wanted(m) for m in game.deal(n).legal_moves()))


def to_tableau(move) -> bool:
    return move.dst.startswith("t") and move.src.startswith("t") and move.n == 1


def top_card(page, pid: str) -> str:
    return page.evaluate(f"""() => {{ const cards = document.querySelectorAll('[data-pile="{pid}"] [data-card]');
        return cards[cards.length - 1].dataset.index; }}""")


# ------------------------------------------------------------------ drawing
@pytest.mark.parametrize("game_id", sw.games())
def test_every_game_is_drawn_from_its_data(page, game_id):
    widget = sw.SolitaireWidget(game_id, deal=4)
    mount(page, widget)
    drawn = dom_piles(page)
    layout = {p["id"]: p for p in widget.board["piles"]}
    assert set(drawn) == set(widget.game.pile_ids)
    for pid, codes in widget.state.visible().items():
        expected = codes[-2:] if layout[pid]["fan"] == "none" else codes
        assert drawn[pid] == expected, pid
    assert [page.get_attribute(f'[data-action="{a}"]', "data-action") for a in ACTIONS] == ACTIONS
    assert page.text_content('[data-role="status"]').startswith(widget.status["text"])
    assert page.locator('[data-role="message"]').count() == 1
    width = page.evaluate("() => document.querySelector('.sw-felt').getBoundingClientRect().width")
    assert width <= 960


def placed_alike(page, state) -> None:
    """The mounted widget draws every pile and card of ``state`` where the engine's geometry
    places them (in card widths from the board's corner)."""
    board = geometry.place(state.game.layout(), state.visible())
    drawn = page.evaluate(JS_DOM_PLACES, 0)
    assert set(drawn["piles"]) == set(board["piles"])
    for pid, placed in board["piles"].items():
        corner, cards = drawn["piles"][pid]
        assert corner == pytest.approx([placed["x"], placed["y"]], abs=0.01), pid
        expected = placed["cards"] if state.visible()[pid] else []
        assert cards == [pytest.approx(list(card), abs=0.01) for card in expected], pid
    assert [drawn["width"], drawn["height"]] == pytest.approx([board["width"], board["height"]], abs=0.01)


@pytest.mark.parametrize("game_id", sw.games())
def test_every_game_is_drawn_where_the_engines_geometry_places_it(page, game_id):
    state = sw.load_game(game_id).deal(6)
    for move in playout(state, 12):
        state = state.play(move)
    # A widget of its own: a line's board keeps the height of its tallest position (below).
    mount(page, sw.SolitaireWidget(game_id, state=state))
    placed_alike(page, state)


def test_the_board_keeps_the_height_of_the_lines_tallest_position(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    widget.replay(sw.solve(widget.state, max_states=50_000).moves, delay=None)
    mount(page, widget)
    unit = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.sw-root')).getPropertyValue('--u'))"
    )
    height = page.evaluate("() => document.querySelector('.sw-board').getBoundingClientRect().height")
    assert widget.board_min_height > geometry.place(widget.game.layout(), widget.state.visible())["height"]
    assert height == pytest.approx(widget.board_min_height * unit, abs=1)


@pytest.mark.parametrize("game_id", list(long_fan_positions()))
def test_long_fans_are_squeezed_and_push_rows_as_the_engine_says(page, game_id):
    state = long_fan_positions()[game_id]
    mount(page, sw.SolitaireWidget(game_id, state=state))
    placed_alike(page, state)


def test_the_board_fits_a_narrow_output_area(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    mount(page, widget, width=600)
    box = page.evaluate("() => document.querySelector('.sw-felt').getBoundingClientRect().width")
    assert box <= 600
    mount(page, widget, width=900)
    wide = page.evaluate("() => document.querySelector('.sw-felt').getBoundingClientRect().width")
    assert box < wide <= 900


def test_the_rules_are_one_click_away(page):
    widget = sw.SolitaireWidget("mutated", deal=1)
    mount(page, widget)
    assert page.is_hidden('[data-role="rules"] p')
    page.click('[data-role="rules"] summary')
    assert page.text_content('[data-role="rules"] p') == widget.game.summary
    assert page.get_attribute(".sw-title", "title") == widget.game.summary


def test_cards_carry_aria_labels(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    top = widget.state.pile("t0")[-1]
    label = page.get_attribute(card_selector("t0", len(widget.state.pile("t0")) - 1), "aria-label")
    names = {
        "A": "ace",
        "2": "two",
        "3": "three",
        "4": "four",
        "5": "five",
        "6": "six",
        "7": "seven",
        "8": "eight",
        "9": "nine",
        "T": "ten",
        "J": "jack",
        "Q": "queen",
        "K": "king",
    }
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    assert label == f"{names[top[0]]} of {suits[top[1]]}, on the first tableau pile"
    assert page.get_attribute('[data-pile="t0"]', "aria-label").startswith(
        "the first tableau pile: 7 cards, top "
    )
    labels = page.evaluate(
        "() => [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))"
    )
    assert not [text for text in labels if re.search(r"\b[ftc]\d+\b", text)], "no pile id is read out"


def test_covered_piles_are_shaded_and_backs_hide_their_card(page):
    widget = sw.SolitaireWidget("interlock", deal=2)
    mount(page, widget)
    covered = page.evaluate("() => [...document.querySelectorAll('.sw-covered')].map((p) => p.dataset.pile)")
    assert sorted(covered) == sorted(f"t{i}" for i in range(19))  # back and middle layers
    widget = sw.SolitaireWidget("triple_interchange", deal=2)
    mount(page, widget)
    backs = page.locator('[data-card="back"]')
    assert backs.count() == 4 * 9 + 2  # four face-down rows, and the stock's top two
    assert (
        page.locator('[data-card="back"][aria-label^="a face-down card, on the "]').count() == backs.count()
    )


def test_a_stock_synced_as_a_count_draws_its_top_backs_and_the_count(page):
    widget = sw.SolitaireWidget("quadruple_interchange", deal=1)
    assert widget.pile_stock == [f"back*{len(widget.state.pile('stock'))}"]
    mount(page, widget)
    drawn = page.locator('[data-pile="stock"] [data-card]')
    assert drawn.count() == 2 and page.locator('[data-pile="stock"] [data-card="back"]').count() == 2
    assert page.text_content('[data-pile="stock"] [data-role="count"]') == str(
        len(widget.state.pile("stock"))
    )


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_a_long_fan_moves_the_row_beneath_it_down_and_back(page):
    widget = sw.SolitaireWidget("mutated", deal=1)
    mount(page, widget)
    row2 = box(page, '[data-pile="r2c1"]')["y"]
    row3 = box(page, '[data-pile="r3c1"]')["y"]
    assert box(page, '[data-pile="d2"]')["y"] == row2
    long_fan = ["back", "KS", "QH", "JS", "TH", "9S", "8H", "7S"]
    page.evaluate("(codes) => window.model.update({pile_r1c1: codes})", long_fan)
    fan_bottom = box(page, f'[data-pile="r1c1"] [data-index="{len(long_fan) - 1}"]')
    moved = box(page, '[data-pile="r2c1"]')["y"]
    assert moved > fan_bottom["y"] + fan_bottom["height"]  # below the fan, not under it
    assert box(page, '[data-pile="d2"]')["y"] == moved  # the whole row moves
    assert box(page, '[data-pile="r3c1"]')["y"] - row3 == pytest.approx(
        moved - row2, abs=0.5
    )  # and the rows below
    page.evaluate("(codes) => window.model.update({pile_r1c1: codes})", widget.pile_r1c1)
    assert box(page, '[data-pile="r2c1"]')["y"] == row2  # and back when it shrinks


def test_right_fans_leave_each_face_up_cards_corner_readable(page):
    widget = sw.SolitaireWidget("mutated", deal=1)
    mount(page, widget)
    for deck in ("d1", "d2", "d3"):
        codes = widget.state.visible()[deck]
        for index, code in enumerate(codes[:-1]):
            if code == "back":
                continue
            corner = box(page, f'[data-pile="{deck}"] [data-index="{index}"] .sw-corner')
            following = box(page, f'[data-pile="{deck}"] [data-index="{index + 1}"]')
            assert corner["x"] + corner["width"] <= following["x"], (deck, code)


def test_covered_cards_show_only_their_corner_index(page):
    widget = sw.SolitaireWidget("interlock", deal=1)
    mount(page, widget)
    shown = page.evaluate("""() => [...document.querySelectorAll('.sw-covered .sw-card:not(.sw-back)')].map((c) => [
        getComputedStyle(c.querySelector('.sw-corner')).display,
        [...c.querySelectorAll('.sw-centre, .sw-far')].map((e) => getComputedStyle(e).display)])""")
    assert shown and all(corner != "none" and all(d == "none" for d in rest) for corner, rest in shown)
    covered = page.evaluate(
        "() => getComputedStyle(document.querySelector('.sw-covered .sw-suit-H, "
        ".sw-covered .sw-suit-D')).color"
    )
    face = page.evaluate(
        "() => getComputedStyle(document.querySelector('.sw-covered .sw-card')).backgroundColor"
    )
    assert contrast(covered, face) >= 4.5


def contrast(one: str, two: str) -> float:
    """WCAG contrast ratio of two CSS rgb() colours."""

    def luminance(css):
        channels = [int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_new_width_resizes_the_cards_without_redrawing_them(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    mount(page, widget, width=900)
    page.evaluate("() => { window.kept = document.querySelector('[data-pile=\"t0\"] [data-card]'); }")
    wide = box(page, '[data-pile="t0"] [data-card]')["width"]
    page.evaluate("() => { document.getElementById('out').style.width = '750px'; }")  # the same arrangement
    page.wait_for_function(
        f"() => document.querySelector('[data-pile=\"t0\"] [data-card]')"
        f".getBoundingClientRect().width < {wide}"
    )
    assert page.evaluate("() => window.kept === document.querySelector('[data-pile=\"t0\"] [data-card]')")


def test_four_colour_switch_and_dark_theme(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=1)
    mount(page, widget)
    clubs = page.locator(".sw-suit-C").first
    black = clubs.evaluate("(c) => getComputedStyle(c).color")
    page.check('[data-role="four-colour"]')
    assert page.evaluate("() => window.model.saved") == [{"four_colour": True}]
    assert clubs.evaluate("(c) => getComputedStyle(c).color") != black
    kernel(page, widget)
    assert widget.four_colour is True
    felt = page.evaluate("() => getComputedStyle(document.querySelector('.sw-felt')).backgroundColor")
    page.evaluate("() => document.body.setAttribute('data-jp-theme-light', 'false')")
    dark = page.evaluate("() => getComputedStyle(document.querySelector('.sw-felt')).backgroundColor")
    assert dark != felt


def styles(page) -> dict:
    return page.evaluate("""() => ({
        felt: getComputedStyle(document.querySelector('.sw-felt')).backgroundColor,
        text: getComputedStyle(document.querySelector('[data-role="status"]')).color,
        button: getComputedStyle(document.querySelector('[data-action="undo"]')).backgroundColor})""")


def test_dark_theme_follows_the_page_where_jupyterlab_sets_none(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    light = styles(page)
    page.evaluate("() => document.body.setAttribute('data-jp-theme-light', 'false')")
    jupyterlab_dark = styles(page)
    page.evaluate("() => document.body.removeAttribute('data-jp-theme-light')")
    try:
        page.emulate_media(color_scheme="dark")
        dark = styles(page)
        assert dark["felt"] == jupyterlab_dark["felt"] != light["felt"]
        assert dark["text"] != light["text"] and dark["button"] != light["button"]
        page.evaluate("() => document.body.setAttribute('data-jp-theme-light', 'true')")
        assert styles(page) == light  # JupyterLab's theme, where it says one, comes first
    finally:
        page.emulate_media(color_scheme="no-override")


def test_the_front_end_draws_with_the_geometry_it_is_sent(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    card = box(page, card_selector("t0", 0))
    step = box(page, card_selector("t0", 1))["y"] - card["y"]
    assert card["height"] / card["width"] == pytest.approx(geometry.CARD_ASPECT, abs=0.03)
    assert step / card["width"] == pytest.approx(geometry.FAN_STEP["down"]["up"], abs=0.03)
    other = {
        **geometry.as_data(),
        "card_aspect": 1.6,
        "fan_step": {**geometry.FAN_STEP, "down": {"up": 0.45, "back": 0.2}},
    }
    page.evaluate("(board) => window.model.update({board})", {**widget.board, "geometry": other})
    card = box(page, card_selector("t0", 0))
    step = box(page, card_selector("t0", 1))["y"] - card["y"]
    assert card["height"] / card["width"] == pytest.approx(1.6, abs=0.03)
    assert step / card["width"] == pytest.approx(0.45, abs=0.03)


# ------------------------------------------------------------------ playing with the mouse
def test_click_a_card_then_a_target(page):
    widget = sw.SolitaireWidget("freecell", deal=deal_with("freecell", to_tableau))
    mount(page, widget)
    move = next(m for m in widget.state.legal_moves() if to_tableau(m))
    src_len = len(widget.state.pile(move.src))
    click_card(page, move.src, src_len - move.n)
    targets = page.evaluate("() => [...document.querySelectorAll('.sw-target')].map((p) => p.dataset.pile)")
    expected = {m.dst for m in widget.state.legal_moves() if m.src == move.src and m.n == move.n}
    assert set(targets) == expected
    assert page.locator(".sw-picked").count() == move.n
    page.click(f'[data-pile="{move.dst}"]')
    assert sent(page) == [{"type": "move", "move": str(move)}]
    kernel(page, widget, probe=JS_SLIDING)
    assert widget.history == [move]
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-pile=\"{move.src}\"] [data-card]').length"
        f" === {src_len - move.n}"
    )
    assert dom_piles(page)[move.dst] == widget.state.visible()[move.dst]
    assert page.locator(".sw-target").count() == 0
    sliding = page.evaluate("() => window.probed")
    assert [card["pile"] for card in sliding] == [move.dst] * move.n, "the moved cards slide, and only they"


def test_drag_and_drop(page):
    widget = sw.SolitaireWidget("freecell", deal=deal_with("freecell", to_tableau))
    mount(page, widget)
    move = next(m for m in widget.state.legal_moves() if to_tableau(m))
    card = page.locator(card_selector(move.src, len(widget.state.pile(move.src)) - 1)).bounding_box()
    target = page.locator(f'[data-pile="{move.dst}"]').bounding_box()
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + 10)
    page.mouse.down()
    page.mouse.move(card["x"] + 40, card["y"] + 40, steps=4)
    assert page.locator(".sw-ghost").count() == 1
    assert page.locator(".sw-target").count() >= 1
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] - 10, steps=6)
    page.mouse.up()
    assert sent(page) == [{"type": "move", "move": str(move)}]
    assert page.locator(".sw-ghost").count() == 0
    kernel(page, widget)
    assert widget.history == [move]


def test_an_illegal_drop_shows_the_reason_and_moves_nothing(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    before = dom_piles(page)
    click_card(page, "t0", len(widget.state.pile("t0")) - 1)
    page.click('[data-pile="f0"]')
    assert sent(page) == [{"type": "move", "move": "t0 f0"}]
    kernel(page, widget)
    reason = reason_words(widget.state, widget.state.explain("t0 f0"))
    page.wait_for_function(
        f"() => document.querySelector('[data-role=\"message\"]').textContent === {reason!r}"
    )
    assert page.get_attribute('[data-role="message"]', "data-kind") == "error"
    assert dom_piles(page) == before and widget.history == []


def test_double_click_sends_a_card_home(page):
    widget = sw.SolitaireWidget("freecell", deal=deal_with("freecell", lambda m: m.dst.startswith("f")))
    mount(page, widget)
    home = next(m for m in widget.state.legal_moves() if m.dst.startswith("f"))
    page.dblclick(card_selector(home.src, len(widget.state.pile(home.src)) - 1), position=CORNER)
    assert sent(page)[-1] == {"type": "move", "move": str(home)}
    kernel(page, widget)
    assert widget.history == [home]


def test_click_the_stock_to_deal_and_redeal(page):
    widget = sw.SolitaireWidget("single_interchange", deal=1)
    mount(page, widget)
    page.click('[data-pile="stock"]')
    assert sent(page) == [{"type": "move", "move": "stock waste"}]
    kernel(page, widget)
    assert str(widget.history[-1]) == "stock waste"
    while widget.state.pile("stock"):
        widget.play("stock waste")
    mount(page, widget)
    assert page.text_content('[data-pile="stock"] .sw-empty') == "↻"
    assert "sw-redeal-ok" in page.get_attribute('[data-pile="stock"]', "class")
    page.click('[data-pile="stock"]')
    assert sent(page) == [{"type": "move", "move": "waste stock"}]
    kernel(page, widget)
    assert str(widget.history[-1]) == "waste stock"
    page.wait_for_function(
        "() => document.querySelector('[data-role=\"status\"]').textContent.endsWith('redeals: 1')"
    )


def test_mutated_decks_build_and_give_any_face_up_card(page):
    widget = sw.SolitaireWidget("mutated", deal=1)
    mount(page, widget)
    assert page.text_content('[data-pile="d1"] .sw-caption') == "draw"
    named = next(m for m in widget.state.legal_moves() if m.card and m.src.startswith("d"))
    index = widget.state.pile(named.src).index(named.card)
    click_card(page, named.src, index)
    assert page.locator(".sw-picked").count() == 1
    assert page.locator(f'[data-pile="{named.dst}"].sw-target').count() == 1
    page.click(f'[data-pile="{named.dst}"]')
    assert sent(page) == [{"type": "move", "move": str(named)}]
    kernel(page, widget)
    assert widget.history == [named]
    page.click('[data-move="d3 build"]')
    assert sent(page)[-1] == {"type": "move", "move": "d3 build"}
    kernel(page, widget)
    assert str(widget.history[-1]) == "d3 build"
    page.wait_for_function(
        "() => document.querySelector('[data-pile=\"d3\"] .sw-caption').textContent === 'built'"
    )
    assert dom_piles(page)["d3"] == widget.state.visible()["d3"]


# ------------------------------------------------------------------ keyboard
def test_keyboard_moves_focus_picks_and_drops(page):
    widget = sw.SolitaireWidget("freecell", deal=deal_with("freecell", to_tableau))
    mount(page, widget)
    move = next(m for m in widget.state.legal_moves() if to_tableau(m))
    page.focus(f'[data-pile="{move.src}"]')
    page.keyboard.press("Enter")
    assert page.locator(f'[data-pile="{move.src}"] .sw-picked').count() == 1
    src, dst = int(move.src[1:]), int(move.dst[1:])
    for _ in range(abs(dst - src)):
        page.keyboard.press("ArrowRight" if dst > src else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.pile") == move.dst
    page.keyboard.press("Enter")
    assert sent(page) == [{"type": "move", "move": str(move)}]
    kernel(page, widget)
    page.keyboard.press("u")
    assert sent(page) == [{"type": "action", "name": "undo"}]
    kernel(page, widget)
    assert widget.moves_made == 0
    page.keyboard.press("r")
    kernel(page, widget)
    assert widget.moves_made == 1
    page.focus('[data-pile="t0"]')
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(".sw-picked").count() == 0


# ------------------------------------------------------------------ toolbar, scrubber, solver view
def test_toolbar_buttons_send_actions(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    assert page.is_disabled('[data-action="undo"]') and page.is_disabled('[data-action="redo"]')
    widget.play(widget.state.legal_moves()[0])
    mount(page, widget)
    assert page.is_enabled('[data-action="undo"]')
    page.click('[data-action="undo"]')
    page.click('[data-action="restart"]')
    page.fill('[data-role="deal"]', "42")
    page.click('[data-action="new"]')
    assert sent(page) == [
        {"type": "action", "name": "undo"},
        {"type": "action", "name": "restart"},
        {"type": "action", "name": "new", "deal": "42"},
    ]
    kernel(page, widget)
    assert widget.deal == 42
    page.wait_for_function("() => document.querySelector('[data-role=\"deal\"]').value === '42'")
    page.click('[data-action="new"]')
    assert sent(page) == [{"type": "action", "name": "new"}]


def test_scrubber_seeks_through_a_replay(page):
    widget = sw.SolitaireWidget("triple_interchange", deal=3)
    line = playout(widget.state, 6)
    widget.replay(line, delay=None)
    mount(page, widget)
    scrubber = page.locator('[data-role="scrubber"]')
    assert scrubber.get_attribute("max") == "6"
    scrubber.evaluate("(s) => { s.value = '4'; s.dispatchEvent(new Event('input')); }")
    page.wait_for_function("() => window.model.sent.length === 1")
    assert sent(page) == [{"type": "seek", "index": 4}]
    kernel(page, widget)
    assert widget.moves_made == 4
    assert dom_piles(page)["waste"] == widget.state.visible()["waste"][-2:]
    assert page.text_content('[data-role="position"]') == "4 / 6"


def test_hint_highlight_and_solver_view(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    move = widget.state.legal_moves()[0]
    page.evaluate("(h) => window.model.update({highlight: [h]})", str(move))
    assert page.locator(f'[data-pile="{move.dst}"].sw-hint-dst').count() == 1
    assert page.locator(f'[data-pile="{move.src}"] .sw-hint-src').count() == move.n
    assert page.is_hidden('[data-role="solver"]')
    progress = {
        "running": True,
        "expanded": 12345,
        "frontier": 678,
        "depth": 31,
        "best_score": 4.5,
        "elapsed": 1.5,
        "rate": 9876.0,
        "best_line": ["t0 c0", "t1 f0"],
        "max_states": 200_000,
        "max_seconds": None,
    }
    page.evaluate("(p) => window.model.update({solver_progress: p, busy: 'solving'})", progress)
    text = page.text_content('[data-role="solver"]')
    assert "12,345 of 200,000 states" in text and "1.5 s" in text and "9,876 states/s" in text
    assert page.evaluate("() => document.querySelector('[data-role=\"solver-bar\"]').value") == pytest.approx(
        12345 / 200_000
    )
    assert page.locator(".sw-root.sw-solving").count() == 1
    page.click('[data-role="solver"] [data-action="stop"]')
    assert sent(page) == [{"type": "action", "name": "stop"}]
    page.evaluate("""() => window.model.update({busy: '', solution: ['t0 c0'],
        solver_progress: {...window.model.get('solver_progress'), running: false, status: 'won',
                          summary: 'won in 1 moves (12,345 states in 1.2 s)', line_words: ['6♠ to a free cell']}})""")
    assert page.text_content('[data-role="solver-summary"]') == "won in 1 moves (12,345 states in 1.2 s)"
    assert page.is_hidden('[data-role="solver-bar"]')
    assert page.locator('[data-role="solver-line"] li').all_inner_texts() == ["6♠ to a free cell"]
    page.click('[data-action="replay"]')
    assert sent(page)[-1] == {"type": "action", "name": "replay"}


def test_an_error_from_the_kernel_is_shown(page):
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    page.evaluate("() => window.model.send({type: 'seek', index: 99})")
    kernel(page, widget)
    assert page.text_content('[data-role="message"]').startswith("'index' must be a whole number")
    assert "sw-flash" in page.get_attribute('[data-role="message"]', "class")


def test_a_dropdown_lands_on_the_pile_beneath(page):
    # Interlock deal 1: once t28 is empty, t27 is t17's only covering pile and may drop onto it.
    widget = sw.SolitaireWidget("interlock", deal=1)
    widget.play("t22 f0")
    widget.play("t28 t25")
    assert sw.Move("t27", "t17") in widget.state.legal_moves()
    mount(page, widget)
    assert "sw-covered" in page.get_attribute('[data-pile="t17"]', "class")
    card = page.locator(card_selector("t27", 0)).bounding_box()
    below = page.locator('[data-pile="t17"]').bounding_box()
    page.mouse.move(card["x"] + 8, card["y"] + 8)
    page.mouse.down()
    page.mouse.move(card["x"] + 60, card["y"] + 80, steps=4)
    assert page.locator('[data-pile="t17"].sw-target').count() == 1
    page.mouse.move(below["x"] + below["width"] / 2, below["y"] + below["height"] / 2, steps=4)
    page.mouse.up()
    assert sent(page) == [{"type": "move", "move": "t27 t17"}]
    kernel(page, widget)
    assert str(widget.history[-1]) == "t27 t17"
    page.wait_for_function(
        "() => document.querySelector('[data-pile=\"t27\"]').classList.contains('sw-gone')"
    )


@pytest.mark.parametrize("number", ["123456789012345678", "99999999999999999999"])
def test_the_deal_box_keeps_long_deal_numbers_exact(page, number):
    """Deal numbers beyond 2**53 go from the box to the kernel and back as text, unrounded."""
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    page.fill('[data-role="deal"]', number)
    page.click('[data-action="new"]')
    assert sent(page) == [{"type": "action", "name": "new", "deal": number}]
    kernel(page, widget)
    assert widget.deal == int(number) and widget.state == sw.load_game("freecell").deal(int(number))
    page.wait_for_function(f"() => document.querySelector('[data-role=\"deal\"]').value === '{number}'")


@pytest.mark.parametrize(
    "typed, reason",
    [
        ("100000000000000000000", "out of range: deals are numbered 1 to 99999999999999999999"),
        ("0", "out of range: deals are numbered 1 to 99999999999999999999"),
        ("12x", "a deal number is a whole number from 1 to 99999999999999999999"),
        ("1e5", "a deal number is a whole number from 1 to 99999999999999999999"),
        ("-3", "a deal number is a whole number from 1 to 99999999999999999999"),
    ],
)
def test_the_deal_box_shows_why_the_kernel_refuses_its_text(page, typed, reason):
    """The box sends what is typed; the rule for deal numbers is the kernel's alone, and its
    words come back to the box and the message line."""
    widget = sw.SolitaireWidget("freecell", deal=1)
    mount(page, widget)
    assert page.get_attribute('[data-role="deal"]', "title") == deal_rule(widget.game.deal_limits)
    page.fill('[data-role="deal"]', typed)
    page.click('[data-action="new"]')
    assert sent(page) == [{"type": "action", "name": "new", "deal": typed}]
    kernel(page, widget)
    assert widget.deal == 1 and widget.moves_made == 0
    page.wait_for_function(
        "() => document.querySelector('[data-role=\"deal\"]').getAttribute('aria-invalid') === 'true'"
    )
    why = page.evaluate("() => document.querySelector('[data-role=\"deal\"]').validationMessage")
    assert reason in why and why == widget.message
    assert reason in page.text_content('[data-role="message"]')
    assert page.input_value('[data-role="deal"]') == typed
    page.fill('[data-role="deal"]', "7")  # typing again clears the refusal
    assert page.get_attribute('[data-role="deal"]', "aria-invalid") is None
