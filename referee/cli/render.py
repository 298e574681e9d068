"""Every piece of terminal output, in one place (Rich), and its JSON twin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment  # loaded with rich.console already

from ..engine import Clan, GameState, RoundReport, format_entry, state_to_dict
from ..shown import plain
from ..views import data
from ..views.data import event_label, event_lines, jsonable as to_jsonable

if TYPE_CHECKING:
    from rich.table import Table

    from ..views.tournament import Listing


def new_console() -> Console:
    """The terminal's console as a command starts: its width from $COLUMNS or the terminal, ids and player
    names printed as typed."""
    return Console(highlight=False, emoji=False)


console = new_console()
NEWLINE = Segment("\n")


def markup(text: Any) -> str:
    """A user's text as Rich prints it literally: control characters made visible (``plain``), markup
    escaped. Every string a user gave (names, event titles, reasons, notes, typed lines, paths) is printed
    through this function, or through ``plain`` where nothing is read as markup."""
    return escape(plain(text))


def _table(title: str) -> Table:
    from rich.table import Table  # loaded where a table is drawn: the round report, the hot path, has none

    return Table(title=title, title_justify="left")


def print_listing(listing: Listing) -> None:
    """A listing (``views.tournament.Listing``) drawn as a Rich table as wide as its columns need (100
    characters at least): its title and every cell a user may have typed through ``markup``, None as empty."""
    from rich.table import Table

    drawn = Table(title=markup(listing.title), show_lines=False)
    for c in listing.columns:
        drawn.add_column(c)
    for r in listing.rows:
        drawn.add_row(*["" if v is None else markup(v) for v in r])
    Console(width=max(100, len(listing.columns) * 12)).print(drawn)


def print_json(value: Any) -> None:
    print(json.dumps(to_jsonable(value), indent=2, sort_keys=False))


def round_report(report: RoundReport, state: GameState, *, json_out: bool = False, seal: str | None = None) -> None:
    """Every token's fate, every battle's arithmetic, the changes to make on the board, the seal.

    One line per token, side or change, columns aligned: lines a player can check against the table,
    copy or search (long lines are left whole for the terminal to wrap)."""
    if json_out:
        print_json(data.round_data(report, data.board_data(state), seal))
        return
    out = _Lines()
    console.rule(f"[bold]Round {report.round}[/bold]")
    _tokens(out, report)
    for r in report.raids:
        outcome = "triggered" if r.triggered else "no effect"
        out.line(f"raid on {r.province} ({r.clan}): {outcome}: {r.why}", _cite("R-12"))
    for p in report.peace:
        out.line(f"peace in {p}", _cite("R-13"))
    for b in report.battles:
        _battle(out, b)
    for d in report.defenses:
        out.line(f"successful defense of {d.province} ({d.clan}): {d.why}", _cite("R-17"))
    out.line(("On the board:", "bold"))
    for c in report.changes:
        out.line(f"  • {c.text}")
    for w in report.warnings:
        out.line(("warning:", "yellow"), f" {w}")
    if seal:
        out.line((f"seal {seal}", "bold"))
    console.print(_Printed(out.segments), soft_wrap=True)


class _Lines:
    """A report's text, each part with its style, printed as it is."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []

    def line(self, *parts: str | tuple[str, str]) -> None:
        for part in parts:
            text, style = (part, "") if isinstance(part, str) else part
            if text:
                self.segments.append(Segment(text, console.get_style(style) if style else None))
        self.segments.append(NEWLINE)


def _cite(*rulings: str) -> tuple[str, str]:
    """The rulings a line applies, dimmed after it."""
    named = ", ".join(r for r in rulings if r)
    return ("  " + named if named else "", "dim")


