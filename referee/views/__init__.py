"""Presentation shared by the terminal, the web pages and the HTML record: pure functions from the
engine's values (states, reports) to pictures and page data. No I/O, no web or CLI imports."""
