"""Draw the winnability figures and print the winnability table from the study files in
docs/studies/.

    python docs/make_figures.py        # writes docs/win_rates.png, docs/solve_times.png,
                                       # docs/solution_lengths.png and docs/free_cells.png,
                                       # prints the table in Markdown

Each game's study is docs/studies/GAME.parquet, made (and resumed) by one command,
``solwidget study GAME --deals 1-10000 --budget 10 --out docs/studies/GAME.parquet`` for the
seed games (docs/studies.md gives each). Where such a study left deals unknown, they are
solved again with a larger budget into docs/studies/GAME_60s.parquet, and a deal decided there
counts as decided: the table says how many were.

    python docs/make_figures.py --cells   # the same figures; prints the table of Baker's Game
                                          # by its free cells beside the published rates

docs/free_cells.png, the win rate of two variants as their free cells change, is drawn from
docs/studies/variants/NAME.parquet, each made from the variant file docs/variants/NAME.toml by
``solwidget study docs/variants/NAME.toml --deals 1-10000 --budget 10 --out
docs/studies/variants/NAME.parquet`` (deals 1-2000 for Reversed Solitaire's).
"""

import argparse
from dataclasses import replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from solwidget import plots
from solwidget.study import StudyTable, load_study

DOCS = Path(__file__).resolve().parent
STUDIES = DOCS / "studies"
RERUN = "_60s"
# Baker's Game's published win rates by free cells: Jerry Bryan's solver over 1,000,000 random
# deals each ("Baker's Game, Recent Results", 2004), and Freecell Solver over the Microsoft deals
# 1-10,000,000 with four cells (7,431,962 won; Wikipedia, "Baker's Game", Statistics).
BRYAN = {0: "0.001%", 1: "0.18%", 2: "4.25%", 3: "28.9%", 4: "75.0%"}
FC_SOLVE = {4: "74.3%"}
ORDER = [
    "reversed_solitaire",
    "triple_interchange",
    "interlock",
    "mutated",
    "freecell",
    "inverted_freecell",
    "interchange",
    "unlimited",
    "single_interchange",
    "quadruple_interchange",
    "love_a_duck",
    "guardian",
]


def studies() -> dict[str, tuple[StudyTable, str]]:
    """Each game's table, its unknown deals settled by the rerun file where there is one, and
    its budget in words."""
    files = sorted(
        (f for f in STUDIES.glob("*.parquet") if not f.stem.endswith(RERUN)),
        key=lambda f: ORDER.index(f.stem) if f.stem in ORDER else len(ORDER),
    )
    tables = {}
    for file in files:
        table = load_study(file)
        rerun_file = file.with_name(file.stem + RERUN + ".parquet")
        if rerun_file.exists():
            tables[file.stem] = settled(table, load_study(rerun_file))
        else:
            tables[file.stem] = table, table.budget_text()
    return tables


def settled(table: StudyTable, rerun: StudyTable) -> tuple[StudyTable, str]:
    """``table`` with each unknown deal that ``rerun`` decided taking the rerun's row, and the
    budgets in words."""
    decided = {row.deal: row for row in rerun if row.status != "unknown"}
    if rerun.game != table.game or rerun.rules != table.rules:
        raise SystemExit(f"the rerun of {table.game} is of other rules than its study")
    rows = [decided.get(row.deal, row) if row.status == "unknown" else row for row in table]
    unknown = sum(row.status == "unknown" for row in table)
    return replace(table, rows=rows), (
        f"{table.budget_text()}; the {unknown} left unknown again at {rerun.budget_text()}"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cells",
        action="store_true",
        help="print the table of Baker's Game by its free cells, not the games' table",
    )
    args = parser.parse_args(argv)
    settled_tables = studies()
    tables = {game: table for game, (table, _) in settled_tables.items()}
    plots.win_rate_plot(tables, path=DOCS / "win_rates.png")
    plots.solve_time_plot(tables, path=DOCS / "solve_times.png")
    plots.solution_length_plot(tables, path=DOCS / "solution_lengths.png")
    series = cells_series()
    if any(series.values()):
        plots.win_rate_curve(
            {k: v for k, v in series.items() if v}, "free cells", path=DOCS / "free_cells.png"
        )
    if args.cells:
        print_cells_table(series["Baker's Game"])
    else:
        print_games_table(settled_tables)


def print_games_table(settled_tables: dict[str, tuple[StudyTable, str]]) -> None:
    print("| game | deals | budget | won | lost | unknown | win rate (95% CI) |")
    print("|---|---|---|---|---|---|---|")
    for game, (table, budget) in settled_tables.items():
        c = table.counts()
        rate, low, high = table.win_rate()
        print(
            f"| `{game}` | {table.deals[0]:,}-{table.deals[-1]:,} | {budget} | "
            f"{c['won']:,} | {c['lost']:,} | {c['unknown']:,} | {rate:.2%} ({low:.2%}-{high:.2%}) |"
        )


def cells_series() -> dict[str, dict[int, StudyTable]]:
    """Reversed Solitaire and Baker's Game with 0 to 4 free cells (docs/variants.md)."""
    studies = STUDIES / "variants"
    return {
        label: {
            n: load_study(studies / f"{prefix}_{n}_cells.parquet")
            for n in range(5)
            if (studies / f"{prefix}_{n}_cells.parquet").exists()
        }
        for label, prefix in (("Reversed Solitaire", "reversed"), ("Baker's Game", "bakers"))
    }


def print_cells_table(tables: dict[int, StudyTable]) -> None:
    print(
        "| free cells | deals | budget | won | lost | unknown | win rate (95% CI) | Bryan, random deals "
        "| Freecell Solver, deals 1-10,000,000 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for cells in sorted(tables, reverse=True):
        table = tables[cells]
        c = table.counts()
        rate, low, high = table.win_rate()
        print(
            f"| {cells} | {table.deals[0]:,}-{table.deals[-1]:,} | {table.budget_text()} | {c['won']:,} | "
            f"{c['lost']:,} | {c['unknown']:,} | {rate:.2%} ({low:.2%}-{high:.2%}) | {BRYAN[cells]} | "
            f"{FC_SOLVE.get(cells, '-')} |"
        )


if __name__ == "__main__":
    main()
