"""Backgammon with the doubling cube, match play and the Crawford rule.

Rule source: ``rules/compendium-003.md`` §5 (seed section 25, repaired; standard rules after
bkgm.com and the GNU Backgammon manual): board §5.2, setup and opening roll §5.3, legal
plays §5.4 (verified against gnubg-nn), results §5.5, cube and match §5.6, notations §5.7,
test vectors §5.8 (BG-0..BG-10), rulings §5.9 (B-1..B-6).

Options (defaults in brackets):

- ``opening_roll`` ["use"] (B-1): each side rolls one die, ties are rolled again, and the
  higher roller plays both numbers; ``"reroll"``: the higher roller rolls two dice afresh.
- ``match_length`` [0]: match play to N points (1..64); 0 is a single (money) game.
- ``cube`` ["auto"] (B-3): the doubling cube; ``"auto"`` is off in a single game and on in
  match play; ``"on"``/``"off"`` force it.
- ``crawford`` [true] (B-3): in match play, the first time a player reaches N-1 the next
  game is the Crawford game (no doubling); later games are post-Crawford (doubling again).
- ``jacoby`` [false]: money play only: gammons and backgammons count single while the cube
  was never turned (also for accepted gammon/backgammon resignations).
- ``beaver`` [false]: money play only: the player doubled may answer ``beaver``: take and
  redouble at once, keeping the cube. As with any redouble (bkgm.com: "the original doubler
  has the option of accepting or refusing as with a normal double") the doubler then answers
  ``take`` (cube x4 from before the offer, still the beaverer's) or ``drop`` (the beaverer
  scores the cube at x2). Raccoons are not offered.
- ``automatic_doubles`` [false] (B-3): money play with the cube: each tie of the opening
  roll doubles the cube, which stays in the middle (up to ``max_cube``); it does not count
  as turning the cube for the Jacoby rule.
- ``max_cube`` [0]: the highest cube value (a power of two); 0 means none beyond 2**15,
  the limit the Match ID can carry.

Not implemented: raccoons (§5.6 names them, B-3 does not make them an option).

Representation decisions:

- Seats 0 and 1; each seat numbers the points from its own side (home board 1..6, the bar
  25, off 0); seat 0's point p is seat 1's point 25-p (§5.2). In XGID seat 0 is the bottom
  player (upper-case checkers).
- **A move is a whole turn** (``kind: "move"``): ``steps`` ``[[13, 7], [7, 3]]`` (bar 25,
  off 0) and/or ``notation`` ``"13/7/3"``, ``"24/18*/15"``, ``"bar/20"``, ``"6/off"``,
  ``"8/5(2)"``; when both are sent they must describe the same steps. A play is legal when
  its result (the mover's checkers and the blots hit) equals the result of some legal play
  of the dice, in any order; the order the steps are written in is free (they are
  replayed highest source first, which works whenever any order does); ``*`` marks are
  checked to be real hits; a single hop may span both dice (``13/3``). ``legal_moves`` lists
  each distinct result once, with steps and notation. When nothing can be played the only
  legal move is ``{"kind": "move", "steps": []}``: the turn is forfeited.
- Turn order: ``roll`` (the opening roll: ``dice`` are seat 0's die then seat 1's; a tie
  leaves the phase unchanged), then the player on turn may ``double`` (cube in the middle
  or his own, not in the Crawford game, not past ``max_cube``) or ``resign`` (level
  ``single``/``gammon``/``backgammon``, also after rolling) or ``roll``; then ``move``.
  A double is answered by ``take``, ``drop`` or ``beaver``, a beaver by ``take`` or ``drop``
  (JSON ``cube.beaver``: true while it waits); a resignation by
  ``accept-resignation`` or ``reject-resignation``.
- Results (§5.5): single, gammon, backgammon x cube; a dropped double scores the cube value
  before the offer; an accepted resignation scores its level x cube.
- Rounds are games: when a game ends in match play short of N, ``to_act`` is both seats and
  ``next-round`` starts the next game (opening roll). The match ends when a score reaches
  N; without a match length the game ends after one game. ``scores``: ``round`` is this
  game's points, ``totals`` the match score.
- Every state's JSON (and view) carries ``position_id``, ``match_id`` and ``xgid``; seat 0
  counts as on roll during the opening roll. ``new`` accepts a setup
  ``{"position_id", "match_id"?}`` or ``{"xgid"}``; the setup's match length (and, for XGID,
  the Jacoby/beaver flags and max cube) replace those options.
- Nothing is hidden: a view is the state without its rng.
"""

from ._engine import Backgammon

ENGINE = Backgammon()
