"""docs/rules.md on Triple Interchange and its decision (the family): one test per rule
sentence, legal and illegal, with the reason ``explain`` gives."""

import random
from collections import Counter

import pytest
from helpers import moves, position
from test_freecell_family import legal, refused

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN, card_name, deck
from solwidget.engine.patience import Patience

FAMILY = ["triple_interchange", "interchange", "unlimited", "single_interchange", "quadruple_interchange"]
ANY_CARD = ["triple_interchange", "quadruple_interchange"]
KINGS_ONLY = ["interchange", "unlimited", "single_interchange"]
UNLIMITED_PASSES = ["triple_interchange", "unlimited", "single_interchange", "quadruple_interchange"]

# (decks, tableau piles, what an empty pile takes, redeals allowed: None = unlimited)
PARAMETERS = {
    "triple_interchange": (3, 9, "any", None),
    "interchange": (2, 7, "king", 0),
    "unlimited": (2, 7, "king", None),
    "single_interchange": (1, 5, "king", None),
    "quadruple_interchange": (4, 11, "any", None),
}


@pytest.mark.parametrize("game_id", FAMILY)
def test_the_family_shares_the_engine_with_its_parameters(game_id):
    decks, tableau, empty, redeals = PARAMETERS[game_id]
    game = sw.load_game(game_id)
    assert (game.decks, game.empty_takes, game.redeals) == (decks, empty, redeals)
    assert game.card_count == 52 * decks
    assert game.pile_ids == (
        tuple(f"f{i}" for i in range(4 * decks)) + tuple(f"t{i}" for i in range(tableau)) + ("stock", "waste")
    )


def test_triple_interchange_has_three_decks_twelve_foundations_nine_piles():
    game = sw.load_game("triple_interchange")
    assert game.card_count == 156
    assert [p for p in game.pile_ids if game.pile_kinds[p] == "foundation"] == [f"f{i}" for i in range(12)]
    assert [p for p in game.pile_ids if game.pile_kinds[p] == "tableau"] == [f"t{i}" for i in range(9)]


# ----------------------------------------------------------------- the deal
# An even number of piles (a variant's), with a deal the solver wins cheaply where there is one
EVEN_PILES = {
    "triple_interchange": (8, 1),
    "interchange": (8, 4),  # most deals of this variant are dead at the deal: proved lost at once
    "unlimited": (6, 1),
    "single_interchange": (4, 1),
    "quadruple_interchange": (8, 1),
}


@pytest.mark.parametrize("game_id", FAMILY)
def test_the_deal_alternates_from_the_bottom_and_ends_face_up_whatever_the_piles(game_id):
    piles, number = EVEN_PILES[game_id]
    game = sw.variant(
        game_id, id=f"{game_id}_{piles}_piles", name=f"{game_id}, {piles} piles", piles=piles
    ).game()
    state = game.deal(number)
    for t in game.tableau_indices:
        faces = [not card & FACE_DOWN for card in state.piles[t]]
        assert faces == [row % 2 == 0 or row == piles - 1 for row in range(piles)]
    assert game.state_from_dict(state.to_dict()) == state


@pytest.mark.parametrize("game_id", FAMILY)
def test_an_even_pile_variant_is_solved_not_lost_at_the_deal(game_id):
    piles, number = EVEN_PILES[game_id]
    game = sw.variant(
        game_id, id=f"{game_id}_{piles}_piles", name=f"{game_id}, {piles} piles", piles=piles
    ).game()
    result = sw.solve(game.deal(number), max_states=3000)
    if game_id == "interchange":  # one pass and Kings to spaces: lost, proved by a search
        assert result.status == "lost" and result.progress.expanded > 1000
    else:
        assert result.status == "won"
        state = game.deal(number)
        for move in result.moves:
            state = state.play(move)
        assert state.is_won()


# ----------------------------------------------------------------- foundations
@pytest.mark.parametrize("game_id", FAMILY)
def test_any_ace_may_start_any_empty_foundation(game_id):
    s = position(game_id, t0="AD", f0="AH-3H", f1="AS")
    empty = {f"t0 f{i}" for i in range(2, 4 * s.game.decks)}
    assert {m for m in moves(s) if m.startswith("t0 f")} == empty
    refused(s, "t0 f0", "foundations build up in suit", "f0 takes 4H next, not AD")


