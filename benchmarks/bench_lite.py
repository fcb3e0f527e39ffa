"""The lessons' JupyterLite site and the docs' live board: sizes and times, offline.

    python benchmarks/bench_lite.py [--repeat 3]

Builds what is missing (lite/build_site.py, mkdocs), serves the documentation site with the
lessons' site in it from 127.0.0.1, and drives Debian's chromium with every other request
refused (tests/lite/lite_harness.py). It prints one table:

- the site's size on disk, and what a first visit to the live board downloads;
- lesson 01 in JupyterLite, opened and run to its drawn board: cold (a new browser profile:
  nothing cached) and warm (the same page reloaded);
- the live board's first drawn board, cold and warm;
- a move on the live board, from the second click to the card drawn on its new pile;
- a hint on the live board (deal 1 of each seed game), from the click to its message.
Times are medians of ``--repeat`` runs, in seconds; pure Python (the browser has no compiled
modules).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "lite")]

from lite_harness import LOAD_TIMEOUT, StaticServer, new_page, offline_context, open_lesson, run_all  # noqa: E402

SEED_GAMES = ["reversed_solitaire", "triple_interchange", "interlock", "mutated"]


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def docs_site(out: Path) -> Path:
    from lite import build_site

    build_site.build(ROOT / "build" / "lite")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(out)], cwd=ROOT, check=True
    )
    return out


def lesson_run(page, base: str) -> float:
    start = time.perf_counter()
    open_lesson(page, base, "01_reversed_solitaire.ipynb")
    errors = run_all(page)
    if errors:
        raise SystemExit(f"lesson 01 failed in the browser: {errors}")
    page.locator("[data-pile]").first.wait_for(state="visible", timeout=LOAD_TIMEOUT)
    return time.perf_counter() - start


def live_board(page, base: str, game: str = "reversed_solitaire") -> float:
    start = time.perf_counter()
    page.goto(f"{base}/play/?game={game}&deal=1", timeout=LOAD_TIMEOUT)
    page.locator("[data-live-board][data-ready] [data-pile]").first.wait_for(timeout=LOAD_TIMEOUT)
    return time.perf_counter() - start


def timed_move(page) -> float:
    """Play t1 -> c0 of Reversed Solitaire deal 1 (a fresh deal) and time the second click."""
    page.locator("[data-live=start]").click()
    page.wait_for_function("() => /0 moves/.test(document.querySelector('[data-live-board]').innerText)")
    page.locator('[data-live-board] [data-pile="t1"] [data-card]').last.click()
    start = time.perf_counter()
    page.locator('[data-live-board] [data-pile="c0"]').click()
    page.wait_for_function("() => document.querySelector('[data-live-board] [data-pile=\"c0\"] [data-card]')")
    return time.perf_counter() - start


def timed_hint(page, game: str) -> float:
    page.select_option("[data-live=game]", game)
    page.wait_for_function(
        "(id) => document.querySelector('[data-live=status]').textContent.startsWith(id + ', deal ')",
        arg=game,
        timeout=LOAD_TIMEOUT,
    )
    start = time.perf_counter()
    page.locator('[data-live-board] [data-action="hint"]').click()
    page.wait_for_function(
        "() => /hint:|no hint/.test(document.querySelector('[data-live-board]').innerText)",
        timeout=LOAD_TIMEOUT,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from chromium import launch_chromium  # tests/chromium.py, on the path by lite_harness
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        site = docs_site(Path(tmp) / "site")
        rows.append(("lessons' site (build/lite) on disk", f"{folder_size(site / 'lite') / 1e6:.1f} MB"))
        with StaticServer(site) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            cold, warm, live_cold, live_warm, moves, fetched = [], [], [], [], [], []
            hints = {game: [] for game in SEED_GAMES}
            for _ in range(args.repeat):
                context = offline_context(browser, server.base)
                page = new_page(context)
                cold.append(lesson_run(page, server.base))
                warm.append(lesson_run(page, server.base))
                context.close()

                context = offline_context(browser, server.base)
                sizes = []
                context.on(
                    "response", lambda r, sizes=sizes: sizes.append(int(r.headers.get("content-length") or 0))
                )
                page = new_page(context)
                live_cold.append(live_board(page, server.base))
                fetched.append(sum(sizes))
                live_warm.append(live_board(page, server.base))
                moves.append(timed_move(page))
                for game in SEED_GAMES:
                    hints[game].append(timed_hint(page, game))
                refused = list(context.refused)
                context.close()
                if refused:
                    raise SystemExit(f"requests outside the site: {refused}")
            browser.close()
    median = statistics.median
    rows += [
        ("live board: downloaded on a first visit", f"{median(fetched) / 1e6:.1f} MB"),
        ("lesson 01 opened and run to its board, cold", f"{median(cold):.1f} s"),
        ("lesson 01 opened and run to its board, warm", f"{median(warm):.1f} s"),
        ("live board: first drawn board, cold", f"{median(live_cold):.1f} s"),
        ("live board: first drawn board, warm", f"{median(live_warm):.1f} s"),
        ("live board: a move, click to drawn", f"{median(moves) * 1000:.0f} ms"),
    ]
    rows += [
        (f"live board: a hint, {game} deal 1", f"{median(times):.2f} s") for game, times in hints.items()
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'what':<{width}} | value")
    print(f"{'-' * width}-|------")
    for name, figure in rows:
        print(f"{name:<{width}} | {figure}")
    print(f"(chromium headless, offline, {args.repeat} runs each; medians)")


if __name__ == "__main__":
    main()
