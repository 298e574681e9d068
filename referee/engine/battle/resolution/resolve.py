"""Resolution phase, rulebook p.9, as a pure function: decide against one snapshot, then apply.

    resolve(state, entries) -> (new_state, report)

Steps: 1 reveal, 2 bluffs and illegal tokens, 3 raids, 4 diplomacy, 5 battles (with successful
defense, p.10), 6 claim territories, 7 advance the round track.

Here the round is decided on plain facts (``report.Decisions``): which tokens stand, each token's
fate, who attacks, each battle's totals and winner, the board after. The report tells them, built
when first read (``report.RoundReport``): the arithmetic and the reasons are never decided twice.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from operator import attrgetter, eq

from ..model.entry import Entry
from ..model.errors import EntriesRefused, GameOver
from ..model.state import Control, GameState, Special, SpecialToken, territory_controller as controller_of
from ..model.tokens import FIGHTING_KINDS, PLACEMENTS_PER_ROUND, ROUNDS, Clan, Kind
from .inventory import after_round, check_placements, table_of
from .placement import is_kept_lion_bluff, judge, judge_placement, judge_site, placed_tokens, restricted_sites
from .report import ATTACK, DEFEND, LION_BLUFF_DEFENSE, NEITHER, Decisions, Fate, Fight, RoundReport, Standing

# Enum members read once: reading ``Kind.BLUFF`` goes through the enum's class, a cost paid per token
BLUFF, RAID, DIPLOMACY, SHINOBI = Kind.BLUFF, Kind.RAID, Kind.DIPLOMACY, Kind.SHINOBI
CRAB, CRANE, PHOENIX = Clan.CRAB, Clan.CRANE, Clan.PHOENIX
SCORCHED_EARTH, DEFENSE_BONUS = Special.SCORCHED, Special.DEFENSE
SCORCHED, PEACE = SpecialToken(Special.SCORCHED), SpecialToken(Special.PEACE)
(LION_BLUFF, BLUFF_BACK, ILLEGAL, RAID_TRIGGERED, RAID_NO_EFFECT, REMOVED_BY_RAID, PEACE_MADE, REMOVED_BY_DIPLOMACY) = (
    Fate.LION_BLUFF,
    Fate.BLUFF,
    Fate.ILLEGAL,
    Fate.RAID_TRIGGERED,
    Fate.RAID_NO_EFFECT,
    Fate.REMOVED_BY_RAID,
    Fate.PEACE,
    Fate.REMOVED_BY_DIPLOMACY,
)
_KEY = attrgetter("key")


def canonical(entries: Iterable[Entry]) -> list[Entry]:
    """The entries in their one order (``Entry.key``), equal entries made one object, so that a
    token's fate can be keyed by its id: entry order never matters (rulebook p.9, step 1)."""
    out = sorted(entries, key=_KEY)
    keys = list(map(_KEY, out))
    if any(map(eq, keys, keys[1:])):  # rare: a clan placed two equal tokens side by side
        for i in range(1, len(out)):
            if keys[i] == keys[i - 1]:
                out[i] = out[i - 1]
    return out


def resolve(state: GameState, entries: Iterable[Entry], *, checked: bool = False) -> tuple[GameState, RoundReport]:
    """Resolve one round. Entry order never matters; ``state`` is never changed.

    Physically impossible entries raise ``EntriesRefused`` (R-08) unless the caller has already
    checked them (``checked=True``, with its own inventory). A sixth round raises ``GameOver``
    (p.10, R-27a), checked or not.
    """
    if state.round > ROUNDS:
        raise GameOver(state.round)
    entries = canonical(entries)  # step 1: every token is revealed at once
    if not checked:
        refusals = check_placements(state, entries)  # R-08, against the token inventory and the round's cards
        if refusals:
            raise EntriesRefused(refusals, state.round)
    d = Decisions(state, entries)
    live, raids, diplomacy, shinobi = _step2_discard(state, entries, d)
    attacked_after_step2 = {e.province for e, role in live if role is ATTACK}
    scorched = _step3_raids(state, raids, shinobi, d)
    peace = _step4_diplomacy([e for e in diplomacy if e.province not in scorched], d)
    if raids or diplomacy:
        live = _removed_by_raids_and_diplomacy(live, scorched, peace, d)
    d.standing = live
    captured, fought, defended = _step5_battles(state, live, d)
    _successful_defense(state, captured, fought, defended, scorched, d.peace, attacked_after_step2, d)
    control, special = _apply(state, scorched, d.peace, captured, d)
    d.warnings[:0] = _ronin_notes(state, entries)
    cards_on_board, cards_held = _step6_claim(state, control, special, d)
    new_state = state.with_(  # step 7: the round track advances
        control=control,
        special=special,
        cards_on_board=cards_on_board,
        cards_held=cards_held,
        round=state.round + 1,
    )
    d.after = after_round(state, new_state, entries)  # R-08 discard piles
    return d.after, RoundReport(d)


