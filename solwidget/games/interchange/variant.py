"""What a variant of the Interchange family may change (``sw.variant``, docs/variants.md).

Every parameter: the deal (``rules.deal_faces``) lays as many rows as piles, alternately face
up and face down from the bottom with the top row face up, so it follows the rules for any
number of piles and decks whose rows leave at least one card for the waste.
"""

from ...engine.variation import Variation
from .rules import InterchangeFamily


def deal_piles(decks: int) -> range:
    """The piles a deal of ``decks`` decks spreads over: as many rows as piles, one card each,
    and at least one card left for the waste (piles × piles < the cards)."""
    return range(2, max(n for n in range(2, 20) if n * n < 52 * decks) + 1)


VARIATION = Variation(
    InterchangeFamily,
    changes=("build", "moves", "empty", "foundations", "cells", "piles", "draw", "redeals", "decks"),
    layout="{piles} piles of {piles} cards, alternately face up and face down from the bottom, the top "
    "card face up; the rest is the stock, one card turned to the waste",
    piles=deal_piles,
)
