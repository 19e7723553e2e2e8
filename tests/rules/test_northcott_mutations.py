"""Impossible Northcott states are refused (issue 10 §2): mutations of REAL states.

States come from seeded random playouts (``tests/playout.py``'s chooser) under random options,
in every phase (setup, first-player roll, play), dice and classic. Each mutation is applied to a
state's JSON and loaded as a request would be (``BINDINGS["northcott"].load_state``: the
declared shape, then the checks of meaning). It must be refused (``InvalidState`` with a
``northcott.`` code: ``bad-state`` for the shape), or be a state that play can reach; no other
exception is allowed.

Kinds marked ``REFUSED`` are refused every time. Kinds marked ``EITHER`` may give a reachable
state, and each says when and why (docs/rules/northcott.md §7 lists what ``from_json`` checks).
"""

from __future__ import annotations

import random
from collections import deque
from itertools import islice

import pytest

from rules.base import InvalidState
from rules.northcott import ENGINE
from tests.rules import mutations as mut
from tests.rules.mutations import REFUSED
from tests.rules.mutations import playout as play

GAME = "northcott"
EITHER = "reachable in some positions (the mutation's docstring says which)"


def real_states(count: int = 16) -> list[dict]:
    """State JSON of seeded random playouts, stopped after a random number of steps (so in
    every phase), under random options; classic games are cut short (they rarely end)."""
    out = []
    for seed in range(count):
        rnd = random.Random(seed)
        options = {"variant": "classic" if seed % 4 == 3 else "dice", "board": rnd.choice(["8x8", "8x10", "8x12"]),
                   "placement": rnd.choice(["in-order", "choose-file"]),
                   "first_player": rnd.choice([0, "higher-roll"]), "misere": rnd.random() < 0.3}
        moves = rnd.choice([3, 10, 16, 25, 32, 40, 60])
        out.append(ENGINE.to_json(deque(islice(play(GAME, 2, seed, options, rnd=rnd, any_seat=True), moves + 1),
                                        maxlen=1)[0]))
    return out


def _placed(data):
    return [(seat, f) for seat in (0, 1) for f, r in enumerate(data["pawns"][seat]) if r is not None]


def _ranks(data):
    return int(data["options"]["board"].split("x")[1])


def shift_pawn(data, state, rnd):
    """A pawn moved 1-3 squares along its file without a move. EITHER: classic pawns go both
    ways, and in the dice game the moves each side made are only bounded (a pawn may have
    started on any of its 3 home ranks); REFUSED when it crosses or lands on the enemy pawn,
    leaves the board or the home ranks in the setup, or breaks the count of moves."""
    if not _placed(data):
        data["pawns"][0][0] = 1  # the first pawn placed, but seat 0 still to place it
        return REFUSED
    seat, f = rnd.choice(_placed(data))
    data["pawns"][seat][f] += rnd.choice([-3, -2, -1, 1, 2, 3])
    return EITHER


def cross_pawns(data, state, rnd):
    """Seat 0's pawn at or beyond seat 1's in its file. REFUSED: pawns never pass."""
    both = [f for f in range(8) if None not in (data["pawns"][0][f], data["pawns"][1][f])]
    if not both:
        data["pawns"][0][0] = data["pawns"][1][0] = 3
        return REFUSED
    f = rnd.choice(both)
    data["pawns"][0][f], data["pawns"][1][f] = data["pawns"][1][f], data["pawns"][0][f]
    return REFUSED


def off_board(data, state, rnd):
    """A pawn on rank 0 or beyond the board. REFUSED."""
    seat, f = rnd.choice(_placed(data) or [(0, 0)])
    data["pawns"][seat][f] = rnd.choice([0, -1, _ranks(data) + 1, 13])
    return REFUSED


def extra_or_missing_pawn(data, state, rnd):
    """A ninth pawn, a third seat, or a placed pawn taken away (a missing one). REFUSED: 8 files,
    2 seats; after the setup all 16 pawns stand, and in the setup the seat to place is the one
    with fewer pawns (taking one away changes that)."""
    how = rnd.choice(["ninth", "third seat", "missing"])
    if how == "ninth":
        data["pawns"][rnd.randrange(2)].append(2)
    elif how == "third seat":
        data["pawns"].append([None] * 8)
    elif _placed(data):
        seat, f = rnd.choice(_placed(data))
        data["pawns"][seat][f] = None
    else:
        data["pawns"][0].pop()
    return REFUSED


def flip_turn(data, state, rnd):
    """The other seat to act. REFUSED in the setup (the counts of placed pawns fix it) and in
    the first-player roll (both act: null); EITHER in play (the dice game's move counts are
    only bounded, and classic pawns may shuffle)."""
    if data["turn"] is None:  # both roll, or the game is over (then a seat to act needs a null result)
        data["turn"] = rnd.randrange(2)
        return REFUSED
    data["turn"] = 1 - data["turn"]
    return EITHER if data["phase"] == "play" else REFUSED


