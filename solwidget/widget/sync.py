"""What the widget sends to the browser and what it accepts back, with no Jupyter needed.

The browser sees only what a player at the table sees: each pile as a list of card codes
(``"QH"``), a face-down or otherwise hidden card as ``"back"`` (a run of them synced as
one ``"back*N"``). Every message from the browser goes through ``check_message`` before
anything happens; a bad one raises ``BadMessage`` with words for the person, and changes nothing.
"""

from __future__ import annotations

import json

from ..engine.cards import BACK
from ..engine.checks import shown, shown_name
from ..engine.deals import check_deal_number, deal_rule
from ..engine.errors import InvalidMoveText, SolwidgetError
from ..engine.geometry import STACK_SHOWN, as_data
from ..engine.moves import Move
from ..engine.state import State
from ..engine.words import pile_names

__all__ = [
    "BadDeal",
    "BadMessage",
    "board_of",
    "changed_piles",
    "check_message",
    "compact_pile",
    "expand_pile",
    "extras_of",
    "status_of",
    "synced_pile",
]

MAX_MESSAGE_BYTES = 1024  # a move or an action is tens of bytes: anything bigger is not ours
MAX_MOVE_TEXT = 40  # "d2 r1c3 QH" and the like: longer text is no move
ACTIONS = ("new", "restart", "undo", "redo", "hint", "autoplay", "solve", "stop", "replay")


class BadMessage(SolwidgetError):
    """A message from the browser that is not a well-formed request."""


class BadDeal(BadMessage):
    """A deal number from the browser's box that is none of the game's (the rule is
    engine.deals'; the box shows these words)."""


def compact_pile(codes: list[str]) -> list[str]:
    """A pile as it is synced: each run of two or more backs becomes one ``"back*N"`` entry.

    A stock of 100 face-down cards is then one short entry, not 100 ``"back"`` ones.
    """
    out: list[str] = []
    run = 0
    for code in [*codes, None]:
        if code == BACK:
            run += 1
            continue
        if run:
            out.append(BACK if run == 1 else f"{BACK}*{run}")
            run = 0
        if code is not None:
            out.append(code)
    return out


def synced_pile(codes: list[str], stack: bool = False) -> list[str]:
    """What a pile trait carries: ``codes`` with runs of backs compacted. A ``stack`` (a pile
    that does not fan: stock, waste, cells, foundations) shows only its top two cards, so
    the cards beneath them go as backs too: a long waste is one short entry, not 100 codes."""
    if stack and len(codes) > STACK_SHOWN:
        codes = [BACK] * (len(codes) - STACK_SHOWN) + codes[-STACK_SHOWN:]
    return compact_pile(codes)


def expand_pile(synced: list[str]) -> list[str]:
    """The pile's codes one per card, from its synced form (``compact_pile``'s inverse)."""
    out: list[str] = []
    for code in synced:
        if code.startswith(f"{BACK}*"):
            out += [BACK] * int(code[len(BACK) + 1 :])
        else:
            out.append(code)
    return out


def changed_piles(before: State | None, after: State) -> list[str]:
    """The ids of the piles that differ between two positions of one game."""
    if before is None or before.game != after.game:
        return list(after.game.pile_ids)
    hidden_before, hidden_after = after.game.hidden_below(before), after.game.hidden_below(after)
    return [
        pid
        for pid, old, new in zip(after.game.pile_ids, before.piles, after.piles)
        if old != new or hidden_before.get(pid) != hidden_after.get(pid)
    ]


def extras_of(state: State) -> dict:
    """What the position holds besides its piles (stock passes used, deck modes), as the
    front end shows it."""
    return {k: v for k, v in state.to_dict().items() if k not in ("game", "piles", "options")}


def cards_home(state: State) -> int:
    return sum(len(state.piles[i]) for i in state.game.foundation_indices)


