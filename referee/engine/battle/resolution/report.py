"""The round report: every token's fate, every battle's arithmetic, every board change.

``resolve`` decides a round on plain facts (``Decisions``: which tokens stand, who attacks, each
battle's totals and winner, what changes); the report tells those decisions as values (``TokenFate``,
``Battle``, ``Change`` ...), built from the facts when first read. A caller that only needs the board
(``verify``, a replay) never pays for the telling, and the telling never decides anything again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from ..model.board import SEA
from ..model.entry import Entry
from ..model.state import Control, GameState, Special
from ..model.tokens import Clan, Kind


class Fate(StrEnum):
    BLUFF = "bluff"  # step 2: returned to its owner's hand
    LION_BLUFF = "lion_bluff"  # stays, defends +2, then returns to hand
    ILLEGAL = "illegal"  # step 2: discarded
    RAID_TRIGGERED = "raid_triggered"  # step 3: scorched earth placed
    RAID_NO_EFFECT = "raid_no_effect"  # step 3: did not trigger, or the province was already scorched
    REMOVED_BY_RAID = "removed_by_raid"  # step 3
    PEACE = "peace"  # step 4: the diplomacy token made peace
    REMOVED_BY_DIPLOMACY = "removed_by_diplomacy"  # step 4
    ATTACKED = "attacked"  # step 5: fought as an attacker
    DEFENDED = "defended"  # step 5: fought as a defender, or stood unattacked


@dataclass(frozen=True, slots=True)
class TokenFate:
    """What became of one revealed token, why, and under which ruling."""

    entry: Entry
    fate: Fate
    step: int
    reason: str
    ruling: str | None = None
    blessings_discarded: bool = False  # blessing on a bluff, raid or diplomacy


@dataclass(frozen=True, slots=True)
class Part:
    """One addend of a battle total: a token, a blessing, a printed defense, a bonus."""

    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Side:
    """One attacker's side of a battle: its parts and their total."""

    clan: Clan
    parts: tuple[Part, ...]

    @property
    def total(self) -> int:
        return sum(p.value for p in self.parts)


@dataclass(frozen=True, slots=True)
class Battle:
    """One province's battle (p.9 step 5): the defence, every attacker, the outcome and why."""

    province: str
    defender: Clan | None
    defence: tuple[Part, ...]  # defending tokens, blessings and every defense bonus
    attackers: tuple[Side, ...]
    against: tuple[tuple[Clan, int], ...]  # the defence each attacker faces (R-05 Phoenix differs)
    winner: Clan | None
    outcome: str  # captured | held | repelled (empty province) | stalemate
    why: str
    rulings: tuple[str, ...] = ()

    @property
    def defence_total(self) -> int:
        return sum(p.value for p in self.defence)


@dataclass(frozen=True, slots=True)
class Raid:
    """One raid token's effect (p.9 step 3, R-12)."""

    province: str
    clan: Clan
    triggered: bool
    why: str


@dataclass(frozen=True, slots=True)
class Defense:
    """A successful defense (R-17): one faceup control token added."""

    province: str
    clan: Clan
    why: str


@dataclass(frozen=True, slots=True)
class Claim:
    """A territory card claimed or returned at step 6."""

    clan: Clan
    territory: str
    card: str | None
    action: str  # claimed | returned


@dataclass(frozen=True, slots=True)
class Change:
    """One thing to do on the physical board, in the moderator's words."""

    province: str | None
    text: str


# --- the decisions a report is told from -------------------------------------------------------------
ATTACK, DEFEND, NEITHER = "attack", "defend", "neither"  # a token's part in a battle (R-14, R-17a)
LION_BLUFF_DEFENSE = 2
FateFact = tuple[Fate, int, str, str | None, bool]  # fate, step, reason, ruling, blessings discarded
Standing = list[tuple[Entry, str]]  # tokens on the board, each with its part in a battle