# --- step 2 ---------------------------------------------------------------------------------------
def _step2_discard(
    state: GameState, entries: list[Entry], d: Decisions
) -> tuple[Standing, list[Entry], list[Entry], set[tuple[Clan, str]]]:
    """Rulebook p.9 step 2; R-04, R-09, R-10. Returns the tokens still on the board, each with its part
    in a battle, judged once on the snapshot (R-14, R-17a): it attacks, defends its own province (a
    kept Lion bluff too, R-04), or neither (raid, diplomacy). And, for steps 3 and 4, the raid and
    diplomacy tokens among them and the shinobi in a province's centre (clan, province).

    A blessing on a bluff, raid or diplomacy token is discarded (R-10); since only army, navy and
    shinobi strengths are ever counted, the token under it stays on the board and is judged alone.
    """
    live: Standing = []
    raids: list[Entry] = []
    diplomacy: list[Entry] = []
    shinobi: set[tuple[Clan, str]] = set()
    fates = d.fates
    control = state.control
    sites = restricted_sites(state)  # judge(): the special tokens around a token, then its own rules
    for e in entries:
        kind = e.token.kind
        if kind is BLUFF:
            if is_kept_lion_bluff(state, e):
                reason = (
                    f"Lion bluff defending {e.province}: stays for the battle "
                    f"(+{LION_BLUFF_DEFENSE}), then returns to hand"
                )
                fates[id(e)] = (LION_BLUFF, 2, reason, "R-04", bool(e.blessings))
                live.append((e, DEFEND))
            else:
                fates[id(e)] = (BLUFF_BACK, 2, "bluff: returned to its owner's hand (p.9)", None, bool(e.blessings))
            continue
        if sites and (e.province in sites or e.source in sites):
            illegal = judge_site(state, e) or judge_placement(state, e)
        else:
            illegal = judge_placement(state, e)
        if illegal:
            fates[id(e)] = (ILLEGAL, 2, illegal.reason, illegal.ruling, bool(e.blessings))
        elif kind in FIGHTING_KINDS:
            here = control.get(e.province)
            defends = e.source is None and here is not None and here.clan == e.clan
            live.append((e, DEFEND if defends else ATTACK))
            if kind is SHINOBI and e.source is None:
                shinobi.add((e.clan, e.province))
        else:
            live.append((e, NEITHER))
            (raids if kind is RAID else diplomacy).append(e)
    return live, raids, diplomacy, shinobi


def attacks(state: GameState, e: Entry) -> bool:
    """An army, navy or shinobi attacking ``e.province`` (R-14, R-17a)."""
    return e.token.kind in FIGHTING_KINDS and (e.source is not None or not state.controls(e.clan, e.province))


