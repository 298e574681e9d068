"""Load test of the phone entry (issue 23): a whole event's tables entering a round on their phones at once.

    python bench/load_entry.py                      PostgreSQL (40 tables, 2 workers), then SQLite (5 tables, 1 worker)
    python bench/load_entry.py --backend sqlite --tables 1 --think 0.2 --poll 0.3     a few seconds' try

For each backend: the tables' games are made (the bundled five-player game before its round 1) and every seat's
link issued; `referee serve --entry --workers N` is started on the database (PostgreSQL: a throwaway server of
its own, durable settings, or --pg-url; SQLite: a file); then locust (bench/locust_entry.py) runs one phone per
seat (5 per table) entering its clan's tokens of round 1 through the no-JavaScript forms, a player's pause
before each token, submitting and polling its page until the round is recorded, and one moderator per table
confirming the round with `referee confirm GAME --yes` once every seat submitted. Everything runs on this
machine, on the loopback address only, and stops by itself (every user done, or --limit seconds).

Then it checks what was recorded against what was sent: each table's round 1 holds exactly the tokens its phones
entered (none lost, none twice), each seat's last draft too. It prints p50/p95 latency per request kind, the
errors, the tokens lost and duplicated, and the load average; lines starting with RESULT carry the figures
(RESULT key=value, the key prefixed with the backend). Exit 1 if anything failed, was lost or duplicated.

Not a test, and not part of bench/run.py: it starts servers and takes a minute or two per backend.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KINDS = [  # locust's request names, in the order printed
    "page (GET)",
    "add a token (POST)",
    "page after a write (GET)",
    "submit (POST)",
    "poll (GET)",
    "confirm (referee confirm --yes)",
    "confirm (game service)",
]
PG_OPTIONS = "-c max_connections=200"  # as a venue's server would run: fsync and synchronous commits on


def load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def form_of(line: str) -> dict[str, str]:
    """A token's line as the phone's form sends it: token, province (to), border's other side (from), blessing."""
    rest = line.split(":", 1)[1].strip()
    blessing = ""
    if " + " in rest:
        rest, blessing = rest.split(" + ", 1)
    if " @ " in rest:
        token, to = rest.split(" @ ")
        return {"token": token, "to": to, "from": "", "blessing": blessing}
    m = re.fullmatch(r"(.+?) (\S+) > (\S+)", rest)
    assert m, line
    token, source, to = m.groups()
    return {"token": token, "to": to, "from": source, "blessing": blessing}


def make_event(url: str, tables: int) -> tuple[list[dict], dict[str, list[str]]]:
    """The tables' games and links: the seats (for locust) and each game's sheet (what its phones send)."""
    from referee.log import EventType, Store, entry as en, golden, new_game, recorded_header

    events = golden("five-player")
    header = events[0].data
    setup = next(e.data["lines"] for e in events if e.type == EventType.SETUP_RECORDED)
    sheet = next(e.data["entries"] for e in events if e.type == EventType.ROUND_RESOLVED)
    seats, sheets = [], {}
    with Store(url) as store:
        for t in range(1, tables + 1):
            game = f"table-{t:02d}"
            new_game(store, game, header["clans"], **recorded_header(header), setup=setup)
            sheets[game] = list(sheet)
            for clan in header["clans"]:
                tokens = [form_of(line) for line in sheet if line.split(":")[0] == clan]
                seats.append(
                    {
                        "game": game,
                        "clan": clan,
                        "round": 1,
                        "secret": en.issue_link(store, game, clan),
                        "tokens": tokens,
                    }
                )
    return seats, sheets


def check_recorded(url: str, sheets: dict[str, list[str]]) -> tuple[int, int, int, int]:
    """(rounds recorded, tokens sent, lost, duplicated): each game's round 1 and each seat's last draft
    against the tokens its phones sent."""
    from referee.log import EventType, Store, entry as en

    rounds = lost = twice = sent = 0
    with Store(url, create=False) as store:
        for game, sheet in sheets.items():
            want = Counter(sheet)
            sent += len(sheet)
            resolved = [e for e in store.events(game) if e.type == EventType.ROUND_RESOLVED]
            got = Counter(resolved[0].data["entries"]) if resolved else Counter()
            rounds += bool(resolved)
            drafts = Counter(
                line
                for clan in {line.split(":")[0] for line in sheet}
                for line in en.draft_of(store, game, 1, clan).lines
            )
            for found in (got, drafts):
                lost += sum((want - found).values())
                twice += sum((found - want).values())
    return rounds, sent, lost, twice


