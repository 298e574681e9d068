"""`referee tournament swiss ...`: Swiss tournaments for one-against-one games (the card game's Kotei): pairing
by score without rematches (round 1 at random, from a recorded seed), results from the judge or from verified
match logs, standings with OMW% and OOMW% (C-10), and a cut to the top 2, 4, 8, 16... played as single
elimination. The live event's moves (a late player, a re-pair, a swap by hand, a reinstatement, the match
slips): swiss_live.py."""

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..core.numerals import whole
from ..core.shown import plain
from .common import DbOpt, JsonOpt, open_store, read_input, write_output

commands = typer.Typer(
    help="Swiss tournaments for one-against-one games (the card game): pairing, results, standings, the cut.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
TidArg = Annotated[str, typer.Argument(help="The tournament's id.", show_default=False)]
RoundArg = Annotated[int, typer.Argument(min=1, max=30, help="The round.", show_default=False)]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (a correction needs one).")]
MissedOpt = Annotated[
    str | None,
    typer.Option(
        "--missed",
        help="What each Swiss round a player missed counts as: loss or bye (a late player, a reinstated one).",
        show_default=False,
    ),
]


def _open(store, tid: str):
    from ..tournaments.swiss import OpenSwiss

    return OpenSwiss(store, tid)


def _echo(text: str) -> None:
    """A line for the terminal, the names typed by users with their control characters made visible."""
    typer.echo(plain(text))


def _json(value) -> None:
    import json

    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


def missed_as(value: str | None) -> str:
    """``--missed``'s value: loss or bye (a usage error otherwise)."""
    from ..engine.tournament.swiss import MISSED_AS

    if value is None:
        return ""
    if value.strip().lower() not in MISSED_AS:
        raise typer.BadParameter(f"{value!r}: loss or bye", param_hint="--missed")
    return value.strip().lower()


@commands.command()
def new(
    tid: TidArg,
    name: Annotated[str, typer.Option(help="The tournament's name.")],
    rounds: Annotated[int, typer.Option(min=1, max=15, help="Swiss rounds.")] = 5,
    cut: Annotated[
        int, typer.Option(help="The cut to single elimination: the top 2, 4, 8, 16, 32... (a power of two), or 0.")
    ] = 8,
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
    missed: MissedOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Register players, or list them when no name is given. Before round 1; or late, before a later Swiss round
    is paired, with --missed loss or --missed bye for each round missed (the organiser's choice)."""
    from ..engine.tournament.swiss_desk import SwissPlayersRegistered, new_player

    given = list(names or []) + ([ln for ln in read_input(file).splitlines() if ln.strip()] if file else [])
    how = missed_as(missed)
    with open_store(db) as store:
        log = _open(store, tid)
        if given:
            taken = set(log.t.players)
            new = []
            for name in given:
                p = new_player(name, taken)
                taken.add(p["id"])
                new.append(p)
            log.record([SwissPlayersRegistered(new, how)])
    t = log.t
    late = {a.player: a for a in t.absences if a.why == "late"}
    rows = [
        {"id": pid, "name": name, "dropped": pid in t.dropped, "from_round": late[pid].last + 1 if pid in late else 1}
        for pid, name in t.players.items()
    ]
    if json_out:
        _json(rows)
        return
    _echo(f"{tid}: {len(rows)} players")
    for r in rows:
        marks = [f"late: from round {r['from_round']}"] if r["from_round"] > 1 else []
        marks += ["dropped"] if r["dropped"] else []
        _echo(f"  {r['id']}: {r['name']}" + (f" ({'; '.join(marks)})" if marks else ""))
    if given and t.rounds and how:
        last = max(t.swiss_rounds)
        rounds = "round 1" if last == 1 else f"rounds 1 to {last}"
        _echo(f"registered late: {rounds} missed, each counted as a {how}; paired from round {last + 1} on")


@commands.command()
def drop(
    tid: TidArg,
    player: Annotated[str, typer.Argument(help="The player.")],
    reason: Annotated[
        str, typer.Option("--reason", help="Why; a second drop of a dropped player corrects the first one's reason.")
    ] = "",
    db: DbOpt = None,
) -> None:
    """Drop a player from the next pairing on (the player stays in the standings, left out of the cut)."""
    from ..engine.tournament.swiss_desk import SwissPlayerDropped

    with open_store(db) as store:
        log = _open(store, tid)
        pid = log.t.player(player)
        again = pid in log.t.dropped
        log.record([SwissPlayerDropped(pid, reason)])
    name = log.t.players[pid]
    if again:
        _echo(f"{tid}: {name}'s drop corrected: {reason.strip()}")
    else:
        _echo(f"{tid}: {name} dropped, from round {len(log.t.swiss_rounds) + 1}'s pairing on")


@commands.command()
def pair(
    tid: TidArg,
    seed: Annotated[
        int | None,
        typer.Option(help="Round 1's seed, a whole number (default: drawn at random); recorded with the pairing."),
    ] = None,
    given: Annotated[
        Path | None,
        typer.Option(
            "--given",
            help="A round paired by hand (on paper): 'TABLE: PLAYER vs PLAYER' a line, 'bye: PLAYER' ('-': stdin).",
        ),
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why the round is given by hand (with --given).")] = "",
    hold: Annotated[
        bool, typer.Option("--hold", help="Keep the pairing off the venue pages until `referee tournament post`.")
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Pair the next round: a Swiss round (by score, no rematch, the bye to the lowest-ranked player without one;
    round 1 at random, from a seed drawn and recorded), or after the Swiss rounds the cut's next elimination
    round; or record a round paired by hand (--given FILE --reason R). The venue pages show it at once, unless
    --hold."""
    from ..tournaments import venue
    from ..tournaments.swiss import given_pairing, next_pairing

    if given is not None and seed is not None:
        raise typer.BadParameter("a round given by hand has no seed", param_hint="--seed")
    if reason and given is None:
        raise typer.BadParameter("a reason goes with a round given by hand (--given FILE)", param_hint="--reason")
    with open_store(db) as store:
        log = _open(store, tid)
        t = log.t
        n = t.next_round
        if given is not None:
            pairs, bye = parse_given(t, n, read_input(given), str(given))
            log.record([given_pairing(t, n, pairs, bye, reason)])
        else:
            log.record([next_pairing(t, seed)])
        venue.record(store, tid, "post", str(n - 1 if hold else n))
    show_round(log.t, n, json_out)
    note = typer.echo
    field = len(log.t.players) - len(log.t.dropped)
    if n == 1 and field < t.created.cut:  # said at once, not after the last Swiss round
        note(
            f"note: {field} players for a cut to the top {t.created.cut}: the cut cannot be paired unless players "
            "register late, the Swiss standings will be final",
            err=True,
        )
    for line in rematches(log.t, n):
        note(f"note: {plain(line)}", err=True)
    if hold:
        note(f"note: round {n} is held off the venue pages: `referee tournament post {tid} {n}` shows it", err=True)


def parse_given(t, round_no: int, text: str, where: str) -> tuple[list[tuple[str, str]], str | None]:
    """A round paired by hand, one table a line (``4: Ann Lee vs Bo Chen``, ``v`` or ``against`` too) and the bye
    (``bye: Cy Dow``), players by name or id; the tables numbered 1 to N, each once, in any order."""
    import re

    tables: dict[int, tuple[str, str]] = {}
    bye = None
    for no, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        if colon and head.strip().lower() == "bye":
            if bye is not None:
                raise RefereeError(f'{where}, line {no}: "{line}": a second bye')
            bye = t.player(rest)
            continue
        table = whole(head.strip())
        parts = re.split(r"\s+(?:vs\.?|v\.?|against)\s+", rest.strip(), flags=re.IGNORECASE)
        if not colon or table is None or len(parts) != 2:
            raise RefereeError(f'{where}, line {no}: "{line}": expected "TABLE: PLAYER vs PLAYER" or "bye: PLAYER"')
        if table in tables:
            raise RefereeError(f'{where}, line {no}: "{line}": table {table} twice')
        tables[table] = (t.player(parts[0]), t.player(parts[1]))
    if not tables:
        raise RefereeError(f"{where}: no table given")
    if sorted(tables) != list(range(1, len(tables) + 1)):
        missing = sorted(set(range(1, max(tables) + 1)) - set(tables))
        raise RefereeError(f"{where}: round {round_no}'s tables are numbered 1 to {len(tables)}; missing: {missing}")
    return [tables[i] for i in sorted(tables)], bye


def rematches(t, n: int) -> list[str]:
    """The pairs of Swiss round ``n`` who met before (a rematch the algorithm could not avoid, or one made by hand);
    none in the cut, where players meet whoever the bracket gives them."""
    if n > t.created.rounds:
        return []
    rnd = t.rounds[n]
    met: dict[frozenset, int] = {}
    for r in t.results():
        if r.b is not None and r.round < n:
            met.setdefault(frozenset((r.a, r.b)), r.round)
    return [
        f"round {n}, table {i}: {t.players[a]} and {t.players[b]} met in round {met[frozenset((a, b))]}"
        for i, (a, b) in enumerate(rnd.pairs, 1)
        if frozenset((a, b)) in met
    ]


def show_round(t, n: int, json_out: bool, by: str = "table") -> None:
    """A round's pairing as `pair`, `pairings` and `swap` print it: by table (with results and how it was made),
    or by player name."""
    from ..views.swiss import round_page

    page = round_page(t, n)
    kind = "Swiss round" if n <= t.created.rounds else f"elimination round {n - t.created.rounds} of the cut"
    if json_out:
        rnd = t.rounds[n]
        _json(
            {
                "round": n,
                "kind": "swiss" if n <= t.created.rounds else "cut",
                "tables": [
                    {"table": x["table"], "players": [x["a"]["id"], x["b"]["id"]], "result": result_line(t, rnd, i)}
                    for i, x in enumerate(page["tables"], 1)
                ],
                "by_name": [
                    {"player": r["id"], "name": r["name"], "table": r["table"], "line": r["line"]}
                    for r in page["by_name"]
                ],
                "bye": rnd.bye,
                "algorithm": rnd.pairing.algorithm if rnd.pairing else "bracket",
                "seed": page["seed"],
                "cost": rnd.pairing.cost if rnd.pairing else {},
                "made": page["made"],
            }
        )
        return
    _echo(f"{t.created.tournament}: round {n} ({kind})" + (", by player name" if by == "name" else ""))
    if by == "name":
        for r in page["by_name"]:
            _echo(f"  {r['line']}")
        return
    rnd = t.rounds[n]
    for x in page["tables"]:
        done = result_line(t, rnd, x["table"])
        _echo(f"  table {x['table']}: {x['a']['name']} against {x['b']['name']}" + (f"  [{done}]" if done else ""))
    if rnd.bye:
        _echo(f"  bye: {t.players[rnd.bye]}")
    for m in page["missed"]:
        _echo(f"  missed: {m['name']} ({m['why']}: a {m['counts']})")
    for line in page["made"]:
        _echo(f"  {line}")


def result_line(t, rnd, table: int) -> str:
    from ..views.swiss import how_said

    e = rnd.results.get(table)
    if e is None:
        return ""
    who = f"{t.players[e.winner]} wins ({how_said(e)})" if e.winner else how_said(e)
    return who + (f", match {e.game}" if e.game else "")


@commands.command()
def pairings(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Argument(min=1, help="The round (default: the last).")] = None,
    by: Annotated[str, typer.Option("--by", help="table, or name: each player's table and opponent.")] = "table",
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A round's tables and their results, or by player name ("Ann Lee: table 4, vs Bo Chen")."""
    if by not in ("table", "name"):
        raise typer.BadParameter(f"{by!r}: table or name", param_hint="--by")
    with open_store(db) as store:
        t = _open(store, tid).t
    n = round_no or max(t.rounds, default=0)
    if n not in t.rounds:
        raise RefereeError(f"tournament {tid!r}: round {n} has not been paired")
    show_round(t, n, json_out, by)


def _parse_result(t, round_no: int, line: str):
    """``<table>: <winner> <how>`` or ``<table>: draw [time]``."""
    from ..engine.tournament.swiss import WINS
    from ..engine.tournament.swiss_desk import SwissResultRecorded

    head, colon, rest = line.partition(":")
    words = rest.split()
    table = whole(head.strip())
    if not colon or table is None or not words:
        raise RefereeError(f'"{line}": expected "<table>: <winner> <how>" or "<table>: draw [time]"')
    if words[0].lower() == "draw":
        return SwissResultRecorded(round_no, table, None, words[1].lower() if len(words) > 1 else "draw")
    if len(words) < 2:
        raise RefereeError(f'"{line}": how the match was won ({", ".join(WINS)})')
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
    """Enter results as the judge: the winner and how (military, dishonor, honor, enlightenment, concession; time:
    time called and the judge decided the winner; judge: the judge's decision), or a draw (C-01's, or time called
    where the tournament allows it). All lines or none."""
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
    left = t.rounds[round_no].left
    _echo(f"  tables still playing: {', '.join(map(str, left))}" if left else f"  round {round_no} complete")
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
    _echo(f"{tid}: round {round_no}, table {event.table}: {result_line(log.t, log.t.rounds[round_no], event.table)}")
    _left(log.t, round_no)


CSV_COLUMNS = (
    "place",
    "rank",
    "id",
    "name",
    "record",
    "wins",
    "losses",
    "draws",
    "points",
    "played",
    "omw",
    "oomw",
    "byes",
    "dropped",
    "went",
)


@commands.command()
def standings(
    tid: TidArg,
    explain: Annotated[bool, typer.Option("--explain", help="Each player's tie-breaks and opponents.")] = False,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="Also write the standings as CSV.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The standings (C-10): each player's W-L-D record, match points, OMW% (each opponent at least 1/3), OOMW%;
    once the cut has begun, the cut placed by how far each player went, then the Swiss order."""
    from ..views.swiss import standings_view
    from ..views.tournament_exports import to_csv

    with open_store(db) as store:
        t = _open(store, tid).t
    view = standings_view(t)
    table = {s.player: s for s in t.standings()}
    if csv_file is not None:
        rows = [
            {
                **r,
                "omw": f"{float(table[r['id']].omwp):.4f}",
                "oomw": f"{float(table[r['id']].oomwp):.4f}",
                "dropped": int(r["dropped"]),
            }
            for r in view["rows"]
        ]
        write_output(csv_file, to_csv(CSV_COLUMNS, rows), f"standings of {tid!r} (CSV)", json_out=json_out)
    if json_out:
        _json(
            {
                "title": view["title"],
                "standings": [
                    {
                        **table[r["id"]].to_dict(),
                        "name": r["name"],
                        "place": r["place"],
                        "went": r["went"],
                        "dropped": r["dropped"],
                    }
                    for r in view["rows"]
                ],
                "level": view["level"],
                "champion": t.champion,
            }
        )
        return
    _echo(f"{t.created.name} ({tid}): {view['title']}")
    if explain:
        for s in t.standings():
            _echo(f"  {s.explain(t.players)}")
    else:
        width = max([24, *(len(r["name"]) + (10 if r["dropped"] else 0) for r in view["rows"])])
        cut = view["cut_begun"]
        _echo(
            f"  {'#':>4}  {'player':<{width}}  W-L-D   points  OMW%     OOMW%"
            + ("    Swiss  in the cut" if cut else "")
        )
        for r in view["rows"]:
            who = r["name"] + (" (dropped)" if r["dropped"] else "")
            line = (
                f"  {r['place']:>3}.  {who:<{width}}  {r['record']:<6}  {r['points']:>6}  {r['omw']:>7}  {r['oomw']:>7}"
            )
            _echo((line + (f"  {r['rank']:>5}  {r['went']}" if cut else "")).rstrip())
    for run in view["level"]:
        _echo(f"level: {run['text']} (C-10 stops at OOMW%)")
    if t.champion:
        _echo(f"champion: {t.players[t.champion]}")


@commands.command()
def verify(tid: TidArg, db: DbOpt = None) -> None:
    """The chain whole, every event taken, every pairing recomputed by its algorithm and seed and found again;
    a pairing or swap made by hand named with its reason (exit 1 naming each problem)."""
    from ..tournaments.service import read_events
    from ..tournaments.swiss import audit

    with open_store(db) as store:
        events = read_events(store, tid)
    found = audit(events)
    for p in found.problems:
        _echo(f"{tid}: {p}")
    if found.problems:
        raise typer.Exit(1)
    _echo(f"{tid}: {found.events} events, chain whole, {found.summary()}: verified")
    for n, said in sorted(found.rounds.items()):
        _echo(f"  round {n}: {'; '.join(said)}")


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
