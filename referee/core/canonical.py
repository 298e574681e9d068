"""Canonical JSON: keys sorted, no spaces, text as written (not escaped to ASCII). What every hash and digest
is computed over, for every game and tournament."""

from __future__ import annotations

import json
from typing import Any

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # settings, no state


def canonical_json(value: Any) -> str:
    return _CANONICAL.encode(value)
