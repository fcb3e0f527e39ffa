"""Mutated Solitaire's successors: the engine's moves, with reductions that lose no win.

Mutated Solitaire (docs/rules.md) lets the top foundation card come back to row 1, so
solver/autoplay.py's rule (a card is safe once every card that could go on it is home)
does not hold as it stands: a home card may come back to serve as a host, a card for
another to climb on from row 2. What holds instead rests on the lemma below. Words: a
card's *guests* are the two cards that may be built on it (one rank lower, other colour);
``level[s]`` is how many cards of suit ``s`` are home; colour X is the card's own, Y the
other one.

**Settled cards.** A home card c = (X, r), not a King, is *settled* when both Y suits are
home to r - 1 at least and both X suits to r - 2 at least. Its guests (Y, r - 1) and its
predecessor (X, r - 1) are then home and settled too (check the levels), all of lower rank.

**Lemma.** From any position P, if some line wins, one wins in which no card settled at P
ever leaves the foundations, and it is no longer. Proof, by induction on the rank: suppose
the settled cards of lower rank already never leave, and let c be settled, of rank r. Delete
every move of c made after P (c alone, from its foundation and on) and drop c from every run
it tops; the positions of the new line are the old ones with c home. Each remaining move
stays legal: nothing can lie on c while it is away (its guests are home for good), so c
always tops its pile, and it always lies on a host (it is no King, so it never lands in an
empty space), so no pile's emptiness, no turning up and no flip changes; a run that carried
c moves the same head without it; c's foundation keeps c - 1 under c (c - 1 never leaves)
and takes c + 1 only once c is home in the old line too. An Ace's foundation lies empty
while it is away; an Ace that went there in the old line goes to another empty one (the
foundations are a set in the key, and with a suit away at most three hold cards). Only
moves are deleted.

**Safe moves (autoplay).** Let c = (X, r), no King, be the top card of a row-1 space or of
the built pile of d1 (not its base), with c next on its foundation, both Y suits home to
r - 1 and the other X suit to r - 2 (so c's guests and c - 1 are settled). Then c may go
home at once, unless it lies on a face-down King and d1 is not empty. Proof: take a winning
line L, by the lemma one in which c's guests and c - 1 never leave home. Nothing is ever put
on c, so c only ever moves alone, onto hosts or home. Play c home first and delete its
moves from L (at least one: c is not home); drop it from runs as above. Its own pile cannot
change in L while c lies there, so emptying it or turning up the card beneath c sooner
changes nothing that L does, except that a King turned up flips d1, at a different time:
hence the exception (an empty deck in draw mode stays empty, so it is never flipped). Not
the base of a built d1: its leaving puts the deck back in draw mode, where flips reach it.
Not a card of d1 in draw mode: taken off, it changes what "d1 build" turns into a base,
and a base blocks flips. Not a King: from home it may come back to an empty row-1 space
and flip d1 again. Not with the other X suit home to r - 3 only: c's guests are then home
but not settled, and one of them may have to come back onto c to carry that suit's card
r - 2 up to row 1 (the tests hold a position won only that way).

**Skipped moves.** A settled card is never taken back from its foundation (the lemma).
Among moves that lead to key-equal positions (spaces of a row and the foundations are
sets in the key), a run goes only to the first empty space of each row and an Ace only to
the first empty foundation.

**Buried builds.** "dN build" is skipped when it would bury both hosts of the new base
(the two cards it may be put on) among the cards it hides, and, for d1, the base is no Ace
and the card below it in its suit is hidden too: the position after it is lost. The hidden
cards come back only once the base has left the deck, and while it is there they stay
hidden: nothing is put under the base. It leaves only as the head of its run onto a host
on top of a pile (both are hidden), or home, which only d1 reaches and which needs the card
below it home first (hidden too); a King base is not skipped, since it leaves for an empty
space. So the hidden cards, at least one (a host), never go home.

**Why no win is lost.** In each case the line kept is no longer than the one it replaces,
and strictly shorter when a move is skipped (and a buried build starts no win at all). So
from a winnable position, a shortest winning line starts with a move that is kept, and the
safe moves played after it do not lengthen what is left: some successor is nearer to a win, and the search reaches one.
"""

