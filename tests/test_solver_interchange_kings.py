"""The Interchange family's dead ends and bridges where an empty pile takes only a King
(Interchange, Unlimited, Single Interchange; games/interchange/reductions.py), each checked
against searches without them that end: nothing on a win is dead, what is dead is lost."""

import random

import pytest
from test_solver_interchange import (
    RANKS,
    foundations,
    line_positions,
    plain_closure_is_dead,
    position_of,
    small_position,
)

import solwidget as sw
from solwidget.engine.cards import card_name
from solwidget.games.interchange import reductions
from solwidget.games.interchange.reductions import DeadEnds

UNLIMITED, SINGLE, ONE_PASS = (sw.load_game(g) for g in ("unlimited", "single_interchange", "interchange"))
KING_GAMES = (UNLIMITED, SINGLE, ONE_PASS)


def _without_dead_ends(monkeypatch):
    monkeypatch.setattr(reductions, "applies", lambda game: False)
    monkeypatch.setattr(reductions, "bridges_apply", lambda game: False)


def _king_under_its_ace(empty: str = "king") -> sw.State:
    """Single Interchange with clubs and diamonds home, spades to the ten, KH, AH, 2H on one
    pile (2H on top), the rest of hearts and spades in the stock, four empty piles."""
    game = SINGLE
    if empty != "king":
        game = sw.variant("single_interchange", id="single_any", name="Single, any card", empty=empty).game()
    piles = foundations([[13], [13], [0], [10]])
    piles.update(t0=["KH", "AH", "2H"], stock=[f"[{r}H]" for r in RANKS[2:12]] + ["[JS]", "[QS]", "[KS]"])
    return position_of(piles, game)


def test_an_empty_pile_that_takes_only_kings_is_no_way_out(monkeypatch):
    # 2H must leave for AH to go home: onto 3H, which waits in the stock for 4H ... for KH,
    # under AH; the empty piles take only a King (KS, and the spades on it, may go there).
    # Where they take any card, 2H goes there.
    dead, alive = _king_under_its_ace(), _king_under_its_ace(empty="any")
    assert DeadEnds(dead.game).is_dead(dead) and plain_closure_is_dead(dead)
    assert not DeadEnds(alive.game).is_dead(alive) and not plain_closure_is_dead(alive)
    assert sw.solve(alive).status == "won"
    _without_dead_ends(monkeypatch)
    result = sw.solve(dead)
    assert result.status == "lost" and result.progress.expanded > 1


def test_a_king_from_the_stock_takes_an_empty_pile_and_frees_the_rest():
    # the same, but KH in the stock: it goes to an empty pile, QH ... 3H follow, 2H goes on
    piles = foundations([[13], [13], [0], [13]])
    piles.update(t0=["AH", "2H"], stock=[f"[{r}H]" for r in RANKS[2:]])
    state = position_of(piles, SINGLE)
    assert not DeadEnds(SINGLE).is_dead(state) and not plain_closure_is_dead(state)
    assert sw.solve(state).status == "won"


def tangled_position(game, seed: int) -> sw.State:
    """A random endgame that is often lost: 16 to 26 cards out above foundations at
    random ranks, laid face up in random order on every tableau pile (so that a King may
    bury the cards of its suit), a few in the waste and the stock."""
    rnd = random.Random(seed)
    piles_out = len(game.tableau_indices)
    while True:
        levels = [[13 - rnd.choice((0, 3, 5, 7, 9)) for _ in range(game.decks)] for _ in range(4)]
        out = [s << 4 | r for s in range(4) for r in range(1, 14) for level in levels[s] if r > level]
        if 16 <= len(out) <= 26 + piles_out:
            break
    rnd.shuffle(out)
    piles = foundations(levels)
    columns = [[out.pop()] for _ in range(piles_out)]
    while out and rnd.random() < 0.9:
        rnd.choice(columns).insert(0, out.pop())
    for t, column in enumerate(columns):
        piles[f"t{t}"] = [card_name(c) for c in column]
    on_waste = rnd.randint(0, len(out))
    piles["waste"] = [card_name(c) for c in out[:on_waste]]
    piles["stock"] = [f"[{card_name(c)}]" for c in out[on_waste:]]
    return position_of(piles, game)


def _random_walks(game, deals, steps=60, every=6):
    """Every ``every``-th position of a walk of random legal moves from each deal."""
    rng = random.Random(1)
    for deal in deals:
        state = game.deal(deal)
        for step in range(steps):
            if step % every == 0:
                yield state
            moves = game.legal_moves(state)
            if not moves:
                break
            state = state.play(rng.choice(moves))


