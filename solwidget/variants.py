"""Variants: new games made from a game of the catalogue by changing its rules' parameters.

    bakers = sw.variant("freecell", id="bakers_game", name="Baker's Game", build="down in suit")
    sw.load_game("bakers_game", cells=3)          # a game like any other, everywhere
    bakers.to_dict()                              # {"id": ..., "name": ..., "base": ..., "build": ...}
    sw.variant_from_dict(d); sw.load_variant("bakers.toml")

The changes are given in the words of the rules summaries (``CHANGES`` lists them).
``_FAMILIES`` lists which of them each family's deal, layout and rules can take:
Interlock's layers cannot be spread over more piles, FreeCell has no stock to turn, and
Mutated Solitaire's rules are code rather than parameters, so it takes none.

The solver uses the base's profile for a variant only when ``profile.assumes(game, base)``
says that every lemma it relies on for the base still holds under the variant's rules
(solver/profile.py); otherwise the variant is solved by the generic path, which is sound
for any rules.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .engine.cards import ACE, KING
from .engine.errors import SolwidgetError
from .engine.game import Game
from .engine.patience import Build, Patience
from .engine.registry import game_class, register_variant, registered
from .games.freecell.rules import _FreeCellFamily
from .games.interchange.rules import InterchangeFamily
from .games.interlock.rules import InterlockFamily
from .solver.profile import GENERIC, profile_for, register_profile

BUILDS = {Build(way, suits).words(): Build(way, suits) for way in (-1, 1) for suits in ("same", "alternate", "any")}
MOVES = {"one card": "one", "supermove": "supermove", "runs": "run", "any group": "yukon"}
EMPTY = ("any", "king", "none")
FOUNDATIONS = {"ace up": ACE, "king down": KING}
UNLIMITED = "unlimited"          # redeals=None in a file (TOML has no null)
CHANGES = ("build", "moves", "empty", "foundations", "cells", "piles", "draw", "redeals", "decks")
MAX_CELLS, MAX_DRAW, MAX_REDEALS, MAX_DECKS = 10, 5, 10, 4


class InvalidVariant(SolwidgetError):
    """A variant that cannot be made: an unknown change, a value out of range, a change the
    base cannot take, a taken id, or a malformed variant file. The message names the
    parameter (or the file and field) and what it accepts."""


@dataclass(frozen=True)
class _Family:
    """What a family's variants may change, and how many tableau piles its deal can spread
    over (``piles(decks)``: a range; None where its deal cannot be spread)."""
    changes: frozenset
    piles: Callable[[int], range] | None = None
    layout: str = ""           # the deal and the board in words, for the summary


def _interchange_piles(decks: int) -> range:
    # rows as many as piles, one card each, and at least one card left for the stock
    return range(2, max(n for n in range(2, 20) if n * n < 52 * decks) + 1)


_FAMILIES = {
    _FreeCellFamily: _Family(frozenset({"build", "moves", "empty", "foundations", "cells", "piles"}),
                             lambda decks: range(2, 14),
                             "{piles} piles dealt face up, the cards round them from the first"),
    InterchangeFamily: _Family(frozenset({"build", "moves", "empty", "foundations", "cells", "piles",
                                          "draw", "redeals", "decks"}), _interchange_piles,
                               "{piles} piles of {piles} cards, alternately face up and face down from "
                               "the bottom; the rest is the stock, one card turned to the waste"),
    InterlockFamily: _Family(frozenset({"build", "moves", "empty", "foundations", "draw", "redeals"}), None,
                             "Interlock's three overlapping layers of piles: a covered pile neither gives "
                             "nor takes cards, a pile's last covering pile may drop onto it whole, an "
                             "emptied middle or front pile is gone ('empty' is what an emptied back "
                             "pile takes)"),
}


@dataclass(frozen=True)
class Variant:
    """A variant's definition (what ``sw.variant`` returns): its id and name, the catalogue
    game it changes (``base``) and the changes, in the words ``sw.variant`` takes.

    ``game(**options)`` loads it (as ``sw.load_game(id, **options)`` does), ``game_class``
    is its Game class, and ``to_dict()`` gives the definition as JSON- and TOML-able data
    that ``sw.variant_from_dict`` reads back.
    """
    id: str
    name: str
    base: str
    changes: dict = field(default_factory=dict)
    game_class: type = field(default=None, compare=False, repr=False)

    def game(self, **options) -> Game:
        """The variant as a Game, with its options (``cells=3`` where the base has that option)."""
        return self.game_class(**options)

    def __hash__(self) -> int:
        return hash(self.id)

    def __reduce__(self):
        # pickled as its definition: unpickling registers the variant (a Dask worker)
        return (variant_from_dict, (self.to_dict(),))

    def to_dict(self) -> dict:
        """The definition as plain data: ``{"id", "name", "base", and each change}``, with
        unlimited redeals written ``"unlimited"`` (TOML has no null)."""
        changes = {k: (UNLIMITED if k == "redeals" and v is None else v) for k, v in self.changes.items()}
        return {"id": self.id, "name": self.name, "base": self.base, **changes}


# ---------------------------------------------------------------- making one

def variant(base: str, *, id: str, name: str, **changes) -> Variant:
    """Make and register a new game: ``base`` (a game id) with some of its rules changed.

    Args:
        base: the id of a game of the catalogue, or of another variant (whose changes the
            new one starts from); a Game or a Variant stands for its id.
        id: the new game's id, for ``load_game``; not one that another game has.
        name: its name for people.
        **changes: ``build`` ("down in suit", "down in alternating colours", "down
            regardless of suit", or the same with "up"), ``moves`` ("one card",
            "supermove", "runs", "any group"), ``empty`` ("any", "king", "none"),
            ``foundations`` ("ace up", "king down"), ``cells``, ``piles`` (tableau piles,
            the deal spread over them as the base deals), and where the base has a stock
            ``draw``, ``redeals`` (a number, or None for unlimited), and for several decks
            ``decks``.

    Returns:
        The Variant: ``.game()`` loads it, ``.to_dict()`` writes it down.

    Raises:
        InvalidVariant: an unknown change or word, a value out of range, a change the
            base cannot take, or an id that another game has; the message names the
            parameter and lists what it accepts.
        UnknownGame: ``base`` is no game's id.

    Defining the very same variant again returns it (a notebook cell run twice, a worker
    that already has it).

    Examples:
        >>> bakers = sw.variant("freecell", id="bakers_game", name="Baker's Game", build="down in suit")
        >>> sw.load_game("bakers_game", cells=3).deal(3).explain("t1 t7")
        '4S does not fit on 5H: the tableau builds down in suit'
    """
    if isinstance(base, (Variant, Game)):
        base = base.id
    base_cls = game_class(base)
    parent = getattr(base_cls, "variant", None)
    if parent is not None:                      # a variant of a variant: the base's changes, then these
        base, changes = parent.base, {**parent.changes, **changes}
        base_cls = game_class(base)
    _check_names(id, name)
    values = _checked_changes(base_cls, changes)
    changes = {k: (None if k == "redeals" and changes[k] == UNLIMITED else changes[k])
               for k in CHANGES if k in changes}
    definition = Variant(id, name, base, changes)
    existing = registered(id)
    if existing is not None:
        known = getattr(existing, "variant", None)
        if known == definition:
            return known
        what = (f"the variant {known.name!r} of {known.base} (changes {known.changes})" if known
                else f"{existing.name}, a game of the catalogue")
        raise InvalidVariant(f"id: {id!r} is taken by {what}; choose another id")
    cls = _make_class(base_cls, definition, values)
    register_variant(cls)
    _register_profile(base_cls, cls)
    return cls.variant


def _check_names(game_id, name) -> None:
    if not isinstance(game_id, str) or not game_id.isidentifier() or game_id != game_id.lower():
        raise InvalidVariant(f"id: a variant's id is lower-case letters, digits and _, starting with a letter, "
                             f"such as 'bakers_game', not {game_id!r}")
    if not isinstance(name, str) or not name.strip():
        raise InvalidVariant(f"name: a variant's name is some text, such as \"Baker's Game\", not {name!r}")


def _family_of(base_cls) -> _Family:
    for family_cls, family in _FAMILIES.items():
        if issubclass(base_cls, family_cls):
            return family
    return _Family(frozenset())          # rules that are code (Mutated Solitaire): nothing to change


def _checked_changes(base_cls, changes: dict) -> dict:
    """The changes as the base class's attributes, each checked; InvalidVariant names the first wrong."""
    family = _family_of(base_cls)
    unknown = [k for k in changes if k not in CHANGES]
    if unknown:
        raise InvalidVariant(f"{unknown[0]}: no such change; a variant may change {', '.join(CHANGES)}")
    for key in changes:
        if key not in _takes(base_cls, family):
            raise InvalidVariant(f"{key}: {base_cls.name} cannot change it{_why_not(base_cls, family, key)}; "
                                 f"it may change {_listing(sorted(_takes(base_cls, family)))}")
    values = {}
    for key, value in changes.items():
        values.update(_CHECKS[key](value))
    decks = values.get("decks", base_cls.decks)
    piles = values.get("tableau_piles", base_cls.tableau_piles if "piles" in family.changes else None)
    if piles is not None and family.piles is not None and piles not in family.piles(decks):
        allowed = family.piles(decks)
        what = "piles" if "piles" in changes else "decks"
        raise InvalidVariant(f"{what}: {base_cls.name}'s deal spreads {_deck_words(decks)} over "
                             f"{allowed.start} to {allowed[-1]} piles, not {piles}")
    return values


