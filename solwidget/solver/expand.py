"""Successors for the search: the engine's moves, with reductions that lose no win.

``GenericExpander`` serves any game: every legal move, the engine's key.
``PatienceExpander`` adds, for games built on the engine's ``Patience`` blocks:
- the compact canonical key of keys.py;
- safe foundation moves played at once (autoplay.py);
- one representative among moves that lead to key-equal positions: a card goes only to the
  first free cell and the first empty foundation (cells and foundations are sets in the
  key), a group only to the first empty tableau pile when the tableau piles are symmetric,
  and never a whole pile there (the position would be this one again);
- stock compression (stock.py): turns are expanded only as part of a waste play.
Every move comes from the engine's move generator, and only legal moves are applied.

A family adds what it knows by subclassing ``PatienceExpander`` (its solver profile,
profile.py, hands the subclass to the search): the hooks below give a test of positions
proved dead, reserve plays that replace the waste plays (bridges), its own safe moves, a
score, or a key that sorts piles that play alike. A family's fast expander yields exactly its general
expander's successors, in the same order, made straight from the piles; each family's
tests compare the two move for move.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import Pile, Piles, State
from .autoplay import search_rule, settle
from .contract import Admit, Bridges, DeadEnds, KeyOf, Moves, Scored, ScoreOf, Successor, Weights
from .heuristics import make_score
from .keys import engine_key_is_plain, patience_key, turns_of
from .stock import is_turn, waste_plays


class GenericExpander:
    sound = True  # every reduction here keeps some win whenever one exists
    autoplay = False  # expanders that know safe moves home turn it on, with _settle
    turns = 0  # > 0: the cards a turn of a stock whose key ends as keys.turns_of says

    def __init__(
        self, game: Game, weights: Weights | None = None, autoplay: bool = True, compress: bool = True
    ) -> None:
        self.game = game
        self.score = self.make_score(game, weights)
        self.key: KeyOf = game.key

    def make_score(self, game: Game, weights: Weights | None) -> ScoreOf:
        """The score of positions (heuristics.py), lower is better, 0 only when won."""
        return make_score(game, weights)

    def start(self, state: State) -> tuple[State, Moves]:
        """The search's first position: ``state`` after the safe moves it allows."""
        if not self.autoplay:
            return state, ()
        settled, played = self._settle(state)
        return settled, tuple(played)

    def _settle(self, state: State) -> tuple[State, list[Move]]:
        """Play safe moves home until none is left: (position, moves played)."""
        return state, []

    def is_won(self, state: State) -> bool:
        return self.game.is_won(state)

    def expand(self, state: State, came_by: Moves = ()) -> Iterator[Successor]:
        """(moves, position) for each successor of ``state``; ``came_by``, the moves that led
        to ``state``, lets an expander skip undoing them (CellsExpander)."""
        for move, child in self.game.successors(state):
            yield (move,), child

    def share(self, first: GenericExpander) -> None:
        """Take from ``first``, the first expander of the same portfolio, what depends on
        the position alone and so may serve every search (nothing here)."""

    def scored(self, state: State, came_by: Moves, admit: Admit) -> Iterator[Scored]:
        """``expand`` for the search: only the successors whose key ``admit`` takes (it
        records them: the search's transposition table), each with its score when the
        expander knows it cheaply, else None (the search then asks ``score``)."""
        key = self.key
        for moves, child in self.expand(state, came_by):
            if admit(key(child)):
                yield moves, child, None


