"""The board in a real notebook, in JupyterLab 4 and in Notebook 7: every seed game fits
output areas from 320 px up (legible card indices, every pile in sight or in reach by
scrolling sideways); a moved card slides from its old place unless the page asks for
reduced motion; a covered card and a face-down card are refused as they are picked up, in
the rules' words; a win is celebrated on the board."""

from __future__ import annotations

import json

import pytest
from helpers import position

pytestmark = pytest.mark.browser

SEED_GAMES = ("reversed_solitaire", "triple_interchange", "interlock", "mutated")
MIN_INDEX_PX = 10  # the least font size of a card's corner index
NEAR_WIN = position("freecell", f0="AC-KC", f1="AD-KD", f2="AH-KH", f3="AS-QS", t0="KS")

CELLS = [
    "import json\nimport solwidget as sw\nfrom solwidget.engine.words import reason_words\nseeds = {}",
    *(
        f"seeds[{game!r}] = sw.SolitaireWidget({game!r}, deal=3)\nseeds[{game!r}].add_class('wb-{game}')\n"
        f"seeds[{game!r}]"
        for game in SEED_GAMES
    ),
    "fc = sw.SolitaireWidget('freecell', deal=1)\nfc.add_class('wb-fc')\n"
    "move = next(m for m in fc.state.legal_moves() if m.src.startswith('t') and m.n == 1)\nfc",
    "lock = sw.SolitaireWidget('interlock', deal=7)\nlock.add_class('wb-lock')\nlock",
    "triple = sw.SolitaireWidget('triple_interchange', deal=1)\ntriple.add_class('wb-triple')\ntriple",
    f"near_win = json.loads({json.dumps(json.dumps(NEAR_WIN.to_dict()))})\n"
    "near = sw.SolitaireWidget('freecell', state=sw.load_game('freecell').state_from_dict(near_win))\n"
    "near.add_class('wb-near')\nnear",
]

# For each seed game's widget: the output area's width, the felt's right edge past it (px),
# the smallest corner index (px), and the piles that are out of reach even when scrolled to.
JS_FIT = """(games) => games.map((game) => {
    const el = document.querySelector(`.wb-${game}`);
    const felt = el.querySelector('.sw-felt');
    const out = el.getBoundingClientRect();
    const sizes = [...el.querySelectorAll('.sw-corner')].map((c) => parseFloat(getComputedStyle(c).fontSize));
    const unreachable = [];
    for (const pile of el.querySelectorAll('[data-pile]')) {
        pile.scrollIntoView({block: 'nearest', inline: 'nearest'});
        const box = pile.getBoundingClientRect(), view = felt.getBoundingClientRect();
        const right = box.left + Math.min(box.width, 40);      // at least its corner index
        if (box.left < Math.max(view.left, 0) - 0.5 || right > Math.min(view.right, innerWidth) + 0.5) {
            unreachable.push(pile.dataset.pile);
        }
    }
    felt.scrollLeft = 0;
    return {game, width: out.width, overhang: felt.getBoundingClientRect().right - out.right,
            smallest: Math.min(...sizes), unreachable};
})"""

# Records, for every card that starts an animation, its pile and its computed translate then.
JS_WATCH_SLIDES = """(root) => {
    window._wb_slides = [];
    window._wb_watch && window._wb_watch.disconnect();
    window._wb_watch = new MutationObserver(() => {
        for (const card of document.querySelectorAll(`${root} [data-card]`)) {
            if (!card.getAnimations().length || card._wb_seen) continue;
            card._wb_seen = true;
            window._wb_slides.push({pile: card.closest('[data-pile]').dataset.pile, card: card.dataset.card,
                                    translate: getComputedStyle(card).translate});
        }
    });
    window._wb_watch.observe(document.querySelector(root), {subtree: true, childList: true});
}"""


@pytest.fixture(scope="module")
def notebook(module_notebook):
    nb = module_notebook(CELLS)
    nb.page.wait_for_function("() => document.querySelectorAll('.sw-root').length === 8")
    return nb


def set_sidebar(nb, open_: bool) -> None:
    """JupyterLab's left sidebar (the file browser) open or closed."""
    if nb.server.kind == "lab":
        nb.page.evaluate(
            "(open) => open ? window.jupyterapp.shell.activateById('filebrowser')"
            " : window.jupyterapp.shell.collapseLeft()",
            open_,
        )


