"""The solver: wins replay, one-move wins, proved losses, budgets, stepping, hints, reductions."""

import pytest

import solwidget as sw
from solwidget.engine.cards import card_name, deck
from solwidget.engine.state import State
from solwidget.games.freecell.expander import CellsExpander
from solwidget.games.freecell.moves import fits
from solwidget.games.freecell.score import cells_score
from solwidget.solver.autoplay import safe_moves, settle
from solwidget.solver.expand import PatienceExpander
from solwidget.solver.heuristics import DEFAULT_WEIGHTS, patience_score
from solwidget.solver.keys import engine_key_is_plain, patience_key
from solwidget.solver.profile import profile_for
from solwidget.solver.stock import REDEAL, TURN, cycle, reachable_tops, turn_up

# Deals that each game's solver wins within a small budget (found with the default options).
QUICK_DEALS = {
    "reversed_solitaire": [8, 9],
    "inverted_freecell": [8, 9],
    "freecell": [2, 3, 8],
    "triple_interchange": [2, 5],
    "unlimited": [4],
    "interlock": [1, 2],
    "love_a_duck": [1],
    "quadruple_interchange": [7],
    "mutated": [2],
}
# Deals proved lost quickly; the second entry says whether the proof is cheap enough to
# repeat with every reduction off (no autoplay, every single stock turn expanded).
LOST_DEALS = [("single_interchange", 8, True), ("interchange", 15, False), ("guardian", 7, False)]
QUICK_BUDGET = 3000
# With no quick win found: single_interchange, interchange and guardian (deals 1-15 are won
# nowhere near this budget; several are proved lost, see LOST_DEALS).


def _position(game_id, piles, **extra):
    game = sw.load_game(game_id)
    full = {pid: [] for pid in game.pile_ids}
    full.update(piles)
    return game.state_from_dict({"game": game_id, "piles": full, **extra})


def _packed(state):
    """``state`` with its piles as bytes, as CellsExpander keeps them."""
    return State(state.game, tuple(map(bytes, state.piles)), state.extra)


def _replays_to_win(state, moves):
    for move in moves:
        state = state.play(move)
    return state.is_won()


@pytest.mark.parametrize("game_id", sorted(QUICK_DEALS))
def test_wins_replay_to_a_won_state(game_id):
    game = sw.load_game(game_id)
    for number in QUICK_DEALS[game_id]:
        result = sw.solve(game.deal(number), max_states=QUICK_BUDGET)
        assert result.status == "won", (game_id, number, result)
        assert _replays_to_win(game.deal(number), result.moves)


@pytest.mark.parametrize("game_id,number,cross_check", LOST_DEALS)
def test_deals_proved_lost_stay_lost_without_the_reductions(game_id, number, cross_check, monkeypatch):
    game = sw.load_game(game_id)
    state = game.deal(number)
    assert sw.solve(state, max_states=QUICK_BUDGET).status == "lost"
    if cross_check:  # no safe moves, no stock compressed, no dead ends
        plain_expander = type(profile_for(game).expander(game, autoplay=False, compress=False))
        monkeypatch.setattr(plain_expander, "dead_end_test", lambda self, game: None)
        plain = sw.solve(state, max_states=50_000, autoplay=False, compress_stock=False)
        assert plain.status == "lost"
        assert plain.progress.expanded > 10 * QUICK_BUDGET // 30


def _all_home_but(game_id, card_names, foundation_start):
    """A position of a 4-foundation one-deck game with every card home except ``card_names``."""
    left = set(card_names)
    piles = {}
    for f, suit in enumerate("CDHS"):
        ranks = "A23456789TJQK" if foundation_start == "A" else "KQJT98765432A"
        piles[f"f{f}"] = []
        for rank in ranks:
            if rank + suit in left:
                break
            piles[f"f{f}"].append(rank + suit)
    return piles


@pytest.mark.parametrize("game_id,start,last", [("freecell", "A", "KS"), ("reversed_solitaire", "K", "AS")])
def test_one_move_from_a_win_is_won_in_one(game_id, start, last):
    piles = _all_home_but(game_id, [last], start)
    piles["t3"] = [last]
    result = sw.solve(_position(game_id, piles))
    assert result.status == "won"
    assert [str(m) for m in result.moves] == ["t3 f3"]