class PatienceExpander(GenericExpander):
    game: Patience

    def __init__(
        self, game: Patience, weights: Weights | None = None, autoplay: bool = True, compress: bool = True
    ) -> None:
        super().__init__(game, weights)
        self.autoplay = autoplay
        self.safe = search_rule(game)
        # The key-equal duplicates skipped below are key-equal under Patience's own key;
        # a game with a key of its own gets every move.
        self.plain = engine_key_is_plain(game)
        if self.plain:
            self.key = self.make_key(game, compress)
            self.turns = turns_of(game, compress)  # make_key keeps patience_key's stock
        self.compress = bool(game.draw) and compress
        # A family's bridges: reserve cards go to the tableau only in bridges, and home only
        # in home bridges (each family proves its own)
        plays = self.reserve_plays(game) if self.compress else (None, None)
        self.bridge_moves: Bridges | None = plays[0]
        self.home_bridges: Bridges | None = plays[1]
        self.bridges = self.bridge_moves is not None
        self.dead_ends = self.dead_end_test(game)
        self.first_empty_only = game.symmetric_tableau and self.plain
        self.kinds = [game.pile_kinds[pid] for pid in game.pile_ids]
        self.index = game.index_of

    # ------------------------------------------------------ what a family adds
    def reserve_plays(self, game: Patience) -> tuple[Bridges, Bridges | None] | tuple[None, None]:
        """(bridges, home bridges): functions (game, state) -> (moves, position) that
        replace the plays from the waste to the tableau and home, or (None, None)."""
        return None, None

    def dead_end_test(self, game: Patience) -> DeadEnds | None:
        """An object whose ``is_dead(state)`` tells positions that cannot be won, or None."""
        return None

    def make_key(self, game: Patience, compress: bool) -> KeyOf:
        """The key of positions for the transposition table (keys.py); a family may sort
        piles that play alike, or make keys faster. Positions with equal keys must play
        alike under the engine's rules, and where ``turns_of`` says, the key ends with the
        stock as patience_key's does (the search reads it)."""
        return patience_key(game, compress)

    def _settle(self, state: State) -> tuple[State, list[Move]]:
        """Play safe moves home until none is left: (position, moves played), by the
        safe cards' lemma too where it holds (autoplay.search_rule)."""
        return settle(self.game, state, self.safe)

    def is_won(self, state: State) -> bool:
        piles = state.piles
        return sum(len(piles[f]) for f in self.game.foundation_indices) == self.game.card_count

    def _targets(self, piles: Sequence[Pile], card: int) -> tuple[int, ...]:
        """Where the engine lets ``card`` go from the waste (as Patience.iter_moves does for a
        single card off the tableau): foundations, then fitting tableau piles; only the
        first empty one when empty piles are interchangeable."""
        game = self.game
        places = self._foundations(piles, card)
        empty_seen = False
        for t in game.tableau_indices:
            if game.can_take(piles, t) and game.fits_pile(piles, t, card):
                if not piles[t] and self.first_empty_only:
                    if empty_seen:
                        continue
                    empty_seen = True
                places.append(t)
        return tuple(places)

    def _foundations(self, piles: Sequence[Pile], card: int) -> list[int]:
        """The foundations where ``card`` may go (only the first empty one: they are a set)."""
        first_empty = self._first_empty_foundation(piles) if self.plain else None
        return [
            f
            for f in self.game.foundations_for(piles, card)
            if piles[f] or first_empty is None or f == first_empty
        ]

    def _first_empty_foundation(self, piles: Sequence[Pile]) -> int | None:
        return next((f for f in self.game.foundation_indices if not piles[f]), None)

    def _whole_pile(self, piles: Piles, move: Move) -> bool:
        """Does ``move`` take a whole tableau pile? Onto an empty pile, when the tableau
        piles are symmetric, that gives a position key-equal to this one."""
        src = self.index.get(move.src)
        return src is not None and self.kinds[src] == "tableau" and move.n == len(piles[src])

    def _moves(self, state: State) -> Iterator[Successor]:
        game, piles, kinds, index = self.game, state.piles, self.kinds, self.index
        free_cell = next((c for c in game.cell_indices if not piles[c]), None) if self.plain else None
        free_foundation = self._first_empty_foundation(piles) if self.plain else None
        empty_pile = None
        if self.first_empty_only:
            empty_pile = next(
                (t for t in game.tableau_indices if not piles[t] and game.can_take(piles, t)), None
            )
        apply = game.apply_legal
        for move in game.iter_moves(state):
            if self.compress and is_turn(move):
                continue
            if (
                self.bridges
                and move.src == "waste"
                and (self.home_bridges or kinds[index[move.dst]] == "tableau")
            ):
                continue
            dst = index.get(move.dst)
            if dst is not None:
                kind = kinds[dst]
                if free_cell is not None and kind == "cell" and dst != free_cell:
                    continue
                if (
                    free_foundation is not None
                    and kind == "foundation"
                    and not piles[dst]
                    and dst != free_foundation
                ):
                    continue
                if (
                    empty_pile is not None
                    and kind == "tableau"
                    and not piles[dst]
                    and (dst != empty_pile or self._whole_pile(piles, move))
                ):
                    continue
            yield (move,), apply(state, move)
        if self.bridge_moves is not None:
            if self.home_bridges:
                yield from self.home_bridges(game, state)
            else:
                yield from waste_plays(game, state, self._foundations)
            yield from self.bridge_moves(game, state)
        elif self.compress:
            yield from waste_plays(game, state, self._targets)

    def expand(self, state: State, came_by: Moves = ()) -> Iterator[Successor]:
        if self.dead_ends is not None and self.dead_ends.is_dead(state):
            return
        yield from self._settled_moves(state) if self.autoplay else self._moves(state)

    def _settled_moves(self, state: State) -> Iterator[Successor]:
        """Each move, then the safe moves it allows."""
        for moves, child in self._moves(state):
            child, played = self._settle(child)
            yield (moves + tuple(played)) if played else moves, child
