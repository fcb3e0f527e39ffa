"""Interlock's successors, made straight from the piles.

``InterlockExpander`` yields exactly what ``InterlockFamilyExpander`` yields for Interlock, in the
same order (the engine's moves that it keeps: tableau tops home, runs between uncovered
piles, dropdowns; then the home bridges and bridges of bridges.py, each followed by the
same safe moves home), so the searches are unchanged; it only skips the general machinery:
- the moves come from the rules' own move generator (moves.py, which the engine's
  ``iter_moves`` uses too), asked for only those the expander keeps, with the pile indices
  that make each child: no waste or stock move is made to be dropped, and no Move is read
  back into piles;
- a child is settled (bridges.settle) only when it may have something to settle. The
  position expanded is settled, and when it has nothing to settle (``_safe_card``: no
  card that goes home next and safely tops a pile that may give it or lies in the
  reserve), a child whose foundations did not change has something only if such a card
  came to the top of a pile that may give it: the top left on the pile the cards came
  from, or, if that pile emptied, the tops of the piles it uncovered. Every other pile
  keeps its top or now shows the top card of the cards moved, which topped a pile that
  gave it before; no pile is covered again, and the reserve only loses cards.
The engine stays the judge: every win is replayed through ``State.play``
(solver/search.py), and tests/test_solver_interlock.py compares both expanders move for
move.
"""

from __future__ import annotations

from ...engine.state import State
from ...solver.autoplay import is_safe_or_lemma
from ...solver.expand import PatienceExpander
from ...solver.heuristics import make_score
from ...solver.keys import patience_key
from ...solver.stock import waste_plays
from . import bridges, deadends
from .keys import backs_uncovered
from .rules import InterlockFamily


class InterlockFamilyExpander(PatienceExpander):
    """The generic successors, with what the family knows: bridges and home bridges, safe
    cards sent home from anywhere (bridges.py), dead ends (deadends.py) where their lemmas
    hold, uncovered back piles sorted in the key (keys.py), covered cards in the score."""

    game: InterlockFamily

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        if bridges.tops_safe(game):  # the safe cards' lemma, for the tableau's tops
            self.safe = is_safe_or_lemma

    def reserve_plays(self, game):
        if bridges.applies(game):
            return bridges.bridges, bridges.home_bridges
        return None, None

    def dead_end_test(self, game):
        return deadends.DeadEnds(game) if deadends.applies(game) else None

    def make_key(self, game, compress):
        return patience_key(game, compress, backs_uncovered(game))

    def make_score(self, game, weights):
        return make_score(game, weights, covers=game._pair, gone=game._gone_when_empty)

    def _settle(self, state):
        if self.bridge_moves is bridges.bridges:  # safe reserve cards go home too
            return bridges.settle(self.game, state)
        return super()._settle(state)


def fast_path(game, compress=True) -> bool:
    """Does InterlockExpander give InterlockFamilyExpander's successors for ``game``?"""
    return compress and bridges.applies(game) and not game.face_down_cards and game.empty_takes == "king"


class InterlockExpander(InterlockFamilyExpander):
    """InterlockFamilyExpander's successors for Interlock (see above)."""

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        assert fast_path(game, compress) and self.bridge_moves is bridges.bridges
        self._plans = game.generator.plans
        self._foundation = [kind == "foundation" for kind in self.kinds]
        self._pair = game._pair  # covering piles by index (None: never covered)
        self._covered = [game.covered.get(i, ()) for i in range(len(game.pile_ids))]

    def _uncovered(self, piles, t) -> bool:
        pair = self._pair[t]
        return pair is None or not (piles[pair[0]] or piles[pair[1]])

    def _child(self, state, src, dst, n):
        new = list(state.piles)
        new[dst] = new[dst] + new[src][-n:]
        new[src] = new[src][:-n]
        return State(state.game, tuple(new), state.extra)

    # ------------------------------------------------------------ moves
    def _sourced(self, state):
        """(moves, child, the pile the cards left, or None if the foundations changed) for
        each successor before settling, in PatienceExpander's order."""
        foundation = self._foundation
        for move, src, dst, n in self._plans(state.piles, state.extra, every=False):
            yield (move,), self._child(state, src, dst, n), None if foundation[dst] else src
        game = self.game
        home = (
            self.home_bridges(game, state)
            if self.home_bridges
            else waste_plays(game, state, self._foundations)
        )
        for moves, child in home:
            yield moves, child, None
        index = game.index_of
        for moves, child in bridges.bridges(game, state):  # self.bridge_moves (__init__)
            yield moves, child, index[moves[-1].src]

    def _moves(self, state):
        for moves, child, _ in self._sourced(state):
            yield moves, child

    def _may_expose(self, piles, src) -> bool:
        """Might a card that goes home next and safely top a pile that may give it, now
        that cards left ``src`` (see above)?"""
        safe = bridges._safe_next(self.game, piles)
        if not safe:
            return False
        if piles[src]:
            return piles[src][-1] in safe
        return any(
            piles[q] and piles[q][-1] in safe and self._uncovered(piles, q) for q in self._covered[src]
        )

    def _settled_moves(self, state):
        """Each move, then the safe moves it allows, settling only where there may be some."""
        settled = bridges._safe_card(self.game, state.piles) is None
        settle = self._settle
        for moves, child, src in self._sourced(state):
            if src is None or not settled or self._may_expose(child.piles, src):
                child, played = settle(child)
                if played:
                    moves += tuple(played)
            yield moves, child