def test_one_move_win_in_a_game_without_autoplay():
    game = sw.load_game("mutated")
    state = game.deal(1)
    data = state.to_dict()
    piles = {pid: [] for pid in data["piles"]}
    for f, suit in enumerate("CDHS"):
        piles[f"f{f}"] = [r + suit for r in "A23456789TJQK"]
    piles["f3"].pop()
    piles["r1c1"] = ["KS"]
    data["piles"] = piles
    result = sw.solve(game.state_from_dict(data))
    assert result.status == "won" and len(result.moves) == 1
    assert _replays_to_win(game.state_from_dict(data), result.moves)


def _stuck_freecell_like(game_id, tops, cells):
    """Every card on the tableau or in the cells; tops that fit nowhere and full cells."""
    rest = [card_name(c) for c in deck(1) if card_name(c) not in tops + cells]
    piles = {f"c{i}": [card] for i, card in enumerate(cells)}
    for t in range(8):
        piles[f"t{t}"] = rest[t * 5 : (t + 1) * 5] + [tops[t]]
    return _position(game_id, piles)


def test_freecell_position_where_nothing_moves_is_lost():
    # Red tops never take each other; the cells hold Kings, which fit on no top.
    state = _stuck_freecell_like(
        "freecell", ["2D", "4D", "6D", "8D", "2H", "4H", "6H", "8H"], ["KC", "KD", "KH", "KS"]
    )
    assert state.legal_moves() == []
    result = sw.solve(state)
    assert result.status == "lost"


def test_reversed_solitaire_stuck_position_is_lost():
    # Foundations start with Kings, all buried; the Aces in the cells fit on no top.
    state = _stuck_freecell_like(
        "reversed_solitaire", ["3D", "5D", "7D", "9D", "3H", "5H", "7H", "9H"], ["AC", "AD", "AH", "AS"]
    )
    result = sw.solve(state)
    assert result.status == "lost"


def test_interchange_endgame_with_a_card_blocked_under_its_own_suit_is_lost():
    # 3C lies on 2C, which the clubs foundation needs next; 3C could go only on 4C,
    # buried beneath, and an empty pile takes only a King.
    piles = _all_home_but("single_interchange", ["2C"], "A")
    piles["t0"] = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "2C", "3C"]
    state = _position("single_interchange", piles, redeals=0)
    result = sw.solve(state)
    assert result.status == "lost"


def test_small_winnable_interchange_endgame_is_won_through_the_stock():
    # Nearly the same cards, but 5C has a pile of its own and 4C waits in the stock:
    # turn it, put it on 5C, 3C goes on it, and 2C is free.
    piles = _all_home_but("single_interchange", ["2C"], "A")
    piles["t0"] = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "2C", "3C"]
    piles["t1"] = ["5C"]
    piles["stock"] = ["[4C]"]
    state = _position("single_interchange", piles, redeals=0)
    result = sw.solve(state)
    assert result.status == "won"
    assert _replays_to_win(state, result.moves)


def test_a_budget_that_runs_out_gives_unknown_with_progress():
    result = sw.solve(sw.load_game("freecell").deal(9), max_states=5)
    assert result.status == "unknown" and result.moves == []
    assert result.progress.expanded == 5
    assert result.progress.frontier > 0 and result.progress.best_line
    assert "budget" in result.reason


def test_stepping_in_small_steps_agrees_with_solving_at_once():
    state = sw.load_game("freecell").deal(5)
    solver = sw.Solver(state, max_states=QUICK_BUDGET)
    seen = []
    while not solver.done:
        seen.append(solver.step(7).expanded)
    at_once = sw.solve(state, max_states=QUICK_BUDGET)
    assert solver.result.status == at_once.status == "won"
    assert solver.result.moves == at_once.moves
    assert solver.progress.expanded == at_once.progress.expanded
    assert seen == sorted(seen) and seen[0] <= 7


