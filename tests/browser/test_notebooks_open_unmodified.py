"""A teaching notebook opens as it was saved: the front end does not mark it modified.

When a notebook's kernel starts, JupyterLab and Notebook write into it the kernel's name for
itself, and whatever else they keep differently from the file; a notebook saved otherwise
shows as modified the moment it opens, and asks to be saved when it is closed unchanged.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from harness import FIRST_LOAD_TIMEOUT, JS_KERNEL_READY, JS_NOTEBOOK_READY

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
SETTLE_MS = 3000  # after the kernel is ready: widgets restored, metadata written

JS_DIRTY = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_saved_lesson_opens_unmodified(module_page, jupyter, path):
    name = f"opened-{path.name}"
    shutil.copy(path, jupyter.notebooks / name)
    module_page.goto(jupyter.notebook_url(name), timeout=FIRST_LOAD_TIMEOUT)
    module_page.wait_for_function(JS_NOTEBOOK_READY, arg=name, timeout=FIRST_LOAD_TIMEOUT)
    module_page.evaluate(JS_KERNEL_READY)
    module_page.wait_for_timeout(SETTLE_MS)
    assert module_page.evaluate(JS_DIRTY) is False, f"{path.stem} opens marked modified"
