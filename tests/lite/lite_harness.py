"""The lessons' JupyterLite site and the docs' live board in a browser cut off from the network.

`StaticServer` serves a folder from 127.0.0.1 as any static file server would. `offline_page`
opens a chromium page that may reach that server and nothing else: every other request is
refused and recorded in ``page.refused``, and a dead proxy stands behind that fence for
anything the route does not see. The lite tests and benchmarks/bench_lite.py use these.
"""

from __future__ import annotations

import functools
import http.server
import socket
import sys
import threading
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from harness import (  # noqa: E402
    JS_CELL_ERRORS,
    JS_CELLS_DONE,
    JS_KERNEL_READY,
    JS_NOTEBOOK_READY,
    JS_RUN_ALL,
    record_page_errors,
)

LOAD_TIMEOUT = 240_000  # ms: Pyodide and every wheel on a cold load of a busy 2-core box
STEP_TIMEOUT = 30_000  # ms: one click, hint or kernel call once everything is loaded
MIME = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def log_message(self, *args) -> None:  # quiet: the tests say what went wrong
        pass


class StaticServer:
    """``root`` served over HTTP on 127.0.0.1 (a free port), in a thread of this process."""

    def __init__(self, root: Path):
        handler = functools.partial(_Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def dead_port() -> int:
    """A loopback port nothing listens on: the proxy that refuses whatever reaches it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def offline_context(browser, base: str):
    """A browser context that reaches ``base`` only; ``context.refused`` lists the URLs of
    every other request it made (each was refused)."""
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000},
        proxy={"server": f"http://127.0.0.1:{dead_port()}", "bypass": "127.0.0.1"},
    )
    context.refused = []

    def fence(route) -> None:
        url = route.request.url
        if url.startswith(base + "/") or url.startswith(("blob:", "data:")):
            route.continue_()
        else:
            context.refused.append(url)
            route.abort()

    context.route("**/*", fence)
    return context


def new_page(context):
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    page.errors = record_page_errors(page)
    return page


def open_lesson(page, base: str, name: str) -> None:
    """Open notebook ``name`` of the site in JupyterLab and wait for its kernel."""
    page.goto(f"{base}/lite/lab/index.html?path={name}", timeout=LOAD_TIMEOUT)
    page.wait_for_function(JS_NOTEBOOK_READY, arg=name, timeout=LOAD_TIMEOUT)
    page.evaluate(JS_KERNEL_READY)


def run_all(page) -> list[str]:
    """Run every cell of the open notebook; the errors of the cells that failed."""
    page.evaluate(JS_RUN_ALL)
    try:
        page.wait_for_function(JS_CELLS_DONE, timeout=LOAD_TIMEOUT, polling=500)
    finally:
        errors = page.evaluate(JS_CELL_ERRORS)
    return errors
