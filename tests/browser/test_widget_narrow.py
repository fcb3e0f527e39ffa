"""The board on screens of every width, by mouse and by touch, in JupyterLab 4 and Notebook 7:
at 320, 360, 480, 800 (JupyterLab's sidebar open) and 1280 px, every pile of every seed game
and every control is within reach (the felt scrolls sideways only where even the narrowest
arrangement at legible cards is wider than the output), card indices are 10 px at least; a
card dragged to the felt's edge scrolls it; a swipe on empty felt scrolls, and a tap on a
card then a tap on a pile moves it. One page per front end, resized from test to test."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SEED_GAMES = ("reversed_solitaire", "triple_interchange", "interlock", "mutated")
WIDTHS = (320, 360, 480, 800, 1280)
MIN_INDEX_PX = 10

FIND_MOVES = '''
def _far_move(game_id, low, high):
    """A deal and a legal one-card move of it between uncovered piles, from a pile whose
    corner lies left of ``low`` to one right of ``high`` (card widths, the widest layout)."""
    game = sw.load_game(game_id)
    x = {p["id"]: p["x"] for p in game.layout()["piles"]}
    for deal in range(1, 400):
        state = game.deal(deal)
        for move in state.legal_moves():
            kinds = (game.pile_kinds.get(move.src), game.pile_kinds.get(move.dst))
            if kinds == ("tableau", "tableau") and move.n == 1 and x[move.src] < low and x[move.dst] > high:
                return deal, str(move)
'''

CELLS = [
    "import solwidget as sw\nseeds = {}",
    FIND_MOVES,
    *(
        f"seeds[{game!r}] = sw.SolitaireWidget({game!r}, deal=3)\nseeds[{game!r}].add_class('wn-{game}')\n"
        f"seeds[{game!r}]"
        for game in SEED_GAMES
    ),
    "far_deal, far_move = _far_move('interlock', 3, 9)\n"
    "far = sw.SolitaireWidget('interlock', deal=far_deal)\nfar.add_class('wn-far')\nfar",
]

# For each widget: the smallest corner index, the piles and controls out of reach (a pile is
# scrolled into view within its felt first), whether the felt scrolls, and its arrangement.
JS_REACH = """(roots) => roots.map((root) => {
    const el = document.querySelector(root);
    const felt = el.querySelector('.sw-felt');
    const board = el.querySelector('.sw-board');
    const sizes = [...el.querySelectorAll('.sw-corner')].map((c) => parseFloat(getComputedStyle(c).fontSize));
    const inView = (box, view) => box.left >= Math.max(view.left, 0) - 0.5
        && box.left + Math.min(box.width, 40) <= Math.min(view.right, innerWidth) + 0.5;
    const piles = [], controls = [];
    for (const pile of el.querySelectorAll('[data-pile]')) {
        felt.scrollLeft = Math.max(0, pile.offsetLeft - 8);
        if (!inView(pile.getBoundingClientRect(), felt.getBoundingClientRect())) piles.push(pile.dataset.pile);
    }
    felt.scrollLeft = 0;
    const selector = '.sw-toolbar button, .sw-toolbar select, .sw-toolbar input, .sw-footer select';
    for (const control of el.querySelectorAll(selector)) {
        const box = control.getBoundingClientRect();
        if (box.left < -0.5 || box.right > innerWidth + 0.5) {
            controls.push(control.dataset.action || control.dataset.role);
        }
    }
    return {root, smallest: Math.min(...sizes), piles, controls,
            scrolls: felt.scrollWidth > felt.clientWidth + 1, arrangement: board.dataset.arrangement,
            unit: parseFloat(getComputedStyle(el.querySelector('.sw-root')).getPropertyValue('--u'))};
})"""


@pytest.fixture(scope="module")
def touch_page(browser, jupyter):
    """A page of its own, with touch (tap, and touch events for swipes) as well as a mouse."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
    jupyter.shut_down_kernels()


@pytest.fixture(scope="module")
def notebook(touch_page, jupyter):
    from harness import open_notebook

    nb = open_notebook(touch_page, jupyter, CELLS)
    nb.page.wait_for_function("() => document.querySelectorAll('.sw-root').length === 5")
    return nb


def set_width(nb, width: int) -> None:
    """The page ``width`` px wide; at 800 px, JupyterLab's file browser open beside the notebook."""
    page = nb.page
    page.set_viewport_size({"width": width, "height": 900})
    if nb.server.kind == "lab":
        page.evaluate(
            "(open) => open ? window.jupyterapp.shell.activateById('filebrowser')"
            " : window.jupyterapp.shell.collapseLeft()",
            width == 800,
        )
    page.wait_for_timeout(300)  # the resize observers redraw


@pytest.mark.parametrize("width", WIDTHS)
def test_every_pile_and_control_is_within_reach(notebook, width):
    set_width(notebook, width)
    arrangements = notebook.value("{g: len(w.board.get('narrower', [])) for g, w in seeds.items()}")
    reach = notebook.page.evaluate(JS_REACH, [f".wn-{game}" for game in SEED_GAMES])
    for game, fit in zip(SEED_GAMES, reach):
        assert fit["smallest"] >= MIN_INDEX_PX, fit
        assert fit["piles"] == [] and fit["controls"] == [], fit
        if fit["scrolls"]:  # only where even the narrowest arrangement, at legible cards, is too wide
            assert fit["arrangement"] == str(arrangements[game]) and fit["unit"] == 40, fit


