"""Moves, piles and the rules' reasons in the words of the board a person sees.

Pile ids (``t3``, ``c0``, ``r1c2``) are the API's names; the board does not show them. A
person sees cards and places: "9♥ to a free cell", "4♠ onto 5♥", "2♦ is covered by 7♠ and
Q♥". This module turns a Move, a pile or a reason of the rules into such words, for a given
position, and names only cards that the player can see there (``Game.visible``): a pile
whose top card is face down is named by its place, never by its card.

A game names its places through ``Game.place_name(pid)`` ("a free cell", "a space in row
2", "deck 3"); everything else is worked out from the position.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from .cards import BACK, SUITS
from .moves import Move

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .game import Game
    from .geometry import Layout, PileLayout
    from .state import State

VisiblePiles = dict[str, list[str]]  # pile id -> its cards as the player sees them (visible.py)

SUIT_SYMBOLS = dict(zip(SUITS, "♣♦♥♠"))
_CARD = re.compile(r"\b([A2-9TJQK])([CDHS])\b")
_QUOTED = re.compile(r"('[^']*')")


def card_words(code: str) -> str:
    """A card code as the board shows it: ``"QH"`` -> ``"Q♥"``, ``"TS"`` -> ``"10♠"``."""
    rank, suit = code[0], code[1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]


def _top(piles: dict[str, list[str]], pid: str) -> str | None:
    """The visible top card of a pile, or None (empty, or its top is not seen)."""
    pile = piles.get(pid) or []
    return pile[-1] if pile and pile[-1] != BACK else None


def pile_words(state: State, pid: str, piles: dict[str, list[str]] | None = None) -> str:
    """How a person names pile ``pid`` in ``state``: a foundation by its suit, a pile by its
    visible top card, else the game's name for the place ("a free cell", "the stock")."""
    piles = state.game.visible(state) if piles is None else piles
    game = state.game
    kind = game.pile_kinds.get(pid)
    top = _top(piles, pid)
    if kind == "foundation":
        return f"the {SUIT_SYMBOLS[top[1]]} foundation" if top else "an empty foundation"
    if kind in ("stock", "deck") or top is None:
        return _place(game, pid, piles)
    return card_words(top)


def _place(game: Game, pid: str, piles: VisiblePiles) -> str:
    """The game's name for the place, "an empty ..." when the pile holds nothing."""
    place = game.place_name(pid)
    if piles.get(pid) or not place.startswith(("a ", "an ")):
        return place
    return "an empty " + place.split(" ", 1)[1]


def _moving_head(move: Move, piles: VisiblePiles) -> str | None:
    """The visible code of the lowest card that ``move`` takes, or None."""
    pile = piles.get(move.src) or []
    if move.card is not None:
        return move.card
    if len(pile) >= move.n and pile[-move.n] != BACK:
        return pile[-move.n]
    return None


def move_words(state: State, move: Move | str, known: Counter[str] | None = None) -> str:
    """``move`` from ``state`` as a person says it: "9♥ to a free cell", "4♠ and the 2 cards
    on it onto 5♥", "turn the stock", "turn the deck in row 2 into a built pile".

    ``known``: the cards that may be named (by default every card visible in ``state``);
    another card is called by its place ("a card from the deck in row 2")."""
    game = state.game
    move = game.parse_move(move)
    piles = state.game.visible(state)
    if known is None:
        known = Counter(code for pile in piles.values() for code in pile if code != BACK)
    if move.dst in game.actions:
        return (
            f"{move.dst} {game.place_name(move.src)}"
            if move.dst != "build"
            else f"turn {game.place_name(move.src)} into a built pile"
        )
    src_kind, dst_kind = game.pile_kinds.get(move.src), game.pile_kinds.get(move.dst)
    if src_kind == "stock":
        return "turn the stock"
    if dst_kind == "stock":
        return "turn the waste back into the stock"
    head = _moving_head(move, piles)
    if head and known[head]:
        what = card_words(head)
        if move.n > 1:
            what += " and the card on it" if move.n == 2 else f" and the {move.n - 1} cards on it"
    else:
        what = f"{'a card' if move.n == 1 else f'{move.n} cards'}"
    if src_kind == "deck" or not (head and known[head]):
        what += f" from {game.place_name(move.src)}"
    return f"{what} {_destination(game, move.dst, piles, known)}"


