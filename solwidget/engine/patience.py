"""The shared building blocks of patience games: foundations, tableau, cells, stock.

Most games are a ``Patience`` subclass that only sets parameters (how the tableau builds,
which groups move, what an empty pile takes, the stock) and deals. Games with odd rules
(Interlock's covering) override the few hooks marked below.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import NamedTuple

from .cards import ACE, FACE_DOWN, KING, RANKS, SUITS, card_name, face_down, is_red, rank_of, suit_of
from .checks import shown
from .errors import InvalidOption, InvalidPosition
from .game import Game
from .geometry import CARD_ASPECT, FAN_ROOM, PILE_GAP, ROW_GAP, Layout, PileLayout
from .moves import Move
from .state import Extra, Pile, State

PileList = Sequence[Pile]     # the piles of a position, or a list of them being changed


class Build(NamedTuple):
    """How a card goes on a tableau card: ``direction`` -1 is down, +1 up; ``suits`` is
    ``"alternate"`` (colours), ``"same"`` (suit) or ``"any"``."""

    direction: int
    suits: str

    def fits(self, under: int, over: int) -> bool:
        if (over & 15) - (under & 15) != self.direction:
            return False
        if self.suits == "alternate":
            return is_red(over) != is_red(under)
        if self.suits == "same":
            return (over ^ under) & 0x30 == 0
        return True

    def words(self) -> str:
        way = "down" if self.direction < 0 else "up"
        return {"alternate": f"{way} in alternating colours", "same": f"{way} in suit",
                "any": f"{way} regardless of suit"}[self.suits]


def supermove(free_cells: int, empty_piles: int) -> int:
    """How many cards may move as a unit with these free cells and empty piles (not counting
    the one they go to): as many as could move one at a time through them."""
    return (free_cells + 1) << empty_piles


class Patience(Game):
    # ------------------------------------------------------- the parameters
    tableau_piles: int = 8
    build: Build = Build(-1, "alternate")
    group: str = "supermove"       # one | supermove | run | yukon: which groups move as a unit
    empty_takes: str = "any"       # any | king | none: what an empty tableau pile takes
    foundation_start: int = ACE    # ACE builds up in suit, KING builds down in suit
    cells: int = 0
    draw: int = 0                  # cards turned by "stock waste"; 0: no stock
    redeals: int | None = None     # None: unlimited passes; 0: one pass
    face_down_cards: bool = False  # may the tableau hold face-down cards?
    symmetric_tableau: bool = True  # piles that differ only in order play alike
    actions: frozenset[str] = frozenset()

    def __init__(self, **options: object):
        cells = options.get("cells", self.cells)
        if isinstance(cells, bool) or not isinstance(cells, int) or not 0 <= cells <= 10:
            raise InvalidOption(f"cells must be a whole number from 0 to 10, not {shown(cells)}")
        self.cells = cells
        ids = [f"f{i}" for i in range(4 * self.decks)]
        kinds = ["foundation"] * len(ids)
        ids += [f"c{i}" for i in range(self.cells)]
        kinds += ["cell"] * self.cells
        ids += [f"t{i}" for i in range(self.tableau_piles)]
        kinds += ["tableau"] * self.tableau_piles
        if self.draw:
            ids += ["stock", "waste"]
            kinds += ["stock", "waste"]
        self.pile_ids = tuple(ids)
        self.pile_kinds = dict(zip(ids, kinds))
        super().__init__(**options)
        self.cell_indices = self._indices("cell")
        self.tableau_indices = self._indices("tableau")
        self.stock_index = self.index_of.get("stock")
        self.waste_index = self.index_of.get("waste")
        self.step = 1 if self.foundation_start == ACE else -1
        self._prepare_tables()

    def _prepare_tables(self) -> None:
        """Lookup tables that make move generation fast (they only restate the rules)."""
        cards = [suit << 4 | rank for suit in range(4) for rank in range(1, 14)]
        # fits_on[card]: the face-up cards that go on ``card`` in the tableau (none on a
        # face-down card, and a face-down card goes on nothing).
        self.fits_on: list[frozenset[int]] = [frozenset()] * 128
        for under in cards:
            self.fits_on[under] = frozenset(over for over in cards if self.build.fits(under, over))
        ids = self.pile_ids
        self.one_card_moves = [[Move(a, b) for b in ids] for a in ids]
        self.tableau_set = frozenset(self.tableau_indices)
        self._DEAL, self._REDEAL = Move("stock", "waste"), Move("waste", "stock")
        self.run_length = self._run_length_for_group()

    def _run_length_for_group(self) -> Callable[[Pile], int]:
        """``run_length(pile)``: how many top cards of a tableau pile may move together, as
        far as their order goes (a Yukon group: every face-up card). A function of this
        game, its table bound, since the move generators of the engine and of the solver's
        fast paths ask it for every pile they look at."""
        fits_on = self.fits_on          # face-down cards fit on nothing and take nothing

        def yukon_run_length(pile: Pile) -> int:
            if not pile or pile[-1] & FACE_DOWN:
                return 0
            n, size = 1, len(pile)
            while n < size and not pile[-n - 1] & FACE_DOWN:
                n += 1
            return n

        def run_length(pile: Pile) -> int:
            if not pile or pile[-1] & FACE_DOWN:
                return 0
            n, size = 1, len(pile)
            while n < size and pile[-n] in fits_on[pile[-n - 1]]:
                n += 1
            return n

        return yukon_run_length if self.group == "yukon" else run_length

    def _indices(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, pid in enumerate(self.pile_ids) if self.pile_kinds[pid] == kind)

    # ------------------------------------------------------------- hooks
    def can_give(self, piles: PileList, i: int) -> bool:
        """May cards leave tableau pile ``i``? (Interlock: not while covered.)"""
        return True

    def can_take(self, piles: PileList, i: int) -> bool:
        """May cards go on tableau pile ``i``? (Interlock: not while covered, nor once gone.)"""
        return True

    def empty_pile_takes(self, piles: PileList, i: int, card: int) -> bool:
        """May empty tableau pile ``i`` take a group headed by ``card``?"""
        return self.empty_takes == "any" or (self.empty_takes == "king" and card & 15 == KING)

    def extra_moves(self, state: State) -> Iterator[Move]:
        """Moves that no building block makes (Interlock's dropdown)."""
        return iter(())

    def reveal(self, piles: list[Pile], src: int) -> None:
        """Turn up the face-down card that a move left on top of ``src``."""
        pile = piles[src]
        if pile and pile[-1] & FACE_DOWN and self.pile_kinds[self.pile_ids[src]] == "tableau":
            piles[src] = pile[:-1] + (pile[-1] & ~FACE_DOWN,)

    def _give_refusal(self, piles: PileList, i: int) -> str | None:
        return None

    def _pickup_refusal(self, state: State, pile_id: str) -> str | None:
        if self.pile_kinds[pile_id] != "tableau":
            return None
        return self._give_refusal(state.piles, self.index_of[pile_id])

    def _take_refusal(self, piles: PileList, i: int) -> str | None:
        return None

    # ------------------------------------------------------------ moves
    def foundations_for(self, piles: PileList, card: int) -> Iterator[int]:
        """The foundations where ``card`` may go."""
        start = self.foundation_start
        for f in self.foundation_indices:
            pile = piles[f]
            if pile:
                top = pile[-1]
                if (top ^ card) & 0x30 == 0 and (card & 15) - (top & 15) == self.step:
                    yield f
            elif card & 15 == start:
                yield f

    def foundation_wants(self, piles: PileList) -> tuple[dict[int, list[int]], list[int]]:
        """(card -> the started foundations that take it next, the empty foundations, which
        take the first card of a suit): what the foundations take, for the move generators."""
        wants: dict[int, list[int]] = {}
        empty = []
        last = KING if self.step > 0 else ACE
        for f in self.foundation_indices:
            pile = piles[f]
            if not pile:
                empty.append(f)
            elif pile[-1] & 15 != last:
                wants.setdefault(pile[-1] + self.step, []).append(f)
        return wants, empty

    def group_limit(self, piles: PileList, to_empty: bool) -> int:
        """The most cards one move may carry (one, FreeCell's supermove count, or no limit)."""
        if self.group == "one":
            return 1
        if self.group != "supermove":
            return 52 * self.decks
        free_cells = sum(1 for c in self.cell_indices if not piles[c])
        empty = max(0, sum(1 for t in self.tableau_indices if not piles[t] and self.can_take(piles, t)) - to_empty)
        return supermove(free_cells, empty)

    def iter_moves_from(self, state: State, src: str) -> Iterator[Move]:
        source = self.index_of.get(src)
        if source is None:
            return super().iter_moves_from(state, src)
        return self.iter_moves(state, source)

    @staticmethod
    def _only(indices: tuple[int, ...], source: int) -> tuple[int, ...]:
        return (source,) if source in indices else ()

    def iter_moves(self, state: State, source: int | None = None) -> Iterator[Move]:
        """Every legal move, or only those from pile index ``source``."""
        piles = state.piles
        one = self.one_card_moves
        T, C, waste = self.tableau_indices, self.cell_indices, self.waste_index          # where cards may come from
        if source is not None:
            T, C = self._only(T, source), self._only(C, source)
            waste = waste if source == waste else None
        givers = [t for t in T if piles[t] and self.can_give(piles, t)]
        singles = [(t, piles[t][-1]) for t in givers if not piles[t][-1] & FACE_DOWN]
        singles += [(c, piles[c][-1]) for c in C if piles[c]]
        if waste is not None and piles[waste]:
            singles.append((waste, piles[waste][-1]))

        wants, empty = self.foundation_wants(piles)
        start = self.foundation_start
        for src, card in singles:
            for f in (empty if card & 15 == start else wants.get(card, ())):
                yield one[src][f]

        fits_on = self.fits_on
        takes: dict[int, list[int]] = {}      # card -> the non-empty tableau piles it fits on
        empty_takers = []
        for dst in [t for t in self.tableau_indices if self.can_take(piles, t)]:
            if piles[dst]:
                for card in fits_on[piles[dst][-1]]:
                    takes.setdefault(card, []).append(dst)
            else:
                empty_takers.append(dst)
        limits = (self.group_limit(piles, False), self.group_limit(piles, True))
        for src in givers:
            yield from self._tableau_moves(piles, src, takes, empty_takers, limits)
        for src, card in singles:
            if src not in self.tableau_set:
                fitting = takes.get(card, []) + [d for d in empty_takers if self.empty_pile_takes(piles, d, card)]
                for dst in sorted(fitting):
                    yield one[src][dst]

        free_cells = [c for c in self.cell_indices if not piles[c]]
        if free_cells:
            for src, _ in singles:
                if src in self.tableau_set:
                    for c in free_cells:
                        yield one[src][c]

        stock, waste = self.stock_index, self.waste_index
        if self.draw and source in (None, stock, waste):
            assert stock is not None and waste is not None      # a game that draws has both
            if piles[stock]:
                if source in (None, stock):
                    yield self._DEAL
            elif source in (None, waste) and piles[waste] and \
                    (self.redeals is None or state.extra[0] < self.redeals):
                yield self._REDEAL
        extra = self.extra_moves(state)
        if source is None:
            yield from extra
        else:
            yield from (move for move in extra if self.index_of[move.src] == source)

    def fits_pile(self, piles: PileList, dst: int, card: int) -> bool:
        target = piles[dst]
        if target:
            return card in self.fits_on[target[-1]]
        return self.empty_pile_takes(piles, dst, card)

    def _tableau_moves(self, piles: PileList, src: int, takes: dict[int, list[int]], empty_takers: list[int],
                       limits: tuple[int, int]) -> Iterator[Move]:
        """Moves of the top cards of tableau pile ``src`` to other tableau piles, by
        destination then count; ``takes`` maps a card to the non-empty piles it fits on."""
        pile = piles[src]
        run = self.run_length(pile)
        found = [(dst, n) for n in range(1, min(run, limits[0]) + 1)
                 for dst in takes.get(pile[-n], ()) if dst != src]
        for dst in empty_takers:
            if dst != src:
                found += [(dst, n) for n in range(1, min(run, limits[1]) + 1)
                          if self.empty_pile_takes(piles, dst, pile[-n])]
        one, ids = self.one_card_moves[src], self.pile_ids
        for dst, n in sorted(found):
            yield one[dst] if n == 1 else Move(ids[src], ids[dst], n)

    def apply_legal(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        extra = state.extra
        if move.src == "stock" or move.dst == "stock":
            stock, waste = self.stock_index, self.waste_index
            assert stock is not None and waste is not None      # only a game that draws has a stock
            if move.src == "stock":
                turned = piles[stock][-self.draw:]
                piles[stock] = piles[stock][:-self.draw]
                piles[waste] = piles[waste] + tuple(c & ~FACE_DOWN for c in reversed(turned))
            else:
                piles[stock] = tuple(c | FACE_DOWN for c in reversed(piles[waste]))
                piles[waste] = ()
                extra = (extra[0] + 1,)
        else:
            s, d, n = self.index_of[move.src], self.index_of[move.dst], move.n
            moving = piles[s][-n:]
            piles[s] = piles[s][:-n]
            piles[d] = piles[d] + moving
            self.reveal(piles, s)
        return State(self, tuple(piles), extra)

    # ------------------------------------------------------- refusals
    def _refusal(self, state: State, move: Move) -> str | None:
        piles = state.piles
        src_kind = self.pile_kinds.get(move.src)
        dst_kind = self.pile_kinds.get(move.dst)
        if "stock" in (src_kind, dst_kind):
            return self._stock_refusal(state, move)
        if move.card is not None:
            return "cards are named only when taken from inside a Mutated Solitaire deck; give a count instead"
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
        assert stock is not None and waste is not None      # only a game that draws has a stock
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
        return f"foundations build {way} in suit: {self.pile_ids[d]} takes {wanted} next, not {card_name(card)}"

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
                    return (f"{card_name(over)} on {card_name(under)} is not a run {words}: "
                            "only such a run moves as a unit")
        target = piles[d]
        if target and not self.build.fits(target[-1], moving[0]):
            return (f"{card_name(moving[0])} does not fit on {card_name(target[-1])}: "
                    f"the tableau builds {words}")
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
        return (f"{n} cards cannot move together: with {free_cells} free cell{'s' * (free_cells != 1)} "
                f"and {empty} empty pile{'s' * (empty != 1)}{note}, at most {limit} can "
                f"((free cells + 1) x 2^(empty piles)), as many as could move card by card")

    # ------------------------------------------------------- positions
    def _extra_to_dict(self, extra: Extra) -> dict[str, object]:
        return {"redeals": extra[0]} if self.draw else {}

    def _extra_from_dict(self, d: dict[str, object]) -> Extra:
        if not self.draw:
            return ()
        used = d.get("redeals", 0)
        if isinstance(used, bool) or not isinstance(used, int) or used < 0:
            raise InvalidPosition(f"'redeals' (redeals used so far) must be a whole number >= 0, not {shown(used)}")
        if self.redeals is not None and used > self.redeals:
            raise InvalidPosition(f"'redeals' is {shown(used)}, but this game allows {self.redeals}")
        return (used,)

    def _check_position(self, piles: list[Pile], extra: Extra) -> None:
        for f in self.foundation_indices:
            self._check_foundation(self.pile_ids[f], piles[f])
        for c in self.cell_indices:
            if len(piles[c]) > 1:
                raise InvalidPosition(f"{self.pile_ids[c]} holds {len(piles[c])} cards: a cell holds one")
        for i, pile in enumerate(piles):
            kind = self.pile_kinds[self.pile_ids[i]]
            pid = self.pile_ids[i]
            down = [c for c in pile if c & FACE_DOWN]
            if kind == "stock":
                if len(down) != len(pile):
                    raise InvalidPosition("every stock card is face down: write them as [QH]")
            elif down and (kind != "tableau" or not self.face_down_cards):
                raise InvalidPosition(f"{pid} holds face-down card {card_name(down[0])}, "
                                      f"but {self.name} has no face-down cards there")
            elif kind == "tableau" and pile and pile[-1] & FACE_DOWN and self.can_give(piles, i):
                raise InvalidPosition(f"the top card of {pid} is face down: it would have been turned up")

    def _check_foundation(self, pid: str, pile: Pile) -> None:
        if not pile:
            return
        if any(c & FACE_DOWN for c in pile):
            raise InvalidPosition(f"{pid}: foundation cards lie face up")
        start = "A" if self.foundation_start == ACE else "K"
        if rank_of(pile[0]) != self.foundation_start:
            raise InvalidPosition(f"{pid} is not a legal foundation: it must start with a{'n' * (start == 'A')} "
                                  f"{'Ace' if start == 'A' else 'King'}, not {card_name(pile[0])}")
        for under, over in itertools.pairwise(pile):
            if suit_of(under) != suit_of(over) or rank_of(over) - rank_of(under) != self.step:
                raise InvalidPosition(f"{pid} is not a legal foundation: {card_name(over)} cannot go on "
                                      f"{card_name(under)} (foundations build {'up' if self.step > 0 else 'down'} in suit)")

    def key(self, state: State) -> Hashable:
        """Cells, foundations and (when symmetric) tableau piles taken as sets."""
        piles = state.piles
        cells = tuple(sorted(piles[c] for c in self.cell_indices))
        founds = tuple(sorted(piles[f] for f in self.foundation_indices))
        tableau = tuple(piles[t] for t in self.tableau_indices)
        if self.symmetric_tableau:
            tableau = tuple(sorted(tableau))
        rest = tuple(piles[i] for i in (self.stock_index, self.waste_index) if i is not None)
        extra = state.extra if self.redeals is not None else ()
        return founds, cells, tableau, rest, extra

    # ------------------------------------------------------- deals
    def _deal_rows(self, cards: list[int], faces: list[bool]) -> tuple[list[list[int]], list[int]]:
        """Deal rows left to right by pile id, one row per entry of ``faces`` (True: face up);
        return the columns and the cards left over."""
        columns: list[list[int]] = [[] for _ in self.tableau_indices]
        it = iter(cards)
        for up in faces:
            for col in columns:
                card = next(it)
                col.append(card if up else face_down(card))
        return columns, list(it)

    def _state(self, columns: list[list[int]], stock: Sequence[int] = (), waste: Sequence[int] = ()) -> State:
        piles: list[Pile] = [()] * len(self.pile_ids)
        for t, col in zip(self.tableau_indices, columns):
            piles[t] = tuple(col)
        if self.stock_index is not None and self.waste_index is not None:
            piles[self.stock_index] = tuple(face_down(c) for c in reversed(stock))
            piles[self.waste_index] = tuple(waste)
        return State(self, tuple(piles), (0,) if self.draw else ())

    # ------------------------------------------------------- layout
    def layout(self) -> Layout:
        """The top row (stock and waste, cells, foundations) above a row of fanned piles.

        ``narrower`` holds arrangements for narrow screens, widest first: where the top row
        is wider than the tableau, the foundations folded into lines beneath one another, so
        that the board is no wider than its tableau (or as near as the foundations allow);
        then, for a tableau of more than five piles, every row wrapped at half the tableau's
        width (the tableau in two rows, the second pushed down as the first's fans grow)."""
        head = ["stock", "waste", None] if self.draw else []
        head += [self.pile_ids[c] for c in self.cell_indices]
        if self.cell_indices:
            head.append(None)
        foundations = [self.pile_ids[f] for f in self.foundation_indices]
        layout = self._arranged(head, [foundations])
        narrower = []
        room = len(self.tableau_indices) - len(head)          # foundation slots a line has beside the head
        if len(head) + len(foundations) > len(self.tableau_indices) and room >= 1:
            lines = -(-len(foundations) // room)
            size = -(-len(foundations) // lines)
            narrower.append(self._arranged(head, [foundations[k:k + size] for k in range(0, len(foundations), size)]))
        if len(self.tableau_indices) > 5:
            narrower.append(self._wrapped([*head, *foundations], -(-len(self.tableau_indices) // 2)))
        if narrower:
            layout["narrower"] = [{"width": other["width"], "height": other["height"],
                                   "places": {p["id"]: [p["x"], p["y"]] for p in other["piles"]}}
                                  for other in narrower]
        return layout

    def _wrapped(self, top: list[str | None], columns: int) -> Layout:
        """Every row wrapped at ``columns`` piles: ``top`` (pile ids, None for a gap, which
        never starts a line) in lines of stacks, then the tableau in lines beneath them, each
        line of the tableau a card and a little room below the one above (geometry's row
        shifts push it further down as the fans above it grow)."""
        step = 1 + PILE_GAP
        lines: list[list[str | None]] = [[]]
        for pid in top:
            if len(lines[-1]) == columns:
                lines.append([])
            if pid is not None or lines[-1]:
                lines[-1].append(pid)
        piles = [self._pile_layout(pid, x * step, row * (CARD_ASPECT + ROW_GAP), "none")
                 for row, line in enumerate(lines) for x, pid in enumerate(line) if pid]
        tableau_y = len(lines) * (CARD_ASPECT + ROW_GAP)
        line_step = CARD_ASPECT + ROW_GAP + 1.0
        for k, t in enumerate(self.tableau_indices):
            row, x = divmod(k, columns)
            piles.append(self._pile_layout(self.pile_ids[t], x * step, round(tableau_y + row * line_step, 3), "down"))
        rows = -(-len(self.tableau_indices) // columns)
        height = tableau_y + (rows - 1) * line_step + CARD_ASPECT + FAN_ROOM
        return {"width": round(columns * step - PILE_GAP, 3), "height": round(height, 3), "piles": piles}

    def _arranged(self, head: list[str | None], lines: list[list[str]]) -> Layout:
        """The layout with ``head`` (pile ids, None for a gap) then the first line of
        foundations in the top row, the other lines beneath it, and the tableau centred
        beneath them all."""
        step = 1 + PILE_GAP
        line_step = CARD_ASPECT + ROW_GAP
        slots = max(len(head) + max(map(len, lines)), len(self.tableau_indices))
        width = slots * step - PILE_GAP
        piles = [self._pile_layout(pid, x * step, 0, "none") for x, pid in enumerate(head) if pid]
        for row, line in enumerate(lines):
            piles += [self._pile_layout(pid, (len(head) + x) * step, row * line_step, "none")
                      for x, pid in enumerate(line)]
        offset = (width - (len(self.tableau_indices) * step - PILE_GAP)) / 2
        tableau_y = len(lines) * line_step
        for x, t in enumerate(self.tableau_indices):
            piles.append(self._pile_layout(self.pile_ids[t], offset + x * step, tableau_y, "down"))
        return {"width": round(width, 3), "height": round(tableau_y + CARD_ASPECT + FAN_ROOM, 3), "piles": piles}

    def _pile_layout(self, pid: str, x: float, y: float, fan: str) -> PileLayout:
        kind = self.pile_kinds[pid]
        empty = {"foundation": "A" if self.foundation_start == ACE else "K",
                 "tableau": {"any": "", "king": "K", "none": "×"}[self.empty_takes],
                 "stock": "↻" if self.redeals != 0 else ""}.get(kind, "")
        return {"id": pid, "kind": kind, "x": round(x, 3), "y": round(y, 3), "fan": fan,
                "z": 0, "empty": empty, "covered_by": []}
