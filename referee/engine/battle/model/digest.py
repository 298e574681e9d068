"""Canonical form and digest of a game state: what a round's seal code is computed from."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ....core.canonical import canonical_json
from .state import GameState
from .tokens import Token


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Everything that decides later play, in a canonical, JSON-ready form: plain values, the keys sorted
    within each part (what ``state_digest`` covers, as ``referee board --json`` shows it).

    What the table events track (first player, initiative deck, token inventory, cards used, the
    round's card effects) appears only once recorded, so a game without table events keeps the
    digests it always had. The rules options and the board data version are not part of it: they are
    fixed for a game and sealed in its first event, so adding an option does not change old digests.
    """
    return {name: json.loads(canonical_json(part)) for name, part in _base(state).items()} | _table(state)


def digest_parts(state: GameState) -> dict[str, Any]:
    """What ``state_digest`` encodes: ``state_to_dict``'s content, the board's parts as the state holds them."""
    return _base(state) | _table(state)


def _base(state: GameState) -> dict[str, Any]:
    """The board's parts as the state holds them: clans as ``Clan`` (a ``str``), pairs as tuples, mappings in
    any order. Canonical JSON writes them as ``state_to_dict`` has them (keys sorted, a ``Clan`` as its name),
    so the digest needs neither the sorting nor the conversion; lists are sorted here."""
    return {
        "round": state.round,
        "clans": state.clans,
        "control": {p: (c.clan, c.facedown, c.faceup) for p, c in state.control.items()},
        "special": {p: (s.kind, s.value) for p, s in state.special.items()},
        "cards_on_board": state.cards_on_board,
        "cards_held": {c: v for c, v in state.cards_held.items() if v},
        "cards_played": sorted(state.cards_played),
        "ronin": sorted(state.ronin),
        "objectives": state.objectives,
    }


def state_digest(state: GameState) -> str:
    return hashlib.sha256(canonical_json(digest_parts(state)).encode()).hexdigest()


def _token(t: Token) -> str:
    return str(t)


def _table(state: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.first_player is not None:
        out["first_player"] = str(state.first_player)
    if state.initiative is not None:
        i = state.initiative
        out["initiative"] = {"clans": sorted(map(str, i.clans)), "neutrals": i.neutrals, "revealed": list(i.revealed)}
    if state.inventory is not None:
        out["inventory"] = {
            str(c): {
                "discard": [[_token(d.token), d.round, d.why] for d in inv.discard],
                "hand": sorted(map(_token, inv.hand)),
                "hand_complete": inv.hand_complete,
            }
            for c, inv in sorted(state.inventory.items())
        }
    if state.cards_left.scouts_used or state.cards_left.shugenja_used:
        out["cards_left"] = {
            "scouts_used": [[str(c), n] for c, n in state.cards_left.scouts_used],
            "shugenja_used": sorted(map(str, state.cards_left.shugenja_used)),
        }
    t = state.table
    if t is not None and t.events:
        out["table"] = {
            "round": t.round,
            "events": t.events,
            "revealed": t.revealed,
            "dragon_returned": t.dragon_returned,
            "card_step": [t.card_step_started, t.card_turn, t.passes_in_row, t.card_step_over],
            "placement": t.placement,
            "swapped": t.swapped,
            "first_player_card_used": t.first_player_card_used,
            "peeked": t.peeked,
            "changes": [[str(c.clan), c.delta, c.why, c.certain] for c in t.changes],
            "bluff_out": [[str(c), why] for c, why in t.bluff_out],
            "animated": [str(e) for e in t.animated],
        }
        if t.pooled:  # only when present, so games without it keep their digests
            out["table"]["pooled"] = [[str(c), _token(tok), why] for c, tok, why in t.pooled]
        if t.taken_off:
            out["table"]["taken_off"] = [[str(e), by] for e, by in t.taken_off]
    return out
