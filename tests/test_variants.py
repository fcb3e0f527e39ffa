"""Variants (sw.variant): each change checked in words; variants dealt, played, drawn,
solved and studied like any game; the solver's lemmas set aside where a change breaks them;
definitions as data and files."""

import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter

import pytest
from helpers import loopback_cluster, position
from hypothesis import given, settings
from hypothesis import strategies as st

import solwidget as sw
from solwidget import cli
from solwidget.engine.cards import FACE_DOWN, face_up
from solwidget.engine.registry import game_class
from solwidget.engine.variation import CHANGES, MAX_ID_CHARS
from solwidget.games.freecell.expander import CellsExpander
from solwidget.games.interlock.deadends import DeadEnds
from solwidget.solver.expand import PatienceExpander
from solwidget.solver.profile import GENERIC, profile_for
from solwidget.variants import MAX_FILE_BYTES, variation_of
from solwidget.widget.measure import SyncRecorder

# The well-known relatives (docs/variants.md), then variants that touch every parameter.
RELATIVES = {
    "bakers_game": ("freecell", {"build": "down in suit"}),
    **{f"freecell_{n}_cells": ("freecell", {"cells": n}) for n in range(4)},
    "reversed_two_cells": ("reversed_solitaire", {"cells": 2}),
    "triple_interchange_kings": ("triple_interchange", {"empty": "king"}),
    "interlock_any_space": ("interlock", {"empty": "any"}),
    "interlock_draw_three": ("interlock", {"draw": 3, "redeals": 2}),
    "love_a_duck_runs": ("love_a_duck", {"moves": "runs"}),
    "guardian_one_pass": ("guardian", {"redeals": 0}),
}
OTHERS = {
    "freecell_ten_piles": ("freecell", {"piles": 10, "moves": "one card", "empty": "none"}),
    "interchange_two_decks": (
        "single_interchange",
        {"decks": 2, "piles": 7, "foundations": "king down", "draw": 3, "cells": 1},
    ),
    "freecell_upside_down": (
        "freecell",
        {"moves": "any group", "build": "up regardless of suit", "foundations": "king down"},
    ),
    "mutated_again": ("mutated", {}),
}
VARIANTS = {**RELATIVES, **OTHERS}


NAMES = {"bakers_game": "Baker's Game"}


def define(game_id):
    base, changes = VARIANTS[game_id]
    return sw.variant(base, id=game_id, name=NAMES.get(game_id, game_id.replace("_", " ").title()), **changes)


@pytest.fixture(params=sorted(VARIANTS))
def game(request):
    return define(request.param).game()


# ------------------------------------------------------------------ refusals
REFUSED = [
    ("freecell", {"build": "sideways"}, "build", "'down in suit'"),
    ("freecell", {"build": "down"}, "build", "'up regardless of suit'"),
    ("freecell", {"moves": "two cards"}, "moves", "'one card', 'supermove', 'runs', 'any group'"),
    ("freecell", {"empty": "queen"}, "empty", "'any', 'king', 'none'"),
    ("freecell", {"foundations": "ace down"}, "foundations", "'ace up', 'king down'"),
    ("freecell", {"cells": 11}, "cells", "from 0 to 10"),
    ("freecell", {"cells": -1}, "cells", "from 0 to 10"),
    ("freecell", {"cells": 2.5}, "cells", "from 0 to 10"),
    ("freecell", {"piles": 1}, "piles", "2 to 13 piles"),
    ("freecell", {"piles": "8"}, "piles", "from 1 to 52"),
    ("freecell", {"decks": 2}, "decks", "may change build, cells, empty, foundations, moves, piles"),
    ("freecell", {"draw": 1}, "draw", "no stock"),
    ("freecell", {"redeals": 1}, "redeals", "no stock"),
    ("freecell", {"colour": "red"}, "colour", "may change build, moves, empty"),
    ("interlock", {"cells": 1}, "cells", "may change build, draw, empty, foundations, moves, redeals"),
    ("interlock", {"piles": 12}, "piles", "cannot be spread"),
    ("interlock", {"draw": 0}, "draw", "from 1 to 5"),
    ("interlock", {"redeals": 11}, "redeals", "from 0 to 10, not 11"),
    ("interlock", {"redeals": "many"}, "redeals", "'unlimited'"),
    ("love_a_duck", {"draw": 1}, "draw", "no stock"),
    ("mutated", {"build": "down in suit"}, "build", "may change nothing"),
    ("mutated", {"cells": 4}, "cells", "its rules are its own"),
    ("triple_interchange", {"decks": 5}, "decks", "from 1 to 4"),
    ("triple_interchange", {"decks": 1}, "decks", "spreads 1 deck over 2 to 7 piles, not 9"),
    ("triple_interchange", {"piles": 13}, "piles", "spreads 3 decks over 2 to 12 piles, not 13"),
]


