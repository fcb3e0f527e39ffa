"""The Mutated Solitaire expander (games/mutated/expander.py): its safe moves, its skipped moves, and
cross-checks of both against the plain search on small positions."""

import random

from test_mutated import position

import solwidget as sw
from solwidget.engine.cards import RANKS, SUITS, parse_card
from solwidget.games.mutated.deadends import (
    ACES,
    EVERY_CARD,
    SUIT,
    DeadEnds,
    _climbed,
    _guests_reached,
    is_dead,
)
from solwidget.games.mutated.expander import (
    MutatedExpander,
    _may_go_home,
    is_settled,
    key,
    levels,
    safe_cards,
    safe_move,
)
from solwidget.games.mutated.moves import apply, plans
from solwidget.games.mutated.profile import MUTATED_PORTFOLIO
from solwidget.games.mutated.score import mutated_score as make_score
from solwidget.solver import search
from solwidget.solver.profile import profile_for

GAME = sw.load_game("mutated")
BUILT_D1 = {"d1": {"mode": "built", "base": 1}}


def first_safe(state):
    move = safe_move(state)
    return None if move is None else str(move)


def first_moves(state, autoplay):
    return {str(moves[0]) for moves, _ in MutatedExpander(GAME, autoplay=autoplay).expand(state)}


# ---------------------------------------------------------------- safe moves
def test_an_ace_on_a_face_down_card_in_row_1_goes_home_and_turns_it_up():
    state = position(r1c1="[5S] AH", r1c2="KC")
    assert first_safe(state) == "r1c1 f2"
    start, played = MutatedExpander(GAME).start(state)
    assert [str(m) for m in played] == ["r1c1 f2"]
    assert tuple(start.piles[GAME.pile_index("r1c1")]) == (parse_card("5S"),)
    assert MutatedExpander(GAME, autoplay=False).start(state) == (state, ())


def test_an_ace_on_a_face_down_king_waits_while_d1_could_be_flipped():
    piles = {"r1c1": "[KS] AH", "d1": "[QS] JS"}
    assert first_safe(position(**piles)) is None
    assert first_safe(position(decks=BUILT_D1, **piles)) is None
    assert first_safe(position(**{**piles, "d1": ""})) == "r1c1 f2"


def test_no_safe_move_from_rows_2_and_3_nor_from_d1_in_draw_mode():
    for piles in ({"r2c1": "[5S] AH"}, {"r3c1": "AD"}, {"d1": "[5D] AS"}):
        state = position(**piles)
        assert first_safe(state) is None and any(m.dst[0] == "f" for m in state.legal_moves()) == (
            "d1" in piles
        )


def test_a_built_d1_gives_its_top_but_never_its_base():
    assert first_safe(position(d1="[5D] 2H", f0="AH", decks=BUILT_D1)) is None
    assert first_safe(position(d1="[5D] 3S 2H", f0="AH", decks=BUILT_D1)) == "d1 f0"


def test_a_two_waits_for_both_aces_of_the_other_colour():
    piles = {"r1c1": "[9D] 2H", "f0": "AH", "f1": "AC", "r3c1": "AS"}
    assert first_safe(position(**piles)) is None
    assert first_safe(position(**{**piles, "r3c1": "", "f2": "AS"})) == "r1c1 f0"


def test_a_higher_card_also_waits_for_the_other_suit_of_its_colour():
    piles = {"r1c1": "[9S] 5H", "f0": "AH-4H", "f1": "AC-4C", "f2": "AS-4S", "f3": "AD", "r3c1": "2D"}
    assert first_safe(position(**piles)) is None  # diamonds home to 1: 5 - 2 = 3 wanted
    assert first_safe(position(**{**piles, "f3": "AD 2D", "r3c1": "3D"})) is None
    assert first_safe(position(**{**piles, "f3": "AD-3D", "r3c1": "4D"})) == "r1c1 f0"
    assert first_safe(position(**{**piles, "f3": "AD-3D", "r3c1": "4D", "f2": "AS-3S"})) is None


