"""The moderator's command line (Typer + Rich): thin commands, one error boundary, rendering in one place."""
