"""Build the lessons' static JupyterLite site: ``python3 dev.py lite`` runs this.

The site (``build/lite/`` unless told otherwise) is JupyterLab and Notebook running in the
browser on Pyodide, with the teaching notebooks and everything their kernel needs inside it:

- Pyodide's own files, from the npm package ``pyodide`` (package.json pins the version
  jupyterlite-pyodide-kernel is made for), in ``static/pyodide/``;
- beside them, the wheels the kernel loads when it starts: solwidget's own, pure Python with
  its front end (``SOLWIDGET_PURE_BUILD=1``), the pure wheels of ``lite/requirements.txt``
  (from PyPI at build time) and the kernel's own (from jupyterlite-pyodide-kernel);
- a ``pyodide-lock.json`` that lists exactly those wheels, so that Pyodide looks nowhere else,
  and the kernel's settings (``jupyter-lite.json``) that load them all at start and never
  fall back to PyPI.

Nothing in the site points outside it: any static file server serves it, with no network.
The documentation's live board (docs/play.md) runs on the same files. The build is skipped
when nothing it is made from changed since the last one (``--force`` builds anyway).
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "lite"
REQUIREMENTS = ROOT / "lite" / "requirements.txt"
TOOLS = ROOT / "lite" / "tools.txt"
TOOLS_VENV = CACHE / "tools"
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
]
KERNEL_WHEELS = ["ipykernel-*", "piplite-*", "pyodide_kernel-*", "widgetsnbextension-4.*"]
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
STAMP = ".solwidget-inputs"


def run(*cmd, **kw) -> None:
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def canonical(name: str) -> str:
    """A distribution's name as Pyodide's lock file keys it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> list[tuple[str, str]]:
    """(name, version) of each line of lite/requirements.txt."""
    found = []
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            found.append((name.strip(), version.strip()))
    return found


