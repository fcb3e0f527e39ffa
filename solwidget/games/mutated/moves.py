"""Mutated Solitaire's moves and their positions, made straight from the piles.

``plans`` yields the engine's moves (rules.py, ``iter_moves``) in the engine's order,
less the key-equal duplicates that MutatedExpander skips anyway (a King or a run headed by
one goes only to the first empty space of each row, an Ace only to the first empty
foundation), each with the pile indices that ``apply`` needs: no Move is read back into
piles, and no position is made for a move skipped. ``apply`` is the engine's ``apply_legal`` on
those indices. Both work on piles as tuples (the engine's) or as bytes, which the search
uses (MutatedExpander.start): bytes keep their hash, so the keys, the dead-end test's
caches and the score's hash each pile once, and they slice quicker. The engine stays the
judge: every win is replayed through ``State.play`` (search.py), and
tests/test_solver_mutated.py compares these moves and positions with the engine's.
"""

from __future__ import annotations

from ...engine.cards import ACE, FACE_DOWN, KING
from .rules import (ALL_SPACES, BUILD_MOVES, CARD_MOVES, DECKS, DRAW, F, GIVERS, MOVES, PARENTS_OF,
                             R2X, ROW, SPACES, _flip, _run_length)

BUILD = -1                          # the destination of "dN build"
D1 = DECKS[0]
FACE_UP_BYTES = [bytes((card & ~FACE_DOWN,)) for card in range(128)]
FLIP_BYTES = bytes(card ^ FACE_DOWN for card in range(256))       # a face inverted, as a table


def _open_piles(piles, modes):
    """What may take cards: per row, the top card of every pile that may be built on (card
    -> pile index) and the first empty space; the card each foundation wants next (card ->
    foundation) and the first empty foundation."""
    tops, first_empty = ({}, {}, {}, {}), [None] * 4
    for s in SPACES:
        pile = piles[s]
        if pile:
            tops[ROW[s]][pile[-1]] = s
        elif first_empty[ROW[s]] is None:
            first_empty[ROW[s]] = s
    if piles[R2X]:                      # r2x takes cards while it holds some, never once emptied
        tops[2][piles[R2X][-1]] = R2X
    for d, base in zip(DECKS, modes):
        if base != DRAW:
            tops[ROW[d]][piles[d][-1]] = d
    wanted, empty_foundation = {}, None
    for f in F:
        pile = piles[f]
        if not pile:
            if empty_foundation is None:
                empty_foundation = f
        elif pile[-1] & 15 != KING:
            wanted[pile[-1] + 1] = f
    return tops, first_empty, wanted, empty_foundation


HEADS_KEPT = 100_000         # piles whose run heads _run_heads keeps
_heads: dict = {}


def _heads_of(pile, floor=0) -> tuple:
    """The cards that may head a run leaving ``pile`` (not below index ``floor``): its top
    card, then down."""
    return tuple(pile[-n] for n in range(1, _run_length(pile, floor) + 1))


def _run_heads(pile) -> tuple:
    """``_heads_of`` a space or r2x, kept by pile (most piles stay as they are)."""
    heads = _heads.get(pile)
    if heads is None:
        if len(_heads) >= HEADS_KEPT:
            _heads.clear()
        heads = _heads[pile] = _heads_of(pile)
    return heads


def plans(piles, modes):
    """(move, source, destination or BUILD, cards counted from the top, the card named or
    None) for each move kept, in the engine's order."""
    tops, first_empty, wanted, empty_foundation = _open_piles(piles, modes)
    for src, rows, deck_at in GIVERS:
        pile = piles[src]
        if not pile:
            continue
        mode = None if deck_at is None else modes[deck_at]
        if mode == DRAW:                # any face-up card, alone and by name
            yield BUILD_MOVES[src], src, BUILD, 1, None
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
                        dst = first_empty[row]
                        if dst is not None and card & 15 == KING:
                            yield CARD_MOVES[src, dst, card], src, dst, 1, card
                    else:
                        dst = empty_foundation if card & 15 == ACE else wanted.get(card)
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
                    dst = first_empty[row]
                    if dst is not None and head & 15 == KING:
                        yield moves[dst][n], src, dst, n, None
                elif n == 1:
                    dst = empty_foundation if head & 15 == ACE else wanted.get(head)
                    if dst is not None:
                        yield moves[dst][1], src, dst, 1, None
    row_tops, dst_empty = tops[1], first_empty[1]
    for f in F:
        pile = piles[f]
        if pile:
            card, moves = pile[-1], MOVES[f]
            for host in PARENTS_OF[card]:
                dst = row_tops.get(host)
                if dst is not None:
                    yield moves[dst][1], f, dst, 1, None
            if dst_empty is not None and card & 15 == KING:
                yield moves[dst_empty][1], f, dst_empty, 1, None


def _face_up_top(pile):
    """``pile`` with its top card turned face up."""
    if type(pile) is bytes:
        return pile[:-1] + FACE_UP_BYTES[pile[-1]]
    return pile[:-1] + (pile[-1] & ~FACE_DOWN,)


def _flipped(pile):
    """A deck turned over as a whole (rules.py, ``_flip``)."""
    return pile[::-1].translate(FLIP_BYTES) if type(pile) is bytes else _flip(pile)


def apply(piles, modes, src, dst, n, card):
    """The piles and deck modes after a plan's move (rules.py, ``apply_legal``)."""
    new = list(piles)
    pile = piles[src]
    if dst == BUILD:
        new[src] = _face_up_top(pile)
        modes = list(modes)
        modes[src - D1] = len(pile) - 1
        return tuple(new), tuple(modes)
    if card is None:
        moving, left = pile[-n:], pile[:-n]
    else:
        i = pile.index(card)
        moving, left = pile[i:i + 1], pile[:i] + pile[i + 1:]
    new[dst] = piles[dst] + moving
    flip_rows = ()
    if src in ALL_SPACES:
        if left and left[-1] & FACE_DOWN:
            left = _face_up_top(left)
            if left[-1] & 15 == KING:
                flip_rows = (ROW[src],)
    elif src >= D1 and modes[src - D1] == len(left):
        modes = list(modes)
        modes[src - D1] = DRAW      # the base has left: the deck is back in draw mode
        modes = tuple(modes)
    new[src] = left
    if dst in ALL_SPACES and moving[0] & 15 == KING:
        flip_rows += (ROW[dst],)
    for row in flip_rows:
        deck = DECKS[row - 1]
        if modes[row - 1] == DRAW and new[deck]:
            new[deck] = _flipped(new[deck])
    return tuple(new), modes
