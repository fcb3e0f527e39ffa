"""Dead ends in Interlock: positions from which no win exists, found without search.

The test is a relaxation: it works out, for a position, every event that *might* happen
in some continuation, using for each kind of event a condition that every real occurrence
of it needs, made of events that must have happened before. Events are
- H(c): card c goes home;
- E(p): tableau pile p is empty (now, or after some move);
- U(p): every covering pile of p is empty (p is uncovered);
- A(x): card x lies on top of an uncovered pile (so a run may be put on it), or is a
  card of the reserve (stock and waste) that might get there;
- S(p): an empty uncovered back pile other than p exists (a King from p might go there);
- B(c): tableau card c is bare: nothing lies on it (now, or after some move).
The rules (the facts behind them come from RULES.md section 3 and rules/interlock.py):
- E(p) for an empty pile and H(c) for a card home hold from the start. Covering piles
  (middle and front) never take cards once empty, so U(p) follows from E of each of p's
  covering piles, and it then holds for good.
- H(c) needs H of the card below c in its suit, and, for a card of a tableau pile p, U(p)
  and B(c): c goes home from the top of an uncovered pile, so it either never left p,
  which then was uncovered, or it left p earlier, and a covered pile gives no cards (a
  dropdown moves an uncovered pile).
- B(c) holds from the start for a top card. For a card c with card g lying on it now, B(c)
  needs g to leave c first, and g leaves c only as the head of the unit that moves (a
  dropdown carries c along with g): home (H(g)), onto a host of g other than c (A of that
  host), or, for a King, onto an empty back pile (S; c's pile holds cards).
- A(x), for a card x of pile q, needs U(q), by the same argument, and B(x). For a reserve card x,
  A(x) needs A(y) for a host y of x (a card one rank higher of the other colour), or,
  for a King, S: a reserve card reaches the tableau only onto such a card or an empty
  back pile, both on uncovered piles.
- E(p), for a pile p that holds cards, needs U(p) and a way out for its bottom card b.
  Every pile is a run (building, dropdowns and Kings on empty back piles keep it one) and
  cards come and go only at the top, so b stays p's bottom card until p empties, and it
  leaves last: home (H(b)), as the head of a run moved onto a host y (A(y)), a King onto
  an empty back pile (S(p)), or by a dropdown of p onto a pile q it covers, onto q's top
  card, which must be a host of b, with q's other covering pile empty (E). While p holds
  cards, q can only take a dropdown from p itself (its other covering pile would need p
  empty first), so q's top card then is still its top card now.
Starting from the facts of the position, the rules are applied until nothing changes. By
induction over the moves of any continuation, every event that happens in it is among the
events found (each needs events that happened earlier, found by then). A win sends every
card home; so if some H(c) is not found, no win exists: the position is *dead*.

The search does not expand a dead position (expand.py). That keeps "lost" a proof
(search.py): every position on a winning line has a win, so none of them is dead, and the
argument there that some won position is reached uses only those.
tests/test_solver_interlock.py checks that no position on the solver's winning lines is
dead and that positions found dead are lost when searched without the test.
"""

from __future__ import annotations

from ..engine.cards import FACE_DOWN, KING, OTHER_COLOUR


def applies(game) -> bool:
    """Interlock: runs only (a Yukon group of Love a Duck breaks the bottom card rule),
    one deck, face-up cards, no cells."""
    from ..rules.interlock import _InterlockFamily
    return (isinstance(game, _InterlockFamily) and game.group == "run" and game.decks == 1
            and not game.face_down_cards and not game.C)


