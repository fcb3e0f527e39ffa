"""Compact canonical keys for the transposition table.

A key must be equal only for positions that play alike. For plain ``Patience`` games the
solver packs the engine's own canonical key (foundations and cells as sets, tableau piles
as a set when the game says they are symmetric) into one ``bytes`` value: the same
equivalence in a fraction of the memory. Draw-one stocks with unlimited redeals go one step
further (stock.py): the turning position is dropped, since every position reaches every
other: indeed any card of the stock or waste can be turned up at any time, so their order
does not matter either, only which cards they hold (in a game of several decks, playing one
copy of a card or another gives the same key). And those cards are the ones not in the
other piles (every card lies somewhere, and the key holds the others), so the stock and
waste are left out of the key altogether. Any other game uses ``game.key`` as it is.

A stock turned several cards at a time with unlimited redeals keeps its place in the key,
in a layout the search reads (``turns_of``): the cards in turning order (stock.cycle), then
how many there are and how many lie on the waste, in the last two bytes. So the bytes before
the last are the same for every turning position of a position, and the search can skip a
position that one it has taken reaches by turns alone (search.py, ``_admit_turned``).

A family may also sort piles that play alike (``canonical_tableau``: Interlock's uncovered
back piles, games/interlock/keys.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from ..engine.game import Game
from ..engine.patience import Patience
from ..engine.state import Pile, Piles, State
from .contract import KeyOf
from .stock import cycle

CanonicalTableau = Callable[[Piles, list[bytes]], None]  # a family's order of piles that play alike
KeyParts = tuple[bytes, list[bytes]]  # CycleKey.parts: the head, the packed piles


class CycleKey(Protocol):
    """``_cycle_key``'s key, with what a fast expander asks of it before it builds a child."""

    def __call__(self, state: State, /) -> bytes: ...

    parts: Callable[[Piles], KeyParts]
    of_piles: Callable[[Piles], bytes]
    with_two: Callable[[KeyParts, int, Pile, int, Pile], bytes] | None


_SEP = b"\xff"
PACKED_KEPT = 100_000  # piles whose bytes _cycle_key keeps (about 200 bytes each)
HEADS_KEPT = 20_000  # foundations and cells whose part it keeps (a few hundred bytes each)


def turns_of(game: Patience, compress: bool = True) -> int:
    """The cards a turn of the stock, where patience_key keeps the turning position in its
    last byte (above): a stock that turns several with unlimited redeals; else 0."""
    several = game.draw > 1 and game.redeals is None and game.stock_index is not None
    return game.draw if several and compress else 0


def engine_key_is_plain(game: Game) -> bool:
    """Is ``game.key`` Patience's own (so that packing it here keeps its meaning)?"""
    return isinstance(game, Patience) and type(game).key is Patience.key


def patience_key(
    game: Patience, compress: bool = True, canonical_tableau: CanonicalTableau | None = None
) -> KeyOf:
    """A function state -> bytes, equivalent to ``game.key`` but for the stock rule above.
    ``canonical_tableau(tableau piles, their parts in the key)``, from a family, reorders
    the parts of piles that play alike."""
    F, C, T = game.foundation_indices, game.cell_indices, game.tableau_indices
    symmetric = game.symmetric_tableau
    draw_cycle = game.draw == 1 and game.redeals is None and compress
    stock, waste = game.stock_index, game.waste_index
    reserve = (stock, waste) if stock is not None and waste is not None else None
    limited = game.redeals is not None and reserve is not None
    turned = turns_of(game, compress) > 0 and reserve is not None
    waste_at = reserve[1] if reserve is not None else -1

    if draw_cycle:
        return _cycle_key(game, symmetric, canonical_tableau)

    def key(state: State) -> bytes:
        piles = state.piles
        founds = sorted(bytes(piles[f]) for f in F)
        cells = sorted(bytes(piles[c]) for c in C)
        tableau = [bytes(piles[t]) for t in T]
        if symmetric:
            tableau.sort()
        elif canonical_tableau is not None:
            canonical_tableau(tuple(piles[t] for t in T), tableau)
        parts = [_SEP.join(founds), _SEP.join(cells), _SEP.join(tableau)]
        if turned:
            order = cycle(game, piles)
            parts.append(bytes(order) + bytes((len(order), len(piles[waste_at]))))
        elif reserve is not None:
            parts.append(bytes(piles[reserve[0]]) + _SEP + bytes(piles[reserve[1]]))
            if limited:
                parts.append(bytes(state.extra))
        return b"\xfe".join(parts)

    return key


