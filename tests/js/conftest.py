"""Fixtures for the front end's tests: the test page, served from the checkout (the browser
fixture, Debian's chromium, is tests/conftest.py's)."""

from __future__ import annotations

import pytest
from jsharness import PAGE, ROOT, start_server, url


@pytest.fixture(scope="session")
def server():
    if not (ROOT / "solwidget" / "static" / "widget.js").exists():
        pytest.fail("the front end is not built: run `npm run build` (python3 dev.py test does)")
    httpd = start_server()
    yield url(httpd)
    httpd.shutdown()


@pytest.fixture(scope="module")
def shared_page(browser, server):
    """One page per test module: each test mounts a fresh widget on it."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server + PAGE)
    page.wait_for_function("window.ready === true")
    yield page
    context.close()


@pytest.fixture
def page(shared_page):
    shared_page.errors.clear()
    shared_page.evaluate("() => document.body.removeAttribute('data-jp-theme-light')")
    yield shared_page
    assert not shared_page.errors, f"errors on the page: {shared_page.errors}"
