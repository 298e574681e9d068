"""The users of the phone entry's load test (bench/load_entry.py starts locust on this file; not run alone).

- ``Phone``: one seat's phone. It opens its link, enters its clan's tokens of the round one at a time through the
  no-JavaScript form (a POST ``add``, then the page the redirect names), with a player's pause before each,
  submits, then polls its page until the round is recorded (the page moves to the next round).
- ``Moderator``: one table's moderator. Once every seat of the table has submitted it confirms the round as a
  moderator does, `referee confirm GAME --yes` (a command of its own: timed as the request "confirm"). At an
  event each moderator's command runs on their own laptop; here they would share the server's machine, so by
  default (``LOAD_CONFIRM=service``) the moderators confirm one at a time through one process of the game
  service, the same calls the command makes (the merged sheet read and recorded: the same reads and writes on
  the database), without a Python process started per table; ``LOAD_CONFIRM=command`` runs the command itself,
  at most ``LOAD_CONFIRMS`` (2) at once. A confirm's time is its own run.

The seats come from the JSON file named by ``LOAD_SEATS`` (written by load_entry.py); ``LOAD_THINK`` and
``LOAD_POLL`` are the seconds a player takes before each token and between two polls, ``LOAD_DB`` the
database the moderators' command records in. Every request is checked (its status, and the form it must
show); the last user to finish stops the run, and each request kind's figures are written as JSON to the
file ``LOAD_OUT``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from collections import defaultdict

import gevent
from gevent.lock import BoundedSemaphore
from locust import FastHttpUser, events, task
from locust.exception import StopUser

SEATS = json.loads(open(os.environ["LOAD_SEATS"]).read()) if "LOAD_SEATS" in os.environ else []
THINK = float(os.environ.get("LOAD_THINK", "6"))
POLL = float(os.environ.get("LOAD_POLL", "5"))
DB = os.environ.get("LOAD_DB", "")
TIMEOUT = float(os.environ.get("LOAD_TIMEOUT", "300"))  # seconds a user waits for its table at most
# The moderators' commands run on their own laptops at an event; here they share this machine with the server,
# so at most this many run at once (a confirm's figure is its command's own run, from start to exit).
COMMAND = os.environ.get("LOAD_CONFIRM", "service") == "command"  # confirm by `referee confirm`, else the service
LAPTOPS = BoundedSemaphore(int(os.environ.get("LOAD_CONFIRMS", "2")) if COMMAND else 1)  # the desk: one at a time
CLOSE = {"Connection": "close"}  # each phone request on a connection of its own (Phone.on_start)
_desk: subprocess.Popen | None = None  # the moderators' desk: one process confirming through the game service


@events.test_start.add_listener
def open_desk(environment, **_kwargs) -> None:
    """The desk started (and its imports made) before the phones begin, as a moderator's laptop is ready."""
    if not COMMAND and DB:
        confirm_by_service("")


