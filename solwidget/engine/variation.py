"""What a variant may change (``sw.variant``, solwidget/variants.py), in the engine's words.

``CHANGES`` are the parameters of ``Patience`` as the rules summaries name them ("build",
"moves", "cells", ...), each with the check of a value and what it accepts. A family states
which of them its deal and layout can take in a ``Variation`` of its own package
(``games/<family>/variant.py``); solwidget/variants.py collects those and makes the games.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from .cards import ACE, KING
from .checks import shown
from .errors import SolwidgetError
from .game import Game
from .patience import Build, Patience

BUILDS = {
    Build(way, suits).words(): Build(way, suits) for way in (-1, 1) for suits in ("same", "alternate", "any")
}
MOVES = {"one card": "one", "supermove": "supermove", "runs": "run", "any group": "yukon"}
EMPTY = ("any", "king", "none")
FOUNDATIONS = {"ace up": ACE, "king down": KING}
UNLIMITED = "unlimited"  # redeals=None in a file (TOML has no null)
MAX_CELLS, MAX_PILES, MAX_DRAW, MAX_REDEALS, MAX_DECKS = 10, 52, 5, 10, 4
MAX_ID_CHARS = 100  # a variant's id, in every file that names it


class InvalidVariant(SolwidgetError):
    """A variant that cannot be made: an unknown change, a value out of range, a change the
    base cannot take, a taken id, or a malformed variant file. The message names the
    parameter (or the file and field) and what it accepts."""


def is_game_id(text: object) -> bool:
    """The form of a game's id: lower-case letters, digits and _, starting with a letter, at
    most MAX_ID_CHARS characters (what ``sw.variant`` takes and a study file holds)."""
    return (
        isinstance(text, str)
        and 0 < len(text) <= MAX_ID_CHARS
        and text.isascii()
        and text.isidentifier()
        and text == text.lower()
    )


def _whole(key: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidVariant(f"{key}: a whole number from {low} to {high}, not {shown(value)}")
    return value


def _word(key: str, value: object, words: Collection[str]) -> str:
    if not isinstance(value, str) or value not in words:
        raise InvalidVariant(f"{key}: one of {', '.join(repr(w) for w in words)}, not {shown(value)}")
    return value


def _redeals(value: object) -> dict[str, object]:
    if value is None or value == UNLIMITED:
        return {"redeals": None}
    if isinstance(value, str):
        raise InvalidVariant(
            f"redeals: a whole number from 0 to {MAX_REDEALS}, or None ('{UNLIMITED}' in a file) "
            f"for unlimited redeals, not {shown(value)}"
        )
    return {"redeals": _whole("redeals", value, 0, MAX_REDEALS)}


def _word_of(words: Mapping[str, object], value: object) -> str:
    return next(word for word, meant in words.items() if meant == value)


@dataclass(frozen=True)
class Change:
    """One rule a variant may change: ``read`` checks a value (InvalidVariant names the change
    and what it accepts) and gives the game class's attributes it sets; ``value_of`` reads
    a game's value back in the same words; ``accepts`` and ``sets`` say it for the docs."""

    name: str
    read: Callable[[object], dict[str, object]]
    value_of: Callable[[Patience], object]
    accepts: str
    sets: str


