"""Mutated Solitaire's moves and their positions: the rules' one move generator.

``plans`` yields every legal move (``every=True``: the engine's ``iter_moves``), or all but
the key-equal duplicates that the solver skips anyway (a King or a run headed by one goes
only to the first empty space of each row, an Ace only to the first empty foundation),
each with the pile indices that ``apply`` needs, so that the solver reads no Move back into
piles and makes no position for a move skipped. ``apply`` makes the position after a move
(the engine's ``apply_legal``). Both work on piles as tuples (the engine's) or as bytes,
which the search uses (expander.py): bytes keep their hash, so the keys, the dead-end
test's caches and the score hash each pile once, and they slice quicker. The rules'
refusals (rules.py, ``_refusal``) are a second, independent encoding: the tests check that
the two agree on every move.
"""

from __future__ import annotations

from ...engine.cards import ACE, FACE_DOWN, KING
from .board import (
    ALL_SPACES,
    BUILD_MOVES,
    CARD_MOVES,
    DECKS,
    DRAW,
    GIVERS,
    MOVES,
    PARENTS_OF,
    R2X,
    ROW,
    SPACES,
    F,
    flip,
    run_length,
)

BUILD_ACTION = -1  # the destination of "dN build"
D1 = DECKS[0]
FACE_UP_BYTES = [bytes((card & ~FACE_DOWN,)) for card in range(128)]
FLIP_BYTES = bytes(card ^ FACE_DOWN for card in range(256))  # a face inverted, as a table


def _open_piles(piles, modes, every):
    """What may take cards: per row, the top card of every pile that may be built on (card
    -> pile index) and the empty spaces; the card each foundation wants next (card ->
    foundation) and the empty foundations. Unless ``every``, only the first empty space of
    a row and the first empty foundation: the others give key-equal positions."""
    tops: tuple[dict[int, int], ...] = ({}, {}, {}, {})  # per row: top card -> its pile
    empty: tuple[list[int], ...] = ([], [], [], [])
    for s in SPACES:
        pile = piles[s]
        if pile:
            tops[ROW[s]][pile[-1]] = s
        elif every or not empty[ROW[s]]:
            empty[ROW[s]].append(s)
    if piles[R2X]:  # r2x takes cards while it holds some, never once emptied
        tops[2][piles[R2X][-1]] = R2X
    for d, base in zip(DECKS, modes):
        if base != DRAW:
            tops[ROW[d]][piles[d][-1]] = d
    wanted: dict[int, int] = {}
    empty_foundations: list[int] = []
    for f in F:
        pile = piles[f]
        if not pile:
            if every or not empty_foundations:
                empty_foundations.append(f)
        elif pile[-1] & 15 != KING:
            wanted[pile[-1] + 1] = f
    return tops, empty, wanted, empty_foundations


HEADS_KEPT = 100_000  # piles whose run heads _run_heads keeps
_heads: dict = {}


def _heads_of(pile, floor=0) -> tuple:
    """The cards that may head a run leaving ``pile`` (not below index ``floor``): its top
    card, then down."""
    return tuple(pile[-n] for n in range(1, run_length(pile, floor) + 1))


def _run_heads(pile) -> tuple:
    """``_heads_of`` a space or r2x, kept by pile (most piles stay as they are)."""
    heads = _heads.get(pile)
    if heads is None:
        if len(_heads) >= HEADS_KEPT:
            _heads.clear()
        heads = _heads[pile] = _heads_of(pile)
    return heads


