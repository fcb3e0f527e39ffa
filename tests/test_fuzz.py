"""The fuzz suite: hostile values at every public boundary (tests/fuzzing.py draws them).

For every case, each boundary must refuse with a SolwidgetError (never another exception
type) whose message names the argument, and leave the state, the files and the widget
exactly as they were. What a boundary accepts is written here from the rules each one
states (a budget is a positive, finite number and never a bool, a deal number a whole
number from 1 to 10**20 - 1, ...), so that a value the boundary takes by mistake fails too.
The session prints how many cases each boundary ran; ``pytest --fuzz`` runs ten times more.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import numbers
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from fuzzing import CASES, batch, examples, hostile, is_plain_number, played_positions, texts
from hypothesis import given, settings
from hypothesis import strategies as st

import solwidget as sw
from solwidget.cli import main
from solwidget.engine.deals import MAX_DEAL
from solwidget.solver.budget import MAX_MEMORY_ITEMS, MAX_WEIGHT
from solwidget.solver.native_search import NativeSearch
from solwidget.solver.profile import profile_for
from solwidget.study import COLUMNS, StudyError, load_study, study
from solwidget.variants import rules_of
from solwidget.widget import sync
from solwidget.widget.measure import SyncRecorder

GAMES = sw.games()
STATES = {game_id: sw.load_game(game_id).deal(3) for game_id in GAMES}


def count(boundary: str) -> None:
    CASES[boundary] += 1


def refused(function, *args, error=sw.SolwidgetError, **kwargs) -> str:
    """The message of the error that ``function(*args, **kwargs)`` must raise (any other
    outcome fails the test)."""
    with pytest.raises(error) as caught:
        function(*args, **kwargs)
    return str(caught.value)


# ------------------------------------------------------------------ what each boundary takes
def whole_in(value, low, high=None) -> bool:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return False
    return low <= value and (high is None or value <= high)


def good_max_states(value) -> bool:
    """A whole number >= 1 (an integral float too), or None."""
    if value is None or whole_in(value, 1):
        return True
    return isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 1


def finite(value):
    try:
        number = float(value)
    except (OverflowError, TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def good_seconds(value) -> bool:
    """A positive, finite real number, or None."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    number = finite(value)
    return number is not None and number > 0


def good_share(value, top=None) -> bool:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    number = finite(value)
    return number is not None and number >= 0 and (top is None or number < top)


def good_weight(value) -> bool:
    """A depth or heuristic weight: a finite real number from 0 to MAX_WEIGHT."""
    return good_share(value) and finite(value) <= MAX_WEIGHT


def good_memory(value) -> bool:
    """A table or frontier size: None, or a whole number from 1 to MAX_MEMORY_ITEMS (an
    integral float too)."""
    if value is None or whole_in(value, 1, MAX_MEMORY_ITEMS):
        return True
    return (
        isinstance(value, float)
        and math.isfinite(value)
        and value.is_integer()
        and 1 <= value <= MAX_MEMORY_ITEMS
    )


def good_deal(value) -> bool:
    return whole_in(value, 1, MAX_DEAL)


# ------------------------------------------------------------------ solver budgets
@settings(max_examples=examples(400))
@given(
    cases=batch(
        st.tuples(
            st.sampled_from(["solve", "Solver", "hint"]),
            st.sampled_from(["max_states", "max_seconds"]),
            hostile,
        )
    ),
    game_id=st.sampled_from(GAMES),
)
def test_fuzz_solver_budgets(cases, game_id):
    state = STATES[game_id]
    before = state.to_dict()
    for entry, budget, value in cases:
        good = good_max_states if budget == "max_states" else good_seconds
        if good(value):
            continue
        count("solver budgets")
        call = {"solve": sw.solve, "Solver": sw.Solver, "hint": sw.hint}[entry]
        message = refused(call, state, **{budget: value})
        assert message.startswith(f"{budget} must be ") and len(message) < 300
    assert state.to_dict() == before


@settings(max_examples=examples(300))
@given(
    cases=batch(st.tuples(st.sampled_from(["table_size", "frontier_size", "depth_weight"]), hostile)),
    game_id=st.sampled_from(GAMES),
)
def test_fuzz_solver_memory_and_depth_weight(cases, game_id):
    for name, value in cases:
        if (good_memory if name != "depth_weight" else lambda v: v is None or good_weight(v))(value):
            continue
        count("solver memory and depth weight")
        message = refused(sw.Solver, STATES[game_id], **{name: value})
        assert message.startswith(f"{name} must be ") and len(message) < 300


