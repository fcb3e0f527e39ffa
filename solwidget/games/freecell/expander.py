"""The FreeCell family's successors, made straight from the piles.

``CellsExpander`` yields exactly what the generic ``PatienceExpander`` yields for these
games, in the same order (the engine's move order, the same key-equal duplicates skipped),
so the searches are unchanged; it only skips the engine's general machinery (hooks, Move
look-ups by pile id, the filters) and keeps the search's piles as bytes (``start``). What
a pile or the foundations imply is kept by pile and by foundations. The engine stays the
judge: every win is replayed through ``State.play`` (solver/search.py), and
tests/test_solver.py compares both expanders move for move.
"""

from __future__ import annotations

import functools

from ...engine.moves import Move
from ...engine.patience import Patience, supermove
from ...engine.state import State
from ...solver.autoplay import host_suits
from ...solver.expand import PatienceExpander
from ...solver.heuristics import weights_of
from .score import cells_score


def fits(game) -> bool:
    """The shape CellsExpander is written for: one deck, free cells, supermoves, no stock,
    no face-down cards, a symmetric tableau whose empty piles take any card."""
    return (game.decks == 1 and bool(game.C) and not game.draw and not game.face_down_cards
            and game.group == "supermove" and game.empty_takes == "any" and game.symmetric_tableau)


