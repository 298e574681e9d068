"""`referee tournament ...`: roll call, seating, clans, results from the game logs, standings."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.errors import RefereeError
from ..core.shown import plain
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


def open_tournament(store, tid: str):
    from ..tournaments.service import OpenTournament

    return OpenTournament(store, tid)


def say_json(data) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def say(text: str) -> None:
    """One line of output: a name, a reason or a title in it shown by ``plain`` (no control reaches the terminal)."""
    typer.echo(plain(text))


def say_lines(lines: list[str]) -> None:
    for line in lines:
        say(line)


def say_listing(listing) -> None:
    """A listing of rows (``views.tournament_listings``) drawn in the terminal (``render.print_listing``)."""
    from .render import print_listing

    print_listing(listing)


# --- creation and players ------------------------------------------------------------------------------
def points_of(text: str) -> dict:
    out = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        size, eq, values = part.partition("=")
        if not eq:
            raise typer.BadParameter(f"{part!r}: expected SIZE=P1,P2,...", param_hint="--points")
        out[size.strip()] = [point_of(v.strip()) for v in values.split(",")]
    return out


def point_of(value: str) -> int | str:
    """A whole number of points as a number (``-3`` too); anything else as written (a fraction, or refused later)."""
    from ..core.numerals import whole

    n = whole(value.removeprefix("-"))
    return value if n is None else -n if value.startswith("-") else n


def numbers_of(text: str, what: str) -> list[int]:
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
    from ..engine.tournament.events import DEFAULT_PLACEMENT, TournamentCreated, check_created
    from ..tournaments.service import create

    if best and average:
        raise typer.BadParameter("choose --best N or --average, not both", param_hint="--best")
    created = TournamentCreated(
        tid,
        name,
        date,
        scoring.strip().lower(),
        points_of(points) or dict(DEFAULT_PLACEMENT),
        "best" if best else "average" if average else "sum",
        best,
        [k.strip().lower() for k in tiebreaks.split(",") if k.strip()],
        rounds,
        numbers_of(sizes, "--sizes"),
        copies,
        group_by_standings,
    )
    check_created(created)  # a refusal makes no database file
    with open_store(db, create=True) as store:
        create(store, created)
    say(f"tournament {tid} created: {name}, {rounds} rounds, scoring {created.scoring}")


@tapp.command("list")
def list_(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the tournaments in the database."""
    from ..tournaments.service import list_tournaments
    from ..views.tournament_listings import tournaments_listing

    with open_store(db) as store:
        rows = list_tournaments(store)
    if json_out:
        return say_json(rows)
    say_listing(tournaments_listing(rows))


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
    from ..engine.tournament.events import PlayersRegistered, TournamentError

    if (name is None) == (csv_file is None):
        raise typer.BadParameter("give a NAME or --csv FILE", param_hint="NAME")
    with open_store(db) as store:
        log = open_tournament(store, tid)
        if csv_file is not None:
            from ..engine.tournament.imports import players_csv

            regs = players_csv(log.t, read_input(csv_file), str(csv_file))
        else:
            assert name is not None, "exactly one of NAME and --csv is given (checked above)"
            from ..engine.tournament.imports import registration

            regs = [registration(name, club, pid)]
        try:
            log.record([PlayersRegistered([{k: v for k, v in r.items()} for r in regs])])
        except TournamentError as exc:
            if csv_file is None:
                raise
            # name the row: check each row alone against the tournament and the rows before it
            raise TournamentError(f"{csv_file}: {exc}") from None
    for r in regs:
        say(f"registered {r['name']} (id {r['id']})" + (f", club {r['club']}" if r["club"] else ""))


def record_for_player(db: str | None, tid: str, name: str, event) -> str:
    """Record ``event(player id)`` for the player named (name or id); the player's name."""
    with open_store(db) as store:
        log = open_tournament(store, tid)
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
    from ..engine.tournament.events import PlayerDropped

    say(f"{record_for_player(db, tid, name, lambda p: PlayerDropped(p, reason))} dropped")


