"""The safe cards' lemma in the FreeCell family (solver/autoplay.py, ``lemma_safe``): the
search sends a card home once the suits of the other colour have one card fewer home and
the other suit of its colour two fewer. Checked as the other reductions are: on endgames
where it sends home a card that the general rule does not, the search's verdicts are those
of a search to the end with no safe move at all."""

import random

import pytest
from test_freecell_family import _scattered

import solwidget as sw
from solwidget.games.freecell.expander import CellsExpander
from solwidget.solver.autoplay import is_safe_or_lemma, lemma_applies, lemma_safe, safe_move, search_rule
from solwidget.solver.expand import PatienceExpander
from solwidget.solver.profile import profile_for

ENDGAMES = 3000  # drawn a game; about one in twenty gets a card home by the lemma alone


def _small(base: str):
    """``base`` on four piles and one cell: endgames of 20 cards or so, some lost."""
    return sw.variant(base, id=f"{base}_four_piles", name=f"{base} on four piles", piles=4, cells=1).game()


@pytest.mark.parametrize("base", ["freecell", "inverted_freecell"])
def test_cards_the_lemma_sends_home_keep_every_verdict(base):
    game = _small(base)
    rng = random.Random(5)
    states = [_scattered(game, rng, homes=(4, 5, 6, 7, 8, 9, 10)) for _ in range(ENDGAMES)]
    sent = [s for s in states if safe_move(game, s, is_safe_or_lemma) != safe_move(game, s)]
    assert isinstance(profile_for(game).expander(game), CellsExpander)  # the search in C too
    with_lemma = [sw.solve(s, max_states=200_000).status for s in sent]
    plain = [sw.solve(s, max_states=300_000, autoplay=False).status for s in sent]
    assert with_lemma == plain and len(sent) >= 50 and {"won", "lost"} <= set(plain), plain


def test_the_lemma_holds_where_the_tableau_builds_against_the_foundations_in_alternate_colours():
    assert lemma_applies(sw.load_game("freecell")) and lemma_applies(sw.load_game("inverted_freecell"))
    assert not lemma_applies(sw.load_game("reversed_solitaire"))  # builds down, as its foundations
    in_suit = sw.variant("freecell", id="freecell_in_suit", name="FreeCell in suit", build="down in suit")
    assert not lemma_applies(in_suit.game())
    for game_id in ("interlock", "guardian", "love_a_duck", "triple_interchange"):  # stock, Yukon
        assert not lemma_applies(sw.load_game(game_id))  # groups or decks: their own rules
    assert search_rule(sw.load_game("freecell")) is is_safe_or_lemma


def test_the_lemmas_counts():
    # the next Seven of a suit: the other colour with five home each, its colour's other suit four
    suit, other, another = 0, 1, 2
    home = [6, 5, 5, 4]
    assert lemma_safe(home, suit)
    for short in (other, another, 3):
        fewer = list(home)
        fewer[short] -= 1
        assert not lemma_safe(fewer, suit)
    assert lemma_safe([0, 0, 0, 0], suit) and lemma_safe([1, 0, 0, 0], suit)  # an Ace, a Two


@pytest.mark.parametrize("base", ["freecell", "inverted_freecell"])
def test_the_fast_successors_send_home_what_the_general_ones_do(base):
    game = _small(base)
    fast, general = CellsExpander(game), PatienceExpander(game)
    rng = random.Random(9)
    sent = 0
    for _ in range(300):
        state = _scattered(game, rng, homes=(6, 7, 8, 9, 10))
        packed = sw.State(game, tuple(map(bytes, state.piles)), ())
        settled, played = general._settle(state)
        assert fast._settle(packed) == (sw.State(game, tuple(map(bytes, settled.piles)), ()), played)
        sent += safe_move(game, state, is_safe_or_lemma) != safe_move(game, state)
    assert sent >= 10
