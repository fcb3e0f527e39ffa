"""A position as an SVG picture, with no Jupyter needed: ``State._repr_svg_`` uses it, so a
state shows itself in a notebook, in nbconvert's HTML and on GitHub.

It draws from the same data as the widget (the game's layout and the visible piles) and
shows what a player sees: face-down and hidden cards as backs.
"""

from __future__ import annotations

from html import escape

from ..engine.state import State
from .sync import BACK, visible_piles

CARD_HEIGHT = 1.4
FAN_STEP = {"down": {"up": 0.3, "back": 0.14}, "right": {"up": 0.62, "back": 0.12}}
GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
COLOURS = {"C": "#1b1b1b", "D": "#c8102e", "H": "#c8102e", "S": "#1b1b1b"}
FOUR_COLOURS = {"C": "#1b7f2a", "D": "#1554c0", "H": "#c8102e", "S": "#1b1b1b"}
FELT, LINE, FACE, EDGE, BACK_FILL = "#2f6b47", "#7fa58d", "#fdfdf8", "#8a8a80", "#27468f"


ROW_GAP = 0.45      # room kept under a fan that pushes the row beneath it down (as the widget)
MIN_FAN_ROOM = 3.6  # a fan at the bottom fans this far at least (13 face-up cards), growing the board


def _beneath(above: dict, below: dict) -> bool:
    """Does pile ``below`` lie under pile ``above`` (same layer, lower, overlapping across)?"""
    return (below is not above and below["z"] == above["z"] and below["y"] > above["y"]
            and below["x"] < above["x"] + 1 and above["x"] < below["x"] + 1)


def _fan_room(pile: dict, piles: list[dict], layout: dict) -> float:
    """Room to fan into (as the widget): a down fan with piles of its layer beneath pushes
    them down instead; else it fans to the layout's bottom, or MIN_FAN_ROOM if more. A right
    fan stops before the next pile of its row, or the board's edge."""
    if pile["fan"] == "down":
        if any(_beneath(pile, other) for other in piles):
            return float("inf")
        return max(layout["height"] - pile["y"] - CARD_HEIGHT, MIN_FAN_ROOM)
    if pile["fan"] == "right":
        room = layout["width"] - pile["x"] - 1
        for other in piles:
            if other is not pile and other["z"] == pile["z"] and other["x"] > pile["x"] \
                    and abs(other["y"] - pile["y"]) < CARD_HEIGHT:
                room = min(room, other["x"] - pile["x"] - 1.1)
        return max(room, 0.3)
    return 0.0


def row_shifts(piles: list[dict], extents: dict[str, float]) -> dict[str, float]:
    """How far each pile moves down so that the fans above it fit, a row (piles of one layer
    at one height) as one; ``extents``: pile id -> drawn height. As the widget does it."""
    rows: dict[tuple, list[dict]] = {}
    for pile in piles:
        rows.setdefault((pile["z"], pile["y"]), []).append(pile)
    shifts: dict[str, float] = {}
    for (_, y), row in sorted(rows.items(), key=lambda item: item[0][1]):
        shift = 0.0
        for pile in row:
            for above in piles:
                if _beneath(above, pile):
                    gap = min(ROW_GAP, y - above["y"] - CARD_HEIGHT)
                    bottom = above["y"] + shifts[above["id"]] + extents[above["id"]] + gap
                    shift = max(shift, shifts[above["id"]], bottom - y)
        for pile in row:
            shifts[pile["id"]] = shift
    return shifts


def fan_offsets(codes: list[str], fan: str, room: float) -> list[float]:
    """Each card's distance from the pile's corner, in card widths."""
    if fan not in FAN_STEP:
        return [0.0] * len(codes)
    steps = [FAN_STEP[fan]["back" if c == BACK else "up"] for c in codes[:-1]]
    scale = min(1.0, room / sum(steps)) if steps and sum(steps) > 0 else 1.0
    offsets = [0.0]
    for step in steps:
        offsets.append(offsets[-1] + step * scale)
    return offsets