@pytest.mark.parametrize("game_id, number", [("freecell", 21), ("mutated", 1)])
def test_the_first_search_opens_alone_for_its_profiles_turn(game_id, number):
    """The first search runs alone for its profile's opening turn (300 expansions for the
    FreeCell family, 150 by default); the next expansion is the second search's."""
    state = sw.load_game(game_id).deal(number)
    opening = profile_for(state.game).opening
    solver = sw.Solver(state)
    solver.step(opening)
    first, second = solver._searches[:2]
    assert solver.progress.expanded == opening and not solver.done
    assert first.generated > 0 and second.generated == 0
    solver.step(1)
    assert second.generated > 0


def test_progress_while_stepping():
    solver = sw.Solver(sw.load_game("reversed_solitaire").deal(2))
    progress = solver.step(20)
    assert progress is solver.progress and not solver.done and solver.result is None
    assert progress.expanded == 20 and progress.frontier > 0 and progress.depth > 0
    assert progress.best_score > 0 and progress.elapsed > 0 and progress.rate > 0
    state = solver.state
    for move in progress.best_line:
        state = state.play(move)


def test_hint_returns_a_winning_move_when_a_win_is_found():
    state = sw.load_game("freecell").deal(2)
    h = sw.hint(state)
    assert h.winning and h.move in state.legal_moves()
    assert _replays_to_win(state, h.moves)
    assert "win" in str(h)


def test_hint_says_promising_when_no_win_is_found():
    state = sw.load_game("freecell").deal(9)
    h = sw.hint(state, max_states=3)
    assert not h.winning and h.move in state.legal_moves()
    assert "promising" in str(h)


def test_hint_in_a_lost_position_says_so():
    state = sw.load_game("single_interchange").deal(8)
    h = sw.hint(state)
    assert not h.winning and h.lost and h.move in state.legal_moves()
    assert str(h) == "no move wins from here: this position is lost (proved)"
    assert "promising" not in str(h)


def test_hint_is_none_when_no_move_is_legal():
    state = _stuck_freecell_like(
        "freecell", ["2D", "4D", "6D", "8D", "2H", "4H", "6H", "8H"], ["KC", "KD", "KH", "KS"]
    )
    assert sw.hint(state) is None


def _aces_apart():
    piles = {"f0": ["AD"], "f1": ["AH"], "t0": ["AC"], "t1": ["2H"]}
    rest = [card_name(c) for c in deck(1) if card_name(c) not in ("AD", "AH", "AC", "2H")]
    for t in range(2, 8):
        piles[f"t{t}"] = rest[(t - 2) * 8 : (t - 1) * 8]
    return _position("freecell", piles)


def test_the_search_settles_2h_only_once_both_black_aces_are_home():
    # The search's rule: 2H waits for both black Aces; the AC may go at once.
    state = _aces_apart()
    moves = settle(state.game, state)[1]
    assert [str(m) for m in moves] == ["t0 f2"]  # AS still buried: 2H stays


def test_autoplay_sends_a_two_onto_its_ace_while_the_other_ace_is_buried():
    # Autoplay's rule: a black Ace needs no host (it goes home whenever it is free), so 2H
    # may go home on its lone AH.
    state = _aces_apart()
    moves = safe_moves(state)
    assert [str(m) for m in moves] == ["t0 f2", "t1 f1"]
    for move in moves:
        state = state.play(move)
    assert state.pile("f1") == ["AH", "2H"]


def test_turned_positions_agree_with_the_engine():
    game = sw.load_game("triple_interchange")
    state = game.deal(3)
    for _ in range(5):  # some cards on the waste, some in the stock
        state = state.play("stock waste")
    count = 0
    for turns, turned in reachable_tops(game, state):
        replayed = state
        for move in turns:
            replayed = replayed.play(move)
        assert replayed == turned
        assert turns[-1] == TURN and set(turns) <= {TURN, REDEAL}
        count += 1
    assert count == len(state.piles[game.stock_index]) + len(state.piles[game.waste_index]) - 1