@players_app.command("reinstate")
def players_reinstate(
    tid: TidArg,
    name: PlayerArg,
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Reinstate a dropped player: seated again from the next round seated."""
    from ..engine.tournament.events import PlayerReinstated

    say(f"{record_for_player(db, tid, name, lambda p: PlayerReinstated(p, reason))} reinstated")


@players_app.command("list")
def players_list(tid: TidArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Every registered player: id, name, club, status."""
    from ..engine.tournament.standings import Loaded
    from ..views.tournament import players_view
    from ..views.tournament_listings import players_listing

    with open_store(db) as store:
        rows = players_view(Loaded(open_tournament(store, tid).t))
    if json_out:
        return say_json(rows)
    say_listing(players_listing(tid, rows))


@tapp.command("apart")
def apart(
    tid: TidArg,
    names: Annotated[list[str], typer.Argument(help="Two or more players (names or ids).")],
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Keep players apart when seating (same club or family): as if they had already met many times."""
    from ..engine.tournament.events import KeptApart

    with open_store(db) as store:
        log = open_tournament(store, tid)
        ids = [log.t.player(n).id for n in names]
        log.record([KeptApart(ids, reason)])
    say(f"kept apart: {', '.join(log.t.name(i) for i in ids)}")


@tapp.command("fix")
def fix(
    tid: TidArg,
    name: PlayerArg,
    table: Annotated[int, typer.Argument(min=1, help="The table number they always sit at.")],
    reason: ReasonOpt = "",
    db: DbOpt = None,
) -> None:
    """Give a player a fixed table (accessibility): they are always seated at that table number."""
    from ..engine.tournament.events import TableFixed

    who = record_for_player(db, tid, name, lambda p: TableFixed(p, table, reason))
    say(f"{who} always sits at table {table}")


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
    from ..engine.tournament.events import RollCalled, TournamentError
    from ..views.tournament_listings import rollcall_line, rollcall_view

    with open_store(db) as store:
        log = open_tournament(store, tid)
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
        return say_json(view)
    say(rollcall_line(view))


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
    from ..engine.tournament.standings import Loaded
    from ..tournaments.seating import seat_round
    from ..views.tournament_listings import seated_view

    if links is not None and sheet is None:
        raise typer.BadParameter("the links are shown once, on the printed sheet: name its file", param_hint="--sheet")
    if sheet is not None and (sheet.is_dir() or not sheet.parent.is_dir()):  # checked before anything is recorded
        raise RefereeError(
            f"{sheet}: {'a folder' if sheet.is_dir() else 'no such folder'}", hint="name a file in an existing folder"
        )
    with open_store(db) as store:
        log = open_tournament(store, tid)
        again = links is not None and round_no in log.t.seatings and from_file is None and preferences is None
        if again:  # seated already: only its links issued again
            typer.echo(f"round {round_no} is seated already: its seats' links are issued again", err=json_out)
            event: Any = log.t.seatings[round_no]
        else:
            by_hand = (read_input(from_file), str(from_file)) if from_file is not None else None
            wishes = None  # by hand, the preferences are not read
            if preferences is not None and by_hand is None:
                wishes = (read_input(preferences), str(preferences))
            event = seat_round(store, log, round_no, by_hand=by_hand, preferences=wishes)
        issued = _print_sheet(store, log, round_no, links, sheet, json_out) if sheet is not None else None
    loaded = Loaded(log.t)
    view = seated_view(loaded, event)
    if json_out:
        return say_json({**view, **({"links": issued} if issued is not None else {})})
    _print_seating(loaded, round_no, view["tables"])


def _print_sheet(store, log, round_no: int, base: str | None, path: Path, json_out: bool) -> dict | None:
    """Write the printed seating of a round; with ``base``, every seat's link issued (the seating service's
    ``issue_links``: the old links revoked) and printed on it, this once."""
    from ..tournaments.seating import issue_links
    from ..tournaments.service import load
    from ..views.html import links_sheet as render
    from ..views.tournament import links_sheet

    issued = None
    if base is not None:
        from .entry import warn_plain_http

        warn_plain_http(base)
        issued = issue_links(store, log.t, round_no, base)
    page = links_sheet(load(store, log.tid, log.t), round_no, issued)
    what = f"round {round_no} seating sheet (HTML)"  # with links, capabilities: the owner's file alone (mode 600)
    write_output(path, render(page), what, json_out=json_out, private=base is not None)
    if issued is not None:
        links, revoked = issued["links"], issued["revoked"]
        typer.echo(
            f"{sum(len(u) for u in links.values())} phone link(s) printed on the sheet only (the database keeps "
            "their hashes)" + (f"; {revoked} link(s) issued before revoked" if revoked else ""),
            err=json_out,
        )
        return links
    return None


def preferences_of(t, path: Path) -> dict[str, list[str]]:
    from ..engine.tournament.imports import preferences_csv

    return preferences_csv(t, read_input(path), str(path))


def _print_seating(loaded, round_no: int, tables: list) -> None:
    from ..views.tournament_listings import seating_listing

    listing, sat_out = seating_listing(loaded, round_no, tables)
    say_listing(listing)
    say_lines(sat_out)


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
    from ..tournaments.service import load
    from ..views.tournament import seating_by_player, seating_by_table
    from ..views.tournament_exports import seating_csv, seating_sheet
    from ..views.tournament_listings import seating_by_player_listing

    if by not in ("table", "player"):
        raise typer.BadParameter(f"{by!r}: table or player", param_hint="--by")
    with open_store(db) as store:
        loaded = load(store, tid, open_tournament(store, tid).t)
    rows = seating_by_table(loaded, round_no) if by == "table" else seating_by_player(loaded, round_no)
    if csv_out:
        write_output(csv_out, seating_csv(loaded, round_no, by), f"round {round_no} seating (CSV)", json_out=json_out)
    if sheet:
        write_output(sheet, seating_sheet(loaded, round_no), f"round {round_no} seating sheet", json_out=json_out)
    if json_out:
        return say_json(rows)
    if by == "table":
        _print_seating(loaded, round_no, rows)
    else:
        say_listing(seating_by_player_listing(round_no, rows))


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
    from ..engine.tournament.events import GameLinked
    from ..engine.tournament.rounds import plan_amendment, seed_of
    from ..tournaments.service import create_games, started_games
    from ..views.tournament_listings import seated_tables_lines

    chosen = [x for x in (swap, replace, reseat) if x is not None]
    if len(chosen) != 1:
        raise typer.BadParameter(
            "give exactly one of --swap A B, --replace OUT IN, --reseat TABLE", param_hint="--swap"
        )
    if not reason.strip():
        raise typer.BadParameter("an amendment needs a reason", param_hint="--reason")
    kind = "swap" if swap else "replace" if replace else "reseat"
    with open_store(db) as store:
        log = open_tournament(store, tid)
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
    say_lines(seated_tables_lines(log.t, round_no, tables))


# --- results ---------------------------------------------------------------------------------------------
