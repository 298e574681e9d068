"""The board picture's colours, marks and key: each clan's colour and initial, each territory's colours, the
marks of special tokens and token kinds, the arrows' dashes, the sizes the picture is laid out with.
"""

from __future__ import annotations

CLAN_FILL = {
    "crab": "#8a8f98",
    "crane": "#7ec8e3",
    "dragon": "#3f9b4b",
    "lion": "#e8c547",
    "phoenix": "#f08a24",
    "scorpion": "#c8312f",
    "unicorn": "#8e5fb5",
}


CLAN_INITIAL = {
    "crab": "Cb",
    "crane": "Cn",
    "dragon": "D",
    "lion": "L",
    "phoenix": "P",
    "scorpion": "S",
    "unicorn": "U",
}


TERRITORY_STROKE = {
    "crab": "#5b6068",
    "crane": "#4aa3c7",
    "dragon": "#2c6e35",
    "lion": "#b8952a",
    "phoenix": "#c46a14",
    "scorpion": "#8f1f1d",
    "unicorn": "#6a4190",
    "neutral_mainland": "#a08050",
    "islands": "#9a8fd0",
    "shadowlands_north": "#4a1010",
    "shadowlands_south": "#4a1010",
}


TERRITORY_FILL = {  # the printed board's regions, pale enough for black text
    "crab": "#d3d6da",
    "crane": "#d4edf6",
    "dragon": "#cfe8d0",
    "lion": "#f7ecc0",
    "phoenix": "#fbdcbc",
    "scorpion": "#efc4c3",
    "unicorn": "#e0d0ec",
    "neutral_mainland": "#e9dfc4",
    "islands": "#dcd7f2",
    "shadowlands_north": "#b9a8a4",
    "shadowlands_south": "#b9a8a4",
}


SEA_FILL = "#bcd8ea"


SPECIAL_MARK = {
    "peace": "☮",
    "scorched": "✕",
    "shrine": "⌂",
    "battlefield": "⚔",
    "harbor": "⚓",
    "honor": "✿",
    "bushido": "✿4",
    "defense": "▣",
}


KIND_LETTER = {"army": "A", "navy": "N", "shinobi": "Sh", "raid": "R", "diplomacy": "Dp", "bluff": "?"}


# one line style per attacking kind: (dash pattern, width); the kind's letter is written on it too
ARROW_STYLE = {"army": ("", 5), "navy": ("12 5", 5), "shinobi": ("3 4", 4)}


DISCARDED = {"illegal", "removed_by_raid", "removed_by_diplomacy"}


MARGIN, RADIUS, COAST = 30, 22, 26  # COAST: the blue ring around a coastal province


SCALE = 1.4  # the layout's centres are too close for a readable circle (the Phoenix trio: 38 units apart)


CELL = 64  # a province's region: its share of the land (nearest centre) within this distance


LABEL_SIZE, LABEL_HEIGHT = 9, 11


KEY_SIZE, KEY_ROW = 10, 16  # the key under the board that explains the marks: font size, row height


PANEL = 250  # the territory cards beside the map


KEY = [
    "1▼2▲ control tokens facedown, faceup",
    "2✿ flowers of an empty province",
    "■ capital",
    "blue ring: coastal",
    "☮ peace",
    "✕ scorched",
    "⌂ shrine",
    "⚔ battlefield",
    "⚓ harbor",
    "✿n honor",
    "▣ defense",
    "A army",
    "N navy",
    "Sh shinobi",
    "R raid",
    "Dp diplomacy",
    "? bluff",
    "+n blessing",
    "faded ✕: discarded",
]


def clan_name(clan: str) -> str:
    return str(clan).capitalize()


def token_text(entry) -> str:
    """A revealed token written short: clan initial, kind letter, strength, blessings (``P A3+2``)."""
    tok = entry.token
    text = f"{CLAN_INITIAL[str(entry.clan)]} {KIND_LETTER.get(str(tok.kind), str(tok.kind))}"
    if tok.strength is not None:
        text += str(tok.strength)
    return text + "".join(f"+{b}" for b in entry.blessings)
