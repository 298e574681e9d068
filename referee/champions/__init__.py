"""Champions of Rokugan: the scenario tracker's rules (setup, the turn and its actions, the table's reports,
the end of the game) and the campaign. Pure: no I/O, clock or randomness; it never imports the Battle for
Rokugan engine, nor the engine it (pyproject.toml's import contracts)."""

from .campaign import Campaign, CampaignResult, Play, add_play, end_campaign, log_line, new_campaign
from .entry import check_after_end, check_can_end, check_form, check_reported
from .model import (
    OPTIONS,
    ChampionCard,
    ChampionsError,
    Note,
    Objective,
    Options,
    Outcome,
    Scenario,
    Setup,
    Status,
    ThresholdGlory,
    Timing,
)
from .notation import format_event, format_setup, parse_line, parse_setup, public_line
from .objectives import shown as shown_objectives
from .rules import Ending, Line, apply, apply_all, check_new_setup, end, set_up, setup_notes
from .turn import end_of_report

__all__ = [
    "OPTIONS",
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
    "check_after_end",
    "check_can_end",
    "check_form",
    "check_new_setup",
    "check_reported",
    "end",
    "end_campaign",
    "end_of_report",
    "format_event",
    "format_setup",
    "log_line",
    "new_campaign",
    "parse_line",
    "parse_setup",
    "public_line",
    "set_up",
    "setup_notes",
    "shown_objectives",
]
