"""What the solver knows of the Interchange family (solver/profile.py's contract)."""

from __future__ import annotations

from ...solver.budget import SearchOptions
from ...solver.profile import Profile, register_profile
from . import reductions
from .expander import InterchangeExpander, InterchangeFamilyExpander, fast_path
from .native import NativeSearch
from .rules import Interchange, QuadrupleInterchange, SingleInterchange, TripleInterchange, Unlimited

# The games with the bridges: two weighted A* searches that count a face-down card six times
# and a blocker three times (a hidden card is most of the work); the second, deeper,
# explores a tenth of its pops (docs/solver.md).
BRIDGED_PORTFOLIO: tuple[SearchOptions, ...] = (
    {"depth_weight": 0.5, "weights": {"down": 6.0, "blockers": 3.0}},
    {"depth_weight": 1.0, "explore": 0.1, "weights": {"down": 6.0, "blockers": 3.0}},
)

# Interchange's one pass: its deals are mostly lost, and a loss is proved only when a search
# has expanded every reachable position. Its expander pools no proofs, so each search of a
# pair would walk them all, and a pair proves a loss after about twice the expansions.
ONE_PASS_PORTFOLIO: tuple[SearchOptions, ...] = BRIDGED_PORTFOLIO[:1]


class InterchangeProfile(Profile):
    """The family's reductions where their lemmas hold, made from the piles where they can."""

    native = NativeSearch

    def lemmas(self, game) -> dict[str, bool]:
        """The dead ends' and the bridges' lemmas (reductions.py): in-suit runs down, any card
        or a King to an empty pile, foundations from the Ace; for the bridges, a draw-one
        stock with unlimited redeals too."""
        return {"dead ends": reductions.applies(game), "bridges": reductions.bridges_apply(game)}

    def portfolio_for(self, game) -> tuple[SearchOptions, ...]:
        """BRIDGED_PORTFOLIO where the bridges hold (all but Interchange's one pass),
        ONE_PASS_PORTFOLIO with one pass and no redeal."""
        if reductions.bridges_apply(game):
            return BRIDGED_PORTFOLIO
        return ONE_PASS_PORTFOLIO if game.redeals == 0 else super().portfolio_for(game)

    def expander(self, game, weights=None, autoplay=True, compress=True):
        cls = InterchangeExpander if fast_path(game, compress) else InterchangeFamilyExpander
        return cls(game, weights, autoplay, compress)


class TripleInterchangeProfile(InterchangeProfile):
    # The pair decides most deals within 30,000 expansions; a deal still open past them is
    # mostly one to prove lost, which one search proves sooner than two that keep their own
    # tables (docs/solver.md, "Pooled proofs").
    alone_after = 30_000


register_profile(InterchangeProfile(), Interchange, Unlimited, SingleInterchange, QuadrupleInterchange)
register_profile(TripleInterchangeProfile(), TripleInterchange)
