"""Positions: to_dict / state_from_dict, refusing every bad input with a message naming the
problem; states as values (immutable, hashable, unchanged by a refused move); the text board;
the canonical key."""

import copy
import pickle

import pytest
from helpers import position

import solwidget as sw


def bad(game_id, d, *words):
    with pytest.raises(sw.InvalidPosition) as err:
        sw.load_game(game_id).state_from_dict(d)
    for word in words:
        assert word in str(err.value), str(err.value)


def dict_of(game_id, number=1):
    return sw.load_game(game_id).deal(number).to_dict()


# ----------------------------------------------------------------- round trip
@pytest.mark.parametrize("game_id", sw.games())
def test_to_dict_round_trips(game_id):
    state = sw.load_game(game_id).deal(3)
    d = state.to_dict()
    assert d["game"] == game_id
    assert list(d["piles"]) == list(state.game.pile_ids)
    assert state.game.state_from_dict(copy.deepcopy(d)) == state


def test_cards_may_be_written_10d_and_with_suit_glyphs():
    d = dict_of("freecell")
    d["piles"] = {
        p: [c.replace("T", "10").replace("H", "♥") for c in cards] for p, cards in d["piles"].items()
    }
    assert sw.load_game("freecell").state_from_dict(d) == sw.load_game("freecell").deal(1)


# ----------------------------------------------------------------- bad input
def test_not_a_dict_or_no_piles():
    bad("freecell", ["t0"], "a position is a dict")
    bad("freecell", {"game": "freecell"}, "needs 'piles'")
    bad("freecell", {"game": "freecell", "piles": [[]]}, "needs 'piles'")


def test_a_position_of_another_game_or_other_options():
    bad("freecell", dict_of("reversed_solitaire"), "of game 'reversed_solitaire', not 'freecell'")
    d = dict_of("freecell")
    d["options"] = {"cells": 2}
    bad("freecell", d, "options")


def test_unknown_piles():
    d = dict_of("freecell")
    d["piles"]["t8"] = []
    d["piles"]["stock"] = []
    bad("freecell", d, "unknown piles t8, stock")


def test_missing_piles():
    d = dict_of("freecell")
    del d["piles"]["c2"]
    bad("freecell", d, "missing piles c2", "[]")


def test_a_pile_that_is_not_a_list():
    d = dict_of("freecell")
    d["piles"]["t0"] = "JD KD"
    bad("freecell", d, "pile t0 must be a list")


@pytest.mark.parametrize("code", ["1H", "ZZ", "QX", "Q", "QHH", "[QH", "", 7, None, "11H"])
def test_malformed_card_codes(code):
    d = dict_of("freecell")
    d["piles"]["t0"][0] = code
    bad("freecell", d, "pile t0", "malformed card" if isinstance(code, str) else "written as text")


def test_a_missing_card():
    d = dict_of("freecell")
    d["piles"]["t0"].pop(0)  # JD
    bad("freecell", d, "each card must appear exactly once", "JD appears 0 times")


def test_a_duplicate_card():
    d = dict_of("freecell")
    d["piles"]["t0"][0] = "KD"  # JD gone, KD twice
    bad("freecell", d, "JD appears 0 times", "KD appears 2 times")


def test_multi_deck_games_need_each_card_once_per_deck():
    d = dict_of("triple_interchange")
    d["piles"]["waste"].append("6S")
    bad("triple_interchange", d, "each card must appear exactly 3 times", "6S appears 4 times")


def test_a_foundation_that_is_not_a_legal_build():
    bad("freecell", {"game": "freecell", "piles": {}}, "missing piles")
    with pytest.raises(
        sw.InvalidPosition, match="f0 is not a legal foundation: it must start with an Ace, not 2H"
    ):
        position("freecell", f0="2H-3H", rest="t7")
    with pytest.raises(sw.InvalidPosition, match="3S cannot go on 2H"):
        position("freecell", f0="AH 2H 3S", rest="t7")
    with pytest.raises(sw.InvalidPosition, match="4H cannot go on 2H"):
        position("freecell", f0="AH 2H 4H", rest="t7")
    with pytest.raises(sw.InvalidPosition, match="must start with a King, not AH"):
        position("reversed_solitaire", f0="AH-3H", rest="t7")
    with pytest.raises(sw.InvalidPosition, match="f1 is not a legal foundation"):
        position("triple_interchange", f1="AH 2H 2H")


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire", "inverted_freecell"])
def test_face_down_cards_where_the_game_has_none(game_id):
    with pytest.raises(sw.InvalidPosition, match="t0 holds face-down card \\[KH\\]"):
        position(game_id, t0="[KH] 5C", rest="t7")
    with pytest.raises(sw.InvalidPosition, match="c0 holds face-down card"):
        position(game_id, c0="[KH]", rest="t7")


