"""Draw the README's winnability figures from the study files in docs/studies/.

    python docs/make_figures.py        # writes docs/win_rates.png and docs/solve_times.png,
                                       # prints the winnability table in Markdown

Each docs/studies/GAME.csv is made (and resumed) by:
    solwidget study GAME --deals 1-200 --budget 2 --workers 2 --out docs/studies/GAME.csv

and docs/free_cells.png, the win rate of two variants as their free cells change, from
docs/studies/variants/NAME.csv, each made from the variant file docs/variants/NAME.toml by:
    solwidget study docs/variants/NAME.toml --deals 1-100 --budget none --max-states 5000 \
        --out docs/studies/variants/NAME.csv
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from solwidget import plots
from solwidget.study import load_study

DOCS = Path(__file__).resolve().parent
ORDER = ["reversed_solitaire", "triple_interchange", "interlock", "mutated", "freecell", "inverted_freecell",
         "interchange", "unlimited", "single_interchange", "quadruple_interchange", "love_a_duck", "guardian"]


def main() -> None:
    files = sorted((DOCS / "studies").glob("*.csv"),
                   key=lambda f: ORDER.index(f.stem) if f.stem in ORDER else len(ORDER))
    tables = {f.stem: load_study(f) for f in files}
    plots.win_rate_plot(tables, path=DOCS / "win_rates.png")
    plots.solve_time_plot(tables, path=DOCS / "solve_times.png")
    cells_figure()
    print("| game | deals | budget | won | lost | unknown | win rate (95% CI) |")
    print("|---|---|---|---|---|---|---|")
    for game, table in tables.items():
        c = table.counts()
        rate, low, high = table.win_rate()
        print(f"| `{game}` | {table.deals[0]}-{table.deals[-1]} | {table.budget_text()} | {c['won']} | "
              f"{c['lost']} | {c['unknown']} | {rate:.0%} ({low:.0%}-{high:.0%}) |")


def cells_figure() -> None:
    """Reversed Solitaire and Baker's Game with 0 to 4 free cells (docs/variants.md)."""
    studies = DOCS / "studies" / "variants"
    series = {label: {n: load_study(studies / f"{prefix}_{n}_cells.csv") for n in range(5)
                      if (studies / f"{prefix}_{n}_cells.csv").exists()}
              for label, prefix in (("Reversed Solitaire", "reversed"), ("Baker's Game", "bakers"))}
    if any(series.values()):
        plots.win_rate_curve({k: v for k, v in series.items() if v}, "free cells", path=DOCS / "free_cells.png")


if __name__ == "__main__":
    main()
