"""Variants: new games made from a game of the catalogue by changing its rules' parameters.

    bakers = sw.variant("freecell", id="bakers_game", name="Baker's Game", build="down in suit")
    sw.load_game("bakers_game", cells=3)          # a game like any other, everywhere
    bakers.to_dict()                              # {"id": ..., "name": ..., "base": ..., "build": ...}
    sw.variant_from_dict(d); sw.load_variant("bakers.toml")

The changes are given in the words of the rules summaries (``CHANGES`` in engine/variation.py).
Each family declares which of them its deal, layout and rules can take, in its own package
(``games/<family>/variant.py``); this module collects those declarations (``VARIATIONS``),
checks a variant against its family's, and makes and registers its Game class.

The solver uses the base's profile for a variant only when ``profile.assumes(game, base)``
says that every lemma it relies on for the base still holds under the variant's rules
(solver/profile.py); otherwise the variant is solved by the generic path, which is sound
for any rules.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .engine.cards import ACE
from .engine.checks import shown, shown_name
from .engine.errors import SolwidgetError
from .engine.game import Game
from .engine.patience import Patience
from .engine.registry import game_class, register_variant, registered
from .engine.variation import (
    CHANGES,
    MAX_ID_CHARS,
    UNLIMITED,
    InvalidVariant,
    Variation,
    deck_words,
    is_game_id,
)
from .games.freecell.variant import VARIATION as FREECELL
from .games.interchange.variant import VARIATION as INTERCHANGE
from .games.interlock.variant import VARIATION as INTERLOCK
from .games.mutated.variant import VARIATION as MUTATED
from .solver.profile import GENERIC, profile_for, register_profile

__all__ = [
    "InvalidVariant",
    "Variant",
    "definition_of",
    "game_or_file",
    "load_variant",
    "rules_of",
    "variant",
    "variant_from_dict",
    "variation_of",
]

VARIATIONS = (FREECELL, INTERCHANGE, INTERLOCK, MUTATED)  # what each family may change
FIXED = Variation(Game, changes=(), otherwise="its rules are its own, not the engine's parameters")
MAX_FILE_BYTES = 64 * 1024  # a variant file is a few lines: anything longer is refused unread


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
    game_class: type[Game] | None = field(default=None, compare=False, repr=False)

    def game(self, **options) -> Game:
        """The variant as a Game, with its options (``cells=3`` where the base has that option)."""
        assert self.game_class is not None  # only sw.variant's own draft has none
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
    if parent is not None:  # a variant of a variant: the base's changes, then these
        base, changes = parent.base, {**parent.changes, **changes}
        base_cls = game_class(base)
    _check_names(id, name)
    values = _checked_changes(base_cls, changes)
    changes = {
        k: (None if k == "redeals" and changes[k] == UNLIMITED else changes[k])
        for k in CHANGES
        if k in changes
    }
    definition = Variant(id, name, base, changes)
    existing = registered(id)
    if existing is not None:
        known = getattr(existing, "variant", None)
        if known == definition:
            return known
        what = (
            f"the variant {known.name!r} of {known.base} (changes {known.changes})"
            if known
            else f"{existing.name}, a game of the catalogue"
        )
        raise InvalidVariant(f"id: {id!r} is taken by {what}; choose another id")
    cls = _make_class(base_cls, definition, values)
    register_variant(cls)
    _register_profile(base_cls, cls)
    variant: Variant = getattr(cls, "variant")  # noqa: B009 - set on the class made at run time
    return variant


def _check_names(game_id, name) -> None:
    if not is_game_id(game_id):
        raise InvalidVariant(
            f"id: a variant's id is lower-case letters, digits and _, starting with a letter, "
            f"at most {MAX_ID_CHARS} characters, such as 'bakers_game', not {shown(game_id)}"
        )
    if not isinstance(name, str) or not name.strip():
        raise InvalidVariant(
            f"name: a variant's name is some text, such as \"Baker's Game\", not {shown(name)}"
        )


def variation_of(base_cls) -> Variation:
    """What ``base_cls``'s family may change, as the family declares it."""
    for variation in VARIATIONS:
        if issubclass(base_cls, variation.family):
            return variation
    return FIXED


