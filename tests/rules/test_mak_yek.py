"""Mak-yek scenario tests. Sections (§) are those of docs/rules/mak-yek.md; T1..T8 are its §8 vectors."""

from __future__ import annotations

import ast
import inspect
import json
import random

import pytest

from rules import boards, mak_yek, northcott
from rules.base import GameOver, IllegalMove, InvalidOption, InvalidState, NotYourTurn, RulesError
from rules.mak_yek import ENGINE, Slide, position_key
from service.games import BINDINGS
from tests.rules.catalogue import check_raise, check_refused, codes_checked, raise_of

DEFAULTS = {name: opt.default for name, opt in ENGINE.options.items()}


def position(white=(), black=(), turn=0, quiet=0, positions=(), **options):
    """A state with White men on ``white`` and Black men on ``black`` (square names)."""
    rows = [["."] * 8 for _ in range(8)]
    for man, squares in (("W", white), ("B", black)):
        for sq in squares:
            rows[int(sq[1]) - 1]["abcdefgh".index(sq[0])] = man
    return ENGINE.from_json({
        "players": 2,
        "phase": "play",
        "board": ["".join(rows[r]) for r in range(7, -1, -1)],
        "colors": ["white", "black"],
        "turn": turn,
        "plies_since_capture": quiet,
        "positions": list(positions),
        "draw_offer": None,
        "draw_agreed": False,
        "result": None,
        "options": {**DEFAULTS, **options},
    })


def move(frm, to, **extra):
    return ENGINE.move_from_json({"kind": "move", "from": frm, "to": to, **extra})


def men(state):
    """{square: man} of the board."""
    out = {}
    for i, row in enumerate(ENGINE.to_json(state)["board"]):
        for f, cell in enumerate(row):
            if cell != ".":
                out[f"{'abcdefgh'[f]}{8 - i}"] = cell
    return out


def slides(state, seat):
    """The rook moves listed for ``seat``, as JSON (draw offers left out)."""
    return [d for d in map(ENGINE.move_to_json, ENGINE.legal_moves(state, seat)) if d["kind"] == "move"]


def play(state, *moves):
    for frm_to in moves:
        frm, to = frm_to.split("-")
        state = ENGINE.apply(state, min(ENGINE.to_act(state)), move(frm, to))
    return state


def error_code(state, seat, mv):
    with pytest.raises(IllegalMove) as err:
        ENGINE.check(state, seat, mv)
    return err.value.code


# --------------------------------------------------------------------------- setup and movement


def test_men_start_on_ranks_one_and_three_and_white_has_32_rook_moves():
    """§2 setup; every rank-1 man has one move (to rank 2), every rank-3 man three.

    8 B B B B B B B B
    7 . . . . . . . .
    6 B B B B B B B B
    5 . . . . . . . .
    4 . . . . . . . .
    3 W W W W W W W W
    2 . . . . . . . .
    1 W W W W W W W W
    """
    state = ENGINE.new(2, 1)
    assert ENGINE.to_json(state)["board"] == [
        "BBBBBBBB", "........", "BBBBBBBB", "........", "........", "WWWWWWWW", "........", "WWWWWWWW",
    ]
    assert ENGINE.to_act(state) == {0}
    assert len(slides(state, 0)) == 32
    assert len(ENGINE.legal_moves(state, 0)) == 33  # and the draw offer
    assert [m for m in slides(state, 0) if m["from"] == "a1"] == [{"kind": "move", "from": "a1", "to": "a2"}]
    assert sorted(m["to"] for m in slides(state, 0) if m["from"] == "a3") == ["a2", "a4", "a5"]


def test_target_square_must_be_empty_no_displacement_capture():
    """§3.2, T8: W h1, B a1; h1-a1 is illegal (the target is occupied).

    1 B . . . . . . W
    """
    state = position(white=["h1"], black=["a1"])
    assert error_code(state, 0, move("h1", "a1")) == "mak-yek.target-occupied"
    assert ("h1", "b1") in {(m["from"], m["to"]) for m in slides(state, 0)}


