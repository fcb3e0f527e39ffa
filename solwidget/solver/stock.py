"""Stock compression: turning the stock as part of the move that plays the turned card.

Turning cards (``stock waste``, ``waste stock``) touches only the stock and the waste, and
no other move touches them, so turns commute with every move but a play from the waste.
Any winning line can therefore be rearranged so that each run of turns comes right before
the waste play it serves. The search expands such macro moves, "turn until card X is on
top, then play X", for every card that turning can reach and that has somewhere to go,
instead of expanding every single turn: the same wins, far fewer states.

With one card turned at a time the reachable positions are computed directly: the cards
in turning order form a fixed cycle (waste bottom to top, then the stock from its top),
and a position is how many of them lie on the waste. With unlimited redeals every card of
the cycle can be turned up at any time, so the canonical key keeps only which cards the
stock and waste hold (keys.py), and a card of several copies is played from its first copy
only. Other draws walk the turns through the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

from ..engine.cards import FACE_DOWN, KING
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import Pile, Piles, State
from .contract import Successor

Targets = Callable[
    [Sequence[Pile], int], "tuple[int, ...] | list[int]"
]  # where the rules let a waste card go

TURN = Move("stock", "waste")
REDEAL = Move("waste", "stock")


def is_turn(move: Move) -> bool:
    return move.src == "stock" or move.dst == "stock"


def reserve_of(game: Patience) -> tuple[int, int]:
    """(stock, waste): the indices of a game's stock and waste piles (one that draws)."""
    stock, waste = game.stock_index, game.waste_index
    assert stock is not None and waste is not None, f"{game.id} has no stock"
    return stock, waste


def cycle(game: Patience, piles: Sequence[Pile]) -> Pile:
    """The stock and waste cards in the order turning shows them, from the waste's bottom.
    The last answer is kept: a search asks it several times of each position and its
    children, which mostly share the stock and waste (the same tuples)."""
    global _last_cycle
    stock_index, waste_index = game.stock_index, game.waste_index
    assert stock_index is not None and waste_index is not None  # a game that draws
    stock, waste = piles[stock_index], piles[waste_index]
    last = _last_cycle  # one read: another thread may replace it meanwhile
    if stock is last[0] and waste is last[1]:
        return last[2]
    order = waste + tuple(c & ~FACE_DOWN for c in reversed(stock))
    _last_cycle = (stock, waste, order)  # kept alive, so ``is`` cannot be fooled
    return order


_last_cycle: tuple[Pile | None, Pile | None, Pile] = (None, None, ())


def _turned(game: Patience, state: State, order: Pile, on_waste: int, redeals: int) -> State:
    """The state whose waste holds the first ``on_waste`` cards of ``order``."""
    stock, waste = reserve_of(game)
    piles = list(state.piles)
    piles[waste] = order[:on_waste]
    piles[stock] = tuple(c | FACE_DOWN for c in reversed(order[on_waste:]))
    return State(game, tuple(piles), (state.extra[0] + redeals,))


def reachable_tops(
    game: Patience, state: State, wanted: Callable[[int], bool] | None = None
) -> Iterator[Successor]:
    """Each state that turns alone reach with a new card on top of the waste, with the turns;
    when ``wanted(card)`` is given, only those whose top card it accepts."""
    if game.draw == 1:
        yield from _draw_one(game, state, wanted)
    else:
        waste = reserve_of(game)[1]
        for turns, turned in _walk(game, state):
            if wanted is None or wanted(turned.piles[waste][-1]):
                yield turns, turned


def _draw_one(game: Patience, state: State, wanted: Callable[[int], bool] | None) -> Iterator[Successor]:
    order = cycle(game, state.piles)
    size, now = len(order), len(state.piles[reserve_of(game)[1]])
    for on_waste in range(now + 1, size + 1):
        if wanted is None or wanted(order[on_waste - 1]):
            yield (TURN,) * (on_waste - now), _turned(game, state, order, on_waste, 0)
    if game.redeals is not None and state.extra[0] >= game.redeals:
        return
    lead: tuple[Move, ...]
    if now == size:  # nothing in the stock: the redeal comes first
        lead = (REDEAL,)
    else:
        lead = (TURN,) * (size - now) + (REDEAL,)
    for on_waste in range(1, now):
        if wanted is None or wanted(order[on_waste - 1]):
            yield lead + (TURN,) * on_waste, _turned(game, state, order, on_waste, 1)


