"""The solver's reductions for the Interchange family: dead ends, positions from which no
win exists, found without search (below); and stock and waste cards played only in bridges,
a card put on them at once (the section "reserve plays" further down).

The games (docs/rules.md): one to four decks, foundations built up in suit from any Ace on
any empty one (four a deck), tableau built down in suit, a run in suit moves as a unit. An
empty pile takes anything (Triple, Quadruple Interchange) or only a King or a run headed by
one (Interchange, Unlimited, Single Interchange). The stock turns one card at a time with
unlimited redeals, so that every stock or waste card can be played at any time, but in
Interchange, one pass. The test below takes every stock and waste card as within reach at
any time while a redeal is left (with none left, rule S below reads the order they come
in): taking more within reach than the rules allow only lets the relaxation find more
events, so a position it calls dead is still dead. Face-down cards only wait for the cards
above them to go.

The test is a relaxation, as Interlock's (games/interlock/deadends.py): for a position it works out
every event that *might* happen in some continuation, using for each kind of event a
condition that every real occurrence of it needs, made of events that happened before.
Cards are physical cards: copies of one card are told apart by where they lie now.
Events, for a tableau card c of pile p and a card type t (suit and rank):
- L(c): c leaves p (alone or inside a moving group);
- X(c): c is on top of some pile (so a card may be put on it or it may go home);
- H(c): c goes home; N(t): some copy of t that is not home now goes home;
- E(p): pile p is empty; A(t): some copy of t lies on top of a tableau pile;
- W(w), for a stock or waste card w (rule S, below): w is on top of the waste.
The rules:
- X(c) needs L of every card above c in p: whether c is still in p or moved away, every card
  that lay on it there has left p by then (alone or moved along with it).
- H(c), for c of type (s, r) not home, needs X(c) (for a tableau card; under rule S, below,
  L(c) for a stock or waste card, which goes home by leaving the pile) and a foundation
  at r - 1 in suit s when c goes: either one is at r - 1 now (more copies of (s, r - 1)
  home than of (s, r)), or r = 1 (there is always an empty foundation for a loose Ace: four
  foundations a deck, one for each Ace), or some copy of (s, r - 1) not home now goes home
  first: N((s, r - 1)). Other stock and waste cards are taken as always within reach
  (above).
- A(t) needs X(c) for a tableau copy c of t, or a stock or waste copy and a place for it:
  A of a host type (one rank higher, same suit; none for a King) or some E(q), where an
  empty pile takes t (any card, or a King).
- L(c), for c in p, needs H(c), or that c moves as the head of a group, onto a host
  (A((s, r + 1))) or an empty pile q != p that takes c (E(q); any card, or a King: in the
  games where an empty pile takes only Kings, no other card leaves for one). The group is c
  and the cards above it, so every card above c has left p before, except those still on it
  in the moving group: they follow c down in suit, so they are among the run that lies on c
  now (identities counted, face-down or not), and every card above that run has left p
  before. A card of that run leaves p with c: L(c) gives L of each of them.
- E(p), for a pile p that holds cards, needs L of its bottom card (cards come and go at
  the top only, so the bottom card leaves last).
- Rule S, once no redeal is left (Interchange's one pass). The waste and the stock are then
  one pile in the order the cards will lie: the waste bottom to top, then the stock in the
  order it turns (its top first). Cards leave it from its top only, and a turn only lays a
  card on it. Each event is also read at a *level*: how many of the pile's cards are turned
  when it happens (from the waste's alone up to all; a turn of d cards goes d levels at a
  time). Levels only rise, so every event before one at level k is at level k or below. The
  events at level k or below are found by the rules above with the stock's cards out of
  reach, and these: W(w), for w among the cards turned at level k, needs L(v), v leaving the
  pile, of every card v above w among them (the cards turned since w lie on it until they
  leave); a card turned at level k is on top then, so W of the last card turned is found.
  L(w) at level k needs W(w) at level k, and a foundation for w (as H needs) or a host
  (A((s, r + 1))) or, for a King, an empty pile (E(q)), found at level k or below. Only
  once L(w) is found does w count for rules H and A, as a loose card does: it goes home or
  onto a tableau pile only by leaving the pile.
  The events found at level k are kept at level k + 1. A card turned only later is not within
  reach: so W(w) for a waste card waits for every card turned on it to leave again.

Starting from the facts of the position (the cards home, the empty piles, the cards on
top) the rules are applied until nothing changes (under rule S, level after level). By
induction over the moves of any continuation, every event that happens in it is among the
events found (each needs events that happened earlier, found by then; under rule S, found
at its own level or below, since earlier events have no higher levels). A win sends every
card home; so if some card's H is not found, no win exists: the position is *dead*.

The search does not expand a dead position (solver/expand.py). That keeps "lost" a proof
(solver/search.py): every position on a winning line has a win, so none of them is dead, and the
argument there that some won position is reached uses only those.
tests/test_solver_interchange.py checks that no position on the solver's winning lines is
dead and that positions found dead are lost when searched without the test.
"""

