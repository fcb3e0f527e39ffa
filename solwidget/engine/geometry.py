"""The board's geometry, defined once: the games' layouts place their piles with these
constants, the SVG picture of a state draws with them, and the widget's front end receives
them as data (``as_data``) and draws the same board with no constant of its own.

Every length is in card widths. A layout (``Game.layout()``) gives each pile's corner
(``x``, ``y``), its layer ``z`` and its fan (``"down"``, ``"right"`` or ``"none"``); what is
computed here from a position is where each pile and each card of a fan is then drawn (a
right fan may give the width it reaches across, ``span``, so that the rows beneath it make room):

- A fanned card sits one step from the card beneath it, a short step if that card is a back.
- A fan longer than its room is squeezed: its backs' steps first (down to ``MIN_BACK_STEP``),
  then every step alike.
- A down fan with piles of its layer beneath it has unlimited room: it pushes their row (the
  piles of one layer at one height) down instead, keeping ``PUSH_GAP`` between them. Another
  down fan has the room down to the layout's bottom, ``MIN_FAN_ROOM`` at least. A right fan
  stops ``RIGHT_FAN_CLEARANCE`` before the next pile of its row, or at the board's edge.
- A pile that does not fan (a stack) shows its top ``STACK_SHOWN`` cards only.
- The board is as tall as its cards reach (with a count's room under a stock or waste, and a
  margin), in steps of ``1 / HEIGHT_STEPS``, so that it changes height seldom.

A layout may offer narrower arrangements of its piles (``narrower``: each a width, a height
and the piles' new corners), for screens too narrow for legible cards; ``arranged`` applies
one, and the front end picks the first one that fits.

``js/geometry.js`` is the front end's twin of ``place`` (the widget draws a move's piles
without the kernel sending any place); tests/js and tests/browser check that the two draw
every game alike.
"""

from __future__ import annotations

import math
from typing import TypedDict

from .cards import BACK


class _PileLayout(TypedDict):
    id: str
    kind: str  # foundation | tableau | cell | stock | waste | deck | space
    x: float
    y: float
    z: int  # the layer
    fan: str  # down | right | none
    empty: str  # what an empty pile shows: "A", "K", "×", "↻" or nothing
    covered_by: list[str]  # the piles that cover this one (Interlock)


class PileLayout(_PileLayout, total=False):
    """One pile of a layout: where it sits and how it fans."""

    span: float  # the width a right fan reaches across (default: one card)
    layer: str  # the layer's name, when a game names its layers (Interlock's "back")
    row: int  # the row of the board it belongs to (Mutated Solitaire)
    gone_when_empty: bool  # an empty pile is no place any more (Mutated Solitaire's extra space)


class Arrangement(TypedDict):
    """A narrower arrangement of a layout's piles: its size and each pile's corner."""

    width: float
    height: float
    places: dict[str, list[float]]


class _Layout(TypedDict):
    width: float
    height: float
    piles: list[PileLayout]


class Layout(_Layout, total=False):
    """Where each pile of a game sits (``Game.layout()``), in card widths."""

    narrower: list[Arrangement]


class PlacedPile(TypedDict):
    x: float
    y: float
    width: float
    height: float
    cards: list[tuple[float, float]]


class Placed(TypedDict):
    """Where ``place`` draws a position: the board's size and each pile's cards."""

    width: float
    height: float
    piles: dict[str, PlacedPile]


CARD_ASPECT = 1.4  # a card's height
PILE_GAP = 0.15  # between two piles side by side, as a layout places them
ROW_GAP = 0.3  # between a row of piles and the row beneath it, as a layout places them
FAN_ROOM = 4.0  # the room a layout leaves beneath its lowest fans
FAN_STEP = {  # from a fanned card to the next: after a face-up card ("up") or a back
    "down": {"up": 0.3, "back": 0.14},
    "right": {"up": 0.62, "back": 0.12},  # a face-up step leaves its whole corner index readable
}
MIN_BACK_STEP = 0.04  # a squeezed fan's backs keep this step at least
MIN_FAN_ROOM = 3.6  # a down fan at the bottom has this room at least (13 face-up cards)
PUSH_GAP = 0.45  # kept between a fan and the row it pushes down (that row's captions)
RIGHT_FAN_CLEARANCE = 0.1  # a right fan ends this far before the next pile of its row
MIN_RIGHT_ROOM = 0.3  # a right fan has this room at least
STACK_SHOWN = 2  # a pile that does not fan shows its top two cards
COUNTED_KINDS = ("stock", "waste")  # piles that show their card count beneath them
COUNT_ROOM = 0.2  # the room that count takes
BOTTOM_MARGIN = 0.2  # between the lowest card and the board's bottom edge
HEIGHT_STEPS = 4  # the board's height is a whole number of quarter card widths