@pytest.mark.parametrize(
    "base, changes, parameter, accepted",
    REFUSED,
    ids=[f"{b}-{next(iter(c))}-{c[next(iter(c))]}" for b, c, *_ in REFUSED],
)
def test_each_wrong_change_is_refused_naming_the_parameter_and_what_it_takes(
    base, changes, parameter, accepted
):
    with pytest.raises(sw.InvalidVariant) as caught:
        sw.variant(base, id="refused_variant", name="Refused", **changes)
    assert str(caught.value).startswith(f"{parameter}: ")
    assert accepted in str(caught.value)
    with pytest.raises(sw.UnknownGame):  # nothing was registered
        sw.load_game("refused_variant")


@pytest.mark.parametrize(
    "game_id, name, words",
    [
        ("freecell", "FreeCell", "taken by FreeCell, a game of the catalogue"),
        ("Bakers", "B", "lower-case letters"),
        ("bakers game", "B", "lower-case letters"),
        ("fine_id", "  ", "name: "),
    ],
)
def test_ids_and_names_are_checked(game_id, name, words):
    with pytest.raises(sw.InvalidVariant, match=words):
        sw.variant("freecell", id=game_id, name=name, build="down in suit")


def test_an_unknown_base_is_an_unknown_game():
    with pytest.raises(sw.UnknownGame, match="unknown game 'spider'"):
        sw.variant("spider", id="spider_suit", name="Spider", build="down in suit")


def test_a_taken_id_is_refused_unless_the_definition_is_the_same():
    bakers = define("bakers_game")
    assert define("bakers_game") is bakers  # a notebook cell run twice
    with pytest.raises(sw.InvalidVariant, match="id: 'bakers_game' is taken by the variant"):
        sw.variant("freecell", id="bakers_game", name="Baker's Game", build="down in suit", cells=3)
    assert sw.load_game("bakers_game").cells == 4


def test_variants_load_by_id_but_the_catalogue_lists_only_its_games():
    define("bakers_game")
    assert "bakers_game" not in sw.games()
    assert sw.load_game("bakers_game", cells=2) == define("bakers_game").game(cells=2)


# ------------------------------------------------------------------ the variant's own rules
def test_rules_and_refusals_speak_of_the_variants_own_rules():
    bakers = define("bakers_game").game()
    assert "builds down in suit" in bakers.summary and "alternating" not in bakers.summary
    assert bakers.describe() == "FreeCell, builds down in suit"
    state = bakers.deal(1)
    move = next(
        m
        for m in (sw.Move(a, b) for a in bakers.pile_ids[8:] for b in bakers.pile_ids[8:])
        if m.src != m.dst and state.pile(m.src) and state.pile(m.dst) and m not in state.legal_moves()
    )
    assert state.explain(move).endswith("the tableau builds down in suit")

    ten = define("freecell_ten_piles").game()
    assert (
        len(ten.tableau_indices) == 10
        and [len(ten.deal(1).pile(f"t{i}")) for i in range(10)] == [6, 6] + [5] * 8
    )
    assert "cards move one at a time" in ten.summary and "takes no cards" in ten.summary
    state = position("freecell_ten_piles", t0="KH QS", rest="t1")
    assert state.explain("t0 t9") == "t9 takes no cards"
    assert {p["empty"] for p in ten.layout()["piles"] if p["kind"] == "tableau"} == {"×"}

    kings = define("triple_interchange_kings").game()
    assert "only a King or a group headed by a King" in kings.summary
    assert {p["empty"] for p in kings.layout()["piles"] if p["kind"] == "tableau"} == {"K"}


