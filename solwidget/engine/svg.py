"""A position as an SVG picture, with no Jupyter needed: ``State._repr_svg_`` uses it, so a
state shows itself in a notebook, in nbconvert's HTML and on GitHub.

It draws what a player sees (face-down and hidden cards as backs, ``Game.visible``) where the
board's geometry places it (``geometry.place``), as the widget does. Each pile is a group
``<g data-pile="t3" transform="translate(x y)">`` and each drawn card a group
``<g data-card="QH" transform="translate(dx dy)">`` inside it (``"back"`` for a back), in
pixels, ``unit`` pixels to a card width.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from .cards import BACK
from .geometry import CARD_ASPECT, COUNTED_KINDS, PileLayout, place

if TYPE_CHECKING:  # a state draws itself with this module (State._repr_svg_)
    from .state import State

GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
COLOURS = {"C": "#1b1b1b", "D": "#c8102e", "H": "#c8102e", "S": "#1b1b1b"}
FOUR_COLOURS = {"C": "#1b7f2a", "D": "#1554c0", "H": "#c8102e", "S": "#1b1b1b"}
FELT, LINE, FACE, EDGE, BACK_FILL = "#2f6b47", "#7fa58d", "#fdfdf8", "#8a8a80", "#27468f"
PAD = 0.3  # felt around the board, in card widths
RADIUS = 0.08  # a card's rounded corner, in card widths


def _card(code: str, dx: float, dy: float, u: float, colours: dict[str, str], covered: bool) -> str:
    """One card, its corner at (dx, dy) from its pile's corner."""
    w, h, r = u, u * CARD_ASPECT, u * RADIUS
    head = f'<g data-card="{code}" transform="translate({dx:.1f} {dy:.1f})">'
    if code == BACK:
        body = (
            f'<rect width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}" fill="{BACK_FILL}" stroke="{FACE}" '
            f'stroke-width="{u * 0.05:.1f}"/><rect x="{u * 0.1:.1f}" y="{u * 0.1:.1f}" '
            f'width="{w - u * 0.2:.1f}" height="{h - u * 0.2:.1f}" rx="{r / 2:.1f}" fill="url(#sw-back)"/>'
        )
    else:
        rank = "10" if code[0] == "T" else code[0]
        suit = code[1]
        colour = colours[suit]
        big = f"{rank}{GLYPHS[suit]}" if rank in "JQK" else GLYPHS[suit]
        body = (
            f'<rect width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}" fill="{FACE}" stroke="{EDGE}"/>'
            f'<text x="{u * 0.06:.1f}" y="{u * 0.27:.1f}" font-size="{u * 0.27:.1f}" '
            f'font-weight="bold" fill="{colour}">{rank}{GLYPHS[suit]}</text>'
            f'<text x="{w / 2:.1f}" y="{h * 0.68:.1f}" font-size="{u * (0.36 if rank in "JQK" else 0.5):.1f}" '
            f'text-anchor="middle" fill="{colour}">{big}</text>'
        )
    if covered:  # a covered pile's cards are shaded, as the widget does
        body += f'<rect width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}" fill="#000" opacity="0.35"/>'
    return head + body + "</g>"


def _empty(pile: PileLayout, u: float) -> str:
    """The dashed outline of an empty pile and what it takes, unless the pile is gone."""
    if pile.get("gone_when_empty"):
        return ""
    out = (
        f'<rect x="1" y="1" width="{u - 2:.1f}" height="{u * CARD_ASPECT - 2:.1f}" rx="{u * RADIUS:.1f}" '
        f'fill="none" stroke="{LINE}" stroke-dasharray="4 3"/>'
    )
    if pile.get("empty"):
        out += (
            f'<text x="{u / 2:.1f}" y="{u * 0.85:.1f}" font-size="{u * 0.4:.1f}" text-anchor="middle" '
            f'fill="{LINE}">{escape(pile["empty"])}</text>'
        )
    return out


def state_svg(state: State, unit: float = 44.0, four_colour: bool = False) -> str:
    """The position drawn as SVG text, ``unit`` pixels to a card's width."""
    layout = state.game.layout()
    shown = state.game.visible(state)
    board = place(layout, shown)
    colours = FOUR_COLOURS if four_colour else COLOURS
    pad = unit * PAD
    width, height = board["width"] * unit + 2 * pad, board["height"] * unit + 2 * pad
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" '
        f'role="img" aria-label="{escape(state.game.name)}">',
        '<defs><pattern id="sw-back" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="3" height="6" fill="#3a5db3"/></pattern></defs>',
        f'<rect width="{width:.0f}" height="{height:.0f}" rx="8" fill="{FELT}"/>',
    ]
    for pile in sorted(layout["piles"], key=lambda p: p["z"]):
        pid = pile["id"]
        codes, drawn = shown[pid], board["piles"][pid]
        covered = any(shown[c] for c in pile.get("covered_by", []))
        parts.append(
            f'<g data-pile="{escape(pid)}" transform="translate({pad + drawn["x"] * unit:.1f} '
            f'{pad + drawn["y"] * unit:.1f})">'
        )
        if not codes:
            parts.append(_empty(pile, unit))
        for code, (dx, dy) in zip(codes[len(codes) - len(drawn["cards"]) :], drawn["cards"]):
            parts.append(_card(code, dx * unit, dy * unit, unit, colours, covered))
        if codes and pile["kind"] in COUNTED_KINDS:
            parts.append(
                f'<text x="{unit / 2:.1f}" y="{unit * (CARD_ASPECT + 0.25):.1f}" '
                f'font-size="{unit * 0.2:.1f}" text-anchor="middle" fill="#e8efe9">{len(codes)}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
