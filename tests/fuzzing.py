"""Hostile values for the fuzz suite (tests/test_fuzz.py), and its counts.

``hostile`` draws what a hostile or careless caller might pass anywhere: wrong types, NaN
and infinities, huge and negative numbers, values nested thousands deep, long texts,
unicode, bytes, objects. Each boundary narrows it to what that boundary must refuse.
``CASES`` counts the cases each boundary ran; the test session prints it (conftest.py).
``SCALE`` multiplies every boundary's number of cases: 1, or 10 under ``pytest --fuzz``.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections import Counter
from fractions import Fraction

from hypothesis import strategies as st

import solwidget as sw
from solwidget.engine.deals import MAX_DEAL

CASES: Counter = Counter()
SCALE = 1


def examples(n: int) -> int:
    """Hypothesis examples a boundary runs: ``n`` in the normal run, more under ``--fuzz``."""
    return n * SCALE


def batch(strategy):
    """Several cases in one hypothesis example: a boundary's own check is quick, so most of
    an example's time would otherwise go to hypothesis itself."""
    return st.lists(strategy, min_size=1, max_size=8)


class _Shown:
    """A deep value that shows itself in one line (hypothesis prints failing cases, and
    Python's own repr of a value 3,000 lists deep would exhaust the recursion limit)."""

    def __repr__(self):
        return self.label

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.label)


class NestedList(_Shown, list):
    pass


class NestedDict(_Shown, dict):
    pass


def nest(depth: int, inner, kind: str = "list"):
    """``inner`` wrapped ``depth`` times in a list (or a dict under the key "k"); the
    outermost is a list or dict like any other, that only prints itself briefly."""
    value = inner
    for _ in range(depth - 1):
        value = [value] if kind == "list" else {"k": value}
    value = NestedList([value]) if kind == "list" else NestedDict(k=value)
    value.label = f"<{inner!r:.40} in {depth} {kind}s>"
    return value


def long_text(char: str, n: int) -> str:
    return char * n


special_floats = st.sampled_from(
    [math.nan, -math.nan, math.inf, -math.inf, -0.0, 5e-324, 1.7976931348623157e308]
)
huge_ints = st.one_of(
    st.integers(min_value=10**20, max_value=10**40),
    st.integers(max_value=-(10**20)),
    st.sampled_from([2**64, 2**63 - 1, MAX_DEAL + 1]),
    st.builds(lambda sign, digits: sign * 10**digits, st.sampled_from([1, -1]), st.integers(1_000, 4_000)),
)  # big enough to be slow to print
FULLWIDTH_DIGITS = "１２３"  # noqa: RUF001 - digits that look like ASCII ones, on purpose
texts = st.one_of(
    st.text(max_size=30),
    st.builds(long_text, st.characters(), st.integers(1_000, 200_000)),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "nan",
            "inf",
            "-1",
            "1e309",
            FULLWIDTH_DIGITS,
            "٣",
            "t0 f0",
            "\u202e",
            "🂡",
            "9" * 5000,
        ]
    ),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge_ints,
    st.floats(),
    special_floats,
    texts,
    st.binary(max_size=50),
    st.complex_numbers(allow_nan=True),
    st.fractions(),
    st.just(Fraction(1, 3)),
    st.builds(object),
    st.just(Ellipsis),
    st.just(type),
)
deep = st.builds(nest, st.integers(50, 3_000), scalars, st.sampled_from(["list", "dict"]))
containers = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(st.integers(), max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), inner, max_size=4),
    ),
    max_leaves=8,
)

hostile = st.one_of(scalars, deep, containers)


def is_plain_number(value) -> bool:
    """An int or float, not a bool (what a budget or a count may be)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@st.composite
def played_positions(draw, game_ids):
    """A position reached by random legal play (up to 80 moves) from a deal of one of the
    games ``game_ids``; where the game counts redeals, now and then a count too wide for a
    C search's 32 bits (which the rules accept)."""
    game = sw.load_game(draw(st.sampled_from(game_ids)))
    state = game.deal(draw(st.integers(1, 10_000)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 80))):
        legal = state.legal_moves()
        if not legal:
            break
        state = state.play(rng.choice(legal))
    position = state.to_dict()
    redeals = rng.choice([None, None, 2**31 - 1, 2**31, 2**32 + 1])  # hypothesis favours the first
    if redeals is not None and "redeals" in position:
        with contextlib.suppress(sw.InvalidPosition):  # a game that allows fewer
            state = game.state_from_dict({**position, "redeals": redeals})
    return state
