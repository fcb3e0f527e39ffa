"""Interlock's dead ends in Guardian (games/interlock/deadends.py): face-down cards read face
up, any card to an empty back pile, a stock turned three at a time. Checked as Interlock's
are: what the test calls dead is lost when searched to the end without it, and no
position on a win is dead."""

import pytest
from test_solver_interlock import small_position

import solwidget as sw
from solwidget.engine.cards import FACE_DOWN
from solwidget.games.interlock import bridges, deadends, explain
from solwidget.games.interlock.deadends import DeadEnds
from solwidget.solver.autoplay import is_safe_or_lemma, safe_move, settle
from solwidget.solver.profile import profile_for

GAME = sw.load_game("guardian")
HOST_SEEDS = 300  # endgames drawn for the host split's test
LEMMA_SEEDS = 1500  # endgames drawn for the safe cards' lemma's test (it sends home few starts)


def _endgames(left, runs, seeds) -> list:
    return [small_position(seed, left, runs, game=GAME) for seed in seeds]


def _without_dead_ends(monkeypatch):
    monkeypatch.setattr(deadends, "applies", lambda game: False)


def test_the_dead_ends_apply_to_guardian_and_not_where_it_builds_in_suit():
    in_suit = sw.variant("guardian", id="guardian_in_suit", name="Guardian in suit", build="down in suit")
    assert deadends.applies(GAME) and not deadends.applies(in_suit.game())
    assert profile_for(GAME).lemmas(GAME)["dead ends"]
    piles = GAME.deal(1).piles
    hidden = [card for t in GAME.tableau_indices for card in piles[t] if card & FACE_DOWN]
    assert len(hidden) == 7  # the back and middle piles' cards: read face up
    read = DeadEnds(GAME).face_up(piles)
    assert [card | FACE_DOWN for t in GAME.tableau_indices for card in read[t][:1]][:7] == hidden


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_endgames_found_dead_are_lost_without_the_test(left, runs, monkeypatch):
    states = _endgames(left, runs, range(40))
    dead = [s for s in states if DeadEnds(GAME).is_dead(s)]
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(s, max_states=20_000).status for s in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 10, answers


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_no_position_of_a_winning_line_is_dead(left, runs):
    # under every host split too
    dead_ends, won = DeadEnds(GAME), 0
    for start in _endgames(left, runs, range(40)):
        result = sw.solve(start, max_states=20_000)
        if result.status == "won":
            won += 1
            state = start
            for move in result.moves:
                assert not dead_ends.is_dead(state, every_split=True), (GAME.to_dict(start), move)
                state = state.play(move)
    assert won >= 10


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_tops_the_safe_cards_lemma_sends_home_keep_every_verdict(left, runs, monkeypatch):
    # bridges.py, "Safe cards home": a tableau top sent home by the lemma's rule, where
    # autoplay.py's rule sends none, leaves a win wherever there was one; the search's verdict
    # on such endgames is that of a search to their end with no safe move and no dead end
    states = _endgames(left, runs, range(LEMMA_SEEDS))
    sent = [s for s in states if safe_move(GAME, s, is_safe_or_lemma) != safe_move(GAME, s)]
    with_lemma = [sw.solve(s, max_states=20_000).status for s in sent]
    _without_dead_ends(monkeypatch)
    monkeypatch.setattr(bridges, "tops_safe", lambda game: False)
    plain = [sw.solve(s, max_states=50_000, autoplay=False).status for s in sent]
    assert with_lemma == plain and len(sent) >= 20 and {"won", "lost"} <= set(plain), plain


def test_the_safe_cards_lemma_serves_tops_where_no_bridges_do_and_not_love_a_duck_s():
    # Yukon groups may put any cards on a card sent home; Interlock sends its own (bridges)
    assert bridges.tops_safe(GAME)
    assert not bridges.tops_safe(sw.load_game("love_a_duck"))
    assert not bridges.tops_safe(sw.load_game("interlock"))
    by_threes = sw.variant("interlock", id="interlock_tops_by_threes", name="Interlock by threes", draw=3)
    assert bridges.tops_safe(by_threes.game())  # no bridges: its tops get the lemma
    expander = profile_for(GAME).expander(GAME)
    states = _endgames((10, 16), 0.0, range(200))
    sent = [s for s in states if safe_move(GAME, s, is_safe_or_lemma) != safe_move(GAME, s)]
    assert sent and all(len(expander._settle(s)[1]) > len(settle(GAME, s)[1]) for s in sent)


