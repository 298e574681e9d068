"""A Champions of Rokugan campaign's log: its Campaign Log's lines, each read from an ended scenario's record
(with the head of that record when it was logged), folded with the rules package; the campaign's commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ... import __version__
from ...engine.champions import (
    Campaign,
    CampaignResult,
    ChampionsError,
    Play,
    add_play,
    end_campaign,
    log_line,
    new_campaign,
)
from ...store.events import Event, ReplayError, chain
from ...store.storage import Store
from .events import (
    C_CREATED,
    C_ENDED,
    C_LOGGED,
    CAMPAIGN_KIND,
    RETRACTED,
    ChampionsRefused,
    data,
    kind_of,
    refused,
    store_append,
)
from .scenario import fold_scenario, load_scenario


# --- a campaign ------------------------------------------------------------------------------------------
@dataclass
class CampaignFold:
    campaign: Campaign
    result: CampaignResult | None
    logged: list[tuple[int, Play, str, str]]  # seq, play, scenario game, its head when logged


def play_from(data: dict[str, Any]) -> Play:
    return Play(
        game=data["game"],
        scenario=data["scenario"],
        victory=data["victory"],
        difference=data["difference"],
        glory=tuple((p, g) for p, g in data["glory"]),
        glorified=tuple(data["glorified"]),
        intermission=tuple(data["intermission"]),
    )


def play_to(play: Play) -> dict[str, Any]:
    data = asdict(play)
    data["glory"] = [list(x) for x in play.glory]
    data["glorified"], data["intermission"] = list(play.glorified), list(play.intermission)
    return data


def fold_campaign(events: Sequence[Event]) -> CampaignFold:
    if kind_of(events) != CAMPAIGN_KIND:
        raise ReplayError(f"{events[0].game if events else '?'} is not a Champions of Rokugan campaign record")
    try:
        campaign = new_campaign(events[0].game, tuple(data(events[0])["players"]))
    except ChampionsError as exc:
        raise ReplayError(exc.message, seq=1) from None
    live: dict[int, Event] = {}
    ended: Event | None = None
    for e in events[1:]:
        if e.type == C_LOGGED:
            live[e.seq] = e
        elif e.type == RETRACTED:
            if data(e)["seq"] not in live:
                raise ReplayError(f"event {data(e)['seq']} is no logged scenario in effect", seq=e.seq)
            del live[data(e)["seq"]]
        elif e.type == C_ENDED:
            ended = e
        else:
            raise ReplayError(f"{e.type} has no place in a Champions campaign record", seq=e.seq)
    logged = []
    for seq, e in sorted(live.items()):
        try:
            play = play_from(data(e)["play"])
        except (TypeError, ValueError):
            raise ReplayError(
                "ChampionsCampaignLogged: its glory is not a list of [player, glory] pairs", seq=seq
            ) from None
        try:
            campaign = add_play(campaign, play)
        except ChampionsError as exc:
            raise ReplayError(exc.message, seq=seq) from None
        logged.append((seq, play, data(e)["scenario_game"], data(e)["scenario_head"]))
    result = None
    if ended is not None:
        try:
            campaign, result = end_campaign(campaign)
        except ChampionsError as exc:
            raise ReplayError(exc.message, seq=ended.seq) from None
    return CampaignFold(campaign, result, logged)


def load_campaign(store: Store, name: str) -> tuple[list[Event], CampaignFold]:
    events = store.events(name)
    if kind_of(events) != CAMPAIGN_KIND:
        raise ChampionsRefused(f"{name}: not a Champions of Rokugan campaign (`referee champions campaign new`)")
    return events, fold_campaign(events)


def create_campaign(store: Store, name: str, players: Sequence[str]) -> CampaignFold:
    try:
        new_campaign(name, tuple(players))
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"game": name, "kind": CAMPAIGN_KIND, "players": list(players), "referee_version": __version__}
    return fold_campaign(store_append(store, name, [(C_CREATED, payload)], None, CAMPAIGN_KIND))


def log_scenario(store: Store, name: str, game: str) -> tuple[CampaignFold, Play]:
    """The Campaign Log's line for an ended scenario (p.32), read from its record."""
    events, fold = load_campaign(store, name)
    s_events, s_fold = load_scenario(store, game)
    if s_fold.ending is None:
        raise ChampionsRefused(f"{game}: the scenario has not ended: `referee champions end {game}` first (p.32)")
    play = log_line(game, s_fold.ending)
    try:
        add_play(fold.campaign, play)
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"scenario_game": game, "scenario_head": s_events[-1].hash, "play": play_to(play)}
    new = store_append(store, name, [(C_LOGGED, payload)], events[-1], CAMPAIGN_KIND)
    return fold_campaign([*events, *new]), play


def finish_campaign(store: Store, name: str) -> CampaignFold:
    events, fold = load_campaign(store, name)
    try:
        _, result = end_campaign(fold.campaign)
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"choosers": list(result.choosers), "totals": dict(result.totals)}
    return fold_campaign([*events, *store_append(store, name, [(C_ENDED, payload)], events[-1], CAMPAIGN_KIND)])


def retract_logged(store: Store, name: str, seq: int, reason: str) -> CampaignFold:
    events, _ = load_campaign(store, name)
    target = next((e for e in events if e.seq == seq), None)
    if target is None or target.type != C_LOGGED:
        raise ChampionsRefused(f"{name}: event {seq} is no logged scenario")
    payload = {"seq": seq, "type": target.type, "reason": reason}
    try:
        fold_campaign([*events, chain(name, events[-1], RETRACTED, payload, version=1)])
    except ReplayError as exc:
        raise ChampionsRefused(f"{name}: refused, the log would not replay: {exc}") from None
    return fold_campaign([*events, *store_append(store, name, [(RETRACTED, payload)], events[-1], CAMPAIGN_KIND)])


def verify_campaign(fold: CampaignFold, store: Store | None) -> list[str]:
    problems = []
    for seq, play, game, head in fold.logged:
        if store is None or not store.exists(game):
            continue
        s_events = store.events(game)
        if s_events[-1].hash == head:
            continue
        s_fold = fold_scenario(s_events)
        if s_fold.ending is None or log_line(game, s_fold.ending) != play:
            problems.append(f"event {seq}: scenario {game} changed since it was logged: retract the line, log it again")
    return problems


class OpenCampaign:
    """A Champions campaign's record, read and folded once (``fold``): ``record`` a scenario's line in the
    Campaign Log, ``retract`` a logged line, as the other services do."""

    def __init__(self, store: Store, name: str):
        self.store, self.name = store, name
        self.events, self.fold = load_campaign(store, name)

    def record(self, game: str) -> Play:
        """The Campaign Log's line of the ended scenario ``game``, read from its record and logged."""
        self.fold, play = log_scenario(self.store, self.name, game)
        self.events = self.store.events(self.name)
        return play

    def retract(self, reason: str, seq: int | None = None) -> CampaignFold:
        """Take back logged line ``seq`` (None: the last in effect), as a new event."""
        if seq is None:
            if not self.fold.logged:
                raise ChampionsRefused(f"{self.name}: no logged scenario to take back")
            seq = self.fold.logged[-1][0]
        self.fold = retract_logged(self.store, self.name, seq, reason)
        self.events = self.store.events(self.name)
        return self.fold