class Fight:
    """One battle as decided (p.9 step 5): every attacker's total, the defence each attacker faces
    (R-05: the Phoenix's differs) and the winner."""

    __slots__ = ("province", "totals", "against", "defender", "winner")

    def __init__(
        self,
        province: str,
        totals: dict[Clan, int],
        against: dict[Clan, int],
        defender: Clan | None,
        winner: Clan | None,
    ):
        self.province = province
        self.totals = totals
        self.against = against
        self.defender = defender
        self.winner = winner


class Decisions:
    """What ``resolve`` decided in one round, in the rulebook's order, as plain facts.

    Filled once by ``resolve``, then never changed: the report's only source."""

    __slots__ = (
        "before",
        "after",
        "entries",
        "fates",
        "standing",
        "raids",
        "peace",
        "fights",
        "defenses",
        "claims",
        "warnings",
    )

    def __init__(self, before: GameState, entries: list[Entry]):
        self.before = before
        self.after = before
        self.entries = entries  # canonical order; equal entries are one object
        self.fates: dict[int, FateFact] = {}  # by the id of the entry: the tokens gone before step 5
        self.standing: Standing = []  # the tokens still on the board at step 5, with their parts
        self.raids: list[tuple[str, Clan, bool, str]] = []  # province, clan, triggered, why
        self.peace: set[str] = set()
        self.fights: list[Fight] = []  # in the order of the provinces' ids
        self.defenses: list[tuple[str, Clan, str | None]] = []  # province, clan, why (None: the battle's)
        self.claims: list[tuple[Clan, str, str | None, str]] = []  # clan, territory, card, action
        self.warnings: list[str] = []


def _across_ronin_border(state: GameState, e: Entry) -> bool:
    """An army of a ronin attacking across a land border whose other side it does not hold: legal only
    because the clan is ronin (R-11, p.11), which the report says, lest it read as a wrong adjudication."""
    source = e.source
    if e.token.kind != Kind.ARMY or source is None or source == SEA or e.clan not in state.ronin:
        return False
    here = state.control.get(source)
    return here is None or here.clan != e.clan


def _ronin_border(e: Entry) -> str:
    return f"{e.clan} is ronin (R-11): any land border"


class RoundReport:
    """Everything a round decided, in the rulebook's order, for the report and the log.

    Each part is built from the round's ``Decisions`` when first read, then kept: the decisions
    never change, so a report reads the same every time and equals any report of the same round."""

    FIELDS = ("round", "fates", "raids", "peace", "battles", "defenses", "claims", "changes", "warnings")
    __hash__ = None  # type: ignore[assignment]  # compared by value, never a key

    def __init__(self, decisions: Decisions):
        self.round = decisions.before.round
        self._d = decisions

    @cached_property
    def fates(self) -> tuple[TokenFate, ...]:
        """Every token's fate, in the entries' order: the tokens gone before step 5 as ``resolve``
        recorded them; the rest fought, defended, or stood unattacked (p.9 step 5, R-14, R-17)."""
        fates = dict(self._d.fates)
        fought = {f.province for f in self._d.fights}
        before = self._d.before
        for e, role in self._d.standing:
            if role is ATTACK:
                why = f"attacked {e.province}" + ("; " + _ronin_border(e) if _across_ronin_border(before, e) else "")
                fates[id(e)] = (Fate.ATTACKED, 5, why, "R-14", False)
            elif role is DEFEND and e.province in fought:
                bluff = e.token.kind == Kind.BLUFF
                kept = fates.get(id(e))  # a kept Lion bluff (R-04) keeps its blessings' fate (R-10)
                fate = Fate.LION_BLUFF if bluff else Fate.DEFENDED
                fates[id(e)] = (fate, 5, f"defended {e.province}", "R-04" if bluff else "R-14", bool(kept and kept[4]))
            elif id(e) not in fates:
                fates[id(e)] = (Fate.DEFENDED, 5, f"defended {e.province}; not attacked", "R-17", False)
        return tuple(TokenFate(e, *fates[id(e)]) for e in self._d.entries)

    @cached_property
    def raids(self) -> tuple[Raid, ...]:
        return tuple(Raid(*r) for r in self._d.raids)

    @cached_property
    def peace(self) -> tuple[str, ...]:
        return tuple(sorted(self._d.peace))

    @cached_property
    def battles(self) -> tuple[Battle, ...]:
        at: dict[str, Standing] = {}
        for t in self._d.standing:
            at.setdefault(t[0].province, []).append(t)
        return tuple(_battle(self._d.before, f, at[f.province]) for f in self._d.fights)

    @cached_property
    def defenses(self) -> tuple[Defense, ...]:
        why = {b.province: b.why for b in self.battles}
        return tuple(Defense(p, clan, text or why[p]) for p, clan, text in sorted(self._d.defenses))

    @cached_property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(Claim(*c) for c in self._d.claims)

    @cached_property
    def changes(self) -> tuple[Change, ...]:
        return tuple(_changes(self._d.before, self._d.after, self.claims))

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(self._d.warnings)

    def battle_at(self, province: str) -> Battle | None:
        return next((b for b in self.battles if b.province == province), None)

    def _parts(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundReport):
            return NotImplemented
        return self._parts() == other._parts()

    def __repr__(self) -> str:  # as a dataclass's: every part, told in full
        return f"RoundReport({', '.join(f'{name}={getattr(self, name)!r}' for name in self.FIELDS)})"


