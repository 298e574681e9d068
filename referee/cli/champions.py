"""`referee champions ...`: Champions of Rokugan's scenario tracker and campaign log.

new GAME SHEET       a scenario from its setup sheet          demo [GAME]     the bundled demo scenario
event GAME LINE...   the table's reports (or --sheet FILE)    turn GAME       the Recovery Phase, next turn
end GAME             the end of the game, line by line        show GAME       where it stands
forms                every line a report may hold             publish GAME DIR  its pages as files
replay GAME          every event and what it did              verify GAME     chain, replay, digest
export GAME          JSON Lines                               import FILE     verified, then stored
correct GAME SEQ LINE...  a report's lines replaced           retract GAME SEQ  an event taken back
campaign new|log|end|show  the Campaign Log (p.32)
"""

from pathlib import Path
from typing import Annotated, Any

import typer

from ..engine import RefereeError
from .common import DbOpt, GameArg, JsonOpt, open_store, read_input, write_output

commands = typer.Typer()
champions = typer.Typer(
    help="Champions of Rokugan: the scenario tracker (Honor, Glory, the Threshold), its end and the campaign log.",
    no_args_is_help=True,
)
campaign = typer.Typer(
    help="The Campaign Log (p.32): each scenario's result, and who chooses the ending.", no_args_is_help=True
)
champions.add_typer(campaign, name="campaign")
commands.add_typer(champions, name="champions")

DEMO = Path(__file__).parent.parent / "data" / "champions"
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (recorded with the correction).")]
SeqArg = Annotated[int, typer.Argument(help="The event's number (see `referee champions replay`).", min=2)]
LinesArg = Annotated[list[str] | None, typer.Argument(help="Reports, one an argument ('Matsu Tsuko: honor +1').")]
SheetOpt = Annotated[Path | None, typer.Option("--sheet", help="Reports from a file, one a line ('-': stdin).")]


def _console():
    from .render import console

    return console


def _print(text: str, style: str | None = None) -> None:
    _console().print(text, style=style, markup=False, highlight=False, soft_wrap=True)


def _json(value: Any) -> None:
    from .render import print_json

    print_json(value)


def _reports(lines: list[str] | None, sheet: Path | None) -> list[str]:
    from ..champions.notation import lines as sheet_lines

    got = list(lines or [])
    if sheet is not None:
        got += [line for _, line in sheet_lines(read_input(sheet))]
    if not got:
        raise typer.BadParameter("give reports as arguments or --sheet FILE", param_hint="LINES")
    return got