@pytest.mark.parametrize("game_id", ["freecell", "triple_interchange", "interlock", "guardian"])
def test_compact_keys_mean_what_the_engine_keys_mean(game_id):
    # The same equivalence as the engine's key, except that with one card turned at a time
    # and unlimited redeals the stock and waste count as a multiset.
    game = sw.load_game(game_id)
    if not engine_key_is_plain(game):
        pytest.skip("this game has its own key")
    key = patience_key(game)
    multiset = game.draw == 1 and game.redeals is None

    def meaning(state):
        founds, cells, tableau, rest, extra = game.key(state)
        if multiset:
            rest = tuple(sorted(c & 63 for pile in rest for c in pile))
        return founds, cells, tableau, rest, extra

    states = [game.deal(n) for n in (1, 2)]
    for state in list(states):
        states += [state.play(m) for m in state.legal_moves()]
    for state in list(states):
        states += [state.play(m) for m in state.legal_moves()[:6]]
    pairs = {(meaning(s), key(s)) for s in states}
    assert len({e for e, _ in pairs}) == len({k for _, k in pairs}) == len(pairs)


def test_a_whole_pile_is_not_moved_to_an_empty_pile():
    # Onto an empty pile of a symmetric tableau, a whole pile makes the same position again.
    piles = {"t0": ["9S", "8H"], "t7": []}
    rest = [card_name(c) for c in deck(1) if card_name(c) not in ("9S", "8H")]
    for t in range(1, 7):
        piles[f"t{t}"] = rest[(t - 1) * 8 : t * 8]
    piles["c0"], piles["c1"] = rest[48:49], rest[49:]
    state = _position("freecell", piles)
    game = state.game
    assert "t0 t7 2" in [str(m) for m in state.legal_moves()]
    key = patience_key(game)
    assert key(state.play("t0 t7 2")) == key(state)
    for expander in (CellsExpander(game, autoplay=False), PatienceExpander(game, autoplay=False)):
        tried = [str(moves[0]) for moves, _ in expander.expand(state)]
        assert "t0 t7" in tried and "t0 t7 2" not in tried


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire"])
def test_fast_freecell_search_skips_only_the_undoing_of_the_last_move(game_id):
    game = sw.load_game(game_id)
    expander = CellsExpander(game)
    undone = 0
    for number in (1, 2):
        parent = expander.start(game.deal(number))[0]
        for turn in range(40):
            children = list(expander.expand(parent))
            if not children:
                break
            for came_by, child in children:
                skipped = [
                    c for c in expander.expand(child) if c not in list(expander.expand(child, came_by))
                ]
                if len(came_by) == 1:  # one move, nothing sent home: undoing it, if legal, is skipped
                    assert skipped == [c for c in expander.expand(child) if c[1] == parent]
                    undone += len(skipped)
                else:
                    assert skipped == []
            parent = children[(turn * 7) % len(children)][1]
    assert undone > 5


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire", "inverted_freecell"])
@pytest.mark.parametrize("autoplay", [True, False])
def test_fast_freecell_successors_are_the_engines(game_id, autoplay):
    # The fast path yields what the general Patience expander yields, in the same order,
    # along a walk that reaches cells, empty piles, supermoves and foundation moves.
    game = sw.load_game(game_id)
    assert fits(game) and isinstance(profile_for(game).expander(game), CellsExpander)
    fast = CellsExpander(game, autoplay=autoplay)
    general = PatienceExpander(game, autoplay=autoplay)
    positions = []
    for number in (1, 2, 3):
        state = general.start(game.deal(number))[0]
        assert fast.start(game.deal(number))[0] == _packed(state)  # the fast path's piles are bytes
        for turn in range(60):
            positions.append(state)
            children = list(general.expand(state))
            if not children:
                break
            state = children[(turn * 7) % len(children)][1]
    state = game.deal(QUICK_DEALS[game_id][0])  # a winning line empties piles on the way
    for move in sw.solve(state).moves:
        state = state.play(move)
        positions.append(general.start(state)[0])  # the search expands settled positions
    assert any(not p.piles[t] for p in positions for t in game.tableau_indices)
    for state in positions:
        assert list(fast.expand(_packed(state))) == [
            (moves, _packed(child)) for moves, child in general.expand(state)
        ]


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire", "inverted_freecell"])
def test_freecell_score_is_the_patience_score(game_id):
    game = sw.load_game(game_id)
    for weights in (None, {"unsorted": 0.5, "cells": 1.0, "empty": 2.0}, {"buried": 0.3, "down": 2.0}):
        w = {**DEFAULT_WEIGHTS, **(weights or {})}
        fast, general = cells_score(game, w), patience_score(game, w)
        for number in (1, 2):
            state = game.deal(number)
            for turn in range(120):
                assert fast(state) == fast(_packed(state)) == general(state)
                legal = state.legal_moves()
                if not legal:
                    break
                state = state.play(legal[(turn * 5) % len(legal)])


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire"])
def test_freecell_children_scored_from_their_parent_score_as_the_score_does(game_id):
    game = sw.load_game(game_id)
    for weights in (None, {"unsorted": 0.5, "cells": 1.0, "empty": 2.0}, {"urgent": 2.0, "cells": 1.0}):
        expander = CellsExpander(game, weights)
        fresh = cells_score(game, {**DEFAULT_WEIGHTS, **(weights or {})})  # a cold cache
        from_parent = 0
        for number in (1, 2, 3):
            state = expander.start(game.deal(number))[0]
            for turn in range(60):
                children = list(expander.scored(state, (), lambda key: True))
                if not children:
                    break
                for _, child, value in children:
                    if value is not None:  # a position scored so comes as its piles
                        child = State(game, child, ())
                        assert value == fresh(child) == expander.score(child)
                        from_parent += 1
                state = children[(turn * 5) % len(children)][1]
        assert from_parent > 200


