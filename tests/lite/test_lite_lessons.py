"""The lessons in JupyterLite, served as static files with no network: notebook 01 runs top
to bottom, and its widget draws, takes a click-click move, a hint and a solve."""

from __future__ import annotations

import json

import pytest
from lite_harness import LOAD_TIMEOUT, open_lesson, run_all

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LESSON = "01_reversed_solitaire.ipynb"


def kernel(page, code: str) -> str:
    """Run ``code`` in the open notebook's kernel; what it printed."""
    from harness import JS_EXECUTE

    result = page.evaluate(JS_EXECUTE, [code, LOAD_TIMEOUT])
    assert result["ok"], f"kernel code failed: {code!r}\n{result['text']}"
    return result["text"]


def value(page, expression: str):
    return json.loads(kernel(page, f"import json as _j; print(_j.dumps({expression}))"))


def test_site_holds_everything_it_loads(lite_site):
    settings = json.loads((lite_site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel_settings = settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel_settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel_settings["disablePyPIFallback"] is True
    lock = json.loads((lite_site / "static" / "pyodide" / "pyodide-lock.json").read_text())
    for name in kernel_settings["loadPyodideOptions"]["packages"]:
        assert (lite_site / "static" / "pyodide" / lock["packages"][name]["file_name"]).is_file()
    assert "solwidget" in lock["packages"]
    assert {"01_reversed_solitaire.ipynb", "lesson.py"} <= {p.name for p in (lite_site / "files").iterdir()}


def test_lesson_01_runs_and_its_widget_plays(offline, lite_server):
    page = offline(lite_server.base)
    open_lesson(page, lite_server.base, LESSON)
    assert run_all(page) == []
    board = page.locator("[data-pile]").first
    board.wait_for(state="visible", timeout=LOAD_TIMEOUT)

    kernel(page, "w.new_deal(1)")
    before = value(page, "w.moves_made")
    page.locator('[data-pile="t1"] [data-card]').last.click()
    page.locator('[data-pile="c0"]').click()
    page.wait_for_function("() => document.querySelector('[data-pile=\"c0\"] [data-card]') !== null")
    assert value(page, "[w.moves_made, str(w.history[-1])]") == [before + 1, "t1 c0"]

    page.locator('[data-action="hint"]').first.click()
    page.wait_for_function("() => /hint:/.test(document.body.innerText)", timeout=LOAD_TIMEOUT)
    assert value(page, "len(w.highlight)") == 1

    page.locator('[data-action="solve"]').first.click()
    page.wait_for_function("() => /solver: won in/.test(document.body.innerText)", timeout=LOAD_TIMEOUT)
    assert value(page, "[w.solver_progress['status'], w.busy]") == ["won", ""]