def test_rook_move_may_not_jump_turn_or_start_from_an_empty_square():
    """§3.1-3.2 "no jumping, no diagonal moves": W a1, W a3, B h8.

    3 W . .
    2 . . .
    1 W . .
    """
    state = position(white=["a1", "a3"], black=["h8"])
    assert error_code(state, 0, move("a1", "a5")) == "mak-yek.path-blocked"
    assert error_code(state, 0, move("a1", "b2")) == "mak-yek.not-rook-move"
    assert error_code(state, 0, move("b1", "b2")) == "mak-yek.no-own-man"
    assert error_code(state, 0, move("h8", "h7")) == "mak-yek.no-own-man"
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, 1, move("h8", "h7"))
    assert err.value.code == "mak-yek.not-your-turn"


# --------------------------------------------------------------------------- captures (T1..T7)


def test_custodian_capture_takes_the_flanked_enemy():
    """§4.1, T1: W d1, B e4, W f4; d1-d4 captures e4 (and Black, left without men, loses).

    4 . . . * B W      * = d4 after the move
    1 . . . W
    """
    state = position(white=["d1", "f4"], black=["e4"])
    after = ENGINE.apply(state, 0, move("d1", "d4"))
    assert men(after) == {"d4": "W", "f4": "W"}
    assert ENGINE.events(state, 0, move("d1", "d4"), after)[1] == {"type": "capture", "seat": 0, "squares": ["e4"]}
    assert ENGINE.to_act(after) == frozenset()
    outcome = ENGINE.outcome(after)
    assert outcome.winners == (0,) and outcome.reason == "all-captured"
    report = ENGINE.scores(after)
    assert report.totals == (1, 0) and report.final and report.winners == (0,)
    assert report.to_json()["breakdown"][0] == {"men": 2, "captured": 16, "result": "win", "points": 1}
    assert report.round == 1 and report.points == (1, 0) and report.history == ()
    assert after.phase.value == "game-over" and ENGINE.to_json(after)["result"] == {"winner": 0, "reason": "all-captured"}


def test_intervention_captures_both_enemies_either_side():
    """§4.2, T2: W d1, B c4, B e4; d1-d4 lands between them and captures both.

    4 . . B * B
    1 . . . W
    """
    state = position(white=["d1"], black=["c4", "e4", "h8"])
    after = ENGINE.apply(state, 0, move("d1", "d4"))
    assert men(after) == {"d4": "W", "h8": "B"}
    assert after.plies_since_capture == 0 and after.positions == ()


def test_intervention_and_custodian_combine_to_three_captures():
    """§4.3, T3: W d1, B c5, B e5, B d6, W d7; d1-d5 takes c5, e5 (intervention) and d6 (custodian).

    7 . . . W
    6 . . . B
    5 . . B * B
    1 . . . W
    """
    state = position(white=["d1", "d7"], black=["c5", "e5", "d6", "h8"])
    after = ENGINE.apply(state, 0, move("d1", "d5"))
    assert men(after) == {"d5": "W", "d7": "W", "h8": "B"}
    # Murray's limit (§4.3) allows one custodian plus the intervention: still all three here
    limited = position(white=["d1", "d7"], black=["c5", "e5", "d6", "h8"], max_custodian_per_move=1)
    assert ENGINE.legal_moves(limited, 0).count(move("d1", "d5")) == 1
    assert men(ENGINE.apply(limited, 0, move("d1", "d5"))) == men(after)


def test_two_custodian_captures_in_one_move():
    """§4.3, T4: W d1, B d5, W d6, B e4, W f4; d1-d4 captures d5 and e4.

    6 . . . W
    5 . . . B
    4 . . . * B W
    1 . . . W
    """
    state = position(white=["d1", "d6", "f4"], black=["d5", "e4", "h8"])
    after = ENGINE.apply(state, 0, move("d1", "d4"))
    assert men(after) == {"d4": "W", "d6": "W", "f4": "W", "h8": "B"}