def test_fast_path_is_only_for_the_freecell_family():
    for game_id in sw.games():
        game = sw.load_game(game_id)
        fast = isinstance(profile_for(game).expander(game), CellsExpander)
        assert fast == (game_id in ("freecell", "reversed_solitaire", "inverted_freecell")), game_id
    assert not isinstance(
        profile_for(sw.load_game("freecell", cells=0)).expander(sw.load_game("freecell", cells=0)),
        CellsExpander,
    )


def test_solve_command_prints_status_and_moves(capsys):
    from solwidget.cli import main

    assert main(["solve", "freecell", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "won in" in out and "t" in out.splitlines()[1]


@pytest.mark.parametrize("game_id", ["triple_interchange", "interlock"])
def test_turning_up_one_card_is_the_first_way_the_turns_reach_it(game_id):
    game = sw.load_game(game_id)
    state = game.deal(3)
    for _ in range(5):  # some cards on the waste, some in the stock
        state = state.play("stock waste")
    for card in set(cycle(game, state.piles)):
        first = next(reachable_tops(game, state, lambda top, card=card: top == card), None)
        if state.piles[game.waste_index][-1] == card:
            first = ((), state)  # already on top: no turn at all
        assert turn_up(game, state, card) == first


@pytest.mark.parametrize("game_id", ["freecell", "triple_interchange", "interlock", "mutated"])
def test_a_search_makes_no_reference_cycles(game_id):  # one game of each expander
    # Solver.step and Solver.solve pause the garbage collector: nothing for it to find must
    # pile up meanwhile; they give it back as they found it. (A search's own set-up may make
    # a cycle or two, once: compiled closures share one scope. That goes with the Solver.)
    import gc

    state = sw.load_game(game_id).deal(QUICK_DEALS[game_id][0])
    assert sw.solve(state, max_states=QUICK_BUDGET).status == "won"
    assert gc.isenabled()  # solve gives it back
    solver = sw.Solver(state, max_states=QUICK_BUDGET)
    solver.step(1)  # the search set up
    gc.collect()
    gc.disable()  # no pass in between finds them
    try:
        while not solver.done:
            solver.step(10)
        assert solver.result.status == "won"
        assert not gc.isenabled()  # and leaves it off if it was
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("game_id", ["freecell", "reversed_solitaire"])
def test_a_freecell_family_solve_makes_no_reference_cycles_at_all(game_id):
    # not even to set up: its key is a class and its score's closures call no other, so
    # its tables go with the solver, not at the collector's next pass, which would walk them
    import gc

    state = sw.load_game(game_id).deal(QUICK_DEALS[game_id][0])
    gc.collect()
    gc.disable()
    try:
        assert sw.solve(state, max_states=QUICK_BUDGET).status == "won"
        assert gc.collect() == 0
    finally:
        gc.enable()
