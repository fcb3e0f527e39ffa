"""The rules engine: cards, moves, states, games. Knows nothing of Jupyter."""

from .cards import card_name, parse_card
from .errors import (
    IllegalMove,
    InvalidArgument,
    InvalidDeal,
    InvalidMoveText,
    InvalidOption,
    InvalidPosition,
    SolwidgetError,
    UnknownGame,
)
from .game import Game
from .moves import Move
from .registry import games, load_game, register
from .state import State

__all__ = [
    "Game",
    "IllegalMove",
    "InvalidArgument",
    "InvalidDeal",
    "InvalidMoveText",
    "InvalidOption",
    "InvalidPosition",
    "Move",
    "SolwidgetError",
    "State",
    "UnknownGame",
    "card_name",
    "games",
    "load_game",
    "parse_card",
    "register",
]
