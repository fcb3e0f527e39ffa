"""What a variant of Mutated Solitaire may change (``sw.variant``, docs/variants.md): nothing.
Its rows, decks and flips are its own code, not the engine's parameters."""

from ...engine.variation import Variation
from .rules import MutatedSolitaire

VARIATION = Variation(
    MutatedSolitaire, changes=(), otherwise="its rules are its own, not the engine's parameters"
)
