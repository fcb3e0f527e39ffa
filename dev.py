#!/usr/bin/env python3
"""Set up solwidget and run its main job or its tests; needs only Python, pip and Node.

python3 dev.py lab     # set up, then JupyterLab on notebooks/ (loopback only)
python3 dev.py check   # the fast loop while editing: lint, format, types, ESLint and the quick
                       # unit tests (no browser, notebook or wheel build; under a minute)
python3 dev.py test    # set up, then every test: rules, solver, widget, notebooks, browser
python3 dev.py lite    # set up, then build the lessons' static JupyterLite site in build/lite
                       # (nothing installed for the reader: any static file server serves it)
"""

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"


def run(*cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def stamp_ok(name: str, *files: Path) -> bool:
    """True when ``files`` are unchanged since the stamp ``name`` was written."""
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files if f.exists())).hexdigest()
    stamp = VENV / f".{name}.stamp"
    if stamp.exists() and stamp.read_text() == digest:
        return True
    stamp.write_text(digest)
    return False


def setup_python():
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    stamp = VENV / ".python.stamp"
    if not stamp_ok("python", ROOT / "pyproject.toml"):
        try:
            run(PY, "-m", "pip", "install", "-q", "--upgrade", "pip")
            run(PY, "-m", "pip", "install", "-q", "-e", f"{ROOT}[dev]")
        except subprocess.CalledProcessError:
            stamp.unlink(missing_ok=True)
            raise


def setup_compiler():
    """A C compiler and Python's headers for the compiled modules: apt-get installs them
    where they are missing and we may (a fresh CI machine); else solwidget runs as pure Python."""
    missing = [] if shutil.which("cc") or shutil.which("gcc") else ["gcc", "libc6-dev"]
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        missing.append("python3-dev")
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"dev.py: no {' or '.join(missing)}: solwidget runs as pure Python (slower)", flush=True)
        return
    run("apt-get", "update", "-qq")
    run("apt-get", "install", "-y", "-qq", *missing)


def setup_compiled():
    """The solver's hot modules compiled in place by Cython (hatch_build.py), again when their
    source changed; without a C compiler everything runs from the Python files, slower."""
    setup_compiler()
    try:
        run(PY, ROOT / "hatch_build.py")
    except subprocess.CalledProcessError:
        run(PY, ROOT / "hatch_build.py", "--clean")
        print("dev.py: the compiled modules could not be built; solwidget runs as pure Python", flush=True)


def setup_js():
    """npm packages and the esbuild bundle in solwidget/static/."""
    if not (ROOT / "package.json").exists():
        return
    if not (ROOT / "node_modules").exists() or not stamp_ok("npm", ROOT / "package-lock.json"):
        run(
            "npm",
            "ci" if (ROOT / "package-lock.json").exists() else "install",
            "--no-audit",
            "--no-fund",
            cwd=ROOT,
        )
    run("npm", "run", "--silent", "build", cwd=ROOT)


def setup_test_tools():
    """What the tests drive besides Python: Debian's chromium (no browser download) and
    Freecell Solver, the independent solver FreeCell is checked against."""
    missing = [
        package
        for command, package in (("chromium", "chromium"), ("fc-solve", "freecell-solver-bin"))
        if not shutil.which(command)
    ]
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit(f"the tests need Debian's {' and '.join(missing)}: apt-get install -y {' '.join(missing)}")
    run("apt-get", "update", "-qq")
    run("apt-get", "install", "-y", "-qq", *missing)


# The unit tests of the fast loop: the rules, the engine's data and texts, the layers, a
# search or two. Each file takes seconds in pure Python; the solver's families, the widget,
# studies, browsers, notebooks and packaging are left to ``dev.py test``.
QUICK_TESTS = [
    "tests/test_architecture.py",
    "tests/test_positions.py",
    "tests/test_moves_text.py",
    "tests/test_validation.py",
    "tests/test_deals.py",
    "tests/test_svg.py",
    "tests/test_board_data.py",
    "tests/test_freecell_family.py",
    "tests/test_solver_frontier.py",
]


def check(argv) -> int:
    """ruff (lint and format), mypy, ESLint, then the quick unit tests: each runs, and the
    exit status says whether all passed. ``argv``: more pytest arguments (``-k`` ...)."""
    steps = [
        [PY, "-m", "ruff", "check", "."],
        [PY, "-m", "ruff", "format", "--check", "."],
        [PY, "-m", "mypy"],
        ["npm", "run", "--silent", "lint"],
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:nbval",
            "-o",
            "addopts=-ra --strict-markers",
            "-m",
            "not slow and not browser",
            *QUICK_TESTS,
            *argv,
        ],
    ]
    failed = []
    for step in steps:
        print("+", " ".join(map(str, step)), flush=True)
        if subprocess.run([str(part) for part in step], cwd=ROOT).returncode:
            failed.append(" ".join(map(str, step[:4])))
    if failed:
        print("dev.py check: failed: " + "; ".join(failed), flush=True)
    return 1 if failed else 0


def main(argv):
    job = argv[1] if len(argv) > 1 else "help"
    if job not in ("lab", "test", "setup", "lite", "check"):
        sys.exit(__doc__)
    setup_python()
    if job == "check":  # no compiled modules built: a source file runs as it is
        setup_js()
        sys.exit(check(argv[2:]))
    setup_compiled()
    setup_js()
    if job == "lab":
        flags = ["--no-browser"] if os.environ.get("CI") or not os.environ.get("DISPLAY") else []
        if os.geteuid() == 0:
            flags.append("--allow-root")  # containers and CI machines often run as root
        os.execv(
            PY,
            [
                PY,
                "-m",
                "jupyter",
                "lab",
                "--ip=127.0.0.1",
                *flags,
                f"--notebook-dir={ROOT / 'notebooks'}",
                *argv[2:],
            ],
        )
    if job == "lite":
        os.execv(PY, [PY, ROOT / "lite" / "build_site.py", *argv[2:]])
    if job == "test":
        setup_test_tools()
        os.chdir(ROOT)
        os.execv(PY, [PY, "-m", "pytest"] + argv[2:])


if __name__ == "__main__":
    main(sys.argv)
