"""The solver's arguments checked at the door: budgets, portfolios and the other options of
``solve``, ``Solver`` and ``hint``, refused with InvalidArgument in the same words wherever
they come from (the API, a study, the command line).

A budget is a positive, finite number or None (no limit); ``True`` is not 1 and ``nan``
is not "no limit". The budgets a caller gives are the limits, and only those: a default
budget (``DEFAULT_MAX_STATES`` positions for ``solve`` and ``Solver``, fewer for ``hint``)
applies only when the caller gives neither ``max_states`` nor ``max_seconds``
(``given_budgets``). Memory is bounded apart from the budget: the transposition tables
and the frontier keep their own limits (search.py).

A portfolio is a non-empty list of searches, each a dict of ``depth_weight`` (a number
from 0 to MAX_WEIGHT), ``explore`` (a share from 0 to below 1) and ``weights`` (heuristic
names -> numbers from 0 to MAX_WEIGHT). ``table_size`` and ``frontier_size`` are whole
numbers from 1 to MAX_MEMORY_ITEMS. The upper bounds keep every search finite and the same
compiled or not: a priority (``score + depth_weight * depth``) is MAX_WEIGHT times a sum
of counts of cards, piles and moves at most, a finite number far below 2**63 (where the C
searches' arithmetic ends), never an infinity that Python could not round to a whole
number; and a table or a frontier of more than MAX_MEMORY_ITEMS entries would need
terabytes of memory (the C searches keep their sizes in machine words).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict

from ..engine.checks import flag, positive_number, real_number, refuse, shown, whole_number
from ..engine.errors import InvalidArgument, InvalidOption
from ..engine.state import State

MAX_STATES_ACCEPTED = "a whole number >= 1 (states to expand), or None for no limit"
SECONDS_ACCEPTED = "a positive, finite number of seconds, or None for no limit"
SEARCH_OPTIONS = ("depth_weight", "explore", "weights")
MAX_SEARCHES = 64  # a portfolio of more searches than this is a mistake, not a plan
DEFAULT_MAX_STATES = 200_000  # the positions a search expands when given no budget at all
MAX_WEIGHT = 1e6  # a heuristic or depth weight: more than this is a mistake
MAX_MEMORY_ITEMS = 2**32  # keys in the tables, positions on the frontier


class NotGiven:
    """The value of a budget the caller left out (None is a budget: no limit)."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __reduce__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()
Weights = Mapping[str, float]  # a score's weights by name (heuristics.py)


class SearchOptions(TypedDict, total=False):
    """One search of a portfolio (its keys are SEARCH_OPTIONS)."""

    depth_weight: float
    weights: Weights | None
    explore: float


class CheckedOptions(TypedDict):
    """``check_solver_options``'s answer: every option of ``Solver``, checked."""

    max_states: int | NotGiven | None
    max_seconds: float | NotGiven | None
    depth_weight: float | None
    weights: dict[str, float] | None
    portfolio: list[SearchOptions] | None
    autoplay: bool
    compress_stock: bool
    shorten_wins: bool | None
    table_size: int | None
    frontier_size: int | None


def given_budgets(
    max_states: int | NotGiven | None,
    max_seconds: float | NotGiven | None,
    default_states: int = DEFAULT_MAX_STATES,
) -> tuple[int | None, float | None]:
    """(max_states, max_seconds) as a search runs under them: those the caller gave, the other
    one without limit (None), or ``default_states`` positions when the caller gave neither."""
    if isinstance(max_states, NotGiven) and isinstance(max_seconds, NotGiven):
        return default_states, None
    return (
        None if isinstance(max_states, NotGiven) else max_states,
        None if isinstance(max_seconds, NotGiven) else max_seconds,
    )


def check_max_states(value: object, name: str = "max_states") -> int | None:
    """A state budget: a whole number >= 1, or None for no limit."""
    if value is None:
        return value
    return whole_number(name, value, 1, accepted=MAX_STATES_ACCEPTED)


def check_seconds(value: object, name: str = "max_seconds") -> float | None:
    """A time budget: a positive, finite number of seconds, or None for no limit."""
    if value is None:
        return value
    return positive_number(name, value, accepted=SECONDS_ACCEPTED)


def check_weights(value: object, name: str = "weights") -> dict[str, float] | None:
    """Heuristic weights: None, or a dict of weight names -> numbers from 0 to MAX_WEIGHT (which
    names a game's score has, its score says when the search is built)."""
    if value is None:
        return None
    accepted = "a dict of heuristic weight names -> numbers, like {'cells': 1.0}"
    if not isinstance(value, Mapping):
        raise refuse(name, accepted, value)
    checked: dict[str, float] = {}
    for key, weight in value.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise InvalidArgument(f"{name} has no weight {shown(key)}: {name} must be {accepted}")
        checked[key] = real_number(f"{name}[{shown(key)}]", weight, 0.0, MAX_WEIGHT)
    return checked


