"""`referee tournament swiss ...`: Swiss tournaments for one-against-one games (the card game's Kotei): pairing
by score without rematches, results from the judge or from verified match logs, standings with OMW% and
OOMW% (C-10), and a top-8 or top-16 cut played as single elimination."""

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..core.numerals import whole
from .common import DbOpt, JsonOpt, open_store, read_input, write_output

commands = typer.Typer(
    help="Swiss tournaments for one-against-one games (the card game): pairing, results, standings, the cut.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
TidArg = Annotated[str, typer.Argument(help="The tournament's id.", show_default=False)]
RoundArg = Annotated[int, typer.Argument(min=1, max=30, help="The round.", show_default=False)]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (a correction needs one).")]


def _open(store, tid: str):
    from ..tournaments.swiss import OpenSwiss

    return OpenSwiss(store, tid)


def _echo(text: str) -> None:
    typer.echo(text)


def _json(value) -> None:
    import json

    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


@commands.command()
def new(
    tid: TidArg,
    name: Annotated[str, typer.Option(help="The tournament's name.")],
    rounds: Annotated[int, typer.Option(min=1, max=15, help="Swiss rounds.")] = 5,
    cut: Annotated[int, typer.Option(help="The cut to single elimination: 8, 16, or 0 (none).")] = 8,
    time_draws: Annotated[
        bool, typer.Option("--time-draws/--no-time-draws", help="Whether time called may end a match as a draw.")
    ] = True,
    date: Annotated[str, typer.Option(help="The date (YYYY-MM-DD).")] = "",
    db: DbOpt = None,
) -> None:
    """Create a Swiss tournament (format swiss: one against one, C-10)."""
    from ..engine.tournament.swiss_desk import SwissCreated, check_swiss_created
    from ..tournaments.swiss import create
    from .checks import calendar_date

    created = SwissCreated(tid, name, calendar_date(date), rounds, cut, time_draws)
    check_swiss_created(created)  # a refusal makes no database file
    with open_store(db, create=True) as store:
        create(store, created)
    _echo(f"{tid}: {name}, Swiss, {rounds} rounds" + (f", cut to the top {cut}" if cut else ", no cut"))


@commands.command()
def players(
    tid: TidArg,
    names: Annotated[list[str] | None, typer.Argument(help="Players' names.", show_default=False)] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="One name a line ('-': standard input).")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Register players (before round 1), or list them when no name is given."""
    from ..engine.tournament.swiss_desk import SwissPlayersRegistered, new_player

    given = list(names or []) + ([ln for ln in read_input(file).splitlines() if ln.strip()] if file else [])
    with open_store(db) as store:
        log = _open(store, tid)
        if given:
            taken = set(log.t.players)
            new = []
            for name in given:
                p = new_player(name, taken)
                taken.add(p["id"])
                new.append(p)
            log.record([SwissPlayersRegistered(new)])
    rows = [{"id": pid, "name": name, "dropped": pid in log.t.dropped} for pid, name in log.t.players.items()]
    if json_out:
        _json(rows)
        return
    _echo(f"{tid}: {len(rows)} players")
    for r in rows:
        _echo(f"  {r['id']}: {r['name']}" + (" (dropped)" if r["dropped"] else ""))


@commands.command()
def drop(
    tid: TidArg, player: Annotated[str, typer.Argument(help="The player.")], reason: ReasonOpt = "", db: DbOpt = None
) -> None:
    """Drop a player from the next pairing on."""
    from ..engine.tournament.swiss_desk import SwissPlayerDropped

    with open_store(db) as store:
        log = _open(store, tid)
        pid = log.t.player(player)
        log.record([SwissPlayerDropped(pid, reason)])
    _echo(f"{tid}: {log.t.players[pid]} dropped")


@commands.command()
def pair(tid: TidArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Pair the next round: a Swiss round (by score, no rematch, the bye to the lowest-ranked player without one),
    or after the Swiss rounds the cut's next elimination round. Recorded with its algorithm and cost."""
    from ..engine.tournament.swiss import pair_round
    from ..engine.tournament.swiss_desk import SwissCutPaired, pairing_event

    with open_store(db) as store:
        log = _open(store, tid)
        t = log.t
        n = t.next_round
        if n <= t.created.rounds:
            log.record([pairing_event(pair_round(n, list(t.players), t.results(), t.dropped))])
        else:
            log.record([SwissCutPaired(n, [list(p) for p in t.cut_pairs()])])
    _show_round(log.t, n, json_out)
    field = len(log.t.players) - len(log.t.dropped)
    if n == 1 and field < t.created.cut:  # said at once, not after the last Swiss round
        typer.echo(
            f"note: {field} players for a cut to the top {t.created.cut}: the cut cannot be paired, "
            "the Swiss standings will be final",
            err=True,
        )


def _show_round(t, n: int, json_out: bool) -> None:
    rnd = t.rounds[n]
    kind = "Swiss round" if n <= t.created.rounds else f"elimination round {n - t.created.rounds} of the cut"
    if json_out:
        _json(
            {
                "round": n,
                "kind": "swiss" if n <= t.created.rounds else "cut",
                "tables": [
                    {"table": i, "players": list(p), "result": _result(t, rnd, i)} for i, p in enumerate(rnd.pairs, 1)
                ],
                "bye": rnd.bye,
                "algorithm": rnd.pairing.algorithm if rnd.pairing else "bracket",
                "cost": rnd.pairing.cost if rnd.pairing else {},
            }
        )
        return
    _echo(f"{t.created.tournament}: round {n} ({kind})")
    for i, (a, b) in enumerate(rnd.pairs, 1):
        done = _result(t, rnd, i)
        _echo(f"  table {i}: {t.players[a]} against {t.players[b]}" + (f"  [{done}]" if done else ""))
    if rnd.bye:
        _echo(f"  bye: {t.players[rnd.bye]}")
    if rnd.pairing:
        cost = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in rnd.pairing.cost.items())
        _echo(f"  paired by {rnd.pairing.algorithm} v{rnd.pairing.version}: {cost}")


