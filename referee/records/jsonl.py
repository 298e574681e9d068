"""A stream's events as JSON Lines: lossless, one event a line (the payload as recorded, the chain included),
written in canonical JSON and read strictly (an unknown field, a key twice, a value of the wrong type or a lone
surrogate refuse the file, naming its line). Every game's and tournament's export and import."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..core.canonical import canonical_json
from ..store import events as ev
from ..store.events import Event, LogError

EVENT_KEYS = {
    "game": str,
    "seq": int,
    "type": str,
    "payload_version": int,
    "payload": dict,
    "prev_hash": str,
    "hash": str,
    "recorded_at": str,
}


class RecordError(LogError):
    """A file that cannot be imported: names the line and the reason. Nothing was stored."""

    def __init__(self, problem: str, lineno: int | None = None):
        self.problem = problem
        self.lineno = lineno
        super().__init__(
            f"line {lineno}: {problem}" if lineno is not None else problem,
            hint="the file was refused whole; nothing was stored",
        )


# --- JSON Lines -----------------------------------------------------------------------------------
def export_jsonl(events: Iterable[Event]) -> str:
    return "".join(canonical_json(e.to_dict()) + "\n" for e in events)


def parse_jsonl(text: str) -> tuple[list[Event], list[int]]:
    """The events of a JSON Lines log and the line each came from."""
    events, lines = [], []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = ev.read_json(line)
            line.encode("utf-8")  # a lone surrogate written as an escape is no text: nothing could store it
            json.dumps(raw, ensure_ascii=False).encode("utf-8")
        except ev.JsonRefused as exc:
            raise RecordError(str(exc), n) from None
        except UnicodeEncodeError:
            raise RecordError("holds a lone surrogate (\\ud800-\\udfff): not text", n) from None
        except ValueError as exc:
            raise RecordError(f"not a JSON object ({getattr(exc, 'msg', exc)})", n) from None
        events.append(_event_from(raw, n))
        lines.append(n)
    return events, lines


def _event_from(raw: Any, n: int) -> Event:
    if not isinstance(raw, dict):
        raise RecordError("not a JSON object", n)
    for key, kind in EVENT_KEYS.items():
        value = raw.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise RecordError(f"field {key!r} must be {kind.__name__}, got {value!r}", n)
    extra = sorted(set(raw) - set(EVENT_KEYS))
    if extra:
        raise RecordError(f"unknown field(s) {', '.join(extra)}", n)
    return Event(**{k: raw[k] for k in EVENT_KEYS})