def _tokens(out: _Lines, report: RoundReport) -> None:
    out.line(("Tokens", "bold"))
    tokens = [(format_entry(f.entry), str(f.fate).replace("_", " "), f) for f in report.fates]
    width = max((len(t) for t, _, _ in tokens), default=0)
    fate_width = max((len(fate) for _, fate, _ in tokens), default=0)
    for token, fate, f in tokens:
        why = f.reason + ("; its blessing is discarded (R-10)" if f.blessings_discarded else "")
        out.line(f"  {token:<{width}}  ", (f"{fate:<{fate_width}}", "bold"), f"  {why}", _cite(f.ruling or ""))


def _battle(out: _Lines, b) -> None:
    """A battle's sides, each with its parts and total aligned, then its outcome."""
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
        parts = " + ".join(f"{p.label} {p.value}" for p in side.parts)
        sides.append((f"{side.clan} (attacker){note}", parts, side.total))
    who_width = max(len(who) for who, _, _ in sides)
    parts_width = max(len(parts) for _, parts, _ in sides)
    out.line(("Battle for ", "bold"), (b.province, "bold"))
    for who, parts, total in sides:
        out.line(f"  {who:<{who_width}}  {parts:<{parts_width}}  = ", (str(total), "bold"))
    out.line(f"  → {b.outcome}: {b.why}", _cite(*b.rulings))


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


def casebook(results: list, *, json_out: bool = False) -> None:
    if json_out:  # one object a line, one line a case
        for case, problems in results:
            print(
                json.dumps(
                    {
                        "id": str(case.id),
                        "file": Path(case.file).name,
                        "cites": list(case.cites),
                        "passed": not problems,
                        "problems": list(problems),
                    },
                    ensure_ascii=False,
                )
            )
        return
    failed = 0
    for case, problems in results:
        if problems:
            failed += 1
            why = f"{case.id} ({', '.join(case.cites)}): {'; '.join(problems)}"
            console.print(f"[red]FAIL[/red] {markup(why)}")
    passed = len(results) - failed
    console.print(f"{passed} passed, {failed} failed")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def final_score(score, *, json_out: bool = False) -> None:
    """Honor per player, line by line (R-24); the winner and tie-break (R-25) only once the game is
    complete: until then the score is provisional and names no winner (R-28)."""
    if json_out:
        print_json(score.to_dict())
        return
    final = score.final
    console.rule("[bold]Honor: provisional[/bold]" if score.provisional else "[bold]Final honor[/bold]")
    for s in final.scores:
        table = _table(
            f"{markup(score.who(s.clan))}: {s.total} honor ({_count(s.territories, 'territory', 'territories')}, "
            f"{_count(s.provinces, 'province', 'provinces')})"
        )
        table.add_column("line")
        table.add_column("honor", justify="right")
        for line in s.lines:
            table.add_row(markup(line.label), str(line.honor))
        table.add_row("[bold]total[/bold]", f"[bold]{s.total}[/bold]")
        console.print(table)
    if score.partial_setup:
        console.print(PARTIAL)
    if score.provisional:
        console.print(f"[bold]{score.status()}[/bold]: no winner is named until then")
    else:
        names = " and ".join(markup(score.who(c)) for c in final.winners)
        console.print(f"[bold]Winner: {names}[/bold] ({final.tiebreak})")


def board_changes(lines: list[str], *seals: str) -> None:
    """What to change on the physical board now, then the new seal(s)."""
    console.print("[bold]On the board now:[/bold]")
    for line in lines or ["nothing to change"]:
        console.print(f"  • {markup(line)}")
    for seal in seals:
        console.print(f"[bold]seal {seal}[/bold]")


def board_view(state: GameState, *, json_out: bool = False, note: str = "") -> None:
    """The board by territory: control, faceup tokens, special tokens and territory cards; ``note``: the
    corrections behind a past round's board (``BoardAfter.note``), said under its title."""
    if json_out:
        print_json(data.noted(data.board_data(state), note))
        return
    console.print(_board_table(state))
    if note:
        console.print(note)


