"""Checks shared by every public boundary: each refuses a value with an error that names
the argument, shows the value (shortened) and says what is accepted.

``shown`` never fails and never grows with its input: a value nested thousands deep, a
string of a million characters or an int of ten thousand digits is shown in a few dozen
characters, so that writing an error can never itself raise.
"""

from __future__ import annotations

import math
import numbers
import operator
import reprlib
from typing import SupportsIndex, TypeGuard

from .errors import InvalidArgument, InvalidPosition

SHOWN_CHARACTERS = 80  # the longest a value is shown in an error message


class _ShortRepr(reprlib.Repr):
    """reprlib's repr, which also shortens ints too long for Python to print."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            digits = int(x.bit_length() * math.log10(2)) + 1
            return f"<{'-' if x < 0 else ''}int of about {digits} digits>"
        return super().repr_int(x, level)


_REPR = _ShortRepr()
_REPR.maxlevel = 3
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlong = 40


def shown(value: object) -> str:
    """``value`` as a short text for an error message (at most SHOWN_CHARACTERS characters)."""
    try:
        text = _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    if len(text) > SHOWN_CHARACTERS:
        text = text[: SHOWN_CHARACTERS - 3] + "..."
    return text


def shown_name(value: object) -> str:
    """A name (a pile id, a field) as is when it is short text, else as ``shown`` shows it."""
    return value if isinstance(value, str) and 0 < len(value) <= 40 and value.isprintable() else shown(value)


def refuse(name: str, accepted: str, value: object, error: type[Exception] = InvalidArgument) -> Exception:
    """The error for argument ``name``: '<name> must be <accepted>, not <value>'."""
    return error(f"{name} must be {accepted}, not {shown(value)}")


def is_whole(value: object) -> TypeGuard[SupportsIndex]:
    """An int (or anything that acts as one, like numpy's), but not a bool."""
    return not isinstance(value, bool) and hasattr(type(value), "__index__")


def is_real(value: object) -> TypeGuard[numbers.Real]:
    """A real number (int, float, numpy's, Fraction ...), but not a bool."""
    return not isinstance(value, bool) and isinstance(value, numbers.Real)


def whole_number(
    name: str,
    value: object,
    low: int = 1,
    high: int | None = None,
    *,
    error: type[Exception] = InvalidArgument,
    accepted: str | None = None,
) -> int:
    """``value`` as a plain int from ``low`` to ``high``; an integral float (``2e5``) counts."""
    if accepted is None:
        accepted = (
            f"a whole number from {low:,} to {high:,}" if high is not None else f"a whole number >= {low:,}"
        )
    if is_whole(value):
        number = operator.index(value)
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    else:
        raise refuse(name, accepted, value, error)
    if number < low or (high is not None and number > high):
        raise refuse(name, accepted, value, error)
    return number


def _as_float(name: str, value: object, accepted: str, error: type[Exception]) -> float:
    """``value`` as a float, refused unless it is a real number (not a bool) that fits one."""
    if not is_real(value):
        raise refuse(name, accepted, value, error)
    try:
        return float(value)
    except (OverflowError, ValueError):
        raise refuse(name, accepted, value, error) from None


def positive_number(
    name: str, value: object, *, error: type[Exception] = InvalidArgument, accepted: str | None = None
) -> float:
    """``value`` as a float, refused unless it is a real number above zero and finite."""
    accepted = accepted or "a positive, finite number"
    number = _as_float(name, value, accepted, error)
    if not (number > 0 and math.isfinite(number)):
        raise refuse(name, accepted, value, error)
    return number


def real_number(
    name: str,
    value: object,
    low: float,
    high: float | None = None,
    *,
    error: type[Exception] = InvalidArgument,
) -> float:
    """``value`` as a finite float from ``low`` to ``high``."""
    accepted = (
        f"a finite number from {low:g} to {high:g}" if high is not None else f"a finite number >= {low:g}"
    )
    number = _as_float(name, value, accepted, error)
    if not math.isfinite(number) or number < low or (high is not None and number > high):
        raise refuse(name, accepted, value, error)
    return number


def flag(name: str, value: object, *, error: type[Exception] = InvalidArgument) -> bool:
    """``value`` if it is True or False (not 0, 1 or "yes")."""
    if not isinstance(value, bool):
        raise refuse(name, "True or False", value, error)
    return value


MAX_POSITION_DEPTH = 8  # a position nests 3 deep (piles -> pile -> card); options a little more
MAX_POSITION_ITEMS = 10_000  # values in all: a position of 4 decks holds about 300
MAX_POSITION_TEXT = 1_000  # characters in any one text (card names and pile ids are short)


def check_position_shape(position: dict[str, object]) -> None:
    """Refuse a position that is no plain, small JSON-like value (too deep, too big, a
    text too long) before the rules read it, walking it without recursion."""
    todo: list[tuple[object, int]] = [(position, 0)]
    items = 0
    while todo:
        value, depth = todo.pop()
        items += 1
        if depth > MAX_POSITION_DEPTH:
            raise InvalidPosition(f"a position nests at most {MAX_POSITION_DEPTH} deep; this one is deeper")
        if items > MAX_POSITION_ITEMS:
            raise InvalidPosition(
                f"a position holds at most {MAX_POSITION_ITEMS:,} values; this one holds more"
            )
        if isinstance(value, dict):
            todo.extend((item, depth + 1) for pair in value.items() for item in pair)
        elif isinstance(value, (list, tuple)):
            todo.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and len(value) > MAX_POSITION_TEXT:
            raise InvalidPosition(
                f"a position's texts are at most {MAX_POSITION_TEXT:,} characters, not {shown(value)}"
            )
