"""The Interlock family: Interlock (seed), Love a Duck and Guardian (docs/rules.md, Interlock).

The tableau is three overlapping layers of piles. A pile is covered while either of its two
covering piles (in the next layer to the front) holds a card; a covered pile neither gives
nor takes cards, except by a dropdown: when a pile's only covering pile that still holds
cards is itself uncovered, that whole pile may move down onto it if it fits.
An emptied back pile takes cards again (it is never covered again); an emptied middle or
front pile is gone for good.

The moves come from moves.py, the family's one move generator, which the solver shares.

Layout data adds two keys to each tableau pile: ``layer`` ("back", "middle", "front") and
``gone_when_empty`` (True for middle and front piles: once empty, draw nothing there, so
the cards behind show through).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ...engine.cards import FACE_DOWN, card_name, face_down
from ...engine.errors import InvalidPosition
from ...engine.geometry import CARD_ASPECT, FAN_ROOM, PILE_GAP, ROW_GAP, Arrangement, Layout, PileLayout
from ...engine.moves import Move
from ...engine.patience import Build, Patience
from ...engine.registry import register
from ...engine.state import State
from . import moves

LAYERS = ("back", "middle", "front")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class InterlockFamily(Patience):
    back_piles: int = 9  # the layers hold back_piles, back_piles + 1, back_piles + 2
    build = Build(-1, "alternate")
    group = "run"
    empty_takes = "king"  # what an emptied back pile takes
    symmetric_tableau = False  # each pile's place in the layers matters
    board_columns: int = 11  # width of the board in card columns (PySolFC's)

    def __init__(self, **options):
        self.tableau_piles = 3 * self.back_piles + 3
        super().__init__(**options)
        n = self.back_piles
        # by pile index (the engine's hooks speak in indices): the layer (0 back, 1 middle,
        # 2 front), the covering piles, and the piles covered
        layers = [0 if k < n else 1 if k < 2 * n + 1 else 2 for k in range(self.tableau_piles)]
        self.layer = {t: layer for t, layer in zip(self.tableau_indices, layers)}
        self.covers = {
            t: tuple(self.tableau_indices[k + n + layer + c] for c in (0, 1)) if layer < 2 else ()
            for k, (t, layer) in enumerate(zip(self.tableau_indices, layers))
        }
        self.covered = {i: tuple(j for j, cs in self.covers.items() if i in cs) for i in self.tableau_indices}
        # the hot checks below read the pair of covering piles (None: never covered) by index
        self._pair = [self.covers.get(i) or None for i in range(len(self.pile_ids))]
        self._gone_when_empty = [self.layer.get(i, 0) > 0 for i in range(len(self.pile_ids))]
        # the one move generator (moves.py), which the solver shares: every move where it
        # fits (moves.fits), else the dropdowns, beside Patience's building blocks
        self.generator = moves.InterlockMoves(self)
        self._generator_fits = moves.fits(self)

    # ------------------------------------------------------------- covering
    def _holding_covers(self, piles, i: int) -> list[int]:
        """The covering piles of ``i`` that still hold cards: ``i`` is covered while any do."""
        return [c for c in self.covers[i] if piles[c]]

    def _covered_words(self, piles, i: int) -> str:
        names = [self.pile_ids[c] for c in self._holding_covers(piles, i)]
        return f"{self.pile_ids[i]} is covered by {_and(names)}"

    def can_give(self, piles, i: int) -> bool:
        pair = self._pair[i]
        return pair is None or not (piles[pair[0]] or piles[pair[1]])

    def can_take(self, piles, i: int) -> bool:
        if not piles[i] and self._gone_when_empty[i]:
            return False  # an emptied middle or front pile is gone
        pair = self._pair[i]
        return pair is None or not (piles[pair[0]] or piles[pair[1]])

    def _give_refusal(self, piles, i: int) -> str | None:
        if self._holding_covers(piles, i):
            return self._covered_words(piles, i)
        return None

    def _take_refusal(self, piles, i: int) -> str | None:
        if not piles[i] and self.layer[i] != 0:
            return f"{self.pile_ids[i]} is empty and gone: an emptied middle or front pile takes no cards"
        if self._holding_covers(piles, i):
            return self._covered_words(piles, i)
        return None

    def reveal(self, piles: list, src: int) -> None:
        """Turn up the top card of ``src`` and, if ``src`` is now empty, of each pile it
        uncovered (Guardian's face-down back and middle cards)."""
        for i in (src, *(self.covered.get(src, ()) if not piles[src] else ())):
            pile = piles[i]
            if pile and pile[-1] & FACE_DOWN and self.can_give(piles, i):
                piles[i] = pile[:-1] + (pile[-1] & ~FACE_DOWN,)

    def iter_moves(self, state: State, source: int | None = None) -> Iterator[Move]:
        """Every legal move, or only those from pile index ``source``: moves.py's, in
        ``Patience.iter_moves``'s order (that one where moves.py does not serve)."""
        if not self._generator_fits:
            return super().iter_moves(state, source)
        return (plan[0] for plan in self.generator.plans(state.piles, state.extra, True, source))

    # ------------------------------------------------------------- dropdown
    def _dropdown_source(self, piles, x: int) -> int | None:
        """The pile that may drop onto ``x``: its only covering pile that holds cards."""
        holders = self._holding_covers(piles, x)
        return holders[0] if len(holders) == 1 else None

    def extra_moves(self, state: State) -> Iterator[Move]:
        """The dropdowns (moves.py)."""
        return (plan[0] for plan in self.generator.dropdowns(state.piles))

    def _dropdown_refusal(self, piles, y: int, x: int, n: int) -> str | None:
        """Why ``y`` may not drop onto ``x``, which it covers (None: no reason found here)."""
        ids = self.pile_ids
        src, dst = ids[y], ids[x]
        if not self.can_give(piles, y):
            return (
                f"{src} is itself covered by {_and([ids[c] for c in self._holding_covers(piles, y)])}: "
                "only an uncovered pile may drop down"
            )
        if self._dropdown_source(piles, x) != y:
            return (
                f"{self._covered_words(piles, x)}: a dropdown onto {dst} needs {src} to be "
                f"its only covering pile that still holds cards"
            )
        cards, target = piles[y], piles[x]
        if n != len(cards):
            return (
                f"a dropdown moves the whole of {src} ({len(cards)} card{'s' * (len(cards) > 1)}) "
                f"onto {dst}: '{src} {dst} {len(cards)}'"
            )
        if target[-1] & FACE_DOWN:
            return f"the top card of {dst} is face down: nothing may drop onto it"
        words = self.build.words()
        if self.group != "yukon":
            for under, over in itertools.pairwise(cards):
                if not self.build.fits(under, over):
                    return (
                        f"{src} is not a run {words} ({card_name(over)} on {card_name(under)}): "
                        "only such a run drops down"
                    )
        if not self.build.fits(target[-1], cards[0]):
            return (
                f"{card_name(cards[0])} does not fit on {card_name(target[-1])}: a dropdown "
                f"builds like any move, {words}"
            )
        return None

    def _refusal(self, state: State, move: Move) -> str | None:
        piles = state.piles
        x, y = self.index_of.get(move.dst), self.index_of.get(move.src)
        if (
            x is not None
            and y is not None
            and y in self.covers.get(x, ())
            and piles[x]
            and piles[y]
            and move.n <= len(piles[y])
            and move.card is None
        ):
            reason = self._dropdown_refusal(piles, y, x, move.n)
            if reason:
                return reason
        return super()._refusal(state, move)

    def _tableau_refusal(self, piles, s: int, d: int, moving: tuple) -> str:
        reason = self._take_refusal(piles, d)
        if reason:
            return reason
        if not piles[d] and not self.empty_pile_takes(piles, d, moving[0]):
            if self.empty_takes == "none":
                return f"{self.pile_ids[d]} is an empty back pile: it takes no cards"
            unit = "group" if self.group == "yukon" else "run"
            return (
                f"{self.pile_ids[d]} is an empty back pile: it takes only a King or a {unit} headed by a King"
            )
        return super()._tableau_refusal(piles, s, d, moving)

    # ------------------------------------------------------------- positions
    def _check_position(self, piles, extra) -> None:
        super()._check_position(piles, extra)
        ids = self.pile_ids
        for i in self.tableau_indices:
            if not piles[i] and self._holding_covers(piles, i):
                names = _and([ids[c] for c in self._holding_covers(piles, i)])
                raise InvalidPosition(
                    f"{ids[i]} is empty, yet covered by {names}: a covered pile "
                    "gives no cards, so it cannot have been emptied"
                )
            down = [c for c in piles[i] if c & FACE_DOWN]
            if down and (self.layer[i] == 2 or len(piles[i]) > 1):
                raise InvalidPosition(
                    f"{ids[i]} holds face-down card {card_name(down[0])}: only the single card dealt "
                    "to a back or middle pile lies face down, until it is uncovered"
                )

    # ------------------------------------------------------------- layout
    def layout(self) -> Layout:
        """PySolFC's picture: stock, waste and foundations in a row at the top; below, the
        back layer, then the middle and front layers, each drawn a quarter card-step lower
        and half a card to the left, on top of the one behind."""
        step = 1 + PILE_GAP
        row_step = (CARD_ASPECT + ROW_GAP) / 4
        tableau_y = CARD_ASPECT + ROW_GAP
        piles: list[PileLayout] = []
        if self.draw:
            piles.append(self._pile_layout("stock", 0, 0, "none"))
            piles.append(self._pile_layout("waste", step, 0, "none"))
        first = self.board_columns - 4
        for x, f in enumerate(self.foundation_indices, first):
            piles.append(self._pile_layout(self.pile_ids[f], x * step, 0, "none"))
        left = (self.board_columns - self.back_piles - 2) / 2  # the front layer's first column
        for i in self.tableau_indices:
            layer = self.layer[i]
            column = self.tableau_indices.index(i) - (0, self.back_piles, 2 * self.back_piles + 1)[layer]
            corner = (left + 1 - layer / 2 + column) * step
            entry = self._pile_layout(self.pile_ids[i], corner, tableau_y + layer * row_step, "down")
            piles.append(
                {
                    **entry,
                    "z": layer,
                    "layer": LAYERS[layer],
                    "gone_when_empty": layer != 0,
                    "covered_by": [self.pile_ids[c] for c in self.covers[i]],
                    "empty": entry["empty"] if layer == 0 else "",
                }
            )
        width = self.board_columns * step - PILE_GAP
        height = tableau_y + 2 * row_step + CARD_ASPECT + FAN_ROOM
        # Narrow screens scroll the layers sideways (they cannot wrap: each pile lies over two
        # others); the foundations then come left, beside the waste, where the felt begins.
        stacks = [pile["id"] for pile in piles if pile["fan"] == "none"]
        places = {pile["id"]: [pile["x"], pile["y"]] for pile in piles}
        places.update({pid: [round(x * step, 3), 0] for x, pid in enumerate(stacks)})
        narrow: Arrangement = {
            "width": round(max(x for x, _ in places.values()) + 1, 3),
            "height": round(height, 3),
            "places": places,
        }
        return {"width": round(width, 3), "height": round(height, 3), "piles": piles, "narrower": [narrow]}


@register
class Interlock(InterlockFamily):
    id = "interlock"
    name = "Interlock"
    draw = 1
    redeals = None
    tagline = "Thirty piles in three overlapping layers: free the cards underneath"
    summary = (
        "One deck. 30 single cards in three overlapping layers (9 back, 10 middle, 11 front); "
        "a pile covered by a pile in front of it neither gives nor takes cards. Build down in "
        "alternating colours; a run moves as a unit. A pile's last covering pile may drop down "
        "onto it, whole, if it fits. An emptied back pile takes a King or a King-led run; an "
        "emptied middle or front pile is gone. Foundations up in suit from Ace. The stock "
        "turns one card at a time, with unlimited redeals."
    )

    def _deal(self, cards):
        columns, rest = self._deal_rows(cards, [True])
        return self._state(columns, stock=rest[1:], waste=rest[:1])


@register
class LoveADuck(InterlockFamily):
    id = "love_a_duck"
    name = "Love a Duck"
    group = "yukon"
    tagline = "Interlock with Yukon moves and every card on the table"
    summary = (
        "One deck, no stock. Interlock's three overlapping layers: one card on each back and "
        "middle pile, three on each front pile; a covered pile neither gives nor takes cards. "
        "Build down in alternating colours; any face-up group moves if its first card fits. A "
        "pile's last covering pile may drop down onto it, whole, if its first card fits. An "
        "emptied back pile takes a King-led group; an emptied middle or front pile is gone. "
        "Foundations up in suit from Ace."
    )

    def _deal(self, cards):
        n = self.back_piles
        inner = 2 * n + 1  # back and middle piles: one card each
        columns = [[card] for card in cards[:inner]]
        front = self.tableau_piles - inner
        for k in range(front):  # three rows over the front piles
            columns.append(cards[inner + k :: front])
        return self._state(columns)


@register
class Guardian(InterlockFamily):
    id = "guardian"
    name = "Guardian"
    back_piles = 3
    board_columns = 7
    draw = 3
    redeals = None
    empty_takes = "any"
    face_down_cards = True
    tagline = "Twelve piles in three layers, the hidden ones turned up as they are freed"
    summary = (
        "One deck. 12 single cards in three overlapping layers (3 back, 4 middle, 5 front); the "
        "back and middle cards lie face down and turn up once uncovered; a covered pile neither "
        "gives nor takes cards. Build down in alternating colours; a run moves as a unit. An "
        "emptied back pile takes any card or run; an emptied middle or front pile is gone. "
        "Foundations up in suit from Ace. The stock turns three cards at a time, with "
        "unlimited redeals."
    )

    def _deal(self, cards):
        hidden = 2 * self.back_piles + 1  # back and middle piles are dealt face down
        columns = [[face_down(c) if k < hidden else c] for k, c in enumerate(cards[: self.tableau_piles])]
        rest = cards[self.tableau_piles :]
        return self._state(columns, stock=rest[3:], waste=rest[:3])
