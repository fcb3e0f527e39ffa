"""Mutated Solitaire: one test (or a few) per rule sentence of docs/rules.md.

Positions are built with ``position()``: the piles named are exactly as given; every other
card goes, per suit, on a foundation as far as it can (up to just below the lowest rank of
that suit that the test places), and what is left lies face down in the decks the test does
not name, then as face-down/face-up pairs in the spaces it does not name (row 3 first).
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN, RANKS, SUITS, card_name, face_down, face_up, parse_card
from solwidget.engine.deals import shuffled_cards
from solwidget.engine.errors import IllegalMove, InvalidPosition
from solwidget.engine.moves import Move

GAME = sw.load_game("mutated")
DECK_IDS = ("d1", "d2", "d3")
SPACES = [f"r{r}c{c}" for r in (3, 2, 1) for c in range(1, 6)]


def expand(text):
    """``"AH-4H 9S"`` -> ``["AH", "2H", "3H", "4H", "9S"]``."""
    out = []
    for word in text.split():
        if "-" in word:
            first, last = (parse_card(w) for w in word.split("-"))
            out += [card_name(c) for c in range(first, last + 1)]
        else:
            out.append(word)
    return out


def row(pid):
    return 0 if pid[0] == "f" else int(pid[1])


def position(decks=None, **piles):
    piles = {pid: expand(text) if isinstance(text, str) else list(text) for pid, text in piles.items()}
    used = {face_up(parse_card(c)) for cards in piles.values() for c in cards}
    taken_suits = {face_up(parse_card(piles[f][0])) >> 4 for f in ("f0", "f1", "f2", "f3") if piles.get(f)}
    free_foundations = [f for f in ("f0", "f1", "f2", "f3") if f not in piles]
    rest = []
    for suit in range(4):
        ranks = [r for r in range(1, 14) if suit << 4 | r not in used]
        if suit in taken_suits or not free_foundations:
            rest += [suit << 4 | r for r in ranks]
            continue
        low = min([r for r in range(1, 14) if suit << 4 | r in used], default=14)
        piles[free_foundations.pop(0)] = [RANKS[r - 1] + SUITS[suit] for r in range(1, low)]
        rest += [suit << 4 | r for r in ranks if r > low]
    for pid in DECK_IDS:
        if pid not in piles:
            piles[pid] = [f"[{card_name(c)}]" for c in rest[:7]]
            rest = rest[7:]
    for pid in SPACES:
        if pid not in piles:
            pair, rest = rest[:2], rest[2:]
            piles[pid] = (
                [f"[{card_name(pair[0])}]", card_name(pair[1])]
                if len(pair) == 2
                else [card_name(c) for c in pair]
            )
    assert not rest, "too many cards left over: name more piles"
    piles.setdefault("r2x", [])
    for pid in ("f0", "f1", "f2", "f3"):
        piles.setdefault(pid, [])
    data = {"game": "mutated", "piles": piles}
    if decks is not None:
        data["decks"] = decks
    return GAME.state_from_dict(data)


def legal(state, text):
    return GAME.parse_move(text) in state.legal_moves()


def refused(state, text, words):
    reason = state.explain(text)
    assert reason is not None and words in reason, reason
    with pytest.raises(IllegalMove):
        state.play(text)
    return reason


# ---------------------------------------------------------------- piles and rows
def test_piles_and_rows_of_the_layout():
    layout = GAME.layout()
    rows = {p["id"]: p["row"] for p in layout["piles"]}
    kinds = {p["id"]: p["kind"] for p in layout["piles"]}
    assert set(rows) == set(GAME.pile_ids)
    assert all(rows[f"f{i}"] == 0 and kinds[f"f{i}"] == "foundation" for i in range(4))
    assert rows["r1c5"] == 1 and rows["r3c1"] == 3 and rows["r2x"] == 2 and kinds["r2x"] == "space"
    assert [rows[d] for d in DECK_IDS] == [1, 2, 3] and {kinds[d] for d in DECK_IDS} == {"deck"}
    place = {p["id"]: p for p in layout["piles"]}
    assert place["f0"]["y"] < place["r1c1"]["y"] < place["r2c1"]["y"] < place["r3c1"]["y"]
    assert place["r1c5"]["x"] < place["d1"]["x"] < place["r2x"]["x"] and place["d2"]["y"] == place["r2x"]["y"]
    assert place["d2"]["fan"] == "right" and place["r2c2"]["fan"] == "down"


# ---------------------------------------------------------------- the deal
def test_deal_layout_counts_faces_and_order():
    for number in (1, 617, 40000):
        state = GAME.deal(number)
        cards = shuffled_cards(number)
        pile = {pid: state.piles[GAME.pile_index(pid)] for pid in GAME.pile_ids}
        spaces = [f"r{r}c{c}" for r in (1, 2, 3) for c in range(1, 6)]
        assert [pile[s][0] for s in spaces] == [face_down(c) for c in cards[:15]]  # face-down layer
        assert [pile[s][1] for s in spaces] == cards[15:30]  # face-up layer
        assert all(len(pile[s]) == 2 for s in spaces)
        assert pile["r2x"] == (cards[30],)
        for k, d in enumerate(DECK_IDS):
            dealt = cards[31 + 7 * k : 38 + 7 * k]
            assert pile[d] == tuple(face_down(c) if i % 2 == 0 else c for i, c in enumerate(dealt))
        assert all(not pile[f"f{i}"] for i in range(4))
        assert sorted(face_up(c) for p in state.piles for c in p) == sorted(cards) and len(cards) == 52
        assert state.to_dict()["decks"] == {d: {"mode": "draw"} for d in DECK_IDS}


def test_the_deal_itself_flips_nothing():
    # A King dealt face up is not "moved into" a space: the decks stay as dealt.
    for number in range(1, 40):
        state = GAME.deal(number)
        for d in DECK_IDS:
            assert [c & FACE_DOWN for c in state.piles[GAME.pile_index(d)]] == [FACE_DOWN, 0] * 3 + [
                FACE_DOWN
            ]


# ---------------------------------------------------------------- rows
def test_cards_move_to_the_row_above_or_below_changing_column():
    state = position(r1c1="9H", r2c4="TS", r3c2="9D")
    assert legal(state, "r1c1 r2c4")  # row 1 -> row 2, column 1 -> column 4
    assert legal(state, "r3c2 r2c4")  # row 3 -> row 2
    after = state.play("r1c1 r2c4")
    assert after.pile("r2c4") == ["TS", "9H"] and after.pile("r1c1") == []


def test_cards_never_move_two_rows():
    state = position(r1c1="9H", r3c2="TS")
    refused(state, "r1c1 r3c2", "cards move only to the row above or below: r1c1 is in row 1, r3c2 in row 3")


def test_cards_never_move_within_their_row():
    state = position(r2c3="9H", r2c5="TS", r2x="TC", d2=["[2H]", "9D"])
    refused(state, "r2c3 r2c5", "cards move only to the row above or below: r2c3 is in row 2, r2c5 too")
    refused(state, "r2c3 r2x", "r2c3 is in row 2, r2x too")  # r2x belongs to row 2
    refused(state, "d2 r2c5 9D", "d2 is in row 2, r2c5 too")  # deck dN belongs to row N
    assert all(row(m.src) != row(m.dst) for m in state.legal_moves() if m.dst != "build")


def test_only_row_1_cards_go_to_the_foundations():
    state = position(
        r1c2="5H", r2c1="5S", d1=["[9C]", "5C"], d2=["5D"]
    )  # f0..f3: clubs, diamonds, hearts, spades
    assert legal(state, "r1c2 f2")
    assert legal(state, "d1 f0 5C")  # d1 is in row 1 too
    refused(state, "r2c1 f3", "only row 1 cards go to the foundations: r2c1 is in row 2")
    refused(state, "d2 f1 5D", "only row 1 cards go to the foundations: d2 is in row 2")


def test_foundations_build_up_in_suit_from_an_ace():
    state = position(r1c1="AH", r1c2="3S", r1c3="2D", f0=[], f1="AS", f2=[])
    assert legal(state, "r1c1 f0")
    assert legal(state, "r1c1 f2")  # any Ace starts any empty foundation
    refused(state, "r1c2 f1", "foundations build up in suit: f1 takes 2S next, not 3S")
    refused(state, "r1c3 f0", "an empty foundation takes only an Ace")
    refused(state, "r1c1 f1", "f1 takes 2S next, not AH")
    assert state.play("r1c1 f0").pile("f0") == ["AH"]


def test_the_top_foundation_card_may_come_back_to_a_fitting_row_1_space():
    state = position(f0="AH-7H", r1c1="8S", r1c2="8H", r2c1="8C")
    assert legal(state, "f0 r1c1")
    after = state.play("f0 r1c1")
    assert after.pile("r1c1") == ["8S", "7H"] and after.pile("f0")[-1] == "6H"
    refused(state, "f0 r1c2", "7H does not fit on 8H")
    refused(state, "f0 r2c1", "a foundation card comes back only to row 1: r2c1 is in row 2")
    refused(state, "f0 f1", "cards move only to the row above or below: f0 is in row 0, f1 too")
    refused(state, "f0 r1c1 2", "a foundation gives back only its top card")


# ---------------------------------------------------------------- spaces
def test_spaces_build_down_in_alternating_colours():
    state = position(r1c1="9H", r1c2="9S", r2c1="TS", r2c2="TD")
    assert legal(state, "r1c1 r2c1") and legal(state, "r1c2 r2c2")
    refused(state, "r1c1 r2c2", "9H does not fit on TD: spaces build down in alternating colours")
    refused(state, "r1c2 r2c1", "9S does not fit on TS")


def test_a_run_moves_as_a_unit_klondike_style():
    state = position(r1c1=["[2C]", "9H", "8S", "7D"], r2c1="TS", r2c2="9D", r2c3="8C")
    assert legal(state, "r1c1 r2c1 3") and legal(state, "r1c1 r2c2 2") and legal(state, "r1c1 r2c3")
    after = state.play("r1c1 r2c1 3")
    assert after.pile("r2c1") == ["TS", "9H", "8S", "7D"] and after.pile("r1c1") == ["2C"]
    refused(state, "r1c1 r2c1 4", "a face-down card cannot be moved")


def test_an_empty_space_takes_only_a_king_or_a_king_led_run():
    state = position(r1c1="", r2c1="KH", r2c2=["KS", "QD"], r2c3="QC")
    assert legal(state, "r2c1 r1c1") and legal(state, "r2c2 r1c1 2")
    refused(state, "r2c3 r1c1", "an empty space takes only a King or a run headed by a King")
    refused(state, "r2c2 r1c1", "an empty space takes only a King")


def test_r2x_is_a_row_2_space_while_it_holds_cards():
    state = position(r2x="TS", r1c1="9H", r3c1="9D", r1c2="JH")
    assert legal(state, "r1c1 r2x") and legal(state, "r3c1 r2x") and legal(state, "r2x r1c2")


def test_r2x_is_gone_once_emptied():
    state = position(r2x="QC", r1c1="KH", r3c1="KS", r1c2="")
    after = state.play("r2x r1c1")
    assert after.pile("r2x") == []
    refused(after, "r3c1 r2x", "r2x is gone: once emptied, nothing may be moved to it")
    refused(after, "r1c1 r2x", "r2x is gone")
    assert not any(m.dst == "r2x" for m in after.legal_moves())


# ---------------------------------------------------------------- decks in draw mode
def test_any_face_up_deck_card_may_be_drawn_alone_to_an_adjacent_row():
    state = position(d2=["[2C]", "QH", "[3C]", "5S", "[4C]"], r1c3="KS", r3c1="KC", r2c1="KD")
    assert legal(state, "d2 r1c3 QH") and legal(state, "d2 r3c1 QH")  # buried, face up
    after = state.play("d2 r1c3 QH")
    assert after.pile("d2") == ["[2C]", "[3C]", "5S", "[4C]"] and after.pile("r1c3") == ["KS", "QH"]
    assert GAME.parse_move("d2 r1c3 QH") == Move("d2", "r1c3", 1, "QH")
    refused(state, "d2 r2c1 QH", "cards move only to the row above or below: d2 is in row 2, r2c1 too")
    refused(state, "d2 r1c3", "a card leaves a deck in draw mode alone and by name")
    refused(state, "d2 r1c3 2", "a card leaves a deck in draw mode alone and by name")
    refused(state, Move("d2", "r1c3", 2, "QH"), "a card leaves a deck in draw mode alone")
    refused(state, "d2 r1c3 JD", "JD is not among the face-up cards of d2")


def test_a_face_down_deck_card_cannot_be_drawn():
    state = position(d2=["[QH]", "5S"], r1c3="KS")
    refused(state, "d2 r1c3 QH", "QH is not among the face-up cards of d2")


def test_a_d1_card_may_go_to_a_foundation():
    state = position(d1=["[KC]", "AH", "[QC]"])
    assert legal(state, "d1 f2 AH")  # f2: the hearts' foundation, empty
    assert state.play("d1 f2 AH").pile("d1") == ["[KC]", "[QC]"]


def test_nothing_is_placed_on_a_deck_in_draw_mode():
    state = position(d2=["[5C]", "TS"], r1c1="9H", r3c1="9D")
    refused(state, "r1c1 d2", "nothing is placed on a deck in draw mode: d2 is in draw mode")
    refused(state, "r3c1 d2", "nothing is placed on a deck in draw mode")


# ---------------------------------------------------------------- flipping
def test_a_king_moved_into_a_space_flips_the_deck_of_that_row():
    deck1 = ["[2C]", "3H", "[4C]", "5H", "[6C]", "7H", "[8C]"]
    state = position(r2c1="KS", r1c4="", d1=deck1)
    after = state.play("r2c1 r1c4")
    assert after.pile("r1c4") == ["KS"]
    assert after.pile("d1") == ["8C", "[7H]", "6C", "[5H]", "4C", "[3H]", "2C"]  # reversed, faces inverted
    assert state.play("r2c1 r1c4").pile("d2") == state.pile("d2")  # other decks untouched


def test_a_king_drawn_from_a_deck_into_a_space_flips_that_space_rows_deck():
    state = position(d2=["[2C]", "KH"], r3c5="", d3=["[3C]", "4H"], d1=["[5C]"])
    after = state.play("d2 r3c5 KH")
    assert (
        after.pile("d3") == ["[4H]", "3C"] and after.pile("d1") == ["[5C]"] and after.pile("d2") == ["[2C]"]
    )


def test_a_king_turned_up_in_a_space_flips_the_deck_of_that_row():
    state = position(r1c2=["[KD]", "5H"], r2c1="6S", d1=["[2C]", "3H"], d2=["[4C]"])
    after = state.play("r1c2 r2c1")
    assert after.pile("r1c2") == ["KD"]  # turned up at once
    assert after.pile("d1") == ["[3H]", "2C"]  # row 1's deck flipped
    assert after.pile("d2") == ["[4C]"]  # the King moved nowhere near row 2


def test_a_move_may_flip_two_decks():
    # A King leaves r2c2 for row 1 and turns up another King beneath it, in row 2.
    state = position(r2c2=["[KC]", "KD"], r1c1="", d1=["[2C]"], d2=["[3C]", "4H"])
    after = state.play("r2c2 r1c1")
    assert after.pile("r2c2") == ["KC"] and after.pile("d1") == ["2C"] and after.pile("d2") == ["[4H]", "3C"]


def test_no_flip_of_a_deck_in_built_mode():
    state = position(r2c1="KS", r1c4="", d1=["[2C]", "3H", "9C"], decks={"d1": {"mode": "built", "base": 2}})
    after = state.play("r2c1 r1c4")
    assert after.pile("d1") == ["[2C]", "3H", "9C"] and after.to_dict()["decks"]["d1"] == {
        "mode": "built",
        "base": 2,
    }


def test_no_flip_of_an_empty_deck():
    state = position(r2c1="KS", r1c4="", d1=[])
    after = state.play("r2c1 r1c4")
    assert after.pile("d1") == [] and after.pile("r1c4") == ["KS"]


# ---------------------------------------------------------------- built mode
def test_build_turns_a_face_down_top_card_into_a_base():
    state = position(d2=["[2C]", "5H", "[9D]"])
    assert legal(state, "d2 build") and GAME.parse_move("d2 build") == Move("d2", "build")
    after = state.play("d2 build")
    assert after.pile("d2") == ["[2C]", "5H", "9D"]
    assert after.to_dict()["decks"]["d2"] == {"mode": "built", "base": 2}
    refused(after, "d2 build", "d2 is already in built mode (its base is 9D)")


def test_build_on_a_face_up_top_card_and_its_refusals():
    state = position(d3=["[2C]", "5H"], d1=[], r1c1="4S")
    after = state.play("d3 build")
    assert after.pile("d3") == ["[2C]", "5H"] and after.to_dict()["decks"]["d3"]["base"] == 1
    refused(state, "d1 build", "d1 is empty: there is no top card to build on")
    refused(state, "r1c1 build", "only a deck (d1, d2, d3) can be turned into a built pile")
    refused(state, "build d3", "'build' is an action")


def test_a_built_deck_plays_like_a_space_of_its_row():
    built = {"d2": {"mode": "built", "base": 1}}
    state = position(
        d2=["[2C]", "9D", "8S", "7H"],
        r1c1="6S",
        r3c1="6C",
        r2c1="6D",
        r1c2="9H",
        r1c3="TC",
        r3c2="",
        decks=built,
    )
    assert legal(state, "r1c1 d2") and legal(state, "r3c1 d2")  # takes from rows 1 and 3
    refused(state, "r2c1 d2", "r2c1 is in row 2, d2 too")  # but not from its own row
    assert legal(state, "d2 r1c3 3")  # a run, counted from the top
    after = state.play("d2 r1c2 2")
    assert after.pile("r1c2") == ["9H", "8S", "7H"] and after.pile("d2") == ["[2C]", "9D"]
    assert after.to_dict()["decks"]["d2"] == {"mode": "built", "base": 1}
    refused(state, "d2 r1c2 QH", "d2 is in built mode: its cards are counted from the top")
    refused(state, "d2 r3c2 3", "an empty space takes only a King")


def test_the_cards_beneath_a_built_base_are_hidden():
    built = {"d2": {"mode": "built", "base": 2}}
    state = position(d2=["[2C]", "QH", "9D"], r1c1="KS", r1c2="TC", decks=built)
    refused(state, "d2 r1c1 QH", "d2 is in built mode: its cards are counted from the top")
    refused(
        state,
        "d2 r1c2 2",
        "a deck in built mode hides the cards beneath its base: d2's built pile holds only 1",
    )
    assert not any(m.card == "QH" for m in state.legal_moves())


def test_a_built_deck_returns_to_draw_mode_when_its_base_leaves():
    built = {"d1": {"mode": "built", "base": 2}}
    state = position(d1=["[2C]", "5D", "9S", "8H"], r2c1="TD", decks=built)
    after = state.play("d1 r2c1 2")
    assert after.pile("d1") == ["[2C]", "5D"]  # faces kept
    assert after.to_dict()["decks"]["d1"] == {"mode": "draw"}
    assert legal(after, "d1 build")
    one = position(d1=["[2C]", "5D", "9S", "8H"], r2c1="9C", decks=built).play("d1 r2c1")
    assert one.to_dict()["decks"]["d1"] == {"mode": "built", "base": 2}  # base still there


def test_a_built_d1_goes_to_the_foundations_one_card_at_a_time():
    built = {"d1": {"mode": "built", "base": 0}}
    state = position(d1=["3H", "2S"], f0="AS", f1="AH-2H", decks=built)
    assert legal(state, "d1 f0")
    after = state.play("d1 f0").play("d1 f1")
    assert after.pile("d1") == [] and after.to_dict()["decks"]["d1"] == {"mode": "draw"}
    refused(state, "d1 f0 2", "cards go to a foundation one at a time")


def test_a_foundation_card_may_come_back_to_a_built_d1():
    # The seed text is silent here; a built d1 is a Pile 2-type pile of row 1, so it takes one.
    state = position(f0="AH-7H", d1=["[2C]", "8C"], decks={"d1": {"mode": "built", "base": 1}})
    assert legal(state, "f0 d1")


# ---------------------------------------------------------------- winning
def test_won_only_with_all_52_cards_on_the_foundations():
    won = position()
    assert won.is_won()
    almost = position(r1c1="KH")
    assert not almost.is_won() and legal(almost, "r1c1 f2")
    assert almost.play("r1c1 f2").is_won()


# ---------------------------------------------------------------- explain, positions, keys
def test_explain_names_the_rule():
    state = position(
        r2c3="9H",
        r2c5="TS",
        d2=["[QH]", "5S"],
        d3=["[2C]", "8D", "7S"],
        r1c1="KC",
        r3c1="",
        decks={"d3": {"mode": "built", "base": 2}},
    )
    words = {
        "r2c3 r2c5": "cards move only to the row above or below: r2c3 is in row 2, r2c5 too",
        "d3 r2c5 2": "a deck in built mode hides the cards beneath its base",
        "r2c3 f0": "only row 1 cards go to the foundations",
        "r1c1 d2": "nothing is placed on a deck in draw mode",
        "d2 r1c1 QH": "QH is not among the face-up cards of d2",
        "r1c1 r1c1": "a move needs two different piles",
        "r3c1 r2c3": "r3c1 is empty",
        "r1c1 r2c3 3": "r1c1 holds only 1 card",
    }
    for text, expected in words.items():
        assert expected in state.explain(text), (text, state.explain(text))
    gone = position(r2x=[], r1c1="KC")
    assert "r2x is gone: once emptied, nothing may be moved to it" in gone.explain("r1c1 r2x")
    assert "malformed" in state.explain("r2c3")


def test_refused_moves_leave_the_state_unchanged():
    state = position(r2c3="9H", r2c5="TS", d2=["[QH]", "5S"])
    before = state.to_dict()
    for text in ("r2c3 r2c5", "d2 r1c1 QH", "r2c5 f0", "d2 build 2"):
        with pytest.raises(IllegalMove):
            state.play(text)
    assert state.to_dict() == before


def test_to_dict_round_trip():
    built = {"d1": {"mode": "built", "base": 1}, "d3": {"mode": "built", "base": 0}}
    state = position(d1=["[2C]", "9S", "8H"], d3=["4D"], r1c1=["[QS]", "JH"], decks=built)
    d = state.to_dict()
    assert d["piles"]["r1c1"] == ["[QS]", "JH"] and d["piles"]["d1"] == ["[2C]", "9S", "8H"]
    assert d["decks"] == {
        "d1": {"mode": "built", "base": 1},
        "d2": {"mode": "draw"},
        "d3": {"mode": "built", "base": 0},
    }
    assert GAME.state_from_dict(d) == state
    deal = GAME.deal(5)
    assert GAME.state_from_dict(deal.to_dict()) == deal


@pytest.mark.parametrize(
    "change, words",
    [
        ({"decks": {"d1": {"mode": "flying"}}}, "deck d1: expected"),
        ({"decks": {"d4": {"mode": "draw"}}}, "unknown decks d4"),
        ({"decks": {"d1": {"mode": "built", "base": 9}}}, "d1's base index 9 is beyond"),
        ({"decks": {"d1": {"mode": "built", "base": -1}}}, "a whole number >= 0"),
        ({"decks": {"d1": {"mode": "draw", "base": 0}}}, "d1 is in draw mode: it has no base"),
        ({"decks": "draw"}, "'decks' must be a dict"),
    ],
)
def test_state_from_dict_refuses_bad_deck_modes(change, words):
    data = {**position(d1=["[2C]", "9S"]).to_dict(), **change}
    with pytest.raises(InvalidPosition, match=words.replace("(", r"\(")):
        GAME.state_from_dict(data)


@pytest.mark.parametrize(
    "piles, decks, words",
    [
        ({"r1c1": ["5H", "[2C]"]}, None, "the top card of r1c1 is face down"),
        ({"r1c1": ["[2C]", "[5H]", "4S"]}, None, "at most one face-down card"),
        ({"r1c1": ["9H", "7S"]}, None, "7S cannot lie on 9H"),
        ({"r2x": ["[2C]", "5H"]}, None, "r2x is dealt one face-up card"),
        ({"d1": ["[2C]", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]}, None, "at most 7"),
        ({"d1": ["[2C]", "[9S]"]}, {"d1": {"mode": "built", "base": 1}}, "lie face up"),
        ({"d1": ["[2C]", "9S", "9H"]}, {"d1": {"mode": "built", "base": 1}}, "9H cannot lie on 9S"),
        ({"f0": ["2C"]}, None, "f0 is not a legal foundation"),
    ],
)
def test_state_from_dict_refuses_impossible_piles(piles, decks, words):
    with pytest.raises(InvalidPosition, match=words):
        position(decks=decks, **piles)


def test_a_missing_decks_key_means_draw_mode():
    data = position(d1=["[2C]", "9S"]).to_dict()
    del data["decks"]
    assert GAME.state_from_dict(data).to_dict()["decks"]["d1"] == {"mode": "draw"}


def test_key_takes_the_spaces_of_a_row_as_a_set_but_not_r2x_or_decks():
    a = position(r1c1="9H", r1c4="8S", r2c1="KS")
    b = position(r1c2="8S", r1c5="9H", r2c1="KS")
    assert a != b and a.key() == b.key()
    c = position(r1c1="9H", r2c1="8S", r3c1="KS")
    d = position(r1c1="9H", r2x="8S", r3c1="KS")
    assert c.key() != d.key()
    e = position(d1=["[2C]"], d2=[], r1c1="KS")
    f = position(d1=[], d2=["[2C]"], r1c1="KS")
    assert e.key() != f.key()


# ---------------------------------------------------------------- random play
def test_random_playouts_keep_52_cards_and_agree_with_play():
    rng = random.Random(7)
    for number in range(1, 9):
        state = GAME.deal(number)
        for _ in range(100):
            moves = state.legal_moves()
            if not moves:
                break
            assert len(set(moves)) == len(moves)
            move = rng.choice(moves)
            assert state.explain(move) is None and GAME.parse_move(str(move)) == move
            following = dict(GAME.successors(state))[move]
            state = state.play(move)
            assert following == state
            cards = sorted(face_up(c) for pile in state.piles for c in pile)
            assert cards == sorted(shuffled_cards(number))
            assert GAME.state_from_dict(state.to_dict()) == state  # every reached position is valid


def candidate_moves(state):
    """Every move one could type here: each pile to each pile by count, each deck card by name."""
    for src in GAME.pile_ids:
        pile = state.pile(src)
        yield Move(src, "build")
        for dst in GAME.pile_ids:
            for n in range(1, len(pile) + 1):
                yield Move(src, dst, n)
            if src.startswith("d"):
                for card in pile:
                    yield Move(src, dst, 1, card.strip("[]"))


def test_move_generation_and_refusals_agree_on_every_candidate_move():
    # Two encodings of the rules: _moves lists the legal moves, _refusal finds a reason
    # against a move; on every typed move exactly one of them must speak.
    rng = random.Random(11)
    built_seen = 0
    for number in range(1, 9):
        state = GAME.deal(number)
        for step in range(60):
            moves = state.legal_moves()
            if not moves:
                break
            built_seen += any(mode["mode"] == "built" for mode in state.to_dict()["decks"].values())
            if step % 5 == 0:
                legal_set = set(moves)
                for move in candidate_moves(state):
                    reason = GAME._refusal(state, move)
                    assert (move in legal_set) == (reason is None), (str(move), reason)
            state = state.play(rng.choice(moves))
    assert built_seen > 20  # the built mode was exercised too


def test_text_board_hides_what_the_player_cannot_see():
    built = {"d2": {"mode": "built", "base": 2}}
    board = str(position(d2=["[2C]", "QH", "9D", "8S"], d1=["[3C]", "4H"], r1c1=["[QS]", "JH"], decks=built))
    assert "d2:   built on 2 hidden cards: 9D 8S" in board and "QH" not in board
    assert "d1:   ## 4H" in board and "r1c1: ## JH" in board


@given(st.integers(1, 10**7), st.lists(st.integers(0, 10**6), max_size=50))
def test_property_play_keeps_cards_and_positions_round_trip(number, choices):
    state = GAME.deal(number)
    assert GAME.deal(number) == state  # deals are deterministic
    expected = sorted(shuffled_cards(number))
    for choice in choices:
        moves = state.legal_moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        state = state.play(move)
        assert sorted(face_up(c) for pile in state.piles for c in pile) == expected
    assert GAME.state_from_dict(state.to_dict()) == state
    assert GAME.key(GAME.state_from_dict(state.to_dict())) == state.key()


def test_a_king_back_from_a_foundation_to_an_empty_row_1_space_flips_d1():
    state = position(f0="AC-KC", r1c1="", d1=["[2H]", "3S"])
    after = state.play("f0 r1c1")
    assert after.pile("r1c1") == ["KC"] and after.pile("d1") == ["[3S]", "2H"]
