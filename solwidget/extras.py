"""Optional dependencies: each extra of the package, and the error when one is missing."""

from __future__ import annotations

import importlib

from .engine.errors import SolwidgetError


class MissingExtra(SolwidgetError, ImportError):
    """A part of solwidget whose optional dependencies are not installed.

    The message names the pip command that installs them, e.g.
    ``pip install "solwidget[widget]"`` for the notebook widget.
    """

    def __init__(self, extra: str, module: str):
        super().__init__(
            f"{module} is not installed; it comes with solwidget's {extra!r} extra: "
            f'pip install "solwidget[{extra}]"'
        )
        self.extra = extra
        self.module = module


def require_extra(extra: str, *modules: str) -> None:
    """Raise MissingExtra for the first of ``modules`` that cannot be imported."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as err:
            raise MissingExtra(extra, module) from err
