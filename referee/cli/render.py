"""Every piece of terminal output, in one place (Rich), and its JSON twin."""

from __future__ import annotations

import json
from dataclasses import is_dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.segment import Segment  # loaded with rich.console already

from ..engine.model.digest import state_to_dict
from ..engine.model.state import GameState
from ..engine.model.tokens import Clan
from ..engine.notation.round import format_entry
from ..engine.resolution.report import RoundReport

if TYPE_CHECKING:
    from rich.table import Table

console = Console(highlight=False, emoji=False)  # ids and player names print as typed
NEWLINE = Segment("\n")


def _table(title: str) -> Table:
    from rich.table import Table  # loaded where a table is drawn: the round report, the hot path, has none

    return Table(title=title, title_justify="left")


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
    """Every token's fate, every battle's arithmetic, the changes to make on the board, the seal.

    One line per token, side or change, columns aligned: lines a player can check against the table,
    copy or search (long lines are left whole for the terminal to wrap)."""
    if json_out:
        print_json({"round": report.round, "report": report, "state": state_to_dict(state), "seal": seal})
        return
    out: list[Segment] = []  # the report's text, each part with its style, printed as it is

    def line(*parts: str | tuple[str, str]) -> None:
        for part in parts:
            text, style = (part, "") if isinstance(part, str) else part
            if text:
                out.append(Segment(text, console.get_style(style) if style else None))
        out.append(NEWLINE)

    def cite(*rulings: str) -> tuple[str, str]:
        named = ", ".join(r for r in rulings if r)
        return ("  " + named if named else "", "dim")

    console.rule(f"[bold]Round {report.round}[/bold]")
    line(("Tokens", "bold"))
    tokens = [(format_entry(f.entry), str(f.fate).replace("_", " "), f) for f in report.fates]
    width = max((len(t) for t, _, _ in tokens), default=0)
    fate_width = max((len(fate) for _, fate, _ in tokens), default=0)
    for token, fate, f in tokens:
        why = f.reason + ("; its blessing is discarded (R-10)" if f.blessings_discarded else "")
        line(f"  {token:<{width}}  ", (f"{fate:<{fate_width}}", "bold"), f"  {why}", cite(f.ruling or ""))
    for r in report.raids:
        line(f"raid on {r.province} ({r.clan}): {'triggered' if r.triggered else 'no effect'}: {r.why}", cite("R-12"))
    for p in report.peace:
        line(f"peace in {p}", cite("R-13"))
    for b in report.battles:
        against = dict(b.against)
        sides = [
            (
                f"{b.defender} (defender)" if b.defender else "no defender",
                " + ".join(f"{p.label} {p.value}" for p in b.defence) or "nothing",
                b.defence_total,
            )
        ]
        for side in b.attackers:
            note = f" (faces {against[side.clan]}, R-05)" if against[side.clan] != b.defence_total else ""
            sides.append(
                (f"{side.clan} (attacker){note}", " + ".join(f"{p.label} {p.value}" for p in side.parts), side.total)
            )
        who_width = max(len(who) for who, _, _ in sides)
        parts_width = max(len(parts) for _, parts, _ in sides)
        line(("Battle for ", "bold"), (b.province, "bold"))
        for who, parts, total in sides:
            line(f"  {who:<{who_width}}  {parts:<{parts_width}}  = ", (str(total), "bold"))
        line(f"  → {b.outcome}: {b.why}", cite(*b.rulings))
    for d in report.defenses:
        line(f"successful defense of {d.province} ({d.clan}): {d.why}", cite("R-17"))
    line(("On the board:", "bold"))
    for c in report.changes:
        line(f"  • {c.text}")
    for w in report.warnings:
        line(("warning:", "yellow"), f" {w}")
    if seal:
        line((f"seal {seal}", "bold"))
    console.print(_Printed(out), soft_wrap=True)


class _Printed:
    """Styled report lines printed as they are, ending in one newline: what printing them as one Rich
    Text with soft wrapping prints, byte for byte, without building the Text (control characters
    stripped character by character) and re-splitting it into lines, two of the three milliseconds a
    round report took. The report's text is the engine's (ids, numbers, fixed words): no control
    characters, no tabs, no trailing spaces on a line."""

    def __init__(self, segments: list[Segment]):
        while segments and segments[-1] is NEWLINE:
            segments.pop()
        self.segments = [*segments, NEWLINE]

    def __rich_console__(self, console: Console, options: Any) -> Any:
        return self.segments