def bad_portfolios():
    """Portfolios that are wrong in one place: the whole, an entry, or one field of an entry."""
    not_list = hostile.filter(lambda v: not isinstance(v, (list, tuple)) and v is not None)
    not_dict = hostile.filter(lambda v: not isinstance(v, dict))
    return st.one_of(
        not_list,
        st.just([]),
        st.just([{}] * 65),
        st.lists(not_dict, min_size=1, max_size=3),
        hostile.filter(lambda v: v is not None and not good_weight(v)).map(lambda v: [{"depth_weight": v}]),
        hostile.filter(lambda v: v is not None and not good_share(v, 1.0)).map(lambda v: [{"explore": v}]),
        hostile.filter(lambda v: v is not None and not isinstance(v, dict)).map(lambda v: [{"weights": v}]),
        hostile.filter(lambda v: not good_weight(v)).map(lambda v: [{"weights": {"cells": v}}]),
        texts.filter(lambda k: k not in ("depth_weight", "explore", "weights")).map(lambda k: [{k: 0.5}]),
    )


@settings(max_examples=examples(400))
@given(portfolios=batch(bad_portfolios()), game_id=st.sampled_from(GAMES))
def test_fuzz_portfolios(portfolios, game_id):
    for portfolio in portfolios:
        count("portfolios")
        message = refused(sw.Solver, STATES[game_id], portfolio=portfolio)
        assert message.startswith("portfolio") and len(message) < 400


# ------------------------------------------------------------------ games and deals
@settings(max_examples=examples(300))
@given(game_id=st.sampled_from(GAMES), numbers=batch(hostile))
def test_fuzz_deal_numbers(game_id, numbers):
    game = sw.load_game(game_id)
    for number in numbers:
        if good_deal(number):
            continue
        count("deal numbers")
        message = refused(game.deal, number, error=sw.InvalidDeal)
        assert "deal number" in message and len(message) < 300


@settings(max_examples=examples(250))
@given(cases=batch(st.tuples(hostile, hostile)))
def test_fuzz_load_game(cases):
    for game_id, cells in cases:
        if not (isinstance(game_id, str) and game_id in GAMES):  # hostile texts are never ids, but be sure
            count("load_game")
            message = refused(sw.load_game, game_id)
            assert message.startswith("unknown game ") and len(message) < 400
        if not whole_in(cells, 0, 10):
            count("load_game")
            message = refused(sw.load_game, "freecell", cells=cells)
            assert message.startswith("cells must be ") and len(message) < 300


# ------------------------------------------------------------------ moves
moves = st.one_of(
    hostile,
    st.builds(sw.Move, hostile, hostile, hostile, hostile),
    st.builds(
        sw.Move,
        st.sampled_from(["t0", "d2", "stock", "f0"]),
        st.sampled_from(["t1", "r1c1", "waste"]),
        hostile,
    ),
    st.builds(
        lambda src, dst, card: sw.Move(src, dst, 1, card),
        st.sampled_from(["t0", "d2", "r1c1"]),
        st.sampled_from(["t1", "r1c1", "r2c1"]),
        hostile,
    ),
    st.builds(lambda words: " ".join(words), st.lists(texts, min_size=0, max_size=5)),
)


@settings(max_examples=examples(400))
@given(game_id=st.sampled_from(GAMES), batch_of_moves=batch(moves))
def test_fuzz_moves(game_id, batch_of_moves):
    state = STATES[game_id]
    for move in batch_of_moves:
        count("moves (parse, play, explain)")
        check_move(state, move)


def check_move(state, move):
    try:
        parsed = state.game.parse_move(move)
    except sw.InvalidMoveText as err:
        message = str(err)
        assert "move" in message and len(message) < 400
        assert state.explain(move) == message  # explain answers with the same words
        assert refused(state.play, move, error=sw.InvalidMoveText) == message
        return
    # A hostile value that happens to be a move of this game plays exactly as its Move does.
    reason = state.explain(move)
    assert reason == state.explain(parsed) and (reason is None) == (parsed in state.legal_moves())
    if reason is not None:
        assert refused(state.play, move, error=sw.IllegalMove).endswith(reason)


