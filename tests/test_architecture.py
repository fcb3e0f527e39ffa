"""The layers of the package, as pyproject.toml's import-linter contracts state them, and
the contract between the games and the solver."""

import ast
import re
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
    deepest = max(
        len(path.relative_to(ROOT / "solwidget").parts) for path in (ROOT / "solwidget").rglob("*.py")
    )
    assert [c["ancestors"] for c in acyclic] == [["solwidget"]]
    assert acyclic[0]["depth"] >= deepest
    assert config["exclude_type_checking_imports"] is False


MAX_LINES = 500
LONG_BECAUSE = re.compile(r"^Long because \w.*\w", re.MULTILINE)


def test_no_module_is_long_without_a_reason_in_its_docstring():
    """Each module does one thing, and so stays short: one of more than MAX_LINES lines says
    why in its docstring, in a paragraph that starts "Long because" and gives the reason."""
    unexplained = {}
    for path in sorted((ROOT / "solwidget").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(text)) or ""
        if len(text.splitlines()) > MAX_LINES and not LONG_BECAUSE.search(docstring):
            unexplained[str(path.relative_to(ROOT))] = len(text.splitlines())
    assert not unexplained, (
        f"over {MAX_LINES} lines, and no 'Long because ...' in the docstring: {unexplained}"
    )


def test_the_solver_names_no_game():
    solver = ROOT / "solwidget" / "solver"
    ids = set(sw.games())
    for path in solver.glob("*.py"):
        text = path.read_text()
        assert "games" not in [
            part
            for line in text.splitlines()
            if line.startswith(("from", "import"))
            for part in line.replace(".", " ").split()
        ], path
        named = [game_id for game_id in ids if f'"{game_id}"' in text or f"'{game_id}'" in text]
        assert not named, f"{path.name} names {named}"


# A symbol of Python's C-API (PyObject, Py_ssize_t, PyErr_SetString, _PyLong_..., PyMODINIT_FUNC)
# or its header; "Python" in words is none.
PYTHON_C_API = re.compile(r"\b_?Py(?:_|[A-Z]\w*)|<Python\.h>|\bPY_[A-Z_]+")


def kernel_files() -> list[Path]:
    """Every family's kernel and the headers a kernel includes (the loop, the kernel table)."""
    solver = ROOT / "solwidget" / "solver"
    return [
        *sorted((ROOT / "solwidget" / "games").glob("*/kernel.[ch]")),
        solver / "kernel.h",
        solver / "loop.h",
    ]


def test_no_family_kernel_uses_pythons_c_api():
    kernels = kernel_files()
    assert len(kernels) > 2, "the families' kernels are found"
    for path in kernels:
        used = sorted(set(PYTHON_C_API.findall(path.read_text())))
        assert not used, f"{path.relative_to(ROOT)} uses {used}"


def test_the_python_c_api_pattern_finds_what_it_should():
    found = PYTHON_C_API.findall(
        "#include <Python.h>\nPyObject *o; Py_ssize_t n; PyErr_NoMemory(); "
        "PY_SSIZE_T_CLEAN; _PyLong_Copy; a Python expander, CPython's set"
    )
    assert found == ["<Python.h>", "PyObject", "Py_", "PyErr_NoMemory", "PY_SSIZE_T_CLEAN", "_PyLong_Copy"]


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
    for move in result.moves:  # the proof: every move through the rules
        state = state.play(move)
    assert state.is_won()
