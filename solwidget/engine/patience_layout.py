"""Where the piles of a patience game sit (``Patience.layout``): a top row of stock and
waste, cells and foundations above a row of fanned tableau piles, and the narrower
arrangements of them that the front end picks from on a narrow screen. The lengths are the
board's geometry (``engine.geometry``); the rules are ``engine.patience``'s.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import ACE
from .geometry import CARD_ASPECT, FAN_ROOM, PILE_GAP, ROW_GAP, Layout, PileLayout, pile_layout


class PatienceLayout:
    """The layout of a ``Patience`` game, from its piles (foundations, cells, tableau, and a
    stock when it draws) and what an empty pile takes; Interlock's family builds its own from
    ``_pile_layout``."""

    # What the layout reads of the game: ``Patience`` sets each of them.
    pile_ids: tuple[str, ...]
    pile_kinds: Mapping[str, str]
    foundation_indices: tuple[int, ...]
    cell_indices: tuple[int, ...]
    tableau_indices: tuple[int, ...]
    draw: int
    empty_takes: str
    foundation_start: int
    redeals: int | None

    def layout(self) -> Layout:
        """The top row (stock and waste, cells, foundations) above a row of fanned piles.

        ``narrower`` holds arrangements for narrow screens, widest first: where the top row
        is wider than the tableau, the foundations folded into lines beneath one another, so
        that the board is no wider than its tableau (or as near as the foundations allow);
        then, for a tableau of more than five piles, every row wrapped at half the tableau's
        width (the tableau in two rows, the second pushed down as the first's fans grow)."""
        head = ["stock", "waste", None] if self.draw else []
        head += [self.pile_ids[c] for c in self.cell_indices]
        if self.cell_indices:
            head.append(None)
        foundations = [self.pile_ids[f] for f in self.foundation_indices]
        layout = self._arranged(head, [foundations])
        narrower = []
        room = len(self.tableau_indices) - len(head)  # foundation slots a line has beside the head
        if len(head) + len(foundations) > len(self.tableau_indices) and room >= 1:
            lines = -(-len(foundations) // room)
            size = -(-len(foundations) // lines)
            narrower.append(
                self._arranged(head, [foundations[k : k + size] for k in range(0, len(foundations), size)])
            )
        if len(self.tableau_indices) > 5:
            narrower.append(self._wrapped([*head, *foundations], -(-len(self.tableau_indices) // 2)))
        if narrower:
            layout["narrower"] = [
                {
                    "width": other["width"],
                    "height": other["height"],
                    "places": {p["id"]: [p["x"], p["y"]] for p in other["piles"]},
                }
                for other in narrower
            ]
        return layout

    def _wrapped(self, top: list[str | None], columns: int) -> Layout:
        """Every row wrapped at ``columns`` piles: ``top`` (pile ids, None for a gap, which
        never starts a line) in lines of stacks, then the tableau in lines beneath them, each
        line of the tableau a card and a little room below the one above (geometry's row
        shifts push it further down as the fans above it grow)."""
        step = 1 + PILE_GAP
        lines: list[list[str | None]] = [[]]
        for pid in top:
            if len(lines[-1]) == columns:
                lines.append([])
            if pid is not None or lines[-1]:
                lines[-1].append(pid)
        piles = [
            self._pile_layout(pid, x * step, row * (CARD_ASPECT + ROW_GAP), "none")
            for row, line in enumerate(lines)
            for x, pid in enumerate(line)
            if pid
        ]
        tableau_y = len(lines) * (CARD_ASPECT + ROW_GAP)
        line_step = CARD_ASPECT + ROW_GAP + 1.0
        for k, t in enumerate(self.tableau_indices):
            row, x = divmod(k, columns)
            piles.append(
                self._pile_layout(self.pile_ids[t], x * step, round(tableau_y + row * line_step, 3), "down")
            )
        rows = -(-len(self.tableau_indices) // columns)
        height = tableau_y + (rows - 1) * line_step + CARD_ASPECT + FAN_ROOM
        return {"width": round(columns * step - PILE_GAP, 3), "height": round(height, 3), "piles": piles}

    def _arranged(self, head: list[str | None], lines: list[list[str]]) -> Layout:
        """The layout with ``head`` (pile ids, None for a gap) then the first line of
        foundations in the top row, the other lines beneath it, and the tableau centred
        beneath them all."""
        step = 1 + PILE_GAP
        line_step = CARD_ASPECT + ROW_GAP
        slots = max(len(head) + max(map(len, lines)), len(self.tableau_indices))
        width = slots * step - PILE_GAP
        piles = [self._pile_layout(pid, x * step, 0, "none") for x, pid in enumerate(head) if pid]
        for row, line in enumerate(lines):
            piles += [
                self._pile_layout(pid, (len(head) + x) * step, row * line_step, "none")
                for x, pid in enumerate(line)
            ]
        offset = (width - (len(self.tableau_indices) * step - PILE_GAP)) / 2
        tableau_y = len(lines) * line_step
        for x, t in enumerate(self.tableau_indices):
            piles.append(self._pile_layout(self.pile_ids[t], offset + x * step, tableau_y, "down"))
        return {
            "width": round(width, 3),
            "height": round(tableau_y + CARD_ASPECT + FAN_ROOM, 3),
            "piles": piles,
        }

    def _pile_layout(self, pid: str, x: float, y: float, fan: str) -> PileLayout:
        kind = self.pile_kinds[pid]
        empty = {
            "foundation": "A" if self.foundation_start == ACE else "K",
            "tableau": {"any": "", "king": "K", "none": "×"}[self.empty_takes],
            "stock": "↻" if self.redeals != 0 else "",
        }.get(kind, "")
        return pile_layout(pid, kind, x, y, fan, empty)
