"""`referee serve`: the read-only venue pages. The web stack is imported here, when the command runs."""

from typing import Annotated

import typer

from ..engine import RefereeError
from .common import DbOpt, open_store

commands = typer.Typer()

LOOPBACK = ("127.0.0.1", "localhost", "::1")


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
) -> None:
    """Serve read-only pages of the games (boards, reports, honor) and their JSON, until Ctrl-C."""
    import socket

    store = open_store(db)  # a missing database is refused, as every reading command refuses it; nothing is made

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

    web = venue_app(store=store, names=served_names(host, name or []), entry=entry)
    shown = f"[{host}]" if ":" in host else host
    print(f"serving the games of {web.state.store.where} at http://{shown}:{port}/  (Ctrl-C stops)", flush=True)
    if entry:
        print("the seats' phone pages are served: a seat's link (`referee links`) writes that seat's draft", flush=True)
    elif host not in LOOPBACK:
        print(
            "these pages are public and read-only: anyone who can reach this address can read them; nothing can be "
            "recorded through them",
            flush=True,
        )
    uvicorn.run(web, host=host, port=port, log_level="warning")


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