@pytest.mark.parametrize("game_id", FAMILY)
def test_foundations_build_up_in_suit_to_the_king(game_id):
    s = position(game_id, t0="4H", t1="4D", t2="2C", f0="AH-3H", f1="AS-KS")
    legal(s, "t0 f0")
    refused(s, "t1 f0", "f0 takes 4H next, not 4D")  # wrong suit
    refused(s, "t2 f2", "an empty foundation takes only an Ace", "2C cannot start one")
    refused(s, "t0 f1", "f1 is complete")  # 13 cards at most


@pytest.mark.parametrize("game_id", FAMILY)
def test_cards_never_leave_a_foundation(game_id):
    s = position(game_id, f0="AH-5H", t0="6S")
    for move in ("f0 t0", "f0 t1", "f0 f1", "f0 waste"):
        refused(s, move, "cards never leave a foundation")
    assert not any(m.src.startswith("f") for m in s.legal_moves())


@pytest.mark.parametrize("game_id", FAMILY)
def test_cards_go_to_a_foundation_one_at_a_time(game_id):
    s = position(game_id, t0="2H AH")
    refused(s, "t0 f0 2", "one at a time")


# ----------------------------------------------------------------- tableau
@pytest.mark.parametrize("game_id", FAMILY)
def test_tableau_builds_down_in_suit(game_id):
    s = position(game_id, t0="JS", t1="TS", t2="TH", t3="9S", t4="QS")
    legal(s, "t1 t0")  # only 10 of spades goes on J of spades
    refused(s, "t2 t0", "TH does not fit on JS", "the tableau builds down in suit")
    refused(s, "t3 t0", "9S does not fit on JS")
    refused(s, "t4 t0", "QS does not fit on JS")


@pytest.mark.parametrize("game_id", FAMILY)
def test_a_group_down_in_one_suit_moves_as_a_unit(game_id):
    s = position(game_id, t0="[3C] 9H 8H 7H", t1="TH", t2="9D 8S 7S")
    after = legal(s, "t0 t1 3")
    assert after.pile("t1") == ["TH", "9H", "8H", "7H"]
    refused(s, "t2 t1 3", "8S on 9D is not a run down in suit", "only such a run moves as a unit")
    refused(s, "t0 t1 4", "a face-down card cannot be moved")
    refused(s, "t0 t1 5", "t0 holds only 4 cards")


@pytest.mark.parametrize("game_id", [g for g in FAMILY if g != "single_interchange"])
def test_each_target_takes_the_part_of_a_run_that_fits_it(game_id):
    s = position(game_id, t0="[4D] 9S 8S 7S 6S", t1="TS", t2="8S", t3="7S", t4="5S", t5="9H")
    to_targets = {m for m in moves(s) if m.split()[:2] in [["t0", f"t{i}"] for i in range(1, 6)]}
    assert to_targets == {"t0 t1 4", "t0 t2 2", "t0 t3"}


@pytest.mark.parametrize("game_id", FAMILY)
def test_a_face_down_card_exposed_is_turned_up_by_the_same_move(game_id):
    s = position(game_id, t0="[3C] 9H", t1="TH", t2="[KD] AS")
    after = legal(s, "t0 t1")
    assert after.pile("t0") == ["3C"]
    after = legal(s, "t2 f0")
    assert after.pile("t2") == ["KD"] and after.pile("f0") == ["AS"]


@pytest.mark.parametrize("game_id", ANY_CARD)
def test_an_empty_pile_takes_any_card_or_any_movable_group(game_id):
    s = position(game_id, t0="[2C] 9H 8H", t1="KS 5D", waste="3C")
    for move in ("t0 t2", "t0 t2 2", "t1 t2", "waste t2"):
        legal(s, move)
    refused(s, "t1 t2 2", "5D on KS is not a run down in suit")


@pytest.mark.parametrize("game_id", KINGS_ONLY)
def test_an_empty_pile_takes_only_a_king_or_a_group_headed_by_a_king(game_id):
    s = position(game_id, t0="[2C] KS QS", t1="5D", waste="KH")
    legal(s, "t0 t2 2")
    legal(s, "waste t2")
    refused(s, "t0 t2", "an empty tableau pile takes only a King or a run headed by a King")
    refused(s, "t1 t2", "an empty tableau pile takes only a King or a run headed by a King")


# ----------------------------------------------------------------- stock and waste
@pytest.mark.parametrize("game_id", FAMILY)
def test_stock_waste_turns_one_card_face_up(game_id):
    s = position(game_id, t0="8D", waste="2C")
    stock = s.pile("stock")
    after = legal(s, "stock waste")
    assert after.pile("waste") == ["2C", stock[-1].strip("[]")]
    assert after.pile("stock") == stock[:-1]
    refused(s, "stock waste 2", "'stock waste' is written without a count")


