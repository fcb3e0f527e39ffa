"""Debian's chromium, the one browser of every browser test, benchmark and screenshot script.

Playwright drives it; no browser is ever downloaded. The project installs the package
(`apt-get install chromium`, which `python3 dev.py test` runs when it is missing).
"""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def launch_chromium(playwright):
    """A headless Debian chromium under ``playwright`` (its sync API)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