def test_murray_limit_makes_the_mover_choose_one_custodian_capture():
    """§4.3 with max_custodian_per_move=1, on T4: d1-d4 is listed once per capture it may make.

    6 . . . W
    5 . . . B
    4 . . . * B W
    1 . . . W
    """
    state = position(white=["d1", "d6", "f4"], black=["d5", "e4", "h8"], max_custodian_per_move=1)
    listed = [m for m in slides(state, 0) if m["from"] == "d1" and m["to"] == "d4"]
    assert sorted(m["custodian"] for m in listed) == ["d5", "e4"]
    assert error_code(state, 0, move("d1", "d4")) == "mak-yek.custodian-choice-required"
    assert error_code(state, 0, move("d1", "d4", custodian="c4")) == "mak-yek.not-a-custodian-capture"
    after = ENGINE.apply(state, 0, move("d1", "d4", custodian="e4"))
    assert men(after) == {"d4": "W", "d5": "B", "d6": "W", "f4": "W", "h8": "B"}
    # a move with a single capture (or none) takes no choice
    assert error_code(state, 0, move("d1", "d2", custodian="d5")) == "mak-yek.no-custodian-choice"
    unlimited = position(white=["d1", "d6", "f4"], black=["d5", "e4", "h8"])
    assert error_code(unlimited, 0, move("d1", "d4", custodian="e4")) == "mak-yek.no-custodian-choice"


def test_two_adjacent_enemies_are_not_captured_unless_line_custodian():
    """T5: W e1, W b4, B c4, B d4; e1-e4: none by default; c4 and d4 under line_custodian (§4.4).

    4 . W B B *
    1 . . . . W
    """
    pieces = {"white": ["e1", "b4"], "black": ["c4", "d4", "h8"]}
    standard = ENGINE.apply(position(**pieces), 0, move("e1", "e4"))
    assert men(standard) == {"b4": "W", "c4": "B", "d4": "B", "e4": "W", "h8": "B"}
    line = ENGINE.apply(position(**pieces, line_custodian=True), 0, move("e1", "e4"))
    assert men(line) == {"b4": "W", "e4": "W", "h8": "B"}
    # an open-ended line is not captured even then
    open_line = ENGINE.apply(position(white=["e1"], black=["c4", "d4", "h8"], line_custodian=True), 0,
                             move("e1", "e4"))
    assert men(open_line) == {"c4": "B", "d4": "B", "e4": "W", "h8": "B"}


def test_captures_happen_only_around_the_square_moved_to():
    """§4.5, T6: B e4 already between W d4 and W f4; White plays a1-a2: nothing is captured.

    4 . . . W B W
    1 W
    """
    state = position(white=["a1", "d4", "f4"], black=["e4"])
    after = ENGINE.apply(state, 0, move("a1", "a2"))
    assert men(after)["e4"] == "B" and after.plies_since_capture == 1


def test_mover_between_two_enemies_captures_them_and_is_never_captured():
    """§4.5, T7: Black to move, B e8, W d4, W f4; e8-e4 takes d4 and f4 by intervention.

    8 . . . . B
    4 . . . W * W
    """
    state = position(white=["d4", "f4", "a1"], black=["e8"], turn=1)
    after = ENGINE.apply(state, 1, move("e8", "e4"))
    assert men(after) == {"a1": "W", "e4": "B"}



