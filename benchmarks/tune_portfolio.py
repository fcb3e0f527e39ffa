"""A game's portfolio chosen again: a hill climb scored by the positions its searches expand.

    .venv/bin/python benchmarks/tune_portfolio.py freecell 1 4000 --steps 150 --seed 1
        from FreeCell's default searches, 150 steps scored over deals 1-4000

Each step scales one setting of one search (a weight, the depth weight or the exploring
share) by 0.8, 1.25, 0.67 or 1.5; a weight the search does not give starts at 1/8. The
change is kept when the positions expanded over the deals fall and the moves a win stay
within ``--max-moves``. A deal not decided within ``--max-states`` counts that budget twice.
Weights stay multiples of 1/64, so that the families' searches in C run them (each kernel
asks multiples of 1/1024). The score is a count of positions, which does not move with the
machine's speed: the same command finds the same portfolio. It prints each kept step, and
the last line is the portfolio found, as ``--portfolio`` of bench_solver_cpu.py takes it.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import random

import solwidget as sw
from solwidget.solver.profile import profile_for

FACTORS = (0.8, 1.25, 0.67, 1.5)
WEIGHTS = ("home", "blockers", "urgent", "unsorted", "cells", "empty", "buried")
NEW_WEIGHT = 0.125


def score(states, portfolio, max_states: int) -> tuple[int, float]:
    """(positions expanded over the deals, an undecided deal counting ``max_states`` more;
    moves a win)."""
    expanded = moves = won = 0
    for state in states:
        result = sw.solve(state, portfolio=portfolio, max_states=max_states)
        expanded += result.progress.expanded + (max_states if result.status == "unknown" else 0)
        if result.status == "won":
            won, moves = won + 1, moves + len(result.moves)
    return expanded, moves / max(won, 1)


def sixty_fourths(x: float) -> float:
    return max(round(x * 64) / 64, 1 / 64)


def step(portfolio: list, rng: random.Random) -> list:
    """``portfolio`` with one setting of one search scaled (see above)."""
    changed = copy.deepcopy(portfolio)
    search = changed[rng.randrange(len(changed))]
    settings = ["depth_weight", *(f"weights.{w}" for w in WEIGHTS)]
    if "explore" in search:
        settings.append("explore")
    setting, factor = rng.choice(settings), rng.choice(FACTORS)
    if setting == "depth_weight":
        search["depth_weight"] = sixty_fourths(search.get("depth_weight", 0.0) * factor)
    elif setting == "explore":
        search["explore"] = min(0.9, round(search["explore"] * factor, 3))
    else:
        weights = search.setdefault("weights", {})
        name = setting.split(".")[1]
        weights[name] = sixty_fourths(weights[name] * factor) if weights.get(name) else NEW_WEIGHT
    return changed


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-states", type=int, default=200_000, help="each deal's budget of positions")
    parser.add_argument("--max-moves", type=float, default=95.0, help="the most moves a win, on average")
    parser.add_argument(
        "--portfolio", help="the searches to start from (a Python literal); default: the game's"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.first <= args.last:
        parser.error("deals FIRST..LAST: 1 <= FIRST <= LAST")
    game = sw.load_game(args.game)
    states = [game.deal(number) for number in range(args.first, args.last + 1)]
    if args.portfolio:
        best = list(ast.literal_eval(args.portfolio))
    else:
        best = copy.deepcopy(list(profile_for(game).portfolio_for(game)))
    expanded, moves = score(states, best, args.max_states)
    print(f"start: {expanded} positions, {moves:.2f} moves a win", flush=True)
    rng = random.Random(args.seed)
    for number in range(args.steps):
        tried = step(best, rng)
        tried_expanded, tried_moves = score(states, tried, args.max_states)
        if tried_expanded < expanded and tried_moves <= args.max_moves:
            best, expanded, moves = tried, tried_expanded, tried_moves
            print(f"step {number}: {expanded} positions, {moves:.2f} moves a win", flush=True)
    print(f"found: {expanded} positions, {moves:.2f} moves a win")
    print(json.dumps(best))


if __name__ == "__main__":
    main()
