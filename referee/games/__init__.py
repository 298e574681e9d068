"""A wing per game over the store: its bundled data and casebook, its events, its service (open, fold, record,
retract, verify, status); the kinds of record (``kinds``) and the registry of what each kind's service answers
(``registry``). Importing the package declares every game's event types to the store."""

from .battle import events as _battle_events  # noqa: F401 - declared to the store
from .ccg import events as _ccg_events  # noqa: F401 - declared to the store
