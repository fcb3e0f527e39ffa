"""What the solver knows of the FreeCell family (solver/profile.py's contract)."""

from __future__ import annotations

from ...solver.autoplay import lemma_applies
from ...solver.budget import SearchOptions
from ...solver.expand import PatienceExpander
from ...solver.keys import plain_key_bytes
from ...solver.profile import Profile, register_profile
from .expander import CellsExpander
from .moves import fits
from .native import NativeSearch
from .rules import FreeCell, InvertedFreeCell, ReversedSolitaire

# Two weighted A* searches whose scores weigh the cards not yet home less than the default
# score does (3 and 2, against 8), so that what stands in their way counts for more: the
# first, with a large depth weight, counts the cards below each pile's ordered run and
# prizes free cells and empty piles; the second explores a tenth of its pops. Chosen by the
# expansions they need on FreeCell deals 1-1000 with the general safe moves, checked on
# 1001-5000 (docs/solver.md); Reversed Solitaire keeps them.
CELLS_PORTFOLIO: tuple[SearchOptions, ...] = (
    {
        "depth_weight": 2.0,
        "weights": {
            "home": 3.0,
            "blockers": 0.75,
            "urgent": 0.125,
            "unsorted": 3.0,
            "cells": 1.5,
            "empty": 4.0,
        },
    },
    {
        "depth_weight": 0.5,
        "explore": 0.1,
        "weights": {
            "home": 2.0,
            "blockers": 0.25,
            "urgent": 0.5,
            "unsorted": 0.5,
            "cells": 0.75,
            "empty": 3.0,
        },
    },
)


def _reweighed(search: SearchOptions, **weights: float) -> SearchOptions:
    """``search`` with these weights in place of its own."""
    return {**search, "weights": {**(search.get("weights") or {}), **weights}}


# Where the search sends home by the safe cards' lemma (FreeCell, Inverted FreeCell:
# autoplay.lemma_applies), the same two searches with the first weighing the cards not yet
# home, the cards that block them and empty piles less and urgent cards more, and the
# second empty piles less: chosen by a hill climb on the expansions they need on FreeCell
# deals 1-4000 with the lemma (benchmarks/tune_portfolio.py), checked on 4001-31999
# (docs/solver.md).
LEMMA_PORTFOLIO: tuple[SearchOptions, ...] = (
    _reweighed(CELLS_PORTFOLIO[0], home=1.625, blockers=0.625, urgent=0.1875, empty=2.75),
    _reweighed(CELLS_PORTFOLIO[1], empty=2.5),
)


class FreeCellProfile(Profile):
    """The fast expander wherever the game has free cells (an option may take them away)."""

    native = NativeSearch
    # Over FreeCell's deals 1-1000 the shortener shortened 170 of the 1000 wins, by 204 moves
    # in all (92.6 moves a win to 92.4), in about a sixth of the solving time; over Reversed
    # Solitaire's deals 1-300, by 0.35 moves a win, in about a sixteenth (docs/solver.md).
    shorten_wins = False
    # The first search's opening turn: 300 expansions, against 150 by default, took 3 % off
    # the expansions over FreeCell's deals 1-32000 and 11 % over Reversed Solitaire's 1-1000
    # (docs/solver.md).
    opening = 300

    def lemmas(self, game) -> dict[str, bool]:
        """CellsExpander gives the generic successors in its shape (moves.fits): any build
        and foundations, but supermoves, free cells and empty piles that take any card."""
        return {"cells expander": fits(game)}

    def portfolio_for(self, game) -> tuple[SearchOptions, ...]:
        if not game.cell_indices:
            return super().portfolio_for(game)
        return LEMMA_PORTFOLIO if lemma_applies(game) else CELLS_PORTFOLIO

    def expander(self, game, weights=None, autoplay=True, compress=True):
        cls = CellsExpander if fits(game) else PatienceExpander
        return cls(game, weights, autoplay, compress)

    def key_bytes(self, game) -> int:
        # CellsKey: a tuple of the piles, which it keeps alive
        return 400 if fits(game) else plain_key_bytes(game)


register_profile(FreeCellProfile(), ReversedSolitaire, InvertedFreeCell, FreeCell)
