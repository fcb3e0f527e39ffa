"""Why a position is lost, in words a student follows.

Where the game's family has a dead-end lemma that decides the position itself, its profile
says so in card words (``Profile.explain_dead_end``: the lemma, and the cards to outline).
Otherwise the proof itself is summarised: how many positions the search took, and the kinds
of dead ends that lines from the position run into, each with one example position. Those
lines are played at random (from a fixed seed, so the same position is always explained
alike), each to its end: no legal move left, every move back to a position the line has
seen, a dead end a lemma of the family decides, or a length past which it is given up. The
position being lost, no line played ends in a win.
"""

from __future__ import annotations

import base64
import random
from collections import Counter
from dataclasses import dataclass, field
from html import escape

from ..engine.state import State
from ..engine.svg import state_svg
from .profile import Profile, profile_for

LINES = 24  # lines played out for a summary
LINE_MOVES = 120  # moves after which a line is given up
NO_MOVE = "no legal move is left"
ROUND = "every move leads back to a position the line has already seen"
TOO_LONG = f"still no card nearer a win after {LINE_MOVES} moves"


@dataclass(frozen=True)
class DeadEnd:
    """A family's lemma deciding a position lost: ``kind`` names it in a few words,
    ``text`` explains it in card words, ``cards`` are the cards it is about (to outline)."""

    kind: str
    text: str
    cards: tuple[str, ...] = ()


@dataclass
class DeadEndKind:
    """One kind of dead end the lines from a lost position run into: how many of the lines
    played did, and the position where the first of them ended."""

    kind: str
    lines: int
    example: State


@dataclass(repr=False)
class Why:
    """Why a position is lost: ``text`` in words, ``cards`` to outline (a lemma's), the
    ``lemma`` that decides it at the position (or None), the ``positions`` the proof took,
    and the ``dead_ends`` lines run into (a summary, when no lemma decides it at once)."""

    text: str
    cards: list[str]
    lemma: DeadEnd | None
    positions: int
    dead_ends: list[DeadEndKind] = field(default_factory=list)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Why({self.text!r})"

    def _repr_html_(self) -> str:
        parts = [f"<p>{escape(self.text)}</p>"]
        for end in self.dead_ends:
            parts.append(
                f"<p><b>{escape(end.kind)}</b> ({end.lines} of the lines), for example:</p>"
                f"{_picture(end.example)}"
            )
        return "\n".join(parts)


def _picture(state: State) -> str:
    """The position's SVG as an ``<img>``: drawn in a notebook that is not trusted too,
    where SVG output and inline SVG are not."""
    data = base64.b64encode(state_svg(state).encode()).decode("ascii")
    return f'<img src="data:image/svg+xml;base64,{data}" style="max-width:100%;height:auto" alt="a dead end">'


def explain(state: State, positions: int) -> Why:
    """Why ``state``, proved lost by a search of ``positions`` positions, is lost."""
    profile = profile_for(state.game)
    lemma = profile.explain_dead_end(state)
    if lemma is not None:
        return Why(f"No line wins from here: {lemma.text}", list(lemma.cards), lemma, positions)
    ends = dead_ends(state, profile)
    played = sum(end.lines for end in ends)
    kinds = "; ".join(f"{end.kind} ({end.lines} of {played})" for end in ends)
    text = (
        f"No line wins from here: the solver looked at every position reachable from this one "
        f"({positions:,} positions, with equivalent ones counted once) and none is won. "
        f"Lines played from here at random end like this: {kinds}."
    )
    return Why(text, [], None, positions, ends)


def dead_ends(
    state: State, profile: Profile | None = None, lines: int = LINES, seed: int = 0
) -> list[DeadEndKind]:
    """The kinds of dead ends that ``lines`` lines played at random from ``state`` end in
    (see the module docstring), most frequent first."""
    profile = profile or profile_for(state.game)
    rnd = random.Random(seed)
    counts: Counter[str] = Counter()
    examples: dict[str, State] = {}
    for _ in range(lines):
        kind, end = _play_out(state, profile, rnd)
        counts[kind] += 1
        examples.setdefault(kind, end)
    return [DeadEndKind(kind, n, examples[kind]) for kind, n in counts.most_common()]


def _play_out(state: State, profile: Profile, rnd: random.Random) -> tuple[str, State]:
    """Play random moves to new positions from ``state`` until the line ends: (its kind of
    dead end, the position where it ended)."""
    seen = {state}
    for _ in range(LINE_MOVES):
        if state.is_won():
            raise AssertionError("solver bug: a line from a position proved lost wins")
        lemma = profile.explain_dead_end(state)
        if lemma is not None:
            return lemma.kind, state
        moves = state.legal_moves()
        if not moves:
            return NO_MOVE, state
        fresh = [after for after in map(state.play, moves) if after not in seen]
        if not fresh:
            return ROUND, state
        state = rnd.choice(fresh)
        seen.add(state)
    return TOO_LONG, state