def _card_line(state: GameState, territory: str) -> str:
    """Where a territory's card is: on the board, held by a clan, or played."""
    if territory in state.cards_on_board:
        return f"card: {state.cards_on_board[territory] or 'unknown'}"
    holder = next((str(c) for c, held in state.cards_held.items() if any(x == territory for x, _ in held)), None)
    return f"card held by {holder}" if holder else "card played"


def _board_table(state: GameState) -> Table:
    board = state.board
    title = f"Board after round {state.round - 1}" if state.round > 1 else "Board at the start of round 1"
    table = _table(title)
    table.add_column("territory / province", min_width=max(map(len, board.provinces)) + 2)  # an id is never cut
    for col in ("flowers", "control", "faceup", "special"):
        table.add_column(col, justify="right" if col in ("flowers", "faceup") else "left")
    for t in board.territories.values():
        owner = state.territory_controller(t.id)
        card = _card_line(state, t.id)
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
    return table


PARTIAL = "setup: partial (a game taken over mid-way; round 1 is not held to the rulebook's setup, p.4)"


def reveal_code(seat: str, code: str) -> None:
    """The reveal code, for the player's eyes only. At a terminal it is shown on the alternate screen until
    the player says it is noted, then cleared: the public screen and its scrollback never hold it. Without
    a terminal (a script, a pipe) it is printed once, as a line a script can read."""
    import sys

    line = f"{seat}'s objective is sealed. Reveal code: [bold]{code}[/bold] (the player keeps it; it is not stored)"
    if not (sys.stdin.isatty() and console.is_terminal):
        console.print(line)
        return
    with console.screen():
        console.print(line)
        console.print("Note the code, then press Enter: it is cleared from the screen.")
        try:
            input()
        except (EOFError, KeyboardInterrupt):
            pass
        console.clear()
    console.print(f"{seat}'s objective is sealed; its reveal code was shown to the player and cleared")


def game_created(game: str, state: GameState, where: str, *, partial_setup: bool = False) -> None:
    console.print(f"created [bold]{game}[/bold]: {', '.join(map(str, state.clans))} (seat order) in {where}")
    console.print(
        f"capitals populated (p.4 step 6); next: referee setup {markup(game)} FILE (starting control tokens), "
        f"then referee round {markup(game)} SHEET"
    )
    if partial_setup:
        console.print(PARTIAL)


def games(infos, status: dict[str, str] | None = None, *, json_out: bool = False, where: str = "") -> None:
    rows = data.games_data(infos, status)
    if json_out:
        print_json(rows)
        return
    if where:
        console.print(f"database: {plain(where)}", soft_wrap=True, markup=False, highlight=False)
    table = _table(f"{len(rows)} game(s)")
    longest = max((len(r["game"]) for r in rows), default=4)
    table.add_column("game", min_width=longest, overflow="fold")  # an id is never cut; its state wraps under it
    widest = max(map(len, Clan)) + 1  # a clan's name and its comma: never cut, one a line when space is short
    table.add_column("clans", min_width=widest, max_width=widest if longest > 12 else None)
    # the event's name wraps at its words, in what the other columns leave (7 borders, 6 paddings of 2)
    room = console.width - 7 - 12 - max(longest, 4) - widest - len("table") - len("events") - 10
    table.add_column("event", max_width=max(6, min(room, 24)))
    for col in ("table", "events"):
        table.add_column(col)
    table.add_column("created", min_width=10, max_width=10)  # the time goes under the date
    for r in rows:
        created = (r["created"] or "")[:16].replace("T", " ")  # minutes are enough on screen; --json has it all
        game = markup(r["game"]) + (f"\n[dim]{markup(r['state'])}[/dim]" if r["state"] else "")  # state under id
        clans = markup(", ".join(r["clans"] or []))
        table.add_row(game, clans, markup(r["event"]), markup(r["table"]), str(r["events"]), markup(created))
    console.print(table)