def status_of(state: State, moves_made: int, seconds: int | None = None) -> dict:
    """Moves made, cards home, and whether the game is won or stuck, with a line of text.

    A win reads the same in every game: "52/52 cards home · won in 115 moves!", with the
    time a person took (``seconds``) when the win is their play, never a replay's."""
    game = state.game
    home = cards_home(state)
    won = state.is_won()
    stuck = not won and state.is_stuck()
    made = f"{moves_made} move{'s' * (moves_made != 1)}"
    if won:
        took = f" and {duration(seconds)}" if seconds is not None else ""
        text = f"{home}/{game.card_count} cards home · won in {made}{took}!"
    else:
        text = f"{made} · {home}/{game.card_count} cards home" + (" · no moves left" if stuck else "")
    status = {
        "moves": moves_made,
        "home": home,
        "total": game.card_count,
        "won": won,
        "stuck": stuck,
        "text": text,
    }
    if won and seconds is not None:
        status["seconds"] = seconds
    return status


def duration(seconds: int) -> str:
    """``75`` -> ``"1 min 15 s"``."""
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def board_of(game) -> dict:
    """What the front end draws the game's board from, sent once: the game's layout, the
    board's geometry (``engine.geometry``), and what it shows about the game itself (the
    deal box's help is the rule of ``engine.deals``, which the kernel alone applies)."""
    return {
        **game.layout(),
        "geometry": as_data(),
        "game": game.id,
        "name": game.name,
        "summary": game.summary,
        "deal_rule": deal_rule(game.deal_limits),
        "rulebook": game.rulebook or f"{game.name} in docs/rules.md",
        "kinds": dict(game.pile_kinds),
        "actions": sorted(game.actions),
        "names": pile_names(game.layout()),
    }


# ------------------------------------------------------------------ checking messages
MAX_DEPTH = 4  # a request nests no deeper than this (an object of plain values)


