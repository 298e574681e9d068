"""Where each rule of the card game stands in the rulebook (the 2010 "Celestial" edition), by the ids
that the code, the casebook and the referee's messages cite.

The rulebook names a few of its own pages (Reading the Cards p.29, Turn Sequence p.41, When Can I Take
an Action? p.44, Deck Construction p.67, the glossary's experienced p.80 and perform p.87); the text
carries a page mark before p.49. Sections between those landmarks are cited by their heading and the
range of pages they must lie in; glossary entries by the entry's word.
"""

from __future__ import annotations

# id -> how a message or a case cites it
RULEBOOK: dict[str, str] = {
    "stats": "p.29 Reading the Cards: Stats",
    "setting-up": "pp.30-40 Setting Up the Game",
    "going-first": "pp.30-40 Setting Up: Going first",
    "provinces": "pp.30-40 Setting Up: Provinces",
    "turn-sequence": "p.41 The Turn Sequence",
    "action-phase": "p.44 When Can I Take an Action?",
    "attack-phase": "pp.49-66 Attack Phase",
    "resolution": "pp.49-66 Battles: Resolution Segment",
    "dynasty-phase": "pp.49-66 Dynasty Phase",
    "winning": "pp.49-66 Winning the Game",
    "deck-construction": "p.67 Deck Construction",
    "duel": "glossary: duel",
    "dishonor": "glossary: dishonor",
    "experienced": "p.80 glossary: experienced",
    "active-player": "glossary: active player",
}

# the ids a casebook case may cite: the rulings of RULINGS-L5R-CCG.md and these citation forms
RULINGS = tuple(f"C-{n:02d}" for n in range(1, 11))


def cite(rule: str) -> str:
    """The citation of a rule id (``cite("resolution")`` -> ``"pp.49-66 Battles: Resolution Segment"``); a
    ruling's id (``C-03``) is its own citation."""
    return RULEBOOK.get(rule, rule)
