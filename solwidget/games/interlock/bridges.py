"""Reserve plays in Interlock: a stock card goes to the tableau only to take a card at once.

In Interlock (one deck, one card turned at a time, unlimited redeals, every tableau pile a
run) any card of the stock or waste, the *reserve*, can be turned to the top of the waste
before any move, so a reserve card is as free as a card can be. Lines are read here as
their moves other than turns (turns touch only the reserve: solver/stock.py), a waste play
meaning "turn the card up, then play it". Playing a reserve card X onto the tableau pays
only if something is then built on X, and it can wait until then:

Lemma (normal form). If a position has a winning line of n moves, it has one of at most n
moves in which every play from the waste to the tableau is followed at once by a move that
puts a card on the card just played.

Proof. Call a waste play of X to the tableau *late* when the move after it puts nothing on
X (a won line ends with every card home, so it is never the last move). Take the last late
play, at index t, delete it (X stays in the reserve), and look at the first later move that
concerns X:
(a) X moves alone to another place b: play it from the waste to b instead (one move fewer);
(b) a card or run is put on X: first play X from the waste onto its host (the card under
    it then; see below why that is legal), then that move (as many moves as before);
(c) X goes home: play it home from the waste (one move fewer).
Until then the two lines differ only by X lying on its host or not (the host stays under X,
perhaps carried with it in a larger run; a King played to an empty back pile has no host,
and that pile stays empty instead). Every move in between stays legal without X: nothing
is put on X (it is the first move concerning X), a run carrying X has the same head
without it and is still a run, so it fits where it went (a dropdown too); X's pile was
uncovered when X came, and piles are never covered again, so no dropdown lands on it; the
pile holding X's host is non-empty in both lines, so every pile's emptiness, covering and
"gone" state agree, except an empty back pile where a King X would lie: back piles cover
nothing, and an empty one only takes more; the host cannot go home in between, as X lies
on it in the old line. In (b) the host tops an uncovered pile (the move puts a card there)
and X fitted on it when played. So the new line still wins. In (a) and (c) it is shorter.
In (b) it is as long; X's play is no longer late and moved later, the moves in between
moved one place earlier; among those at least one is no waste play to the tableau (else
the last of them would be late, since the move after it puts a card on X, and it comes
after t), and no other play became late (the plays after t were followed by a card put on
them, and the move now after X's play puts one on X). So the sum of the indices of the
waste plays to the tableau grew, at the same length: it is bounded by the length squared,
so repeating ends, with no late play and no more moves than at first.

Reserve cards home, late. A waste play home of X is *late* when the move after it does
not send the next card of X's suit home (a King is never late: nothing follows it). Take
the last late play of either kind, at index t. If it is a waste play home, move it to
just before the first later move that sends the next card of its suit home (a winning
line has one). In between X lies in the reserve instead of home: no move there concerns X
(it was home), and X home or in the reserve changes no other move's legality (only the
next card of its suit looks at its foundation, and the reserve only offers more cards to
turn up). The line keeps its length and X's play is no longer late; the move now before
it was after t, so it is no late play, and it is no reserve play at all: a waste play to
the tableau before the move home would have been late, and a waste play home of W before
it would have been followed by W's next card, so W would be X. So no play became late,
and the sum of the indices of the reserve plays grew (X's grew by more than the shifts of
the plays in between take away). With the steps of the lemma above (a late play to the
tableau: each step shortens the line, or keeps its length and makes that sum grow; the
argument there holds as it is when "late" covers both kinds and the sum all reserve
plays: a waste play home just before a move that puts a card on X would be late),
repeating ends with a line of no more moves in which no reserve play of either kind is
late. (Without home bridges, reserve cards sent home one at a time would make the search
visit each position once per choice of which of them are home.)

Safe cards home. A card c of rank r goes home at once (``settle``), from the top of a pile
that may give it or from the reserve (turned up first: any reserve card can be), once it is
next on its foundation, both suits of the other colour are home to r - 2 at least and the
other suit of c's colour to r - 3 (solver/autoplay.py's ``lemma_safe``; its ``is_safe``
asks r - 1 of the other colour).

Lemma (safe cards). If a position P has a winning line L of n moves, P with c home has one
of fewer moves. Proof. What may ever be built on c: the two cards of rank r - 1 of the
other colour, next on their foundations (home to r - 2) unless home; on those, only the
card of rank r - 2 of c's colour and not of c's suit (c's suit is home to r - 1), next on
its foundation (home to r - 3) unless home; on that, cards of rank r - 3 of the other
colour, all home. Build L' by following L with a set D of cards, at first {c}, home in L'
and not (yet) in L: a move that puts a unit on a card of D adds the unit's cards to D,
and L' plays them home instead, top first (each is next on its foundation, by the ranks
above, and the unit tops an uncovered pile or is played from the reserve); a move home of
a card of D, or of a unit headed by one, is dropped; any other move is played without the
cards of D that it carries. By induction, a card lying on a card of D is in D, so in L the
cards of D lie at the tops of piles or in the reserve, and L' has L's piles without them
and L's foundations with them. Each move kept is legal in L': a run without a top part is
a run with the same head, and goes where it went (onto a card not in D, which lies where
it did, or onto an empty back pile, empty in L' too); a card not in D goes home when it
does in L (the cards below it in its suit are home in both); piles are only emptier, so
none is less uncovered; a pile empty in L' and not in L holds only cards of D, on which
nothing but cards of D is ever put; a dropdown onto a card of D adds the dropped pile to
D, and a dropdown of a pile all in D is dropped (in L' it is empty already). L' ends with
every card home, as L does; a unit added to D trades the move that added it and its
cards' moves home for as many moves home, and c's move home is dropped: L' is shorter.

The proof reads only that groups are runs, the building (one deck, down in alternating
colours, up from the Ace on the foundations) and, for a card of the tableau, that it tops a
pile that may give it: not the stock, nor what an empty back pile takes, nor whether covered
cards lie face down. So where there are no bridges (Guardian: a stock turned three cards at
a time, any card to an empty back pile, face-down cards), the general successors send home
by this rule, or by solver/autoplay.py's, a card that tops a pile that may give it
(``tops_safe``, and autoplay's ``is_safe_or_lemma``), and the lemma holds as proved: c and
the cards of D never lie in the reserve, and a card that L plays from the waste onto a card
of D goes home from the waste in L' at that same move, so the reserve changes alike in both
lines and each turn and redeal of L is one of L'; an empty back pile takes in L' what it
took in L, whatever it takes; a pile uncovered sooner in L' turns its top card up sooner,
and no move of L needs a card to lie face down. Not with Yukon groups (Love a Duck): a unit
put on a card of D may carry any cards, which cannot all go home at once.

Consequence for the search. Chaining the plays that follow each other, every waste play to
the tableau of a normal line starts a *bridge*: cards X1, ..., Xk from the reserve, X1
onto a tableau top (or a King onto an empty back pile), each Xi+1 onto Xi, then a run from
another tableau pile onto Xk (the move after Xk's play puts a card on Xk, from a pile or
from the waste; a bridge is finite, so it ends with a run from a pile). Every waste play
home starts a *home bridge*: X1 home, each Xi+1 the next card of the suit home from the
reserve, then the next card home from the top of an uncovered pile, or Xk a King. The
expander offers both kinds of bridges as successors instead of single waste plays. If a
position has a win, take a shortest one and put it in normal form: its first move or
bridge is a successor from which a win of fewer moves exists, and each safe card sent home
after it leaves a shorter win still (the lemma above). By induction on the length of the
shortest win, the search reaches a won position whenever one exists: "lost" stays a proof.
tests/test_solver_interlock.py compares the answers with and without bridges, and with
and without home bridges.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...engine.cards import ACE, KING
from ...engine.moves import Move
from ...engine.patience import Patience
from ...engine.state import Pile, State
from ...solver import autoplay
from ...solver.stock import cycle, home_chains, hosts_in_order, play_bridge, reserve_of, turn_up
from .rules import Interlock, InterlockFamily


def applies(game) -> bool:
    """One deck turned one card at a time with unlimited redeals, runs only, no cells,
    covering piles that are gone once empty, as in Interlock proper, and Interlock's
    building: down in alternating colours, Kings alone to empty back piles, foundations up
    from the Ace (the lemmas above use each of these)."""
    return (
        isinstance(game, Interlock)
        and game.draw == 1
        and game.redeals is None
        and game.empty_takes == "king"
        and _lemma_rules(game)
    )


def _lemma_rules(game) -> bool:
    """What the safe cards' lemma reads of the rules: its building (autoplay.lemma_builds)
    with foundations up from the Ace, runs only, no cells."""
    return (
        autoplay.lemma_builds(game)
        and game.foundation_start == ACE
        and game.group == "run"
        and not game.cell_indices
    )


def tops_safe(game) -> bool:
    """Is a card on a tableau top safe by the lemma above (autoplay.is_safe_or_lemma) in a
    game of the family without bridges (Guardian, an Interlock with a stock of three)?"""
    return isinstance(game, InterlockFamily) and not applies(game) and _lemma_rules(game)


def _units(game: InterlockFamily, piles) -> dict[int, tuple[int, int]]:
    """head card -> (pile, count) for every run that may leave an uncovered pile."""
    units = {}
    covers = game._pair  # Interlock's covering piles by index, as can_give reads them
    for a in game.tableau_indices:
        pile = piles[a]
        if pile:
            pair = covers[a]
            if pair is None or not (piles[pair[0]] or piles[pair[1]]):
                for n in range(1, game.run_length(pile) + 1):
                    units[pile[-n]] = (a, n)
    return units


def _chains(fits_on, reserve, first: tuple, units, target: int):
    """Chains of reserve cards, each fitting on the one before, that a unit can end:
    (chain, head card of the unit). ``fits_on``: hosts_in_order's."""
    stack = [first]
    while stack:
        chain = stack.pop()
        last = chain[-1]
        for head in fits_on[last]:
            unit = units.get(head)
            if unit is not None and unit[0] != target:
                yield chain, head
        stack.extend(chain + (c,) for c in fits_on[last] if c in reserve)