def _check_size(content) -> None:
    """Refuse anything but JSON data of at most MAX_MESSAGE_BYTES, nested at most MAX_DEPTH
    deep, walking it without recursion and stopping as soon as it is too big."""
    size, todo = 0, [(content, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise BadMessage(f"a message nested more than {MAX_DEPTH} deep is not a request")
        if isinstance(value, dict):
            size += 2 + 2 * len(value)
            for key, item in value.items():
                if not isinstance(key, str):
                    raise BadMessage(f"a message's keys must be text, not {shown(key)}")
                size += len(key) + 2
                todo.append((item, depth + 1))
        elif isinstance(value, (list, tuple)):
            size += 2 + len(value)
            todo.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            size += len(value) + 2 if len(value) > MAX_MESSAGE_BYTES else len(json.dumps(value))
        elif value is None or isinstance(value, (bool, int, float)):
            size += len(repr(value)) if not isinstance(value, int) or value.bit_length() < 64 else 20
        else:
            raise BadMessage(f"a message must be JSON data, not {shown(value)}")
        if size > MAX_MESSAGE_BYTES:
            raise BadMessage(f"a message of more than {MAX_MESSAGE_BYTES} bytes is too large")


def _deal(value, game) -> int:
    """A deal number from the browser: the box's text (digits, exact however long) or a
    whole number, checked by the game's rule (engine.deals) and by nothing in the browser."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 30:
        value = int(value)
    try:
        return check_deal_number(value, game.deal_limits)
    except SolwidgetError as err:
        raise BadDeal(str(err)) from None


SOLVE_BUDGETS = (1.0, 10.0, 60.0, None)  # the toolbar's choice of seconds for Solve (None: no limit)
REPLAY_SPEEDS = (1.0, 0.5, 0.2, 0.05)  # the replay bar's speeds: seconds between two moves
SWITCH = (False, True)


def check_sync_data(sync_data, allowed: dict[str, tuple]) -> dict:
    """Trait updates from the browser: a dict of trait names among ``allowed`` -> one of the
    values ``allowed`` gives that trait (``SWITCH``: a bool). Returns the update with its
    numbers as floats; raises BadMessage, naming what does not fit, otherwise."""
    if not isinstance(sync_data, dict):
        raise BadMessage(f"a trait update must be a dict of trait names -> values, not {shown(sync_data)}")
    wrong = sorted(shown_name(k) for k in sync_data if k not in allowed)
    if wrong:
        raise BadMessage(
            f"the browser may not set {', '.join(wrong[:5])}{' ...' * (len(wrong) > 5)} "
            f"(only {', '.join(sorted(allowed))})"
        )
    checked = {}
    for name, value in sync_data.items():
        checked[name] = _choice(name, value, allowed[name])
    return checked


def _choice(name: str, value, choices: tuple):
    """``value`` if it is one of ``choices`` (a bool only where they are bools, a number as a
    float), else BadMessage."""
    if choices is SWITCH:
        if isinstance(value, bool):
            return value
        raise BadMessage(f"the browser may set {name} only to true or false, not {shown(value)}")
    if value is None and None in choices:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value in choices:
        return float(value)
    words = ", ".join("null" if c is None else f"{c:g}" for c in choices)
    raise BadMessage(f"the browser may set {name} only to one of {words}, not {shown(value)}")


def _whole(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadMessage(f"'{name}' must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def _text(value, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 16:
        raise BadMessage(f"'{name}' must be a short non-empty text, not {shown(value)}")
    return value


def _only(content: dict, allowed: set[str]) -> None:
    extra = sorted(set(content) - allowed)
    if extra:
        raise BadMessage(
            f"unexpected field{'s' * (len(extra) > 1)} {', '.join(map(repr, extra))} "
            f"in a {content['type']!r} message"
        )


def check_message(game, content, history_length: int) -> dict:
    """The request ``content`` (a message from the browser), checked field by field.

    Returns a clean dict: ``{"type": "move", "move": Move}`` (the browser sends a move as its
    text: ``{"type": "move", "move": "t3 t5 4"}``), ``{"type": "action", "name":
    ..., "deal": n?}``, ``{"type": "seek", "index": k}`` or ``{"type": "pick", "src": pid,
    "index": i, "n": n}`` (cards the person tried to pick up, and could not); raises
    BadMessage otherwise.
    """
    _check_size(content)
    if not isinstance(content, dict):
        raise BadMessage(f"a message must be an object with a 'type', not {type(content).__name__}")
    kind = content.get("type")
    if kind == "move":
        return {"type": "move", "move": _check_move(game, content)}
    if kind == "action":
        _only(content, {"type", "name", "deal"})
        name = content.get("name")
        if name not in ACTIONS:
            raise BadMessage(f"unknown action {shown(name)}: 'name' must be one of {', '.join(ACTIONS)}")
        out = {"type": "action", "name": name}
        if "deal" in content:
            if name != "new":
                raise BadMessage("only the 'new' action takes a deal number")
            out["deal"] = _deal(content["deal"], game)
        return out
    if kind == "seek":
        _only(content, {"type", "index"})
        return {"type": "seek", "index": _whole(content.get("index"), "index", 0, history_length)}
    if kind == "pick":
        _only(content, {"type", "src", "index", "n"})
        src = _text(content.get("src"), "src")
        if src not in game.pile_kinds:
            raise BadMessage(f"'src' names no pile of {game.id}: {shown(src)}")
        return {
            "type": "pick",
            "src": src,
            "index": _whole(content.get("index"), "index", 0, game.card_count - 1),
            "n": _whole(content.get("n"), "n", 1, game.card_count),
        }
    raise BadMessage(f"unknown message type {shown(kind)}: expected 'move', 'action', 'seek' or 'pick'")


def _check_move(game, content: dict) -> Move:
    """The move a ``{"type": "move", "move": TEXT}`` message asks for: its text (as the
    kernel sent it in ``legal``, or as the person tried it) read by the game, once."""
    _only(content, {"type", "move"})
    text = content.get("move")
    if not isinstance(text, str) or not 0 < len(text) <= MAX_MOVE_TEXT:
        raise BadMessage(
            f"'move' must be move text like 't3 f0' (at most {MAX_MOVE_TEXT} characters), not {shown(text)}"
        )
    try:
        return game.parse_move(text)
    except InvalidMoveText as err:
        raise BadMessage(f"'move': {err}") from None
