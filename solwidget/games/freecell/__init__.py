"""The FreeCell family: Reversed Solitaire (seed), Inverted FreeCell, classic FreeCell."""

from . import profile, rules  # noqa: F401 - importing them registers the games and their profile