def _cycle_key(game: Patience, symmetric: bool, backs: CanonicalTableau | None = None) -> CycleKey:
    """patience_key's equivalence for a draw-one stock with unlimited redeals, in bytes made
    with less work: the foundations, cells and tableau, each kind read as one slice, and the
    foundations and cells' part remembered for the last ones seen, which most successors of
    a position share, and kept by foundations (home bridges and popped positions bring back
    ones seen before). The stock and waste hold the cards the other piles do not (see above):
    leaving them out keeps the equivalence and saves sorting them for every position."""
    F, C, T = game.foundation_indices, game.cell_indices, game.tableau_indices
    assert all(ids == tuple(range(ids[0], ids[-1] + 1)) for ids in (F, C, T) if ids)
    founds, tableau = slice(F[0], F[-1] + 1), slice(T[0], T[-1] + 1)
    cells = slice(C[0], C[-1] + 1) if C else slice(0, 0)
    last_held: Piles | None = None  # the last foundations seen, with the cells
    last_part = b""  # their part
    # pile -> its bytes and _SEP: a position shares most piles with the ones seen before,
    # so a lookup mostly replaces making bytes (cards are below 0xff: the parts stay apart)
    packed: dict[Pile, bytes] = {}
    packed_of = packed.__getitem__

    def packed_piles(piles: Piles) -> list[bytes]:
        try:
            return list(map(packed_of, piles))
        except KeyError:
            if len(packed) > PACKED_KEPT:
                packed.clear()
            for pile in piles:
                if pile not in packed:
                    packed[pile] = bytes(pile) + _SEP
            return list(map(packed_of, piles))

    def joined(tableau: Piles, parts: list[bytes]) -> bytes:
        """The tableau's part of the key, from its piles and their packed bytes."""
        if symmetric:
            parts.sort()
        elif backs:
            backs(tableau, parts)
        return b"".join(parts)

    heads: dict[Piles, bytes] = {}  # foundations and cells -> their part: a search meets a few thousand

    def head(piles: Piles) -> bytes:
        """The foundations' and cells' part, and the separator after it."""
        nonlocal last_held, last_part
        held = piles[founds] + piles[cells]
        if held != last_held:
            part = heads.get(held)
            if part is None:
                if len(heads) > HEADS_KEPT:
                    heads.clear()
                part = heads[held] = (
                    _SEP.join(sorted(map(bytes, piles[founds])))
                    + b"\xfe"
                    + _SEP.join(sorted(map(bytes, piles[cells])))
                    + b"\xfe"
                )
            last_held, last_part = held, part
        return last_part

    def of_piles(piles: Piles) -> bytes:
        """The key of a position with these piles (a tuple: the stock and waste unread)."""
        tableau_piles = piles[tableau]
        return head(piles) + joined(tableau_piles, packed_piles(tableau_piles))

    def parts(piles: Piles) -> KeyParts:
        """``of_piles(piles)`` taken apart, for ``with_two``: its head, and the tableau
        piles' packed bytes in pile order."""
        return head(piles), packed_piles(piles[tableau])

    def with_two(parts: KeyParts, k: int, pile: Pile, m: int, other: Pile) -> bytes:
        """The key of the position of ``parts`` with tableau piles ``k`` and ``m`` (counted
        from the first tableau pile) replaced by ``pile`` and ``other``. Not where a family
        reorders its tableau (``key.with_two`` is None there): that may read other piles."""
        start, packs = parts
        packs = packs.copy()
        packs[k], packs[m] = bytes(pile) + _SEP, bytes(other) + _SEP
        if symmetric:
            packs.sort()
        return start + b"".join(packs)

    def key(state: State) -> bytes:
        return of_piles(state.piles)

    # a fast expander asks for a child's key before it builds the child; the key stays a
    # plain function, the quickest call for the search
    for name, value in (
        ("parts", parts),
        ("of_piles", of_piles),
        ("with_two", with_two if symmetric or not backs else None),
    ):
        setattr(key, name, value)
    return cast("CycleKey", key)


def plain_key_bytes(game: Game) -> int:
    """About how much memory one key of the generic path takes (with its share of a table),
    for sizing the transposition table."""
    if not engine_key_is_plain(game):
        return 400 + 8 * game.card_count  # the game's own key keeps its piles alive
    return game.card_count + 120  # packed bytes
