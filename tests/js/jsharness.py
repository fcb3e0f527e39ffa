"""Helpers for the front end's tests: a static server for the repo, Chromium's launch
options, and ``mount``/``kernel``, which connect a real SolitaireWidget to the test page's
fake model (the page, tests/js/page.html, imports solwidget/static/widget.js).

``mount(page, widget)`` hands the page the widget's synced traits; ``kernel(page, widget)``
plays the Jupyter comm: it delivers what the page sent to the widget, then sends the changed
traits and any custom replies back.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

from solwidget.widget.measure import SyncRecorder

ROOT = Path(__file__).resolve().parents[2]
PAGE = "/tests/js/page.html"

# The cards that are sliding (run it as a ``kernel`` probe): their pile, their code and the
# translate their slide starts from.
JS_SLIDING = """() => [...document.querySelectorAll('[data-card]')].filter((c) => c.getAnimations().length)
    .map((c) => ({pile: c.closest('[data-pile]').dataset.pile, card: c.dataset.card,
                  start: c.getAnimations()[0].effect.getKeyframes()[0].translate}))"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def start_server() -> http.server.ThreadingHTTPServer:
    """Serve the checkout on 127.0.0.1 (a free port) from a daemon thread."""
    handler = functools.partial(_Quiet, directory=str(ROOT))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def url(httpd) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def open_page(browser, base: str, width: int = 1000, height: int = 900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(base + PAGE)
    page.wait_for_function("window.ready === true")
    return page


def synced_state(widget) -> dict:
    """The traits the browser receives, as JSON data (anywidget's own code left out)."""
    state = widget.get_state()
    return json.loads(json.dumps({k: v for k, v in state.items() if not k.startswith("_")}))


def mount(page, widget, width: int | None = None) -> None:
    page.evaluate("([state, width]) => mount(state, width)", [synced_state(widget), width])
    page.wait_for_selector('.sw-root[style*="--u"]')


def kernel(page, widget, probe: str | None = None) -> list[dict]:
    """Deliver what the page sent (custom messages, saved trait changes) to the widget as the
    comm would, then send the changed traits and the widget's custom replies back.

    ``probe``: a JavaScript function run as soon as the page has drawn the changes (before
    any animation has moved on); what it returns is kept in ``window.probed``."""
    messages = page.evaluate("() => window.model.sent.splice(0)")
    saved = page.evaluate("() => window.model.saved.splice(0)")
    with SyncRecorder(widget) as recorder:
        for changes in saved:
            widget.set_state(changes)
        for message in messages:
            widget._handle_custom_msg(message, [])
    before = page.evaluate("() => window.model.state")
    after = synced_state(widget)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    page.evaluate(
        """([changes, probe]) => {
        window.model.update(changes);           // the redraw is queued as a microtask: probe after it
        if (probe) queueMicrotask(() => { window.probed = eval(`(${probe})`)(); });
    }""",
        [changed, probe],
    )
    for sent in recorder.messages:
        if sent.get("method") == "custom":
            page.evaluate("(msg) => window.model.receive(msg)", sent["content"])
    return messages
