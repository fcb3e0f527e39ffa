"""The solver: best-first search over any game's positions, steppable, with sound "lost" answers.

result = solve(state, max_states=100_000)      # SolveResult: status, moves, progress
solver = Solver(state); solver.step(1000)       # the same search, a step at a time
hint(state)                                     # a move to try, and whether it wins
"""

from .hint import hint
from .profile import safe_moves
from .result import Hint, Progress, SolveResult
from .search import Solver, solve

__all__ = ["Hint", "Progress", "SolveResult", "Solver", "hint", "safe_moves", "solve"]
