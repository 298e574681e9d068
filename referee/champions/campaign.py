"""The campaign (p.32, CR-09..CR-13): the Campaign Log after each scenario, replaying a lost scenario or
moving on, and at the end who chooses the ending."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import ChampionsError
from .rules import Ending


@dataclass(frozen=True)
class Play:
    """One line of the Campaign Log (p.32): one play of a scenario."""

    game: str  # the scenario's own record
    scenario: str
    victory: bool
    difference: int  # CR-13: Group Honor minus the Threshold
    glory: tuple[tuple[str, int], ...]  # each player's Glory, a negative score logged as 0 (p.32, CR-06)
    glorified: tuple[str, ...]  # the Glorified players (CR-09), after a victory and after a defeat alike
    intermission: tuple[str, ...]  # the players who draw an Intermission card: Glorified, after a victory (p.32, CR-10)


def log_line(game: str, ending: Ending) -> Play:
    """The Campaign Log's line for a scenario that has ended (p.32): each player's Champion's Glory, never a
    Companion's (CH-19)."""
    players = [(c.card.player, c.name) for c in ending.scenario.champions if not c.card.companion]
    glory = tuple((player, max(0, ending.final_glory(name))) for player, name in players)
    by_name = {c.name: c.card.player for c in ending.scenario.champions}
    glorified = tuple(by_name[n] for n in ending.glorified)
    return Play(
        game=game,
        scenario=ending.scenario.setup.scenario,
        victory=ending.victory,
        difference=ending.difference,
        glory=glory,
        glorified=glorified,
        intermission=glorified if ending.victory else (),
    )


@dataclass(frozen=True)
class Campaign:
    name: str
    players: tuple[str, ...]
    plays: tuple[Play, ...] = ()
    ended: bool = False

    def counted(self) -> tuple[Play, ...]:
        """CR-12: every play is logged; only the last play of each scenario counts."""
        last: dict[str, Play] = {}
        for p in self.plays:
            last.pop(p.scenario, None)
            last[p.scenario] = p
        return tuple(last.values())

    def totals(self) -> tuple[tuple[str, int], ...]:
        """Each player's Glory accumulated across the scenarios (p.32), their last plays only (CR-12)."""
        total = dict.fromkeys(self.players, 0)
        for p in self.counted():
            for player, g in p.glory:
                total[player] += g
        return tuple(total.items())


def new_campaign(name: str, players: tuple[str, ...]) -> Campaign:
    if not players:
        raise ChampionsError("a campaign has at least one player", "p.32")
    folded = [p.casefold() for p in players]
    if len(set(folded)) != len(folded):
        raise ChampionsError(f"a player named twice in {', '.join(players)}", "p.32")
    return Campaign(name, players)


def add_play(campaign: Campaign, play: Play) -> Campaign:
    """Log a scenario's play. After a defeat the table replays that scenario or moves on (p.32); a won
    scenario is not played again, and only the scenario just lost may be replayed."""
    if campaign.ended:
        raise ChampionsError(f"campaign {campaign.name} has ended", "p.32")
    if any(p.game == play.game for p in campaign.plays):
        raise ChampionsError(f"scenario record {play.game} is already in the Campaign Log", "p.32")
    unknown = [player for player, _ in play.glory if player not in campaign.players]
    if unknown:
        raise ChampionsError(
            f"{', '.join(repr(u) for u in unknown)} not among the campaign's players ({', '.join(campaign.players)})",
            "p.32",
        )
    earlier = [p for p in campaign.plays if p.scenario == play.scenario]
    if earlier:
        last = campaign.plays[-1]
        if earlier[-1].victory:
            raise ChampionsError(f"{play.scenario} was won: a campaign replays only a scenario lost", "p.32")
        if last.scenario != play.scenario:
            raise ChampionsError(
                f"{play.scenario} was lost before {last.scenario}: the table replays a lost scenario or moves on",
                "p.32",
            )
    return replace(campaign, plays=(*campaign.plays, play))


@dataclass(frozen=True)
class CampaignResult:
    totals: tuple[tuple[str, int], ...]
    choosers: tuple[str, ...]  # the most Glory: chooses a Clan's ending; ties each apply one (p.32)


def end_campaign(campaign: Campaign) -> tuple[Campaign, CampaignResult]:
    if campaign.ended:
        raise ChampionsError(f"campaign {campaign.name} has already ended", "p.32")
    if not campaign.plays:
        raise ChampionsError(f"campaign {campaign.name} has no scenario logged", "p.32")
    totals = campaign.totals()
    best = max(g for _, g in totals)
    return replace(campaign, ended=True), CampaignResult(totals, tuple(p for p, g in totals if g == best))
