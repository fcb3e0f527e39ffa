"""Build test positions compactly, and read where a state's SVG picture and the widget's
DOM draw its piles and cards.

    position("freecell", t0="7H 6S", c0="KD", f0="AC-5C", rest="t7")

Piles are written as in docs/rules.md, bottom to top, separated by spaces; ``"AC-5C"`` stands
for AC 2C 3C 4C 5C (a run either way, for foundations). Every card the piles leave out
(``decks`` copies of each) goes on the pile ``rest``, in suit-then-rank order (so its top
card is the highest spade left), face down if ``rest`` is the stock. Unnamed piles are
empty. The position goes through ``state_from_dict``, so it is checked like any other.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections import Counter, deque

import pytest

import solwidget as sw
from solwidget.engine.cards import card_name, deck, face_down, face_up, parse_card
from solwidget.engine.svg import PAD


def cards(text: str) -> list[str]:
    """``"AC-3C [KH]"`` -> ``["AC", "2C", "3C", "[KH]"]``."""
    out = []
    for word in text.split():
        if "-" in word:
            first, last = (parse_card(w) for w in word.split("-"))
            step = 1 if last >= first else -1
            out += [card_name(c) for c in range(first, last + step, step)]
        else:
            out.append(word)
    return out


def position(
    game_id: str,
    rest: str | None = None,
    redeals: int | None = None,
    options: dict | None = None,
    **piles: str,
) -> sw.State:
    game = sw.load_game(game_id, **(options or {}))
    laid = {pid: cards(text) for pid, text in piles.items()}
    if rest is None:
        rest = "stock" if "stock" in game.pile_ids else None
    left = Counter({parse_card(c): game.decks for c in map(card_name, deck(1))})
    left.subtract(face_up(parse_card(c)) for pile in laid.values() for c in pile)
    spare = sorted(left.elements())
    if spare:
        assert rest is not None, f"cards left over and no rest pile: {[card_name(c) for c in spare]}"
        down = game.pile_kinds[rest] == "stock"
        laid[rest] = laid.get(rest, []) + [card_name(face_down(c) if down else c) for c in spare]
    d = {"game": game_id, "piles": {pid: laid.get(pid, []) for pid in game.pile_ids}}
    if redeals is not None:
        d["redeals"] = redeals
    if options:
        d["options"] = game.options
    return game.state_from_dict(d)


def moves(state: sw.State) -> set[str]:
    """The legal moves as text, for comparing with a literal set."""
    return {str(m) for m in state.legal_moves()}


def printed_json(code: str, path, pure: bool = False):
    """What the Python ``code`` (dedented) prints last, read as JSON: run by this Python in a
    subprocess from ``path`` (its folder and its PYTHONPATH), under SOLWIDGET_PURE=1 if
    ``pure``."""
    env = {k: v for k, v in os.environ.items() if k != "SOLWIDGET_PURE"}
    env["PYTHONPATH"] = str(path)
    if pure:
        env["SOLWIDGET_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        cwd=path,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def loopback_cluster(workers: int):
    """A Dask cluster of ``workers`` processes, a thread each, on loopback TCP (the test is
    skipped where distributed is not installed)."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",
    )


