"""solwidget: solitaire in Jupyter, with a rules engine, a solver and a widget.

import solwidget as sw
state = sw.load_game("reversed_solitaire").deal(1)
state = state.play(state.legal_moves()[0])
"""

import importlib
from importlib import metadata

from . import compiled

compiled.install()  # before any other module of the package: see compiled.py

# The catalogue first: importing it registers every game and its solver profile. The
# package solwidget.games shares its name with the function games(), bound after it.
importlib.import_module(".games", __name__)

from .coach import Difficulty, Judge, Review, Verdict, difficulty, review, winnable_deals
from .engine import (
    Game,
    IllegalMove,
    InvalidArgument,
    InvalidDeal,
    InvalidMoveText,
    InvalidPosition,
    Move,
    SolwidgetError,
    State,
    UnknownGame,
    games,
    load_game,
)
from .extras import MissingExtra
from .solver import Hint, Progress, Solver, SolveResult, hint, safe_moves, solve
from .study import StudyError, StudyTable, load_study, study
from .variants import InvalidVariant, Variant, load_variant, variant, variant_from_dict

try:
    __version__ = metadata.version("solwidget")  # written once, in pyproject.toml
except metadata.PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Game",
    "IllegalMove",
    "InvalidArgument",
    "InvalidDeal",
    "InvalidMoveText",
    "InvalidPosition",
    "Move",
    "SolwidgetError",
    "State",
    "UnknownGame",
    "games",
    "load_game",
    "MissingExtra",
    "StudyError",
    "StudyTable",
    "load_study",
    "study",
    "Hint",
    "Progress",
    "SolveResult",
    "Solver",
    "hint",
    "safe_moves",
    "solve",
    "InvalidVariant",
    "Variant",
    "load_variant",
    "variant",
    "variant_from_dict",
    "Difficulty",
    "Judge",
    "Review",
    "Verdict",
    "difficulty",
    "review",
    "winnable_deals",
]


from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for type checkers and the API reference; at run time, __getattr__ below
    from .widget.widget import SolitaireWidget  # noqa: F401


def __getattr__(name):
    # The widget needs anywidget (the "widget" extra); the engine never does.
    if name == "SolitaireWidget":
        from .widget import SolitaireWidget

        return SolitaireWidget
    raise AttributeError(f"module 'solwidget' has no attribute {name!r}")
