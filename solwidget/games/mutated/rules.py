"""Mutated Solitaire (seed 000, docs/rules.md): three rows of spaces, a deck per row,
and cards that move only to the row directly above or below their own.

Piles, in ``pile_ids`` order: foundations ``f0..f3`` (row 0), the spaces ``r1c1..r3c5``,
the odd space ``r2x`` (row 2), the decks ``d1..d3`` (deck dN in row N).

``state.extra`` holds one entry per deck: ``DRAW`` (-1) in draw mode, or in built mode the
index (bottom = 0) of the built pile's base in the deck; the cards below that index are
hidden. A built deck goes back to draw mode as soon as its base leaves.

Move text: a space, a built deck or a foundation gives its top ``n`` cards ("r1c1 r2c3 3",
"d2 r1c3 2" counts from the top of a built deck); a deck in draw mode gives one named card,
even its top one ("d2 r1c3 QH"); "d2 build" turns deck d2 into a built pile.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping

from ...engine.cards import ACE, FACE_DOWN, KING, RANKS, SUITS, card_name, face_down, parse_card
from ...engine.checks import shown
from ...engine.errors import InvalidPosition
from ...engine.game import Game
from ...engine.geometry import CARD_ASPECT, PILE_GAP, ROW_GAP, Arrangement, Layout, PileLayout, pile_layout
from ...engine.moves import Move
from ...engine.registry import register
from ...engine.state import Pile, State
from .board import (
    BUILD,
    CARD_BY_NAME,
    COLUMNS,
    DECK_IDS,
    DECK_SIZE,
    DECKS,
    DRAW,
    FOUNDATION_IDS,
    PILE_IDS,
    R2X,
    ROW,
    ROWS,
    SPACE_IDS,
    SPACES,
    F,
    _row_of,
)
from .moves import BUILD_ACTION, apply, plans


@register
class MutatedSolitaire(Game):
    id = "mutated"
    name = "Mutated Solitaire"
    tagline = "Klondike in three rows: a card moves only to the row above or below its own"
    summary = (
        "4 foundations (row 0) build up in suit from Ace; their top card may come back to row 1. "
        "15 spaces in 3 rows of 5, each dealt a face-down and a face-up card, plus one extra space "
        "in row 2 (one card); a 7-card deck per row, alternately face down and up. A card moves only "
        "to the row directly above or below: only row 1 reaches the foundations. Spaces build down "
        "in alternating colours, runs move as a unit, an empty space takes only a King or a run "
        "headed by a King; the extra space, once emptied, is gone. Any face-up card of a deck may "
        "be taken alone; nothing goes on a deck in draw mode. A King moved into, or turned up in, "
        "a space of a row flips that row's deck. A deck's build button turns its top card into the "
        "base of a built pile, which plays like a space of its row until its base leaves."
    )
    pile_ids = PILE_IDS
    pile_kinds: Mapping[str, str] = {
        **{p: "foundation" for p in FOUNDATION_IDS},
        **{p: "space" for p in SPACE_IDS},
        "r2x": "space",
        **{p: "deck" for p in DECK_IDS},
    }
    actions = frozenset({"build"})

    # ------------------------------------------------------------ deals
    def _deal(self, cards: list[int]) -> State:
        """Face-down layer r1c1..r3c5, face-up layer r1c1..r3c5, r2x, then d1, d2, d3 from the
        bottom up, each deck alternately face down and face up, starting face down."""
        it = iter(cards)
        piles: list[Pile] = [()] * len(PILE_IDS)
        for s in SPACES:
            piles[s] = (face_down(next(it)),)
        for s in SPACES:
            piles[s] += (next(it),)
        piles[R2X] = (next(it),)
        for d in DECKS:
            piles[d] = tuple(face_down(next(it)) if k % 2 == 0 else next(it) for k in range(DECK_SIZE))
        return State(self, tuple(piles), (DRAW,) * ROWS)

    # ------------------------------------------------------------ moves
    def iter_moves(self, state: State) -> Iterator[Move]:
        """Every legal move, in the order of moves.py's ``plans`` (which the solver shares)."""
        for plan in plans(state.piles, state.extra, every=True):
            yield plan[0]

    def apply_legal(self, state: State, move: Move) -> State:
        index = self.index_of
        src = index[move.src]
        dst = BUILD_ACTION if move.dst == "build" else index[move.dst]
        card = None
        if move.card is not None:
            card = CARD_BY_NAME.get(move.card)
            if card is None:
                card = parse_card(move.card)
        return State(self, *apply(state.piles, state.extra, src, dst, move.n, card))

    # ------------------------------------------------------------ refusals
    def _refusal(self, state: State, move: Move) -> str | None:
        """The rule that forbids ``move``, or None when none does: an encoding of the rules
        independent of ``iter_moves`` (the tests check that the two agree on every move)."""
        piles, modes = state.piles, state.extra
        src, dst = move.src, move.dst
        if src == "build":
            return "'build' is an action: write it after a deck, like 'd2 build'"
        if dst == "build":
            return self._build_refusal(state, move)
        if src == dst:
            return "a move needs two different piles"
        reason = self._row_refusal(src, dst)
        if reason:
            return reason
        s, d = self.index_of[src], self.index_of[dst]
        if d == R2X and not piles[R2X]:
            return "r2x is gone: once emptied, nothing may be moved to it"
        if d in DECKS and modes[d - DECKS[0]] == DRAW:
            return f"nothing is placed on a deck in draw mode: {dst} is in draw mode"
        if not piles[s]:
            return f"{src} is empty"
        moving, reason = self._taken(state, move, s)
        if reason:
            return reason
        return self._destination_refusal(piles, d, moving)

    def _build_refusal(self, state: State, move: Move) -> str | None:
        s = self.index_of[move.src]
        if s not in DECKS:
            return f"only a deck (d1, d2, d3) can be turned into a built pile; {move.src} is not a deck"
        if move.n != 1 or move.card is not None:
            return f"'{move.src} build' takes no count and no card"
        if not state.piles[s]:
            return f"{move.src} is empty: there is no top card to build on"
        base = state.extra[s - DECKS[0]]
        if base == DRAW:
            return None
        return f"{move.src} is already in built mode (its base is {card_name(state.piles[s][base])})"

    @staticmethod
    def _row_refusal(src: str, dst: str) -> str | None:
        rs, rd = _row_of(src), _row_of(dst)
        if rs == rd:
            return f"cards move only to the row above or below: {src} is in row {rs}, {dst} too"
        if rd == 0 and rs != 1:
            return f"only row 1 cards go to the foundations: {src} is in row {rs}"
        if rs == 0 and rd != 1:
            return f"a foundation card comes back only to row 1: {dst} is in row {rd}"
        if abs(rs - rd) != 1:
            return f"cards move only to the row above or below: {src} is in row {rs}, {dst} in row {rd}"
        return None

    def _taken(self, state: State, move: Move, s: int) -> tuple[tuple, str | None]:
        """The cards ``move`` would take from pile ``s``, or the reason it cannot take them."""
        pile = state.piles[s]
        src = move.src
        mode = state.extra[s - DECKS[0]] if s in DECKS else None
        if mode == DRAW:
            if move.card is None:
                shown = [c for c in pile if not c & FACE_DOWN]  # never name a face-down card
                example = card_name(shown[-1]) if shown else "QH"
                return (), (
                    f"a card leaves a deck in draw mode alone and by name: "
                    f"write it like '{src} {move.dst} {example}'"
                )
            if move.n != 1:
                return (), f"a card leaves a deck in draw mode alone: {move.card} cannot take others along"
            card = parse_card(move.card)
            if card in pile:
                return (card,), None
            # The same words whether the card is face down here or elsewhere: a refusal
            # must not tell the player where a hidden card lies.
            return (), f"{move.card} is not among the face-up cards of {src}"
        if move.card is not None:
            what = f"{src} is in built mode" if mode is not None else f"{src} is not a deck in draw mode"
            return (), f"{what}: its cards are counted from the top, like '{src} {move.dst} 2', not named"
        floor = mode or 0
        if move.n > len(pile) - floor:
            if mode is not None:
                return (), (
                    f"a deck in built mode hides the cards beneath its base: "
                    f"{src}'s built pile holds only {len(pile) - floor}"
                )
            return (), f"{src} holds only {len(pile)} card{'s' * (len(pile) > 1)}"
        moving = pile[-move.n :]
        if any(c & FACE_DOWN for c in moving):
            return (), "a face-down card cannot be moved"
        if s in F and move.n > 1:
            return (), "a foundation gives back only its top card"
        for under, over in itertools.pairwise(moving):
            if not BUILD.fits(under, over):
                return (), (
                    f"{card_name(over)} on {card_name(under)} is not a run {BUILD.words()}: "
                    "only such a run moves as a unit"
                )
        return moving, None

    def _destination_refusal(self, piles, d: int, moving: tuple) -> str | None:
        dst = PILE_IDS[d]
        head = moving[0]
        if d in F:
            if len(moving) > 1:
                return "cards go to a foundation one at a time"
            target = piles[d]
            if not target:
                if head & 15 == ACE:
                    return None
                return f"an empty foundation takes only an Ace: {card_name(head)} cannot start one"
            if head == target[-1] + 1:
                return None
            if target[-1] & 15 == KING:
                return f"{dst} is complete"
            wanted = RANKS[target[-1] & 15] + SUITS[target[-1] >> 4 & 3]
            return f"foundations build up in suit: {dst} takes {wanted} next, not {card_name(head)}"
        target = piles[d]
        if target:
            if not BUILD.fits(target[-1], head):
                return (
                    f"{card_name(head)} does not fit on {card_name(target[-1])}: spaces build {BUILD.words()}"
                )
            return None
        if head & 15 != KING:
            return "an empty space takes only a King or a run headed by a King"
        return None

    def hidden_below(self, state: State) -> dict[str, int]:
        """A deck in built mode hides the cards beneath its base: deck id -> its base's index."""
        return {pid: base for pid, base in zip(DECK_IDS, state.extra) if base != DRAW}

    # ------------------------------------------------------------ positions
    def _extra_to_dict(self, extra: tuple) -> dict:
        return {
            "decks": {
                pid: {"mode": "draw"} if base == DRAW else {"mode": "built", "base": base}
                for pid, base in zip(DECK_IDS, extra)
            }
        }

    def _extra_from_dict(self, d: dict) -> tuple:
        """``"decks"``: {"d1": {"mode": "draw"}, "d2": {"mode": "built", "base": 3}, ...}; a
        deck left out (or the whole key) is in draw mode."""
        decks = d.get("decks", {})
        if not isinstance(decks, dict):
            raise InvalidPosition(
                "'decks' must be a dict like {'d1': {'mode': 'draw'}, 'd2': {'mode': 'built', 'base': 3}}"
            )
        unknown = [k for k in decks if k not in DECK_IDS]
        if unknown:
            raise InvalidPosition(
                f"'decks' names unknown decks {', '.join(map(str, unknown))}: "
                f"the decks are {', '.join(DECK_IDS)}"
            )
        return tuple(self._mode_from_dict(pid, decks.get(pid, {"mode": "draw"})) for pid in DECK_IDS)

    @staticmethod
    def _mode_from_dict(pid: str, entry) -> int:
        if not isinstance(entry, dict) or entry.get("mode") not in ("draw", "built"):
            raise InvalidPosition(
                f"deck {pid}: expected {{'mode': 'draw'}} or "
                f"{{'mode': 'built', 'base': INDEX}}, not {shown(entry)}"
            )
        if entry["mode"] == "draw":
            if set(entry) != {"mode"}:
                raise InvalidPosition(f"deck {pid} is in draw mode: it has no base ({shown(entry)})")
            return DRAW
        base = entry.get("base")
        if set(entry) != {"mode", "base"} or isinstance(base, bool) or not isinstance(base, int) or base < 0:
            raise InvalidPosition(
                f"deck {pid} is in built mode: 'base' must be the index (0 = bottom) "
                f"of its base card in the pile, a whole number >= 0, in {shown(entry)}"
            )
        return base

    def _check_position(self, piles, extra) -> None:
        for f in F:
            self._check_foundation(PILE_IDS[f], piles[f])
        for s in SPACES + (R2X,):
            self._check_space(PILE_IDS[s], piles[s], s == R2X)
        for d, base in zip(DECKS, extra):
            self._check_deck(PILE_IDS[d], piles[d], base)

    @staticmethod
    def _check_foundation(pid: str, pile: tuple) -> None:
        for i, card in enumerate(pile):
            if card & FACE_DOWN:
                raise InvalidPosition(f"{pid}: foundation cards lie face up, not {card_name(card)}")
            wanted_rank = i + 1
            if card & 15 != wanted_rank or (card ^ pile[0]) & 0x30:
                raise InvalidPosition(
                    f"{pid} is not a legal foundation: it builds up in suit from an Ace, "
                    f"so card {i + 1} cannot be {card_name(card)}"
                )

    @staticmethod
    def _check_run(pid: str, cards: tuple) -> None:
        for under, over in itertools.pairwise(cards):
            if not BUILD.fits(under, over):
                raise InvalidPosition(
                    f"{pid}: {card_name(over)} cannot lie on {card_name(under)}: "
                    f"face-up cards there build {BUILD.words()}"
                )

    def _check_space(self, pid: str, pile: tuple, odd: bool) -> None:
        down = sum(1 for c in pile if c & FACE_DOWN)
        if odd and down:
            raise InvalidPosition("r2x is dealt one face-up card: it holds no face-down card")
        if pile and pile[-1] & FACE_DOWN:
            raise InvalidPosition(f"the top card of {pid} is face down: it would have been turned up")
        if down > 1 or (down and not pile[0] & FACE_DOWN):
            raise InvalidPosition(f"{pid}: a space holds at most one face-down card, at its bottom")
        self._check_run(pid, pile[down:])

    def _check_deck(self, pid: str, pile: tuple, base: int) -> None:
        if base == DRAW:
            if len(pile) > DECK_SIZE:
                raise InvalidPosition(
                    f"{pid} holds {len(pile)} cards: a deck in draw mode holds at most {DECK_SIZE}"
                )
            return
        if base >= len(pile):
            raise InvalidPosition(
                f"{pid}'s base index {shown(base)} is beyond its {len(pile)} cards "
                "(a built deck whose base has left is back in draw mode)"
            )
        if base >= DECK_SIZE:
            raise InvalidPosition(
                f"{pid}'s base index is {shown(base)}: at most {DECK_SIZE - 1} cards lie beneath a base"
            )
        built = pile[base:]
        if any(c & FACE_DOWN for c in built):
            raise InvalidPosition(f"{pid}: the base of a built deck and every card on it lie face up")
        self._check_run(pid, built)

    # ------------------------------------------------------------ solver
    def key(self, state: State):
        """Spaces of one row play alike, and so do foundations: each taken as a sorted tuple.
        r2x (it never refills) and the decks (each tied to its row) keep their places."""
        piles = state.piles
        rows = tuple(tuple(sorted(piles[s] for s in SPACES if ROW[s] == r)) for r in range(1, ROWS + 1))
        return (
            tuple(sorted(piles[f] for f in F)),
            rows,
            piles[R2X],
            tuple(piles[d] for d in DECKS),
            state.extra,
        )

    # ------------------------------------------------------------ display
    def format(self, state: State) -> str:
        """The engine's text board, with each built deck shown as the player sees it: the
        number of cards hidden beneath its base, then the built pile."""
        lines = super().format(state).split("\n")
        for pid, d, base in zip(DECK_IDS, DECKS, state.extra):
            if base != DRAW:
                built = " ".join(card_name(c) for c in state.piles[d][base:])
                at = next(i for i, line in enumerate(lines) if line.startswith(pid + ":"))
                lines[at] = f"{pid + ':':<5} built on {base} hidden card{'s' * (base != 1)}: {built}"
        return "\n".join(lines)

    def place_name(self, pile_id: str) -> str:
        """A space by its row ("a space in row 2"), a deck as the deck of its row."""
        row = _row_of(pile_id)
        if pile_id in DECK_IDS:
            return f"the deck in row {row}"
        if self.pile_kinds.get(pile_id) == "space":
            return f"a space in row {row}"
        return super().place_name(pile_id)

    def layout(self) -> Layout:
        """Foundations on top (row 0), then rows 1..3: five spaces fanned down, the row's deck
        fanned right beside them, and r2x to the right of the decks in row 2."""
        fan_room, deck_room = 1.0, 3.0  # a row grows as its fans grow (geometry.row_shifts)
        step = 1 + PILE_GAP
        row_height = CARD_ASPECT + fan_room
        rows_y = CARD_ASPECT + ROW_GAP  # row 1's top, below the foundations
        deck_x = COLUMNS * step + 0.35
        r2x_x = deck_x + deck_room + 0.35
        piles: list[PileLayout] = []

        def add(pid, x, y, fan, empty):
            piles.append({**pile_layout(pid, self.pile_kinds[pid], x, y, fan, empty), "row": _row_of(pid)})

        for i, pid in enumerate(FOUNDATION_IDS):
            add(pid, i * step, 0, "none", "A")
        for pid in SPACE_IDS:
            row, col = int(pid[1]), int(pid[3])
            add(pid, (col - 1) * step, rows_y + (row - 1) * row_height, "down", "K")
        for pid in DECK_IDS:  # a deck spans the row of five it lies beneath on narrow screens
            add(pid, deck_x, rows_y + (int(pid[1]) - 1) * row_height, "right", "")
            piles[-1]["span"] = round(COLUMNS * step - PILE_GAP, 3)
        add("r2x", r2x_x, rows_y + row_height, "down", "×")
        return {
            "width": round(r2x_x + 1, 3),
            "height": round(rows_y + ROWS * row_height, 3),
            "piles": piles,
            "narrower": [self._narrow_layout(piles)],
        }

    @staticmethod
    def _narrow_layout(piles: list[PileLayout]) -> Arrangement:
        """For narrow screens: each row's deck beneath its five spaces (r2x beside deck 2),
        so that the board is as wide as a row of five."""
        step = 1 + PILE_GAP
        rows_y = CARD_ASPECT + ROW_GAP
        spaces_height = CARD_ASPECT + 1.0  # a row's spaces, with room to fan
        block = spaces_height + CARD_ASPECT + ROW_GAP + 0.3  # then its deck, and a caption's room
        places = {}
        for pile in piles:
            pid, row = pile["id"], pile["row"]
            top = rows_y + (row - 1) * block
            if pile["kind"] == "foundation":
                places[pid] = [pile["x"], 0]
            elif pid in DECK_IDS or pid == "r2x":
                places[pid] = [
                    (COLUMNS - 1) * step if pid == "r2x" else 0,
                    round(top + spaces_height + 0.3, 3),
                ]
            else:
                places[pid] = [pile["x"], round(top, 3)]
        height = rows_y + ROWS * block
        return {"width": round(COLUMNS * step - PILE_GAP, 3), "height": round(height, 3), "places": places}
