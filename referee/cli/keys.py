"""`referee key ...`: the organiser's signing keys (referee/records/signing.py)."""

import os
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RefereeError
from ..core.shown import plain
from .common import DbOpt, JsonOpt, open_store

commands = typer.Typer()
key_app = typer.Typer(
    help="The organiser's signing key: make one, show its fingerprint, change it, declare it lost.",
    no_args_is_help=True,
)
commands.add_typer(key_app, name="key")

KeyFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--key-file",
        help="The private key file (default: $REFEREE_KEY_FILE, else ~/.referee/organiser.key).",
        show_default=False,
    ),
]
PassphraseOpt = Annotated[
    bool,
    typer.Option(
        "--passphrase",
        help="Protect the new key with a passphrase (asked twice, or taken from $REFEREE_KEY_PASSPHRASE).",
    ),
]


def _passphrase(wanted: bool) -> str | None:
    from ..records.keys import PASSPHRASE_ENV

    if not wanted:
        return None
    given = os.environ.get(PASSPHRASE_ENV)
    if given:
        return given
    return typer.prompt("passphrase", hide_input=True, confirmation_prompt=True)


def _say(text: str) -> None:
    """One line of output; a key's name or a loss's reason (the organiser's text) shown by ``plain``."""
    typer.echo(plain(text))


def _show(k, *, qr: bool = True) -> None:
    from ..records.keys import words

    _say(f"key {k.fingerprint} ({k.name}), declared {k.declared_at[:19].replace('T', ' ')}")
    w = words(k.fingerprint)
    typer.echo("read aloud: " + " ".join(w[:5]))
    typer.echo("            " + " ".join(w[5:]))
    if k.replaces:
        typer.echo(f"replaces {k.replaces}" + (", endorsed by it" if k.endorsed else ", not endorsed (old key lost)"))
    if k.lost:
        _say(f"LOST: {k.lost} (what it signed before stays valid; nothing new is signed with it)")
    if qr:
        import segno

        code = segno.make(f"referee-key:{k.fingerprint}", error="m")
        code.terminal(compact=True)


@key_app.command("new")
def new(
    name: Annotated[str, typer.Option("--name", help="Whose key: the organiser or the tournament it signs for.")],
    key_file: KeyFileOpt = None,
    passphrase: PassphraseOpt = False,
    db: DbOpt = None,
) -> None:
    """Make the organiser's key pair: the private key in a file of its own (mode 0600), its public half beside
    it (FILE.pub), the public key and its fingerprint declared in the database. From then on every record that
    closes is signed while the key file is at hand."""
    from ..records.keys import declare, key_file as where, keys, write_key
    from ..store.signatures import ensure_schema

    path = where(key_file)
    with open_store(db, create=True) as store:
        ensure_schema(store)  # the database takes the key before the key file is written
        current = keys(store).current
        if current is not None:
            raise RefereeError(
                f"this database already has an organiser key, {current.fingerprint} ({current.name})",
                hint="`referee key change` replaces it; `referee key lost` declares it lost first",
            )
        key = write_key(path, _passphrase(passphrase))
        k = declare(store, name, key)
    _say(f"private key written to {path} (mode 600); public key to {path}.pub")
    _show(k)


