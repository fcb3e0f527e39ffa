"""Fixtures for the real-browser tests: JupyterLab 4 and Notebook 7 servers (the browser
fixture, Debian's chromium, is tests/conftest.py's).

The machinery lives in harness.py (the widget benchmark and the screenshot script use it too).
"""

from __future__ import annotations

import pytest
from harness import STEP_TIMEOUT, JupyterServer, open_notebook, record_page_errors

FRONT_ENDS = ("lab", "notebook")


@pytest.fixture(scope="session")
def jupyter_servers(tmp_path_factory):
    """get(kind): the server of that kind, started on first use and stopped when the session ends."""
    started: dict[str, JupyterServer] = {}

    def get(kind: str) -> JupyterServer:
        if kind not in started:
            server = JupyterServer(kind, tmp_path_factory.mktemp(f"jupyter-{kind}"))
            server.start()
            started[kind] = server
        return started[kind]

    yield get
    for server in started.values():
        server.stop()


@pytest.fixture(scope="session", params=FRONT_ENDS)
def jupyter(request, jupyter_servers):
    """A running server of each front end in turn: JupyterLab 4, then Notebook 7."""
    return jupyter_servers(request.param)


@pytest.fixture(scope="module")
def module_page(browser, jupyter):
    """A browser page of its own for a test module, on each front end; its kernels end with it.
    Whatever error the page logs (``page.errors``) fails the test it happens in."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    page.errors = record_page_errors(page)
    yield page
    context.close()
    jupyter.shut_down_kernels()


@pytest.fixture(autouse=True)
def no_page_errors(request):
    """Fail a test during which (or during whose fixtures) its page logged an error."""
    yield
    if "module_page" in request.fixturenames:
        page = request.getfixturevalue("module_page")
        errors, page.errors[:] = list(page.errors), []
        assert not errors, f"the page logged errors in {page.url}:\n" + "\n".join(errors)


@pytest.fixture(scope="module")
def module_notebook(module_page, jupyter):
    """notebook(cells): write those cells as a notebook, open it in the module's page and run it."""
    return lambda cells, **options: open_notebook(module_page, jupyter, cells, **options)