def test_a_card_stays_while_a_guest_may_have_to_come_back_onto_it():
    """QH's guests JS and JC are home, but TD (diamonds home to 9 only) climbs to row 1 only
    on one of them, which comes back only onto QH: KS lies beneath TD and KC beneath QD, so
    neither black King can take QH. Sent home at once, QH would leave the position lost."""
    state = position(
        f0="AH-JH",
        f1="AS-JS",
        f2="AC-JC",
        f3="AD-9D",
        r1c1="[JD] QH",
        r1c2="[QS] KH",
        r1c3="[KD] QC",
        r2c1="[KS] TD",
        r3c1="[KC] QD",
        d1="",
        d2="",
        d3="",
    )
    assert first_safe(state) is None
    assert sw.solve(state, max_states=5000).status == "won"
    assert sw.solve(state, max_states=5000, autoplay=False).status == "won"


def test_kings_never_go_home_on_their_own():
    assert first_safe(position(r1c1="KH", f0="AH-QH")) is None


# ---------------------------------------------------------------- settled cards
def test_settled_cards_are_the_ones_the_levels_allow():
    level = [3, 2, 2, 3]  # C D H S home to 3, 2, 2, 3
    assert all(is_settled(parse_card(name), level) for name in ("2D", "2H", "3C", "3S"))
    assert not is_settled(parse_card("4C"), [4, 2, 3, 3])  # a red suit home only to 2
    assert not is_settled(parse_card("4C"), [4, 3, 3, 1])  # spades home only to 1
    assert not is_settled(parse_card("KC"), [13, 13, 13, 13])  # a King may come back to flip d1


def test_a_settled_card_is_not_taken_back_but_others_and_kings_are():
    piles = {"f0": "AH-3H", "f1": "AC 2C", "f2": "AS 2S", "f3": "AD", "r1c1": "4S", "r2c1": "2D"}
    settled = position(**piles)
    assert "f0 r1c1" in first_moves(settled, False) and "f0 r1c1" not in first_moves(settled, True)
    unsettled = position(**{**piles, "f3": "", "r2c1": "AD"})  # no diamond home: 3H may come back
    assert "f0 r1c1" in first_moves(unsettled, True)
    king = position(f0="AS-KS", r1c1="", r2c1="[2D] 3C")
    assert any(m.startswith("f0 r1c") for m in first_moves(king, True))


# ---------------------------------------------------------------- the expander
def random_positions(count, seed=7, steps=60):
    """Positions reached by random legal play from deals 1..count."""
    rng = random.Random(seed)
    out = []
    for number in range(1, count + 1):
        state = GAME.deal(number)
        for _ in range(steps):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(rng.choice(moves))
            out.append(state)
    return out


def as_bytes(state):
    """The position with its piles as bytes, as the search keeps them."""
    return sw.State(GAME, tuple(map(bytes, state.piles)), state.extra)


def as_tuples(state):
    return sw.State(GAME, tuple(map(tuple, state.piles)), state.extra)


def test_the_moves_made_from_the_piles_are_the_engines_in_its_order():
    """mutated_fast.plans and apply give the engine's moves (less the key-equal duplicates)
    and positions, from piles as tuples and as bytes."""
    plain, compared = MutatedExpander(GAME, autoplay=False), 0
    for state in random_positions(30)[::3]:
        engine = list(plain._engine_moves(state))
        for shape in (state, as_bytes(state)):
            ours = [
                (move, apply(shape.piles, shape.extra, src, dst, n, card))
                for move, src, dst, n, card in plans(shape.piles, shape.extra)
            ]
            assert [m for m, _ in ours] == [m for m, _ in engine]
            for (move, (piles, modes)), (_, child) in zip(ours, engine):
                assert tuple(map(tuple, piles)) == child.piles and modes == child.extra, str(move)
                compared += 1
    assert compared > 5000, compared


def test_every_move_the_expander_yields_is_legal_and_leads_where_it_says():
    for state in random_positions(12)[::7]:
        for moves, child in MutatedExpander(GAME).expand(state):
            after = state
            for move in moves:
                after = after.play(move)
            assert after.piles == child.piles and after.extra == child.extra
    for state in random_positions(4)[::7]:  # and from the search's bytes piles
        for moves, child in MutatedExpander(GAME).expand(as_bytes(state)):
            after = state
            for move in moves:
                after = after.play(move)
            assert as_tuples(child) == after