def game_summary(fold, events, *, json_out: bool = False) -> None:
    h = fold.header
    seals = [(e.data["round"], e.seal, e.type) for e in events if e.type in ("RoundResolved", "EntryCorrected")]
    if json_out:
        print_json(data.show_data(fold, events))
        return
    where = [part for part in (h.event, f"table {h.table}" if h.table else "", h.date) if part]
    console.print(f"[bold]{markup(h.game)}[/bold]" + (f"  {markup(', '.join(where))}" if where else ""))
    players = ", ".join(f"{c} ({h.players.get(str(c))})" if h.players.get(str(c)) else str(c) for c in h.clans)
    console.print(f"seats: {markup(players)}")
    console.print(f"rules options: {markup(', '.join(f'{k}={v}' for k, v in h.options.to_dict().items()))}")
    console.print(f"engine {markup(h.engine_version)}, board data {markup(h.board_version)}; {len(events)} events")
    if h.partial_setup:
        console.print(PARTIAL)
    done = fold.state.round - 1
    console.print(f"rounds played: {done} of 5" + ("  (game over)" if done >= 5 else ""))
    for r, seal, t in seals:
        console.print(f"  round {r}: seal {seal}" + ("  (correction)" if t == "EntryCorrected" else ""))


def entry_echo(round_no: int, lines) -> None:
    console.print(f"[bold]Round {round_no} as entered:[/bold]")
    for line in lines:
        console.print(f"  {markup(line)}")


UNSEALED_TIME = "time not covered by the seal"  # the database's clock: neither the hash nor a seal covers it


def _time(e) -> str:
    return markup(e.recorded_at[:19].replace("T", " ")) if e.recorded_at else "time not recorded"


def _at(e) -> str:
    """When an event was written, by the database's clock: not covered by the hash or a seal
    (docs/signed-records.md), so shown as such."""
    return f"{_time(e)} ({UNSEALED_TIME})" if e.recorded_at else _time(e)


def replay(steps, *, json_out: bool = False, board_after=None) -> None:
    """Every event of the log in order, each labelled with the time it was recorded: a round with its report;
    table events, reveals, retractions and corrections with what they changed on the board."""
    rows = data.replay_rows(steps)
    if json_out:
        print_json(data.replay_data(rows, board_after))
        return
    console.print(f"each event with the time it was recorded ({UNSEALED_TIME}: the database's clock)")
    for s, changes in rows:
        e = s.event
        console.rule(f"[bold]{_time(e)}  event {e.seq}: {markup(event_label(e))}[/bold]", align="left")
        if e.type == "RoundResolved":
            entry_echo(s.report.round, [format_entry(f.entry) for f in s.report.fates])
            round_report(s.report, s.state, seal=e.seal)
            continue
        for line in event_lines(e):
            console.print(f"  {markup(line)}")
        if changes:
            console.print("On the board:")
            for line in changes:
                console.print(f"  • {markup(line)}")
        console.print(f"[bold]seal {e.seal}[/bold]")
    if board_after is not None:
        board_view(board_after.state, note=board_after.note())


def verified(
    target: str,
    events,
    found,
    lines,
    *,
    json_out: bool = False,
    status: str = "",
    sealed=None,
    superseded=None,
    notes=(),
) -> None:
    """`referee verify`: the chain and digests checked, the seal asked for, and what was not checked (``notes``)."""
    if json_out:
        print_json(
            data.verify_data(
                target, events, found, lines, status=status, sealed=sealed, superseded=superseded, notes=notes
            )
        )
        return
    if found is None:
        last = next((e.seal for e in reversed(events) if e.type in ("RoundResolved", "EntryCorrected")), None)
        console.print(
            f"{markup(target)}: {len(events)} events verified: hash chain whole, every digest re-computed by the engine"
            + (f"; last seal {last}" if last else "")
            + (f"; {markup(status)}" if status else "")
        )
        if sealed is not None:
            console.print(
                f"seal {sealed.seal}: {markup(event_label(sealed))}, event {sealed.seq} of {len(events)}"
                + (f", recorded {_at(sealed)}" if sealed.recorded_at else "")
                + "; every event up to it is in this log, unchanged"
            )
            if superseded is not None:
                console.print(markup(data.superseded_line(superseded)))
        for note in notes:
            console.print(f"[yellow]note:[/yellow] {markup(note)}")
    else:
        where = f" (line {lines[found.index]})" if lines else ""
        console.print(f"[red]{markup(target)}: first divergence at {markup(found)}{where}[/red]")


