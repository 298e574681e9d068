"""The printed board and components as values, and the validation of their data.

The data itself lives in ``referee/data/board.json``; reading the file is the outer layer's job
(``referee.games.battle.boarddata``). Here: the shape, and ``check_board`` which reports every problem at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .tokens import Clan, Kind, Token, token_code

SEA = "sea"


@dataclass(frozen=True, slots=True)
class Province:
    """One province of the board (board.json): its territory, flowers, printed defense and coast."""

    id: str
    territory: str
    label: str
    flowers: int
    coastal: bool
    printed_defense: int
    capital_of: Clan | None
    aliases: tuple[str, ...]
    centre: tuple[int, int]

    @property
    def is_capital(self) -> bool:
        return self.capital_of is not None


@dataclass(frozen=True, slots=True)
class Territory:
    """A clan, neutral or Shadowlands territory: its provinces and its territory cards."""

    id: str
    kind: str  # clan | neutral | shadowlands
    label: str
    clan: Clan | None
    capital: str | None
    provinces: tuple[str, ...]
    scores: bool
    cards: tuple[str, ...]

    @property
    def is_shadowlands(self) -> bool:
        return self.kind == "shadowlands"


@dataclass(frozen=True, slots=True)
class ClanFacts:
    """A clan's components: colour, capital, special token, combat token pool and control tokens."""

    clan: Clan
    colour: str
    capital: str
    special_token: Token
    pool: tuple[tuple[Token, int], ...]  # every combat token the clan owns, bluff included
    control_tokens: int
    counts: dict[Token, int] = field(default_factory=dict)

    def owned(self, token: Token) -> int:
        return self.counts.get(token, 0)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """A territory or Shadowlands card: its territory, when it is played, and its effect."""

    id: str
    name: str
    territory: str
    timing: str
    effect: str


@dataclass(frozen=True, slots=True)
class ObjectiveFacts:
    """A secret objective and the honor it is worth when met."""

    id: str
    name: str
    condition: str
    honor: int


