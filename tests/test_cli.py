"""The command line: `solwidget games`, `solwidget deal GAME N`, exit code 2 on bad input,
`--version`, a quiet end in a closed pipe, `solve`'s progress bar."""

import argparse
import os
import subprocess
import sys
from importlib import metadata

import pytest

import solwidget as sw
from solwidget.cli import EXIT_BROKEN_PIPE, _advance, _solve_bar, build_parser, main
from solwidget.solver import Progress


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game_on_one_line_each(capsys):
    code, out, err = run(capsys, "games")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == sw.games()
    for line, game_id in zip(lines, sw.games()):
        assert sw.load_game(game_id).describe() in line
    assert any(line.startswith("freecell ") and "Microsoft FreeCell" in line for line in lines)


def test_deal_prints_the_text_board(capsys):
    code, out, err = run(capsys, "deal", "freecell", "1")
    assert code == 0 and err == ""
    assert out == str(sw.load_game("freecell").deal(1)) + "\n"
    assert "t0: JD KD 2S 4C 3S 6D 6S" in out


def test_deal_of_a_stock_game_shows_the_stock_as_a_count(capsys):
    code, out, _ = run(capsys, "deal", "triple_interchange", "1")
    assert code == 0 and "stock: 74 cards" in out and "[" not in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["deal", "nosuchgame", "1"], "unknown game 'nosuchgame'"),
        (["deal", "freecell", "0"], "deal number 0 is out of range"),
        (["deal", "freecell", "-5"], "deal number -5 is out of range"),
        (["deal", "freecell", "1" + "0" * 20], "is out of range"),
        (
            ["deal", "freecell", "seven"],
            "a deal number is a whole number from 1 to 99999999999999999999, not 'seven'",
        ),
        (["deal", "freecell", "1.5"], "a deal number is a whole number"),
        (["deal", "freecell"], "required"),
        (["shuffle"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_input_exits_with_2_and_a_message_on_stderr(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert words in err


def test_the_parser_is_extended_by_adding_subcommands():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert {"games", "deal"} <= set(sub.choices)


def test_the_installed_entry_point_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "solwidget.cli", "deal", "nope", "1"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "unknown game 'nope'" in done.stderr and done.stdout == ""


def test_version_prints_the_packages_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out == f"solwidget {sw.__version__}\n"
    assert sw.__version__ == metadata.version("solwidget")


@pytest.mark.parametrize(
    "argv", [["games"], ["deal", "triple_interchange", "1"], ["solve", "freecell", "1", "--quiet"]]
)
def test_output_into_a_closed_pipe_ends_quietly(argv):
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before a line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "solwidget", *argv],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == EXIT_BROKEN_PIPE


def test_a_pipe_closed_after_the_first_line_ends_quietly():
    """``solwidget games | head -1``, with a real pipe: the reader takes one line and leaves."""
    process = subprocess.Popen(
        [sys.executable, "-m", "solwidget", "games"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    process.wait(timeout=60)
    assert first.split()[0] == sw.games()[0]
    assert stderr == "" and process.returncode in (0, EXIT_BROKEN_PIPE)


def bar_args(**given):
    defaults = {"game": "mutated", "number": 745, "max_states": 1_000_000, "max_seconds": None}
    return argparse.Namespace(**{**defaults, **given})


def test_solves_bar_counts_seconds_when_max_seconds_is_given():
    bar = _solve_bar(bar_args(max_seconds=2.5))
    _advance(bar, Progress(expanded=1234, elapsed=0.75, best_score=40.0), by_seconds=True)
    assert (bar.total, bar.unit, bar.n) == (2.5, " s", 0.75)
    assert "1,234 states" in bar.postfix and "best 40" in bar.postfix
    _advance(bar, Progress(expanded=9000, elapsed=2.61), by_seconds=True)
    assert bar.n == 2.5  # the last step may overrun the budget a little
    bar.close()


def test_solves_bar_counts_states_without_max_seconds():
    bar = _solve_bar(bar_args(max_states=5000))
    _advance(bar, Progress(expanded=1234, elapsed=0.75), by_seconds=False)
    assert (bar.total, bar.unit, bar.n) == (5000, " states", 1234)
    bar.close()


def test_solve_with_max_seconds_shows_seconds_on_stderr():
    done = subprocess.run(
        [sys.executable, "-m", "solwidget", "solve", "mutated", "745", "--max-seconds", "1.5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert "/1.5 s" in done.stderr and "states" in done.stderr
    assert done.stdout.startswith("mutated deal 745: ")


def test_python_m_solwidget_is_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "solwidget", "deal", "freecell", "1"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == str(sw.load_game("freecell").deal(1)) + "\n"
