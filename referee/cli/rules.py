"""`referee rules`: the rulings document shipped with the package, listed, printed and searched."""

import json
import re
from typing import Annotated

import typer

from ..core.errors import RefereeError
from .common import JsonOpt

commands = typer.Typer()


@commands.command()
def rules(
    query: Annotated[
        str | None,
        typer.Argument(
            help="A ruling id (R-17 prints R-17 with R-17a and R-17b; R-17b only that one), or words to search for.",
            show_default=False,
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """The referee's rulings: list them, print one (with the rulings that refine it), or search their text."""
    from ..games.battle import rulings as doc

    every = doc.load()
    if query is None or not query.strip():
        if json_out:
            typer.echo(json.dumps({"rulings": [{"id": r.id, "title": r.title} for r in every]}, indent=2))
            return
        for r in every:
            typer.echo(f"{r.id:<6}  {r.title}")
        return
    rid = doc.as_id(query)
    if rid is not None:
        ruling = doc.find(rid)
        if ruling is None:
            raise RefereeError(
                f"no ruling {rid}: `referee rules` lists the {len(every)} rulings, {every[0].id} to {every[-1].id}"
            )
        shown = doc.with_refinements(ruling)
        if json_out:
            typer.echo(json.dumps({"rulings": [r.to_dict() for r in shown]}, indent=2, ensure_ascii=False))
            return
        typer.echo("\n\n".join(_full(r) for r in shown))
        return
    found = doc.search(query)
    if not found:
        raise RefereeError(f"no ruling mentions {query.strip()!r}: `referee rules` lists them all")
    if json_out:
        typer.echo(json.dumps({"query": query, "rulings": [r.to_dict() for r in found]}, indent=2, ensure_ascii=False))
        return
    for r in found:
        typer.echo(f"{r.id:<6}  {r.title}")
        excerpt = _excerpt(r, query)
        if excerpt:
            typer.echo(f"        {excerpt}")


def _full(r) -> str:
    lines = [f"{r.id}  {r.title}", f"Sources: {r.sources}"]
    for o in r.options:
        lines.append(f"Option: {o.name}, default {o.default} (allowed: {', '.join(o.values) or o.allowed})")
    return "\n".join(lines) + "\n\n" + r.text.replace("`", "")


def _excerpt(r, query: str) -> str:
    """The first sentence of the ruling's text that holds the first word searched for."""
    word = query.lower().split()[0]
    for sentence in re.split(r"(?<=\.)\s+", r.text.replace("\n\n", " ")):
        if word in sentence.lower():
            return sentence.replace("`", "")
    return ""
