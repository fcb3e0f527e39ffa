"""The command line: `solwidget games`, `solwidget deal GAME N`, exit code 2 on bad input."""

import subprocess
import sys

import pytest

import solwidget as sw
from solwidget.cli import build_parser, main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:             # argparse's own errors
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


@pytest.mark.parametrize("argv, words", [
    (["deal", "nosuchgame", "1"], "unknown game 'nosuchgame'"),
    (["deal", "freecell", "0"], "deal number 0 is out of range"),
    (["deal", "freecell", "-5"], "deal number -5 is out of range"),
    (["deal", "freecell", "1" + "0" * 20], "is out of range"),
    (["deal", "freecell", "seven"], "a deal number is a whole number from 1 to 99999999999999999999, not 'seven'"),
    (["deal", "freecell", "1.5"], "a deal number is a whole number"),
    (["deal", "freecell"], "required"),
    (["shuffle"], "invalid choice"),
    ([], "required"),
])
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
    done = subprocess.run([sys.executable, "-m", "solwidget.cli", "deal", "nope", "1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "unknown game 'nope'" in done.stderr and done.stdout == ""
