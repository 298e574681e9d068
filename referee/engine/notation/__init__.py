"""The notations the manual documents (docs/notation/), each parsed once at the edge and printed canonically:

    round         the round notation (one revealed token a line)
    setup         the setup notation (board facts)
    table_events  the table-event notation (card plays, setup steps, initiative, abilities)
    table_parts   the table events as values, and the tokens, places and targets their lines share
    card_plays    the targets of each territory card (``<clan>: plays <card> <targets>``)

Imports: the standard library and ``engine.model``.
"""