def bad_seat(data, state, rnd):
    """turn or the result's winner outside seats 0/1, or of the wrong type. REFUSED."""
    data["turn"] = rnd.choice([2, -1, "0", True, 0.5])
    return REFUSED


def phase_changed(data, state, rnd):
    """Another phase for the same pawns. REFUSED: the setup ends exactly when all 16 pawns
    stand; the first-player roll only with that option, all pawns at home and both to roll;
    the game is over (and nobody to act) exactly when the player to move cannot move."""
    phases = ["setup", "first-roll", "play", "game-over"]
    phases.remove(data["phase"])
    data["phase"] = rnd.choice(phases + ["over"])
    return REFUSED


def die_changed(data, state, rnd):
    """A die awaiting its place move. EITHER in a choose-file setup (the roller may just have
    rolled any face); REFUSED elsewhere and for faces outside 1..6."""
    data["die"] = rnd.choice([1, 3, 6, 0, 7])
    choose_file = data["options"]["placement"] == "choose-file" and data["phase"] == "setup"
    return EITHER if choose_file and data["die"] in (1, 3, 6) else REFUSED


def result_changed(data, state, rnd):
    """A result although the player to act can act: REFUSED. The other winner of a finished
    game: EITHER, since at the end of a dice game every gap is closed and neither seat can
    move, so the seat left to move is decided only by the moves each side made (checked)."""
    if data["result"] is not None:
        data["result"] = {"winner": 1 - data["result"]["winner"], "reason": data["result"]["reason"]}
        return EITHER
    else:
        data["result"] = {"winner": rnd.randrange(2), "reason": rnd.choice(["cannot-move", "cannot-move-misere"])}
    return REFUSED


def rng_changed(data, state, rnd):
    """The rng: another counter is EITHER (physical dice draw nothing, and rejection sampling
    may draw more than once per die, so counters are not tied to the rolls made); a key that is
    no 64-digit hex, or another version, is REFUSED."""
    how = rnd.choice(["counter", "key", "version"])
    if how == "counter":
        data["rng"]["counter"] = rnd.randint(0, 500)
        return EITHER
    if how == "key":
        data["rng"]["key"] = rnd.choice(["xyz", "A" * 64, ""])
    else:
        data["rng"]["v"] = 2
    return REFUSED


def options_changed(data, state, rnd):
    """An option changed under a running game. EITHER for values the position may also have
    under (another variant, board, placement, first player, misere), each checked against the
    pawns, the phase and the move counts; REFUSED for unknown options and values outside the
    choices."""
    name = rnd.choice(list(data["options"]) + ["speed"])
    if name == "speed":
        data["options"][name] = 1
        return REFUSED
    opt = ENGINE.options[name]
    if rnd.random() < 0.3:
        data["options"][name] = "8x9" if name == "board" else 3
        return REFUSED
    data["options"][name] = (not data["options"][name]) if opt.type == "boolean" else \
        rnd.choice([c for c in opt.choices if c != data["options"][name]])
    return EITHER


def _unknown_field(data, rnd):
    data[rnd.choice(["white", "to_move", "winner"])] = 0


colors_changed = mut.colors_changed(["black", "white"], ["white"], ["white", "red"])
wrong_type = mut.wrong_type({"phase": 1, "colors": "white", "turn": "1", "pawns": {"0": []}, "die": "6", "result": [],
                             "rng": 7, "options": [], "players": "2"}, _unknown_field)


MUTATIONS = [shift_pawn, cross_pawns, off_board, extra_or_missing_pawn, flip_turn, bad_seat, phase_changed,
             die_changed, result_changed, rng_changed, options_changed, colors_changed, wrong_type]


STATES = real_states()
SUITE = mut.board_game_suite(GAME, STATES, MUTATIONS, min_refused=250)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_dice_game_turn_must_agree_with_the_moves_the_pawns_made():
    """docs/rules/northcott.md §7: in the dice game every move takes a pawn 1-3 squares forward
    from its home ranks (1-3 from its edge) and White moved first, so with White to move both
    have made as many moves. White's pawns on rank 7 have made at least 2 moves each (16 in
    all); Black's on ranks 8 have made none: refused. With Black one square down in each file
    (one move each, 8 in all) and White on rank 4 (1-3 moves each): reachable.

    8 B B B B B B B B        8 . . . . . . . .
    7 W W W W W W W W        7 B B B B B B B B
                             4 W W W W W W W W
    """
    base = {"players": 2, "phase": "play", "colors": ["white", "black"], "die": None, "result": None,
            "rng": {"v": 1, "key": "0" * 64, "counter": 0},
            "options": {name: opt.default for name, opt in ENGINE.options.items()}}
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json({**base, "turn": 0, "pawns": [[7] * 8, [8] * 8]})
    assert err.value.code == "northcott.bad-turn"
    assert ENGINE.from_json({**base, "turn": 0, "pawns": [[4] * 8, [7] * 8]}).turn == 0
