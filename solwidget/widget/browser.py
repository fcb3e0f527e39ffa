"""The widget where its Python runs in a browser (Pyodide: JupyterLite, the live board).

There is no thread to start there, so a search or a replay cannot run beside the kernel:
the widget runs it in the kernel itself. The solver still steps in slices and sends its
progress after each one, and the page draws it live (the kernel runs in a worker, not in
the page's own thread), but the kernel answers nothing else until the search ends: a
click made meanwhile, Stop included, waits. The board says so while it runs.
"""

from __future__ import annotations

import sys

IN_BROWSER = sys.platform == "emscripten"

NO_THREADS = "running in the kernel (this browser's Python has no threads): clicks wait until it ends"


def background_allowed(background: bool) -> bool:
    """Whether a worker asked to run in the ``background`` gets a thread of its own."""
    return background and not IN_BROWSER