def every_position(state, cap: int):
    """Every position reachable from ``state`` by the engine's legal moves (a set), or None
    where there are more than ``cap``."""
    seen, todo = {state}, deque([state])
    while todo:
        at = todo.popleft()
        for move in at.legal_moves():
            after = at.play(move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
                if len(seen) > cap:
                    return None
    return seen


def walk(expander, state, steps, stride):
    """Settled positions along a walk that takes every ``stride``-th successor."""
    state = expander.start(state)[0]
    for turn in range(steps):
        yield state
        children = list(expander.expand(state))
        if not children:
            return
        state = children[(turn * stride) % len(children)][1]


def _translation(element) -> tuple[float, float]:
    """The (x, y) of an element's ``transform="translate(x y)"``."""
    x, y = element.attrib["transform"].removeprefix("translate(").removesuffix(")").split()
    return float(x), float(y)


def svg_places(svg: str, unit: float) -> dict[str, tuple]:
    """pile id -> (its corner, [each drawn card's corner from it]) in card widths, read from
    the transforms of ``State._repr_svg_``'s groups drawn ``unit`` pixels to a card width (the
    board's corner, inside the felt's padding, is 0, 0)."""
    namespace = "{http://www.w3.org/2000/svg}"
    pad = unit * PAD
    out = {}
    for group in ET.fromstring(svg).iter(f"{namespace}g"):
        if "data-pile" in group.attrib:
            x, y = _translation(group)
            cards = [_translation(g) for g in group if "data-card" in g.attrib]
            out[group.attrib["data-pile"]] = (
                ((x - pad) / unit, (y - pad) / unit),
                [(dx / unit, dy / unit) for dx, dy in cards],
            )
    return out


# The board of the page's widget number ``index`` in card widths: pile id -> [its corner, its
# drawn cards' corners from it], measured on the page; the board's size too. (svg_places' twin.)
JS_DOM_PLACES = """(index) => {
    const root = document.querySelectorAll('.sw-root')[index];
    const unit = parseFloat(getComputedStyle(root).getPropertyValue('--u'));
    const board = root.querySelector('.sw-board').getBoundingClientRect();
    const piles = {};
    for (const pile of root.querySelectorAll('[data-pile]')) {
        const box = pile.getBoundingClientRect();
        const cards = [...pile.querySelectorAll(':scope > [data-card]')].map((card) => {
            const c = card.getBoundingClientRect();
            return [(c.left - box.left) / unit, (c.top - box.top) / unit];
        });
        piles[pile.dataset.pile] = [[(box.left - board.left) / unit, (box.top - board.top) / unit], cards];
    }
    return {piles, width: board.width / unit, height: board.height / unit};
}"""


# ------------------------------------------------------------------ positions with long fans
def joined(game_id: str, deal: int, joins: dict, turned_up: tuple | None = None) -> sw.State:
    """Deal ``deal``, with the piles of each ``joins`` entry put on its key's pile, and
    ``turned_up`` = (source, target, n): the top n cards of source put face up on target."""
    game = sw.load_game(game_id)
    data = game.deal(deal).to_dict()
    piles = data["piles"]
    for target, sources in joins.items():
        for source in sources:
            piles[target], piles[source] = piles[target] + piles[source], []
    if turned_up:
        source, target, count = turned_up
        taken, piles[source] = piles[source][-count:], piles[source][:-count]
        piles[target] += [card.strip("[]") for card in taken]
    return game.state_from_dict(data)


def grown(game_id: str, deal: int, moves: int) -> sw.State:
    """A position ``moves`` moves into deal ``deal``, each move the first that makes the
    longest down fan longest (for games whose rules allow no other way to long fans)."""
    state = sw.load_game(game_id).deal(deal)
    fans = {p["id"] for p in state.game.layout()["piles"] if p["fan"] == "down"}

    def longest(s):
        return max(len(cards) for pid, cards in zip(s.game.pile_ids, s.piles) if pid in fans)

    seen = {state}
    for _ in range(moves):
        following = [s for _, s in state.game.successors(state) if s not in seen]
        if not following:
            break
        state = max(following, key=longest)  # max keeps the first of equals
        seen.add(state)
    return state


@functools.cache
def long_fan_positions() -> dict[str, sw.State]:
    """For each seed game, a position whose fans are squeezed to their room or push a row down."""
    return {
        "reversed_solitaire": joined("reversed_solitaire", 1, {"t0": ["t1", "t2", "t3"]}),
        "triple_interchange": joined("triple_interchange", 1, {"t0": ["t1", "t2"]}, ("stock", "t5", 30)),
        "interlock": joined("interlock", 7, {}, ("stock", "t29", 15)),
        "mutated": grown("mutated", 4, 60),
    }


def played_with_a_mistake(number=3, follow=10, wander=12, seed=1):
    """Reversed Solitaire deal ``number``: ``follow`` moves of a found win, then up to
    ``wander`` random legal moves, none into a position with no move left; (the deal, the
    line). Self-contained, so that a browser test can send its source to a kernel."""
    import random

    import solwidget as sw

    start = sw.load_game("reversed_solitaire").deal(number)
    win = sw.solve(start, max_states=None, max_seconds=30).moves
    line, state = list(win[:follow]), start
    for move in line:
        state = state.play(move)
    rnd = random.Random(seed)
    for _ in range(wander):  # never into a position with no move left: hints have one to give
        moves = [move for move in state.legal_moves() if state.play(move).legal_moves()]
        if not moves:
            break
        move = rnd.choice(moves)
        line.append(move)
        state = state.play(move)
    return start, line
