"""The engine's invariants at scale: random play in every game, checked move by move.

    .venv/bin/python benchmarks/check_invariants.py [--moves 100000] [--games freecell,mutated]
                                                    [--wins 20] [--seed 2024]

For each game, random legal moves are played from deals 1, 2, ... (a new deal when a
position has no move left or after ``--playout`` moves) until ``--moves`` moves are made.
At every position it checks:

- cards:        every card of the game's decks is there exactly as often as the decks hold it
                (face up or down), nowhere else and no more;
- legal moves:  each is explained as legal (``explain`` is None), its text reads back to
                it, and ``successors`` yields the same moves in the same order, each with the
                position that ``play`` makes;
- illegal moves: random moves between the game's piles that are not among the legal ones
                are refused by ``play`` with IllegalMove and explained by ``explain``;
- round trips:  ``state_from_dict(to_dict())``, the same through JSON text, and pickling
                each give back an equal position with an equal ``key()``;
- keys:         positions that are equal have equal keys.

Then ``--wins`` deals of each game are solved with a small budget and every win found is
replayed move by move with ``play`` from the deal, to a won position.

It prints, per game, how many of each check ran and how many failed (with the first
failures), and exits with 1 if any did. Not a timed test: a run at the default size takes
long, so pass a smaller ``--moves`` to try it.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solwidget as sw
from solwidget.engine.cards import card_name, deck, face_up

CHECKS = ("positions", "cards", "legal moves", "illegal moves", "round trips", "keys", "wins replayed")


class Tally:
    """Counts of checks run and failed for one game, with the first failures in words."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.ran: Counter = Counter()
        self.failed: Counter = Counter()
        self.examples: list[str] = []

    def check(self, name: str, ok: bool, what) -> None:
        self.ran[name] += 1
        if not ok:
            self.failed[name] += 1
            if len(self.examples) < 5:
                self.examples.append(f"{self.game_id}: {name}: {what() if callable(what) else what}")


def expected_cards(game) -> Counter:
    return Counter({card: game.decks for card in deck(1)})


def check_cards(tally: Tally, state, wanted: Counter) -> None:
    found = Counter(face_up(card) for pile in state.piles for card in pile)
    tally.check(
        "cards",
        found == wanted,
        lambda: f"cards off: {sorted(card_name(c) for c in (found - wanted) + (wanted - found))}",
    )


def check_legal(tally: Tally, state, legal: list) -> None:
    successors = list(state.game.successors(state))
    tally.check(
        "legal moves", [move for move, _ in successors] == legal, "successors() and legal_moves() differ"
    )
    for move, following in successors:
        ok = (
            state.explain(move) is None
            and state.game.parse_move(str(move)) == move
            and state.play(move) == following
        )
        tally.check("legal moves", ok, f"legal move {move} is not played as it should be")


def random_move(rng: random.Random, game, state) -> sw.Move:
    """A move between two of the game's piles (or to one of its actions), of a few cards or,
    in a game whose moves name cards, of a card."""
    src = rng.choice(game.pile_ids)
    dst = rng.choice(game.pile_ids + tuple(sorted(game.actions)))
    if game.id == "mutated" and rng.random() < 0.3:
        return sw.Move(src, dst, 1, card_name(rng.choice(deck(1))))
    return sw.Move(src, dst, rng.choice((1, 1, 1, 2, 3, 5)))


def check_illegal(tally: Tally, rng: random.Random, state, legal: list, tries: int) -> None:
    legal_set = set(legal)
    for _ in range(tries):
        move = random_move(rng, state.game, state)
        if move in legal_set:
            continue
        try:
            state.play(move)
        except sw.IllegalMove as err:
            tally.check(
                "illegal moves",
                bool(err.reason) and state.explain(move) == err.reason,
                f"{move}: explain differs from the refusal",
            )
        except Exception as err:  # noqa: BLE001 - any other error is what this check is for
            tally.check("illegal moves", False, f"{move} raised {type(err).__name__}: {err}")
        else:
            tally.check("illegal moves", False, f"illegal move {move} was played")


def check_round_trips(tally: Tally, state) -> None:
    game = state.game
    copies = {
        "to_dict": game.state_from_dict(state.to_dict()),
        "json": game.state_from_dict(json.loads(json.dumps(state.to_dict()))),
        "pickle": pickle.loads(pickle.dumps(state)),
    }
    for how, copy in copies.items():
        tally.check(
            "round trips", copy == state and hash(copy) == hash(state), f"{how} gave another position"
        )
        tally.check("keys", copy.key() == state.key(), f"{how} copy has another key")


def play_game(game_id: str, moves: int, playout: int, illegal_tries: int, rng: random.Random) -> Tally:
    game = sw.load_game(game_id)
    tally = Tally(game_id)
    wanted = expected_cards(game)
    made, number = 0, 0
    while made < moves:
        number += 1
        state = game.deal(number)
        for _ in range(playout):
            tally.ran["positions"] += 1
            legal = state.legal_moves()
            check_cards(tally, state, wanted)
            check_legal(tally, state, legal)
            check_illegal(tally, rng, state, legal, illegal_tries)
            check_round_trips(tally, state)
            if not legal or made >= moves:
                break
            state = state.play(rng.choice(legal))
            made += 1
    return tally


def replay_wins(tally: Tally, game_id: str, deals: int, max_states: int) -> None:
    game = sw.load_game(game_id)
    for number in range(1, deals + 1):
        start = game.deal(number)
        result = sw.solve(start, max_states=max_states)
        if result.status != "won":
            continue
        state, ok = start, True
        try:
            for move in result.moves:
                state = state.play(move)
        except sw.IllegalMove as err:
            ok = False
            tally.examples.append(f"{game_id}: deal {number}'s win does not replay: {err}")
        tally.check("wins replayed", ok and state.is_won(), f"deal {number}'s win does not end won")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=100_000, help="random moves per game (default 100000)")
    parser.add_argument(
        "--games", default=",".join(sw.games()), help="comma-separated game ids (default: all)"
    )
    parser.add_argument("--playout", type=int, default=300, help="moves from one deal at most (default 300)")
    parser.add_argument("--illegal", type=int, default=2, help="random illegal moves tried per position")
    parser.add_argument(
        "--wins", type=int, default=20, help="deals solved per game to replay wins (default 20)"
    )
    parser.add_argument("--max-states", type=int, default=5_000, help="state budget of those solves")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    print(f"{'game':<24}" + "".join(f"{name:>15}" for name in CHECKS) + f"{'failed':>8}{'CPU s':>8}")
    failures = []
    for game_id in args.games.split(","):
        began = time.process_time()
        tally = play_game(game_id, args.moves, args.playout, args.illegal, rng)
        replay_wins(tally, game_id, args.wins, args.max_states)
        failed = sum(tally.failed.values())
        print(
            f"{game_id:<24}"
            + "".join(f"{tally.ran[name]:>15,}" for name in CHECKS)
            + f"{failed:>8,}{time.process_time() - began:>8.1f}",
            flush=True,
        )
        failures += tally.examples
    for line in failures:
        print("FAILED", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
