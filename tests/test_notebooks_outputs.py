"""The lessons as a teacher hands them out: their saved outputs read as their prose promises.

- A check prints what the prose promises: no printed answer or caption reads ``False`` or
  ``None``, save the few listed in ``FALSE_ON_PURPOSE``, each with the exact output it must
  print (there, ``False`` is the lesson's point: a solver not yet done).
- Pictures are legible: every card's corner index is at least ``MIN_INDEX_PX`` high, with the
  picture drawn as the notebook shows it in an output ``NOTEBOOK_WIDTH`` wide.
- The prose and the words under the pictures name cards as the board shows them (6♠, not
  ``6S``) and piles by their place, never by a pile id, outside the cells that teach the API
  (``API_CELLS``).
- A notebook is saved as the front end keeps it, so that opening it does not mark it modified:
  its kernel named as the installed kernel names itself, and every cell with its id.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))

# JupyterLab 4's output area in a 1280-pixel-wide window with its file browser open (measured
# in chromium): the widest board, Triple Interchange's, fits it at full size.
NOTEBOOK_WIDTH = 848
MIN_INDEX_PX = 10

# Outputs where False is what the lesson shows, as its prose says: (notebook, cell id) -> output.
FALSE_ON_PURPOSE = {
    ("05_stepping_a_solver", "cbf79b1b"): "(False, 0)",  # a new solver has done nothing
    ("05_stepping_a_solver", "f365fd11"): "(100, False)",  # 100 positions on, not done yet
}

# Markdown cells that teach the API, where pile ids and card codes are the words taught.
API_CELLS = {
    ("01_reversed_solitaire", "6d059f13"),  # the text board and its pile ids
    ("01_reversed_solitaire", "1b9635e8"),  # a face-down card written [QH]
    ("01_reversed_solitaire", "eb71489e"),  # move text, "t5 t1 5"
    ("02_triple_interchange", "a4843763"),  # the text board and its pile ids
    ("03_interlock", "171bc26c"),  # pile ids by layer, covered_by
    ("04_mutated_solitaire", "0e361632"),  # spaces named by row and column
    ("04_mutated_solitaire", "9bb1a058"),  # a card named in a deck move's text
}

PILE_ID = re.compile(r"\b(?:t\d{1,2}|c\d|f\d{1,2}|r\dc\d|r2x|d\d|dN)\b")
CARD_CODE = re.compile(r"\b[A2-9TJQK][CDHS]\b")
QUOTED_MOVE = re.compile(r"(?<![A-Za-z])'[a-z0-9 ]+'")  # 'waste stock', in a reason
FALSE_OR_NONE = re.compile(r"\b(?:False|None)\b")
IMAGE = re.compile(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"([^>]*)>')
INDEX_FONT = re.compile(r'font-size="([0-9.]+)" font-weight="bold"')
SVG_WIDTH = re.compile(r'<svg[^>]* width="([0-9.]+)"')
WORDS_UNDER = re.compile(r"<figcaption[^>]*>(.*?)</figcaption>|<div style=\"font-size:14px[^>]*>(.*?)</div>")


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_outputs(path: Path):
    """(cell id, output) for every output of every code cell."""
    for cell in load(path)["cells"]:
        if cell["cell_type"] == "code":
            for output in cell["outputs"]:
                yield cell["id"], output


def printed(output: dict) -> str:
    """What an output prints as text: a stream, or a result's text form."""
    return text(output.get("text") or output.get("data", {}).get("text/plain", ""))


def pictures(html: str):
    """(svg, shown width or None) for every picture in HTML output."""
    for data, attributes in IMAGE.findall(html):
        width = re.search(r'\bwidth="([0-9.]+)"', attributes)
        yield base64.b64decode(data).decode(), float(width.group(1)) if width else None


def index_height(svg: str, shown: float | None, room: float = NOTEBOOK_WIDTH) -> float:
    """The smallest corner index of the picture, in pixels, as shown in an output ``room`` wide
    (an image never grows past its width attribute, and shrinks to fit: max-width 100 %)."""
    width = float(SVG_WIDTH.search(svg).group(1))
    fonts = [float(size) for size in INDEX_FONT.findall(svg)]
    scale = min(shown or width, room) / width
    return min(fonts) * scale if fonts else float("inf")


def words_under_pictures(html: str) -> list[str]:
    """The captions and the verdict lines a lesson picture shows under its boards."""
    return [caption or line for caption, line in WORDS_UNDER.findall(html)]


