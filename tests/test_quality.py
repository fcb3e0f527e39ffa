"""The code's own checks, as ``python3 dev.py check`` runs them: ruff's lint and format, mypy
(strict on the engine and the solver), ESLint on the front end. Each test fails with the
tool's own report; the tools' settings are in pyproject.toml and eslint.config.mjs."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def passes(*command: str | Path) -> None:
    """Run ``command`` in the repository; fail with its output unless it succeeds."""
    done = subprocess.run(
        [str(part) for part in command], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    report = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{report}"


def test_ruff_finds_nothing_to_lint():
    passes(sys.executable, "-m", "ruff", "check", ".")


def test_the_code_is_formatted_as_ruff_formats_it():
    passes(sys.executable, "-m", "ruff", "format", "--check", ".")


def test_mypy_finds_no_type_error():
    passes(sys.executable, "-m", "mypy")  # files, strictness and cache: [tool.mypy]


def test_eslint_finds_nothing_in_the_front_end():
    eslint = ROOT / "node_modules" / ".bin" / "eslint"
    assert eslint.exists(), "ESLint is not installed: npm ci (python3 dev.py setup runs it)"
    passes(eslint, "js")
