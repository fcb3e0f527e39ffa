"""What a real package has: one version, a license, type information, and a clear way to the
optional parts (the wheel itself is checked in test_packaging.py)."""

import json
import sys
from importlib import metadata
from pathlib import Path

import pytest

import solwidget as sw

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_the_package_metadatas():
    tomllib = pytest.importorskip("tomllib")
    written = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert sw.__version__ == metadata.version("solwidget") == written


def test_the_version_is_written_in_pyproject_only():
    """package.json is private to the front end's build and carries no version of its own."""
    assert "version" not in json.loads((ROOT / "package.json").read_text())
    assert f'"{sw.__version__}"' not in (ROOT / "solwidget" / "__init__.py").read_text()


def test_the_license_and_the_type_marker_are_in_the_tree():
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "solwidget contributors" in license_text
    assert (ROOT / "solwidget" / "py.typed").is_file()


@pytest.fixture
def without(monkeypatch):
    """Make modules unimportable for one test, as if their packages were not installed."""

    def hide(*names):
        for name in names:
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                monkeypatch.delitem(sys.modules, loaded)
            monkeypatch.setitem(sys.modules, name, None)  # import now raises ImportError
        for loaded in [m for m in sys.modules if m.startswith("solwidget.widget.")]:
            monkeypatch.delitem(sys.modules, loaded)

    return hide


def test_the_widget_without_its_extra_says_how_to_install_it(without):
    module = "anywidget"
    without(module)
    with pytest.raises(sw.MissingExtra) as raised:
        sw.SolitaireWidget("freecell")
    assert isinstance(raised.value, sw.SolwidgetError) and isinstance(raised.value, ImportError)
    assert 'pip install "solwidget[widget]"' in str(raised.value)
    assert module in str(raised.value)
    assert (raised.value.extra, raised.value.module) == ("widget", module)


def test_the_engine_needs_no_extra(without):
    without("anywidget", "ipywidgets")
    state = sw.load_game("freecell").deal(1)
    assert sw.solve(state, max_states=2000).status == "won"
