"""The catalogue: one package per family of games, each with its rules and what the solver
knows of it. Importing a family registers its games (in the order ``games()`` lists them)
and its solver profile."""

from . import freecell, interchange, interlock, mutated  # noqa: F401
