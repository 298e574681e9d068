"""A tournament's exports: standings, seating and results as CSV (one header row, stable columns, UTF-8) and the
printable seating sheet (plain text, 80 columns, for A4), from the views of ``tournament.py``. Each returns
text; the command line writes it. (The CSV files read, the other way: ``referee.engine.tournament.imports``.)"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from ..core.shown import csv_cell, plain
from ..engine.tournament.scoring import Finish, places, show, table_points
from ..engine.tournament.standings import Loaded, results
from .tournament import seating_by_player, seating_by_table, standings_view

STANDINGS_COLUMNS = ("rank", "shared", "player", "name", "club", "dropped")
SEATING_COLUMNS = ("round", "table", "seat", "player", "name", "clan", "game")
RESULT_COLUMNS = (
    "round",
    "table",
    "game",
    "seat",
    "player",
    "name",
    "clan",
    "honor",
    "territories",
    "provinces",
    "place",
    "points",
    "source",
    "provisional",
    "corrected",
)


def to_csv(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """Every CSV the referee writes: each cell through ``csv_cell`` (no cell a spreadsheet runs as a formula)."""
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else csv_cell(r.get(k))) for k in columns})
    return out.getvalue()


def standings_rows(loaded: Loaded) -> tuple[list[str], list[dict[str, Any]]]:
    st = standings_view(loaded)
    rounds = [f"round_{r}" for r in st["rounds"]]
    keys = [k for k in st["tiebreaks"] if k not in ("points", "h2h")]
    columns = [*STANDINGS_COLUMNS, *rounds, "adjustment", "total", *keys]
    rows = []
    for r in st["standings"]:
        row = {k: r[k] for k in STANDINGS_COLUMNS}
        row.update({f"round_{k}": v for k, v in r["rounds"].items()})
        row.update({"adjustment": show_fraction(r["adjustment"]), "total": r["total_shown"]})
        row.update({k: (r[k] if k == "honor" else r[f"{k}_shown"]) for k in keys})
        rows.append(row)
    return columns, rows


def show_fraction(value: str) -> str:
    from fractions import Fraction

    return show(Fraction(value))


def standings_csv(loaded: Loaded) -> str:
    columns, rows = standings_rows(loaded)
    return to_csv(columns, rows)


def seating_rows(loaded: Loaded, round_no: int, by: str = "table") -> list[dict[str, Any]]:
    if by == "player":
        return [r for r in seating_by_player(loaded, round_no)]
    return [
        {"round": round_no, "table": t["table"], "game": t["game"], **s}
        for t in seating_by_table(loaded, round_no)
        for s in t["seats"]
    ]


def seating_csv(loaded: Loaded, round_no: int, by: str = "table") -> str:
    return to_csv(SEATING_COLUMNS, seating_rows(loaded, round_no, by))


def result_rows(loaded: Loaded) -> list[dict[str, Any]]:
    t = loaded.tournament
    out = []
    for (r, table), res in sorted(results(loaded).items()):
        finishes = [Finish(x["honor"], x.get("territories", 0), x.get("provinces", 0)) for x in res.rows]
        pts = table_points(t.created.scoring, finishes, t.created.points)
        ranks = places(finishes)
        for i, x in enumerate(res.rows):
            out.append(
                {
                    "round": r,
                    "table": table,
                    "game": res.game,
                    "seat": i + 1,
                    "player": x["player"],
                    "name": t.name(x["player"]),
                    "clan": x["clan"],
                    "honor": x["honor"],
                    "territories": x.get("territories", 0),
                    "provinces": x.get("provinces", 0),
                    "place": ranks[i],
                    "points": show(pts[i]),
                    "source": res.source,
                    "provisional": res.provisional,
                    "corrected": res.corrected,
                }
            )
    return out


def results_csv(loaded: Loaded) -> str:
    return to_csv(RESULT_COLUMNS, result_rows(loaded))


def seating_sheet(loaded: Loaded, round_no: int) -> str:
    """The printable seating of a round: each table with its seats, then every player by name."""
    t = loaded.tournament
    width = 78
    lines = [plain(t.created.name).center(width), f"Round {round_no}: seating".center(width), ""]
    for tb in seating_by_table(loaded, round_no):
        lines.append(f"Table {tb['table']}    game {plain(tb['game'])}")
        for s in tb["seats"]:
            lines.append(f"  seat {s['seat']}  {s['clan']:<10} {plain(s['name'])}")
        lines.append("")
    lines += ["-" * width, "Find your table".center(width), ""]
    for p in seating_by_player(loaded, round_no):
        where = f"table {p['table']:>3}  seat {p['seat']}  {p['clan']}" if p["table"] else "sitting out this round"
        lines.append(f"  {plain(p['name'])[:40]:<42}{where}")
    if loaded.signed:  # as `tournament verify` states it: who signed the record, or "unsigned"
        lines += ["", "Organiser's signature:", f"  {plain(loaded.signed)}"]
    return "\n".join(line.rstrip() for line in lines) + "\n"
