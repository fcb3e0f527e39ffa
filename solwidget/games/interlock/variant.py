"""What a variant of Interlock's family may change (``sw.variant``, docs/variants.md).

The engine's parameters of building and moving, and the stock where a game has one. The
three overlapping layers are the family's own: they cannot be spread over other piles, they
leave no room for free cells, and they are laid out for one deck.
"""

from ...engine.variation import Variation
from .rules import InterlockFamily

VARIATION = Variation(
    InterlockFamily,
    changes=("build", "moves", "empty", "foundations", "draw", "redeals"),
    cannot={
        "piles": "its deal cannot be spread over other piles",
        "cells": "its layout has no room for free cells",
        "decks": "its deal and its layout are made for 1 deck",
    },
    layout="Interlock's three overlapping layers of piles: a covered pile neither gives nor takes cards, a "
    "pile's last covering pile may drop onto it whole, an emptied middle or front pile is gone "
    "('empty' is what an emptied back pile takes)",
)