@pytest.mark.parametrize("game_id", FAMILY)
def test_the_top_waste_card_goes_to_the_tableau_or_a_foundation(game_id):
    s = position(game_id, t0="8D", waste="AC 7D")
    legal(s, "waste t0")
    refused(s, "waste t0 2", "only one card at a time leaves the waste")
    s2 = position(game_id, t0="8D", waste="7D AC")
    legal(s2, "waste f0")
    refused(s2, "waste t0", "AC does not fit on 8D")


@pytest.mark.parametrize("game_id", FAMILY)
def test_nothing_goes_on_the_stock_or_the_waste(game_id):
    s = position(game_id, t0="8D", waste="AC")
    refused(s, "t0 waste", "nothing may be put on the waste")
    refused(s, "t0 stock", "nothing may be put on the stock")
    refused(s, "stock t0", "cards leave the stock only by 'stock waste'")


@pytest.mark.parametrize("game_id", FAMILY)
def test_waste_stock_only_once_the_stock_is_empty(game_id):
    s = position(game_id, t0="8D", waste="AC")
    refused(s, "waste stock", "the stock still has cards")


@pytest.mark.parametrize("game_id", UNLIMITED_PASSES)
def test_waste_stock_turns_the_waste_over_unshuffled_as_often_as_wanted(game_id):
    s = position(game_id, t0="KD", rest="waste")
    waste = s.pile("waste")
    for passes in (1, 2, 3):
        refused(s, "stock waste", "the stock is empty: turn the waste back over with 'waste stock'")
        s = legal(s, "waste stock")
        assert s.pile("waste") == [] and s.to_dict()["redeals"] == passes
        assert s.pile("stock") == [f"[{c}]" for c in reversed(waste)]
        for _ in waste:  # one pass through: the same order
            s = s.play("stock waste")
        assert s.pile("waste") == waste


def test_interchange_allows_one_pass_through_the_stock():
    s = position("interchange", t0="KD", rest="waste")
    refused(s, "waste stock", "no redeal is left: this game allows one pass through the stock")
    refused(s, "stock waste", "the stock is empty and no redeal is left")
    with pytest.raises(sw.InvalidPosition, match="allows 0"):
        position("interchange", t0="KD", rest="waste", redeals=1)


@pytest.mark.parametrize("game_id", ["interchange", "unlimited"])
def test_only_stock_cycling_left_is_stuck(game_id):
    piles = dict(
        t0="AC QC KC",
        t1="AC QC KC",
        t2="AD QD KD",
        t3="AD QD KD",
        t4="AH QH KH",
        t5="AH QH KH",
        t6="AS AS QS QS KS",
    )
    s = position(game_id, **piles)
    assert s.legal_moves() == [sw.Move("stock", "waste")]
    assert s.is_stuck() and not s.is_won()
    free = position(game_id, **{**piles, "t6": "AS QS QS KS"})  # an Ace in the stock
    assert not free.is_stuck()


@pytest.mark.parametrize("game_id", UNLIMITED_PASSES)
def test_stock_refusals_name_what_is_empty(game_id):
    s = position(game_id, t0="KD", rest="t1")
    refused(s, "stock waste", "the stock and the waste are both empty")
    refused(s, "waste stock", "the waste is empty: there is nothing to turn over")
    refused(s, "waste t0", "waste is empty")
    refused(s, "stock t0", "cards leave the stock only by 'stock waste'")


# ----------------------------------------------------------------- the move generator
# Variants whose runs still move whole (games/interchange/moves.py serves them too), and one
# with free cells, which keeps Patience's generator.
VARIANTS = {
    "test_ic_groups": dict(
        base="interchange", moves="any group", foundations="king down", empty="none", draw=3, redeals=2
    ),
    "test_ic_colours": dict(
        base="triple_interchange",
        build="down in alternating colours",
        piles=6,
        decks=2,
        empty="king",
        redeals=1,
    ),
    "test_ic_cells": dict(base="triple_interchange", cells=2),
}


def _load(game_id) -> sw.Game:
    if game_id in VARIANTS:
        changes = dict(VARIANTS[game_id])
        sw.variant(changes.pop("base"), id=game_id, name=game_id, **changes)
    return sw.load_game(game_id)


