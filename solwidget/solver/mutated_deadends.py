"""Dead ends in Mutated Solitaire: positions from which no win exists, found without search.

As for Interlock (deadends.py), the test is a relaxation: it works out every event that
*might* happen in some continuation, each kind of event needing a condition that every real
occurrence of it needs, made of events that must have happened before. If the closure
leaves some card unable to go home, no continuation wins: the position is *dead*.

The shape of the piles (RULES.md section 4, rules/mutated.py): a space is at most one
face-down card with a run on it (a card goes onto a space only onto a card it fits, a King
run only into an empty space, and the face-down card turns up once it is bare); r2x is a run;
a built deck is its hidden cards with a run on its base. So each such pile has a *head*, the
lowest face-up card of its run, and the cards *beneath* the head (the face-down card, or the
hidden cards of a built deck) stay where they are, unseen and unusable, until the head
leaves: no run reaches below the head (the card under it does not take it), nothing is put
under it, and a built deck's hidden cards come back only once its base has left.

Words: a card's *hosts* are the two cards it may be put on (one rank higher, other colour);
a *leaver* is a card that must leave its place before it can go home: a head, a card
beneath a head (it becomes a head, or a card of a deck in draw mode, once the head leaves),
and a card of a deck in draw mode. The other cards lie in a run on a card that takes them;
they are not followed (assumed free), which only makes the closure find more.

Events, for the position P and any continuation from it:
- H(c): c is home (now, or at some later time);
- L(c), for a leaver c: c leaves its place (its first move);
- Free(x): x is not beneath a head, or that head's L happened (x can be moved or built on);
- R(c), for a card c home in P: c leaves its foundation;
- E(n): some space of row n (not r2x, which never refills) is empty.
Rules, each a condition that the event needs:
- H(c) needs H(c - 1) (foundations build up in suit), Free(c), and L(c) for a leaver.
- L(c) needs Free(c), and one of its ways out at the time it moves, where c's row is still
  the row of its place: home (only from row 1 or d1: needs H(c - 1), and c - 1 not beneath
  c, since those cards stay put until c leaves; an Ace needs nothing); for a King, an
  empty space in a row next to c's (E); for another card, a host h, not beneath c, on top
  of a pile in a row next to c's: h is either home in P, then R(h) (it comes back to row 1),
  or Free(h) and, if h is a leaver, L(h) or h's place lies in a row next to c's (h that
  never left its place is still in its row; a deck card becomes the top of a built pile in
  its own deck's row without leaving its place).
- R(c) needs R of the card above it on its foundation, if any (only the top card leaves),
  and a place in row 1: a King needs E(1), another card a host h with, as above, R(h) if
  h is home in P, or Free(h) and (L(h) or h's place in row 0, 1 or 2, next to row 1).
- E(n) holds if a space of row n is empty in P; otherwise a space of row n whose head c
  leaves (L(c)) and, if a face-down card x lies beneath c, x leaves too (L(x)).
Starting from the events of P itself, the rules are applied until nothing changes. By
induction over the moves of a continuation, every event in it is among those found (each
needs events that happened before it, found by then). So if H(c) is not found for some
card c, no continuation wins.

The search keeps no dead position (MutatedExpander.scored): every position on a winning
line can still win, so none of them is dead, and the argument of search.py that some won
position is reached uses only those. tests/test_solver_mutated.py checks that positions on
the solver's winning lines are never dead, and that positions found dead are lost when
searched without this test.

Tried and dropped: following the rows of cards back from home (a home card that hosts a
guest from row 1 or 3 must first move down from row 1 to row 2, onto a host there or, a
King, into an empty space). Sound, but in 15,000 expansions of deals 85 and 995 it marked no
position dead (nor did the test without it), and in deals 88, 154 and 496 the same ones.
"""

from __future__ import annotations

from ..engine.cards import FACE_DOWN, KING
from ..rules.mutated import DECKS, DRAW, F, R2X, ROW, SPACES

ROWS = (1, 2, 3)
NEXT_ROWS = {0: (1,), 1: (0, 2), 2: (1, 3), 3: (2,)}
SPACE_ROWS = tuple((s, ROW[s]) for s in SPACES)
PILES = tuple((p, ROW[p]) for p in SPACES + (R2X,))
DECK_ROWS = tuple((d, ROW[d]) for d in DECKS)
# HOSTS[card]: the two cards it may be put on (none for a King), by ``card & 63``
HOSTS = [()] * 64
for _suit, _others in enumerate(((1, 2), (0, 3), (0, 3), (1, 2))):
    for _rank in range(1, KING):
        HOSTS[_suit << 4 | _rank] = tuple(s << 4 | _rank + 1 for s in _others)


