"""One revealed combat token as the moderator reads it off the board: the round notation's value."""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import SEA
from .tokens import Clan, Kind, Token, token_code


@dataclass(frozen=True, slots=True)
class Entry:
    """One revealed combat token as the moderator reads it off the board."""

    clan: Clan
    token: Token
    province: str  # the centre it sits in, or the province its arrow points at
    source: str | None = None  # None: centre; "sea": coastal border; else the other side of a land border
    blessings: tuple[int, ...] = ()
    # Worked out once, when the entry is made: every round reads them for every token.
    key: str = field(init=False, repr=False, compare=False)  # the entries' one order: see __post_init__
    strength: int = field(init=False, repr=False, compare=False)  # the token's and its blessings'
    codes: tuple[str, ...] = field(init=False, repr=False, compare=False)  # the tokens placed, as token_code
    # the border the token sits on, side-independent: ("sea", p) or the sorted pair; None in a centre
    border: tuple[str, str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        strength = self.token.strength or 0
        # A total order on entries, so that resolution never depends on the order of entry: by clan,
        # kind, strength, province, source ("" in a centre), blessings, as the tuple of them would sort,
        # written as one string (one comparison instead of up to six): the parts are joined by a
        # character below any in them, numbers written with two digits.
        key = "\0".join(
            (self.clan, self.token.kind, f"{strength:02d}", self.province, self.source or "")
            + tuple(f"{b:02d}" for b in self.blessings)
        )
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "strength", strength + sum(self.blessings))
        codes: tuple[str, ...] = (token_code(self.clan, self.token.kind, strength),)
        if self.blessings:
            codes += tuple(token_code(self.clan, Kind.BLESSING, b) for b in self.blessings)
        object.__setattr__(self, "codes", codes)
        source, p = self.source, self.province
        border = None if source is None else (SEA, p) if source == SEA else (source, p) if source < p else (p, source)
        object.__setattr__(self, "border", border)

    @property
    def in_centre(self) -> bool:
        return self.source is None

    @property
    def on_sea(self) -> bool:
        return self.source == SEA

    def touches(self, province: str) -> bool:
        """In the province, or on one of its borders (raids and diplomacy, p.9)."""
        return self.province == province or self.source == province

    def __str__(self) -> str:
        """The entry's canonical line in the round notation (``notation.round`` parses it back)."""
        if self.source is None:
            place = f"@ {self.province}"
        else:
            place = f"{self.source} > {self.province}"
        blessings = "".join(f" + blessing {b}" for b in self.blessings)
        return f"{self.clan}: {self.token} {place}{blessings}"