class CellsExpander(PatienceExpander):
    """PatienceExpander's successors for the FreeCell family, made from the piles (see above)."""

    def __init__(self, game: Patience, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        self._fits_on = game.fits_on
        self._move, self._hosts, self._safe_hosts = _cells_tables(game)
        self._one = [[moves[1] for moves in row] for row in self._move]     # [src][dst]
        self._F, self._C, self._T = game.F, game.C, game.T
        self._runs = {}                              # pile -> _run_of(pile)
        self._facts = {}                             # foundations -> _foundation_facts
        self._founds = slice(game.F[0], game.F[-1] + 1)
        assert game.F == tuple(range(game.F[0], game.F[-1] + 1))
        self._moves_from = self.score.moves_from     # score.py's cells_score
        self._key_of_piles = self.key.of_piles       # cells_key below
        self._step = game.step
        self._starters = [suit << 4 | game.foundation_start for suit in range(4)]
        self.up = game.step > 0
        self._sources = game.T + game.C          # where autoplay.safe_move looks, in order
        self._foundation_set = frozenset(game.F)
        self._held = slice(min(self._sources), max(self._sources) + 1)   # cells and tableau
        assert self._held.stop - self._held.start == len(self._sources)

    def make_score(self, game, weights):
        return cells_score(game, weights_of(weights))

    def make_key(self, game, compress):
        return cells_key(game.C, game.T, game.symmetric_tableau)

    def start(self, state):
        """The search's first position, its piles as bytes (one a card): all the fast path
        does with a pile, it does the same with bytes, and bytes keep their hash, so keys
        and scores hash a pile once; they slice quicker and take less memory too."""
        assert not state.extra          # no stock: nothing but the piles to a position
        return super().start(State(state.game, tuple(map(bytes, state.piles)), state.extra))

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
        for move, src, dst, n in self._plans(piles):
            yield (move,), self._child(state, piles, src, dst, n)

    def _plans(self, piles) -> list:
        """(move, source index, destination index, cards moved) for each legal move, in the
        engine's order: to the foundations, from the tableau, from the cells, to a free cell."""
        one, hosts = self._one, self._hosts
        wants = self._foundation_facts(piles)[0]
        plans = []
        topped_by, empties = {}, []     # one deck: each card tops one pile at most
        for t in self._T:
            pile = piles[t]
            if pile:
                card = pile[-1]
                topped_by[card] = t
                f = wants.get(card)
                if f is not None:
                    plans.append((one[t][f], t, f, 1))
            else:
                empties.append(t)
        held, free_cell = [], None
        for c in self._C:
            pile = piles[c]
            if pile:
                card = pile[0]
                held.append((c, card))
                f = wants.get(card)
                if f is not None:
                    plans.append((one[c][f], c, f, 1))
            elif free_cell is None:
                free_cell = c
        free = len(self._C) - len(held)
        limit, limit_to_empty = supermove(free, len(empties)), supermove(free, max(0, len(empties) - 1))
        empty = empties[0] if empties else None
        runs = self._runs
        for src in topped_by.values():
            pile = piles[src]
            known = runs.get(pile)
            if known is None:
                known = self._run_of(pile)
            run, wanted = known
            found = []                  # loops, not comprehensions: each of those is a call
            for host, n in wanted[run if run < limit else limit]:
                dst = topped_by.get(host)
                if dst is not None:
                    found.append((dst, n))
            if empty is not None:       # not the whole pile: that changes nothing (above)
                for n in range(1, min(run, limit_to_empty, len(pile) - 1) + 1):
                    found.append((empty, n))
            if found:
                found.sort()
                moves = self._move[src]
                for dst, n in found:
                    plans.append((moves[dst][n], src, dst, n))
        for c, card in held:
            fitting = []
            for host in hosts[card]:
                dst = topped_by.get(host)
                if dst is not None:
                    fitting.append(dst)
            if empty is not None:
                fitting.append(empty)
            fitting.sort()
            moves = one[c]
            for dst in fitting:
                plans.append((moves[dst], c, dst, 1))
        if free_cell is not None:
            for src in topped_by.values():
                plans.append((one[src][free_cell], src, free_cell, 1))
        return plans

    def _run_of(self, pile) -> tuple:
        """(run, wanted): how many top cards of ``pile`` may move together as far as their
        order goes (the engine's run_length), and wanted[k], the
        (host, n) pairs for the top n <= k of them: the run of n cards may go on host. Kept
        by pile: a pile's hash is kept too when it is bytes."""
        hosts = self._hosts
        run = self.game.run_length(pile)
        wanted = [()]
        for n in range(1, run + 1):
            wanted.append(wanted[-1] + tuple((host, n) for host in hosts[pile[-n]]))
        if len(self._runs) > 200_000:
            self._runs.clear()
        known = self._runs[pile] = (run, wanted)
        return known

    def is_won(self, state) -> bool:
        """Every card home: no stock here, so the tableau and cells are empty."""
        return not any(state.piles[self._held])

    def _foundation_facts(self, piles):
        """What the foundations say, kept by foundations (a few thousand sets of them):
        - wants: card -> the foundation that takes it next;
        - level: per suit, the rank on top of its foundation (0, or 14 building down, if none);
        - home_pile: per suit, that foundation's index;
        - the first empty foundation;
        - the cards that would go home safely (solver/autoplay.py's rule)."""
        foundations = piles[self._founds]
        facts = self._facts.get(foundations)
        if facts is not None:
            return facts
        level, home_pile = [0 if self.up else 14] * 4, [None] * 4
        for f in self._F:
            pile = piles[f]
            if pile:
                top = pile[-1]
                level[top >> 4 & 3], home_pile[top >> 4 & 3] = top & 15, f
        by_card, empties = self.game.foundation_wants(piles)
        wants = {card: homes[0] for card, homes in by_card.items()}     # one deck: one each
        first_f = empties[0] if empties else None
        if first_f is not None:
            for card in self._starters:
                wants[card] = first_f
        step = self._step
        nexts = [suit << 4 | level[suit] + step for suit in range(4) if 1 <= level[suit] + step <= 13]
        safe = frozenset(card for card in nexts if self._guests_home(card, level))
        facts = self._facts[foundations] = (wants, level, home_pile, first_f, safe)
        return facts

    def _guests_home(self, card, level) -> bool:
        """Is every card that could go on ``card`` home (so that it may go home safely)?"""
        if self.up:
            return all(level[s] >= r for s, r in self._safe_hosts[card])
        return all(level[s] <= r for s, r in self._safe_hosts[card])

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
        safe = self._foundation_facts(piles)[4]
        undo = self._undoing(came_by[0]) if len(came_by) == 1 else None
        after = self._moves_from(piles)
        for move, src, dst, n in self._plans(piles):
            if move is undo:
                continue
            new = list(piles)              # self._child, written out: the hottest loop
            source = piles[src]
            new[src] = rest = source[:-n]
            new[dst] = grown = piles[dst] + source[-n:]
            if dst in foundations or (rest and rest[-1] in safe):
                child, played = settle(State(game, tuple(new), ()))
                if admit(key(child)):
                    yield (move, *played), child, None
            elif admit(key_of_piles(new)):
                yield (move,), tuple(new), after(src, rest, dst, grown)


@functools.lru_cache(maxsize=8)
def _cells_tables(game):
    """CellsExpander's tables, built once a game (a search starts two expanders):
    - moves[src][dst][n]: every Move (a run has 13 cards at most);
    - hosts[card]: the cards ``card`` may be built on (``fits_on`` read the other way);
    - safe_hosts[card]: the (suit, rank) cards that could be built on ``card`` (the autoplay
      rule of solver/autoplay.py: ``card`` is safe once all of them are home)."""
    ids = game.pile_ids
    moves = [[[None, one] + [Move(a, b, n) for n in range(2, 14)] for b, one in zip(ids, row)]
             for a, row in zip(ids, game.one_card_moves)]
    hosts = [[] for _ in range(64)]
    for top in range(64):
        for card in game.fits_on[top]:
            hosts[card].append(top)
    safe_hosts = [()] * 64
    for suit in range(4):
        for rank in range(1, 14):
            over = rank + game.build.direction
            if 1 <= over <= 13:
                safe_hosts[suit << 4 | rank] = tuple((s, over) for s in host_suits(game.build.suits, suit))
    return moves, hosts, safe_hosts


def cells_key(C, T, symmetric):
    """The generic key's equivalence (solver/keys.py), made with less work: the foundations are left out, since the cards not in the cells or the
    tableau are home, and with one deck those cards fix the foundations (one pile a suit,
    built in order). The key is a tuple of the piles themselves, the tableau's (sorted when
    symmetric) then the sorted cells: quicker to make than bytes, and a position shares all
    but one or two piles with its parent, so the keys share most of their memory."""
    # Patience numbers the cells, then the tableau piles, each kind in one run of indices.
    assert C == tuple(range(C[0], C[-1] + 1)) and T == tuple(range(T[0], T[-1] + 1))
    cells, tableau = slice(C[0], C[-1] + 1), slice(T[0], T[-1] + 1)

    def of_piles(piles) -> tuple:
        """The key of a position with these piles (a tuple or a list of them)."""
        parts = sorted(piles[tableau]) if symmetric else list(piles[tableau])
        parts += sorted(piles[cells])
        return tuple(parts)

    def key(state) -> tuple:
        return of_piles(state.piles)

    key.of_piles = of_piles     # CellsExpander asks before it builds a position
    return key
