"""`referee ccg ...`: the Legend of the Five Rings card game's matches, in the same log as the board game's.

new      a match: the two players' Stronghold values as entered, who goes first when tied; or started
         mid-game (--turn N) with the state as it stands
event    one or more lines of the match notation (all or none, but a line that ends the match ends the
         entry); battle, duel, pass: one line each; honor: a judge's correction with its reason
score    where the match stands: turn, phase, Family Honor, provinces, the Favor, Personalities, the result
replay   every event again, with what each line did
verify   the hash chain and every event re-applied by the rules
export   the match as JSON Lines;  import: a match from JSON Lines, verified first
correct  replace a recorded event's lines, with a reason;  retract: take back the last one
deck     check a decklist (p.67 Deck Construction): every problem, one line each
rules    the referee's own rulings for the card game (CT-xx)
demo     play the bundled demo match into the database
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from .common import CCG_HELP, DbOpt, GameArg, JsonOpt, open_store, read_input, write_output

commands = typer.Typer(  # built when `referee ccg` is named (app.RefereeGroup)
    name="ccg", help=CCG_HELP, no_args_is_help=True, rich_markup_mode=None, add_completion=False
)
DEMO = Path(__file__).parent.parent / "data" / "games" / "ccg-demo.txt"
Lines = Annotated[list[str], typer.Argument(help="Lines of the match notation (each one quoted).", show_default=False)]


@contextmanager
def refusals() -> Iterator[None]:
    """The card game's rules errors as the referee's: one line, exit 1 (main's error boundary)."""
    from ..engine.ccg.model import CcgError

    try:
        yield
    except CcgError as exc:
        raise RefereeError(exc.message, hint=exc.hint) from None


def _console():
    from .render import console

    return console


def _print_json(value) -> None:
    from .render import print_json

    print_json(value)


Many = Annotated[list[str] | None, typer.Option(show_default=False)]


@commands.command()
def new(
    game: GameArg,
    player: Annotated[
        list[str],
        typer.Option(
            "--player",
            "-p",
            help="A player and his Stronghold's values, twice: 'NAME: honor N, strength N, gold N[, stronghold "
            "TITLE][, clan CLAN]' (mid-game: his Family Honor now, and ', provinces N N ...' standing).",
        ),
    ],
    first: Annotated[
        str | None, typer.Option(help="Who goes first when the starting Family Honor is tied (chosen at random).")
    ] = None,
    event: Annotated[str, typer.Option(help="The event's name.")] = "",
    table: Annotated[str, typer.Option(help="The table.")] = "",
    date: Annotated[str, typer.Option(help="The date played (YYYY-MM-DD).")] = "",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="A rules option NAME=VALUE (`referee ccg rules` lists them).", show_default=False
        ),
    ] = None,
    turn: Annotated[
        int | None, typer.Option(min=1, help="Start mid-game at this turn (the n-th turn of the match, CT-10).")
    ] = None,
    active: Annotated[str | None, typer.Option(help="Mid-game: the active player (required with --turn).")] = None,
    favor: Annotated[
        str | None, typer.Option(help="Mid-game: who controls the Imperial Favor, or 'none' (required with --turn).")
    ] = None,
    phase: Annotated[str, typer.Option(help="Mid-game: the phase the match starts in.")] = "straighten",
    used: Annotated[
        list[str] | None,
        typer.Option(
            help="Mid-game: a once-a-turn ability already used this turn, 'ABILITY PLAYER' (lobby, favor-draw, "
            "favor-home, claim), or 'none' (CT-11).",
            show_default=False,
        ),
    ] = None,
    ring: Annotated[
        list[str] | None,
        typer.Option(help="Mid-game: a Ring in play, 'PLAYER TITLE (ELEMENT[, by effect])'.", show_default=False),
    ] = None,
    personality: Annotated[
        list[str] | None,
        typer.Option(
            help="Mid-game: a Personality in play whose state matters, 'PLAYER TITLE (MARKS)', e.g. 'bob Doji Hayao "
            "(courtier, 3PH, dishonorable)'.",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Start a match between two players (Setting Up: four provinces each, the highest Honor goes first), or
    mid-game with --turn, --active and --favor and the state as it stands (CT-11)."""
    from ..games.ccg.service import new_match_log
    from .checks import calendar_date, new_game_id

    new_game_id(game)
    date = calendar_date(date)
    if len(player) != 2:
        raise typer.BadParameter(f"a match has two players, got {len(player)}", param_hint="--player")
    midgame = _midgame(turn, active, favor, phase, used, ring, personality)
    with refusals(), open_store(db, create=True) as store:
        _, match, said = new_match_log(
            store,
            game,
            player,
            first=first,
            event=event,
            table=table,
            date=date,
            options=option or [],
            midgame=midgame,
        )
    if json_out:
        _print_json({"game": game, "setup": said.to_dict(), "match": _state(match)})
        return
    console = _console()
    console.print(f"[bold]{game}[/bold]: a card game match, recorded in {store.where}", soft_wrap=True)
    for p in match.players:
        console.print(f"  {p.name}: {p.starting}" + (f" ({p.stronghold})" if p.stronghold else ""), markup=False)
    for note in said.notes:
        console.print(note, markup=False, soft_wrap=True)
    _show_result(match)


def _midgame(turn, active, favor, phase, used, ring, personality) -> dict | None:
    """The mid-game options as the log records them; a usage error when they are given without --turn, or
    --turn without the active player and the Favor."""
    given = {"--active": active, "--favor": favor, "--used": used, "--ring": ring, "--personality": personality}
    if turn is None:
        extra = [k for k, v in given.items() if v] + (["--phase"] if phase != "straighten" else [])
        if extra:
            raise typer.BadParameter(f"{', '.join(extra)}: only for a match started mid-game", param_hint="--turn")
        return None
    for name in ("--active", "--favor"):
        if not given[name]:
            raise typer.BadParameter(f"a match started mid-game names {name} (CT-10, CT-11)", param_hint=name)
    state: dict = {"turn": turn, "active": active, "favor": favor, "phase": phase.strip().lower()}
    state["rings"] = list(ring or [])
    state["personalities"] = list(personality or [])
    if used:
        entries = []
        for item in used:
            if item.strip().lower() == "none":
                continue
            ability, _, who = item.strip().partition(" ")
            if not who.strip():
                raise typer.BadParameter(f"{item!r}: 'ABILITY PLAYER' or 'none'", param_hint="--used")
            entries.append({"ability": ability.lower(), "player": who.strip()})
        state["used"] = entries
    return state


def _record(game: str, lines: list[str], db: str | None, json_out: bool) -> None:
    from ..games.ccg.service import OpenMatch

    with refusals(), open_store(db) as store:
        log = OpenMatch(store, game)
        event, outcomes, rest = log.record(lines)
        match = log.match
    if json_out:
        _print_json(
            {
                "seq": event.seq,
                "lines": [{"line": line, **o.to_dict()} for line, o in outcomes],
                "not_recorded": [{"line": line, "reason": why} for line, why in rest],
                "match": _state(match),
            }
        )
        return
    _show_outcomes(outcomes)
    _show_result(match)
    for line, why in rest:
        _console().print(f'not recorded: "{line}": {why}', markup=False, soft_wrap=True)


@commands.command("event")
def event_(
    game: GameArg,
    lines: Annotated[
        list[str] | None, typer.Argument(help="Lines of the match notation (each one quoted).", show_default=False)
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="A file of lines, or '-' for standard input.")
    ] = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Record events in the match notation (docs/notation/match.md): taken all or none; a refused line is named,
    nothing kept."""
    got = list(lines or [])
    if file is not None:
        got.extend(read_input(file).splitlines())
    if not any(line.strip() for line in got):
        raise typer.BadParameter("no line given (as arguments or --file)")
    _record(game, got, db, json_out)


@commands.command()
def battle(
    game: GameArg,
    line: Annotated[str, typer.Argument(help="'<province> [strength N]: <units> vs <units>'", show_default=False)],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A battle of the active player's Attack Phase at the other player's province (Resolution Segment)."""
    _record(game, [f"battle {line}"], db, json_out)


@commands.command()
def duel(
    game: GameArg,
    line: Annotated[
        str,
        typer.Argument(help="'<player> <personality> (N) [focus N, ...] vs <player> ...'", show_default=False),
    ],
    stat: Annotated[str, typer.Option(help="The duel stat, if not Chi (force, personal honor, gold cost).")] = "chi",
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A duel's resolution: focused values and each Personality's duel stat (glossary: duel)."""
    head = "duel:" if stat == "chi" else f"duel {stat}:"
    _record(game, [f"{head} {line}"], db, json_out)


@commands.command()
def honor(
    game: GameArg,
    changes: Annotated[str, typer.Argument(help="'<player> +N[, <player> -N]'", show_default=False)],
    reason: Annotated[str, typer.Option("--reason", help="Why the judge corrects the Family Honor.")],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A judge's correction of Family Honor, with its reason (CT-01): the Honor of actions is worked out from
    their lines (`referee ccg event`), never typed."""
    if not reason.strip():
        raise typer.BadParameter("a correction needs its reason", param_hint="--reason")
    _record(game, [f"honor {changes.strip()} (correction): {reason.strip()}"], db, json_out)


@commands.command("pass")
def pass_(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """The active player's turn ends; the other player's begins (the honor victory is checked first, C-03)."""
    _record(game, ["pass"], db, json_out)


def _state(match) -> dict:
    from ..games.ccg.service import match_dict

    return match_dict(match)


def _show_outcomes(outcomes) -> None:
    console = _console()
    for line, outcome in outcomes:
        console.print(line, markup=False, soft_wrap=True)
        for note in outcome.notes:
            console.print(f"  {note}", markup=False, soft_wrap=True)


def _show_result(match) -> None:
    from ..engine.ccg import cite

    r = match.result
    if r is not None:
        who = f"{r.winner} wins: {r.victory} victory" if r.winner else "the match is a draw"
        _console().print(f"match over: {who} ({r.reason}; {cite(r.rule)})", markup=False, soft_wrap=True)


@commands.command()
def score(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Where the match stands: turn, active player, Family Honor, provinces left, Rings, the result."""
    from ..games.ccg.service import OpenMatch

    with refusals(), open_store(db) as store:
        match = OpenMatch(store, game).match
    if json_out:
        _print_json({"game": game, **_state(match)})
        return
    console = _console()
    state = "over" if match.over else f"turn {match.turn}, {match.active_player.name}'s {match.phase.label} phase"
    console.print(f"{game}: {state}", markup=False)
    for p in match.players:
        _show_player(console, p)
    console.print(f"  the Imperial Favor: {match.favor_holder or 'uncontrolled'}", markup=False)
    if match.used and not match.over:
        uses = sorted(f"{a} ({match.players[int(i)].name})" for a, i in (u.rsplit(":", 1) for u in match.used))
        console.print(f"  used this turn: {', '.join(uses)}", markup=False, soft_wrap=True)
    _show_result(match)


def _show_player(console, p) -> None:
    """A player's line of `referee ccg score`: Family Honor, provinces, rings; then each Personality in play that
    is bowed, dishonorable or away from home."""
    rings = f"; rings: {', '.join(r.title for r in p.rings)}" if p.rings else ""
    left = ", ".join(map(str, p.provinces)) or "none"
    console.print(f"  {p.name}: {p.honor} Family Honor; provinces {left}{rings}", markup=False)
    shown = [w for w in p.court if w.in_play and (w.bowed or w.dishonorable or w.where != "home")]
    for who in shown:
        words = [w for w, on in (("bowed", who.bowed), ("dishonorable", who.dishonorable)) if on]
        where = "" if who.where == "home" else f" ({who.where})"
        console.print(f"    {who.title}: {', '.join(words) or 'unbowed'}{where}", markup=False, soft_wrap=True)


@commands.command()
def replay(game: GameArg, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Every event of the match again, with what each line did and the match after it."""
    from ..games.ccg.service import OpenMatch, steps

    with refusals(), open_store(db) as store:
        events = OpenMatch(store, game).events
        done = steps(events)
    if json_out:
        _print_json(
            [
                {
                    "seq": s.event.seq,
                    "type": s.event.type,
                    "recorded_at": s.event.recorded_at,
                    "data": s.event.data,
                    "lines": [{"line": line, **o.to_dict()} for line, o in s.outcomes],
                    "match": _state(s.match),
                }
                for s in done
            ]
        )
        return
    console = _console()
    for s in done:
        d = s.event.data
        head = f"event {s.event.seq} ({s.event.recorded_at[:16].replace('T', ' ')}) {s.event.type}"
        if s.event.type == "MatchCreated":
            head += ": " + "; ".join(d["setup"]) + f"; {d['first']} goes first"
        elif "reason" in d:
            head += f" of event {d['seq']}: {d['reason']}"
        console.print(head, markup=False, soft_wrap=True)
        _show_outcomes(s.outcomes)
    _show_result(done[-1].match)


@commands.command()
def verify(
    target: Annotated[str, typer.Argument(help="A match id in the database, or an exported .jsonl file.")],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Check the hash chain and re-apply every event with the rules; name the first divergence (exit 1)."""
    from ..games.ccg.service import verify as verify_match
    from ..records.jsonl import parse_jsonl

    path = Path(target)
    if path.is_file():
        events, _ = parse_jsonl(read_input(path))
    else:
        with open_store(db) as store:
            events = store.events(target)
    found = verify_match(events)
    if json_out:
        _print_json({"target": target, "events": len(events), "ok": found is None, "divergence": str(found or "")})
    elif found is None:
        _console().print(f"{target}: {len(events)} events, chain whole, every event re-applied: verified", markup=False)
    else:
        _console().print(f"{target}: NOT verified: {found}", markup=False, soft_wrap=True)
    if found is not None:
        raise typer.Exit(1)


@commands.command()
def export(
    game: GameArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file.")] = None,
    db: DbOpt = None,
) -> None:
    """Export a match as JSON Lines (one event a line, its chain included): lossless, `ccg import` takes it."""
    from ..games.ccg.service import OpenMatch
    from ..records.jsonl import export_jsonl

    with refusals(), open_store(db) as store:
        text = export_jsonl(OpenMatch(store, game).events)
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_output(output, text)


@commands.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A match exported as JSON Lines.", show_default=False)],
    db: DbOpt = None,
) -> None:
    """Import a match: verified first; a damaged file is refused (its event named), nothing stored."""
    from ..games.ccg.service import KIND, verify as verify_match
    from ..records.jsonl import RecordError, parse_jsonl

    events, lines = parse_jsonl(read_input(file))
    if not events:
        raise RefereeError(f"{file}: the file holds no events")
    found = verify_match(events)
    if found is not None:
        raise RecordError(str(found), lines[min(found.index, len(lines) - 1)])
    with open_store(db, create=True) as store:
        store.import_logs([events], kind=KIND)
    _console().print(f"imported {events[0].game}: {len(events)} events, verified", markup=False)


@commands.command()
def correct(
    game: GameArg,
    seq: Annotated[int, typer.Argument(min=1, help="The recorded event to correct (its number).", show_default=False)],
    lines: Lines,
    reason: Annotated[str, typer.Option("--reason", help="Why it is corrected (the judge's ruling).")],
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Replace a recorded event's lines; every later event is applied again on the corrected match. The
    original stays in the log."""
    from ..games.ccg.service import OpenMatch

    with refusals(), open_store(db) as store:
        log = OpenMatch(store, game)
        event, old = log.correct(seq, lines, reason)
        match = log.match
    if json_out:
        _print_json({"seq": event.seq, "corrects": seq, "was": old, "now": event.data["lines"], "match": _state(match)})
        return
    console = _console()
    console.print(f"event {event.seq}: event {seq} corrected ({event.data['reason']})", markup=False)
    for line in old:
        console.print(f"  - {line}", markup=False, soft_wrap=True)
    for line in event.data["lines"]:
        console.print(f"  + {line}", markup=False, soft_wrap=True)
    _show_result(match)


@commands.command()
def retract(
    game: GameArg,
    reason: Annotated[str, typer.Option("--reason", help="Why it is taken back.")],
    db: DbOpt = None,
) -> None:
    """Take back the last recorded event (a new event: the original stays in the log)."""
    from ..games.ccg.service import OpenMatch

    with refusals(), open_store(db) as store:
        event, target = OpenMatch(store, game).retract(reason)
    _console().print(f"event {event.seq}: event {target.seq} taken back ({reason.strip()})", markup=False)
    for line in target.lines:
        _console().print(f"  - {line}", markup=False, soft_wrap=True)


@commands.command()
def deck(
    file: Annotated[Path, typer.Argument(help="A decklist ('-' for standard input).", show_default=False)],
    json_out: JsonOpt = False,
) -> None:
    """Check a decklist (p.67 Deck Construction, C-04, C-07): every problem on its own line; exit 1 if any."""
    from ..engine.ccg import check_deck, parse_decklist

    with refusals():
        report = check_deck(parse_decklist(read_input(file)))
    if json_out:
        _print_json(report.to_dict())
    else:
        console = _console()
        verdict = "legal" if report.legal else f"NOT legal ({len(report.problems)} problems)"
        console.print(f"{file}: {report.dynasty} Dynasty, {report.fate} Fate cards: {verdict}", markup=False)
        for problem in report.problems:
            console.print(f"  {problem.message} [{problem.code}]", markup=False, soft_wrap=True)
    if not report.legal:
        raise typer.Exit(1)


@commands.command()
def rules(
    query: Annotated[
        str | None, typer.Argument(help="A ruling's id (CT-05) or words it holds.", show_default=False)
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The referee's own rulings for the card game (CT-xx: where the rulebook and C-xx leave a question open),
    with the rules options a match may choose (`referee ccg new ... --option NAME=VALUE`)."""
    from ..games.battle.rulings import card_game_rulings, find_card_game

    found = card_game_rulings() if query is None else find_card_game(query)
    if not found:
        raise RefereeError(f"no card game ruling matches {query!r}", hint="referee ccg rules (lists them all)")
    if json_out:
        _print_json([r.to_dict() for r in found])
        return
    console = _console()
    for r in found:
        console.print(f"{r.id} {r.text}" if query else f"{r.id} {r.title}", markup=False, soft_wrap=True)
        if query and r.option is not None:
            o = r.option
            console.print(f"  option {o.name}: default {o.default} (allowed: {', '.join(o.values)})", markup=False)


@commands.command()
def demo(db: DbOpt = None) -> None:
    """Play the bundled demo match (Crane against Crab) into the database, event by event."""
    from ..games.ccg.service import OpenMatch, new_match_log

    text = DEMO.read_text("utf-8")
    setup = [ln.removeprefix("player ").strip() for ln in text.splitlines() if ln.startswith("player ")]
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(("#", "player "))]
    with refusals(), open_store(db, create=True) as store:
        n = 1
        while store.exists(f"ccg-demo-{n}"):
            n += 1
        game = f"ccg-demo-{n}"
        new_match_log(store, game, setup)
        log = OpenMatch(store, game)
        _console().print(f"[bold]{game}[/bold]: {' against '.join(setup)}", soft_wrap=True)
        for line in lines:
            _, outcomes, _ = log.record([line])
            _show_outcomes(outcomes)
        _show_result(log.match)
    _console().print(f"replay it with: referee ccg replay {game}    check it with: referee ccg verify {game}")
