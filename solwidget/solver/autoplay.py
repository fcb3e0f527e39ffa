"""Provably safe moves to the foundations (Patience games whose foundations keep their cards).

A card ``c`` on top of a tableau pile, in a cell, or on a draw-one waste may go home at once
when every card that could ever be placed on ``c`` in the tableau (the build's next card:
for FreeCell both opposite-colour cards one rank lower) is already home, in every copy.

Why that loses no win: take any winning line from the position before the move. Since
nothing can ever be put on ``c`` again, ``c`` only ever sits on top of whatever holds it.
Delete every move of ``c`` alone from the line, and drop ``c`` from any group it tops: each
remaining move is still legal after ``c`` went home, because ``c``'s absence only adds
room (a freer cell, an emptier pile, a card turned up sooner, a larger supermove, a shorter
waste in a draw-one stock whose turns keep their order), and foundations never give cards
back. So the line still wins. Games where foundation cards come back (Mutated Solitaire) and
draw-three stocks (where one card fewer regroups the turns) get no automatic waste moves.

Where the tableau builds in alternating colours against the foundations, the search sends
more home: ``lemma_safe`` (the safe cards' lemma, with its proof) asks only that whatever
might be put on ``c`` could go home instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from ..engine.cards import ACE, FACE_DOWN, KING, OTHER_COLOUR
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import Piles, State

Tops = list[list[int]]  # _home_tops: per suit, the top rank of each foundation of it
IsSafe = Callable[[Patience, Tops, int], bool]


def supports_autoplay(game: Game) -> TypeGuard[Patience]:
    return isinstance(game, Patience)


def _home_tops(game: Patience, piles: Piles) -> Tops:
    """Per suit, the top rank of each non-empty foundation of that suit."""
    tops: Tops = [[], [], [], []]
    for f in game.foundation_indices:
        pile = piles[f]
        if pile:
            top = pile[-1]
            tops[top >> 4 & 3].append(top & 15)
    return tops


def _copies_home(game: Patience, tops: Tops, suit: int, rank: int) -> int:
    if game.step > 0:
        return sum(1 for t in tops[suit] if t >= rank)
    return sum(1 for t in tops[suit] if t <= rank)


def host_suits(policy: str, suit: int) -> tuple[int, ...]:
    """The suits of the cards that may be built on a card of ``suit``, by build policy."""
    if policy == "same":
        return (suit,)
    if policy == "alternate":
        return OTHER_COLOUR[suit]
    return (0, 1, 2, 3)


def is_safe(game: Patience, tops: Tops, card: int) -> bool:
    """Every card that could be built on ``card`` is home in every copy."""
    rank = (card & 15) + game.build.direction
    if not 1 <= rank <= 13:
        return True
    hosts = host_suits(game.build.suits, card >> 4 & 3)
    return all(_copies_home(game, tops, s, rank) == game.decks for s in hosts)


def lemma_builds(game: Patience) -> bool:
    """The building the safe cards' lemma (``lemma_safe``) reads: one deck, the tableau down
    or up in alternating colours against the foundations, which start at the Ace or the
    King. Where else it holds is each game's to say (``lemma_applies``; the Interlock
    family's bridges.py proves it for its reserve)."""
    return (
        game.decks == 1
        and game.build.suits == "alternate"
        and game.build.direction == -game.step
        and game.foundation_start == (ACE if game.step > 0 else KING)
    )


def lemma_applies(game: Patience) -> bool:
    """Does the safe cards' lemma hold, as proved at ``lemma_safe``? Its building
    (``lemma_builds``), no stock, no face-down cards, cards moving alone or in runs
    (FreeCell and Inverted FreeCell)."""
    return (
        lemma_builds(game)
        and game.stock_index is None
        and not game.face_down_cards
        and game.group in ("one", "supermove", "run")
    )


