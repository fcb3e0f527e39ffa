"""The Jupyter widget (needs anywidget) and what it sends, which needs no Jupyter (``sync``)."""


def __getattr__(name):
    if name == "SolitaireWidget":
        from .widget import SolitaireWidget
        return SolitaireWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
