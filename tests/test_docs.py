"""The documentation: the site builds without a warning, the rulebook names every game and
exactly its piles, and the README's and CONTRIBUTING's links lead somewhere."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solwidget as sw

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

# Where docs/rules.md describes each game's board: (its family's section, its own section).
SECTIONS = {
    "reversed_solitaire": ("The FreeCell family", "Reversed Solitaire"),
    "inverted_freecell": ("The FreeCell family", "Inverted FreeCell"),
    "freecell": ("The FreeCell family", "FreeCell"),
    "triple_interchange": ("The Interchange family", "Triple Interchange"),
    "interchange": ("The Interchange family", "The rest of the Interchange family"),
    "unlimited": ("The Interchange family", "The rest of the Interchange family"),
    "single_interchange": ("The Interchange family", "The rest of the Interchange family"),
    "quadruple_interchange": ("The Interchange family", "The rest of the Interchange family"),
    "interlock": ("The Interlock family", "Interlock"),
    "love_a_duck": ("The Interlock family", "Love a Duck"),
    "guardian": ("The Interlock family", "Guardian"),
    "mutated": ("Mutated Solitaire", "The board"),
}

PILE_ID = re.compile(r"^(?P<prefix>[a-z](?:\dc)?)(?P<number>\d+)$|^(?:r2x|stock|waste)$")


def test_mkdocs_build_strict(tmp_path):
    """``mkdocs build --strict``: any warning (a broken link or anchor, a reference to an
    object the API reference cannot find, a page left out of the nav) fails it."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "WARNING" not in log, log
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    for name in ("load_game", "State", "Solver", "solve", "SolitaireWidget", "SolwidgetError"):
        assert f'id="solwidget.{name}"' in reference, name
    # sw.games, sw.hint and sw.study share their names with modules: the reference must
    # document the functions, not the modules' docstrings
    assert "doc-symbol-module" not in reference
    for name in ("games", "hint", "study"):
        assert re.search(rf'doc-symbol-function"></code>\s*solwidget\.{name}\s*<', reference), name


def _sections(text: str, level: int) -> dict[str, str]:
    """Heading -> its text, for the headings of one level (the text runs to the next heading
    of that level or above)."""
    marks = "#" * level
    found, current, lines = {}, None, []
    for line in text.splitlines():
        heading = re.match(r"^(#+) (.*)$", line)
        if heading and len(heading.group(1)) <= level:
            if current is not None:
                found[current] = "\n".join(lines)
            current = heading.group(2) if heading.group(1) == marks else None
            lines = []
        elif current is not None:
            lines.append(line)
    if current is not None:
        found[current] = "\n".join(lines)
    return found


def _game_text(game_id: str) -> str:
    """The family's introduction (before its first game) and the game's own section; of a
    table of several games, only the game's row."""
    family, own = SECTIONS[game_id]
    text = RULES.read_text(encoding="utf-8")
    intro = _sections(text, 2)[family].split("\n### ")[0]
    section = _sections(text, 3)[own]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    if len(rows) > 1:
        section = "\n".join(
            line
            for line in section.splitlines()
            if not line.startswith("|") or line.startswith(f"| `{game_id}` |")
        )
    return intro + "\n" + section


def _pile_ids_named(text: str) -> set[str]:
    """Every pile id written in backticks, ranges like `t0`-`t8` spelled out."""
    named = set()
    for first, last in re.findall(r"`([a-z0-9]+)`-`([a-z0-9]+)`", text):
        a, b = PILE_ID.match(first), PILE_ID.match(last)
        if a and b and a["prefix"] and a["prefix"] == b["prefix"]:
            named.update(f"{a['prefix']}{i}" for i in range(int(a["number"]), int(b["number"]) + 1))
    named.update(word for word in re.findall(r"`([a-z0-9]+)`", text) if PILE_ID.match(word))
    return named