def test_a_child_left_unsettled_has_no_safe_move():
    """The expander settles a child of a settled position only where a move home might have
    become safe (_may_go_home); elsewhere safe_move finds none."""
    expander, skipped = MutatedExpander(GAME), 0
    for state in random_positions(12)[::2]:
        state = expander.start(state)[0]
        safe = safe_cards(levels(state.piles)[0])
        for move, src, dst, n, card in plans(state.piles, state.extra):
            child = sw.State(GAME, *apply(state.piles, state.extra, src, dst, n, card))
            if "f" not in (move.src[0], move.dst[0]) and not _may_go_home(state, child, src, dst, safe):
                assert safe_move(child) is None, str(move)
                skipped += 1
    assert skipped > 1000, skipped
    blocked = position(r1c1="[KS] AH", d1="5D", r2c1="[9C] 6S")  # AH waits: KS would flip d1
    move = GAME.parse_move("d1 r2c1 5D")
    child = blocked.play(move)
    assert safe_move(blocked) is None and safe_move(child) is not None
    src, dst = GAME.pile_index("d1"), GAME.pile_index("r2c1")
    assert _may_go_home(blocked, child, src, dst, safe_cards(levels(blocked.piles)[0]))


def test_without_autoplay_the_children_are_the_engine_successors_up_to_the_key():
    plain = MutatedExpander(GAME, autoplay=False)
    for state in random_positions(12)[::5]:
        ours = [GAME.key(child) for _, child in plain.expand(state)]
        assert len(ours) == len(set(ours))
        assert set(ours) == {GAME.key(child) for _, child in GAME.successors(state)}


def test_the_expander_key_is_the_game_key_in_another_shape():
    ours, theirs = {}, {}
    for state in random_positions(12):
        mine, engine = key(as_bytes(state)), GAME.key(state)
        assert ours.setdefault(mine, engine) == engine and theirs.setdefault(engine, mine) == mine
    assert len(ours) > 500
    state = random_positions(1)[-1]
    piles = list(state.piles)
    for a, b, same in (("r1c1", "r1c4", True), ("r3c2", "r3c5", True), ("r1c1", "r2c1", False)):
        i, j = GAME.pile_index(a), GAME.pile_index(b)
        swapped = piles.copy()
        swapped[i], swapped[j] = piles[j], piles[i]
        other = sw.State(GAME, tuple(swapped), state.extra)
        assert (key(as_bytes(other)) == key(as_bytes(state))) == same == (GAME.key(other) == GAME.key(state))


def test_the_profile_gives_the_mutated_expander():
    assert isinstance(profile_for(GAME).expander(GAME), MutatedExpander)


# ---------------------------------------------------------------- cross-checks
RED, BLACK = ("H", "D"), ("S", "C")


def small_position(rng, locked: bool):
    """Most cards home; 4 to 12 others (6 to 8 when locked) spread over spaces (one card, or a face-down card and a
    face-up one), r2x and the decks, faces at random in the decks. A locked position also
    holds, in row 3, two Queens of one colour, each on a face-down King of the other
    colour: neither can ever move (their only hosts lie beneath them), so it is lost."""
    away = {s: rng.randint(0, 2) if locked else rng.randint(1, 3) for s in SUITS}
    piles = {pid: [] for pid in GAME.pile_ids}
    if locked:
        rank = 12
        tops, hosts = (RED, BLACK) if rng.random() < 0.5 else (BLACK, RED)
        for top, host, space in zip(tops, hosts, ("r3c1", "r3c2")):
            away[top], away[host] = max(away[top], 14 - rank), max(away[host], 13 - rank)
            piles[space] = [f"[{RANKS[rank] + host}]", RANKS[rank - 1] + top]
    piles.update({f"f{i}": [RANKS[r] + s for r in range(13 - away[s])] for i, s in enumerate(SUITS)})
    placed = {c.strip("[]") for pile in piles.values() for c in pile}
    loose = [RANKS[r] + s for s in SUITS for r in range(13 - away[s], 13) if RANKS[r] + s not in placed]
    rng.shuffle(loose)
    spaces = [pid for pid in GAME.pile_ids if pid[0] == "r" and pid != "r2x"]
    scatter(piles, loose, rng, spaces + ["r2x", "d1", "d2", "d3", "d1", "d2", "d3"])
    return GAME.state_from_dict({"game": "mutated", "piles": piles})