def lemma_needs(suit: int, home: int) -> tuple[int, int, int, int]:
    """Per suit, the cards home that the safe cards' lemma asks before the next card of
    ``suit`` goes home, ``home`` of its suit being home: as many of its own suit, one fewer
    of each suit of the other colour, two fewer of the other suit of its colour (none
    fewer than none)."""
    needs = [max(home - 1, 0)] * 4
    needs[suit], needs[suit ^ 3] = home, max(home - 2, 0)
    return (needs[0], needs[1], needs[2], needs[3])


def lemma_safe(home: list[int], suit: int) -> bool:
    """The safe cards' lemma: may the next card ``c`` of ``suit`` go home at once, from the
    top of a tableau pile or from a cell? ``home``: per suit, the number of its cards home.

    Where ``lemma_applies``, every card that could ever lie on c is one place before c in
    its own suit's order home (FreeCell: one rank lower). On c, only the two cards of the
    other colour one place before c, next on their foundations unless home (the lemma
    asks of their suits at most one card fewer home than c's); on those, only the card of c's colour and not its
    suit two places before c (c's suit has it home), next on its foundation unless home;
    on that, cards three places before c of the other colour: all home.

    Lemma. A position with a winning line L has a winning line L' no longer, after c goes
    home. Proof. Follow L with a set D of cards home in L' and not yet in L, at first {c}:
    a move that puts cards on a card of D adds them to D, and L' plays them home instead,
    top card first (each is next on its foundation, by the counts above, and tops its pile
    or lies in a cell); a move of cards of D alone, or of one of them home, is dropped; any
    other move is played without the cards of D on its top. By induction a card lying on
    a card of D is in D, so in L the cards of D lie at the tops of piles or in cells, and
    L' has L's tableau and cells without them and L's foundations with them. Each move
    kept is legal in L': its cards are L's without a top part, a run with the same head,
    put where it went in L (on a card not in D, lying where it did, or on an empty pile or
    a free cell, empty in L' too); a supermove's size grows with the free cells and empty
    piles, of which L' has as many at least; a card not in D goes home when it did in L.
    L' ends with every card home, and is no longer: each unit put on a card of D trades
    that move and its cards' moves home for as many moves home, and c's move is dropped.
    So the search loses no win by sending c home at once (its "lost" stays a proof).
    tests/test_solver_freecell.py checks the search's verdicts on endgames against a
    search with no safe move."""
    return all(h >= need for h, need in zip(home, lemma_needs(suit, home[suit]), strict=True))


def cards_home(game: Patience, rank: int) -> int:
    """The cards of a suit home when its foundation's top card has ``rank`` (0, or 14 where
    foundations build down, for an empty one): foundations start at the Ace or the King."""
    return rank if game.step > 0 else 14 - rank


def _cards_home(game: Patience, tops: Tops) -> list[int]:
    """Per suit, the number of its cards home (one deck: one foundation a suit at most)."""
    up = game.step > 0
    return [cards_home(game, max(ranks, default=0) if up else min(ranks, default=14)) for ranks in tops]


def is_safe_or_lemma(game: Patience, tops: Tops, card: int) -> bool:
    """``is_safe``, or the lemma's condition for ``card``, next on its foundation (as
    ``safe_move`` asks), where it holds (``lemma_applies``, or as a family proves)."""
    return is_safe(game, tops, card) or lemma_safe(_cards_home(game, tops), card >> 4 & 3)


def search_rule(game: Patience) -> IsSafe:
    """The rule by which the search sends cards home: with the lemma where it applies."""
    return is_safe_or_lemma if lemma_applies(game) else is_safe


def _wanted(game: Patience, piles: Piles) -> set[int]:
    """The cards that some foundation takes next."""
    wanted = set()
    start = game.foundation_start
    for f in game.foundation_indices:
        pile = piles[f]
        if pile:
            nxt = (pile[-1] & 15) + game.step
            if 1 <= nxt <= 13:
                wanted.add(pile[-1] & 0x30 | nxt)
        else:
            wanted.update((start, 16 | start, 32 | start, 48 | start))
    return wanted


