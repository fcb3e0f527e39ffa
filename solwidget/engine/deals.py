"""Numbered deals, shuffled exactly as PySolFC shuffles them (with ``pysol_cards``' generators)."""

import operator

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from .cards import make_card
from .errors import InvalidDeal

MS_DEALS = 32000        # PySolFC: the Microsoft-compatible generator below, Mersenne Twister from here
MAX_DEAL = 10**20 - 1   # PySolFC reads game numbers below 10**20

_OUR_SUIT = {i: "CDHS".index(s) for i, s in enumerate("CSHD")}   # pysol_cards orders suits C S H D


def check_deal_number(number) -> int:
    """``number`` as a plain int; InvalidDeal unless it is a whole number from 1 to MAX_DEAL."""
    if isinstance(number, bool) or not hasattr(type(number), "__index__"):
        raise InvalidDeal(f"a deal number is a whole number, not {number!r}")
    number = operator.index(number)      # numpy integers and the like
    if not 1 <= number <= MAX_DEAL:
        raise InvalidDeal(f"deal number {number} is out of range: deals are numbered 1 to {MAX_DEAL}")
    return number


def shuffled_cards(number: int, decks: int = 1) -> list[int]:
    """The cards of deal ``number`` in dealing order: the first card dealt comes first."""
    number = check_deal_number(number)
    cards = createCards(decks)
    if number < MS_DEALS:
        generator = LCRandom31(number)
        cards = ms_rearrange(cards)      # Microsoft's card order; changes single-deck games only
    else:
        generator = MTRandom(number)
    generator.shuffle(cards)
    cards.reverse()                      # PySolFC deals from the end of the shuffled list
    return [make_card(c.rank, _OUR_SUIT[c.suit]) for c in cards]