def cached_wheel(folder: Path, name: str, version: str) -> Path | None:
    stem = re.sub(r"[-_.]+", "_", name).lower()
    return next((p for p in folder.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")), None)


def requirement_wheels() -> list[Path]:
    """The pinned wheels, from the cache, fetching from PyPI only those not there yet."""
    folder = CACHE / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    missing = [(n, v) for n, v in pins() if cached_wheel(folder, n, v) is None]
    sdist_only = [(n, v) for n, v in missing if canonical(n) == "pysol-cards"]
    for name, version in sdist_only:  # pure Python, but only an sdist on PyPI
        run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", folder, f"{name}=={version}")
    fetch = [f"{n}=={v}" for n, v in missing if (n, v) not in sdist_only]
    if fetch:
        run(
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--platform",
            "any",
            "--implementation",
            "py",
            "--abi",
            "none",
            "--python-version",
            "3.14",
            "-d",
            folder,
            *fetch,
        )
    wheels = [cached_wheel(folder, n, v) for n, v in pins()]
    if None in wheels:
        lost = [f"{n}=={v}" for (n, v), w in zip(pins(), wheels) if w is None]
        sys.exit(f"lite: no pure wheel for {', '.join(lost)}")
    return wheels


def solwidget_wheel() -> Path:
    """solwidget's pure-Python wheel, with the front end built from js/ (dev.py builds it)."""
    for asset in ("widget.js", "widget.css"):
        if not (ROOT / "solwidget" / "static" / asset).exists():
            sys.exit(f"lite: solwidget/static/{asset} is missing: run `npm run build` first")
    out = CACHE / "solwidget"
    shutil.rmtree(out, ignore_errors=True)
    run(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--outdir",
        out,
        ROOT,
        env={**os.environ, "SOLWIDGET_PURE_BUILD": "1"},
        stdout=subprocess.DEVNULL,
    )
    (wheel,) = out.glob("solwidget-*-py3-none-any.whl")
    return wheel


def tools_python() -> Path:
    """The Python of the build's own virtual environment (lite/tools.txt), made or brought up
    to date first: JupyterLite's tools stay out of the environment JupyterLab runs in."""
    python = TOOLS_VENV / "bin" / "python"
    stamp = TOOLS_VENV / ".tools"
    wanted = TOOLS.read_text()
    if not python.exists():
        run(sys.executable, "-m", "venv", TOOLS_VENV)
    if not stamp.exists() or stamp.read_text() != wanted:
        run(python, "-m", "pip", "install", "-q", "-r", TOOLS)
        stamp.write_text(wanted)
    return python


def kernel_wheels() -> list[Path]:
    """The kernel's own wheels (its ipykernel, piplite, ...), shipped by jupyterlite-pyodide-kernel."""
    folder = TOOLS_VENV / "share/jupyter/labextensions" / KERNEL_PLUGIN.split(":")[0] / "static/pypi"
    wheels = [w for pattern in KERNEL_WHEELS for w in sorted(folder.glob(f"{pattern}.whl"))[-1:]]
    if len(wheels) != len(KERNEL_WHEELS):
        sys.exit(f"lite: jupyterlite-pyodide-kernel's wheels are not in {folder}")
    return wheels


def pyodide_dist() -> Path:
    """Pyodide from node_modules, checked to be the version the kernel is made for."""
    wanted = subprocess.run(
        [
            tools_python(),
            "-c",
            "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION as v; print(v)",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    folder = ROOT / "node_modules" / "pyodide"
    if not (folder / "package.json").exists():
        sys.exit("lite: node_modules/pyodide is missing: run `npm ci` (package.json lists it)")
    version = json.loads((folder / "package.json").read_text())["version"]
    if version != wanted:
        sys.exit(
            f"lite: node_modules has Pyodide {version}, but jupyterlite-pyodide-kernel is made "
            f"for {wanted}: pin that version in package.json"
        )
    return folder


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """(name, version, top-level import names) of a wheel."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(archive.read(info).decode())
    tops = {
        n.split("/")[0].removesuffix(".py")
        for n in names
        if not n.split("/")[0].endswith((".dist-info", ".data")) and (n.endswith(".py") or "/" in n)
    }
    return meta["Name"], meta["Version"], sorted(tops)


def lock_file(pyodide_lock: Path, wheels: list[Path]) -> dict:
    """Pyodide's lock file with only ``wheels`` in it: each loads from the lock's own folder."""
    lock = json.loads(pyodide_lock.read_text())
    packages = {}
    for wheel in wheels:
        name, version, imports = wheel_metadata(wheel)
        packages[canonical(name)] = {
            "name": canonical(name),
            "version": version,
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": imports,
            "depends": [],
            "unvendored_tests": False,
        }
    return {"info": lock["info"], "packages": packages}


def site_config(packages: list[str]) -> dict:
    """jupyter-lite.json of the site: every package loaded when a kernel starts; no PyPI. The
    app is ``window.jupyterapp`` in the page (``exposeAppInBrowser``), as JupyterLab offers for
    driving it: the tests and benchmarks/bench_lite.py run the lessons through it."""
    kernel = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": packages}}
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "solwidget lessons",
            "exposeAppInBrowser": "true",
            "litePluginSettings": {KERNEL_PLUGIN: kernel},
        },
    }


def stage(src: Path, wheels: list[Path]) -> None:
    """The lite dir jupyter lite builds from: its config, Pyodide with the wheels, the lessons."""
    shutil.rmtree(src, ignore_errors=True)
    pyodide = src / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    dist = pyodide_dist()
    for name in PYODIDE_FILES:
        shutil.copy2(dist / name, pyodide / name)
    for wheel in wheels:
        shutil.copy2(wheel, pyodide / wheel.name)
    lock = lock_file(dist / "pyodide-lock.json", wheels)
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
    (src / "jupyter-lite.json").write_text(json.dumps(site_config(sorted(lock["packages"])), indent=1))
    lessons = src / "lessons"
    lessons.mkdir()
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + [ROOT / "notebooks" / "lesson.py"]:
        shutil.copy2(path, lessons / path.name)
    shutil.copytree(ROOT / "notebooks" / "lines", lessons / "lines")


def inputs_digest() -> str:
    """What the site is made from: solwidget's files, the front end, the lessons, this build."""
    files = [
        *sorted((ROOT / "solwidget").rglob("*.py")),
        *sorted((ROOT / "notebooks").rglob("*")),
        ROOT / "solwidget" / "static" / "widget.js",
        ROOT / "solwidget" / "static" / "widget.css",
        REQUIREMENTS,
        TOOLS,
        Path(__file__),
        ROOT / "package-lock.json",
        ROOT / "pyproject.toml",
    ]
    digest = hashlib.sha256()
    for path in files:
        if path.is_file() and "__pycache__" not in path.parts and ".ipynb_checkpoints" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def build(out: Path, force: bool = False) -> Path:
    """Build the site into ``out`` (again only when its inputs changed, unless ``force``)."""
    out = out.resolve()
    digest = inputs_digest()
    if not force and (out / STAMP).exists() and (out / STAMP).read_text() == digest:
        print(f"lite: {out} is up to date", flush=True)
        return out
    tools = tools_python()
    wheels = [solwidget_wheel(), *requirement_wheels(), *kernel_wheels()]
    src = CACHE / "src"
    stage(src, wheels)
    shutil.rmtree(out, ignore_errors=True)
    run(
        tools,
        "-m",
        "jupyter",
        "lite",
        "build",
        "--lite-dir",
        src,
        "--output-dir",
        out,
        "--contents",
        src / "lessons",
        "--no-sourcemaps",
        "--no-unused-shared-packages",
        "--apps",
        "lab",
        "--apps",
        "notebooks",
        "--apps",
        "tree",
        cwd=src,
    )
    (out / STAMP).write_text(digest)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=ROOT / "build" / "lite",
        help="the site's folder (default build/lite)",
    )
    parser.add_argument("--force", action="store_true", help="build even if nothing changed")
    args = parser.parse_args(argv)
    out = build(args.out, args.force)
    print(
        f"lite: the site is in {out}; serve it, e.g. "
        f"python3 -m http.server -b 127.0.0.1 -d {out} 8000, and open /lab/index.html",
        flush=True,
    )


if __name__ == "__main__":
    main()