def test_intervention_needs_an_enemy_on_both_sides_and_the_edge_never_flanks():
    """§4.1-4.2: a one-step slide c4-d4 leaves c4 empty, so B e4 alone is not taken by
    intervention (and not by custodian: f4 is empty); b1-b5 lands next to B a5 on the edge,
    and the board edge is no friendly man.

    5 B . . . .            5 B W . . .
    4 . . W . B     ->     4 . . . W B   (after c4-d4; nothing taken)
    1 . W . . .
    """
    state = position(white=["c4", "b1"], black=["e4", "a5", "h8"])
    after = ENGINE.apply(state, 0, move("c4", "d4"))
    assert men(after) == {"d4": "W", "b1": "W", "e4": "B", "a5": "B", "h8": "B"} and after.plies_since_capture == 1
    edge = ENGINE.apply(state, 0, move("b1", "b5"))
    assert men(edge) == {"c4": "W", "b5": "W", "e4": "B", "a5": "B", "h8": "B"}


def test_a_capture_restarts_the_repetition_and_no_capture_counts():
    """§5.4-5.5: after quiet shuffles, a capture sets plies_since_capture to 0 and empties the
    history, so earlier positions no longer count towards a repetition.

    4 . . . . B W
    1 W . . W
    8 . . . . . . . B
    """
    state = position(white=["a1", "d1", "f4"], black=["e4", "h8"])
    state = play(state, "a1-a2", "h8-h7", "a2-a1", "h7-h8")
    assert state.plies_since_capture == 4 and len(state.positions) == 4
    after = play(state, "d1-d4")
    assert men(after).get("e4") is None and after.plies_since_capture == 0 and after.positions == ()
    assert ENGINE.to_json(after)["plies_since_capture"] == 0


# --------------------------------------------------------------------------- ends and draws


def test_player_who_cannot_move_loses_or_draws_by_option():
    """§5.2: c8-b8 boxes Black's only man in a8; Black cannot move and loses.

    8 B . W          8 B W .
    7 W . .    ->    7 W . .
    """
    pieces = {"white": ["a7", "c8"], "black": ["a8"]}
    after = ENGINE.apply(position(**pieces), 0, move("c8", "b8"))
    assert men(after)["a8"] == "B"
    assert ENGINE.to_act(after) == frozenset()
    assert ENGINE.outcome(after).winners == (0,) and ENGINE.outcome(after).reason == "no-legal-move"
    drawn = ENGINE.apply(position(**pieces, no_legal_move="draw"), 0, move("c8", "b8"))
    assert ENGINE.outcome(drawn).draw and ENGINE.outcome(drawn).winners == ()
    assert ENGINE.scores(drawn).totals == (0, 0) and ENGINE.scores(drawn).breakdown[1].result == "draw"
    with pytest.raises(GameOver) as err:
        ENGINE.check(drawn, 1, move("a8", "b8"))
    assert err.value.code == "mak-yek.game-over"


def test_third_occurrence_of_a_position_is_a_draw():
    """§5.4: W a1 and B h8 shuffle a1-a2, h8-h7, a2-a1, h7-h8 twice: the 8th ply repeats the
    start (White to move) for the third time.

    8 . . . . . . . B
    1 W . . . . . . .
    """
    start = position(white=["a1"], black=["h8"])
    shuffle = ("a1-a2", "h8-h7", "a2-a1", "h7-h8")
    seven = play(start, *shuffle, *shuffle[:3])
    assert ENGINE.to_act(seven) == {1} and len(seven.positions) == 7
    eight = play(seven, shuffle[3])
    assert ENGINE.outcome(eight).draw and ENGINE.outcome(eight).reason == "threefold-repetition"
    # the same positions with the other player to move do not count
    off = play(position(white=["a1"], black=["h8"], repetition="off"), *shuffle, *shuffle)
    assert ENGINE.to_act(off) == {0} and off.positions == ()


def test_no_capture_limit_draws_after_that_many_quiet_plies():
    """§5.5: no_capture_limit_plies=3: the third quiet ply ends the game in a draw."""
    start = position(white=["a1"], black=["h8"], no_capture_limit_plies=3)
    two = play(start, "a1-a2", "h8-h7")
    assert ENGINE.to_act(two) == {0} and two.plies_since_capture == 2
    three = play(two, "a2-a3")
    assert ENGINE.outcome(three).reason == "no-capture-limit" and ENGINE.outcome(three).draw