def _card(code: str, x: float, y: float, u: float, colours: dict) -> str:
    w, h, r = u, u * CARD_HEIGHT, u * 0.08
    if code == BACK:
        return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}" '
                f'fill="{BACK_FILL}" stroke="{FACE}" stroke-width="{u * 0.05:.1f}"/>'
                f'<rect x="{x + u * 0.1:.1f}" y="{y + u * 0.1:.1f}" width="{w - u * 0.2:.1f}" '
                f'height="{h - u * 0.2:.1f}" rx="{r / 2:.1f}" fill="url(#sw-back)"/>')
    rank = "10" if code[0] == "T" else code[0]
    suit = code[1]
    colour = colours[suit]
    big = f"{rank}{GLYPHS[suit]}" if rank in "JQK" else GLYPHS[suit]
    return (f'<g data-card="{code}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'rx="{r:.1f}" fill="{FACE}" stroke="{EDGE}"/>'
            f'<text x="{x + u * 0.06:.1f}" y="{y + u * 0.27:.1f}" font-size="{u * 0.27:.1f}" '
            f'font-weight="bold" fill="{colour}">{rank}{GLYPHS[suit]}</text>'
            f'<text x="{x + w / 2:.1f}" y="{y + h * 0.68:.1f}" font-size="{u * (0.36 if rank in "JQK" else 0.5):.1f}" '
            f'text-anchor="middle" fill="{colour}">{big}</text></g>')


def state_svg(state: State, unit: float = 44.0, four_colour: bool = False) -> str:
    """The position drawn as SVG text, ``unit`` pixels to a card's width."""
    layout = state.game.layout()
    piles = layout["piles"]
    shown = visible_piles(state)
    colours = FOUR_COLOURS if four_colour else COLOURS
    pad = unit * 0.3
    offsets = {p["id"]: fan_offsets(shown[p["id"]], p["fan"], _fan_room(p, piles, layout)) for p in piles}
    extents = {p["id"]: CARD_HEIGHT + (offsets[p["id"]][-1] if p["fan"] == "down" and offsets[p["id"]] else 0)
               for p in piles}
    shifts = row_shifts(piles, extents)
    bottom = max((p["y"] + shifts[p["id"]] + extents[p["id"]] for p in piles), default=0)
    width = layout["width"] * unit + 2 * pad
    height = max(layout["height"], bottom + 0.2) * unit + 2 * pad
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" '
             f'role="img" aria-label="{escape(state.game.name)}">',
             '<defs><pattern id="sw-back" width="6" height="6" patternUnits="userSpaceOnUse" '
             'patternTransform="rotate(45)"><rect width="3" height="6" fill="#3a5db3"/></pattern></defs>',
             f'<rect width="{width:.0f}" height="{height:.0f}" rx="8" fill="{FELT}"/>']
    for pile in sorted(piles, key=lambda p: p["z"]):
        codes = shown[pile["id"]]
        x, y = pad + pile["x"] * unit, pad + (pile["y"] + shifts[pile["id"]]) * unit
        covered = any(shown[c] for c in pile.get("covered_by", []))
        group = [f'<g data-pile="{pile["id"]}">']
        if not codes:
            if not pile.get("gone_when_empty"):
                group.append(f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{unit - 2:.1f}" '
                             f'height="{unit * CARD_HEIGHT - 2:.1f}" rx="{unit * 0.08:.1f}" fill="none" '
                             f'stroke="{LINE}" stroke-dasharray="4 3"/>')
                if pile.get("empty"):
                    group.append(f'<text x="{x + unit / 2:.1f}" y="{y + unit * 0.85:.1f}" '
                                 f'font-size="{unit * 0.4:.1f}" text-anchor="middle" fill="{LINE}">'
                                 f'{escape(pile["empty"])}</text>')
        else:
            first = max(0, len(codes) - 2) if pile["fan"] == "none" else 0
            for code, offset in list(zip(codes, offsets[pile["id"]]))[first:]:
                dx, dy = (offset * unit, 0) if pile["fan"] == "right" else (0, offset * unit)
                group.append(_card(code, x + dx, y + dy, unit, colours))
                if covered:         # shade the covered pile's cards, as the widget does
                    group.append(f'<rect x="{x + dx:.1f}" y="{y + dy:.1f}" width="{unit:.1f}" '
                                 f'height="{unit * CARD_HEIGHT:.1f}" rx="{unit * 0.08:.1f}" '
                                 f'fill="#000" opacity="0.35"/>')
            if pile["kind"] in ("stock", "waste"):
                group.append(f'<text x="{x + unit / 2:.1f}" y="{y + unit * (CARD_HEIGHT + 0.25):.1f}" '
                             f'font-size="{unit * 0.2:.1f}" text-anchor="middle" fill="#e8efe9">'
                             f'{len(codes)}</text>')
        group.append("</g>")
        parts.append("".join(group))
    parts.append("</svg>")
    return "".join(parts)