def _leavers(piles, modes):
    """The leavers of a position, each as (card, row, cards beneath it as a bit mask, the head
    above it or -1), and, per space of each row, (head, face-down card beneath it or -1)."""
    leavers, spaces = [], {1: [], 2: [], 3: []}
    for p, row in PILES:
        pile = piles[p]
        if not pile:
            continue
        if pile[0] & FACE_DOWN:
            head, down = pile[1] & 63, pile[0] & 63
            leavers.append((head, row, 1 << down, -1))
            leavers.append((down, row, 0, head))
        else:
            head, down = pile[0] & 63, -1
            leavers.append((head, row, 0, -1))
        if p != R2X:
            spaces[row].append((head, down))
    for (d, row), base in zip(DECK_ROWS, modes):
        pile = piles[d]
        if base == DRAW:
            leavers.extend((c & 63, row, 0, -1) for c in pile)
        elif pile:
            head = pile[base] & 63
            mask = 0
            for c in pile[:base]:
                mask |= 1 << (c & 63)
                leavers.append((c & 63, row, 0, head))
            leavers.append((head, row, mask, -1))
    return leavers, spaces


def is_dead(piles, modes) -> bool:
    """Does the closure above leave some card unable to go home?"""
    level = [0, 0, 0, 0]
    for f in F:
        if piles[f]:
            level[piles[f][0] >> 4 & 3] = len(piles[f])
    leavers, spaces = _leavers(piles, modes)
    guard = [-1] * 64                # the head a card lies beneath
    place = [-1] * 64                # a leaver's row
    for card, row, _, head in leavers:
        guard[card], place[card] = head, row
    left = [False] * 64              # L found
    home = level[:]                  # H found: each suit home up to this rank
    back = [lv + 1 for lv in level]  # R found: each suit's cards from this rank up may leave
    empty = [False, False, False, False]                  # E found, by row
    for row in ROWS:
        empty[row] = len(spaces[row]) < 5
    waiting = leavers

    def host_for(h, row) -> bool:
        """May ``h`` (not beneath the guest) take a guest whose place lies in ``row``?"""
        rank = h & 15
        if rank <= level[h >> 4 & 3]:
            return rank >= back[h >> 4 & 3]
        g = guard[h]
        if g >= 0 and not left[g]:
            return False
        return place[h] < 0 or left[h] or row in NEXT_ROWS[place[h]]

    while True:
        changed = False
        still = []
        for leaver in waiting:
            card, row, beneath, head = leaver
            if head >= 0 and not left[head]:
                still.append(leaver)
                continue
            rank = card & 15
            if row == 1 and (rank == 1 or (home[card >> 4 & 3] >= rank - 1 and not beneath >> (card - 1) & 1)):
                ok = True
            elif rank == KING:
                ok = any(empty[n] for n in NEXT_ROWS[row] if n)
            else:                    # two hosts: written out, the closure's busiest test
                h, i = HOSTS[card]
                ok = (not beneath >> h & 1 and host_for(h, row)) or (not beneath >> i & 1 and host_for(i, row))
            if ok:
                left[card] = changed = True
            else:
                still.append(leaver)
        waiting = still
        if not waiting:
            return False             # every card can be moved and no card waits on another
        for row in ROWS:
            if not empty[row] and any(left[head] and (down < 0 or left[down]) for head, down in spaces[row]):
                empty[row] = changed = True
        for suit in range(4):
            rank = home[suit] + 1
            while rank <= KING:
                card = suit << 4 | rank
                if (guard[card] >= 0 and not left[guard[card]]) or (place[card] >= 0 and not left[card]):
                    break
                rank += 1
            if rank - 1 > home[suit]:
                home[suit] = rank - 1
                changed = True
            rank = back[suit] - 1          # the next card down that might leave home
            if rank >= 1:
                card = suit << 4 | rank
                if (empty[1] if rank == KING else any(host_for(h, 0) for h in HOSTS[card])):
                    back[suit] = rank
                    changed = True
        if not changed:
            return min(home) < KING


def _shape(piles, modes):
    """What the closure reads of a position: the foundation levels, each space's head and
    face-down card, r2x's head, the decks and their modes (runs above a head play no part)."""
    parts = [len(piles[f]) and piles[f][0] for f in F]
    parts += [len(piles[f]) for f in F]
    for p, _ in PILES:
        pile = piles[p]
        parts.append(pile[:2] if pile and pile[0] & FACE_DOWN else pile[:1])
    parts += [piles[d] for d in DECKS]
    parts.append(modes)
    return tuple(parts)


class DeadEnds:
    """``is_dead(state)`` with the answers kept by the part of the position the closure reads
    (many positions of a search differ only in their runs)."""
    LIMIT = 200_000

    def __init__(self):
        self.known = {}

    def is_dead(self, state) -> bool:
        shape = _shape(state.piles, state.extra)
        dead = self.known.get(shape)
        if dead is None:
            if len(self.known) >= self.LIMIT:
                self.known.clear()
            dead = self.known[shape] = is_dead(state.piles, state.extra)
        return dead
