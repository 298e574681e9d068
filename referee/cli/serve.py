"""`referee serve`: the read-only venue pages. The web stack is imported here, when the command runs."""

import json
import os
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
) -> None:
    """Serve read-only pages of the games (boards, reports, honor) and their JSON, until Ctrl-C."""
    import socket

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
    if workers > 1:
        where = store.where
        store.close()  # each worker opens its own
        print(f"serving the games of {where} at http://{shown}:{port}/ with {workers} workers  (Ctrl-C stops)")
        _tell(entry, host)
        os.environ[WORKER_ENV] = json.dumps({"url": store.url, "names": names, "entry": entry})
        uvicorn.run(f"{__name__}:worker_app", factory=True, host=host, port=port, workers=workers, log_level="warning")
        return
    web = venue_app(store=store, names=names, entry=entry)
    print(f"serving the games of {web.state.store.where} at http://{shown}:{port}/  (Ctrl-C stops)", flush=True)
    _tell(entry, host)
    uvicorn.run(web, host=host, port=port, log_level="warning")


def _tell(entry: bool, host: str) -> None:
    if entry:
        print("the seats' phone pages are served: a seat's link (`referee links`) writes that seat's draft", flush=True)
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