def casebook(results: list) -> None:
    failed = 0
    for case, problems in results:
        if problems:
            failed += 1
            console.print(f"[red]FAIL[/red] {case.id} ({', '.join(case.cites)}): {'; '.join(problems)}")
    passed = len(results) - failed
    console.print(f"{passed} passed, {failed} failed")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def final_score(final, *, json_out: bool = False, provisional: bool = False) -> None:
    """The final honor, line by line, winner and tie-break (R-24, R-25)."""
    if json_out:
        print_json(
            {
                "winners": final.winners,
                "tiebreak": final.tiebreak,
                "scores": [
                    {
                        "clan": s.clan,
                        "total": s.total,
                        "territories": s.territories,
                        "provinces": s.provinces,
                        "lines": [{"label": line.label, "honor": line.honor} for line in s.lines],
                    }
                    for s in final.scores
                ],
            }
        )
        return
    console.rule("[bold]Honor so far (the game is not over)[/bold]" if provisional else "[bold]Final honor[/bold]")
    for s in final.scores:
        table = _table(
            f"{s.clan}: {s.total} honor ({_count(s.territories, 'territory', 'territories')}, "
            f"{_count(s.provinces, 'province', 'provinces')})"
        )
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
    table = _table(title)
    table.add_column("territory / province", min_width=max(map(len, board.provinces)) + 2)  # an id is never cut
    for col in ("flowers", "control", "faceup", "special"):
        table.add_column(col, justify="right" if col in ("flowers", "faceup") else "left")
    for t in board.territories.values():
        owner = state.territory_controller(t.id)
        holder = next((str(c) for c, held in state.cards_held.items() if any(x == t.id for x, _ in held)), None)
        if t.id in state.cards_on_board:
            card = f"card: {state.cards_on_board[t.id] or 'unknown'}"
        elif holder:
            card = f"card held by {holder}"
        else:
            card = "card played"
        table.add_row(
            f"[bold]{t.id}[/bold]" + (f"\n[dim]controlled by {owner}[/dim]" if owner else "") + f"\n[dim]{card}[/dim]"
        )
        for p in t.provinces:
            c = state.control.get(p)
            special = state.special.get(p)
            capital = " ♜" if board.provinces[p].is_capital else ""
            table.add_row(
                "  " + p + capital,
                str(board.provinces[p].flowers),
                str(c.clan) if c else "",
                str(c.faceup) if c and c.faceup else "",
                str(special) if special else "",
            )
        table.add_section()
    console.print(table)


def game_created(game: str, state: GameState, where: str) -> None:
    console.print(f"created [bold]{game}[/bold]: {', '.join(map(str, state.clans))} (seat order) in {where}")
    console.print(
        "capitals populated (p.4 step 6); next: referee setup GAME FILE (starting control tokens), "
        "then referee round GAME SHEET"
    )


def games(infos, *, json_out: bool = False) -> None:
    rows = [
        {
            "game": g.game,
            "clans": g.header.get("clans"),
            "event": g.header.get("event", ""),
            "table": g.header.get("table", ""),
            "events": g.events,
            "created": g.created_at,
        }
        for g in infos
    ]
    if json_out:
        print_json(rows)
        return
    table = _table(f"{len(rows)} game(s)")
    longest = max((len(r["game"]) for r in rows), default=4)
    table.add_column("game", no_wrap=True, min_width=longest)  # an id is copied, never cut
    table.add_column("clans", min_width=max(map(len, Clan)) + 1)  # a clan's name (and its comma) is never cut
    for col in ("event", "table", "events"):
        table.add_column(col)
    table.add_column("created", min_width=len("2026-11-23"))  # the time goes under the date if need be
    for r in rows:
        created = (r["created"] or "")[:16].replace("T", " ")  # minutes are enough on screen; --json has it all
        table.add_row(r["game"], ", ".join(r["clans"] or []), r["event"], r["table"], str(r["events"]), created)
    console.print(table)


def game_summary(fold, events, *, json_out: bool = False) -> None:
    h = fold.header
    seals = [(e.data["round"], e.seal, e.type) for e in events if e.type in ("RoundResolved", "EntryCorrected")]
    data = {
        "game": h.game,
        "clans": h.clans,
        "players": h.players,
        "event": h.event,
        "table": h.table,
        "date": h.date,
        "options": h.options.to_dict(),
        "engine_version": h.engine_version,
        "board_version": h.board_version,
        "round": fold.state.round,
        "events": len(events),
        "seals": [{"round": r, "seal": s, "event": t} for r, s, t in seals],
    }
    if json_out:
        print_json(data)
        return
    where = [part for part in (h.event, f"table {h.table}" if h.table else "", h.date) if part]
    console.print(f"[bold]{h.game}[/bold]" + (f"  {', '.join(where)}" if where else ""))
    players = ", ".join(f"{c} ({h.players.get(str(c))})" if h.players.get(str(c)) else str(c) for c in h.clans)
    console.print(f"seats: {players}")
    console.print(f"rules options: {', '.join(f'{k}={v}' for k, v in h.options.to_dict().items())}")
    console.print(f"engine {h.engine_version}, board data {h.board_version}; {len(events)} events")
    done = fold.state.round - 1
    console.print(f"rounds played: {done} of 5" + ("  (game over)" if done >= 5 else ""))
    for r, seal, t in seals:
        console.print(f"  round {r}: seal {seal}" + ("  (correction)" if t == "EntryCorrected" else ""))


