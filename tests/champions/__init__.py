"""Champions of Rokugan: its rules, casebook and commands."""
