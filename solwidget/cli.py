"""The command line: ``solwidget games``, ``solwidget deal GAME N``, ``solwidget study``,
``solwidget solve``, ``solwidget review`` (also ``python -m solwidget``; ``solwidget --version``).

Each command is a subparser added by its own ``_add_*`` function and runs through
``args.run(args)``; a new command adds one such function to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import os
import sys

from .engine import SolwidgetError, games, load_game
from .engine.deals import check_deal_number
from .engine.errors import InvalidDeal
from .solver.budget import NOT_GIVEN, given_budgets
from .variants import game_or_file

EXIT_BROKEN_PIPE = 128 + 13  # what a shell reports for a process ended by SIGPIPE
SOLVE_STATES = 1_000_000  # ``solwidget solve``'s budget when given neither limit
GAME_HELP = "a game id (see 'solwidget games'), or a variant file (.toml or .json: docs/variants.md)"


def deal_number(text: str) -> int:
    """argparse type for a deal number: a whole number from 1 to MAX_DEAL."""
    digits = text.strip().removeprefix("-")
    number = int(text) if digits.isascii() and digits.isdigit() and len(digits) <= 30 else text
    try:
        return check_deal_number(number)
    except InvalidDeal as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _games(args) -> None:
    ids = games()
    width = max(map(len, ids)) + 2
    for game_id in ids:
        print(f"{game_id:<{width}}{load_game(game_id).describe()}")


def _deal(args) -> None:
    print(load_game(game_or_file(args.game)).deal(args.number))


def _add_games(sub) -> None:
    sub.add_parser("games", help="list the games, one line each").set_defaults(run=_games)


def _add_deal(sub) -> None:
    deal = sub.add_parser("deal", help="print a deal as a text board")
    deal.add_argument("game", help=GAME_HELP)
    deal.add_argument("number", type=deal_number, help="the deal number (PySolFC's numbering)")
    deal.set_defaults(run=_deal)


def _study(args) -> None:
    from .study import study

    try:
        table = study(
            game_or_file(args.game),
            args.deals,
            args.budget,
            max_states=args.max_states,
            scheduler=args.scheduler,
            out=args.out,
            workers=args.workers,
            progress=not args.quiet,
            difficulty=args.difficulty,
        )
    except KeyboardInterrupt:
        kept = (
            f"the deals finished are in {args.out}: run the same command again to resume"
            if args.out
            else "nothing was kept: give --out FILE to make a study resumable"
        )
        print(f"solwidget: study interrupted; {kept}", file=sys.stderr)
        raise SystemExit(130) from None
    if args.rows:
        print(table.format())
    print(table.summary())


def _number_text(text: str):
    """A budget as typed: 'none' is None, a number is a number, anything else stays text, so
    that the API refuses it in the same words as any other bad value."""
    if text.strip().lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _add_study(sub) -> None:
    study = sub.add_parser("study", help="solve many deals: how often is a game won?")
    study.add_argument("game", help=GAME_HELP)
    study.add_argument(
        "--deals", default="1-100", help="deal numbers: '1-1000', '7' or '1-10,20' (default 1-100)"
    )
    study.add_argument(
        "--budget",
        type=_number_text,
        help="seconds per deal; the limits given (--budget, --max-states or both) are the "
        "only ones, and with neither each deal has 10 seconds",
    )
    study.add_argument(
        "--max-states", type=_number_text, help="states per deal; alone, results do not depend on the machine"
    )
    study.add_argument("--scheduler", help="a dask.distributed scheduler, e.g. tcp://10.0.0.5:8786")
    study.add_argument("--workers", type=int, help="local processes (default: one per CPU)")
    study.add_argument(
        "--out",
        help="a .csv or .parquet file (Parquet needs pyarrow) that keeps the results "
        "as they come, with the game's rules; a rerun resumes it",
    )
    study.add_argument(
        "--difficulty",
        action="store_true",
        help="also record each won deal's difficulty (a few hundred small searches a deal, "
        "beyond the budget)",
    )
    study.add_argument("--rows", action="store_true", help="print every deal's row, not only the summary")
    study.add_argument("--quiet", action="store_true", help="no progress bar")
    study.set_defaults(run=_study)


def _solve(args) -> None:
    from .solver.search import Solver, collector_paused

    game = load_game(game_or_file(args.game))
    state = game.deal(args.number)
    args.max_states, args.max_seconds = given_budgets(args.max_states, args.max_seconds, SOLVE_STATES)
    solver = Solver(state, max_states=args.max_states, max_seconds=args.max_seconds)
    bar = None if args.quiet else _solve_bar(args)
    with collector_paused():  # between the steps too, as Solver.solve does
        while not solver.done:
            progress = solver.step(2000)
            if bar is not None:
                _advance(bar, progress, by_seconds=args.max_seconds is not None)
    if bar is not None:
        bar.close()
    result = solver.result
    assert result is not None  # the search has ended
    print(f"{game.id} deal {args.number}: {result}")
    for i, move in enumerate(result.moves, 1):
        print(f"{i:4}. {move}")


def _solve_bar(args):
    """A tqdm bar over the budget that ends the search: seconds with a time limit, else states
    (None without tqdm, which comes with the "study" extra); a count of states without any
    limit."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    options = {
        "file": sys.stderr,
        "leave": False,
        "desc": f"{args.game} {args.number}",
        "mininterval": 0.5,
        "delay": 1.0,
    }
    if args.max_seconds is None and args.max_states is None:
        return tqdm(total=None, unit=" states", **options)
    if args.max_seconds is not None:
        total, unit, fmt = args.max_seconds, " s", "{n:.1f}/{total:g}{unit}"
    else:
        total, unit, fmt = args.max_states, " states", "{n_fmt}/{total_fmt}{unit}"
    return tqdm(
        total=total,
        unit=unit,
        unit_scale=False,
        **options,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| " + fmt + " [{elapsed}{postfix}]",
    )


