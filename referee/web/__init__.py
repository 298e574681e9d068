"""`referee serve`: the read-only venue pages (FastAPI, Jinja2 templates from referee.views, uvicorn).
Loaded only by that command: the CLI's other commands never import the web stack."""

from .app import create_app

__all__ = ["create_app"]
