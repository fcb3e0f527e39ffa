"""Mutated Solitaire: Klondike's cards in three rows of five spaces and three decks."""

from . import profile, rules  # noqa: F401 - importing them registers the game and its profile