# --- telling a battle -----------------------------------------------------------------------------------
def _token_part(e: Entry) -> list[Part]:
    source = e.source
    where = "centre" if source is None else ("sea border" if source == SEA else f"from {source}")
    token = e.token
    parts = [Part(f"{token} ({where})", token.strength or 0)]
    if e.blessings:
        name = str(token)
        parts += [Part(f"blessing {b} on {name}", b) for b in e.blessings]
    return parts


def defence_bonuses(state: GameState, province: str) -> list[Part]:
    """Printed defense, faceup control tokens (R-01 for the Crab), defense bonus token (R-14, p.10).
    ``resolve`` adds the same values as ``defence_bonus``."""
    parts: list[Part] = []
    facts = state.board.provinces[province]
    printed = facts.printed_defense
    if printed:
        label = "capital (printed)" if facts.is_capital else "printed defense"
        parts.append(Part(label, printed))
    control = state.control.get(province)
    if control and control.faceup:
        each = state.options.crab_faceup_bonus if control.clan == Clan.CRAB else 1
        rule = f", R-01 crab +{each} each" if control.clan == Clan.CRAB else ""
        parts.append(Part(f"{control.faceup} faceup control token(s){rule}", control.faceup * each))
    special = state.special.get(province)
    if special and special.kind == Special.DEFENSE:
        parts.append(Part(f"defense bonus token +{special.value}", special.value))
    return parts


def _battle(state: GameState, fight: Fight, tokens: Standing) -> Battle:
    """The battle's arithmetic, part by part, and why it ended as ``resolve`` decided."""
    p = fight.province
    sides: dict[Clan, list[Part]] = {}
    defence: list[Part] = []
    for e, role in tokens:
        if role is ATTACK:
            sides.setdefault(e.clan, []).extend(_token_part(e))
        elif role is DEFEND:
            if e.token.kind == Kind.BLUFF:
                defence.append(Part("Lion bluff (R-04)", LION_BLUFF_DEFENSE))
            else:
                defence.extend(_token_part(e))
    defence += defence_bonuses(state, p)
    attackers = tuple(Side(c, tuple(parts)) for c, parts in sorted(sides.items()))
    province = state.board.provinces[p]
    rulings = ["R-14", "R-15"]
    if province.is_capital and province.printed_defense and Clan.PHOENIX in sides:
        rulings.append("R-05")
    why = _why(attackers, fight.against, fight.defender, p, fight.winner)
    if "R-02" in why:
        rulings.append("R-02")
    if "R-02a" in why:
        rulings.append("R-02a")
    if fight.winner is not None:
        outcome = "captured"
    elif fight.defender is not None:
        outcome = "held"
    else:
        outcome = "repelled"
    return Battle(
        p,
        fight.defender,
        tuple(defence),
        attackers,
        tuple(sorted(fight.against.items())),
        fight.winner,
        outcome,
        why,
        tuple(dict.fromkeys(rulings)),
    )