@key_app.command("show")
def show(
    qr: Annotated[bool, typer.Option("--qr/--no-qr", help="Print the fingerprint as a QR code too.")] = True,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The organiser's keys in this database: the current one's fingerprint as words to compare aloud and as
    a QR code; earlier keys, replaced or lost."""
    import json

    from ..records.keys import keys, words

    with open_store(db) as store:
        state = keys(store)
    if json_out:
        typer.echo(
            json.dumps(
                [
                    {
                        "name": k.name,
                        "fingerprint": k.fingerprint,
                        "words": words(k.fingerprint),
                        "public_key": k.public_key,
                        "declared_at": k.declared_at,
                        "replaces": k.replaces,
                        "endorsed": k.endorsed,
                        "lost": k.lost,
                        "current": k is state.current,
                    }
                    for k in state.keys
                ],
                indent=2,
            )
        )
        return
    if not state.keys:
        raise RefereeError(
            "no organiser key in this database: its records are unsigned", hint='`referee key new --name "..."`'
        )
    current = state.current
    if current is None:
        typer.echo("no current key: the last one was declared lost; records close unsigned")
    else:
        _show(current, qr=qr)
    earlier = [k for k in state.keys if k is not current]
    if earlier:
        typer.echo("earlier keys (their signatures stay valid):")
        for k in earlier:
            why = f"lost: {k.lost}" if k.lost else f"replaced by {k.replaced_by}"
            _say(f"  {k.fingerprint} ({k.name}), {why}")


@key_app.command("change")
def change(
    name: Annotated[str, typer.Option("--name", help="The new key's name.")],
    new_key_file: Annotated[Path, typer.Option("--new-key-file", help="Where to write the new private key.")],
    key_file: KeyFileOpt = None,
    passphrase: PassphraseOpt = False,
    db: DbOpt = None,
) -> None:
    """Declare a new key replacing the current one, endorsed by the old key when its file is at hand (a record
    checked with the old key's fingerprint then accepts what the new key signs). Records signed before stay
    valid."""
    from ..records.keys import declare, key_file as where, keys, read_key, write_key

    with open_store(db) as store:
        current = keys(store).current
        old = None
        old_path = where(key_file)
        if current is not None:
            if not old_path.is_file():
                raise RefereeError(
                    f"{old_path}: the current key's file is not here, so it cannot endorse the new key",
                    hint="--key-file names it; a key that is gone is declared with `referee key lost --reason ...`",
                )
            old = read_key(old_path)
        key = write_key(new_key_file, _passphrase(passphrase))
        k = declare(store, name, key, old)
    _say(f"new private key written to {new_key_file} (mode 600); public key to {new_key_file}.pub")
    _say(f"set REFEREE_KEY_FILE={new_key_file} (or --key-file) to sign with it")
    _show(k)


@key_app.command("lost")
def lost(
    reason: Annotated[str, typer.Option("--reason", help="What happened to the key (recorded).")],
    db: DbOpt = None,
) -> None:
    """Declare the current key lost, with a reason: nothing more is signed with it, what it signed before
    stays valid. `referee key new` then makes its successor (not endorsed: the old key is gone)."""
    from ..records.keys import declare_lost

    with open_store(db) as store:
        k = declare_lost(store, reason)
    _say(f"key {k.fingerprint} ({k.name}) declared lost: {k.lost}")
    typer.echo("records it signed before stay valid; `referee key new --name ...` makes the next key")


@key_app.command("sign")
def sign(
    target: Annotated[str, typer.Argument(help="A game id (or, with --tournament, a tournament id).")],
    tournament: Annotated[bool, typer.Option("--tournament", help="TARGET is a tournament.")] = False,
    key_file: KeyFileOpt = None,
    db: DbOpt = None,
) -> None:
    """Sign a record's head now: a game closed (or corrected), or a tournament's events recorded after its first
    seating (results, adjustments, closes), while the key file was not at hand. Nothing else is recorded; what
    was signed before stays."""
    from ..records.signing import check_stored, needs_signature, organiser_key, sign as sign_event
    from ..store.signatures import store_signatures

    kind = "tournament" if tournament else "game"
    with open_store(db) as store:
        if tournament:
            from ..tournaments.service import read_events

            events = read_events(store, target)
        else:
            events = store.events(target)
        needed = needs_signature(kind, events)
        if not needed:
            raise RefereeError(
                f"{kind} {target!r}: nothing to sign yet (a game is signed once it ends; a tournament once seated)"
            )
        checked = check_stored(store, kind, events, None)
        if checked.problem and not checked.unsigned_tail:  # a forged or rebuilt record is not signed over
            raise RefereeError(f"{kind} {target!r}: {checked.status}; nothing was signed")
        if checked.signed and not checked.problem:
            raise RefereeError(f"{kind} {target!r}: already signed at its last event ({checked.status})")
        key = organiser_key(store, key_file)
        if key is None:
            from ..records.keys import key_file as where

            raise RefereeError(f"{where(key_file)}: no usable organiser key; nothing was signed")
        head = events[needed[-1] - 1]
        store_signatures(store, [sign_event(key, kind, target, head)])
        status = check_stored(store, kind, events, None).status
    _say(f"{kind} {target}: event {head.seq} ({head.type}) signed; {status}")
