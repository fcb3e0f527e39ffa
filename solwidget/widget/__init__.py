"""The Jupyter widget (needs anywidget) and what it sends, which needs no Jupyter (``sync``)."""

from ..extras import require_extra


def __getattr__(name):
    if name == "SolitaireWidget":
        require_extra("widget", "anywidget", "ipywidgets", "traitlets")
        from .widget import SolitaireWidget

        return SolitaireWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
