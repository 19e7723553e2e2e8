"""The request envelopes (marshmallow, ``common``) and their compiled check on the hot path (``fast``).

A game's own shapes (state, moves, tally, setup) are not here: they are declared once in its
module (``rules.shapes``, DESIGN 4.8), which reads them, checks them and gives their JSON Schema.
"""