def test_one_card_moves_refuse_a_run_in_words():
    define("freecell_ten_piles")
    piles = {"t0": "KH QS JH", "t1": "KD", "rest": "t2"}
    assert position("freecell", **piles).explain("t0 t1 2") is None  # a supermove in FreeCell
    state = position("freecell_ten_piles", **piles)
    assert state.explain("t0 t1 2") == "cards move one at a time here: move the others one by one"
    assert "t0 t1 2" not in {str(m) for m in state.legal_moves()}
    assert state.play("t0 c0").explain("t0 t1") is None


# ------------------------------------------------------------------ played like any game
def test_dealt_and_played_at_random_the_rules_hold(game):
    rng = random.Random(game.id)
    state = game.deal(4)
    for step in range(80):
        _check_position(state)
        legal = state.legal_moves()
        for move in legal:
            assert state.explain(move) is None
            assert state.play(move) == game.apply_legal(state, move)
        if step % 10 == 0:
            _check_refusals(state, set(legal))
        if not legal:
            break
        state = state.play(rng.choice(legal))


def _check_position(state):
    game = state.game
    counts = Counter(face_up(card) for pile in state.piles for card in pile)
    assert set(counts.values()) == {game.decks} and len(counts) == 52
    assert game.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert pickle.loads(pickle.dumps(state)) == state


def _check_refusals(state, legal):
    game = state.game
    for src in game.pile_ids:
        for dst in game.pile_ids:
            move = sw.Move(src, dst)
            if move in legal or src == dst:
                continue
            reason = state.explain(move)
            assert reason
            with pytest.raises(sw.IllegalMove) as caught:
                state.play(move)
            assert caught.value.reason == reason


def test_drawn_and_played_in_the_widget(game):
    widget = sw.SolitaireWidget(game.id, deal=4)
    synced = json.loads(json.dumps({k: v for k, v in widget.get_state().items() if not k.startswith("_")}))
    board = next(v for v in synced.values() if isinstance(v, dict) and "piles" in v)
    assert {p["id"] for p in board["piles"]} == set(game.pile_ids)
    assert synced["legal"] == [str(m) for m in widget.state.legal_moves()]
    assert board["summary"] == game.summary
    picture = widget.state._repr_svg_()  # a State draws itself too, with no widget
    assert picture.startswith("<svg") and picture.count("<") > len(game.pile_ids)
    move = widget.state.legal_moves()[0]
    expected = widget.state.play(move)
    with SyncRecorder(widget) as recorder:
        widget._handle_custom_msg({"type": "move", "move": str(move)}, [])
    assert widget.state == expected and widget.moves_made == 1
    sent = {k for m in recorder.messages if m["method"] == "update" for k in m["state"]}
    assert any(k.startswith("pile_") for k in sent)
    shown = json.dumps({k: v for k, v in widget.get_state().items() if k.startswith("pile_")})
    hidden = sum(1 for pile in widget.state.piles for card in pile if card & FACE_DOWN)
    assert ("back" in shown) == bool(hidden)


