"""Numbered deals, shuffled exactly as PySolFC shuffles them (with ``pysol_cards``' generators)."""

import operator

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from .cards import make_card
from .checks import is_whole, shown
from .errors import InvalidDeal

MS_DEALS = 32000  # PySolFC: the Microsoft-compatible generator below, Mersenne Twister from here
MAX_DEAL = 10**20 - 1  # PySolFC reads game numbers below 10**20
DEAL_LIMITS = (1, MAX_DEAL)  # the deal numbers every game accepts (a game may narrow them)

_OUR_SUIT = {i: "CDHS".index(s) for i, s in enumerate("CSHD")}  # pysol_cards orders suits C S H D


def deal_rule(limits: tuple[int, int] = DEAL_LIMITS) -> str:
    """The rule for deal numbers in words: "a deal number is a whole number from 1 to ..."."""
    first, last = limits
    return f"a deal number is a whole number from {first} to {last}"


def check_deal_number(number: object, limits: tuple[int, int] = DEAL_LIMITS) -> int:
    """``number`` as a plain int; InvalidDeal unless it is a whole number within ``limits``
    (a game's ``deal_limits``; by default 1 to MAX_DEAL)."""
    first, last = limits
    if not is_whole(number):
        raise InvalidDeal(f"{deal_rule(limits)}, not {shown(number)}")
    whole = operator.index(number)  # numpy integers and the like
    if not first <= whole <= last:
        raise InvalidDeal(f"deal number {shown(whole)} is out of range: deals are numbered {first} to {last}")
    return whole


def shuffled_cards(number: int, decks: int = 1) -> list[int]:
    """The cards of deal ``number`` in dealing order: the first card dealt comes first."""
    number = check_deal_number(number)
    cards = createCards(decks)
    if number < MS_DEALS:
        generator = LCRandom31(number)
        cards = ms_rearrange(cards)  # Microsoft's card order; changes single-deck games only
    else:
        generator = MTRandom(number)
    generator.shuffle(cards)
    cards.reverse()  # PySolFC deals from the end of the shuffled list
    return [make_card(c.rank, _OUR_SUIT[c.suit]) for c in cards]
