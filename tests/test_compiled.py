"""The compiled modules (hatch_build.py, solwidget/compiled.py) against their Python source.

dev.py compiles the solver's hot modules in place, so the whole suite runs them; here the
same sample runs once more with SOLWIDGET_PURE=1, every module from its Python file, and the
two must agree on every move, search and verdict. The wheels, compiled and not, are tested
in test_packaging.py.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import printed_json

import solwidget as sw
from solwidget.compiled import MANIFEST, compiled_modules, describe

ROOT = Path(__file__).resolve().parent.parent

# Every game's legal moves along a seeded random walk, the solver's results on two deals,
# and proofs of loss: the solver's keys and scores decide its expansions and positions
# generated, so a difference in either shows there too.
SAMPLE = """
    import json, random
    import solwidget as sw
    from solwidget.compiled import compiled_modules, describe
    seen = {}
    for game_id in sw.games():
        game = sw.load_game(game_id)
        rng, walk = random.Random(game_id), []
        state = game.deal(3)
        for _ in range(40):
            moves = state.legal_moves()
            walk.append([str(m) for m in moves])
            if not moves:
                break
            state = state.play(rng.choice(moves))
        searches = []
        for number in (1, 2):
            result = sw.Solver(game.deal(number), max_states=600).solve()
            searches.append([result.status, result.progress.expanded, result.progress.generated,
                             " ".join(map(str, result.moves))])
        seen[game_id] = {"walk": walk, "searches": searches}
    for game_id, number in (("single_interchange", 8), ("guardian", 7)):
        result = sw.Solver(sw.load_game(game_id).deal(number), max_states=20000).solve()
        seen[f"{game_id} {number}"] = [result.status, result.progress.expanded]
    print(json.dumps({"compiled": compiled_modules(), "describe": describe(), "seen": seen}))
"""


def run_sample(pure: bool) -> dict:
    return printed_json(SAMPLE, ROOT, pure)


def needs_compiled_modules():
    if not MANIFEST.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run the compiled modules: dev.py compiles them (hatch_build.py)")
        pytest.skip("no compiled modules here (python3 dev.py setup compiles them)")


def test_ci_runs_the_compiled_modules():
    needs_compiled_modules()
    sw.solve(sw.load_game("interlock").deal(1), max_states=50)
    running = set(compiled_modules())
    assert {
        "solwidget.solver.search",
        "solwidget.solver.expand",
        "solwidget.engine.patience",
        "solwidget.games.freecell.expander",
        "solwidget.games.mutated.moves",
    } <= running
    assert running == set(json.loads(MANIFEST.read_text())), "every compiled module is the one running"
    assert describe() == f"compiled: {len(running)} modules (SOLWIDGET_PURE=1 runs the Python files)"


@pytest.mark.slow
def test_compiled_and_pure_python_agree_on_moves_searches_and_verdicts():
    needs_compiled_modules()
    compiled, pure = run_sample(pure=False), run_sample(pure=True)
    assert len(compiled["compiled"]) >= 30 and pure["compiled"] == []
    assert pure["describe"] == "pure Python (SOLWIDGET_PURE=1)"
    assert compiled["seen"] == pure["seen"]
    assert compiled["seen"]["single_interchange 8"][0] == "lost"
    assert compiled["seen"]["guardian 7"][0] == "lost"


def test_a_module_whose_source_changed_runs_from_its_source(tmp_path):
    needs_compiled_modules()
    copy = tmp_path / "solwidget"
    shutil.copytree(ROOT / "solwidget", copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    edited = copy / "solver" / "search.py"
    edited.write_text(edited.read_text() + "\nEDITED = True\n")
    code = """
        import json, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import solwidget as sw
        from solwidget.solver import search, expand
        print(json.dumps({"search": search.__file__, "edited": getattr(search, "EDITED", False),
                          "expand": expand.__file__, "warnings": [str(w.message) for w in caught],
                          "won": sw.solve(sw.load_game("freecell").deal(1), max_states=3000).status}))
    """
    seen = printed_json(code, tmp_path)
    assert seen["search"] == str(edited) and seen["edited"] is True
    assert not seen["expand"].endswith(".py"), "the other modules still run compiled"
    assert any("solwidget.solver.search" in w and "dev.py setup" in w for w in seen["warnings"])
    assert seen["won"] == "won"
