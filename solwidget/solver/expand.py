"""Successors for the search: the engine's moves, with game-aware reductions that lose no win.

``GenericExpander`` serves any game: every legal move, the engine's key.
``PatienceExpander`` adds, for ``Patience`` games:
- the compact canonical key of keys.py;
- safe foundation moves played at once (autoplay.py);
- one representative among moves that lead to key-equal positions: a card goes only to the
  first free cell and the first empty foundation (cells and foundations are sets in the
  key), a group only to the first empty tableau pile when the tableau piles are symmetric;
- stock compression (stock.py): turns are expanded only as part of a waste play;
- Interlock: a reserve card goes to the tableau only in a bridge, a run put on it at once
  (bridges.py), and a position that provably cannot be won is not expanded (deadends.py);
  Triple and Quadruple Interchange: the same two, each with its own proof, and a reserve
  card goes home only in a bridge too, a card from a pile put on it at once (interchange.py).
Every move comes from the engine's move generator, and only legal moves are applied.
``CellsExpander`` (the FreeCell family) yields exactly PatienceExpander's successors, in the
same order, computed straight from the piles; tests/test_solver.py compares the two.
``InterchangeExpander`` (interchange_fast.py) does the same for Triple and Quadruple
Interchange; tests/test_solver_interchange.py compares it with PatienceExpander.
"""

from __future__ import annotations

from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import State
from . import bridges, deadends, interchange
from .autoplay import host_suits, settle
from .heuristics import make_score
from .keys import engine_key_is_plain, patience_key
from .stock import is_turn, waste_plays


class GenericExpander:
    sound = True        # every reduction here keeps some win whenever one exists
    autoplay = False    # expanders that know safe moves home turn it on, with _settle

    def __init__(self, game, weights=None, autoplay=True, compress=True):
        self.game = game
        self.score = make_score(game, weights)
        self.key = game.key

    def start(self, state):
        """The search's first position: ``state`` after the safe moves it allows."""
        if not self.autoplay:
            return state, ()
        settled, played = self._settle(state)
        return settled, tuple(played)

    def _settle(self, state):
        """Play safe moves home until none is left: (position, moves played)."""
        return state, []

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
        # Interlock and Triple Interchange: reserve cards go to the tableau only in bridges
        # (bridges.py); Triple Interchange's reserve cards go home only in bridges too
        # (interchange.py)
        self.bridge_moves = None
        self.home_bridges = None
        if self.compress:
            if bridges.applies(game):
                self.bridge_moves = bridges.bridges
            elif interchange.bridges_apply(game):
                self.bridge_moves = interchange.bridges
                self.home_bridges = interchange.home_bridges
        self.bridges = self.bridge_moves is not None
        # Interlock: positions that provably cannot be won get no successors (deadends.py)
        self.dead_ends = deadends.DeadEnds(game) if deadends.applies(game) else None
        # Triple Interchange: the same for its own dead ends (interchange.py)
        if interchange.applies(game):
            self.dead_ends = interchange.DeadEnds(game)
        self.first_empty_only = game.symmetric_tableau and self.plain
        self.kinds = [game.pile_kinds[pid] for pid in game.pile_ids]
        self.index = game._index

    def _settle(self, state):
        if self.bridge_moves is bridges.bridges:    # Interlock: safe reserve cards go home
            return bridges.settle(self.game, state)  # too (bridges.py)
        return settle(self.game, state)

    def is_won(self, state) -> bool:
        piles = state.piles
        return sum(len(piles[f]) for f in self.game.F) == self.game.card_count

    def _targets(self, piles, card) -> tuple[int, ...]:
        """Where the engine lets ``card`` go from the waste (as Patience._moves does for a
        single card off the tableau): foundations, then fitting tableau piles; only the
        first empty one when empty piles are interchangeable."""
        game = self.game
        places = self._foundations(piles, card)
        empty_seen = False
        for t in game.T:
            if game._can_take(piles, t) and game._fits_pile(piles, t, card):
                if not piles[t] and self.first_empty_only:
                    if empty_seen:
                        continue
                    empty_seen = True
                places.append(t)
        return tuple(places)

    def _foundations(self, piles, card) -> list[int]:
        """The foundations where ``card`` may go (only the first empty one: they are a set)."""
        first_empty = self._first_empty_foundation(piles) if self.plain else None
        return [f for f in self.game._foundation_for(piles, card)
                if piles[f] or first_empty is None or f == first_empty]

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
            if self.bridges and move.src == "waste" and \
                    (self.home_bridges or kinds[index[move.dst]] == "tableau"):
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
        if self.bridges:
            if self.home_bridges:
                yield from self.home_bridges(game, state)
            else:
                yield from waste_plays(game, state, self._foundations)
            yield from self.bridge_moves(game, state)
        elif self.compress:
            yield from waste_plays(game, state, self._targets)

    def expand(self, state):
        if self.dead_ends is not None and self.dead_ends.is_dead(state):
            return
        if not self.autoplay:
            yield from self._moves(state)
            return
        for moves, child in self._moves(state):
            child, played = self._settle(child)
            yield (moves + tuple(played)) if played else moves, child




