"""Winnability studies: solve many deals of a game, on local processes or a Dask cluster.

    table = sw.study("freecell", "1-100", budget=10)          # 10 seconds per deal
    table.counts(); table.win_rate(); table.to_csv("freecell.csv")

Each deal is solved in a worker (a process, any ``concurrent.futures.Executor``, or the
workers of a ``dask.distributed`` scheduler). With ``out=FILE`` the results are kept in a
file as they arrive, so an interrupted study loses (almost) nothing, and a rerun with the
same file solves only the deals that are not in it yet. The file's suffix names its format:
``.csv`` (each result appended as soon as it arrives) or ``.parquet`` (needs pyarrow, from
the "study" extra; the file is rewritten whole, atomically, at most once a second and at the
end, since Parquet cannot be appended to). The table is always in deal order, whatever order
the workers finish in.

The package's modules: ``table`` (the rows, the table and its written form), ``ranges``
(deal numbers), ``files`` (a results file read, checked, resumed, appended to and locked),
``runners`` (the worker's function and where it runs); ``study`` itself is here.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
from pathlib import Path

from ..engine import Game, load_game
from ..engine.checks import flag, shown, whole_number
from ..extras import require_extra
from ..solver.budget import check_max_states, check_seconds
from ..variants import Variant, definition_of, rules_of
from .files import StudyIdentity, checked_path, done_in_file, format_of, load_study, study_of
from .ranges import DealRanges, parse_deals
from .runners import OwnProcesses, progress_bar, runner_for, solve_deal
from .table import COLUMNS, STATUSES, StudyError, StudyRow, StudyTable, record, wilson_interval
from .writing import FileLock, open_sink

__all__ = [
    "COLUMNS",
    "STATUSES",
    "DealRanges",
    "StudyError",
    "StudyRow",
    "StudyTable",
    "load_study",
    "parse_deals",
    "solve_deal",
    "study",
    "wilson_interval",
]

DEFAULT_SECONDS = 10.0  # the budget per deal when a study is given none
IN_FLIGHT_PER_WORKER = 4  # deals submitted ahead of the results, per local process
IN_FLIGHT_ELSEWHERE = 1024  # the same on a caller's executor or a Dask cluster


def study(
    game,
    deals,
    budget: float | None = None,
    *,
    max_states: int | None = None,
    executor: cf.Executor | None = None,
    scheduler: str | None = None,
    out: str | os.PathLike | None = None,
    progress: bool = True,
    workers: int | None = None,
    difficulty: bool = False,
) -> StudyTable:
    """Solve every deal in ``deals`` of ``game`` and return the results in deal order.

    Every argument is checked before any deal is solved, and the deals are handed out as
    they are needed, never listed: a range of any size costs no memory.

    Args:
        game: a game id (``"interlock"``), a Game (for a game with options) or a Variant
            (``sw.variant``), whose definition goes to the workers with each deal.
        deals: deal numbers: ``"1-1000"``, ``"7"``, ``"1-10,20"``, an int, a range or a list.
        budget: seconds per deal.
        max_states: states per deal, for results that do not depend on the machine.
            The limits given, ``budget``, ``max_states`` or both, are each deal's only
            limits; with neither, each deal has 10 seconds (``DEFAULT_SECONDS``).
        executor: any ``concurrent.futures.Executor`` to solve the deals on.
        scheduler: the address of a Dask scheduler (``"tcp://host:8786"``) instead.
        out: a ``.csv`` or ``.parquet`` file (the suffix names the format; Parquet needs
            pyarrow) that keeps the results as they arrive, with the game's rules; the
            deals already in it are not solved again, so a rerun of an interrupted study
            resumes it. One study at a time writes a file (a lock file beside it, ``.lock``).
        progress: show a progress bar (tqdm).
        workers: local processes to use (default, and at most: one per CPU; never more
            than the deals left to solve).
        difficulty: also record each won deal's difficulty (column ``difficulty``:
            ``sw.difficulty`` of its win, crossroads and the share of moves that keep it
            winnable). Off by default: it costs a few hundred searches of 1,000 states each
            per won deal (about one to a few seconds), beyond the budget, which is the
            solve's alone. A deal resumed from ``out`` keeps the row it has.

    Returns:
        A StudyTable, one row per deal.

    Raises:
        StudyError: bad arguments (deals, budget, workers, an ``out`` of another study or
            of other rules (the message names the rules that differ), with another suffix,
            in use by another study, or one that is no study file: the message names its
            line and field, and the file is left as it was), or a scheduler that cannot be
            reached.
        UnknownGame: no game has that id.
        InvalidDeal: a deal number out of range.
        MissingExtra: an ``out`` ending in ``.parquet`` without pyarrow installed.

    Examples:
        >>> table = sw.study("freecell", "1-3", max_states=2000, progress=False, workers=1)
        >>> table.deals, table.counts()["won"]
        ([1, 2, 3], 3)
    """
    game = _resolve_game(game)
    numbers = parse_deals(deals, game.deal_limits)
    budget, max_states = _check_budget(budget, max_states)
    if executor is not None and scheduler is not None:
        raise StudyError("give either executor= or scheduler=, not both")
    if workers is not None:
        workers = whole_number("workers", workers, 1, error=StudyError)
    flag("progress", progress, error=StudyError)
    flag("difficulty", difficulty, error=StudyError)
    path = _checked_out(out)
    options = _custom_options(game)
    this = study_of(game.id, options, rules_of(game), budget, max_states, definition_of(game) is None)
    if path is None:
        return _solve_all(game, numbers, {}, this, None, executor, scheduler, workers, progress, difficulty)
    with FileLock(path):
        return _solve_all(
            game,
            numbers,
            done_in_file(path, this),
            this,
            path,
            executor,
            scheduler,
            workers,
            progress,
            difficulty,
        )


def _solve_all(
    game: Game,
    numbers: DealRanges,
    done: dict,
    this: StudyIdentity,
    path: Path | None,
    executor,
    scheduler,
    workers,
    progress,
    difficulty: bool = False,
) -> StudyTable:
    """Solve the deals of ``numbers`` not ``done`` yet, and the table of them all."""
    results = {deal: row for deal, row in done.items() if deal in numbers}
    jobs = numbers.count - len(results)
    if jobs:
        runner = runner_for(executor, scheduler, workers, jobs)
        window = (
            IN_FLIGHT_PER_WORKER * runner.workers if isinstance(runner, OwnProcesses) else IN_FLIGHT_ELSEWHERE
        )
        with runner as pool:
            pending: set = set()
            try:
                _run(
                    pool,
                    pending,
                    window,
                    game,
                    (d for d in numbers if d not in done),
                    this,
                    path,
                    results,
                    progress_bar(progress, game.id, numbers.count, len(results)),
                    difficulty,
                )
            except BaseException:  # an error, or Ctrl-C: the rows written so far stay
                runner.abandon(pending)
                raise
    return StudyTable(
        game.id,
        [results[d] for d in sorted(results)],
        this.budget,
        this.max_states,
        _custom_options(game),
        rules_of(game),
    )


def _run(
    pool: cf.Executor,
    pending: set,
    window: int,
    game: Game,
    todo,
    this: StudyIdentity,
    path,
    results,
    bar,
    difficulty: bool = False,
) -> None:
    """Keep up to ``window`` deals of ``todo`` in ``pending`` (submitted one by one, so that
    an interrupt leaves none untracked), and record each result as it arrives."""
    options, definition, rules = _custom_options(game), definition_of(game), rules_of(game)

    def submit(deal):
        pending.add(
            pool.submit(
                solve_deal, game.id, options, deal, this.budget, this.max_states, definition, difficulty
            )
        )

    sink = open_sink(path)
    try:
        for deal in itertools.islice(todo, window):
            submit(deal)
        while pending:
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                pending.discard(future)
                row = future.result()
                results[row.deal] = row
                if sink:
                    sink.add(record(game.id, options, row, this.budget, this.max_states, rules))
                if bar:
                    bar.update(1)
                for deal in itertools.islice(todo, 1):
                    submit(deal)
    finally:
        if sink:
            sink.close()
        if bar:
            bar.close()


def _check_budget(budget, max_states) -> tuple[float | None, int | None]:
    """The study's limits per deal, in the solver's words (``budget`` is its max_seconds):
    those given, and only those; DEFAULT_SECONDS when none is."""
    if budget is None and max_states is None:
        return DEFAULT_SECONDS, None
    return check_seconds(budget, "budget"), check_max_states(max_states)


def _checked_out(out) -> Path | None:
    if out is None:
        return None
    path = checked_path(out, "out")
    if not path.parent.is_dir():
        raise StudyError(f"out names a file in {path.parent}, which is not a folder")
    if format_of(path, "out") == "parquet":
        require_extra("study", "pyarrow")  # before any deal is solved
    return path


def _custom_options(game: Game) -> dict:
    """The options that differ from the game's defaults (what names this variant)."""
    return {k: v for k, v in game.options.items() if v != game.option_defaults.get(k)}


def _resolve_game(game) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, Variant):
        return game.game()
    if not isinstance(game, str):
        raise StudyError(f"game must be a game id such as 'freecell' or a Game, not {shown(game)}")
    return load_game(game)  # UnknownGame (a SolwidgetError) names the known games
