"""Dead ends in Mutated Solitaire: positions from which no win exists, found without search.

As for Interlock (games/interlock/deadends.py), the test is a relaxation: it works out
every event that *might* happen in some continuation, each kind of event needing a
condition that every real occurrence of it needs, made of events that must have happened
before. If the closure leaves some card unable to go home, no continuation wins: the
position is *dead*.

What the rules give (docs/rules.md, rules.py): every move takes its cards to the
row above or below their own (row 0 is the foundations, which only row 1 and d1 reach), a card
other than a King lands on a *host* (one rank higher, other colour) topping a pile there, or
is carried in a run on the card beneath it, and a King lands in an empty space (never r2x).
A space is at most one face-down card with a run on it, r2x is a run, and a built deck is its
hidden cards with a run on its base; so a pile's face-down or hidden cards, and the cards under
a foundation's top, are *beneath* a card that has to move before they can (the run's lowest
card, the base, the card above on the foundation). A deck's face-down cards turn up only when
it is flipped, or, one at a time from the top, when "dN build" turns its top card up.

Events, for the position P and any continuation from it:
- In(c, n): card c lies in row n at some time (row 0: home). In P: c's own row, its *place*;
- Moved(c): c has moved, which is In(c, n) for some n other than its place (every move
  changes rows);
- E(n): some space of row n (not r2x) is empty;
- Flip(n): deck dn is flipped.
Rules, each a condition that the event needs, events before it:
- In(c, m), c arriving from row n next to m, needs In(c, n) and Free(c): c moves only when
  the card it lies beneath has moved, and, if it lies face down in a deck of row k, after
  Flip(k) or after every card above it in that deck has moved (faces change only by flips
  and builds). And for m = 0, n = 1 and c's predecessor home (In(c - 1, 0)), or c an Ace;
  for a King (m > 0), E(m); for another card, a host h with In(h, m) and Free(h): c lands on
  a host topping a pile of row m (r2x, or a built deck's top, whose base came up in its own
  row), and is then free, or is carried in a run on a host that moves with it (the arrivals
  of one move are taken lowest card first).
- E(n): a space of row n empty in P, or Moved(b) for the bottom card b of one: moving the
  bottom card takes the whole pile.
- Flip(n): a King moved into a space of row n, that is In(K, n) for a King K placed elsewhere
  or Moved(K); or a face-down King in a space of row n turned up: Moved(its head).
Starting from P, the rules are applied until nothing changes. By induction over the moves of a
continuation, every event in it is among those found (each needs events found before it).
So if In(c, 0) is not found for some card c, no continuation wins. The closure follows
rows: a card of row 3 goes home only if hosts wait for it in rows 2 and 1 (red Threes of
row 3 never go home when neither black Four can reach row 2 before a red Three leaves row
3: such deals are lost at the deal). And it follows deck faces: where no King can ever
move, no deck is flipped.

The search keeps no dead position (MutatedExpander.scored): every position on a winning
line can still win, so none of them is dead, and the argument of solver/search.py that some
won position is reached uses only those. tests/test_solver_mutated.py checks that positions
on winning lines (found without this test) are never dead, and that positions found dead
are lost when searched without it.

For speed, sets of cards are bit masks, so a row takes a card's guests all at once; a row
takes the runs of arriving cards down from its hosts, and a foundation the runs up from its
top, in four doublings rather than a rank a pass; and a deck's face-down cards are read
from the top down to the first one still kept down. Stronger rules for hosts cost more
than they find (docs/solver.md).
"""

from __future__ import annotations

from ...engine.cards import FACE_DOWN, KING
from .board import DECKS, DRAW, R2X, ROW_SLICES, F

# Sets of cards are ints, card c the bit c & 63 (suit << 4 | rank; clubs 0 and spades 3 black).
SUIT = 0xFFFF
EVERY_CARD = sum(1 << (suit << 4 | rank) for suit in range(4) for rank in range(1, KING + 1))
KINGS = sum(1 << (suit << 4 | KING) for suit in range(4))
ACES = sum(1 << (suit << 4 | 1) for suit in range(4))
CLIMB_ORDER = (3, 2, 1)  # rows spread in a pass: the order that needs the fewest passes
# A card's guests, by colour and rank: on a *chain*, a 16-bit field by rank whose colour
# alternates with the rank, the guests of the card at bit r are at bit r - 1. Chain 0 holds
# the black cards of even rank and the red ones of odd rank, chain 1 (bits 16 up) the others.
EVEN = sum(1 << r for r in range(0, 16, 2))
CHAIN_BLACK, CHAIN_RED = EVEN | (EVEN ^ SUIT) << 16, (EVEN ^ SUIT) | EVEN << 16
BOTH_CHAINS, BLACK_SUITS, RED_SUITS = (
    1 | 1 << 16,
    1 | 1 << 48,
    1 << 16 | 1 << 32,
)  # multipliers that copy fields
ROW_1, ROW_2, ROW_3 = ROW_SLICES