def test_default_no_capture_limit_is_one_hundred_plies():
    """§5.5: the default draws after 100 plies without capture (a random quiet walk)."""
    state = position(white=["a1", "c1"], black=["h8", "f8"], repetition="off")
    rnd = random.Random(5)
    for ply in range(100):
        assert ENGINE.to_act(state), ply
        seat = state.turn
        quiet = [m for m in ENGINE.legal_moves(state, seat)
                 if isinstance(m, Slide) and len(men(ENGINE.apply(state, seat, m))) == 4]
        state = ENGINE.apply(state, seat, rnd.choice(quiet))
    assert state.plies_since_capture == 100 and ENGINE.outcome(state).reason == "no-capture-limit"


def test_draw_by_agreement_is_offered_before_a_move_and_accepted_instead_of_one():
    """§5.3: White offers, then moves a1-a2; Black accepts instead of moving: a draw.

    8 . . . . . . . B
    1 W . . . . . . .
    """
    offer, accept = ENGINE.move_from_json({"kind": "offer-draw"}), ENGINE.move_from_json({"kind": "accept-draw"})
    start = position(white=["a1"], black=["h8"])
    assert offer in ENGINE.legal_moves(start, 0) and accept not in ENGINE.legal_moves(start, 0)
    assert error_code(start, 0, accept) == "mak-yek.no-draw-offer"
    offered = ENGINE.apply(start, 0, offer)
    assert ENGINE.to_act(offered) == {0} and ENGINE.to_json(offered)["draw_offer"] == 0
    assert offer not in ENGINE.legal_moves(offered, 0)
    assert error_code(offered, 0, offer) == "mak-yek.draw-already-offered"
    moved = play(offered, "a1-a2")
    assert ENGINE.legal_moves(moved, 1)[0] == accept
    drawn = ENGINE.apply(moved, 1, accept)
    outcome = ENGINE.outcome(drawn)
    assert outcome.draw and outcome.reason == "agreement" and ENGINE.to_act(drawn) == frozenset()
    assert ENGINE.scores(drawn).totals == (0, 0) and ENGINE.scores(drawn).final
    assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(drawn)))) == drawn
    # a move declines: the offer lapses and White may offer again later
    declined = play(moved, "h8-h7")
    assert ENGINE.to_json(declined)["draw_offer"] is None and offer in ENGINE.legal_moves(declined, 0)
    assert error_code(declined, 0, accept) == "mak-yek.no-draw-offer"
    # the option turns offers off
    off = position(white=["a1"], black=["h8"], draw_by_agreement=False)
    assert all(isinstance(m, Slide) for m in ENGINE.legal_moves(off, 0))
    assert error_code(off, 0, offer) == "mak-yek.draw-offers-off"


def test_first_player_option_lets_seat_one_start():
    """§6 first_player=1: a side is chosen by seat number (DESIGN 4.5), never by colour."""
    state = ENGINE.new(2, 3, {"first_player": 1})
    assert ENGINE.to_act(state) == {1}
    assert ENGINE.options_of(state)["first_player"] == 1
    for colour in ("black", "red", True):
        with pytest.raises(InvalidOption) as err:
            ENGINE.new(2, 3, {"first_player": colour})
        assert err.value.code == "options.bad-value"
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(2, 3, setup={"board": []})
    assert err.value.code == "mak-yek.setup-unsupported"


def test_scores_mid_game_are_running_and_not_final():
    state = play(position(white=["d1", "f4", "a1"], black=["e4", "h8"]), "d1-d4")
    report = ENGINE.scores(state)
    assert report.final is False and report.totals == (0, 0) and report.winners == ()
    assert report.to_json()["breakdown"] == [{"men": 3, "captured": 15, "result": None, "points": 0},
                                             {"men": 1, "captured": 13, "result": None, "points": 0}]
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally({})
    assert err.value.code == "mak-yek.tally-unsupported"


