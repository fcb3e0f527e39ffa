"""A study's results file (``out=``, CSV or Parquet): read back and checked field by field,
resumed only under the very rules, options and budget it was written with, appended to
while the study runs, and held by one study at a time.

Each record names its game, options and budget, and records the game's rules in the words
of ``sw.variant`` (column ``rules``), so that a file is never resumed under other rules: a
variant's file edited between two runs is refused, naming the rule that changed. A file
written before the column existed is read as it is (its rules unknown); a study that
resumes one of a catalogue game, whose id names its rules, writes it again with them. The
last column, ``difficulty``, is a won deal's difficulty where the study recorded it; a file
written before it existed is read as it is (no difficulty), and written again with the
column (empty) by a study that resumes it.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

from ..engine.checks import refuse, shown
from ..engine.deals import check_deal_number
from ..engine.variation import MAX_ID_CHARS, is_game_id
from ..extras import require_extra
from .table import COLUMNS, STATUSES, StudyError, StudyRow, StudyTable, csv_text, json_text, write_parquet

try:
    import fcntl
except ImportError:  # Windows: a lock file made with O_EXCL instead
    fcntl = None  # type: ignore[assignment]  # the module, or None where there is none

COLUMNS_WITHOUT_DIFFICULTY = COLUMNS[:-1]  # what a study file held before it recorded difficulty
COLUMNS_WITHOUT_RULES = COLUMNS[:-2]  # ... and before it recorded the rules
OLDER_COLUMNS = (COLUMNS_WITHOUT_DIFFICULTY, COLUMNS_WITHOUT_RULES)
RULES = COLUMNS.index("rules")

NOT_A_STUDY_FILE = "a study file is what study(out=...) writes: give out= another file to start afresh"


@dataclass(frozen=True)
class Record:
    """One record of a results file, every field checked; ``rules`` is None where the file
    predates the column. ``fields`` as text, in COLUMNS order (rules "" where unknown,
    difficulty "" where the file predates its column)."""

    fields: list
    game: str
    options: str
    row: StudyRow
    budget: float | None
    max_states: int | None
    rules: str | None


@dataclass(frozen=True)
class StudyIdentity:
    """What a results file must agree with to be resumed: the game's id, its options and
    rules as the file's fields hold them, the budget, and whether the id alone names the
    rules (a game of the catalogue)."""

    game: str
    options: str
    rules: str
    budget: float | None
    max_states: int | None
    catalogue: bool


# ------------------------------------------------------------------ reading


def read_records(path: Path) -> tuple[list[Record], int | None]:
    """Every complete record of a results file, checked field by field (StudyError names the
    file, the line or row, and the field; a deal twice names both lines), and for a CSV file
    the length in bytes of its complete part (the part before a half-written last line)."""
    if format_of(path) == "parquet":
        lines, end = [(f"row {i}", fields) for i, fields in enumerate(_read_parquet(path), 1)], None
    else:
        lines, end = _read_csv(path)
    records: list[Record] = []
    seen: dict[int, str] = {}
    for where, fields in lines:
        record = _checked_record(fields, path, where)
        first = seen.setdefault(record.row.deal, where)
        if first != where:
            raise StudyError(
                f"{path}, {where}: deal {record.row.deal} is there already ({first}); "
                f"a study file holds each deal once: {NOT_A_STUDY_FILE}"
            )
        records.append(record)
    return records, end


def _read_csv(path: Path) -> tuple[list[tuple[str, dict]], int]:
    """A CSV file's complete records with their lines, as text fields, and the length in
    bytes of its complete part. A file that is not UTF-8 text, or not CSV, is refused."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise StudyError(f"cannot read the study file {path}: {err.strerror or err}") from None
    end = data.rfind(b"\n") + 1
    try:
        text = data[:end].decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise StudyError(
            f"{path}, line {line}: byte {data[err.start]:#04x} is not UTF-8 text; {NOT_A_STUDY_FILE}"
        ) from None
    if not text:
        return [], end
    reader = csv.reader(io.StringIO(text))
    try:
        columns = _columns(path, next(reader))
        records = []
        for fields in reader:
            if len(fields) != len(columns):
                raise StudyError(
                    f"{path}, line {reader.line_num}: {len(fields)} fields instead of "
                    f"{len(columns)} ({', '.join(columns)}); {NOT_A_STUDY_FILE}"
                )
            records.append(
                (f"line {reader.line_num}", {"rules": None, "difficulty": "", **dict(zip(columns, fields))})
            )
    except csv.Error as err:
        raise StudyError(f"{path}, line {reader.line_num}: not CSV ({err}); {NOT_A_STUDY_FILE}") from None
    return records, end


