"""The searches stay the same: each game"s solver results on a few deals, as a fingerprint.

A refactoring must leave every search as it was, expansion for expansion. The fingerprint
is a digest of each deal"s status, expansions, positions generated and moves, at a small
budget of states (independent of time and machine). When a search changes on purpose,
the new fingerprint is recorded here with the reason in the commit that changes it.
"""

import hashlib
import json

import pytest

import solwidget as sw

DEALS = range(1, 6)
MAX_STATES = 1500

FINGERPRINTS = {
    "reversed_solitaire": "bdab97fa2914",
    "inverted_freecell": "686b6f6b9c12",
    "freecell": "9a2905d92eab",
    "triple_interchange": "b5ab5f318075",
    "interchange": "2ddeafd96537",  # deals 1-5 lost at the deal, as Single Interchange's
    "unlimited": "693a35182a82",
    "single_interchange": "2ddeafd96537",
    "quadruple_interchange": "33f458fd5b94",
    "interlock": "fa4bdbf32306",
    "love_a_duck": "dd01a40f185e",
    "guardian": "2f49eeca5529",
    "mutated": "b3be764ae8eb",
}

# Deep searches: pooled loss proofs past their first 8,000 expansions, proofs of loss, and
# Interchange's one pass, whose first deals are lost at the deal.
DEEP = {
    ("mutated", 154): "ff9343b730c5",
    ("triple_interchange", 595): "02f8593eae22",
    ("interlock", 845): "3b1c81ce6a81",
    ("freecell", 11982): "d3d309668ebe",
    ("interchange", 49): "97db37cbf0eb",
}
DEEP_STATES = 12000

# The reductions switched off: the engine"s own moves and keys.
PLAIN_OPTIONS = {"autoplay": False, "compress_stock": False}
PLAIN = {
    "reversed_solitaire": "935b14edef40",
    "triple_interchange": "36caadbb46e0",
    "interlock": "89f27786970b",
    "mutated": "7a053941305c",
}
PLAIN_STATES = 400


def fingerprint(game_id: str, deals=DEALS, max_states=MAX_STATES, **options) -> str:
    game = sw.load_game(game_id)
    rows = []
    for number in deals:
        result = sw.Solver(game.deal(number), max_states=max_states, **options).solve()
        moves = " ".join(map(str, result.moves))
        rows.append((number, result.status, result.progress.expanded, result.progress.generated, moves))
    return hashlib.md5(json.dumps(rows).encode()).hexdigest()[:12]


@pytest.mark.parametrize("game_id", sorted(FINGERPRINTS))
def test_search_unchanged(game_id):
    assert fingerprint(game_id) == FINGERPRINTS[game_id]


@pytest.mark.slow
@pytest.mark.parametrize("game_id, number", sorted(DEEP))
def test_deep_search_unchanged(game_id, number):
    assert fingerprint(game_id, [number], DEEP_STATES) == DEEP[game_id, number]


@pytest.mark.parametrize("game_id", sorted(PLAIN))
def test_plain_search_unchanged(game_id):
    assert fingerprint(game_id, DEALS, PLAIN_STATES, **PLAIN_OPTIONS) == PLAIN[game_id]


def test_every_game_has_a_fingerprint():
    assert sorted(FINGERPRINTS) == sorted(sw.games())