# --------------------------------------------------------------------------- JSON, views, schemas


def state_json(**changes):
    data = ENGINE.to_json(play(ENGINE.new(2, 1), "a3-a4", "h6-h5"))
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "code"), [
    ({"board": ["BBBBBBBB", "........", "BBBBBBBB", "B.......", "W.......", ".WWWWWWW", "........", "WWWWWWWW"]},
     "mak-yek.too-many-men"),
    ({"board": ["BBBBBBBB"] * 7 + ["WWWWWWWX"]}, "mak-yek.bad-state"),
    ({"board": ["BBBBBBBB"] * 7}, "mak-yek.bad-state"),
    ({"turn": 2}, "mak-yek.bad-state"),
    ({"turn": True}, "mak-yek.bad-state"),
    ({"players": 3}, "mak-yek.bad-state"),
    ({"phase": "over"}, "mak-yek.bad-state"),
    ({"phase": "game-over"}, "mak-yek.bad-result"),
    ({"plies_since_capture": 101}, "mak-yek.bad-ply-count"),
    ({"plies_since_capture": 3}, "mak-yek.bad-turn"),  # 16 men each: 3 plies from White's start is Black's turn
    ({"plies_since_capture": 4}, "mak-yek.bad-positions"),  # 2 positions kept, not 4
    ({"positions": ["0" * 32, "1" * 32]}, "mak-yek.bad-positions"),
    ({"positions": ["zz"] * 2}, "mak-yek.bad-state"),
    ({"options": {**DEFAULTS, "line_custodian": "yes"}}, "mak-yek.bad-state"),
    ({"options": {**DEFAULTS, "first_player": "white"}}, "mak-yek.bad-state"),
    ({"options": {"line_custodian": True}}, "mak-yek.bad-state"),
    ({"extra": 1}, "mak-yek.bad-state"),
    ({"colors": ["black", "white"]}, "mak-yek.bad-state"),
    ({"draw_offer": 2}, "mak-yek.bad-state"),
    ({"draw_offer": 0, "options": {**DEFAULTS, "draw_by_agreement": False}}, "mak-yek.bad-draw-offer"),
    ({"draw_agreed": True, "options": {**DEFAULTS, "draw_by_agreement": False}}, "mak-yek.bad-draw-offer"),
    ({"draw_agreed": "yes"}, "mak-yek.bad-state"),
    ({"draw_offer": 1, "draw_agreed": True}, "mak-yek.bad-draw-offer"),
    ({"result": {"winner": 0, "reason": "checkmate"}}, "mak-yek.bad-state"),
])
def test_from_json_rejects_tampered_states(changes, code):
    """Meaning (§7) has the game's codes; anything not of the declared shape is ``bad-state``
    naming the field."""
    check_refused(ENGINE, state_json(**changes), code, fields={*changes, "state"})


def test_from_json_rejects_a_history_that_is_not_one_move_per_ply():
    """Swap the two history entries: the plies no longer alternate White, Black."""
    data = state_json()
    assert ENGINE.from_json(data) is not None and len(data["positions"]) == 2
    data["positions"].reverse()
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(data)
    assert err.value.code == "mak-yek.bad-positions"
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json([1, 2])
    assert err.value.code == "mak-yek.bad-state" and err.value.context["field"] == "state"
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json({k: v for k, v in state_json().items() if k != "board"})
    assert err.value.code == "mak-yek.bad-state" and err.value.context["field"] == "board"


def test_history_keys_are_the_occupancy_of_both_sides():
    start = ENGINE.new(2, 1)
    assert position_key(start.board) == "0000000000ff00ff" + "ff00ff0000000000"
    assert play(start, "a3-a4").positions == (position_key(start.board),)


