"""What happens at the table between rounds: initiative, territory cards and their effects, the
start-of-turn cards (scout, shugenja, first player, the clans' abilities), and applying a table event.

Imports: the standard library, ``engine.model``, ``engine.notation`` and ``engine.resolution``.
"""
