"""Safe moves to the foundations: the ones no later play could regret."""

from __future__ import annotations

from ..engine.cards import FACE_DOWN
from ..engine.moves import Move
from ..engine.state import State


def _start_rank(game) -> int:
    return getattr(game, "foundation_start", 1)


def is_safe(state: State, move: Move) -> bool:
    """A card may go home safely when no card still in play could ever be built on it.

    Games whose tableau follows a ``Build`` rule say which cards fit; for any other game only
    a foundation's first card (an Ace, or a King when foundations build down) counts as safe.
    """
    game = state.game
    if game.pile_kinds.get(move.dst) != "foundation" or move.n != 1 or move.card is not None:
        return False
    card = state.piles[game.pile_index(move.src)][-1] & ~FACE_DOWN
    build = getattr(game, "build", None)
    if build is None:
        return card & 15 == _start_rank(game)
    home = set(game.foundation_indices)
    return not any(build.fits(card, other & ~FACE_DOWN)
                   for i, pile in enumerate(state.piles) if i not in home for other in pile)


def safe_move(state: State) -> Move | None:
    """The first legal safe move to a foundation, or None."""
    for move in state.legal_moves():
        if is_safe(state, move):
            return move
    return None
