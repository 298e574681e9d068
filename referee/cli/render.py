"""Every piece of terminal output, in one place (Rich), and its JSON twin."""

from __future__ import annotations

import json
from dataclasses import asdict, is_dataclass
from enum import Enum
from typing import Any

from rich.console import Console
from rich.table import Table

from ..engine.digest import state_to_dict
from ..engine.notation import format_entry
from ..engine.report import RoundReport
from ..engine.state import GameState

console = Console(highlight=False)


def to_jsonable(value: Any) -> Any:
    if is_dataclass(value) and hasattr(value, "clan") and hasattr(value, "token") and hasattr(value, "province"):
        return format_entry(value)
    if is_dataclass(value):
        return {f: to_jsonable(getattr(value, f)) for f in value.__dataclass_fields__}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    return value


def print_json(value: Any) -> None:
    print(json.dumps(to_jsonable(value), indent=2, sort_keys=False))


def round_report(report: RoundReport, state: GameState, *, json_out: bool = False, seal: str | None = None) -> None:
    if json_out:
        print_json({"round": report.round, "report": report, "state": state_to_dict(state), "seal": seal})
        return
    console.rule(f"[bold]Round {report.round}[/bold]")
    tokens = Table(title="Tokens", show_lines=False, title_justify="left")
    for col in ("token", "fate", "why", "ruling"):
        tokens.add_column(col)
    for f in report.fates:
        why = f.reason + ("; its blessing is discarded (R-10)" if f.blessings_discarded else "")
        tokens.add_row(format_entry(f.entry), str(f.fate).replace("_", " "), why, f.ruling or "")
    console.print(tokens)
    for r in report.raids:
        console.print(f"raid on {r.province} ({r.clan}): {'triggered' if r.triggered else 'no effect'}: {r.why}  [dim]R-12[/dim]")
    for p in report.peace:
        console.print(f"peace in {p}  [dim]R-13[/dim]")
    for b in report.battles:
        table = Table(title=f"Battle for {b.province}", title_justify="left")
        table.add_column("side")
        table.add_column("parts")
        table.add_column("total", justify="right")
        who = f"{b.defender} (defender)" if b.defender else "no defender"
        table.add_row(who, " + ".join(f"{p.label} {p.value}" for p in b.defence) or "nothing", str(b.defence_total))
        against = dict(b.against)
        for side in b.attackers:
            note = f" (faces {against[side.clan]}, R-05)" if against[side.clan] != b.defence_total else ""
            table.add_row(f"{side.clan} (attacker){note}", " + ".join(f"{p.label} {p.value}" for p in side.parts), str(side.total))
        console.print(table)
        console.print(f"  → {b.outcome}: {b.why}  [dim]{', '.join(b.rulings)}[/dim]")
    for d in report.defenses:
        console.print(f"successful defense of {d.province} ({d.clan}): {d.why}  [dim]R-17[/dim]")
    console.print("[bold]On the board:[/bold]")
    for c in report.changes:
        console.print(f"  • {c.text}")
    for w in report.warnings:
        console.print(f"[yellow]warning:[/yellow] {w}")
    if seal:
        console.print(f"[bold]seal {seal}[/bold]")


def casebook(results: list) -> None:
    failed = 0
    for case, problems in results:
        if problems:
            failed += 1
            console.print(f"[red]FAIL[/red] {case.id} ({', '.join(case.cites)}): {'; '.join(problems)}")
    passed = len(results) - failed
    console.print(f"{passed} passed, {failed} failed")


def final_score(final, *, json_out: bool = False) -> None:
    """The final honor, line by line, winner and tie-break (R-24, R-25)."""
    if json_out:
        print_json({
            "winners": final.winners,
            "tiebreak": final.tiebreak,
            "scores": [{"clan": s.clan, "total": s.total, "territories": s.territories, "provinces": s.provinces,
                        "lines": [{"label": line.label, "honor": line.honor} for line in s.lines]} for s in final.scores],
        })
        return
    console.rule("[bold]Final honor[/bold]")
    for s in final.scores:
        table = Table(title=f"{s.clan}: {s.total} honor ({s.territories} territories, {s.provinces} provinces)", title_justify="left")
        table.add_column("line")
        table.add_column("honor", justify="right")
        for line in s.lines:
            table.add_row(line.label, str(line.honor))
        table.add_row("[bold]total[/bold]", f"[bold]{s.total}[/bold]")
        console.print(table)
    names = " and ".join(str(c) for c in final.winners)
    console.print(f"[bold]Winner: {names}[/bold] ({final.tiebreak})")


def board_view(state: GameState, *, json_out: bool = False) -> None:
    """The board by territory: control, faceup tokens, special tokens and territory cards."""
    if json_out:
        print_json(state_to_dict(state))
        return
    board = state.board
    title = f"Board after round {state.round - 1}" if state.round > 1 else "Board at the start of round 1"
    table = Table(title=title, title_justify="left")
    for col in ("territory", "province", "flowers", "control", "faceup", "special"):
        table.add_column(col, justify="right" if col in ("flowers", "faceup") else "left")
    for t in board.territories.values():
        owner = state.territory_controller(t.id)
        holder = next((str(c) for c, held in state.cards_held.items() if any(x == t.id for x, _ in held)), None)
        if t.id in state.cards_on_board:
            card = f"card on board: {state.cards_on_board[t.id] or 'unknown'}"
        elif holder:
            card = f"card held by {holder}"
        else:
            card = "card played"
        head = f"[bold]{t.id}[/bold]" + (f"\n[dim]controlled by {owner}[/dim]" if owner else "") + f"\n[dim]{card}[/dim]"
        for i, p in enumerate(t.provinces):
            c = state.control.get(p)
            special = state.special.get(p)
            capital = " ♜" if board.provinces[p].is_capital else ""
            table.add_row(head if i == 0 else "", p + capital, str(board.provinces[p].flowers),
                          str(c.clan) if c else "", str(c.faceup) if c and c.faceup else "", str(special) if special else "")
        table.add_section()
    console.print(table)
