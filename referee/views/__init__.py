"""Presentation shared by the terminal, the web pages, the HTML record and the published site: the board
SVG (pure), page data from the engine's and the log's values, and the Jinja2 templates. Nothing here
writes anything, and nothing here imports the command line or the web app."""
