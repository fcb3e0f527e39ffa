"""Triple (and Quadruple) Interchange's successors, made straight from the piles.

``InterchangeExpander`` yields exactly what ``InterchangeFamilyExpander`` yields for these
games, in the same order (the engine's moves with the same key-equal duplicates skipped,
then the bridges of reductions.py, each followed by the same safe moves home), so the
searches are unchanged; it only skips the general machinery. Its moves come from
moves.py, the generator that gives the engine's legal moves too (rules.py): asked with
``every=False``, it leaves out the key-equal duplicates and the reserve plays (the bridges
replace them), and gives each move's pile indices. The gains:
- the stock and waste are read once a position as their turning cycle (solver/stock.py), and a
  bridge's turns and plays are worked out on that cycle, one chain card after the other,
  instead of building a position after every card;
- safe moves home (solver/autoplay.py) are looked for only among the pile tops, against the set of
  cards the foundations take safely, made once for each set of foundations;
- a move or bridge that no safe move can follow gets its key asked before its position is
  made (``scored``): about half of them are seen already, and only the others get their
  position, moves, stock and waste made (and a tableau move or bridge its score from its
  parent's).
The engine stays the judge: every win is replayed through ``State.play``
(solver/search.py), and tests/test_solver_interchange.py compares both expanders move for
move.
"""

from __future__ import annotations

from ...engine.cards import ACE, FACE_DOWN, KING
from ...engine.moves import Move
from ...engine.state import Pile, State
from ...solver.contract import DeadEnds
from ...solver.expand import PatienceExpander
from ...solver.heuristics import PatienceScore
from ...solver.keys import CycleKey
from ...solver.stock import REDEAL, TURN, hosts_in_order
from . import reductions

ACES = (ACE, 16 | ACE, 32 | ACE, 48 | ACE)
_FACE_UP = bytes(c & ~FACE_DOWN for c in range(256))  # for bytes.translate
_FACE_DOWN = bytes(c | FACE_DOWN for c in range(128)) + bytes(range(128, 256))


class InterchangeFamilyExpander(PatienceExpander):
    """The generic successors, with the family's dead ends and bridges (reductions.py)
    where their lemmas hold."""

    def reserve_plays(self, game):
        if reductions.bridges_apply(game):
            return reductions.bridges, reductions.home_bridges
        return None, None

    def dead_end_test(self, game):
        return reductions.DeadEnds(game) if reductions.applies(game) else None


def fast_path(game, compress=True) -> bool:
    """Does InterchangeExpander give InterchangeFamilyExpander's successors for ``game``?"""
    return compress and reductions.applies(game) and reductions.bridges_apply(game) and game.symmetric_tableau


# The stock and waste as a turning cycle, a *reserve*: the tuple (order, now, redeals),
# ``order`` the waste bottom to top, then the stock from its top, as bytes (quick to slice
# and search), ``now`` cards of it on the waste, ``redeals`` made so far. A plain tuple, not
# an instance of a class: a bridge makes one for every reserve card it plays, and a tuple
# is made and read for a fraction of an instance's cost.


def _waste_top(reserve):
    """The card on top of the waste (None: none)."""
    order, now, _ = reserve
    return order[now - 1] if now else None


def _play(reserve, card):
    """turn_up(card) then a play of it from the waste: (the turns, the reserve after)."""
    order, now, redeals = reserve
    if now and order[now - 1] == card:
        turns = ()
    else:
        on_waste = order.find(card, now) + 1
        if on_waste:
            turns = (TURN,) * (on_waste - now)
        else:  # not in the stock: after a redeal
            on_waste = order.index(card) + 1
            lead = (REDEAL,) if now == len(order) else (TURN,) * (len(order) - now) + (REDEAL,)
            turns = lead + (TURN,) * on_waste
            redeals += 1
        now = on_waste
    return turns, (order[: now - 1] + order[now:], now - 1, redeals)


def _reserve_piles(reserve):
    """(stock, waste) as the engine holds them."""
    order, now, _ = reserve
    return tuple(order[now:].translate(_FACE_DOWN)[::-1]), tuple(order[:now])


class _Chain:
    """Reserve cards played one after the other onto one pile (a bridge's chain): the
    turns and plays are worked out only when a bridge asks for them (``reserve``), most
    chains end with none. ``moves``: the turns and plays of the cards played so far."""

    __slots__ = ("at", "cards", "moves", "played", "to")

    def __init__(self, start: tuple, to: Move):
        self.cards: Pile = ()
        self.played, self.at, self.to = 0, start, to
        self.moves: tuple[Move, ...] = ()

    def reserve(self) -> tuple:
        """The reserve after the chain's cards were played (and ``moves`` theirs)."""
        if self.played < len(self.cards):
            at, moves = self.at, self.moves
            for card in self.cards[self.played :]:
                turns, at = _play(at, card)
                moves += turns + (self.to,)
            self.at, self.moves, self.played = at, moves, len(self.cards)
        return self.at


