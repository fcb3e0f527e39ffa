"""A position of a game: an immutable, hashable value.

``piles`` holds one tuple of cards (bottom to top) per pile, in the order of
``game.pile_ids``; ``extra`` holds what else a game must remember (stock passes used,
Mutated Solitaire's deck modes). Everything a state can do, its game does for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import card_name

if TYPE_CHECKING:
    from .game import Game
    from .moves import Move


class State:
    __slots__ = ("game", "piles", "extra", "_hash")

    def __init__(self, game: Game, piles: tuple, extra: tuple = ()):
        # The slots' own setters, quicker than object.__setattr__: a solver makes many states.
        _set_game(self, game)
        _set_piles(self, piles)
        _set_extra(self, extra)
        _set_hash(self, None)      # computed when first asked: a solver hashes few states

    def __setattr__(self, name, value):
        raise AttributeError("a State is immutable: play a move to get a new one")

    def __eq__(self, other) -> bool:
        return (isinstance(other, State) and hash(self) == hash(other)
                and self.piles == other.piles and self.extra == other.extra
                and self.game == other.game)

    def __hash__(self) -> int:
        if self._hash is None:
            _set_hash(self, hash((self.piles, self.extra)))
        return self._hash

    def __reduce__(self):
        return (_restore, (self.game.id, self.game.options, self.piles, self.extra))

    # The rules, asked of the game.
    def legal_moves(self) -> list[Move]:
        return self.game.legal_moves(self)

    def play(self, move: Move | str) -> State:
        return self.game.play(self, move)

    def explain(self, move: Move | str) -> str | None:
        return self.game.explain(self, move)

    def is_won(self) -> bool:
        return self.game.is_won(self)

    def is_stuck(self) -> bool:
        return self.game.is_stuck(self)

    def key(self):
        """Canonical key for transposition tables: equal for positions that play alike."""
        return self.game.key(self)

    def to_dict(self) -> dict:
        return self.game.to_dict(self)

    def pile(self, pile_id: str) -> list[str]:
        """The cards of one pile, bottom to top, as text (face-down ones as ``"[QH]"``)."""
        return [card_name(c) for c in self.piles[self.game.pile_index(pile_id)]]

    def __str__(self) -> str:
        return self.game.format(self)

    def _repr_svg_(self) -> str:
        """The position as a picture (notebooks, nbconvert, GitHub); face-down cards as backs."""
        from .svg import state_svg
        return state_svg(self)

    def __repr__(self) -> str:
        on_foundations = sum(len(self.piles[i]) for i in self.game.foundation_indices)
        return (f"<State {self.game.id}: {on_foundations}/{self.game.card_count} cards home,"
                f" {len(self.legal_moves())} legal moves>")


_set_game, _set_piles, _set_extra, _set_hash = (
    getattr(State, name).__set__ for name in ("game", "piles", "extra", "_hash"))


def _restore(game_id, options, piles, extra):
    from .registry import load_game
    return State(load_game(game_id, **options), piles, extra)
