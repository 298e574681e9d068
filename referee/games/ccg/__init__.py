"""The card game's wing: its casebook, and a match's log in the store: its fold, verification and service."""
