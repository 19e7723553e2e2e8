"""Impossible Mak-yek states are refused (issue 10 §2): mutations of REAL mid-game states.

States come from seeded random playouts (``tests/playout.py``'s chooser) under random options.
Each mutation is applied to a state's JSON and loaded as a request would be
(``BINDINGS["mak-yek"].load_state``: the declared shape, then the checks of meaning). It must be
refused (``InvalidState`` with a ``mak-yek.`` code: ``bad-state`` for the shape), or be a state
that play can reach; no other exception is allowed.

Kinds marked ``REFUSED`` are refused every time. Kinds marked ``EITHER`` may give a reachable
state, and each says when and why (docs/rules/mak-yek.md §7 lists what ``from_json`` checks).
"""

from __future__ import annotations

import random
from collections import deque
from itertools import islice

from rules.mak_yek import ENGINE, Slide
from tests.rules import mutations as mut
from tests.rules.mutations import ACCEPTED, REFUSED, outcome
from tests.rules.mutations import playout as play

GAME = "mak-yek"
EITHER = "reachable in some positions (the mutation's docstring says which)"


def real_states(count: int = 12) -> list[dict]:
    """Mid-game state JSON of seeded random playouts, options drawn at random."""
    out = []
    for seed in range(count):
        rnd = random.Random(seed)
        options = {"max_custodian_per_move": rnd.choice(["unlimited", 1]), "line_custodian": rnd.random() < 0.3,
                   "repetition": "threefold" if seed % 3 else "off", "first_player": rnd.choice([0, 1])}
        moves = rnd.randint(3, 70)
        state = deque(islice(play(GAME, 2, seed, options, rnd=rnd), moves + 1), maxlen=1)[0]
        if ENGINE.to_act(state):
            out.append(ENGINE.to_json(state))
    return out


def _cells(data):
    return [list(row) for row in data["board"]]


def _set_board(data, cells):
    data["board"] = ["".join(row) for row in cells]


def _squares(data, what):
    return [(r, f) for r, row in enumerate(data["board"]) for f, c in enumerate(row) if c == what]


def add_man(data, state, rnd):
    """A man more on an empty square (a duplicate: the same side's man twice). EITHER: when
    nothing records past positions (repetition off, or no ply since the last capture) and that
    side had fewer than 16 men, the board is one where that man was simply not captured;
    otherwise too many men, positions that no longer hold the board's men, or 16 men each on a
    board that is not the starting one after no ply."""
    cells = _cells(data)
    r, f = rnd.choice(_squares(data, "."))
    cells[r][f] = rnd.choice("WB")
    _set_board(data, cells)
    return EITHER


def remove_man(data, state, rnd):
    """A missing man. EITHER: when nothing records past positions (repetition off, or no ply
    since the last capture) it is one more capture made earlier; otherwise the kept positions
    no longer hold the board's men."""
    cells = _cells(data)
    r, f = rnd.choice(_squares(data, "W") + _squares(data, "B"))
    cells[r][f] = "."
    _set_board(data, cells)
    return EITHER


def foreign_piece(data, state, rnd):
    """A piece that is no man of either side. REFUSED (the declared shape: bad-state)."""
    cells = _cells(data)
    r, f = rnd.randrange(8), rnd.randrange(8)
    cells[r][f] = rnd.choice("XKw0")
    _set_board(data, cells)
    return REFUSED


def seventeen_men(data, state, rnd):
    """17 men of one side. REFUSED: a side has 16."""
    man = rnd.choice("WB")
    cells = _cells(data)
    empty = _squares(data, ".")
    rnd.shuffle(empty)
    have = sum(row.count(man) for row in data["board"])
    for r, f in empty[: 17 - have]:
        cells[r][f] = man
    _set_board(data, cells)
    return REFUSED


def slide_man(data, state, rnd):
    """A man moved to another empty square without a ply. EITHER: accepted only when nothing
    records the earlier position (repetition off, or no ply since a capture) and material was
    lost (so the board is not bound to the start): such a board is one a different game reaches."""
    cells = _cells(data)
    r, f = rnd.choice(_squares(data, "W") + _squares(data, "B"))
    r2, f2 = rnd.choice(_squares(data, "."))
    cells[r2][f2], cells[r][f] = cells[r][f], "."
    _set_board(data, cells)
    return EITHER


def flip_turn(data, state, rnd):
    """The other seat to move. EITHER: with 16 men each the ply count fixes the turn; with kept
    positions their movers alternate back from the turn; right after a capture with repetition
    off either seat may have captured."""
    data["turn"] = 1 - data["turn"]
    return EITHER


def bad_seat(data, state, rnd):
    """turn, draw_offer or the result's winner outside seats 0/1 (or a string, a boolean). REFUSED."""
    key = rnd.choice(["turn", "draw_offer"])
    data[key] = rnd.choice([2, -1, "0", True, 1.5])
    return REFUSED


