"""The helpers the tests share: running a command, serving pages, a browser, databases, PostgreSQL, games."""
