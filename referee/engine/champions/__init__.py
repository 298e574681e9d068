"""Champions of Rokugan: the scenario tracker's rules (setup, the table's reports, the end of the game)
and the campaign. Pure: no I/O, clock or randomness; it never imports the Battle for Rokugan engine,
nor the engine it (pyproject.toml's import contracts)."""

from .campaign import Campaign, CampaignResult, Play, add_play, end_campaign, log_line, new_campaign
from .model import ChampionCard, ChampionsError, Objective, Options, Scenario, Setup, Status, ThresholdGlory, Timing
from .notation import format_event, format_setup, parse_line, parse_setup
from .rules import Ending, Line, Note, Outcome, apply, apply_all, check_reported, end, set_up

__all__ = [
    "Campaign",
    "CampaignResult",
    "ChampionCard",
    "ChampionsError",
    "Ending",
    "Line",
    "Note",
    "Objective",
    "Options",
    "Outcome",
    "Play",
    "Scenario",
    "Setup",
    "Status",
    "ThresholdGlory",
    "Timing",
    "add_play",
    "apply",
    "apply_all",
    "check_reported",
    "end",
    "end_campaign",
    "format_event",
    "format_setup",
    "log_line",
    "new_campaign",
    "parse_line",
    "parse_setup",
    "set_up",
]
