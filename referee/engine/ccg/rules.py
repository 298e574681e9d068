"""Where each rule of the card game stands in the rulebook (the 2010 "Celestial" edition), by the ids
that the code, the casebook and the referee's messages cite.

The rulebook names a few of its own pages (Reading the Cards p.29, Turn Sequence p.41, When Can I Take
an Action? p.44, Deck Construction p.67, the glossary's experienced p.80 and perform p.87); the text
carries a page mark before p.49. Sections between those landmarks are cited by their heading and the
range of pages they must lie in; glossary entries by the entry's word. ``LINES`` gives each section's
lines in the rulebook's text edition (``l5r-ccg-rulebook.txt``), which the casebook's cases cite.

The referee's own rulings for the card game (``CT-xx``, ``referee/data/rulings-l5r-ccg.md``) decide what
the rulebook leaves open, beside the rulings of ``RULINGS-L5R-CCG.md`` (``C-xx``).
"""

from __future__ import annotations

# id -> how a message or a case cites it
RULEBOOK: dict[str, str] = {
    "personality": "pp.16-29 The Cards: Personality",
    "attachments": "pp.16-29 The Cards: Attachments",
    "stats": "p.29 Reading the Cards: Stats",
    "setting-up": "pp.30-40 Setting Up the Game",
    "going-first": "pp.30-40 Setting Up: Going first",
    "starting-holdings": "pp.30-40 Setting Up: Starting Holdings",
    "provinces": "pp.30-40 Setting Up: Provinces",
    "hand": "pp.30-40 Setting Up: The Hand",
    "imperial-favor": "pp.49-66 Imperial Favor",
    "turn-sequence": "p.41 The Turn Sequence",
    "straighten-phase": "p.41 Straighten Phase",
    "events-phase": "p.41 Events Phase",
    "action-phase": "p.44 When Can I Take an Action?",
    "action-conditions": "p.44 When Can I Take an Action?: Check Conditions",
    "pay-costs": "p.44 When Can I Take an Action?: Pay Costs",
    "action-resolution": "p.44 When Can I Take an Action?: Action Resolution",
    "traits": "p.44 Traits and Effects",
    "equip": "pp.49-66 Actions Available: Equip",
    "lobby": "pp.49-66 Actions Available: Lobby",
    "attack-phase": "pp.49-66 Attack Phase",
    "maneuvers": "pp.49-66 Attack Phase: Infantry and Cavalry Maneuvers",
    "combat": "pp.49-66 Battles: Combat Segment",
    "resolution": "pp.49-66 Battles: Resolution Segment",
    "dynasty-phase": "pp.49-66 Dynasty Phase",
    "end-phase": "pp.49-66 End Phase",
    "winning": "pp.49-66 Winning the Game",
    "deck-construction": "p.67 Deck Construction",
    "active-player": "glossary: active player",
    "challenge": "glossary: challenge",
    "duel": "glossary: duel",
    "duelist": "glossary: duelist",
    "dishonor": "glossary: dishonor",
    "experienced": "p.80 glossary: experienced",
    "seppuku": "glossary: seppuku",
    "unique": "glossary: singular, unique",
}

# id -> the lines of the rulebook's text edition where the rule stands (first, last)
LINES: dict[str, tuple[int, int]] = {
    "personality": (214, 248),
    "attachments": (288, 342),
    "stats": (362, 377),
    "setting-up": (476, 592),
    "going-first": (489, 493),
    "starting-holdings": (494, 504),
    "provinces": (558, 574),
    "hand": (575, 581),
    "imperial-favor": (848, 869),
    "turn-sequence": (593, 598),
    "straighten-phase": (600, 603),
    "events-phase": (605, 635),
    "action-phase": (637, 675),
    "action-conditions": (679, 695),
    "pay-costs": (727, 741),
    "action-resolution": (745, 768),
    "traits": (770, 797),
    "equip": (834, 839),
    "lobby": (841, 847),
    "attack-phase": (870, 926),
    "maneuvers": (886, 912),
    "combat": (934, 968),
    "resolution": (970, 1020),
    "dynasty-phase": (1022, 1071),
    "end-phase": (1073, 1080),
    "winning": (1081, 1103),
    "deck-construction": (1105, 1136),
    "active-player": (1142, 1142),
    "challenge": (1156, 1168),
    "duel": (1305, 1360),
    "duelist": (1362, 1369),
    "dishonor": (1255, 1292),
    "experienced": (1397, 1445),
    "seppuku": (1599, 1614),
    "unique": (1627, 1638),
}

# the ids a casebook case may cite: the rulings of RULINGS-L5R-CCG.md, and the referee's own (CT-xx)
RULINGS = tuple(f"C-{n:02d}" for n in range(1, 11))
OWN_RULINGS = tuple(f"CT-{n:02d}" for n in range(1, 16))


def cite(rule: str) -> str:
    """The citation of a rule id (``cite("resolution")`` -> ``"pp.49-66 Battles: Resolution Segment"``); a
    ruling's id (``C-03``, ``CT-04``) is its own citation."""
    return RULEBOOK.get(rule, rule)


def cite_lines(rule: str) -> str:
    """The citation with the rulebook lines (``"pp.49-66 Battles: Resolution Segment, lines 970-1020"``)."""
    if rule not in LINES:
        return cite(rule)
    first, last = LINES[rule]
    return f"{cite(rule)}, line {first}" if first == last else f"{cite(rule)}, lines {first}-{last}"
