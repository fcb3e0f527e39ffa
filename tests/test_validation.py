"""Every input checked at the door: one test for each way a bad value used to get past the
public API (a Python error instead of the project's, or a silent misreading), and the
same rules and words wherever a value comes in (the API, a study, the command line)."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import solwidget as sw
from solwidget.cli import main
from solwidget.solver.profile import profile_for
from solwidget.study import StudyError, load_study, parse_deals, study
from solwidget.widget import sync
from solwidget.widget.measure import SyncRecorder

FREECELL_1 = sw.load_game("freecell").deal(1)


def run_cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ solver budgets
@pytest.mark.parametrize(
    "budget, value",
    [
        ("max_states", float("nan")),
        ("max_states", "100"),
        ("max_states", -5),
        ("max_states", True),
        ("max_seconds", "2"),
        ("max_seconds", float("nan")),
        ("max_seconds", float("inf")),
        ("max_seconds", -1),
        ("max_seconds", False),
    ],
)
@pytest.mark.parametrize("entry", ["solve", "Solver", "hint"])
def test_a_bad_budget_is_refused_by_name_before_any_search(entry, budget, value):
    call = {"solve": sw.solve, "Solver": sw.Solver, "hint": sw.hint}[entry]
    with pytest.raises(sw.InvalidArgument) as err:
        call(FREECELL_1, **{budget: value})
    message = str(err.value)
    assert message.startswith(f"{budget} must be ") and message.endswith(f"not {value!r}")


@pytest.mark.parametrize(
    "portfolio, words",
    [
        (5, "portfolio must be a list of 1 to 64 searches"),
        (
            [{"depth_weight": "x"}],
            "portfolio[0]['depth_weight'] must be a finite number from 0 to 1e+06, not 'x'",
        ),
        ([], "portfolio must be a list"),
        ({"depth_weight": 0.5}, "portfolio must be a list"),
        ([{"depth_weight": 0.5}, "greedy"], "portfolio[1] must be a dict"),
        ([{"explore": 1.0}], "portfolio[0]['explore'] must be a share from 0 to below 1"),
        ([{"weights": {"cells": float("nan")}}], "portfolio[0]['weights']['cells'] must be a finite number"),
        ([{"weights": {"luck": 1.0}}], "weights has no weight 'luck'"),
        ([{"weights": {3: 1.0}}], "portfolio[0]['weights'] has no weight 3"),
        ([{"depth": 1}], "portfolio[0] has no option 'depth'"),
    ],
)
def test_a_bad_portfolio_is_refused_by_name(portfolio, words):
    with pytest.raises(sw.InvalidArgument) as err:
        sw.solve(FREECELL_1, portfolio=portfolio)
    assert words in str(err.value)


HOSTILE_OPTIONS = [
    ({"table_size": 10**30}, "table_size must be a whole number from 1 to 4,294,967,296"),
    ({"table_size": 0}, "table_size must be a whole number from 1 to 4,294,967,296"),
    ({"frontier_size": 2**63}, "frontier_size must be a whole number from 1 to 4,294,967,296"),
    ({"depth_weight": 1e308}, "depth_weight must be a finite number from 0 to 1e+06"),
    (
        {"portfolio": [{"depth_weight": 1e308, "explore": 0.5}]},
        "portfolio[0]['depth_weight'] must be a finite number from 0 to 1e+06",
    ),
    ({"weights": {"home": 1e308}}, "weights['home'] must be a finite number from 0 to 1e+06"),
    ({"shorten_wins": 1}, "shorten_wins must be True, False or None (the game's default)"),
    (
        {"portfolio": [{"weights": {"buried": 2e6}, "explore": 0.3}]},
        "portfolio[0]['weights']['buried'] must be a finite number from 0 to 1e+06",
    ),
]


@pytest.mark.parametrize("python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize("entry", ["solve", "Solver", "hint"])
@pytest.mark.parametrize("options, words", HOSTILE_OPTIONS)
def test_memory_sizes_and_weights_beyond_their_bounds_are_refused_by_name(options, words, entry, python):
    # a C search took them as a bare OverflowError (or cast an infinite priority to an
    # integer), the Python one as an OverflowError in the middle of the search
    state = sw.load_game("triple_interchange").deal(1)
    call = {"solve": sw.solve, "Solver": sw.Solver, "hint": sw.hint}[entry]
    with pytest.MonkeyPatch.context() as patch:
        if python:
            patch.setattr(type(profile_for(state.game)), "compiled_search", lambda self, *args: None)
        with pytest.raises(sw.InvalidArgument) as err:
            call(state, max_states=3000, **options)
    assert str(err.value).startswith(words)


@pytest.mark.parametrize(
    "options",
    [
        {"table_size": 4_294_967_296, "frontier_size": 4_294_967_296},
        {"depth_weight": 1e6},
        {"weights": {"home": 1e6}},
        {"portfolio": [{"depth_weight": 1e6, "explore": 0.5, "weights": {"down": 1e6}}]},
    ],
)
def test_memory_sizes_and_weights_at_their_bounds_still_search(options):
    result = sw.solve(sw.load_game("triple_interchange").deal(1), max_states=2000, **options)
    assert result.status in ("won", "unknown")


def test_a_good_budget_still_solves():
    result = sw.solve(FREECELL_1, max_states=2e4, max_seconds=60, portfolio=[{"depth_weight": 0.5}])
    assert result.status == "won"


def test_the_cli_refuses_a_bad_budget_in_the_words_of_the_api_and_of_study(capsys):
    solve_code, _, solve_err = run_cli(capsys, "solve", "freecell", "1", "--max-states", "-5", "--quiet")
    study_code, _, study_err = run_cli(
        capsys, "study", "freecell", "--deals", "1-3", "--max-states", "-5", "--quiet"
    )
    with pytest.raises(sw.InvalidArgument) as api:
        sw.solve(FREECELL_1, max_states=-5)
    assert solve_code == study_code == 2
    assert solve_err == study_err == f"solwidget: error: {api.value}\n"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", "freecell", "1", "--max-states", "abc"], "max_states must be a whole number >= 1"),
        (["solve", "freecell", "1", "--max-seconds", "nan"], "max_seconds must be a positive, finite number"),
        (
            ["study", "freecell", "--deals", "1-2", "--budget", "inf"],
            "budget must be a positive, finite number",
        ),
        (["study", "freecell", "--deals", "1-100000000000000000000", "--budget", "1"], "out of range"),
        (["study", "freecell", "--deals", "1-" + "9" * 5000, "--budget", "1"], "cannot read deals"),
    ],
)
def test_the_cli_refuses_bad_values_without_a_traceback(capsys, argv, words):
    code, out, err = run_cli(capsys, *argv, "--quiet")
    assert code == 2 and out == "" and words in err and "Traceback" not in err


# ------------------------------------------------------------------ deal numbers
@pytest.mark.parametrize("number", [123456789012345678, 99999999999999999999])
def test_the_widget_syncs_a_long_deal_number_exactly(number):
    widget = sw.SolitaireWidget("freecell", deal=number)
    assert widget.get_state()["deal"] == str(number)
    with SyncRecorder(widget):
        widget._handle_custom_msg({"type": "action", "name": "new", "deal": str(number - 1)}, [])
    assert widget.deal == number - 1 and widget.get_state()["deal"] == str(number - 1)
    assert widget.state == sw.load_game("freecell").deal(number - 1)


# ------------------------------------------------------------------ study ranges
class StopAfter(ThreadPoolExecutor):
    """An executor that solves ``k`` deals, then stops the study from its next submit."""

    class Stop(Exception):
        pass

    def __init__(self, k):
        super().__init__(max_workers=1)
        self.k, self.deals = k, []

    def submit(self, fn, *args, **kwargs):
        if len(self.deals) == self.k:
            raise self.Stop
        self.deals.append(args[2])
        return super().submit(fn, *args, **kwargs)


@pytest.mark.parametrize("deals", ["1-99999999999999999999", "1-1000000000000"])
def test_a_huge_deal_range_is_handed_out_lazily(deals):
    assert parse_deals(deals).count == int(deals.split("-")[1])
    with StopAfter(3) as pool, pytest.raises(StopAfter.Stop):
        study("freecell", deals, budget=None, max_states=50, executor=pool, progress=False)
    assert pool.deals == [1, 2, 3]


def test_a_deal_range_is_checked_against_the_games_limits_before_anything_runs():
    with StopAfter(0) as pool, pytest.raises(sw.InvalidDeal, match="out of range"):
        study("freecell", "5-7,1-100000000000000000000", budget=1, executor=pool, progress=False)
    assert pool.deals == []


# ------------------------------------------------------------------ study files
HEADER = "game,options,deal,status,moves,states,seconds,budget,max_states\n"
GOOD = "freecell,,1,won,90,120,0.0100,,300\n"
CORRUPT = [
    ("budget", "freecell,,2,won,90,120,0.0100,abc,300\n"),
    ("max_states", "freecell,,2,won,90,120,0.0100,,x\n"),
    ("options", 'freecell,"{bad json",2,won,90,120,0.0100,,300\n'),
    ("deal", "freecell,,-5,won,90,120,0.0100,,300\n"),
]


@pytest.mark.parametrize("field, line", CORRUPT, ids=[c[0] for c in CORRUPT])
def test_a_corrupt_study_file_is_refused_with_its_line_and_field_and_left_alone(tmp_path, field, line):
    path = tmp_path / "study.csv"
    path.write_text(HEADER + GOOD + line + "freecell,,3,wo")  # and a half-written last line
    before = path.read_bytes()
    with pytest.raises(StudyError) as err:
        load_study(path)
    assert f"{path}, line 3, field {field!r}" in str(err.value)
    with StopAfter(0) as pool, pytest.raises(StudyError) as err:
        study("freecell", "1-3", budget=None, max_states=300, out=path, executor=pool, progress=False)
    assert f"{path}, line 3, field {field!r}" in str(err.value) and pool.deals == []
    assert path.read_bytes() == before
    fresh = tmp_path / "fresh.csv"  # the study pointed at a new file runs
    table = study(
        "freecell",
        "1-2",
        budget=None,
        max_states=300,
        out=fresh,
        executor=ThreadPoolExecutor(1),
        progress=False,
    )
    assert table.deals == [1, 2] and load_study(fresh) == table


def test_a_study_file_that_is_not_utf8_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "study.csv"
    path.write_bytes(HEADER.encode() + GOOD.encode() + b"freecell,,2,won,90,120,0.01,,300\xff\n")
    before = path.read_bytes()
    for read in (
        lambda: load_study(path),
        lambda: study("freecell", "1-2", budget=None, max_states=300, out=path, progress=False),
    ):
        with pytest.raises(StudyError, match=f"{path}, line 3: byte 0xff is not UTF-8 text"):
            read()
    assert path.read_bytes() == before


@pytest.mark.parametrize("out", ["\x00", "results.txt", "results"])
def test_a_study_file_with_no_format_is_refused_naming_out(out):
    with pytest.raises(StudyError, match=r"^out: a study file is \.csv or \.parquet"):
        study("freecell", "1-2", budget=None, max_states=300, out=out, progress=False)


def test_a_valid_study_file_loses_only_its_half_written_line_on_resume(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text(HEADER + "freecell,,1,unknown,,50,0.0100,,50\nfreecell,,2,wo")
    assert load_study(path).deals == [1] and path.read_text().endswith(",wo")  # loading only reads
    table = study(
        "freecell",
        "1-2",
        budget=None,
        max_states=50,
        out=path,
        executor=ThreadPoolExecutor(1),
        progress=False,
    )
    assert table.deals == [1, 2] and [r.deal for r in load_study(path)] == [1, 2]


# ------------------------------------------------------------------ moves
@pytest.mark.parametrize("game_id", sw.games())
def test_a_card_count_of_5000_digits_is_the_projects_error_in_every_game(game_id):
    game = sw.load_game(game_id)
    text = "t0 t1 " + "9" * 5000
    with pytest.raises(sw.InvalidMoveText, match="card count of 5,000 digits"):
        game.parse_move(text)
    reason = game.deal(1).explain(text)
    assert "card count of 5,000 digits" in reason and len(reason) < 200


def test_a_move_object_plays_as_its_text_does():
    state = sw.load_game("mutated").deal(1)
    assert state.play(sw.Move("d1", "r2x", 1, "3s")) == state.play("d1 r2x 3s")
    assert state.play(sw.Move("d1", "r2x", 1, "3♠")) == state.play("d1 r2x 3S")
    assert state.explain(sw.Move("d1", "r2x", 1, "3s")) is None


@pytest.mark.parametrize("game_id", sw.games())
def test_a_line_is_proved_move_by_move_and_refused_at_its_first_illegal_move(game_id):
    # positions_along (a won line's proof) plays each move as State.play does, and stops at
    # the first move the rules forbid there, with the words State.play would give.
    game, rng = sw.load_game(game_id), random.Random(game_id)
    state, line = game.deal(3), []
    for _ in range(40):
        legal = state.legal_moves()
        if not legal:
            break
        line.append(rng.choice(legal))
        state = state.play(line[-1])
    positions = game.positions_along(game.deal(3), line)
    assert len(positions) == len(line) + 1 and positions[-1] == state
    assert all(a.play(move) == b for a, move, b in zip(positions, line, positions[1:]))
    cut = len(line) // 2
    illegal = next(
        m for m in (sw.Move(a, b) for a in game.pile_ids for b in game.pile_ids) if positions[cut].explain(m)
    )
    with pytest.raises(sw.IllegalMove) as refused:
        game.positions_along(game.deal(3), [*line[:cut], illegal, *line[cut:]])
    assert refused.value.move == illegal and refused.value.reason == positions[cut].explain(illegal)


def test_a_face_down_card_is_refused_in_the_same_words_wherever_it_lies():
    state = sw.load_game("mutated").deal(1)
    assert "[JH]" in state.to_dict()["piles"]["d2"] and "[7S]" not in state.to_dict()["piles"]["d2"]
    in_d2 = state.explain(sw.Move("d2", "r1c1", 1, "[JH]"))
    elsewhere = state.explain(sw.Move("d2", "r1c1", 1, "[7S]"))
    assert (
        in_d2.replace("JH", "card")
        == elsewhere.replace("7S", "card")
        == "card is not among the face-up cards of d2"
    )
    assert state.explain("d2 r1c1 [JH]") == in_d2


# ------------------------------------------------------------------ widget messages
def nested(depth):
    value = "t0"
    for _ in range(depth):
        value = [value]
    return value


def test_a_message_nested_2000_deep_gets_an_error_reply():
    widget = sw.SolitaireWidget("freecell", deal=1)
    content = {"type": "move", "move": nested(2000)}
    with pytest.raises(sync.BadMessage, match="nested more than"):
        sync.check_message(widget.game, content, 0)
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg(content, [])
    replies = [m["content"] for m in recorder.messages if m["method"] == "custom"]
    assert replies == [{"type": "error", "text": widget.message}] and "nested" in widget.message


@pytest.mark.parametrize("data", [["four_colour"], None, "x", {1: True}, {"four_colour": 1}])
def test_bad_trait_updates_from_the_browser_are_refused_with_a_reply(data):
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = json.dumps(widget.get_state(), default=str)
    with SyncRecorder(widget) as recorder:
        widget.set_state(data)
    replies = [m["content"] for m in recorder.messages if m["method"] == "custom"]
    assert len(replies) == 1 and replies[0]["type"] == "error"
    assert "the browser" in replies[0]["text"] or "trait update" in replies[0]["text"]
    state = widget.get_state()
    assert widget.four_colour is False and state["message_kind"] == "error"
    assert {k: v for k, v in json.loads(before).items() if not k.startswith("message")} == {
        k: v for k, v in json.loads(json.dumps(state, default=str)).items() if not k.startswith("message")
    }


@pytest.mark.parametrize(
    "name, value, words",
    [
        ("four_colour", "yes", "four_colour must be a boolean"),
        ("deal", -5, "deal: deal number -5 is out of range"),
        ("deal", "7", "deal must be an int"),
        ("replay_delay", float("nan"), "replay_delay must be a finite number of seconds"),
        ("state", None, "state must be a State"),
        ("state", 5, "state must be"),
        ("state", sw.load_game("interlock").deal(1), "state must be a State of freecell"),
    ],
)
def test_traits_set_from_python_are_refused_in_the_projects_words(name, value, words):
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = widget.get_state()
    with pytest.raises(sw.SolwidgetError, match=words.replace("(", r"\(")):
        setattr(widget, name, value)
    assert widget.get_state() == before


# ------------------------------------------------------------------ values too long to print
HUGE = 10**5000  # Python refuses to print an int of more than 4,300 digits


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: sw.load_game("freecell").deal(HUGE),
            "deal number <int of about 5001 digits> is out of range",
        ),
        (lambda: sw.solve(FREECELL_1, max_seconds=HUGE), "max_seconds must be a positive, finite number"),
        (
            lambda: sw.load_game("freecell").parse_move(sw.Move("t0", "t1", HUGE)),
            "number of cards must be from 1",
        ),
        (
            lambda: sw.load_game("freecell", cells=-HUGE),
            "cells must be a whole number from 0 to 10, not <-int",
        ),
        (
            lambda: sw.load_game("interchange").state_from_dict(
                {**sw.load_game("interchange").deal(1).to_dict(), "redeals": HUGE}
            ),
            "'redeals' is <int of about",
        ),
        (
            lambda: sw.load_game("mutated").state_from_dict(
                {
                    **sw.load_game("mutated").deal(1).to_dict(),
                    "decks": {"d1": {"mode": "built", "base": HUGE}},
                }
            ),
            "base index <int of about 5001 digits> is beyond",
        ),
    ],
)
def test_a_number_too_long_to_print_is_shown_shortened(call, words):
    with pytest.raises(sw.SolwidgetError) as err:
        call()
    assert words in str(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda w: w.replay("t0 f0"), "moves must be a list of moves"),
        (lambda w: w.replay(5), "moves must be a list of moves"),
        (lambda w: w.replay([], delay=float("nan")), "delay must be a finite number"),
        (lambda w: w.replay([], delay=-1), "delay must be a finite number"),
        (lambda w: w.show_solver(sw.Solver(w.state), steps=0), "steps must be a whole number >= 1"),
        (lambda w: w.show_solver(sw.Solver(w.state), every="often"), "every must be a finite number"),
        (lambda w: w.show_solver("solver"), "solver must be a Solver"),
        (lambda w: w.solve(max_states=-1), "max_states must be"),
        (lambda w: w.hint(max_seconds="2"), "max_seconds must be"),
        (lambda w: sw.SolitaireWidget("freecell", state=5), "state must be a State"),
        (lambda w: sw.SolitaireWidget("freecell", four_colour="yes"), "four_colour must be a boolean"),
        (lambda w: sw.SolitaireWidget(w.game, cells=3), "give options to load_game"),
        (lambda w: sw.Solver(w.state, greedy=True), "Solver has no option 'greedy'"),
    ],
)
def test_widget_and_solver_calls_are_checked_before_anything_runs(call, words):
    widget = sw.SolitaireWidget("freecell", deal=1)
    before = widget.get_state()
    with pytest.raises(sw.SolwidgetError, match=words):
        call(widget)
    assert widget.get_state() == before and widget.busy == ""