def _takes(base_cls, family: _Family) -> set:
    takes = set(family.changes)
    if not issubclass(base_cls, Patience) or not base_cls.draw:
        takes -= {"draw", "redeals"}
    return takes


def _why_not(base_cls, family: _Family, key: str) -> str:
    if not family.changes:
        return " (its rules are its own, not the engine's parameters)"
    if key in ("draw", "redeals"):
        return " (it has no stock)"
    if key == "piles":
        return " (its deal cannot be spread over other piles)"
    if key == "decks":
        return f" (its deal and its layout are made for {_deck_words(base_cls.decks)})"
    if key == "cells":
        return " (its layout has no room for free cells)"
    return ""


def _listing(names) -> str:
    return ", ".join(names) if names else "nothing"


def _deck_words(decks: int) -> str:
    return f"{decks} deck{'s' * (decks != 1)}"


def _whole(key: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidVariant(f"{key}: a whole number from {low} to {high}, not {value!r}")
    return value


def _word(key: str, value, words) -> str:
    if value not in words:
        raise InvalidVariant(f"{key}: one of {', '.join(repr(w) for w in words)}, not {value!r}")
    return value


def _redeals(value) -> dict:
    if value is None or value == UNLIMITED:
        return {"redeals": None}
    if isinstance(value, str):
        raise InvalidVariant(f"redeals: a whole number from 0 to {MAX_REDEALS}, or None ('{UNLIMITED}' in a file) "
                             f"for unlimited redeals, not {value!r}")
    return {"redeals": _whole("redeals", value, 0, MAX_REDEALS)}


_CHECKS = {
    "build": lambda v: {"build": BUILDS[_word("build", v, list(BUILDS))]},
    "moves": lambda v: {"group": MOVES[_word("moves", v, list(MOVES))]},
    "empty": lambda v: {"empty_takes": _word("empty", v, EMPTY)},
    "foundations": lambda v: {"foundation_start": FOUNDATIONS[_word("foundations", v, list(FOUNDATIONS))]},
    "cells": lambda v: {"cells": _whole("cells", v, 0, MAX_CELLS)},
    "piles": lambda v: {"tableau_piles": _whole("piles", v, 1, 52)},
    "draw": lambda v: {"draw": _whole("draw", v, 1, MAX_DRAW)},
    "redeals": _redeals,
    "decks": lambda v: {"decks": _whole("decks", v, 1, MAX_DECKS)},
}


def _make_class(base_cls, definition: Variant, values: dict) -> type:
    attrs = {"id": definition.id, "name": definition.name, **values,
             "__module__": __name__, "__doc__": f"{definition.name}: {base_cls.name} with its rules changed."}
    if "cells" in values and "cells" in base_cls.option_defaults:
        attrs["option_defaults"] = {**base_cls.option_defaults, "cells": values["cells"]}
    cls = type(_class_name(definition.id), (base_cls,), attrs)
    cls.variant = Variant(definition.id, definition.name, definition.base, definition.changes, cls)
    cls.__reduce__ = _reduce_game
    cls.summary, cls.tagline = _summary(cls, base_cls), _tagline(cls, base_cls, definition)
    cls.rulebook = f"docs/variants.md, and {base_cls.name} in docs/rules.md"
    return cls


def _reduce_game(game: Game):
    """A variant's Game pickles as its definition and options: its class is made at run time."""
    return (_game_of, (type(game).variant, game.options))


def _game_of(definition: Variant, options: dict) -> Game:
    return definition.game(**options)


def _class_name(game_id: str) -> str:
    return "".join(part.title() for part in game_id.split("_")) or "Variant"


def _register_profile(base_cls, cls) -> None:
    """The base's profile, if every lemma it relies on for the base holds for the variant;
    else none (the generic path)."""
    base = base_cls()
    profile = profile_for(base)
    if profile is not GENERIC and profile.assumes(cls(), base):
        register_profile(profile, cls)


# ---------------------------------------------------------------- its rules in words

_MOVES_WORDS = {
    "one": "cards move one at a time",
    "supermove": "runs move as a unit as far as the free cells and empty piles would allow card by card",
    "run": "a run moves as a unit",
    "yukon": "any face-up group moves as a unit if its first card fits",
}
_EMPTY_WORDS = {"any": "any card or group", "king": "only a King or a group headed by a King",
                "none": "no cards"}


def _summary(cls, base_cls) -> str:
    """The variant's rules in words, made from its parameters."""
    if not issubclass(cls, Patience):
        return base_cls.summary
    family = _family_of(base_cls)
    cells = f", {cls.cells} free cell{'s' * (cls.cells != 1)}" if cls.cells else ", no free cells"
    layout = family.layout.format(piles=cls.tableau_piles)
    start = "from the Ace up" if cls.foundation_start == ACE else "from the King down"
    parts = [f"A variant of {base_cls.name}: {_deck_words(cls.decks)}, {4 * cls.decks} foundations{cells}. "
             f"{layout[0].upper() + layout[1:]}.",
             f"Foundations build in suit {start}.",
             f"The tableau builds {cls.build.words()}; {_MOVES_WORDS[cls.group]}; an empty pile takes "
             f"{_EMPTY_WORDS[cls.empty_takes]}."]
    if cls.draw:
        passes = {None: "unlimited redeals", 0: "one pass, no redeal"}.get(
            cls.redeals, f"{cls.redeals} redeal{'s' * (cls.redeals != 1)}")
        parts.append(f"The stock turns {cls.draw} card{'s' * (cls.draw != 1)} at a time, {passes}.")
    return " ".join(parts)


def _tagline(cls, base_cls, definition: Variant) -> str:
    """One line: the base and what changed, in the variant's own words."""
    words = []
    for key, value in definition.changes.items():
        if key == "build":
            words.append(f"builds {value}")
        elif key == "moves":
            words.append({"one": "one card at a time", "supermove": "supermoves", "run": "runs move",
                          "yukon": "any group moves"}[cls.group])
        elif key == "empty":
            words.append(f"spaces take {'any card' if value == 'any' else 'Kings only' if value == 'king' else 'nothing'}")
        elif key == "foundations":
            words.append(f"foundations {value}")
        elif key == "redeals":
            words.append("unlimited redeals" if value is None else f"{value} redeal{'s' * (value != 1)}")
        elif key == "draw":
            words.append(f"turns {value} at a time")
        else:
            noun = {"cells": "free cell", "piles": "pile", "decks": "deck"}[key]
            words.append(f"{value} {noun}{'s' * (value != 1)}")
    return f"{base_cls.name}, {', '.join(words)}" if words else f"{base_cls.name} under another name"


# ---------------------------------------------------------------- as data and files

def variant_from_dict(d: dict, source: str = "the variant") -> Variant:
    """Make and register the variant that ``Variant.to_dict`` wrote (JSON or TOML data).

    Raises:
        InvalidVariant: ``d`` is not such a dict, lacks id, name or base, or holds a field
            that is no change; each message names ``source`` and the field.
    """
    if not isinstance(d, dict):
        raise InvalidVariant(f"{source}: a variant is a table of id, name, base and changes, not {type(d).__name__}")
    missing = [k for k in ("id", "name", "base") if k not in d]
    if missing:
        raise InvalidVariant(f"{source}: field {missing[0]!r} is missing (a variant needs id, name and base)")
    if not isinstance(d["base"], str):
        raise InvalidVariant(f"{source}: field 'base' is a game id such as 'freecell', not {d['base']!r}")
    changes = {k: v for k, v in d.items() if k not in ("id", "name", "base")}
    try:
        return variant(d["base"], id=d["id"], name=d["name"], **changes)
    except SolwidgetError as err:
        raise InvalidVariant(f"{source}: field {_field_of(err)}") from None


def _field_of(err: SolwidgetError) -> str:
    """The message of a refused change, read as 'field FIELD: why'; an unknown base as 'base: why'."""
    text = str(err)
    if isinstance(err, InvalidVariant):
        return text
    return f"base: {text}"


def load_variant(path: str | os.PathLike) -> Variant:
    """Make and register the variant defined in a ``.toml`` or ``.json`` file (``to_dict``'s fields).

    Raises:
        InvalidVariant: no such file, another suffix, text that does not parse (with the
            parser's reason), or a definition that ``variant_from_dict`` refuses.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise InvalidVariant(f"{path}: a variant file is .toml or .json, not {suffix or 'without a suffix'}")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise InvalidVariant(f"{path}: cannot read it: {err.strerror or err}") from None
    return variant_from_dict(_parse(path, suffix, text), str(path))


def _parse(path: Path, suffix: str, text: str):
    if suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise InvalidVariant(f"{path}: not JSON: {err}") from None
    try:
        import tomllib
    except ImportError:                 # Python 3.10: tomli is the same reader
        try:
            import tomli as tomllib
        except ImportError:
            raise InvalidVariant(f"{path}: reading TOML needs Python 3.11 or tomli (pip install tomli); "
                                 "a .json file needs nothing") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InvalidVariant(f"{path}: not TOML: {err}") from None


def definition_of(game: Game) -> dict | None:
    """The ``to_dict`` definition of ``game``'s variant, or None for a game of the catalogue
    (what a worker needs to rebuild the game: solwidget/study.py)."""
    known = getattr(type(game), "variant", None)
    return known.to_dict() if known is not None else None


def game_or_file(text: str) -> str:
    """A game id, or the path of a variant file (registered then): the id, for the CLI."""
    if text.lower().endswith((".toml", ".json")):
        return load_variant(text).id
    return text