def _result(t, rnd, table: int) -> str:
    from ..engine.tournament.swiss import draw_said

    e = rnd.results.get(table)
    if e is None:
        return ""
    who = f"{t.players[e.winner]} wins ({e.victory})" if e.winner else draw_said(e.victory)
    return who + (f", match {e.game}" if e.game else "")


@commands.command()
def pairings(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Argument(min=1, help="The round (default: the last).")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A round's tables and their results."""
    with open_store(db) as store:
        t = _open(store, tid).t
    n = round_no or max(t.rounds, default=0)
    if n not in t.rounds:
        raise RefereeError(f"tournament {tid!r}: round {n} has not been paired")
    _show_round(t, n, json_out)


def _parse_result(t, round_no: int, line: str):
    """``<table>: <winner> <how>`` or ``<table>: draw [time]``."""
    from ..engine.tournament.swiss_desk import SwissResultRecorded

    head, colon, rest = line.partition(":")
    words = rest.split()
    table = whole(head.strip())
    if not colon or table is None or not words:
        raise RefereeError(f'"{line}": expected "<table>: <winner> <how>" or "<table>: draw [time]"')
    if words[0].lower() == "draw":
        return SwissResultRecorded(round_no, table, None, words[1].lower() if len(words) > 1 else "draw")
    if len(words) < 2:
        raise RefereeError(f'"{line}": how the match was won (military, dishonor, honor, enlightenment, concession)')
    return SwissResultRecorded(round_no, table, t.player(" ".join(words[:-1])), words[-1].lower())


@commands.command()
def result(
    tid: TidArg,
    round_no: RoundArg,
    lines: Annotated[
        list[str] | None, typer.Argument(help="'<table>: <winner> <how>' or '<table>: draw [time]'.")
    ] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="One result a line ('-': standard input).")] = None,
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Enter results as the judge: the winner and how (military, dishonor, honor, enlightenment, concession),
    or a draw (C-01's, or time called where the tournament allows it). All lines or none."""
    from dataclasses import replace

    given = list(lines or []) + ([ln for ln in read_input(file).splitlines() if ln.strip()] if file else [])
    if not given:
        raise typer.BadParameter("no result given (as arguments or --file)")
    with open_store(db) as store:
        log = _open(store, tid)
        events = [replace(_parse_result(log.t, round_no, ln), reason=reason) for ln in given]
        log.record(events)
    _echo(f"{tid}: round {round_no}: {len(events)} result(s) recorded")
    _left(log.t, round_no)


def _left(t, round_no: int) -> None:
    rnd = t.rounds[round_no]
    missing = [str(i) for i in range(1, len(rnd.pairs) + 1) if i not in rnd.results]
    _echo(f"  tables still playing: {', '.join(missing)}" if missing else f"  round {round_no} complete")
    if t.champion:
        _echo(f"  {t.players[t.champion]} wins the tournament")


@commands.command()
def accept(
    tid: TidArg,
    round_no: RoundArg,
    game: Annotated[str, typer.Argument(help="The card game match's id (its players named by their ids).")],
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Take a table's result from a card game match log: verified, finished, between that table's players."""
    from ..tournaments.swiss import result_from_match

    with open_store(db) as store:
        log = _open(store, tid)
        event = result_from_match(store, log.t, round_no, game, reason)
        log.record([event])
    _echo(f"{tid}: round {round_no}, table {event.table}: {_result(log.t, log.t.rounds[round_no], event.table)}")
    _left(log.t, round_no)


@commands.command()
def standings(
    tid: TidArg,
    explain: Annotated[bool, typer.Option("--explain", help="Each player's tie-breaks and opponents.")] = False,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="Also write the standings as CSV.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The standings (C-10): match points, OMW% (each opponent at least 1/3), OOMW%; the cut's winner if any."""
    with open_store(db) as store:
        t = _open(store, tid).t
    table = t.standings()
    if csv_file is not None:
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "id", "name", "points", "played", "omw", "oomw", "byes", "dropped"])
        for s in table:
            d = s.to_dict()
            writer.writerow(
                [
                    s.rank,
                    s.player,
                    t.players[s.player],
                    d["points"],
                    s.played,
                    d["omwp"],
                    d["oomwp"],
                    s.byes,
                    int(s.player in t.dropped),
                ]
            )
        write_output(csv_file, out.getvalue())
    if json_out:
        _json({"standings": [{**s.to_dict(), "name": t.players[s.player]} for s in table], "champion": t.champion})
        return
    done = len([r for r in t.swiss_rounds if t.rounds[r].complete])
    _echo(f"{t.created.name} ({tid}): standings after {done} of {t.created.rounds} Swiss rounds")
    for s in table:
        if explain:
            _echo(f"  {s.explain()}")
        else:
            pts = f"{float(s.points):g}"
            _echo(
                f"  {s.rank:>3}. {t.players[s.player]:<24} {pts:>4}  OMW {float(s.omwp):.2%}  OOMW {float(s.oomwp):.2%}"
            )
    if t.champion:
        _echo(f"champion: {t.players[t.champion]}")


