"""Battle for Rokugan: its rules, board data, notations, casebook and rulings, golden games, the game service
and its commands."""
