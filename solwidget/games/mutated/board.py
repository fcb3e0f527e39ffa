"""Mutated Solitaire's board: its piles, rows and the tables the rules read.

Piles, in ``PILE_IDS`` order: foundations ``f0..f3`` (row 0), the spaces ``r1c1..r3c5``,
the odd space ``r2x`` (row 2), the decks ``d1..d3`` (deck dN in row N).
"""

from __future__ import annotations

from ...engine.cards import FACE_DOWN, KING, card_name, deck
from ...engine.moves import Move
from ...engine.patience import Build

ROWS, COLUMNS, DECK_SIZE = 3, 5, 7
DRAW = -1  # a deck's mode in draw mode; otherwise its base index
BUILD = Build(-1, "alternate")  # spaces and built decks build down in alternating colours

FOUNDATION_IDS = tuple(f"f{i}" for i in range(4))
SPACE_IDS = tuple(f"r{r}c{c}" for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1))
DECK_IDS = tuple(f"d{r}" for r in range(1, ROWS + 1))
PILE_IDS = FOUNDATION_IDS + SPACE_IDS + ("r2x",) + DECK_IDS

F = tuple(range(4))
SPACES = tuple(range(4, 4 + len(SPACE_IDS)))  # r1c1..r3c5
R2X = 4 + len(SPACE_IDS)
DECKS = (R2X + 1, R2X + 2, R2X + 3)  # d1, d2, d3
ALL_SPACES = frozenset(SPACES + (R2X,))


def _row_of(pid: str) -> int:
    return 0 if pid[0] == "f" else int(pid[1])


ROW = tuple(_row_of(pid) for pid in PILE_IDS)
# The spaces of rows 1, 2 and 3, as slices of the piles (the solver reads a row at once).
ROW_SLICES = tuple(slice(SPACES[0] + COLUMNS * r, SPACES[0] + COLUMNS * (r + 1)) for r in range(ROWS))
assert all(ROW[i] == r + 1 for r, part in enumerate(ROW_SLICES) for i in range(part.start, part.stop))
NEIGHBOUR_ROWS = {r: tuple(n for n in (r - 1, r + 1) if 0 <= n <= ROWS) for r in range(ROWS + 1)}
# The cards on which each card may be built: one rank higher, of the other colour.
PARENTS = {card: tuple(p for p in deck() if BUILD.fits(p, card)) for card in deck()}

# Tables for the move generator (moves.py), which runs once per position the solver expands.
# FITS[under][over]: may ``over`` lie on ``under`` in a run? Never on a face-down card.
FITS = [[not under & FACE_DOWN and BUILD.fits(under, over) for over in range(128)] for under in range(128)]
GIVERS = tuple(
    (s, NEIGHBOUR_ROWS[ROW[s]], s - DECKS[0] if s in DECKS else None) for s in SPACES + (R2X,) + DECKS
)
# The moves themselves, made once: MOVES[src][dst][n] counts cards; CARD_MOVES names a card.
MOVES = [[[Move(a, b, n) for n in range(DECK_SIZE + KING)] for b in PILE_IDS] for a in PILE_IDS]
CARD_MOVES = {
    (a, b, card): Move(PILE_IDS[a], PILE_IDS[b], 1, card_name(card))
    for a in DECKS
    for b in range(len(PILE_IDS))
    for card in deck()
}
BUILD_MOVES = {d: Move(PILE_IDS[d], "build") for d in DECKS}
CARD_BY_NAME = {card_name(card): card for card in deck()}
PARENTS_OF = [PARENTS.get(card, ()) for card in range(64)]  # PARENTS as a list, by card


def run_length(pile: tuple, floor: int = 0) -> int:
    """How many top cards of ``pile`` (not below index ``floor``) form a movable run."""
    if len(pile) <= floor or pile[-1] & FACE_DOWN:
        return 0
    n = 1
    fits = FITS
    while len(pile) - n > floor and fits[pile[-n - 1]][pile[-n]]:
        n += 1
    return n


def flip(cards: tuple) -> tuple:
    """Turn a deck over as a whole: order reversed, every face inverted."""
    return tuple(c ^ FACE_DOWN for c in reversed(cards))
