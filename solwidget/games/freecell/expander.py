"""The FreeCell family's successors, made straight from the piles.

``CellsExpander`` yields exactly what the generic ``PatienceExpander`` yields for these
games, in the same order (the engine's move order, the same key-equal duplicates skipped),
so the searches are unchanged. Its moves come from the engine's own move generator
(moves.py's ``plans``, asked for all but the key-equal duplicates), with pile indices, so
that it reads no Move back into piles; it keeps the search's piles as bytes (``start``).
The engine stays the judge: every win is replayed through ``State.play``
(solver/search.py), and tests/test_solver.py compares both expanders move for move.
"""

from __future__ import annotations

import functools

from ...engine.game import Game
from ...engine.patience import Patience
from ...engine.state import State
from ...solver.autoplay import cards_home, host_suits, lemma_applies, lemma_needs
from ...solver.contract import Weights
from ...solver.expand import PatienceExpander
from ...solver.heuristics import weights_of
from .moves import CellsMoves
from .score import CellsScore, cells_score


class CellsExpander(PatienceExpander):
    """PatienceExpander's successors for the FreeCell family, made from the piles (see above)."""

    score: CellsScore
    key: CellsKey

    def __init__(self, game: Patience, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        generator = SearchMoves(game)
        self._plans, self._foundation_facts = generator.plans, generator.foundation_facts
        self._move, self._one = generator.moves, generator.one  # [src][dst][n], [src][dst]
        self._moves_from = self.score.moves_from  # score.py's cells_score
        self._key_of_piles = self.key.of_piles  # CellsKey below
        self._sources = game.tableau_indices + game.cell_indices  # where autoplay.safe_move looks, in order
        self._foundation_set = frozenset(game.foundation_indices)
        self._held = slice(min(self._sources), max(self._sources) + 1)  # cells and tableau
        assert self._held.stop - self._held.start == len(self._sources)

    def make_score(self, game: Game, weights: Weights | None) -> CellsScore:
        assert isinstance(game, Patience)  # FreeCellProfile gives this expander to Patience games
        return cells_score(game, weights_of(weights))

    def make_key(self, game: Patience, compress: bool) -> CellsKey:
        return CellsKey(game.cell_indices, game.tableau_indices, game.symmetric_tableau)

    def start(self, state):
        """The search's first position, its piles as bytes (one a card): all the fast path
        does with a pile, it does the same with bytes, and bytes keep their hash, so keys
        and scores hash a pile once; they slice quicker and take less memory too."""
        assert not state.extra  # no stock: nothing but the piles to a position
        # the search's own positions: piles as bytes (the same cards), read by this family only
        return super().start(State(state.game, tuple(map(bytes, state.piles)), state.extra))  # type: ignore[arg-type]

    def _undoing(self, move):
        """The move that puts ``move``'s cards back (from the table, so ``is`` finds it)."""
        index = self.index
        return self._move[index[move.dst]][index[move.src]][move.n]

    def _child(self, state, piles, src, dst, n):
        new = list(piles)
        moving = piles[src][-n:]
        new[src] = piles[src][:-n]
        new[dst] = piles[dst] + moving
        return State(state.game, tuple(new), state.extra)

    def _moves(self, state):
        piles = state.piles
        for move, src, dst, n in self._plans(piles, False):
            yield (move,), self._child(state, piles, src, dst, n)

    def is_won(self, state) -> bool:
        """Every card home: no stock here, so the tableau and cells are empty."""
        return not any(state.piles[self._held])

    def _settle(self, state):
        """autoplay.settle for these games: the same safe moves, in the same order."""
        one, sources = self._one, self._sources
        played = []
        while True:
            piles = state.piles
            _, _, home_pile, empty_f, safe = self._foundation_facts(piles)
            for src in sources:
                if piles[src] and piles[src][-1] in safe:
                    suit = piles[src][-1] >> 4 & 3
                    f = empty_f if home_pile[suit] is None else home_pile[suit]
                    played.append(one[src][f])
                    state = self._child(state, piles, src, f, 1)
                    break
            else:
                return state, played

    def expand(self, state, came_by=()):
        if not self.autoplay:
            yield from self._moves(state)
            return
        for moves, child, _ in self.scored(state, came_by, lambda key: True):
            yield moves, State(self.game, child, ()) if type(child) is tuple else child

    def scored(self, state, came_by, admit):
        """Each move, then the safe moves it allows, for the search: (moves, child, its score
        or None). ``state`` is settled (no safe move left), so after a move that sends nothing
        home the foundations are unchanged and only the card it turned up can have become
        safe: only then is settling needed. Such a move changes two piles, and its child is
        made cheaply: its key is asked of the table before it is built, its score comes from
        ``state``'s (score.py), and it goes to the search as its piles alone, a tuple
        (most children are never expanded; one that is comes back here as it is: with no
        stock there is nothing else to a position). When ``state`` came by one move that
        sent nothing home, undoing it is skipped: it gives back the position before,
        expanded already."""
        if not self.autoplay:
            yield from super().scored(state, came_by, admit)
            return
        key, key_of_piles = self.key, self._key_of_piles
        settle, foundations, game = self._settle, self._foundation_set, self.game
        piles = state if type(state) is tuple else state.piles
        safe = self._foundation_facts(piles)[-1]  # SearchMoves' last fact
        undo = self._undoing(came_by[0]) if len(came_by) == 1 else None
        after = self._moves_from(piles)
        for move, src, dst, n in self._plans(piles, False):
            if move is undo:
                continue
            new = list(piles)  # self._child, written out: the hottest loop
            source = piles[src]
            new[src] = rest = source[:-n]
            new[dst] = grown = piles[dst] + source[-n:]
            if dst in foundations or (rest and rest[-1] in safe):
                child, played = settle(State(game, tuple(new), ()))
                if admit(key(child)):
                    yield (move, *played), child, None
            elif admit(key_of_piles(new)):
                yield (move,), tuple(new), after(src, rest, dst, grown)


class SearchMoves(CellsMoves):
    """moves.py's generator, with what the search's safe moves (``_settle``) ask of the
    foundations kept beside what they take: per suit, the foundation it is on (None if
    none), the first empty foundation, and the cards that would go home safely."""

    def __init__(self, game):
        super().__init__(game)
        self.up = game.step > 0
        self.safe_needs = safe_needs(game)

    def facts_of(self, piles) -> tuple:
        """CellsMoves' facts, then per suit its foundation, the first empty foundation and
        the safe cards."""
        level, home_pile = [0 if self.up else 14] * 4, [None] * 4
        for f in self.foundation_indices:
            pile = piles[f]
            if pile:
                top = pile[-1]
                level[top >> 4 & 3], home_pile[top >> 4 & 3] = top & 15, f
        first_f = next((f for f in self.foundation_indices if not piles[f]), None)
        step = self.game.step
        home = [cards_home(self.game, rank) for rank in level]
        nexts = [suit << 4 | level[suit] + step for suit in range(4) if 1 <= level[suit] + step <= 13]
        safe = frozenset(card for card in nexts if self._goes_home_safely(card, home))
        return (*super().facts_of(piles), home_pile, first_f, safe)

    def _goes_home_safely(self, card, home) -> bool:
        """Does ``home`` (per suit, the cards home) meet one of ``card``'s safe_needs?"""
        return any(all(h >= need for h, need in zip(home, way)) for way in self.safe_needs[card])


@functools.lru_cache(maxsize=8)
def safe_needs(game) -> list[tuple[tuple[int, ...], ...]]:
    """safe_needs[card]: the ways in which ``card``, next on its foundation, goes home
    safely in the search (autoplay.search_rule), each as the cards it asks home, by suit:
    every card that could be built on it home (autoplay.is_safe), or, where it holds
    (autoplay.lemma_applies), the safe cards' lemma's counts (autoplay.lemma_needs)."""

    lemma = lemma_applies(game)
    needs: list[tuple[tuple[int, ...], ...]] = [()] * 64
    for suit in range(4):
        for rank in range(1, 14):
            over = rank + game.build.direction
            plain = [0] * 4
            if 1 <= over <= 13:
                for host in host_suits(game.build.suits, suit):
                    plain[host] = cards_home(game, over)
            ways = [tuple(plain)]
            if lemma:
                ways.append(lemma_needs(suit, cards_home(game, rank) - 1))
            needs[suit << 4 | rank] = tuple(ways)
    return needs


class CellsKey:
    """The generic key's equivalence (solver/keys.py), made with less work: the foundations
    are left out, since the cards not in the cells or the tableau are home, and with one deck
    those cards fix the foundations (one pile a suit, built in order). The key is a tuple of
    the piles themselves, the tableau's (sorted when symmetric) then the sorted cells: quicker
    to make than bytes, and a position shares all but one or two piles with its parent, so
    the keys share most of their memory. (A class, not closures: compiled, closures that
    call each other make a reference cycle.)"""

    def __init__(self, C, T, symmetric):
        # Patience numbers the cells, then the tableau piles, each kind in one run of indices.
        assert tuple(range(C[0], C[-1] + 1)) == C and tuple(range(T[0], T[-1] + 1)) == T
        self.cells, self.tableau = slice(C[0], C[-1] + 1), slice(T[0], T[-1] + 1)
        self.symmetric = symmetric

    def of_piles(self, piles) -> tuple:
        """The key of a position with these piles (a tuple or a list of them): CellsExpander
        asks before it builds a position."""
        parts = sorted(piles[self.tableau]) if self.symmetric else list(piles[self.tableau])
        parts += sorted(piles[self.cells])
        return tuple(parts)

    def __call__(self, state) -> tuple:
        return self.of_piles(state.piles)