# ------------------------------------------------------------------ solved soundly
def test_a_variant_keeps_its_bases_profile_only_where_the_lemmas_hold():
    bakers = define("bakers_game").game()
    assert profile_for(bakers) is profile_for(sw.load_game("freecell"))
    assert isinstance(profile_for(bakers).expander(bakers), CellsExpander)
    for game_id in (
        "freecell_0_cells",
        "interchange_two_decks",
        "interlock_any_space",
        "interlock_draw_three",
    ):
        game = define(game_id).game()
        base = sw.load_game(VARIANTS[game_id][0])
        assert profile_for(base) is not GENERIC and not profile_for(base).assumes(game, base), game_id
        assert profile_for(game) is GENERIC, game_id
    # the Interchange family's lemmas hold where an empty pile takes only a King
    kings = define("triple_interchange_kings").game()
    assert profile_for(kings) is profile_for(sw.load_game("triple_interchange"))
    assert profile_for(kings).lemmas(kings) == {"dead ends": True, "bridges": True}
    # Love a Duck relies on its key's lemma and on the dead ends, which hold with runs too
    runs = define("love_a_duck_runs").game()
    assert profile_for(runs) is profile_for(sw.load_game("love_a_duck"))
    assert profile_for(runs).lemmas(runs) == {"back piles alike": True, "bridges": False, "dead ends": True}


@pytest.mark.parametrize(
    "game_id, lemmas",
    [
        ("interlock", {"back piles alike", "bridges", "dead ends"}),
        ("triple_interchange", {"dead ends", "bridges"}),
        ("quadruple_interchange", {"dead ends", "bridges"}),
        ("interchange", {"dead ends"}),
        ("unlimited", {"dead ends", "bridges"}),
        ("single_interchange", {"dead ends", "bridges"}),
        ("freecell", {"cells expander"}),
        ("mutated", {"settled cards stay home"}),
    ],
)
def test_the_lemmas_hold_for_the_games_they_were_written_for(game_id, lemmas):
    game = sw.load_game(game_id)
    assert {name for name, holds in profile_for(game).lemmas(game).items() if holds} == lemmas


def test_where_the_profile_is_kept_its_fast_successors_are_the_engines():
    game = define("bakers_game").game()
    fast, general = CellsExpander(game), PatienceExpander(game)
    for number in (1, 2):
        state = general.start(game.deal(number))[0]
        for turn in range(40):
            packed = sw.State(game, tuple(map(bytes, state.piles)), state.extra)
            assert list(fast.expand(packed)) == [
                (m, sw.State(game, tuple(map(bytes, c.piles)), c.extra)) for m, c in general.expand(state)
            ]
            children = list(general.expand(state))
            if not children:
                break
            state = children[(turn * 7) % len(children)][1]


def test_a_lemma_broken_by_the_change_would_have_called_a_won_position_lost():
    # Interlock's dead-end test, made for Interlock, lets only a King onto an empty back
    # pile. Here the 3C on the 2C can go nowhere else, so under Interlock's rules the
    # position is lost; with any card to an empty pile it is won, and the solver finds the
    # win. The test made for the variant reads what its empty piles take.
    game = define("interlock_any_space").game()
    home = {"f0": "AC", "f1": "AD-KD", "f2": "AH-KH", "f3": "AS-KS"}
    state = position("interlock_any_space", t0="2C 3C", **home)
    assert DeadEnds(sw.load_game("interlock")).is_dead(state)  # Interlock's, outside its rules: wrong
    assert not DeadEnds(game).is_dead(state)
    result = sw.solve(state, max_states=10_000)
    assert result.status == "won"
    for move in result.moves:
        state = state.play(move)
    assert state.is_won()
    proper = position("interlock", t0="2C 3C", **home)
    assert DeadEnds(proper.game).is_dead(proper)  # under Interlock's own rules: right
    assert sw.solve(proper, max_states=10_000).status == "lost"


def test_lost_under_a_variant_agrees_with_every_line_of_play():
    # Baker's Game without free cells: small enough to try every line of play through the
    # engine alone, so that each of the solver's answers can be checked.
    game = sw.variant(
        "freecell", id="bakers_no_cells", name="Baker's Game, no cells", build="down in suit", cells=0
    ).game()
    assert profile_for(game) is GENERIC
    answers = Counter()
    for number in range(1, 11):
        state = game.deal(number)
        status = sw.solve(state, max_states=5000).status
        answers[status] += 1
        assert status == ("won" if _some_line_wins(state, 100_000) else "lost"), number
    assert answers["lost"] >= 5


