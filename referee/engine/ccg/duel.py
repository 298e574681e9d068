"""Duel resolution (glossary: duel, step 4): each player totals the Focus Values of his or her focused
cards and adds the Personality's duel stat (Chi unless another stat is given); the higher total wins;
equal totals are a tie, and both players lose."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Refused

FOCUS_LIMIT = 4  # step 1: a focus pool of three cards; step 2: one card per duel may come from the hand


@dataclass(frozen=True, slots=True)
class Duelist:
    player: str
    title: str
    stat: int  # the duel stat's value, as entered
    focus: tuple[int, ...] = ()  # the Focus Values of the cards focused, as revealed

    @property
    def total(self) -> int:
        return self.stat + sum(self.focus)


@dataclass(frozen=True, slots=True)
class DuelOutcome:
    stat: str
    challenger: Duelist
    challenged: Duelist
    winner: str | None  # the winning player; None: a tie, both lose

    @property
    def losers(self) -> tuple[str, ...]:
        if self.winner is None:
            return (self.challenger.player, self.challenged.player)
        loser = self.challenged if self.winner == self.challenger.player else self.challenger
        return (loser.player,)

    def to_dict(self) -> dict[str, object]:
        return {
            "stat": self.stat,
            "challenger": {
                "player": self.challenger.player,
                "personality": self.challenger.title,
                "stat": self.challenger.stat,
                "focus": list(self.challenger.focus),
                "total": self.challenger.total,
            },
            "challenged": {
                "player": self.challenged.player,
                "personality": self.challenged.title,
                "stat": self.challenged.stat,
                "focus": list(self.challenged.focus),
                "total": self.challenged.total,
            },
            "winner": self.winner,
            "losers": list(self.losers),
        }


def resolve_duel(challenger: Duelist, challenged: Duelist, *, stat: str = "chi") -> DuelOutcome:
    if challenger.player.lower() == challenged.player.lower():
        raise Refused(
            f"{challenger.title} and {challenged.title} are both {challenger.player}'s: a challenge is between "
            "Personalities of different players",
            "duel",
        )
    for d in (challenger, challenged):
        if d.stat < 0 or any(v < 0 for v in d.focus):
            raise Refused(f"{d.title}: a negative {stat} or Focus Value; no stat goes below 0", "C-08")
        if len(d.focus) > FOCUS_LIMIT:
            raise Refused(
                f"{d.player} focused {len(d.focus)} cards: at most the three of the focus pool and one from the hand",
                "duel",
            )
    if challenger.total == challenged.total:
        return DuelOutcome(stat, challenger, challenged, None)
    won = challenger if challenger.total > challenged.total else challenged
    return DuelOutcome(stat, challenger, challenged, won.player)