def check_search(options: object, name: str) -> SearchOptions:
    """One search of a portfolio: a dict of depth_weight, explore and weights."""
    accepted = f"a dict with keys among {', '.join(SEARCH_OPTIONS)}"
    if not isinstance(options, Mapping):
        raise refuse(name, accepted, options)
    unknown = [key for key in options if key not in SEARCH_OPTIONS]
    if unknown:
        raise InvalidArgument(f"{name} has no option {shown(unknown[0])}: {name} must be {accepted}")
    checked: SearchOptions = {}
    if options.get("depth_weight") is not None:
        checked["depth_weight"] = real_number(
            f"{name}['depth_weight']", options["depth_weight"], 0.0, MAX_WEIGHT
        )
    if options.get("explore") is not None:
        explore = real_number(f"{name}['explore']", options["explore"], 0.0, 1.0)
        if explore >= 1.0:
            raise refuse(f"{name}['explore']", "a share from 0 to below 1", options["explore"])
        checked["explore"] = explore
    if options.get("weights") is not None:
        checked["weights"] = check_weights(options["weights"], f"{name}['weights']")
    return checked


def check_portfolio(portfolio: object) -> list[SearchOptions]:
    """A portfolio: a non-empty list (or tuple) of searches, each checked by ``check_search``."""
    accepted = f"a list of 1 to {MAX_SEARCHES} searches, each a dict like {{'depth_weight': 0.5}}"
    if isinstance(portfolio, Mapping) or not isinstance(portfolio, (list, tuple)):
        raise refuse("portfolio", accepted, portfolio)
    if not 1 <= len(portfolio) <= MAX_SEARCHES:
        raise refuse("portfolio", accepted, portfolio)
    return [check_search(options, f"portfolio[{i}]") for i, options in enumerate(portfolio)]


def check_memory(value: object, name: str) -> int | None:
    """``table_size`` or ``frontier_size``: a whole number from 1 to MAX_MEMORY_ITEMS, or None
    for the game's default."""
    if value is None:
        return None
    return whole_number(
        name,
        value,
        1,
        MAX_MEMORY_ITEMS,
        accepted=f"a whole number from 1 to {MAX_MEMORY_ITEMS:,}, or None for the game's default",
    )


def check_solver_options(
    *,
    max_states: object,
    max_seconds: object,
    depth_weight: object,
    weights: object,
    portfolio: object,
    autoplay: object,
    compress_stock: object,
    shorten_wins: object,
    table_size: object,
    frontier_size: object,
) -> CheckedOptions:
    """Every option of ``Solver`` checked; returns them with budgets as plain numbers."""
    weight = None if depth_weight is None else real_number("depth_weight", depth_weight, 0.0, MAX_WEIGHT)
    checked_weights = check_weights(weights)
    searches = None
    if portfolio is not None:
        if weight is not None or checked_weights is not None:
            raise InvalidArgument("give either portfolio or depth_weight/weights, not both")
        searches = check_portfolio(portfolio)
    return {
        "max_states": max_states if isinstance(max_states, NotGiven) else check_max_states(max_states),
        "max_seconds": max_seconds if isinstance(max_seconds, NotGiven) else check_seconds(max_seconds),
        "depth_weight": weight,
        "weights": checked_weights,
        "portfolio": searches,
        "autoplay": flag("autoplay", autoplay),
        "compress_stock": flag("compress_stock", compress_stock),
        "shorten_wins": check_shorten_wins(shorten_wins),
        "table_size": check_memory(table_size, "table_size"),
        "frontier_size": check_memory(frontier_size, "frontier_size"),
    }


def check_shorten_wins(value: object) -> bool | None:
    """True, False, or None for the game's profile's default (Profile.shorten_wins)."""
    if value is not None and not isinstance(value, bool):
        raise refuse("shorten_wins", "True, False or None (the game's default)", value)
    return value


def check_steps(value: object, name: str = "n") -> int:
    """How many states a step expands: a whole number >= 0."""
    return whole_number(name, value, 0, accepted="a whole number of states >= 0")


SOLVER_DEFAULTS = {
    "depth_weight": None,
    "weights": None,
    "portfolio": None,
    "autoplay": True,
    "compress_stock": True,
    "shorten_wins": None,
    "table_size": None,
    "frontier_size": None,
}


def check_state(state: object) -> None:
    if not isinstance(state, State):
        raise refuse("state", "a State (game.deal(n))", state)


def check_option_names(options: Iterable[str], caller: str) -> None:
    """Refuse options that the Solver does not have, as InvalidOption (also a TypeError)."""
    unknown = [name for name in options if name not in SOLVER_DEFAULTS]
    if unknown:
        raise InvalidOption(
            f"{caller} has no option {shown(unknown[0])} "
            f"(options: max_states, max_seconds, {', '.join(SOLVER_DEFAULTS)})"
        )


def check_call(
    state: object, max_states: object, max_seconds: object, options: Mapping[str, object], caller: str
) -> None:
    """The arguments of ``solve`` or ``hint``, checked before any search starts: the state,
    the budgets, and options among the Solver's."""
    check_state(state)
    check_option_names(options, caller)
    given = {**SOLVER_DEFAULTS, **options}
    check_solver_options(
        max_states=max_states,
        max_seconds=max_seconds,
        depth_weight=given["depth_weight"],
        weights=given["weights"],
        portfolio=given["portfolio"],
        autoplay=given["autoplay"],
        compress_stock=given["compress_stock"],
        shorten_wins=given["shorten_wins"],
        table_size=given["table_size"],
        frontier_size=given["frontier_size"],
    )
