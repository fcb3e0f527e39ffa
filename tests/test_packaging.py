"""The package as a new user gets it: an sdist built from a clean copy of the tracked files,
a wheel built from that sdist without Node, installed (not editable) into a fresh virtual
environment, where the widget's front end loads and the metadata holds together.

The fresh environment borrows the dependencies of the running one through a ``.pth`` file,
and the wheel goes in with ``--no-deps``, so nothing is downloaded; npm prefers its cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

import solwidget as sw

ROOT = Path(__file__).resolve().parent.parent
FRONT_END = ("solwidget/static/widget.js", "solwidget/static/widget.css")

pytestmark = pytest.mark.slow


def run(cmd, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout}\n{done.stderr}"
    return done


def pyproject_version() -> str:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def clean_copy(dest: Path) -> Path:
    """The files git tracks, as they are in the working tree, and nothing else (no build
    output, no node_modules)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout of solwidget")
    listed = run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def build_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        npm_config_prefer_offline="true",
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_update_notifier="false",
        **extra,
    )
    return env


def no_node_path(tmp: Path) -> str:
    """PATH with an ``npm`` and a ``node`` first that fail: a build that calls them fails."""
    fake = tmp / "no-node"
    fake.mkdir()
    for tool in ("npm", "node"):
        script = fake / tool
        script.write_text('#!/bin/sh\necho "$0 must not run here" >&2\nexit 97\n')
        script.chmod(0o755)
    return f"{fake}{os.pathsep}{os.environ.get('PATH', '')}"


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """(sdist, wheel): the sdist from a clean copy (npm builds the front end), the wheel from
    the unpacked sdist with Node out of reach, as ``pip install solwidget-X.tar.gz`` builds it."""
    if shutil.which("npm") is None:
        pytest.skip("building the sdist needs npm")
    tmp = tmp_path_factory.mktemp("dist")
    source = clean_copy(tmp / "clone")
    out = tmp / "out"
    build = [sys.executable, "-m", "build", "--no-isolation", "--outdir", out]
    run([*build, "--sdist", source], env=build_env())
    sdist = next(out.glob("solwidget-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    unpacked = next((tmp / "unpacked").iterdir())
    run([*build, "--wheel", unpacked], env=build_env(PATH=no_node_path(tmp)))
    return sdist, next(out.glob("solwidget-*.whl")), unpacked


@pytest.fixture(scope="module")
def pure_wheel(dists, tmp_path_factory):
    """The wheel built from the same sdist where the C compiler fails: pure Python."""
    tmp = tmp_path_factory.mktemp("pure")
    failing = tmp / "cc"
    failing.write_text('#!/bin/sh\necho "no C compiler here" >&2\nexit 1\n')
    failing.chmod(0o755)
    done = run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", tmp / "out", "--wheel", dists[2]],
        env=build_env(PATH=no_node_path(tmp), CC=str(failing)),
    )
    assert "the compiled modules were not built" in done.stdout + done.stderr
    return next((tmp / "out").glob("solwidget-*.whl"))


def install_in_fresh_env(wheel: Path, home: Path) -> Path:
    """A new virtual environment with ``wheel`` installed in it (not editable); its other
    packages are the running environment's, reached through a .pth file."""
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    (site / "borrowed.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel],
        env=build_env(),
    )
    return home


@pytest.fixture(scope="module")
def fresh_env(dists, tmp_path_factory):
    return install_in_fresh_env(dists[1], tmp_path_factory.mktemp("venv") / "env")


def in_fresh_env(home: Path, code: str) -> dict:
    """Run ``code`` in the fresh environment (isolated: no PYTHONPATH, no working directory on
    the path) and return the JSON it prints last."""
    done = run([home / "bin" / "python", "-I", "-c", textwrap.dedent(code)], cwd=home, env=build_env())
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_sdist_holds_the_built_front_end_and_the_license(dists):
    with tarfile.open(dists[0]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        sizes = {
            name.split("/", 1)[1]: archive.getmember(name).size for name in archive.getnames() if "/" in name
        }
    for path in FRONT_END:
        assert path in names and sizes[path] > 0
    assert {"LICENSE", "pyproject.toml", "package.json", "js/index.js", "solwidget/py.typed"} <= names
    assert not any(name.startswith(("node_modules/", ".venv/")) for name in names)


def test_the_wheel_holds_the_front_end_the_license_and_py_typed(dists):
    with zipfile.ZipFile(dists[1]) as wheel:
        names = set(wheel.namelist())
        for path in FRONT_END:
            assert path in names and wheel.getinfo(path).file_size > 0
        assert "solwidget/py.typed" in names
        licenses = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(licenses) == 1
        license_text = wheel.read(licenses[0]).decode()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert license_text == (ROOT / "LICENSE").read_text()
    assert "MIT License" in license_text and "solwidget contributors" in license_text
    assert "License-Expression: MIT" in metadata
    assert "Classifier: Framework :: Jupyter :: JupyterLab :: 4" in metadata
    assert "Classifier: Topic :: Games/Entertainment" in metadata
    assert f"Version: {pyproject_version()}\n" in metadata
    for needed in ("anywidget", "ipywidgets", "traitlets", "ipykernel"):  # all a notebook needs
        assert re.search(rf"^Requires-Dist: {needed}\b.*; extra == 'widget'$", metadata, re.M), needed
    assert re.search(r"^Requires-Dist: pyarrow\b.*; extra == 'study'$", metadata, re.M)
    assert not any(n.startswith(("js/", "tests/", "node_modules/")) for n in names)


def test_the_installed_widget_loads_its_bundled_front_end(fresh_env):
    seen = in_fresh_env(
        fresh_env,
        """
        import json, pathlib, sys
        import solwidget as sw
        w = sw.SolitaireWidget("interlock", deal=7)
        static = pathlib.Path(sw.__file__).parent / "static"
        print(json.dumps({
            "package": sw.__file__, "prefix": sys.prefix,
            "game": w.game_id, "piles": len(w.state.piles),
            "esm": str(w._esm), "css": str(w._css),
            "bundle": (static / "widget.js").read_text(), "style": (static / "widget.css").read_text(),
        }))
    """,
    )
    assert seen["package"].startswith(seen["prefix"]) and "site-packages" in seen["package"]
    assert seen["game"] == "interlock" and seen["piles"] == len(sw.load_game("interlock").deal(7).piles)
    assert len(seen["bundle"]) > 1000 and "export" in seen["bundle"]
    assert seen["esm"] == seen["bundle"], "anywidget serves the bundled ES module"
    assert seen["css"] == seen["style"] and len(seen["style"]) > 100


def test_one_version_everywhere(fresh_env):
    version = pyproject_version()
    seen = in_fresh_env(
        fresh_env,
        """
        import json
        from importlib import metadata
        import solwidget
        dist = metadata.distribution("solwidget")
        print(json.dumps({"metadata": dist.version, "module": solwidget.__version__,
                          "installed_at": str(dist.locate_file("solwidget/__init__.py")),
                          "file": solwidget.__file__}))
    """,
    )
    assert seen["metadata"] == seen["module"] == version == sw.__version__
    assert seen["installed_at"] == seen["file"]
    env = build_env()
    for command in (
        [fresh_env / "bin" / "solwidget", "--version"],
        [fresh_env / "bin" / "python", "-I", "-m", "solwidget", "--version"],
    ):
        done = run(command, cwd=fresh_env, env=env)
        assert done.stdout == f"solwidget {version}\n" and done.stderr == ""


def test_python_m_solwidget_runs_from_the_wheel(fresh_env):
    done = run(
        [fresh_env / "bin" / "python", "-I", "-m", "solwidget", "deal", "freecell", "1"],
        cwd=fresh_env,
        env=build_env(),
    )
    assert done.stdout == str(sw.load_game("freecell").deal(1)) + "\n"


def has_c_compiler() -> bool:
    return any(shutil.which(cc) for cc in ("cc", "gcc", "clang"))


SEARCH = """
    import json
    import solwidget as sw
    from solwidget.compiled import compiled_modules
    results = [sw.Solver(sw.load_game(g).deal(n), max_states=800).solve()
               for g in ("freecell", "triple_interchange", "interlock", "mutated") for n in (1, 2)]
    print(json.dumps({"compiled": compiled_modules(), "package": sw.__file__,
                      "results": [[r.status, r.progress.expanded, " ".join(map(str, r.moves))] for r in results]}))
"""


def test_the_wheel_holds_the_compiled_modules_beside_their_source(dists):
    if not has_c_compiler():
        pytest.skip("no C compiler: the wheel is pure Python (test_without_a_compiler_...)")
    with zipfile.ZipFile(dists[1]) as wheel:
        names = set(wheel.namelist())
        manifest = json.loads(wheel.read("solwidget/_compiled.json"))
        tags = wheel.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert len(manifest) >= 30 and {"solwidget.solver.search", "solwidget.solver.search_core"} <= set(
        manifest
    )
    for module in manifest:
        path = module.replace(".", "/")
        assert {f"{path}.py", f"{path}.c"} & names, "the source stays beside its compiled module"
        assert any(n.startswith(f"{path}.") and n.endswith((".so", ".pyd")) for n in names), module
    assert "Root-Is-Purelib: false" in tags and "py3-none-any" not in dists[1].name


def test_the_installed_wheel_runs_compiled_as_the_checkout_does(fresh_env):
    if not has_c_compiler():
        pytest.skip("no C compiler: the wheel is pure Python")
    seen = in_fresh_env(fresh_env, SEARCH)
    assert "site-packages" in seen["package"]
    assert {"solwidget.solver.search", "solwidget.solver.search_core"} <= set(seen["compiled"])
    here = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SEARCH)],
        capture_output=True,
        text=True,
        env={**build_env(), "SOLWIDGET_PURE": "1", "PYTHONPATH": str(ROOT)},
        check=True,
    )
    assert seen["results"] == json.loads(here.stdout.strip().splitlines()[-1])["results"]


def test_without_a_compiler_the_wheel_is_pure_python_and_gives_the_same_results(
    pure_wheel, fresh_env, tmp_path_factory
):
    with zipfile.ZipFile(pure_wheel) as wheel:
        names = set(wheel.namelist())
    assert pure_wheel.name.endswith("-py3-none-any.whl")
    assert not any(n.endswith((".so", ".pyd")) for n in names) and "solwidget/_compiled.json" not in names
    home = install_in_fresh_env(pure_wheel, tmp_path_factory.mktemp("pure-venv") / "env")
    pure, compiled = in_fresh_env(home, SEARCH), in_fresh_env(fresh_env, SEARCH)
    assert pure["compiled"] == [] and "site-packages" in pure["package"]
    assert pure["results"] == compiled["results"]
