"""Shorter, more teachable wins: cheap rewrites of a winning line, each checked by the rules.

1. Loops: when the line passes through the same position twice, the moves between go
   (a full turn of the stock, with unlimited redeals, is such a loop).
2. Detours: a card (or group) moved by move i and next moved by move j, from where move i
   put it, is tried three ways, and the first that works is kept:
   - straight to its final place at time i ("t1 c0 ... c0 t5" becomes "t1 t5 ..."),
   - straight to its final place at time j (move i dropped),
   - not at all, when move j only brings it back.
   A rewrite is kept only when every rewritten move is legal (the engine's move generator)
   and the position after the rewritten stretch is exactly the one the old line reached
   there: the rest of the line then plays as before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import State

MAX_PASSES = 4


def _positions(game: Game, start: State, moves: Iterable[Move]) -> list[State]:
    states = [start]
    for move in moves:
        states.append(game.apply_legal(states[-1], move))
    return states


def _loop_id(game: Game) -> Callable[[State], Hashable]:
    """What must repeat for the moves between to be a loop: the whole state, or only the
    piles when the game allows unlimited redeals (the redeals counted then change nothing)."""
    if isinstance(game, Patience) and game.draw and game.redeals is None:
        return lambda state: state.piles
    return lambda state: state


def drop_loops(game: Game, start: State, moves: list[Move], states: list[State] | None = None) -> list[Move]:
    states = states or _positions(game, start, moves)
    ident = _loop_id(game)
    last: dict[Hashable, int] = {}
    for k, s in enumerate(states):
        last[ident(s)] = k
    kept: list[Move] = []
    k = 0
    while k < len(moves):
        jump = last[ident(states[k])]
        if jump > k:
            k = jump
            continue
        kept.append(moves[k])
        k += 1
    return kept


def _replay(game: Game, state: State, segment: list[Move], target: State) -> bool:
    for move in segment:
        if not game.is_legal(state, move):
            return False
        state = game.apply_legal(state, move)
    return state == target


def _rewrites(first: Move, later: Move, between: list[Move], thorough: bool) -> Iterator[list[Move]]:
    through = Move(first.src, later.dst, first.n)
    if later.dst == first.src:
        yield between
    else:
        yield [through] + between
        if thorough:
            yield between + [through]


def _next_touches(moves: list[Move]) -> list[int | None]:
    """For each move, the index of the next move from or to the pile it put cards on (None
    if none does): one pass from the end, keeping the last index seen of each pile."""
    touches: list[int | None] = [None] * len(moves)
    seen: dict[str, int] = {}
    for k in range(len(moves) - 1, -1, -1):
        move = moves[k]
        touches[k] = seen.get(move.dst)
        seen[move.src] = seen[move.dst] = k
    return touches


def drop_detours(
    game: Game, start: State, moves: list[Move], thorough: bool = False, states: list[State] | None = None
) -> list[Move]:
    """``states``, if given, are the positions along ``moves``. A rewrite keeps them so: it
    replaces the positions of the stretch it rewrites, and the stretch ends where it did."""
    changed = True
    passes = 0
    if states is None:
        states = _positions(game, start, moves)
    while changed and passes < MAX_PASSES:
        changed, passes = False, passes + 1
        i = 0
        touches = _next_touches(moves)
        while i < len(moves):
            first = moves[i]
            j = touches[i]
            if (
                j is None
                or moves[j].src != first.dst
                or moves[j].n != first.n
                or first.card is not None
                or moves[j].card is not None
                or "stock" in (first.src, first.dst)
            ):
                i += 1
                continue
            for segment in _rewrites(first, moves[j], moves[i + 1 : j], thorough):
                if _replay(game, states[i], segment, states[j + 1]):
                    moves = moves[:i] + segment + moves[j + 1 :]
                    # the stretch's positions after each rewritten move (its last is the
                    # old states[j + 1]), then those after move j: so an empty stretch
                    # (a move and its undoing dropped) leaves one position, not two
                    states = states[: i + 1] + _positions(game, states[i], segment)[1:] + states[j + 2 :]
                    touches = _next_touches(moves)
                    changed = True
                    break
            else:
                i += 1
    return moves


def shorten(start: State, moves: list[Move], states: list[State] | None = None) -> list[Move]:
    """A line from ``start`` that reaches the same final position, usually shorter.
    ``states``, if given, are the positions along ``moves`` (``Game.positions_along``)."""
    game = start.game
    states = states or _positions(game, start, moves)
    kept = drop_loops(game, start, list(moves), states)
    return drop_detours(game, start, kept, states=states if len(kept) == len(moves) else None)