class DeadEnds:
    """``is_dead(state)``: does the relaxation above leave some card unable to go home?"""

    def __init__(self, game):
        self.game = game
        self.T = game.T
        self.covers = [game.covers.get(i, ()) for i in range(len(game.pile_ids))]
        self.covered = [game.covered.get(i, ()) for i in range(len(game.pile_ids))]
        self.backs = tuple(t for t in game.T if game.layer[t] == 0)
        self.is_back = [int(game.layer.get(i, 1) == 0) for i in range(len(game.pile_ids))]
        self.reserve_piles = tuple(i for i in (game.STOCK, game.WASTE) if i is not None)
        # hosts[card]: the cards a run headed by ``card`` may be put on (none for a King)
        self.hosts = [()] * 64
        for suit in range(4):
            for rank in range(1, KING):
                self.hosts[suit << 4 | rank] = tuple(s << 4 | rank + 1 for s in OTHER_COLOUR[suit])
        # pair[card]: the card and its two hosts, card 0 (no card) standing in for a King's
        self.pair = [(card, *(self.hosts[card] or (0, 0))) for card in range(64)]

    def is_dead(self, state) -> bool:
        piles = state.piles
        covers, covered, hosts, pair = self.covers, self.covered, self.hosts, self.pair
        home = [0, 0, 0, 0]
        for f in self.game.F:
            if piles[f]:
                top = piles[f][-1]
                home[top >> 4 & 3] = top & 15
        pile_of = [None] * 64
        buried = []         # (card, its guest's suit and rank, the guest's other hosts)
        for t in self.T:
            pile = piles[t]
            for j, card in enumerate(pile):
                pile_of[card] = t
                if j + 1 < len(pile):
                    guest = pile[j + 1]
                    others = [h for h in hosts[guest] if h != card]
                    buried.append((card, guest >> 4 & 3, guest & 15, *(others + [0, 0])[:2]))
        empty = bytearray(not pile for pile in piles)     # E found
        uncovered = bytearray(len(piles))                 # U found
        available = bytearray(64)                         # A found (card 0 is none: never)
        bare = bytearray(64)                              # B found
        for t in self.T:
            if piles[t]:
                bare[piles[t][-1]] = 1
        for t in self.T:
            if not covers[t] or (empty[covers[t][0]] and empty[covers[t][1]]):
                uncovered[t] = 1
                for card in piles[t]:
                    available[card] = bare[card]
        slots = sum(1 for b in self.backs if empty[b] and uncovered[b])   # S
        waiting = [t for t in self.T if piles[t]]         # piles not found to empty yet
        reserve = [pair[c & ~FACE_DOWN] for i in self.reserve_piles for c in piles[i]]
        changed = True
        while changed:
            changed = False
            still = []
            for t in waiting:                # rule E: may the bottom card leave?
                if not uncovered[t]:
                    still.append(t)
                    continue
                bottom, h0, h1 = pair[piles[t][0]]
                rank = bottom & 15
                if not (home[bottom >> 4 & 3] >= rank or available[h0] or available[h1]
                        or (rank == KING and slots) or self._drops(piles, empty, t, bottom)):
                    still.append(t)
                    continue
                empty[t] = changed = True
                slots += self.is_back[t]
                for q in covered[t]:
                    if not uncovered[q] and all(empty[c] for c in covers[q]):
                        uncovered[q] = 1
                        for card in piles[q]:
                            available[card] = bare[card]
                        slots += self.is_back[q] and empty[q]
            waiting = still
            still_buried = []
            for entry in buried:             # rule B: may the guest leave the card?
                card, suit, rank, h0, h1 = entry
                if home[suit] >= rank or available[h0] or available[h1] or (rank == KING and slots):
                    bare[card] = changed = True
                    available[card] = uncovered[pile_of[card]]
                else:
                    still_buried.append(entry)
            buried = still_buried
            unplaced = []
            for entry in reserve:            # rule A for reserve cards
                card, h0, h1 = entry
                if available[h0] or available[h1] or (card & 15 == KING and slots):
                    available[card] = changed = True
                else:
                    unplaced.append(entry)
            reserve = unplaced
            for suit in range(4):
                while home[suit] < KING:
                    card = suit << 4 | home[suit] + 1
                    t = pile_of[card]
                    if t is not None and not (uncovered[t] and bare[card]):
                        break
                    home[suit] += 1
                    changed = True
            if home == [KING] * 4:
                return False
        return True

    def _drops(self, piles, empty, t, bottom) -> bool:
        """Might pile ``t`` drop down onto a pile it covers, onto its top card now (rule E)?"""
        for q in self.covered[t]:
            if piles[q] and piles[q][-1] in self.hosts[bottom] and all(c == t or empty[c] for c in self.covers[q]):
                return True
        return False
