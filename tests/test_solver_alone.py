"""A pooled portfolio's first search goes on alone after the expansions its game's profile
says (``Profile.alone_after``, search.py): it takes back the positions it skipped and proves
alone what the pool proves."""

import pytest

import solwidget as sw
from solwidget.solver import search
from solwidget.solver.profile import profile_for

# lost deals that the pooled searches prove in a few thousand expansions
LOST = {"triple_interchange": 785, "mutated": 154}


def _stepped_to(solver, expansions):
    """Step ``solver`` until it has expanded exactly ``expansions`` positions (a step
    pops at most as many positions as it is told, and expands at most those)."""
    while solver.progress.expanded < expansions and not solver.done:
        solver.step(min(97, expansions - solver.progress.expanded))
    assert solver.progress.expanded == expansions


@pytest.mark.parametrize("game_id", sorted(LOST))
def test_the_first_search_takes_back_what_it_skipped_and_proves_the_loss_alone(monkeypatch, game_id):
    # twin searches: the first is often behind the other, and skips what it expanded
    monkeypatch.setattr(search, "POOL_AFTER", 300)
    state = sw.load_game(game_id).deal(LOST[game_id])
    monkeypatch.setattr(profile_for(state.game), "alone_after", 2000)
    twins = search.default_portfolio(state.game)[:1] * 2
    solver = sw.Solver(state, max_states=40_000, portfolio=twins)
    first, *others = solver._searches
    _stepped_to(solver, 2000)
    held, waiting = first.skipped, first.waiting
    assert held > 0 and all(s.waiting for s in others)
    solver.step(1)
    assert solver._running == [first] and solver._closure is None
    assert first.skipped == 0 and all(s.waiting == 0 for s in others)
    # the positions it skipped are waiting again (one more popped, its children pushed)
    assert first.waiting >= waiting + held - 1
    result = solver.solve()
    assert result.status == "lost"
    assert first.skipped == 0


@pytest.mark.parametrize("game_id", sorted(LOST))
def test_going_alone_is_the_same_however_the_search_is_stepped(monkeypatch, game_id):
    monkeypatch.setattr(search, "POOL_AFTER", 300)
    state = sw.load_game(game_id).deal(LOST[game_id])
    monkeypatch.setattr(profile_for(state.game), "alone_after", 1000)
    runs = []
    for chunk in (1, 333, 5000):
        solver = sw.Solver(state, max_states=40_000)
        while not solver.done:
            solver.step(chunk if solver.progress.expanded < 3000 else 5000)
        runs.append((solver.result.status, solver.progress.expanded, solver.progress.generated))
    assert runs[0] == runs[1] == runs[2]
    assert runs[0][0] == "lost"


def test_triple_interchange_goes_alone_by_default_and_mutated_solitaire_does_not():
    # deals that neither game decides within 31,000 expansions
    for game_id, deal, running in (("triple_interchange", 252, 1), ("mutated", 23, 3)):
        game = sw.load_game(game_id)
        solver = sw.Solver(game.deal(deal), max_states=31_000)
        solver.solve()
        assert solver.result.status == "unknown"
        assert len(solver._running) == running, game_id
        assert (profile_for(game).alone_after is not None) == (running == 1)