def _dead_only_by_a_host_split(states) -> list:
    """The states that the plain closure leaves alive and some host split proves dead."""
    test = DeadEnds(GAME)
    return [
        state
        for state in states
        if test._closure(test.face_up(state.piles), test.pair) and test.is_dead(state, every_split=True)
    ]


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_endgames_dead_only_by_a_host_split_are_lost_without_the_test(left, runs, monkeypatch):
    # a host that would go home while its guest still lies on it (deadends.py, "host split")
    dead = _dead_only_by_a_host_split(_endgames(left, runs, range(HOST_SEEDS)))
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(s, max_states=20_000).status for s in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 5, answers


def test_the_host_splits_left_out_prove_nothing():
    # a guest that might leave its host when the plain closure sent the host home (LEFT_FREE):
    # the closure under (leaves) finds what the plain closure found, so the split is not tried
    test, skipped = DeadEnds(GAME), 0
    for state in _endgames((12, 20), 0.6, range(HOST_SEEDS)):
        piles, uses = test.face_up(state.piles), bytearray(64)
        start = test._start(piles)
        if not test._closure(piles, test.pair, (), uses, start):
            continue
        tried = set(test._host_splits(uses))
        for guest in range(64):
            moved = uses[guest] & 3
            if moved in (1, 2) and uses[guest] & deadends.LEFT_FREE << moved - 1:
                host, other = test.pair[guest][moved], test.pair[guest][3 - moved]
                assert (guest, host, other) not in tried
                assert test._closure(piles, test.pair, (), None, start, held=(guest, host, other))
                skipped += 1
    assert skipped > 100, skipped


def test_a_host_split_proves_deals_lost_at_the_deal():
    # the search's start tries every host split the plain closure suggests: deal 118, whose
    # proof took 635,363 expansions without them, is lost at the deal, as are 130 and 194
    test = DeadEnds(GAME)
    for number in (118, 130, 194):
        deal = GAME.deal(number)
        assert test._closure(test.face_up(deal.piles), test.pair)
        result = sw.solve(deal, max_states=1000)
        assert (result.status, result.progress.expanded) == ("lost", 1), number


@pytest.mark.parametrize("number", [11, 16, 21])
def test_no_position_of_a_won_deal_is_dead(number):
    result = sw.solve(GAME.deal(number), max_seconds=30)
    assert result.status == "won", result
    state, dead_ends = GAME.deal(number), DeadEnds(GAME)
    for move in result.moves:
        assert not dead_ends.is_dead(state), move
        state = state.play(move)


def _five_over_three(game) -> sw.State:
    """All home but the spades from 3S: 3S face down in back pile t0 under middle pile t3
    (5S, its other cover t4 gone), the back pile t1 empty and uncovered, the rest of the
    spades in the stock."""
    piles = {pid: [] for pid in game.pile_ids}
    for f, suit in zip(game.foundation_indices, "CDHS"):
        piles[game.pile_ids[f]] = [r + suit for r in ("A23456789TJQK" if suit != "S" else "A2")]
    piles.update(t0=["[3S]"], t2=["[TS]"], t6=["JS"], t3=["5S"], t11=["QS"])
    piles["stock"] = [f"[{r}S]" for r in "46789K"]
    return game.state_from_dict({"game": game.id, "piles": piles})


def test_an_empty_back_pile_takes_any_card_so_the_five_may_leave_for_it(monkeypatch):
    # 5S must leave t3 for 3S to go home; its hosts, the red sixes, are home: only the empty
    # back pile t1 can take it, which Guardian allows and a King-only Guardian does not
    kings = sw.variant("guardian", id="guardian_kings", name="Guardian, Kings to spaces", empty="king").game()
    alive, dead = _five_over_three(GAME), _five_over_three(kings)
    assert not DeadEnds(GAME).is_dead(alive) and DeadEnds(kings).is_dead(dead)
    assert sw.solve(alive).status == "won"
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"


# ------------------------------------------------------------------ rule T: the stock by threes


def _tops(n: int, on_waste: int, draw: int, leaving: set[int]) -> set[int]:
    """Every card of a reserve of n cards (by place in turning order, ``on_waste`` of them on
    the waste) that comes to the top of the waste in some play of the stock alone: turns of
    ``draw`` cards, redeals once the stock is empty, and the top played away where it is one
    of ``leaving``. Every state of the reserve is walked."""
    tops: set[int] = set()
    seen: set[tuple[tuple[int, ...], int]] = set()
    todo = [(tuple(range(n)), on_waste)]
    while todo:
        cards, on = todo.pop()
        if (cards, on) in seen:
            continue
        seen.add((cards, on))
        if on:
            tops.add(cards[on - 1])
            if cards[on - 1] in leaving:
                todo.append((cards[: on - 1] + cards[on:], on - 1))
        todo.append((cards, min(on + draw, len(cards))) if on < len(cards) else (cards, 0))
    return tops


