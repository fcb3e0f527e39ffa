"""Why a Mutated Solitaire position is lost: every explanation of the coach's dead-end closure
(games/mutated/explain.py) checked against every position reachable from small positions, by
the engine's rules alone; and the closure itself: no position it finds dead reaches a win."""

import random

from helpers import every_position
from test_solver_mutated import GAME, along_wins, scatter, small_position

import solwidget as sw
from solwidget.coach import LOST, Judge
from solwidget.engine.cards import FACE_DOWN, KING, RANKS, SUITS
from solwidget.games.mutated import explain
from solwidget.games.mutated.board import DECKS, DRAW, PARENTS_OF, R2X, ROW, SPACES
from solwidget.games.mutated.deadends import is_dead, is_dead_strict

REACHABLE_CAP = 5000


def held_position(rng) -> sw.State:
    """Most cards home, and a lock the search's closure misses: K♠ in r2c1 under Q♦, and deck d3
    built on Q♥ over K♣, the red Kings and a card x (face down or not). Q♥ climbs only onto a
    black King, K♣ lies under it, K♠ under Q♦, and Q♦ leaves K♠ only onto K♣: so the cards
    under Q♥ never come free. The other cards away (red Jacks, black Queens) lie at random, as
    small_position lays them."""
    away = {"C": rng.randint(1, 2), "D": 3, "H": 3, "S": rng.randint(1, 2)}
    piles = {pid: [] for pid in GAME.pile_ids}
    piles.update({f"f{i}": [RANKS[r] + s for r in range(13 - away[s])] for i, s in enumerate(SUITS)})
    loose = [
        RANKS[r] + s
        for s in SUITS
        for r in range(13 - away[s], 13)
        if RANKS[r] + s not in ("KS", "QD", "KC", "QH", "KD", "KH")
    ]
    rng.shuffle(loose)
    x = loose.pop()
    piles["r2c1"] = ["KS", "QD"]
    piles["d3"] = ["[KC]", "[KD]", "KH", x if rng.random() < 0.5 else f"[{x}]", "QH"]
    spaces = [pid for pid in GAME.pile_ids if pid[0] == "r" and pid not in ("r2x", "r2c1")]
    scatter(piles, loose, rng, spaces + ["r2x", "d1", "d2"])
    return GAME.state_from_dict(
        {"game": "mutated", "piles": piles, "decks": {"d3": {"mode": "built", "base": 4}}}
    )


def buried_position(rng) -> sw.State:
    """Most cards home, and deck d3 in draw mode holding, face down, the four Kings and a card
    x under Q♥ (face up): Q♥ climbs only onto a black King, no King ever moves, so d3 is never
    flipped and x never turns up. The other cards away lie at random, as small_position lays
    them (none in d3)."""
    away = {"C": rng.randint(1, 2), "D": rng.randint(1, 2), "H": rng.randint(2, 3), "S": rng.randint(1, 2)}
    piles = {pid: [] for pid in GAME.pile_ids}
    piles.update({f"f{i}": [RANKS[r] + s for r in range(13 - away[s])] for i, s in enumerate(SUITS)})
    held = ("KS", "KC", "KH", "KD", "QH")
    loose = [RANKS[r] + s for s in SUITS for r in range(13 - away[s], 13) if RANKS[r] + s not in held]
    if not loose:
        loose = [piles["f0"].pop()]
    rng.shuffle(loose)
    x = loose.pop()
    piles["d3"] = ["[KS]", "[KC]", "[KH]", "[KD]", f"[{x}]", "QH"]
    spaces = [pid for pid in GAME.pile_ids if pid[0] == "r" and pid != "r2x"]
    scatter(piles, loose, rng, spaces + ["r2x", "d1", "d2"])
    return GAME.state_from_dict({"game": "mutated", "piles": piles})


def place(state, card):
    """(pile index, index in it) of ``card``."""
    for i, pile in enumerate(state.piles):
        for k, c in enumerate(pile):
            if c & 63 == card:
                return i, k
    raise AssertionError(card)


def tops(state, row):
    """The top cards of the piles of ``row`` a card may land on: its spaces, r2x, a built deck."""
    found = set()
    for i, pile in enumerate(state.piles):
        if ROW[i] != row or not pile:
            continue
        open_top = i in SPACES or i == R2X or (i in DECKS and state.extra[DECKS.index(i)] != DRAW)
        if open_top and not pile[-1] & FACE_DOWN:
            found.add(pile[-1] & 63)
    return found