def _checked_changes(base_cls, changes: dict) -> dict:
    """The changes as the base class's attributes, each checked; InvalidVariant names the first wrong."""
    variation = variation_of(base_cls)
    takes = variation.takes(base_cls)
    for key in changes:
        if key not in CHANGES:
            raise InvalidVariant(
                f"{shown_name(key)}: no such change; a variant may change {', '.join(CHANGES)}"
            )
        if key not in takes:
            why = variation.why_not(base_cls, key)
            raise InvalidVariant(
                f"{key}: {base_cls.name} cannot change it{f' ({why})' if why else ''}; "
                f"it may change {', '.join(sorted(takes)) or 'nothing'}"
            )
    values = {}
    for key, value in changes.items():
        values.update(CHANGES[key].read(value))
    variation.check(base_cls, changes, values)
    return values


def _make_class(base_cls, definition: Variant, values: dict) -> type:
    attrs = {
        "id": definition.id,
        "name": definition.name,
        **values,
        "__module__": __name__,
        "__doc__": f"{definition.name}: {base_cls.name} with its rules changed.",
    }
    if "cells" in values and "cells" in base_cls.option_defaults:
        attrs["option_defaults"] = {**base_cls.option_defaults, "cells": values["cells"]}
    cls: type[Game] = type(_class_name(definition.id), (base_cls,), attrs)
    # what no Game declares, set on the class made at run time
    setattr(cls, "variant", Variant(definition.id, definition.name, definition.base, definition.changes, cls))  # noqa: B010
    setattr(cls, "__reduce__", _reduce_game)  # noqa: B010
    cls.summary, cls.tagline = _summary(cls, base_cls), _tagline(cls, base_cls, definition)
    cls.rulebook = f"docs/variants.md, and {base_cls.name} in docs/rules.md"
    return cls


def _reduce_game(game: Game):
    """A variant's Game pickles as its definition and options: its class is made at run time."""
    return (_game_of, (getattr(type(game), "variant"), game.options))  # noqa: B009 - see _make_class


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
_EMPTY_WORDS = {
    "any": "any card or group",
    "king": "only a King or a group headed by a King",
    "none": "no cards",
}


def _summary(cls, base_cls) -> str:
    """The variant's rules in words, made from its parameters."""
    if not issubclass(cls, Patience):
        return base_cls.summary
    cells = f", {cls.cells} free cell{'s' * (cls.cells != 1)}" if cls.cells else ", no free cells"
    layout = variation_of(base_cls).layout.format(piles=cls.tableau_piles)
    start = "from the Ace up" if cls.foundation_start == ACE else "from the King down"
    parts = [
        f"A variant of {base_cls.name}: {deck_words(cls.decks)}, {4 * cls.decks} foundations{cells}. "
        f"{layout[0].upper() + layout[1:]}.",
        f"Foundations build in suit {start}.",
        f"The tableau builds {cls.build.words()}; {_MOVES_WORDS[cls.group]}; an empty pile takes "
        f"{_EMPTY_WORDS[cls.empty_takes]}.",
    ]
    if cls.draw:
        passes = {None: "unlimited redeals", 0: "one pass, no redeal"}.get(
            cls.redeals, f"{cls.redeals} redeal{'s' * (cls.redeals != 1)}"
        )
        parts.append(f"The stock turns {cls.draw} card{'s' * (cls.draw != 1)} at a time, {passes}.")
    return " ".join(parts)