def pile_layout(pid: str, kind: str, x: float, y: float, fan: str, empty: str) -> PileLayout:
    """A pile of a layout on layer 0, covered by no other pile: its corner rounded to
    thousandths of a card width."""
    return {
        "id": pid,
        "kind": kind,
        "x": round(x, 3),
        "y": round(y, 3),
        "fan": fan,
        "z": 0,
        "empty": empty,
        "covered_by": [],
    }


def as_data() -> dict[str, object]:
    """The constants the front end draws with, as JSON data (sent once, with the layout)."""
    fan_step = {fan: dict(steps) for fan, steps in FAN_STEP.items()}
    return {
        "card_aspect": CARD_ASPECT,
        "fan_step": fan_step,
        "min_back_step": MIN_BACK_STEP,
        "min_fan_room": MIN_FAN_ROOM,
        "push_gap": PUSH_GAP,
        "right_fan_clearance": RIGHT_FAN_CLEARANCE,
        "min_right_room": MIN_RIGHT_ROOM,
        "stack_shown": STACK_SHOWN,
        "counted_kinds": list(COUNTED_KINDS),
        "count_room": COUNT_ROOM,
        "bottom_margin": BOTTOM_MARGIN,
        "height_steps": HEIGHT_STEPS,
    }


def arranged(layout: Layout, index: int) -> Layout:
    """The layout as its arrangement ``index`` places it: 0 is the layout itself, ``k`` its
    ``narrower[k - 1]`` (the piles at that arrangement's corners, its width and height)."""
    if index == 0:
        return layout
    other = layout["narrower"][index - 1]
    piles: list[PileLayout] = [
        {**pile, "x": other["places"][pile["id"]][0], "y": other["places"][pile["id"]][1]}
        for pile in layout["piles"]
    ]
    return {**layout, "width": other["width"], "height": other["height"], "piles": piles}


def beneath(above: PileLayout, below: PileLayout) -> bool:
    """Does pile ``below`` lie under pile ``above`` (same layer, lower, overlapping across)?
    A pile spans one card width across, or its layout's ``span`` (a right fan's reach)."""
    return (
        below is not above
        and below["z"] == above["z"]
        and below["y"] > above["y"]
        and below["x"] < above["x"] + above.get("span", 1)
        and above["x"] < below["x"] + below.get("span", 1)
    )


def fan_room(pile: PileLayout, layout: Layout) -> float:
    """How far ``pile``'s fan may reach from its first card to its last."""
    piles = layout["piles"]
    if pile["fan"] == "down":
        if any(beneath(pile, other) for other in piles):
            return math.inf
        return max(layout["height"] - pile["y"] - CARD_ASPECT, MIN_FAN_ROOM)
    if pile["fan"] == "right":
        room = layout["width"] - pile["x"] - 1
        for other in piles:
            if (
                other is not pile
                and other["z"] == pile["z"]
                and other["x"] > pile["x"]
                and abs(other["y"] - pile["y"]) < CARD_ASPECT
            ):
                room = min(room, other["x"] - pile["x"] - 1 - RIGHT_FAN_CLEARANCE)
        return max(room, MIN_RIGHT_ROOM)
    return 0.0