def scatter(piles: dict, loose: list, rng, places: list) -> None:
    """Lay the ``loose`` cards (the last first) on piles drawn at random from ``places``: a
    deck takes up to 7, face up or down at random; r2x one; a space two, the lower one
    turned face down. A card whose pile is full is drawn again."""
    while loose:
        where = rng.choice(places)
        card = loose.pop()
        pile = piles[where]
        if where[0] == "d" and len(pile) < 7:
            pile.append(card if rng.random() < 0.5 else f"[{card}]")
        elif where == "r2x" and not pile:
            pile.append(card)
        elif where[0] == "r" and where != "r2x" and len(pile) < 2:
            if pile:
                pile[0] = f"[{pile[0]}]"
            pile.append(card)
        else:
            loose.append(card)


def test_autoplay_and_skipped_moves_agree_with_the_plain_search_on_small_positions():
    rng = random.Random(2024)
    seen = {"won": 0, "lost": 0}
    for k in range(40):
        state = small_position(rng, locked=k % 2 == 1)
        on = sw.solve(state, max_states=3000)
        off = sw.solve(state, max_states=3000, autoplay=False)
        if "unknown" in (on.status, off.status):
            continue
        assert on.status == off.status, GAME.format(state)
        seen[on.status] += 1
    assert seen["won"] >= 10 and seen["lost"] >= 5, seen


def test_a_deal_proved_lost_stays_lost_without_the_safe_and_skipped_moves():
    """Deal 88 runs out of positions after about 5,000 expansions either way (the solver
    before this expander proved it lost too)."""
    state = GAME.deal(88)
    assert sw.solve(state, max_states=20_000).status == "lost"
    assert sw.solve(state, max_states=20_000, autoplay=False).status == "lost"


def test_pooled_loss_proofs_agree_with_a_single_search_on_small_positions(monkeypatch):
    """The portfolio's searches pool their loss proofs and (from the start, here) skip each
    other's positions (search.py); a single search does neither: both answer alike wherever
    both finish."""
    monkeypatch.setattr(search, "POOL_AFTER", 0)
    rng = random.Random(77)
    seen = {"won": 0, "lost": 0}
    for k in range(40):
        state = small_position(rng, locked=k % 2 == 1)
        pooled = sw.solve(state, max_states=3000)
        alone = sw.solve(state, max_states=3000, depth_weight=0.5)
        if "unknown" in (pooled.status, alone.status):
            continue
        assert pooled.status == alone.status, GAME.format(state)
        seen[pooled.status] += 1
    assert seen["won"] >= 10 and seen["lost"] >= 5, seen


def test_a_pooled_proof_given_up_for_memory_leaves_the_searches_as_they_were(monkeypatch):
    """Past its key limit (2,000 keys here) the pooled proof is given up before any search
    skipped a position: deal 154 is then proved lost by one search alone, exactly as with no
    pooling at all."""
    monkeypatch.setattr(search._Closure, "full", property(lambda c: len(c.generated) > 2000))
    state = GAME.deal(154)
    given_up = sw.solve(state, max_states=20_000)
    monkeypatch.setattr(MutatedExpander, "pooled_proofs", False)
    apart = sw.solve(state, max_states=20_000)
    assert given_up.status == apart.status == "lost"
    assert given_up.progress.expanded == apart.progress.expanded


def test_a_pooled_loss_proof_takes_fewer_expansions(monkeypatch):
    """Deal 154: the searches used to walk the same positions each (10,844 expansions); past
    POOL_AFTER they leave each other's positions alone and the proof is theirs together."""
    state = GAME.deal(154)
    pooled = sw.solve(state, max_states=20_000)
    monkeypatch.setattr(MutatedExpander, "pooled_proofs", False)
    apart = sw.solve(state, max_states=20_000)
    assert pooled.status == apart.status == "lost"
    assert pooled.progress.expanded < 9000 and apart.progress.expanded > 10_000


# ---------------------------------------------------------------- the score
def test_the_score_is_the_same_from_a_warm_cache_as_from_a_cold_one():
    warm = make_score(GAME, {"orphans": 8.0})
    positions = random_positions(6)
    values = [warm(state) for state in positions]
    assert [warm(state) for state in positions] == values
    assert [make_score(GAME, {"orphans": 8.0})(state) for state in positions[::9]] == values[::9]