def _outcome_table(title: str, outcome) -> Table:
    table = _table(title)
    table.add_column("province")
    table.add_column("control")
    for b in outcome.report.battles:
        table.add_row(b.province, markup(f"{b.outcome}: {b.winner or b.defender or 'nobody'}"))
    return table


def what_if(w, *, json_out: bool = False) -> None:
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
                        "final_honor": o.score.totals() if o.score else None,
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
        console.print(f"  [red]- {markup(line)}[/red]")
    for line in changed:
        console.print(f"  [green]+ {markup(line)}[/green]")
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
    if w.original.score is not None and w.changed.score is not None:
        ha, hb = w.original.score.totals(), w.changed.score.totals()
        for clan in ha:
            table.add_row(f"honor {markup(w.original.score.who(clan))}", str(ha[clan]), str(hb.get(clan)))
    console.print(table)
    console.print(
        Columns([_outcome_table("battles as recorded", w.original), _outcome_table("battles, what if", w.changed)])
    )
    if w.note:
        console.print(f"[yellow]note:[/yellow] {markup(w.note)}")


def correction(title: str, reason: str, old: list[str], new: list[str], changes: list[str], seals: list[str]) -> None:
    """A recorded correction: what changed in the entry, then what to change on the physical board now (the
    board before the correction against the board after it, every later round re-run), and the new seals."""
    console.rule(f"[bold]{markup(title)}[/bold]")
    console.print(f"reason: {markup(reason)}")
    for line in old:
        if line not in new:
            console.print(f"  [red]- {markup(line)}[/red]")
    for line in new:
        if line not in old:
            console.print(f"  [green]+ {markup(line)}[/green]")
    board_changes(changes, *seals)


def table_notes(round_no: int, lines, notes, seal: str | None = None) -> None:
    for line, note in zip(lines, notes, strict=False):
        console.print(f"  ✓ {markup(line)}  [dim]— {markup(note)}[/dim]")
    if seal:
        console.print(f"[dim]round {round_no}: table events recorded, seal {seal}[/dim]")


def diagnosis(found, *, json_out: bool = False) -> None:
    """`referee doctor`: the database as a whole, then one line a game."""
    if json_out:
        print_json(
            {
                "database": found.where,
                "backend": found.backend,
                "ok": found.ok,
                "problems": found.problems,
                "games": [{"game": g.game, "ok": g.ok, "detail": g.detail} for g in found.games],
                "processes": found.processes,
            }
        )
        return
    console.print(f"database: {plain(found.where)} ({found.backend})", soft_wrap=True, markup=False)
    check = "SQLite integrity check" if found.backend == "sqlite" else "tables and triggers"
    if not found.problems:
        console.print(f"  {check}: ok", markup=False)
    for problem in found.problems:
        console.print(f"  {plain(problem)}", soft_wrap=True, markup=False)
    if found.games:  # one write for an archive's thousands of lines
        lines = (plain(f"  {g.game}: {'ok, ' if g.ok else 'FAILED: '}{g.detail}") for g in found.games)
        console.print("\n".join(lines), soft_wrap=True, markup=False, highlight=False)
    bad = sum(not g.ok for g in found.games)
    verdict = (
        "healthy" if found.ok else "damaged: nothing was changed; restore a copy, or `referee export` what verifies"
    )
    by = f" (games checked by {found.processes} processes)" if found.processes > 1 else ""
    console.print(
        f"{len(found.games)} game(s), {bad} failed; the database is {verdict}{by}", soft_wrap=True, markup=False
    )
