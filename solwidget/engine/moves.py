"""Moves and their text notation (docs/rules.md: "SRC DST", "SRC DST N", "d2 r1c3 QH")."""

from typing import NamedTuple

from .cards import card_name, parse_card
from .errors import InvalidMoveText


class Move(NamedTuple):
    """Take the top ``n`` cards of ``src`` to ``dst``; ``dst`` may name an action.

    ``card`` names a card taken from inside a pile (Mutated Solitaire's decks) instead of
    counting from the top. ``str(move)`` is its text, which ``game.parse_move`` and
    ``state.play`` read back: ``"t3 f0"``, ``"t3 t5 4"``, ``"stock waste"``, ``"d2 r1c3 QH"``.

    Examples:
        >>> str(sw.Move("t3", "t5", 4))
        't3 t5 4'
        >>> sw.load_game("freecell").parse_move("t3 t5 4") == sw.Move("t3", "t5", 4)
        True
    """

    src: str
    dst: str
    n: int = 1
    card: str | None = None

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.src} {self.dst} {self.card}"
        if self.n != 1:
            return f"{self.src} {self.dst} {self.n}"
        return f"{self.src} {self.dst}"


def parse_move_text(text: str) -> Move:
    """Split move text into a Move; the game checks the pile ids."""
    if isinstance(text, Move):
        return text
    if not isinstance(text, str):
        raise InvalidMoveText(f"a move is text like 't3 f0', not {type(text).__name__}")
    words = text.split()
    if len(words) not in (2, 3):
        raise InvalidMoveText(
            f"malformed move {text!r}: expected 'SRC DST' or 'SRC DST N' (like 't3 f0' or 't3 t5 4')")
    src, dst = words[0], words[1]
    if len(words) == 2:
        return Move(src, dst)
    third = words[2]
    if third.isascii() and third.isdigit():
        n = int(third)
        if n < 1:
            raise InvalidMoveText(f"malformed move {text!r}: the number of cards must be at least 1")
        return Move(src, dst, n)
    try:
        card = parse_card(third)
    except ValueError:
        raise InvalidMoveText(
            f"malformed move {text!r}: the third word must be a card count or a card like 'QH'") from None
    return Move(src, dst, 1, card_name(card & ~64))