def _hooks_plain(game) -> bool:
    """Does ``game`` use Patience's own move rules (no covering, dropdowns or reveals)?"""
    cls = type(game)
    return all(getattr(cls, name) is getattr(Patience, name)
               for name in ("_can_give", "_can_take", "_empty_takes", "_extra_moves", "_reveal",
                            "_moves", "_apply", "_run_length", "group_limit", "_foundation_for"))


def cells_fast_path(game) -> bool:
    """The FreeCell family's shape: one deck, free cells, supermoves, no stock, no face-down
    cards, symmetric tableau, Patience's own rules and key."""
    return (isinstance(game, Patience) and _hooks_plain(game) and engine_key_is_plain(game)
            and game.decks == 1 and bool(game.C) and not game.draw and not game.face_down_cards
            and game.group == "supermove" and game.empty_takes == "any" and game.symmetric_tableau)


class CellsExpander(PatienceExpander):
    """PatienceExpander's successors for FreeCell-like games, made straight from the piles.

    It yields exactly what ``PatienceExpander`` yields, in the same order (the engine's move
    order, the same key-equal duplicates skipped), so the searches are unchanged; it only
    skips the engine's general machinery (hooks, Move look-ups by pile id, the filters).
    The engine stays the judge: every win is replayed through ``State.play`` (search.py),
    and tests/test_solver.py compares both expanders move for move.
    """

    def __init__(self, game: Patience, weights=None, autoplay=True, compress=True):
        super().__init__(game, weights, autoplay, compress)
        self._one = game._one_card_moves       # [src][dst]: the one-card Move, built once
        self._ids = game.pile_ids
        self._fits_on = game._fits_on
        self._hosts = self._host_cards()
        self._safe_hosts = self._host_table()
        self.up = game.step > 0
        self._sources = game.T + game.C          # where autoplay.safe_move looks, in order
        self._foundation_set = frozenset(game.F)
        self._held = slice(min(self._sources), max(self._sources) + 1)   # cells and tableau
        assert self._held.stop - self._held.start == len(self._sources)

    def _host_cards(self) -> list:
        """_hosts[card]: the cards ``card`` may be built on (fits_on read the other way)."""
        hosts = [[] for _ in range(64)]
        for top in range(64):
            for card in self._fits_on[top]:
                hosts[card].append(top)
        return hosts

    def _host_table(self):
        """_safe_hosts[card]: the (suit, rank) cards that could be built on ``card`` (the
        autoplay rule of autoplay.py: ``card`` is safe once all of them are home)."""
        game = self.game
        table = [()] * 64
        for suit in range(4):
            for rank in range(1, 14):
                over = rank + game.build.direction
                if not 1 <= over <= 13:
                    continue
                hosts = host_suits(game.build.suits, suit)
                table[suit << 4 | rank] = tuple((s, over) for s in hosts)
        return table

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
        engine's order."""
        game, one = self.game, self._one
        C, T = game.C, game.T
        empties = [t for t in T if not piles[t]]
        givers = [t for t in T if piles[t]]
        held = [(c, piles[c][-1]) for c in C if piles[c]]
        plans = []

        wants, empty_f = game._foundation_wants(piles)
        first_f = empty_f[:1]
        start = game.foundation_start
        for src, card in [(t, piles[t][-1]) for t in givers] + held:
            for f in (first_f if card & 15 == start else wants.get(card, ())):
                plans.append((one[src][f], src, f, 1))

        fits_on, hosts = self._fits_on, self._hosts
        topped_by = {piles[t][-1]: t for t in givers}    # one deck: each card is unique
        free = len(C) - len(held) + 1         # free cells, plus one
        limit, limit_to_empty = free << len(empties), free << max(0, len(empties) - 1)
        empty = empties[0] if empties else None
        for src in givers:
            pile = piles[src]
            run, size = 1, len(pile)          # Patience._run_length without face-down cards
            while run < size and pile[-run] in fits_on[pile[-run - 1]]:
                run += 1
            found = []
            for n in range(1, min(run, limit) + 1):
                for host in hosts[pile[-n]]:
                    dst = topped_by.get(host)
                    if dst is not None and dst != src:
                        found.append((dst, n))
            if empty is not None:
                found += [(empty, n) for n in range(1, min(run, limit_to_empty) + 1)]
            found.sort()
            for dst, n in found:
                move = one[src][dst] if n == 1 else Move(self._ids[src], self._ids[dst], n)
                plans.append((move, src, dst, n))
        for c, card in held:
            fitting = [topped_by[host] for host in hosts[card] if host in topped_by]
            if empty is not None:
                fitting.append(empty)
            for dst in sorted(fitting):
                plans.append((one[c][dst], c, dst, 1))
        if len(held) < len(C):
            free_cell = next(c for c in C if not piles[c])
            plans += [(one[src][free_cell], src, free_cell, 1) for src in givers]
        return plans

    def is_won(self, state) -> bool:
        """Every card home: no stock here, so the tableau and cells are empty."""
        return not any(state.piles[self._held])

    def _levels(self, piles):
        """Per suit, the rank on top of its foundation (0, or 14 building down, if none);
        per suit, that foundation's index; and the first empty foundation."""
        F = self.game.F
        level, home_pile = [0 if self.up else 14] * 4, [None] * 4
        for f in F:
            if piles[f]:
                top = piles[f][-1]
                level[top >> 4 & 3], home_pile[top >> 4 & 3] = top & 15, f
        return level, home_pile, next((f for f in F if not piles[f]), None)

    def _goes_home_safely(self, card, level) -> bool:
        """Does ``card`` go on its foundation next, with every card that could go on it home?"""
        if card & 15 != level[card >> 4 & 3] + self.game.step:
            return False
        if self.up:
            return all(level[s] >= r for s, r in self._safe_hosts[card])
        return all(level[s] <= r for s, r in self._safe_hosts[card])

    def _settle(self, state):
        """autoplay.settle for these games: the same safe moves, in the same order."""
        one, sources, safe = self._one, self._sources, self._goes_home_safely
        played = []
        while True:
            piles = state.piles
            level, home_pile, empty_f = self._levels(piles)
            for src in sources:
                if piles[src] and safe(piles[src][-1], level):
                    suit = piles[src][-1] >> 4 & 3
                    f = empty_f if home_pile[suit] is None else home_pile[suit]
                    played.append(one[src][f])
                    state = self._child(state, piles, src, f, 1)
                    break
            else:
                return state, played

    def expand(self, state):
        """Each move, then the safe moves it allows. ``state`` is settled (no safe move left),
        so after a move that sends nothing home the foundations are unchanged and only the
        card it turned up on its source can have become safe: only then is settling needed."""
        if not self.autoplay:
            yield from self._moves(state)
            return
        settle, safe, foundations = self._settle, self._goes_home_safely, self._foundation_set
        piles, game, extra = state.piles, state.game, state.extra
        level = self._levels(piles)[0]
        for move, src, dst, n in self._plans(piles):
            new = list(piles)              # self._child, written out: the hottest loop
            source = piles[src]
            new[src] = rest = source[:-n]
            new[dst] = piles[dst] + source[-n:]
            child = State(game, tuple(new), extra)
            if dst in foundations or (rest and safe(rest[-1], level)):
                child, played = settle(child)
                yield (move, *played), child
            else:
                yield (move,), child


def expander_for(game, weights=None, autoplay=True, compress=True):
    if game.id == "mutated":
        from .mutated import MutatedExpander     # imported here: it builds on GenericExpander
        return MutatedExpander(game, weights, autoplay, compress)
    from .interchange_fast import InterchangeExpander, fast_path    # it builds on PatienceExpander
    if cells_fast_path(game):
        cls = CellsExpander
    elif fast_path(game, compress):
        cls = InterchangeExpander
    else:
        cls = PatienceExpander if isinstance(game, Patience) else GenericExpander
    return cls(game, weights, autoplay, compress)
