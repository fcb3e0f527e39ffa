"""A study's results file while the study runs: held by one study at a time (``FileLock``,
a lock file beside it) and appended to as the rows come (``open_sink``: CSV a line at a
time, Parquet rewritten at most every PARQUET_SAVE_EVERY seconds). Reading a file back and
checking it is ``files.py``'s.
"""

from __future__ import annotations

import contextlib
import csv
import os
import time
from pathlib import Path
from typing import Literal

from .files import format_of, read_records
from .table import COLUMNS, StudyError, write_parquet

try:
    import fcntl
except ImportError:  # Windows: a lock file made with O_EXCL instead
    fcntl = None  # type: ignore[assignment]  # the module, or None where there is none

PARQUET_SAVE_EVERY = 1.0  # seconds between rewrites of a Parquet results file


class FileLock:
    """Holds ``path``'s lock file (``path`` + ".lock") while a study writes ``path``, so that
    a second study on the same file is refused at once rather than solving every deal again.

    The lock is an ``fcntl.flock`` on the lock file, which the system releases when the
    process ends, even killed; the lock file is removed on release, and a study that locked
    a lock file removed meanwhile locks the new one instead. Without fcntl (Windows) the
    lock file is made with O_EXCL and removed on release (one left by a killed study is
    removed by hand: the message says so).
    """

    def __init__(self, path: Path):
        self.path = path.with_name(path.name + ".lock")
        self.fd: int | None = None

    def __enter__(self) -> FileLock:
        try:
            self.fd = self._flock() if fcntl is not None else self._exclusive()
        except OSError as err:  # a folder one may read but not write, say
            raise StudyError(f"cannot make the lock file {self.path}: {err.strerror or err}") from None
        return self

    def _flock(self) -> int:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise self._in_use() from None
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                return fd
            os.close(fd)  # removed by the study that held it: lock the new one

    def _exclusive(self) -> int:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise self._in_use(" (if no study runs, remove the lock file)") from None
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd

    def _in_use(self, hint: str = "") -> StudyError:
        return StudyError(
            f"{self.path.with_suffix('')} is being written by another study{self._holder()}: "
            f"wait for it to end, or give out= another file{hint}"
        )

    def _holder(self) -> str:
        try:
            pid = self.path.read_text().strip()
        except OSError:
            return ""
        return f" (process {pid})" if pid.isdigit() else ""

    def __exit__(self, *exc) -> Literal[False]:
        if self.fd is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            os.close(self.fd)
            self.fd = None
        return False


def open_sink(path: Path | None):
    """Where each result goes as it arrives: None (no file), or a sink of the file's format."""
    if path is None:
        return None
    return ParquetSink(path) if format_of(path) == "parquet" else CsvSink(path)


class CsvSink:
    """Appends each record to a CSV file as it comes (the header first, in a new file)."""

    def __init__(self, path: Path):
        new = not path.exists() or path.stat().st_size == 0
        # open for the sink's life, closed by close(): a study appends to it as results come
        self.file = open(path, "a", newline="", encoding="utf-8")  # noqa: SIM115
        self.writer = csv.writer(self.file, lineterminator="\n")
        if new:
            self.add(COLUMNS)

    def add(self, record) -> None:
        self.writer.writerow(record)
        self.file.flush()

    def close(self) -> None:
        self.file.close()


class ParquetSink:
    """Keeps the file's records and the new ones, and rewrites the Parquet file with all of
    them at most every PARQUET_SAVE_EVERY seconds, and when the study ends or stops."""

    def __init__(self, path: Path):
        self.path = path
        self.records = [r.fields for r in read_records(path)[0]] if path.exists() else []
        self.saved = time.monotonic()
        self.unsaved = 0

    def add(self, record) -> None:
        self.records.append(record)
        self.unsaved += 1
        if time.monotonic() - self.saved >= PARQUET_SAVE_EVERY:
            self.save()

    def save(self) -> None:
        write_parquet(self.path, self.records)
        self.saved, self.unsaved = time.monotonic(), 0

    def close(self) -> None:
        if self.unsaved or not self.path.exists():
            self.save()