def fan_offsets(codes: list[str], fan: str, room: float) -> list[float]:
    """Each card's distance from the pile's corner along its fan; ``codes`` as the player
    sees them (``"back"`` for a back). Squeezed to ``room``, backs first."""
    if fan not in FAN_STEP:
        return [0.0] * len(codes)
    backs = [code == BACK for code in codes[:-1]]
    steps = [FAN_STEP[fan]["back"] if back else FAN_STEP[fan]["up"] for back in backs]
    if sum(steps) > room:
        count = sum(backs)
        if count:
            squeeze = min((sum(steps) - room) / count, FAN_STEP[fan]["back"] - MIN_BACK_STEP)
            steps = [step - squeeze if back else step for step, back in zip(steps, backs)]
        natural = sum(steps)
        if natural > room:
            steps = [step * room / natural for step in steps]
    offsets = [0.0]
    for step in steps:
        offsets.append(offsets[-1] + step)
    return offsets[: len(codes)]


def pile_size(fan: str, offsets: list[float]) -> tuple[float, float]:
    """(width, height) that a pile's cards cover, from its fan's offsets."""
    reach = offsets[-1] if offsets else 0.0
    return (1 + (reach if fan == "right" else 0.0), CARD_ASPECT + (reach if fan == "down" else 0.0))


def row_shifts(piles: list[PileLayout], extents: dict[str, float]) -> dict[str, float]:
    """How far each pile moves down so that the fans above it fit, a row (piles of one layer
    at one height) as one; ``extents``: pile id -> the height its cards cover."""
    rows: dict[tuple[int, float], list[PileLayout]] = {}
    for pile in piles:
        rows.setdefault((pile["z"], pile["y"]), []).append(pile)
    shifts: dict[str, float] = {}
    for (_, y), row in sorted(rows.items(), key=lambda item: item[0][1]):
        shift = 0.0
        for pile in row:
            for above in piles:
                if beneath(above, pile):  # above lies higher: its shift is known
                    gap = min(PUSH_GAP, y - above["y"] - CARD_ASPECT)  # as the layout has it, at most
                    bottom = above["y"] + shifts[above["id"]] + extents[above["id"]] + gap
                    shift = max(shift, shifts[above["id"]], bottom - y)
        for pile in row:
            shifts[pile["id"]] = shift
    return shifts


def board_height(piles: list[PileLayout], shifts: dict[str, float], extents: dict[str, float]) -> float:
    """How tall the board is drawn: as far as its cards (and counts) reach, plus a margin."""
    bottom = 0.0
    for pile in piles:
        count = COUNT_ROOM if pile["kind"] in COUNTED_KINDS else 0.0
        bottom = max(bottom, pile["y"] + shifts[pile["id"]] + extents[pile["id"]] + count)
    return math.ceil((bottom + BOTTOM_MARGIN) * HEIGHT_STEPS) / HEIGHT_STEPS


def first_shown(fan: str, count: int) -> int:
    """The index of a pile's lowest drawn card: a stack draws its top cards only."""
    return max(0, count - STACK_SHOWN) if fan == "none" else 0


def place(layout: Layout, shown: dict[str, list[str]]) -> Placed:
    """Where everything is drawn: ``{"width", "height", "piles": {pid: {"x", "y", "width",
    "height", "cards": [(dx, dy), ...]}}}``, each drawn card's corner from its pile's corner,
    from the lowest drawn card up; ``shown``: pile id -> its codes as the player sees them."""
    piles = layout["piles"]
    offsets = {p["id"]: fan_offsets(shown[p["id"]], p["fan"], fan_room(p, layout)) for p in piles}
    sizes = {p["id"]: pile_size(p["fan"], offsets[p["id"]]) for p in piles}
    extents = {pid: size[1] for pid, size in sizes.items()}
    shifts = row_shifts(piles, extents)
    placed: dict[str, PlacedPile] = {}
    for pile in piles:
        pid, fan = pile["id"], pile["fan"]
        cards = [(offset, 0.0) if fan == "right" else (0.0, offset) for offset in offsets[pid]]
        placed[pid] = {
            "x": pile["x"],
            "y": pile["y"] + shifts[pid],
            "width": sizes[pid][0],
            "height": sizes[pid][1],
            "cards": cards[first_shown(fan, len(cards)) :],
        }
    return {"width": layout["width"], "height": board_height(piles, shifts, extents), "piles": placed}
