"""The errors of the engine: each says, in words, what was wrong."""


class SolwidgetError(ValueError):
    """Base of every error that bad input to solwidget raises; its message says what was wrong.

    A ValueError, so ``except ValueError`` catches it too. Whatever raised it left every
    position, game and widget as it was before the call.
    """


class IllegalMove(SolwidgetError):
    """A move that the rules forbid; the message names the rule.

    Attributes:
        move: the Move refused.
        reason: the rule that forbids it, in words (what ``state.explain(move)`` returns).
    """

    def __init__(self, move: object, reason: str):
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason


class InvalidPosition(SolwidgetError):
    """A position (``state_from_dict``) that no play of the game could reach or hold."""


class InvalidMoveText(SolwidgetError):
    """Move notation that does not parse."""


class InvalidDeal(SolwidgetError):
    """A deal number that is not a whole number in the supported range."""


class InvalidOption(SolwidgetError, TypeError):
    """A game option that the game does not have, or a value that it cannot take
    (also a TypeError, as for any unknown keyword argument)."""


class UnknownGame(SolwidgetError, KeyError):
    """A game id that solwidget does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidArgument(SolwidgetError):
    """An argument of the wrong type or out of range (a budget, a portfolio, a flag); the
    message names the argument, shows the value and says what is accepted."""


class UnknownPile(SolwidgetError, KeyError):
    """A pile id that the game does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