def turn_up(game: Patience, state: State, card: int) -> Successor:
    """The turns that bring reserve card ``card`` to the top of the waste, and the state
    after them: the first of reachable_tops's answers, found by index (draw one, unlimited
    redeals)."""
    assert game.draw == 1 and game.redeals is None
    piles, waste = state.piles, reserve_of(game)[1]
    now = len(piles[waste])
    if now and piles[waste][-1] == card:
        return (), state
    order = cycle(game, piles)
    if card in order[now:]:
        on_waste = order.index(card, now) + 1
        return (TURN,) * (on_waste - now), _turned(game, state, order, on_waste, 0)
    on_waste = order.index(card) + 1
    lead: tuple[Move, ...] = (REDEAL,) if now == len(order) else (TURN,) * (len(order) - now) + (REDEAL,)
    return lead + (TURN,) * on_waste, _turned(game, state, order, on_waste, 1)


def play_off(
    game: Patience, piles: Sequence[Pile], cards: Pile, play: Move
) -> tuple[list[Move], Pile, Pile, int]:
    """Turn up each of reserve cards ``cards`` in turn (as turn_up) and play it by ``play``, a
    move from the waste: (the moves, the stock and the waste after them, the redeals among
    them), found without the positions in between (draw one, unlimited redeals). Turning a
    card up and playing it leaves the other reserve cards in their turning order, those
    before it on the waste; a stock that no turn touched stays as it was."""
    stock_index, waste_index = reserve_of(game)
    order = cycle(game, piles)
    now = len(piles[waste_index])
    moves: list[Move] = []
    redeals, turned = 0, False
    for card in cards:
        if now and order[now - 1] == card:  # on top of the waste already
            i = now - 1
        elif card in order[now:]:  # turning on reaches it (its first copy)
            i = order.index(card, now)
            moves += (TURN,) * (i + 1 - now)
            turned = True
        else:  # after a redeal
            i = order.index(card)
            moves += (TURN,) * (len(order) - now) + (REDEAL,) + (TURN,) * (i + 1)
            redeals += 1
            turned = True
        moves.append(play)
        order = order[:i] + order[i + 1 :]
        now = i
    stock = tuple(c | FACE_DOWN for c in reversed(order[now:])) if turned else piles[stock_index]
    return moves, stock, order[:now], redeals


def _walk(game: Patience, state: State) -> Iterator[Successor]:
    """Turn through the engine until the stock and waste are back where they started."""
    stock, waste = reserve_of(game)
    start = (state.piles[stock], state.piles[waste])
    turns: list[Move] = []
    current = state
    for _ in range(len(start[0]) + len(start[1]) + 2):
        piles = current.piles
        if piles[stock]:
            move = TURN
        elif piles[waste] and (game.redeals is None or current.extra[0] < game.redeals):
            move = REDEAL
        else:
            return
        current = game.apply_legal(current, move)
        turns.append(move)
        if (current.piles[stock], current.piles[waste]) == start:
            return
        if current.piles[waste] and move is TURN:
            yield tuple(turns), current


def waste_plays(game: Patience, state: State, targets: Targets) -> Iterator[Successor]:
    """Macro moves: turns that bring a card with somewhere to go to the top of the waste,
    then each play of it. ``targets(piles, card)`` lists the piles where the engine's rules
    let ``card`` go from the waste (the stock and waste do not change where a card fits)."""
    wanted = _Wanted(game, state.piles, targets)
    ids, waste = game.pile_ids, reserve_of(game)[1]
    for turns, turned in reachable_tops(game, state, wanted):
        for dst in wanted.places(turned.piles[waste][-1]):
            move = Move("waste", ids[dst])
            yield turns + (move,), game.apply_legal(turned, move)