def safe_move(game: Patience, state: State, safe: IsSafe = is_safe) -> Move | None:
    """One provably safe move to a foundation, or None; ``safe(game, tops, card)`` says
    which cards are safe (``is_safe`` for the search, ``is_safe_for_play`` for Autoplay)."""
    piles = state.piles
    ids = game.pile_ids
    wanted = _wanted(game, piles)
    if wanted.isdisjoint([pile[-1] for pile in piles if pile]):  # a quick pre-check
        return None
    tops = None
    for src in _sources(game, piles):
        card = piles[src][-1]
        if card not in wanted or (src in game.tableau_set and not game.can_give(piles, src)):
            continue  # covering asked only of the wanted cards: it is the costly test
        for f in game.foundations_for(piles, card):
            if tops is None:
                tops = _home_tops(game, piles)
            if safe(game, tops, card):
                return Move(ids[src], ids[f])
            break
    return None


def _sources(game: Patience, piles: Piles) -> list[int]:
    """The piles whose face-up top card may go home, in the order safe_move tries them:
    tableau, cells, then a draw-one waste (covering is left to the caller)."""
    sources = [t for t in game.tableau_indices if piles[t] and not piles[t][-1] & FACE_DOWN]
    sources += [c for c in game.cell_indices if piles[c]]
    if game.waste_index is not None and game.draw == 1 and piles[game.waste_index]:
        sources.append(game.waste_index)
    return sources


def settle(game: Patience, state: State, safe: IsSafe = is_safe) -> tuple[State, list[Move]]:
    """Play safe foundation moves until none is left; return the state and those moves.
    ``safe``: as for ``safe_move`` (a family may prove a rule of its own)."""
    played: list[Move] = []
    while True:
        move = safe_move(game, state, safe)
        if move is None:
            return state, played
        state = game.apply_legal(state, move)
        played.append(move)


def goes_home_when_free(game: Patience, card: int) -> bool:
    """Can ``card`` always go home when it could move at all, and nothing ever lie on it?

    True of the card that starts a foundation (an Ace, where foundations build up) when the
    tableau builds nothing on it (no rank lies beyond it) and the game has a foundation for
    every start card (then one is empty for each start card not home: foundations never
    give cards back, and each holds one start card at its bottom)."""
    rank = card & 15
    return (
        rank == game.foundation_start
        and not 1 <= rank + game.build.direction <= 13
        and len(game.foundation_indices) == 4 * game.decks
    )


def is_safe_for_play(game: Patience, tops: Tops, card: int) -> bool:
    """``is_safe``, and also safe when every card that could be built on ``card`` and is not
    home in every copy goes home when free (``goes_home_when_free``): a Two on its Ace.

    Why that loses no win, beside the module docstring's argument for ``card`` (call it c):
    the only other change to a winning line L is where a guest g (a card that goes home
    when free) went onto c. Play g home at that moment instead: it leaves its pile at the
    same time as in L, alone (nothing lies on g), and an empty foundation takes it. Delete
    the later moves of g alone, and drop g from runs that carried it; nothing was ever put
    on g. The positions of the new line are L's with c home and g home from that moment,
    so, as for c, every remaining move is still legal: their absence only adds room, and
    foundations never give cards back (the foundations differ only in which empty one g
    started: they are interchangeable, so L's later moves to them are renamed alike).
    The search keeps ``is_safe``: its expanders and their fingerprints stay as they are."""
    rank = (card & 15) + game.build.direction
    if not 1 <= rank <= 13:
        return True
    hosts = host_suits(game.build.suits, card >> 4 & 3)
    return all(
        _copies_home(game, tops, s, rank) == game.decks or goes_home_when_free(game, s << 4 | rank)
        for s in hosts
    )


def safe_moves(state: State) -> list[Move]:
    """The safe foundation moves from ``state``, in order, by ``is_safe_for_play`` (what
    Autoplay plays; the search settles by ``is_safe``)."""
    game = state.game
    if not supports_autoplay(game):
        return []
    played: list[Move] = []
    while (move := safe_move(game, state, is_safe_for_play)) is not None:
        state = game.apply_legal(state, move)
        played.append(move)
    return played
