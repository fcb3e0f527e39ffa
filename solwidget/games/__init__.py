"""The rules of every game, one module per family; importing a module registers its games, in the order ``games()`` lists them."""

from . import freecell, interchange  # noqa: F401
from . import interlock  # noqa: F401
from . import mutated  # noqa: F401
