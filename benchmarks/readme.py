"""The README's figures (and the documentation's), made again by the commands that measure them.

Each figure in README.md and docs/studies.md is the output of a command, kept between two
markers that name it:

    <!-- figure: .venv/bin/python benchmarks/bench_engine.py --positions 2000 -->
    ```text
    ...what the command printed...
    ```
    <!-- /figure -->

A marker ``figure-markdown:`` takes the command's output as Markdown (a table the command
prints in Markdown) instead of a text block. Commands joined by `` && `` run in turn and their
outputs follow one another; a command may start with ``NAME=value`` settings.

    .venv/bin/python benchmarks/readme.py              # list the figures and their commands
    .venv/bin/python benchmarks/readme.py engine       # run those whose command says "engine"
    .venv/bin/python benchmarks/readme.py --all        # run every one (the solver tables take
                                                       # over an hour on two cores)

Commands run from the repository's root; a command that fails leaves its figure as it was.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "docs" / "studies.md"]
FIGURE = re.compile(r"<!-- (figure|figure-markdown): (.+?) -->\n(.*?)<!-- /figure -->", re.S)


def run(command: str) -> str:
    """One command's standard output (``&&`` runs several in turn); fails loudly."""
    outputs = []
    for part in command.split(" && "):
        words = shlex.split(part)
        env = dict(os.environ)
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
            name, value = words.pop(0).split("=", 1)
            env[name] = value
        if words and words[0] == ".venv/bin/python":
            words[0] = sys.executable
        print("+", part, flush=True)
        done = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"failed ({done.returncode}): {part}\n{done.stderr[-3000:]}")
        outputs.append(done.stdout.rstrip("\n"))
    return "\n".join(outputs)


def figure_block(kind: str, command: str, output: str) -> str:
    body = f"{output}\n" if kind == "figure-markdown" else f"```text\n{output}\n```\n"
    return f"<!-- {kind}: {command} -->\n{body}<!-- /figure -->"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="*", help="run the figures whose command contains any of these")
    parser.add_argument("--all", action="store_true", help="run every figure's command")
    args = parser.parse_args(argv)
    if not args.all and not args.words:
        for page in PAGES:
            for _, command, _ in FIGURE.findall(page.read_text()):
                print(f"{page.relative_to(ROOT)}: {command}")
        return
    outputs: dict[str, str] = {}  # a command shown on two pages runs once

    def remade(match: re.Match) -> str:
        kind, command = match.group(1), match.group(2)
        if args.all or any(word in command for word in args.words):
            if command not in outputs:
                outputs[command] = run(command)
            return figure_block(kind, command, outputs[command])
        return match.group(0)

    for page in PAGES:
        page.write_text(FIGURE.sub(remade, page.read_text()))


if __name__ == "__main__":
    main()
