"""Game ids -> game classes: ``games()`` and ``load_game()``.

The catalogue (solwidget/games/) registers its games when the package is imported: the
engine imports nothing above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UnknownGame

if TYPE_CHECKING:
    from .game import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by its id."""
    _GAMES[cls.id] = cls
    return cls


def games() -> list[str]:
    """The ids of every game, seed games first."""
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {game_id!r}: solwidget has {', '.join(_GAMES)}") from None


def load_game(game_id: str, **options) -> Game:
    """The game ``game_id``, with its options as keyword arguments."""
    return game_class(game_id)(**options)
