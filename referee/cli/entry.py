"""`referee links` and `referee confirm`: the seats' phone links, and the moderator's side of a round the
players enter on their phones (`referee serve --entry` serves the phone pages; the logic is ``games.battle.entry``)."""

import re
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from .common import DbOpt, GameArg, JsonOpt, open_store, write_output

commands = typer.Typer()
BASE = re.compile(r"https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?")


def base_url(value: str | None) -> str | None:
    """The address the phones reach `referee serve --entry` by (``--base``, ``--links``): http(s), a host, a
    port, a path; nothing a printed link or its QR code would carry that the server does not serve."""
    if value is not None and not BASE.fullmatch(value):
        raise typer.BadParameter(f"{value[:80]!r}: expected an address such as https://192.168.1.20:8000")
    return value


def warn_plain_http(base: str) -> None:
    """A warning on standard error when links are issued for plain HTTP to another machine: they will cross the
    venue's network in clear (the manual: docs/battle-for-rokugan/organiser.md, TLS at the venue)."""
    m = BASE.fullmatch(base)
    host = m.group(1).strip("[]").lower() if m else ""
    if base.startswith("http://") and host not in ("localhost", "127.0.0.1", "::1"):
        typer.echo(
            f"warning: {base} is plain HTTP: these links will cross the network in clear, readable by anyone on it; "
            "serve over TLS (`referee serve --ssl-certfile ... --ssl-keyfile ...`) and give its https:// address",
            err=True,
        )


@commands.command()
def links(
    game: GameArg,
    base: Annotated[
        str, typer.Option(help="The address the phones reach `referee serve --entry` by.", callback=base_url)
    ] = "http://127.0.0.1:8000",
    revoke: Annotated[
        list[str] | None, typer.Option(help="Revoke this clan's link and issue a new one; repeatable.")
    ] = None,
    qr: Annotated[
        Path | None, typer.Option(help="Write each new link's QR code as CLAN.svg in this folder.", show_default=False)
    ] = None,
    db: DbOpt = None,
) -> None:
    """Issue one phone-entry link per seat, and the moderator's link to the table's page (a link is shown
    once: only its hash is stored).

    Seats that already hold a live link keep it; --revoke CLAN (or --revoke moderator) ends a link and
    issues a new one."""
    from ..games.battle import entry as en
    from ..games.battle.service import OpenGame

    if qr is not None:  # the folder made (or refused) before any link is issued: a link is shown once
        try:
            qr.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RefereeError(f"{qr}: cannot make this folder ({exc.strerror or exc})") from None
    warn_plain_http(base)
    with open_store(db) as store:
        clans = [str(c) for c in OpenGame(store, game).state.clans]
        for clan in revoke or []:
            if clan.lower() not in (*clans, en.MODERATOR):
                raise RefereeError(
                    f"game {game!r}: {clan!r} does not play in this game ({', '.join(clans)}, or {en.MODERATOR})"
                )
        live = {link.clan for link in en.links_of(store, game) if not link.revoked}
        fresh = {clan.lower() for clan in revoke or []}
        for clan in (*clans, en.MODERATOR):
            if clan in live and clan not in fresh:
                typer.echo(
                    f"{clan}: a link is live (issued earlier, stored only as a hash; --revoke {clan} for a new one)"
                )
                continue
            url = en.seat_url(base, en.issue_link(store, game, clan), clan)
            typer.echo(f"{clan}: {url}")
            if qr is not None:  # a capability, as the printed sheet's links: its owner's file alone (mode 600)
                import io

                import segno

                svg = io.BytesIO()
                segno.make(url, error="m").save(svg, kind="svg", scale=4, title=f"{game}: {clan}")
                write_output(qr / f"{clan}.svg", svg.getvalue().decode("utf-8"), private=True)


@commands.command()
def confirm(
    game: GameArg,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Resolve without asking, once every clan submitted.")
    ] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show the round the players are entering on their phones; once every clan submitted and the round
    passes the placement check, confirm it: recorded exactly as the same sheet typed (`referee round`)."""
    from ..games.battle import entry as en
    from ..games.battle.service import OpenGame
    from .round_entry import settle

    with open_store(db) as store:
        log = OpenGame(store, game)
        t = en.table_state(log)
        if t.closed:
            raise RefereeError(t.closed)
        if not json_out:
            typer.echo(f"game {game!r}, round {t.round}: entered on the phones")
            for d, count in zip(t.drafts, t.counts, strict=True):
                typer.echo(f"  {d.clan:<10} {d.state}" + (f" ({en.count_said(count)})" if d.version else ""))
            typer.echo("the merged sheet:")
            typer.echo("".join(f"  {line}\n" for line in t.sheet.splitlines()), nl=False)
        waiting = [d.clan for d in t.drafts if not d.submitted]
        if waiting:
            raise RefereeError(
                f"game {game!r}, round {t.round}: not every clan has submitted ({', '.join(waiting)}); "
                "nothing recorded",
                hint=f"run `referee confirm {game}` again once they have",
            )
        if t.problems:
            raise RefereeError("\n".join(t.problems), hint="the seat corrects it on its phone (Change my tokens)")
        assert t.read is not None  # every clan submitted and the round passes its check
        settle(log, t.read, from_sheet=True, yes=yes, json_out=json_out)