@dataclass(frozen=True, slots=True)
class Board:
    """The whole board, validated: provinces, territories, borders, clans, cards, objectives."""

    version: str
    provinces: dict[str, Province]
    territories: dict[str, Territory]
    land_borders: frozenset[frozenset[str]]
    coastal: frozenset[str]
    clans: dict[Clan, ClanFacts]
    cards: dict[str, CardFacts]
    objectives: dict[str, ObjectiveFacts]
    neutral_initiative: tuple[str, ...]
    control_set_aside: dict[int, int]
    layout: tuple[int, int]
    neighbours: dict[str, frozenset[str]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # every id and alias -> province id
    token_limits: dict[str, int] = field(default_factory=dict)  # how many each clan owns, by token_code
    border_pairs: frozenset[tuple[str, str]] = frozenset()  # every land border as a sorted pair (Entry.border)
    # lookup tables the rules read every round, worked out once from the data above (``_lookup_tables``)
    territory_provinces: dict[str, tuple[str, ...]] = field(default_factory=dict)  # territory id -> its provinces
    territory_order: tuple[str, ...] = ()  # the territory ids, sorted
    printed_defense: dict[str, int] = field(default_factory=dict)  # province id -> its printed defense
    capitals: frozenset[str] = frozenset()  # every capital province
    shadowlands: frozenset[str] = frozenset()  # every province of a Shadowlands territory

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def territory_of(self, province: str) -> Territory:
        return self.territories[self.provinces[province].territory]


class BoardDataError(ValueError):
    """The board data file is inconsistent; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in board data:\n  " + "\n  ".join(problems))


def check_board(raw: dict[str, Any]) -> list[str]:
    """Every problem in the raw board data, at once (empty when the data is sound)."""
    provinces = raw.get("provinces") or []
    territories = raw.get("territories") or []
    prov_ids = [p.get("id") for p in provinces]
    terr_ids = [t.get("id") for t in territories]
    problems: list[str] = []
    for kind, ids in (("province", prov_ids), ("territory", terr_ids)):
        problems += [f"duplicate {kind} id {name!r} ({n} times)" for name, n in Counter(ids).items() if n > 1]
    known_p, known_t = set(prov_ids), set(terr_ids)
    problems += _province_problems(provinces, known_t)
    problems += _territory_problems(territories, provinces, known_p)
    problems += _border_problems(raw, provinces, known_p)
    problems += _clan_problems(raw.get("clans") or [], known_p)
    card_ids = {card.get("id") for card in raw.get("territory_cards") or []}
    for t in territories:
        problems += [f"territory {t.get('id')!r}: unknown card {c!r}" for c in t.get("cards", []) if c not in card_ids]
    return problems


def _province_problems(provinces: list[Any], known_t: set[Any]) -> list[str]:
    problems: list[str] = []
    seen_names: dict[str, str] = {}
    for p in provinces:
        pid = p.get("id")
        if p.get("territory") not in known_t:
            problems.append(f"province {pid!r}: unknown territory {p.get('territory')!r}")
        for key in ("flowers", "printed_defense"):
            if not isinstance(p.get(key), int) or p[key] < 0:
                problems.append(f"province {pid!r}: {key} must be a whole number >= 0")
        if p.get("capital_of") is not None and p["capital_of"] not in {c.value for c in Clan}:
            problems.append(f"province {pid!r}: unknown clan {p['capital_of']!r}")
        centre = p.get("centre")
        if not (isinstance(centre, list) and len(centre) == 2):
            problems.append(f"province {pid!r}: centre must be [x, y]")
        for name in [pid, *p.get("aliases", [])]:
            if name in seen_names and seen_names[name] != pid:
                problems.append(f"name {name!r} is used by {seen_names[name]!r} and {pid!r}")
            seen_names[name] = pid
    return problems


def _territory_problems(territories: list[Any], provinces: list[Any], known_p: set[Any]) -> list[str]:
    problems: list[str] = []
    for t in territories:
        for pid in t.get("provinces", []):
            if pid not in known_p:
                problems.append(f"territory {t.get('id')!r}: unknown province {pid!r}")
            elif next(p for p in provinces if p["id"] == pid).get("territory") != t.get("id"):
                problems.append(f"territory {t.get('id')!r} lists {pid!r}, which names another territory")
        members = {p["id"] for p in provinces if p.get("territory") == t.get("id")}
        for pid in sorted(members - set(t.get("provinces", []))):
            problems.append(f"territory {t.get('id')!r} does not list its province {pid!r}")
    return problems


def _border_problems(raw: dict[str, Any], provinces: list[Any], known_p: set[Any]) -> list[str]:
    problems: list[str] = []
    pairs: list[frozenset[str]] = []
    for pair in raw.get("land_borders") or []:
        if len(pair) != 2 or pair[0] == pair[1]:
            problems.append(f"land border {pair!r}: needs two different provinces")
            continue
        problems += [f"land border {pair!r}: dangling province {pid!r}" for pid in pair if pid not in known_p]
        pairs.append(frozenset(pair))
    for pair, n in Counter(pairs).items():
        if n > 1:
            problems.append(f"land border {sorted(pair)!r} listed {n} times (a border is symmetric)")
    coastal_list = raw.get("coastal_borders") or []
    problems += [f"coastal border: dangling province {pid!r}" for pid in coastal_list if pid not in known_p]
    for p in provinces:
        if bool(p.get("coastal")) != (p.get("id") in coastal_list):
            problems.append(f"province {p.get('id')!r}: coastal flag disagrees with the coastal borders")
    return problems


def _clan_problems(clans: list[Any], known_p: set[Any]) -> list[str]:
    problems: list[str] = []
    for c in clans:
        total = sum(n for _, _, n in c.get("combat_tokens", []))
        if total != 27:
            problems.append(f"clan {c.get('id')!r}: {total} combat tokens, rulebook p.3 says 27")
        if c.get("capital") not in known_p:
            problems.append(f"clan {c.get('id')!r}: unknown capital {c.get('capital')!r}")
    return problems


def build_board(raw: dict[str, Any]) -> Board:
    """A validated ``Board``; raises ``BoardDataError`` with every problem found."""
    problems = check_board(raw)
    if problems:
        raise BoardDataError(problems)
    provinces = {p["id"]: _province(p) for p in raw["provinces"]}
    territories = {t["id"]: _territory(t) for t in raw["territories"]}
    borders = frozenset(frozenset(pair) for pair in raw["land_borders"])
    neighbours: dict[str, set[str]] = {pid: set() for pid in provinces}
    for pair in borders:
        a, b = sorted(pair)
        neighbours[a].add(b)
        neighbours[b].add(a)
    clans = {Clan(c["id"]): _clan(c) for c in raw["clans"]}
    names = {}
    for p in provinces.values():
        names[p.id] = p.id
        for alias in p.aliases:
            names[alias] = p.id
    return Board(
        version=str(raw.get("version", "unversioned")),
        provinces=provinces,
        territories=territories,
        land_borders=borders,
        coastal=frozenset(raw["coastal_borders"]),
        clans=clans,
        cards={
            c["id"]: CardFacts(c["id"], c["name"], c["territory"], c["timing"], c["effect"])
            for c in raw["territory_cards"]
        },
        objectives={o["id"]: ObjectiveFacts(o["id"], o["name"], o["condition"], o["honor"]) for o in raw["objectives"]},
        neutral_initiative=tuple(n["id"] for n in raw.get("neutral_initiative_cards", [])),
        control_set_aside={int(k): v for k, v in raw["setup"]["control_tokens_set_aside"].items()},
        layout=(raw["layout"]["width"], raw["layout"]["height"]),
        neighbours={k: frozenset(v) for k, v in neighbours.items()},
        names=names,
        token_limits={token_code(c, t.kind, t.strength): n for c, f in clans.items() for t, n in f.pool},
        border_pairs=frozenset((a, b) if a < b else (b, a) for a, b in (tuple(pair) for pair in borders)),
        **_lookup_tables(provinces, territories),
    )


def _province(p: dict[str, Any]) -> Province:
    return Province(
        id=p["id"],
        territory=p["territory"],
        label=p["label"],
        flowers=p["flowers"],
        coastal=bool(p["coastal"]),
        printed_defense=p["printed_defense"],
        capital_of=Clan(p["capital_of"]) if p.get("capital_of") else None,
        aliases=tuple(p.get("aliases", [])),
        centre=(int(p["centre"][0]), int(p["centre"][1])),
    )


def _territory(t: dict[str, Any]) -> Territory:
    return Territory(
        id=t["id"],
        kind=t["kind"],
        label=t["label"],
        clan=Clan(t["clan"]) if t.get("clan") else None,
        capital=t.get("capital"),
        provinces=tuple(t["provinces"]),
        scores=bool(t["scores_territory_bonus"]),
        cards=tuple(t.get("cards", [])),
    )


def _clan(c: dict[str, Any]) -> ClanFacts:
    kind, strength = c["special_token"]
    return ClanFacts(
        clan=Clan(c["id"]),
        colour=c["colour"],
        capital=c["capital"],
        special_token=Token(Kind(kind), strength),
        pool=tuple((Token(Kind(k), s), n) for k, s, n in c["combat_tokens"]),
        control_tokens=c["control_tokens"],
        counts={Token(Kind(k), s): n for k, s, n in c["combat_tokens"]},
    )


def _lookup_tables(provinces: dict[str, Province], territories: dict[str, Territory]) -> dict[str, Any]:
    """The ``Board`` fields that the rules read every round, worked out once from the provinces and territories."""
    return {
        "territory_provinces": {t.id: t.provinces for t in territories.values()},
        "territory_order": tuple(sorted(territories)),
        "printed_defense": {p.id: p.printed_defense for p in provinces.values()},
        "capitals": frozenset(p.id for p in provinces.values() if p.is_capital),
        "shadowlands": frozenset(p.id for p in provinces.values() if territories[p.territory].is_shadowlands),
    }
