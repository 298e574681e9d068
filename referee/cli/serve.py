"""`referee serve`: the read-only venue pages. The web stack is imported here, when the command runs."""

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..engine import RefereeError
from .common import DbOpt, open_store

commands = typer.Typer()

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WORKER_ENV = "REFEREE_SERVE_WORKER"  # what each worker process serves (``worker_app``), set by the command


@commands.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 shares the pages on the venue's network.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: DbOpt = None,
    name: Annotated[
        list[str] | None,
        typer.Option(
            help="Another name the pages are reached by (a DNS name, a proxy's); repeatable. Requests naming any "
            "other host are refused."
        ),
    ] = None,
    entry: Annotated[
        bool,
        typer.Option(
            "--entry", help="Serve the seats' phone pages as well (/e/<secret>, `referee links`): players' drafts."
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes (PostgreSQL only): a large event's phones spread over the machine's cores.",
        ),
    ] = 1,
    ssl_certfile: Annotated[
        Path | None,
        typer.Option(
            "--ssl-certfile",
            help="Serve over TLS (https://) with this certificate (PEM; its chain after it), with --ssl-keyfile.",
            show_default=False,
        ),
    ] = None,
    ssl_keyfile: Annotated[
        Path | None,
        typer.Option("--ssl-keyfile", help="The certificate's private key (PEM, not encrypted).", show_default=False),
    ] = None,
) -> None:
    """Serve read-only pages of the games (boards, reports, honor) and their JSON, until Ctrl-C. With
    --ssl-certfile and --ssl-keyfile, over TLS: the phone links (--entry) travel encrypted."""
    import socket

    tls = _tls(ssl_certfile, ssl_keyfile)  # a usage error or a refused certificate: before anything is opened
    store = open_store(db)  # a missing database is refused, as every reading command refuses it; nothing is made
    if workers > 1 and store.is_sqlite:
        store.close()
        raise typer.BadParameter(
            "SQLite takes one writer at a time: serve a SQLite database with one worker, or use PostgreSQL "
            "(--db postgresql+psycopg://...) for several",
            param_hint="--workers",
        )

    try:  # a port in use or an address not of this machine: one line, before the web stack loads
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise RefereeError(
            f"cannot serve on {host}:{port}: {exc.strerror or exc}",
            hint="--port chooses another port, --host another address",
        ) from None

    import uvicorn

    from ..web import venue_app

    names = served_names(host, name or [])
    shown = f"[{host}]" if ":" in host else host
    at = f"{'https' if tls else 'http'}://{shown}:{port}/"
    if workers > 1:
        where = store.where
        store.close()  # each worker opens its own
        print(f"serving the games of {where} at {at} with {workers} workers  (Ctrl-C stops)")
        _tell(entry, host, at, tls)
        os.environ[WORKER_ENV] = json.dumps({"url": store.url, "names": names, "entry": entry})
        uvicorn.run(
            f"{__name__}:worker_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            ssl_certfile=tls[0] if tls else None,
            ssl_keyfile=tls[1] if tls else None,
        )
        return
    web = venue_app(store=store, names=names, entry=entry)
    print(f"serving the games of {web.state.store.where} at {at}  (Ctrl-C stops)", flush=True)
    _tell(entry, host, at, tls)
    cert, key = tls or (None, None)
    uvicorn.run(web, host=host, port=port, log_level="warning", ssl_certfile=cert, ssl_keyfile=key)


def _tls(certfile: Path | None, keyfile: Path | None) -> tuple[str, str] | None:
    """The certificate and key files uvicorn serves TLS with, once read and found to match (one line when they do
    not, before the server starts); None without them. An encrypted key is refused rather than asked for."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        raise typer.BadParameter(
            "TLS takes a certificate and its key: give both --ssl-certfile and --ssl-keyfile",
            param_hint="--ssl-certfile" if certfile is None else "--ssl-keyfile",
        )
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=lambda: b"")
    except (OSError, ssl.SSLError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc) or type(exc).__name__
        raise RefereeError(
            f"{certfile}, {keyfile}: cannot serve TLS with this certificate and key ({reason})",
            hint="a PEM certificate (its chain after it) and its own private key, not encrypted (mkcert makes such)",
        ) from None
    return str(certfile), str(keyfile)


def _tell(entry: bool, host: str, at: str = "", tls: tuple[str, str] | None = None) -> None:
    if entry:
        print("the seats' phone pages are served: a seat's link (`referee links`) writes that seat's draft", flush=True)
        print(f"the phones' address for `referee links --base` and `tournament seat --links`: {at.rstrip('/')}")
        if not tls and host not in LOOPBACK:
            print(
                "warning: without TLS the phone links travel in plain HTTP: anyone on the venue's network can read "
                "a seat's or the moderator's link off the wire from one page load, and use it; serve with "
                "--ssl-certfile and --ssl-keyfile, or behind a TLS proxy "
                "(the manual: docs/battle-for-rokugan/organiser.md, TLS at the venue)",
                file=sys.stderr,
                flush=True,
            )
    elif host not in LOOPBACK:
        print(
            "these pages are public and read-only: anyone who can reach this address can read them; nothing can be "
            "recorded through them",
            flush=True,
        )


def worker_app():
    """One worker's app (`serve --workers N`): its own connection pool on the database the command named. The
    per-link rate limit and the folded games are kept per worker."""
    from ..log import Store
    from ..web import venue_app

    served = json.loads(os.environ[WORKER_ENV])
    return venue_app(store=Store(served["url"], create=False), names=served["names"], entry=served["entry"])


def served_names(host: str, extra: list[str]) -> list[str]:
    """The names a request's Host header may carry: the loopback names, the address listened on, ``extra``; on
    every address (0.0.0.0, ::), this machine's name and its addresses as well."""
    import socket

    names = [*LOOPBACK, host, *extra]
    if host in ("0.0.0.0", "::", ""):
        names += [socket.gethostname(), socket.getfqdn()]
        try:
            names += [str(a[4][0]) for a in socket.getaddrinfo(socket.gethostname(), None)]
        except OSError:
            pass
        for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
            try:  # the address this machine reaches the network from (a UDP "connect" sends nothing)
                with socket.socket(family, socket.SOCK_DGRAM) as s:
                    s.connect((probe, 9))
                    names.append(s.getsockname()[0])
            except OSError:
                pass
    return names