def bridges(game: InterlockFamily, state: State) -> Iterator[tuple[tuple[Move, ...], State]]:
    """Each bridge (see above): the moves, turns included, and the position after them.
    The bridges come in a defined order: by target pile, then by first card (the hosts
    ascending, or on an empty pile the reserve's turning order), then as _chains finds them."""
    piles = state.piles
    cards = cycle(game, piles)
    reserve = set(cards)
    if not reserve:
        return
    units = _units(game, piles)
    fits_on = hosts_in_order(game)
    ids = game.pile_ids
    covers, gone = game._pair, game._gone_when_empty  # as Interlock's can_take reads them
    for b in game.tableau_indices:
        pile = piles[b]
        if not pile and gone[b]:
            continue
        pair = covers[b]
        if pair is not None and (piles[pair[0]] or piles[pair[1]]):
            continue
        if pile:
            starts = [(c,) for c in fits_on[pile[-1]] if c in reserve]
        else:
            starts = [(c,) for c in cards if game.empty_pile_takes(piles, b, c)]
        for first in starts:
            for chain, head in _chains(fits_on, reserve, first, units, b):
                yield play_bridge(game, state, chain, b, units[head], ids)


def home_bridges(game: InterlockFamily, state: State) -> Iterator[tuple[tuple[Move, ...], State]]:
    """Each home bridge (see above): the moves, turns included, and the position after them.
    An Ace goes only to the first empty foundation (the key sorts the foundations)."""
    piles = state.piles
    reserve = set(cycle(game, piles))
    if not reserve:
        return
    on_top = {piles[t][-1]: (t,) for t in game.tableau_indices if piles[t] and game.can_give(piles, t)}
    first_empty = next((f for f in game.foundation_indices if not piles[f]), None)
    for f in game.foundation_indices:
        if piles[f]:
            top = piles[f][-1]
            firsts = [top + 1] if top & 15 < KING and top + 1 in reserve else []
        elif f == first_empty:
            firsts = [c for c in (ACE, 16 | ACE, 32 | ACE, 48 | ACE) if c in reserve]
        else:
            continue
        for first in firsts:
            yield from home_chains(game, state, f, first, reserve, on_top)


