"""What every room shares, knowing no game: text made safe to show, a number written as text, a casebook's
files."""