def bits(cards) -> int:
    """The set of these cards."""
    found = 0
    for card in cards:
        found |= 1 << (card & 63)
    return found


def _row(piles, row) -> tuple:
    """What a row's spaces (then, in row 2, r2x) give the closure: their cards, their bottom
    cards (not r2x's: it never refills), whether a space is empty, (head, the face-down card
    beneath it) for each space (or r2x) with one, and (head, row) above a face-down King."""
    cards = bottoms = 0
    empty = False
    beneath, kings_down = [], []
    for i, pile in enumerate(piles):
        if not pile:
            empty |= i < 5
            continue
        cards |= bits(pile)
        if i < 5:
            bottoms |= 1 << (pile[0] & 63)
        if pile[0] & FACE_DOWN:
            beneath.append((pile[1] & 63, 1 << (pile[0] & 63)))
            if pile[0] & 15 == KING and i < 5:
                kings_down.append((pile[1] & 63, row))
    return cards, bottoms, empty, tuple(beneath), tuple(kings_down)


def _deck(pile, base) -> tuple:
    """What a deck gives the closure: its cards, ((its base, its hidden cards),) in built mode
    or (), and, for each face-down card but the top one (which a build turns up), from the
    top down: (the cards above it in the deck, it and the face-down cards below it). Those
    stay down while the cards above it have not all moved (and no flip came)."""
    top = len(pile) if base == DRAW else base + 1
    beneath = ((pile[base] & 63, bits(pile[:base])),) if base != DRAW and base else ()
    down, below = [], bits(c for c in pile[: top - 1] if c & FACE_DOWN)
    for i in range(top - 2, -1, -1):
        if pile[i] & FACE_DOWN:
            down.append((bits(pile[i + 1 : top]), below))
            below &= ~(1 << (pile[i] & 63))
    return bits(pile), beneath, tuple(down)


class DeadEnds:
    """``is_dead(state)``: does the closure above leave some card unable to go home? What a
    row's spaces and a deck give the closure is kept by their piles (a position shares most of
    them with its parent, the same tuples), and the answer by all of it (the closure reads in
    which row a card lies, not where: many positions of a search give it the same)."""

    LIMIT = 100_000

    def __init__(self):
        self.rows, self.decks, self.answers = {}, {}, {}

    def is_dead(self, state) -> bool:
        return self.dead(state.piles, state.extra)

    def dead(self, piles, modes) -> bool:
        """Is the position with these piles and deck modes dead?"""
        home = 0
        for f in F:
            pile = piles[f]
            if pile:  # ranks 1 to len(pile) of the Ace's suit
                home |= ((2 << len(pile)) - 2) << (pile[0] & 48)
        rows = (
            _kept(self.rows, _row, piles[ROW_1], 1),
            _kept(self.rows, _row, piles[ROW_2] + (piles[R2X],), 2),
            _kept(self.rows, _row, piles[ROW_3], 3),
        )
        d1, d2, d3 = DECKS
        decks = (
            _kept(self.decks, _deck, piles[d1], modes[0]),
            _kept(self.decks, _deck, piles[d2], modes[1]),
            _kept(self.decks, _deck, piles[d3], modes[2]),
        )
        parts = home, rows, decks
        answer = self.answers.get(parts)
        if answer is None:
            if len(self.answers) >= self.LIMIT:
                self.answers.clear()
            answer = self.answers[parts] = all_home(_facts(*parts))
        return not answer


def _kept(known, maker, *key):
    """``maker(*key)``, kept in ``known`` (cleared when full)."""
    facts = known.get(key)
    if facts is None:
        if len(known) >= DeadEnds.LIMIT:
            known.clear()
        facts = known[key] = maker(*key)
    return facts


def _facts(home, rows, decks) -> tuple:
    """The position's events and rules, as ``all_home`` takes them."""
    place, bottoms, empty = [home, 0, 0, 0, 0], [0] * 4, [False] * 4  # row 4, none, spares a test
    beneath, face_down, kings_down = [], [], []
    for row, (cards, bottom, has_empty, under, kings), (deck_cards, deck_under, down) in zip(
        (1, 2, 3), rows, decks
    ):
        place[row] = cards | deck_cards
        bottoms[row], empty[row] = bottom, has_empty
        beneath += under + deck_under
        if down:
            face_down.append((row, down))
        kings_down += kings
    return place, beneath, face_down, kings_down, bottoms, empty


