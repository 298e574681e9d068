"""The rules options of the rulings (referee/data/rulings.md): a typed configuration recorded with every game."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any


class Tiebreak(StrEnum):
    TERRITORIES_THEN_PROVINCES = "territories,provinces"  # R-25 default
    SHARED = "shared"


class BluffByCard(StrEnum):
    """A bluff discarded from the board by a card during placement (shugenja, Dark Favors, Purge the Weak)."""

    OUT_FOR_ROUND = "out_for_round"  # kept faceup before the screen until the round ends (FAQ, by analogy)
    BACK_TO_HAND = "back_to_hand"  # p.8 read literally: back behind the screen, and may be placed again


class HarborNavy(StrEnum):
    """How a navy may attack a harbor province (R-20; p.10 "on its borders")."""

    SEA_OR_LAND_BORDER = "sea_or_land_border"
    SEA_ONLY = "sea_only"


@dataclass(frozen=True, slots=True)
class RulesOptions:
    """The rules options judges may differ on (referee/data/rulings.md), each with its documented default."""

    crab_faceup_bonus: int = 2
    defense_on_cancelled_attack: bool = True  # R-17 (b), last clause
    humility_ties: bool = True  # R-24a
    tiebreak: Tiebreak = Tiebreak.TERRITORIES_THEN_PROVINCES
    control_supply_limit: bool = False
    harbor_navy: HarborNavy = HarborNavy.SEA_OR_LAND_BORDER  # R-20, referee reading
    emerald_any_connected: bool = False  # R-24a: chain (default) or any connected group of six
    initiative_tie_current_first: bool = False  # a tied current first player keeps it (True) or comes last
    bluff_discarded_by_card: BluffByCard = BluffByCard.OUT_FOR_ROUND  # R-21, FAQ (Purge the Weak)
    reinforcements_as_many_as_possible: bool = True  # card:reinforcements with fewer than two armies discarded
    defense_on_discarded_attack: bool = False  # R-17b: an attack a card took off the board during placement

    def to_dict(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, raw: dict[str, Any], *, recorded: bool = False) -> RulesOptions:
        """Build options from a mapping; unknown names, wrong types or values outside an option's domain
        (``DOMAINS``) raise ValueError. ``recorded``: options already recorded with a game, replayed as the
        table played them even if outside today's domain."""
        unknown = sorted(set(raw) - _DEFAULTS.keys())
        if unknown:
            raise ValueError(f"unknown rules option {unknown[0]!r} (known: {', '.join(_DEFAULTS)})")
        values: dict[str, Any] = {}
        for name, value in raw.items():
            default = _DEFAULTS[name]
            try:
                if isinstance(default, StrEnum):
                    values[name] = type(default)(value)
                elif isinstance(default, bool):
                    values[name] = _bool(value)
                elif isinstance(default, int):
                    values[name] = int(value)
                else:  # pragma: no cover - every option is typed above
                    values[name] = value
            except (TypeError, ValueError):
                raise ValueError(f"rules option {name}: {value!r} is not a valid value: {allowed(name)}") from None
            domain = DOMAINS.get(name)
            if domain is not None and not recorded and values[name] not in domain:
                raise ValueError(f"rules option {name}: {value!r} is not a valid value: {allowed(name)}")
        return cls(**values)

    def describe(self) -> list[tuple[str, str]]:
        return [(k, str(v)) for k, v in self.to_dict().items()]


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RulesOptions)}  # every option's default, in order

# The values each option may take (RULINGS.md): a number of a ruling's range, true/false, or a named choice.
DOMAINS: dict[str, tuple[Any, ...]] = {
    "crab_faceup_bonus": (1, 2, 3),  # +1 (the rulebook's faceup token) to +3; default +2
    **{f.name: (True, False) for f in fields(RulesOptions) if isinstance(f.default, bool)},
    **{f.name: tuple(type(f.default)) for f in fields(RulesOptions) if isinstance(f.default, StrEnum)},
}


def allowed(name: str) -> str:
    """The values option ``name`` may take, as a moderator reads them: ``1, 2 or 3``."""
    words = [str(v).lower() if isinstance(v, bool) else str(v) for v in DOMAINS.get(name, ())]
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"true", "yes", "on", "1"}:
        return True
    if text in {"false", "no", "off", "0"}:
        return False
    raise ValueError(value)
