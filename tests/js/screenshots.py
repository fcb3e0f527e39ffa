"""Screenshots of each seed game as the widget draws it, for the README.

    .venv/bin/python tests/js/screenshots.py      # writes docs/screenshots/<game>.png

Headless Debian chromium renders the built front end (npm run build) against the test page's
fake model, fed by a real SolitaireWidget, exactly as the front end tests do.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from chromium import launch_chromium  # noqa: E402
from jsharness import ROOT, mount, open_page, start_server, url  # noqa: E402

import solwidget as sw  # noqa: E402

SEED_GAMES = {"reversed_solitaire": 1, "triple_interchange": 1, "interlock": 1, "mutated": 1}
OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    httpd = start_server()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = open_page(browser, url(httpd), width=1000, height=1100)
            for game, deal in SEED_GAMES.items():
                mount(page, sw.SolitaireWidget(game, deal=deal), width=960)
                path = OUT / f"{game}.png"
                page.locator("#out").screenshot(path=str(path))
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
            browser.close()
    finally:
        httpd.shutdown()


if __name__ == "__main__":
    main()
