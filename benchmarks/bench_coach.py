"""The coach: the meter's verdict within its budget along played games, review of a long
game, and the time a move takes in the widget with the coach on.

    .venv/bin/python benchmarks/bench_coach.py                     # 100 games per seed game
    .venv/bin/python benchmarks/bench_coach.py --games 10          # a short run

Each played game follows a win the solver found for its deal for a random number of moves,
then deviates with random legal moves (a fixed seed): the positions along it are judged one
after the other as the widget's meter judges them (one Judge per game, verdicts kept), each
within ``--seconds`` (default 1). A position counts as answered in time when its verdict
("winnable" or "lost") came within the budget. The review is of a game of ``--review-moves``
moves (half a win, then random moves), crossroads included. One process: the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import solwidget as sw
from solwidget.coach import UNKNOWN, Judge
from solwidget.compiled import describe

SEED_GAMES = ["reversed_solitaire", "triple_interchange", "interlock", "mutated"]


def played_game(game, number: int, rnd: random.Random, deviate: int, solve_seconds: float) -> tuple:
    """(start, moves): part of a win of deal ``number``, then ``deviate`` random legal moves."""
    start = game.deal(number)
    win = sw.solve(start, max_states=None, max_seconds=solve_seconds).moves
    line, state = list(win[: rnd.randint(0, len(win))]), start
    for move in line:
        state = state.play(move)
    for _ in range(deviate):
        moves = state.legal_moves()
        if not moves or state.is_won():
            break
        line.append(rnd.choice(moves))
        state = state.play(line[-1])
    return start, line


def meter(game_id: str, games: int, deviate: int, seconds: float, seed: int) -> dict:
    """Judge every position of ``games`` played games: how many answered within ``seconds``."""
    game = sw.load_game(game_id)
    rnd = random.Random(seed)
    times, answered = [], 0
    for number in range(1, games + 1):
        start, line = played_game(game, number, rnd, deviate, 10.0)
        judge = Judge(seconds)
        state = start
        for move in [None, *line]:
            if move is not None:
                state = state.play(move)
            began = time.perf_counter()
            verdict = judge.judge(state)
            spent = time.perf_counter() - began
            times.append(spent)
            answered += verdict.status != UNKNOWN and spent <= seconds
    return {
        "positions": len(times),
        "answered": answered,
        "median_ms": 1000 * statistics.median(times),
        "p99_ms": 1000 * sorted(times)[int(0.99 * (len(times) - 1))],
    }


def review_time(game_id: str, moves: int, seed: int) -> tuple[float, int, str]:
    """Seconds to review a game of ``moves`` moves (crossroads included), its length, its summary."""
    game = sw.load_game(game_id)
    rnd = random.Random(seed)
    start = game.deal(1)
    win = sw.solve(start, max_states=None, max_seconds=10.0).moves
    line, state = list(win[: moves // 2]), start
    for move in line:
        state = state.play(move)
    while len(line) < moves and state.legal_moves() and not state.is_won():
        line.append(rnd.choice(state.legal_moves()))
        state = state.play(line[-1])
    began = time.perf_counter()
    report = sw.review(start, line, max_seconds=1.0)
    return time.perf_counter() - began, len(line), report.summary()


def move_times(game_id: str, moves: int = 40) -> float:
    """The median seconds of ``w.play`` with the coach on (the kernel's part of a click)."""
    w = sw.SolitaireWidget(game_id, deal=1, coach=True)
    win = sw.solve(w.state, max_states=None, max_seconds=10.0).moves
    rnd = random.Random(0)
    spent = []
    for move in win[: moves // 2]:
        began = time.perf_counter()
        w.play(move)
        spent.append(time.perf_counter() - began)
    for _ in range(moves // 2):
        legal = w.state.legal_moves()
        if not legal:
            break
        move = rnd.choice(legal)
        began = time.perf_counter()
        w.play(move)
        spent.append(time.perf_counter() - began)
    w.coach = False
    return statistics.median(spent)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="played games per seed game (default 100)")
    parser.add_argument(
        "--deviate", type=int, default=10, help="random moves after the win is left (default 10)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="the meter's budget (default 1 s)")
    parser.add_argument(
        "--review-moves", type=int, default=100, help="moves of the reviewed game (default 100)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=SEED_GAMES, help="game ids (default: the seed games)")
    args = parser.parse_args(argv)
    print(describe())
    print(
        f"{'game':20} {'positions':>9} {'in time':>8} {'share':>7} {'median':>9} {'p99':>9} "
        f"{'review':>8} {'moves':>5} {'play, coach on':>15}"
    )
    for game_id in args.only:
        m = meter(game_id, args.games, args.deviate, args.seconds, args.seed)
        seconds, length, _ = review_time(game_id, args.review_moves, args.seed)
        play = move_times(game_id)
        print(
            f"{game_id:20} {m['positions']:9} {m['answered']:8} {m['answered'] / m['positions']:7.1%} "
            f"{m['median_ms']:7.1f}ms {m['p99_ms']:7.0f}ms {seconds:7.1f}s {length:5} {1000 * play:13.1f}ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
