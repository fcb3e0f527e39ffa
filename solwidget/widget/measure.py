"""How many bytes the widget syncs per move: for tests, benchmarks/bench_widget.py and the README.

Sizes are of the comm message content as the kernel encodes it (JSON, UTF-8); the Jupyter
message's own header and metadata, the same for every message, are not counted.
"""

from __future__ import annotations

import json
import statistics

from .widget import SolitaireWidget


def encoded_size(message: dict) -> int:
    """Bytes of a comm message's content as jupyter_client packs it."""
    return len(json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8"))


class SyncRecorder:
    """Records what a widget sends to the browser while the ``with`` block runs."""

    def __init__(self, widget: SolitaireWidget):
        self.widget = widget
        self.messages: list[dict] = []

    def __enter__(self) -> SyncRecorder:
        self._original = self.widget._send
        self.widget._send = lambda msg, buffers=None: self.messages.append(msg)
        return self

    def __exit__(self, *exc) -> None:
        del self.widget._send  # back to the class's method

    @property
    def bytes(self) -> int:
        return sum(encoded_size(m) for m in self.messages)


def browser_move(widget: SolitaireWidget, move) -> dict:
    """The message the front end sends for ``move``, delivered as the comm would deliver it."""
    message = {"type": "move", "move": str(move)}
    widget._handle_custom_msg(message, [])
    return message


def playout(state, moves: int):
    """A deterministic line of up to ``moves`` moves that never returns to a position."""
    seen = {state}
    line = []
    for _ in range(moves):
        for move in state.legal_moves():
            following = state.play(move)
            if following not in seen:
                break
        else:
            break
        seen.add(following)
        line.append(move)
        state = following
    return line


def bytes_per_move(game: str = "triple_interchange", deal: int = 1, moves: int = 30) -> dict:
    """Play ``moves`` moves as the browser would and measure what each sends back.

    Returns {"game", "deal", "moves", "sizes" (bytes per move), "median", "max",
    "full" (bytes of the whole synced state, what a first draw carries)}.
    """
    widget = SolitaireWidget(game, deal=deal)
    full = encoded_size({"state": {k: v for k, v in widget.get_state().items() if not k.startswith("_")}})
    sizes = []
    for move in playout(widget.state, moves):
        with SyncRecorder(widget) as recorder:
            browser_move(widget, move)
        sizes.append(recorder.bytes)
    return {
        "game": game,
        "deal": deal,
        "moves": len(sizes),
        "sizes": sizes,
        "median": statistics.median(sizes) if sizes else 0,
        "max": max(sizes, default=0),
        "full": full,
    }
