"""Interlock's family: Interlock (seed), Love a Duck, Guardian."""

from . import profile, rules  # noqa: F401 - importing them registers the games and their profile