def _some_line_wins(start, limit):
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        if state.is_won():
            return True
        for move in state.legal_moves():
            after = state.play(move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
        assert len(seen) < limit, "too many positions to try them all"
    return False


@pytest.mark.parametrize(
    "game_id", ["bakers_game", "freecell_2_cells", "love_a_duck_runs", "freecell_ten_piles"]
)
def test_solve_solver_and_hint_take_a_variant(game_id):
    state = define(game_id).game().deal(4)
    result = sw.solve(state, max_states=3000)
    assert result.status in ("won", "lost", "unknown")
    after = state
    for move in result.moves:
        after = after.play(move)
    assert after.is_won() == (result.status == "won")
    solver = sw.Solver(state, max_states=3000)
    while not solver.done:
        solver.step(500)
    assert solver.result.status == result.status
    hint = sw.hint(state, max_states=500)
    assert hint is None or hint.move in state.legal_moves()


# ------------------------------------------------------------------ as data and files
@pytest.mark.parametrize("game_id", sorted(VARIANTS))
def test_to_dict_and_variant_from_dict_round_trip(game_id):
    made = define(game_id)
    data = made.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert sw.variant_from_dict(json.loads(json.dumps(data))) is made
    toml = "".join(f"{k} = {json.dumps(v)}\n" for k, v in data.items())
    tomllib = pytest.importorskip("tomllib")
    assert tomllib.loads(toml) == data


def test_unlimited_redeals_are_written_as_a_word():
    made = sw.variant("guardian", id="guardian_unlimited_again", name="G", redeals=None)
    assert made.to_dict()["redeals"] == "unlimited"
    assert made.game().redeals is None
    assert sw.variant_from_dict(made.to_dict()) is made


def test_a_variant_of_a_variant_starts_from_its_changes():
    define("bakers_game")
    made = sw.variant("bakers_game", id="bakers_three", name="B3", cells=3)
    assert made.base == "freecell" and made.changes == {"build": "down in suit", "cells": 3}


# ------------------------------------------------------------------ dealt by the rules
# every value each change accepts, and some just outside
VALUES = {
    "build": st.sampled_from(
        ["down in suit", "up in alternating colours", "down regardless of suit", "up in suit"]
    ),
    "moves": st.sampled_from(["one card", "supermove", "runs", "any group"]),
    "empty": st.sampled_from(["any", "king", "none"]),
    "foundations": st.sampled_from(["ace up", "king down"]),
    "cells": st.integers(0, 11),
    "piles": st.integers(0, 16),
    "draw": st.integers(0, 6),
    "redeals": st.one_of(st.none(), st.integers(0, 11)),
    "decks": st.integers(0, 5),
}
MADE = iter(range(10**9))


@st.composite
def family_changes(draw):
    base = draw(st.sampled_from(sw.games()))
    cls = game_class(base)
    names = draw(
        st.lists(st.sampled_from(variation_of(cls).takes(cls) or ["build"]), unique=True, max_size=4)
    )
    return base, {name: draw(VALUES[name]) for name in names}


@settings(max_examples=150)
@given(family_changes(), st.integers(1, 10**6))
def test_every_variant_sw_variant_accepts_deals_a_position_its_rules_accept(made, number):
    base, changes = made
    game_id = f"dealt_{next(MADE)}"
    try:
        game = sw.variant(base, id=game_id, name=game_id, **changes).game()
    except sw.InvalidVariant:
        return
    state = game.deal(number)
    assert game.state_from_dict(state.to_dict()) == state
    for move in state.legal_moves():
        state.play(move)


def test_each_family_declares_its_changes_in_its_own_package():
    for base in sw.games():
        variation = variation_of(game_class(base))
        family = variation.family.__module__.rsplit(".", 1)[0]
        assert type(variation).__module__ == "solwidget.engine.variation"
        assert family.startswith("solwidget.games.")
        assert all(name in CHANGES for name in variation.changes)


# ------------------------------------------------------------------ ids
def test_an_id_is_at_most_so_long_and_any_accepted_one_reads_back_from_a_study(tmp_path):
    with pytest.raises(sw.InvalidVariant, match=f"at most {MAX_ID_CHARS} characters"):
        sw.variant("freecell", id="b" * (MAX_ID_CHARS + 1), name="Long")
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"id": "c" * (MAX_ID_CHARS + 1), "name": "Long", "base": "freecell"}))
    with pytest.raises(sw.InvalidVariant, match=f"long.json: field id: .*at most {MAX_ID_CHARS}"):
        sw.load_variant(path)
    longest = sw.variant("freecell", id="l" * MAX_ID_CHARS, name="Longest", cells=3)
    out = tmp_path / "longest.csv"
    first = sw.study(longest, "1-2", budget=None, max_states=300, out=out, progress=False, workers=1)
    again = sw.study(longest, "1-3", budget=None, max_states=300, out=out, progress=False, workers=1)
    assert sw.load_study(out).game == longest.id
    assert again.deals == [1, 2, 3] and again[:2] == first[:]