# --- a scenario ----------------------------------------------------------------------------------------------
@champions.command()
def new(
    game: GameArg,
    sheet: Annotated[Path, typer.Argument(help="The setup sheet ('-' for stdin).", show_default=False)],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set up a scenario: the Threshold = the Champions' Honor + their Destiny + the difficulty (p.11); each
    player's Champion keeps 1 to 3 Clan Objectives (p.10-11); the Imperial Favor; who starts Dishonored."""
    from ..champions import setup_notes
    from ..log import champions as log

    with open_store(db, create=True) as store:
        fold = log.create_scenario(store, game, read_input(sheet))
    notes = setup_notes(fold.scenario)
    if json_out:
        _json({"notes": [str(n) for n in notes], **_board_data(fold)})
        return
    for n in notes:
        _print(f"  {n}")
    _board(fold, False)


@champions.command()
def event(
    game: GameArg, lines: LinesArg = None, sheet: SheetOpt = None, db: DbOpt = None, json_out: JsonOpt = False
) -> None:
    """Record the table's reports: Honor, Glory, objectives, Purity, Eliminated, Corrupted (p.14-17, p.27).
    Every bad line is named and nothing is recorded."""
    from ..log import champions as log

    with open_store(db) as store:
        fold, notes = log.report(store, game, _reports(lines, sheet))
    if json_out:
        _json({"notes": [str(n) for n in notes], **(_ending_data(fold) if fold.ended else _board_data(fold))})
        return
    for n in notes:
        _print(f"  {n}")
    _ending(fold, False) if fold.ended else _board(fold, False)


@champions.command()
def turn(
    game: GameArg,
    group_honor: Annotated[
        int | None, typer.Option("--group-honor", help="The Group Honor the tracking board shows (to check it).")
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The Recovery Phase (p.31): the Group Honor caught up (CR-01), the next turn begins."""
    from ..log import champions as log

    line = "turn end" + (f", group honor {group_honor}" if group_honor is not None else "")
    with open_store(db) as store:
        fold, notes = log.report(store, game, [line])
    if json_out:
        _json({"notes": [str(n) for n in notes], **_board_data(fold)})
        return
    for n in notes:
        _print(f"  {n}")


@champions.command()
def end(
    game: GameArg,
    objectives: Annotated[
        str, typer.Option("--objectives", help="Were the scenario objectives met? 'met' or 'missed'.")
    ],
    fulfilled: Annotated[
        list[str] | None,
        typer.Option(
            "--fulfilled",
            help="An End Objective whose conditions hold at the end: 'NAME: OBJECTIVE' (or 'NAME: OBJECTIVE for 1', "
            "of a card with two values). Repeat for each.",
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Ask nothing: the End Objectives not named are not fulfilled.")
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The end of the game (p.31-32): every adjustment line by line with its page, the result, the Glorified.
    It asks about each End Objective not yet reported fulfilled (CH-08); one fulfilled later is still taken:
    `referee champions event GAME "NAME: completes OBJECTIVE"` makes the settlement again."""
    from ..log import champions as log

    if objectives not in ("met", "missed"):
        raise typer.BadParameter(f"{objectives!r}: 'met' or 'missed'", param_hint="--objectives")
    named = list(fulfilled or [])
    with open_store(db) as store:
        fold = log.load_scenario(store, game)[1]
        if fold.ended:
            log.end_scenario(store, game, objectives)  # refused: already ended (the message says what to do)
        named += [] if yes else _ask_end_objectives(fold, named)
        fold = log.end_scenario(store, game, objectives, named)
    _ending(fold, json_out)


def _ask_end_objectives(fold, named: list[str]) -> list[str]:
    """Each End Objective neither reported fulfilled nor named on the command line, asked about (CH-08)."""
    from ..log import champions as log

    said = {x.partition(":")[2].strip().casefold().rsplit(" for ", 1)[0] for x in named}
    answers: list[str] = []
    for who, o in log.open_end_objectives(fold):
        if o.name.casefold() in said:
            continue
        worth = f"{o.glory}" + (f"/{o.lower}" if o.lower != o.glory else "")
        question = f"{who}'s End Objective {o.name} ({worth}): are its conditions fulfilled?"
        try:
            if o.lower != o.glory:
                got = typer.prompt(f"{question} {o.glory}, {o.lower} or n", default="n").strip().lower()
                got = str(o.glory) if got in ("y", "yes") else got
                if got not in ("n", "no", str(o.glory), str(o.lower)):
                    raise typer.BadParameter(f"{got!r}: {o.glory}, {o.lower} or n", param_hint="the answer")
                if got not in ("n", "no"):
                    answers.append(f"{who}: {o.name} for {got}")
            elif typer.confirm(question, default=False):
                answers.append(f"{who}: {o.name}")
        except typer.Abort:
            raise RefereeError(
                f"{fold.game}: the End Objectives were not answered: nothing was recorded",
                hint="name them with --fulfilled 'NAME: OBJECTIVE' (--yes: the others are not fulfilled)",
            ) from None
    return answers


@champions.command()
def show(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Where a scenario stands (its end-of-game report once it has ended), or a campaign's log."""
    from ..log import champions as log

    with open_store(db) as store:
        events = store.events(game)
        if log.kind_of(events) == log.CAMPAIGN_KIND:
            _campaign(log.load_campaign(store, game)[1], json_out)
            return
        fold = log.load_scenario(store, game)[1]
    if fold.ending is not None:
        _ending(fold, json_out)
    else:
        _board(fold, json_out)


@champions.command()
def replay(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Every event of a scenario's record, what the referee said about it, and where it stands now."""
    from ..log import champions as log

    with open_store(db) as store:
        fold = log.load_scenario(store, game)[1]
    from ..champions import public_line

    steps: list[dict[str, Any]] = [
        {
            "seq": s.seq,
            "type": s.type,
            "lines": [public_line(line, fold.scenario) for line in s.lines],
            "notes": [str(n) for n in s.notes],
            "taken_back": s.taken_back,
        }
        for s in fold.steps
    ]
    if json_out:
        _json({"steps": steps, **_board_data(fold)})
        return
    for s in steps:
        what = {"ChampionsScenarioCreated": "setup", "ChampionsReported": "reports", "ChampionsEnded": "end"}
        _print(
            f"event {s['seq']}: {what.get(s['type'], s['type'])}"
            + (f"  ({s['taken_back']})" if s["taken_back"] else "")
        )
        for line in s["lines"]:
            _print(f"    {line}")
        for note in s["notes"]:
            _print(f"      {note}", style="dim")
    if fold.ending is not None:
        _ending(fold, False)
    else:
        _board(fold, False)


@champions.command()
def verify(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Check a record (scenario or campaign): its hash chain, its replay, its end-of-game digest."""
    from ..log import champions as log

    with open_store(db) as store:
        events = store.events(game)
        problems = log.verify(events, store)
    if json_out:
        _json({"game": game, "events": len(events), "verified": not problems, "problems": problems})
    elif not problems:
        _print(f"{game}: {len(events)} events, verified (chain, replay, digests)")
    if problems:
        raise RefereeError(f"{game}: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))


@champions.command()
def export(
    game: GameArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    db: DbOpt = None,
) -> None:
    """Export a record (scenario or campaign) as JSON Lines, its chain included."""
    from ..log import champions as log
    from ..log.records import export_jsonl

    with open_store(db) as store:
        events = store.events(game)
    if log.kind_of(events) is None:
        raise RefereeError(f"{game}: not a Champions of Rokugan record (`referee export` exports the others)")
    text = export_jsonl(events)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text)


@champions.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A JSON Lines record ('-': stdin).", show_default=False)],
    db: DbOpt = None,
) -> None:
    """Import a record: verified first (chain and replay); a damaged file is refused whole."""
    from ..log import champions as log

    text = read_input(file)
    with open_store(db, create=True) as store:
        events = log.import_record(store, text)
    _print(f"imported {events[0].game}: {len(events)} events, verified")


@champions.command()
def correct(
    game: GameArg, seq: SeqArg, reason: ReasonOpt, lines: LinesArg = None, sheet: SheetOpt = None, db: DbOpt = None
) -> None:
    """Replace a recorded report's lines (a new event; the report stays in the record)."""
    from ..log import champions as log

    with open_store(db) as store:
        fold = log.correct(store, game, seq, _reports(lines, sheet), reason)
    _print(f"event {seq} corrected")
    _ending(fold, False) if fold.ending is not None else _board(fold, False)


@champions.command()
def retract(game: GameArg, seq: SeqArg, reason: ReasonOpt, db: DbOpt = None) -> None:
    """Take back an event: a scenario's report or end, or a campaign's logged scenario (a new event)."""
    from ..log import champions as log

    with open_store(db) as store:
        events = store.events(game)
        if log.kind_of(events) == log.CAMPAIGN_KIND:
            _campaign(log.retract_logged(store, game, seq, reason), False)
            return
        fold = log.retract(store, game, seq, reason)
    _print(f"event {seq} retracted")
    _board(fold, False)


@champions.command()
def demo(
    game: Annotated[str, typer.Argument(help="The demo scenario's id.")] = "champions-demo", db: DbOpt = None
) -> None:
    """Create the bundled demo scenario (The Fallen Lion, played to its end, Matsu Tsuko's End Objective
    fulfilled) and print its report."""
    from ..log import champions as log
    from .checks import game_id

    game = game_id(game)
    with open_store(db, create=True) as store:
        log.create_scenario(store, game, (DEMO / "demo-setup.txt").read_text("utf-8"))
        from ..champions.notation import lines as sheet_lines

        for _, line in sheet_lines((DEMO / "demo-reports.txt").read_text("utf-8")):
            log.report(store, game, [line])
        fold = log.end_scenario(store, game, "met", ["Matsu Tsuko: Unbroken Line"])
    _ending(fold, False)


# --- a campaign --------------------------------------------------------------------------------------------------
@campaign.command("new")
def campaign_new(
    name: GameArg,
    players: Annotated[str, typer.Option("--players", help="The players, comma-separated.")],
    db: DbOpt = None,
) -> None:
    """Open a campaign's log for its players."""
    from ..log import champions as log

    with open_store(db, create=True) as store:
        fold = log.create_campaign(store, name, [p.strip() for p in players.split(",") if p.strip()])
    _campaign(fold, False)


@campaign.command("log")
def campaign_log(name: GameArg, game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Log an ended scenario's result: success, Threshold difference, each player's Glory, the Glorified (p.32)."""
    from ..log import champions as log

    with open_store(db) as store:
        fold, _ = log.log_scenario(store, name, game)
    _campaign(fold, json_out)


@campaign.command("end")
def campaign_end(name: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """End the campaign: the player with the most Glory across its scenarios chooses the ending (p.32)."""
    from ..log import champions as log

    with open_store(db) as store:
        fold = log.finish_campaign(store, name)
    _campaign(fold, json_out)


@campaign.command("show")
def campaign_show(name: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """The Campaign Log as it stands."""
    from ..log import champions as log

    with open_store(db) as store:
        fold = log.load_campaign(store, name)[1]
    _campaign(fold, json_out)


# --- what the table sees -------------------------------------------------------------------------------------------
def _board_data(fold) -> dict[str, Any]:
    from ..champions import shown_objectives

    s = fold.scenario
    favor = s.champion(s.favor) if s.favor else None
    return {
        "game": fold.game,
        "scenario": s.setup.scenario,
        "type": s.setup.kind or None,
        "turn": s.turn,
        "max_turns": s.setup.max_turns,
        "threshold": s.threshold,
        "group_honor": s.group_honor,
        "favor": {"champion": favor.name, "player": favor.card.player} if favor else None,
        "phase": s.table.phase.value,
        "ended": fold.ended,
        "options": s.setup.options.to_dict(),
        "champions": [
            {
                "name": c.name,
                "player": c.card.player,
                "companion": c.card.companion,
                "clan": c.card.clan or None,
                "honor": c.honor,
                "glory": c.glory,
                "purity": c.purity,
                "destiny": c.card.destiny,
                "status": c.status.value,
                "standing": c.standing.lower(),
                "dishonored": c.dishonored,
                "bonuses": list(c.bonuses),
                "objectives": shown_objectives(c, s.ended),
            }
            for c in s.champions
        ],
        "units": [{"name": u.name, "miniatures": u.size, "eliminated": u.eliminated} for u in s.units],
    }


def status_text(c: dict[str, Any]) -> str:
    """The status column: an active Champion's standing (p.14), or eliminated / corrupted."""
    return f"active, {c['standing'].capitalize()}" if c["status"] == "active" else c["status"]


def _board(fold, json_out: bool) -> None:
    data = _board_data(fold)
    if json_out:
        _json(data)
        return
    from .render import _table

    favor = data["favor"]
    holder = f"; Imperial Favor: {favor['champion']} ({favor['player']})" if favor else ""
    _print(
        f"{data['game']}: {data['scenario']}, turn {data['turn']} of {data['max_turns']}; "
        f"Group Honor {data['group_honor']}, Threshold {data['threshold']}{holder}"
    )
    table = _table("")
    for col in ("champion", "honor", "glory", "purity", "destiny", "status", "bonus tokens", "objectives"):
        table.add_column(col, justify="left" if col in ("champion", "status", "objectives") else "right")
    for c in data["champions"]:
        who = c["name"] + (" (companion)" if c["companion"] else f" ({c['player']})")
        bonuses = ", ".join(map(str, c["bonuses"])) or "-"
        held = "; ".join(str(o["text"]) for o in c["objectives"]) or "-"
        table.add_row(
            who, str(c["honor"]), str(c["glory"]), str(c["purity"]), str(c["destiny"]), status_text(c), bonuses, held
        )
    _console().print(table)
    for u in data["units"]:
        _print(f"the {u['name']} Unit: {u['miniatures'] - u['eliminated']} of its {u['miniatures']} miniatures left")


def _ending_data(fold) -> dict[str, Any]:
    e = fold.ending
    return {
        **_board_data(fold),
        "objectives_met": e.objectives_met,
        "lines": [
            {"who": x.who, "on": x.what, "adjustment": x.label, "amount": x.amount, "rule": x.rule} for x in e.lines
        ],
        "final_group_honor": e.group_honor,
        "final_threshold": e.threshold,
        "difference": e.difference,
        "final_glory": dict(e.glory),
        "victory": e.victory,
        "reasons": list(e.reasons),
        "glorified": list(e.glorified),
    }


def _ending(fold, json_out: bool) -> None:
    data = _ending_data(fold)
    if json_out:
        _json(data)
        return
    from .render import _table

    e = fold.ending
    table = _table(f"{data['game']}: {data['scenario']}, the end of the game (p.31-32)")
    for col in ("who", "on", "adjustment", "change", "rule"):
        table.add_column(col, justify="right" if col == "change" else "left")
    for x in data["lines"]:
        table.add_row(x["who"], x["on"], x["adjustment"], f"{x['amount']:+d}", x["rule"])
    _console().print(table)
    _print(f"scenario objectives: {'met' if e.objectives_met else 'not met'} (p.31)")
    _print(f"Group Honor {e.group_honor} against the Threshold {e.threshold}: difference {e.difference:+d} (CR-13)")
    _print("end-of-game Glory: " + ", ".join(f"{n} {g}" for n, g in e.glory) + " (p.32)")
    _print("result: VICTORY (p.31)" if e.victory else "result: DEFEAT: " + "; ".join(e.reasons))
    after = (
        ""
        if e.victory or not e.glorified
        else ": decided after a defeat too; the Intermission card comes only after a victory, CR-10"
    )
    _print(f"Glorified: {', '.join(e.glorified) or 'nobody'} (p.32, CR-09{after})")


def _campaign_data(fold) -> dict[str, Any]:
    from ..log.champions import play_to

    c = fold.campaign
    return {
        "campaign": c.name,
        "players": list(c.players),
        "plays": [
            {"play": n, "seq": seq, "scenario_game": game, "counts": play in c.counted(), **play_to(play)}
            for n, (seq, play, game, _) in enumerate(fold.logged, 1)
        ],
        "totals": dict(c.totals()),
        "ended": c.ended,
        "choosers": list(fold.result.choosers) if fold.result else [],
    }


def _campaign(fold, json_out: bool) -> None:
    data = _campaign_data(fold)
    if json_out:
        _json(data)
        return
    from .render import _table

    _print(f"campaign {data['campaign']}: players {', '.join(data['players'])}")
    if not data["plays"]:
        _print("no scenario logged yet: `referee champions campaign log CAMPAIGN GAME` once a scenario has ended")
        return
    table = _table("")
    for col in (
        "play",
        "scenario",
        "result",
        "difference",
        *data["players"],
        "Glorified",
        "Intermission card",
        "event",
    ):
        table.add_column(col)
    for p in data["plays"]:
        glory = dict(p["glory"])
        table.add_row(
            str(p["play"]),
            p["scenario"] + ("" if p["counts"] else " (replayed: does not count, CR-12)"),
            "success" if p["victory"] else "failure",
            f"{p['difference']:+d}",
            *[str(glory[x]) if x in glory else "-" for x in data["players"]],
            ", ".join(p["glorified"]) + ("" if p["victory"] else " (CR-09)") if p["glorified"] else "-",
            ", ".join(p["intermission"]) or "-",
            str(p["seq"]),
        )
    _console().print(table)
    _print("Glory across the campaign: " + ", ".join(f"{p} {g}" for p, g in data["totals"].items()) + " (p.32, CR-12)")
    if data["ended"]:
        who = data["choosers"]
        if len(who) == 1:
            _print(f"campaign over: {who[0]} has the most Glory and chooses the Clan whose ending is read (p.32)")
        else:
            _print(f"campaign over: {', '.join(who)} tie for the most Glory: each applies one ending (p.32)")


# --- the notation and the pages --------------------------------------------------------------------------------
@champions.command()
def forms(json_out: JsonOpt = False) -> None:
    """Every line a report may hold, what it records and the rule (the notation of the setup sheet: the README)."""
    from ..champions.notation import FORMS_TABLE

    if json_out:
        _json([{"line": line, "records": what, "rule": rule} for line, what, rule in FORMS_TABLE])
        return
    from .render import _table

    table = _table("the reports, one a line (NAME: a Champion's name or its unambiguous start)")
    for col in ("line", "what it records", "rule"):
        table.add_column(col)
    for row in FORMS_TABLE:
        table.add_row(*row)
    _console().print(table)


@champions.command()
def publish(
    game: GameArg,
    directory: Annotated[Path, typer.Argument(help="The folder to write the pages into (made if missing).")],
    db: DbOpt = None,
) -> None:
    """Write a scenario's page, or a campaign's and its logged scenarios', as a static site (no script): the same
    pages as `referee serve`, for a web host or a USB stick."""
    from ..log import champions as log
    from .publish import publish_champions

    with open_store(db) as store:
        if log.kind_of(store.events(game)) is None:
            raise RefereeError(
                f"{game}: not a Champions of Rokugan record (`referee tournament publish` for a tournament)"
            )
        written = publish_champions(store, game, directory)
    _print(f"{written} files written under {directory} (open {directory / 'index.html'})")