@pytest.mark.parametrize(
    "how, width", [("layout", 320), ("layout", 480), ("viewport", 800), ("viewport", 1280)]
)
def test_every_seed_game_fits_the_output_area(notebook, how, width):
    page = notebook.page
    page.set_viewport_size({"width": 1280 if how == "layout" else width, "height": 900})
    set_sidebar(notebook, how == "viewport" and width == 800)
    size = f"'{width}px'" if how == "layout" else "None"
    notebook.run(f"for w in seeds.values(): w.layout.width = {size}")
    if how == "layout":
        page.wait_for_function(
            f"() => [...document.querySelectorAll('.sw-root')].slice(0, 4).every("
            f"(r) => r.parentElement.getBoundingClientRect().width === {width})"
        )
    page.wait_for_function("""() => [...document.querySelectorAll('.sw-root')].every((r) =>
        r.querySelector('.sw-felt').getBoundingClientRect().right
        <= r.parentElement.getBoundingClientRect().right + 0.5)""")
    try:
        fits = page.evaluate(JS_FIT, list(SEED_GAMES))
    finally:
        set_sidebar(notebook, False)
    for fit in fits:
        assert fit["width"] <= width + 0.5, fit
        assert fit["overhang"] <= 0.5, fit
        assert fit["smallest"] >= MIN_INDEX_PX, fit
        assert fit["unreachable"] == [], fit
    if how == "viewport" and width == 800 and notebook.server.kind == "lab":
        assert fits[0]["width"] < 500, "the sidebar is open: the output area is narrow"


def click_move(page, root: str, src: str, dst: str) -> None:
    page.locator(f"{root} [data-pile='{src}'] [data-card]").last.click(position={"x": 6, "y": 6})
    page.locator(f"{root} [data-pile='{dst}']").click()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_moved_card_slides_unless_motion_is_reduced(notebook, motion):
    page = notebook.page
    page.set_viewport_size({"width": 1280, "height": 900})
    notebook.run("fc.restart()")
    src, dst, card = notebook.value("[move.src, move.dst, fc.state.pile(move.src)[-1]]")
    page.locator(".wb-fc").scroll_into_view_if_needed()
    page.emulate_media(reduced_motion=motion)
    try:
        page.evaluate(JS_WATCH_SLIDES, ".wb-fc")
        click_move(page, ".wb-fc", src, dst)
        page.locator(f".wb-fc [data-pile='{dst}'] [data-card='{card}']").wait_for()
        assert notebook.value("[str(m) for m in fc.history]") == [f"{src} {dst}"]
        page.locator(".wb-fc [data-action='undo']").click()
        page.locator(f".wb-fc [data-pile='{src}'] [data-card='{card}']").wait_for()
        page.wait_for_timeout(50)
        slides = page.evaluate("() => { window._wb_watch.disconnect(); return window._wb_slides; }")
    finally:
        page.emulate_media(reduced_motion="no-preference")
    if motion == "reduce":
        assert slides == []
    else:
        assert [(s["pile"], s["card"]) for s in slides] == [(dst, card), (src, card)], (
            "there, and back on undo"
        )
        assert all(s["translate"] not in ("none", "0px", "0px 0px") for s in slides)


def test_a_covered_card_is_refused_as_it_is_picked_up(notebook):
    page = notebook.page
    page.set_viewport_size({"width": 1280, "height": 900})
    reason = notebook.value("reason_words(lock.state, lock.game.pickup_refusal(lock.state, 't0', 0, 1))")
    assert "is covered by" in reason and "t9" not in reason
    page.locator(".wb-lock [data-pile='t0'] [data-card]").click(position={"x": 6, "y": 6})
    assert page.locator(".wb-lock .sw-picked").count() == 0
    page.locator(".wb-lock [data-role='message']").filter(has_text=reason).wait_for()
    assert notebook.value("len(lock.history)") == 0


def test_a_face_down_card_is_refused_and_not_named(notebook):
    page = notebook.page
    page.set_viewport_size({"width": 1280, "height": 900})
    reason, hidden = notebook.value(
        "[triple.game.pickup_refusal(triple.state, 't0', 1, 8), triple.state.pile('t0')[1]]"
    )
    assert hidden.startswith("[")
    page.locator(".wb-triple [data-pile='t0'] [data-index='1']").click(position={"x": 6, "y": 3})
    assert page.locator(".wb-triple .sw-picked").count() == 0
    message = page.locator(".wb-triple [data-role='message']")
    message.filter(has_text=reason).wait_for()
    assert hidden.strip("[]") not in message.inner_text()
    assert notebook.value("len(triple.history)") == 0


def test_a_win_is_celebrated_on_the_board(notebook):
    page = notebook.page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator(".wb-near").scroll_into_view_if_needed()
    page.locator(".wb-near [data-pile='t0'] [data-card='KS']").dblclick()
    page.locator(".wb-near .sw-felt.sw-celebrate").wait_for()
    names = page.evaluate(
        "() => document.querySelector('.wb-near .sw-felt').getAnimations({subtree: true})"
        ".map((a) => a.animationName).filter(Boolean)"
    )
    assert {"sw-glow", "sw-cheer"} <= set(names)
    assert notebook.value("near.state.is_won()") is True