# ------------------------------------------------------------------ positions
@st.composite
def bad_positions(draw):
    game_id = draw(st.sampled_from(GAMES))
    position = STATES[game_id].to_dict()
    where = draw(st.sampled_from(["whole", "key", "pile", "card", "new pile", "extra"]))
    value = draw(hostile)
    if where == "whole":
        position = value
    elif where == "key":
        position[draw(st.sampled_from(["game", "piles", "options"]))] = value
    elif where in ("pile", "card"):
        pid = draw(st.sampled_from(sorted(position["piles"])))
        if where == "pile" or not position["piles"][pid]:
            position["piles"][pid] = value
        else:
            position["piles"][pid][-1] = value
    elif where == "new pile":
        position["piles"][draw(texts)] = value if isinstance(value, list) else []
    else:
        position[draw(st.sampled_from(["redeals", "decks"]))] = value
    return game_id, position


@settings(max_examples=examples(300))
@given(cases=batch(bad_positions()))
def test_fuzz_positions(cases):
    for case in cases:
        count("state_from_dict")
        check_position(*case)


def check_position(game_id, position):
    game = sw.load_game(game_id)
    copy = repr(position) if not isinstance(position, (list, dict)) else None
    try:
        state = game.state_from_dict(position)
    except sw.InvalidPosition as err:
        message = str(err)
        assert message and len(message) < 500
        assert any(
            word in message for word in ("position", "pile", "card", "deck", "redeals", "game", "option")
        )
    else:  # a value that happens to fit (an empty pile left empty, redeals 0): a true position
        assert game.state_from_dict(state.to_dict()) == state
    assert copy is None or repr(position) == copy


# ------------------------------------------------------------------ compiled against Python
def solved(state, python: bool) -> tuple:
    """What a search of 300 states finds from ``state``: the Python search if ``python``,
    else the one the game's profile picks (a C search where it has one that holds
    ``state``); and whether a C search ran."""
    with pytest.MonkeyPatch.context() as patch:
        if python:
            patch.setattr(type(profile_for(state.game)), "compiled_search", lambda self, *args: None)
        solver = sw.Solver(state, max_states=300)
    in_c = any(isinstance(search, NativeSearch) for search in solver._searches)
    result = solver.solve()
    p = result.progress
    return (
        result.status,
        [str(m) for m in result.moves],
        p.expanded,
        p.generated,
        p.frontier,
        [str(m) for m in p.best_line],
    ), in_c


@settings(max_examples=examples(60))
@given(state=played_positions(GAMES))
def test_fuzz_compiled_against_python_on_played_positions(state):
    """The compiled searches give the Python search's answer, move for move and state for
    state, from positions of random play (and counts of redeals no C search keeps)."""
    compiled, in_c = solved(state, python=False)
    python, _ = solved(state, python=True)
    assert compiled == python
    count("compiled against Python" if in_c else "compiled against Python (no C search)")


# ------------------------------------------------------------------ studies
class NoSolving(ThreadPoolExecutor):
    """An executor that fails the test if a study refused at the door submits any deal."""

    def submit(self, fn, *args, **kwargs):
        raise AssertionError(f"a study solved deal {args[2]} despite a bad argument")


DEAL_TEXT = re.compile(r"[0-9 ,\-]*")


def good_deals(value) -> bool:
    if good_deal(value):
        return True
    if isinstance(value, str):
        return bool(DEAL_TEXT.fullmatch(value))  # text of digits is the parser's to judge
    if isinstance(value, range):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return bool(value) and all(good_deal(v) for v in value)
    return False


@settings(max_examples=examples(300))
@given(
    cases=batch(
        st.tuples(st.sampled_from(["deals", "budget", "max_states", "workers", "out", "progress"]), hostile)
    )
)
def test_fuzz_study_arguments(cases):
    for argument, value in cases:
        check_study_argument(argument, value)


def check_study_argument(argument, value):
    good = {
        "deals": good_deals,
        "budget": good_seconds,
        "max_states": good_max_states,
        "workers": good_max_states,
        "progress": lambda v: isinstance(v, bool),
        "out": lambda v: v is None or (isinstance(v, str) and "\x00" not in v),
    }[argument]
    if good(value) or (argument == "budget" and value is None):
        return
    count("study arguments")
    kwargs = {"deals": "1-3", "budget": 1.0, "executor": NoSolving(1), "progress": False, argument: value}
    message = refused(study, "freecell", **kwargs)
    name = {
        "deals": "deal",
        "budget": "budget",
        "max_states": "max_states",
        "workers": "workers",
        "out": "out",
        "progress": "progress",
    }[argument]
    assert name in message and len(message) < 400


