"""A study's results: one row per deal (``StudyRow``), the table of them (``StudyTable``), and
the table written down: its columns, as CSV text and as a typed Parquet file."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import SolwidgetError
from ..extras import require_extra

STATUSES = ("won", "lost", "unknown")
COLUMNS = (
    "game",
    "options",
    "deal",
    "status",
    "moves",
    "states",
    "seconds",
    "budget",
    "max_states",
    "rules",
    "difficulty",
)
PARQUET_TYPES = {
    "game": "string",
    "options": "string",
    "deal": "int64",
    "status": "string",
    "moves": "int64",
    "states": "int64",
    "seconds": "float64",
    "budget": "float64",
    "max_states": "int64",
    "rules": "string",
    "difficulty": "string",
}


class StudyError(SolwidgetError):
    """A study asked for with bad arguments, or one that cannot run (scheduler unreachable,
    a results file of other rules or in use by another study)."""


@dataclass(frozen=True)
class StudyRow:
    """One deal's result: ``moves`` is the winning line's length (None unless won), and
    ``difficulty`` its win's difficulty (``sw.difficulty``'s ``as_dict`` without its words),
    where the study recorded it (``study(..., difficulty=True)``), else None."""

    deal: int
    status: str
    moves: int | None
    states: int
    seconds: float
    difficulty: dict | None = field(default=None, hash=False)


@dataclass
class StudyTable:
    """The results of a study, one row per deal, in deal order (what ``study`` returns).

    A sequence of StudyRow (deal, status, moves, states, seconds, difficulty). ``counts()``,
    ``win_rate()`` and ``summary()`` sum it up; ``to_csv``, ``to_parquet`` and
    ``to_pandas`` hand it on; ``load_study(path)`` reads a results file back as one.
    ``rules`` are the game's rules in the words of ``sw.variant`` (``{"base": its catalogue game,
    change: value, ...}``), as the results file records them (empty where an older file
    did not).
    """

    game: str
    rows: list[StudyRow]
    budget: float | None = None
    max_states: int | None = None
    options: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)

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
        return (
            f"{self.game}, {_deals_text(self.deals)}, {self.budget_text()}: {c['won']} won, "
            f"{c['lost']} lost, {c['unknown']} unknown; win rate {rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%})"
        )

    def format(self, columns: Iterable[str] = ("deal", "status", "moves", "states", "seconds")) -> str:
        """The rows as an aligned text table."""
        columns = list(columns)
        cells = [columns] + [[_cell(getattr(row, c)) for c in columns] for row in self.rows]
        widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
        return "\n".join("  ".join(v.rjust(w) for v, w in zip(line, widths)) for line in cells)

    def __repr__(self) -> str:
        return f"<StudyTable {self.summary()}>"

    def records(self) -> list[list[str]]:
        """The rows as the results file's records (``COLUMNS``, each field as text)."""
        return [
            record(self.game, self.options, row, self.budget, self.max_states, self.rules)
            for row in self.rows
        ]

    def to_csv(self, path: str | os.PathLike | None = None) -> str:
        """The table as CSV text (the study's file format); written to ``path`` if given."""
        text = csv_text([COLUMNS, *self.records()])
        if path is not None:
            Path(path).write_text(text)
        return text

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Write the table as a Parquet file (the study's other file format; needs pyarrow).

        Raises MissingExtra without pyarrow: ``pip install "solwidget[study]"``.
        """
        write_parquet(Path(path), self.records())

    def to_pandas(self):
        """The rows as a pandas DataFrame (needs pandas, which solwidget does not require)."""
        try:
            import pandas
        except ImportError:
            raise StudyError("to_pandas needs pandas: pip install pandas") from None
        return pandas.DataFrame(
            [row.__dict__ for row in self.rows],
            columns=["deal", "status", "moves", "states", "seconds", "difficulty"],
        )


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (good near 0 % and 100 %, unlike p ± z·se)."""
    if n == 0:
        return 0.0, 1.0
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At 0 % or 100 % one end is p itself; rounding may put it a hair past p, so it is p.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


# ------------------------------------------------------------------ written down


def record(game_id: str, options: dict, row: StudyRow, budget, max_states, rules: dict) -> list[str]:
    """One row as the results file's fields, in ``COLUMNS`` order."""
    return [
        game_id,
        json_text(options),
        str(row.deal),
        row.status,
        "" if row.moves is None else str(row.moves),
        str(row.states),
        f"{row.seconds:.4f}",
        "" if budget is None else repr(float(budget)),
        "" if max_states is None else str(max_states),
        json_text(rules),
        json_text(row.difficulty or {}),
    ]


def json_text(data: dict) -> str:
    """A dict as the text of a field: JSON with sorted keys, empty when empty."""
    return json.dumps(data, sort_keys=True) if data else ""


def csv_text(lines) -> str:
    """Lines of fields as CSV text."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(lines)
    return buffer.getvalue()


def write_parquet(path: Path, records: list[list[str]]) -> None:
    """Write ``records`` (CSV's fields) as a typed Parquet file, atomically: a reader, or an
    interrupted rerun, sees the old file or the new one, never half of one."""
    require_extra("study", "pyarrow")
    import pyarrow
    import pyarrow.parquet

    columns = list(zip(*records)) if records else [()] * len(COLUMNS)
    arrays = [
        pyarrow.array([_parquet_value(name, value) for value in values], type=PARQUET_TYPES[name])
        for name, values in zip(COLUMNS, columns)
    ]
    partial = path.with_name(path.name + ".partial")
    pyarrow.parquet.write_table(pyarrow.Table.from_arrays(arrays, names=list(COLUMNS)), partial)
    os.replace(partial, path)


def _parquet_value(column: str, value):
    """A CSV field as its column's type; an empty field is null."""
    if value is None or value == "":
        return None
    kind = PARQUET_TYPES[column]
    return int(value) if kind == "int64" else float(value) if kind == "float64" else str(value)


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