def _why(
    attackers: tuple[Side, ...], against: dict[Clan, int], defender: Clan | None, p: str, winner: Clan | None
) -> str:
    """Why the battle ended as ``resolve`` decided (R-15; R-02: the Crane wins its ties)."""
    totals = {a.clan: a.total for a in attackers}  # one side per clan
    if winner is not None:
        return _won(len(attackers), totals, against, defender, winner)
    best = max(totals.values())
    top = [c for c, t in totals.items() if t == best]
    if len(top) > 1 and any(best > against[c] or (best == against[c] and c == Clan.CRANE) for c in top):
        names = " and ".join(str(c) for c in top)
        return f"{names} tie for highest at {best}: nobody takes {p} (R-15)"
    a = attackers[[s.clan for s in attackers].index(top[0])]
    d = against[a.clan]
    tie = "; a tie goes to the defender (p.9)" if best == d else ""
    if defender is not None:
        return f"{defender} defence {d} holds against {a.clan} {best}{tie}"
    return f"{a.clan} {best} does not beat the province's defence {d}: nothing happens (p.9){tie}"


def _won(attackers: int, totals: dict[Clan, int], against: dict[Clan, int], defender: Clan | None, winner: Clan) -> str:
    """Why the winner took the province: it beat the defence (and every other attacker), or tied as the Crane."""
    defending = f"{defender} defence" if defender else "the province's defence"
    t = totals[winner]
    crane_tie = winner == Clan.CRANE and (t == against[winner] or any(o == t for c, o in totals.items() if c != winner))
    tail = " (tie won by the Crane, R-02)" if crane_tie else ""
    if crane_tie and defender is None and t == against[winner]:
        tail = " (tie won by the Crane: nobody holds the province to keep it, R-02a)"
    return f"{winner} {t} beats {defending} {against[winner]}" + (
        f" and every other attacker{tail}" if attackers > 1 else tail
    )


# --- what to change on the physical board -----------------------------------------------------------
def _changes(old: GameState, new: GameState, claims: tuple[Claim, ...]) -> list[Change]:
    changes: list[Change] = [
        Change(
            None, "discard every revealed combat token to its owner's discard pile; bluffs go back behind their screens"
        )
    ]
    was, now, had, has = old.control, new.control, old.special, new.special
    changed = {p for p in was.keys() | now.keys() if was.get(p) is not now.get(p)}
    changed |= {p for p in had.keys() | has.keys() if had.get(p) is not has.get(p)}
    for p in sorted(changed):  # an unchanged province (same token objects) has nothing to change
        before, after = old.control.get(p), new.control.get(p)
        changes += _control_changes(p, before, after)
        s_before, s_after = old.special.get(p), new.special.get(p)
        if s_after != s_before and s_after is not None:
            replaced = f" (replaces the {s_before} token)" if s_before else ""
            changes.append(Change(p, f"place a {s_after} token in {p}{replaced}"))
    for c in claims:
        card = f" ({c.card})" if c.card else ""
        if c.action == "claimed":
            changes.append(Change(None, f"{c.clan} takes the {c.territory} territory card{card}"))
        else:
            changes.append(Change(None, f"{c.clan} returns the {c.territory} territory card{card} to the board"))
    changes.append(
        Change(
            None,
            f"advance the round track to {new.round}" if new.round <= 5 else "the fifth round is over: score the game",
        )
    )
    return changes


def _control_changes(p: str, before: Control | None, after: Control | None) -> list[Change]:
    out = []
    if before and (not after or after.clan != before.clan):
        out.append(Change(p, f"remove {before.count} {before.clan} control token(s) from {p}"))
    if after and (not before or after.clan != before.clan):
        how = "facedown" if after.faceup == 0 else f"{after.facedown} facedown, {after.faceup} faceup"
        out.append(Change(p, f"place {after.count} {after.clan} control token(s) {how} in {p}"))
    elif after and before and after.faceup > before.faceup:
        out.append(
            Change(
                p, f"add {after.faceup - before.faceup} {after.clan} control token faceup in {p} (successful defense)"
            )
        )
    return out