def test_a_child_scored_from_its_parent_gets_the_score_it_would_get_alone():
    """MutatedExpander.scored works out the score of a child that leaves the foundations as
    they are from its parent's, by the piles the move touched (heuristics: moves_from)."""
    weights = MUTATED_PORTFOLIO[1]["weights"]
    expander, cold = MutatedExpander(GAME, weights), make_score(GAME, weights)
    worked_out = 0
    for state in random_positions(12)[::4]:
        state = expander.start(state)[0]
        for moves, child, value in expander.scored(state, (), lambda key: True):
            if value is not None:
                assert value == cold(child), [str(m) for m in moves]
                worked_out += 1
    assert worked_out > 500, worked_out


def test_orphans_count_the_rows_a_card_climbs_with_both_hosts_home():
    """3C in row 3 needs a red 4 in row 2 and again in row 1: with both red 4s home (or one
    home and one beneath it), it is an orphan for two rows; with 4H on r2c1, for none, and
    a card lying on its host is carried by it."""
    orphan = position(r3c1="[9C] 3C", f0="AH-4H", f1="AD-4D", f2="AC 2C")
    buried = position(r3c1="[4H] 3C", f0="AH-3H", f1="AD-4D", f2="AC 2C")
    hosted = position(r3c1="[9C] 3C", r2c1="4H", f0="AH-3H", f1="AD-4D", f2="AC 2C")
    carried = position(r3c1="[9C] 4H 3C", f0="AH-3H", f1="AD-4D", f2="AC 2C")
    plain, weighed = make_score(GAME), make_score(GAME, {"orphans": 8.0})
    assert weighed(orphan) - plain(orphan) == weighed(buried) - plain(buried) == 2 * 8.0
    assert weighed(hosted) == plain(hosted) and weighed(carried) == plain(carried)


# ---------------------------------------------------------------- buried builds
def test_a_build_that_buries_both_hosts_of_its_base_is_skipped():
    buried = position(d2="[JD] JH [TC]")
    assert "d2 build" in first_moves(buried, False) and "d2 build" not in first_moves(buried, True)
    one_host_out = position(d2="[JD] 5H [TC]")
    assert "d2 build" in first_moves(one_host_out, True)
    king = position(d2="[QD] QH [KS]")
    assert "d2 build" in first_moves(king, True)


def test_d1_builds_are_skipped_only_when_the_card_below_the_base_is_buried_too():
    assert "d1 build" not in first_moves(position(d1="[JD] JH [9C] [TC]"), True)
    assert "d1 build" in first_moves(position(d1="[JD] JH [TC]"), True)  # TC may go home
    assert "d1 build" in first_moves(position(d1="[2S] [2C] [AH]"), True)  # an Ace goes home


def test_the_position_after_a_buried_build_is_lost_without_the_dead_end_test(monkeypatch):
    """(The plain search, with home cards free to come back, does not finish here.)"""
    state = position(d2="[JD] JH [TC]", d1="", d3="", r1c1="KH QC", r1c2="KD", r1c3="KC QD JC", r1c4="QH")
    after = state.play("d2 build")
    assert is_dead(*parts(after))
    monkeypatch.setattr(DeadEnds, "is_dead", lambda self, state: False)
    assert sw.solve(after, max_states=20_000).status == "lost"
    assert sw.solve(state, max_states=20_000).status == "won"


# ---------------------------------------------------------------- dead ends
def test_deals_with_a_cycle_of_buried_hosts_are_dead_from_the_start():
    """Deal 901: AC lies in row 2 on its host 2H, AS in row 3 on its host 2D; an Ace climbs
    only onto a 2 and goes home only from row 1, so each waits for the other. Deal 160: the
    red Threes lie in row 3 and climb only onto a black Four in row 2; 4S lies in row 1 on 5D,
    4C in d1, and they get to row 2 only onto a red Five there, 5D under 4S, 5H under 3H in
    row 3 (4S home first needs 2S home, which climbs only onto a red Three in row 1). Deal
    995: no space of rows 1 and 3 ever empties, so no King moves and no deck is flipped, and
    the cards that would start the climbs lie face down deep in d1 and d2."""
    for number in (160, 399, 480, 834, 901, 995):
        result = sw.solve(GAME.deal(number), max_states=100)
        assert result.status == "lost" and result.progress.expanded <= 1, number
    assert not is_dead(*parts(GAME.deal(1)))