def a_space_empty(state, row):
    return any(not state.piles[i] for i in SPACES if ROW[i] == row)


def lies_on(state, guest, card):
    i, k = place(state, card)
    return k + 1 < len(state.piles[i]) and state.piles[i][k + 1] & 63 == guest


def never_leaves(positions, start, card):
    """``card``'s ways out, as explain.py words them, never open from ``start``'s rows."""
    rows = explain.neighbour_rows(card, start.piles)
    if card & 15 == KING:
        return not any(a_space_empty(s, r) for s in positions for r in rows)
    hosts = {h & 63 for h in PARENTS_OF[card]}
    return not any(hosts & tops(s, r) for s in positions for r in rows)


def holds(start, positions, found) -> bool:
    kind, card, others, row = found
    if any(place(s, card)[0] < 4 for s in positions):  # home: a foundation is piles 0-3
        return False
    if kind in (explain.UNDER, explain.COVERED):
        other = others[0]
        free = explain.strict_closure(start.piles, start.extra)[1] >> other & 1
        return all(lies_on(s, other, card) for s in positions) and (
            not free or never_leaves(positions, start, other)
        )
    if kind == explain.IN_DECK:
        deck = place(start, card)[0]
        return all(
            place(s, card)[0] == deck and s.piles[deck][place(s, card)[1]] & FACE_DOWN for s in positions
        )
    nearer = all(ROW[place(s, card)[0]] >= row for s in positions)
    if card & 15 == KING:
        return nearer and not any(a_space_empty(s, row - 1) for s in positions)
    return nearer and not any(set(others) & tops(s, row - 1) for s in positions)


def test_every_mutated_explanation_holds_in_every_reachable_position():
    rng = random.Random(37)
    checked, kinds, stronger = 0, set(), 0
    makers = (
        lambda: small_position(rng, locked=True),
        lambda: held_position(rng),
        lambda: buried_position(rng),
    )
    for k in range(120):
        start = makers[k % 3]()
        found = explain.reason(start)
        if found is None:
            continue
        positions = every_position(start, REACHABLE_CAP)
        if positions is None:
            continue
        assert not any(s.is_won() for s in positions), GAME.format(start)
        assert holds(start, positions, found), (GAME.format(start), explain.explain_dead_end(start).text)
        checked += 1
        kinds.add(found[0])
        stronger += not is_dead(start.piles, start.extra)
    assert checked >= 30 and kinds == {explain.UNDER, explain.CLIMB, explain.IN_DECK} and stronger >= 5, (
        checked,
        kinds,
        stronger,
    )


def test_two_aces_each_under_a_two_the_other_needs_are_named_in_card_words():
    """Deal 901: A♣ lies in row 2 on 2♥, A♠ in row 3 on 2♦; an Ace climbs only onto a red Two."""
    why = sw.solve(GAME.deal(901), max_states=10).why
    assert why.lemma.kind == explain.CLIMB and why.cards == ["AC", "2D", "2H"]
    assert why.text == (
        "No line wins from here: A♣ can never go home: it never gets nearer than row 2, since it "
        "climbs to row 1 only onto 2♦ or 2♥ topping a pile there, and neither ever does (2♦ stays "
        "face down under A♠; 2♥ stays face down under A♣)."
    )


def test_the_judge_answers_a_position_a_lemma_decides_without_a_search():
    rng = random.Random(5)
    state = next(
        s
        for s in (held_position(rng) for _ in range(200))
        if is_dead_strict(s) and not is_dead(s.piles, s.extra)
    )
    judge = Judge(max_seconds=None, max_states=1)
    assert judge.judge(state).status == LOST and judge.searches == 0
    assert sw.solve(state, max_states=1).status == "unknown"  # the search alone does not know yet


def test_no_position_on_a_winning_line_is_dead_for_the_coach():
    """Full deals: the searches' wins replay, so no position along them may be found dead."""
    seen = 0
    for number, move, state in along_wins():
        assert not is_dead_strict(state), (number, str(move))
        seen += 1
    assert seen > 1000
