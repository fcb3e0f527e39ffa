"""mkdocs hook: the documentation site carries the lessons' JupyterLite site as ``lite/``.

The live board (docs/play.md) runs on that site's Pyodide and wheels, and the documentation
links to the lessons in it, so one folder deploys both. ``python3 dev.py lite`` builds it
(build/lite); without it the documentation builds all the same, and the live board says
how to get it.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

LITE = Path(__file__).resolve().parent.parent / "build" / "lite"
log = logging.getLogger("mkdocs.plugins.solwidget")


def on_post_build(config, **kwargs) -> None:
    target = Path(config["site_dir"]) / "lite"
    if not (LITE / "jupyter-lite.json").exists():
        log.info(
            "no lessons' site in build/lite (python3 dev.py lite builds it): the live board will not start"
        )
        return
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(LITE, target)