class InterchangeExpander(InterchangeFamilyExpander):
    """InterchangeFamilyExpander's successors for the games with the bridges (fast_path: all but
    Interchange's one pass)."""

    pooled_proofs = True  # a portfolio's searches may pool a loss proof (solver/search.py)
    score: PatienceScore  # heuristics.py's, and keys.py's cycle key (fast_path asks for both)
    key: CycleKey
    dead_ends: DeadEnds

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        assert fast_path(game, compress) and self.home_bridges is not None and self.first_empty_only
        moves = game.generator  # moves.py: the engine's move generator
        self._plans, self._runs, self._run_move = moves.plans, moves.runs, moves.run_move
        self._one = game.one_card_moves
        self._fits_on = hosts_in_order(game)  # by card, its hosts ascending
        self._empty_takes = moves.empty_takes  # by card: does an empty pile take it?
        self._F, self._T = game.foundation_indices, game.tableau_indices
        self._S, self._W = game.stock_index, game.waste_index
        self._founds = slice(game.foundation_indices[0], game.foundation_indices[-1] + 1)
        self._tableau = slice(game.tableau_indices[0], game.tableau_indices[-1] + 1)
        assert (
            tuple(range(game.foundation_indices[0], game.tableau_indices[-1] + 1))
            == game.foundation_indices + game.tableau_indices
        )
        self._safe_founds: tuple[Pile, ...] | None = None  # the last foundations seen
        self._safe_last: frozenset[int] = frozenset()  # their safe cards
        self._safe_by_founds: dict[tuple[Pile, ...], frozenset[int]] = {}  # foundations -> their safe cards
        assert self.key.with_two is not None  # the tableau is symmetric (fast_path)
        self._key_parts, self._key_with_two = self.key.parts, self.key.with_two  # solver/keys.py
        self._key_of = self.key.of_piles

    # ------------------------------------------------------------ positions
    @staticmethod
    def _take(new, a, n):
        """Take ``n`` cards off tableau pile ``a`` of ``new``, turning up the card below."""
        new[a] = _taken(new[a], n)

    def _moved(self, piles, src, dst, n) -> list:
        """The piles after the top ``n`` cards of pile ``src`` went onto pile ``dst``."""
        new = list(piles)
        new[dst] = new[dst] + new[src][-n:]
        self._take(new, src, n)
        return new

    def _homed(self, state, new, admit, chain=None):
        """A move or bridge home, to the position of piles ``new`` (for a bridge, whose
        ``chain`` plays the reserve, its stock and waste are still ``state``'s): (the child,
        its score) when its key was asked first and taken, None when it was seen already,
        (the child, None) when a safe move may follow (a pile's top or the waste's is safe
        for the foundations after it: the key is the settled child's, scored asks it)."""
        W = self._W
        top = _waste_top(chain.reserve()) if chain is not None else new[W][-1] if new[W] else None
        safe = self._safe_cards(new) if self.autoplay else ()
        asked = (
            admit is not None and top not in safe and not any(p and p[-1] in safe for p in new[self._tableau])
        )
        if asked and not admit(self._key_of(tuple(new))):
            return None
        if chain is not None:
            child = self._with_reserve(state, new, chain.reserve())
        else:
            child = State(state.game, tuple(new), state.extra)
        return child, self.score(child) if asked else None

    # ------------------------------------------------------------ moves
    def scored(self, state, came_by, admit):
        """GenericExpander.scored over ``expand``: the same children, keys asked in the same
        order, with less work. A tableau move or bridge sends nothing home and changes two
        tableau piles (and the reserve, which the key leaves out); ``state`` is settled (no
        safe move left, as every position the search holds), so only the card the move
        turns up, or a reserve card left on the waste, can have become safe. Unless one of
        them is safe, no safe move follows, and the child's key is asked before the child is
        made: about half of them are seen already, and are never made. The others are scored
        from ``state``'s score by the two piles that change. A move or bridge home changes
        the foundations and so maybe the safe cards: its key is asked first when none of the
        child's pile tops nor its waste's top is safe for its foundations (most of those are
        seen already too)."""
        if self.dead_ends.is_dead(state):
            return
        key, settle = self.key, self._settle
        for moves, child, value in self._successors(state, admit):
            if value is None:
                if self.autoplay:
                    child, played = settle(child)
                    if played:
                        moves += tuple(played)
                if not admit(key(child)):
                    continue
            yield moves, child, value

    def _asked(self, parts, src, rest, dst, grown, safe, admit, waste_top=None):
        """Is the key of the position of key ``parts`` after a move from tableau pile
        ``src``, leaving ``rest``, to pile ``dst``, making it ``grown``, new to ``admit``?
        None when it is not asked: no ``admit``, or a safe move may follow (the card ``src``
        shows now, or the waste's new top card, is in ``safe``)."""
        if admit is None or (rest and rest[-1] in safe) or waste_top in safe:
            return None
        first = self._T[0]
        return admit(self._key_with_two(parts, src - first, rest, dst - first, grown))

    def _moves(self, state):
        for moves, child, _ in self._successors(state):
            yield moves, child

    def _successors(self, state, admit=None):
        """(moves, child, its score) for each move when ``_asked`` took the child's key (those
        it did not take are left out; the score comes from ``state``'s by the two piles that
        change: heuristics' moves_from), else (moves, child, None): still to be settled."""
        piles = state.piles
        safe = self._safe_cards(piles) if self.autoplay else frozenset()
        parts = self._key_parts(piles) if admit is not None else None
        after = self.score.moves_from(piles) if admit is not None else None
        runs = self._runs(piles)
        first_tableau = self._T[0]  # the foundations come before the tableau
        for move, src, dst, n in self._plans(piles, state.extra, False, runs=runs):
            if dst < first_tableau:  # home
                homed = self._homed(state, self._moved(piles, src, dst, 1), admit)
                if homed is not None:
                    yield ((move,),) + homed
                continue
            rest, grown = _taken(piles[src], n), piles[dst] + piles[src][-n:]
            asked = self._asked(parts, src, rest, dst, grown, safe, admit)
            if asked is not False:
                new = list(piles)
                new[src], new[dst] = rest, grown
                yield (
                    (move,),
                    State(state.game, tuple(new), state.extra),
                    after(src, rest, dst, grown, 0) if asked and after is not None else None,
                )
        stock, waste = piles[self._S], piles[self._W]
        if stock or waste:
            order = bytes(waste) + bytes(reversed(stock)).translate(_FACE_UP)
            reserve, in_reserve = (order, len(waste), state.extra[0]), set(order)
            yield from self._home_bridges(state, reserve, in_reserve, admit)
            yield from self._bridges(state, reserve, in_reserve, runs, (parts, safe, admit, after))

    def _home_bridges(self, state, start, in_reserve, admit):
        """reductions.home_bridges, on the cycle, as _successors gives them (_homed);
        ``start``: the reserve, ``in_reserve``: the set of its cards."""
        piles = state.piles
        on_top: dict[int, list[int]] = {}
        for t in self._T:
            if piles[t] and not piles[t][-1] & FACE_DOWN:
                on_top.setdefault(piles[t][-1], []).append(t)
        seen = set()
        for f in self._F:
            top = piles[f][-1] if piles[f] else 0
            if top in seen or top & 15 == KING:
                continue
            seen.add(top)
            firsts = (
                [c for c in ACES if c in in_reserve]
                if not top
                else [top + 1]
                if top + 1 in in_reserve
                else []
            )
            to_f = self._one[self._W][f]
            for first in firsts:
                chain = _Chain(start, to_f)
                last = first
                while True:
                    chain.cards += (last,)
                    if last & 15 == KING:
                        homed = self._homed(state, self._placed(piles, chain, f), admit, chain)
                        if homed is not None:
                            yield (chain.moves,) + homed
                        break
                    for a in on_top.get(last + 1, ()):
                        homed = self._homed(state, self._placed(piles, chain, f, a, 1), admit, chain)
                        if homed is not None:
                            yield (chain.moves + (self._one[a][f],),) + homed
                    if last + 1 not in in_reserve:
                        break
                    last += 1

    def _bridges(self, state, start, in_reserve, runs, asking):
        """reductions.bridges, on the cycle, as _successors gives them (``asking``: the key
        parts, safe cards and admit for _asked, and the scores after a move); ``start``: the
        reserve, ``in_reserve``: the set of its cards; ``runs``: (pile, run length) of each
        pile that holds cards."""
        parts, safe, admit, after = asking
        piles = state.piles
        units: dict[int | None, list[tuple[int, int]]] = {}  # head card -> (pile, count) runs it heads
        for a, run in runs:
            pile = piles[a]
            for n in range(1, run + 1):
                units.setdefault(pile[-n], []).append((a, n))
        first_empty = next((t for t in self._T if not piles[t]), None)
        for b in self._T:
            pile = piles[b]
            if pile:
                starts = [c for c in self._fits_on[pile[-1]] if c in in_reserve]
            elif b == first_empty:
                starts = [c for c in sorted(in_reserve) if self._empty_takes[c]]
            else:
                continue
            to_b = self._one[self._W][b]
            for first in starts:
                cards: Pile = ()
                last, chain = first, None
                while True:
                    cards += (last,)
                    head = last - 1 if last & 15 > 1 else None
                    for a, n in units.get(head, ()):
                        if a != b:
                            if chain is None:  # made only for a chain that takes a run
                                chain = _Chain(start, to_b)
                            chain.cards = cards
                            rest, grown = _taken(piles[a], n), pile + cards + piles[a][-n:]
                            played = chain.reserve()
                            asked = self._asked(parts, a, rest, b, grown, safe, admit, _waste_top(played))
                            if asked is not False:
                                new = list(piles)
                                new[a], new[b] = rest, grown
                                yield (
                                    chain.moves + (self._run_move(a, b, n),),
                                    self._with_reserve(state, new, played),
                                    after(a, rest, b, grown, len(cards)) if asked else None,
                                )
                    if head is None or head not in in_reserve:
                        break
                    last = head

    def _placed(self, piles, chain, b, a=None, n=0) -> list:
        """The piles but the stock and waste after the chain's cards went from the reserve
        onto pile ``b``, then the top ``n`` cards of pile ``a`` (if any)."""
        new = list(piles)
        new[b] = new[b] + chain.cards
        if a is not None:
            new[b] += new[a][-n:]
            self._take(new, a, n)
        return new

    def _with_reserve(self, state, new, reserve):
        """The position with piles ``new`` and ``reserve`` for its stock and waste."""
        _, _, redeals = reserve
        new[self._S], new[self._W] = _reserve_piles(reserve)
        return State(state.game, tuple(new), (redeals,))

    # ------------------------------------------------------------ safe moves home
    def _safe_cards(self, piles):
        """The cards that some foundation takes next and that are safe there
        (solver/autoplay.py: every copy of the card below in suit is home); an Ace while a
        foundation is empty."""
        founds = tuple(piles[self._founds])
        if founds == self._safe_founds:
            return self._safe_last
        safe = self._safe_by_founds.get(founds)
        if safe is None:
            if len(self._safe_by_founds) > 20_000:
                self._safe_by_founds.clear()
            safe = self._safe_by_founds[founds] = self._safe_set(founds)
        self._safe_founds, self._safe_last = founds, safe
        return safe

    def _safe_set(self, founds) -> frozenset:
        tops: list[list[int]] = [[], [], [], []]
        empty = False
        for pile in founds:
            if pile:
                tops[pile[-1] >> 4 & 3].append(pile[-1] & 15)
            else:
                empty = True
        safe = set()
        decks = self.game.decks
        for suit in range(4):
            if empty:
                safe.add(suit << 4 | ACE)
            for rank in tops[suit]:
                if rank < KING and sum(1 for r in tops[suit] if r >= rank) == decks:
                    safe.add(suit << 4 | rank + 1)
        return frozenset(safe)

    def _settle(self, state):
        """autoplay.settle for these games: the same safe moves, in the same order."""
        piles = state.piles
        safe = self._safe_cards(piles)
        W = self._W
        for pile in piles[self._tableau]:
            if pile and pile[-1] in safe:
                break
        else:
            if not (piles[W] and piles[W][-1] in safe):
                return state, []
        new: list[Pile] = list(piles)
        played: list[Move] = []
        while True:
            safe = self._safe_cards(new)
            src = next((s for s in self._T if new[s] and new[s][-1] in safe), None)
            if src is None and new[W] and new[W][-1] in safe:
                src = W
            if src is None:
                return State(state.game, tuple(new), state.extra), played
            card = new[src][-1]
            f = next(f for f in self._F if (new[f][-1] == card - 1 if new[f] else card & 15 == ACE))
            played.append(self._one[src][f])
            new[f] = new[f] + (card,)
            if src == W:
                new[W] = new[W][:-1]
            else:
                self._take(new, src, 1)


def _taken(pile, n) -> tuple:
    """A tableau pile after its top ``n`` cards left: the card below them turned up."""
    rest = pile[:-n]
    if rest and rest[-1] & FACE_DOWN:
        rest = rest[:-1] + (rest[-1] & ~FACE_DOWN,)
    return rest
