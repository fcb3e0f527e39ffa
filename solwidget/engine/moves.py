"""Moves and their text notation (docs/rules.md: "SRC DST", "SRC DST N", "d2 r1c3 QH")."""

import operator
from typing import NamedTuple

from .cards import card_name, face_up, parse_card
from .checks import is_whole, shown
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


MOVE_ACCEPTED = "text like 't3 f0', 't3 t5 4' or 'd2 r1c3 QH', or a Move"
MAX_COUNT_DIGITS = 6  # a card count is short: longer digits are refused before int() reads them


def parse_move_text(text: object) -> Move:
    """Move text or a Move, normalised: the one way into the rules for both. Checks the
    fields' types and forms; the game then checks the pile ids and the count's range.

    A card may be written in any accepted spelling ("QH", "qh", "Q♥", "[QH]", "10H"); the
    Move returned names it one way, face up ("QH"), so that text and Move play alike and a
    refusal never depends on how a card was written."""
    if isinstance(text, Move):
        return _normal(text, text)
    if not isinstance(text, str):
        raise InvalidMoveText(f"a move is {MOVE_ACCEPTED}, not {shown(text)}")
    words = text.split()
    if len(words) not in (2, 3):
        raise InvalidMoveText(
            f"malformed move {shown(text)}: expected 'SRC DST' or 'SRC DST N' (like 't3 f0' or 't3 t5 4')"
        )
    if len(words) == 2:
        return _normal(Move(words[0], words[1]), text)
    third = words[2]
    if third.isascii() and third.isdigit():
        if len(third) > MAX_COUNT_DIGITS:
            raise InvalidMoveText(
                f"malformed move {shown(text)}: a card count of {len(third):,} digits "
                "is more cards than any game has"
            )
        return _normal(Move(words[0], words[1], int(third)), text)
    return _normal(Move(words[0], words[1], 1, third), text)


def _normal(move: Move, given: object) -> Move:
    """``move`` with its fields checked and its card named face up in the one spelling."""
    src, dst, count, card = move
    if not is_whole(count) or operator.index(count) < 1:
        raise InvalidMoveText(
            f"malformed move {shown(given)}: the number of cards must be a whole number >= 1, "
            f"not {shown(count)}"
        )
    n = operator.index(count)
    if card is not None:
        try:
            card = card_name(face_up(parse_card(card)))
        except ValueError as err:
            raise InvalidMoveText(
                f"malformed move {shown(given)}: the third word must be a card count or a card: {err}"
            ) from None
    return Move(src, dst, n, card)