def test_face_down_cards_in_the_interchange_family():
    with pytest.raises(sw.InvalidPosition, match="foundation cards lie face up"):
        position("interchange", f0="AH [2H]")
    with pytest.raises(sw.InvalidPosition, match="waste holds face-down card"):
        position("interchange", waste="[KH]")
    with pytest.raises(sw.InvalidPosition, match="the top card of t0 is face down"):
        position("interchange", t0="5C [KH]")
    d = dict_of("interchange")
    d["piles"]["stock"][0] = d["piles"]["stock"][0].strip("[]")
    bad("interchange", d, "every stock card is face down")


def test_a_cell_holds_one_card():
    with pytest.raises(sw.InvalidPosition, match="c0 holds 2 cards: a cell holds one"):
        position("freecell", c0="KH KS", rest="t7")


@pytest.mark.parametrize(
    "redeals, words",
    [
        (-1, "must be a whole number >= 0"),
        ("1", "whole number"),
        (True, "whole number"),
        (1.0, "whole number"),
    ],
)
def test_bad_redeals_counts(redeals, words):
    d = dict_of("unlimited")
    d["redeals"] = redeals
    bad("unlimited", d, "'redeals'", words)


def test_more_redeals_than_the_game_allows():
    d = dict_of("interchange")
    d["redeals"] = 1
    bad("interchange", d, "'redeals' is 1, but this game allows 0")
    d = dict_of("unlimited")
    d["redeals"] = 40
    assert sw.load_game("unlimited").state_from_dict(d).to_dict()["redeals"] == 40


# ----------------------------------------------------------------- states are values
def test_states_are_immutable_and_hashable():
    state = sw.load_game("freecell").deal(1)
    with pytest.raises(AttributeError):
        state.piles = ()
    assert {state: 1}[sw.load_game("freecell").deal(1)] == 1
    assert pickle.loads(pickle.dumps(state)) == state
    assert all(isinstance(p, tuple) and all(type(c) is int for c in p) for p in state.piles)


@pytest.mark.parametrize("game_id", ["freecell", "triple_interchange"])
def test_a_refused_move_leaves_the_state_as_it_was(game_id):
    state = sw.load_game(game_id).deal(1)
    before = state.to_dict()
    for move in ("t0 t1 6", "f0 t0", "t0 t0", "t0 f0 2"):
        with pytest.raises(sw.IllegalMove):
            state.play(move)
    with pytest.raises(sw.InvalidMoveText):
        state.play("t0 zz")
    assert state.to_dict() == before
    assert state == sw.load_game(game_id).deal(1)


def test_text_board_shows_the_stock_as_a_count_and_hides_face_down_cards():
    text = str(sw.load_game("interchange").deal(1))
    lines = text.splitlines()
    assert lines[0] == "Interchange (interchange)"
    assert "stock: 54 cards" in lines
    assert "waste: 7H" in lines
    assert "t0:    3D ## TC ## 9H ## 7D" in lines
    assert "[" not in text and text.count("##") == 7 * 3  # hidden cards stay hidden
    assert lines[1].startswith("foundations: f0 --  f1 --")


def test_text_board_of_freecell_shows_cells_and_foundation_tops():
    s = position("freecell", f0="AH-3H", c2="KS", t0="5D", rest="t7")
    lines = str(s).splitlines()
    assert lines[1] == "foundations: f0 3H  f1 --  f2 --  f3 --"
    assert lines[2] == "cells: c0 --  c1 --  c2 KS  c3 --"
    assert "t0: 5D" in lines and "t1: --" in lines


# ----------------------------------------------------------------- canonical key
def test_key_ignores_the_order_of_cells_foundations_and_symmetric_tableau_piles():
    a = position("freecell", c0="KS", c2="QH", f0="AC-3C", f1="AD", t0="5D", t1="9C 8H", rest="t7")
    b = position("freecell", c1="QH", c3="KS", f2="AC-3C", f3="AD", t4="5D", t6="9C 8H", rest="t7")
    assert a != b and a.key() == b.key()
    c = position("freecell", c0="KS", c2="QH", f0="AC-3C", f1="AD", t0="5D", t1="8H 9C", rest="t7")
    assert a.key() != c.key()
    assert hash(a.key()) == hash(b.key())


def test_key_of_interchange_games_ignores_passes_only_when_unlimited():
    a = position("unlimited", t0="KD", redeals=0)
    b = position("unlimited", t0="KD", redeals=3)
    assert a.key() == b.key()
    c = position("triple_interchange", t3="QH JH", f5="AS", f7="AS-3S")
    d = position("triple_interchange", t8="QH JH", f0="AS-3S", f11="AS")
    assert c.key() == d.key()