FIELD_GOOD = {
    "game": lambda t: t.isascii() and t.isidentifier() and t == t.lower() and len(t) <= 100,
    "options": lambda t: t == "" or _json_object(t),
    "deal": lambda t: t.isascii() and t.isdigit() and len(t) <= 30 and 1 <= int(t) <= MAX_DEAL,
    "status": lambda t: t in ("won", "lost", "unknown"),
    "moves": lambda t: t == "" or (t.isascii() and t.isdigit()),
    "states": lambda t: t.isascii() and t.isdigit(),
    "seconds": lambda t: _float(t) is not None and _float(t) >= 0,
    "budget": lambda t: t == "" or (_float(t) is not None and _float(t) > 0),
    "max_states": lambda t: t == "" or (t.isascii() and t.isdigit() and len(t) <= 30 and int(t) >= 1),
    "rules": lambda t: t == "" or _json_object(t),
    "difficulty": lambda t: t == "" or _json_object(t),
}
GOOD_RECORD = [
    "freecell",
    "",
    "1",
    "won",
    "90",
    "120",
    "0.0100",
    "",
    "300",
    json.dumps(rules_of(sw.load_game("freecell")), sort_keys=True),
    "",
]


def _json_object(text):
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def _float(text):
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) and len(text) <= 40 else None


def csv_line(fields) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


