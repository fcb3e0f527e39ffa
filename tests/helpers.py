"""Build test positions compactly.

    position("freecell", t0="7H 6S", c0="KD", f0="AC-5C", rest="t7")

Piles are written as in docs/rules.md, bottom to top, separated by spaces; ``"AC-5C"`` stands
for AC 2C 3C 4C 5C (a run either way, for foundations). Every card the piles leave out
(``decks`` copies of each) goes on the pile ``rest``, in suit-then-rank order (so its top
card is the highest spade left), face down if ``rest`` is the stock. Unnamed piles are
empty. The position goes through ``state_from_dict``, so it is checked like any other.
"""

from __future__ import annotations

from collections import Counter

import solwidget as sw
from solwidget.engine.cards import card_name, deck, parse_card


def cards(text: str) -> list[str]:
    """``"AC-3C [KH]"`` -> ``["AC", "2C", "3C", "[KH]"]``."""
    out = []
    for word in text.split():
        if "-" in word:
            first, last = (parse_card(w) for w in word.split("-"))
            step = 1 if last >= first else -1
            out += [card_name(c) for c in range(first, last + step, step)]
        else:
            out.append(word)
    return out


def position(game_id: str, rest: str | None = None, redeals: int | None = None,
             options: dict | None = None, **piles: str) -> sw.State:
    game = sw.load_game(game_id, **(options or {}))
    laid = {pid: cards(text) for pid, text in piles.items()}
    if rest is None:
        rest = "stock" if "stock" in game.pile_ids else None
    left = Counter({parse_card(c): game.decks for c in map(card_name, deck(1))})
    left.subtract(parse_card(c) & ~64 for pile in laid.values() for c in pile)
    spare = sorted(left.elements())
    if spare:
        assert rest is not None, f"cards left over and no rest pile: {[card_name(c) for c in spare]}"
        down = game.pile_kinds[rest] == "stock"
        laid[rest] = laid.get(rest, []) + [card_name(c | 64 if down else c) for c in spare]
    d = {"game": game_id, "piles": {pid: laid.get(pid, []) for pid in game.pile_ids}}
    if redeals is not None:
        d["redeals"] = redeals
    if options:
        d["options"] = game.options
    return game.state_from_dict(d)


def moves(state: sw.State) -> set[str]:
    """The legal moves as text, for comparing with a literal set."""
    return {str(m) for m in state.legal_moves()}


def walk(expander, state, steps, stride):
    """Settled positions along a walk that takes every ``stride``-th successor."""
    state = expander.start(state)[0]
    for turn in range(steps):
        yield state
        children = list(expander.expand(state))
        if not children:
            return
        state = children[(turn * stride) % len(children)][1]
