"""What a variant of the FreeCell family may change (``sw.variant``, docs/variants.md).

The deal deals the cards round the piles, face up, so it spreads over any number of piles;
the layout has room for free cells. There is no stock, and the deal and the layout are made
for one deck.
"""

from ...engine.variation import Variation
from .rules import _FreeCellFamily

VARIATION = Variation(
    _FreeCellFamily,
    changes=("build", "moves", "empty", "foundations", "cells", "piles"),
    cannot={
        "draw": "it has no stock",
        "redeals": "it has no stock",
        "decks": "its deal and its layout are made for 1 deck",
    },
    layout="{piles} piles dealt face up, the cards round them from the first",
    piles=lambda decks: range(2, 14),
)
