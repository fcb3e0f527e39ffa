"""The contract between a game and the solver: what a family of games tells the search.

The solver knows no game by name. A family that knows more about its games than the
engine's rules say (faster move generation, a tighter key, a better score, positions
proved dead, safe moves, a portfolio of searches tuned for it) declares it in a
``Profile`` and registers it for its game classes; the solver asks ``profile_for(game)``.
A game with no profile is solved by the generic path: ``PatienceExpander`` for games
built on the engine's ``Patience`` blocks, ``GenericExpander`` for any other game. Both
are sound for any game, so a profile only makes a search faster, never changes what
"won" or "lost" means.

A profile is registered for exact classes, not their subclasses: a subclass may change a
rule that a family's lemmas rely on, so it gets the generic path unless it is registered
too, after checking that those lemmas still hold for it: ``lemmas(game)`` names each lemma
and whether it holds, and ``assumes(game, base)`` whether every lemma relied on for the
base holds for the subclass's game (solwidget/variants.py asks it of every variant).

    class MyProfile(Profile):
        portfolio = ({"depth_weight": 0.5},)
        def expander(self, game, weights=None, autoplay=True, compress=True):
            return MyExpander(game, weights, autoplay, compress)

    register_profile(MyProfile(), MyGame)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.patience import Patience
from ..engine.state import State
from .autoplay import safe_moves as patience_safe_moves
from .budget import SearchOptions
from .contract import CompiledSearch, NativeSearchClass, Weights
from .expand import GenericExpander, PatienceExpander
from .keys import plain_key_bytes

if TYPE_CHECKING:
    from .why import DeadEnd

# A weighted A* beside a greedy search that prizes free cells, empty piles and ordered
# piles: where one stalls on a plateau of the score, the other often walks through.
DEFAULT_PORTFOLIO: tuple[SearchOptions, ...] = (
    {"depth_weight": 0.5},
    {"depth_weight": 0.0, "weights": {"unsorted": 0.5, "cells": 1.0, "empty": 2.0}},
)


class Profile:
    """What the solver may ask of a game (see the module docstring); the defaults are the
    generic path's."""

    #: The searches run side by side by default (see ``Solver``'s ``portfolio``).
    portfolio: tuple[SearchOptions, ...] = DEFAULT_PORTFOLIO
    #: After this many expansions in all, the first search of a pooled portfolio goes on
    #: alone (search.py's ``Solver._go_alone``); None: the searches take turns to the end.
    alone_after: int | None = None
    #: The first search's first turn, in expansions (search.py's ``Solver``; later turns are
    #: SLICE long): most deals are won by the first search alone, within about this many.
    opening: int = 150
    #: Whether a win is shortened (solver/shorten.py) when the caller does not say: a family
    #: whose searches find lines the shortener barely shortens may spare its time.
    shorten_wins: bool = True
    #: The family's compiled search: its native.py's ``NativeSearch`` subclass, which names
    #: its kernel and packs its rules (solver/native_search.py), or None (the Python search).
    native: NativeSearchClass | None = None

    def lemmas(self, game: Game) -> dict[str, bool]:
        """Each lemma this profile knows, by name, and whether it holds under ``game``'s
        rules (the generic profile knows none: the generic path is sound for any rules)."""
        return {}

    def assumes(self, game: Game, base: Game | None = None) -> bool:
        """Does every lemma this profile relies on for ``base`` (default: for ``game``
        itself) hold under ``game``'s rules? A variant of ``base`` for which it does not
        gets the generic path (solwidget/variants.py)."""
        relied = self.lemmas(game if base is None else base)
        holds = self.lemmas(game)
        return all(holds[name] for name, used in relied.items() if used)

    def portfolio_for(self, game: Game) -> tuple[SearchOptions, ...]:
        """The searches run side by side by default for ``game``."""
        return self.portfolio

    def expander(
        self, game: Game, weights: Weights | None = None, autoplay: bool = True, compress: bool = True
    ) -> GenericExpander:
        """The successor function of one search: moves, keys and scores (expand.py)."""
        if isinstance(game, Patience):
            return PatienceExpander(game, weights, autoplay, compress)
        return GenericExpander(game, weights, autoplay, compress)

    def compiled_search(
        self,
        expander: GenericExpander,
        weights: Weights | None,
        depth_weight: float,
        table_size: int,
        frontier_size: int,
        explore: float,
    ) -> CompiledSearch | None:
        """A compiled search that expands exactly what search.py's ``_Search`` expands with
        ``expander`` and these options, in the same order, or None: then the Python search
        runs. The family's ``native`` search says where its kernel runs (none by default);
        the parametrised tests of the kernels prove it the same (docs/solver.md)."""
        if self.native is None:
            return None
        return self.native.compiled_search(
            expander, weights, depth_weight, table_size, frontier_size, explore
        )

    def safe_moves(self, state: State) -> list[Move]:
        """The moves to the foundations that lose no win, played one after the other from
        ``state`` until none is left (what Autoplay plays, and the widget after each move
        when asked). The default is autoplay.py's rule for ``Patience`` games, none for
        others; a family whose foundations give cards back proves its own rule."""
        return patience_safe_moves(state)

    def explain_dead_end(self, state: State) -> DeadEnd | None:
        """A ``why.DeadEnd`` when a lemma of the family decides at ``state`` itself that no
        win exists (its kind, its words, the cards it is about), else None (the default:
        the generic path knows no lemma). What it says must be true of the position: the
        family's tests check it against an exhaustive search of small positions."""
        return None

    def key_bytes(self, game: Game) -> int:
        """About how much memory one key of the transposition table takes, with its share
        of the table (a dict in the Python search), for sizing it."""
        return plain_key_bytes(game)


GENERIC = Profile()
_PROFILES: dict[type, Profile] = {}


def register_profile(profile: Profile, *classes: type) -> Profile:
    """Declare ``profile`` for games of exactly these classes."""
    for cls in classes:
        _PROFILES[cls] = profile
    return profile


def profile_for(game: Game) -> Profile:
    """The profile of ``game``'s class, else the generic one."""
    return _PROFILES.get(type(game), GENERIC)


def safe_moves(state: State) -> list[Move]:
    """The safe moves to the foundations from ``state``, in order, by the rule of its
    game's profile (``Profile.safe_moves``): what Autoplay plays.

    Examples:
        With ``state`` FreeCell's deal 1, where no Ace is free yet:

        >>> sw.safe_moves(state)
        []
    """
    return profile_for(state.game).safe_moves(state)
