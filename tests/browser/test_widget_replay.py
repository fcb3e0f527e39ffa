"""The replay bar and Solve's budget in a real browser, in JupyterLab 4 and Notebook 7: play,
pause, step and speed work after Solve, after Stop and during "Replay the win"; the speed
applies to every replay; a click on the board during a replay pauses it and says so; the
icons are drawn, not font glyphs; a replayed win is not timed; cards are read out by the
names of their piles."""

from __future__ import annotations

import re
import time

import pytest

pytestmark = pytest.mark.browser

CELLS = [
    "import solwidget as sw\nw = sw.SolitaireWidget('freecell', deal=1)\nw.add_class('wr')\nw",
    "t = sw.SolitaireWidget('triple_interchange', deal=765)\nt.add_class('wt')\nt",
]
STEPS = ("first", "back", "play", "forward", "last")


@pytest.fixture(scope="module")
def nb(module_notebook):
    return module_notebook(CELLS)


def step(page, name: str):
    return page.locator(f".wr [data-step='{name}']")


def made(nb) -> int:
    return int(nb.page.locator(".wr [data-role='position']").inner_text().split(" / ")[0])


def fresh(nb, deal: int = 1) -> None:
    nb.run(f"w.stop()\nw.new_deal({deal})\nw.solve_seconds = 10.0\nw.replay_delay = 0.5")
    nb.page.locator(".wr [data-role='status']").filter(has_text=re.compile(r"^0 moves")).wait_for()


def solve(nb) -> None:
    nb.page.locator(".wr [data-action='solve']").click()
    nb.page.locator(".wr [data-role='solver-summary']").filter(
        has_text=re.compile(r"^(won|lost|unknown|stopped)")
    ).wait_for(timeout=60_000)


def test_the_icons_are_drawn_not_font_glyphs(nb):
    page = nb.page
    fresh(nb)
    nb.run("w.play('t0 c0')")
    for name in STEPS:
        button = step(page, name)
        assert button.locator("svg path").count() == 1, name
        assert button.inner_text().strip() == "", name
        assert button.get_attribute("aria-label")


def test_after_solve_every_control_of_the_bar_works_and_replay_the_win_follows_the_speed(nb):
    page = nb.page
    fresh(nb)
    page.locator(".wr [data-role='budget']").select_option("1")
    nb.reaches("w.solve_seconds", 1.0)
    solve(nb)
    length = nb.value("len(w.solution)")
    assert length > 20
    page.locator(".wr [data-role='speed']").select_option("0.05")
    nb.reaches("w.replay_delay", 0.05)
    start = time.monotonic()
    page.locator(".wr [data-action='replay']").click()
    page.wait_for_function(
        "() => document.querySelector('.wr [data-step=play]').getAttribute('aria-pressed') === 'true'"
    )
    assert not step(page, "play").is_disabled(), "pause is offered during the replay"
    page.locator(".wr [data-role='position']").filter(has_text=f"{length} / {length}").wait_for(
        timeout=30_000
    )
    took = time.monotonic() - start
    assert took < length * 0.05 + 8, f"{length} moves at 'fastest' took {took:.1f} s"
    status = page.locator(".wr [data-role='status']").inner_text()
    assert status.endswith(f"won in {length} moves!"), status
    # The last move is drawn before the replay's end is: the button follows at once.
    page.wait_for_function(
        "() => document.querySelector('.wr [data-step=play]').getAttribute('aria-pressed') === 'false'"
    )
    for name in ("first", "back", "play"):
        assert not step(page, name).is_disabled(), name
    step(page, "first").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"0 / {length}").wait_for()
    step(page, "forward").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"1 / {length}").wait_for()
    step(page, "last").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"{length} / {length}").wait_for()
    step(page, "back").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"{length - 1} / {length}").wait_for()
    page.locator(".wr [data-role='speed']").select_option("1")
    step(page, "first").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"0 / {length}").wait_for()
    step(page, "play").click()
    page.wait_for_timeout(1500)
    assert 1 <= made(nb) <= 3, "at 'slow', a move a second"
    step(page, "play").click()  # pause
    paused = made(nb)
    page.wait_for_timeout(1200)
    assert made(nb) == paused and step(page, "play").get_attribute("aria-pressed") == "false"