def all_home(facts) -> bool:
    """Apply the rules to P's ``facts`` (``_facts``) until nothing changes, or every card
    is found home: is every In(c, 0) found? ``reach[n]``: the cards c with In(c, n) found."""
    place, beneath, face_down, kings_down, bottoms, empty = facts
    reach = list(place)
    flipped = [False] * 4
    while True:
        moved = reach[0] & ~place[0] | reach[1] & ~place[1] | reach[2] & ~place[2] | reach[3] & ~place[3]
        free = _free(reach, place, moved, beneath, face_down, kings_down, flipped)
        grew = False
        for row in CLIMB_ORDER:
            came = (reach[row - 1] | reach[row + 1]) & free
            here = reach[row]
            came &= ~here
            if not came:
                continue
            kings = came & KINGS if empty[row] or moved & bottoms[row] else 0
            new = came & _guests_reached(here & free | kings, came) | kings
            if new:
                reach[row] = here | new
                grew = True
        climbed = _climbed(reach[0], reach[1] & free)
        if climbed != reach[0]:
            reach[0] = climbed
            grew = True
        if reach[0] == EVERY_CARD:
            return True
        if not grew:
            return False


def _chains(cards: int) -> int:
    """Which colours and ranks these cards have, as chains."""
    black = (cards | cards >> 48) & SUIT
    red = (cards >> 16 | cards >> 32) & SUIT
    return black * BOTH_CHAINS & CHAIN_BLACK | red * BOTH_CHAINS & CHAIN_RED


def _cards_of(chains: int) -> int:
    """Every card of the colours and ranks on these chains (both suits of each)."""
    black, red = chains & CHAIN_BLACK, chains & CHAIN_RED
    return ((black | black >> 16) & SUIT) * BLACK_SUITS | ((red | red >> 16) & SUIT) * RED_SUITS


def _guests_reached(hosts: int, came: int) -> int:
    """The cards of ``came`` (none of them among ``hosts``) that reach a row where ``hosts``
    wait, each on a host there or on a card of ``came`` that got there before it (Kings
    aside), and others of their colours and ranks: on the chains, every run
    of ``came`` going down from a host, found in four doublings (a run spans at most 13
    ranks), as a carry-lookahead adder finds its carries."""
    active, passing = _chains(hosts), _chains(came)
    for shift in (1, 2, 4, 8):
        active |= passing & active >> shift
        passing &= passing >> shift
    return _cards_of(active >> 1)


def _climbed(home: int, ready: int) -> int:
    """``home`` and every card of ``ready`` that can follow it up its suit's foundation:
    runs of ``ready`` going up from a card home, or from an Ace, in four doublings."""
    home |= ready & ACES
    for shift in (1, 2, 4, 8):
        home |= ready & home << shift
        ready &= ready << shift
    return home


def _free(reach, place, moved, beneath, face_down, kings_down, flipped) -> int:
    """The cards that may move, by the events found so far (``flipped``, Flip by row, is
    brought up to date)."""
    home = place[0]
    free = EVERY_CARD & ~((home & ~moved) >> 1 & home)  # under a card still home
    for head, cards in beneath:
        if not moved >> head & 1:
            free &= ~cards
    if face_down:
        for row in (1, 2, 3):
            if not flipped[row] and reach[row] & KINGS & (~place[row] | moved):
                flipped[row] = True
        for head, row in kings_down:
            if moved >> head & 1:
                flipped[row] = True
        for row, down in face_down:
            if not flipped[row]:
                for above, cards in down:  # the first card still down keeps those below
                    if moved & above != above:
                        free &= ~cards
                        break
    return free


def is_dead(piles, modes) -> bool:
    """``DeadEnds.is_dead`` of the position with these piles and deck modes."""
    return DeadEnds().dead(piles, modes)


# ---------------------------------------------------------------- the coach's stronger closure
# The search's closure above lets a host take a guest while other cards lie on it, and a card
# be freed by a card above it that only ever moved carried on it, or be carried on a card it
# never lay on. The coach's closure adds two events and tightens its rules with them (each a
# condition every real occurrence needs):
# - Left(g): g moved as the lowest card of the cards that moved (onto a host found uncovered
#   in that row, a King into an empty space there, or home). The first move of a card that
#   lies on a face-down card, or on nothing (the bottom of a space, a built deck's base), is
#   such a move: the card below never moves with it.
# - Bare(h): h is the top of its pile at some time. True in P for a pile's top card; for a
#   card h with g lying on it in P (a space, r2x, a foundation, a deck's built pile), g must
#   leave h first, and the move that takes g off h while h stays is one where g is the lowest
#   card: so Bare(h) needs Left(g). (A deck's cards outside its built pile are left out of
#   this rule: a flip reorders them.)
# - A card lands on a host h only if h is the top of its pile then: In(c, m) through a host
#   needs Bare(h) too; a card goes home alone from the top of its pile (or out of a deck in
#   draw mode): In(c, 0) needs Bare(c); and a face-down card, or a built deck's hidden cards,
#   are freed by Left(head), not Moved(head).
# - A card carried in a run lies on the card below it in the run. The first time c lies on a
#   card, either it did in P, or it arrived there as the lowest card of a move (a carried
#   card keeps the card it lies on): so a card that in P lies on nothing (a space's bottom,
#   r2x's bottom, a built deck's base), on a face-down card, in a foundation or in a deck in
#   draw mode (taken out alone) moves carried only after Left(c); the others are *seated*.
# Every real event is found (by induction over the moves, as above), so if some card is not
# found home, no continuation wins. This closure is the coach's alone (explain.py, the
# judge), so the search and its compiled twin keep theirs; tests/test_coach_why_mutated.py
# checks each verdict against an exhaustive search of small positions, and along wins of deals.