# --- step 3 ---------------------------------------------------------------------------------------
def _step3_raids(state: GameState, raids: list[Entry], shinobi: set[tuple[Clan, str]], d: Decisions) -> set[str]:
    """Rulebook p.8-9 step 3; R-12: every raid is judged on one snapshot taken now. Returns the
    provinces scorched (the tokens there leave the board: ``_removed_by_raids_and_diplomacy``)."""
    scorched: set[str] = set()
    if not raids:
        return scorched
    neighbours = state.board.neighbours
    for e in raids:
        p, clan = e.province, e.clan
        if (clan, p) in shinobi:
            why = f"{clan} shinobi in {p}"
        else:
            near = sorted(n for n in neighbours[p] if state.controls(clan, n))
            why = f"{clan} controls adjacent {', '.join(near)}" if near else ""
        if why:
            d.raids.append((p, clan, True, why))
            if p in scorched:
                reason = f"{p} is already scorched by another raid this step: no further effect"
                d.fates[id(e)] = (RAID_NO_EFFECT, 3, reason, "R-12", bool(e.blessings))
            else:
                scorched.add(p)
                reason = f"raid triggered ({why}): {p} is scorched earth"
                d.fates[id(e)] = (RAID_TRIGGERED, 3, reason, "R-12", bool(e.blessings))
        else:
            why = f"no {clan} shinobi in {p} and no adjacent province controlled by {clan} (p.8)"
            d.raids.append((p, clan, False, why))
            d.fates[id(e)] = (RAID_NO_EFFECT, 3, f"raid did not trigger: {why}", "R-12", bool(e.blessings))
    return scorched


# --- step 4 ---------------------------------------------------------------------------------------
def _step4_diplomacy(diplomacy: list[Entry], d: Decisions) -> set[str]:
    """Rulebook p.9 step 4; R-13. ``diplomacy``: the diplomacy tokens still on the board (one in a
    province raided this round was removed in step 3). Returns the provinces made peaceful."""
    peace = d.peace
    for e in diplomacy:
        p = e.province
        why = f"{p} already made peaceful this step" if p in peace else f"peace in {p}"
        peace.add(p)
        d.fates[id(e)] = (PEACE_MADE, 4, why, "R-13", bool(e.blessings))
    return peace


def _removed_by_raids_and_diplomacy(live: Standing, scorched: set[str], peace: set[str], d: Decisions) -> Standing:
    """The board after steps 3 and 4 (p.9), in one pass: raid and diplomacy tokens leave it; every
    token in a scorched province or on its borders was discarded in step 3 (R-12), and of the rest,
    every token in a province made peaceful or on its borders in step 4 (R-13). Returns what stays."""
    survivors = []
    for t in live:
        e = t[0]
        kind = e.token.kind
        if kind is RAID or (kind is DIPLOMACY and e.province not in scorched):
            continue  # judged in its own step
        if e.province in scorched or e.source in scorched:
            _discard(e, scorched, REMOVED_BY_RAID, 3, "the raid on", "R-12", d)
        elif e.province in peace or e.source in peace:
            _discard(e, peace, REMOVED_BY_DIPLOMACY, 4, "the diplomacy in", "R-13", d)
        else:
            survivors.append(t)
    return survivors


def _discard(e: Entry, provinces: set[str], fate: Fate, step: int, by: str, ruling: str, d: Decisions) -> None:
    p, source = e.province, e.source
    hit = p if p in provinces and (source not in provinces or p < source) else source  # the first by name
    back = "; a bluff returns to its owner's hand (p.9)" if e.token.kind is BLUFF else ""
    discarded = bool(e.blessings) and e.token.kind not in FIGHTING_KINDS
    d.fates[id(e)] = (fate, step, f"discarded by {by} {hit}{back}", ruling, discarded)


# --- step 5 ---------------------------------------------------------------------------------------
def defence_bonus(state: GameState, province: str) -> int:
    """Printed defense, faceup control tokens (R-01: the Crab's count more), defense bonus token (R-14,
    p.10); ``report.defence_bonuses`` lists the same values."""
    total = state.board.printed_defense[province]
    control = state.control.get(province)
    if control is not None and control.faceup:
        total += control.faceup * (state.options.crab_faceup_bonus if control.clan == CRAB else 1)
    special = state.special.get(province)
    if special is not None and special.kind == DEFENSE_BONUS:
        total += special.value
    return total


