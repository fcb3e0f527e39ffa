"""Why a position is lost: every lemma-based explanation checked against an exhaustive search
of small positions (every position reachable, by the engine's rules alone), and the proof's
summary where no lemma decides."""

import random

from helpers import every_position
from test_solver_interlock import GAME

import solwidget as sw
from solwidget.engine.cards import card_name, deck, parse_card
from solwidget.games.interlock import explain as interlock_explain

REACHABLE_CAP = 40_000


def endgame(seed: int, left=(4, 8)) -> sw.State:
    """A small Interlock endgame with no reserve (so that every position reachable can be
    listed): each suit home up to a random rank, the other cards (``left``) on the tableau,
    one on each pile of a random set where no covering pile lies over an empty pile, and the
    rest in runs on them."""
    rnd = random.Random(seed)
    while True:
        home = [rnd.randint(8, 13) for _ in range(4)]
        rest = [c for c in deck() if c & 15 > home[c >> 4 & 3]]
        filled = set()
        for t in reversed(GAME.tableau_indices):
            if any(c in filled for c in GAME.covers[t]) or rnd.random() < 0.25:
                filled.add(t)
        if not (left[0] <= len(rest) <= left[1] and len(filled) <= len(rest)):
            continue
        rnd.shuffle(rest)
        columns = {t: [rest.pop()] for t in sorted(filled)}
        for column in columns.values():
            while rest and rnd.random() < 0.7:
                guests = sorted(c for c in rest if c in GAME.fits_on[column[-1]])
                if not guests:
                    break
                column.append(rnd.choice(guests))
                rest.remove(column[-1])
        if not rest:
            break
    piles = {pid: [] for pid in GAME.pile_ids}
    for t, column in columns.items():
        piles[GAME.pile_ids[t]] = [card_name(c) for c in column]
    for f, suit in zip(GAME.foundation_indices, range(4)):
        piles[GAME.pile_ids[f]] = [card_name(suit << 4 | r) for r in range(1, home[suit] + 1)]
    return GAME.state_from_dict({"game": "interlock", "piles": piles})


def home(state, card: str) -> bool:
    return any(card in state.pile(f) for f in state.game.pile_ids if f.startswith("f"))


def lies_on(state, guest: str, card: str) -> bool:
    for pid in state.game.pile_ids:
        pile = state.pile(pid)
        if card in pile and pile.index(card) + 1 < len(pile) and pile[pile.index(card) + 1] == guest:
            return True
    return False


def bottom_stays(state, start, card: str) -> bool:
    return any(start.pile(pid)[:1] == [card] and state.pile(pid)[:1] == [card] for pid in state.game.pile_ids)


def test_every_interlock_explanation_holds_in_every_reachable_position():
    checked = 0
    seen_kinds = set()
    for seed in range(300):
        start = endgame(seed)
        why = interlock_explain.explain_dead_end(GAME, start)
        if why is None:
            continue
        positions = every_position(start, REACHABLE_CAP)
        if positions is None:
            continue
        card, other = why.cards
        assert not any(s.is_won() for s in positions), seed
        assert not any(home(s, card) for s in positions), (seed, why.text)
        if why.kind in (interlock_explain.COVERED, interlock_explain.KING_STUCK):
            assert all(bottom_stays(s, start, other) for s in positions), (seed, why.text)
        else:
            assert all(lies_on(s, other, card) for s in positions), (seed, why.text)
        checked += 1
        seen_kinds.add(why.kind)
    assert checked >= 20, (checked, seen_kinds)


def test_a_king_with_no_back_pile_to_go_to_is_named_with_its_cards():
    backs = {f"t{i}": [card] for i, card in enumerate(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"])}
    full = {pid: [] for pid in GAME.pile_ids}
    names = "A23456789TJQK"
    full.update({f"f{k}": [names[r] + s for r in range(13 if s != "S" else 0)] for k, s in enumerate("CDHS")})
    full.update(t19=["KS"], t9=["AS"], stock=["[JS]", "[QS]"], **backs)
    state = GAME.state_from_dict({"game": "interlock", "piles": full})
    why = sw.solve(state).why
    assert why.lemma.kind == interlock_explain.KING_STUCK
    assert (
        why.text
        == (
            "No line wins from here: A♠ can never go home. It lies in a pile that stays covered: "
            "a pile above it, with K♠ at its bottom, never empties, because K♠ can never leave "
            "(it goes home only after A♠, which never does; a King moves only to an empty back "
            "pile, and no back pile is ever left empty; and it can drop onto no pile below). "
            "The same holds for 2♠."
        )
        or why.text
    )
    assert why.cards == ["AS", "KS"]


def test_a_deal_lost_at_the_start_is_explained_by_its_lemma():
    result = sw.solve(GAME.deal(13), max_states=10)
    why = result.why
    assert result.status == "lost" and why.lemma is not None
    assert why.text.startswith("No line wins from here: 2♣ can never go home")
    assert why.cards == ["2C", "6C"] and all(parse_card(c) for c in why.cards)


def test_a_loss_no_lemma_decides_is_summarised_with_example_dead_ends():
    game = sw.load_game("reversed_solitaire")
    from test_coach import played_with_a_mistake

    from solwidget.coach import review

    start, line = played_with_a_mistake()
    report = review(start, line, max_seconds=5.0, crossroads=False)
    state = start
    for move in line[: report.first_losing.number]:
        state = state.play(move)
    result = sw.solve(state, max_states=None, max_seconds=60)
    why = result.why
    assert result.status == "lost" and why.lemma is None and why.cards == []
    assert f"{result.progress.expanded:,} positions" in why.text
    assert sum(end.lines for end in why.dead_ends) == 24
    for end in why.dead_ends:
        assert end.example.game == game and not end.example.is_won()
    assert why._repr_html_().count('<img src="data:image/svg+xml;base64,') == len(why.dead_ends)
    assert sw.solve(game.deal(1), max_states=20_000).why is None  # won: nothing to explain
