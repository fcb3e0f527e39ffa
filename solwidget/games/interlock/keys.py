"""Interlock's keys: uncovered back piles play alike, so the key sorts them.

A back pile covers no pile, and once both its covering piles are empty it is uncovered for
good (an emptied middle or front pile is gone); no pile may drop onto it then (none of its
covering piles holds cards), and the rules treat every back pile alike. So the uncovered
back piles play alike: swapping their contents gives a position that plays as this one
does, move for move, and the key sorts their contents, which merges positions and so
shortens loss proofs. (The front piles that cover only empty piles play alike too, but
sorting them merges next to none: docs/solver.md.)
"""

from __future__ import annotations


def backs_uncovered(game):
    """A function (tableau piles, their parts in the key) that sorts the parts of the
    uncovered back piles among themselves, for the solver's key (solver/keys.py)."""
    first = game.tableau_indices[0]  # piles by their place in the tableau, as the key reads them
    backs = tuple(
        (t - first, *(c - first for c in game.covers[t])) for t in game.tableau_indices if game.layer[t] == 0
    )
    assert all(game._gone_when_empty[c + first] for _, *covers in backs for c in covers)

    def sort_uncovered(piles, parts):
        free = [t for t, c0, c1 in backs if not (piles[c0] or piles[c1])]
        if len(free) > 1:
            for t, part in zip(free, sorted([parts[t] for t in free])):
                parts[t] = part

    return sort_uncovered