def confirm_by_service(game: str) -> str | None:
    """What `referee confirm GAME --yes` does, without starting a Python process per table: the moderators' desk
    (load_entry.py --desk, started once) reads the merged sheet of the phones' drafts and records it through the
    game service. Why not, or None."""
    global _desk
    if _desk is None:
        here = os.path.dirname(os.path.abspath(__file__))
        _desk = subprocess.Popen(
            [sys.executable, os.path.join(here, "load_entry.py"), "--desk", DB],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    assert _desk.stdin is not None and _desk.stdout is not None
    _desk.stdin.write(game + "\n")
    _desk.stdin.flush()
    answer = _desk.stdout.readline().strip()
    return None if answer == "ok" else answer or "the desk stopped"


def confirm_in_process(game: str) -> str | None:
    """What `referee confirm GAME --yes` does, without starting a process: the merged sheet of the phones' drafts,
    read and recorded by the game service (in a thread: the database's driver blocks). Why not, or None."""
    global _store
    from referee.games.battle import entry as en
    from referee.games.battle.service import OpenGame
    from referee.store.storage import Store

    if _store is None:
        _store = Store(DB, create=False)
    log = OpenGame(_store, game)
    t = en.table_state(log)
    waiting = [d.clan for d in t.drafts if not d.submitted]
    if t.closed or waiting or t.problems:
        return t.closed or f"not every clan has submitted ({', '.join(waiting)})" or "; ".join(t.problems)
    assert t.read is not None
    log.record_sheet(t.read)
    return None


free_seats = list(SEATS)
free_tables = sorted({s["game"] for s in SEATS})
submitted: dict[str, int] = defaultdict(int)  # game -> seats submitted
seats_of: dict[str, int] = defaultdict(int)
for s in SEATS:
    seats_of[s["game"]] += 1
done: set[str] = set()  # users finished (phones by seat, moderators by table)


def field(page: str, name: str) -> str | None:
    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    return m.group(1) if m else None


def said(page: str) -> str:
    """A refusal page's words (its style and markup left out), for the error's line."""
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", page or "", flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())[:300]


def finished(environment, who: str) -> None:
    done.add(who)
    if len(done) == len(SEATS) + len(seats_of):
        environment.runner.quit()  # every phone saw its round recorded (or failed), every table confirmed


@events.quitting.add_listener
def write_figures(environment, **_kwargs) -> None:
    """Each request kind's count, errors, p50 and p95 (ms), as JSON in the file ``LOAD_OUT``."""
    if "LOAD_OUT" not in os.environ:
        return
    out = {}
    for (name, _method), entry in environment.stats.entries.items():
        out[name] = {
            "count": entry.num_requests,
            "errors": entry.num_failures,
            "p50": entry.get_response_time_percentile(0.5),
            "p95": entry.get_response_time_percentile(0.95),
        }
    out["errors"] = {str(k): str(v.error) for k, v in environment.stats.errors.items()}  # type: ignore[misc]
    with open(os.environ["LOAD_OUT"], "w") as f:
        json.dump(out, f)


class Phone(FastHttpUser):
    fixed_count = len(SEATS)
    wait_time = staticmethod(lambda: 0)

    def on_start(self) -> None:
        # (CLOSE) A player pauses longer between taps than a server keeps an idle connection (uvicorn: 5 s), and this
        # client, unlike a browser, does not send a POST again on a fresh connection when the old one was
        # closed meanwhile: each request opens its own.
        self.seat = free_seats.pop()
        self.base = f"/e/{self.seat['secret']}"
        self.page = ""

    def get(self, name: str) -> bool:
        with self.client.get(self.base, name=name, headers=CLOSE, catch_response=True) as r:
            if r.status_code != 200 or field(r.text, "csrf") is None:
                r.failure(f"status {r.status_code}, no form")
                return False
            self.page = r.text
            return True

    def post(self, action: str, name: str, **fields: str) -> bool:
        form = {k: field(self.page, k) or "" for k in ("csrf", "version", "round")} | fields
        with self.client.post(
            f"{self.base}/{action}", data=form, name=name, headers=CLOSE, allow_redirects=False, catch_response=True
        ) as r:
            if r.status_code != 303:
                r.failure(f"status {r.status_code}: {said(r.text)}")
                return False
        return self.get("page after a write (GET)")

    @task
    def enter_the_round(self) -> None:
        try:
            self.play()
        finally:
            finished(self.environment, self.seat["secret"])
        raise StopUser

    def play(self) -> None:
        gevent.sleep(random.uniform(0, THINK))  # the players do not start at the same instant
        if not self.get("page (GET)"):
            return
        for token in self.seat["tokens"]:
            gevent.sleep(random.uniform(0.5, 1.5) * THINK)
            if not self.post("add", "add a token (POST)", **token):
                return
        if not self.post("submit", "submit (POST)"):
            return
        submitted[self.seat["game"]] += 1
        start = time.monotonic()
        while field(self.page, "round") == str(self.seat["round"]) and time.monotonic() - start < TIMEOUT:
            gevent.sleep(random.uniform(0.5, 1.5) * POLL)
            if not self.get("poll (GET)"):
                return


class Moderator(FastHttpUser):
    fixed_count = len(free_tables)
    wait_time = staticmethod(lambda: 0)

    def on_start(self) -> None:
        self.game = free_tables.pop()

    @task
    def confirm(self) -> None:
        start = time.monotonic()
        while submitted[self.game] < seats_of[self.game] and time.monotonic() - start < TIMEOUT:
            gevent.sleep(0.2)
        gevent.sleep(random.uniform(0.5, 1.5))  # the moderator reads the merged sheet, then confirms
        with LAPTOPS:
            began = time.perf_counter()
            if COMMAND:
                run = subprocess.run(
                    [sys.executable, "-m", "referee", "confirm", self.game, "--yes", "--db", DB],
                    capture_output=True,
                    text=True,
                    timeout=TIMEOUT,
                )
                why = None if run.returncode == 0 else f"exit {run.returncode}: {run.stderr.strip()[:200]}"
            else:
                why = confirm_by_service(self.game)
        self.environment.events.request.fire(
            request_type="CLI" if COMMAND else "service",
            name="confirm (referee confirm --yes)" if COMMAND else "confirm (game service)",
            response_time=(time.perf_counter() - began) * 1000,
            response_length=0,
            exception=None if why is None else Exception(why),
            context={},
        )
        finished(self.environment, self.game)
        raise StopUser
