"""The layers of the package, as pyproject.toml's import-linter contracts state them, and
the contract between the games and the solver."""

from pathlib import Path

import pytest

import solwidget as sw
from solwidget.engine.cards import ACE
from solwidget.engine.patience import Build, Patience
from solwidget.solver.expand import PatienceExpander
from solwidget.solver.profile import GENERIC, profile_for

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept(capsys):
    lint_imports = pytest.importorskip("importlinter.cli").lint_imports
    kept = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    output = capsys.readouterr().out
    assert kept == 0, output
    assert "0 broken" in output


def test_the_contract_against_import_circles_reaches_every_module():
    """Circles are looked for between solwidget's packages and inside each, down to the
    deepest module, through every import, those for type checkers included."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    acyclic = [c for c in config["contracts"] if c["type"] == "acyclic_siblings"]
    deepest = max(len(path.relative_to(ROOT / "solwidget").parts) for path in (ROOT / "solwidget").rglob("*.py"))
    assert [c["ancestors"] for c in acyclic] == [["solwidget"]]
    assert acyclic[0]["depth"] >= deepest
    assert config["exclude_type_checking_imports"] is False


def test_the_solver_names_no_game():
    solver = ROOT / "solwidget" / "solver"
    ids = set(sw.games())
    for path in solver.glob("*.py"):
        text = path.read_text()
        assert "games" not in [part for line in text.splitlines() if line.startswith(("from", "import"))
                               for part in line.replace(".", " ").split()], path
        named = [game_id for game_id in ids if f'"{game_id}"' in text or f"'{game_id}'" in text]
        assert not named, f"{path.name} names {named}"


class OpenDozen(Patience):
    """A game of this module, unknown to the catalogue and with no profile: 13 piles of 4
    cards, foundations up in suit from the Ace, the tableau down regardless of suit, one
    card at a time, and an emptied pile stays empty (Baker's Dozen without its Kings rule)."""
    id = "test_open_dozen"
    name = "Open Dozen"
    tableau_piles = 13
    build = Build(-1, "any")
    group = "supermove"
    empty_takes = "none"
    foundation_start = ACE

    def _deal(self, cards):
        return self._state([cards[i::13] for i in range(13)])


@pytest.mark.parametrize("number", [1, 2, 8])
def test_a_game_without_a_profile_is_solved_by_the_generic_path(number):
    game = OpenDozen()
    assert profile_for(game) is GENERIC
    assert type(GENERIC.expander(game)) is PatienceExpander
    start = game.deal(number)
    result = sw.solve(start, max_states=3000)
    assert result.status == "won"
    state = start
    for move in result.moves:               # the proof: every move through the rules
        state = state.play(move)
    assert state.is_won()
