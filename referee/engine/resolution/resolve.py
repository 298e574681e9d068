"""Resolution phase, rulebook p.9, as a pure function: decide against one snapshot, then apply.

    resolve(state, entries) -> (new_state, report)

Steps: 1 reveal, 2 bluffs and illegal tokens, 3 raids, 4 diplomacy, 5 battles (with successful
defense, p.10), 6 claim territories, 7 advance the round track.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.board import SEA
from ..model.entry import Entry
from ..model.errors import EntriesRefused
from ..model.state import Control, GameState, Special, SpecialToken
from ..model.tokens import PLACEMENTS_PER_ROUND, Clan, Kind
from .inventory import after_round, check_placements, table_of
from .placement import is_kept_lion_bluff, judge, placed_tokens
from .report import Battle, Change, Claim, Defense, Fate, Part, Raid, RoundReport, Side, TokenFate

LION_BLUFF_DEFENSE = 2
Fates = dict[int, TokenFate]  # the fate of each token so far, by the id of its (deduplicated) entry


def resolve(state: GameState, entries: Iterable[Entry], *, checked: bool = False) -> tuple[GameState, RoundReport]:
    """Resolve one round. Entry order never matters; ``state`` is never changed.

    Physically impossible entries raise ``EntriesRefused`` (R-08) unless the caller has already
    checked them (``checked=True``, with its own inventory).
    """
    # Rulebook p.9: every token is revealed at once (step 1). Equal entries are one object from here on,
    # so that a token's fate can be keyed by its id (``Fates``).
    same: dict[Entry, Entry] = {}
    entries = sorted((same.setdefault(e, e) for e in entries), key=lambda e: e.key)
    if not checked:
        refusals = check_placements(state, entries)  # R-08, against the token inventory and the round's cards
        if refusals:
            raise EntriesRefused(refusals, state.round)
    fates: Fates = {}
    live = _step2_discard(state, entries, fates)
    roles = _roles(state, live)
    attacked_after_step2 = {e.province for e in live if roles[id(e)] is ATTACK}
    raids, scorched, live = _step3_raids(state, live, fates)
    peace, live = _step4_diplomacy(state, live, scorched, fates)
    battles, captured = _step5_battles(state, live, roles, fates)
    defenses = _successful_defense(
        state, live, roles, battles, captured, scorched, peace, attacked_after_step2, _attacks_taken_off(state)
    )
    control, special, warnings = _apply(state, scorched, peace, captured, defenses)
    warnings = _ronin_notes(state, entries) + warnings
    cards_on_board, cards_held, claims = _step6_claim(state, control, special)
    new_state = state.with_(  # step 7: the round track advances
        control=control,
        special=special,
        cards_on_board=cards_on_board,
        cards_held=cards_held,
        round=state.round + 1,
    )
    new_state = after_round(state, new_state, entries)  # R-08 discard piles
    report = RoundReport(
        round=state.round,
        fates=tuple(fates[id(e)] for e in entries),
        raids=tuple(raids),
        peace=tuple(sorted(peace)),
        battles=tuple(battles),
        defenses=tuple(defenses),
        claims=tuple(claims),
        changes=tuple(_changes(state, new_state, claims)),
        warnings=tuple(warnings),
    )
    return new_state, report


# --- step 2 ---------------------------------------------------------------------------------------
def _step2_discard(state: GameState, entries: list[Entry], fates: Fates) -> list[Entry]:
    """Rulebook p.9 step 2; R-04, R-09, R-10. Returns the tokens still on the board.

    A blessing on a bluff, raid or diplomacy token is discarded (R-10); since only army, navy and
    shinobi strengths are ever counted, the token under it stays on the board and is judged alone.
    """
    live: list[Entry] = []
    for e in entries:
        if e.token.kind == Kind.BLUFF:
            if is_kept_lion_bluff(state, e):
                reason = (
                    f"Lion bluff defending {e.province}: stays for the battle "
                    f"(+{LION_BLUFF_DEFENSE}), then returns to hand"
                )
                fates[id(e)] = TokenFate(e, Fate.LION_BLUFF, 2, reason, "R-04", bool(e.blessings))
                live.append(e)
            else:
                fates[id(e)] = TokenFate(
                    e, Fate.BLUFF, 2, "bluff: returned to its owner's hand (p.9)", None, bool(e.blessings)
                )
            continue
        illegal = judge(state, e)
        if illegal:
            fates[id(e)] = TokenFate(e, Fate.ILLEGAL, 2, illegal.reason, illegal.ruling, bool(e.blessings))
        else:
            live.append(e)
    return live


ATTACK, DEFEND, NEITHER = "attack", "defend", "neither"


def _roles(state: GameState, live: list[Entry]) -> dict[int, str]:
    """Each token's part in a battle, judged once on the snapshot (R-14, R-17a), by ``id``: attacks,
    defends its own province, or neither (raid, diplomacy, or a bluff that returned to hand)."""
    return {id(e): ATTACK if _attacks(state, e) else DEFEND if _defends(state, e) else NEITHER for e in live}


def _attacks(state: GameState, e: Entry) -> bool:
    """An army, navy or shinobi attacking ``e.province`` (R-14, R-17a)."""
    if not e.token.kind.fights:
        return False
    return not e.in_centre or not state.controls(e.clan, e.province)


def _defends(state: GameState, e: Entry) -> bool:
    if e.token.kind == Kind.BLUFF:
        return True  # only a kept Lion bluff is still on the board
    return e.token.kind.fights and e.in_centre and state.controls(e.clan, e.province)


def _blessing_note(e: Entry, fighting: bool) -> bool:
    return bool(e.blessings) and not fighting


# --- step 3 ---------------------------------------------------------------------------------------
def _step3_raids(state: GameState, live: list[Entry], fates: Fates) -> tuple[list[Raid], set[str], list[Entry]]:
    """Rulebook p.8-9 step 3; R-12: every raid is judged on one snapshot taken now."""
    shinobi = {(e.clan, e.province) for e in live if e.token.kind == Kind.SHINOBI and e.in_centre}
    raids: list[Raid] = []
    scorched: set[str] = set()
    raid_tokens = [e for e in live if e.token.kind == Kind.RAID]
    for e in raid_tokens:
        p = e.province
        if (e.clan, p) in shinobi:
            why = f"{e.clan} shinobi in {p}"
        else:
            near = sorted(n for n in state.board.neighbours[p] if state.controls(e.clan, n))
            why = f"{e.clan} controls adjacent {', '.join(near)}" if near else ""
        if why:
            raids.append(Raid(p, e.clan, True, why))
            scorched.add(p)
        else:
            raids.append(
                Raid(
                    p,
                    e.clan,
                    False,
                    f"no {e.clan} shinobi in {p} and no adjacent province controlled by {e.clan} (p.8)",
                )
            )
    done: set[str] = set()
    for raid, e in zip(raids, raid_tokens, strict=False):
        if raid.triggered and raid.province not in done:
            done.add(raid.province)
            fates[id(e)] = TokenFate(
                e,
                Fate.RAID_TRIGGERED,
                3,
                f"raid triggered ({raid.why}): {raid.province} is scorched earth",
                "R-12",
                _blessing_note(e, False),
            )
        elif raid.triggered:
            fates[id(e)] = TokenFate(
                e,
                Fate.RAID_NO_EFFECT,
                3,
                f"{raid.province} is already scorched by another raid this step: no further effect",
                "R-12",
                _blessing_note(e, False),
            )
        else:
            fates[id(e)] = TokenFate(
                e, Fate.RAID_NO_EFFECT, 3, f"raid did not trigger: {raid.why}", "R-12", _blessing_note(e, False)
            )
    survivors = _sweep(
        [e for e in live if e.token.kind != Kind.RAID], scorched, Fate.REMOVED_BY_RAID, 3, "the raid on", "R-12", fates
    )
    return raids, scorched, survivors


# --- step 4 ---------------------------------------------------------------------------------------
def _step4_diplomacy(
    state: GameState, live: list[Entry], scorched: set[str], fates: Fates
) -> tuple[set[str], list[Entry]]:
    """Rulebook p.9 step 4; R-13. (A diplomacy in a province raided this round was removed in step 3.)"""
    peace: set[str] = set()
    for e in live:
        if e.token.kind == Kind.DIPLOMACY:
            first = e.province not in peace
            peace.add(e.province)
            why = f"peace in {e.province}" if first else f"{e.province} already made peaceful this step"
            fates[id(e)] = TokenFate(e, Fate.PEACE, 4, why, "R-13", _blessing_note(e, False))
    survivors = _sweep(
        [e for e in live if e.token.kind != Kind.DIPLOMACY],
        peace,
        Fate.REMOVED_BY_DIPLOMACY,
        4,
        "the diplomacy in",
        "R-13",
        fates,
    )
    return peace, survivors


def _sweep(
    live: list[Entry], provinces: set[str], fate: Fate, step: int, by: str, ruling: str, fates: Fates
) -> list[Entry]:
    """Discard every token in the given provinces or on their borders (p.9 steps 3-4); return the rest."""
    if not provinces:
        return live
    ordered = sorted(provinces)
    survivors = []
    for e in live:
        hit = next((p for p in ordered if e.touches(p)), None)
        if hit is None:
            survivors.append(e)
            continue
        back = "; a bluff returns to its owner's hand (p.9)" if e.token.kind == Kind.BLUFF else ""
        fates[id(e)] = TokenFate(
            e, fate, step, f"discarded by {by} {hit}{back}", ruling, _blessing_note(e, e.token.kind.fights)
        )
    return survivors


# --- step 5 ---------------------------------------------------------------------------------------
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
    """Printed defense, faceup control tokens (R-01 for the Crab), defense bonus token (R-14, p.10)."""
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


def _step5_battles(
    state: GameState, live: list[Entry], roles: dict[int, str], fates: Fates
) -> tuple[list[Battle], dict[str, Clan]]:
    """Rulebook p.9 step 5; R-14..R-16, R-02, R-05. Every battle is judged on one snapshot."""
    targets = sorted({e.province for e in live if roles[id(e)] is ATTACK})
    at: dict[str, list[Entry]] = {}
    for e in live:
        at.setdefault(e.province, []).append(e)
    battles: list[Battle] = []
    captured: dict[str, Clan] = {}
    for p in targets:
        battle = _battle(state, p, at[p], roles)
        battles.append(battle)
        if battle.winner is not None:
            captured[p] = battle.winner
    attacked = set(targets)
    for e in live:
        role = roles[id(e)]
        if role is ATTACK:
            fates[id(e)] = TokenFate(e, Fate.ATTACKED, 5, f"attacked {e.province}", "R-14")
        elif role is DEFEND and e.province in attacked:
            fate = fates.get(id(e))
            ruling = "R-04" if e.token.kind == Kind.BLUFF else "R-14"
            fates[id(e)] = TokenFate(
                e,
                Fate.DEFENDED if e.token.kind != Kind.BLUFF else Fate.LION_BLUFF,
                5,
                f"defended {e.province}",
                ruling,
                fate.blessings_discarded if fate else False,
            )
        elif id(e) not in fates:
            fates[id(e)] = TokenFate(e, Fate.DEFENDED, 5, f"defended {e.province}; not attacked", "R-17")
    return battles, captured


def _battle(state: GameState, p: str, live: list[Entry], roles: dict[int, str]) -> Battle:
    defender = state.controller(p)
    sides: dict[Clan, list[Part]] = {}
    defence: list[Part] = []
    for e in live:
        role = roles[id(e)]
        if role is ATTACK:
            sides.setdefault(e.clan, []).extend(_token_part(e))
        elif role is DEFEND:
            if e.token.kind == Kind.BLUFF:
                defence.append(Part("Lion bluff (R-04)", LION_BLUFF_DEFENSE))
            else:
                defence.extend(_token_part(e))
    defence += defence_bonuses(state, p)
    attackers = tuple(Side(c, tuple(parts)) for c, parts in sorted(sides.items()))
    total = sum([x.value for x in defence])
    province = state.board.provinces[p]
    capital = province.printed_defense if province.is_capital else 0
    rulings = ["R-14", "R-15"]
    against = dict.fromkeys(sides, total)
    if capital and Clan.PHOENIX in sides:
        against[Clan.PHOENIX] = total - capital
        rulings.append("R-05")
    winner, why = _decide(attackers, against, defender, p)
    if "R-02" in why:
        rulings.append("R-02")
    if "R-02a" in why:
        rulings.append("R-02a")
    if winner is not None:
        outcome = "captured"
    elif defender is not None:
        outcome = "held"
    else:
        outcome = "repelled"
    return Battle(
        p,
        defender,
        tuple(defence),
        attackers,
        tuple(sorted(against.items())),
        winner,
        outcome,
        why,
        tuple(dict.fromkeys(rulings)),
    )


def _decide(
    attackers: tuple[Side, ...], against: dict[Clan, int], defender: Clan | None, p: str
) -> tuple[Clan | None, str]:
    """R-15: strictly above the defence and every other attacker; R-02: the Crane wins its ties."""
    totals = {a.clan: a.total for a in attackers}  # one side per clan

    def beats_defence(clan: Clan) -> bool:
        t, d = totals[clan], against[clan]
        return t > d or (t == d and clan == Clan.CRANE)

    def beats_rivals(clan: Clan) -> bool:
        t = totals[clan]
        return all(t > o or (t == o and clan == Clan.CRANE) for c, o in totals.items() if c != clan)

    defending = f"{defender} defence" if defender else "the province's defence"
    for clan, t in totals.items():
        if beats_defence(clan) and beats_rivals(clan):
            crane_tie = clan == Clan.CRANE and (
                t == against[clan] or any(o == t for c, o in totals.items() if c != clan)
            )
            tail = " (tie won by the Crane, R-02)" if crane_tie else ""
            if crane_tie and defender is None and t == against[clan]:
                tail = " (tie won by the Crane: nobody holds the province to keep it, R-02a)"
            return clan, f"{clan} {t} beats {defending} {against[clan]}" + (
                f" and every other attacker{tail}" if len(attackers) > 1 else tail
            )
    best = max(totals.values())
    top = [c for c, t in totals.items() if t == best]
    if len(top) > 1 and any(beats_defence(c) for c in top):
        names = " and ".join(str(c) for c in top)
        return None, f"{names} tie for highest at {best}: nobody takes {p} (R-15)"
    a = attackers[[s.clan for s in attackers].index(top[0])]
    d = against[a.clan]
    tie = "; a tie goes to the defender (p.9)" if best == d else ""
    if defender is not None:
        return None, f"{defender} defence {d} holds against {a.clan} {best}{tie}"
    return None, f"{a.clan} {best} does not beat the province's defence {d}: nothing happens (p.9){tie}"


# --- successful defense (p.10) ----------------------------------------------------------------------
def _successful_defense(
    state: GameState,
    live: list[Entry],
    roles: dict[int, str],
    battles: list[Battle],
    captured: dict[str, Clan],
    scorched: set[str],
    peace: set[str],
    attacked_after_step2: set[str],
    taken_off: frozenset[str] | set[str] = frozenset(),
) -> list[Defense]:
    """R-17: one faceup control token for a province not captured, scorched or made peaceful, that
    (a) kept a surviving defending army/navy/shinobi (or Lion bluff), or (b) was attacked after step 2.
    ``taken_off``: provinces whose attack a card took off the board during placement (R-17b)."""
    fought = {b.province: b.why for b in battles}
    defended = {e.province for e in live if roles[id(e)] is DEFEND}
    result: list[Defense] = []
    candidates = sorted(p for p in state.control if p not in captured and p not in scorched and p not in peace)
    for p in candidates:
        clan = state.controller(p)
        assert clan is not None  # p is in state.control
        if p in fought:
            why = fought[p]
        elif p in defended and p in attacked_after_step2:
            why = "defending token(s) in place; the attack on it was removed by a raid or diplomacy (p.10)"
        elif p in defended:
            why = "defending token(s) in place and no attack (p.10)"
        elif p in attacked_after_step2 and state.options.defense_on_cancelled_attack:
            why = "an attack on it failed: the attacking tokens were removed by a raid or diplomacy (p.10)"
        elif p in taken_off:  # only filled with defense_on_discarded_attack on
            why = (
                "an attack on it failed: a card took the attacking token off the board during placement "
                "(R-17b, option defense_on_discarded_attack)"
            )
        else:
            continue
        result.append(Defense(p, clan, why))
    return result


def _attacks_taken_off(state: GameState) -> frozenset[str]:
    """R-17b: with ``defense_on_discarded_attack`` on, the provinces that a legal army, navy or shinobi
    attacked before a card (shugenja, Dark Favors, Purge the Weak, the first player card) took it off
    the board during placement. Off (the default), such a token never reached resolution: no attack."""
    if not state.options.defense_on_discarded_attack:
        return frozenset()
    return frozenset(e.province for e, _ in table_of(state).taken_off if judge(state, e) is None and _attacks(state, e))


def _ronin_notes(state: GameState, entries: list[Entry]) -> list[str]:
    """R-11a: a ronin places at most its number of tokens; fewer are accepted, and the report says so."""
    notes = []
    table = table_of(state)
    for clan in sorted(state.ronin):
        placed = sum(len(placed_tokens(e)) for e in entries if e.clan == clan)
        _, most = table.expected(clan, PLACEMENTS_PER_ROUND, True)
        if placed < most:
            notes.append(
                f"{clan} is ronin and placed {placed} token(s), fewer than {most}: accepted; "
                "the referee cannot tell whether it could have placed more (R-11a)"
            )
    return notes


# --- applying the outcomes at once ----------------------------------------------------------------
def _apply(
    state: GameState, scorched: set[str], peace: set[str], captured: dict[str, Clan], defenses: list[Defense]
) -> tuple[dict[str, Control], dict[str, SpecialToken], list[str]]:
    """The board after every outcome at once: control tokens and special tokens, and any shortage."""
    control = dict(state.control)
    special = dict(state.special)
    warnings: list[str] = []
    for p in scorched:  # control tokens removed, scorched earth placed (replaces any non-peace token, R-19)
        control.pop(p, None)
        special[p] = SpecialToken(Special.SCORCHED)
    for p in peace:  # R-13; R-19
        special[p] = SpecialToken(Special.PEACE)
    placing: dict[Clan, int] = {}
    for clan in captured.values():
        placing[clan] = placing.get(clan, 0) + 1
    for d in defenses:
        placing[d.clan] = placing.get(d.clan, 0) + 1
    short: set[Clan] = set()
    on_board: dict[Clan, int] = {}  # control tokens staying on the board, by clan
    if placing:
        for q, c in control.items():
            if q not in captured:
                on_board[c.clan] = on_board.get(c.clan, 0) + c.count
    for clan, n in sorted(placing.items()):
        supply = state.board.clans[clan].control_tokens - on_board.get(clan, 0)
        if n > supply:
            if state.options.control_supply_limit:
                short.add(clan)
                warnings.append(
                    f"{clan} has {max(supply, 0)} control token(s) left for {n} placements: none "
                    "placed (R-26, control_supply_limit on)"
                )
            else:
                warnings.append(
                    f"{clan} has {max(supply, 0)} control token(s) left for {n} placements: use "
                    "substitute markers (R-26)"
                )
    for p, clan in captured.items():
        if clan in short:
            control.pop(p, None)
        else:
            control[p] = Control(clan, facedown=1, faceup=0)
    for d in defenses:
        if d.clan not in short:
            c = control[d.province]
            control[d.province] = Control(c.clan, c.facedown, c.faceup + 1)
    return control, special, warnings


# --- step 6 ---------------------------------------------------------------------------------------
def _step6_claim(
    state: GameState, control: dict[str, Control], special: dict[str, SpecialToken]
) -> tuple[dict[str, str | None], dict[Clan, tuple[tuple[str, str | None], ...]], list[Claim]]:
    """Rulebook p.9 step 6, p.11; R-18. Lost territories' unplayed cards go back first, then claims.

    Judged on the board after the battles (``control``, ``special``)."""
    held = {c: list(v) for c, v in state.cards_held.items()}
    on_board = dict(state.cards_on_board)
    claims: list[Claim] = []
    territories = state.board.territories

    def territory_controller(territory: str) -> Clan | None:  # R-18, as GameState.territory_controller
        owners = set()
        for p in territories[territory].provinces:
            s = special.get(p)
            if s is None or s.kind != Special.SCORCHED:
                c = control.get(p)
                owners.add(c.clan if c else None)
                if len(owners) > 1:
                    return None
        return owners.pop() if len(owners) == 1 else None

    for clan in sorted(held):
        for territory, card in list(held[clan]):
            if territory_controller(territory) != clan:
                held[clan].remove((territory, card))
                on_board[territory] = card
                claims.append(Claim(clan, territory, card, "returned"))
    for territory in sorted(on_board):
        owner = territory_controller(territory)
        if owner is not None:
            card = on_board.pop(territory)
            held.setdefault(owner, []).append((territory, card))
            claims.append(Claim(owner, territory, card, "claimed"))
    cards_held = {c: tuple(v) for c, v in held.items() if v}
    return on_board, cards_held, claims


# --- what to change on the physical board -----------------------------------------------------------
def _changes(old: GameState, new: GameState, claims: list[Claim]) -> list[Change]:
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
        if before and (not after or after.clan != before.clan):
            changes.append(Change(p, f"remove {before.count} {before.clan} control token(s) from {p}"))
        if after and (not before or after.clan != before.clan):
            how = "facedown" if after.faceup == 0 else f"{after.facedown} facedown, {after.faceup} faceup"
            changes.append(Change(p, f"place {after.count} {after.clan} control token(s) {how} in {p}"))
        elif after and before and after.faceup > before.faceup:
            changes.append(
                Change(
                    p,
                    f"add {after.faceup - before.faceup} {after.clan} control token faceup in {p} (successful defense)",
                )
            )
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