@pytest.mark.parametrize("data", [
    None, {"kind": "jump", "from": "a1", "to": "a2"}, {"kind": "move", "from": "a1"},
    {"kind": "move", "from": "a9", "to": "a2"}, {"kind": "move", "from": "a1", "to": "i2"},
    {"kind": "move", "from": "a1", "to": "a2", "via": "a3"}, {"kind": "move", "from": "A1", "to": "a2"},
    {"kind": "move", "from": "a1", "to": "a2", "custodian": 5},
    {"kind": "offer-draw", "to": "a2"}, {"kind": "accept-draw", "draw": True},
])
def test_malformed_moves_are_refused_with_malformed_move(data):
    with pytest.raises(IllegalMove) as err:
        ENGINE.move_from_json(data)
    assert err.value.code == "mak-yek.malformed-move" and "field" in err.value.context


def test_view_is_the_whole_board_for_everyone():
    state = play(ENGINE.new(2, 1), "a3-a4")
    for seat in (None, 0, 1):
        assert ENGINE.view(state, seat) == ENGINE.to_json(state)
        assert "rng" not in json.dumps(ENGINE.view(state, seat))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_reached_state_and_move_reads_back_as_itself(seed):
    """The declared shapes (DESIGN 4.8) write and read every state and move of random games."""
    rnd = random.Random(seed)
    options = {"max_custodian_per_move": rnd.choice(["unlimited", 1]), "line_custodian": rnd.random() < 0.5}
    state, ply = ENGINE.new(2, seed, options), 0
    while ENGINE.to_act(state):
        assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
        assert state.phase.value == "play" and state.players == 2
        moves = ENGINE.legal_moves(state, state.turn)
        chosen = rnd.choice(moves)
        for m in moves if ply % 25 == 0 else [chosen]:  # every listed move now and then
            assert ENGINE.move_from_json(json.loads(json.dumps(ENGINE.move_to_json(m)))) == m
        state, ply = ENGINE.apply(state, state.turn, chosen), ply + 1
    assert state.phase.value == "game-over" and state.turn is None and state.result is not None
    assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state


# --------------------------------------------------------------------------- the code catalogue (DESIGN 4.4)


def _t4(**options):
    """T4 with Murray's limit: d1-d4 could take d5 or e4 by custodian."""
    return position(white=["d1", "d6", "f4"], black=["d5", "e4", "h8"], max_custodian_per_move=1, **options)


def _state_with(**changes):
    return lambda: ENGINE.from_json(state_json(**changes))


