"""Why a move is illegal in a patience game, in the rules' words (``Patience._refusal``,
which ``explain`` and ``play`` give for a move that ``iter_moves`` leaves out): the stock's
rules, then what the source may give, what the destination may take, and how many cards
may move together. The rules themselves are ``engine.patience``'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Protocol

from .cards import ACE, FACE_DOWN, RANKS, SUITS, card_name, suit_of
from .moves import Move
from .state import Pile, PileList, State


class BuildRule(Protocol):
    """How the tableau builds (``patience.Build``), as the refusals read it."""

    def fits(self, under: int, over: int) -> bool: ...

    def words(self) -> str: ...


class PatienceRefusals:
    """The refusals of a ``Patience`` game, in words, from its parameters and hooks."""

    # What the refusals read of the game: ``Patience`` sets each of them.
    pile_ids: tuple[str, ...]
    pile_kinds: Mapping[str, str]
    index_of: dict[str, int]
    cell_indices: tuple[int, ...]
    tableau_indices: tuple[int, ...]
    stock_index: int | None
    waste_index: int | None
    build: BuildRule
    group: str
    empty_takes: str
    foundation_start: int
    step: int
    redeals: int | None
    can_take: Callable[[PileList, int], bool]
    empty_pile_takes: Callable[[PileList, int, int], bool]
    group_limit: Callable[[PileList, bool], int]
    _give_refusal: Callable[[PileList, int], str | None]
    _take_refusal: Callable[[PileList, int], str | None]

    def _refusal(self, state: State, move: Move) -> str | None:
        piles = state.piles
        src_kind = self.pile_kinds.get(move.src)
        dst_kind = self.pile_kinds.get(move.dst)
        if "stock" in (src_kind, dst_kind):
            return self._stock_refusal(state, move)
        if move.card is not None:
            return (
                "cards are named only when taken from inside a Mutated Solitaire deck; give a count instead"
            )
        if move.src == move.dst:
            return "a move needs two different piles"
        if src_kind == "foundation":
            return "cards never leave a foundation"
        s, d, n = self.index_of[move.src], self.index_of[move.dst], move.n
        if not piles[s]:
            return f"{move.src} is empty"
        if src_kind != "tableau" and n > 1:
            return f"only one card at a time leaves {'a cell' if src_kind == 'cell' else 'the waste'}"
        if n > len(piles[s]):
            return f"{move.src} holds only {len(piles[s])} card{'s' * (len(piles[s]) > 1)}"
        if src_kind == "tableau":
            reason = self._give_refusal(piles, s)
            if reason:
                return reason
        moving = piles[s][-n:]
        if any(c & FACE_DOWN for c in moving):
            return "a face-down card cannot be moved"
        if dst_kind == "waste":
            return "nothing may be put on the waste"
        if dst_kind == "foundation":
            return self._foundation_refusal(piles, d, moving)
        if dst_kind == "cell":
            if src_kind != "tableau":
                return "only a card from the tableau may go to a cell"
            if n > 1:
                return "a cell holds one card"
            return f"{move.dst} already holds a card"
        return self._tableau_refusal(piles, s, d, moving)

    def _stock_refusal(self, state: State, move: Move) -> str | None:
        piles, stock, waste = state.piles, self.stock_index, self.waste_index
        assert stock is not None and waste is not None  # only a game that draws has a stock
        action = (move.src, move.dst)
        if action in (("stock", "waste"), ("waste", "stock")) and (move.n != 1 or move.card is not None):
            return f"'{move.src} {move.dst}' is written without a count or a card"
        redeal_left = self.redeals is None or state.extra[0] < self.redeals
        if action == ("stock", "waste"):
            if not piles[waste]:
                return "the stock and the waste are both empty"
            if not redeal_left:
                return f"the stock is empty and {self._no_redeal_words()}"
            return "the stock is empty: turn the waste back over with 'waste stock'"
        if action == ("waste", "stock"):
            if piles[stock]:
                return "the stock still has cards: the waste is turned over only once the stock is empty"
            if not piles[waste]:
                return "the waste is empty: there is nothing to turn over"
            return self._no_redeal_words()
        if move.src == "stock":
            return "cards leave the stock only by 'stock waste', one turn at a time"
        return "nothing may be put on the stock"

    def _no_redeal_words(self) -> str:
        if self.redeals == 0:
            return "no redeal is left: this game allows one pass through the stock"
        return f"no redeal is left: this game allows {self.redeals} redeal{'s' * (self.redeals != 1)}"

    def _foundation_refusal(self, piles: PileList, d: int, moving: Pile) -> str:
        if len(moving) > 1:
            return "cards go to a foundation one at a time"
        card = moving[0]
        target = piles[d]
        way = "up" if self.step > 0 else "down"
        if not target:
            start = "an Ace" if self.foundation_start == ACE else "a King"
            return f"an empty foundation takes only {start}: {card_name(card)} cannot start one"
        needed = (target[-1] & 15) + self.step
        if not 1 <= needed <= 13:
            return f"{self.pile_ids[d]} is complete"
        wanted = RANKS[needed - 1] + SUITS[suit_of(target[-1])]
        return (
            f"foundations build {way} in suit: {self.pile_ids[d]} takes {wanted} next, not {card_name(card)}"
        )

    def _tableau_refusal(self, piles: PileList, s: int, d: int, moving: Pile) -> str:
        reason = self._take_refusal(piles, d)
        if reason:
            return reason
        words = self.build.words()
        if self.group == "one" and len(moving) > 1:
            return "cards move one at a time here: move the others one by one"
        if self.group != "yukon":
            for under, over in itertools.pairwise(moving):
                if not self.build.fits(under, over):
                    return (
                        f"{card_name(over)} on {card_name(under)} is not a run {words}: "
                        "only such a run moves as a unit"
                    )
        target = piles[d]
        if target and not self.build.fits(target[-1], moving[0]):
            return (
                f"{card_name(moving[0])} does not fit on {card_name(target[-1])}: the tableau builds {words}"
            )
        if not target and not self.empty_pile_takes(piles, d, moving[0]):
            if self.empty_takes == "king":
                return "an empty tableau pile takes only a King or a run headed by a King"
            return f"{self.pile_ids[d]} takes no cards"
        limit = self.group_limit(piles, not target)
        if len(moving) > limit:
            return self._limit_words(piles, len(moving), limit, not target)
        return f"{self.pile_ids[s]} {self.pile_ids[d]} {len(moving)} is not a legal move in this position"

    def _limit_words(self, piles: PileList, n: int, limit: int, to_empty: bool) -> str:
        free_cells = sum(1 for c in self.cell_indices if not piles[c])
        empty = sum(1 for t in self.tableau_indices if not piles[t] and self.can_take(piles, t)) - to_empty
        note = " besides the one they go to" if to_empty else ""
        return (
            f"{n} cards cannot move together: with {free_cells} free cell{'s' * (free_cells != 1)} "
            f"and {empty} empty pile{'s' * (empty != 1)}{note}, at most {limit} can "
            f"((free cells + 1) x 2^(empty piles)), as many as could move card by card"
        )
