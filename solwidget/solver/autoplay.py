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

from collections.abc import Callable
from typing import TypeGuard

from ..engine.cards import FACE_DOWN, OTHER_COLOUR
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import Piles, State

Tops = list[list[int]]  # _home_tops: per suit, the top rank of each foundation of it
IsSafe = Callable[[Patience, Tops, int], bool]


def supports_autoplay(game: Game) -> TypeGuard[Patience]:
    return isinstance(game, Patience)


def _home_tops(game: Patience, piles: Piles) -> Tops:
    """Per suit, the top rank of each non-empty foundation of that suit."""
    tops: Tops = [[], [], [], []]
    for f in game.foundation_indices:
        pile = piles[f]
        if pile:
            top = pile[-1]
            tops[top >> 4 & 3].append(top & 15)
    return tops


def _copies_home(game: Patience, tops: Tops, suit: int, rank: int) -> int:
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


def is_safe(game: Patience, tops: Tops, card: int) -> bool:
    """Every card that could be built on ``card`` is home in every copy."""
    rank = (card & 15) + game.build.direction
    if not 1 <= rank <= 13:
        return True
    hosts = host_suits(game.build.suits, card >> 4 & 3)
    return all(_copies_home(game, tops, s, rank) == game.decks for s in hosts)


def _wanted(game: Patience, piles: Piles) -> set[int]:
    """The cards that some foundation takes next."""
    wanted = set()
    start = game.foundation_start
    for f in game.foundation_indices:
        pile = piles[f]
        if pile:
            nxt = (pile[-1] & 15) + game.step
            if 1 <= nxt <= 13:
                wanted.add(pile[-1] & 0x30 | nxt)
        else:
            wanted.update((start, 16 | start, 32 | start, 48 | start))
    return wanted


def safe_move(game: Patience, state: State, safe: IsSafe = is_safe) -> Move | None:
    """One provably safe move to a foundation, or None; ``safe(game, tops, card)`` says
    which cards are safe (``is_safe`` for the search, ``is_safe_for_play`` for Autoplay)."""
    piles = state.piles
    ids = game.pile_ids
    wanted = _wanted(game, piles)
    if wanted.isdisjoint([pile[-1] for pile in piles if pile]):  # a quick pre-check
        return None
    tops = None
    for src in _sources(game, piles):
        card = piles[src][-1]
        if card not in wanted or (src in game.tableau_set and not game.can_give(piles, src)):
            continue  # covering asked only of the wanted cards: it is the costly test
        for f in game.foundations_for(piles, card):
            if tops is None:
                tops = _home_tops(game, piles)
            if safe(game, tops, card):
                return Move(ids[src], ids[f])
            break
    return None


def _sources(game: Patience, piles: Piles) -> list[int]:
    """The piles whose face-up top card may go home, in the order safe_move tries them:
    tableau, cells, then a draw-one waste (covering is left to the caller)."""
    sources = [t for t in game.tableau_indices if piles[t] and not piles[t][-1] & FACE_DOWN]
    sources += [c for c in game.cell_indices if piles[c]]
    if game.waste_index is not None and game.draw == 1 and piles[game.waste_index]:
        sources.append(game.waste_index)
    return sources


def settle(game: Patience, state: State, safe: IsSafe = is_safe) -> tuple[State, list[Move]]:
    """Play safe foundation moves until none is left; return the state and those moves.
    ``safe``: as for ``safe_move`` (a family may prove a rule of its own)."""
    played: list[Move] = []
    while True:
        move = safe_move(game, state, safe)
        if move is None:
            return state, played
        state = game.apply_legal(state, move)
        played.append(move)


def goes_home_when_free(game: Patience, card: int) -> bool:
    """Can ``card`` always go home when it could move at all, and nothing ever lie on it?

    True of the card that starts a foundation (an Ace, where foundations build up) when the
    tableau builds nothing on it (no rank lies beyond it) and the game has a foundation for
    every start card (then one is empty for each start card not home: foundations never
    give cards back, and each holds one start card at its bottom)."""
    rank = card & 15
    return (
        rank == game.foundation_start
        and not 1 <= rank + game.build.direction <= 13
        and len(game.foundation_indices) == 4 * game.decks
    )


def is_safe_for_play(game: Patience, tops: Tops, card: int) -> bool:
    """``is_safe``, and also safe when every card that could be built on ``card`` and is not
    home in every copy goes home when free (``goes_home_when_free``): a Two on its Ace.

    Why that loses no win, beside the module docstring's argument for ``card`` (call it c):
    the only other change to a winning line L is where a guest g (a card that goes home
    when free) went onto c. Play g home at that moment instead: it leaves its pile at the
    same time as in L, alone (nothing lies on g), and an empty foundation takes it. Delete
    the later moves of g alone, and drop g from runs that carried it; nothing was ever put
    on g. The positions of the new line are L's with c home and g home from that moment,
    so, as for c, every remaining move is still legal: their absence only adds room, and
    foundations never give cards back (the foundations differ only in which empty one g
    started: they are interchangeable, so L's later moves to them are renamed alike).
    The search keeps ``is_safe``: its expanders and their fingerprints stay as they are."""
    rank = (card & 15) + game.build.direction
    if not 1 <= rank <= 13:
        return True
    hosts = host_suits(game.build.suits, card >> 4 & 3)
    return all(
        _copies_home(game, tops, s, rank) == game.decks or goes_home_when_free(game, s << 4 | rank)
        for s in hosts
    )


def safe_moves(state: State) -> list[Move]:
    """The safe foundation moves from ``state``, in order, by ``is_safe_for_play`` (what
    Autoplay plays; the search settles by ``is_safe``)."""
    game = state.game
    if not supports_autoplay(game):
        return []
    played: list[Move] = []
    while (move := safe_move(game, state, is_safe_for_play)) is not None:
        state = game.apply_legal(state, move)
        played.append(move)
    return played
