"""Honor at the end of the game (rulebook p.10, R-24, R-25) and the secret objectives.

Imports: the standard library and ``engine.model``.
"""
