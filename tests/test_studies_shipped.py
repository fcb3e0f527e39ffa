"""The study files shipped in docs/studies/: the tables of the README and the documentation
are made from them (docs/make_figures.py), so their rows are checked here.

Each file is a study of one catalogue game under today's rules, a row per deal of one range
and budget, each "won" row with a line's length, and a rerun file (GAME_60s.parquet) holding
only deals its study left unknown. A sample of the won deals is solved again and its win
replayed, and a sample of the lost ones proved lost again: the rows say what the solver
finds.
"""

import json
import random
from pathlib import Path

import pytest

import solwidget as sw
from solwidget.study import load_study
from solwidget.variants import rules_of

pytest.importorskip("pyarrow")

STUDIES = Path(__file__).resolve().parent.parent / "docs" / "studies"
RERUN = "_60s"
FILES = sorted(STUDIES.glob("*.parquet"))
STUDY_FILES = [f for f in FILES if not f.stem.endswith(RERUN)]


def test_every_catalogue_game_has_its_study():
    assert {f.stem for f in STUDY_FILES} == set(sw.games())


@pytest.mark.parametrize("path", FILES, ids=lambda f: f.stem)
def test_a_study_file_holds_one_game_under_todays_rules(path):
    table = load_study(path)
    assert path.stem.removesuffix(RERUN) == table.game
    assert table.rules == json.loads(json.dumps(rules_of(sw.load_game(table.game))))
    assert table.budget is not None and table.max_states is None, "each study has a budget in seconds"
    for row in table:
        assert (row.moves is not None and row.moves > 0) == (row.status == "won"), row
        assert row.states >= 0 and row.seconds >= 0, row


@pytest.mark.parametrize("path", STUDY_FILES, ids=lambda f: f.stem)
def test_a_study_holds_every_deal_of_its_range_once(path):
    deals = load_study(path).deals
    assert deals == list(range(1, len(deals) + 1))


@pytest.mark.parametrize("path", sorted(STUDIES.glob(f"*{RERUN}.parquet")), ids=lambda f: f.stem)
def test_a_rerun_holds_the_deals_its_study_left_unknown_at_a_larger_budget(path):
    rerun = load_study(path)
    study = load_study(path.with_name(path.stem.removesuffix(RERUN) + ".parquet"))
    unknown = [row.deal for row in study if row.status == "unknown"]
    assert rerun.deals == unknown
    assert rerun.budget > study.budget


def solved_again(path, status: str):
    """Up to three of the study's deals of ``status`` decided within 20,000 states, each
    solved again with twice its states and at least 50,000, since a search changed after the
    study (a game's portfolio) may take a longer way to the same verdict: (the game, the
    deal's row, the result)."""
    table = load_study(path)
    quick = [row for row in table if row.status == status and row.states <= 20_000]
    game = sw.load_game(table.game)
    for row in random.Random(path.stem).sample(quick, min(3, len(quick))):
        budget = max(2 * row.states + 1_000, 50_000)
        yield game, row, sw.solve(game.deal(row.deal), max_states=budget)


@pytest.mark.parametrize("path", STUDY_FILES, ids=lambda f: f.stem)
def test_a_sample_of_the_won_deals_is_won_again_and_replays(path):
    for game, row, result in solved_again(path, "won"):
        assert result.status == "won", (game.id, row)
        state = game.deal(row.deal)
        for move in result.moves:
            state = game.play(state, move)
        assert game.is_won(state), (game.id, row.deal)


@pytest.mark.parametrize("path", STUDY_FILES, ids=lambda f: f.stem)
def test_a_sample_of_the_lost_deals_is_proved_lost_again(path):
    for game, row, result in solved_again(path, "lost"):
        assert result.status == "lost", (game.id, row)
