"""`referee serve --entry` over TLS: the phone links travel encrypted. A listener on the venue's network (here a
relay between the phone and the server that keeps every byte it forwards) reads the moderator's `/m/` link off
the wire from one page load in plain HTTP; with `--ssl-certfile` and `--ssl-keyfile` (passed to uvicorn) it reads
nothing of it, the page loads over https with a certificate made here with `cryptography`, and the session cookie
is marked Secure. `serve` prints its https:// address for `referee links --base`, warns when it serves the phone
pages in plain HTTP on a network address, and refuses a certificate it cannot use in one line."""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
import socket
import ssl
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.entry_point import referee
from tests.support.serving import NotServing, serve
from tests.web.test_phone_entry import five_player_game


def certificate(folder: Path, *, encrypted: bool = False) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 and localhost, and its key: (certificate, key) files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "referee test venue")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(exist_ok=True)
    cert_file, key_file = folder / "venue.pem", folder / "venue-key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    encryption = serialization.BestAvailableEncryption(b"secret") if encrypted else serialization.NoEncryption()
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption))
    key_file.chmod(0o600)
    return cert_file, key_file


class Listener:
    """Someone on the venue's network, between the phones and the server: forwards a port to the server's and
    keeps every byte it forwards, both ways."""

    def __init__(self, target: int):
        self.target, self.seen, self.lock = target, bytearray(), threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.sock.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((phone, server), (server, phone)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                with self.lock:
                    self.seen += data
                b.sendall(data)
        except OSError:
            pass
        finally:
            try:
                b.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def close(self) -> None:
        self.sock.close()


def fetch(url: str, cafile: Path | None = None) -> tuple[int, str, str]:
    """A page as a phone loads it: (status, body, Set-Cookie)."""
    context = ssl.create_default_context(cafile=str(cafile)) if cafile else None
    try:
        with urllib.request.urlopen(url, timeout=30, context=context) as r:
            return r.status, r.read().decode(), r.headers.get("set-cookie", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), ""


def moderator_secret(db: str, base: str) -> str:
    out = referee(db, "links", "phones", "--base", base, "--revoke", "moderator")
    assert out.returncode == 0, out.stderr
    return re.search(r"^moderator: \S+/m/(\S+)$", out.stdout, re.M).group(1)


def test_a_listener_reads_the_moderators_link_in_plain_http_and_nothing_of_it_over_tls(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    cert, key = certificate(tmp_path / "tls")
    # plain HTTP, as the audit found it: one page load gives the listener the table's link
    with serve(db, "127.0.0.1", "--entry") as plain:
        secret = moderator_secret(db, plain.url)
        listener = Listener(plain.port)
        try:
            status, page, cookie = fetch(f"http://127.0.0.1:{listener.port}/m/{secret}")
        finally:
            listener.close()
        assert status == 200 and "phones" in page, page[:300]
        assert f"/m/{secret}".encode() in listener.seen and b"set-cookie: seat=" in listener.seen.lower()  # read
        assert "Secure" not in cookie
    # over TLS: the same page, and the listener holds nothing of the link, the cookie or the page
    with serve(db, "127.0.0.1", "--entry", "--ssl-certfile", str(cert), "--ssl-keyfile", str(key)) as tls:
        base = f"https://127.0.0.1:{tls.port}"
        secret = moderator_secret(db, base)
        listener = Listener(tls.port)
        try:
            status, page, cookie = fetch(f"https://127.0.0.1:{listener.port}/m/{secret}", cafile=cert)
        finally:
            listener.close()
        assert status == 200 and "phones" in page, page[:300]
        assert len(listener.seen) > 1000  # the exchange went through it
        assert secret.encode() not in listener.seen and b"/m/" not in listener.seen
        assert b"set-cookie" not in listener.seen.lower() and b"phones" not in listener.seen
        assert re.search(r"(?i)\bsecure\b", cookie) and "HttpOnly" in cookie, cookie
        with pytest.raises(urllib.error.URLError):  # a phone that does not trust the certificate is told so
            fetch(f"{base}/m/{secret}")
        seat = referee(db, "links", "phones", "--base", base, "--revoke", "crab").stdout
        crab = re.search(r"^crab: (\S+)$", seat, re.M).group(1)
        assert crab.startswith(base + "/e/") and fetch(crab, cafile=cert)[0] == 200
    assert f"at {base}/" in tls.out and f"`referee links --base` and `tournament seat --links`: {base}" in tls.out
    assert "warning" not in tls.err


def test_serve_warns_when_the_phone_pages_travel_in_plain_http_on_the_network(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    with serve(db, "0.0.0.0", "--entry") as served:
        pass
    assert "warning: without TLS the phone links travel in plain HTTP" in " ".join(served.err.split())
    with serve(db, "127.0.0.1", "--entry") as served:  # this machine only: nothing travels
        pass
    assert "warning" not in served.err


def test_a_certificate_serve_cannot_use_is_refused_in_one_line(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    cert, key = certificate(tmp_path / "a")
    other_cert, _ = certificate(tmp_path / "b")
    locked_cert, locked_key = certificate(tmp_path / "c", encrypted=True)
    alone = referee(db, "serve", "--entry", "--ssl-certfile", str(cert))
    assert alone.returncode == 2 and "give both --ssl-certfile and --ssl-keyfile" in " ".join(alone.stderr.split())
    for certfile, keyfile in ((other_cert, key), (locked_cert, locked_key), (tmp_path / "none.pem", key)):
        with pytest.raises(NotServing) as refused:
            with serve(db, "127.0.0.1", "--entry", "--ssl-certfile", str(certfile), "--ssl-keyfile", str(keyfile)):
                pass
        said = str(refused.value)
        assert "cannot serve TLS with this certificate and key" in said and "Traceback" not in said, said


def test_links_issued_for_plain_http_to_another_machine_are_warned_about(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    r = referee(db, "links", "phones", "--base", "http://192.168.1.20:8000")
    assert r.returncode == 0 and "/e/" in r.stdout
    assert "warning: http://192.168.1.20:8000 is plain HTTP: these links will cross the network in clear" in r.stderr
    for base, clan in (("https://192.168.1.20:8000", "crab"), ("http://127.0.0.1:8000", "crane")):
        r = referee(db, "links", "phones", "--base", base, "--revoke", clan)
        assert r.returncode == 0 and r.stderr == "", (base, r.stderr)
    assert referee(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1").returncode == 0
    for i in range(4):
        assert referee(db, "tournament", "players", "add", "cup", f"P{i}").returncode == 0
    sheet = tmp_path / "s.html"
    r = referee(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(sheet))
    assert r.returncode == 0 and "warning: http://10.0.0.2:8000 is plain HTTP" in r.stderr, r.stderr