# ------------------------------------------------------------------ files
@pytest.mark.parametrize(
    "text, suffix, words",
    [
        ('id = "b"\nname = "B"\n', ".toml", "field 'base' is missing"),
        ('id = "b"\nname = "B"\nbase = "freecell"\nbuild = "down in sute"\n', ".toml", "field build: one of"),
        ('id = "b"\nname = "B"\nbase = "freecell"\ncells = "four"\n', ".toml", "field cells: a whole number"),
        ('id = "b"\nname = "B"\nbase = "spider"\n', ".toml", "field base: unknown game 'spider'"),
        ('id = "b"\nname = "B"\nbase = 3\n', ".toml", "field 'base' is a game id"),
        ('id = "b"\nname = "B"\nbase = "freecell"\nshuffle = 1\n', ".toml", "field shuffle: no such change"),
        ('id = "b\n', ".toml", "not TOML"),
        ('{"id": "b",', ".json", "not JSON"),
        ("[1, 2]", ".json", "a variant is a table"),
        ('id = "b"', ".yaml", "a variant file is .toml or .json"),
    ],
)
def test_a_malformed_file_is_refused_with_the_reason(tmp_path, text, suffix, words):
    path = tmp_path / f"variant{suffix}"
    path.write_text(text)
    with pytest.raises(sw.InvalidVariant) as caught:
        sw.load_variant(path)
    assert str(caught.value).startswith(str(path)) and words in str(caught.value)


BASE = '{"id": "hostile", "name": "Hostile", "base": "freecell"'


@pytest.mark.parametrize(
    "content, suffix, words",
    [
        ("[" * 30_000 + "]" * 30_000, ".json", "nested too deeply"),
        ("x = " + "[" * 20_000 + "]" * 20_000, ".toml", "nested too deeply"),
        (b'id = "caf\xe9"', ".toml", "not UTF-8 text (byte 0xe9 on line 1)"),
        (BASE + ', "cells": ' + "4" * 5000 + "}", ".json", "not JSON: Exceeds the limit (4300 digits)"),
        (
            'id = "b"\nname = "B"\nbase = "freecell"\ncells = ' + "4" * 5000,
            ".toml",
            "not TOML: Exceeds the limit",
        ),
        (
            BASE + ', "cells": ' + "9" * 300 + "}",
            ".json",
            "field cells: a whole number from 0 to 10, not <int of",
        ),
        (BASE + ', "build": ' + "[" * 400 + "]" * 400 + "}", ".json", "field build: one of"),
        ("# " + "x" * MAX_FILE_BYTES, ".toml", f"larger than {MAX_FILE_BYTES:,} bytes"),
    ],
)
def test_a_hostile_file_is_refused_with_the_file_and_the_reason(tmp_path, content, suffix, words):
    path = tmp_path / f"hostile{suffix}"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(sw.InvalidVariant) as caught:
        sw.load_variant(path)
    assert str(caught.value).startswith(f"{path}: ") and words in str(caught.value)


