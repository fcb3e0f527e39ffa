"""Headless Chromium (Debian's, no download) rendering the built widget against a fake model.

The page (tests/js/page.html) imports solwidget/static/widget.js from a small http server
on 127.0.0.1; ``mount(widget)`` hands it the synced traits of a real SolitaireWidget, and
``kernel(widget, page)`` plays the kernel's part: it passes what the page sent to the
widget and copies the traits back, as the Jupyter comm would.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server():
    if not (ROOT / "solwidget" / "static" / "widget.js").exists():
        pytest.fail("the front end is not built: run `npm run build` (python3 dev.py test does)")
    handler = functools.partial(_Quiet, directory=str(ROOT))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server}/tests/js/page.html")
    page.wait_for_function("window.ready === true")
    yield page
    context.close()
    assert not errors, f"errors on the page: {errors}"


def synced_state(widget) -> dict:
    """The traits the browser receives, as JSON data (anywidget's own code left out)."""
    state = widget.get_state()
    return json.loads(json.dumps({k: v for k, v in state.items() if not k.startswith("_")}))


def mount(page, widget, width: int | None = None) -> None:
    page.evaluate("([state, width]) => mount(state, width)", [synced_state(widget), width])
    page.wait_for_selector("[data-pile]")


def kernel(page, widget) -> list[dict]:
    """Deliver the page's messages to the widget, then send the changed traits back."""
    messages = page.evaluate("() => window.model.sent.splice(0)")
    replies = []
    original = widget._send

    def capture(msg, buffers=None):
        if msg.get("method") == "custom":
            replies.append(msg["content"])

    widget._send = capture
    try:
        for message in messages:
            widget._on_message(widget, message, [])
    finally:
        widget._send = original
    before = page.evaluate("() => window.model.state")
    after = synced_state(widget)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    page.evaluate("(changes) => window.model.update(changes)", changed)
    for reply in replies:
        page.evaluate("(msg) => window.model.receive(msg)", reply)
    return messages
