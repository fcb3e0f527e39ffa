"""What the solver knows of Mutated Solitaire (solver/profile.py's contract)."""

from __future__ import annotations

from ...solver.budget import SearchOptions
from ...solver.profile import Profile, register_profile
from . import explain
from .expander import MutatedExpander, settle
from .native import NativeSearch
from .rules import MutatedSolitaire

# Three searches that weigh orphans (docs/solver.md): a weighted A*, a greedy search leaning
# on face-down deck cards rather than rows and exploring a tenth of its pops, and the greedy
# one's weights with a small depth weight, exploring half: the positions of rare kinds it
# reaches are the way off the plateaus where the other two stall.
MUTATED_PORTFOLIO: tuple[SearchOptions, ...] = (
    {"depth_weight": 0.5, "weights": {"orphans": 8.0}},
    {"depth_weight": 0.0, "explore": 0.1, "weights": {"rows": 0.25, "decks": 1.0, "orphans": 8.0}},
    {"depth_weight": 0.2, "explore": 0.5, "weights": {"rows": 0.25, "decks": 1.0, "orphans": 8.0}},
)


class MutatedProfile(Profile):
    portfolio = MUTATED_PORTFOLIO
    native = NativeSearch

    def lemmas(self, game) -> dict[str, bool]:
        """Mutated Solitaire's rules are code, not parameters: any game of its class has them."""
        return {"settled cards stay home": isinstance(game, MutatedSolitaire)}

    def expander(self, game, weights=None, autoplay=True, compress=True):
        return MutatedExpander(game, weights, autoplay, compress)

    def explain_dead_end(self, state):
        """The coach's dead-end closure's reason in card words (explain.py), where it decides."""
        return explain.explain_dead_end(state)

    def safe_moves(self, state):
        """The search's own safe moves home (expander.py proves them): a card comes back
        from the foundations here, so the generic rule does not hold."""
        return settle(state)[1]

    def key_bytes(self, game) -> int:
        return 220  # the expander's key: about 111 bytes, and a set's slots


register_profile(MutatedProfile(), MutatedSolitaire)