def _tagline(cls, base_cls, definition: Variant) -> str:
    """One line: the base and what changed, in the variant's own words."""
    words = []
    for key, value in definition.changes.items():
        if key == "build":
            words.append(f"builds {value}")
        elif key == "moves":
            words.append(
                {
                    "one": "one card at a time",
                    "supermove": "supermoves",
                    "run": "runs move",
                    "yukon": "any group moves",
                }[cls.group]
            )
        elif key == "empty":
            words.append(
                f"spaces take {'any card' if value == 'any' else 'Kings only' if value == 'king' else 'nothing'}"
            )
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
        raise InvalidVariant(
            f"{source}: a variant is a table of id, name, base and changes, not {type(d).__name__}"
        )
    missing = [k for k in ("id", "name", "base") if k not in d]
    if missing:
        raise InvalidVariant(f"{source}: field {missing[0]!r} is missing (a variant needs id, name and base)")
    if not isinstance(d["base"], str):
        raise InvalidVariant(
            f"{source}: field 'base' is a game id such as 'freecell', not {shown(d['base'])}"
        )
    changes = {k: v for k, v in d.items() if k not in ("id", "name", "base")}
    named = [k for k in changes if not isinstance(k, str)]
    if named:
        raise InvalidVariant(f"{source}: field {shown(named[0])}: no such change; a field is named by text")
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

    The file is read only if it is a regular file of at most MAX_FILE_BYTES bytes.

    Raises:
        InvalidVariant: no such file, another suffix, no regular file, a file too large,
            text that is not UTF-8 or does not parse (with the reason: the parser's, nesting
            too deep, a number too long), or a definition that ``variant_from_dict``
            refuses; each message starts with the file's path.
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise InvalidVariant(f"path: a variant file's path (text or a pathlib.Path), not {shown(path)}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise InvalidVariant(f"{path}: a variant file is .toml or .json, not {suffix or 'without a suffix'}")
    return variant_from_dict(_parse(path, suffix, _read_text(path)), str(path))


def _read_text(path: Path) -> str:
    """The text of a variant file: a regular file (not a device or a pipe, even through a
    symbolic link) of at most MAX_FILE_BYTES bytes of UTF-8."""
    try:
        with open(path, "rb", opener=_open_without_blocking) as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise InvalidVariant(f"{path}: not a regular file (a variant file is a few lines of text)")
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise InvalidVariant(f"{path}: cannot read it: {err.strerror or err}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InvalidVariant(
            f"{path}: larger than {MAX_FILE_BYTES:,} bytes: a variant file is a few lines of text"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InvalidVariant(f"{path}: not UTF-8 text (byte {data[err.start]:#04x} on line {line})") from None


def _open_without_blocking(name, flags):
    """Open for reading without waiting for a writer (a named pipe opens at once, and is refused)."""
    return os.open(name, flags | getattr(os, "O_NONBLOCK", 0))


def _parse(path: Path, suffix: str, text: str):
    """The data of a variant file's text. Every failure of the parser is refused with the
    file and the reason: its syntax errors, nesting too deep for the interpreter's stack,
    and numbers longer than Python reads (both parsers raise ValueError for those)."""
    if suffix == ".json":
        kind, loads = "JSON", json.loads
    else:
        kind, loads = "TOML", _toml_loads(path)
    try:
        return loads(text)
    except RecursionError:
        raise InvalidVariant(f"{path}: not {kind} that can be read: nested too deeply") from None
    except ValueError as err:  # JSONDecodeError, TOMLDecodeError, a number too long
        raise InvalidVariant(f"{path}: not {kind}: {_shortened(err)}") from None


def _toml_loads(path: Path):
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: tomli is the same reader
        try:
            import tomli as tomllib
        except ImportError:
            raise InvalidVariant(
                f"{path}: reading TOML needs Python 3.11 or tomli (pip install tomli); "
                "a .json file needs nothing"
            ) from None
    return tomllib.loads


def _shortened(err: Exception, limit: int = 200) -> str:
    """An exception's message, shortened to ``limit`` characters."""
    text = str(err)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def rules_of(game: Game) -> dict:
    """``game``'s rules in the words of ``sw.variant``: ``{"base": the catalogue game it is or
    changes, and the value of every change its family may make}`` (what a study file records,
    so that it is never resumed under other rules)."""
    cls = type(game)
    known = getattr(cls, "variant", None)
    rules = (
        {name: CHANGES[name].value_of(game) for name in variation_of(cls).takes(cls)}
        if isinstance(game, Patience)
        else {}
    )  # another game's rules are its own
    return {"base": known.base if known is not None else game.id, **rules}


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