from __future__ import annotations

from ...engine.cards import ACE, FACE_DOWN, KING
from ...solver.stock import cycle, home_chains, hosts_in_order, play_bridge
from .rules import InterchangeFamily


def applies(game) -> bool:
    """Does the dead-end test below hold for ``game``? In-suit runs down, one rank a step,
    moving as a unit; no cells; four foundations a deck, built up from any Ace; an empty
    pile that takes any card or a King (and a run headed by one); any stock."""
    return (
        isinstance(game, InterchangeFamily)
        and game.group == "run"
        and game.empty_takes in ("any", "king")
        and game.step == 1
        and len(game.foundation_indices) == 4 * game.decks
        and not game.cell_indices
        and game.build.direction == -1
        and game.build.suits == "same"
    )


def bridges_apply(game) -> bool:
    """Do the bridges below hold for ``game``? As the dead ends, with a stock that turns
    one card at a time, redealt as often as wanted (every reserve card within reach)."""
    return applies(game) and game.draw == 1 and game.redeals is None


class DeadEnds:
    """``is_dead(state)``: does the relaxation above leave some card unable to go home?"""

    def __init__(self, game):
        self.game = game
        self.foundation_indices, self.tableau_indices = game.foundation_indices, game.tableau_indices
        assert tuple(range(len(self.foundation_indices))) == self.foundation_indices
        self.reserve_piles = (game.stock_index, game.waste_index)
        self.any_to_empty = game.empty_takes == "any"
        self.room = KING_ROOM if game.empty_takes == "king" else 0
        # What the test reads of a pile or of the foundations depends on them alone, and a
        # position shares most of them with its parent: kept here, bounded (a pile's entry
        # is about 1 KB: at most 50 MB).
        self._columns: dict = {}  # pile -> (its card types, run lengths, suffix masks)
        self._ready: dict = {}  # foundations -> _foundations_ready

    def is_dead(self, state) -> bool:
        # Sets of card types are bit masks: bit t for type t (suit << 4 | rank), so that a
        # suit is a 16-bit lane and "one rank up" is a shift by one.
        piles = state.piles
        columns, runs, tops = [], [], []  # tops[k][i]: the types of columns[k][i:]
        known = self._columns
        if len(known) > 50_000:
            known.clear()
        for t in self.tableau_indices:
            read = known.get(piles[t])
            if read is None:
                col = bytes(piles[t]).translate(_TYPE)
                read = known[piles[t]] = (col, _run_lengths(col), _suffix_masks(col))
            columns.append(read[0])
            runs.append(read[1])
            tops.append(read[2])
        stock, waste = self.reserve_piles
        if self._waste_is_a_pile(state):  # rule S: the reserve is a pile, turned a level at a time
            piled = bytes(piles[waste] + piles[stock][::-1]).translate(_TYPE)
            levels = self._levels(len(piles[waste]), len(piled))
            loose = 0
        else:  # every stock and waste card within reach: loose
            piled, levels, loose = b"", [0], _types(piles[stock] + piles[waste])
        ready = self._foundations_ready(piles)
        tableau = 0  # every type in the tableau
        for masks in tops:
            tableau |= masks[0]
        needed = loose | tableau | _types(piled)  # every type not home
        if needed & ~_homeable(ready, needed):  # some type cannot go home even with every
            return True  # card on top: neither end below changes that
        # bound[k]: the cards of column k from bound[k] up have been found to leave
        bound = [len(col) for col in columns]
        room = 0  # once a pile may be empty: the Kings' host there (see KING_ROOM)
        if 0 in bound:  # a pile may empty
            if self.any_to_empty:  # any card may leave for it (rule L), top down: all do,
                return False  # and every type may go home (just seen)
            room = self.room
        hosts: list[int | None] = [None] * len(columns)  # hosts[k]: see _lowest_leaver (None: not asked)
        exposed = 0  # X found for some tableau copy
        for masks, b in zip(tops, bound):
            if b:
                exposed |= masks[b - 1]
        standing = bytearray()  # the pile's cards not found to leave, bottom to top
        left = 0  # the types of the pile's cards found to leave it (L)
        turned, last = 0, levels[-1]
        homeable = available = 0
        read_by = None  # the masks the piles were last read with
        masks_of = None  # what homeable and available were last worked out from
        for level in levels:  # rule S: the pile's cards up to ``level`` are turned
            standing += piled[turned:level]
            turned = level
            # first by the masks as they are: they only grow, so a card they let leave leaves
            left |= _pile_leaves(standing, homeable, available)
            if not (standing or level == last):  # nothing waits: the masks are brought up to
                continue  # date when a card does
            if (exposed | left, room) == masks_of and (homeable, available) == read_by:
                continue  # nothing new since the piles were read: the top card still waits
            while True:
                masks_of = exposed | left, room
                homeable = _homeable(ready, loose | exposed | left)
                if needed & ~homeable == 0 and max(bound) <= 1:
                    return False  # bounds only fall, homeable only grows, and the pile's
                    # tops leave home as they come: so it ends
                available = _available(available | exposed | room, loose | left)  # grows
                waiting = len(standing)
                left |= _pile_leaves(standing, homeable, available)
                changed = len(standing) < waiting
                if not (standing or level == last):  # nothing waits: the piles' events
                    break  # matter only to a card that waits, and are found as well later
                if (homeable, available) != read_by:  # else the piles would find nothing new
                    read_by = homeable, available
                    lowered, newly_on_top, emptied = _sweep(
                        columns, runs, tops, bound, hosts, homeable, available
                    )
                    if emptied:  # a pile may empty
                        if self.any_to_empty:
                            return False  # as above
                        room = self.room
                    exposed |= newly_on_top
                    changed |= lowered
                if not changed:
                    break
        if standing or any(b > 1 for b in bound):  # a card that never leaves its pile never
            return True  # goes home
        return needed & ~homeable != 0

    def _waste_is_a_pile(self, state) -> bool:
        """No redeal left: the waste only loses cards from its top (rule S)."""
        redeals = self.game.redeals
        return redeals is not None and state.extra[0] >= redeals

    def _levels(self, in_waste: int, cards: int) -> list[int]:
        """Rule S's levels: how many of the pile's cards are turned (the waste's, then the
        stock's a turn at a time), from none of the stock's to all."""
        return [*range(in_waste, cards, self.game.draw), cards]

    def _foundations_ready(self, piles) -> int:
        """The types that may go home now, or once an Ace is: a foundation of the suit sits
        one rank below (more copies of that card home than of this one), or an Ace."""
        founds = piles[self.foundation_indices[0] : self.foundation_indices[-1] + 1]
        ready = self._ready.get(founds)
        if ready is None:
            if len(self._ready) > 20_000:
                self._ready.clear()
            ready = self._ready[founds] = self._ready_types(piles)
        return ready

    def _ready_types(self, piles) -> int:
        home = [0] * 64
        for f in self.foundation_indices:
            pile = piles[f]
            if pile:
                top = pile[-1]
                base = top & 0x30
                for rank in range(1, (top & 15) + 1):
                    home[base | rank] += 1
        ready = ACES
        for t in range(64):
            if t & 15 > 1 and home[t - 1] > home[t]:
                ready |= 1 << t
        return ready


