"""The Interchange family: Triple Interchange (seed) and its relatives (docs/rules.md, Triple Interchange).

The legal moves come from moves.py, the one move generator that the solver shares
(expander.py), wherever it holds; elsewhere (a variant with free cells, say) from
``Patience.iter_moves``, whose moves and order it keeps.
"""

from collections.abc import Iterator

from ...engine.moves import Move
from ...engine.patience import Build, Patience
from ...engine.registry import register
from ...engine.state import State
from .moves import Moves, fits


class InterchangeFamily(Patience):
    build = Build(-1, "same")
    group = "run"
    draw = 1
    face_down_cards = True

    def _prepare_tables(self) -> None:
        super()._prepare_tables()
        self.generator = Moves(self) if fits(self) else None  # moves.py's, where it holds

    def iter_moves(self, state: State, source: int | None = None) -> Iterator[Move]:
        """Every legal move, or only those from pile index ``source``: moves.py's, in
        ``Patience.iter_moves``' order."""
        if self.generator is None:
            return super().iter_moves(state, source)
        return (plan[0] for plan in self.generator.plans(state.piles, state.extra, True, source))

    def _deal(self, cards):
        columns, rest = self._deal_rows(cards, deal_faces(self.tableau_piles))
        return self._state(columns, stock=rest[1:], waste=rest[:1])


def deal_faces(rows: int) -> list[bool]:
    """Which rows of the deal lie face up (True), from the bottom: counting from the first
    card dealt, odd cards face up and even ones face down, and the top card face up, since
    a face-down card on top of a pile is turned up (docs/rules.md). With an odd number of
    rows the top row is odd anyway; with an even number (a variant's piles) the last two
    rows both lie face up."""
    return [row % 2 == 0 or row == rows - 1 for row in range(rows)]


def _tagline(decks, piles, empty, passes):
    return f"{decks} deck{'s' * (decks > 1)}, {piles} piles, down in suit; spaces take {empty}; {passes}"


def _summary(decks, piles, empty, passes):
    return (
        f"{decks} deck{'s' * (decks > 1)}, {4 * decks} foundations: any Ace starts an empty one, "
        f"then up in suit to King; cards never come back. {piles} piles of {piles} cards, "
        f"alternately face up and face down; build down in suit, and a run in suit moves as a "
        f"unit; an empty pile takes {empty}. The stock turns one card at a time, {passes}."
    )


@register
class TripleInterchange(InterchangeFamily):
    id = "triple_interchange"
    name = "Triple Interchange"
    decks = 3
    tableau_piles = 9
    empty_takes = "any"
    redeals = None
    tagline = _tagline(3, 9, "any card", "unlimited passes")
    summary = _summary(3, 9, "any card or run", "unlimited passes")


@register
class Interchange(InterchangeFamily):
    id = "interchange"
    name = "Interchange"
    decks = 2
    tableau_piles = 7
    empty_takes = "king"
    redeals: int | None = 0
    tagline = _tagline(2, 7, "only Kings", "one pass")
    summary = _summary(2, 7, "only a King or a run headed by a King", "one pass")


@register
class Unlimited(Interchange):
    id = "unlimited"
    name = "Unlimited"
    redeals = None
    tagline = _tagline(2, 7, "only Kings", "unlimited passes")
    summary = _summary(2, 7, "only a King or a run headed by a King", "unlimited passes")


@register
class SingleInterchange(InterchangeFamily):
    id = "single_interchange"
    name = "Single Interchange"
    decks = 1
    tableau_piles = 5
    empty_takes = "king"
    redeals = None
    tagline = _tagline(1, 5, "only Kings", "unlimited passes")
    summary = _summary(1, 5, "only a King or a run headed by a King", "unlimited passes")


@register
class QuadrupleInterchange(InterchangeFamily):
    id = "quadruple_interchange"
    name = "Quadruple Interchange"
    decks = 4
    tableau_piles = 11
    empty_takes = "any"
    redeals = None
    tagline = _tagline(4, 11, "any card", "unlimited passes")
    summary = _summary(4, 11, "any card or run", "unlimited passes")
