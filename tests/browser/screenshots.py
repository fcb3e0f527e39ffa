"""Screenshots of each seed game's widget in JupyterLab 4, for the README.

    .venv/bin/python tests/browser/screenshots.py [OUT_DIR]     # default: docs/screenshots

Each picture is one notebook cell, its code and the widget it shows, as dealt, in JupyterLab's
light theme, saved as docs/screenshots/jupyterlab-GAME.png (a palette PNG, to stay small).
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/chromium.py

from chromium import launch_chromium
from harness import JupyterServer, open_notebook

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"reversed_solitaire": 1, "triple_interchange": 1, "interlock": 7, "mutated": 1}
MAX_BYTES = 300_000


def small_png(png: bytes) -> bytes:
    """The picture with at most 256 colours (cards and a flat theme lose nothing visible)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def main(argv: list[str]) -> None:
    out_dir = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out_dir.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as root,
        JupyterServer("lab", root) as server,
        sync_playwright() as playwright,
    ):
        browser = launch_chromium(playwright)
        for game, deal in GAMES.items():
            page = browser.new_page(viewport={"width": 1280, "height": 2000})
            cell = f"import solwidget as sw\nw = sw.SolitaireWidget({game!r}, deal={deal})\nw"
            open_notebook(page, server, [cell], name=f"{game}.ipynb")
            page.mouse.move(0, 0)  # no hover effects in the picture
            page.evaluate("() => document.fonts.ready.then(() => true)")
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            png = small_png(page.locator(".jp-Cell").first.screenshot())
            path = out_dir / f"jupyterlab-{game}.png"
            path.write_bytes(png)
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(png) // 1024} KB")
            if len(png) > MAX_BYTES:
                sys.exit(f"{path} is larger than {MAX_BYTES // 1000} KB")
            page.close()
            server.shut_down_kernels()
        browser.close()


if __name__ == "__main__":
    main(sys.argv)
