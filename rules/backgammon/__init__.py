"""Backgammon with the doubling cube, match play and the Crawford rule.

The rules as Arbiter applies them, with every ruling and option and the seed passage each rests
on, are docs/rules/backgammon.md; section numbers below refer to it. Legal plays are checked
against GNU Backgammon (gnubg-nn) in tests/rules/test_backgammon_oracle.py.

Options (defaults in brackets; §13): ``opening_roll`` ["use"] (§3), ``match_length`` [0] (§7),
``cube`` ["auto"] (§6.1), ``crawford`` [true] (§7), ``jacoby`` [false] (§6.4), ``beaver``
[false] (§6.2), ``raccoon`` [false] (§6.3), ``automatic_doubles`` [false] (§6.5), ``max_cube``
[0] (§6.6).

Representation decisions:

- Seats 0 and 1 (``colors: ["white", "black"]`` as labels); each seat numbers the points from its
  own side (home board 1..6, the bar 25, off 0); seat 0's point p is seat 1's point 25-p (§2).
  In XGID seat 0 is the bottom player (upper-case checkers).
- **A move is a whole turn** (``kind: "move"``): ``steps`` ``[[13, 7], [7, 3]]`` and/or
  ``notation`` ``"13/7/3"``; a play is legal when its result (the mover's checkers and the blots
  hit) equals the result of some legal play of the dice; one hop may span several dice (§4.6).
  ``legal_moves`` lists each distinct result once, with steps and notation; when nothing can be
  played the only legal move is ``{"kind": "move", "steps": []}`` (§4.7).
- Turn order: ``roll`` (the opening roll: ``dice`` are seat 0's die then seat 1's; a tie leaves
  the phase unchanged), then the player on turn may ``double``, ``resign`` or ``roll``; then
  ``move``. A double is answered by ``take``, ``drop`` or ``beaver``, a beaver by ``take``,
  ``drop`` or ``raccoon``, a raccoon by ``take`` or ``drop`` (JSON ``cube.beaver`` /
  ``cube.raccoon`` while they wait); a resignation by ``accept-resignation`` or
  ``reject-resignation`` (§6, §8).
- Rounds are the games of a match (``round``, 1-based): when a game ends short of N the phase is
  ``round-over``, ``to_act`` is both seats and ``next-round`` starts the next (§7); when the match
  (or the money game) is over the phase is ``game-over``. ``match.score`` is the match score (the
  session score in money play).
- Every state's JSON (and view) carries the derived ``position_id``, ``match_id``, ``xgid``,
  ``pips``, ``colors`` and ``cube_enabled`` (whether the cube is in play in this game); ``new``
  accepts a setup ``{"position_id", "match_id"?}`` or ``{"xgid"}`` (§9).
- Nothing is hidden: a view is the state without its rng.

The declarations (options, state, moves, setup, tally, breakdown) are in ``_state``, the codes in
``_codes``, the ``GameSpec`` and the rules in ``_engine``.
"""

from ._engine import SPEC, Backgammon

__all__ = ["ENGINE", "SPEC", "Backgammon"]

ENGINE = Backgammon()
