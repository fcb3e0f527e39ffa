"""Studies: the same table on local processes, any executor and a real Dask cluster;
resumable after an interruption; clear errors for bad arguments."""

import contextlib
import csv
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from helpers import loopback_cluster

import solwidget as sw
from solwidget.cli import main
from solwidget.study import COLUMNS, StudyError, load_study, parse_deals, solve_deal, study, wilson_interval
from solwidget.variants import rules_of

GAME = "freecell"
DEALS = "1-6"
MAX_STATES = 300  # a state budget, not seconds: results do not depend on the machine


def outcome(table):
    """Everything in a table but the seconds, which differ from run to run."""
    return [(row.deal, row.status, row.moves, row.states) for row in table]


def records(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def deals_in(path):
    """The deal numbers in a results file, read without solwidget (csv, or pyarrow itself)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet

        return sorted(pyarrow.parquet.read_table(path).column("deal").to_pylist())
    return sorted(int(r["deal"]) for r in records(path))


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    """The study run straight through on local processes, with its results file."""
    out = tmp_path_factory.mktemp("straight") / "freecell.csv"
    table = study(GAME, DEALS, budget=None, max_states=MAX_STATES, out=out, progress=False, workers=2)
    return table, out


def worker_pids(pid):
    """The child processes of ``pid`` (Linux /proc), by its threads: a thread that ends
    between the listing and the reading has none left."""
    tasks, pids = f"/proc/{pid}/task", set()
    for task in os.listdir(tasks):
        with (
            contextlib.suppress(FileNotFoundError, ProcessLookupError),
            open(f"{tasks}/{task}/children") as f,
        ):
            pids.update(int(c) for c in f.read().split())
    return pids


def workers_end(pids, within=10.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        alive = {p for p in pids if os.path.exists(f"/proc/{p}") and "zombie" not in _state(p)}
        if not alive:
            return True
        time.sleep(0.05)
    for p in pids:  # do not leave them behind even when the test fails
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)
    return False


def _state(pid):
    try:
        return open(f"/proc/{pid}/status").read().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


class CountingExecutor(ThreadPoolExecutor):
    """Remembers which deals it was asked to solve."""

    def __init__(self):
        super().__init__(max_workers=2)
        self.deals = []

    def submit(self, fn, *args, **kwargs):
        self.deals.append(args[2])
        return super().submit(fn, *args, **kwargs)


class _ReadFuture(Future):
    """A future that tells ``on_read`` when its result is read."""

    def __init__(self, on_read):
        super().__init__()
        self.on_read = on_read

    def result(self, timeout=None):
        try:
            return super().result(timeout)
        finally:
            self.on_read()


class InterruptedExecutor(CountingExecutor):
    """Solves the first ``k`` deals it gets, then acts as if Ctrl-C was pressed once the
    study has read their results (not merely once they are done: a study reads finished
    futures in no set order, and a quick solver finishes all three before it reads any)."""

    def __init__(self, k):
        super().__init__()
        self.k = k
        self.reads = 0
        self.lock = threading.Lock()
        self.all_read = threading.Event()

    def submit(self, fn, *args, **kwargs):
        if len(self.deals) < self.k:
            outer = _ReadFuture(self._read)
            super().submit(fn, *args, **kwargs).add_done_callback(lambda inner: _copy(inner, outer))
            return outer
        self.deals.append(args[2])
        return ThreadPoolExecutor.submit(self, self._interrupt)

    def _read(self):
        with self.lock:
            self.reads += 1
            if self.reads >= self.k:
                self.all_read.set()

    def _interrupt(self):
        self.all_read.wait()
        raise KeyboardInterrupt


def _copy(inner, outer):
    if inner.exception() is not None:
        outer.set_exception(inner.exception())
    else:
        outer.set_result(inner.result())


def test_the_table_is_one_row_per_deal_in_deal_order(straight):
    table, out = straight
    assert table.deals == [1, 2, 3, 4, 5, 6]
    assert table.counts()["won"] >= 1
    for row in table:
        assert row.status in ("won", "lost", "unknown")
        assert 0 < row.states <= MAX_STATES + 100  # the solver may finish the batch it started
        assert (row.moves is not None) == (row.status == "won")
    assert sorted(int(r["deal"]) for r in records(out)) == table.deals


def test_a_won_row_is_the_solvers_own_answer(straight):
    table, _ = straight
    row = next(row for row in table if row.status == "won")
    result = sw.solve(sw.load_game(GAME).deal(row.deal), max_states=MAX_STATES)
    assert (result.status, len(result.moves), result.progress.expanded) == (row.status, row.moves, row.states)


def test_any_executor_gives_the_same_table(straight):
    with CountingExecutor() as pool:
        table = study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, progress=False)
    assert outcome(table) == outcome(straight[0])
    assert sorted(pool.deals) == [1, 2, 3, 4, 5, 6]


def test_a_dask_cluster_gives_the_same_table_as_local_processes(straight):
    """A real scheduler on loopback TCP and two worker processes (each with a nanny)."""
    with loopback_cluster(2) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        table = study(
            GAME,
            DEALS,
            budget=None,
            max_states=MAX_STATES,
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    assert outcome(table) == outcome(straight[0])


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_an_interrupted_study_resumed_gives_the_same_table(straight, tmp_path, suffix):
    out = tmp_path / f"study{suffix}"
    with pytest.raises(KeyboardInterrupt), InterruptedExecutor(k=3) as pool:
        study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=out, progress=False)
    assert deals_in(out) == [1, 2, 3]  # every result that came in was kept
    with CountingExecutor() as pool:
        table = study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=out, progress=False)
    assert sorted(pool.deals) == [4, 5, 6]  # the deals already done were not solved again
    assert outcome(table) == outcome(straight[0])
    assert deals_in(out) == [1, 2, 3, 4, 5, 6]
    assert outcome(load_study(out)) == outcome(straight[0])
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_a_killed_cli_study_resumed_gives_the_same_table(straight, tmp_path):
    out = tmp_path / "killed.csv"
    command = [
        sys.executable,
        "-m",
        "solwidget.cli",
        "study",
        GAME,
        "--deals",
        DEALS,
        "--max-states",
        str(MAX_STATES),
        "--budget",
        "600",
        "--workers",
        "1",
        "--out",
        str(out),
        "--quiet",
    ]
    child = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.poll() is None:
        if out.exists() and len(records(out)) >= 2:
            break
        time.sleep(0.01)
    workers = worker_pids(child.pid)
    child.send_signal(signal.SIGKILL)  # the study only: its workers must not linger
    child.wait()
    assert workers_end(workers), "the study's worker processes outlived it"
    assert (
        len(records(out)) >= 2
    )  # usually part way; a fast machine may finish first, which still checks the file
    with open(out, "a") as f:
        f.write(f"{GAME},,5,wo")  # a line cut short by the kill
    table = study(GAME, DEALS, budget=600, max_states=MAX_STATES, out=out, progress=False, workers=2)
    assert outcome(table) == outcome(straight[0])
    assert sorted(int(r["deal"]) for r in records(out)) == [1, 2, 3, 4, 5, 6]


def test_ctrl_c_stops_a_cli_study_at_once_and_keeps_its_rows(tmp_path):
    out = tmp_path / "interrupted.csv"
    # seconds of work, so that the Ctrl-C comes mid-study
    command = [
        sys.executable,
        "-m",
        "solwidget.cli",
        "study",
        "interlock",
        "--deals",
        "1-60",
        "--budget",
        "none",
        "--max-states",
        "3000",
        "--workers",
        "2",
        "--out",
        str(out),
        "--quiet",
    ]
    # a terminal's Ctrl-C: the child hears SIGINT even where this run ignores it (a shell
    # starts background jobs with SIGINT ignored, and children inherit that)
    child = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and len(records(out)) >= 1):
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130 and time.monotonic() - start < 10
    assert "study interrupted; the deals finished are in" in err and "Traceback" not in err
    assert 1 <= len(records(out)) < 60


def test_a_finished_study_rerun_solves_nothing(straight):
    table, out = straight
    with CountingExecutor() as pool:
        again = study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=out, progress=False)
    assert pool.deals == []
    assert again == table  # seconds included: the rows come from the file


def test_a_smaller_range_reads_only_its_deals_from_the_file(straight):
    table, out = straight
    part = study(GAME, "2-4", budget=None, max_states=MAX_STATES, out=out, progress=False)
    assert part.rows == table.rows[1:4]


def test_an_odd_time_budget_resumes_from_its_own_file(tmp_path):
    out = tmp_path / "odd.csv"
    first = study(GAME, "1-2", budget=123.456789012, max_states=MAX_STATES, out=out, progress=False)
    with CountingExecutor() as pool:
        again = study(
            GAME, "1-2", budget=123.456789012, max_states=MAX_STATES, out=out, executor=pool, progress=False
        )
    assert pool.deals == [] and again == first


def test_the_csv_round_trips(straight, tmp_path):
    table, _ = straight
    path = tmp_path / "copy.csv"
    table.to_csv(path)
    assert load_study(path) == table
    with open(path, newline="", encoding="utf-8") as file:
        assert tuple(next(csv.reader(file))) == COLUMNS


def test_the_parquet_file_is_typed_and_round_trips(straight, tmp_path):
    pyarrow_parquet = pytest.importorskip("pyarrow.parquet")
    table, _ = straight
    path = tmp_path / "copy.parquet"
    table.to_parquet(path)
    assert load_study(path) == table
    written = pyarrow_parquet.read_table(path)
    assert tuple(written.column_names) == COLUMNS
    assert {str(written.schema.field(c).type) for c in ("deal", "moves", "states", "max_states")} == {"int64"}
    assert written.column("deal").to_pylist() == table.deals
    assert written.column("moves").to_pylist() == [row.moves for row in table]  # None where not won
    assert written.column("budget").null_count == len(table)  # no time limit


@pytest.mark.parametrize("name", ["results.txt", "results", "results.parquet.gz", "results.csv.bak"])
def test_a_results_file_with_another_suffix_is_refused(tmp_path, name, capsys):
    with pytest.raises(
        StudyError, match=r"a study file is \.csv or \.parquet \(its suffix names the format\)"
    ):
        study(GAME, "1-2", budget=None, max_states=MAX_STATES, out=tmp_path / name, progress=False)
    argv = ["study", GAME, "--deals", "1-2", "--max-states", str(MAX_STATES), "--out", str(tmp_path / name)]
    assert main(argv) == 2
    assert f"not '{tmp_path / name}'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_parquet_study_without_pyarrow_says_how_to_install_it(tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(sw.MissingExtra, match=r'pip install "solwidget\[study\]"'):
        study(GAME, "1-2", budget=None, max_states=MAX_STATES, out=tmp_path / "x.parquet", progress=False)
    assert list(tmp_path.iterdir()) == []


def test_the_worker_reports_one_deal():
    row = solve_deal(GAME, {}, 1, None, MAX_STATES)
    assert row.deal == 1 and row.status in ("won", "lost", "unknown") and row.states > 0


@pytest.mark.parametrize(
    "deals, numbers",
    [
        ("1-5", [1, 2, 3, 4, 5]),
        ("7", [7]),
        ("1-3,10,12-13", [1, 2, 3, 10, 12, 13]),
        (range(4, 7), [4, 5, 6]),
        ([3, 1, 3], [1, 3]),
        (9, [9]),
    ],
)
def test_deal_ranges(deals, numbers):
    assert list(parse_deals(deals)) == numbers


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"game": "no_such_game"}, "unknown game 'no_such_game'"),
        ({"deals": "5-1"}, "deal range '5-1' is reversed"),
        ({"deals": ""}, "no deals"),
        ({"deals": range(3, 3)}, "no deals"),
        ({"deals": "1-x"}, "cannot read deals"),
        ({"deals": "0-3"}, "out of range"),
        ({"budget": 0}, "budget must be a positive, finite number of seconds"),
        ({"budget": -5}, "budget must be a positive, finite number of seconds"),
        ({"max_states": 0}, "max_states must be a whole number >= 1"),
        ({"workers": 0}, "workers must be a whole number >= 1"),
        ({"executor": "threads"}, "executor must be a concurrent.futures.Executor"),
        ({"executor": ThreadPoolExecutor(1), "scheduler": "tcp://127.0.0.1:1"}, "not both"),
        ({"out": "."}, "is a folder"),
    ],
)
def test_bad_arguments_get_clear_errors(kwargs, words, tmp_path):
    args = {
        "game": GAME,
        "deals": "1-3",
        "budget": 1.0,
        "out": tmp_path / "unused.csv",
        "progress": False,
        **kwargs,
    }
    with pytest.raises(sw.SolwidgetError, match=words):
        study(args.pop("game"), args.pop("deals"), args.pop("budget"), **args)
    assert not (tmp_path / "unused.csv").exists()


def test_an_unreachable_scheduler_fails_quickly_and_clearly():
    pytest.importorskip("distributed")
    start = time.monotonic()
    with pytest.raises(StudyError, match=re.escape("cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'")):
        study(GAME, "1-2", 1.0, scheduler="tcp://127.0.0.1:9", progress=False)
    assert time.monotonic() - start < 15


def test_a_server_that_is_not_a_dask_scheduler_is_refused_clearly():
    pytest.importorskip("distributed")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer_nonsense():
        with server:
            connection, _ = server.accept()
            with connection:
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4)

    threading.Thread(target=answer_nonsense, daemon=True).start()
    start = time.monotonic()
    with pytest.raises(StudyError, match=f"cannot connect to a Dask scheduler at 'tcp://127.0.0.1:{port}'"):
        study(GAME, "1-2", 1.0, scheduler=f"tcp://127.0.0.1:{port}", progress=False)
    assert time.monotonic() - start < 15


def test_a_file_of_another_study_is_refused(straight, tmp_path):
    _, out = straight
    with pytest.raises(StudyError, match="holds results of another study"):
        study(GAME, DEALS, budget=None, max_states=MAX_STATES + 1, out=out, progress=False)
    with pytest.raises(StudyError, match="holds results of another study"):
        study("reversed_solitaire", DEALS, budget=None, max_states=MAX_STATES, out=out, progress=False)
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(StudyError, match="not a solwidget study file"):
        study(GAME, DEALS, budget=None, max_states=MAX_STATES, out=other, progress=False)


def test_the_cli_runs_and_resumes_a_study(straight, tmp_path, capsys):
    out = tmp_path / "cli.csv"
    argv = ["study", GAME, "--deals", DEALS, "--max-states", str(MAX_STATES), "--out", str(out), "--quiet"]
    assert main(argv + ["--workers", "2"]) == 0
    summary = capsys.readouterr().out
    won = straight[0].counts()["won"]
    assert summary.startswith(f"freecell, deals 1-6, {MAX_STATES:,} states per deal: {won} won")
    assert main(argv + ["--rows"]) == 0
    assert capsys.readouterr().out.split("\n")[0].split() == ["deal", "status", "moves", "states", "seconds"]
    assert main(["study", GAME, "--deals", "9-2"]) == 2
    assert "deal range '9-2' is reversed" in capsys.readouterr().err
    assert main(["study", GAME, "--deals", "1-2", "--budget", "none", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("freecell, deals 1-2, 10 s per deal")


def test_the_cli_runs_and_resumes_a_parquet_study(straight, tmp_path, capsys):
    out = tmp_path / "cli.parquet"
    argv = ["study", GAME, "--max-states", str(MAX_STATES), "--budget", "none", "--out", str(out), "--quiet"]
    assert main(argv + ["--deals", "1-4", "--workers", "2"]) == 0
    assert deals_in(out) == [1, 2, 3, 4]
    first = load_study(out)
    assert main(argv + ["--deals", DEALS, "--workers", "1"]) == 0
    assert deals_in(out) == [1, 2, 3, 4, 5, 6]
    again = load_study(out)
    assert again.rows[:4] == first.rows  # read back from the file, not solved again
    assert outcome(again) == outcome(straight[0])
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"freecell, deals 1-6, {MAX_STATES:,} states")


def test_the_cli_without_a_time_limit_matches_the_api(straight, tmp_path, capsys):
    out = tmp_path / "states_only.csv"
    argv = [
        "study",
        GAME,
        "--deals",
        DEALS,
        "--budget",
        "none",
        "--max-states",
        str(MAX_STATES),
        "--out",
        str(out),
        "--quiet",
        "--workers",
        "2",
    ]
    assert main(argv) == 0
    assert outcome(load_study(out)) == outcome(straight[0]) and load_study(out).budget is None
    assert capsys.readouterr().out.startswith(f"freecell, deals 1-6, {MAX_STATES:,} states per deal")


def test_wilson_interval_holds_its_rate_even_at_0_and_100_percent():
    for n in (1, 7, 100, 2000, 9999, 10000):
        for k in range(n + 1) if n < 100 else (0, 1, n - 1, n):
            low, high = wilson_interval(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0, (k, n, low, high)


def test_wilson_interval_matches_published_values():
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_win_rate_and_summary(straight):
    table, _ = straight
    counts = table.counts()
    rate, low, high = table.win_rate()
    assert rate == counts["won"] / 6 and low <= rate <= high
    assert table.summary().startswith(
        f"freecell, deals 1-6, {MAX_STATES:,} states per deal: {counts['won']} won"
    )


def test_plots_save_pngs(straight, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from solwidget import plots

    table, _ = straight
    fig = plots.win_rate_plot({"FreeCell": table}, path=tmp_path / "docs" / "win.png")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["FreeCell"]
    plots.solve_time_plot([table, table], path=tmp_path / "times.png")
    fig = plots.solution_length_plot({"FreeCell": table}, path=tmp_path / "lengths.png")
    won = sorted(row.moves for row in table if row.status == "won")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["FreeCell"]
    assert f"median {won[(len(won) - 1) // 2]}" in fig.axes[0].texts[0].get_text()
    for name in ("docs/win.png", "times.png", "lengths.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_to_pandas_needs_pandas_only_when_called(straight):
    table, _ = straight
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(StudyError, match="pip install pandas"):
            table.to_pandas()
    else:
        frame = table.to_pandas()
        assert list(frame.columns) == ["deal", "status", "moves", "states", "seconds"]
        assert list(frame["deal"]) == table.deals


# ------------------------------------------------------------------ rules, rows and writers
def cli_study(*argv):
    """The command line in a fresh interpreter (a variant file is read anew each time)."""
    command = [sys.executable, "-m", "solwidget.cli", "study", *argv, "--workers", "1", "--quiet"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_a_study_is_never_resumed_under_other_rules(tmp_path):
    rules = tmp_path / "bakers.toml"
    rules.write_text(
        'id = "bakers_cells"\nname = "Baker\'s cells"\nbase = "freecell"\nbuild = "down in suit"\ncells = 4\n'
    )
    out = tmp_path / "bakers.csv"
    argv = [str(rules), "--deals", "1-3", "--max-states", str(MAX_STATES), "--out", str(out)]
    assert cli_study(*argv).returncode == 0
    before = out.read_bytes()
    rules.write_text(rules.read_text().replace("cells = 4", "cells = 0"))
    edited = cli_study(*argv[:2], "1-6", *argv[3:])
    assert edited.returncode == 2
    assert (
        f"{out} holds results of bakers_cells under other rules (cells: 4 in the file, 0 now): "
        "use another file for these rules"
    ) in edited.stderr
    assert out.read_bytes() == before
    assert json.loads(records(out)[0]["rules"]) == {
        "base": "freecell",
        "build": "down in suit",
        "cells": 4,
        "empty": "any",
        "foundations": "ace up",
        "moves": "supermove",
        "piles": 8,
    }


def test_a_deal_twice_in_a_file_is_refused_naming_both_lines(straight, tmp_path):
    _, out = straight
    twice = tmp_path / "twice.csv"
    lines = out.read_text().splitlines(keepends=True)
    twice.write_text("".join(lines[:4] + lines[2:3]))  # line 3 again, on line 5
    deal = records(out)[1]["deal"]
    for call in (
        lambda: load_study(twice),
        lambda: study(GAME, DEALS, budget=None, max_states=MAX_STATES, out=twice, progress=False),
    ):
        with pytest.raises(StudyError, match=f"{twice}, line 5: deal {deal} is there already \\(line 3\\)"):
            call()
    assert twice.read_text() == "".join(lines[:4] + lines[2:3])


class BlockingExecutor(CountingExecutor):
    """Solves nothing until ``release`` is set."""

    def __init__(self):
        super().__init__()
        self.started, self.release = threading.Event(), threading.Event()

    def submit(self, fn, *args, **kwargs):
        self.started.set()
        self.deals.append(args[2])
        return ThreadPoolExecutor.submit(self, self._later, fn, args)

    def _later(self, fn, args):
        self.release.wait(60)
        return fn(*args)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_second_study_on_a_file_in_use_is_refused(straight, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"shared{suffix}"
    with BlockingExecutor() as pool:
        first = ThreadPoolExecutor(1).submit(
            study, GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=out, progress=False
        )
        assert pool.started.wait(30)
        with CountingExecutor() as other:
            with pytest.raises(
                StudyError,
                match=f"{out} is being written by another study \\(process "
                f"{os.getpid()}\\): wait for it to end",
            ):
                study(
                    GAME, DEALS, budget=None, max_states=MAX_STATES, executor=other, out=out, progress=False
                )
            assert other.deals == []
        pool.release.set()
        assert outcome(first.result(60)) == outcome(straight[0])
    assert sorted(pool.deals) == [1, 2, 3, 4, 5, 6] and deals_in(out) == [1, 2, 3, 4, 5, 6]
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # the lock file is gone
    again = study(GAME, DEALS, budget=None, max_states=MAX_STATES, out=out, progress=False)
    assert outcome(again) == outcome(straight[0])


OLD_HEADER = "game,options,deal,status,moves,states,seconds,budget,max_states\n"


def test_a_file_written_without_the_rules_is_read_and_resumed_for_a_catalogue_game(straight, tmp_path):
    table, _ = straight
    old = tmp_path / "old.csv"
    old.write_text(
        OLD_HEADER
        + "".join(
            f"{GAME},,{row.deal},{row.status},{row.moves or ''},{row.states},"
            f"{row.seconds:.4f},,{MAX_STATES}\n"
            for row in table.rows[:3]
        )
    )
    assert outcome(load_study(old)) == outcome(table)[:3] and load_study(old).rules == {}
    with CountingExecutor() as pool:
        again = study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=old, progress=False)
    assert sorted(pool.deals) == [4, 5, 6] and outcome(again) == outcome(table)
    assert list(records(old)[0]) == list(COLUMNS)  # written again, with the rules
    assert load_study(old).rules == rules_of(sw.load_game(GAME)) == table.rules


def test_a_variants_file_without_the_rules_is_not_resumed(tmp_path):
    sw.variant("freecell", id="old_bakers", name="Old Baker's", build="down in suit")
    old = tmp_path / "old_bakers.csv"
    old.write_text(OLD_HEADER + f"old_bakers,,1,won,90,100,0.1000,,{MAX_STATES}\n")
    assert load_study(old).deals == [1]
    with pytest.raises(
        StudyError,
        match="does not record the rules its results were found under, and old_bakers is a variant",
    ):
        study("old_bakers", "1-2", budget=None, max_states=MAX_STATES, out=old, progress=False)


@pytest.mark.parametrize(
    "limits, passed",
    [
        ({}, (10.0, None)),
        ({"max_states": 500}, (None, 500)),
        ({"budget": 2.5}, (2.5, None)),
        ({"budget": 2.5, "max_states": 500}, (2.5, 500)),
    ],
)
def test_the_limits_given_are_the_only_ones(limits, passed):
    calls = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            calls.append(args[3:5])
            return super().submit(solve_deal, args[0], args[1], args[2], None, 50)

    with Recording(1) as pool:
        table = study(GAME, "1-2", executor=pool, progress=False, **limits)
    assert calls == [passed, passed]
    assert (table.budget, table.max_states) == passed


WITHOUT_DIFFICULTY = ",".join(COLUMNS[:-1]) + "\n"


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_won_deals_record_their_difficulty_and_it_round_trips(tmp_path, suffix):
    out = tmp_path / f"levels{suffix}"
    table = study(
        GAME, "1-3", budget=None, max_states=MAX_STATES, out=out, progress=False, workers=1, difficulty=True
    )
    game = sw.load_game(GAME)
    assert table.counts()["won"] >= 2
    for row in table:
        if row.status != "won":
            assert row.difficulty is None
            continue
        start = game.deal(row.deal)
        win = sw.solve(start, max_states=MAX_STATES).moves
        expected = sw.difficulty(start, win).as_dict()
        assert row.difficulty == {k: v for k, v in expected.items() if k != "text"}
    assert [row.difficulty for row in load_study(out)] == [row.difficulty for row in table]
    assert all(
        row.difficulty is None
        for row in study(GAME, "1-3", budget=None, max_states=MAX_STATES, progress=False, workers=1)
    )  # off by default


def test_a_deal_not_won_records_no_difficulty():
    row = solve_deal(GAME, {}, 1, None, 5, None, True)
    assert row.status == "unknown" and row.difficulty is None


def test_a_file_without_the_difficulty_column_is_read_and_resumed(straight, tmp_path):
    table, _ = straight
    old = tmp_path / "old.csv"
    rules = json.dumps(rules_of(sw.load_game(GAME)), sort_keys=True)
    lines = [
        [
            GAME,
            "",
            row.deal,
            row.status,
            row.moves or "",
            row.states,
            f"{row.seconds:.4f}",
            "",
            MAX_STATES,
            rules,
        ]
        for row in table.rows[:3]
    ]
    with open(old, "w", newline="") as f:
        f.write(WITHOUT_DIFFICULTY)
        csv.writer(f, lineterminator="\n").writerows(lines)
    assert outcome(load_study(old)) == outcome(table)[:3]
    assert all(row.difficulty is None for row in load_study(old))
    with CountingExecutor() as pool:
        again = study(GAME, DEALS, budget=None, max_states=MAX_STATES, executor=pool, out=old, progress=False)
    assert sorted(pool.deals) == [4, 5, 6] and outcome(again) == outcome(table)
    assert list(records(old)[0]) == list(COLUMNS)  # written again, with the column
    assert outcome(load_study(old)) == outcome(table)


def test_a_bad_difficulty_flag_or_field_is_refused(tmp_path, straight):
    with pytest.raises(StudyError, match="difficulty"):
        study(GAME, "1", max_states=MAX_STATES, difficulty="yes", progress=False)
    bad = tmp_path / "bad.csv"
    text = straight[1].read_text().splitlines()
    bad.write_text("\n".join([text[0], text[1] + '"[1, 2]"']) + "\n")
    with pytest.raises(StudyError, match="field 'difficulty'"):
        load_study(bad)


def test_the_cli_records_difficulty_when_asked(tmp_path, capsys):
    out = tmp_path / "levels.csv"
    assert (
        main(
            [
                "study",
                GAME,
                "--deals",
                "1-3",
                "--max-states",
                str(MAX_STATES),
                "--workers",
                "1",
                "--difficulty",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    rows = load_study(out).rows
    assert any(row.difficulty for row in rows)
    assert all((row.difficulty is not None) == (row.status == "won") for row in rows)