@pytest.mark.parametrize("game", KING_GAMES, ids=lambda g: g.id)
def test_the_dead_end_closure_is_the_plain_one_where_kings_only_fill_a_pile(game):
    positions = list(_random_walks(game, range(1, 31)))
    dead_ends = DeadEnds(game)
    answers = [dead_ends.is_dead(s) for s in positions]
    assert answers == [plain_closure_is_dead(s) for s in positions]
    assert 5 <= sum(answers) <= len(answers) - 5


@pytest.mark.parametrize(
    "game, seeds", [(UNLIMITED, 40), (SINGLE, 40), (ONE_PASS, 12)], ids=["unlimited", "single", "one_pass"]
)
def test_no_position_on_a_win_is_dead_and_what_is_dead_is_lost(game, seeds, monkeypatch):
    """Endgames solved with the reductions and without them, searched to the end: the same
    answers, none of the positions on a win found dead, and those found dead lost."""
    dead_ends = DeadEnds(game)
    states = [tangled_position(game, seed) for seed in range(seeds)]
    dead = [dead_ends.is_dead(s) for s in states]
    with_them = [sw.solve(s, max_states=50_000).status for s in states]
    _without_dead_ends(monkeypatch)
    without = [sw.solve(s, max_states=50_000) for s in states]
    assert with_them == [r.status for r in without]
    assert all(r.status == "lost" for r, is_dead in zip(without, dead) if is_dead)
    wins = [(s, r.moves) for s, r in zip(states, without) if r.status == "won"]  # found without the test
    assert sum(dead) >= 1 and len(wins) >= 5
    assert not any(dead_ends.is_dead(p) for s, moves in wins for p in line_positions(s, moves))


@pytest.mark.parametrize("deal", [4, 6, 10, 11])
def test_no_position_on_an_unlimited_win_is_dead(deal):
    result = sw.solve(UNLIMITED.deal(deal), max_seconds=30)
    assert result.status == "won"
    assert not any(DeadEnds(UNLIMITED).is_dead(s) for s in line_positions(UNLIMITED.deal(deal), result.moves))


@pytest.mark.parametrize("game", (UNLIMITED, SINGLE), ids=lambda g: g.id)
def test_bridges_are_legal_lines_and_only_kings_start_one_on_an_empty_pile(game):
    count = onto_empty = 0
    for seed in range(40):
        state = small_position(seed, (8, 14), game)
        empty = {game.pile_ids[t] for t in game.tableau_indices if not state.piles[t]}
        for moves, child in reductions.bridges(game, state):
            reached = state
            for move in moves:
                reached = reached.play(move)  # the engine refuses an illegal move
            assert reached.piles == child.piles, (seed, moves)
            first = next(m for m in moves if m.src == "waste")
            if first.dst in empty:
                onto_empty += 1
                assert child.piles[game.index_of[first.dst]][0] & 15 == 13, (seed, moves)
            count += 1
    assert count >= 20 and onto_empty >= 3


def test_a_queen_from_the_stock_waits_for_a_king_not_an_empty_pile():
    # Where any card fills an empty pile, QH from the stock would go there to take JH; here
    # only KH may, and QH goes on it: every bridge onto the empty pile starts with KH
    piles = foundations([[13], [13], [10], [13]])
    piles.update(t0=["JH"], stock=["[QH]", "[KH]"])
    state = position_of(piles, SINGLE)
    t1 = SINGLE.index_of["t1"]  # the first empty pile
    onto_empty = [child for moves, child in reductions.bridges(SINGLE, state) if child.piles[t1]]
    assert [[card_name(c) for c in child.piles[t1]] for child in onto_empty] == [["KH", "QH", "JH"]]


def _turned_onto_its_host() -> dict:
    """One pass: JD, turned second, lands on the waste above QD, the one card it could go
    on; TD waits for JD to free 7D (its foundation wants 7D). The stock turns QC, JD, QS,
    9C, 8C, KC, KD; the Kings it gives take empty piles too late to help."""
    piles = foundations([[7, 13], [6, 13], [13, 13], [11, 12]])
    piles.update(
        t0=["KS"],
        t1=["7D", "TD"],
        t2=["KS"],
        stock=["[KD]", "[KC]", "[8C]", "[9C]", "[QS]", "[JD]", "[QC]"],
        waste=["9D", "TC", "8D", "QD", "JC"],
    )
    return piles


