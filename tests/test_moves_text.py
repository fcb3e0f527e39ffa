"""Move text (docs/rules.md): "SRC DST", "SRC DST N", actions, and every malformed form refused."""

import pytest

import solwidget as sw
from solwidget import Move


@pytest.mark.parametrize(
    "text, move",
    [
        ("t3 f0", Move("t3", "f0")),
        ("t3 t5 4", Move("t3", "t5", 4)),
        ("t3 t5 1", Move("t3", "t5")),
        ("  t3   t5  4 ", Move("t3", "t5", 4)),
        ("c0 t7", Move("c0", "t7")),
    ],
)
def test_freecell_move_text(text, move):
    game = sw.load_game("freecell")
    assert game.parse_move(text) == move
    assert game.parse_move(str(move)) == move
    assert (move.src, move.dst, move.n) == tuple(text.split()[:2]) + (move.n,)


def test_str_of_moves():
    assert str(Move("t3", "f0")) == "t3 f0"
    assert str(Move("t3", "t5", 4)) == "t3 t5 4"
    assert str(Move("stock", "waste")) == "stock waste"
    assert str(Move("waste", "stock")) == "waste stock"
    assert str(Move("d2", "r1c3", card="QH")) == "d2 r1c3 QH"


def test_stock_actions_parse_in_stock_games_only():
    game = sw.load_game("triple_interchange")
    assert game.parse_move("stock waste") == Move("stock", "waste")
    assert game.parse_move("waste stock") == Move("waste", "stock")
    with pytest.raises(sw.InvalidMoveText, match="freecell has no pile 'stock'"):
        sw.load_game("freecell").parse_move("stock waste")


def test_a_named_card_parses_into_a_canonical_name():
    game = sw.load_game("freecell")
    assert game.parse_move("t0 t1 10h") == Move("t0", "t1", card="TH")
    assert game.parse_move("t0 t1 Q♥") == Move("t0", "t1", card="QH")
    assert game.parse_move("t0 t1 [QH]") == Move("t0", "t1", card="QH")


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "expected 'SRC DST' or 'SRC DST N'"),
        ("t3", "expected 'SRC DST' or 'SRC DST N'"),
        ("t3 t5 4 2", "expected 'SRC DST' or 'SRC DST N'"),
        ("t3 t5 0", "must be a whole number >= 1"),
        ("t3 t5 -1", "the third word must be a card count or a card"),
        ("t3 t5 x", "the third word must be a card count or a card"),
        ("t3 t5 ٣", "the third word must be a card count or a card"),
        ("t3 t5 2.5", "the third word must be a card count or a card"),
        ("t8 f0", "freecell has no pile 't8'"),
        ("t3 F0", "freecell has no pile 'F0'"),
        ("t3 build", "freecell has no pile 'build'"),
    ],
)
def test_malformed_move_text_is_refused(text, words):
    game = sw.load_game("freecell")
    with pytest.raises(sw.InvalidMoveText) as err:
        game.parse_move(text)
    assert words in str(err.value)
    assert game.deal(1).explain(text) == str(err.value)  # explain gives the same words


@pytest.mark.parametrize("bad", [None, 3, ["t3", "f0"], b"t3 f0"])
def test_a_move_is_text_or_a_move(bad):
    with pytest.raises(sw.InvalidMoveText, match="a move is text like"):
        sw.load_game("freecell").parse_move(bad)


@pytest.mark.parametrize(
    "move", [Move("t0", "t1", 0), Move("t0", "t1", "2"), Move("t0", "t1", True), Move("t0", "t1", -2)]
)
def test_move_values_with_a_bad_count_are_refused(move):
    with pytest.raises(sw.InvalidMoveText, match="the number of cards must be a whole number >= 1"):
        sw.load_game("freecell").parse_move(move)


def test_move_values_with_a_bad_card_are_refused():
    with pytest.raises(sw.InvalidMoveText, match="malformed card"):
        sw.load_game("freecell").parse_move(Move("t0", "t1", card="ZZ"))


def test_play_and_explain_take_text_or_moves():
    state = sw.load_game("freecell").deal(1)
    assert state.play("t0 c0") == state.play(Move("t0", "c0"))
    assert state.explain("t0 c0") is None
    with pytest.raises(sw.InvalidMoveText):
        state.play("t0")
    reason = state.explain("t0 t1 QH")
    assert "cards are named only when taken from inside a Mutated Solitaire deck" in reason


@pytest.mark.parametrize("move", [Move(3, "f0"), Move(["t0"], "f0"), Move("t0", None)])
def test_move_values_with_bad_pile_ids_are_refused(move):
    with pytest.raises(sw.InvalidMoveText, match="freecell has no pile"):
        sw.load_game("freecell").parse_move(move)


def test_a_move_parsed_before_is_checked_as_strictly_again():
    # parse_move remembers the Moves it returned (a line replayed parses the same moves
    # again and again); a Move equal to one of them but not in its one form is still
    # refused or made normal, as the first time.
    game = sw.load_game("mutated")
    good = game.parse_move(sw.Move("d1", "r2x", 1, "3S"))
    assert game.parse_move(good) is good
    for bad in (sw.Move("d1", "r2x", True, "3S"), sw.Move("d1", "r2x", 1.0, "3S")):
        assert bad == good
        with pytest.raises(sw.InvalidMoveText, match="whole number >= 1"):
            game.parse_move(bad)
    assert game.parse_move(sw.Move("d1", "r2x", 1, "3s")) == good
    with pytest.raises(sw.InvalidMoveText):
        game.parse_move(sw.Move("d1", ["r2x"], 1, "3S"))
