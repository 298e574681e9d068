"""`referee serve`: the read-only venue pages. The web stack is imported here, when the command runs."""

from typing import Annotated

import typer

from ..engine import RefereeError
from .common import DbOpt

commands = typer.Typer()

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@commands.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 shares the pages on the venue's network.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: DbOpt = None,
) -> None:
    """Serve read-only pages of the games (boards, reports, honor) and their JSON, until Ctrl-C."""
    import socket

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

    from ..web import create_app

    web = create_app(db)
    shown = f"[{host}]" if ":" in host else host
    print(f"serving the games of {web.state.store.where} at http://{shown}:{port}/  (Ctrl-C stops)", flush=True)
    if host not in LOOPBACK:
        print(
            "these pages are public and read-only: anyone who can reach this address can read them; nothing can be "
            "recorded through them",
            flush=True,
        )
    uvicorn.run(web, host=host, port=port, log_level="warning")
