"""docs/rules.md on Reversed Solitaire, its decision (Inverted FreeCell) and the reference
game FreeCell: one test per rule sentence, legal and illegal, with the reason ``explain`` gives."""

import random

import pytest
from helpers import moves, position

import solwidget as sw
from solwidget.engine.cards import ACE, FACE_DOWN
from solwidget.engine.errors import InvalidOption
from solwidget.engine.moves import Move
from solwidget.engine.patience import Build, Patience
from solwidget.games.freecell.moves import fits

DOWN_GAMES = ["reversed_solitaire", "freecell"]  # tableau down in alternating colours
FAMILY = ["reversed_solitaire", "inverted_freecell", "freecell"]


def legal(state, move):
    assert state.explain(move) is None, state.explain(move)
    after = state.play(move)
    assert after != state
    return after


def refused(state, move, *words):
    reason = state.explain(move)
    assert reason is not None, f"{move} should be refused"
    for word in words:
        assert word in reason, reason
    with pytest.raises(sw.IllegalMove) as err:
        state.play(move)
    assert err.value.reason == reason
    return reason


# ----------------------------------------------------------------- piles and deal
@pytest.mark.parametrize("game_id", FAMILY)
def test_piles_are_t0_t7_c0_c3_f0_f3(game_id):
    game = sw.load_game(game_id)
    assert set(game.pile_ids) == {f"t{i}" for i in range(8)} | {f"c{i}" for i in range(4)} | {
        f"f{i}" for i in range(4)
    }
    kinds = game.pile_kinds
    assert [p for p in game.pile_ids if kinds[p] == "cell"] == ["c0", "c1", "c2", "c3"]


@pytest.mark.parametrize("game_id", FAMILY)
@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 10**12])
def test_deal_is_freecell_deal_n_in_the_same_places_all_face_up(game_id, number):
    state = sw.load_game(game_id).deal(number)
    reference = sw.load_game("freecell").deal(number)
    assert state.piles == reference.piles
    assert [len(state.pile(f"t{i}")) for i in range(8)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert not any(c & FACE_DOWN for pile in state.piles for c in pile)
    assert all(not state.pile(p) for p in ("c0", "c1", "c2", "c3", "f0", "f1", "f2", "f3"))


def test_freecell_deal_1_is_microsoft_deal_1():
    state = sw.load_game("freecell").deal(1)
    assert state.pile("t0") == ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]
    assert [state.pile(f"t{i}")[0] for i in range(8)] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


# ----------------------------------------------------------------- tableau building
@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_tableau_builds_down_in_alternating_colours(game_id):
    s = position(game_id, t0="7H", t1="6S", t2="6H", t3="8S", t4="5C", rest="t7")
    legal(s, "t1 t0")  # 6S on 7H
    refused(s, "t2 t0", "6H does not fit on 7H", "down in alternating colours")  # same colour
    refused(s, "t3 t0", "8S does not fit on 7H")  # up, not down
    refused(s, "t4 t0", "5C does not fit on 7H")  # two ranks apart


def test_inverted_freecell_tableau_builds_up_in_alternating_colours():
    s = position("inverted_freecell", t0="7H", t1="8S", t2="8H", t3="6S", rest="t7")
    legal(s, "t1 t0")
    refused(s, "t2 t0", "8H does not fit on 7H", "up in alternating colours")
    refused(s, "t3 t0", "6S does not fit on 7H", "up in alternating colours")


@pytest.mark.parametrize("game_id", FAMILY)
def test_an_empty_tableau_pile_takes_any_card(game_id):
    s = position(game_id, t0="4D", t1="JC", c0="QH", rest="t7")
    for move in ("t0 t2", "t1 t2", "c0 t2"):
        after = legal(s, move)
        assert after.pile("t2") == [s.pile(move.split()[0])[-1]]


@pytest.mark.parametrize("game_id", FAMILY)
def test_any_top_tableau_card_may_go_to_an_empty_cell_one_card_each(game_id):
    s = position(game_id, t0="9C 4D", c1="QH", rest="t7")
    after = legal(s, "t0 c0")
    assert after.pile("c0") == ["4D"] and after.pile("t0") == ["9C"]
    refused(s, "t0 c1", "c1 already holds a card")
    refused(s, "t0 c0 2", "a cell holds one card")


@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_a_cell_card_goes_to_a_fitting_tableau_pile_or_an_empty_one(game_id):
    s = position(game_id, t0="8S", t1="8H", c0="7D", rest="t7")
    legal(s, "c0 t0")
    legal(s, "c0 t2")  # empty pile
    refused(s, "c0 t1", "7D does not fit on 8H")


