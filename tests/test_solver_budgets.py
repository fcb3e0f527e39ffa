"""A budget given is the budget used: the seconds or positions a caller gives to ``solve``,
``Solver``, ``hint`` or ``solwidget solve`` are the limits, and only those; a default
applies only when the caller gives neither."""

from __future__ import annotations

import importlib

import pytest

import solwidget as sw
from solwidget.cli import SOLVE_STATES, main
from solwidget.games.freecell import native as freecell_native
from solwidget.solver.budget import DEFAULT_MAX_STATES
from solwidget.solver.hint import HINT_STATES

FREECELL = sw.load_game("freecell")
HARD = FREECELL.deal(8436)
# A greedy search beside an exploring weighted A*: with them deal 8436 is won only past
# 200,000 positions, so the default budget cuts it off.
SLOW = {
    "portfolio": [
        {"depth_weight": 0.0, "weights": {"unsorted": 0.5, "cells": 1.0, "empty": 2.0}},
        {"depth_weight": 0.5, "explore": 0.3, "weights": {"urgent": 2.0, "cells": 1.0}},
    ]
}
hint_module = importlib.import_module("solwidget.solver.hint")  # its name is the function's too
search_module = importlib.import_module("solwidget.solver.search")


def needs_compiled():
    if freecell_native.search_core is None:
        pytest.skip("FreeCell's compiled search does not run here (about 270,000 positions: slow in Python)")


@pytest.mark.parametrize(
    "given, limits",
    [
        ({}, (DEFAULT_MAX_STATES, None)),
        ({"max_seconds": 5}, (None, 5.0)),
        ({"max_states": 10}, (10, None)),
        ({"max_states": 10, "max_seconds": 5}, (10, 5.0)),
        ({"max_states": None}, (None, None)),
        ({"max_seconds": None}, (None, None)),
    ],
)
def test_a_solver_runs_under_the_budgets_given_and_only_those(given, limits):
    solver = sw.Solver(FREECELL.deal(1), **given)
    assert (solver.max_states, solver.max_seconds) == limits


@pytest.mark.parametrize(
    "given, limits",
    [
        ({}, (HINT_STATES, None)),
        ({"max_seconds": 2}, (None, 2)),
        ({"max_states": 500}, (500, None)),
    ],
)
def test_a_hint_runs_under_the_budgets_given_and_only_those(monkeypatch, given, limits):
    seen = []

    class Recording(sw.Solver):
        def __init__(self, state, **options):
            super().__init__(state, **options)
            seen.append((self.max_states, self.max_seconds))

    monkeypatch.setattr(hint_module, "Solver", Recording)
    assert sw.hint(FREECELL.deal(1), **given).move in FREECELL.deal(1).legal_moves()
    assert seen == [limits]


def test_a_budget_of_seconds_alone_runs_past_the_default_positions():
    needs_compiled()
    result = sw.solve(HARD, max_seconds=60, **SLOW)
    assert result.status == "won" and result.progress.expanded > DEFAULT_MAX_STATES
    state = HARD
    for move in result.moves:
        state = state.play(move)
    assert state.is_won()


def test_a_hint_with_seconds_alone_finds_the_win_past_its_default_positions():
    needs_compiled()
    found = sw.hint(HARD, max_seconds=60, **SLOW)
    assert found.winning and found.move in HARD.legal_moves()


def test_the_default_applies_when_no_budget_is_given():
    needs_compiled()
    result = sw.solve(HARD, **SLOW)
    assert result.status == "unknown" and result.progress.expanded == DEFAULT_MAX_STATES
    assert f"{DEFAULT_MAX_STATES} states" in result.reason


def test_the_command_line_solves_with_seconds_alone(capsys):
    needs_compiled()
    assert main(["solve", "freecell", "1464", "--max-seconds", "60", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("freecell deal 1464: won in ")


@pytest.mark.parametrize(
    "argv, limits",
    [
        ([], (SOLVE_STATES, None)),
        (["--max-seconds", "30"], (None, 30.0)),
        (["--max-states", "5000"], (5000, None)),
        (["--max-states", "none"], (None, None)),
        (["--max-states", "5000", "--max-seconds", "30"], (5000, 30.0)),
    ],
)
def test_the_command_line_solves_under_the_budgets_given_and_only_those(monkeypatch, capsys, argv, limits):
    seen = []

    class Recording(sw.Solver):
        def __init__(self, state, **options):
            super().__init__(state, **options)
            seen.append((self.max_states, self.max_seconds))

    monkeypatch.setattr(search_module, "Solver", Recording)
    assert main(["solve", "freecell", "1", "--quiet", *argv]) == 0
    assert seen == [limits] and capsys.readouterr().out.startswith("freecell deal 1: won in ")


def test_the_budgets_and_their_default_are_documented(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"Given neither, the search stops after {SOLVE_STATES:,} states" in shown
    for documented in (sw.solve.__doc__, sw.hint.__doc__, sw.Solver.__doc__):
        assert "neither" in documented