def wait_for(port: int, server: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode}): {server.stderr.read()[-500:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer on port {port} within {seconds:.0f} s")


def warm_up(port: int, secret: str, workers: int) -> None:
    """A few reads of one seat's page first, so that each worker has loaded its templates (a server at a
    venue is started before the players sit down): the figures are the event's, not the start's."""
    import httpx

    for _ in range(4 * workers):
        httpx.get(f"http://127.0.0.1:{port}/e/{secret}", timeout=30).raise_for_status()


def run(backend: str, url: str, tables: int, workers: int, args, tmp: Path) -> bool:
    seats, sheets = make_event(url, tables)
    (tmp / "seats.json").write_text(json.dumps(seats))
    port = free_port()
    env = {**os.environ, "HOME": str(tmp), "REFEREE_DB": url}
    server = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--entry", "--workers", str(workers), "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        wait_for(port, server)
        warm_up(port, seats[0]["secret"], workers)
        users = len(seats) + tables
        env |= {
            "LOAD_SEATS": str(tmp / "seats.json"),
            "LOAD_THINK": str(args.think),
            "LOAD_POLL": str(args.poll),
            "LOAD_DB": url,
            "LOAD_TIMEOUT": str(args.limit),
            "LOAD_CONFIRMS": str(args.confirms),
            "LOAD_CONFIRM": args.confirm,
            "LOAD_OUT": str(tmp / f"{backend}.json"),
        }
        start = time.perf_counter()
        locust = subprocess.run(
            [
                sys.executable,
                "-m",
                "locust",
                "-f",
                str(ROOT / "bench" / "locust_entry.py"),
                "--headless",
                "--only-summary",
                "--users",
                str(users),
                "--spawn-rate",
                str(users),
                "--run-time",
                f"{int(args.limit)}s",
                "--stop-timeout",
                "10",
                "--host",
                f"http://127.0.0.1:{port}",
                "--loglevel",
                "WARNING",
            ],
            cwd=tmp,
            env=env,
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - start
        average = load()
    finally:
        os.killpg(server.pid, signal.SIGINT)  # the server's process group: uvicorn and its workers
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    figures = tmp / f"{backend}.json"
    if not figures.exists():
        print(locust.stdout[-2000:], locust.stderr[-2000:])
        raise SystemExit(f"locust wrote no figures (exit {locust.returncode})")
    stats = json.loads(figures.read_text())
    failures = stats.pop("errors")
    rounds, sent, lost, twice = check_recorded(url, sheets)
    errors = sum(row["errors"] for row in stats.values())
    print(
        f"\n{backend}: {tables} tables, {len(seats)} phones, {tables} moderators, {workers} worker(s); "
        f"{took:.0f} s; load average at the end {average}"
    )
    print(f"  {'request':<34} {'count':>6} {'errors':>6} {'p50 ms':>8} {'p95 ms':>8}")
    for name in KINDS:
        row = stats.get(name)
        if row:
            print(f"  {name:<34} {row['count']:>6} {row['errors']:>6} {row['p50']:>8.0f} {row['p95']:>8.0f}")
            key = re.sub(r"\W+", "_", name.split(" (")[0]).strip("_")
            print(f"RESULT {backend}_{key}_p50_ms={row['p50']:.0f}")
            print(f"RESULT {backend}_{key}_p95_ms={row['p95']:.0f}")
    for what in failures.values():
        print(f"  error: {what[:300]}")
    print(f"  rounds recorded: {rounds} of {tables}; tokens sent: {sent}; lost: {lost}; duplicated: {twice}")
    for key, value in (("errors", errors), ("rounds", rounds), ("lost", lost), ("duplicated", twice)):
        print(f"RESULT {backend}_{key}={value}")
    if locust.returncode and not errors:
        print(locust.stderr[-3000:])
    return not errors and not lost and not twice and rounds == tables


def desk(url: str) -> None:
    """The moderators' desk of the load test (``--desk URL``): for each game named on standard input, what
    `referee confirm GAME --yes` does (the merged sheet of the drafts, read and recorded by the game service);
    answers "ok" or why not, one line each."""
    from referee.log import OpenGame, Store, entry as en

    with Store(url, create=False) as store:
        for line in sys.stdin:
            if not line.strip():  # a ping: the desk is ready
                print("ready", flush=True)
                continue
            try:
                t = en.table_state(store, line.strip())
                waiting = [d.clan for d in t.drafts if not d.submitted]
                why = t.closed or (f"not every clan has submitted ({', '.join(waiting)})" if waiting else "")
                why = why or "; ".join(t.problems)
                if not why:
                    OpenGame(store, t.game).enter_round(t.sheet, t.round)
            except Exception as exc:  # noqa: BLE001 - told to the load client as this game's failure
                why = f"{type(exc).__name__}: {exc}"
            print((why or "ok").replace("\n", " "), flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--desk"]:
        return desk(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument("--tables", type=int, help="tables (default: 40 on PostgreSQL, 5 on SQLite)")
    parser.add_argument("--workers", type=int, default=2, help="server processes on PostgreSQL (SQLite: 1)")
    parser.add_argument("--think", type=float, default=6.0, help="seconds a player takes before each token (mean)")
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between two polls of a phone (mean)")
    parser.add_argument("--limit", type=float, default=420.0, help="seconds a backend's run may take at most")
    parser.add_argument("--confirms", type=int, default=2, help="moderators' confirmations run at once")
    parser.add_argument(
        "--confirm",
        choices=["service", "command"],
        default="service",
        help="the moderators confirm through the game service in the load client's process (the same calls as "
        "the command, without starting a process per table), or by running `referee confirm GAME --yes`",
    )
    parser.add_argument("--pg-url", help="an existing PostgreSQL database to fill (else a throwaway server)")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="referee-load-") as folder:
        tmp = Path(folder)
        if args.backend in ("postgresql", "both"):
            ok &= postgresql(args, tmp)
        if args.backend in ("sqlite", "both"):
            ok &= run("sqlite", str(tmp / "event.db"), args.tables or 5, 1, args, tmp)
    raise SystemExit(0 if ok else 1)


def postgresql(args, tmp: Path) -> bool:
    if args.pg_url:
        return run("postgresql", args.pg_url, args.tables or 40, args.workers, args, tmp)
    from tests.support.pg_server import Cluster

    cluster = Cluster()
    server = cluster.start(PG_OPTIONS)
    if server.url is None:
        raise SystemExit(f"no PostgreSQL server: {server.reason} (or give --pg-url)")
    try:
        return run("postgresql", server.new_database(), args.tables or 40, args.workers, args, tmp)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
