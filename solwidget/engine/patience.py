"""The shared building blocks of patience games: foundations, tableau, cells, stock.

Most games are a ``Patience`` subclass that only sets parameters (how the tableau builds,
which groups move, what an empty pile takes, the stock) and deals. Games with odd rules
(Interlock's covering) override the few hooks marked below. Why a move is refused, in
words, is ``patience_refusals``'; where the piles sit, ``patience_layout``'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import NamedTuple

from .cards import ACE, FACE_DOWN, KING, card_name, face_down, is_red, rank_of, suit_of
from .checks import shown
from .errors import InvalidOption, InvalidPosition
from .game import Game
from .moves import Move
from .patience_layout import PatienceLayout
from .patience_refusals import PatienceRefusals
from .state import Extra, Pile, PileList, State


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
        return {
            "alternate": f"{way} in alternating colours",
            "same": f"{way} in suit",
            "any": f"{way} regardless of suit",
        }[self.suits]


def supermove(free_cells: int, empty_piles: int) -> int:
    """How many cards may move as a unit with these free cells and empty piles (not counting
    the one they go to): as many as could move one at a time through them."""
    return (free_cells + 1) << empty_piles


class Patience(PatienceRefusals, PatienceLayout, Game):
    # ------------------------------------------------------- the parameters
    tableau_piles: int = 8
    build: Build = Build(-1, "alternate")
    group: str = "supermove"  # one | supermove | run | yukon: which groups move as a unit
    empty_takes: str = "any"  # any | king | none: what an empty tableau pile takes
    foundation_start: int = ACE  # ACE builds up in suit, KING builds down in suit
    cells: int = 0
    draw: int = 0  # cards turned by "stock waste"; 0: no stock
    redeals: int | None = None  # None: unlimited passes; 0: one pass
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
        fits_on = self.fits_on  # face-down cards fit on nothing and take nothing

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
    def goes_home(self, foundation: Pile, card: int) -> bool:
        """Does ``card`` go on this foundation next: the next rank of its suit, or the
        first rank on an empty foundation?"""
        if foundation:
            top = foundation[-1]
            return (top ^ card) & 0x30 == 0 and (card & 15) - (top & 15) == self.step
        return card & 15 == self.foundation_start

    def foundations_for(self, piles: PileList, card: int) -> Iterator[int]:
        """The foundations where ``card`` may go."""
        for f in self.foundation_indices:
            if self.goes_home(piles[f], card):
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
        empty = max(
            0, sum(1 for t in self.tableau_indices if not piles[t] and self.can_take(piles, t)) - to_empty
        )
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
        T, C, waste = self.tableau_indices, self.cell_indices, self.waste_index  # where cards may come from
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
            for f in empty if card & 15 == start else wants.get(card, ()):
                yield one[src][f]

        fits_on = self.fits_on
        takes: dict[int, list[int]] = {}  # card -> the non-empty tableau piles it fits on
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
                fitting = takes.get(card, []) + [
                    d for d in empty_takers if self.empty_pile_takes(piles, d, card)
                ]
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
            assert stock is not None and waste is not None  # a game that draws has both
            if piles[stock]:
                if source in (None, stock):
                    yield self._DEAL
            elif (
                source in (None, waste)
                and piles[waste]
                and (self.redeals is None or state.extra[0] < self.redeals)
            ):
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

    def _tableau_moves(
        self,
        piles: PileList,
        src: int,
        takes: dict[int, list[int]],
        empty_takers: list[int],
        limits: tuple[int, int],
    ) -> Iterator[Move]:
        """Moves of the top cards of tableau pile ``src`` to other tableau piles, by
        destination then count; ``takes`` maps a card to the non-empty piles it fits on."""
        pile = piles[src]
        run = self.run_length(pile)
        found = [
            (dst, n)
            for n in range(1, min(run, limits[0]) + 1)
            for dst in takes.get(pile[-n], ())
            if dst != src
        ]
        for dst in empty_takers:
            if dst != src:
                found += [
                    (dst, n)
                    for n in range(1, min(run, limits[1]) + 1)
                    if self.empty_pile_takes(piles, dst, pile[-n])
                ]
        one, ids = self.one_card_moves[src], self.pile_ids
        for dst, n in sorted(found):
            yield one[dst] if n == 1 else Move(ids[src], ids[dst], n)

    def apply_legal(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        extra = state.extra
        if move.src == "stock" or move.dst == "stock":
            stock, waste = self.stock_index, self.waste_index
            assert stock is not None and waste is not None  # only a game that draws has a stock
            if move.src == "stock":
                turned = piles[stock][-self.draw :]
                piles[stock] = piles[stock][: -self.draw]
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

    # ------------------------------------------------------- positions
    def _extra_to_dict(self, extra: Extra) -> dict[str, object]:
        return {"redeals": extra[0]} if self.draw else {}

    def _extra_from_dict(self, d: dict[str, object]) -> Extra:
        if not self.draw:
            return ()
        used = d.get("redeals", 0)
        if isinstance(used, bool) or not isinstance(used, int) or used < 0:
            raise InvalidPosition(
                f"'redeals' (redeals used so far) must be a whole number >= 0, not {shown(used)}"
            )
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
                raise InvalidPosition(
                    f"{pid} holds face-down card {card_name(down[0])}, "
                    f"but {self.name} has no face-down cards there"
                )
            elif kind == "tableau" and pile and pile[-1] & FACE_DOWN and self.can_give(piles, i):
                raise InvalidPosition(f"the top card of {pid} is face down: it would have been turned up")

    def _check_foundation(self, pid: str, pile: Pile) -> None:
        if not pile:
            return
        if any(c & FACE_DOWN for c in pile):
            raise InvalidPosition(f"{pid}: foundation cards lie face up")
        start = "A" if self.foundation_start == ACE else "K"
        if rank_of(pile[0]) != self.foundation_start:
            raise InvalidPosition(
                f"{pid} is not a legal foundation: it must start with a{'n' * (start == 'A')} "
                f"{'Ace' if start == 'A' else 'King'}, not {card_name(pile[0])}"
            )
        for under, over in itertools.pairwise(pile):
            if suit_of(under) != suit_of(over) or rank_of(over) - rank_of(under) != self.step:
                raise InvalidPosition(
                    f"{pid} is not a legal foundation: {card_name(over)} cannot go on "
                    f"{card_name(under)} (foundations build {'up' if self.step > 0 else 'down'} in suit)"
                )

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