def _step5_battles(
    state: GameState, live: Standing, d: Decisions
) -> tuple[dict[str, Clan], Collection[str], Collection[str]]:
    """Rulebook p.9 step 5; R-14..R-16, R-02, R-05. Every battle is judged on one snapshot: each
    attacker's strength against the defence, the defending tokens' strength added to the province's
    own (``defence_bonus``). Returns the provinces captured (with their captor), fought over, and
    defended by a standing token."""
    attack: dict[str, dict[Clan, int]] = {}
    defending: dict[str, int] = {}
    for e, role in live:
        p = e.province
        if role is ATTACK:
            totals = attack.get(p)
            if totals is None:
                attack[p] = {e.clan: e.strength}
            else:
                totals[e.clan] = totals.get(e.clan, 0) + e.strength
        elif role is DEFEND:
            defending[p] = defending.get(p, 0) + (LION_BLUFF_DEFENSE if e.token.kind is BLUFF else e.strength)
    captured: dict[str, Clan] = {}
    fights = d.fights
    for p in sorted(attack):
        fight = _battle(state, p, attack[p], defending.get(p, 0) + defence_bonus(state, p))
        fights.append(fight)
        winner = fight.winner
        if winner is not None:
            captured[p] = winner
    return captured, attack.keys(), defending.keys()


def _battle(state: GameState, p: str, totals: dict[Clan, int], defence: int) -> Fight:
    """R-14: each attacker's strength against the defence; R-05: the Phoenix ignores a capital's printed
    defense; R-15: the winner beats the defence and every other attacker; R-02: the Crane wins ties."""
    against = dict.fromkeys(totals, defence)
    if PHOENIX in totals and p in state.board.capitals:
        against[PHOENIX] = defence - state.board.printed_defense[p]
    holder = state.control.get(p)
    defender = holder.clan if holder is not None else None
    return Fight(p, totals, against, defender, _winner(totals, against))


def _winner(totals: dict[Clan, int], against: dict[Clan, int]) -> Clan | None:
    """R-15: strictly above the defence and every other attacker; R-02: the Crane wins its ties."""
    if len(totals) == 1:  # the usual battle: one attacker
        for clan, t in totals.items():
            d = against[clan]
            return clan if t > d or (t == d and clan is CRANE) else None
    for clan, t in totals.items():
        crane = clan is CRANE
        d = against[clan]
        if (t > d or (crane and t == d)) and all(
            t > o or (crane and t == o) for c, o in totals.items() if c is not clan
        ):
            return clan
    return None


# --- successful defense (p.10) ----------------------------------------------------------------------
def _successful_defense(
    state: GameState,
    captured: dict[str, Clan],
    fought: Collection[str],
    defended: Collection[str],
    scorched: set[str],
    peace: set[str],
    attacked_after_step2: set[str],
    d: Decisions,
) -> None:
    """R-17: one faceup control token for a province not captured, scorched or made peaceful, that
    (a) kept a surviving defending army/navy/shinobi (or Lion bluff), or (b) was attacked after step 2.
    R-17b: with the option on, also a province whose attack a card took off the board during placement."""
    cancelled = state.options.defense_on_cancelled_attack
    taken_off = _attacks_taken_off(state)
    # Only a province defended, fought over or attacked can show a successful defense (every battle's
    # province was attacked after step 2): those are looked at, by name, not every controlled province.
    candidates = {*defended, *(attacked_after_step2 if cancelled else fought), *taken_off}
    control = state.control
    for p in sorted(candidates):
        c = control.get(p)
        if c is None or p in captured or p in scorched or p in peace:
            continue
        if p in fought:
            why = None  # the battle's
        elif p in defended and p in attacked_after_step2:
            why = "defending token(s) in place; the attack on it was removed by a raid or diplomacy (p.10)"
        elif p in defended:
            why = "defending token(s) in place and no attack (p.10)"
        elif p in attacked_after_step2 and cancelled:
            why = "an attack on it failed: the attacking tokens were removed by a raid or diplomacy (p.10)"
        elif p in taken_off:
            why = (
                "an attack on it failed: a card took the attacking token off the board during placement "
                "(R-17b, option defense_on_discarded_attack)"
            )
        else:
            continue
        d.defenses.append((p, c.clan, why))


def _attacks_taken_off(state: GameState) -> frozenset[str]:
    """R-17b: with ``defense_on_discarded_attack`` on, the provinces that a legal army, navy or shinobi
    attacked before a card (shugenja, Dark Favors, Purge the Weak, the first player card) took it off
    the board during placement. Off (the default), such a token never reached resolution: no attack."""
    if not state.options.defense_on_discarded_attack:
        return frozenset()
    return frozenset(e.province for e, _ in table_of(state).taken_off if judge(state, e) is None and attacks(state, e))


