"""A real Jupyter server and a real browser, for the browser tests, the widget benchmark and screenshots.

`JupyterServer` runs `jupyter lab` (JupyterLab 4) or `jupyter notebook` (Notebook 7) on loopback,
in its own temporary root (notebooks, config, settings, runtime files), with a fixed token and a
free port. `open_notebook` writes a notebook there, opens it in a Playwright page, runs every cell
and waits for the kernel; `Notebook.run(code)` then runs more code in that same kernel, through the
page's own kernel connection, and returns what it printed: that is how callers read the kernel.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat

TOKEN = "solwidget-browser-tests"
SERVER_START_TIMEOUT = 90  # seconds; a cold JupyterLab start on a busy 2-core box is slow
FIRST_LOAD_TIMEOUT = 90_000  # ms; first page load, kernel start and first cell run
STEP_TIMEOUT = 15_000  # ms; one click, move or kernel call once everything is loaded

# Settings that keep pop-ups (news, update checks) away and render every cell of a notebook.
USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


# Notebook 7.6 throws this itself while it loads its settings, on every page, with or without
# solwidget (its keyboard-shortcuts plugin reads a plugin's settings schema before they are
# there): (message, the script it comes from). Only this exact error is let through.
UPSTREAM_ERRORS = [
    ("Cannot read properties of undefined (reading 'schema')", "/static/notebook/notebook_core.")
]


def upstream(error) -> bool:
    """Is this uncaught error one of the front ends' own (UPSTREAM_ERRORS), not ours?"""
    frames = (error.stack or "").split("\n")[1:]
    return any(
        error.message == message and frames and script in frames[0] for message, script in UPSTREAM_ERRORS
    )


def record_page_errors(page) -> list[str]:
    """Every error the page logs from now on (console errors, uncaught exceptions, save the
    front ends' own UPSTREAM_ERRORS), kept in the list returned, which the caller may clear."""
    errors: list[str] = []

    def console(message) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            errors.append(f"console error: {message.text}" + (f" ({where})" if where else ""))

    def uncaught(error) -> None:
        if not upstream(error):
            errors.append(f"uncaught: {error.stack or error}")

    page.on("console", console)
    page.on("pageerror", uncaught)
    return errors


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterServer:
    """One `jupyter lab` or `jupyter notebook` process serving ``root / "notebooks"``."""

    def __init__(self, kind: str, root: Path):
        if kind not in ("lab", "notebook"):
            raise ValueError(f"kind must be 'lab' or 'notebook', not {kind!r}")
        self.kind = kind
        self.root = Path(root)
        self.notebooks = self.root / "notebooks"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.root / "server.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.notebooks.mkdir(parents=True, exist_ok=True)
        settings = self.root / "settings"
        for name, values in USER_SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        app = "LabApp" if self.kind == "lab" else "JupyterNotebookApp"
        module = "jupyterlab" if self.kind == "lab" else "notebook"
        env = dict(
            os.environ,
            JUPYTER_CONFIG_DIR=str(self.root / "config"),
            JUPYTER_DATA_DIR=str(self.root / "data"),
            JUPYTER_RUNTIME_DIR=str(self.root / "runtime"),
            IPYTHONDIR=str(self.root / "ipython"),
        )
        cmd = [
            sys.executable,
            "-m",
            module,
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.allow_root=True",
            "--ServerApp.terminals_enabled=False",
            f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={self.notebooks}",
            f"--{app}.expose_app_in_browser=True",
            f"--{app}.user_settings_dir={settings}",
            f"--{app}.workspaces_dir={self.root / 'workspaces'}",
        ]
        if self.kind == "lab":  # no package index or news feed from the test machine
            cmd += ["--LabApp.extension_manager=readonly", "--LabApp.news_url=None"]
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            cmd, env=env, cwd=self.root, stdout=self.log, stderr=subprocess.STDOUT
        )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter {self.kind} exited early:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(self.api_url("api/status"), timeout=5) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.25)
        raise RuntimeError(
            f"jupyter {self.kind} did not answer in {SERVER_START_TIMEOUT}s:\n{self.log_text()}"
        )

    def api_url(self, path: str) -> str:
        return f"{self.base}/{path}?token={TOKEN}"

    def notebook_url(self, name: str) -> str:
        if self.kind == "lab":  # reset: a fresh workspace, so no earlier notebook reopens
            return f"{self.base}/lab/tree/{name}?token={TOKEN}&reset"
        return f"{self.base}/notebooks/{name}?token={TOKEN}"

    def shut_down_kernels(self) -> None:
        """Delete every session (and so its kernel), so that kernels do not pile up."""
        with urllib.request.urlopen(self.api_url("api/sessions"), timeout=10) as reply:
            sessions = json.load(reply)
        for session in sessions:
            request = urllib.request.Request(self.api_url(f"api/sessions/{session['id']}"), method="DELETE")
            urllib.request.urlopen(request, timeout=30).close()

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text()[-4000:]

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
        self.log.close()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


