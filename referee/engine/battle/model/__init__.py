"""The engine's values: tokens, the board, a round's entries, the game state and what the referee tracks
(inventory, initiative, the round under way), rules options, errors, and the state's canonical digest.

Imports: the standard library and this sub-package only.
"""
