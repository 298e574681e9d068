"""The organiser's key files, read and written with care: a key file is read up to 64 KiB (a 1 GiB file given as
`--key` is refused without being read whole); a file that holds no key is named as such before its mode is looked
at; `key new` writes neither file over one already there (so a `FILE.pub` left mode 666 by someone else cannot
keep its mode and take the organiser's key); `verify --key` of a record that carries no signature (an unfinished
game, with `--allow-incomplete`) is refused, not passed as if signed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.entry_point import ROOT, referee

GAME = "demo-two-player-1"


def refused(db, *args: str, home: Path | None = None) -> str:
    r = referee(str(db), *args, home=home)
    assert r.returncode == 1 and "Traceback" not in r.stderr, (args, r.stdout[-400:], r.stderr[-2000:])
    lines = r.stderr.splitlines()
    assert lines[0].startswith("error: ") and all(x.startswith("hint: ") for x in lines[1:]), r.stderr
    return lines[0]


def with_peak_memory(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess, int]:
    """`python -m referee ARGS` in a child of a child: its result and its peak resident memory (MiB)."""
    script = (
        "import json, resource, subprocess, sys\n"
        "r = subprocess.run([sys.executable, '-m', 'referee', *sys.argv[1:]], capture_output=True, text=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(json.dumps([r.returncode, r.stdout, r.stderr, peak]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=cwd, env=env)
    code, stdout, stderr, rss = json.loads(out.stdout)
    return subprocess.CompletedProcess(args, code, stdout, stderr), rss // 1024


@pytest.mark.parametrize("name", ["huge.pub", "huge.key"])
def test_a_huge_file_given_as_a_key_is_refused_without_reading_it(tmp_path, home, name):
    record = tmp_path / "g.txt"
    db = tmp_path / "g.db"
    assert referee(str(db), "demo", "--name", "two-player").returncode == 0
    assert referee(str(db), "export", GAME, "-f", "text", "-o", str(record)).returncode == 0
    huge = tmp_path / name
    with huge.open("wb") as f:  # 1 GiB, sparse: nothing on the disk, all of it to read
        f.truncate(2**30)
    huge.chmod(0o644)
    r, rss = with_peak_memory("verify", str(record), "--key", str(huge), "--db", str(db), cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.startswith(f"error: {huge}: larger than 64 KiB: not a key file"), r.stderr
    assert "chmod" not in r.stderr
    assert rss < 200, f"peak memory {rss} MiB for a 1 GiB key file"
    r = referee(str(db), "doctor", "--key", str(huge))
    assert r.returncode == 1 and "larger than 64 KiB" in r.stderr


def test_a_small_file_that_holds_no_key_is_named_as_such_not_as_readable_by_others(tmp_path, home):
    db = tmp_path / "g.db"
    assert referee(str(db), "demo", "--name", "two-player").returncode == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("table 4: the crab player was late\n")
    notes.chmod(0o644)
    line = refused(db, "verify", GAME, "--key", str(notes))
    assert line == f"error: {notes}: not an organiser's key file (no PEM private key in it)", line
    # a private key readable by others is still refused as such, and not used
    assert referee(str(db), "key", "new", "--name", "Cup", "--key-file", str(tmp_path / "o.key")).returncode == 0
    (tmp_path / "o.key").chmod(0o644)
    assert "readable by others" in refused(db, "verify", GAME, "--key", str(tmp_path / "o.key"))


def test_key_new_writes_over_no_public_key_file(tmp_path, home):
    """A FILE.pub already there (left mode 666 by someone else) is not written into: nothing is written, the
    database declares nothing, the file keeps what it held; a fresh FILE.pub is mode 644 whatever the umask."""
    db = tmp_path / "k.db"
    folder = tmp_path / "keys"
    folder.mkdir()
    planted = folder / "cup.key.pub"
    planted.write_text("someone else's file\n")
    planted.chmod(0o666)
    line = refused(db, "key", "new", "--name", "Cup", "--key-file", str(folder / "cup.key"))
    assert line == f"error: {planted}: a file is already there; nothing was written", line
    assert not (folder / "cup.key").exists() and planted.read_text() == "someone else's file\n"
    assert stat.S_IMODE(planted.stat().st_mode) == 0o666
    shown = referee(str(db), "key", "show", "--json")
    assert shown.returncode == 0 and shown.stdout.strip() == "[]"  # nothing declared
    old = os.umask(0)
    try:
        r = referee(str(db), "key", "new", "--name", "Cup", "--key-file", str(folder / "fresh.key"))
    finally:
        os.umask(old)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE((folder / "fresh.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "fresh.key.pub").stat().st_mode) == 0o644
    # key change: the same care for the new key's files
    (folder / "2027.key.pub").write_text("planted\n")
    line = refused(
        db,
        "key",
        "change",
        "--name",
        "Cup 2027",
        "--new-key-file",
        str(folder / "2027.key"),
        "--key-file",
        str(folder / "fresh.key"),
    )
    assert "2027.key.pub: a file is already there" in line and not (folder / "2027.key").exists()


def test_verify_key_refuses_a_record_that_carries_no_signature(tmp_path, home):
    """An unfinished game carries no signature: `--allow-incomplete --key` no longer passes it (exit 0) as if the
    organiser had signed it; the game closed and signed then passes."""
    db = tmp_path / "g.db"
    out = referee(str(db), "key", "new", "--name", "Cup")
    fp = next(x.split()[1] for x in out.stdout.splitlines() if x.startswith("key "))
    assert referee(str(db), "new", "g", "--clans", "crab,crane", "--partial-setup").returncode == 0
    record = tmp_path / "g.jsonl"
    assert referee(str(db), "export", "g", "-o", str(record)).returncode == 0
    says = "no organiser's signature: --key requires one"
    for target in (str(record), "g"):
        assert says in refused(db, "verify", target, "--key", fp, "--allow-incomplete")
        r = referee(str(db), "verify", target, "--allow-incomplete")  # without --key: unsigned, and said
        assert r.returncode == 0 and "unsigned: a record is signed when it closes" in " ".join(r.stdout.split())
    assert referee(str(db), "tournament", "new", "cup", "--name", "Cup", "--rounds", "1").returncode == 0
    assert says in refused(db, "tournament", "verify", "cup", "--key", fp)
    assert "the database is healthy" in referee(str(db), "doctor", "--key", fp).stdout  # a game in progress: fine
    assert referee(str(db), "demo", "--name", "two-player").returncode == 0
    assert f"signed by {fp}" in referee(str(db), "verify", GAME, "--key", fp).stdout.replace("\n", " ")