@pytest.mark.parametrize("game_id", FAMILY)
def test_a_cell_card_never_goes_to_another_cell_and_leaves_one_at_a_time(game_id):
    s = position(game_id, c0="7D", rest="t7")
    refused(s, "c0 c1", "only a card from the tableau may go to a cell")
    refused(s, "c0 t0 2", "only one card at a time leaves a cell")
    refused(s, "c1 t0", "c1 is empty")


# ----------------------------------------------------------------- supermoves
RUN7 = "9C 8D 7S 6D 5S 4D 3S"  # a run down in alternating colours, 7 cards


@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_supermove_to_a_non_empty_pile_free_cells_and_empty_piles_double(game_id):
    # 2 free cells, 1 empty pile: (2 + 1) x 2^1 = 6 cards
    s = position(game_id, t0="9S", t1=RUN7, t2="TH", t4="QC", t5="QD", t6="JS", c0="KH", c1="KD", rest="t7")
    assert s.game.group_limit(s.piles, False) == 6
    after = legal(s, "t1 t0 6")
    assert after.pile("t0") == ["9S", "8D", "7S", "6D", "5S", "4D", "3S"] and after.pile("t1") == ["9C"]
    reason = refused(
        s, "t1 t2 7", "7 cards cannot move together", "2 free cells", "1 empty pile", "at most 6"
    )
    assert "besides" not in reason


@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_supermove_to_an_empty_pile_does_not_count_that_pile(game_id):
    # 2 free cells, 2 empty piles, one of them the destination: (2 + 1) x 2^1 = 6
    s = position(game_id, t1=RUN7, t2="TH", t4="QC", t5="QD", t6="JS", c0="KH", c1="KD", rest="t7")
    assert s.game.group_limit(s.piles, True) == 6
    assert s.game.group_limit(s.piles, False) == 12
    legal(s, "t1 t0 6")
    refused(s, "t1 t0 7", "7 cards cannot move together", "2 free cells", "1 empty pile besides", "at most 6")


@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_supermove_with_no_free_cell_and_no_empty_pile_moves_one_card(game_id):
    full = dict(  # every cell and pile but t0 holding a card
        t1="9C 8D 7S", t2="KC", t3="KH", t4="QC", t5="QD", t6="JS", c0="KS", c1="KD", c2="QS", c3="QH"
    )
    legal(position(game_id, t0="8H", rest="t7", **full), "t1 t0")  # 7S on 8H, one card
    s2 = position(game_id, t0="9S", rest="t7", **full)
    refused(s2, "t1 t0 2", "2 cards cannot move together", "0 free cells", "at most 1")


@pytest.mark.parametrize("game_id", DOWN_GAMES)
def test_only_a_run_moves_as_a_unit(game_id):
    s = position(game_id, t0="8H", t1="9C 7S 6D", rest="t7")
    refused(s, "t1 t2 3", "7S on 9C is not a run", "only such a run moves as a unit")
    legal(s, "t1 t0 2")


def test_inverted_freecell_supermove_carries_a_run_up():
    s = position("inverted_freecell", t0="2H", t1="3C 4D 5S", rest="t7")
    after = legal(s, "t1 t0 3")
    assert after.pile("t0") == ["2H", "3C", "4D", "5S"]
    refused(position("inverted_freecell", t1="3C 5S", rest="t7"), "t1 t0 2", "5S on 3C is not a run")


# ----------------------------------------------------------------- foundations
@pytest.mark.parametrize("game_id", ["reversed_solitaire", "inverted_freecell"])
def test_any_king_starts_any_empty_foundation_then_down_in_suit_to_the_ace(game_id):
    s = position(game_id, t0="KD", t1="QH", c0="AS", f0="KH", f2="KS-2S", rest="t7")
    assert {m for m in moves(s) if m.startswith("t0 f")} == {"t0 f1", "t0 f3"}
    legal(s, "t1 f0")  # QH on KH
    refused(s, "t1 f1", "an empty foundation takes only a King", "QH cannot start one")
    refused(s, "t1 f2", "foundations build down in suit", "f2 takes AS next, not QH")
    after = legal(s, "c0 f2")  # the Ace ends it
    refused(after, "t0 f2", "f2 is complete")


def test_freecell_foundations_start_with_any_ace_and_build_up_in_suit():
    s = position("freecell", t0="AD", t1="2H", c0="KS", f0="AH", f2="AS-QS", rest="t7")
    assert {m for m in moves(s) if m.startswith("t0 f")} == {"t0 f1", "t0 f3"}
    legal(s, "t1 f0")
    refused(s, "t1 f1", "an empty foundation takes only an Ace")
    legal(s, "c0 f2")
    refused(s, "t0 f0", "foundations build up in suit", "f0 takes 2H next, not AD")


