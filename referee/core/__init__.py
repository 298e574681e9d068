"""What every room shares, knowing no game: the error base (errors.py), canonical JSON (canonical.py), the
immutable record (value.py), text made safe to show (shown.py), a number written as text (numerals.py), a
casebook folder's files (casebook_files.py). All but the last are pure, and the games' rules use them."""
