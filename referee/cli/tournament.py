"""`referee tournament ...`: roll call, seating, clans, results from the game logs, standings."""

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..engine import RefereeError
from ..shown import plain
from . import swiss, swiss_live  # noqa: F401  (swiss_live adds `swiss unpair|swap|reinstate|slips`)
from .common import TOURNAMENT_HELP, DbOpt, JsonOpt, open_store, read_input, write_output
from .entry import base_url

commands = typer.Typer()  # the `referee` app adds these commands
tapp = typer.Typer(  # built when `referee tournament` is named (app.RefereeGroup): plain help, as the app's
    help=TOURNAMENT_HELP,
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=False,
)
players_app = typer.Typer(help="Register, drop, reinstate and list players.", no_args_is_help=True)
tapp.add_typer(players_app, name="players")
tapp.add_typer(swiss.commands, name="swiss")  # `referee tournament swiss ...`: one-against-one Swiss tournaments
commands.add_typer(tapp, name="tournament")

TidArg = Annotated[str, typer.Argument(help="The tournament's id.", show_default=False)]
RoundArg = Annotated[int, typer.Argument(min=1, max=12, help="The tournament round.", show_default=False)]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (recorded with the event).")]
PlayerArg = Annotated[str, typer.Argument(help="The player (name or id).")]


def _open(store, tid: str):
    from ..log.tournaments import OpenTournament

    return OpenTournament(store, tid)


def _json(data) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _say(text: str) -> None:
    """One line of output: a name, a reason or a title in it shown by ``plain`` (no control reaches the terminal)."""
    typer.echo(plain(text))


def _lines(lines: list[str]) -> None:
    for line in lines:
        _say(line)


def _listing(listing) -> None:
    """A listing of rows (``views.tournament``) drawn in the terminal (``render.print_listing``)."""
    from .render import print_listing

    print_listing(listing)


# --- creation and players ------------------------------------------------------------------------------
def _points(text: str) -> dict:
    out = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        size, eq, values = part.partition("=")
        if not eq:
            raise typer.BadParameter(f"{part!r}: expected SIZE=P1,P2,...", param_hint="--points")
        out[size.strip()] = [_point(v.strip()) for v in values.split(",")]
    return out


def _point(value: str) -> int | str:
    """A whole number of points as a number (``-3`` too); anything else as written (a fraction, or refused later)."""
    from ..numerals import whole

    n = whole(value.removeprefix("-"))
    return value if n is None else -n if value.startswith("-") else n


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise typer.BadParameter(f"{text!r}: expected numbers separated by commas", param_hint=what) from None


@tapp.command("new")
def new(
    tid: TidArg,
    name: Annotated[str, typer.Option("--name", help="The tournament's name (the event of every game).")],
    date: Annotated[str, typer.Option(help="The date (YYYY-MM-DD).")] = "",
    scoring: Annotated[
        str, typer.Option(help="placement, share (honor / table mean x 100), squares or honor.")
    ] = "placement",
    points: Annotated[
        str, typer.Option(help="Placement points per table size: '5=10,6,3,1,0;4=10,5,2,0;3=10,4,0'.")
    ] = "",
    best: Annotated[int, typer.Option(min=0, help="Count only the best N games (0: every game).")] = 0,
    average: Annotated[bool, typer.Option("--average", help="Rank by the average per game played.")] = False,
    tiebreaks: Annotated[
        str, typer.Option(help="Order of keys: points,honor,wins,aop,h2h.")
    ] = "points,honor,wins,aop,h2h",
    rounds: Annotated[int, typer.Option(min=1, max=12, help="Planned tournament rounds.")] = 3,
    sizes: Annotated[str, typer.Option(help="Table sizes allowed (3 to 5), e.g. 5,4 to avoid tables of 3.")] = "5,4,3",
    copies: Annotated[
        int, typer.Option(min=0, help="Game copies on hand: the most tables a round can have (0: no cap).")
    ] = 0,
    group_by_standings: Annotated[
        bool,
        typer.Option(
            "--group-by-standings",
            help="From round 2, seat players of about the "
            "same standing together (waits for the previous round to close).",
        ),
    ] = False,
    db: DbOpt = None,
) -> None:
    """Create a tournament: scoring system, tie-break order, planned rounds, table sizes."""
    from ..log.tournaments import create
    from ..tournament.model import DEFAULT_PLACEMENT, TournamentCreated, check_created

    if best and average:
        raise typer.BadParameter("choose --best N or --average, not both", param_hint="--best")
    created = TournamentCreated(
        tid,
        name,
        date,
        scoring.strip().lower(),
        _points(points) or dict(DEFAULT_PLACEMENT),
        "best" if best else "average" if average else "sum",
        best,
        [k.strip().lower() for k in tiebreaks.split(",") if k.strip()],
        rounds,
        _ints(sizes, "--sizes"),
        copies,
        group_by_standings,
    )
    check_created(created)  # a refusal makes no database file
    with open_store(db, create=True) as store:
        create(store, created)
    _say(f"tournament {tid} created: {name}, {rounds} rounds, scoring {created.scoring}")


