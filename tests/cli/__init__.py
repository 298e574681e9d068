"""The command line's conventions shared by every game: exit codes, one-line refusals, hostile and odd input."""
