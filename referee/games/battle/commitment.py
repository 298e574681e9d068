"""Sealed secret objectives: the reveal code the player keeps, and the commitment the log keeps.

The log is public (anyone may export it), and only twelve objectives exist, so the commitment must
not let anyone find the objective by trying them all. Two things make that too costly:

- the reveal code has 50 random bits: ten characters of Crockford's base 32 (``0-9``, ``A-Z`` less
  ``I L O U``), shown as ``XXXXX-XXXXX``; typing is forgiving (any case, ``O`` for ``0``, ``I``/``L``
  for ``1``, with or without the dash);
- the commitment is scrypt (memory-hard: 16 MiB a guess) of ``game|clan|objective|code`` with a
  random 16-byte salt of its own, so nothing can be computed ahead for every game at once.

A commitment is one self-describing string, stored in the ``ObjectiveSealed`` payload as it is:

    scrypt$n=16384,r=8,p=1$<salt, 32 hex digits>$<derived key, 64 hex digits>

Logs written before this scheme hold a bare SHA-256 (64 hex digits) of the same text with a short
code (``XXXX-XXXX``, 32 bits); they still verify and reveal, checked as they were made.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
CODE_CHARS = 10
CODE_BITS = 5 * CODE_CHARS  # 50
SALT_BYTES = 16
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # 128 * r * n bytes = 16 MiB of memory a guess
KEY_BYTES = 32
SCHEME = "scrypt"
MAXMEM = 64 * 2**20

_TYPED = str.maketrans({"O": "0", "I": "1", "L": "1"})
_SCRYPT = re.compile(r"scrypt\$n=(\d+),r=(\d+),p=(\d+)\$((?:[0-9a-f]{2}){1,64})\$([0-9a-f]{64})")
_LEGACY = re.compile(r"[0-9a-f]{64}")


def new_code() -> str:
    """A fresh reveal code: 50 random bits, as ``XXXXX-XXXXX``."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARS))
    return f"{chars[:5]}-{chars[5:]}"


def canonical_code(typed: str) -> str:
    """The code as the player typed it, in its printed form ``XXXXX-XXXXX`` when it is one; otherwise the
    typed text in capitals (an old short code, or a mistake that will not match)."""
    squeezed = re.sub(r"[\s-]", "", typed).upper().translate(_TYPED)
    if len(squeezed) == CODE_CHARS and all(c in ALPHABET for c in squeezed):
        return f"{squeezed[:5]}-{squeezed[5:]}"
    return typed.strip().upper()


def _message(game: str, clan: str, objective: str, code: str) -> bytes:
    return f"{game}|{clan}|{objective}|{code}".encode()


def _scrypt(message: bytes, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(message, salt=salt, n=n, r=r, p=p, maxmem=MAXMEM, dklen=KEY_BYTES)


def commit(game: str, clan: str, objective: str, code: str, *, salt: bytes | None = None) -> str:
    """The commitment to ``clan``'s ``objective`` with reveal ``code`` (a fresh salt unless given)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = _scrypt(_message(game, clan, objective, canonical_code(code)), salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"{SCHEME}$n={SCRYPT_N},r={SCRYPT_R},p={SCRYPT_P}${salt.hex()}${key.hex()}"


def matches(commitment: str, game: str, clan: str, objective: str, code: str) -> bool:
    """Whether revealing ``objective`` with ``code`` opens ``commitment`` (either scheme)."""
    m = _SCRYPT.fullmatch(commitment)
    if m:
        n, r, p = (int(g) for g in m.group(1, 2, 3))
        if not (1 < n <= 2**20 and n & (n - 1) == 0 and 1 <= r <= 64 and 1 <= p <= 16 and 128 * r * n <= MAXMEM // 2):
            return False  # parameters this referee would not have written: refused rather than run
        key = _scrypt(_message(game, clan, objective, canonical_code(code)), bytes.fromhex(m.group(4)), n, r, p)
        return hmac.compare_digest(key.hex(), m.group(5))
    if _LEGACY.fullmatch(commitment):  # before the scrypt scheme: SHA-256, the short code as typed
        legacy = hashlib.sha256(_message(game, clan, objective, code.strip().upper())).hexdigest()
        return hmac.compare_digest(legacy, commitment)
    return False


def legacy_commit(game: str, clan: str, objective: str, code: str) -> str:
    """The old scheme (SHA-256, short code), kept to read and test logs written with it."""
    return hashlib.sha256(_message(game, clan, objective, code)).hexdigest()