def plans(piles, modes, every=False):
    """(move, source, destination or BUILD_ACTION, cards counted from the top, the card
    named or None) for each legal move, or each but the key-equal duplicates (above)."""
    tops, empty, wanted, empty_foundations = _open_piles(piles, modes, every)
    for src, rows, deck_at in GIVERS:
        pile = piles[src]
        if not pile:
            continue
        mode = None if deck_at is None else modes[deck_at]
        if mode == DRAW:  # any face-up card, alone and by name
            yield BUILD_MOVES[src], src, BUILD_ACTION, 1, None
            for card in pile:
                if card & FACE_DOWN:
                    continue
                for row in rows:
                    if row:
                        row_tops = tops[row]
                        for host in PARENTS_OF[card]:
                            dst = row_tops.get(host)
                            if dst is not None:
                                yield CARD_MOVES[src, dst, card], src, dst, 1, card
                        if card & 15 == KING:
                            for dst in empty[row]:
                                yield CARD_MOVES[src, dst, card], src, dst, 1, card
                    elif card & 15 == ACE:
                        for dst in empty_foundations:
                            yield CARD_MOVES[src, dst, card], src, dst, 1, card
                    else:
                        dst = wanted.get(card)
                        if dst is not None:
                            yield CARD_MOVES[src, dst, card], src, dst, 1, card
            continue
        moves = MOVES[src]
        for n, head in enumerate(_run_heads(pile) if mode is None else _heads_of(pile, mode), 1):
            for row in rows:
                if row:
                    row_tops = tops[row]
                    for host in PARENTS_OF[head]:
                        dst = row_tops.get(host)
                        if dst is not None:
                            yield moves[dst][n], src, dst, n, None
                    if head & 15 == KING:
                        for dst in empty[row]:
                            yield moves[dst][n], src, dst, n, None
                elif n == 1:
                    if head & 15 == ACE:
                        for dst in empty_foundations:
                            yield moves[dst][1], src, dst, 1, None
                    else:
                        dst = wanted.get(head)
                        if dst is not None:
                            yield moves[dst][1], src, dst, 1, None
    row_tops, row_empty = tops[1], empty[1]
    for f in F:
        pile = piles[f]
        if pile:
            card, moves = pile[-1], MOVES[f]
            for host in PARENTS_OF[card]:
                dst = row_tops.get(host)
                if dst is not None:
                    yield moves[dst][1], f, dst, 1, None
            if card & 15 == KING:
                for dst in row_empty:
                    yield moves[dst][1], f, dst, 1, None


def _face_up_top(pile):
    """``pile`` with its top card turned face up."""
    if type(pile) is bytes:
        return pile[:-1] + FACE_UP_BYTES[pile[-1]]
    return pile[:-1] + (pile[-1] & ~FACE_DOWN,)


def _flipped(pile):
    """A deck turned over as a whole (board.py's ``flip``, for bytes too)."""
    return pile[::-1].translate(FLIP_BYTES) if type(pile) is bytes else flip(pile)


def apply(piles, modes, src, dst, n, card):
    """The piles and deck modes after a legal move, given as a plan gives it."""
    new = list(piles)
    pile = piles[src]
    if dst == BUILD_ACTION:
        new[src] = _face_up_top(pile)
        modes = list(modes)
        modes[src - D1] = len(pile) - 1
        return tuple(new), tuple(modes)
    if card is None:
        moving, left = pile[-n:], pile[:-n]
    else:
        i = pile.index(card)
        moving, left = pile[i : i + 1], pile[:i] + pile[i + 1 :]
    new[dst] = piles[dst] + moving
    flip_rows: tuple[int, ...] = ()
    if src in ALL_SPACES:
        if left and left[-1] & FACE_DOWN:
            left = _face_up_top(left)
            if left[-1] & 15 == KING:
                flip_rows = (ROW[src],)
    elif src >= D1 and modes[src - D1] == len(left):
        modes = list(modes)
        modes[src - D1] = DRAW  # the base has left: the deck is back in draw mode
        modes = tuple(modes)
    new[src] = left
    if dst in ALL_SPACES and moving[0] & 15 == KING:
        flip_rows += (ROW[dst],)
    for row in flip_rows:
        deck = DECKS[row - 1]
        if modes[row - 1] == DRAW and new[deck]:
            new[deck] = _flipped(new[deck])
    return tuple(new), modes