def test_a_field_named_by_no_text_is_refused():
    with pytest.raises(sw.InvalidVariant, match="the variant: field 1: no such change"):
        sw.variant_from_dict({"id": "numbered", "name": "Numbered", "base": "freecell", 1: 2})


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder"])
def test_a_file_that_is_no_regular_file_is_refused_unread(tmp_path, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")  # no writer: reading it would wait for ever
    elif target == "folder":
        (tmp_path / "folder").mkdir()
    path = tmp_path / "endless.toml"
    path.symlink_to(target if target.startswith("/") else tmp_path / target)
    with pytest.raises(sw.InvalidVariant) as caught:
        sw.load_variant(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert "not a regular file" in str(caught.value) or "Is a directory" in str(caught.value)


def test_the_command_line_takes_a_variant_file(tmp_path, capsys):
    path = tmp_path / "bakers.toml"
    path.write_text('id = "bakers_game"\nname = "Baker\'s Game"\nbase = "freecell"\nbuild = "down in suit"\n')
    assert cli.main(["solve", str(path), "5", "--quiet", "--max-states", "20000"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("bakers_game deal 5: won in")
    assert (
        cli.main(
            [
                "study",
                str(path),
                "--deals",
                "1-3",
                "--budget",
                "none",
                "--max-states",
                "3000",
                "--workers",
                "1",
                "--quiet",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("bakers_game, deals 1-3")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"id": "b", "name": "B", "base": "freecell", "decks": 2}))
    assert cli.main(["deal", str(bad), "1"]) == 2
    assert "bad.json: field decks: FreeCell cannot change it" in capsys.readouterr().err


def test_a_variant_pickles_into_a_fresh_interpreter():
    state = define("reversed_two_cells").game().deal(3)
    code = (
        "import pickle, sys; state = pickle.loads(sys.stdin.buffer.read()); "
        "print(state.game.id, len(state.game.cell_indices), len(state.legal_moves()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, check=True
    )
    assert out.stdout.decode().split() == ["reversed_two_cells", "2", str(len(state.legal_moves()))]


# ------------------------------------------------------------------ studied
def test_a_study_on_a_dask_cluster_equals_the_local_one():
    bakers = define("bakers_game")
    local = sw.study(bakers, "1-4", budget=None, max_states=2000, progress=False, workers=1)
    # process workers start from a fresh interpreter: they know only the catalogue, and
    # rebuild the variant from the definition sent with each deal
    with loopback_cluster(1) as cluster:
        remote = sw.study(
            bakers, "1-4", budget=None, max_states=2000, scheduler=cluster.scheduler_address, progress=False
        )
    outcome = [(r.deal, r.status, r.moves, r.states) for r in local]
    assert [(r.deal, r.status, r.moves, r.states) for r in remote] == outcome
    assert remote.game == "bakers_game"


def test_variants_collects_the_families_declarations_and_imports_nothing_private():
    import ast
    from pathlib import Path

    source = Path(sw.variants.__file__).read_text()
    imported = [
        (node.module, alias.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]
    assert not [(module, name) for module, name in imported if name.startswith("_")]
    families = {module for module, name in imported if module and module.startswith("games.")}
    assert families == {
        f"games.{family}.variant" for family in ("freecell", "interchange", "interlock", "mutated")
    }


@pytest.mark.parametrize("game_id", ["freecell", "triple_interchange", "interlock", "mutated"])
def test_docs_list_what_each_family_declares(game_id):
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "variants.md").read_text()
    row = next(
        line for line in docs.splitlines() if line.startswith("| `") and f"`{game_id}`" in line.split("|")[1]
    )
    may_change = row.split("|")[2]
    variation = variation_of(game_class(game_id))
    assert [name for name in CHANGES if name in may_change] == [n for n in CHANGES if n in variation.changes]
    assert variation.changes or may_change.strip() == "nothing"


def test_an_unknown_id_lists_a_few_variants_however_many_and_long_they_are():
    for n in range(30):
        sw.variant("freecell", id=f"many_{n}_" + "x" * 90, name=f"Many {n}", cells=n % 4)
    with pytest.raises(sw.UnknownGame) as caught:
        sw.load_game("no_such_game")
    assert " more" in str(caught.value) and len(str(caught.value)) < 400
