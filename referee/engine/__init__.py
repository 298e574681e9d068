"""The games' rules, one pure package each: no I/O, no clock, no randomness, no outer-layer imports.

battle      Battle for Rokugan: the board, tokens and state, the notations, a round resolved, honor
ccg         the Legend of the Five Rings card game: a match, battles and duels, decks, the notation
champions   Champions of Rokugan: a scenario's setup, the table's reports, the end, the campaign
tournament  tournaments: seating, scoring, standings, Swiss pairing and the cut
"""