from __future__ import annotations

from ...engine.cards import ACE, FACE_DOWN, KING, OTHER_COLOUR
from ...engine.moves import Move
from ...engine.state import State
from ...solver.expand import GenericExpander
from .board import DRAW, MOVES, PILE_IDS, ROW, ROW_SLICES, SPACES, F
from .deadends import DeadEnds
from .moves import BUILD_ACTION, D1, apply, plans
from .score import MutatedScore, mutated_score

ROW1_SPACES = tuple(s for s in SPACES if ROW[s] == 1)
# HOSTS[card & 63]: the two cards it may be put on (one rank higher, other colour); none for a King
HOSTS = [
    tuple(s << 4 | (c & 15) + 1 for s in OTHER_COLOUR[c >> 4 & 3]) if 0 < c & 15 < KING else ()
    for c in range(64)
]
PARTNER = (3, 2, 1, 0)  # the other suit of the same colour
FOUNDATION_SET = frozenset(F)
INDEX = {pid: i for i, pid in enumerate(PILE_IDS)}
REST = slice(SPACES[-1] + 1, None)  # r2x and the decks, which keep their places
ROW_1, ROW_2, ROW_3 = ROW_SLICES
SEPARATOR = b"\xff"  # no card: cards are below 128
MODES_BYTES: dict[tuple[int, ...], bytes] = {}  # deck modes -> bytes, each mode + 1 (DRAW is -1)
GROUPS_KEPT = 200_000  # sorted groups that key() keeps (about 200 bytes each)
_groups: dict = {}


def _sorted_group(piles) -> bytes:
    """Piles that play alike (the foundations, or a row's spaces), sorted and joined, and
    kept by their tuple: a move changes at most two groups, and siblings share the rest."""
    if len(_groups) >= GROUPS_KEPT:
        _groups.clear()
    part = _groups[piles] = SEPARATOR.join(sorted(piles))
    return part


def key(state) -> bytes:
    """``MutatedSolitaire.key`` in another shape, the same equivalence, made faster: the
    foundations sorted, the spaces of each row sorted, r2x and the decks as they are, and
    the deck modes, joined into one bytes by a byte that is no card (each group has its
    fixed number of piles, so the parts come apart again: equal keys, equal positions).
    The search's piles are bytes (MutatedExpander.start), so this is a join, and a bytes
    key keeps its hash, which a pooled search asks twice or more (a tuple hashes its parts
    again each time). Each group's sorted part is kept by its piles (``_sorted_group``):
    siblings share all but the groups their move changed."""
    piles, kept = state.piles, _groups.get
    founds, row_1, row_2, row_3 = piles[:4], piles[ROW_1], piles[ROW_2], piles[ROW_3]
    parts = [
        kept(founds) or _sorted_group(founds),
        kept(row_1) or _sorted_group(row_1),
        kept(row_2) or _sorted_group(row_2),
        kept(row_3) or _sorted_group(row_3),
    ]
    parts += piles[REST]
    modes = MODES_BYTES.get(state.extra)
    if modes is None:
        modes = MODES_BYTES[state.extra] = bytes(mode + 1 for mode in state.extra)
    parts.append(modes)
    return SEPARATOR.join(parts)


def levels(piles) -> tuple[list[int], list[int | None]]:
    """Per suit, how many of its cards are home, and which foundation holds them."""
    level: list[int] = [0] * 4
    home: list[int | None] = [None] * 4
    for f in F:
        pile = piles[f]
        if pile:
            suit = pile[0] >> 4 & 3
            level[suit], home[suit] = len(pile), f
    return level, home


def is_settled(card: int, level) -> bool:
    """A home card that never needs to leave its foundation (the lemma above)."""
    rank, suit = card & 15, card >> 4 & 3
    if rank == KING:
        return False
    return min(level[s] for s in OTHER_COLOUR[suit]) >= rank - 1 and level[PARTNER[suit]] >= rank - 2