ACES = sum(1 << (suit << 4 | ACE) for suit in range(4))
# An empty pile that takes a King, as the host of rank 14 that a King waits for: with these
# bits among the available types, rule L lets a King head a run to an empty pile (no other
# card may go there), and rule A makes a loose King available (its host, one rank up, is).
KING_ROOM = sum(1 << (suit << 4 | KING + 1) for suit in range(4))
_TYPE = bytes(c & 63 for c in range(256))  # bytes.translate: a card's type, face up
_BITS = [1 << t for t in range(64)]  # a type's bit


def _types(cards) -> int:
    """The mask of the types of ``cards``."""
    return sum(map(_BITS.__getitem__, set(bytes(cards).translate(_TYPE))))


RANKS_MASK = sum(1 << (suit << 4 | rank) for suit in range(4) for rank in range(1, KING + 1))


def _homeable(ready: int, present: int) -> int:
    """Rule H by type: t may go home once on top if a foundation is ready for it now, or
    a copy of the card below it, not home now, is on top or loose and may go home first.
    So a ready type makes homeable every type above it in an unbroken line of present
    types, and the one above that line: adding the ready bits of ``present`` to it carries
    each through its line (a suit's lane ends at rank 13, so no carry reaches the next)."""
    return ready | ((present + (ready & present)) ^ present) & RANKS_MASK