@tapp.command("list")
def list_(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the tournaments in the database."""
    from ..log.tournaments import list_tournaments
    from ..views.tournament import tournaments_listing

    with open_store(db) as store:
        rows = list_tournaments(store)
    if json_out:
        return _json(rows)
    _listing(tournaments_listing(rows))


@players_app.command("add")
def players_add(
    tid: TidArg,
    name: Annotated[str | None, typer.Argument(help="The player's name.", show_default=False)] = None,
    club: Annotated[str, typer.Option(help="Club or family: kept apart from others of it when seating.")] = "",
    pid: Annotated[str, typer.Option("--id", help="An id, needed when two players share a name.")] = "",
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Register many at once: a CSV with name[,club][,id].")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Register a player, or many from a CSV file (one header row: name, club, id). A bad row refuses the whole file."""
    from ..tournament.model import PlayersRegistered, TournamentError

    if (name is None) == (csv_file is None):
        raise typer.BadParameter("give a NAME or --csv FILE", param_hint="NAME")
    with open_store(db) as store:
        log = _open(store, tid)
        if csv_file is not None:
            from ..tournament.imports import players_csv

            regs = players_csv(log.t, read_input(csv_file), str(csv_file))
        else:
            assert name is not None, "exactly one of NAME and --csv is given (checked above)"
            from ..tournament.imports import registration

            regs = [registration(name, club, pid)]
        try:
            log.record([PlayersRegistered([{k: v for k, v in r.items()} for r in regs])])
        except TournamentError as exc:
            if csv_file is None:
                raise
            # name the row: check each row alone against the tournament and the rows before it
            raise TournamentError(f"{csv_file}: {exc}") from None
    for r in regs:
        _say(f"registered {r['name']} (id {r['id']})" + (f", club {r['club']}" if r["club"] else ""))


def _record_for_player(db: str | None, tid: str, name: str, event) -> str:
    """Record ``event(player id)`` for the player named (name or id); the player's name."""
    with open_store(db) as store:
        log = _open(store, tid)
        p = log.t.player(name)
        log.record([event(p.id)])
    return p.name


@players_app.command("drop")
def players_drop(
    tid: TidArg,
    name: PlayerArg,
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Drop a player: not seated from now on; they stay in the standings."""
    from ..tournament.model import PlayerDropped

    _say(f"{_record_for_player(db, tid, name, lambda p: PlayerDropped(p, reason))} dropped")


@players_app.command("reinstate")
def players_reinstate(
    tid: TidArg,
    name: PlayerArg,
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Reinstate a dropped player: seated again from the next round seated."""
    from ..tournament.model import PlayerReinstated

    _say(f"{_record_for_player(db, tid, name, lambda p: PlayerReinstated(p, reason))} reinstated")


@players_app.command("list")
def players_list(tid: TidArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Every registered player: id, name, club, status."""
    from ..tournament.standings import Loaded
    from ..views.tournament import players_listing, players_view

    with open_store(db) as store:
        rows = players_view(Loaded(_open(store, tid).t))
    if json_out:
        return _json(rows)
    _listing(players_listing(tid, rows))


@tapp.command("apart")
def apart(
    tid: TidArg,
    names: Annotated[list[str], typer.Argument(help="Two or more players (names or ids).")],
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Keep players apart when seating (same club or family): as if they had already met many times."""
    from ..tournament.model import KeptApart

    with open_store(db) as store:
        log = _open(store, tid)
        ids = [log.t.player(n).id for n in names]
        log.record([KeptApart(ids, reason)])
    _say(f"kept apart: {', '.join(log.t.name(i) for i in ids)}")


@tapp.command("fix")
def fix(
    tid: TidArg,
    name: PlayerArg,
    table: Annotated[int, typer.Argument(min=1, help="The table number they always sit at.")],
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Give a player a fixed table (accessibility): they are always seated at that table number."""
    from ..tournament.model import TableFixed

    who = _record_for_player(db, tid, name, lambda p: TableFixed(p, table, reason))
    _say(f"{who} always sits at table {table}")


# --- roll call and seating ------------------------------------------------------------------------------
@tapp.command("rollcall")
def rollcall(
    tid: TidArg,
    round_no: RoundArg,
    absent: Annotated[
        list[str] | None, typer.Option("--absent", help="A player not here this round (repeatable).")
    ] = None,
    standby: Annotated[
        list[str] | None, typer.Option("--standby", help="A player who plays only to fill a table (repeatable).")
    ] = None,
    late: Annotated[
        list[str] | None, typer.Option("--late", help="A player arriving late, seated (repeatable).")
    ] = None,
    present: Annotated[
        list[str] | None, typer.Option("--present", help="A player here after all (repeatable).")
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The roll call of a round: everyone not named is present (dropped players excepted)."""
    from ..tournament.model import RollCalled, TournamentError
    from ..views.tournament import rollcall_line, rollcall_view

    with open_store(db) as store:
        log = _open(store, tid)
        statuses = {}
        for status, names in (("absent", absent), ("standby", standby), ("late", late), ("present", present)):
            for n in names or ():
                p = log.t.player(n)
                if p.id in statuses:
                    raise TournamentError(f"round {round_no}: {p.name} is named twice in the roll call")
                statuses[p.id] = status
        log.record([RollCalled(round_no, statuses)])
    view = rollcall_view(log.t, round_no)
    if json_out:
        return _json(view)
    _say(rollcall_line(view))


@tapp.command("seat")
def seat(
    tid: TidArg,
    round_no: RoundArg,
    from_file: Annotated[
        Path | None, typer.Option("--from", help="Seat by hand: a CSV table,seat,player,clan.")
    ] = None,
    preferences: Annotated[
        Path | None,
        typer.Option(
            "--preferences",
            help="Clans by preference: a CSV player,clans "
            "(clans in order, separated by ';'); the lowest-ranked chooses first.",
        ),
    ] = None,
    links: Annotated[
        str | None,
        typer.Option(
            "--links",
            help="Issue every seat's phone-entry link for this address (`referee serve --entry`), printed once with "
            "its QR code on the sheet (--sheet); the round seated already: issued again, the old ones revoked.",
            callback=base_url,
            show_default=False,
        ),
    ] = None,
    sheet: Annotated[
        Path | None,
        typer.Option("--sheet", help="Write the printable seating (HTML, A4, one slip a seat) to this file."),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Seat a round: tables, seat order and clans, stored; each table's game is created with its clans and players.
    With --links and --sheet, each seat's phone-entry link and QR code are printed on that seat's own slip, and the
    table's page's link on the moderator's."""
    from ..log.tournaments import create_games
    from ..tournament.standings import Loaded
    from ..views.tournament import seated_view

    if links is not None and sheet is None:
        raise typer.BadParameter("the links are shown once, on the printed sheet: name its file", param_hint="--sheet")
    if sheet is not None and (sheet.is_dir() or not sheet.parent.is_dir()):  # checked before anything is recorded
        raise RefereeError(
            f"{sheet}: {'a folder' if sheet.is_dir() else 'no such folder'}", hint="name a file in an existing folder"
        )
    with open_store(db) as store:
        log = _open(store, tid)
        again = links is not None and round_no in log.t.seatings and from_file is None and preferences is None
        if again:  # seated already: only its links issued again
            typer.echo(f"round {round_no} is seated already: its seats' links are issued again", err=json_out)
            event: Any = log.t.seatings[round_no]
        else:
            event = _plan(store, log, round_no, from_file, preferences)
            log.record([event])
            create_games(store, log.t, [t for t in log.t.seatings[round_no].tables])
        issued = _print_sheet(store, log, round_no, links, sheet, json_out) if sheet is not None else None
    loaded = Loaded(log.t)
    view = seated_view(loaded, event)
    if json_out:
        return _json({**view, **({"links": issued} if issued is not None else {})})
    _print_seating(loaded, round_no, view["tables"])


def _plan(store, log, round_no: int, from_file: Path | None, preferences: Path | None):
    """The seating of a round: by hand from a file, or planned (with the players' clan preferences)."""
    from ..tournament.rounds import manual_round, plan_round, seed_of

    seed = seed_of(log.head)
    if from_file is not None:
        from ..tournament.imports import seating_csv_rows

        return manual_round(log.t, round_no, seating_csv_rows(read_input(from_file), str(from_file)), seed)
    from ..log.tournaments import load
    from ..tournament.standings import standings

    wishes = _preferences(log.t, preferences) if preferences is not None else None
    needed = log.t.seatings and (wishes or log.t.created.group_by_standings)
    ranking = [r.player for r in standings(load(store, log.tid, log.t)).rows] if needed else []
    return plan_round(log.t, round_no, seed, wishes, ranking)


def _print_sheet(store, log, round_no: int, base: str | None, path: Path, json_out: bool) -> dict | None:
    """Write the printed seating of a round; with ``base``, every seat's link issued (``issue_table_links``,
    as `referee links` issues one: the old links revoked) and printed on it, this once."""
    from ..log import LogError, entry as en
    from ..log.tournaments import load
    from ..views.html import links_sheet as render
    from ..views.tournament import links_sheet

    links: dict[str, dict[str, str]] = {}
    refused: dict[str, str] = {}
    revoked = 0
    if base is not None:
        from .entry import warn_plain_http

        warn_plain_http(base)
    for tb in log.t.seatings[round_no].tables:
        if base is None:
            break
        try:
            got = en.issue_table_links(store, tb.game, base)
        except (LogError, en.EntryRefused) as exc:  # the game is over: the sheet says so under its table
            refused[tb.game] = str(exc)
            continue
        links[tb.game], revoked = got.urls, revoked + got.revoked
    issued = None if base is None else {"base": base, "links": links, "refused": refused, "revoked": revoked}
    page = links_sheet(load(store, log.tid, log.t), round_no, issued)
    what = f"round {round_no} seating sheet (HTML)"  # with links, capabilities: the owner's file alone (mode 600)
    write_output(path, render(page), what, json_out=json_out, private=base is not None)
    if base is not None:
        typer.echo(
            f"{sum(len(u) for u in links.values())} phone link(s) printed on the sheet only (the database keeps "
            "their hashes)" + (f"; {revoked} link(s) issued before revoked" if revoked else ""),
            err=json_out,
        )
    return links if base is not None else None


def _preferences(t, path: Path) -> dict[str, list[str]]:
    from ..tournament.imports import preferences_csv

    return preferences_csv(t, read_input(path), str(path))


def _print_seating(loaded, round_no: int, tables: list) -> None:
    from ..views.tournament import seating_listing

    listing, sat_out = seating_listing(loaded, round_no, tables)
    _listing(listing)
    _lines(sat_out)


@tapp.command("seating")
def seating(
    tid: TidArg,
    round_no: RoundArg,
    by: Annotated[str, typer.Option("--by", help="table or player.")] = "table",
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write the seating as CSV to this file.")] = None,
    sheet: Annotated[
        Path | None, typer.Option("--sheet", help="Write the printable seating sheet (plain text, A4).")
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A round's seating, by table or by player name; as CSV or a printable sheet."""
    from ..log.tournaments import load
    from ..views.tournament import seating_by_player, seating_by_player_listing, seating_by_table
    from ..views.tournament_exports import seating_csv, seating_sheet

    if by not in ("table", "player"):
        raise typer.BadParameter(f"{by!r}: table or player", param_hint="--by")
    with open_store(db) as store:
        loaded = load(store, tid, _open(store, tid).t)
    rows = seating_by_table(loaded, round_no) if by == "table" else seating_by_player(loaded, round_no)
    if csv_out:
        write_output(csv_out, seating_csv(loaded, round_no, by), f"round {round_no} seating (CSV)", json_out=json_out)
    if sheet:
        write_output(sheet, seating_sheet(loaded, round_no), f"round {round_no} seating sheet", json_out=json_out)
    if json_out:
        return _json(rows)
    if by == "table":
        _print_seating(loaded, round_no, rows)
    else:
        _listing(seating_by_player_listing(round_no, rows))


@tapp.command("amend")
def amend(
    tid: TidArg,
    round_no: RoundArg,
    reason: ReasonOpt,
    swap: Annotated[tuple[str, str] | None, typer.Option("--swap", help="Swap two seated players.")] = None,
    replace: Annotated[tuple[str, str] | None, typer.Option("--replace", help="OUT IN: IN takes OUT's seat.")] = None,
    reseat: Annotated[int | None, typer.Option("--reseat", help="Draw one table's seat order and clans again.")] = None,
    db: DbOpt = None,
) -> None:
    """Amend a round's seating with a reason: the amended tables get new games; the old ones stay in the log."""
    from ..log.tournaments import create_games, started_games
    from ..tournament.model import GameLinked
    from ..tournament.rounds import plan_amendment, seed_of
    from ..views.tournament import seated_tables_lines

    chosen = [x for x in (swap, replace, reseat) if x is not None]
    if len(chosen) != 1:
        raise typer.BadParameter(
            "give exactly one of --swap A B, --replace OUT IN, --reseat TABLE", param_hint="--swap"
        )
    if not reason.strip():
        raise typer.BadParameter("an amendment needs a reason", param_hint="--reason")
    kind = "swap" if swap else "replace" if replace else "reseat"
    with open_store(db) as store:
        log = _open(store, tid)
        seating = log.t.seatings.get(round_no)
        games = [tb.game for tb in seating.tables] if seating else []
        event = plan_amendment(
            log.t,
            round_no,
            kind,
            list(swap or replace or ()),
            reason,
            seed_of(log.head),
            started_games(store, games),
            reseat,
        )
        links = [GameLinked(round_no, tb["table"], tb["game"], reason) for tb in event.tables]
        log.record([event, *links])
        tables = [log.t.seatings[round_no].table(tb["table"]) for tb in event.tables]
        create_games(store, log.t, tables)
    _lines(seated_tables_lines(log.t, round_no, tables))


# --- results ---------------------------------------------------------------------------------------------
@tapp.command("call")
def call(
    tid: TidArg,
    game: Annotated[str, typer.Argument(help="The table's game.")],
    reason: ReasonOpt,
    objective: Annotated[
        list[str] | None,
        typer.Option(
            "--objective",
            help="CLAN=OBJECTIVE:CODE, a sealed objective revealed with its reveal code, as `referee reveal` "
            "takes them (CLAN=OBJECTIVE for one never sealed); repeatable.",
        ),
    ] = None,
    not_met: Annotated[
        list[str] | None,
        typer.Option("--not-met", help="CLAN: its sealed objective declared not met, unrevealed (R-28); repeatable."),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Call a game (time ran out): scored as it stands after the last full round; every sealed objective revealed
    with its code (checked as `referee reveal` checks it) or declared not met."""
    from ..log.tournaments import call_game
    from ..views.tournament import called_line

    if not reason.strip():
        raise typer.BadParameter("calling a game needs a reason", param_hint="--reason")
    reveals = []
    for item in objective or ():
        clan, eq, rest = item.partition("=")
        name, _, code = rest.partition(":")
        if not eq or not clan.strip() or not name.strip():
            raise typer.BadParameter(f"{item!r}: expected CLAN=OBJECTIVE:CODE", param_hint="--objective")
        reveals.append((clan.strip(), name.strip(), code.strip()))
    reveals += [(clan.strip(), "", "") for clan in not_met or ()]
    with open_store(db) as store:
        log = _open(store, tid)
        event = call_game(store, log, game, reason, reveals)
    _say(called_line(log.t, event))


@tapp.command("retract-call")
def retract_call(
    tid: TidArg,
    game: Annotated[str, typer.Argument(help="The called game.")],
    reason: ReasonOpt,
    db: DbOpt = None,
) -> None:
    """Take back a mistaken call, with a reason, before the round is closed (recorded as an event): the table's
    result is its log's again, and the game may be called again."""
    from ..log.tournaments import retract_call as retract

    if not reason.strip():
        raise typer.BadParameter("retracting a call needs a reason", param_hint="--reason")
    with open_store(db) as store:
        log = _open(store, tid)
        event = retract(log, game, reason)
    _say(
        f"the call of game {game} (event {event.call}) is retracted: round {event.round}, table {event.table} "
        "takes its result from the game's log again (or from a new call, or the judge's entry)"
    )


@tapp.command("result")
def result(
    tid: TidArg,
    round_no: RoundArg,
    table: Annotated[int, typer.Argument(min=1, help="The table.")],
    honors: Annotated[
        list[str], typer.Argument(help="NAME=HONOR or NAME=HONOR:TERRITORIES:PROVINCES, one per player.")
    ],
    reason: ReasonOpt,
    replaces: Annotated[
        int,
        typer.Option(
            "--replaces",
            min=0,
            help="The event number of the table's result this one replaces (0: none); a result recorded meanwhile "
            "refuses yours, saying what it is.",
        ),
    ] = 0,
    db: DbOpt = None,
) -> None:
    """Enter a table's result by hand (the head judge; a table that played on paper), with a reason. Replacing a
    result names its event (--replaces); after the round is closed a result is a correction, marked c."""
    from ..tournament.model import ResultEntered, TournamentError

    if not reason.strip():
        raise typer.BadParameter("a judge's result needs a reason", param_hint="--reason")
    with open_store(db) as store:
        log = _open(store, tid)
        rows = []
        for item in honors:
            name, eq, value = item.rpartition("=")
            try:
                if not re.fullmatch(r"-?[0-9]{1,4}(:[0-9]{1,3}:[0-9]{1,3})?", value.strip()):
                    raise ValueError  # an honor of 4 digits at most, counts of 3: a typo, not a result
                parts = [int(x) for x in value.split(":")]
                if not eq or len(parts) not in (1, 3):
                    raise ValueError
            except ValueError:
                raise TournamentError(
                    f"round {round_no}, table {table}: {item[:80]!r}: expected NAME=HONOR or "
                    "NAME=HONOR:TERRITORIES:PROVINCES (honor -9999 to 9999, counts 0 to 999)"
                ) from None
            parts += [0, 0] if len(parts) == 1 else []
            rows.append(
                {"player": log.t.player(name).id, "honor": parts[0], "territories": parts[1], "provinces": parts[2]}
            )
        tb = log.t.seatings.get(round_no)
        seat = tb.table(table) if tb else None
        clans = {s.player: s.clan for s in seat.seats} if seat else {}
        rows = [{**r, "clan": clans.get(r["player"], "")} for r in rows]
        closed = round_no in log.t.closed
        (recorded,) = log.record([ResultEntered(round_no, table, reason, rows, replaces)])
    _say(
        f"round {round_no}, table {table}: result entered by the judge (event {recorded.seq})"
        + (": a correction of a closed round, marked c in the standings" if closed else "")
    )


@tapp.command("adjust", context_settings={"ignore_unknown_options": True})  # POINTS may be -4 (a penalty)
def adjust(
    tid: TidArg,
    name: PlayerArg,
    points: Annotated[str, typer.Argument(help="Points to add (negative to take away; 1.5 or 3/2).")],
    reason: ReasonOpt,
    round_no: Annotated[int, typer.Option("--round", min=0, help="The round it concerns (0: none).")] = 0,
    db: DbOpt = None,
) -> None:
    """Adjust a player's points, with a reason (a penalty or a correction)."""
    from fractions import Fraction

    from ..tournament.model import PointsAdjusted, TournamentError

    if not reason.strip():
        raise typer.BadParameter("an adjustment needs a reason", param_hint="--reason")
    try:
        value = Fraction(points.strip())
    except (ValueError, ZeroDivisionError):
        raise TournamentError(f"adjustment {points!r}: not a number") from None
    who = _record_for_player(db, tid, name, lambda p: PointsAdjusted(p, str(value), reason, round_no))
    _say(f"{who}: {points} point{'' if abs(value) == 1 else 's'} ({reason})")


@tapp.command("close")
def close(tid: TidArg, round_no: RoundArg, db: DbOpt = None) -> None:
    """Close a round: every table's result accepted from its game log (or called, or entered by the judge)."""
    from ..log.tournaments import close_round

    with open_store(db) as store:
        log = _open(store, tid)
        accepted = close_round(store, log, round_no)
    _say(f"round {round_no} closed: {accepted} result(s) accepted from the game logs")


@tapp.command("status")
def status(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Argument(help="The round (default: the last seated).")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Each table of a round: its game, the round of play, finished or called, sealed objectives left."""
    from ..log.tournaments import load
    from ..views.tournament import status_listing, table_status

    with open_store(db) as store:
        loaded = load(store, tid)
    r = round_no or loaded.tournament.last_round
    rows = table_status(loaded, r)
    if json_out:
        return _json(rows)
    _listing(status_listing(r, rows))


@tapp.command("standings")
def standings(
    tid: TidArg,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write the standings as CSV to this file.")] = None,
    explain: Annotated[
        str | None, typer.Option("--explain", help="Every game, its points and each tie-break of one player.")
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The standings: one column per round, provisional results marked (*), corrections marked (c)."""
    from ..log.tournaments import load
    from ..views.tournament import explain_lines, explain_view, standings_listing, standings_notes, standings_view
    from ..views.tournament_exports import standings_csv

    with open_store(db) as store:
        loaded = load(store, tid)
    if csv_out:
        write_output(csv_out, standings_csv(loaded), f"standings of {tid!r} (CSV)", json_out=json_out)
    if explain:
        data = explain_view(loaded, explain)
        if json_out:
            return _json(data)
        return _lines(explain_lines(data))
    data = standings_view(loaded)
    if json_out:
        return _json(data)
    _listing(standings_listing(data))
    _lines(standings_notes(data, loaded.signed))


@tapp.command("results")
def results(
    tid: TidArg,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write as CSV.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every table's result: honor, place, points, where it came from."""
    from ..log.tournaments import load
    from ..views.tournament import results_listing
    from ..views.tournament_exports import result_rows, results_csv

    with open_store(db) as store:
        loaded = load(store, tid)
    if csv_out:
        write_output(csv_out, results_csv(loaded), f"results of {tid!r} (CSV)", json_out=json_out)
    rows = result_rows(loaded)
    if json_out:
        return _json(rows)
    _listing(results_listing(rows))


@tapp.command("final")
def final(
    tid: TidArg,
    size: Annotated[int, typer.Argument(min=3, max=5, help="Players at the final table (the top N).")],
    pick: Annotated[
        list[str] | None, typer.Option("--pick", help="NAME=CLAN, the clans chosen in rank order (repeatable).")
    ] = None,
    preferences: Annotated[
        Path | None,
        typer.Option(
            "--preferences",
            help="A CSV player,clans: in rank order, each finalist takes the first clan of their list still free.",
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Seat the final table: the top N of the standings, seated in rank order; clans picked in rank order."""
    from ..log.tournaments import seat_final
    from ..views.tournament import final_line

    picks = {}
    for item in pick or ():
        name, eq, clan = item.rpartition("=")
        if not eq:
            raise typer.BadParameter(f"{item!r}: expected NAME=CLAN", param_hint="--pick")
        picks[name.strip()] = clan.strip().lower()
    with open_store(db) as store:
        log = _open(store, tid)
        wishes = _preferences(log.t, preferences) if preferences is not None else {}
        event = seat_final(store, log, size, picks, wishes)
    _say(final_line(log.t, event))


# --- export, import, verify ---------------------------------------------------------------------------
@tapp.command("export")
def export(
    tid: TidArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    db: DbOpt = None,
) -> None:
    """The tournament's event stream as JSON Lines (lossless, chain included, with the organiser's signatures)."""
    from ..log.records import export_jsonl
    from ..log.signing import with_signatures
    from ..log.tournaments import read_events

    with open_store(db) as store:
        events = read_events(store, tid)
        text = with_signatures(store, "tournament", events, export_jsonl(events), "jsonl")
    if output:
        write_output(output, text, f"tournament {tid!r} (jsonl)")
    else:
        sys.stdout.write(text)


@tapp.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A tournament exported as JSON Lines.")], db: DbOpt = None
) -> None:
    """Import a tournament: verified whole (its signatures too) before anything is stored."""
    from ..log.signing import check, refusal, split_record, store_attached
    from ..log.tournaments import import_log, parse_jsonl

    text, attached = split_record(read_input(file))
    events = parse_jsonl(text)
    checked = check("tournament", events, attached.signatures, key_changes=attached.key_changes)
    if checked.problem:
        raise refusal(str(file), checked, attached.lines)
    with open_store(db, create=True) as store:
        t = import_log(store, events)
        store_attached(store, attached)
    _say(f"tournament {t.id} imported: {len(events)} events")


@tapp.command("verify")
def verify(
    target: Annotated[str, typer.Argument(help="A tournament id, or an exported .jsonl file.")],
    key: Annotated[
        list[str] | None,
        typer.Option(
            "--key",
            help="Require the organiser's signature by this key: its fingerprint, or a key file (FILE.pub).",
            show_default=False,
        ),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Check the chain, every event, every seating's constraints and its recomputed cost; in the database, also
    every table's game log (chain and engine re-run). Every organiser's signature is checked against the key it
    names; with --key, the seatings and round closes must be signed by that key."""
    from ..log.signing import check, check_stored, read_keys, refusal, split_record
    from ..log.tournaments import fold, parse_jsonl, read_events, verify as verify_log, verify_games
    from ..views.tournament import verified_line, verify_view

    path = Path(target)
    keys = read_keys(key) if key else None
    if path.is_file():
        text, attached = split_record(read_input(path))
        events = parse_jsonl(text)
        problems = verify_log(events)
        checked = check("tournament", events, attached.signatures, key=keys, key_changes=attached.key_changes)
        sig_lines: list[int] | None = attached.lines
    else:
        with open_store(db) as store:
            events = read_events(store, target)
            problems = verify_log(events)
            checked = check_stored(store, "tournament", events, keys)
            if not problems:
                problems = verify_games(store, fold(events))
        sig_lines = None
    if not problems and checked.problem:
        raise refusal(target, checked, sig_lines)
    if json_out:
        _json(verify_view(events, problems, checked.status))
    elif problems:
        for p in problems:
            print(f"error: {plain(p)}", file=sys.stderr)
    else:
        _say(verified_line(events, checked.status, with_games=not path.is_file()))
    if problems:
        raise typer.Exit(1)