def test_a_card_dragged_to_the_felts_edge_scrolls_it_to_a_far_pile(notebook):
    page = notebook.page
    set_width(notebook, 360)
    src, dst = notebook.value("far_move.split()")
    felt = page.locator(".wn-far .sw-felt")
    felt.scroll_into_view_if_needed()
    felt.evaluate("(f) => { f.scrollLeft = 0; }")
    view = felt.bounding_box()
    target = page.locator(f".wn-far [data-pile='{dst}']")
    assert target.bounding_box()["x"] > view["x"] + view["width"], "the target starts off-screen"
    card = page.locator(f".wn-far [data-pile='{src}'] [data-card]").last.bounding_box()
    page.mouse.move(card["x"] + 6, card["y"] + 6)
    page.mouse.down()
    page.mouse.move(card["x"] + 30, card["y"] + 10, steps=3)
    edge_y = card["y"] + 10
    page.mouse.move(view["x"] + view["width"] - 4, edge_y, steps=5)
    page.wait_for_function(
        "([root, dst]) => { const felt = document.querySelector(root + ' .sw-felt');"
        " const box = document.querySelector(`${root} [data-pile='${dst}']`).getBoundingClientRect();"
        " return box.right < felt.getBoundingClientRect().right - 40; }",
        arg=[".wn-far", dst],
    )
    assert felt.evaluate("(f) => f.scrollLeft") > 0
    page.mouse.move(view["x"] + view["width"] / 2, edge_y)  # away from the edge: the felt stops
    page.wait_for_timeout(100)
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20, steps=2)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert notebook.value("[str(m) for m in far.history]") == [f"{src} {dst}"]
    notebook.run("far.restart()")


def swipe(page, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """A finger put down at ``start``, moved to ``end`` and lifted, as the touch screen's events."""
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]}
        )

    touch("touchStart", [start])
    for k in range(1, steps + 1):
        touch(
            "touchMove",
            [(start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps)],
        )
        page.wait_for_timeout(16)
    touch("touchEnd", [])
    cdp.detach()
    page.wait_for_timeout(300)


# A point of the felt where no pile lies (the felt or board itself is hit there).
JS_EMPTY_FELT = """(root) => {
    const felt = document.querySelector(root + ' .sw-felt');
    const box = felt.getBoundingClientRect();
    for (let y = box.bottom - 12; y > box.top + 10; y -= 8) {
        for (let x = box.left + 30; x < Math.min(box.right, innerWidth) - 30; x += 8) {
            const hit = document.elementFromPoint(x, y);
            if (hit && (hit.classList.contains('sw-board') || hit.classList.contains('sw-felt'))) return [x, y];
        }
    }
    return null;
}"""


def test_a_swipe_on_empty_felt_scrolls_it_and_the_page(notebook):
    page = notebook.page
    set_width(notebook, 360)
    felt = page.locator(".wn-far .sw-felt")
    felt.scroll_into_view_if_needed()
    felt.evaluate("(f) => { f.scrollLeft = 0; }")
    assert felt.evaluate("(f) => f.scrollWidth > f.clientWidth"), "Interlock at 360 px scrolls sideways"
    x, y = page.evaluate(JS_EMPTY_FELT, ".wn-far")
    swipe(page, (x + 100, y), (x - 60, y))
    assert felt.evaluate("(f) => f.scrollLeft") > 50
    scroller = (
        "(el) => { let n = el; while (n && !(n.scrollHeight > n.clientHeight + 1 && "
        "['auto', 'scroll'].includes(getComputedStyle(n).overflowY))) n = n.parentElement; "
        "return (n || document.scrollingElement).scrollTop; }"
    )
    before = felt.evaluate(scroller)
    x, y = page.evaluate(JS_EMPTY_FELT, ".wn-far")
    swipe(page, (x, y), (x, y + 150))  # the finger down: the notebook scrolls back up
    assert felt.evaluate(scroller) < before - 50, "a vertical swipe scrolls the notebook"


def test_a_tap_on_a_card_then_a_tap_on_a_pile_moves_it(notebook):
    page = notebook.page
    set_width(notebook, 360)
    src, dst = notebook.value("far_move.split()")
    page.locator(f".wn-far [data-pile='{src}'] [data-card]").last.tap(position={"x": 6, "y": 6})
    page.locator(".wn-far .sw-picked").first.wait_for()
    page.locator(f".wn-far [data-pile='{dst}']").tap(position={"x": 10, "y": 10})
    page.wait_for_function("() => !document.querySelector('.wn-far .sw-picked')")
    page.wait_for_timeout(300)
    assert notebook.value("[str(m) for m in far.history]") == [f"{src} {dst}"]
    notebook.run("far.restart()")


def test_a_touch_held_still_then_moved_drags_the_card(notebook):
    page = notebook.page
    set_width(notebook, 1280)
    src, dst = notebook.value("far_move.split()")
    page.locator(".wn-far").scroll_into_view_if_needed()
    card = page.locator(f".wn-far [data-pile='{src}'] [data-card]").last.bounding_box()
    box = page.locator(f".wn-far [data-pile='{dst}']").bounding_box()
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]}
        )

    start, end = (card["x"] + 8, card["y"] + 8), (box["x"] + box["width"] / 2, box["y"] + 20)
    touch("touchStart", [start])
    page.wait_for_timeout(600)  # held still: the card is picked up
    assert page.locator(".wn-far .sw-picked").count() == 1
    for k in range(1, 13):
        touch(
            "touchMove", [(start[0] + (end[0] - start[0]) * k / 12, start[1] + (end[1] - start[1]) * k / 12)]
        )
        page.wait_for_timeout(16)
    assert page.locator(".wn-far .sw-ghost").count() == 1, "the finger drags the card"
    touch("touchEnd", [])
    cdp.detach()
    page.wait_for_timeout(300)
    assert notebook.value("[str(m) for m in far.history]") == [f"{src} {dst}"]
    notebook.run("far.restart()")