def entry_echo(round_no: int, lines) -> None:
    console.print(f"[bold]Round {round_no} as entered:[/bold]")
    for line in lines:
        console.print(f"  {line}")


def replay(steps, *, json_out: bool = False) -> None:
    if json_out:
        print_json(
            [
                {
                    "seq": s.event.seq,
                    "round": s.report.round,
                    "seal": s.event.seal,
                    "report": s.report,
                    "state": state_to_dict(s.state),
                }
                for s in steps
            ]
        )
        return
    for s in steps:
        entry_echo(s.report.round, [format_entry(f.entry) for f in s.report.fates])
        round_report(s.report, s.state, seal=s.event.seal)


def verified(target: str, events, found, lines, *, json_out: bool = False) -> None:
    if json_out:
        print_json(
            {
                "target": target,
                "events": len(events),
                "ok": found is None,
                "divergence": None
                if found is None
                else {
                    "seq": found.seq,
                    "problem": str(found.problem),
                    "detail": found.detail,
                    "line": lines[found.index] if lines else None,
                },
            }
        )
        return
    if found is None:
        last = next((e.seal for e in reversed(events) if e.type in ("RoundResolved", "EntryCorrected")), None)
        console.print(
            f"{target}: {len(events)} events verified: hash chain whole, every digest re-computed by the engine"
            + (f"; last seal {last}" if last else "")
        )
    else:
        where = f" (line {lines[found.index]})" if lines else ""
        console.print(f"[red]{target}: first divergence at {found}{where}[/red]")


def _outcome_table(title: str, outcome) -> Table:
    table = _table(title)
    table.add_column("province")
    table.add_column("control")
    for b in outcome.report.battles:
        table.add_row(b.province, f"{b.outcome}: {b.winner or b.defender or 'nobody'}")
    return table


def what_if(w, *, json_out: bool = False) -> None:
    from ..engine import final_score as score_of

    sides = [("as recorded", w.original), ("what if", w.changed)]
    if json_out:
        print_json(
            {
                "round": w.round,
                "note": w.note,
                **{
                    name.replace(" ", "_"): {
                        "entries": o.lines,
                        "state": state_to_dict(o.state),
                        "report": o.report,
                        "final_honor": {str(s.clan): s.total for s in score_of(o.final).scores} if o.final else None,
                    }
                    for name, o in sides
                },
            }
        )
        return
    from rich.columns import Columns

    console.rule(f"[bold]Round {w.round}: as recorded vs what if[/bold]")
    changed = [line for line in w.changed.lines if line not in w.original.lines]
    removed = [line for line in w.original.lines if line not in w.changed.lines]
    for line in removed:
        console.print(f"  [red]- {line}[/red]")
    for line in changed:
        console.print(f"  [green]+ {line}[/green]")
    table = _table("Side by side")
    table.add_column("")
    table.add_column("as recorded")
    table.add_column("what if")
    provinces = sorted(set(w.original.state.control) | set(w.changed.state.control))
    for p in provinces:
        a, b = w.original.state.control.get(p), w.changed.state.control.get(p)
        fa = f"{a.clan} ({a.faceup} up)" if a else "-"
        fb = f"{b.clan} ({b.faceup} up)" if b else "-"
        if fa != fb:
            table.add_row(p, fa, fb)

    def held(st) -> str:
        return "; ".join(f"{c}: {', '.join(t for t, _ in v)}" for c, v in sorted(st.cards_held.items()) if v) or "-"

    table.add_row("territory cards", held(w.original.state), held(w.changed.state))
    if w.original.final is not None and w.changed.final is not None:
        ha = {str(s.clan): s.total for s in score_of(w.original.final).scores}
        hb = {str(s.clan): s.total for s in score_of(w.changed.final).scores}
        for clan in ha:
            table.add_row(f"honor {clan}", str(ha[clan]), str(hb.get(clan)))
    console.print(table)
    console.print(
        Columns([_outcome_table("battles as recorded", w.original), _outcome_table("battles, what if", w.changed)])
    )
    if w.note:
        console.print(f"[yellow]note:[/yellow] {w.note}")


def correction(c, seal: str) -> None:
    console.rule(f"[bold]Correction of round {c.round}[/bold] (event {c.seq})")
    console.print(f"reason: {c.reason}")
    for line in c.original.lines:
        if line not in c.corrected.lines:
            console.print(f"  [red]- {line}[/red]")
    for line in c.corrected.lines:
        if line not in c.original.lines:
            console.print(f"  [green]+ {line}[/green]")
    round_report(c.corrected.report, c.corrected.after, seal=seal)


def table_notes(round_no: int, lines, notes, seal: str | None = None) -> None:
    for line, note in zip(lines, notes, strict=False):
        console.print(f"  ✓ {line}  [dim]— {note}[/dim]")
    if seal:
        console.print(f"[dim]round {round_no}: table events recorded, seal {seal}[/dim]")