def goes_home_safely(card: int, level) -> bool:
    """Is ``card`` next on its foundation, with its guests and its predecessor settled?"""
    rank, suit = card & 15, card >> 4 & 3
    return (
        rank != KING
        and level[suit] == rank - 1
        and min(level[s] for s in OTHER_COLOUR[suit]) >= rank - 1
        and level[PARTNER[suit]] >= rank - 2
    )


def buries_its_way_out(deck, is_d1: bool) -> bool:
    """Would "build" on this deck (in draw mode) hide both hosts of the new base, and for d1
    the card below it in its suit too (a buried build, above)?"""
    base = deck[-1] & 63
    rank = base & 15
    if rank == KING or (is_d1 and rank == ACE):
        return False
    hidden = {c & 63 for c in deck[:-1]}
    return all(h in hidden for h in HOSTS[base]) and (not is_d1 or base - 1 in hidden)


def _turns_up_a_flip(piles, pile) -> bool:
    """Would taking the top card of this row-1 space turn up a King that flips d1?"""
    return (len(pile) == 2 and pile[0] & FACE_DOWN and pile[0] & 15 == KING) and bool(piles[D1])


_SAFE_BY_LEVELS: dict = {}  # at most 14 ** 4 foundation levels


def safe_cards(level) -> tuple[int, ...]:
    """The cards that may go home safely at these foundation levels: at most one a suit,
    the next one."""
    levels_now = tuple(level)
    safe = _SAFE_BY_LEVELS.get(levels_now)
    if safe is None:
        nexts = (suit << 4 | level[suit] + 1 for suit in range(4))
        safe = _SAFE_BY_LEVELS[levels_now] = tuple(card for card in nexts if goes_home_safely(card, level))
    return safe


def safe_plan(piles, modes):
    """One safe move home (see the module docstring) as (move, source, foundation), or None."""
    level, home = levels(piles)
    safe = safe_cards(level)
    if not safe:
        return None
    base = modes[0]
    sources = ROW1_SPACES + ((D1,) if base != DRAW and len(piles[D1]) - base >= 2 else ())
    for src in sources:
        pile = piles[src]
        if not pile or pile[-1] not in safe:
            continue
        if src != D1 and _turns_up_a_flip(piles, pile):
            continue
        suit = pile[-1] >> 4 & 3
        f = home[suit] if home[suit] is not None else next(f for f in F if not piles[f])
        return MOVES[src][f][1], src, f
    return None


def safe_move(state) -> Move | None:
    """One safe move home, or None."""
    plan = safe_plan(state.piles, state.extra)
    return None if plan is None else plan[0]


def settle(state):
    """Play safe moves until none is left; return the position and those moves."""
    played = []
    piles, modes = state.piles, state.extra
    while True:
        plan = safe_plan(piles, modes)
        if plan is None:
            break
        move, src, f = plan
        piles, modes = apply(piles, modes, src, f, 1, None)
        played.append(move)
    return (State(state.game, piles, modes) if played else state), played