def _random_position(game, rnd) -> sw.State:
    """Foundations at random heights, the other cards spread at random: some tableau piles
    empty, runs down in suit on some, cards under the top face down at random, the rest in
    the stock and the waste, and a random number of redeals made."""
    piles = {pid: [] for pid in game.pile_ids}
    left = Counter({card: game.decks for card in deck(1)})
    for f in game.foundation_indices:
        suit = (f % 4) << 4
        for i in range(min(13, int(rnd.expovariate(0.3)))):
            card = suit | game.foundation_start + game.step * i
            piles[game.pile_ids[f]].append(card)
            left[card] -= 1
    cards = sorted(left.elements())
    rnd.shuffle(cards)
    for t in game.tableau_indices:
        pile = piles[game.pile_ids[t]]
        if rnd.random() < 0.2:
            continue
        for _ in range(rnd.randint(1, 6)):
            if cards:
                pile.append(cards.pop())
        while cards and rnd.random() < 0.5 and pile[-1] - 1 in cards:  # a run down in suit
            cards.remove(pile[-1] - 1)
            pile.append(pile[-1] - 1)
        pile[:-1] = [c | FACE_DOWN if rnd.random() < 0.4 else c for c in pile[:-1]]
    on_waste = rnd.randint(0, len(cards))
    piles["waste"], piles["stock"] = cards[:on_waste], [c | FACE_DOWN for c in cards[on_waste:]]
    named = {
        pid: [f"[{card_name(c & ~FACE_DOWN)}]" if c & FACE_DOWN else card_name(c) for c in pile]
        for pid, pile in piles.items()
    }
    redeals = rnd.randint(0, 3 if game.redeals is None else game.redeals)
    return game.state_from_dict({"game": game.id, "piles": named, "redeals": redeals})


def _positions(game, starts, steps, seed):
    """Positions along random walks from random positions and from deals."""
    rnd = random.Random(seed)
    for number in range(1, starts + 1):
        state = game.deal(number) if number % 3 == 0 else _random_position(game, rnd)
        for _ in range(steps):
            yield state
            legal = list(Patience.iter_moves(game, state))
            if not legal:
                break
            state = game.apply_legal(state, rnd.choice(legal))


@pytest.mark.parametrize("game_id", FAMILY + list(VARIANTS))
def test_the_move_generator_gives_the_generic_moves_in_their_order(game_id):
    # moves.py gives the engine's moves: every move Patience.iter_moves gives, in its order,
    # from every pile, with the indices the solver reads; where it does not hold (free
    # cells), the engine's moves are Patience's.
    game = _load(game_id)
    assert (game.generator is None) == (game_id == "test_ic_cells")
    sources = [None] + list(range(len(game.pile_ids)))
    seen = Counter()
    for state in _positions(game, 40, 25, seed=len(game_id)):
        for source in sources:
            assert list(game.iter_moves(state, source)) == list(Patience.iter_moves(game, state, source))
        if game.generator is None:
            continue
        for move, src, dst, n in game.generator.plans(state.piles, state.extra):
            ids = game.pile_ids
            assert (ids[src], ids[dst], n) == (move.src, move.dst, move.n)
            seen[game.pile_kinds[move.src], game.pile_kinds[move.dst], n > 1, not state.piles[dst]] += 1
    if game.generator is not None:  # the walks met every kind of move
        kinds = {(src, dst) for src, dst, _, _ in seen}
        redeal = {("waste", "stock")} if game.redeals != 0 else set()
        assert (
            kinds
            == {
                ("tableau", "foundation"),
                ("tableau", "tableau"),
                ("waste", "foundation"),
                ("waste", "tableau"),
                ("stock", "waste"),
            }
            | redeal
        )
        assert seen["tableau", "tableau", True, False]
        assert seen["tableau", "tableau", False, True] or game.empty_takes == "none"


@pytest.mark.parametrize("game_id", ["triple_interchange", "quadruple_interchange", "test_ic_colours"])
def test_the_solvers_moves_are_the_engines_less_what_it_skips(game_id):
    # every=False: no move from the stock or the waste (bridges and stock compression
    # replace them), a card only to the first empty foundation, a run only to the first
    # empty pile and never a whole pile there (key-equal positions)
    game = _load(game_id)
    for state in _positions(game, 20, 25, seed=7):
        piles = state.piles
        first_f = next((f for f in game.foundation_indices if not piles[f]), None)
        first_t = next((t for t in game.tableau_indices if not piles[t]), None)
        kept = [
            plan
            for plan in game.generator.plans(piles, state.extra)
            if plan[1] in game.tableau_indices
            and (piles[plan[2]] or plan[2] in (first_f, first_t))
            and not (
                plan[2] in game.tableau_indices and not piles[plan[2]] and plan[3] == len(piles[plan[1]])
            )
        ]
        assert list(game.generator.plans(piles, state.extra, every=False)) == kept
