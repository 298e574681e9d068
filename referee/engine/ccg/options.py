"""The card game's rules options: where judges could read the rulebook differently, the referee's own ruling
(``CT-xx``) is the default and a table may choose another value when the match is created
(``referee ccg new ... --option NAME=VALUE``); the choice is recorded with the match, so a replay uses it."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CcgError


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    default: str
    allowed: tuple[str, ...]
    ruling: str
    says: str

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "default": self.default, "allowed": list(self.allowed), "ruling": self.ruling}


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "lobby_holding_favor",
            "warn",
            ("warn", "refuse"),
            "CT-05",
            "Lobby by the player who already controls the Imperial Favor: taken with a warning, or refused",
        ),
    )
}


def parse_options(items: list[str] | tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``NAME=VALUE`` each, checked against the options' allowed values; sorted, each name once."""
    chosen: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or name not in OPTIONS:
            known = ", ".join(sorted(OPTIONS))
            raise CcgError(f"option {item!r}: expected NAME=VALUE, NAME one of {known}")
        option = OPTIONS[name]
        if value not in option.allowed:
            raise CcgError(f"option {name}: {value!r} is not one of {', '.join(option.allowed)} ({option.ruling})")
        if name in chosen:
            raise CcgError(f"option {name} given twice")
        chosen[name] = value
    return tuple(sorted(chosen.items()))