def _available(exposed: int, loose: int) -> int:
    """Rule A by type: a copy on top of a pile, or a loose copy with a place to go: a host
    (one rank up, same suit) that is available; an empty pile is a King's host (KING_ROOM
    in ``exposed``) where it takes only Kings; where it takes any card, is_dead needs rule A
    no more once a pile may empty."""
    available = exposed
    while True:
        grown = available | (loose & (available >> 1))
        if grown == available:
            return available
        available = grown


def _pile_leaves(standing: bytearray, homeable: int, available: int) -> int:
    """Rule L for rule S's pile: its top cards leave (taken off ``standing``) while they may,
    home or onto a host. Returns the types of the cards that left, as a mask."""
    gone = 0
    while standing and (homeable >> standing[-1] & 1 or available >> standing[-1] + 1 & 1):
        gone |= _BITS[standing.pop()]
    return gone


def _sweep(columns, runs, tops, bound, hosts, homeable: int, available: int) -> tuple[bool, int, bool]:
    """Rule L for the tableau, one pass over the piles: each pile's bound lowered to the
    lowest card found to leave (``bound`` and ``hosts`` updated in place, see
    _lowest_leaver). Returns whether a bound fell, the types found on top (X), and whether
    a pile may now empty."""
    lowered, on_top, emptied = False, 0, False
    for k, col in enumerate(columns):
        b = bound[k]
        wants = hosts[k]
        if not b or (wants is not None and not (homeable >> col[b - 1] & 1 or available & wants)):
            continue  # gone, or what its cards wait for is still missing: as it was
        lowest, hosts[k] = _lowest_leaver(col, runs[k], b, homeable, available)
        if lowest < b:
            bound[k] = lowest
            on_top |= tops[k][lowest - 1 if lowest else 0]
            lowered = True
            emptied = emptied or not lowest
    return lowered, on_top, emptied


def _suffix_masks(col) -> list[int]:
    """masks[i]: the types of col[i:]; masks[len(col)] = 0."""
    masks = [0] * (len(col) + 1)
    for i in range(len(col) - 1, -1, -1):
        masks[i] = masks[i + 1] | 1 << col[i]
    return masks


def _run_lengths(col) -> list[int]:
    """run[i]: how many cards above col[i] follow it down in suit, one rank at a time."""
    run = [0] * len(col)
    for i in range(len(col) - 2, -1, -1):
        if col[i + 1] == col[i] - 1 and col[i] & 15 > 1:
            run[i] = run[i + 1] + 1
    return run


def _lowest_leaver(col, run, b, homeable, available) -> tuple[int, int]:
    """The new bound of a column whose cards from ``b`` up are found to leave: each card
    below that might leave (rule L) lowers it; a candidate's run must reach the bound.
    Also the hosts that the cards left below the bound, which might still lead a run away,
    wait for (as a mask of types): until one of them is available, or the top card
    homeable, the column keeps its bound. A King waits for rank 14: available once a pile
    may be empty, in a game where an empty pile takes Kings (KING_ROOM); where it takes
    any card, is_dead has answered by then."""
    i = b - 1
    hosts = 0
    while i >= 0 and i + run[i] >= b - 1:
        c = col[i]
        if (i == b - 1 and homeable >> c & 1) or available >> (c + 1) & 1:
            b, hosts = i, 0
        else:
            hosts |= 2 << c
        i -= 1
    return b, hosts


