"""A casebook's files, read the same way for every game: a folder's ``*.toml`` files in name order, each
file's ``[[case]]`` tables, the place of each case for an error, and every case id used once.

Each game's casebook module (``casebook`` in ``referee.games.battle``, ``referee.games.ccg`` and
``referee.games.champions``) checks its own cases' fields; a file that cannot be read is refused here with
the error class it names.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import RefereeError


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=_HasId)


class Strict(BaseModel):
    """A case's format: every field of its type (no coercion), no key the format does not name."""

    model_config = ConfigDict(strict=True, extra="forbid")


class FileFormat(BaseModel):
    """A casebook file: ``[[case]]`` tables, nothing else."""

    model_config = ConfigDict(extra="forbid")
    case: list[dict[str, Any]] = []


def problem(error: ValidationError) -> str:
    """The first thing wrong, where it is, and what was there."""
    first = error.errors()[0]
    where = ".".join(str(x) for x in first["loc"]) or "the file"
    return f"{where}: {first['msg'].lower()} (found {first['input']!r:.60})"


def read_file(path: Path, error: type[RefereeError]) -> list[tuple[str, dict[str, Any]]]:
    """The ``[[case]]`` tables of one file, each with its place: "file, case <id>" (its number when it has
    no id). A file that is not TOML, cannot be read or holds anything else raises ``error``, naming it."""
    try:
        raw = FileFormat.model_validate(tomllib.loads(path.read_text("utf-8")))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{path.name}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise error(f"{path.name}: cannot be read ({exc.strerror or exc})") from None
    except ValidationError as exc:
        raise error(f"{path.name}: {problem(exc)}; cases are [[case]] tables") from None
    out = []
    for n, case in enumerate(raw.case, start=1):
        name = case.get("id")
        out.append((f"{path.name}, case {name if isinstance(name, str) and name else n}", case))
    return out


def files(directory: Path) -> list[Path]:
    """A casebook folder's files, in name order."""
    return sorted(Path(directory).glob("*.toml"))


def load_folder(directory: Path, load_file: Callable[[Path], list[C]], error: type[RefereeError]) -> list[C]:
    """Every case of a folder's files, read by ``load_file``; a case id used twice raises ``error``."""
    cases: list[C] = []
    for path in files(directory):
        cases.extend(load_file(path))
    ids = [c.id for c in cases]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise error(f"duplicate case id(s): {', '.join(dupes)}")
    return cases
