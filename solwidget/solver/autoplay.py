"""Provably safe moves to the foundations (Patience games whose foundations keep their cards).

A card ``c`` on top of a tableau pile, in a cell, or on a draw-one waste may go home at once
when every card that could ever be placed on ``c`` in the tableau (the build's next card:
for FreeCell both opposite-colour cards one rank lower) is already home, in every copy.

Why that loses no win: take any winning line from the position before the move. Since
nothing can ever be put on ``c`` again, ``c`` only ever sits on top of whatever holds it.
Delete every move of ``c`` alone from the line, and drop ``c`` from any group it tops: each
remaining move is still legal after ``c`` went home, because ``c``'s absence only adds
room (a freer cell, an emptier pile, a card turned up sooner, a larger supermove, a shorter
waste in a draw-one stock whose turns keep their order), and foundations never give cards
back. So the line still wins. Games where foundation cards come back (Mutated Solitaire) and
draw-three stocks (where one card fewer regroups the turns) get no automatic waste moves.
"""

from __future__ import annotations

from ..engine.cards import OTHER_COLOUR
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import State


def supports_autoplay(game) -> bool:
    return isinstance(game, Patience)


def _home_tops(game: Patience, piles) -> list[list[int]]:
    """Per suit, the top rank of each non-empty foundation of that suit."""
    tops = [[], [], [], []]
    for f in game.F:
        pile = piles[f]
        if pile:
            top = pile[-1]
            tops[top >> 4 & 3].append(top & 15)
    return tops


def _copies_home(game: Patience, tops, suit: int, rank: int) -> int:
    if game.step > 0:
        return sum(1 for t in tops[suit] if t >= rank)
    return sum(1 for t in tops[suit] if t <= rank)


def host_suits(policy: str, suit: int) -> tuple[int, ...]:
    """The suits of the cards that may be built on a card of ``suit``, by build policy."""
    if policy == "same":
        return (suit,)
    if policy == "alternate":
        return OTHER_COLOUR[suit]
    return (0, 1, 2, 3)


def is_safe(game: Patience, tops, card: int) -> bool:
    """Every card that could be built on ``card`` is home in every copy."""
    rank = (card & 15) + game.build.direction
    if not 1 <= rank <= 13:
        return True
    hosts = host_suits(game.build.suits, card >> 4 & 3)
    return all(_copies_home(game, tops, s, rank) == game.decks for s in hosts)


def _wanted(game: Patience, piles) -> set[int]:
    """The cards that some foundation takes next."""
    wanted = set()
    start = game.foundation_start
    for f in game.F:
        pile = piles[f]
        if pile:
            nxt = (pile[-1] & 15) + game.step
            if 1 <= nxt <= 13:
                wanted.add(pile[-1] & 0x30 | nxt)
        else:
            wanted.update((start, 16 | start, 32 | start, 48 | start))
    return wanted


def safe_move(game: Patience, state: State) -> Move | None:
    """One provably safe move to a foundation, or None."""
    piles = state.piles
    ids = game.pile_ids
    wanted = _wanted(game, piles)
    if wanted.isdisjoint([pile[-1] for pile in piles if pile]):    # a quick pre-check
        return None
    tops = None
    for src in _sources(game, piles):
        card = piles[src][-1]
        if card not in wanted or (src in game.tableau_set and not game.can_give(piles, src)):
            continue            # covering asked only of the wanted cards: it is the costly test
        for f in game.foundations_for(piles, card):
            if tops is None:
                tops = _home_tops(game, piles)
            if is_safe(game, tops, card):
                return Move(ids[src], ids[f])
            break
    return None


def _sources(game: Patience, piles) -> list[int]:
    """The piles whose face-up top card may go home, in the order safe_move tries them:
    tableau, cells, then a draw-one waste (covering is left to the caller)."""
    sources = [t for t in game.T if piles[t] and not piles[t][-1] & 64]
    sources += [c for c in game.C if piles[c]]
    if game.WASTE is not None and game.draw == 1 and piles[game.WASTE]:
        sources.append(game.WASTE)
    return sources


def settle(game: Patience, state: State) -> tuple[State, list[Move]]:
    """Play safe foundation moves until none is left; return the state and those moves."""
    played = []
    while True:
        move = safe_move(game, state)
        if move is None:
            return state, played
        state = game.apply_legal(state, move)
        played.append(move)


def safe_moves(state: State) -> list[Move]:
    """The safe foundation moves from ``state``, in order (for an Autoplay button)."""
    if not supports_autoplay(state.game):
        return []
    return settle(state.game, state)[1]