# JavaScript run in the page; `window.jupyterapp` is there thanks to `expose_app_in_browser`.
JS_NOTEBOOK_READY = """(name) => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return !!(w && w.context && w.context.path === name && w.sessionContext && w.content);
}"""

JS_KERNEL_READY = """async () => {
    const panel = window.jupyterapp.shell.currentWidget;
    await panel.context.ready;
    await panel.sessionContext.ready;
}"""

JS_RUN_ALL = """() => {
    window.jupyterapp.commands.execute('notebook:run-all-cells');  // not awaited: the caller waits
}"""

# Every code cell has run, or one failed (run-all stops there).
JS_CELLS_DONE = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.widgets.filter(c => c.model.type === 'code');
    const failed = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error'));
    return failed || cells.every(c => c.model.executionCount !== null);
}"""

JS_CELL_ERRORS = """() => {
    const errors = [];
    for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {
        if (cell.model.type !== 'code') continue;
        for (const output of cell.model.outputs.toJSON()) {
            if (output.output_type === 'error') errors.push(output.ename + ': ' + output.evalue);
        }
    }
    return errors;
}"""

JS_EXECUTE = """async ([code, timeout]) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: false, store_history: false});
    let text = '';
    future.onIOPub = (msg) => {
        const type = msg.header.msg_type;
        if (type === 'stream') text += msg.content.text;
        if (type === 'error') text += msg.content.ename + ': ' + msg.content.evalue;
    };
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('kernel timed out')), timeout));
    const reply = await Promise.race([future.done, late]);
    return {ok: reply.content.status === 'ok', text};
}"""


# Run one cell again; resolves when it has finished, with its error (or null).
JS_RUN_CELL = """async ([index, timeout]) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    const cell = panel.content.widgets[index];
    panel.content.activeCellIndex = index;
    const done = new Promise((resolve) => {
        const changed = () => {
            if (cell.model.executionCount === null) return;
            cell.model.stateChanged.disconnect(changed);
            resolve();
        };
        cell.model.stateChanged.connect(changed);
    });
    await app.commands.execute('notebook:run-cell');
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('cell timed out')), timeout));
    await Promise.race([done, late]);
    const error = cell.model.outputs.toJSON().find(o => o.output_type === 'error');
    return error ? error.ename + ': ' + error.evalue : null;
}"""


class Notebook:
    """An open notebook page whose cells have run; `run` executes more code in its kernel."""

    def __init__(self, page, server: JupyterServer, name: str):
        self.page = page
        self.server = server
        self.name = name

    def run(self, code: str) -> str:
        """Run ``code`` in the notebook's kernel and return what it printed."""
        result = self.page.evaluate(JS_EXECUTE, [code, STEP_TIMEOUT])
        if not result["ok"]:
            raise AssertionError(f"kernel code failed: {code!r}\n{result['text']}")
        return result["text"]

    def run_cell(self, index: int) -> None:
        """Run the notebook's cell ``index`` again (its output is replaced) and wait for it."""
        error = self.page.evaluate(JS_RUN_CELL, [index, STEP_TIMEOUT])
        if error:
            raise AssertionError(f"cell {index} failed: {error}")

    def value(self, expression: str):
        """The value of the JSON-able Python ``expression``, evaluated in the kernel."""
        return json.loads(self.run(f"import json as _json; print(_json.dumps({expression}))"))

    def reaches(self, expression: str, expected) -> None:
        """Wait until the kernel's ``expression`` equals ``expected``: a change made in the
        page reaches the kernel asynchronously (ipywidgets holds a model's update back while
        an earlier one is still unanswered), so code run just after may not see it yet."""
        deadline = time.monotonic() + STEP_TIMEOUT / 1000
        while (seen := self.value(expression)) != expected:
            if time.monotonic() > deadline:
                raise AssertionError(f"{expression} is {seen!r}, never {expected!r}")
            self.page.wait_for_timeout(50)


