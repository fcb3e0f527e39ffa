"""The search frontier: best first, type-based exploration, trimming; and the searches using it."""

import heapq

import pytest
from native_checks import make_solver

import solwidget as sw
from solwidget.solver import frontier
from solwidget.solver.frontier import Frontier


def _entries(count):
    """Frontier entries (priority, -order, state, node) with depths 0..4 and 20 priorities."""
    return [((i * 7) % 20 + 0.5, -i, f"state {i}", (None, (), i % 5)) for i in range(count)]


def _drain(frontier):
    popped = []
    while frontier:
        popped.append(frontier.pop())
    return popped


def test_without_exploration_entries_come_best_first():
    frontier = Frontier()
    entries = _entries(200)
    for entry in entries:
        frontier.push(entry)
    assert len(frontier) == 200
    assert _drain(frontier) == sorted(entries)


def test_exploration_pops_every_entry_once_and_not_always_the_best():
    frontier = Frontier(explore=0.5, seed=3)
    entries = _entries(300)
    for entry in entries[:150]:
        frontier.push(entry)
    popped = [frontier.pop() for _ in range(100)]
    for entry in entries[150:]:  # pushes and pops interleaved, as in a search
        frontier.push(entry)
    popped += _drain(frontier)
    assert len(frontier) == 0
    assert sorted(popped) == sorted(entries)
    assert popped != sorted(popped)


def test_exploration_is_deterministic_for_a_seed():
    runs = []
    for _ in range(2):
        frontier = Frontier(explore=0.3, seed=11)
        for entry in _entries(120):
            frontier.push(entry)
        runs.append([e[1] for e in _drain(frontier)])
    assert runs[0] == runs[1]


def test_keep_holds_the_best_waiting_entries():
    frontier = Frontier(explore=0.4)
    entries = _entries(100)
    for entry in entries:
        frontier.push(entry)
    gone = [frontier.pop() for _ in range(30)]
    frontier.keep(20)
    waiting = [e for e in entries if e not in gone]
    assert len(frontier) == 20
    assert sorted(frontier.entries()) == heapq.nsmallest(20, waiting)


@pytest.mark.parametrize("explore", [0.0, 0.4])
def test_entries_popped_before_come_back_once_each(explore):
    # what a search that goes on alone does with the positions it held (search.py)
    frontier = Frontier(explore=explore, seed=5)
    entries = _entries(100)
    for entry in entries:
        frontier.push(entry)
    popped = [frontier.pop() for _ in range(30)]
    frontier.keep(len(frontier) + len(popped), popped)
    assert len(frontier) == 100
    drained = _drain(frontier)
    assert sorted(drained) == sorted(entries)
    if not explore:
        assert drained == sorted(entries)


@pytest.mark.parametrize("explore", [-0.1, 1.0])
def test_explore_must_be_a_share_below_one(explore):
    with pytest.raises(ValueError, match="explore"):
        Frontier(explore=explore)


def test_stale_copies_are_swept_and_every_entry_still_pops_once(monkeypatch):
    monkeypatch.setattr(frontier, "STALE_MOST", 10)
    frontier_ = Frontier(explore=0.5, seed=7)
    entries = _entries(400)
    popped = []
    for start in range(0, 400, 40):  # pushes and pops interleaved, as in a search
        for entry in entries[start : start + 40]:
            frontier_.push(entry)
        popped += [frontier_.pop() for _ in range(25)]
        stale = len(frontier_.heap) + sum(map(len, frontier_._buckets.values())) - 2 * len(frontier_)
        assert stale == len(frontier_._taken) <= 10
    popped += _drain(frontier_)
    assert sorted(popped) == sorted(entries)


def test_exploring_searches_still_prove_losses_when_they_sweep(monkeypatch):
    # Interlock's deal 12 is lost after about 2,300 expansions, in C and in Python alike
    monkeypatch.setattr(frontier, "STALE_MOST", 3)
    swept = []
    sweep = Frontier._sweep
    monkeypatch.setattr(Frontier, "_sweep", lambda self: swept.append(sweep(self)))
    options = {"max_states": 5000, "portfolio": [{"depth_weight": 0.0, "explore": 0.5}]}
    for python in (True, False):
        solver = make_solver(sw.load_game("interlock").deal(12), python, **options)
        assert solver.solve().status == "lost"
    assert len(swept) > 100


def test_exploring_searches_still_prove_losses():
    # Deal 8 of Single Interchange is lost (tests/test_solver.py proves it without exploring).
    state = sw.load_game("single_interchange").deal(8)
    result = sw.solve(state, max_states=3000, portfolio=[{"depth_weight": 0.0, "explore": 0.5}])
    assert result.status == "lost"


def test_exploring_searches_win_and_agree_when_stepped():
    state = sw.load_game("freecell").deal(5)
    options = {"max_states": 3000, "portfolio": [{"depth_weight": 0.5, "explore": 0.3}]}
    solver = sw.Solver(state, **options)
    while not solver.done:
        solver.step(9)
    at_once = sw.solve(state, **options)
    assert solver.result.status == at_once.status == "won"
    assert solver.result.moves == at_once.moves
    assert solver.progress.expanded == at_once.progress.expanded


@pytest.mark.parametrize("portfolio", [[], [{"depth": 1}], ["greedy"]])
def test_a_malformed_portfolio_is_refused(portfolio):
    with pytest.raises((TypeError, ValueError), match="portfolio"):
        sw.Solver(sw.load_game("freecell").deal(1), portfolio=portfolio)


def _shares_seen(solver) -> list:
    """Record the frontiers' sizes around each of the solver's end-of-turn shares."""
    seen, share = [], solver._share_frontiers

    def recorded():
        before = [search.waiting for search in solver._searches]
        share()
        seen.append((before, [search.waiting for search in solver._searches]))

    solver._share_frontiers = recorded
    return seen


def _shared(sizes, room) -> list:
    """The frontiers' sizes after a share: while they hold more than ``room`` in all, the
    largest (the first of equals) keeps half."""
    sizes = list(sizes)
    while sum(sizes) > room:
        largest = sizes.index(max(sizes))
        sizes[largest] //= 2
    return sizes


def test_a_search_may_use_the_room_the_others_leave():
    # Triple Interchange's deal 3, two searches: at the end of some turn one holds more than
    # an even split of 2,000 (which it would trim after an expansion) beside the other, and the
    # share trims nothing
    solver = sw.Solver(sw.load_game("triple_interchange").deal(3), max_states=3000, frontier_size=2000)
    seen = _shares_seen(solver)
    assert solver.solve().status == "won"
    assert len(solver._searches) == 2
    assert any(before == after and max(after) > 2000 // 2 and min(after) > 0 for before, after in seen)
    assert all(sum(after) <= 2000 for _, after in seen)


def test_the_frontiers_hold_frontier_size_positions_in_all():
    # Mutated Solitaire's three searches outgrow 400 positions in all, time and again
    solver = sw.Solver(sw.load_game("mutated").deal(1), max_states=3000, frontier_size=400)
    seen = _shares_seen(solver)
    assert solver.solve().status == "won"
    assert sum(before != after for before, after in seen) > 5
    for before, after in seen:
        assert after == _shared(before, 400)
    assert not all(search.complete for search in solver._searches), "a trimmed search proves no loss"
