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
"""

from __future__ import annotations

import bisect
import concurrent.futures as cf
import csv
import io
import itertools
import json
import math
import os
import re
import signal
import socket
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .engine import Game, SolwidgetError, load_game
from .engine.checks import flag, is_whole, refuse, shown, whole_number
from .engine.deals import DEAL_LIMITS, check_deal_number
from .extras import require_extra
from .solver.budget import check_max_states, check_seconds
from .variants import Variant, definition_of, variant_from_dict

STATUSES = ("won", "lost", "unknown")
COLUMNS = ("game", "options", "deal", "status", "moves", "states", "seconds", "budget", "max_states")
PARQUET_TYPES = {"game": "string", "options": "string", "deal": "int64", "status": "string", "moves": "int64",
                 "states": "int64", "seconds": "float64", "budget": "float64", "max_states": "int64"}
CONNECT_TIMEOUT = 3.0    # seconds to reach a Dask scheduler before giving up
PARQUET_SAVE_EVERY = 1.0    # seconds between rewrites of a Parquet results file


class StudyError(SolwidgetError):
    """A study asked for with bad arguments, or one that cannot run (scheduler unreachable)."""


@dataclass(frozen=True)
class StudyRow:
    """One deal's result: ``moves`` is the winning line's length (None unless won)."""
    deal: int
    status: str
    moves: int | None
    states: int
    seconds: float


@dataclass
class StudyTable:
    """The results of a study, one row per deal, in deal order (what ``study`` returns).

    A sequence of StudyRow (deal, status, moves, states, seconds). ``counts()``,
    ``win_rate()`` and ``summary()`` sum it up; ``to_csv``, ``to_parquet`` and
    ``to_pandas`` hand it on; ``load_study(path)`` reads a results file back as one.
    """
    game: str
    rows: list[StudyRow]
    budget: float | None = None
    max_states: int | None = None
    options: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __getitem__(self, index):
        return self.rows[index]

    @property
    def deals(self) -> list[int]:
        """The deal numbers of the rows, in order."""
        return [row.deal for row in self.rows]

    def counts(self) -> dict[str, int]:
        """How many deals were won, lost (proven) and left unknown."""
        counts = dict.fromkeys(STATUSES, 0)
        for row in self.rows:
            counts[row.status] += 1
        return counts

    def win_rate(self, confidence: float = 0.95) -> tuple[float, float, float]:
        """(won / deals, low, high): the share won and its Wilson confidence interval.

        Unknown deals count as not won, so the rate is a lower bound when some are left.
        """
        won, n = self.counts()["won"], len(self.rows)
        low, high = wilson_interval(won, n, confidence)
        return (won / n if n else math.nan), low, high

    def budget_text(self) -> str:
        """The budget per deal in words: ``"10 s per deal"``, ``"10 s / 5,000 states per deal"``."""
        parts = []
        if self.budget is not None:
            parts.append(f"{self.budget:g} s")
        if self.max_states is not None:
            parts.append(f"{self.max_states:,} states")
        return " / ".join(parts) + " per deal"

    def summary(self) -> str:
        """One line: the deals, the budget, the counts and the win rate."""
        c = self.counts()
        rate, low, high = self.win_rate()
        return (f"{self.game}, {_deals_text(self.deals)}, {self.budget_text()}: {c['won']} won, "
                f"{c['lost']} lost, {c['unknown']} unknown; win rate {rate:.1%} "
                f"(95% CI {low:.1%}-{high:.1%})")

    def format(self, columns: Iterable[str] = ("deal", "status", "moves", "states", "seconds")) -> str:
        """The rows as an aligned text table."""
        columns = list(columns)
        cells = [columns] + [[_cell(getattr(row, c)) for c in columns] for row in self.rows]
        widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
        return "\n".join("  ".join(v.rjust(w) for v, w in zip(line, widths)) for line in cells)

    def __repr__(self) -> str:
        return f"<StudyTable {self.summary()}>"

    def to_csv(self, path: str | os.PathLike | None = None) -> str:
        """The table as CSV text (the study's file format); written to ``path`` if given."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in self.rows:
            writer.writerow(_csv_record(self.game, self.options, row, self.budget, self.max_states))
        text = buffer.getvalue()
        if path is not None:
            Path(path).write_text(text)
        return text

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Write the table as a Parquet file (the study's other file format; needs pyarrow).

        Raises MissingExtra without pyarrow: ``pip install "solwidget[study]"``.
        """
        records = [_csv_record(self.game, self.options, row, self.budget, self.max_states) for row in self.rows]
        _write_parquet(Path(path), records)

    def to_pandas(self):
        """The rows as a pandas DataFrame (needs pandas, which solwidget does not require)."""
        try:
            import pandas
        except ImportError:
            raise StudyError("to_pandas needs pandas: pip install pandas") from None
        return pandas.DataFrame([row.__dict__ for row in self.rows],
                                columns=["deal", "status", "moves", "states", "seconds"])


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (good near 0 % and 100 %, unlike p ± z·se)."""
    if n == 0:
        return 0.0, 1.0
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------- arguments

MAX_DEALS_TEXT = 100_000     # characters of deal text ("1-10,20,30-40") read at most
MAX_LISTED = 1_000_000       # deals given one by one (a list, a stepped range) at most
DEALS_ACCEPTED = "text like '1-1000' or '1-10,20', a deal number, a range or a list of deal numbers"


class DealRanges:
    """Deal numbers as sorted, disjoint spans ``(first, last)``: counted, tested and iterated
    in order without ever listing them, so '1-99999999999999999999' costs no memory."""

    def __init__(self, spans):
        merged: list[list[int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        self.spans = tuple((first, last) for first, last in merged)
        self._firsts = [first for first, _ in self.spans]

    @property
    def count(self) -> int:
        """How many deals (an int of any size: ``len`` would stop at 2**63)."""
        return sum(last - first + 1 for first, last in self.spans)

    def __iter__(self):
        for first, last in self.spans:
            yield from range(first, last + 1)

    def __contains__(self, number) -> bool:
        i = bisect.bisect_right(self._firsts, number) - 1
        return i >= 0 and number <= self.spans[i][1]

    def __bool__(self) -> bool:
        return bool(self.spans)

    def __eq__(self, other) -> bool:
        return isinstance(other, DealRanges) and self.spans == other.spans

    def __repr__(self) -> str:
        return "DealRanges('" + ",".join(f"{a}-{b}" if a != b else f"{a}" for a, b in self.spans) + "')"


def parse_deals(deals, limits: tuple[int, int] = DEAL_LIMITS) -> DealRanges:
    """Deal numbers from ``"1-1000"``, ``"7"``, ``"1-10,20,30-40"``, an int, a range or a list,
    each checked against ``limits`` (a game's ``deal_limits``) before any is used."""
    if isinstance(deals, str):
        spans = _parse_deal_text(deals, limits)
    elif is_whole(deals):
        spans = [(check_deal_number(deals, limits),) * 2]
    elif isinstance(deals, range) and deals.step == 1:
        spans = [(check_deal_number(deals.start, limits), check_deal_number(deals.stop - 1, limits))] \
            if deals else []
    elif isinstance(deals, Iterable) and not isinstance(deals, (bytes, bytearray, dict)):
        listed = list(itertools.islice(deals, MAX_LISTED + 1))
        if len(listed) > MAX_LISTED:
            raise StudyError(f"deals lists more than {MAX_LISTED:,} deals one by one: write a range like '1-1000'")
        spans = [(check_deal_number(number, limits),) * 2 for number in listed]
    else:
        raise refuse("deals", DEALS_ACCEPTED, deals, StudyError)
    if not spans:
        raise StudyError(f"no deals to study in {shown(deals)}")
    return DealRanges(spans)


def _parse_deal_text(text: str, limits: tuple[int, int]) -> list[tuple[int, int]]:
    if len(text) > MAX_DEALS_TEXT:
        raise StudyError(f"deals text of {len(text):,} characters is too long (at most {MAX_DEALS_TEXT:,}): "
                         "write ranges like '1-1000'")
    spans = []
    for part in text.replace(" ", "").split(",") if text.strip() else []:
        match = re.fullmatch(r"([0-9]{1,30})(?:-([0-9]{1,30}))?", part)
        if not match:
            raise StudyError(f"cannot read deals {shown(text)}: write a number or a range like '1-1000'")
        first = check_deal_number(int(match[1]), limits)
        last = check_deal_number(int(match[2]), limits) if match[2] else first
        if last < first:
            raise StudyError(f"deal range {shown(part)} is reversed: write {last}-{first}")
        spans.append((first, last))
    return spans


def _check_budget(budget, max_states) -> tuple[float | None, int | None]:
    """The study's budgets, in the solver's words (``budget`` is its max_seconds per deal)."""
    if budget is None and max_states is None:
        raise StudyError("a study needs a budget: seconds per deal, max_states, or both")
    return check_seconds(budget, "budget"), check_max_states(max_states)


def _custom_options(game: Game) -> dict:
    """The options that differ from the game's defaults (what names this variant)."""
    return {k: v for k, v in game.options.items() if v != game.option_defaults.get(k)}


def _resolve_game(game) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, Variant):
        return game.game()
    if not isinstance(game, str):
        raise StudyError(f"game must be a game id such as 'freecell' or a Game, not {game!r}")
    return load_game(game)          # UnknownGame (a SolwidgetError) names the known games


# ------------------------------------------------------------------- worker

def solve_deal(game_id: str, options: dict, deal: int, budget: float | None,
               max_states: int | None, variant: dict | None = None) -> StudyRow:
    """Solve one deal (runs in a worker process or on a Dask worker). ``variant``: the
    definition of the game when it is a variant (``Variant.to_dict``), which a worker
    registers first, since it knows only the catalogue."""
    from .solver import solve

    if variant is not None:
        variant_from_dict(variant)      # the very same definition again is no error
    state = load_game(game_id, **options).deal(deal)
    start = time.perf_counter()
    # both limits explicit: None means no limit (not the solver's default state budget)
    result = solve(state, max_states=max_states, max_seconds=budget)
    seconds = round(time.perf_counter() - start, 4)
    moves = len(result.moves) if result.status == "won" else None
    return StudyRow(deal, result.status, moves, int(result.progress.expanded), seconds)


# ------------------------------------------------------------------ results file

def _csv_record(game_id, options, row: StudyRow, budget, max_states) -> list:
    return [game_id, _options_text(options), row.deal, row.status,
            "" if row.moves is None else row.moves, row.states, f"{row.seconds:.4f}",
            "" if budget is None else repr(float(budget)), "" if max_states is None else max_states]


def _options_text(options: dict) -> str:
    return json.dumps(options, sort_keys=True) if options else ""


NOT_A_STUDY_FILE = "a study file is what study(out=...) writes: give out= another file to start afresh"


@dataclass(frozen=True)
class _Record:
    """One record of a results file, every field checked; ``fields`` as CSV holds them."""
    fields: dict
    game: str
    options: str
    row: StudyRow
    budget: float | None
    max_states: int | None


def _read_records(path: Path) -> tuple[list[_Record], int | None]:
    """Every complete record of a results file, checked field by field (StudyError names the
    file, the line or row, and the field), and for a CSV file the length in bytes of its
    complete part (the part before a half-written last line)."""
    if _format_of(path) == "parquet":
        return [_checked_record(fields, path, f"row {i}") for i, fields in enumerate(_read_parquet(path), 1)], None
    lines, end = _read_csv(path)
    return [_checked_record(fields, path, f"line {line}") for line, fields in lines], end


def _read_csv(path: Path) -> tuple[list[tuple[int, dict]], int]:
    """A CSV file's complete records with their line numbers, as text fields, and the length
    in bytes of its complete part. A file that is not UTF-8 text, or not CSV, is refused."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise StudyError(f"cannot read the study file {path}: {err.strerror or err}") from None
    end = data.rfind(b"\n") + 1
    try:
        text = data[:end].decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise StudyError(f"{path}, line {line}: byte {data[err.start]:#04x} is not UTF-8 text; "
                         f"{NOT_A_STUDY_FILE}") from None
    if not text:
        return [], end
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
        if tuple(header) != COLUMNS:
            raise StudyError(f"{path} is not a solwidget study file: its columns are {shown(header)}, "
                             f"expected {', '.join(COLUMNS)}")
        records = []
        for fields in reader:
            if len(fields) != len(COLUMNS):
                raise StudyError(f"{path}, line {reader.line_num}: {len(fields)} fields instead of "
                                 f"{len(COLUMNS)} ({', '.join(COLUMNS)}); {NOT_A_STUDY_FILE}")
            records.append((reader.line_num, dict(zip(COLUMNS, fields))))
    except csv.Error as err:
        raise StudyError(f"{path}, line {reader.line_num}: not CSV ({err}); {NOT_A_STUDY_FILE}") from None
    return records, end


def _whole_field(text: str, low: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 30) or int(text) < low:
        raise ValueError(text)
    return int(text)


def _real_field(text: str, positive: bool) -> float:
    number = float(text) if len(text) <= 40 else math.nan
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        raise ValueError(text)
    return number


def _options_field(text: str) -> str:
    if text:
        try:
            options = json.loads(text)
        except RecursionError:
            raise ValueError(text) from None
        if not isinstance(options, dict):
            raise ValueError(text)
    return text


def _game_id_field(text: str) -> str:
    """A game's id, or a variant's (``sw.variant``: not in ``games()``, so only its form is checked)."""
    if not (text.isidentifier() and text == text.lower() and len(text) <= 100):
        raise ValueError(text)
    return text


def _one_of(choices):
    def read(text: str) -> str:
        if text not in choices:
            raise ValueError(text)
        return text
    return read


def _optional(read):
    return lambda text: read(text) if text else None


FIELDS = {   # column -> (how to read it, what it accepts); an empty optional field is None
    "game": (_game_id_field, "a game id (lower-case letters, digits and _)"),
    "options": (_options_field, "empty or a JSON object of game options"),
    "deal": (lambda text: check_deal_number(_whole_field(text, 1)), "a deal number from 1 to 10**20 - 1"),
    "status": (_one_of(STATUSES), f"one of {', '.join(STATUSES)}"),
    "moves": (_optional(lambda text: _whole_field(text, 0)), "empty or a whole number of moves"),
    "states": (lambda text: _whole_field(text, 0), "a whole number of states"),
    "seconds": (lambda text: _real_field(text, False), "a number of seconds >= 0"),
    "budget": (_optional(lambda text: _real_field(text, True)), "empty or a positive number of seconds"),
    "max_states": (_optional(lambda text: _whole_field(text, 1)), "empty or a whole number >= 1"),
}


def _checked_record(fields: dict, path, where: str) -> _Record:
    values = {}
    for name, (read, accepted) in FIELDS.items():
        try:
            values[name] = read(fields[name])
        except (ValueError, OverflowError):      # InvalidDeal is a ValueError too
            raise StudyError(f"{path}, {where}, field {name!r}: {shown(fields[name])} is not {accepted}; "
                             f"{NOT_A_STUDY_FILE}") from None
    row = StudyRow(values["deal"], values["status"], values["moves"], values["states"], values["seconds"])
    return _Record(fields, values["game"], values["options"], row, values["budget"], values["max_states"])


def _done_in_file(path: Path, game: Game, budget, max_states) -> dict[int, StudyRow]:
    """Rows already in ``path`` for this very study (same game, options and budget). A file
    that is refused is left as it was; a valid CSV file loses only a half-written last line."""
    if not path.exists():
        return {}
    options = _options_text(_custom_options(game))
    records, end = _read_records(path)
    done = {}
    for record in records:
        if (record.game, record.options, record.budget, record.max_states) != (game.id, options, budget,
                                                                                max_states):
            found = " ".join(filter(None, (record.game, record.options)))
            raise StudyError(
                f"{path} holds results of another study ({found}, budget {_or_dash(record.budget)} s / "
                f"{_or_dash(record.max_states)} states): use another file for {game.id} at this budget")
        done[record.row.deal] = record.row
    if end is not None and end < path.stat().st_size:
        os.truncate(path, end)          # so that appending starts on a clean line
    return done


def _or_dash(value) -> str:
    return "-" if value is None else f"{value:g}"


def load_study(path: str | os.PathLike) -> StudyTable:
    """A study's results file (``out=``, CSV or Parquet) read back as a table; the file is
    only read.

    Raises:
        StudyError: no such file, a file that is not a study's (the message names the
            line or row and the field that is wrong), or one that mixes games or budgets.
        MissingExtra: a ``.parquet`` file without pyarrow installed.
    """
    path = _checked_path(path, "path")
    if not path.exists():
        raise StudyError(f"no study file {path}")
    records, _ = _read_records(path)
    if not records:
        raise StudyError(f"{path} holds no results")
    first = records[0]
    if any((r.game, r.options) != (first.game, first.options) for r in records):
        raise StudyError(f"{path} mixes several games; give each study its own file")
    if any((r.budget, r.max_states) != (first.budget, first.max_states) for r in records):
        raise StudyError(f"{path} mixes several budgets; give each study its own file")
    rows = {r.row.deal: r.row for r in records}
    return StudyTable(first.game, [rows[d] for d in sorted(rows)], first.budget, first.max_states,
                      json.loads(first.options) if first.options else {})


def _checked_path(path, name: str) -> Path:
    """A file path argument: text or a path-like, naming a file rather than a folder."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise refuse(name, "a file path (text or a pathlib.Path)", path, StudyError)
    try:
        path = Path(path)
        folder = path.is_dir()
    except (OSError, ValueError, TypeError) as err:
        raise refuse(name, f"a usable file path ({err})", path, StudyError) from None
    if folder:
        raise StudyError(f"{name} is a file of results, but {path} is a folder")
    return path


def _read_parquet(path: Path) -> list[dict]:
    """A Parquet file's records, each field as the text CSV would hold."""
    require_extra("study", "pyarrow")
    import pyarrow
    import pyarrow.parquet

    try:
        table = pyarrow.parquet.read_table(path)
    except (pyarrow.ArrowException, OSError) as err:
        raise StudyError(f"{path} is not a readable Parquet file: {err}") from None
    if tuple(table.column_names) != COLUMNS:
        raise StudyError(f"{path} is not a solwidget study file: its columns are {table.column_names}, "
                         f"expected {', '.join(COLUMNS)}")
    return [{k: "" if v is None else _parquet_text(k, v) for k, v in record.items()}
            for record in table.to_pylist()]


def _parquet_text(column: str, value) -> str:
    return repr(float(value)) if column == "budget" else str(value)


def _write_parquet(path: Path, records: list[list]) -> None:
    """Write ``records`` (CSV's fields) as a typed Parquet file, atomically: a reader, or an
    interrupted rerun, sees the old file or the new one, never half of one."""
    require_extra("study", "pyarrow")
    import pyarrow
    import pyarrow.parquet

    columns = list(zip(*records)) if records else [()] * len(COLUMNS)
    arrays = [pyarrow.array([_parquet_value(name, value) for value in values], type=PARQUET_TYPES[name])
              for name, values in zip(COLUMNS, columns)]
    partial = path.with_name(path.name + ".partial")
    pyarrow.parquet.write_table(pyarrow.Table.from_arrays(arrays, names=list(COLUMNS)), partial)
    os.replace(partial, path)


def _parquet_value(column: str, value):
    """A CSV field as its column's type; an empty field is null."""
    if value is None or value == "":
        return None
    kind = PARQUET_TYPES[column]
    return int(value) if kind == "int64" else float(value) if kind == "float64" else str(value)


def _format_of(path: Path, name: str = "path") -> str:
    """The results file's format, named by its suffix; ``name`` is the argument that gave it."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise StudyError(f"{name}: a study file is .csv or .parquet (its suffix names the format), "
                         f"not {str(path)!r}")
    return suffix[1:]


# ------------------------------------------------------------------ the study

IN_FLIGHT_PER_WORKER = 4     # deals submitted ahead of the results, per local process
IN_FLIGHT_ELSEWHERE = 1024   # the same on a caller's executor or a Dask cluster


def study(game, deals, budget: float | None = 10.0, *, max_states: int | None = None,
          executor: cf.Executor | None = None, scheduler: str | None = None,
          out: str | os.PathLike | None = None, progress: bool = True,
          workers: int | None = None) -> StudyTable:
    """Solve every deal in ``deals`` of ``game`` and return the results in deal order.

    Every argument is checked before any deal is solved, and the deals are handed out as
    they are needed, never listed: a range of any size costs no memory.

    Args:
        game: a game id (``"interlock"``), a Game (for a game with options) or a Variant
            (``sw.variant``), whose definition goes to the workers with each deal.
        deals: deal numbers: ``"1-1000"``, ``"7"``, ``"1-10,20"``, an int, a range or a list.
        budget: seconds per deal (None for no time limit, with ``max_states``).
        max_states: states per deal, for results that do not depend on the machine.
        executor: any ``concurrent.futures.Executor`` to solve the deals on.
        scheduler: the address of a Dask scheduler (``"tcp://host:8786"``) instead.
        out: a ``.csv`` or ``.parquet`` file (the suffix names the format; Parquet needs
            pyarrow) that keeps the results as they arrive; the deals already in it are
            not solved again, so a rerun of an interrupted study resumes it.
        progress: show a progress bar (tqdm).
        workers: local processes to use (default, and at most: one per CPU; never more
            than the deals left to solve).

    Returns:
        A StudyTable, one row per deal.

    Raises:
        StudyError: bad arguments (deals, budget, workers, an ``out`` of another study,
            with another suffix, or one that is no study file: the message names its line
            and field, and the file is left as it was), or a scheduler that cannot be reached.
        UnknownGame: no game has that id.
        InvalidDeal: a deal number out of range.
        MissingExtra: an ``out`` ending in ``.parquet`` without pyarrow installed.

    Examples:
        >>> table = sw.study("freecell", "1-3", budget=None, max_states=2000, progress=False, workers=1)
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
    path = _checked_path(out, "out") if out is not None else None
    if path is not None and not path.parent.is_dir():
        raise StudyError(f"out names a file in {path.parent}, which is not a folder")
    if path is not None and _format_of(path, "out") == "parquet":
        require_extra("study", "pyarrow")       # before any deal is solved

    done = _done_in_file(path, game, budget, max_states) if path else {}
    results = {deal: row for deal, row in done.items() if deal in numbers}
    jobs = numbers.count - len(results)
    if jobs:
        runner = _executor_for(executor, scheduler, workers, jobs)
        window = IN_FLIGHT_PER_WORKER * runner.workers if isinstance(runner, _OwnProcesses) else IN_FLIGHT_ELSEWHERE
        with runner as pool:
            pending: set = set()
            try:
                _run(pool, pending, window, game, (d for d in numbers if d not in done), budget, max_states,
                     path, results, _progress_bar(progress, game.id, numbers.count, len(results)))
            except BaseException:          # an error, or Ctrl-C: the rows written so far stay
                runner.abandon(pending)
                raise
    return StudyTable(game.id, [results[d] for d in sorted(results)], budget, max_states, _custom_options(game))


def _run(pool: cf.Executor, pending: set, window: int, game: Game, todo, budget, max_states, path,
         results, bar) -> None:
    """Keep up to ``window`` deals of ``todo`` in ``pending`` (submitted one by one, so that
    an interrupt leaves none untracked), and record each result as it arrives."""
    options, definition = _custom_options(game), definition_of(game)
    sink = _open_sink(path)
    try:
        for deal in itertools.islice(todo, window):
            pending.add(pool.submit(solve_deal, game.id, options, deal, budget, max_states, definition))
        while pending:
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                pending.discard(future)
                row = future.result()
                results[row.deal] = row
                if sink:
                    sink.add(_csv_record(game.id, options, row, budget, max_states))
                if bar:
                    bar.update(1)
                for deal in itertools.islice(todo, 1):
                    pending.add(pool.submit(solve_deal, game.id, options, deal, budget, max_states, definition))
    finally:
        if sink:
            sink.close()
        if bar:
            bar.close()


def _open_sink(path: Path | None):
    if path is None:
        return None
    return _ParquetSink(path) if _format_of(path) == "parquet" else _CsvSink(path)


class _CsvSink:
    """Appends each record to a CSV file as it comes (the header first, in a new file)."""

    def __init__(self, path: Path):
        new = not path.exists() or path.stat().st_size == 0
        self.file = open(path, "a", newline="")
        self.writer = csv.writer(self.file, lineterminator="\n")
        if new:
            self.add(COLUMNS)

    def add(self, record) -> None:
        self.writer.writerow(record)
        self.file.flush()

    def close(self) -> None:
        self.file.close()


class _ParquetSink:
    """Keeps the file's records and the new ones, and rewrites the Parquet file with all of
    them at most every PARQUET_SAVE_EVERY seconds, and when the study ends or stops."""

    def __init__(self, path: Path):
        self.path = path
        self.records = [list(r.fields.values()) for r in _read_records(path)[0]] if path.exists() else []
        self.saved = time.monotonic()
        self.unsaved = 0

    def add(self, record) -> None:
        self.records.append(record)
        self.unsaved += 1
        if time.monotonic() - self.saved >= PARQUET_SAVE_EVERY:
            self.save()

    def save(self) -> None:
        _write_parquet(self.path, self.records)
        self.saved, self.unsaved = time.monotonic(), 0

    def close(self) -> None:
        if self.unsaved or not self.path.exists():
            self.save()


class _Borrowed:
    """A caller's executor, used in a ``with`` block without being shut down."""

    def __init__(self, executor):
        self.executor = executor

    def __enter__(self):
        return self.executor

    def __exit__(self, *exc):
        return False

    def abandon(self, futures) -> None:
        """The study stops early: drop the deals not started yet."""
        for future in futures:
            future.cancel()


class _OwnProcesses:
    """Local processes, shut down at the end, stopped at once if the study stops early."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_end_with_parent)

    def __enter__(self):
        return self.pool

    def __exit__(self, *exc):
        self.pool.shutdown(wait=True)
        return False

    def abandon(self, futures) -> None:
        """The finished deals are in the file already; the ones being solved would only delay
        the exit (a rerun solves them again), so stop the processes. The pool then fails the
        pending futures itself (cancelling them first trips a race in Python 3.11's pool).
        concurrent.futures has no public way to stop workers before Python 3.14."""
        for process in list((getattr(self.pool, "_processes", None) or {}).values()):
            process.terminate()


def _end_with_parent() -> None:
    """In a worker process: end when the study's process dies, even by SIGKILL, instead of
    waiting for work forever (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)     # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _DaskExecutor:
    """The executor of a ``dask.distributed`` client connected to ``address``."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise StudyError("scheduler= needs dask.distributed: pip install 'solwidget[study]'") from None
        try:
            _knock(address)
        except (OSError, ValueError) as err:
            raise StudyError(f"cannot reach the Dask scheduler at {address!r} "
                             f"within {CONNECT_TIMEOUT:g} s: {err}") from None
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except Exception as err:      # something answered, but not a Dask scheduler
            raise StudyError(f"cannot connect to a Dask scheduler at {address!r}: "
                             f"{type(err).__name__}: {err}") from None

    def __enter__(self):
        return self.client.get_executor()

    def __exit__(self, *exc):
        self.client.close()
        return False

    def abandon(self, futures) -> None:
        for future in futures:
            future.cancel()


def _knock(address: str) -> None:
    """Fail fast, before a Client exists, when a TCP scheduler address refuses connections
    (a Client that failed to connect still tries to close itself, slowly, at exit)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        socket.create_connection(parse_host_port(location), timeout=CONNECT_TIMEOUT).close()


def _executor_for(executor, scheduler, workers, jobs):
    if executor is not None:
        if not isinstance(executor, cf.Executor):
            raise StudyError(f"executor must be a concurrent.futures.Executor, not {executor!r}")
        return _Borrowed(executor)
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler:
            raise StudyError(f"scheduler is an address such as 'tcp://127.0.0.1:8786', not {scheduler!r}")
        return _DaskExecutor(scheduler)
    cpus = os.cpu_count() or 1
    return _OwnProcesses(max(1, min(workers or cpus, cpus, jobs)))


def _progress_bar(show: bool, label: str, total: int, initial: int):
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:        # tqdm is optional: no bar then
        return None
    return tqdm(total=total, initial=initial, desc=f"{label} study", unit="deal")


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _deals_text(deals: list[int]) -> str:
    if not deals:
        return "no deals"
    if deals == list(range(deals[0], deals[-1] + 1)):
        return f"deals {deals[0]}-{deals[-1]}" if len(deals) > 1 else f"deal {deals[0]}"
    return f"{len(deals)} deals from {deals[0]} to {deals[-1]}"