@settings(max_examples=examples(250))
@given(cases=batch(st.tuples(st.sampled_from(COLUMNS), texts, st.binary(min_size=1, max_size=20))))
def test_fuzz_study_files(cases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    for field, text, junk in cases:
        count("study files")
        check_study_file(folder / "study.csv", field, text, junk)


def check_study_file(path, field, text, junk):
    if FIELD_GOOD[field](text) or "\x00" in text:
        junk = junk.replace(b"\n", b" ")  # all on line 3
        if b"\xff" not in junk:
            junk += b"\xff"
        data = csv_line(COLUMNS).encode() + csv_line(GOOD_RECORD).encode() + b"freecell," + junk + b"\n"
        where = f"{path}, line 3"
    else:
        record = list(GOOD_RECORD)
        record[COLUMNS.index(field)] = text
        data = (csv_line(COLUMNS) + csv_line(GOOD_RECORD) + csv_line(record)).encode()
        where = f"{path}, line "
    path.write_bytes(data)
    message = refused(load_study, path, error=StudyError)
    assert message.startswith(where) and any(word in message for word in (field, "UTF-8", "fields", "CSV"))
    again = refused(
        study,
        "freecell",
        "1-3",
        budget=None,
        max_states=300,
        out=path,
        executor=NoSolving(1),
        progress=False,
        error=StudyError,
    )
    assert again == message and path.read_bytes() == data


# ------------------------------------------------------------------ the command line
def good_cli_number(text: str, whole: bool) -> bool:
    if text.strip().lower() == "none":
        return True
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        return good_max_states(value) if whole else good_seconds(value)
    return False


@settings(max_examples=examples(250))
@given(
    cases=batch(
        st.tuples(
            st.sampled_from(
                [
                    "solve --max-states",
                    "solve --max-seconds",
                    "study --budget",
                    "study --max-states",
                    "deal",
                    "study --deals",
                ]
            ),
            texts.filter(lambda t: "\x00" not in t),
        )
    )
)
def test_fuzz_the_command_line(cases):
    for option, text in cases:
        check_command_line(option, text)


def check_command_line(option, text):
    command, _, flag = option.partition(" ")
    if command == "deal":
        digits = text.strip().lstrip("-")
        if digits.isascii() and digits.isdigit() and len(digits) < 30 and good_deal(int(text)):
            return
        argv, name = ["deal", "freecell", "--", text], "deal number"
    elif flag == "--deals":
        if DEAL_TEXT.fullmatch(text):
            return
        argv, name = ["study", "freecell", f"--deals={text}", "--quiet"], "deals"
    else:
        if good_cli_number(text, whole=flag == "--max-states"):
            return
        number = "1" if command == "solve" else "--deals=1"
        argv, name = [command, "freecell", number, f"{flag}={text}", "--quiet"], flag[2:].replace("-", "_")
        name = "budget" if flag == "--budget" else name
    count("command line")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code
    assert code == 2 and out.getvalue() == ""
    assert name in err.getvalue() and "Traceback" not in err.getvalue()


# ------------------------------------------------------------------ the widget
WIDGETS = {}


def widget_for(game_id):
    if game_id not in WIDGETS:
        WIDGETS[game_id] = sw.SolitaireWidget(game_id, deal=2)
    return WIDGETS[game_id]


def unchanged_apart_from_the_message(widget, before):
    after = widget.get_state()
    return {k: v for k, v in after.items() if not k.startswith("message")} == {
        k: v for k, v in before.items() if not k.startswith("message")
    }


FIELDS = {"move": ["move"], "action": ["name", "deal"], "seek": ["index"]}


def good_field(game, kind, field, value) -> bool:
    if field == "move":  # text that reads as a move: it might be legal
        try:
            game.parse_move(value)
        except sw.InvalidMoveText:
            return False
        return isinstance(value, str)
    if field == "name":
        return value in sync.ACTIONS
    if field == "deal":
        return good_deal(value) or (isinstance(value, str) and value.isascii() and value.isdigit())
    return whole_in(value, 0, 0)  # index: the widget's line is empty


@st.composite
def bad_messages(draw):
    game_id = draw(st.sampled_from(GAMES))
    game = sw.load_game(game_id)
    if draw(st.booleans()):
        content = draw(hostile)
        if isinstance(content, dict) and content.get("type") in FIELDS:
            content = [content]
        return game_id, content, "message"
    kind = draw(st.sampled_from(sorted(FIELDS)))
    content = (
        {"type": kind, "move": f"{game.pile_ids[0]} {game.pile_ids[1]}"}
        if kind == "move"
        else {"type": kind, "name": "new"}
        if kind == "action"
        else {"type": kind, "index": 0}
    )
    field = draw(st.sampled_from(FIELDS[kind] + ["extra"]))
    value = draw(hostile)
    if field != "extra" and good_field(game, kind, field, value):
        value = [value]
    content[field] = value
    return game_id, content, field


@settings(max_examples=examples(300))
@given(cases=batch(bad_messages()))
def test_fuzz_widget_messages(cases):
    for case in cases:
        count("widget messages")
        check_message(*case)


def check_message(game_id, content, field):
    widget = widget_for(game_id)
    try:
        sync.check_message(widget.game, content, len(widget.line))
    except sync.BadMessage as err:
        message = str(err)
        assert len(message) < 400
        assert field in message or "message" in message or "'type'" in message or field == "extra"
    else:  # well formed; then the rules must refuse it
        pass
    before = widget.get_state()
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg(content, [])
    replies = [m["content"] for m in recorder.messages if m["method"] == "custom"]
    assert len(replies) == 1 and replies[0]["type"] == "error" and replies[0]["text"] == widget.message
    assert unchanged_apart_from_the_message(widget, before)


@settings(max_examples=examples(250))
@given(
    game_id=st.sampled_from(GAMES),
    updates=batch(
        st.one_of(
            hostile.filter(lambda v: v != {}),
            st.dictionaries(texts, hostile, min_size=1, max_size=3),
            hostile.filter(lambda v: not isinstance(v, bool)).map(lambda v: {"four_colour": v}),
        )
    ),
)
def test_fuzz_trait_updates_from_the_browser(game_id, updates):
    for data in updates:
        count("set_state")
        check_update(widget_for(game_id), data)


def check_update(widget, data):
    before = widget.get_state()
    with SyncRecorder(widget) as recorder:
        widget.set_state(data)
    replies = [m["content"] for m in recorder.messages if m["method"] == "custom"]
    assert len(replies) == 1 and replies[0]["type"] == "error" and len(replies[0]["text"]) < 400
    assert unchanged_apart_from_the_message(widget, before)


TRAIT_GOOD = {
    "four_colour": lambda v: isinstance(v, bool),
    "deal": good_deal,
    "replay_delay": lambda v: is_plain_number(v) and finite(v) is not None and v >= 0,
    "state": lambda v: False,
}


@settings(max_examples=examples(250))
@given(game_id=st.sampled_from(GAMES), cases=batch(st.tuples(st.sampled_from(sorted(TRAIT_GOOD)), hostile)))
def test_fuzz_traits_set_from_python(game_id, cases):
    for name, value in cases:
        if not TRAIT_GOOD[name](value):
            count("traits from Python")
            check_trait(widget_for(game_id), name, value)


def check_trait(widget, name, value):
    before, state = widget.get_state(), widget.state
    message = refused(setattr, widget, name, value)
    assert name in message and len(message) < 400
    assert widget.get_state() == before and widget.state is state