START = ENGINE.new(2, 1)
OFFER, ACCEPT = ENGINE.move_from_json({"kind": "offer-draw"}), ENGINE.move_from_json({"kind": "accept-draw"})
#: one real raise of every code the engine (and the service, for a seat the table lacks) answers
TRIGGERS = {
    "mak-yek.not-your-turn": lambda: ENGINE.check(START, 1, move("a6", "a5")),
    "mak-yek.game-over": lambda: ENGINE.check(ENGINE.apply(position(white=["d1", "f4"], black=["e4"]), 0,
                                                           move("d1", "d4")), 1, move("e4", "e5")),
    "mak-yek.no-such-seat": lambda: BINDINGS[ENGINE.game_id].view(START, 2),
    "mak-yek.tally-unsupported": lambda: ENGINE.score_tally({}),
    "mak-yek.setup-unsupported": lambda: ENGINE.new(2, 1, setup={"board": []}),
    "mak-yek.draw-offers-off": lambda: ENGINE.check(ENGINE.new(2, 1, {"draw_by_agreement": False}), 0, OFFER),
    "mak-yek.draw-already-offered": lambda: ENGINE.check(ENGINE.apply(START, 0, OFFER), 0, OFFER),
    "mak-yek.no-draw-offer": lambda: ENGINE.check(START, 0, ACCEPT),
    "mak-yek.no-own-man": lambda: ENGINE.check(START, 0, move("a2", "a4")),
    "mak-yek.not-rook-move": lambda: ENGINE.check(START, 0, move("a3", "b4")),
    "mak-yek.target-occupied": lambda: ENGINE.check(START, 0, move("a1", "a3")),
    "mak-yek.path-blocked": lambda: ENGINE.check(START, 0, move("a1", "a4")),
    "mak-yek.custodian-choice-required": lambda: ENGINE.check(_t4(), 0, move("d1", "d4")),
    "mak-yek.no-custodian-choice": lambda: ENGINE.check(_t4(), 0, move("d1", "d2", custodian="d5")),
    "mak-yek.not-a-custodian-capture": lambda: ENGINE.check(_t4(), 0, move("d1", "d4", custodian="c4")),
    "mak-yek.malformed-move": lambda: ENGINE.move_from_json({"kind": "jump", "from": "a1"}),
    "mak-yek.bad-state": lambda: ENGINE.from_json([]),
    "mak-yek.bad-board": lambda: ENGINE.from_json({**ENGINE.to_json(START), "board": [
        "BBBBBBBB", "........", "BBBBBBBB", "........", "W.......", ".WWWWWWW", "........", "WWWWWWWW"]}),
    "mak-yek.too-many-men": _state_with(board=["BBBBBBBB", "........", "BBBBBBBB", "B.......", "W.......",
                                               ".WWWWWWW", "........", "WWWWWWWW"]),
    "mak-yek.bad-turn": _state_with(plies_since_capture=3),
    "mak-yek.bad-ply-count": _state_with(plies_since_capture=101),
    "mak-yek.bad-positions": _state_with(positions=["0" * 32, "1" * 32]),
    "mak-yek.bad-draw-offer": _state_with(draw_offer=1, draw_agreed=True),
    "mak-yek.bad-result": _state_with(result={"winner": 0, "reason": "all-captured"}),
}


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_every_code_is_catalogued_and_its_polish_detail_formats_with_the_raise(code):
    """DESIGN 4.4: a real raise of ``code`` carries the context its Polish template needs."""
    check_raise(ENGINE, code, raise_of(TRIGGERS[code]))


def test_the_declared_codes_are_exactly_those_triggered_above():
    """Every code Mak-yek declares (its own and the shared ones it opts into, DESIGN 4.4) is
    raised by a trigger above, and nothing else is declared."""
    assert set(ENGINE.codes) == set(TRIGGERS)


def test_codes_met_in_play_are_catalogued():
    """Random playouts that also try moves listed earlier (mostly illegal now) meet only catalogued codes."""
    met = set()
    for seed in range(6):
        rnd = random.Random(seed)
        state, pool = ENGINE.new(2, seed, {"max_custodian_per_move": rnd.choice(["unlimited", 1])}), []
        while ENGINE.to_act(state):
            moves = ENGINE.legal_moves(state, state.turn)
            met |= codes_checked(ENGINE, state, pool[-10:])
            pool.extend(moves)
            state = ENGINE.apply(state, state.turn, rnd.choice(moves))
        try:
            ENGINE.check(state, 0, pool[-1])
        except RulesError as exc:
            met.add(exc.code)
    assert {"mak-yek.not-your-turn", "mak-yek.no-own-man", "mak-yek.game-over"} <= met
    assert met <= set(ENGINE.codes)


def test_board_games_share_square_names_and_no_game_imports_another():
    """Issue 12 §4: square names live in rules/boards.py; Mak-yek and Northcott import it, not each other."""
    assert boards.square_name(0, 0) == "a1" and boards.square_name(7, 7) == "h8"
    assert boards.parse_square("c4") == (2, 3) and boards.parse_square("h12", ranks=12) == (7, 11)
    for bad in ("a0", "i1", "a9", "c04", "", None, 12, "a1x"):
        assert boards.parse_square(bad) is None, bad
    games = {"mak_yek", "northcott"}
    for module in (mak_yek, northcott):
        imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(module)))
                    if isinstance(node, ast.ImportFrom) and node.module}
        assert "rules.boards" in imported and not {f"rules.{g}" for g in games} & imported
