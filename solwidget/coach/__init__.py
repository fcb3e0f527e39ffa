"""The solver as a coach: is a position still winnable, which move lost the game, why a
position is lost, and deals known to be winnable, with their difficulty.

    judge = Judge(max_seconds=1.0); judge.judge(state).status   # "winnable", "lost", "not known yet"
    report = review(state, moves); report.first_losing           # the move that lost it
    winnable_deals("interlock", 5)                               # deal numbers the solver has won
"""

from .deals import Difficulty, difficulty, winnable_deals
from .judge import LOST, UNKNOWN, WINNABLE, Judge, Verdict
from .review import Crossroads, MoveReview, Review, review

__all__ = [
    "LOST",
    "UNKNOWN",
    "WINNABLE",
    "Judge",
    "Verdict",
    "Crossroads",
    "MoveReview",
    "Review",
    "review",
    "Difficulty",
    "difficulty",
    "winnable_deals",
]
