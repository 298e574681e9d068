"""Duel resolution (glossary: duel, duelist): who has the first option to focus or strike, the focusing in
turns that the focused cards show, and the totals: each player totals the Focus Values of his or her
focused cards and adds the Personality's duel stat (Chi unless another stat is given); the higher total
wins; equal totals are a tie, and both players lose (and take the loser's consequences).

The moderator enters each side's focused Focus Values in the order they were focused (``hand`` marks the
one card a player may focus from the hand instead of the focus pool). The challenged player has the first
option (step 2), unless the Duelist exception gives it to a Duelist challenger facing a non-Duelist with an
equal or higher duel stat, who must then focus. The players take turns focusing until one strikes, so the
numbers of focused cards tell the whole order: the first to act focused as many cards as the other or one
more, and the referee says who struck. A duel stat or Focus Value that effects take below 0 is 0 (C-08).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Refused

POOL = 3  # step 1: "the top three cards of his or her Fate deck"
FOCUS_LIMIT = POOL + 1  # step 2: "one card per duel from his or her hand instead of focus pool"
OUTCOMES = ("destroyed", "dishonored", "bowed", "chi", "honor")


@dataclass(frozen=True, slots=True)
class Duelist:
    player: str
    title: str
    stat: int  # the duel stat's value, as entered
    focus: tuple[int, ...] = ()  # the Focus Values of the cards focused, in the order focused
    hand: int | None = None  # which of them (its place in ``focus``) was focused from the hand
    duelist: bool = False  # the Duelist keyword
    dishonorable: int | None = None  # dishonorable: his base Personal Honor (-1: the one the match knows)
    chi: int | None = None  # his Chi, when the duel stat is another (for a consequence on Chi)

    @property
    def total(self) -> int:
        """The duel stat and the Focus Values, each at least 0 (C-08)."""
        return max(self.stat, 0) + sum(max(v, 0) for v in self.focus)

    def floored(self, stat: str) -> list[tuple[str, int]]:
        out = [(f"{self.title}'s {stat}", self.stat)] if self.stat < 0 else []
        return out + [(f"{self.player}'s Focus Value", v) for v in self.focus if v < 0]

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "personality": self.title,
            "stat": self.stat,
            "focus": list(self.focus),
            "from_hand": self.hand,
            "duelist": self.duelist,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Consequence:
    """What the duel's effect does to its loser (or winner): destroyed, dishonored, bowed, a Chi penalty
    (``amount``: -3 for -3C), or Honor to his controller (``amount``: +2, -2)."""

    who: str  # "loser" or "winner"
    what: str  # one of OUTCOMES
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    player: str
    act: str  # "focuses", "focuses from the hand", "strikes"
    value: int | None = None

    def __str__(self) -> str:
        return f"{self.player} {self.act}" + (f" {self.value}" if self.value is not None else "")

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "act": self.act, "focus_value": self.value}


@dataclass(frozen=True, slots=True)
class DuelOutcome:
    stat: str
    challenger: Duelist
    challenged: Duelist
    winner: str | None  # the winning player; None: a tie, both lose
    first: str = ""  # who had the first option to focus or strike
    why_first: str = ""  # "the challenged" or "the Duelist challenger"
    steps: tuple[Step, ...] = ()  # the focusing in turns and the strike, as the cards show it
    floored: tuple[tuple[str, int], ...] = ()

    @property
    def losers(self) -> tuple[str, ...]:
        if self.winner is None:
            return (self.challenger.player, self.challenged.player)
        loser = self.challenged if self.winner == self.challenger.player else self.challenger
        return (loser.player,)

    @property
    def struck(self) -> str:
        return self.steps[-1].player if self.steps else ""

    def losing(self) -> tuple[Duelist, ...]:
        return tuple(d for d in (self.challenger, self.challenged) if d.player in self.losers)

    def winning(self) -> Duelist | None:
        return next((d for d in (self.challenger, self.challenged) if d.player == self.winner), None)

    def to_dict(self) -> dict[str, object]:
        return {
            "stat": self.stat,
            "challenger": self.challenger.to_dict(),
            "challenged": self.challenged.to_dict(),
            "first": self.first,
            "first_because": self.why_first,
            "order": [s.to_dict() for s in self.steps],
            "struck": self.struck,
            "winner": self.winner,
            "losers": list(self.losers),
            "floored": [{"value": what, "entered": v, "now": 0} for what, v in self.floored],
        }


def resolve_duel(challenger: Duelist, challenged: Duelist, *, stat: str = "chi", ordered: bool = True) -> DuelOutcome:
    """The duel's order (when ``ordered``: a match recorded by the first rules took the focused cards as a
    set) and its resolution."""
    if challenger.player.lower() == challenged.player.lower():
        raise Refused(
            f"{challenger.title} and {challenged.title} are both {challenger.player}'s: a challenge is between "
            "Personalities of different players",
            "challenge",
        )
    for d in (challenger, challenged):
        pool = len(d.focus) - (d.hand is not None)
        if len(d.focus) > FOCUS_LIMIT or pool > POOL:
            raise Refused(
                f"{d.player} focused {len(d.focus)} cards"
                + (f", {pool} from the focus pool" if d.hand is not None else "")
                + f": at most the {POOL} of the focus pool and one from the hand",
                "duel",
            )
    first, why, steps = _order(challenger, challenged) if ordered else ("", "", ())
    floored = tuple(challenger.floored(stat) + challenged.floored(stat))
    if challenger.total == challenged.total:
        winner = None
    else:
        winner = (challenger if challenger.total > challenged.total else challenged).player
    return DuelOutcome(stat, challenger, challenged, winner, first, why, steps, floored)


def duelist_goes_first(challenger: Duelist, challenged: Duelist) -> bool:
    """glossary: duelist: a Duelist challenger facing a non-Duelist with an equal or higher duel stat gains
    the first chance to focus."""
    return challenger.duelist and not challenged.duelist and max(challenged.stat, 0) >= max(challenger.stat, 0)


def _order(challenger: Duelist, challenged: Duelist) -> tuple[str, str, tuple[Step, ...]]:
    """Step 2: who acted first, and the turns the numbers of focused cards show (refused when they cannot)."""
    if duelist_goes_first(challenger, challenged):
        first, second, why = challenger, challenged, "the Duelist challenger"
        if not first.focus:
            raise Refused(
                f"{first.title} is a Duelist challenging a non-Duelist with an equal or higher duel stat: he has "
                f"the first chance to focus and must use it (focus at least one card), not strike",
                "duelist",
            )
    else:
        first, second, why = challenged, challenger, "the challenged"
    nf, ns = len(first.focus), len(second.focus)
    rule = "duelist" if why == "the Duelist challenger" else "duel"
    if ns > nf:
        raise Refused(
            f"{first.player} ({why}) has the first option to focus or strike, and the players focus in turns "
            f"until one strikes: {second.player} cannot have focused more cards than {first.player} ({ns} to {nf})",
            rule,
        )
    if nf > ns + 1:
        raise Refused(
            f"{first.player} ({why}) focused {nf} cards to {second.player}'s {ns}: the players focus in turns "
            f"until one strikes, so {first.player} focuses at most one card more than {second.player}",
            rule,
        )
    steps: list[Step] = []
    for k in range(max(nf, ns)):
        for d, n in ((first, nf), (second, ns)):
            if k < n:
                steps.append(Step(d.player, "focuses from the hand" if d.hand == k else "focuses", d.focus[k]))
    steps.append(Step((first if nf == ns else second).player, "strikes"))
    return first.player, why, tuple(steps)