def turn_null_while_running(data, state, rnd):
    """Nobody to move although the game runs. REFUSED: turn is null only with a result."""
    data["turn"] = None
    return REFUSED


def result_while_running(data, state, rnd):
    """A result the position does not give. REFUSED."""
    data["result"] = {"winner": rnd.choice([0, 1, None]),
                      "reason": rnd.choice(["all-captured", "no-legal-move", "threefold-repetition"])}
    return REFUSED


def ply_count(data, state, rnd):
    """plies_since_capture changed. REFUSED when positions are kept (one per ply), when 16 men
    each fix the turn by its parity, or beyond the limit; EITHER otherwise: with repetition off
    any count below the limit may have passed since the last capture, and with 16 men each two
    plies more is a man moved away and back by each side."""
    data["plies_since_capture"] = rnd.choice([data["plies_since_capture"] + 1, data["plies_since_capture"] + 2,
                                              max(0, data["plies_since_capture"] - 1), -1, 1001,
                                              data["options"]["no_capture_limit_plies"] + 1])
    return EITHER


def positions_tampered(data, state, rnd):
    """The kept positions: one dropped, duplicated, reversed, or foreign. REFUSED: their count
    is the ply count, each holds the men on the board and follows the one before by one slide."""
    pos = data["positions"]
    how = rnd.choice(["drop", "dup", "rev", "foreign", "hex"])
    if how == "drop" and pos:
        pos.pop(rnd.randrange(len(pos)))
    elif how == "dup" and pos:
        pos.insert(rnd.randrange(len(pos)), rnd.choice(pos))
    elif how == "rev" and len(set(pos)) > 1:
        pos.reverse()
    elif how == "foreign":
        pos.append("f" * 32)
    else:
        pos.append("zz")
    return REFUSED if how in ("foreign", "hex") or data["options"]["repetition"] == "threefold" else EITHER


def draw_offer(data, state, rnd):
    """An open draw offer by one seat. EITHER: with offers on, the seat to move may just have
    offered, and the other seat's offer stays open across his own move; REFUSED with offers off."""
    data["draw_offer"] = rnd.choice([0, 1])
    return EITHER


def draw_agreed(data, state, rnd):
    """A draw agreed while someone is still to move. REFUSED: the game would be over."""
    data["draw_agreed"] = True
    return REFUSED


def options_changed(data, state, rnd):
    """An option changed under a running game. EITHER for those the position does not depend
    on (first_player once material is lost, custodian rules, draw offers with none open, a
    limit above the ply count); REFUSED for unknown options, values outside the choices and
    a repetition setting that contradicts the kept positions."""
    name = rnd.choice(list(data["options"]) + ["speed"])
    opts = data["options"]
    if name == "speed":
        opts[name] = 1
        return REFUSED
    choice = ENGINE.options[name]
    if rnd.random() < 0.3:
        opts[name] = "bogus"
        return REFUSED
    if choice.choices is not None:
        opts[name] = rnd.choice([c for c in choice.choices if c != opts[name]])
    elif choice.type == "boolean":
        opts[name] = not opts[name]
    else:
        opts[name] = rnd.randint(1, 200)
    return EITHER


def _history(data, rnd):
    data["history"] = []


colors_changed = mut.colors_changed(["black", "white"], ["white"], ["red", "black"])
wrong_type = mut.wrong_type({"board": "x", "colors": "white", "turn": "0", "plies_since_capture": 2.5, "positions": "",
                             "draw_offer": [], "draw_agreed": 0, "result": [], "options": [], "players": "2",
                             "phase": 1}, _history)


MUTATIONS = [add_man, remove_man, foreign_piece, seventeen_men, slide_man, flip_turn, bad_seat,
             turn_null_while_running, result_while_running, ply_count, positions_tampered, draw_offer,
             draw_agreed, options_changed, colors_changed, wrong_type]


STATES = real_states()
SUITE = mut.board_game_suite(GAME, STATES, MUTATIONS, min_refused=200)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_a_quiet_slide_without_its_position_is_refused():
    """With repetition on, a board changed by a real quiet slide but with the old positions and
    ply count is refused: the kept positions must end one slide before the board, by the other seat."""
    checked = 0
    for data in STATES:
        state = ENGINE.from_json(data)
        if not state.positions:  # repetition off, or no ply since a capture: nothing records the past
            continue
        for slide in ENGINE.legal_moves(state, state.turn):
            after = ENGINE.apply(state, state.turn, slide)
            if isinstance(slide, Slide) and after.plies_since_capture == state.plies_since_capture + 1 \
                    and ENGINE.to_act(after):
                forged = {**ENGINE.to_json(after), "positions": data["positions"],
                          "plies_since_capture": data["plies_since_capture"]}
                assert outcome(GAME, forged) != ACCEPTED
                checked += 1
                break
    assert checked >= 5
