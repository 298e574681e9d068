"""The Legend of the Five Rings collectible card game (the 2010 "Celestial" rulebook): its card-independent
rules as a pure package: a match between two players, battle and duel resolution, Family Honor and the
four victory conditions, deck legality, and the one-line-per-event notation. The moderator enters what
the cards did; the package applies the rulebook. No I/O, clock or randomness (pyproject.toml's contracts).
"""

from .battle import Army, BattleOutcome, Card, Decision, Unit, resolve_battle
from .deck import DeckReport, check_deck, parse_decklist
from .duel import Duelist, DuelOutcome, resolve_duel
from .match import (
    BattleFought,
    DuelFought,
    Event,
    HonorChange,
    HonorChanged,
    Outcome,
    PhaseEntered,
    ProvinceLost,
    RingEntered,
    RingLeft,
    TurnPassed,
    apply,
    enlightened,
    new_match,
)
from .model import CcgError, Match, NotUnderstood, Phase, Player, Refused, Result, Victory
from .notation import format_event, format_player, parse_event, parse_player
from .rules import RULEBOOK, cite

__all__ = [
    "RULEBOOK",
    "Army",
    "BattleFought",
    "BattleOutcome",
    "Card",
    "CcgError",
    "DeckReport",
    "Decision",
    "DuelFought",
    "DuelOutcome",
    "Duelist",
    "Event",
    "HonorChange",
    "HonorChanged",
    "Match",
    "NotUnderstood",
    "Outcome",
    "Phase",
    "PhaseEntered",
    "Player",
    "ProvinceLost",
    "Refused",
    "Result",
    "RingEntered",
    "RingLeft",
    "TurnPassed",
    "Unit",
    "Victory",
    "apply",
    "check_deck",
    "cite",
    "enlightened",
    "format_event",
    "format_player",
    "new_match",
    "parse_decklist",
    "parse_event",
    "parse_player",
    "resolve_battle",
    "resolve_duel",
]