def _columns(path: Path, header) -> tuple[str, ...]:
    if tuple(header) not in (COLUMNS, *OLDER_COLUMNS):
        raise StudyError(
            f"{path} is not a solwidget study file: its columns are {shown(list(header))}, "
            f"expected {', '.join(COLUMNS)}"
        )
    return tuple(header)


def _read_parquet(path: Path) -> list[dict]:
    """A Parquet file's records, each field as the text CSV would hold."""
    require_extra("study", "pyarrow")
    import pyarrow
    import pyarrow.parquet

    try:
        table = pyarrow.parquet.read_table(path)
    except (pyarrow.ArrowException, OSError) as err:
        raise StudyError(f"{path} is not a readable Parquet file: {err}") from None
    _columns(path, table.column_names)
    return [
        {
            "rules": None,
            "difficulty": "",
            **{k: "" if v is None else _parquet_text(k, v) for k, v in record.items()},
        }
        for record in table.to_pylist()
    ]


def _parquet_text(column: str, value) -> str:
    return repr(float(value)) if column == "budget" else str(value)


def _whole_field(text: str, low: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 30) or int(text) < low:
        raise ValueError(text)
    return int(text)


def _real_field(text: str, positive: bool) -> float:
    number = float(text) if len(text) <= 40 else math.nan
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        raise ValueError(text)
    return number


def _object_field(text: str) -> str:
    """Empty, or a JSON object (options, rules), kept as its text."""
    if text:
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError(text) from None
        if not isinstance(data, dict):
            raise ValueError(text)
    return text


def _game_id_field(text: str) -> str:
    """A game's id, or a variant's (``sw.variant``: not in ``games()``, so only its form is checked)."""
    if not is_game_id(text):
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


FIELDS = {  # column -> (how to read it, what it accepts); an empty optional field is None
    "game": (
        _game_id_field,
        f"a game id (lower-case letters, digits and _, at most {MAX_ID_CHARS} characters)",
    ),
    "options": (_object_field, "empty or a JSON object of game options"),
    "deal": (lambda text: check_deal_number(_whole_field(text, 1)), "a deal number from 1 to 10**20 - 1"),
    "status": (_one_of(STATUSES), f"one of {', '.join(STATUSES)}"),
    "moves": (_optional(lambda text: _whole_field(text, 0)), "empty or a whole number of moves"),
    "states": (lambda text: _whole_field(text, 0), "a whole number of states"),
    "seconds": (lambda text: _real_field(text, False), "a number of seconds >= 0"),
    "budget": (_optional(lambda text: _real_field(text, True)), "empty or a positive number of seconds"),
    "max_states": (_optional(lambda text: _whole_field(text, 1)), "empty or a whole number >= 1"),
    "rules": (
        lambda text: None if text is None else _object_field(text),
        "a JSON object of the game's rules",
    ),
    "difficulty": (_object_field, "empty or a JSON object of the deal's difficulty"),
}


def _checked_record(fields: dict, path, where: str) -> Record:
    values = {}
    for name, (read, accepted) in FIELDS.items():
        try:
            values[name] = read(fields[name])
        except (ValueError, OverflowError):  # InvalidDeal is a ValueError too
            raise StudyError(
                f"{path}, {where}, field {name!r}: {shown(fields[name])} is not {accepted}; "
                f"{NOT_A_STUDY_FILE}"
            ) from None
    row = StudyRow(
        values["deal"],
        values["status"],
        values["moves"],
        values["states"],
        values["seconds"],
        json.loads(values["difficulty"]) if values["difficulty"] else None,
    )
    text = [fields[name] or "" for name in COLUMNS]
    return Record(
        text, values["game"], values["options"], row, values["budget"], values["max_states"], values["rules"]
    )


def load_study(path: str | os.PathLike) -> StudyTable:
    """A study's results file (``out=``, CSV or Parquet) read back as a table; the file is
    only read.

    Raises:
        StudyError: no such file, a file that is not a study's (the message names the
            line or row and the field that is wrong, or the two lines of a deal that is
            there twice), or one that mixes games, rules or budgets.
        MissingExtra: a ``.parquet`` file without pyarrow installed.
    """
    path = checked_path(path, "path")
    if not path.exists():
        raise StudyError(f"no study file {path}")
    records, _ = read_records(path)
    if not records:
        raise StudyError(f"{path} holds no results")
    first = records[0]
    if any((r.game, r.options) != (first.game, first.options) for r in records):
        raise StudyError(f"{path} mixes several games; give each study its own file")
    if any(r.rules != first.rules for r in records):
        raise StudyError(f"{path} mixes several rule sets; give each study its own file")
    if any((r.budget, r.max_states) != (first.budget, first.max_states) for r in records):
        raise StudyError(f"{path} mixes several budgets; give each study its own file")
    return StudyTable(
        first.game,
        [r.row for r in sorted(records, key=lambda r: r.row.deal)],
        first.budget,
        first.max_states,
        json.loads(first.options) if first.options else {},
        json.loads(first.rules) if first.rules else {},
    )


