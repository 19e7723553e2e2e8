"""Arbiter's rules engines: pure Python, standard library only.

Nothing here imports Flask, marshmallow or Redis, and nothing does I/O. Each game is one
module (or package) ending in ``ENGINE = <Game>()``; ``rules.registry`` lists them.
"""
