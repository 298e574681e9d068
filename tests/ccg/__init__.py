"""The Legend of the Five Rings card game: its rules, casebook and commands."""