# ------------------------------------------------------------------ resuming


def done_in_file(path: Path, study: StudyIdentity) -> dict[int, StudyRow]:
    """Rows already in ``path`` for this very study (same game, options, rules and budget).
    A file that is refused is left as it was; a valid CSV file loses only a half-written
    last line, and one of an older format (without the rules column, of a game of the
    catalogue, or without the difficulty column) is written again in the current one."""
    if not path.exists():
        return {}
    records, end = read_records(path)
    for record in records:
        _check_same_study(path, record, study)
    if any(record.rules is None for record in records) or _header(path) != COLUMNS:
        _write_current(path, records, study.rules)
    elif end is not None and end < path.stat().st_size:
        os.truncate(path, end)  # so that appending starts on a clean line
    return {record.row.deal: record.row for record in records}


def _check_same_study(path: Path, record: Record, study: StudyIdentity) -> None:
    if (record.game, record.options, record.budget, record.max_states) != (
        study.game,
        study.options,
        study.budget,
        study.max_states,
    ):
        found = " ".join(filter(None, (record.game, record.options)))
        raise StudyError(
            f"{path} holds results of another study ({found}, budget {_or_dash(record.budget)} s / "
            f"{_or_dash(record.max_states)} states): use another file for {study.game} at this budget"
        )
    if record.rules is None and not study.catalogue:
        raise StudyError(
            f"{path} does not record the rules its results were found under, and {study.game} "
            f"is a variant, whose rules its id does not name: use another file for this study"
        )
    if record.rules is not None and record.rules != study.rules:
        raise StudyError(
            f"{path} holds results of {study.game} under other rules "
            f"({rules_difference(record.rules, study.rules)}): use another file for these rules"
        )


def rules_difference(there: str, here: str) -> str:
    """How two rules fields differ, in words: ``"cells: 4 in the file, 0 now"``."""
    old, new = json.loads(there or "{}"), json.loads(here or "{}")
    return "; ".join(
        f"{key}: {_rule_text(old, key)} in the file, {_rule_text(new, key)} now"
        for key in sorted(set(old) | set(new))
        if old.get(key) != new.get(key)
    )


def _rule_text(rules: dict, key: str) -> str:
    return shown(rules[key]) if key in rules else "not set"


def _header(path: Path) -> tuple[str, ...]:
    """The columns a results file names (read alone: the records were checked already)."""
    if format_of(path) == "parquet":
        import pyarrow.parquet

        return tuple(pyarrow.parquet.read_schema(path).names)
    with open(path, newline="", encoding="utf-8") as file:
        return tuple(next(csv.reader(file), ()))


def _write_current(path: Path, records: list[Record], rules: str) -> None:
    """Write a file of an older format again in the current one, every record with
    ``rules`` (its own, checked equal, or the study's where the file had none), atomically."""
    lines = [[*record.fields[:RULES], rules, *record.fields[RULES + 1 :]] for record in records]
    if format_of(path) == "parquet":
        write_parquet(path, lines)
        return
    partial = path.with_name(path.name + ".partial")
    partial.write_text(csv_text([COLUMNS, *lines]))
    os.replace(partial, path)


def _or_dash(value) -> str:
    return "-" if value is None else f"{value:g}"


# ------------------------------------------------------------------ arguments


def checked_path(path, name: str) -> Path:
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


def format_of(path: Path, name: str = "path") -> str:
    """The results file's format, named by its suffix; ``name`` is the argument that gave it."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise StudyError(
            f"{name}: a study file is .csv or .parquet (its suffix names the format), not {str(path)!r}"
        )
    return suffix[1:]


# ------------------------------------------------------------------ writing


def study_of(game_id: str, options: dict, rules: dict, budget, max_states, catalogue: bool) -> StudyIdentity:
    """A ``StudyIdentity`` with its options and rules as a file's fields hold them."""
    return StudyIdentity(game_id, json_text(options), json_text(rules), budget, max_states, catalogue)
