"""Engine throughput per game, on positions from random playouts.

    .venv/bin/python benchmarks/bench_engine.py [--games freecell,interlock] [--positions 2000]

For each game: deals 1, 2, ... are played out with random legal moves (a fixed seed, so
every run measures the same positions) until ``--positions`` positions are collected.
Then, over those positions:

- legal/s     positions per second whose legal moves are generated (``state.legal_moves()``)
- moves/pos   legal moves per position, on average
- play/s      legal moves per second applied with ``state.play(move)`` (checks legality first)
- succ/s      next states per second from ``game.successors(state)`` (the solver's hot path)
- key/s       canonical keys per second (``state.key()``)

Each figure is the best of ``--repeat`` timed passes, timed in CPU seconds of this process
(``time.process_time``), to damp the noise of a shared machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solwidget as sw
from solwidget.compiled import describe


def positions(game_id: str, count: int, seed: int = 2024, playout: int = 200) -> list:
    """``count`` positions from random playouts of deals 1, 2, ... (at most ``playout`` moves each)."""
    rng = random.Random(seed)
    game = sw.load_game(game_id)
    found, number = [], 0
    while len(found) < count:
        number += 1
        state = game.deal(number)
        for _ in range(playout):
            found.append(state)
            legal = state.legal_moves()
            if not legal or len(found) >= count:
                break
            state = state.play(rng.choice(legal))
    return found


def best_rate(work, items: int, repeat: int) -> float:
    """Items per second: ``items`` divided by the fastest of ``repeat`` runs of ``work()``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return items / best


def measure(game_id: str, count: int, repeat: int) -> dict:
    states = positions(game_id, count)
    game = states[0].game
    legal = [s.legal_moves() for s in states]
    pairs = [(s, m) for s, ms in zip(states, legal) for m in ms]
    n_moves = len(pairs)

    def gen():
        for s in states:
            s.legal_moves()

    def play():
        for s, m in pairs:
            s.play(m)

    def succ():
        successors = game.successors
        for s in states:
            for _ in successors(s):
                pass

    def keys():
        for s in states:
            s.key()

    return {
        "game": game_id,
        "positions": len(states),
        "moves/pos": n_moves / len(states),
        "legal/s": best_rate(gen, len(states), repeat),
        "play/s": best_rate(play, n_moves, repeat),
        "succ/s": best_rate(succ, n_moves, repeat),
        "key/s": best_rate(keys, len(states), repeat),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("--positions", type=int, default=2000, help="positions per game (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best counts (default 3)")
    args = parser.parse_args(argv)
    game_ids = args.games.split(",") if args.games else sw.games()
    print(f"solwidget {describe()}")
    header = f"{'game':<24}{'positions':>10}{'moves/pos':>10}{'legal/s':>10}{'play/s':>10}{'succ/s':>10}{'key/s':>10}"
    print(header)
    print("-" * len(header))
    for game_id in game_ids:
        r = measure(game_id, args.positions, args.repeat)
        print(
            f"{r['game']:<24}{r['positions']:>10}{r['moves/pos']:>10.1f}{r['legal/s']:>10,.0f}"
            f"{r['play/s']:>10,.0f}{r['succ/s']:>10,.0f}{r['key/s']:>10,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
