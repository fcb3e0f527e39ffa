"""Hints: the first move of a win found within a small budget, else of the most promising line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.state import State
from .budget import NOT_GIVEN, NotGiven, check_call, given_budgets
from .result import Hint
from .search import Solver, SolverOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

HINT_STATES = 20_000  # the budget of a hint given none: a quick answer


def hint(
    state: State,
    max_states: int | NotGiven | None = NOT_GIVEN,
    max_seconds: float | NotGiven | None = NOT_GIVEN,
    **options: Unpack[SolverOptions],
) -> Hint | None:
    """A move to try from ``state`` (None when no move is legal). ``hint.winning`` tells
    whether it starts a win the search found, or only the line that looked best (then
    ``hint.lost`` tells whether the search proved that nothing wins).

    Args:
        state: the position to ask about.
        max_states: the search's budget in positions expanded (None: no limit).
        max_seconds: its budget in seconds (None: no limit). The budgets given are the
            limits, and only those; given neither, the search stops after HINT_STATES
            (20,000) positions.
        **options: the search's own options, as ``Solver`` takes them.

    Examples:
        With ``state`` FreeCell's deal 1:

        >>> found = sw.hint(state)
        >>> found.winning, found.move in state.legal_moves()
        (True, True)
    """
    check_call(state, max_states, max_seconds, options, "hint")
    legal = state.legal_moves()
    if not legal:
        return None
    max_states, max_seconds = given_budgets(max_states, max_seconds, HINT_STATES)
    solver = Solver(state, max_states=max_states, max_seconds=max_seconds, **options)
    result = solver.solve()
    if result.status == "won" and result.moves:
        return Hint(result.moves[0], True, result.moves)
    lost = result.status == "lost"
    line = solver.progress.best_line
    if line and line[0] in legal:
        return Hint(line[0], False, line, lost)
    return Hint(legal[0], False, [legal[0]], lost)
