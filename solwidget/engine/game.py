"""The Game: what every game offers, whatever its rules.

A game subclass supplies the pile ids, the deal, move generation (``iter_moves``), applying
a legal move (``apply_legal``), the words for a refusal (``_refusal``) and the checks of a
position (``_check_position``). Everything else (``play`` refusing exactly what
``legal_moves`` leaves out, positions as dicts, move text, ``is_stuck``) is shared here,
so that the rules are written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, ClassVar

from .cards import BACK, FACE_DOWN, card_name, deck, face_up, parse_card, seen_codes
from .checks import check_position_shape, shown, shown_name
from .deals import DEAL_LIMITS, check_deal_number, shuffled_cards
from .errors import IllegalMove, InvalidMoveText, InvalidOption, InvalidPosition, UnknownPile
from .moves import Move, parse_move_text
from .state import Extra, Pile, State
from .svg import state_svg

if TYPE_CHECKING:
    from .geometry import Layout

STOCK_ACTIONS = {("stock", "waste"), ("waste", "stock")}
PARSED_KEPT = 4096  # Moves parse_move remembers, a game: FreeCell's all fit


class Game:
    """A game of patience: its piles, its deals and its rules, shared by all its positions.

    Get one with ``load_game(game_id, **options)``; a Game is immutable and equal to any
    other Game of the same id and options. Its positions are States (``game.deal(n)``), which
    ask their game for everything; the methods that take a ``state`` are what
    ``state.legal_moves()``, ``state.play(move)`` and the others call.

    Attributes:
        id: the game's id, as ``load_game`` and ``games()`` name it.
        name: the game's name for people.
        summary: the rules in a few lines (``solwidget games``, the widget's Rules panel).
        pile_ids: every pile's id, in the order of ``State.piles``: ``f0`` foundations,
            ``c0`` free cells, ``t0`` tableau piles, ``stock``, ``waste``, ...
        pile_kinds: each pile id's kind: foundation, tableau, cell, stock, waste or deck.
        options: the options of this variant (``load_game("freecell", cells=3)``).

    Examples:
        >>> game = sw.load_game("freecell")
        >>> game.pile_ids[:5]
        ('f0', 'f1', 'f2', 'f3', 'c0')
        >>> game.deal(1).pile("t0")
        ['JD', 'KD', '2S', '4C', '3S', '6D', '6S']

    Subclasses (one per family of games) supply the pile ids, the deal, move generation,
    applying a legal move, the words for a refusal and the checks of a position.
    """

    id: str = ""
    name: str = ""
    summary: str = ""  # the rules in a few lines, for help texts
    tagline: str = ""  # one short line, for `solwidget games` (default: summary's first sentence)
    decks: int = 1
    pile_ids: tuple[str, ...] = ()
    pile_kinds: Mapping[str, str] = {}  # id -> foundation | tableau | cell | stock | waste | deck
    option_defaults: ClassVar[Mapping[str, object]] = {}
    rulebook: str = ""  # where its whole rules are written (default: its section of docs/rules.md)
    deal_limits: tuple[int, int] = DEAL_LIMITS  # the first and last deal number

    def __init__(self, **options: object):
        unknown = set(options) - set(self.option_defaults)
        if unknown:
            known = ", ".join(sorted(self.option_defaults)) or "none"
            raise InvalidOption(f"{self.id} has no option {', '.join(sorted(unknown))} (options: {known})")
        self.options = {**self.option_defaults, **options}
        self.index_of = {pid: i for i, pid in enumerate(self.pile_ids)}
        self.foundation_indices = tuple(
            i for i, pid in enumerate(self.pile_ids) if self.pile_kinds[pid] == "foundation"
        )
        self.card_count = 52 * self.decks
        self._parsed: set[Move] = set()  # the Moves parse_move returned: each in its one form

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.id == other.id and self.options == other.options

    def __hash__(self) -> int:
        return hash(self.id)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled as its class and options (a variant's class, made at run time, pickles
        # as its definition instead: solwidget/variants.py).
        return (_made, (type(self), self.options))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items() if v != self.option_defaults.get(k))
        return f"load_game({self.id!r}{opts})"

    def describe(self) -> str:
        """The one-line description of the game: its tagline, else the summary's first sentence."""
        if self.tagline:
            return self.tagline
        return self.summary.split(". ")[0].rstrip(".") + "." if self.summary else self.name

    def pile_index(self, pile_id: str) -> int:
        """The index in ``State.piles`` of the pile named ``pile_id`` (``"t3"``, ``"f0"``).

        Raises:
            UnknownPile: the game has no pile of that id (a KeyError too; the message says so).
        """
        try:
            return self.index_of[pile_id]
        except (KeyError, TypeError):
            raise UnknownPile(
                f"{self.id} has no pile {shown(pile_id)}: its piles are {', '.join(self.pile_ids)}"
            ) from None

    PLACE_NAMES: ClassVar[Mapping[str, str]] = {
        "foundation": "a foundation",
        "cell": "a free cell",
        "tableau": "a pile",
        "stock": "the stock",
        "waste": "the waste",
        "deck": "a deck",
        "space": "a space",
    }

    def place_name(self, pile_id: str) -> str:
        """What a person calls pile ``pile_id`` where no card names it ("a free cell", "the
        stock"): the board shows no pile ids. ``engine.words`` builds its sentences on it.

        Examples:
            >>> sw.load_game("freecell").place_name("c2")
            'a free cell'
        """
        return self.PLACE_NAMES.get(self.pile_kinds.get(pile_id, ""), "a pile")

    # ----------------------------------------------------------------- deals
    def deal(self, number: int) -> State:
        """Deal ``number``, as PySolFC deals it for the games it has."""
        return self._deal(shuffled_cards(check_deal_number(number, self.deal_limits), self.decks))

    def _deal(self, cards: list[int]) -> State:
        raise NotImplementedError

    # ----------------------------------------------------------------- moves
    def iter_moves(self, state: State) -> Iterator[Move]:
        """The legal moves in ``state``, one at a time, in the game's order (each game
        supplies it; ``legal_moves`` lists them)."""
        raise NotImplementedError

    def apply_legal(self, state: State, move: Move) -> State:
        """The position after ``move``, which the caller knows to be legal here: no check,
        for the solver's speed (each game supplies it; ``play`` checks first)."""
        raise NotImplementedError

    def _refusal(self, state: State, move: Move) -> str | None:
        """Why ``move`` is illegal here, in words (called only for illegal moves)."""
        return None

    def legal_moves(self, state: State) -> list[Move]:
        """Every move the rules allow in ``state``, in the game's own order (``state.legal_moves()``)."""
        return list(self.iter_moves(state))

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every legal move with the state it leads to: the solver's hot path."""
        apply = self.apply_legal
        for move in self.iter_moves(state):
            yield move, apply(state, move)

    def explain(self, state: State, move: Move | str) -> str | None:
        """None when ``move`` is legal, else the rule that forbids it."""
        try:
            move = self.parse_move(move)
        except InvalidMoveText as err:
            return str(err)
        return self._reason(state, move)

    def pickup_refusal(self, state: State, pile_id: str, index: int, n: int) -> str | None:
        """Why a player may not even pick up ``n`` cards of pile ``pile_id``, from card
        ``index`` (0: the bottom card) up; None when nothing forbids taking them in hand
        (where they may go is ``explain``'s). The words name no card the player cannot see.

        Args:
            state: the position.
            pile_id: the pile the cards are in.
            index: the lowest card picked up, counted from the pile's bottom.
            n: how many cards are picked up (a Mutated Solitaire deck gives one from inside).

        Examples:
            >>> game = sw.load_game("triple_interchange")
            >>> game.pickup_refusal(game.deal(1), "t0", 1, 1)
            'a face-down card cannot be picked up'
            >>> game.pickup_refusal(game.deal(1), "t0", 8, 1) is None
            True
        """
        cards = state.piles[self.pile_index(pile_id)]
        if not 0 <= index < len(cards) or not 1 <= n <= len(cards) - index:
            return f"{pile_id} holds {len(cards)} card{'s' * (len(cards) != 1)}: no {n} from card {index} up"
        reason = self._pickup_refusal(state, pile_id)
        if reason:
            return reason
        shown = self.visible_pile(state, pile_id)[index : index + n]
        if shown[0] == BACK:
            return "a face-down card cannot be picked up"
        if BACK in shown:
            return f"{shown[0]} lies under a face-down card, and a face-down card cannot be moved"
        return None

    def _pickup_refusal(self, state: State, pile_id: str) -> str | None:
        """Why no card of ``pile_id`` may be picked up here (Interlock: it is covered)."""
        return None

    def iter_moves_from(self, state: State, src: str) -> Iterator[Move]:
        """The legal moves that take cards from pile ``src`` (games may find them quicker)."""
        return (move for move in self.iter_moves(state) if move.src == src)

    def is_legal(self, state: State, move: Move | str) -> bool:
        """Do the rules allow ``move`` (a Move or move text) in ``state``? ``explain`` without
        the words, for a line checked move by move (a solver's, say).

        Raises:
            InvalidMoveText: ``move`` is text that does not parse, or names no pile of the game.
        """
        return self._allows(state, self.parse_move(move))

    def _allows(self, state: State, move: Move) -> bool:
        """``is_legal`` for a move already parsed: it is one of the legal moves (a game may
        answer quicker, from the same rules)."""
        return move in self.iter_moves_from(state, move.src)

    def _reason(self, state: State, move: Move) -> str | None:
        """``explain`` for a move already parsed."""
        if self._allows(state, move):
            return None
        return self._why_illegal(state, move)

    def _why_illegal(self, state: State, move: Move) -> str:
        """The rule that forbids ``move``, which is illegal here, in words."""
        return self._refusal(state, move) or f"{move} is not a legal move in this position"

    def play(self, state: State, move: Move | str) -> State:
        """The position after ``move`` (a Move or move text) in ``state`` (``state.play(move)``).

        Raises:
            InvalidMoveText: ``move`` is text that does not parse, or names no pile of the game.
            IllegalMove: the rules forbid the move here; its ``reason`` says which rule.
        """
        move = self.parse_move(move)
        reason = self._reason(state, move)
        if reason is not None:
            raise IllegalMove(move, reason)
        return self.apply_legal(state, move)

    def positions_along(self, state: State, moves: Iterable[Move | str]) -> list[State]:
        """``state`` and the position after each of ``moves`` (Moves or move text), each move
        checked by the rules where it is played, as ``state.play`` checks it: a line's proof.

        Raises:
            InvalidMoveText: a move is text that does not parse, or names no pile of the game.
            IllegalMove: at the first move the rules forbid where it comes.
        """
        positions = [state]
        parse, allows, apply = self.parse_move, self._allows, self.apply_legal  # looked up once
        for given in moves:
            move = parse(given)
            if not allows(state, move):
                raise IllegalMove(move, self._why_illegal(state, move))
            state = apply(state, move)
            positions.append(state)
        return positions

    def is_won(self, state: State) -> bool:
        """True when every card of the game is on the foundations (``state.is_won()``)."""
        return sum(len(state.piles[i]) for i in self.foundation_indices) == self.card_count

    def is_stuck(self, state: State) -> bool:
        """True when only stock cycling is left, or nothing: no card can ever move again.

        Follows the stock actions alone; positions are remembered by their piles only, since
        a later pass over the same piles (more redeals used) can do no more than the first.
        """
        seen, todo = {state.piles}, [state]
        while todo:
            current = todo.pop()
            for move in self.iter_moves(current):
                if (move.src, move.dst) not in STOCK_ACTIONS:
                    return False
                following = self.apply_legal(current, move)
                if following.piles not in seen:
                    seen.add(following.piles)
                    todo.append(following)
        return not self.is_won(state)

    def key(self, state: State) -> Hashable:
        """Canonical key: states with equal keys play alike (games refine it)."""
        return state.piles, state.extra

    # ----------------------------------------------------------- move text
    actions: frozenset[str] = frozenset()  # words allowed as a move's destination

    def parse_move(self, text: Move | str) -> Move:
        """Read move text (or check a Move): ``"t3 f0"``, ``"t3 t5 4"``, ``"stock waste"``.
        Both go through one normaliser, so a Move plays exactly as its text does."""
        if text.__class__ is Move and text.n.__class__ is int:  # not True for 1, nor 1.0
            try:
                if text in self._parsed:
                    return text  # a Move returned before, in its one form: a line replayed
            except TypeError:  # a field that does not hash: refused below, in words
                pass
        move = parse_move_text(text)
        for pid in (move.src, move.dst):
            if not isinstance(pid, str) or (pid not in self.index_of and pid not in self.actions):
                raise InvalidMoveText(f"malformed move {shown(text)}: {self.id} has no pile {shown(pid)}")
        if move.n > self.card_count:
            raise InvalidMoveText(
                f"malformed move {shown(text)}: the number of cards must be from 1 to {self.card_count}"
            )
        if len(self._parsed) >= PARSED_KEPT:
            self._parsed.clear()
        self._parsed.add(move)
        return move

    # ------------------------------------------------------------ positions
    def to_dict(self, state: State) -> dict[str, object]:
        """``state`` as plain JSON-able data, which ``state_from_dict`` reads back (``state.to_dict()``).

        The dict holds the game id, every pile's cards bottom to top as text (face-down
        cards in brackets, ``"[QH]"``), what else the game remembers (stock passes, deck
        modes) and the game's options.
        """
        piles = {pid: [card_name(c) for c in cards] for pid, cards in zip(self.pile_ids, state.piles)}
        return {
            "game": self.id,
            "piles": piles,
            **self._extra_to_dict(state.extra),
            **({"options": dict(self.options)} if self.options else {}),
        }

    def _extra_to_dict(self, extra: Extra) -> dict[str, object]:
        return {}

    def _extra_from_dict(self, d: dict[str, object]) -> Extra:
        return ()

    def state_from_dict(self, d: dict[str, object]) -> State:
        """Rebuild a position from ``to_dict`` data; InvalidPosition names any problem."""
        if not isinstance(d, dict):
            raise InvalidPosition(f"a position is a dict with 'game' and 'piles', not {shown(d)}")
        check_position_shape(d)
        if d.get("game", self.id) != self.id:
            raise InvalidPosition(f"this position is of game {shown(d.get('game'))}, not {self.id!r}")
        if d.get("options", self.options) != self.options:
            raise InvalidPosition(
                f"this position has options {shown(d.get('options'))}, the game has {self.options!r}"
            )
        raw = d.get("piles")
        if not isinstance(raw, dict):
            raise InvalidPosition(
                f"a position needs 'piles': a dict of pile id -> list of cards, not {shown(raw)}"
            )
        unknown = [p for p in raw if p not in self.index_of]
        if unknown:
            raise InvalidPosition(
                f"unknown piles {', '.join(map(shown_name, unknown[:5]))}: "
                f"{self.id} has {', '.join(self.pile_ids)}"
            )
        missing = [p for p in self.pile_ids if p not in raw]
        if missing:
            raise InvalidPosition(f"missing piles {', '.join(missing)} (list empty piles as [])")
        piles = []
        for pid in self.pile_ids:
            cards = raw[pid]
            if not isinstance(cards, (list, tuple)):
                raise InvalidPosition(f"pile {pid} must be a list of cards, not {shown(cards)}")
            try:
                piles.append(tuple(parse_card(c) for c in cards))
            except ValueError as err:
                raise InvalidPosition(f"pile {pid}: {err}") from None
        self._check_cards(piles)
        extra = self._extra_from_dict(d)
        self._check_position(piles, extra)
        return State(self, tuple(piles), extra)

    def _check_cards(self, piles: list[Pile]) -> None:
        counts = Counter(face_up(c) for pile in piles for c in pile)
        expected = Counter({c: self.decks for c in deck(1)})
        wrong = []
        for card in sorted(expected):
            if counts[card] != self.decks:
                wrong.append(f"{card_name(card)} appears {counts[card]} times")
        if wrong:
            per_deck = "once" if self.decks == 1 else f"{self.decks} times"
            raise InvalidPosition(
                f"each card must appear exactly {per_deck}: "
                + ", ".join(wrong[:8])
                + (" ..." if len(wrong) > 8 else "")
            )

    def _check_position(self, piles: list[Pile], extra: Extra) -> None:
        """Refuse what the game cannot hold (InvalidPosition); games add their rules."""

    # ------------------------------------------------------ what a player sees
    def hidden_below(self, state: State) -> dict[str, int]:
        """Piles whose lowest cards the rules hide although they lie face up: pile id -> how
        many (Mutated Solitaire's decks in built mode hide the cards beneath their base)."""
        return {}

    def visible_pile(self, state: State, pile_id: str) -> list[str]:
        """One pile as the player sees it, bottom to top: card codes (``"QH"``), and
        ``"back"`` for a face-down card or one the rules hide."""
        cards = state.piles[self.pile_index(pile_id)]
        return seen_codes(cards, self.hidden_below(state).get(pile_id, 0))

    def visible(self, state: State) -> dict[str, list[str]]:
        """Every pile as the player sees it (``visible_pile``): what the widget and the
        picture of a position draw, so that neither can show a card the player may not see.

        Examples:
            >>> game = sw.load_game("triple_interchange")
            >>> game.visible(game.deal(1))["t0"][:4]
            ['3D', 'back', '6H', 'back']
        """
        hidden = self.hidden_below(state)
        return {pid: seen_codes(cards, hidden.get(pid, 0)) for pid, cards in zip(self.pile_ids, state.piles)}

    # -------------------------------------------------------------- display
    def format(self, state: State) -> str:
        """A text board as the player sees it: foundations and cells on one line each (top
        cards), one line per other pile, face-down cards as ``##``, the stock as a count."""
        lines = [f"{self.name} ({self.id})"]
        width = max(len(p) for p in self.pile_ids)
        rows: dict[str, list[str]] = {}
        for pid, cards in zip(self.pile_ids, state.piles):
            kind = self.pile_kinds[pid]
            if kind in ("foundation", "cell"):
                top = _shown(cards[-1]) if cards else "--"
                if kind not in rows:
                    rows[kind] = []
                    lines.append(kind)  # placeholder, filled in below
                rows[kind].append(f"{pid} {top}")
            elif kind == "stock":
                lines.append(f"{pid + ':':<{width + 1}} {len(cards)} card{'s' * (len(cards) != 1)}")
            else:
                lines.append(f"{pid + ':':<{width + 1}} {' '.join(map(_shown, cards)) or '--'}")
        titles = {"foundation": "foundations", "cell": "cells"}
        return "\n".join(
            f"{titles[line]}: {'  '.join(rows[line])}" if line in rows else line for line in lines
        )

    def layout(self) -> Layout:
        """Where each pile sits (card units), how it fans, what it covers: for the widget."""
        raise NotImplementedError

    def picture(self, state: State, unit: float = 44.0, four_colour: bool = False) -> str:
        """``state`` drawn as SVG text, as the player sees it, ``unit`` pixels to a card's
        width (``State._repr_svg_``: a position shows itself in a notebook)."""
        return state_svg(state, unit, four_colour)


def _made(cls: type[Game], options: dict[str, object]) -> Game:
    """A game again from its class and options (unpickling)."""
    return cls(**options)


def _shown(card: int) -> str:
    """A card as the player sees it: face-down cards are ``##``."""
    return "##" if card & FACE_DOWN else card_name(card)