def not_in_card_words(words: str) -> list[str]:
    """Pile ids and card codes in ``words`` (move text quoted as an example aside)."""
    words = QUOTED_MOVE.sub("", words)
    return PILE_ID.findall(words) + CARD_CODE.findall(words)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_printed_answer_reads_false_or_none_unless_that_is_the_lesson(path):
    wrong = []
    for cell_id, output in code_outputs(path):
        said = printed(output)
        expected = FALSE_ON_PURPOSE.get((path.stem, cell_id))
        if expected is not None:
            assert said == expected, (
                f"{path.stem} cell {cell_id} prints {said!r}, its prose says {expected!r}"
            )
        elif FALSE_OR_NONE.search(said):
            wrong.append(f"cell {cell_id}: {said[:200]!r}")
    assert not wrong, f"{path.stem}: answers that read False or None:\n" + "\n".join(wrong)


def test_the_listed_false_answers_are_still_in_their_notebooks():
    outputs = {(path.stem, cell_id) for path in NOTEBOOKS for cell_id, _ in code_outputs(path)}
    assert set(FALSE_ON_PURPOSE) <= outputs


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_picture_shows_corner_indices_at_least_10_px_at_the_notebook_width(path):
    small = []
    for cell_id, output in code_outputs(path):
        for svg, shown in pictures(text(output.get("data", {}).get("text/html", ""))):
            height = index_height(svg, shown)
            if height < MIN_INDEX_PX:
                small.append(f"cell {cell_id}: {height:.1f} px")
    assert not small, f"{path.stem}: corner indices under {MIN_INDEX_PX} px:\n" + "\n".join(small)


def test_a_picture_scaled_down_or_squeezed_has_small_indices():
    svg = '<svg width="475" height="257"><text font-size="11.9" font-weight="bold">9♣</text></svg>'
    assert index_height(svg, None) == pytest.approx(11.9)
    assert index_height(svg, 475 * 0.75) < MIN_INDEX_PX  # two abreast, scaled
    assert index_height(svg.replace("475", "1200"), None) < MIN_INDEX_PX  # wider than the notebook


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_prose_names_cards_and_piles_as_the_board_shows_them(path):
    wrong = []
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "markdown" or (path.stem, cell["id"]) in API_CELLS:
            continue
        prose = re.sub(r"```.*?```", "", text(cell["source"]), flags=re.DOTALL)  # code blocks are code
        found = not_in_card_words(prose)
        if found:
            wrong.append(f"cell {cell['id']}: {sorted(set(found))}")
    assert not wrong, f"{path.stem}: pile ids or card codes in prose:\n" + "\n".join(wrong)


def test_the_api_cells_listed_are_still_there():
    cells = {(path.stem, cell["id"]) for path in NOTEBOOKS for cell in load(path)["cells"]}
    assert cells >= API_CELLS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_words_under_every_picture_are_card_words(path):
    wrong = []
    for cell_id, output in code_outputs(path):
        data = output.get("data", {})
        for words in words_under_pictures(text(data.get("text/html", ""))):
            if not_in_card_words(words) or FALSE_OR_NONE.search(words) or "explain" in words:
                wrong.append(f"cell {cell_id}: {words!r}")
    assert not wrong, f"{path.stem}: words under a picture in code, not card words:\n" + "\n".join(wrong)


def test_code_like_words_are_caught():
    assert not_in_card_words("t1 c0: legal (explain returns None)") == ["t1", "c0"]
    assert not_in_card_words("6S (on top of `t0`) onto 9C") == ["t0", "6S", "9C"]
    assert not_in_card_words("6♠ onto 9♣: refused, turn the waste back over with 'waste stock'") == []
    assert not_in_card_words("Baker's Game puts 4♠ on t3, FreeCell's on t7") == ["t3", "t7"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_notebook_is_saved_as_the_front_end_keeps_it(path):
    """JupyterLab and Notebook write the kernel's own name for itself into the notebook when
    its kernel starts: a notebook saved with another opens marked modified."""
    notebook = load(path)
    kernelspec = notebook["metadata"]["kernelspec"]
    installed = KernelSpecManager().get_kernel_spec(kernelspec["name"])
    assert kernelspec == {
        "name": kernelspec["name"],
        "display_name": installed.display_name,
        "language": installed.language,
    }
    assert (notebook["nbformat"], notebook["nbformat_minor"]) == (4, 5)
    assert all(cell.get("id") for cell in notebook["cells"]), "a cell without its id"