def _destination(game: Game, dst: str, piles: VisiblePiles, known: Counter[str]) -> str:
    kind = game.pile_kinds.get(dst)
    if kind == "foundation":
        return "to its foundation"
    if kind == "cell":
        return "to a free cell"
    top = _top(piles, dst)
    if top and known[top]:
        return f"onto {card_words(top)}"
    if top:
        return f"onto {game.place_name(dst)}"
    return f"to {_place(game, dst, piles)}"


def reason_words(state: State, reason: str) -> str:
    """A reason of the rules (``state.explain``) with its pile ids and card codes in the
    board's words: "t0 is covered by t9 and t10" -> "2♦ is covered by 7♠ and Q♥". Move text
    quoted as an example (``'t3 t5 4'``) stays as it is."""
    game = state.game
    piles = state.game.visible(state)
    ids = sorted(game.pile_ids, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")

    mention = re.compile(
        r"(?:\b(the|a|an) )?" + pattern.pattern + r"( is empty| already holds a card| is an empty )?"
    )

    def noun(pid: str) -> str:
        """The place's noun, without its article: "free cell", "pile"."""
        return game.place_name(pid).split(" ", 1)[-1]

    def said(match: re.Match[str]) -> str:
        article, pid, predicate = match.groups()
        if predicate == " is empty":  # not "an empty free cell is empty"
            return f"{game.place_name(pid)} is empty"
        if predicate == " already holds a card":
            return f"that {noun(pid)} already holds {pile_words(state, pid, piles)}"
        if predicate:  # "... is an empty back pile"
            return f"that {noun(pid)}{predicate}"
        if article:  # "the stock", "the waste": the place itself
            place = game.place_name(pid)
            return place if place.startswith("the ") else f"the {noun(pid)}"
        return pile_words(state, pid, piles)

    def plain(text: str) -> str:
        return mention.sub(said, _CARD.sub(lambda m: card_words(m.group(0)), text))

    return "".join(part if part.startswith("'") else plain(part) for part in _QUOTED.split(reason))


def line_words(state: State, moves: Iterable[Move | str]) -> list[str]:
    """Each move of a line from ``state`` in words, as ``move_words`` says it in the position
    before it, naming only the cards that were visible in ``state``: a card turned up along
    the line is called by its place, so the words tell no more than the board shows."""
    known = Counter(code for pile in state.game.visible(state).values() for code in pile if code != BACK)
    out = []
    for given in moves:
        move = state.game.parse_move(given)
        out.append(move_words(state, move, known))
        state = state.game.apply_legal(state, move)
    return out


ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
KIND_NOUNS = {
    "tableau": "tableau pile",
    "cell": "free cell",
    "foundation": "foundation",
    "stock": "stock",
    "waste": "waste",
    "deck": "deck",
    "space": "space",
}


def pile_names(layout: Layout) -> dict[str, str]:
    """Each pile of a layout (``Game.layout()``) as a screen reader says it: "the third
    tableau pile", "the stock", "the deck in row 1", "the second back pile" (a layer's piles
    are counted apart). Piles of one kind, layer and row are counted left to right."""
    groups: dict[tuple[str, str | None, int | None], list[PileLayout]] = {}
    for pile in layout["piles"]:
        groups.setdefault((pile["kind"], pile.get("layer"), pile.get("row")), []).append(pile)
    names = {}
    for (kind, layer, row), piles in groups.items():
        noun = f"{layer} pile" if layer else KIND_NOUNS.get(kind, "pile")
        where = f" in row {row}" if row else ""
        for number, pile in enumerate(sorted(piles, key=lambda p: (p["y"], p["x"]))):
            names[pile["id"]] = f"the {_ordinal(number) if len(piles) > 1 else ''}{noun}{where}"
    return names


def _ordinal(number: int) -> str:
    """``0`` -> ``"first "``: the ordinal of a pile counted from zero, with its space."""
    return f"{ORDINALS[number]} " if number < len(ORDINALS) else f"number {number + 1} "
