"""The Legend of the Five Rings collectible card game (the 2010 "Celestial" rulebook): its card-independent
rules as a pure package: a match between two players as a record of its turns (p.41) and their actions
(Lobby and the Imperial Favor, bringing Personalities in, seppuku, cards' actions and their effects),
battle and duel resolution, Family Honor and the four victory conditions, deck legality, and the
one-line-per-event notation. The moderator enters what happened at the table; the package applies the
rulebook and works out what follows. No I/O, clock or randomness (pyproject.toml's contracts).
"""

from .battle import Army, BattleOutcome, Card, Decision, Unit, resolve_battle
from .court import Described, Personality
from .deck import DeckProblem, DeckReport, check_deck, parse_decklist
from .duel import Consequence, Duelist, DuelOutcome, resolve_duel
from .errors import CcgError, NotUnderstood, Refused
from .match import (
    BattleFought,
    DuelFought,
    Event,
    HonorChanged,
    PhaseEntered,
    ProvinceLost,
    RingEntered,
    RingLeft,
    TurnPassed,
    apply,
    enlightened,
    new_match,
    play,
)
from .model import RULES, Match, Phase, Player, Result, Victory
from .notation import format_event, format_personality, format_player, parse_event, parse_personality, parse_player
from .options import OPTIONS, parse_options
from .outcome import Change, HonorChange, Outcome
from .rules import LINES, OWN_RULINGS, RULEBOOK, RULINGS, cite, cite_lines
from .setup import Midgame, describe_setup, start_midgame

__all__ = [
    "LINES",
    "OPTIONS",
    "OWN_RULINGS",
    "RULEBOOK",
    "RULES",
    "RULINGS",
    "Army",
    "BattleFought",
    "BattleOutcome",
    "Card",
    "CcgError",
    "Change",
    "Consequence",
    "DeckProblem",
    "DeckReport",
    "Decision",
    "Described",
    "DuelFought",
    "DuelOutcome",
    "Duelist",
    "Event",
    "HonorChange",
    "HonorChanged",
    "Match",
    "Midgame",
    "NotUnderstood",
    "Outcome",
    "Personality",
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
    "cite_lines",
    "describe_setup",
    "enlightened",
    "format_event",
    "format_personality",
    "format_player",
    "new_match",
    "parse_decklist",
    "parse_event",
    "parse_options",
    "parse_personality",
    "parse_player",
    "play",
    "resolve_battle",
    "resolve_duel",
    "start_midgame",
]
