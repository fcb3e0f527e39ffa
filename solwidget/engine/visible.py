"""What a player at the table sees of a position: each pile as card codes (``"QH"``), a
face-down card, or a card that the rules hide although it lies face up, as ``"back"``.

The SVG picture of a state and the widget both draw from this, so neither can show a card
that the player may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import FACE_DOWN, card_name

if TYPE_CHECKING:               # the picture of a state (State._repr_svg_) draws with this module
    from .state import Pile, State

BACK = "back"


def extras_of(state: State) -> dict[str, object]:
    """The game-specific part of ``to_dict`` (stock passes used, deck modes), without the piles."""
    d = state.to_dict()
    return {k: v for k, v in d.items() if k not in ("game", "piles", "options")}


def hidden_below(state: State) -> dict[str, int]:
    """Piles whose lowest cards the rules hide although face up: pile id -> how many.

    A game says so in its position data, as a pile entry with a ``base`` index (Mutated
    Solitaire's decks in built mode hide the cards beneath their base).
    """
    hidden = {}
    for value in extras_of(state).values():
        if isinstance(value, dict):
            for pid, entry in value.items():
                if isinstance(entry, dict) and isinstance(entry.get("base"), int):
                    hidden[pid] = entry["base"]
    return hidden


def visible_pile(cards: Pile, hidden: int = 0) -> list[str]:
    """One pile's cards as codes, the ``hidden`` lowest ones and every face-down one as backs."""
    return [BACK if i < hidden or c & FACE_DOWN else card_name(c) for i, c in enumerate(cards)]


def visible_piles(state: State) -> dict[str, list[str]]:
    """Every pile as the player sees it: face-down and hidden cards as ``"back"``."""
    hidden = hidden_below(state)
    return {pid: visible_pile(cards, hidden.get(pid, 0))
            for pid, cards in zip(state.game.pile_ids, state.piles)}
