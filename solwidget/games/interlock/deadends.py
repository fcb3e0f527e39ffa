"""Dead ends in Interlock (and Guardian): positions from which no win exists, found without
search.

The test is a relaxation: it works out, for a position, every event that *might* happen
in some continuation, using for each kind of event a condition that every real occurrence
of it needs, made of events that must have happened before. Events are
- H(c): card c goes home;
- E(p): tableau pile p is empty (now, or after some move);
- U(p): every covering pile of p is empty (p is uncovered);
- A(x): card x lies on top of an uncovered pile (so a run may be put on it), or is a
  card of the reserve (stock and waste) that might get there;
- S(p): an empty uncovered back pile other than p exists (a King from p might go there;
  in Guardian, where an empty back pile takes any card, any card from p);
- B(c): tableau card c is bare: nothing lies on it (now, or after some move).
The rules (the facts behind them come from docs/rules.md and rules.py):
- E(p) for an empty pile and H(c) for a card home hold from the start. Covering piles
  (middle and front) never take cards once empty, so U(p) follows from E of each of p's
  covering piles, and it then holds for good.
- H(c) needs H of the card below c in its suit, and, for a card of a tableau pile p, U(p)
  and B(c): c goes home from the top of an uncovered pile, so it either never left p,
  which then was uncovered, or it left p earlier, and a covered pile gives no cards (a
  dropdown moves an uncovered pile).
- B(c) holds from the start for a top card. For a card c with card g lying on it now, B(c)
  needs g to leave c first, and g leaves c only as the head of the unit that moves (a
  dropdown carries c along with g): home (H(g)), onto a host of g other than c (A of that
  host), or, for a King (any card in Guardian), onto an empty back pile (S; c's pile holds
  cards).
- A(x), for a card x of pile q, needs U(q), by the same argument, and B(x). For a reserve
  card x, A(x) needs A(y) for a host y of x (a card one rank higher of the other colour),
  or, for a King (any card in Guardian), S: a reserve card reaches the tableau only onto
  such a card or an empty back pile, both on uncovered piles.
- E(p), for a pile p that holds cards, needs U(p) and a way out for its bottom card b.
  Every pile is a run (building, dropdowns and runs moved onto empty back piles keep it
  one) and cards come and go only at the top, so b stays p's bottom card until p empties,
  and it leaves last: home (H(b)), as the head of a run moved onto a host y (A(y)), a King
  (any card in Guardian) onto an empty back pile (S(p)), or by a dropdown of p onto a pile
  q it covers, onto q's top card, which must be a host of b, with q's other covering pile
  empty (E). While p holds cards, q can only take a dropdown from p itself (its other
  covering pile would need p empty first), so q's top card then is still its top card now.
Starting from the facts of the position, the rules are applied until nothing changes. By
induction over the moves of any continuation, every event that happens in it is among the
events found (each needs events that happened earlier, found by then). A win sends every
card home; so if some H(c) is not found, no win exists: the position is *dead*.
A covered pile's card (Guardian's) lies face down until the pile is uncovered, so that no
dropdown ever lands on it: the rules above let that happen, which only finds more events,
and a position they call dead is still dead. They read face-down cards face up.

A stock that turns d > 1 cards at a time (Guardian's three) shows a reserve card only at
some moments, and the rules above then ask one event more of a reserve card x: T(x), x
comes to the top of the waste; both A(x) and H(x) need it (x leaves the reserve only from
there). Number the reserve's cards in turning order (the *cycle*: the waste from its
bottom, then the stock from its top; a redeal keeps the order) and let w be the waste's
count, so that its top is card w - 1. A turn moves the top d cards on (or to the last
card), a play from the waste removes the top, whose place the card under it takes, and a
redeal, once the stock is empty, starts a pass from before card 0. So, within a pass, a
play shifts the top and every later card back by one alike, and a card z beyond the top
comes up by a turn in the current pass only if z - (w - 1) is a multiple of d, and in a
later pass only if z - r + 1 is, r being the cards before z removed by that pass's start;
or z comes up as the last card, once every card after it has left. A card x comes to the
top by a turn (z = x) or when the card over it is played; following those plays up, the
cards x + 1 ... z have all left the reserve by then, z having come up by a turn or as the
last card. So T(x) needs, for some j >= 0 with the j cards after x found to leave (A or
H): z = x + j is the last card once they leave, or z >= w - 1 with z - (w - 1) a
multiple of d, or z - r + 1 a multiple of d for some r at most the cards before x found
to leave plus j - 1 (``shown``). For d = 1 it always holds and is not asked.

Twins sharing a host (a *split*). The closure lets any number of cards use a host at once;
a host holds one at a time. Twins g and g', the two cards of one rank and colour (7D and
7H), have the same two hosts y and y' (8C and 8S). A card leaves y only as the head of the
unit that moves (carrying y along leaves it on y): home, or onto a host of its own other
than y, which for g is y'. In any continuation, take the first time that g or g' lies on
y (now counts). If it is g, then whenever g' is put on y later, y is free, so g has left
it before: H(g) happened, or A(y') did. Hence every continuation keeps one of
  (i)  g' is put on y only after H(g) or A(y');   (ii) the same with g and g' swapped
(both, if neither ever lies on y). The closure under (i) uses the same rules, except that
putting g' on y (rule E for a pile whose bottom card is g', rule B for g' lying on a card,
rule A for g' in the reserve, and a dropdown of a pile whose bottom card is g' onto y) also
needs H(g) or A(y') found; by the same induction it finds every event of every
continuation that keeps (i). So if neither closure, under (i) nor under (ii), finds every
card home, no continuation wins: the position is dead. In the code the condition is a
virtual card (VIRTUALS) that stands for y among g''s hosts and is found available once A(y)
and H(g) or A(y') are; a g' lying on y now leaves it for y' or home only.
Splits nest: every continuation that keeps (i) also keeps one of the two cases of any
other pair of twins, so case (i) is dead when the closures under (i) and each of those
cases fail (each guest with a virtual card of its own); a position is dead when every
leaf of such a tree of cases is. Where an empty back pile takes any card (Guardian), a
guest may also leave its host for one: the argument fails, and no twins' split is tried.

A host going home under its guest (a *host split*). The closure lets a card y take a guest g
and still go home by rule H, as if y stayed bare: it reads B(y) only of the cards lying on y
now. For a card g and a host y of g, every continuation either
  (never)  never puts g on y (from now on), or
  (leaves) puts g on y at some time, and then y goes home only after H(g), A(y') (y' being
           g's other host) or, where an empty back pile takes any card, S:
once y is home it takes no card, so g was put on y before y went home, and y goes home
from the top of a pile, so g had left it by then; g leaves y only as the head of the unit
that moves (a dropdown carries y along with g): home, onto its other host, or onto an empty
back pile, which takes g only where it takes any card (g has a host: no King). The closure
under (never) is a split's, g's host y standing for a card never found available (twin
NEVER_HOME, other host none); under (leaves) rule H asks that of y as well. Each finds
every event of every continuation that keeps its case, by the induction above; if neither
finds every card home, the position is dead. Tried where an empty back pile takes any card
(Guardian, where no twins' split is), on the pairs the plain closure let move while y alone
of g's hosts was available (``_host_splits``), unless, when it found H(y), it had found
H(g), A(y') or S too (LEFT_FREE): then the closure under (leaves) takes every step the
plain closure took, and finds every card home too. Elsewhere it finds next to nothing: of
positions drawn from the searches of Love a Duck's deal 824 and Interlock's deal 351 that
the test leaves alive, trying every host, it proves none dead.

Kings sharing an empty back pile (the *King split*). The closure lets any number of Kings
use one empty back pile at once (S counts the back piles found empty and uncovered, and asks
for one); a back pile holds one King at a time. Where only a King (or a group headed by one)
may go to an empty back pile, a King that goes to one stays there until it goes home: it
leaves only as the head of a group, whose head fits no card, so home or to another empty
back pile; and that last move carries the whole of one uncovered back pile to another, so a
winning continuation without it exists (uncovered back piles cover nothing and play alike:
the two trade names from then on). In such a continuation take the Kings in the order in
which they first go to an empty back pile, k1, k2, ... When ki goes to one, each kj before
it lies in a back pile of its own or is home, and each of those back piles was empty and
uncovered when kj went there; so by then at least 1 + (the kj, j < i, not home) back piles
were empty and uncovered. Hence every such continuation keeps one of the cases
  (k1 ... kn, closed)  for n < KING_DEPTH: these Kings go, in this order, and no other;
  (k1 ... kD, open)    for D = KING_DEPTH: these go first, in this order, others may follow;
under which S holds for the i-th King of the order only once 1 + (the Kings before it in
the order, not home) back piles were found empty and uncovered, for a King an open case does
not name only once 1 + (the Kings it names, not home) were, and for no King a closed case
does not name. The closure under a case uses the same rules with S for Kings so restricted;
by the same induction it finds every event of every continuation that keeps the case (it
finds H of a King no later than it happens, so the count it asks is never more than the
continuation had), and if no case's closure finds every card home, the position is dead. The
orders name only Kings that the plain closure sent to an empty back pile: no continuation
sends another. A closed case that names fewer of those Kings than KING_DEPTH, and not all of
them, need not be tried: the case that names one more of them after its own lets S hold
for every King whenever it holds under the closed case (the same condition for the Kings the
closed case names; for the King added, and for every other if the longer case is open, a
condition where the closed case allowed none; for the rest none under either), and the
closure's rules only add what they find, so the closure under the longer case finds every
event the closed case's closure finds: if that one finds every card home, so does this one.
So the split tries the orders of KING_DEPTH of the Kings sent, or of all of them if fewer
(``king_cases``). The split is tried only where the plain closure sent a King while it had
found no more back piles empty and uncovered than the Kings it had sent before, not home
(``note_king``): otherwise the case that names the Kings in the plain closure's own order
takes every step the plain closure took, and finds every card home too. In
Interlock's hardest proofs the split is asked often but proves nothing (a second back pile
empties later, in every case: none of 400 live positions of deal 351's search), so it would
only cost closures; so the search tries it on every SCOUT-th such position until it first
proves one dead, and then on every one until it fails on PATIENCE of them in a row (in
Love a Duck's long losses it proves a few in a hundred dead, in bursts), then on every
SCOUT-th again until it proves one dead again.
Guardian, where an empty back pile takes any card, gets no King split.

Which splits are tried changes only the cost: a position is called dead only when the
plain closure, or every leaf of a tree of splits, fails. Tried are the twins that the plain
closure lets move while the same single host was available to both (or, for a pile that
might drop down, lay under it), or, where an empty back pile takes any card, the host
splits it suggests (above); a split costs two closures.
- The search's start (the first position left alive) gets splits nested FIRST_DEPTH deep,
  each level on the splits its own closure suggests: that proves many deals lost at the
  deal itself, cheaply; a level more would mostly prove, at several times the cost, what
  the search proves soon anyway. Host splits are tried there, all of them, none nested.
- Later positions get single splits of twins, none nested (that costs more than it saves),
  and only once PLAIN_FIRST positions were left alive, so that short searches, most wins,
  explore as they would without splits: of the splits suggested, the KILLER_TRIES that
  last proved a position dead, and all of them at every SCOUT-th position (which finds new
  ones). Host splits so tried cost more closures than the positions they prove dead save
  (docs/solver.md), so later positions get none.
- Where no single split proves a later position dead, *nested killers*: a split and, for
  each of its cases, the split nested in it that proved that case dead, or none where the
  case's closure alone failed (a tree of cases one deep, dead at every leaf: dead by the
  argument above; a split is a true alternative of every continuation whether or not a
  closure suggests it, so a nested killer is sound on any position). The NESTED_TRIES
  latest whose split the plain closure suggests are tried (six closures at most each),
  until they fail on PATIENCE positions in a row, and from then on at every
  SCOUT-th position, until one proves a position dead again. At every NEST_SCOUT-th
  position every suggested split is nested one deep, each case on the splits its own
  closure suggests, and the first that proves the position dead is remembered (KILLERS of
  them). Single splits nested everywhere prove the long losses of Love a Duck in several
  times fewer expansions but cost every position twice the closures; remembered, the few
  nestings that kill are found again for the price of a few closures, and where they stop
  killing they stop costing (docs/solver.md).
What the closures miss is time: they may let a card take a guest and also go home early,
though the guest must leave it first (the host split catches this for one guest and host at
a time). Why no stronger test is made: docs/solver.md, "Twins" and "Decisions".

The search does not expand a dead position (solver/expand.py). That keeps "lost" a proof
(solver/search.py): every position on a winning line has a win, so none of them is dead,
and the argument there that some won position is reached uses only those.
tests/test_solver_interlock.py checks that no position on the solver's winning lines is
dead (under every split too) and that positions found dead, by the plain closure or by a
split, are lost when searched without that test.

Long because the proofs above (the rules, the twins', the host and the King splits) are each
one argument over the closure that applies them: in one module, each sits beside its code.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from operator import not_

from ...engine.cards import ACE, FACE_DOWN, KING, OTHER_COLOUR
from ...engine.patience import Build
from ...engine.state import Piles
from ...solver import stock
from .rules import Guardian, Interlock, LoveADuck

TWIN = 0x30  # card ^ TWIN: its twin, of the same rank and colour (clubs-spades, diamonds-hearts)
VIRTUALS = (15, 31, 47)  # no cards: each stands for "the host, once free" in a split (see above), nested
NEVER_HOME = 15  # no card (rank 15): a host split's twin, never home, so its virtual card never free
KILLERS = 8  # splits remembered for having proved positions dead, latest first
KILLER_TRIES = 2  # of those, tried on each position the plain closure leaves alive
SCOUT = 16  # every SCOUT-th such position tries all the splits ``uses`` suggests
NESTED_TRIES = 2  # nested killers tried on a position that no single killer proves dead
NEST_SCOUT = 64  # every NEST_SCOUT-th such position nests all the splits ``uses`` suggests
PATIENCE = 16  # failures in a row of the King split, or nested killers, before only every SCOUT-th
PLAIN_FIRST = 100  # positions left alive by the plain closure before any split is tried
FIRST_DEPTH = 2  # splits nested in the first position left alive: the search's start
ENTRIES_KEPT = 50_000  # piles whose rule B entries are kept (a few hundred bytes each)
ALL_HOME = [KING] * 4
KINGS = tuple(suit << 4 | KING for suit in range(4))
KING_DEPTH = 2  # the King split's cases name the order of at most this many Kings
S_FIRST = 4  # uses[king]: the first King the plain closure sent to an empty back pile
S_SHARED = 8  # uses[king]: a King it sent there while the Kings before might hold every one found
S_SENT = 64  # uses[king]: a King it sent there
LEFT_FREE = 16  # uses[card] << host's place (0, 1): the card might leave that host when it went home
FACE_UP = ~FACE_DOWN  # card & FACE_UP: the card face up


def shown(draw: int, on_waste: int, left, up: bytearray) -> bool:
    """Rule T (see above): mark in ``up`` each card of the reserve's cycle that might come to
    the top of the waste, ``on_waste`` cards lying on it and ``draw`` turned at a time, once
    the cards marked in ``left`` might leave the reserve; True if any mark is new."""
    n = len(left)
    after = [0] * n  # after[x]: the run of cards right after x that might leave
    for x in range(n - 2, -1, -1):
        after[x] = after[x + 1] + 1 if left[x + 1] else 0
    new = False
    before = 0  # the cards before x that might leave
    for x in range(n):
        if not up[x] and (x + after[x] == n - 1 or _comes_up(x, after[x], before, draw, on_waste)):
            up[x] = new = True
        before += left[x]
    return new


def _comes_up(x: int, run: int, before: int, draw: int, on_waste: int) -> bool:
    """Might card x of the cycle come up by a turn, itself or a card z = x + j (the ``run``
    of cards after x that might leave covering x + 1 ... z), in this pass or a later one?"""
    low = max(0, on_waste - 1 - x)  # this pass: z at or beyond the waste's top
    if any((x + j - on_waste + 1) % draw == 0 for j in range(low, min(run, low + draw - 1) + 1)):
        return True
    return any((x + j + 1) % draw <= before + max(j - 1, 0) for j in range(min(run, draw) + 1))


def applies(game) -> bool:
    """The family's games (Interlock, Love a Duck, Guardian): runs or Yukon groups (below),
    one deck, no cells; and the rules the events above read: the tableau builds down in
    alternating colours (a card's hosts), an empty back pile takes a King (S), or any card
    (Guardian), foundations build up from the Ace (H). Face-down cards (Guardian's) lie only
    in covered piles, which give and take no cards, and turn up as their pile is uncovered:
    the relaxation reads them face up.

    Yukon groups (Love a Duck: any face-up cards move together if the first fits) and piles
    dealt out of order (Love a Duck's front piles) change nothing the rules above use: a
    group is still the cards of a pile from its first card up, which must fit where it
    goes (a host, or an empty back pile for a King; a dropdown's joining card the top card
    it lands on), so cards still leave a pile from its top, a card still leaves the card
    under it only as the first card of a group (or home, or carried along with it), and the
    bottom card of a pile still leaves it last, as the first card of the last group. Where
    the rules say "run" above, a Yukon group reads the same. Neither is a pile ever asked
    to be a run: a pile dealt out of order only keeps cards longer than the relaxation
    lets them stay."""
    return (
        isinstance(game, (Interlock, Guardian, LoveADuck))
        and game.group in ("run", "yukon")
        and game.decks == 1
        and not game.cell_indices
        and game.build == Build(-1, "alternate")
        and game.empty_takes in ("king", "any")
        and game.foundation_start == ACE
    )


def note_king(uses: bytearray, king: int, sent: tuple, slots: int, home: list[int]) -> tuple:
    """Note in ``uses`` a King that the plain closure sends to an empty back pile (S_SENT;
    S_FIRST for the first; S_SHARED where ``slots`` is not more than the Kings ``sent``
    before it that are not home); the Kings sent, then."""
    uses[king] |= S_SENT if sent else S_SENT | S_FIRST
    if slots < 1 + sum(home[k >> 4] < KING for k in sent):
        uses[king] |= S_SHARED
    return (*sent, king)


def king_cases(sent: list[int], first: tuple | None = None) -> list[tuple]:
    """The King split's cases to try (see above) when the plain closure sent the Kings
    ``sent`` to an empty back pile: every order of KING_DEPTH of them, or of all if fewer.
    ``first`` (the case last found alive: the positions a search asks next are mostly alive
    under the same one) comes first if it is one of them; the test stops at the first case
    alive."""
    cases = list(permutations(sent, min(len(sent), KING_DEPTH)))
    return sorted(cases, key=lambda order: order != first)


def remember(killers: list, killer) -> None:
    """Put ``killer`` first in ``killers`` (latest first, at most KILLERS), once."""
    if killer in killers:
        killers.remove(killer)
    killers.insert(0, killer)
    del killers[KILLERS:]


def king_slot(king: int, slots: int, home: list[int], case: tuple | None) -> bool:
    """Rule S for ``king``, once ``slots`` back piles were found empty and uncovered (at
    least one), under the King split's ``case`` (order, closed), or None: no split (see
    above)."""
    if case is None:
        return True
    order, closed = case
    waiting = 0  # the Kings before it in the order, not home
    for k in order:
        if k == king:
            return slots >= 1 + waiting
        waiting += home[k >> 4] < KING
    return not closed and slots >= 1 + waiting


class DeadEnds:
    """``is_dead(state)``: does the relaxation above leave some card unable to go home?"""

    def __init__(self, game):
        self.game = game
        self.tableau_indices = game.tableau_indices
        self.covers = [game.covers.get(i, ()) for i in range(len(game.pile_ids))]
        self.covered = [game.covered.get(i, ()) for i in range(len(game.pile_ids))]
        # below: (t, ((q, q's other covering pile), ...)) for each pile t that covers piles q
        self.below = tuple(
            (t, tuple((q, self._other_cover(q, t)) for q in self.covered[t]))
            for t in self.tableau_indices
            if self.covered[t]
        )
        self.backs = tuple(t for t in game.tableau_indices if game.layer[t] == 0)
        self.is_back = [int(game.layer.get(i, 1) == 0) for i in range(len(game.pile_ids))]
        self.reserve_piles = tuple(i for i in (game.stock_index, game.waste_index) if i is not None)
        self.draw = game.draw if game.stock_index is not None else 0  # rule T for draw > 1
        self.any_to_empty = game.empty_takes == "any"  # S lets any card go, not just a King
        self.face_down = game.face_down_cards
        # hosts[card]: the cards a run headed by ``card`` may be put on (none for a King)
        self.hosts: list[tuple[int, ...]] = [()] * 64
        for suit in range(4):
            for rank in range(1, KING):
                self.hosts[suit << 4 | rank] = tuple(s << 4 | rank + 1 for s in OTHER_COLOUR[suit])
        # pair[card]: the card and its two hosts, card 0 (no card) standing in for a King's
        self.pair = [(card, *(self.hosts[card] or (0, 0))) for card in range(64)]
        self.killers: list[tuple[int, int, int, int]] = []
        self.nested: list[tuple] = []  # nested killers (split, (inner split or None) x 2), latest first
        self.nested_missed = 0  # positions in a row on which the nested killers tried all failed
        self.alive = 0
        self.sharing = 0  # positions where Kings might share an empty back pile (_kings_lost)
        self.kings_missed = PATIENCE  # positions in a row the King split failed on, or PATIENCE
        self.king_case: tuple | None = None  # the King split's case last found alive
        self._entries = {}  # pile -> its rule B entries by the plain hosts (_start)
        self._opened = {}  # the piles empty -> U, the waiting piles, S (_facts)
        self.failed = None  # what the last closure that failed found (explain.py reads it)

    def is_dead(self, state, every_split: bool = False) -> bool:
        """The plain closure, then some splits (see above); ``every_split`` tries them all,
        for the tests. Which splits are tried depends on the positions asked before, so
        the answer may too, but "dead" is always proved."""
        piles = self.face_up(state.piles)
        start = self._start(piles)
        if self.any_to_empty:  # host splits, only at the search's start: no ``uses`` after it
            uses = None if self.alive else bytearray(64)
            if not self._closure(piles, self.pair, (), uses, start):
                return True
            if every_split:
                return any(self._host_lost(piles, *split, start) for split in self._every_host_split(piles))
            self.alive += 1
            return uses is not None and any(
                self._host_lost(piles, *split, start) for split in self._host_splits(uses)
            )
        uses = bytearray(64)
        if not self._closure(piles, self.pair, (), uses, start):
            return True
        if self._kings_lost(piles, uses, start, every_split):
            return True
        if every_split:
            return any(self._lost_both_ways(piles, *split, start) for split in self._every_split(piles))
        self.alive += 1
        if self.alive == 1:  # the search's start: its splits, nested
            return self._dead_under(piles, (), FIRST_DEPTH, start)
        if self.alive <= PLAIN_FIRST:
            return False
        splits = set(self._splits(uses))
        tries = [split for split in self.killers if split in splits][:KILLER_TRIES]
        if self.alive % SCOUT == 0:
            tries += sorted(splits.difference(self.killers))
        for split in tries:
            if self._lost_both_ways(piles, *split, start):
                remember(self.killers, split)
                return True
        return self._nested_lost(piles, splits, start)

    def _nested_lost(self, piles, splits: set, start) -> bool:
        """Is the position dead by a nested killer (see above): the NESTED_TRIES latest whose
        split the plain closure suggests (``splits``), unless they failed on the last
        PATIENCE positions they were tried on (then on every SCOUT-th position only),
        and, at every NEST_SCOUT-th position, each suggested split nested one deep, a
        success remembered?"""
        if self.nested_missed < PATIENCE or self.alive % SCOUT == 0:
            tries = [nested for nested in self.nested if nested[0] in splits][:NESTED_TRIES]
            for split, inner in tries:
                if all(
                    self._case_dead(piles, split, case, killer, start) for case, killer in enumerate(inner)
                ):
                    return self._proved((split, inner))
            self.nested_missed += bool(tries)
        if self.alive % NEST_SCOUT:
            return False
        for split in sorted(splits):
            inner = self._inner_killers(piles, split, start)
            if inner is not None:
                return self._proved((split, inner))
        return False

    def _proved(self, nested) -> bool:
        """A nested killer proved a position dead: remember it, and try them all again."""
        remember(self.nested, nested)
        self.nested_missed = 0
        return True

    def _inner_killers(self, piles, split, start) -> tuple | None:
        """For each case of the split, what proves the position dead under it (``_case_killer``),
        or None if some case is alive, its inner splits too."""
        inner = []
        for case in (0, 1):
            killer = self._case_killer(piles, split, case, start)
            if killer is False:
                return None
            inner.append(killer)
        return tuple(inner)

    def _case_dead(self, piles, split, case: int, inner: tuple[int, int, int, int] | None, start) -> bool:
        """Is the position dead under the split's ``case`` (0: its twin first on the host, 1:
        its guest), by both cases of the split ``inner`` (if any) nested in it, or else by
        the closure? The inner split is asked first: it was kept where the case's closure
        alone found every card home, as it mostly does again."""
        under = (self._case(split, case),)
        if inner is not None and self._lost_both_ways(piles, *inner, start, under):
            return True
        return not self._closure(piles, self._split_pair(under), under, None, start)

    def _case_killer(self, piles, split, case: int, start):
        """What proves the position dead under the split's ``case``: None, its closure; a
        split its closure suggests, of another pair of twins, both of whose cases nested in
        it fail; False, neither."""
        under = (self._case(split, case),)
        uses = bytearray(64)
        if not self._closure(piles, self._split_pair(under), under, uses, start):
            return None
        for inner in self._splits(uses):
            if inner[0] != split[0] and self._lost_both_ways(piles, *inner, start, under):
                return inner
        return False

    @staticmethod
    def _case(split, case: int, virtual: int = VIRTUALS[0]) -> tuple:
        """The split's ``case`` (0: its twin first on the host, 1: its guest), as ``splits``
        hold one: (guest, twin, host, other, virtual card), the guest being the card put on
        the host only once its twin went home or the other host was free."""
        g, h, host, other = split
        guest, twin = (h, g) if case == 0 else (g, h)
        return guest, twin, host, other, virtual

    def face_up(self, piles: Piles) -> Piles:
        """``piles`` with every card face up, as the relaxation reads them (``applies``)."""
        if not self.face_down:
            return piles
        return tuple(
            pile if not any(c & FACE_DOWN for c in pile) else tuple(c & FACE_UP for c in pile)
            for pile in piles
        )

    def _splits(self, uses: bytearray) -> Iterator[tuple[int, int, int, int]]:
        """(guest, twin, host, other host) for each pair of twins that the plain closure let
        move while one and the same host alone was available to both (``uses[card]``: bit 1
        its first host, bit 2 its second, as ``pair`` lists them)."""
        for card in range(64):
            if card & 0x30 in (0x00, 0x10) and uses[card] in (1, 2) and uses[card] == uses[card ^ TWIN]:
                _, h0, h1 = self.pair[card]
                if uses[card] == 1:
                    yield card, card ^ TWIN, h0, h1
                else:
                    yield card, card ^ TWIN, h1, h0

    def _host_splits(self, uses: bytearray) -> Iterator[tuple[int, int, int]]:
        """(guest, host, other host): a host split (see above) for each card that the plain
        closure let move while one of its hosts alone was available, that host, unless the
        card might leave it when it went home (LEFT_FREE)."""
        for card in range(64):
            moved = uses[card] & 3
            if moved in (1, 2) and not uses[card] & LEFT_FREE << moved - 1:
                _, h0, h1 = self.pair[card]
                yield (card, h0, h1) if moved == 1 else (card, h1, h0)

    def _every_host_split(self, piles: Piles) -> Iterator[tuple[int, int, int]]:
        """Every (guest, host, other host) with the guest and the host not home."""
        home = self._home(piles)
        for card in range(64):
            if 0 < card & 15 < KING and home[card >> 4] < card & 15:
                _, h0, h1 = self.pair[card]
                for host, other in ((h0, h1), (h1, h0)):
                    if home[host >> 4] < host & 15:
                        yield card, host, other

    def _host_lost(self, piles, guest: int, host: int, other: int, start) -> bool:
        """Is the position dead under both cases of the host split of ``guest`` and ``host``
        (``other``: the guest's other host)?"""
        if not self._closure(piles, self.pair, (), None, start, held=(guest, host, other)):
            never = (guest, NEVER_HOME, host, 0, VIRTUALS[0])  # its virtual card never free
            return not self._closure(piles, self._split_pair((never,)), (never,), None, start)
        return False

    def _home(self, piles: Piles) -> list[int]:
        """The rank home in each suit."""
        home = [0, 0, 0, 0]
        for f in self.game.foundation_indices:
            if piles[f]:
                home[piles[f][-1] >> 4 & 3] = piles[f][-1] & 15
        return home

    def _every_split(self, piles: Piles) -> Iterator[tuple[int, int, int, int]]:
        """Every (guest, twin, host, other host) with the twins and the host not home."""
        home = self._home(piles)
        for rank in range(1, KING):
            for suit in (0, 1):
                card = suit << 4 | rank
                if home[suit] < rank and home[suit ^ 3] < rank:
                    _, h0, h1 = self.pair[card]
                    for host, other in ((h0, h1), (h1, h0)):
                        if home[host >> 4 & 3] <= rank:
                            yield card, card ^ TWIN, host, other

    def _kings_lost(self, piles, uses: bytearray, start, always: bool = True) -> bool:
        """Is the position dead under every case of the King split (see above)? ``uses``: the
        plain closure's, which says which Kings it sent to an empty back pile. Unless
        ``always``, the split is tried on every position where Kings might share a back pile
        while it has failed on fewer than PATIENCE of them in a row since it last proved one
        dead, and on every SCOUT-th such position otherwise (so before it first does)."""
        if not any(uses[king] & S_SHARED for king in KINGS):
            return False
        self.sharing += 1
        if not (always or self.kings_missed < PATIENCE or (self.sharing - 1) % SCOUT == 0):
            return False
        sent = [king for king in KINGS if uses[king] & S_FIRST]
        sent += [king for king in KINGS if uses[king] & (S_SENT | S_FIRST) == S_SENT]
        for order in king_cases(sent, self.king_case):
            if self._closure(piles, self.pair, (), None, start, (order, len(order) < KING_DEPTH)):
                self.king_case = order
                self.kings_missed += 1
                return False
        self.kings_missed = 0
        return True

    def _lost_both_ways(self, piles, g, h, host, other, start=None, splits=(), depth=0) -> bool:
        """Is the position dead under both cases of the split, g first on ``host``, then h
        first, each with ``splits`` kept too and ``depth`` more splits nested (see above)?
        ``start``: ``_start(piles)``, if known."""
        start = start or self._start(piles)
        return all(
            self._dead_under(
                piles, (*splits, self._case((g, h, host, other), case, VIRTUALS[len(splits)])), depth, start
            )
            for case in (0, 1)
        )

    def _dead_under(self, piles, splits, depth, start) -> bool:
        """Does the closure under ``splits`` fail, or else, ``depth`` levels deep, both
        cases of some further split that it suggests (the twins of each pair split once)?"""
        uses = bytearray(64) if depth else None
        if not self._closure(piles, self._split_pair(splits), splits, uses, start):
            return True
        split_pairs = {min(guest, guest ^ TWIN) for guest, *_ in splits}
        return (
            depth > 0
            and uses is not None
            and any(
                self._lost_both_ways(piles, *split, start, splits, depth - 1)
                for split in self._splits(uses)
                if split[0] not in split_pairs
            )
        )

    def _split_pair(self, splits):
        """``pair`` with each split's guest taking its virtual card for the host."""
        pair = list(self.pair)
        for guest, _, host, _, virtual in splits:
            pair[guest] = tuple(virtual if c == host else c for c in pair[guest])
        return pair

    def _start(self, piles) -> tuple:
        """What every closure of this position starts from, splits or not: the ranks home,
        each card's pile, the buried cards' entries (``_buried``, by the plain hosts), and
        rule E's dropdowns. The entries are kept by pile: a position shares most of its
        piles with its parent (the same tuples)."""
        home = self._home(piles)
        pile_of = [None] * 64
        bare = bytearray(64)  # B: the top cards
        buried: list[int] = []
        known = self._entries
        for t in self.tableau_indices:
            pile = piles[t]
            if pile:
                for card in pile:
                    pile_of[card] = t
                bare[pile[-1]] = 1
                if len(pile) > 1:
                    entries = known.get(pile)
                    if entries is None:
                        if len(known) > ENTRIES_KEPT:
                            known.clear()
                        entries = known[pile] = self._buried(pile, self.pair)
                    buried += entries
        return home, pile_of, buried, self._drop_targets(piles), self._facts(piles, bytes(bare))

    def _facts(self, piles, bare) -> tuple:
        """The facts every closure starts from (the same for a split): E, U, A, B (``bare``,
        the top cards), the uncovered piles that hold cards (rule E's waiting), S, the
        reserve's cards, and rule T's cycle (``_cycle``). U, the waiting piles and S depend
        on E alone, kept by it."""
        empty = bytes(map(not_, piles))
        opened = self._opened.get(empty)
        if opened is None:
            if len(self._opened) > ENTRIES_KEPT:
                self._opened.clear()
            opened = self._opened[empty] = self._opening(empty)
        uncovered, waiting, slots = opened
        available = bytearray(64)
        for t in waiting:
            available[piles[t][-1]] = 1
        reserve = tuple(map(FACE_UP.__and__, sum((piles[i] for i in self.reserve_piles), ())))
        return empty, uncovered, bytes(available), bare, waiting, slots, reserve, self._cycle(piles)

    def _cycle(self, piles) -> tuple | None:
        """Rule T's facts: the reserve's cards in turning order (``stock.cycle``), the waste's
        count, and each card's place in the cycle (-1: none); None where every reserve card
        may come up at any time (draw 1)."""
        if self.draw <= 1:
            return None
        cycle = stock.cycle(self.game, piles)
        at = [-1] * 64
        for x, card in enumerate(cycle):
            at[card] = x
        return cycle, len(piles[self.game.waste_index]), at

    def _opening(self, empty) -> tuple:
        """(U, the uncovered piles that hold cards in order, S's count of uncovered empty
        back piles) for the piles empty by ``empty``."""
        covers = self.covers
        uncovered = bytearray(len(empty))
        waiting = []
        slots = 0
        for t in self.tableau_indices:
            cover = covers[t]
            if not cover or (empty[cover[0]] and empty[cover[1]]):
                uncovered[t] = 1
                if empty[t]:
                    slots += self.is_back[t]
                else:
                    waiting.append(t)
        return bytes(uncovered), tuple(waiting), slots

    @staticmethod
    def _buried(pile, pair, splits=()) -> list:
        """(card, its guest's suit and rank, the guest's other hosts) for each card of
        ``pile`` with a card on it (rule B), by ``pair`` (see ``_closure``)."""
        entries = []
        for j in range(len(pile) - 1):
            card, guest = pile[j], pile[j + 1]
            _, h0, h1 = pair[guest]
            for s_guest, _, s_host, _, virtual in splits:
                if guest == s_guest and card == s_host:  # on the host
                    h0, h1 = (0 if h == virtual else h for h in (h0, h1))
            entries.append(
                (card, guest >> 4 & 3, guest & 15, 0 if h0 == card else h0, 0 if h1 == card else h1)
            )
        return entries

    def _closure(self, piles, pair, splits=(), uses=None, start=None, case=None, held=None) -> bool:
        """Apply the rules until nothing changes; True if every card is found to go home.
        ``splits``, each (guest, twin, host, other host, virtual card): the guest goes on the
        host only once its twin is home or the other host was available; ``pair`` then
        names the virtual card as the guest's host in the host's place. ``uses`` records,
        for each card that moves by rules E, B or A, which of its hosts were available
        then, or, by rule E, lay on a pile it might drop onto, for a King that rule S
        sends to an empty back pile, ``note_king``'s bits, and where an empty back pile takes
        any card, LEFT_FREE's (``_host_splits``). ``case``: the King split's case, (order,
        closed) as ``king_slot`` reads it, or None. ``held``: a host split's case (leaves),
        (guest, host, other host): the host goes home only once the guest is home, or its
        other host available,
        or (where an empty back pile takes any card) an empty back pile.
        ``start``: ``_start(piles)``, if known."""
        covers, covered, anything = self.covers, self.covered, self.any_to_empty
        home, pile_of, buried, drops, facts = start or self._start(piles)
        home = list(home)
        for guest, *_ in splits:  # the guests' entries
            if pile_of[guest] is not None:
                pile = piles[pile_of[guest]]
                j = pile.index(guest)
                if j:
                    entry = self._buried(pile[j - 1 : j + 1], pair, splits)[0]
                    buried = [entry if e[0] == pile[j - 1] else e for e in buried]
        empty, uncovered, available, bare, waiting, slots, reserve, turns = facts
        empty = bytearray(empty)  # E found
        uncovered = bytearray(uncovered)  # U found
        available = bytearray(available)  # A found (card 0 is none: never)
        bare = bytearray(bare)  # B found
        # waiting: uncovered piles not found to empty yet, in order (replaced, not changed)
        reserve = [pair[c] for c in reserve]
        sent = ()  # the Kings rule S sent to an empty back pile, in order (note_king)
        cycle, on_waste, at = turns or ((), 0, None)
        held_guest, held_host, held_other = held or (0, None, 0)  # a host split's case (leaves)
        up = bytearray(len(cycle))  # T found, by place in the cycle
        left = bytearray(len(cycle))  # A or H found, by place in the cycle
        gone = 0  # the cards in ``left``
        shown_at = -1  # their count when ``shown`` last ran
        changed = True
        while changed:
            changed = False
            if cycle and gone != shown_at:  # rule T, where a card has left since
                if shown(self.draw, on_waste, left, up):
                    changed = True
                shown_at = gone
            for _guest, twin, host, other, virtual in splits:
                if (
                    not available[virtual]
                    and available[host]
                    and (home[twin >> 4 & 3] >= twin & 15 or available[other])
                ):
                    available[virtual] = changed = True
            still = []
            freed = False  # a pile uncovered in this pass: it lies behind, so it
            for t in waiting:  # waits for the next (rule E: may the bottom card leave?)
                bottom, h0, h1 = pair[piles[t][0]]
                rank = bottom & 15
                if not (
                    home[bottom >> 4 & 3] >= rank
                    or available[h0]
                    or available[h1]
                    or (slots and (anything or (rank == KING and king_slot(bottom, slots, home, case))))
                    or (t in drops and self._drops(drops[t], empty, bottom, home, available, splits))
                ):
                    still.append(t)
                    continue
                empty[t] = changed = True
                if uses is not None:
                    uses[bottom] |= available[h0] | available[h1] << 1
                    if rank == KING and home[bottom >> 4 & 3] < KING:
                        sent = note_king(uses, bottom, sent, slots, home)
                    if t in drops:  # a dropdown uses its host too
                        tops = [y for y, c in drops[t] if empty[c]]
                        uses[bottom] |= (h0 in tops) | (h1 in tops) << 1
                slots += self.is_back[t]
                for q in covered[t]:
                    if not uncovered[q] and empty[covers[q][0]] and empty[covers[q][1]]:
                        uncovered[q] = 1
                        for card in piles[q]:
                            available[card] = bare[card]
                        slots += self.is_back[q] and empty[q]
                        if piles[q]:
                            still.append(q)
                            freed = True
            if freed:
                still.sort()
            waiting = still
            still_buried = []
            for entry in buried:  # rule B: may the guest leave the card?
                card, suit, rank, h0, h1 = entry
                if (
                    home[suit] >= rank
                    or available[h0]
                    or available[h1]
                    or (
                        slots
                        and (anything or (rank == KING and king_slot(suit << 4 | rank, slots, home, case)))
                    )
                ):
                    bare[card] = changed = True
                    if uses is not None:
                        uses[suit << 4 | rank] |= available[h0] | available[h1] << 1
                        if rank == KING and home[suit] < KING:
                            sent = note_king(uses, suit << 4 | rank, sent, slots, home)
                    available[card] = uncovered[pile_of[card]]
                else:
                    still_buried.append(entry)
            buried = still_buried
            unplaced = []
            for entry in reserve:  # rule A for reserve cards
                card, h0, h1 = entry
                if (at is None or up[at[card]]) and (
                    available[h0]
                    or available[h1]
                    or (slots and (anything or (card & 15 == KING and king_slot(card, slots, home, case))))
                ):
                    available[card] = changed = True
                    if at is not None:
                        left[at[card]] = 1
                        gone += 1
                    if uses is not None:
                        uses[card] |= available[h0] | available[h1] << 1
                        if card & 15 == KING:
                            sent = note_king(uses, card, sent, slots, home)
                else:
                    unplaced.append(entry)
            reserve = unplaced
            for suit in range(4):
                while home[suit] < KING:
                    card = suit << 4 | home[suit] + 1
                    t = pile_of[card]
                    if t is not None and not (uncovered[t] and bare[card]):
                        break
                    if card == held_host and not (
                        home[held_guest >> 4] >= held_guest & 15
                        or available[held_other]
                        or (anything and slots)
                    ):
                        break
                    if t is None and at is not None and at[card] >= 0:  # a reserve card: rule T
                        if not up[at[card]]:
                            break
                        if not left[at[card]]:
                            left[at[card]] = 1
                            gone += 1
                    home[suit] += 1
                    changed = True
                    if uses is not None and anything and card & 15 > 1:
                        self._note_left(uses, card, home, available, slots)
            if home == ALL_HOME:
                return True
        self.failed = (home, pile_of, uncovered, bare, available, empty, slots, cycle, left)  # explain.py
        return False

    def _note_left(self, uses, host, home, available, slots) -> None:
        """``host`` found home: mark LEFT_FREE for each guest of it that might leave it by
        then (home, its other host available, or an empty back pile: ``_host_splits``)."""
        rank = (host & 15) - 1
        for suit in OTHER_COLOUR[host >> 4]:
            guest = suit << 4 | rank
            if home[suit] >= rank or available[host ^ TWIN] or slots:
                uses[guest] |= LEFT_FREE << self.pair[guest].index(host) - 1

    def _drop_targets(self, piles) -> dict:
        """pile t -> [(y, c)]: for each pile that t covers whose top card y now is a host of
        t's bottom card, y and that pile's other covering pile c (rule E's dropdowns: t may
        drop onto y once c is empty; y stays the top card meanwhile, see above)."""
        hosts = self.hosts
        targets: dict[int, list[tuple[int, int]]] = {}
        for t, below in self.below:
            if piles[t]:
                fitting = hosts[piles[t][0]]
                for q, other_cover in below:
                    if piles[q] and piles[q][-1] in fitting:
                        targets.setdefault(t, []).append((piles[q][-1], other_cover))
        return targets

    def _other_cover(self, q, t) -> int:
        """The covering pile of ``q`` other than ``t``."""
        c0, c1 = self.covers[q]
        return c1 if c0 == t else c0

    def _drops(self, targets, empty, bottom, home, available, splits) -> bool:
        """Might a pile with this bottom card drop down onto one of ``targets`` (rule E)?"""
        for top, other_cover in targets:
            if empty[other_cover] and all(
                bottom != guest or top != host or home[twin >> 4 & 3] >= twin & 15 or available[other]
                for guest, twin, host, other, _ in splits
            ):
                return True
        return False