def covering(piles, modes) -> tuple:
    """What Bare reads of P: (the cards it leaves open: a pile's top card and a deck's cards
    outside its built pile), ((the card lying on c, c's bit), ...) for every other card c of a
    space, r2x, a foundation or a deck's built pile."""
    opened, pairs = 0, []
    for i, pile in enumerate(piles):
        low = 0
        if i in DECKS:
            mode = modes[DECKS.index(i)]
            low = len(pile) if mode == DRAW else mode
            opened |= bits(pile[:low])
        for k in range(low, len(pile) - 1):
            pairs.append((pile[k + 1] & 63, 1 << (pile[k] & 63)))
        if len(pile) > low:
            opened |= 1 << (pile[-1] & 63)
    return opened, tuple(pairs)


def seated_cards(piles, modes) -> int:
    """The cards that lie in P on a face-up card of their run (a space, r2x, a deck's built
    pile above its base): the only ones that may move carried before they have left."""
    seated = 0
    for i, pile in enumerate(piles):
        if i in F:
            continue
        low = 0
        if i in DECKS:
            mode = modes[DECKS.index(i)]
            low = len(pile) if mode == DRAW else mode
        for k in range(low, len(pile) - 1):
            if not pile[k] & FACE_DOWN:
                seated |= 1 << (pile[k + 1] & 63)
    return seated


def position_facts(piles, modes) -> tuple:
    """``_facts`` of the position with these piles and deck modes."""
    home = 0
    for f in F:
        if piles[f]:
            home |= ((2 << len(piles[f])) - 2) << (piles[f][0] & 48)
    d1, d2, d3 = DECKS
    rows = (_row(piles[ROW_1], 1), _row(piles[ROW_2] + (piles[R2X],), 2), _row(piles[ROW_3], 3))
    decks = (_deck(piles[d1], modes[0]), _deck(piles[d2], modes[1]), _deck(piles[d3], modes[2]))
    return _facts(home, rows, decks)


def strict_closure(piles, modes) -> tuple:
    """The coach's closure of the position (above) to its fixed point: (``reach`` by row,
    the cards found free, bare, moved and left), or as far as it got once all are home."""
    place, beneath, face_down, kings_down, bottoms, empty = position_facts(piles, modes)
    opened, pairs = covering(piles, modes)
    seated = seated_cards(piles, modes)
    reach, flipped, left = list(place), [False] * 4, 0
    while True:
        moved = reach[0] & ~place[0] | reach[1] & ~place[1] | reach[2] & ~place[2] | reach[3] & ~place[3]
        free = _free(reach, place, moved, (), face_down, kings_down, flipped)
        for head, cards in beneath:
            if not left >> head & 1:
                free &= ~cards
        bare = opened
        for cover, card in pairs:
            if left >> cover & 1:
                bare |= card
        before = reach[0], reach[1], reach[2], reach[3], left
        for row in CLIMB_ORDER:
            came = (reach[row - 1] | reach[row + 1]) & free
            hosts = reach[row] & free & bare
            kings = came & KINGS if empty[row] or moved & bottoms[row] else 0
            lowest = came & (_cards_of(_chains(hosts) >> 1) | kings)
            left |= lowest
            came &= ~reach[row]
            carried = came & (seated | left)
            reach[row] |= came & lowest | carried & _guests_reached(hosts | lowest, carried)
        climbed = _climbed(reach[0], reach[1] & free & bare)
        left |= climbed & ~reach[0]
        reach[0] = climbed
        if reach[0] == EVERY_CARD or (reach[0], reach[1], reach[2], reach[3], left) == before:
            return reach, free, bare, moved, left


def is_dead_strict(state) -> bool:
    """Does the coach's closure leave some card of ``state`` unable to go home?"""
    return strict_closure(state.piles, state.extra)[0][0] != EVERY_CARD