@pytest.mark.parametrize("game_id", sw.games())
def test_rulebook_names_exactly_the_piles_of_each_game(game_id):
    game = sw.load_game(game_id)
    named = _pile_ids_named(_game_text(game_id))
    assert set(game.pile_ids) - named == set(), "piles of the game missing from docs/rules.md"
    assert named - set(game.pile_ids) == set(), "docs/rules.md names piles the game does not have"
    assert {pile["id"] for pile in game.layout()["piles"]} == set(game.pile_ids)


def test_rulebook_lists_every_game_in_order():
    table = RULES.read_text(encoding="utf-8").split("\n---\n")[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert listed == sw.games()
    assert set(SECTIONS) == set(sw.games())


def _anchors(markdown: str) -> set[str]:
    """The anchors of a page's headings, as GitHub and MkDocs make them."""
    anchors = set()
    for heading in re.findall(r"^#+ (.*)$", markdown, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-")
        anchors.add(slug)
    return anchors


@pytest.mark.parametrize("page", ["README.md", "CONTRIBUTING.md"])
def test_links_lead_somewhere(page):
    """Every relative link of the page names a file of the repository, and every anchor a
    heading of that file."""
    text = (ROOT / page).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        if re.match(r"^[a-z]+://", link):
            continue
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / page
        assert target.exists(), f"{page}: {link} leads nowhere"
        if anchor:
            assert anchor in _anchors(target.read_text(encoding="utf-8")), f"{page}: no heading for {link}"


def test_nothing_points_outside_the_repository():
    """The rulebook and the design notes live in docs/: no file of the project sends readers to
    a file that only its authors had."""
    outside = re.compile(r"\b(?:RULES|DESIGN)\.md\b|\.\./shared|design folder")
    places = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "mkdocs.yml"]
    for folder in ("solwidget", "js", "docs", "notebooks", "tests", "benchmarks"):
        places += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.suffix in {".py", ".js", ".md", ".ipynb", ".css"}
            and p != Path(__file__)
            and "node_modules" not in p.parts
            and "static" not in p.parts
        ]
    for path in places:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not outside.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


@pytest.mark.parametrize("game_id", sw.games())
def test_the_widget_rules_panel_points_to_the_game_in_the_rulebook(game_id):
    pytest.importorskip("anywidget")
    from solwidget.widget.sync import board_of

    game = sw.load_game(game_id)
    pointer = board_of(game)["rulebook"]
    assert "docs/rules.md" in pointer and game.name in pointer
    assert game.name in RULES.read_text(encoding="utf-8")


def test_every_readme_figure_is_a_command_and_its_output():
    """Each figure of the README and of docs/studies.md sits between markers that name the
    command which printed it (benchmarks/readme.py runs them again): the command's scripts
    exist and its output is there."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import readme

    for page in readme.PAGES:
        text = page.read_text(encoding="utf-8")
        figures = readme.FIGURE.findall(text)
        assert figures and text.count("<!-- /figure -->") == len(figures), page
        for _kind, command, body in figures:
            for part in command.split(" && "):
                scripts = [word for word in part.split() if word.endswith(".py")]
                assert scripts and all((ROOT / script).exists() for script in scripts), command
            assert body.strip() and body.strip() != "```text\n```", (
                f"no output under {command} in {page.name}"
            )


def test_the_reference_shows_what_the_widget_takes_from_its_mixins():
    """SolitaireWidget's line, worker and coach are mixins of its own (solwidget/widget/):
    the reference lists each of their public methods and properties as the widget's."""
    listed = re.search(
        r"::: solwidget\.SolitaireWidget\n    options:\n      inherited_members: \[([^\]]*)\]",
        (ROOT / "docs" / "reference.md").read_text(encoding="utf-8"),
    )
    assert listed, "docs/reference.md gives SolitaireWidget no inherited_members"
    mixins = [c for c in sw.SolitaireWidget.__mro__ if c.__name__.endswith("Mixin")]
    public = {
        name
        for mixin in mixins
        for name, value in vars(mixin).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }
    assert len(mixins) == 3 and set(re.split(r",\s*", listed.group(1).strip())) == public
