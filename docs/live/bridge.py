"""The live board's Python: a SolitaireWidget in the browser, without Jupyter.

The page runs this in Pyodide, in a web worker. A widget speaks the Jupyter widget protocol
through a comm; here the comm is ``PageComm``, which hands each message to ``post`` (the
worker sends it on to the page) instead of to a kernel. The page's model shim answers the
same way: ``receive`` takes what the front end sent (changed traits, or a custom message such
as a click's move) and gives it to the widget's comm, as a kernel would.
"""

from __future__ import annotations

import comm
from comm.base_comm import BaseComm

import solwidget as sw

SolitaireWidget = sw.SolitaireWidget  # imported now, with ipywidgets: the slow first step
post = print  # replaced by the worker: post(kind, comm_id, data) to the page
_current = {"widget": None}


class PageComm(BaseComm):
    """A comm whose messages go to the page instead of to a Jupyter front end."""

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        if buffers:
            raise sw.SolwidgetError("the live board sends no binary buffers")
        post(msg_type, self.comm_id, data or {})


def _create_comm(**kwargs):
    return PageComm(**kwargs)


comm.create_comm = _create_comm


def games() -> list[str]:
    """The games the board offers: every game of the catalogue, seed games first."""
    return sw.games()


def start(game_id: str, deal: int) -> None:
    """A new widget for ``game_id``, deal ``deal``; its state goes to the page (comm_open)."""
    old = _current["widget"]
    widget = SolitaireWidget(game_id, deal=deal)
    _current["widget"] = widget
    if old is not None:
        old.close()


def receive(data: dict) -> None:
    """What the page's front end sent: ``{"method": "update", "state": {...}}`` or
    ``{"method": "custom", "content": {...}}``, as a Jupyter front end sends it."""
    widget = _current["widget"]
    if widget is None:
        raise sw.SolwidgetError("no board yet: start a game first")
    widget.comm.handle_msg({"content": {"data": data}, "buffers": []})
