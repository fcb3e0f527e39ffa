"""Mutated Solitaire's dead ends in card words: which card can never go home, and why.

When the coach's closure of deadends.py (``strict_closure``) leaves a card short of home, the
first such card c of the lowest rank is named (its suit's cards below it do go home, as far as
the closure knows), with the closure's reason at its fixed point. c goes home only from the top
of a pile of row 1 (or out of d1 in draw mode), so one of these holds:
- c never moves at all: it lies face down under a card (or hidden under a built deck's base)
  that never leaves it (``UNDER``), or face down in a deck that no flip or move uncovers
  (``IN_DECK``);
- c reaches row 1 but a card lying on it never leaves it (``COVERED``);
- c never climbs past row r: it gets to row r - 1 only onto one of its two hosts topping a
  pile there, and neither ever does; a King only into an empty space, and none of row r - 1
  ever empties (``CLIMB``).
Each sentence is a fact of the closure's fixed point, so true of every continuation. In deal
901, A♣ lies in row 2 on 2♥ and A♠ in row 3 on 2♦, both Twos face down: each Ace climbs only
onto a red Two, and each Two stays under an Ace that never leaves it. The tests check each
sentence against every position reachable from small positions (``COVERED`` does not arise
there: a card whose guest never leaves it has, as a rule, a lower card that never goes home,
and that one is named).
"""

from __future__ import annotations

from ...engine.cards import FACE_DOWN, KING, card_name
from ...engine.words import card_words
from ...solver.why import DeadEnd
from .board import DECKS, DRAW, PARENTS_OF, PILE_IDS, ROW
from .deadends import EVERY_CARD, strict_closure

UNDER = "a card under one that never leaves it"
IN_DECK = "a card face down in a deck that never uncovers it"
COVERED = "a card under one that never leaves it, in row 1"
CLIMB = "a card that can never climb nearer home"


def _words(card: int) -> str:
    return card_words(card_name(card))


def _where(piles, card: int) -> tuple[int, int]:
    """(pile index, index in it) of ``card`` in the position."""
    for i, pile in enumerate(piles):
        for k, c in enumerate(pile):
            if c & 63 == card:
                return i, k
    raise ValueError(f"{card_name(card)} is nowhere")


def reason(state, closure=None) -> tuple | None:
    """The closure's reason why ``state`` is lost: (kind, the card that never goes home, the
    cards it names, the row r of a CLIMB: the card never gets to row r - 1), or None.
    ``closure``: ``strict_closure`` of the state, if made already."""
    piles, modes = state.piles, state.extra
    reach, free, _bare, _moved, _left = closure or strict_closure(piles, modes)
    if reach[0] == EVERY_CARD:
        return None
    missing = [c for c in _cards() if not reach[0] >> c & 1 and (c & 15 == 1 or reach[0] >> (c - 1) & 1)]
    card = min(missing, key=lambda c: (c & 15, c))
    i, k = _where(piles, card)
    pile = piles[i]
    if not free >> card & 1:
        if i in DECKS:
            base = modes[DECKS.index(i)]
            if base != DRAW and k < base:
                return UNDER, card, (pile[base] & 63,), None
            return IN_DECK, card, (), None
        return UNDER, card, (pile[k + 1] & 63,), None
    if reach[1] >> card & 1:
        return COVERED, card, (pile[k + 1] & 63,), None
    row = min(r for r in (1, 2, 3) if reach[r] >> card & 1)
    hosts = () if card & 15 == KING else tuple(h & 63 for h in PARENTS_OF[card])
    return CLIMB, card, hosts, row


def _cards():
    return [suit << 4 | rank for suit in range(4) for rank in range(1, KING + 1)]


def explain_dead_end(state) -> DeadEnd | None:
    """The coach's closure's reason why no win exists from ``state``, in card words, or None."""
    piles, modes = state.piles, state.extra
    closure = strict_closure(piles, modes)
    found = reason(state, closure)
    if found is None:
        return None
    kind, card, others, row = found
    reach, free, bare, _moved, left = closure
    name = _words(card)
    if kind == UNDER:
        head = others[0]
        text = (
            f"{name} can never go home: it lies face down under {_words(head)}, which never leaves it "
            f"({_ways(head, piles, reach, free, bare, left)})."
        )
    elif kind == IN_DECK:
        deck = PILE_IDS[_where(piles, card)[0]]
        text = (
            f"{name} can never go home: it lies face down in {deck}, which is never flipped, under "
            f"cards that never all leave it."
        )
    elif kind == COVERED:
        guest = others[0]
        text = (
            f"{name} can never go home: it goes home only from the top of a pile, and {_words(guest)} "
            f"lies on it and never leaves it ({_ways(guest, piles, reach, free, bare, left)})."
        )
    elif others:
        a, b = others
        text = (
            f"{name} can never go home: it never gets nearer than row {row}, since it climbs to row "
            f"{row - 1} only onto {_words(a)} or {_words(b)} topping a pile there, and neither ever does "
            f"({_why_not_host(a, row - 1, piles, reach, free, bare, left)}; "
            f"{_why_not_host(b, row - 1, piles, reach, free, bare, left)})."
        )
    else:
        text = (
            f"{name} can never go home: it never gets nearer than row {row}, since a King climbs only "
            f"into an empty space, and no space of row {row - 1} ever empties."
        )
    return DeadEnd(kind, text, tuple(card_name(c) for c in (card, *others)))


def neighbour_rows(card: int, piles) -> tuple[int, ...]:
    """The rows of spaces next to the row where ``card`` lies."""
    row = ROW[_where(piles, card)[0]]
    return tuple(r for r in (row - 1, row + 1) if 1 <= r <= 3)


def _ways(card: int, piles, reach, free, bare, left) -> str:
    """Why ``card``, free to move, never leaves its place: its ways out, none ever open."""
    rank = card & 15
    if rank != 1 and not reach[0] >> (card - 1) & 1:
        home = f"it goes home only after {_words(card - 1)}, which never does"
    else:
        home = "it never goes home"
    rows = " or ".join(f"row {r}" for r in neighbour_rows(card, piles))
    if not free >> card & 1:
        return f"{home}, and it never comes free to move"
    if rank == KING:
        return f"{home}; a King moves only into an empty space, and no space of {rows} ever empties"
    a, b = (h & 63 for h in PARENTS_OF[card])
    return f"{home}; neither {_words(a)} nor {_words(b)} ever tops a pile in {rows}"


def _why_not_host(host: int, row: int, piles, reach, free, bare, left) -> str:
    """Why ``host`` never tops a pile of ``row``, in the closure's terms: a host found there,
    free and bare, would have taken the card."""
    name = _words(host)
    i, k = _where(piles, host)  # not free: under a head in a space, or deep in a deck
    if not free >> host & 1:
        if i not in DECKS:
            return f"{name} stays face down under {_words(piles[i][k + 1] & 63)}"
        return f"{name} stays {'face down' if piles[i][k] & FACE_DOWN else 'hidden'} in {PILE_IDS[i]}"
    under = (
        "" if bare >> host & 1 else f"{name} lies under {_words(piles[i][k + 1] & 63)}, which never leaves it"
    )
    if not reach[row] >> host & 1:
        return f"{under}, and never gets to row {row}" if under else f"{name} never gets to row {row}"
    return under
