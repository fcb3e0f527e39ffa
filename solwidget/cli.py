"""The command line: ``solwidget games``, ``solwidget deal GAME N`` (more as they come)."""

from __future__ import annotations

import argparse
import sys

from .engine import SolwidgetError, games, load_game


def _games(args) -> None:
    for game_id in games():
        game = load_game(game_id)
        first = game.summary.split(". ")[0].rstrip(".")
        print(f"{game_id:<24}{game.name}: {first}.")


def _deal(args) -> None:
    print(load_game(args.game).deal(args.number))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="solwidget", description="Solitaire rules, deals and solver.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games").set_defaults(run=_games)
    deal = sub.add_parser("deal", help="print a deal as a text board")
    deal.add_argument("game")
    deal.add_argument("number", type=int)
    deal.set_defaults(run=_deal)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except SolwidgetError as err:
        print(f"solwidget: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