def _ronin_notes(state: GameState, entries: list[Entry]) -> list[str]:
    """R-11a: a ronin places at most its number of tokens; fewer are accepted, and the report says so."""
    notes: list[str] = []
    if not state.ronin:
        return notes
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
    state: GameState, scorched: set[str], peace: set[str], captured: dict[str, Clan], d: Decisions
) -> tuple[dict[str, Control], dict[str, SpecialToken]]:
    """The board after every outcome at once: control tokens and special tokens, and any shortage (R-26)."""
    control = dict(state.control)
    special = dict(state.special)
    for p in scorched:  # control tokens removed, scorched earth placed (replaces any non-peace token, R-19)
        control.pop(p, None)
        special[p] = SCORCHED
    for p in peace:  # R-13; R-19
        special[p] = PEACE
    placing: dict[Clan, int] = {}
    for clan in captured.values():
        placing[clan] = placing.get(clan, 0) + 1
    for _, clan, _ in d.defenses:
        placing[clan] = placing.get(clan, 0) + 1
    short = _short_of_control_tokens(state, control, captured, placing, d) if placing else set()
    fresh: dict[Clan, Control] = {}  # a captured province gets one facedown token (equal values: one object)
    for p, clan in captured.items():
        if clan in short:
            control.pop(p, None)
        else:
            control[p] = fresh.get(clan) or fresh.setdefault(clan, Control(clan, 1, 0))
    for p, clan, _ in d.defenses:
        if clan not in short:
            c = control[p]
            control[p] = Control(clan, c.facedown, c.faceup + 1)
    return control, special


def _short_of_control_tokens(
    state: GameState, control: dict[str, Control], captured: dict[str, Clan], placing: dict[Clan, int], d: Decisions
) -> set[Clan]:
    """R-26: a clan placing more control tokens than its supply holds; with ``control_supply_limit`` on,
    it places none this round."""
    on_board = dict.fromkeys(placing, 0)  # control tokens staying on the board, of each clan placing
    for c in control.values():
        n = on_board.get(c.clan)
        if n is not None:
            on_board[c.clan] = n + c.facedown + c.faceup
    for q in captured:  # a captured province's tokens leave the board
        lost = control.get(q)
        if lost is not None and lost.clan in on_board:
            on_board[lost.clan] -= lost.facedown + lost.faceup
    short: set[Clan] = set()
    clans = state.board.clans
    for clan, n in sorted(placing.items()):
        supply = clans[clan].control_tokens - on_board[clan]
        if n <= supply:
            continue
        if state.options.control_supply_limit:
            short.add(clan)
            d.warnings.append(
                f"{clan} has {max(supply, 0)} control token(s) left for {n} placements: none "
                "placed (R-26, control_supply_limit on)"
            )
        else:
            d.warnings.append(
                f"{clan} has {max(supply, 0)} control token(s) left for {n} placements: use substitute markers (R-26)"
            )
    return short


# --- step 6 ---------------------------------------------------------------------------------------
def _step6_claim(
    state: GameState, control: dict[str, Control], special: dict[str, SpecialToken], d: Decisions
) -> tuple[dict[str, str | None], dict[Clan, tuple[tuple[str, str | None], ...]]]:
    """Rulebook p.9 step 6, p.11; R-18. Lost territories' unplayed cards go back first, then claims.

    Judged on the board after the battles (``control``, ``special``)."""
    provinces = state.board.territory_provinces
    claims = d.claims
    held = {c: list(v) for c, v in state.cards_held.items()}
    on_board = dict(state.cards_on_board)
    for clan in sorted(held):
        kept = []
        for territory, card in held[clan]:
            if controller_of(provinces[territory], control, special) == clan:
                kept.append((territory, card))
            else:
                on_board[territory] = card
                claims.append((clan, territory, card, "returned"))
        held[clan] = kept
    for territory in sorted(on_board):
        owner = controller_of(provinces[territory], control, special)
        if owner is not None:
            card = on_board.pop(territory)
            held.setdefault(owner, []).append((territory, card))
            claims.append((owner, territory, card, "claimed"))
    return on_board, {c: tuple(v) for c, v in held.items() if v}