@pytest.mark.parametrize("game_id", FAMILY)
def test_foundations_are_built_from_tableau_and_cells_one_card_at_a_time(game_id):
    base = "KC" if game_id != "freecell" else "AC"
    s = position(game_id, t0=f"7H {base}", c0=base.replace("C", "D"), rest="t7")
    legal(s, "t0 f0")
    legal(s, "c0 f0")
    next_up = "QC" if base == "KC" else "2C"
    s2 = position(game_id, t0=f"7H {next_up} {base}", rest="t7")
    refused(s2, "t0 f0 2", "one at a time")


@pytest.mark.parametrize("game_id", FAMILY)
def test_cards_never_leave_a_foundation(game_id):
    pile = "KH-QH" if game_id != "freecell" else "AH-2H"
    s = position(game_id, f0=pile, rest="t7")
    for move in ("f0 t0", "f0 c0", "f0 f1"):
        refused(s, move, "cards never leave a foundation")
    assert not any(m.src.startswith("f") for m in s.legal_moves())


@pytest.mark.parametrize("game_id", FAMILY)
def test_winning_means_every_card_on_the_foundations(game_id):
    suits = "CDHS"
    runs = {f"f{i}": (f"K{s}-A{s}" if game_id != "freecell" else f"A{s}-K{s}") for i, s in enumerate(suits)}
    assert position(game_id, **runs).is_won()
    last = "AS" if game_id != "freecell" else "KS"
    runs["f3"] = runs["f3"].replace(last, "2S" if last == "AS" else "QS")
    almost = position(game_id, c0=last, **runs)
    assert not almost.is_won() and not almost.is_stuck()
    assert legal(almost, "c0 f3").is_won()


@pytest.mark.parametrize("game_id", FAMILY)
def test_the_number_of_cells_is_an_option(game_id):
    game = sw.load_game(game_id, cells=2)
    assert [p for p in game.pile_ids if p.startswith("c")] == ["c0", "c1"]
    s = position(
        game_id,
        options={"cells": 2},
        t1="9C 8D 7S 6D",
        t2="TH",
        t3="QC",
        t4="QD",
        t5="JS",
        t6="KH",
        rest="t7",
    )
    assert s.game.group_limit(s.piles, False) == 6  # (2 + 1) x 2^1
    assert s.to_dict()["options"] == {"cells": 2}
    for bad in (-1, 11, 2.0, True, "4"):
        with pytest.raises(InvalidOption, match="cells must be a whole number from 0 to 10"):
            sw.load_game(game_id, cells=bad)
    with pytest.raises(InvalidOption, match="has no option celIs"):
        sw.load_game(game_id, celIs=4)
    assert issubclass(InvalidOption, sw.SolwidgetError) and issubclass(InvalidOption, TypeError)


def test_no_legal_move_at_all_is_stuck():
    # Full cells, no empty pile, every top card black, no Ace on top: no move is left.
    s = position(
        "freecell",
        c0="KS",
        c1="KC",
        c2="QS",
        c3="QC",
        t0="JS",
        t1="JC",
        t2="TS",
        t3="TC",
        t4="9S",
        t5="9C",
        t6="8S",
        rest="t7",
    )
    assert s.pile("t7")[-1] == "7S" and s.legal_moves() == []
    assert s.is_stuck() and not s.is_won()


# ----------------------------------------------------------------- the one move generator
# The family's games and variants of them (Baker's Game, Eight Off, ...): most of moves.py's
# shape (``fits``), where the engine's moves come from the generator that the solver shares,
# and some that lose it. The variants are made as sw.variant makes them, a subclass with other
# parameters, but not registered: the ids of the variants defined show in messages.
GENERATOR_VARIANTS = {
    "bakers_game": ("freecell", {"build": Build(-1, "same")}),
    "one_cell": ("freecell", {"cells": 1}),
    "ten_any_suit": ("freecell", {"tableau_piles": 10, "build": Build(-1, "any")}),
    "reversed_ace_up": ("reversed_solitaire", {"foundation_start": ACE, "cells": 6}),
    "inverted_in_suit": ("inverted_freecell", {"build": Build(1, "same"), "tableau_piles": 5}),
    "eight_off": ("freecell", {"cells": 8, "build": Build(-1, "same"), "empty_takes": "king"}),
    "no_cells": ("freecell", {"cells": 0}),
    "runs": ("freecell", {"group": "run"}),
}
OUT_OF_SHAPE = {"eight_off", "no_cells", "runs"}