def test_a_replay_played_to_its_end_leaves_no_empty_felt_and_stepping_keeps_the_bar_still(nb):
    page = nb.page
    fresh(nb)
    solve(nb)
    length = nb.value("len(w.solution)")
    page.locator(".wr [data-role='speed']").select_option("0.05")
    board = page.locator(".wr .sw-board")
    page.locator(".wr [data-action='replay']").click()
    page.wait_for_function(
        "() => document.querySelector('.wr [data-step=play]').getAttribute('aria-pressed') === 'true'"
    )
    during = board.bounding_box()["height"]  # the line's tallest position, kept
    page.locator(".wr [data-role='position']").filter(has_text=f"{length} / {length}").wait_for(
        timeout=30_000
    )
    page.wait_for_function(
        "() => document.querySelector('.wr [data-step=play]').getAttribute('aria-pressed') === 'false'"
    )
    ended = board.bounding_box()["height"]
    assert ended < during, "a finished replay fits the felt to the cards"
    bar = page.locator(".wr [data-role='replay-bar']")
    top = bar.bounding_box()["y"]
    step(page, "back").click()
    page.locator(".wr [data-role='position']").filter(has_text=f"{length - 1} / {length}").wait_for()
    assert bar.bounding_box()["y"] == top, "a step back from the end leaves the bar where it was"


def test_after_stop_play_resumes_the_best_line(nb):
    page = nb.page
    page.locator(".wt [data-role='budget']").select_option("")
    nb.reaches("t.solve_seconds", None)
    page.locator(".wt [data-action='solve']").click()
    page.locator(".wt [data-action='stop']").wait_for()
    assert page.locator(".wt [data-role='solver-summary']").inner_text().startswith("searching")
    assert "of" not in page.locator(".wt [data-role='solver-summary']").inner_text().split("·")[1], (
        "no time limit"
    )
    page.wait_for_timeout(500)
    page.locator(".wt [data-action='stop']").click()
    page.locator(".wt [data-role='solver-summary']").filter(has_text=re.compile(r"^stopped")).wait_for()
    page.locator(".wt [data-action='replay']").click()
    page.locator(".wt [data-role='position']").filter(has_text=re.compile(r"^0 / [1-9]")).wait_for()
    assert not page.locator(".wt [data-step='play']").is_disabled()
    page.locator(".wt [data-role='speed']").select_option("0.05")
    page.locator(".wt [data-step='play']").click()
    page.wait_for_function(
        "() => Number(document.querySelector('.wt [data-role=position]').textContent.split(' / ')[0]) >= 3"
    )
    page.locator(".wt [data-step='play']").click()


def test_a_click_on_the_board_during_a_replay_pauses_it_and_says_so(nb):
    page = nb.page
    fresh(nb)
    line = nb.value("[str(m) for m in sw.solve(w.state, max_states=100_000).moves]")
    nb.run(f"w.replay({line!r}, delay=0.3)")  # a replay the kernel runs
    page.wait_for_function(
        "() => Number(document.querySelector('.wr [data-role=position]').textContent.split(' / ')[0]) >= 2"
    )
    assert step(page, "play").get_attribute("aria-pressed") == "true"
    page.locator(".wr [data-pile='t3']").click(position={"x": 8, "y": 8})
    message = page.locator(".wr [data-role='message']")
    message.filter(has_text="replay paused at move").wait_for()
    page.wait_for_function(
        "() => document.querySelector('.wr [data-step=play]').getAttribute('aria-pressed') === 'false'"
    )
    at = nb.value("w.moves_made")
    page.wait_for_timeout(800)
    assert nb.value("[w.moves_made, w.history_length, w.busy]") == [at, len(line), ""], (
        "paused, the line kept"
    )
    assert page.locator(".wr .sw-picked").count() == 0, "the click picked nothing up"
    step(page, "play").click()  # goes on, at the bar's speed, in the browser
    page.wait_for_function(
        f"() => Number(document.querySelector('.wr [data-role=position]').textContent.split(' / ')[0]) > {at}"
    )
    step(page, "play").click()


def test_cards_and_piles_are_read_out_by_their_names(nb):
    page = nb.page
    fresh(nb)
    label = page.locator(".wr [data-pile='t2'] [data-card]").last.get_attribute("aria-label")
    assert re.fullmatch(r"\w+ of \w+, on the third tableau pile", label), label
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.wr [aria-label]')].map((e) => e.getAttribute('aria-label'))"
    )
    assert not [text for text in labels if re.search(r"\b[ftc]\d+\b", text)]