def write_notebook(path: Path, cells: list[str]) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in cells],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    )
    nbformat.write(notebook, path)


_names = itertools.count()


def open_notebook(
    page,
    server: JupyterServer,
    cells: list[str],
    wait_for: str | None = "[data-pile]",
    name: str | None = None,
    run: bool = True,
) -> Notebook:
    """Write ``cells`` as a new notebook and open it in ``page``; unless ``run`` is false, run every
    cell, check that none failed and wait for ``wait_for`` to show."""
    name = name or f"test-{os.getpid()}-{next(_names)}.ipynb"
    write_notebook(server.notebooks / name, cells)
    page.goto(server.notebook_url(name), timeout=FIRST_LOAD_TIMEOUT)
    page.wait_for_function(JS_NOTEBOOK_READY, arg=name, timeout=FIRST_LOAD_TIMEOUT)
    page.evaluate(JS_KERNEL_READY)
    if not run:
        return Notebook(page, server, name)
    page.evaluate(JS_RUN_ALL)
    try:
        page.wait_for_function(JS_CELLS_DONE, timeout=FIRST_LOAD_TIMEOUT)
    finally:
        errors = page.evaluate(JS_CELL_ERRORS)
    if errors:
        raise AssertionError(f"notebook cells failed: {errors}")
    if wait_for:
        page.locator(wait_for).first.wait_for(state="visible", timeout=FIRST_LOAD_TIMEOUT)
    return Notebook(page, server, name)


# ------------------------------------------------------------------ the widget's board
# Kernel helpers (run them in a notebook cell) that say what the page must draw for `w`.
BOARD_HELPERS = '''
def _stacks(state):
    """Piles that do not fan: the widget may draw only their top cards."""
    return [pile["id"] for pile in state.game.layout()["piles"] if pile["fan"] == "none"]

def _board(state):
    """Every pile as the page must draw it: face-down cards as "back"."""
    return {pid: ["back" if card.startswith("[") else card for card in cards]
            for pid, cards in state.to_dict()["piles"].items()}
'''

# The drawn board: pile id -> its cards' data-card values, bottom to top.
JS_DRAWN_BOARD = """() => Object.fromEntries([...document.querySelectorAll('[data-pile]')].map(pile =>
    [pile.dataset.pile, [...pile.querySelectorAll('[data-card]')].map(card => card.dataset.card)]))"""

# Does the drawn board show `expected`? A fanned pile shows all its cards; a stack (a pile that
# does not fan: cells, foundations, stock) may show only its top cards, but at least the top one.
JS_BOARD_SHOWS = """([expected, stacks]) => {
    for (const [pid, cards] of Object.entries(expected)) {
        const pile = document.querySelector(`[data-pile="${pid}"]`);
        if (!pile) return false;
        const drawn = [...pile.querySelectorAll('[data-card]')].map(c => c.dataset.card);
        const shown = stacks.includes(pid) && drawn.length > 0 ? cards.slice(-drawn.length) : cards;
        if (drawn.join(' ') !== shown.join(' ')) return false;
    }
    return true;
}"""


def shows(drawn: dict, expected: dict, stacks: list) -> bool:
    """The Python twin of JS_BOARD_SHOWS, for boards recorded in the page."""
    for pid, cards in expected.items():
        seen = drawn.get(pid)
        if seen is None:
            return False
        shown = cards[-len(seen) :] if pid in stacks and seen else cards
        if seen != shown:
            return False
    return True


def wait_for_board(nb: Notebook, expected: dict) -> None:
    """Wait until the page shows ``expected`` (pile id -> cards, as `_board` gives) for the kernel's
    widget `w`; on a timeout, say what it drew instead."""
    stacks = nb.value("_stacks(w.state)")
    try:
        nb.page.wait_for_function(JS_BOARD_SHOWS, arg=[expected, stacks])
    except Exception as error:  # re-raised with the board that was drawn
        drawn = nb.page.evaluate(JS_DRAWN_BOARD)
        wrong = {
            pid: (drawn.get(pid), cards)
            for pid, cards in expected.items()
            if not shows({pid: drawn.get(pid)}, {pid: cards}, stacks)
        }
        raise AssertionError(
            f"board not drawn as the kernel has it (pile: drawn, expected): {wrong}"
        ) from error
