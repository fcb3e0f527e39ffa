"""Which modules run compiled, and the way back to their Python source.

A wheel built where a C compiler was at hand, or a checkout set up by dev.py, holds the
solver's hot modules twice: the Python file and the extension module Cython made of it
(hatch_build.py), which Python prefers. ``_compiled.json`` records the hash of each source
as it was compiled. So that what runs is always what the source says, a module is imported
from its Python file instead when

- its Python file changed since it was compiled (an edited checkout: ``python3 dev.py
  setup`` compiles it again), with a warning; or
- SOLWIDGET_PURE=1 is set: every module from its Python file, for comparisons and debugging.

A module written in C (``native`` in pyproject.toml) has no Python file: it is the compiled
twin of a Python path, which its package keeps and runs instead wherever ``native_module``
refuses it, on the same two conditions (its C source changed, or SOLWIDGET_PURE=1). Its
source is its C file, the families' kernels compiled with it (``kernel_sources``) and the
headers of the package they include (``source_digest``).

``solwidget/__init__.py`` installs this before it imports anything else of the package.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_compiled.json"
_from_source: set[str] = set()  # the modules install() sent to their Python files


class _SourceFirst:
    """A finder, first on sys.meta_path, that imports the named modules from their .py files."""

    def __init__(self, names: set[str]):
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None
        source = _source_of(fullname)
        return importlib.util.spec_from_file_location(
            fullname, source, loader=importlib.machinery.SourceFileLoader(fullname, str(source))
        )


def _manifest() -> dict[str, str]:
    try:
        return json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}


def _source_of(name: str) -> Path:
    """A module's source: its Python file, or for a module written in C its C file."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    python = path.with_suffix(".py")
    return python if python.exists() or not path.with_suffix(".c").exists() else path.with_suffix(".c")


_LOCAL_INCLUDE = re.compile(rb'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def kernel_sources(source: Path) -> list[Path]:
    """The C files compiled into one extension module with the C file ``source``: for the
    compiled search (solver/search_core.c) every family's kernel, games/<family>/kernel.c
    (solver/kernel.h); none for any other file."""
    if source.name != "search_core.c" or source.parent.name != "solver":
        return []
    return sorted(source.parent.parent.glob("games/*/kernel.c"))


def local_headers(source: Path) -> list[Path]:
    """The headers a C file and its kernels include by a quoted path, and theirs in turn (the
    family-free search loop, solver/loop.h); none for a Python file."""
    found: list[Path] = []
    todo = [source, *kernel_sources(source)] if source.suffix == ".c" else []
    while todo:
        including = todo.pop()
        for name in _LOCAL_INCLUDE.findall(including.read_bytes()):
            header = (including.parent / name.decode()).resolve()
            if header not in found:
                found.append(header)
                todo.append(header)
    return found


def source_digest(source: Path) -> str:
    """The sha256 of what a module is compiled from: its file, its kernels, and the headers
    they include."""
    digest = hashlib.sha256(source.read_bytes())
    for header in [*kernel_sources(source), *local_headers(source)]:
        digest.update(header.read_bytes())
    return digest.hexdigest()


def _changed(manifest: dict[str, str]) -> list[str]:
    changed = []
    for name, digest in manifest.items():
        try:
            if source_digest(_source_of(name)) != digest:
                changed.append(name)
        except OSError:
            changed.append(name)
    return changed


def install() -> None:
    """Route the modules that must run from source to their .py files (see above)."""
    manifest = _manifest()
    if not manifest:
        return
    if os.environ.get("SOLWIDGET_PURE", "") not in ("", "0"):
        names = set(manifest)
    else:
        names = set(_changed(manifest))
        if names:
            warnings.warn(
                f"solwidget: {len(names)} compiled modules are older than their source and "
                f"run from it ({', '.join(sorted(names))}); `python3 dev.py setup` compiles "
                f"them again",
                RuntimeWarning,
                stacklevel=3,
            )
    if names:
        _from_source.update(names)
        sys.meta_path.insert(0, _SourceFirst({name for name in names if _source_of(name).suffix == ".py"}))


def native_module(name: str):
    """The extension module ``name`` written in C (a compiled twin of a Python path), or
    None where the Python path must run: it was not built here, its C source changed since
    it was built, or SOLWIDGET_PURE=1 is set."""
    if name not in _manifest() or name in _from_source:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def compiled_modules() -> list[str]:
    """The modules of solwidget that run compiled in this process, among those imported."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("solwidget.")
        and not (getattr(module, "__file__", None) or ".py").endswith((".py", ".pyc"))
    )


def describe() -> str:
    """Which path runs, in words, for benchmarks and bug reports."""
    compiled = set(_manifest()) - _from_source
    if compiled:
        return f"compiled: {len(compiled)} modules (SOLWIDGET_PURE=1 runs the Python files)"
    return "pure Python" + (" (SOLWIDGET_PURE=1)" if _from_source else "")
