"""solwidget: solitaire in Jupyter, with a rules engine, a solver and a widget.

    import solwidget as sw
    state = sw.load_game("reversed_solitaire").deal(1)
    state = state.play(state.legal_moves()[0])
"""

from .engine import (Game, IllegalMove, InvalidArgument, InvalidDeal, InvalidMoveText, InvalidPosition, Move,
                     SolwidgetError, State, UnknownGame, games, load_game)
from .solver import Hint, Progress, SolveResult, Solver, hint, safe_moves, solve
from .study import StudyError, StudyTable, load_study, study

__version__ = "0.1.0"

__all__ = ["Game", "IllegalMove", "InvalidArgument", "InvalidDeal", "InvalidMoveText", "InvalidPosition", "Move",
           "SolwidgetError", "State", "UnknownGame", "games", "load_game",
           "StudyError", "StudyTable", "load_study", "study",
           "Hint", "Progress", "SolveResult", "Solver", "hint", "safe_moves", "solve"]


def __getattr__(name):
    # The widget needs anywidget (the "widget" extra); the engine never does.
    if name == "SolitaireWidget":
        from .widget.widget import SolitaireWidget
        return SolitaireWidget
    raise AttributeError(f"module 'solwidget' has no attribute {name!r}")
