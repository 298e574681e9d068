"""A round judged and resolved (rulebook pp.8-10): placement checks, the token inventory checked at
entry (R-08), the resolution itself, and its report.

Imports: the standard library, ``engine.model`` and ``engine.notation``.
"""
