"""Game ids -> game classes: ``games()`` and ``load_game()``."""

from __future__ import annotations

from .checks import shown
from .errors import UnknownGame
from .game import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by its id."""
    _GAMES[cls.id] = cls
    return cls


def _ensure_loaded() -> None:
    from .. import rules  # noqa: F401  (importing the rules registers the games)


def games() -> list[str]:
    """The ids of every game, seed games first."""
    _ensure_loaded()
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    _ensure_loaded()
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {shown(game_id)}: solwidget has {', '.join(_GAMES)}") from None


def load_game(game_id: str, **options) -> Game:
    """The game ``game_id``, with its options as keyword arguments."""
    return game_class(game_id)(**options)
