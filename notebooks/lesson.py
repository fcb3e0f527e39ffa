"""Pictures for the lessons in this folder: a position, a move before and after, a refused
move with its reason in words under the picture.

Each picture is the State's own SVG (``State._repr_svg_``) shown through an ``<img>`` in HTML
output. A saved notebook then shows it before anything is run: JupyterLab and Notebook draw
SVG output only in a trusted notebook (one whose outputs were made on this machine), but an
``<img>`` in HTML output in any notebook; nbconvert's HTML (nbviewer) shows it too.

The cards a move takes are outlined: gold where a legal move takes them from and puts them,
red where a refused move would have. Captions and verdicts speak as the board does, in card
words ("9♣ to a free cell"), never in pile ids; the verdict of a refused move is the reason the
widget gives a person who tries it.

Every picture is shown at its full size, never scaled down to fit two abreast, so that a
card's corner index is as high as the widget draws it (about 12 pixels) wherever the notebook
is at least as wide as the board; two pictures that do not fit side by side go one under the
other.
"""

from __future__ import annotations

import base64
from html import escape

import solwidget as sw
from solwidget.engine import words

LEGAL, REFUSED = "#f2b705", "#e0403a"  # outline colours of the cards a move takes


class Picture:
    """Positions side by side, each with a caption, and lines of text under them all.

    A notebook shows it as HTML; its text form (``repr``) is the captions and the lines.
    """

    def __init__(self, boards: list[tuple[str, str]], lines: tuple[str, ...] | list[str] = ()):
        self.boards, self.lines = boards, list(lines)

    def _repr_html_(self) -> str:
        figures = "".join(_figure(svg, caption, " ".join(self.lines)) for svg, caption in self.boards)
        lines = "".join(
            f'<div style="font-size:14px;margin-top:2px">{escape(line)}</div>' for line in self.lines
        )
        return f"<div>{figures}{lines}</div>"

    def __repr__(self) -> str:
        captions = " | ".join(caption for _, caption in self.boards if caption)
        return "\n".join([captions, *self.lines] if captions else self.lines)


def board(state: sw.State, caption: str = "") -> Picture:
    """One position, with a caption under it."""
    return Picture([(state._repr_svg_(), caption)])


def move(state: sw.State, text: str) -> Picture:
    """A move on ``state``: if legal, the position before and after it, the cards it moves
    outlined; if refused, the position with the cards it would move outlined and the rule
    that refuses it in words under the picture."""
    if state.explain(text) is not None:
        return moves(state, text)
    after = state.play(text)
    before = _outline(state._repr_svg_(), {LEGAL: _taken(state, text)})
    placed = _outline(after._repr_svg_(), {LEGAL: _placed(state, after, text)})
    return Picture([(before, "before"), (placed, "after")], [verdict(state, text)])


def moves(state: sw.State, *texts: str) -> Picture:
    """Several moves tried on one position: one picture, the cards each would move and where
    to outlined (gold if legal, red if refused; gold where a card is in both), and under it
    each move's verdict in words."""
    marks: dict[str, list[str]] = {REFUSED: [], LEGAL: []}  # the later colour wins
    for text in texts:
        colour = LEGAL if state.explain(text) is None else REFUSED
        marks[colour] += _taken(state, text) + _target(state, text)
    drawn = _outline(state._repr_svg_(), marks)
    return Picture([(drawn, "")], [verdict(state, text) for text in texts])


def verdict(state: sw.State, text: str) -> str:
    """Move ``text`` on ``state`` and whether the rules allow it, in the board's words:
    "9♣ to a free cell: legal", or refused with the reason the widget would give."""
    said = words.move_words(state, text)
    reason = state.explain(text)
    if reason is None:
        return f"{said}: legal"
    return f"{said}: refused, {words.reason_words(state, reason)}"


def _figure(svg: str, caption: str, lines: str) -> str:
    """One picture at its full size (it shrinks only in an output narrower than itself)."""
    width = round(_svg_width(svg))
    alt = escape(": ".join(part for part in (caption, lines) if part))
    source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
    return (
        f'<figure style="display:inline-block;vertical-align:top;margin:0 12px 6px 0;max-width:100%">'
        f'<img src="{source}" width="{width}" style="max-width:100%;height:auto" alt="{alt}">'
        + (
            f'<figcaption style="font-size:13px;text-align:center">{escape(caption)}</figcaption>'
            if caption
            else ""
        )
        + "</figure>"
    )


def _svg_width(svg: str) -> float:
    head = svg[: svg.index(">")]
    return float(head.split(' width="', 1)[1].split('"', 1)[0])


def _cards(pile: str, count: int) -> str:
    """A CSS selector for the top ``count`` cards drawn on ``pile``."""
    return f'g[data-pile="{pile}"] > g[data-card]:nth-last-of-type(-n+{count}) > rect:first-of-type'


def _taken(state: sw.State, text: str) -> list[str]:
    """The cards the move would take, where they lie."""
    move = state.game.parse_move(text)
    if move.card is not None:
        return [f'g[data-pile="{move.src}"] > g[data-card="{move.card}"] > rect:first-of-type']
    return [_cards(move.src, move.n)]


def _target(state: sw.State, text: str) -> list[str]:
    """Where the move would put them: the top card of the destination, or its outline."""
    move = state.game.parse_move(text)
    if move.dst not in state.game.pile_ids:
        return []
    if state.pile(move.dst):
        return [_cards(move.dst, 1)]
    return [f'g[data-pile="{move.dst}"] > rect']


def _placed(before: sw.State, after: sw.State, text: str) -> list[str]:
    """The cards as the move left them: on the destination, or turned in place (actions)."""
    move = before.game.parse_move(text)
    if move.dst not in before.game.pile_ids:
        return [_cards(move.src, 1)]
    arrived = max(1, len(after.pile(move.dst)) - len(before.pile(move.dst)))
    return [_cards(move.dst, arrived)]


def _outline(svg: str, marks: dict[str, list[str]]) -> str:
    """The SVG with the cards that each colour's selectors pick outlined in that colour."""
    rules = "".join(
        f"{', '.join(selectors)} {{ stroke: {colour}; stroke-width: 4px }}"
        for colour, selectors in marks.items()
        if selectors
    )
    if not rules:
        return svg
    end = svg.index(">") + 1
    return f"{svg[:end]}<style>{rules}</style>{svg[end:]}"


def cards(state: sw.State, codes, caption: str = "") -> Picture:
    """The position with the cards ``codes`` (``["AS", "KS"]``) outlined in red: the cards
    an explanation is about."""
    selectors = [f'g[data-card="{code}"] > rect:first-of-type' for code in codes]
    return Picture([(_outline(state._repr_svg_(), {REFUSED: selectors}), caption)])
