"""Interlock's dead ends in card words: which card can never go home, and why.

When the plain closure of deadends.py fails at a position, some suit stops short of its
King: the closure never finds its next card c going home. If c lies in the reserve, the
stock turns more than one card at a time (else c goes home as soon as its suit below it
has), and c never comes to the top of the waste: by rule T, too few cards before it leave
the reserve, and not the cards just after it (the first of them that never leaves is
named). Otherwise c lies on the tableau, and by the closure's rule H either
- c's pile is never uncovered: a covering pile of it never empties (followed up to one that
  is uncovered), because its bottom card never finds a way out (home, onto a host, a King
  onto an empty back pile, a dropdown); or
- c is never bare: the card g lying on it never leaves it, since g's ways out (home, onto
  one of its two hosts, a King onto an empty back pile) are never found.
These are the closure's own facts at its fixed point (``DeadEnds.failed``), so each
sentence is true of every continuation (deadends.py's induction): the tests check each
against an exhaustive search of small positions. A position that only a split (of twins,
of Kings, or of a guest and its host) proves dead is left to the proof's summary
(solver/why.py).
"""

from __future__ import annotations

from ...engine.cards import KING, card_name
from ...engine.words import card_words
from ...solver.why import DeadEnd
from . import deadends

KING_STUCK = "a King with no back pile left to go to"  # over the card, never leaving
CARD_STUCK = "a card lying on another with nowhere to go"
COVERED = "a card under piles that never clear"
NEVER_UP = "a card the stock's turns never bring up"
COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _words(card: int) -> str:
    return card_words(card_name(card))


def explain_dead_end(game, state) -> DeadEnd | None:
    """The plain closure's reason why no win exists from ``state``, or None (alive, or
    dead only by a split, or the lemma does not hold for ``game``)."""
    if not deadends.applies(game):
        return None
    test = deadends.DeadEnds(game)
    piles = test.face_up(state.piles)
    if test._closure(piles, test.pair, (), None, test._start(piles)):
        return None
    assert test.failed is not None  # a closure that fails says what it found
    home, pile_of, uncovered, _bare, available, empty, slots, cycle, left = test.failed
    stuck = [suit << 4 | home[suit] + 1 for suit in range(4) if home[suit] < KING]
    stuck.sort(key=lambda card: (card & 15, card))
    card = stuck[0]
    t = pile_of[card]
    shut_out = ", ".join(_words(c) for c in stuck[1:])
    also = f" The same holds for {shut_out}." if shut_out else ""
    if t is None:
        return _never_up(test, card, cycle, left, also)
    if not uncovered[t]:
        over = _stays_over(test, piles, t, uncovered, empty)
        bottom = piles[over][0]
        text = (
            f"{_words(card)} can never go home. It lies in a pile that stays covered: a pile "
            f"above it, with {_words(bottom)} at its bottom, never empties, because {_words(bottom)} "
            f"can never leave ({_ways(test, bottom, home, available, slots)}; and it can drop "
            f"onto no pile below).{also}"
        )
        kind = KING_STUCK if bottom & 15 == KING and not slots else COVERED
        return DeadEnd(kind, text, (card_name(card), card_name(bottom)))
    pile = piles[t]
    guest = pile[pile.index(card) + 1]
    text = (
        f"{_words(card)} can never go home: {_words(guest)} lies on it and can never leave "
        f"({_ways(test, guest, home, available, slots)}).{also}"
    )
    return DeadEnd(CARD_STUCK, text, (card_name(card), card_name(guest)))


def _never_up(test, card: int, cycle, left, also: str) -> DeadEnd:
    """Rule T's reason: the reserve ``card`` never comes up, since too few cards before it
    (by ``left``, the cards of the ``cycle`` found leaving the reserve) and not the cards
    after it leave the reserve (the first after it that never leaves)."""
    x = cycle.index(card)
    before = sum(left[:x])
    blocker = next(c for c, gone in zip(cycle[x + 1 :], left[x + 1 :]) if not gone)
    earlier = (
        "no card before it ever leaves"
        if not before
        else f"only {COUNTS.get(before, before)} card{'s' * (before > 1)} before it ever leave{'s' * (before == 1)}"
    )
    text = (
        f"{_words(card)} can never go home. It lies in the stock, which turns "
        f"{COUNTS.get(test.draw, test.draw)} cards at a time, and never comes to the top: that "
        f"needs cards beside it to leave the stock first, and {earlier}, nor does "
        f"{_words(blocker)}, after it.{also}"
    )
    return DeadEnd(NEVER_UP, text, (card_name(card), card_name(blocker)))


def _stays_over(test, piles, t, uncovered, empty) -> int:
    """A pile over pile ``t`` (covered for good) that is uncovered and never empties: the
    closure found neither of ``t``'s covering piles empty, and a covered one is followed up."""
    while True:
        over = next(c for c in test.covers[t] if not empty[c])
        if uncovered[over]:
            return over
        t = over


def _ways(test, card: int, home, available, slots) -> str:
    """Why ``card`` never leaves its place: each way out, and why the closure never found it."""
    rank, suit = card & 15, card >> 4 & 3
    reasons = [
        f"it goes home only after {_words(suit << 4 | home[suit] + 1)}, which never does"
        if home[suit] + 1 < rank
        else "it never goes home"
    ]
    if rank == KING:
        reasons.append(
            "a King moves only to an empty back pile, and no back pile is ever left empty"
            if not slots
            else "no back pile it could go to opens for it"
        )
    else:
        hosts = [h for h in test.hosts[card]]
        gone = [h for h in hosts if not available[h]]
        names = " nor ".join(_words(h) for h in gone)
        reasons.append(
            f"neither {names} is ever free to take it"
            if len(gone) == 2
            else f"{names} is never free to take it"
        )
        if test.any_to_empty:
            reasons.append("no back pile is ever left empty for it")
    return "; ".join(reasons)