class _Wanted:
    """For waste_plays: called with a card, whether turning it up is worth a macro move (it
    has somewhere to go, and no copy of it was played before); ``places(card)``: where it
    may go, asked of ``targets`` once a card.

    An object, not closures over waste_plays's locals: compiled, a closure and the scope it
    reads refer to each other, and such a cycle per expansion outlives the expansion while
    the search holds the garbage collector off (search.py's ``collector_paused``)."""

    __slots__ = ("distinct", "found", "piles", "played", "targets")

    def __init__(self, game: Patience, piles: Piles, targets: Targets) -> None:
        self.piles, self.targets = piles, targets
        self.found: dict[int, tuple[int, ...] | list[int]] = {}
        # With one card a turn and unlimited redeals only the first copy of a card counts:
        # the key keeps the stock and waste as a multiset (keys.py), so playing a later copy
        # (or a copy of the card on top now, which the ordinary moves play) gives a
        # key-equal position.
        self.distinct = game.draw == 1 and game.redeals is None
        self.played: set[int] = set()
        waste = reserve_of(game)[1]
        if self.distinct and piles[waste]:
            self.played.add(piles[waste][-1])

    def places(self, card: int) -> tuple[int, ...] | list[int]:
        found = self.found.get(card)
        if found is None:
            found = self.found[card] = self.targets(self.piles, card)
        return found

    def __call__(self, card: int) -> bool:
        if card in self.played or not self.places(card):
            return False
        if self.distinct:
            self.played.add(card)
        return True


# Bridges (a family proves when they lose no win): reserve cards played in a chain, then a
# card or run from the tableau onto the last of them, or onto a foundation.


def home_chains(
    game: Patience,
    state: State,
    f: int,
    first: int,
    reserve: Collection[int],
    on_top: Mapping[int, Iterable[int]],
) -> Iterator[Successor]:
    """The home bridges onto foundation ``f`` that start with reserve card ``first``:
    ``on_top`` gives, for a card, the piles it tops that may give it."""
    chain: Pile = (first,)
    while True:
        last = chain[-1]
        if last & 15 == KING:
            yield play_home(game, state, chain, f, None)
            return
        for a in on_top.get(last + 1, ()):
            yield play_home(game, state, chain, f, a)
        if last + 1 not in reserve:
            return
        chain += (last + 1,)


def play_home(game: Patience, state: State, chain: Pile, f: int, a: int | None) -> Successor:
    """Play ``chain`` from the waste onto foundation ``f``, then the top card of pile ``a``
    (None: no pile) onto it: the moves, turns included, and the position after them."""
    moves: list[Move] = []
    to_f = Move("waste", game.pile_ids[f])
    for card in chain:
        turns, state = turn_up(game, state, card)
        moves += turns
        moves.append(to_f)
        state = game.apply_legal(state, to_f)
    if a is not None:
        move = game.one_card_moves[a][f]
        moves.append(move)
        state = game.apply_legal(state, move)
    return tuple(moves), state


@functools.lru_cache(maxsize=8)
def hosts_in_order(game: Patience) -> tuple[tuple[int, ...], ...]:
    """By card, the cards it fits on (``game.fits_on``), ascending: the bridges take them in
    this order, a defined one (a frozenset's is the interpreter's)."""
    return tuple(tuple(sorted(hosts)) for hosts in game.fits_on)


def play_bridge(
    game: Patience, state: State, chain: Pile, b: int, unit: tuple[int, int], ids: Sequence[str]
) -> Successor:
    """Play ``chain`` from the waste onto pile ``b``, then ``unit`` (pile, count) onto it:
    the moves, turns included, and the position after them (made at once: what turn_up and
    Patience.apply_legal give, one move after another)."""
    stock, waste = reserve_of(game)
    piles = list(state.piles)
    moves, piles[stock], piles[waste], redeals = play_off(game, piles, chain, Move("waste", ids[b]))
    a, n = unit
    moving = piles[a][-n:]
    piles[a] = piles[a][:-n]
    piles[b] = piles[b] + chain + moving
    game.reveal(piles, a)  # as apply_legal does (a face-down card turned up)
    moves.append(Move(ids[a], ids[b], n) if n > 1 else game.one_card_moves[a][b])
    return tuple(moves), State(game, tuple(piles), (state.extra[0] + redeals,))
