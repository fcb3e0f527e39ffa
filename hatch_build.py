"""Compile the solver's hot modules with Cython, straight from their own Python files.

The modules listed in pyproject.toml ([tool.hatch.build.targets.wheel.hooks.custom] compile)
are compiled unchanged: Cython turns each Python file into a C extension module that does
what the file says, only with less interpreter work a step (docs/solver.md, "Compiled").
There is no second source of any rule; the Python file stays beside its extension module,
and solwidget/compiled.py imports the file instead wherever the two could differ. The C
files listed under ``native`` are built beside them: extension modules written in C, each
the twin of a Python path that stays and that its tests compare it with. The compiled
search, solver/search_core.c, is built with every family's kernel (games/*/kernel.c,
compiled.py's ``kernel_sources``), each listed to it in the macro KERNELS.

Two ways in:
- hatchling runs ``CompiledModulesHook`` when it builds a wheel (``pip install``,
  ``python -m build``): the wheel holds both, tagged for this Python and platform. Without
  Cython or a C compiler, or if the build fails, the wheel is pure Python and the build
  says why; it works the same, slower. SOLWIDGET_PURE_BUILD=1 asks for a pure wheel.
- ``python hatch_build.py`` (dev.py runs it) compiles them in place in a checkout, again
  only what changed; ``python hatch_build.py --clean`` removes them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MANIFEST = Path("solwidget") / "_compiled.json"  # module -> sha256 of the source compiled


def _compiled_py(root: Path):
    """solwidget/compiled.py, loaded alone (the package is not importable in a build): its
    ``source_digest`` and ``local_headers`` say what a module is compiled from."""
    spec = importlib.util.spec_from_file_location("_solwidget_compiled", root / "solwidget" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hook_config(root: Path = ROOT) -> dict:
    """This hook's table of pyproject.toml: ``compile``, the globs of the Python modules to
    compile, and ``native``, the C files of the extension modules written in C."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: hatchling brings tomli
        import tomli as tomllib
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]


def sources(root: Path, patterns: list[str]) -> list[Path]:
    """The Python files the patterns name, package __init__ files left out (they only bind
    names, and a package imports its __init__ before anything else)."""
    found = {path for pattern in patterns for path in root.glob(pattern) if path.name != "__init__.py"}
    return sorted(found)


def native_sources(root: Path, config: dict) -> list[Path]:
    return [root / name for name in config.get("native", [])]


def module_name(root: Path, source: Path) -> str:
    return ".".join(source.relative_to(root).with_suffix("").parts)


def native_extension(root: Path, compiled, source: Path):
    """The extension module of a C file, with the families' kernels compiled into it (the
    compiled search, solver/search_core.c: compiled.py's ``kernel_sources``), each listed to
    it by its family's name in the macro KERNELS."""
    from setuptools import Extension

    kernels = compiled.kernel_sources(source)
    listed = "".join(f"KERNEL({kernel.parent.name})" for kernel in kernels)
    return Extension(
        module_name(root, source),
        [str(f.relative_to(root)) for f in [source, *kernels]],
        depends=[str(h.relative_to(root)) for h in compiled.local_headers(source)],
        define_macros=[("KERNELS", listed)] if kernels else [],
    )


def compile_modules(root: Path, files: list[Path], out: Path, native: list[Path] = ()) -> dict[str, str]:
    """Build the extension modules of ``files`` (Python, by Cython) and ``native`` (C) under
    ``out`` (a tree like the package's); returns the manifest: each module's name and the
    sha256 of the source compiled."""
    from Cython.Build import cythonize
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    build = root / "build" / "cython"
    here = os.getcwd()
    os.chdir(root)  # cythonize puts the C files under build_dir by relative path
    try:
        extensions = cythonize(
            [str(f.relative_to(root)) for f in files],
            build_dir=str(build),
            quiet=True,
            nthreads=os.cpu_count() or 1,
            compiler_directives={
                "language_level": 3,
                "binding": True,  # functions keep their names, docstrings, signatures
                "annotation_typing": False,  # annotations stay hints: Python's semantics and errors
            },
        )
    finally:
        os.chdir(here)
    compiled = _compiled_py(root)
    extensions += [native_extension(root, compiled, f) for f in native]
    command = build_ext(Distribution({"name": "solwidget", "ext_modules": extensions}))
    command.build_lib, command.build_temp = str(out), str(build / "temp")
    command.parallel = os.cpu_count() or 1
    command.ensure_finalized()
    command.run()
    return {module_name(root, f): compiled.source_digest(f) for f in [*files, *native]}


def extension_files(out: Path) -> list[Path]:
    return sorted(p for p in (out / "solwidget").rglob("*") if p.suffix in (".so", ".pyd"))


def compile_in_place(root: Path = ROOT) -> None:
    config = hook_config(root)
    manifest = compile_modules(root, sources(root, config["compile"]), root, native_sources(root, config))
    (root / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"solwidget: {len(manifest)} modules compiled in place")


def clean(root: Path = ROOT) -> None:
    for path in extension_files(root):
        path.unlink()
    (root / MANIFEST).unlink(missing_ok=True)


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ModuleNotFoundError:  # run as a script, outside a build
    BuildHookInterface = object


class CompiledModulesHook(BuildHookInterface):
    """Adds the compiled modules to a wheel, or leaves it pure Python if they can't be built."""

    def initialize(self, version, build_data):
        if self.target_name != "wheel" or version == "editable" or os.environ.get("SOLWIDGET_PURE_BUILD"):
            return
        root = Path(self.root)
        self._out = Path(tempfile.mkdtemp(prefix="solwidget-compiled-"))
        try:
            manifest = compile_modules(
                root, sources(root, self.config["compile"]), self._out, native_sources(root, self.config)
            )
        except Exception as error:  # noqa: BLE001 - no Cython, no compiler, a failed build: all mean pure Python
            self.app.display_warning(
                f"solwidget: the compiled modules were not built, the wheel is "
                f"pure Python (the same results, slower): {error}"
            )
            return
        (self._out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        for path in extension_files(self._out) + [self._out / MANIFEST]:
            build_data["force_include"][str(path)] = str(path.relative_to(self._out))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"solwidget: {len(manifest)} modules compiled")

    def finalize(self, version, build_data, artifact_path):
        if getattr(self, "_out", None):
            shutil.rmtree(self._out, ignore_errors=True)


if __name__ == "__main__":
    clean() if sys.argv[1:] == ["--clean"] else compile_in_place()
