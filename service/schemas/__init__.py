"""Marshmallow schemas: ``common`` holds the envelopes; one module per game holds its shapes.

A game module defines ``StateSchema`` (the full state exactly as ``engine.to_json`` writes
it), ``MOVES`` (move kind -> schema class, each with a ``kind`` field from ``kind_field``),
``TALLY`` (a schema class for score-sheet input, or ``None``) and optionally ``SETUP``.
"""