@pytest.mark.parametrize("draw", [2, 3, 4])
def test_rule_t_marks_every_card_the_stock_can_bring_up(draw):
    # every reserve of up to 7 cards, every count on the waste, every set of cards that may
    # leave it: each card that comes up (and is not among those, which the closure found
    # come up before they leave) is marked; and the rule does leave cards unmarked
    unmarked = 0
    for n in range(1, 8):
        for on_waste in range(n + 1):
            for bits in range(1 << n):
                leaving = {x for x in range(n) if bits >> x & 1}
                up = bytearray(n)
                deadends.shown(draw, on_waste, [x in leaving for x in range(n)], up)
                missed = _tops(n, on_waste, draw, leaving) - leaving - {x for x in range(n) if up[x]}
                assert not missed, (n, on_waste, sorted(leaving), sorted(missed))
                unmarked += n - len(leaving) - sum(up[x] for x in range(n) if x not in leaving)
    assert unmarked > 400


def _under_five(game) -> sw.State:
    """Hearts home to 4H, every other suit home; 8H, 9H and TH alone on the back piles,
    uncovered (no back pile is empty to take a card); the stock, in turning order: 5H 7H 6H
    JH QH KH. Turned three at a time it shows 6H and KH, neither of which can go anywhere."""
    piles = {pid: [] for pid in game.pile_ids}
    for f, suit in zip(game.foundation_indices, "CDHS"):
        piles[game.pile_ids[f]] = [rank + suit for rank in ("A234" if suit == "H" else "A23456789TJQK")]
    piles.update(t0=["TH"], t1=["9H"], t2=["8H"])
    piles["stock"] = [f"[{card}]" for card in reversed(("5H", "7H", "6H", "JH", "QH", "KH"))]
    return game.state_from_dict({"game": game.id, "piles": piles})


def test_a_card_the_turns_never_bring_up_is_dead_and_lost(monkeypatch):
    dead = _under_five(GAME)
    one_at_a_time = sw.variant("guardian", id="guardian_draw_one", name="Guardian by ones", draw=1).game()
    assert DeadEnds(GAME).is_dead(dead) and not DeadEnds(one_at_a_time).is_dead(_under_five(one_at_a_time))
    assert sw.solve(_under_five(one_at_a_time)).status == "won"
    why = sw.solve(dead).why
    assert why.lemma.kind == explain.NEVER_UP and why.cards == ["5H", "7H"]
    assert why.text.startswith("No line wins from here: 5♥ can never go home. It lies in the stock")
    _without_dead_ends(monkeypatch)
    assert sw.solve(dead).status == "lost"


@pytest.mark.parametrize("left, runs", [((10, 16), 0.0), ((12, 20), 0.6), ((16, 24), 0.5)])
def test_endgames_dead_only_by_rule_t_are_lost_without_the_test(left, runs, monkeypatch):
    by_threes, by_ones = DeadEnds(GAME), DeadEnds(GAME)
    by_ones.draw = 1  # every reserve card comes up at any time: rule T asks nothing
    dead = [s for s in _endgames(left, runs, range(120)) if by_threes.is_dead(s) and not by_ones.is_dead(s)]
    _without_dead_ends(monkeypatch)
    answers = [sw.solve(s, max_states=20_000).status for s in dead]
    assert answers == ["lost"] * len(dead) and len(dead) >= 5, answers


def _every_layout(state, cap: int) -> list | None:
    """Every position reachable from ``state``, one for each layout of the cards (the count
    of redeals aside, which grows for ever), or None where there are more than ``cap``."""
    seen = {state.piles: state}
    todo = [state]
    while todo:
        at = todo.pop()
        for move in at.legal_moves():
            after = at.play(move)
            if after.piles not in seen:
                seen[after.piles] = after
                todo.append(after)
                if len(seen) > cap:
                    return None
    return list(seen.values())


def test_each_card_the_turns_never_bring_up_never_goes_home_nor_leaves_the_one_named():
    # the coach's sentence for rule T, checked in every position reachable from endgames
    checked = 0
    for seed in range(300):
        start = small_position(seed, (6, 10), 0.0, game=GAME)
        why = explain.explain_dead_end(GAME, start)
        if why is None or why.kind != explain.NEVER_UP:
            continue
        card, blocker = why.cards
        layouts = _every_layout(start, 20_000)
        if layouts is None:
            continue
        for state in layouts:
            reserve = [name.strip("[]") for name in state.pile("stock") + state.pile("waste")]
            assert card in reserve and blocker in reserve, (seed, why.text)
        checked += 1
    assert checked >= 5, checked