def _advance(bar, progress, by_seconds: bool) -> None:
    """Move the bar to the search's seconds or states so far; the other shows as a postfix."""
    done = progress.elapsed if by_seconds else progress.expanded
    done = done if bar.total is None else min(done, bar.total)
    bar.update(done - bar.n)
    parts = [f"{progress.expanded:,} states"] if by_seconds else []
    if progress.best_score is not None:
        parts.append(f"best {progress.best_score:g}")
    bar.set_postfix_str(", ".join(parts))


def _add_solve(sub) -> None:
    solve = sub.add_parser(
        "solve",
        help="solve a deal: won (with the moves), lost (proved) or unknown",
        description="Solve a deal: won (with the moves), lost (proved) or unknown. The limits given "
        "(--max-states, --max-seconds, or both) are the only ones: with --max-seconds "
        f"alone any number of states may be expanded. Given neither, the search stops "
        f"after {SOLVE_STATES:,} states. Memory stays bounded either way.",
    )
    solve.add_argument("game", help=GAME_HELP)
    solve.add_argument("number", type=deal_number, help="the deal number (PySolFC's numbering)")
    solve.add_argument(
        "--max-states",
        type=_number_text,
        default=NOT_GIVEN,
        help="states to expand at most; 'none' for no limit",
    )
    solve.add_argument(
        "--max-seconds",
        type=_number_text,
        default=NOT_GIVEN,
        help="seconds to search at most; 'none' for no limit",
    )
    solve.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.set_defaults(run=_solve)


def _moves_text(text: str) -> list[str]:
    """The moves of ``solwidget review``: a file of moves (one a line, or separated by
    commas), or the moves themselves separated by commas."""
    if os.path.isfile(text):
        with open(text, encoding="utf-8") as file:
            text = file.read()
    return [move.strip() for move in text.replace("\n", ",").split(",") if move.strip()]


def _review(args) -> None:
    from .coach import review

    game = load_game(game_or_file(args.game))
    report = review(
        game.deal(args.number),
        _moves_text(args.moves),
        max_seconds=args.max_seconds,
        max_states=args.max_states,
        crossroads=not args.no_crossroads,
    )
    print(f"{game.id} deal {args.number}: {report}")


def _add_review(sub) -> None:
    review = sub.add_parser(
        "review",
        help="review a played line: the verdict after each move, the move that lost the game, the crossroads",
    )
    review.add_argument("game", help=GAME_HELP)
    review.add_argument("number", type=deal_number, help="the deal number (PySolFC's numbering)")
    review.add_argument(
        "moves", help="the moves played, separated by commas ('t3 f0, t5 t2'), or a file of them, one a line"
    )
    review.add_argument(
        "--max-seconds",
        type=_number_text,
        default=1.0,
        help="seconds to judge each position at most (default 1); 'none' for no limit",
    )
    review.add_argument(
        "--max-states",
        type=_number_text,
        help="positions to expand for each position judged (default: no limit)",
    )
    review.add_argument(
        "--no-crossroads",
        action="store_true",
        help="do not weigh every move at each winnable position (faster)",
    )
    review.set_defaults(run=_review)


COMMANDS = [_add_games, _add_deal, _add_study, _add_solve, _add_review]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="solwidget", description="Solitaire rules, deals and solver.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input gives a message on stderr and exit code 2.

    Output into a pipe that closed early (``solwidget games | head -1``) ends quietly, with
    the exit code a shell gives a process that SIGPIPE ended.
    """
    parser = build_parser()
    args = parser.parse_args(argv)  # argparse itself exits with 2 on bad arguments
    try:
        args.run(args)
        sys.stdout.flush()  # a closed pipe shows here at the latest
    except SolwidgetError as err:
        print(f"solwidget: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of it, at exit, does not
    fail again on the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
