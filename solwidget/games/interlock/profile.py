"""What the solver knows of Interlock's family (solver/profile.py's contract)."""

from __future__ import annotations

from ...solver.budget import SearchOptions
from ...solver.profile import Profile, register_profile
from . import bridges, deadends, explain
from .expander import InterlockExpander, InterlockFamilyExpander, fast_path
from .native import NativeSearch
from .rules import Guardian, Interlock, InterlockFamily, LoveADuck

# The family: the work is digging out the cards under the front layers, so one search counts
# a card in a covered pile as much as a card not yet home, and explores (docs/solver.md).
INTERLOCK_PORTFOLIO: tuple[SearchOptions, ...] = (
    {"depth_weight": 0.5, "explore": 0.3, "weights": {"covered": 8.0}},
)

# Love a Duck's hard wins lie off the search's best line, so its search explores more: it
# wins sooner, and proves a loss after as many expansions, each a little dearer.
LOVE_A_DUCK_PORTFOLIO: tuple[SearchOptions, ...] = ({**INTERLOCK_PORTFOLIO[0], "explore": 0.4},)

# Guardian's deals are mostly lost, and a search that does not explore proves a loss after as
# many expansions, each cheaper.
GUARDIAN_PORTFOLIO: tuple[SearchOptions, ...] = ({**INTERLOCK_PORTFOLIO[0], "explore": 0.0},)


class InterlockFamilyProfile(Profile):
    """The family's reductions where their lemmas hold, made from the piles where they can."""

    native = NativeSearch
    portfolio = INTERLOCK_PORTFOLIO

    def lemmas(self, game) -> dict[str, bool]:
        """The key's lemma (keys.py: uncovered back piles play alike) holds in every game of
        the family; the bridges' and the dead ends' only where ``applies`` says so."""
        return {
            "back piles alike": isinstance(game, InterlockFamily),
            "bridges": bridges.applies(game),
            "dead ends": deadends.applies(game),
        }

    def portfolio_for(self, game) -> tuple[SearchOptions, ...]:
        """Love a Duck's and Guardian's own portfolios, INTERLOCK_PORTFOLIO for the others."""
        if isinstance(game, LoveADuck):
            return LOVE_A_DUCK_PORTFOLIO
        return GUARDIAN_PORTFOLIO if isinstance(game, Guardian) else self.portfolio

    def expander(self, game, weights=None, autoplay=True, compress=True):
        cls = InterlockExpander if fast_path(game, compress) else InterlockFamilyExpander
        return cls(game, weights, autoplay, compress)

    def explain_dead_end(self, state):
        """The plain dead-end closure's reason in card words (explain.py), where it decides."""
        return explain.explain_dead_end(state.game, state)


register_profile(InterlockFamilyProfile(), Interlock, LoveADuck, Guardian)
