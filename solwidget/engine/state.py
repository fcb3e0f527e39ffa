"""A position of a game: an immutable, hashable value.

``piles`` holds one tuple of cards (bottom to top) per pile, in the order of
``game.pile_ids``; ``extra`` holds what else a game must remember (stock passes used,
Mutated Solitaire's deck modes). Everything a state can do, its game does for it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from .cards import card_name

if TYPE_CHECKING:
    from .game import Game
    from .moves import Move

Pile = tuple[int, ...]  # the cards of one pile, bottom to top (cards.py)
Piles = tuple[Pile, ...]  # every pile, in the order of ``game.pile_ids``
Extra = tuple[int, ...]  # what else a position holds (stock passes, deck modes)
PileList = Sequence[Pile]  # the piles of a position, or a list of them being changed


class State:
    """A position of a game: immutable and hashable, so it can key a dict or a set.

    Make one with ``game.deal(n)`` or ``game.state_from_dict(d)``; get the next one with
    ``state.play(move)``, which leaves ``state`` as it was. ``piles`` holds one tuple of
    cards (bottom to top) per pile, in the order of ``game.pile_ids``; ``pile(pile_id)``
    gives one pile as text. ``print(state)`` shows a text board; in a notebook a State
    shows as a picture.

    Examples:
        >>> state = sw.load_game("freecell").deal(1)
        >>> state.explain("t0 f0")
        'an empty foundation takes only an Ace: 6S cannot start one'
        >>> after = state.play("t0 c0")
        >>> after.pile("c0"), state.pile("c0")
        (['6S'], [])
    """

    __slots__ = ("_hash", "extra", "game", "piles")
    game: Game
    piles: Piles
    extra: Extra
    _hash: int | None

    def __init__(self, game: Game, piles: Piles, extra: Extra = ()):
        # The slots' own setters, quicker than object.__setattr__: a solver makes many states.
        _set_game(self, game)
        _set_piles(self, piles)
        _set_extra(self, extra)
        _set_hash(self, None)  # computed when first asked: a solver hashes few states

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a State is immutable: play a move to get a new one")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and hash(self) == hash(other)
            and self.piles == other.piles
            and self.extra == other.extra
            and self.game == other.game
        )

    def __hash__(self) -> int:
        if self._hash is None:
            value = hash((self.piles, self.extra))
            _set_hash(self, value)
            return value
        return self._hash

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # The game pickles itself: a variant's as its definition, which registers the
        # variant again where the state is unpickled (a Dask worker knows only the catalogue).
        return (State, (self.game, self.piles, self.extra))

    # The rules, asked of the game.
    def legal_moves(self) -> list[Move]:
        """Every move the rules allow here, in the game's order; ``str(move)`` is its text."""
        return self.game.legal_moves(self)

    def play(self, move: Move | str) -> State:
        """The position after ``move``: a Move, or move text such as ``"t3 f0"`` or ``"t3 t5 4"``.

        This state is left as it was.

        Raises:
            InvalidMoveText: the text does not parse, or names a pile the game does not have.
            IllegalMove: the rules forbid the move here; the message (and ``reason``) names the rule.
        """
        return self.game.play(self, move)

    def explain(self, move: Move | str) -> str | None:
        """None when ``move`` (a Move or move text) is legal here, else why not, in words.

        Never raises for a bad move: text that does not parse is explained too.
        """
        return self.game.explain(self, move)

    def is_won(self) -> bool:
        """True when every card is on the foundations."""
        return self.game.is_won(self)

    def is_stuck(self) -> bool:
        """True when the game is not won and no card can ever move again: nothing is legal,
        or only turning the stock, which changes nothing that matters."""
        return self.game.is_stuck(self)

    def key(self) -> Hashable:
        """Canonical key for transposition tables: equal for positions that play alike."""
        return self.game.key(self)

    def to_dict(self) -> dict[str, object]:
        """The position as plain JSON-able data; ``game.state_from_dict(d)`` reads it back.

        Face-down cards are written in brackets (``"[QH]"``), so the dict holds the whole
        position, hidden cards included.
        """
        return self.game.to_dict(self)

    def visible(self) -> dict[str, list[str]]:
        """Every pile as the player sees it, bottom to top: card codes, and ``"back"`` for a
        face-down card or one the rules hide (``game.visible``)."""
        return self.game.visible(self)

    def pile(self, pile_id: str) -> list[str]:
        """The cards of one pile, bottom to top, as text (face-down ones as ``"[QH]"``)."""
        return [card_name(c) for c in self.piles[self.game.pile_index(pile_id)]]

    def __str__(self) -> str:
        return self.game.format(self)

    def _repr_svg_(self) -> str:
        """The position as a picture (notebooks, nbconvert, GitHub); face-down cards as backs."""
        return self.game.picture(self)

    def __repr__(self) -> str:
        on_foundations = sum(len(self.piles[i]) for i in self.game.foundation_indices)
        return (
            f"<State {self.game.id}: {on_foundations}/{self.game.card_count} cards home,"
            f" {len(self.legal_moves())} legal moves>"
        )


_set_game, _set_piles, _set_extra, _set_hash = (
    getattr(State, name).__set__ for name in ("game", "piles", "extra", "_hash")
)