CHANGES: dict[str, Change] = {
    change.name: change
    for change in (
        Change(
            "build",
            lambda v: {"build": BUILDS[_word("build", v, list(BUILDS))]},
            lambda game: game.build.words(),
            "'down in suit', 'down in alternating colours', 'down regardless of suit', and the same with 'up'",
            "what goes on a tableau card",
        ),
        Change(
            "moves",
            lambda v: {"group": MOVES[_word("moves", v, list(MOVES))]},
            lambda game: _word_of(MOVES, game.group),
            "'one card', 'supermove', 'runs', 'any group'",
            "what moves as a unit",
        ),
        Change(
            "empty",
            lambda v: {"empty_takes": _word("empty", v, EMPTY)},
            lambda game: game.empty_takes,
            "'any', 'king', 'none'",
            "what an empty tableau pile takes",
        ),
        Change(
            "foundations",
            lambda v: {"foundation_start": FOUNDATIONS[_word("foundations", v, list(FOUNDATIONS))]},
            lambda game: _word_of(FOUNDATIONS, game.foundation_start),
            "'ace up', 'king down'",
            "where the foundations start, and which way they build",
        ),
        Change(
            "cells",
            lambda v: {"cells": _whole("cells", v, 0, MAX_CELLS)},
            lambda game: game.cells,
            f"0 to {MAX_CELLS}",
            "free cells",
        ),
        Change(
            "piles",
            lambda v: {"tableau_piles": _whole("piles", v, 1, MAX_PILES)},
            lambda game: game.tableau_piles,
            "as many as the family's deal can spread its cards over",
            "tableau piles, dealt as the base deals",
        ),
        Change(
            "draw",
            lambda v: {"draw": _whole("draw", v, 1, MAX_DRAW)},
            lambda game: game.draw,
            f"1 to {MAX_DRAW}",
            "cards turned at a time (where the base has a stock)",
        ),
        Change(
            "redeals",
            _redeals,
            lambda game: UNLIMITED if game.redeals is None else game.redeals,
            f"0 to {MAX_REDEALS}, or None for unlimited ('{UNLIMITED}' in a file)",
            "passes through the stock after the first",
        ),
        Change(
            "decks",
            lambda v: {"decks": _whole("decks", v, 1, MAX_DECKS)},
            lambda game: game.decks,
            f"1 to {MAX_DECKS}",
            "decks",
        ),
    )
}


@dataclass(frozen=True)
class Variation:
    """What a family's variants may change, as the family declares it in its own package.

    Attributes:
        family: the family's rules class; its games (and their variants) are its subclasses.
        changes: the names of ``CHANGES`` that its deal, layout and rules can take.
        cannot: for other changes, why not, in words ("it has no stock").
        otherwise: why not, for a change that ``cannot`` does not name.
        layout: the deal and the board in words, ``{piles}`` filled in, for a summary.
        piles: the tableau piles its deal can spread ``decks`` decks over, by the rules.
    """

    family: type[Game]
    changes: tuple[str, ...]
    cannot: Mapping[str, str] = field(default_factory=dict)
    otherwise: str = ""
    layout: str = ""
    piles: Callable[[int], range] | None = None

    def takes(self, base_cls: type[Game]) -> list[str]:
        """The changes that ``base_cls`` may take, in ``CHANGES`` order: the stock's only where
        it has one."""
        stock = getattr(base_cls, "draw", 0)
        return [
            name for name in CHANGES if name in self.changes and (stock or name not in ("draw", "redeals"))
        ]

    def why_not(self, base_cls: type[Game], name: str) -> str:
        """Why ``base_cls`` cannot take change ``name``, in words."""
        if name in self.changes:
            return "it has no stock"
        return self.cannot.get(name, self.otherwise)

    def check(self, base_cls: type[Game], given: Mapping[str, object], values: Mapping[str, object]) -> None:
        """Refuse a combination of changes that the family's deal cannot follow: ``given`` as
        the caller wrote them, ``values`` as the class's attributes."""
        if self.piles is None or not issubclass(base_cls, Patience):  # a deal of its own
            return
        decks = values.get("decks", base_cls.decks)
        piles = values.get("tableau_piles", base_cls.tableau_piles)
        assert isinstance(decks, int) and isinstance(piles, int)  # as CHANGES read them
        allowed = self.piles(decks)
        if piles not in allowed:
            what = "piles" if "piles" in given else "decks"
            raise InvalidVariant(
                f"{what}: {base_cls.name}'s deal spreads {deck_words(decks)} over "
                f"{allowed.start} to {allowed[-1]} piles, not {piles}"
            )


def deck_words(decks: int) -> str:
    """``"1 deck"``, ``"3 decks"``."""
    return f"{decks} deck{'s' * (decks != 1)}"
