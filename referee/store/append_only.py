"""The triggers that make a table append-only, for the game log, the tournament log and the venue notices.

SQLite: ``<table>_no_update`` and ``<table>_no_delete`` abort the statement. PostgreSQL: one plpgsql
function per log raises, run by ``<table>_append_only`` (each row updated or deleted) and
``<table>_no_truncate`` (each TRUNCATE). ``guard`` creates them with the table, in the same transaction;
the SQLite statements are also run again on open, so that triggers dropped by hand come back.

A SQLite trigger's text is kept in the file as written: these statements are the ones databases already hold.
A PostgreSQL function's text may differ in its line breaks from the one an older database holds; the message
it raises is the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import DDL, Table, event as sa_event

OPERATIONS = ("UPDATE", "DELETE")  # what the SQLite triggers refuse (a TRUNCATE is a DELETE there)
PG_TRIGGERS = ("append_only", "no_truncate")


def sqlite_triggers(table: str, refused: str) -> list[str]:
    """``refused``: the start of the message, e.g. "the game log is append-only"."""
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} BEGIN "
        f"SELECT RAISE(ABORT, '{refused}: {op} on {table} refused'); END"
        for op in OPERATIONS
    ]


def pg_function(function: str, refused: str) -> str:
    return f"""CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  RAISE EXCEPTION USING MESSAGE = '{refused}: ' || TG_OP || ' on ' || TG_TABLE_NAME || ' refused';
END
$body$"""


def pg_triggers(table: str, function: str, refused: str) -> list[str]:
    return [
        pg_function(function, refused),
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {function}()",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()",
    ]


def trigger_names(tables: Iterable[str], backend: str) -> set[str]:
    """The names of the triggers ``guard`` makes, as ``sqlite_master`` or ``pg_trigger`` list them."""
    endings = PG_TRIGGERS if backend == "postgresql" else tuple(f"no_{op.lower()}" for op in OPERATIONS)
    return {f"{table}_{ending}" for table in tables for ending in endings}


GUARDED: set[str] = set()  # every table ``guard`` was asked to keep append-only (``referee doctor`` checks them)


def guard(tables: Iterable[Table], refused: str, function: str) -> None:
    """Create the triggers with each table (``metadata.create_all``), in the same transaction as the table."""
    for table in tables:
        GUARDED.add(table.name)
        for sql in sqlite_triggers(table.name, refused):
            sa_event.listen(table, "after_create", DDL(sql).execute_if(dialect="sqlite"))
        for sql in pg_triggers(table.name, function, refused):
            sa_event.listen(table, "after_create", DDL(sql).execute_if(dialect="postgresql"))
