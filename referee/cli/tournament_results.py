"""`referee tournament ...` once a round is played: a game called or its result entered by a judge, the points
adjusted, a round closed, where the tournament stands, the standings and results, the final table, and the
tournament's record (export, import, verify). Added to the tournament's command group (``tournament.tapp``)."""

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.shown import plain
from .common import DbOpt, JsonOpt, open_store, read_input, write_output
from .tournament import (
    PlayerArg,
    ReasonOpt,
    RoundArg,
    TidArg,
    open_tournament,
    preferences_of,
    record_for_player,
    say,
    say_json,
    say_lines,
    say_listing,
    tapp,
)


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
    from ..tournaments.service import call_game
    from ..views.tournament_listings import called_line

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
        log = open_tournament(store, tid)
        event = call_game(store, log, game, reason, reveals)
    say(called_line(log.t, event))


@tapp.command("retract-call")
def retract_call(
    tid: TidArg,
    game: Annotated[str, typer.Argument(help="The called game.")],
    reason: ReasonOpt,
    db: DbOpt = None,
) -> None:
    """Take back a mistaken call, with a reason, before the round is closed (recorded as an event): the table's
    result is its log's again, and the game may be called again."""
    from ..tournaments.service import retract_call as retract

    if not reason.strip():
        raise typer.BadParameter("retracting a call needs a reason", param_hint="--reason")
    with open_store(db) as store:
        log = open_tournament(store, tid)
        event = retract(log, game, reason)
    say(
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
    from ..engine.tournament.events import ResultEntered, TournamentError

    if not reason.strip():
        raise typer.BadParameter("a judge's result needs a reason", param_hint="--reason")
    with open_store(db) as store:
        log = open_tournament(store, tid)
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
    say(
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

    from ..engine.tournament.events import PointsAdjusted, TournamentError

    if not reason.strip():
        raise typer.BadParameter("an adjustment needs a reason", param_hint="--reason")
    try:
        value = Fraction(points.strip())
    except (ValueError, ZeroDivisionError):
        raise TournamentError(f"adjustment {points!r}: not a number") from None
    who = record_for_player(db, tid, name, lambda p: PointsAdjusted(p, str(value), reason, round_no))
    say(f"{who}: {points} point{'' if abs(value) == 1 else 's'} ({reason})")


@tapp.command("close")
def close(tid: TidArg, round_no: RoundArg, db: DbOpt = None) -> None:
    """Close a round: every table's result accepted from its game log (or called, or entered by the judge)."""
    from ..tournaments.service import close_round

    with open_store(db) as store:
        log = open_tournament(store, tid)
        accepted = close_round(store, log, round_no)
    say(f"round {round_no} closed: {accepted} result(s) accepted from the game logs")


@tapp.command("status")
def status(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Argument(help="The round (default: the last seated).")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Each table of a round: its game, the round of play, finished or called, sealed objectives left."""
    from ..tournaments.service import load
    from ..views.tournament import table_status
    from ..views.tournament_listings import status_listing

    with open_store(db) as store:
        loaded = load(store, tid)
    r = round_no or loaded.tournament.last_round
    rows = table_status(loaded, r)
    if json_out:
        return say_json(rows)
    say_listing(status_listing(r, rows))


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
    from ..tournaments.service import load
    from ..views.tournament import explain_view, standings_view
    from ..views.tournament_exports import standings_csv
    from ..views.tournament_listings import explain_lines, standings_listing, standings_notes

    with open_store(db) as store:
        loaded = load(store, tid)
    if csv_out:
        write_output(csv_out, standings_csv(loaded), f"standings of {tid!r} (CSV)", json_out=json_out)
    if explain:
        data = explain_view(loaded, explain)
        if json_out:
            return say_json(data)
        return say_lines(explain_lines(data))
    data = standings_view(loaded)
    if json_out:
        return say_json(data)
    say_listing(standings_listing(data))
    say_lines(standings_notes(data, loaded.signed))


@tapp.command("results")
def results(
    tid: TidArg,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="Write as CSV.")] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every table's result: honor, place, points, where it came from."""
    from ..tournaments.service import load
    from ..views.tournament_exports import result_rows, results_csv
    from ..views.tournament_listings import results_listing

    with open_store(db) as store:
        loaded = load(store, tid)
    if csv_out:
        write_output(csv_out, results_csv(loaded), f"results of {tid!r} (CSV)", json_out=json_out)
    rows = result_rows(loaded)
    if json_out:
        return say_json(rows)
    say_listing(results_listing(rows))


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
    from ..tournaments.service import seat_final
    from ..views.tournament_listings import final_line

    picks = {}
    for item in pick or ():
        name, eq, clan = item.rpartition("=")
        if not eq:
            raise typer.BadParameter(f"{item!r}: expected NAME=CLAN", param_hint="--pick")
        picks[name.strip()] = clan.strip().lower()
    with open_store(db) as store:
        log = open_tournament(store, tid)
        wishes = preferences_of(log.t, preferences) if preferences is not None else {}
        event = seat_final(store, log, size, picks, wishes)
    say(final_line(log.t, event))


# --- export, import, verify ---------------------------------------------------------------------------
@tapp.command("export")
def export(
    tid: TidArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    db: DbOpt = None,
) -> None:
    """The tournament's event stream as JSON Lines (lossless, chain included, with the organiser's signatures)."""
    from ..records.jsonl import export_jsonl
    from ..records.signing import with_signatures
    from ..tournaments.service import read_events

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
    from ..records.signing import check, refusal, split_record, store_attached
    from ..tournaments.service import import_log, parse_jsonl

    text, attached = split_record(read_input(file))
    events = parse_jsonl(text)
    checked = check("tournament", events, attached.signatures, key_changes=attached.key_changes)
    if checked.problem:
        raise refusal(str(file), checked, attached.lines)
    with open_store(db, create=True) as store:
        t = import_log(store, events)
        store_attached(store, attached)
    say(f"tournament {t.id} imported: {len(events)} events")


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
    from ..records.signing import check, check_stored, read_keys, refusal, split_record
    from ..tournaments.service import fold, parse_jsonl, read_events, verify as verify_log, verify_games
    from ..views.tournament_listings import verified_line, verify_view

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
        say_json(verify_view(events, problems, checked.status))
    elif problems:
        for p in problems:
            print(f"error: {plain(p)}", file=sys.stderr)
    else:
        say(verified_line(events, checked.status, with_games=not path.is_file()))
    if problems:
        raise typer.Exit(1)
