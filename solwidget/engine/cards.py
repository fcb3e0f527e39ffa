"""Cards as small ints, with the notation of docs/rules.md.

A card is ``suit << 4 | rank`` (rank 1..13, suit 0..3 for C D H S); bit 6 marks a
face-down card. Cards of equal rank and suit are equal, which is exactly how the rules
treat the several decks of a multi-deck game.
"""

from .checks import shown

RANKS = "A23456789TJQK"
SUITS = "CDHS"
FACE_DOWN = 64
BACK = "back"  # what a player sees of a card face down, or hidden by the rules
ACE, KING = 1, 13
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # by suit: the two suits of the other colour

_SUIT_GLYPHS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def make_card(rank: int, suit: int) -> int:
    return suit << 4 | rank


def rank_of(card: int) -> int:
    return card & 15


def suit_of(card: int) -> int:
    return card >> 4 & 3


def is_red(card: int) -> bool:
    return (card >> 4 & 3) in (1, 2)


def is_face_down(card: int) -> bool:
    return card & FACE_DOWN != 0


def face_up(card: int) -> int:
    return card & ~FACE_DOWN


def face_down(card: int) -> int:
    return card | FACE_DOWN


def card_name(card: int) -> str:
    """``"QH"``, or ``"[QH]"`` for a face-down card."""
    name = RANKS[(card & 15) - 1] + SUITS[card >> 4 & 3]
    return f"[{name}]" if card & FACE_DOWN else name


def seen_codes(cards: tuple[int, ...], hidden: int = 0) -> list[str]:
    """A pile's cards as a player sees them: codes, the ``hidden`` lowest cards and every
    face-down one as ``BACK``."""
    return [BACK if i < hidden or c & FACE_DOWN else card_name(c) for i, c in enumerate(cards)]


def deck(decks: int = 1) -> list[int]:
    """Every card of ``decks`` decks, face up, in suit-then-rank order."""
    return [make_card(r, s) for _ in range(decks) for s in range(4) for r in range(1, 14)]


def parse_card(text: str) -> int:
    """Read ``"QH"``, ``"10D"``, ``"Q♥"`` or a face-down ``"[QH]"``; ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'QH', not {shown(text)}")
    body = text.strip()
    down = body.startswith("[") and body.endswith("]")
    if down:
        body = body[1:-1].strip()
    body = body.upper()
    if body[:2] == "10":
        body = "T" + body[2:]
    if len(body) == 2:
        r, s = body[0], _SUIT_GLYPHS.get(body[1], body[1])
        if r in RANKS and s in SUITS:
            card = make_card(RANKS.index(r) + 1, SUITS.index(s))
            return face_down(card) if down else card
    raise ValueError(
        f"malformed card {shown(text)}: expected a rank of {RANKS} and a suit of {SUITS}, like 'QH' or '[QH]'"
    )


def describe(card: int) -> str:
    """``"queen of hearts"``: for explanations and ARIA labels."""
    names = [
        "ace",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "jack",
        "queen",
        "king",
    ]
    suits = ["clubs", "diamonds", "hearts", "spades"]
    return f"{names[rank_of(card) - 1]} of {suits[suit_of(card)]}"
