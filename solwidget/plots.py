"""Plots of studies (matplotlib): win rates with their confidence intervals, solve times.

    from solwidget import plots
    fig = plots.win_rate_plot([table1, table2], path="docs/win_rates.png")
    fig = plots.solve_time_plot([table1, table2], path="docs/solve_times.png")
    fig = plots.solution_length_plot([table1, table2], path="docs/solution_lengths.png")
    fig = plots.win_rate_curve({"Baker's Game": {0: t0, 1: t1, 2: t2}}, "free cells")

The first three take one ``StudyTable`` or several (a list, or a dict label -> table); the
last, a dict label -> {a rule's value: table}. Each draws on ``ax`` when given (else on a new
figure), saves a PNG when ``path`` is given, and returns the figure.
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path

from .study import StudyTable

WON, UNKNOWN, LOST = "#2e7d32", "#bdbdbd", "#c62828"


def _labelled(tables) -> list[tuple[str, StudyTable]]:
    if isinstance(tables, StudyTable):
        return [(tables.game, tables)]
    if isinstance(tables, dict):
        return list(tables.items())
    return [(table.game, table) for table in tables]


def _axes(ax, rows: int):
    if ax is not None:
        return ax.figure, ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(7.5, 1.2 + 0.55 * rows), layout="constrained")


def _save(fig, path) -> None:
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(os.fspath(path), dpi=120)


def win_rate_plot(tables, ax=None, path=None, confidence: float = 0.95):
    """Per game: the share of deals won, its Wilson interval, and the share left unknown.

    The dark bar is won / deals with its interval; the grey extension is the deals the
    budget did not decide, so the true rate lies between the bar's end and the grey's end.
    """
    labelled = _labelled(tables)
    fig, ax = _axes(ax, len(labelled))
    for y, (_label, table) in enumerate(labelled):
        counts, n = table.counts(), len(table)
        rate, low, high = table.win_rate(confidence)
        unknown = counts["unknown"] / n
        ax.barh(y, rate, color=WON, height=0.6)
        ax.barh(y, unknown, left=rate, color=UNKNOWN, height=0.6)
        ax.errorbar(rate, y, xerr=[[rate - low], [high - rate]], color="black", capsize=4, lw=1.2)
        ax.text(
            1.02,
            y,
            f"{rate:.1%}  ({counts['won']}/{n}"
            + (f", {counts['unknown']} unknown)" if counts["unknown"] else ")"),
            va="center",
            fontsize=9,
            transform=ax.get_yaxis_transform(),
        )
    ax.set_yticks(range(len(labelled)), [label for label, _ in labelled])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    budgets = sorted({table.budget_text() for _, table in labelled})
    ax.set_xlabel(
        f"deals won, with the {confidence:.0%} Wilson interval "
        f"({'budget' if len(budgets) == 1 else 'budgets'} {'; '.join(budgets)})"
    )
    ax.set_title("How often is each game won?", loc="left")
    _save(fig, path)
    return fig


def solve_time_plot(tables, ax=None, path=None):
    """Per game: the share of deals decided within t seconds (cumulative, log time axis)."""
    labelled = _labelled(tables)
    fig, ax = _axes(ax, max(4, len(labelled)))
    for label, table in labelled:
        times = sorted(row.seconds for row in table if row.status != "unknown")
        if not times:
            continue
        shares = [(i + 1) / len(table) for i in range(len(times))]
        ax.step([max(t, 1e-4) for t in times], shares, where="post", label=label)
    for budget in sorted({table.budget for _, table in labelled if table.budget is not None}):
        ax.axvline(budget, color="grey", ls="--", lw=1)
        ax.text(budget, 0.02, f" budget {budget:g} s", color="grey", fontsize=8, rotation=90, va="bottom")
    ax.set_xscale("log")
    from matplotlib.ticker import LogLocator

    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}")
    ax.xaxis.set_minor_formatter(lambda x, _: "")
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_xlabel("seconds per deal")
    ax.set_ylabel("deals decided (won or lost)")
    ax.set_title("How long does the solver take?", loc="left")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize=9)
    _save(fig, path)
    return fig


def solution_length_plot(tables, ax=None, path=None):
    """Per game: the lengths of the winning lines found (moves), as a box of the middle half,
    whiskers to the 5th and 95th percentiles, and the median written beside it.

    A line is the solver's first win, shortened, not the shortest there is: the lengths are
    what a player replaying the solver's wins would see.
    """
    labelled = [
        (label, [row.moves for row in table if row.status == "won" and row.moves])
        for label, table in _labelled(tables)
    ]
    labelled = [(label, moves) for label, moves in labelled if moves]
    fig, ax = _axes(ax, max(2, len(labelled)))
    if labelled:
        import matplotlib

        # Matplotlib 3.10 names a box plot's direction ``orientation``; before, ``vert``.
        newer = tuple(int(part) for part in matplotlib.__version__.split(".")[:2]) >= (3, 10)
        ax.boxplot(
            [moves for _, moves in labelled],
            **({"orientation": "horizontal"} if newer else {"vert": False}),
            whis=(5, 95),
            showfliers=False,
            widths=0.6,
            medianprops={"color": WON, "lw": 2},
        )
        for y, (_, moves) in enumerate(labelled, start=1):
            ax.text(
                1.02,
                y,
                f"median {statistics.median_low(moves)}  ({len(moves):,} wins)",
                va="center",
                fontsize=9,
                transform=ax.get_yaxis_transform(),
            )
        ax.set_yticks(range(1, len(labelled) + 1), [label for label, _ in labelled])
        ax.invert_yaxis()
    ax.set_xlabel("moves in the winning line found (box: middle half; whiskers: 5th-95th percentile)")
    ax.set_title("How long are the wins?", loc="left")
    ax.grid(True, axis="x", alpha=0.3)
    _save(fig, path)
    return fig


def win_rate_curve(series: dict, rule: str, ax=None, path=None, confidence: float = 0.95):
    """The win rate as one rule changes (variants, docs/variants.md): a line per label, a
    point per value of the rule with its Wilson interval, and above it a dotted line at the
    share won or left undecided, the most the true rate can be.

    Args:
        series: label -> {the rule's value (a number): the StudyTable of that variant}.
        rule: what the values are, for the x axis ("free cells").
        ax: axes to draw on (default: a new figure).
        path: where to save a PNG, if given.
        confidence: the interval's confidence level.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
    fig = ax.figure
    budgets: set[str] = set()
    ticks: set[float] = set()
    for label, tables in series.items():
        ticks.update(tables)
        values = sorted(tables)
        rates = [tables[v].win_rate(confidence) for v in values]
        rate = [r for r, _, _ in rates]
        errors = [[r - low for r, low, _ in rates], [high - r for r, _, high in rates]]
        line = ax.errorbar(values, rate, yerr=errors, marker="o", capsize=4, lw=1.5, label=label)
        undecided = [r + tables[v].counts()["unknown"] / len(tables[v]) for v, r in zip(values, rate)]
        if any(u > r for u, r in zip(undecided, rate)):
            ax.plot(values, undecided, ls=":", color=line[0].get_color(), lw=1.2)
        budgets.update(tables[v].budget_text() for v in values)
    ax.set_xticks(sorted(ticks))
    ax.set_ylim(-0.02, 1.02)
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_xlabel(f"{rule} ({'; '.join(sorted(budgets))})")
    ax.set_ylabel(f"deals won ({confidence:.0%} Wilson interval)")
    ax.set_title(f"Win rate as the {rule} change", loc="left")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right", fontsize=9)
    _save(fig, path)
    return fig
