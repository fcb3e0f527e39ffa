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
_VARIANTS: dict[str, type[Game]] = {}  # made at run time (solwidget/variants.py): not in games()


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game loadable by its id."""
    _GAMES[cls.id] = cls
    return cls


def register_variant(cls: type[Game]) -> type[Game]:
    """Make a variant loadable by its id; ``games()`` keeps listing the catalogue alone."""
    _VARIANTS[cls.id] = cls
    return cls


def registered(game_id: str) -> type[Game] | None:
    """The class of a game or variant of that id, or None."""
    return _GAMES.get(game_id) or _VARIANTS.get(game_id)


def games() -> list[str]:
    """The ids of every game of the catalogue, seed games first (``solwidget games`` lists them
    with a line each). Variants (``sw.variant``) load by their ids too, but are not listed.

    Examples:
        >>> sw.games()[:4]
        ['reversed_solitaire', 'inverted_freecell', 'freecell', 'triple_interchange']
    """
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        return _GAMES.get(game_id) or _VARIANTS[game_id]
    except (KeyError, TypeError):
        variants = f"; variants defined here: {_listed(list(_VARIANTS))}" if _VARIANTS else ""
        raise UnknownGame(
            f"unknown game {shown(game_id)}: solwidget has {', '.join(_GAMES)}{variants}"
        ) from None


def _listed(ids: list[str], room: int = 60) -> str:
    """Ids for a message, as many as fit in ``room`` characters, and how many more (a
    notebook may define hundreds of variants, with ids of up to 100 characters)."""
    shown_ids: list[str] = []
    for game_id in ids:
        if sum(len(i) + 2 for i in shown_ids) + len(game_id) <= room:
            shown_ids.append(game_id)
    if not shown_ids:
        return f"{len(ids)} (ids too long to list)"
    more = f" and {len(ids) - len(shown_ids)} more" if len(ids) > len(shown_ids) else ""
    return ", ".join(shown_ids) + more


def load_game(game_id: str, **options: object) -> Game:
    """The game ``game_id`` (one of ``games()``), with its options as keyword arguments.

    Args:
        game_id: a game id such as ``"freecell"`` or ``"mutated"``, or a variant's id.
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