def test_a_card_turned_onto_the_waste_may_bury_the_card_it_waits_for(monkeypatch):
    dead = position_of(_turned_onto_its_host(), ONE_PASS)
    alive = position_of(_turned_onto_its_host(), UNLIMITED)  # every reserve card within reach
    assert DeadEnds(ONE_PASS).is_dead(dead) and plain_closure_is_dead(dead)
    assert not DeadEnds(UNLIMITED).is_dead(alive) and not plain_closure_is_dead(alive)
    _without_dead_ends(monkeypatch)
    result = sw.solve(dead)
    assert result.status == "lost" and result.progress.expanded > 1
    assert sw.solve(alive).status == "won"


def stocked_position(game, seed: int) -> sw.State:
    """A random endgame with most of its 18 to 30 cards out in the stock and waste, the
    rest face up on four tableau piles: the order the stock turns in matters."""
    rnd = random.Random(seed)
    while True:
        levels = [[13 - rnd.choice((0, 2, 3, 5, 7)) for _ in range(game.decks)] for _ in range(4)]
        out = [s << 4 | r for s in range(4) for r in range(1, 14) for level in levels[s] if r > level]
        if 18 <= len(out) <= 30:
            break
    rnd.shuffle(out)
    piles = foundations(levels)
    in_reserve = rnd.randint(len(out) // 2, 4 * len(out) // 5)
    columns: list[list[int]] = [[] for _ in range(4)]
    for card in out[in_reserve:]:
        rnd.choice(columns).append(card)
    for t, column in enumerate(columns):
        piles[f"t{t}"] = [card_name(c) for c in column]
    on_waste = rnd.randint(0, in_reserve // 2)
    piles["waste"] = [card_name(c) for c in out[:on_waste]]
    piles["stock"] = [f"[{card_name(c)}]" for c in out[on_waste:in_reserve]]
    return position_of(piles, game)


def _played_on(states, seed: int):
    """Each state, and after a few random legal moves (turns bury cards on the waste)."""
    rnd = random.Random(seed)
    for state in states:
        yield state
        for _ in range(3):
            after = state
            for _ in range(rnd.randint(1, 14)):
                moves = ONE_PASS.legal_moves(after)
                if not moves:
                    break
                after = after.play(rnd.choice(moves))
            yield after


def test_rule_s_finds_only_lost_positions_and_nothing_on_a_win(monkeypatch):
    """Rule S: with no redeal left, the waste and stock are one pile read level by level.
    Positions it alone finds dead (alive when the reserve is read as loose cards) are lost
    when searched to the end without the reductions; no position on a win is dead."""
    states = list(_played_on([stocked_position(ONE_PASS, seed) for seed in range(60)], seed=7))
    dead_ends = DeadEnds(ONE_PASS)
    dead = [dead_ends.is_dead(s) for s in states]
    monkeypatch.setattr(DeadEnds, "_waste_is_a_pile", lambda self, state: False)
    loose = [dead_ends.is_dead(s) for s in states]
    monkeypatch.undo()
    assert not any(is_loose and not is_dead for is_dead, is_loose in zip(dead, loose))
    by_rule_s = [s for s, is_dead, is_loose in zip(states, dead, loose) if is_dead and not is_loose]
    assert len(by_rule_s) >= 5
    _without_dead_ends(monkeypatch)
    assert [sw.solve(s, max_states=300_000).status for s in by_rule_s] == ["lost"] * len(by_rule_s)
    found = [(s, sw.solve(s, max_states=50_000)) for s in states[::4]]  # wins found without the test
    wins = [(s, r.moves) for s, r in found if r.status == "won"]
    assert len(wins) >= 20
    assert not any(dead_ends.is_dead(p) for s, moves in wins for p in line_positions(s, moves))


def test_rule_s_waits_for_the_last_pass():
    twice = sw.variant(
        "interchange", id="interchange_two_passes", name="Interchange, two passes", redeals=1
    ).game()
    dead_ends = DeadEnds(twice)
    state = twice.deal(1)
    assert state.extra == (0,) and not dead_ends._waste_is_a_pile(state)
    assert dead_ends._waste_is_a_pile(sw.State(twice, state.piles, (1,)))
    assert DeadEnds(ONE_PASS)._waste_is_a_pile(ONE_PASS.deal(1))
    assert not DeadEnds(UNLIMITED)._waste_is_a_pile(sw.State(UNLIMITED, UNLIMITED.deal(1).piles, (7,)))