# ------------------------------------------------------------------ reserve plays
# Every stock and waste card, the *reserve*, can be turned to the top of the waste before
# any move (draw one, unlimited redeals), and turns touch nothing else (solver/stock.py).
# Lines are read here as their moves other than turns, a reserve play meaning "turn the
# card up, then play it". Playing a reserve card X pays only if something is then put on X,
# and it can wait until then:
#
# Lemma (normal form). If a position has a winning line of n moves, it has one of at most
# n moves in which every reserve play is followed at once by a move that puts a card on the
# card just played, but for a King played home.
#
# Proof. Call a reserve play *late* when it breaks that rule. Take the last late play, of
# X at index t, delete it (X stays in the reserve), and look at the first later move that
# concerns X (a run carrying X along does not count):
# (a) X moves alone to another place: play it from the reserve there instead (a move fewer);
# (b) a card or run is put on X: first play X from the reserve where it went at t, then
#     that move (as many moves as before);
# (c) X goes home from the tableau: play it home from the reserve (a move fewer).
# One of them comes: a won line sends X home, and a foundation that X started or raised
# to rank r < King later takes a card of rank r + 1 on X. Until then the two lines differ
# only by X being in the reserve or in place. Every move in between stays legal without X:
# nothing is put on X, so a foundation where X went is not played to in between, and
# keeps its top for (b); a run carrying X has the same head without it and still fits
# where it goes; the card under X on the tableau cannot go home while X lies on it, and
# is on top again for (b); an empty pile where X went stays empty, which only adds room
# (what an empty pile takes, any card or a King, and that runs move whole do not depend on
# how many piles are empty, so no move's legality does); the reserve holding one card more
# changes no other reserve play. So the new line still wins. After (b) no play at t or
# later is late: the plays moved one place earlier keep the moves that followed them, but
# for the last, now followed by X's play, and that one was no late-able reserve play before
# (the move after it put a card on X, not on it, and it came after t); X's play is now
# followed by the move that puts a card on X. So (length, index of the last late play)
# drops in every step, and the steps end with a line as claimed. The proof tracks physical
# cards, so copies of a card change nothing.
#
# Consequence for the search. Chaining the plays that follow each other, every reserve play
# of a normal line starts a *bridge*: reserve cards X1, ..., Xk, each played on the one
# before, X1 onto a tableau card or an empty pile that takes it, then a run from a pile
# onto Xk; or X1 onto a foundation (an Ace onto an empty one), then a card from the top of
# a pile home onto Xk, or Xk a King. The expander offers bridges instead of single reserve plays, each
# with its macro moves (turns included). If a position has a win, take a shortest one and
# put it in normal form: its first move or bridge is a successor from which a win of fewer
# moves exists, and safe autoplay after it only deletes moves (solver/autoplay.py). By
# induction on the length of the shortest win, the search reaches a won position whenever
# one exists: "lost" stays a proof. Cards of the same type are interchangeable in every
# later move, so a bridge is offered once per sequence of card types, onto the first empty
# pile only (the key sorts the tableau piles) and onto one foundation of each top (the key
# sorts the foundations). games/interlock/bridges.py proves the same for Interlock's
# tableau bridges.
# tests/test_solver_interchange.py compares the answers with and without bridges.


def _units(game, piles) -> dict[int, list[tuple[int, int]]]:
    """head card -> every (pile, count) run of a tableau pile that it heads."""
    units: dict[int, list[tuple[int, int]]] = {}
    for a in game.tableau_indices:
        pile = piles[a]
        for n in range(1, game.run_length(pile) + 1):
            units.setdefault(pile[-n], []).append((a, n))
    return units


def bridges(game, state):
    """Each bridge: the moves, turns included, and the position after them."""
    piles = state.piles
    reserve = set(cycle(game, piles))
    if not reserve:
        return
    units = _units(game, piles)
    fits_on, ids = hosts_in_order(game), game.pile_ids
    empty_seen = False
    for b in game.tableau_indices:
        pile = piles[b]
        if pile:
            starts = [c for c in fits_on[pile[-1]] if c in reserve]
        elif empty_seen:
            continue
        else:
            empty_seen = True
            starts = sorted(c for c in reserve if game.empty_pile_takes(piles, b, c))
        for first in starts:
            chain: tuple[int, ...] = (first,)
            while True:
                head = chain[-1] - 1 if chain[-1] & 15 > 1 else None
                for a, n in units.get(head, ()) if head is not None else ():
                    if a != b:
                        yield play_bridge(game, state, chain, b, (a, n), ids)
                if head is None or head not in reserve:
                    break
                chain += (head,)


def home_bridges(game, state):
    """Each bridge to a foundation: the moves, turns included, and the position after."""
    piles = state.piles
    reserve = set(cycle(game, piles))
    if not reserve:
        return
    on_top: dict[int, list[int]] = {}  # a face-up top card -> the piles it tops
    for t in game.tableau_indices:
        if piles[t] and not piles[t][-1] & FACE_DOWN:
            on_top.setdefault(piles[t][-1], []).append(t)
    seen = set()
    for f in game.foundation_indices:
        top = piles[f][-1] if piles[f] else 0
        if top in seen or top & 15 == KING:
            continue
        seen.add(top)
        firsts = (
            [c for c in (ACE, 16 | ACE, 32 | ACE, 48 | ACE) if c in reserve]
            if not top
            else [top + 1]
            if top + 1 in reserve
            else []
        )
        for first in firsts:
            yield from home_chains(game, state, f, first, reserve, on_top)