def _family_game(game_id):
    if game_id in FAMILY:
        return sw.load_game(game_id)
    base, changes = GENERATOR_VARIANTS[game_id]
    base_cls = type(sw.load_game(base))
    cells = {"cells": changes.get("cells", base_cls.cells)}
    return type(game_id, (base_cls,), {"id": game_id, **changes, "option_defaults": cells})()


def _scattered(game, rng, homes=(0, 0, 1, 2, 5, 12)):
    """A random position: each suit home to a random rank (as many of it home as one of
    ``homes``), the other cards shuffled into some of the cells and some of the piles
    (others left empty), often building runs."""
    start = game.foundation_start
    piles = [()] * len(game.pile_ids)
    rest = []
    for f, suit in zip(game.foundation_indices, range(4)):
        ranks = list(range(1, 14)) if start == ACE else list(range(13, 0, -1))
        home = rng.choice(homes)
        piles[f] = tuple(suit << 4 | rank for rank in ranks[:home])
        rest += [suit << 4 | rank for rank in ranks[home:]]
    rng.shuffle(rest)
    for c in rng.sample(game.cell_indices, min(len(rest), rng.randrange(len(game.cell_indices) + 1))):
        piles[c] = (rest.pop(),)
    tableau = [t for t in game.tableau_indices if rng.random() < 0.7] or [game.tableau_indices[0]]
    columns = {t: [] for t in tableau}
    while rest:
        column = columns[rng.choice(tableau)]
        fitting = [card for card in rest if column and card in game.fits_on[column[-1]]]
        card = rng.choice(fitting) if fitting and rng.random() < 0.6 else rest[-1]
        rest.remove(card)
        column.append(card)
    for t, column in columns.items():
        piles[t] = tuple(column)
    return sw.State(game, tuple(piles), ())


def _family_positions(game, count, seed=19):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.deal(rng.randrange(1, 32000)) if len(found) % 3 == 0 else _scattered(game, rng)
        for _ in range(rng.randrange(1, 40)):
            found.append(state)
            legal = list(Patience.iter_moves(game, state))
            if not legal:
                break
            state = state.play(rng.choice(legal))
    return found


@pytest.mark.parametrize("game_id", FAMILY + sorted(GENERATOR_VARIANTS))
def test_the_engines_moves_are_patiences_general_ones_in_the_same_order(game_id):
    # Where the game has the shape, its moves come from moves.py's generator: every move and
    # its order are the general Patience.iter_moves', from any pile or all at once.
    game = _family_game(game_id)
    assert (game.generator is not None) == fits(game) == (game_id not in OUT_OF_SHAPE)
    seen = set()
    for state in _family_positions(game, 400):
        general = list(Patience.iter_moves(game, state))
        assert list(game.iter_moves(state)) == general
        for i, pid in enumerate(game.pile_ids):
            assert list(game.iter_moves(state, i)) == [m for m in general if m.src == pid]
            assert list(game.iter_moves(state, i)) == list(Patience.iter_moves(game, state, i))
        for move in general:
            piles = state.piles
            dst, src = piles[game.index_of[move.dst]], piles[game.index_of[move.src]]
            kind = game.pile_kinds[move.dst]
            if not dst:
                seen.add(kind)
                if kind == "tableau" and move.n > 1:
                    seen.add("run to an empty pile" if move.n < len(src) else "whole pile to an empty pile")
    if game_id not in OUT_OF_SHAPE:
        assert seen >= {
            "foundation",
            "cell",
            "tableau",
            "run to an empty pile",
            "whole pile to an empty pile",
        }


@pytest.mark.parametrize("game_id", FAMILY + sorted(GENERATOR_VARIANTS))
def test_a_move_is_legal_exactly_when_it_is_one_of_the_legal_moves(game_id):
    # is_legal answers for one move (the generator's ``allows`` where the game has the shape):
    # asked of every pile to every pile, with every count and a card named, it says yes
    # exactly to the moves that Patience.iter_moves lists.
    game = _family_game(game_id)
    ids = game.pile_ids
    said = {True: 0, False: 0}
    for state in _family_positions(game, 150):
        legal = set(Patience.iter_moves(game, state))
        asked = [Move(a, b, n) for a in ids for b in ids for n in range(1, 15)]
        asked += [Move(move.src, move.dst, move.n, "AS") for move in legal]
        for move in asked:
            answer = game.is_legal(state, move)
            assert answer == (move in legal), (str(state), move)
            said[answer] += 1
    assert said[True] > 150 and said[False] > 150
    with pytest.raises(sw.InvalidMoveText, match="whole number >= 1"):
        game.is_legal(state, Move(ids[0], ids[1], 0))
