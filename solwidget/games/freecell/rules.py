"""The FreeCell family: Reversed Solitaire (seed), Inverted FreeCell, classic FreeCell.

The legal moves come from moves.py, the one move generator that the solver shares
(expander.py), wherever it holds; elsewhere (a variant without free cells or supermoves,
say) from ``Patience.iter_moves``, whose moves and order it keeps.
"""

from collections.abc import Iterator, Mapping
from typing import ClassVar

from ...engine.cards import ACE, KING
from ...engine.moves import Move
from ...engine.patience import Build, Patience
from ...engine.registry import register
from ...engine.state import State
from .moves import CellsMoves, fits

ENGINE_RUNS_KEPT = 20_000  # piles whose runs the engine's generator keeps, a game
ENGINE_FACTS_KEPT = 64  # and foundations whose facts: a line played or replayed
# keeps them for moves at a time, and a long-lived
# cache costs the collector more than it saves


class _FreeCellFamily(Patience):
    tableau_piles = 8
    cells = 4
    group = "supermove"
    empty_takes = "any"
    option_defaults: ClassVar[Mapping[str, object]] = {"cells": 4}

    def _deal(self, cards):
        columns: list[list[int]] = [[] for _ in self.tableau_indices]
        for i, card in enumerate(cards):  # 52 cards round the piles: 7,7,7,7,6,6,6,6 for 8
            columns[i % len(columns)].append(card)
        return self._state(columns)

    def _prepare_tables(self) -> None:
        super()._prepare_tables()
        # moves.py's generator, where its shape holds
        self.generator = CellsMoves(self, ENGINE_RUNS_KEPT, ENGINE_FACTS_KEPT) if fits(self) else None

    def iter_moves(self, state: State, source: int | None = None) -> Iterator[Move]:
        """Every legal move, or only those from pile index ``source``: moves.py's, in
        ``Patience.iter_moves``' order."""
        if self.generator is None:
            return super().iter_moves(state, source)
        return (plan[0] for plan in self.generator.plans(state.piles, True, source))

    def _allows(self, state: State, move: Move) -> bool:
        """moves.py's generator, asked of the one move (``CellsMoves.allows``)."""
        if self.generator is None:
            return super()._allows(state, move)
        src, dst = self.index_of.get(move.src), self.index_of.get(move.dst)
        return (
            src is not None
            and dst is not None
            and move.card is None
            and self.generator.allows(state.piles, src, dst, move.n)
        )


@register
class ReversedSolitaire(_FreeCellFamily):
    id = "reversed_solitaire"
    name = "Reversed Solitaire"
    build = Build(-1, "alternate")
    foundation_start = KING
    tagline = "FreeCell reversed: foundations King to Ace, tableau down in alternating colours"
    summary = (
        "8 piles dealt face up (4 of 7, 4 of 6), 4 cells, 4 foundations. Foundations build down "
        "in suit from King to Ace; any King starts an empty one. The tableau builds down in "
        "alternating colours; an empty pile takes any card. Cards move one at a time, or as a "
        "run when the free cells and empty piles would allow it card by card."
    )


@register
class InvertedFreeCell(_FreeCellFamily):
    id = "inverted_freecell"
    name = "Inverted FreeCell"
    build = Build(+1, "alternate")
    foundation_start = KING
    tagline = "Warfield's original: foundations King to Ace, tableau up in alternating colours"
    summary = (
        "Reversed Solitaire as Thomas Warfield made it: foundations down in suit from King, "
        "the tableau builds up in alternating colours; 4 cells; an empty pile takes any card."
    )


@register
class FreeCell(_FreeCellFamily):
    id = "freecell"
    name = "FreeCell"
    build = Build(-1, "alternate")
    foundation_start = ACE
    tagline = "Microsoft FreeCell: 4 cells, foundations Ace to King, Microsoft's deals"
    summary = (
        "Microsoft FreeCell: 8 piles dealt face up, 4 cells, foundations up in suit from Ace. "
        "The tableau builds down in alternating colours; an empty pile takes any card; runs "
        "move as far as free cells and empty piles allow."
    )