def settle(game: Patience, state: State) -> tuple[State, list[Move]]:
    """Send the safe cards home (see above), each from the top of a pile that may give it
    or from the reserve, turned up first: the position then, and the moves."""
    played: list[Move] = []
    waste = reserve_of(game)[1]
    while True:
        found = _safe_card(game, state.piles)
        if found is None:
            return state, played
        card, src = found
        if src is None:
            turns, state = turn_up(game, state, card)
            played += turns
            src = waste
        move = game.one_card_moves[src][next(game.foundations_for(state.piles, card))]
        state = game.apply_legal(state, move)
        played.append(move)


def _safe_card(game: Patience, piles) -> tuple[int, int | None] | None:
    """(card, pile) for a card that goes home next and safely: the first on top of a pile
    that may give it, else the top of the waste or the first in the reserve's turning order
    (pile None); None if there is none, as in most positions."""
    safe = _safe_next(game, piles)
    if not safe:
        return None
    for t in game.tableau_indices:
        pile = piles[t]
        if pile and pile[-1] in safe and game.can_give(piles, t):
            return pile[-1], t
    waste = piles[game.waste_index]
    if waste and waste[-1] in safe:
        return waste[-1], None
    return next(((card, None) for card in cycle(game, piles) if card in safe), None)


# the game and foundations last asked, their safe cards
_last_safe: tuple[Patience | None, tuple[Pile, ...] | None, tuple[int, ...]] = (None, None, ())


def _safe_next(game: Patience, piles) -> tuple:
    """The cards that go home next and safely (see above), by suit: they depend on the
    foundations alone, which a position mostly shares with the one asked before."""
    global _last_safe
    foundations = piles[
        game.foundation_indices[0] : game.foundation_indices[-1] + 1
    ]  # Patience numbers them in a run
    last = _last_safe  # one read: another thread may replace it meanwhile
    if last[0] is game and last[1] == foundations:
        return last[2]
    level = [0, 0, 0, 0]
    for pile in foundations:
        if pile:
            top = pile[-1]
            level[top >> 4 & 3] = top & 15
    cards = []
    for suit in range(4):
        rank = level[suit] + 1
        if rank <= KING and autoplay.lemma_safe(level, suit):
            cards.append(suit << 4 | rank)
    safe = tuple(cards)
    _last_safe = (game, foundations, safe)
    return safe