@commands.command()
def verify(tid: TidArg, db: DbOpt = None) -> None:
    """The chain whole, every event taken, every pairing what its algorithm gives (exit 1 naming each problem)."""
    from ..tournaments.service import read_events
    from ..tournaments.swiss import verify as verify_swiss

    with open_store(db) as store:
        events = read_events(store, tid)
    problems = verify_swiss(events)
    for p in problems:
        _echo(f"{tid}: {p}")
    if problems:
        raise typer.Exit(1)
    _echo(f"{tid}: {len(events)} events, chain whole, every pairing found again: verified")


@commands.command()
def export(
    tid: TidArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    db: DbOpt = None,
) -> None:
    """The tournament's events as JSON Lines."""
    from ..records.jsonl import export_jsonl

    with open_store(db) as store:
        text = export_jsonl(_open(store, tid).events)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text)


@commands.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A Swiss tournament exported as JSON Lines.", show_default=False)],
    db: DbOpt = None,
) -> None:
    """Import a Swiss tournament: verified first (chain, events, every pairing found again), stored whole or not."""
    from ..tournaments.service import parse_jsonl
    from ..tournaments.swiss import import_log

    events = parse_jsonl(read_input(file))
    with open_store(db, create=True) as store:
        t = import_log(store, events)
    _echo(f"imported {t.created.tournament}: {len(events)} events, verified")
