"""Game ids -> game classes: ``games()`` and ``load_game()``.

The catalogue (solwidget/games/) registers its games when the package is imported: the
engine imports nothing above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .checks import shown
from .errors import UnknownGame

if TYPE_CHECKING:
    from .game import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by its id."""
    _GAMES[cls.id] = cls
    return cls


def games() -> list[str]:
    """The ids of every game, seed games first (``solwidget games`` lists them with a line each).

    Examples:
        >>> sw.games()[:4]
        ['reversed_solitaire', 'inverted_freecell', 'freecell', 'triple_interchange']
    """
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {shown(game_id)}: solwidget has {', '.join(_GAMES)}") from None


def load_game(game_id: str, **options) -> Game:
    """The game ``game_id`` (one of ``games()``), with its options as keyword arguments.

    Args:
        game_id: a game id such as ``"freecell"`` or ``"mutated"``.
        **options: the game's options, e.g. ``cells=3`` for FreeCell; every option has a
            default, listed in the game's ``option_defaults``.

    Raises:
        UnknownGame: no game has that id; the message lists the ids there are.
        InvalidOption: the game has no such option, or cannot take that value.

    Examples:
        >>> sw.load_game("freecell", cells=3)
        load_game('freecell', cells=3)
    """
    return game_class(game_id)(**options)