class MutatedExpander(GenericExpander):
    """The engine's moves less the skipped ones, each followed by the safe moves it allows,
    made straight from the piles (moves.py). A dead end (deadends.py) gets no
    successors. ``autoplay=False`` asks the engine for every move and turns off the safe
    moves, the kept-home rule, the skipped buried builds and the dead ends (to cross-check
    them); the key-equal duplicates are skipped either way. Unlike CellsExpander, it does
    not skip the move that undoes the last one: here that needs conditions (no King heads
    it, no card was turned up) and saves too little (docs/solver.md)."""

    pooled_proofs = True  # a portfolio's searches may pool a loss proof (solver/search.py)
    score: MutatedScore

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights)
        self.autoplay = autoplay
        self.key = key if autoplay else game.key  # key() takes the search's bytes piles
        self.dead_ends: DeadEnds | None = DeadEnds() if autoplay else None

    def make_score(self, game, weights):
        return mutated_score(game, weights)

    def share(self, first) -> None:
        """One dead-end test for the whole portfolio: its answers depend on the position
        alone, so its caches serve every search."""
        self.dead_ends = first.dead_ends

    def start(self, state):
        """The search's first position, its piles as bytes (moves.py), settled."""
        if self.autoplay:
            # the search's own positions: piles as bytes (the same cards), read by this family only
            state = State(state.game, tuple(map(bytes, state.piles)), state.extra)  # type: ignore[arg-type]
        return super().start(state)

    def _settle(self, state):
        return settle(state)

    def is_won(self, state) -> bool:
        return sum(len(state.piles[f]) for f in F) == 52

    def _engine_moves(self, state):
        """Every move of the engine but the key-equal duplicates, and its position."""
        piles, apply_move = state.piles, self.game.apply_legal
        first_empty: dict[int, int] = {}
        for s in SPACES:
            if not piles[s]:
                first_empty.setdefault(ROW[s], s)
        empty_foundation = next((f for f in F if not piles[f]), None)
        for move in self.game.iter_moves(state):
            dst = INDEX.get(move.dst)
            if dst is not None and not piles[dst]:
                if dst in FOUNDATION_SET:
                    if dst != empty_foundation:
                        continue
                elif dst != first_empty.get(ROW[dst], dst):
                    continue
            yield move, apply_move(state, move)

    def expand(self, state, came_by=()):
        if not self.autoplay:
            for move, child in self._engine_moves(state):
                yield (move,), child
            return
        for moves, child, _ in self.scored(state, came_by, None):
            yield moves, child

    def scored(self, state, came_by, admit):
        """``GenericExpander.scored`` in one loop (the hot loop of the search): the moves
        kept, each followed by the safe moves it allows, with the score of each child that
        leaves the foundations as they are worked out from its parent's (score.py);
        ``admit`` None takes every successor without asking its key (``expand``)."""
        if not self.autoplay:
            yield from super().scored(state, came_by, admit)
            return
        if self.dead_ends is not None and self.dead_ends.is_dead(state):
            return
        piles, modes, game, key = state.piles, state.extra, state.game, self.key
        level = levels(piles)[0]
        safe = safe_cards(level) if safe_plan(piles, modes) is None else None
        score_child = self.score.moves_from(state)
        for move, src, dst, n, card in plans(piles, modes):
            if src < 4:
                if is_settled(piles[src][-1], level):
                    continue
            elif dst == BUILD_ACTION and buries_its_way_out(piles[src], src == D1):
                continue
            child = State(game, *apply(piles, modes, src, dst, n, card))
            moves, homeward = (move,), src < 4 or 0 <= dst < 4
            if homeward or _may_go_home(state, child, src, dst, safe):
                child, played = settle(child)
                if played:
                    moves, homeward = (move, *played), True
            if admit is None or admit(key(child)):
                if homeward:
                    yield moves, child, None
                else:  # one move, and the foundations as they were
                    touched = (src, src if dst == BUILD_ACTION else dst)  # a build fills no pile
                    yield moves, child, score_child(child, touched)


SAFE_SOURCES = frozenset(ROW1_SPACES + (D1,))  # piles that give safe moves home


def _may_go_home(state, child, src, dst, safe) -> bool:
    """Might ``child``, one move from ``state`` (from pile ``src`` to ``dst``) that leaves the
    foundations as they are, have a safe move? ``safe``: the cards that may go home safely
    at those foundations, or None when ``state`` itself has a safe move. Which cards are
    safe depends on the foundations alone, so when ``state`` has none (as every position the
    search expands: the start and the children are settled), a safe card in ``child`` tops
    a row-1 pile or d1 that the move touched, or a row-1 pile that d1's emptying lets go home
    (its face-down King no longer flips d1)."""
    if safe is None:
        return True
    if not safe:
        return False
    piles = child.piles
    for i in (src, dst):
        if i in SAFE_SOURCES:
            pile = piles[i]
            if pile and pile[-1] in safe:
                return True
    return not piles[D1] and bool(state.piles[D1])
