"""Successors for the search: the engine's moves, with game-aware reductions that lose no win.

``GenericExpander`` serves any game: every legal move, the engine's key.
``PatienceExpander`` adds, for ``Patience`` games:
- the compact canonical key of keys.py;
- safe foundation moves played at once (autoplay.py);
- one representative among moves that lead to key-equal positions: a card goes only to the
  first free cell and the first empty foundation (cells and foundations are sets in the
  key), a group only to the first empty tableau pile when the tableau piles are symmetric;
- stock compression (stock.py): turns are expanded only as part of a waste play.
Every move comes from the engine's move generator, and only legal moves are applied.
"""

from __future__ import annotations

from ..engine.patience import Patience
from .autoplay import settle
from .heuristics import make_score
from .keys import engine_key_is_plain, patience_key
from .stock import is_turn, waste_plays


class GenericExpander:
    sound = True        # every reduction here keeps some win whenever one exists

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        self.game = game
        self.score = make_score(game, weights)
        self.key = game.key

    def start(self, state):
        return state, ()

    def is_won(self, state) -> bool:
        return self.game.is_won(state)

    def expand(self, state):
        for move, child in self.game.successors(state):
            yield (move,), child


class PatienceExpander(GenericExpander):
    def __init__(self, game: Patience, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights)
        self.autoplay = autoplay
        # The key-equal duplicates skipped below are key-equal under Patience's own key;
        # a game with a key of its own gets every move.
        self.plain = engine_key_is_plain(game)
        if self.plain:
            self.key = patience_key(game, compress)
        self.compress = bool(game.draw) and compress
        self.first_empty_only = game.symmetric_tableau and self.plain
        self.kinds = [game.pile_kinds[pid] for pid in game.pile_ids]
        self.index = game._index

    def start(self, state):
        if not self.autoplay:
            return state, ()
        settled, played = settle(self.game, state)
        return settled, tuple(played)

    def is_won(self, state) -> bool:
        piles = state.piles
        return sum(len(piles[f]) for f in self.game.F) == self.game.card_count

    def _targets(self, piles, card) -> tuple[int, ...]:
        """Where the engine lets ``card`` go from the waste (as Patience._moves does for a
        single card off the tableau): foundations, then fitting tableau piles; only the
        first empty one when empty piles are interchangeable."""
        game = self.game
        places = []
        first_empty = self._first_empty_foundation(piles) if self.plain else None
        for f in game._foundation_for(piles, card):
            if piles[f] or first_empty is None or f == first_empty:
                places.append(f)
        empty_seen = False
        for t in game.T:
            if game._can_take(piles, t) and game._fits_pile(piles, t, card):
                if not piles[t] and self.first_empty_only:
                    if empty_seen:
                        continue
                    empty_seen = True
                places.append(t)
        return tuple(places)

    def _first_empty_foundation(self, piles):
        return next((f for f in self.game.F if not piles[f]), None)

    def _moves(self, state):
        game, piles, kinds, index = self.game, state.piles, self.kinds, self.index
        free_cell = next((c for c in game.C if not piles[c]), None) if self.plain else None
        free_foundation = self._first_empty_foundation(piles) if self.plain else None
        empty_pile = None
        if self.first_empty_only:
            empty_pile = next((t for t in game.T if not piles[t] and game._can_take(piles, t)), None)
        apply = game._apply
        for move in game._moves(state):
            if self.compress and is_turn(move):
                continue
            dst = index.get(move.dst)
            if dst is not None:
                kind = kinds[dst]
                if free_cell is not None and kind == "cell" and dst != free_cell:
                    continue
                if free_foundation is not None and kind == "foundation" and not piles[dst] \
                        and dst != free_foundation:
                    continue
                if empty_pile is not None and kind == "tableau" and not piles[dst] and dst != empty_pile:
                    continue
            yield (move,), apply(state, move)
        if self.compress:
            yield from waste_plays(game, state, self._targets)

    def expand(self, state):
        if not self.autoplay:
            yield from self._moves(state)
            return
        game = self.game
        for moves, child in self._moves(state):
            child, played = settle(game, child)
            yield (moves + tuple(played)) if played else moves, child


def expander_for(game, weights=None, autoplay=True, compress=True):
    cls = PatienceExpander if isinstance(game, Patience) else GenericExpander
    return cls(game, weights, autoplay, compress)