def parts(state):
    return state.piles, state.extra


def test_no_position_on_a_winning_line_is_dead(monkeypatch):
    """The lines are found without the test, which would steer the search off any position it
    wrongly finds dead. Deals 39, 40 and 42: positions of their lines are alive only by a flip
    (a deck's face-down card that the cards above it never uncover)."""
    monkeypatch.setattr(DeadEnds, "is_dead", lambda self, state: False)
    seen = 0
    for number, move, state in along_wins():
        assert not is_dead(*parts(state)), (number, str(move))
        seen += 1
    assert seen > 1400


def along_wins():
    """(deal, the move next played, the position) along the wins the solver finds of deals
    1-15, 39, 40 and 42 (deals that are won, and whose lines are long)."""
    for number in (*range(1, 16), 39, 40, 42):
        result = sw.solve(GAME.deal(number), max_states=15_000)
        if result.status != "won":
            continue
        state = GAME.deal(number)
        for move in result.moves:
            yield number, move, state
            state = state.play(move)


def test_positions_a_search_finds_dead_are_lost_without_the_test(monkeypatch):
    """Positions of the searches of deals 213 and 282 (the longest loss proofs of deals
    1-1000) found dead, mostly where a card must climb rows that its hosts never reach,
    searched again without the test."""
    real, dead = DeadEnds.is_dead, []

    def recording(self, state):
        found = real(self, state)
        if found:
            dead.append(state)
        return found

    monkeypatch.setattr(DeadEnds, "is_dead", recording)
    for number in (213, 282):
        sw.solve(GAME.deal(number), max_states=3000)
    monkeypatch.setattr(DeadEnds, "is_dead", lambda self, state: False)
    sample = dead[:: max(1, len(dead) // 10)]
    assert len(sample) >= 8
    assert all(sw.solve(state, max_states=5000).status == "lost" for state in sample)


def test_positions_found_dead_are_lost_for_the_plain_search():
    rng = random.Random(99)
    dead = alive = 0
    for k in range(60):
        state = small_position(rng, locked=k % 3 == 0)
        off = sw.solve(state, max_states=3000, autoplay=False)
        if off.status == "unknown":
            continue
        if is_dead(*parts(state)):
            assert off.status == "lost", GAME.format(state)
            dead += 1
        else:
            alive += 1
    cyclic = position(
        r2c3="[QH] JC",
        r3c3="[QD] JS",
        f0="AC-TC",
        f1="AD-JD",
        f2="AH-JH",
        f3="AS-TS",
        r1c1="KC",
        r1c2="KS",
        r1c3="KH QC",
        r1c4="KD QS",
        d1="",
        d2="",
        d3="",
    )
    assert is_dead(*parts(cyclic))
    assert sw.solve(cyclic, max_states=20_000, autoplay=False).status == "lost"
    assert dead >= 5 and alive >= 10, (dead, alive)


def one_rank_at_a_time(hosts, came):
    """The cards of ``came`` that reach hosts' row, a rank a pass (as the closure once did)."""
    here = hosts
    while True:
        black = (here | here >> 48) & SUIT
        red = (here >> 16 | here >> 32) & SUIT
        new = came & ~here & (red >> 1 | (black >> 1) << 16 | (black >> 1) << 32 | (red >> 1) << 48)
        if not new:
            return here & ~hosts
        here |= new


def climbed_a_card_at_a_time(home, ready):
    while True:
        new = ready & (home << 1 | ACES) & ~home
        if not new:
            return home
        home |= new


def test_the_doubling_closure_steps_agree_with_one_rank_a_pass():
    """_guests_reached and _climbed find runs in four doublings; the passes they replace
    added a rank at a time. Random sets, ``came`` and ``ready`` dense enough for runs of
    every length."""
    rng = random.Random(7)
    every = [bit for bit in range(64) if EVERY_CARD >> bit & 1]

    def cards(share):
        return sum(1 << bit for bit in every if rng.random() < share)

    for _ in range(3000):
        hosts, home = cards(0.1), cards(0.2)
        came, ready = cards(0.9) & ~hosts, cards(0.9)
        assert came & _guests_reached(hosts, came) == one_rank_at_a_time(hosts, came)
        assert _climbed(home, ready) == climbed_a_card_at_a_time(home, ready)
