"""Northcott's game scenario tests. Sections (§) are those of docs/rules/northcott.md; V1..V4 are its §8 vectors.

Ranks in the drawings and in the JSON are absolute and 1-based (White's edge is rank 1).
Two brute-force solvers live here, independent of the engine and of the Nim / Grundy
analysis: ``dice_wins`` searches raw positions (used to check the engine's game tree) and
``gaps_win`` the multiset of gaps (big enough for the full-board vectors V1/V2); the
classic game, whose moves away make cycles, is solved by retrograde analysis.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import deque
from functools import cache

import pytest

from rules.base import IllegalMove, InvalidOption, InvalidState, NotYourTurn, Rng
from rules.northcott import ENGINE
from rules.shapes import encode
from service.games import BINDINGS
from tests.rules.catalogue import check_raise, check_refused, codes_checked, raise_of

DEFAULTS = {name: opt.default for name, opt in ENGINE.options.items()}
RNG = encode(Rng.from_seed(1))


def position(white, black, turn=0, phase=None, die=None, result=None, **options):
    """A state from absolute 1-based ranks per file a..h (None: not placed) of seat 0 (White) and 1 (Black);
    the phase is "play", or "game-over" with a result."""
    return ENGINE.from_json({
        "players": 2, "phase": phase or ("game-over" if result else "play"), "colors": ["white", "black"],
        "turn": turn, "pawns": [list(white), list(black)], "die": die, "result": result, "rng": RNG,
        "options": {**DEFAULTS, **options},
    })


def raw(pawns):
    """The solvers' raw position: 0-based ranks."""
    return tuple(tuple(r - 1 for r in own) for own in pawns)


def mv(frm, to):
    return ENGINE.move_from_json({"kind": "move", "from": frm, "to": to})


def roll(*dice):
    return ENGINE.move_from_json({"kind": "roll", "dice": list(dice)} if dice else {"kind": "roll"})


def code_of(state, seat, move):
    with pytest.raises(IllegalMove) as err:
        ENGINE.check(state, seat, move)
    return err.value.code


def gaps(state):
    return [b - w - 1 for w, b in zip(*state.pawns, strict=True)]


def set_up(white_rolls, black_rolls, **options):
    """Play the in-order setup with physical dice: a (White, Black), b (White, Black), ..."""
    state = ENGINE.new(2, 9, options)
    for w, b in zip(white_rolls, black_rolls, strict=True):
        state = ENGINE.apply(state, 0, roll(w))
        state = ENGINE.apply(state, 1, roll(b))
    return state


# --------------------------------------------------------------------------- brute-force solvers


@cache
def dice_wins(white: tuple, black: tuple, mover: int, misere: bool = False, ranks: int = 8) -> bool:
    """Does the player to move win? Raw positions (0-based ranks), forward 1-3, no jumping."""
    own, enemy = (white, black) if mover == 0 else (black, white)
    ahead = 1 if mover == 0 else -1
    replies = []
    for f in range(len(own)):
        for k in range(1, 4):
            target = own[f] + ahead * k
            if not 0 <= target < ranks or target == enemy[f]:
                break  # every square passed over and the target must be empty
            moved = own[:f] + (target,) + own[f + 1:]
            replies.append((moved, enemy) if mover == 0 else (enemy, moved))
    if not replies:
        return misere
    return any(not dice_wins(w, b, 1 - mover, misere, ranks) for w, b in replies)


@cache
def gaps_win(gap_multiset: tuple, misere: bool = False) -> bool:
    """Does the player to move win? Any move shrinks one file's gap by 1, 2 or 3."""
    nexts = {tuple(sorted(gap_multiset[:i] + (g - k,) + gap_multiset[i + 1:]))
             for i, g in enumerate(gap_multiset) for k in range(1, min(g, 3) + 1)}
    if not nexts:
        return misere
    return any(not gaps_win(n, misere) for n in nexts)


def classic_moves(white: tuple, black: tuple, mover: int, ranks: int):
    """Classic moves (§4.2): any distance towards or away, never onto or past the enemy, on the board."""
    own, enemy = (white, black) if mover == 0 else (black, white)
    for f in range(len(own)):
        for target in range(ranks):
            if target == own[f] or target == enemy[f]:
                continue
            if (target - enemy[f]) * (own[f] - enemy[f]) <= 0:
                continue  # on the other side of the enemy pawn
            moved = own[:f] + (target,) + own[f + 1:]
            yield (moved, enemy) if mover == 0 else (enemy, moved)


def classic_solve(files: int, ranks: int) -> dict:
    """Retrograde analysis of the classic game: {(white, black, mover): True if the mover wins}."""
    per_file = [(w, b) for w in range(ranks) for b in range(w + 1, ranks)]
    states = [(tuple(p[0] for p in combo), tuple(p[1] for p in combo), mover)
              for combo in itertools.product(per_file, repeat=files) for mover in (0, 1)]
    preds: dict = {s: [] for s in states}
    left = {}
    result: dict = {}
    queue = deque()
    for s in states:
        succ = [(w, b, 1 - s[2]) for w, b in classic_moves(s[0], s[1], s[2], ranks)]
        left[s] = len(succ)
        for t in succ:
            preds[t].append(s)
        if not succ:
            result[s] = False
            queue.append(s)
    while queue:
        t = queue.popleft()
        for s in preds[t]:
            if s in result:
                continue
            if result[t] is False:
                result[s] = True
                queue.append(s)
            else:
                left[s] -= 1
                if left[s] == 0:
                    result[s] = False
                    queue.append(s)
    return result


def engine_wins(state, mover: int, memo: dict) -> bool:
    """Does ``mover``, the player to move, win, searching the ENGINE's own game tree (legal_moves / apply)?"""
    key = (state.pawns, mover)
    if key not in memo:
        if not ENGINE.to_act(state):
            memo[key] = mover in ENGINE.outcome(state).winners
        else:
            memo[key] = any(not engine_wins(ENGINE.apply(state, mover, m), 1 - mover, memo)
                            for m in ENGINE.legal_moves(state, mover))
    return memo[key]


# --------------------------------------------------------------------------- vectors


def test_dice_setup_places_each_pawn_by_its_roll_v1_is_lost_for_white():
    """§3.1, §8 V1: White rolls 5,2,6,3,1,4,2,6 and Black 3,3,1,5,4,2,6,1 for files a..h.

    White ranks 1,2,2,3,1,3,2,2; Black (from its edge) 3,3,1,1,3,2,2,1 = absolute 6,6,8,8,6,7,7,8;
    gaps 4,3,5,4,4,3,4,5; Grundy values (gap mod 4) XOR to 0: White, to move, loses.
    """
    state = set_up([5, 2, 6, 3, 1, 4, 2, 6], [3, 3, 1, 5, 4, 2, 6, 1])
    data = ENGINE.to_json(state)
    assert data["phase"] == "play" and ENGINE.to_act(state) == {0}
    assert data["pawns"] == [[1, 2, 2, 3, 1, 3, 2, 2], [6, 6, 8, 8, 6, 7, 7, 8]]
    assert gaps(state) == [4, 3, 5, 4, 4, 3, 4, 5]
    assert not gaps_win(tuple(sorted(gaps(state))))
    grundy = 0
    for g in gaps(state):
        grundy ^= g % 4
    assert grundy == 0


def test_v2_winning_moves_for_white():
    """§8 V2: as V1 but Black's h-roll is 2 (rank 7): gaps 4,3,5,4,4,3,4,4, XOR 1.

    White wins; a1-a4 (gap 4 -> 1), b2-b3 and c2-c3 are winning moves.
    """
    state = set_up([5, 2, 6, 3, 1, 4, 2, 6], [3, 3, 1, 5, 4, 2, 6, 2])
    assert gaps(state) == [4, 3, 5, 4, 4, 3, 4, 4]
    assert gaps_win(tuple(sorted(gaps(state))))
    listed = {json.dumps(ENGINE.move_to_json(m)) for m in ENGINE.legal_moves(state, 0)}
    for frm, to in (("a1", "a4"), ("b2", "b3"), ("c2", "c3")):
        assert json.dumps({"kind": "move", "from": frm, "to": to}) in listed
        after = ENGINE.apply(state, 0, mv(frm, to))
        assert ENGINE.to_act(after) == {1}
        assert not gaps_win(tuple(sorted(gaps(after)))), (frm, to)
    assert gaps_win(tuple(sorted(gaps(ENGINE.apply(state, 0, mv("d3", "d4"))))))  # a losing move


def test_pawn_moves_one_to_three_squares_and_never_jumps():
    """§4.1, §8 V3: White on d4, Black on d6 (gap 1): d4-d5 is legal, d4-d6 lands on and d4-d7 jumps the enemy.

    6 . . . B
    5 . . . .
    4 . . . W
    """
    white, black = [1, 1, 1, 4, 1, 1, 1, 1], [8, 8, 8, 6, 8, 8, 8, 8]
    state = position(white, black)
    assert ENGINE.is_legal(state, 0, mv("d4", "d5"))
    assert code_of(state, 0, mv("d4", "d6")) == "northcott.blocked"
    assert code_of(state, 0, mv("d4", "d7")) == "northcott.blocked"
    assert code_of(state, 0, mv("a1", "a5")) == "northcott.too-far"
    assert code_of(state, 0, mv("d4", "d3")) == "northcott.not-forward"
    assert code_of(state, 0, mv("b2", "b3")) == "northcott.no-own-pawn"
    assert code_of(state, 0, mv("d6", "d5")) == "northcott.no-own-pawn"
    with pytest.raises(IllegalMove) as err:
        ENGINE.move_from_json({"kind": "move", "from": "a1", "to": "b2"})
    assert err.value.code == "northcott.not-same-file"
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, 1, mv("d6", "d5"))
    assert err.value.code == "northcott.not-your-turn"
    moves = sorted(json.dumps(ENGINE.move_to_json(m)) for m in ENGINE.legal_moves(state, 0))
    assert len(moves) == 7 * 3 + 1


def test_black_moves_down_its_file_one_to_three_squares_without_jumping():
    """§4.1 for Black: forward is towards rank 1. Black d6, White d4 (gap 1): d6-d5 is legal,
    d6-d4 lands on and d6-d3 jumps White; d6-d7 goes backward; a8-a4 is 4 squares.

    6 . . . B
    5 . . . .
    4 . . . W
    """
    white, black = [1, 1, 1, 4, 1, 1, 1, 1], [8, 8, 8, 6, 8, 8, 8, 8]
    state = position(white, black, turn=1)
    assert ENGINE.is_legal(state, 1, mv("d6", "d5"))
    assert code_of(state, 1, mv("d6", "d4")) == "northcott.blocked"
    assert code_of(state, 1, mv("d6", "d3")) == "northcott.blocked"
    assert code_of(state, 1, mv("d6", "d7")) == "northcott.not-forward"
    assert code_of(state, 1, mv("a8", "a4")) == "northcott.too-far"
    assert ENGINE.is_legal(state, 1, mv("a8", "a5"))
    assert len(ENGINE.legal_moves(state, 1)) == 7 * 3 + 1
    after = ENGINE.apply(state, 1, mv("d6", "d5"))
    assert ENGINE.to_json(after)["pawns"][1][3] == 5 and ENGINE.to_act(after) == {0}
    assert [m for m in ENGINE.legal_moves(after, 0) if m.frm[0] == "d"] == []  # d4 is now blocked


def test_classic_nim_positions_v4_by_retrograde_analysis():
    """§8 V4 (classic, §4.2): gaps 1, 2, 3 lose for the mover; from gaps 2, 3 the move to 2, 2 wins.

    Solved on a 3-file (and 2-file) board of 6 ranks by retrograde analysis, moves away included.
    """
    three = classic_solve(3, 6)
    assert len(three) == 2 * 15 ** 3  # every position decided: no draws by endless play
    assert three[((0, 0, 0), (2, 3, 4), 0)] is False  # gaps 1, 2, 3
    assert three[((1, 0, 2), (3, 4, 5), 1)] is False  # the same gaps elsewhere, Black to move
    two = classic_solve(2, 6)
    assert two[((0, 0), (3, 4), 0)] is True  # gaps 2, 3
    assert two[((0, 1), (3, 4), 1)] is False  # after b1-b2: gaps 2, 2, Black to move loses
    assert two[((1, 0), (3, 4), 1)] is True  # after a1-a2 (gaps 1, 3) Black wins


def test_engine_classic_moves_match_the_rules_of_3_1():
    """The engine's classic moves equal §4.2's (towards or away, any distance) on random positions."""
    rnd = random.Random(4)
    for _ in range(40):
        white, black = [], []
        for _f in range(8):
            w, b = sorted(rnd.sample(range(8), 2))
            white.append(w)
            black.append(b)
        turn = rnd.randrange(2)
        state = position([w + 1 for w in white], [b + 1 for b in black], turn=turn, variant="classic")
        got = {(state.turn, *raw(ENGINE.apply(state, turn, m).pawns)) for m in ENGINE.legal_moves(state, turn)}
        want = {(turn, w, b) for w, b in classic_moves(tuple(white), tuple(black), turn, 8)}
        assert got == want


@pytest.mark.parametrize("misere", [False, True])
def test_engine_game_tree_agrees_with_brute_force_solver(misere):
    """Small dice positions (at most three open files, reached by random play from a random
    setup): the engine's own game tree (legal_moves, apply, outcome) gives the same winner as
    the independent raw solver."""
    rnd = random.Random(11 + misere)
    memo: dict = {}
    checked = 0
    for _ in range(40):
        state = set_up([rnd.randint(1, 6) for _ in range(8)], [rnd.randint(1, 6) for _ in range(8)], misere=misere)
        while sum(g > 0 for g in gaps(state)) > 3:
            state = ENGINE.apply(state, state.turn, rnd.choice(ENGINE.legal_moves(state, state.turn)))
        turn = state.turn
        expected = dice_wins(*raw(state.pawns), turn, misere)
        assert engine_wins(state, turn, memo) == expected, (state.pawns, turn)
        assert gaps_win(tuple(sorted(gaps(state))), misere) == expected
        checked += 1
    assert checked == 40 and len(memo) > 200


# --------------------------------------------------------------------------- setup options


def test_black_places_on_its_own_ranks_and_rng_rolls_are_chance_steps():
    """§3.1 mapping: 1,5 -> rank 1; 2,6 -> rank 2; 3,4 -> rank 3, counted from each player's edge."""
    state = ENGINE.new(2, 5)
    assert ENGINE.to_act(state) == {0} and ENGINE.legal_moves(state, 0) == [roll()]
    for die, rank in ((1, 1), (5, 1), (2, 2), (6, 2), (3, 3), (4, 3)):
        w = ENGINE.apply(state, 0, roll(die))
        assert ENGINE.to_json(w)["pawns"][0][0] == rank
        b = ENGINE.apply(w, 1, roll(die))
        assert ENGINE.to_json(b)["pawns"][1][0] == 9 - rank
    drawn = ENGINE.apply(state, 0, roll())
    assert drawn.rng.counter > state.rng.counter and drawn.pawns[0][0] in (1, 2, 3)
    event = ENGINE.events(state, 0, roll(), drawn)[1]
    assert event["type"] == "rng-roll" and event["seat"] == 0 and len(event["dice"]) == 1
    # the die the event names is the one that placed the pawn (issue 27: a log says what was rolled)
    assert ENGINE.apply(state, 0, roll(event["dice"][0])).pawns == drawn.pawns
    assert code_of(state, 0, roll(7)) == "northcott.bad-dice"
    assert code_of(state, 0, roll(2, 3)) == "northcott.bad-dice"
    assert code_of(state, 0, mv("a1", "a2")) == "northcott.wrong-phase"
    assert code_of(state, 0, ENGINE.move_from_json({"kind": "place", "file": "a"})) == "northcott.roll-first"
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, 1, roll(3))
    assert err.value.code == "northcott.not-your-turn"


def test_rolls_are_refused_once_pawns_move():
    state = set_up([1] * 8, [1] * 8)
    assert code_of(state, 0, roll(3)) == "northcott.wrong-phase"
    assert code_of(state, 0, roll()) == "northcott.wrong-phase"


def test_choose_file_placement_rolls_then_places():
    """§3.2 option: the roller names the file (one where he has no pawn yet) after each roll."""
    state = ENGINE.new(2, 5, {"placement": "choose-file"})
    rolled = ENGINE.apply(state, 0, roll(2))
    assert ENGINE.to_json(rolled)["die"] == 2 and ENGINE.to_act(rolled) == {0}
    assert [ENGINE.move_to_json(m) for m in ENGINE.legal_moves(rolled, 0)] == [
        {"kind": "place", "file": f} for f in "abcdefgh"]
    assert code_of(rolled, 0, roll(3)) == "northcott.place-first"
    placed = ENGINE.apply(rolled, 0, ENGINE.move_from_json({"kind": "place", "file": "e"}))
    assert ENGINE.to_json(placed)["pawns"][0] == [None] * 4 + [2] + [None] * 3
    assert ENGINE.to_act(placed) == {1} and placed.die is None
    again = ENGINE.apply(ENGINE.apply(placed, 1, roll(1)), 1, ENGINE.move_from_json({"kind": "place", "file": "a"}))
    white_again = ENGINE.apply(again, 0, roll(4))
    assert code_of(white_again, 0, ENGINE.move_from_json({"kind": "place", "file": "e"})) == "northcott.file-taken"
    assert len(ENGINE.legal_moves(white_again, 0)) == 7


def test_higher_roll_decides_who_moves_first():
    """§3.4 option: after the setup both roll one die; the higher moves first; ties are re-rolled."""
    state = set_up([1] * 8, [1] * 8, first_player="higher-roll")
    assert ENGINE.to_json(state)["phase"] == "first-roll" and ENGINE.to_act(state) == {0, 1}
    assert code_of(state, 1, roll(4, 4)) == "northcott.tied-roll"
    assert code_of(state, 1, roll(4)) == "northcott.bad-dice"
    assert code_of(state, 0, mv("a1", "a2")) == "northcott.wrong-phase"
    black_first = ENGINE.apply(state, 1, roll(2, 5))
    assert ENGINE.to_act(black_first) == {1} and ENGINE.to_json(black_first)["phase"] == "play"
    assert ENGINE.to_act(ENGINE.apply(state, 1, roll(6, 5))) == {0}
    drawn = ENGINE.apply(state, 0, roll())
    assert ENGINE.to_act(drawn) in ({0}, {1}) and drawn.rng.counter >= state.rng.counter + 2
    white, black = ENGINE.events(state, 0, roll(), drawn)[1]["dice"]  # the pair that decided: never a tie
    assert white != black and ENGINE.to_act(drawn) == ({0} if white > black else {1})


def test_larger_board_places_black_near_its_own_edge():
    """§2 option board=8x12: Black's rolls 1, 2, 3 place on ranks 12, 11, 10."""
    state = set_up([1, 2, 3, 1, 1, 1, 1, 1], [1, 2, 3, 1, 1, 1, 1, 1], board="8x12")
    assert ENGINE.to_json(state)["pawns"][1][:3] == [12, 11, 10]
    assert gaps(state)[:3] == [10, 8, 6]


# --------------------------------------------------------------------------- end of the game, variants


def test_player_who_cannot_move_loses_and_wins_under_misere():
    """§5.1 / §5.2: c1-c4 closes the last gap; Black, to move, is blocked everywhere.

    5 B B B B ...     5 B B B B ...
    4 W W . W   ->    4 W W W W
    1 . . W .         1 . . . .
    """
    white, black = [4] * 8, [5] * 8
    white[2] = 1
    state = position(white, black)
    after = ENGINE.apply(state, 0, mv("c1", "c4"))
    assert ENGINE.to_act(after) == frozenset()
    assert ENGINE.outcome(after).winners == (0,)
    report = ENGINE.scores(after)
    assert report.totals == (1, 0) and report.final and report.winners == (0,)
    assert report.to_json()["breakdown"] == [{"result": "win", "points": 1}, {"result": "loss", "points": 0}]
    assert report.round == 1 and report.points == (1, 0) and report.history == ()
    data = ENGINE.to_json(after)
    assert data["phase"] == "game-over" and data["turn"] is None
    assert data["result"] == {"winner": 0, "reason": "cannot-move"}
    misere = ENGINE.apply(position(white, black, misere=True), 0, mv("c1", "c4"))
    assert ENGINE.outcome(misere).winners == (1,) and ENGINE.scores(misere).totals == (0, 1)
    with pytest.raises(IllegalMove) as err:
        ENGINE.check(after, 1, mv("c5", "c4"))
    assert err.value.code == "northcott.game-over"


def test_classic_variant_moves_any_distance_both_ways():
    """§4.2: a1-a5 and a backward d4-d2 are legal classic moves; a1-a0 does not exist.

    8 B B B B ...
    4 . . . W
    1 W W W . ...
    """
    white, black = [1, 1, 1, 4, 1, 1, 1, 1], [8] * 8
    classic = position(white, black, variant="classic")
    assert ENGINE.is_legal(classic, 0, mv("a1", "a5"))
    assert ENGINE.is_legal(classic, 0, mv("d4", "d2"))
    assert code_of(classic, 0, mv("a1", "a8")) == "northcott.blocked"
    assert len(ENGINE.legal_moves(classic, 0)) == 7 * 6 + 3 + 3
    black_turn = position(white, black, turn=1, variant="classic")
    assert code_of(black_turn, 1, ENGINE.move_from_json({"kind": "move", "from": "a8", "to": "a9"})) \
        == "northcott.off-board"
    # only a player pressed against his own edge and the enemy in every file is stuck: the game is over
    stuck = position([1] * 8, [2] * 8, turn=None, result={"winner": 1, "reason": "cannot-move"}, variant="classic")
    assert ENGINE.to_act(stuck) == frozenset() and ENGINE.outcome(stuck).winners == (1,)
    with pytest.raises(InvalidState) as err:
        position([1] * 8, [2] * 8, variant="classic")  # White to move, but he cannot
    assert err.value.code == "northcott.bad-result"


def test_dice_random_play_ends_quickly_in_every_option_mix():
    """Each move shrinks a gap: setup (16-32 steps) + at most the total gap (<= 80)."""
    for variant in itertools.product(("8x8", "8x12"), ("in-order", "choose-file"), (0, "higher-roll"),
                                     (False, True)):
        options = dict(zip(("board", "placement", "first_player", "misere"), variant, strict=True))
        rnd = random.Random(str(variant))
        state, steps = ENGINE.new(2, str(variant), options), 0
        while ENGINE.to_act(state):
            seat = rnd.choice(sorted(ENGINE.to_act(state)))
            state, steps = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_moves(state, seat))), steps + 1
        assert steps <= 32 + 1 + 80
        assert ENGINE.outcome(state) is not None and ENGINE.scores(state).final


# --------------------------------------------------------------------------- JSON, views, schemas


def setup_json(**changes):
    state = ENGINE.new(2, 3)
    for _ in range(5):
        state = ENGINE.apply(state, state.turn, roll())
    data = ENGINE.to_json(state)
    if "white" in changes:
        data["pawns"][0] = changes.pop("white")
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "code"), [
    ({"white": [1, 2, 3, 1, None, None, None, None]}, "northcott.bad-setup"),  # White 4 ahead by 2
    ({"turn": 0}, "northcott.bad-setup"),  # White placed 3, Black 2: Black is next
    ({"turn": 5}, "northcott.bad-state"),
    ({"turn": None}, "northcott.bad-setup"),
    ({"players": 3}, "northcott.bad-state"),
    ({"white": [1, 2, None, 3, None, None, None, None]}, "northcott.bad-setup"),  # not file order
    ({"white": [1, 2, 5, None, None, None, None, None]}, "northcott.bad-setup"),  # rank 5 is no home rank
    ({"white": [1, 2, 9, None, None, None, None, None]}, "northcott.bad-rank"),
    ({"white": [1, 2, 13, None, None, None, None, None]}, "northcott.bad-state"),
    ({"white": [1, 2, 3]}, "northcott.bad-state"),
    ({"die": 3}, "northcott.bad-die"),
    ({"phase": "play"}, "northcott.bad-setup"),
    ({"phase": "finished"}, "northcott.bad-state"),
    ({"phase": "over"}, "northcott.bad-state"),
    ({"phase": "game-over"}, "northcott.bad-setup"),
    ({"die": 7}, "northcott.bad-state"),
    ({"rng": {"v": 1, "key": "xyz", "counter": 0}}, "northcott.bad-state"),
    ({"options": {**DEFAULTS, "variant": "tiouk"}}, "northcott.bad-state"),
    ({"options": {**DEFAULTS, "first_player": "white"}}, "northcott.bad-state"),
    ({"options": {"variant": "dice"}}, "northcott.bad-state"),
    ({"colors": ["black", "white"]}, "northcott.bad-state"),
    ({"score": 3}, "northcott.bad-state"),
])
def test_from_json_rejects_tampered_states(changes, code):
    """Meaning (§7) has the game's codes; anything not of the declared shape is ``bad-state``
    naming the field."""
    check_refused(ENGINE, setup_json(**changes), code, fields={*changes, "pawns", "state"})


def test_from_json_rejects_crossed_pawns_and_wrong_first_roll_phase():
    with pytest.raises(InvalidState) as err:
        position([1, 1, 1, 7, 1, 1, 1, 1], [8, 8, 8, 5, 8, 8, 8, 8])
    assert err.value.code == "northcott.pawns-crossed"
    with pytest.raises(InvalidState) as err:
        position([1] * 8, [8] * 8, phase="first-roll")
    assert err.value.code == "northcott.bad-phase"
    with pytest.raises(InvalidState) as err:
        position([1] * 8, [8] * 8, die=4)
    assert err.value.code == "northcott.bad-die"
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json("state")
    assert err.value.code == "northcott.bad-state" and err.value.context["field"] == "state"
    over = {"turn": None, "result": {"winner": 0, "reason": "cannot-move"}}
    with pytest.raises(InvalidState) as err:  # a finished game is phase game-over, never play
        position([4] * 8, [5] * 8, phase="play", **over)
    assert err.value.code == "northcott.bad-result"
    assert ENGINE.to_act(position([4] * 8, [5] * 8, **over)) == frozenset()
    with pytest.raises(InvalidState) as err:  # under misère that position is won by the blocked player
        position([4] * 8, [5] * 8, **over, misere=True)
    assert err.value.code == "northcott.bad-result"


@pytest.mark.parametrize("data", [
    None, {"kind": "jump"}, {"kind": "roll", "dice": 3}, {"kind": "roll", "dice": [1, 2, 3]},
    {"kind": "roll", "dice": [True]}, {"kind": "roll", "dice": []}, {"kind": "place", "file": "i"},
    {"kind": "place"}, {"kind": "move", "from": "a1"}, {"kind": "move", "from": "a1", "to": "a13"},
    {"kind": "move", "from": "a1", "to": "a2", "steps": 1},
])
def test_malformed_moves_are_refused_with_malformed_move(data):
    with pytest.raises(IllegalMove) as err:
        ENGINE.move_from_json(data)
    assert err.value.code == "northcott.malformed-move" and "field" in err.value.context


def test_view_drops_only_the_rng():
    state = ENGINE.new(2, 3)
    for seat in (None, 0, 1):
        view = ENGINE.view(state, seat)
        assert "rng" not in view
        assert view == {k: v for k, v in ENGINE.to_json(state).items() if k != "rng"}
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(2, 3, setup={"white": [1] * 8})
    assert err.value.code == "northcott.setup-unsupported"
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally({})
    assert err.value.code == "northcott.tally-unsupported"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_reached_state_and_move_reads_back_as_itself(seed):
    """The declared shapes (DESIGN 4.8) write and read every state and move of random games."""
    rnd = random.Random(seed)
    options = {"placement": rnd.choice(["in-order", "choose-file"]),
               "first_player": rnd.choice([0, "higher-roll"]), "board": rnd.choice(["8x8", "8x10", "8x12"])}
    state = ENGINE.new(2, seed, options)
    while ENGINE.to_act(state):
        assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
        seat = rnd.choice(sorted(ENGINE.to_act(state)))
        moves = ENGINE.legal_moves(state, seat)
        for m in moves:
            assert ENGINE.move_from_json(json.loads(json.dumps(ENGINE.move_to_json(m)))) == m
        state = ENGINE.apply(state, seat, rnd.choice(moves))
    assert state.phase.value == "game-over" and state.turn is None and state.result is not None
    assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
    for data in ({"kind": "roll", "dice": [3]}, {"kind": "roll", "dice": [2, 5]}, {"kind": "place", "file": "h"}):
        assert ENGINE.move_to_json(ENGINE.move_from_json(data)) == data


# --------------------------------------------------------------------------- the code catalogue (DESIGN 4.4)


def _v3(**options):
    """V3: White d4, Black d6; the other files closed at the edges (White to move)."""
    return position([1, 1, 1, 4, 1, 1, 1, 1], [8, 8, 8, 6, 8, 8, 8, 8], **options)


STUCK = {"turn": None, "result": {"winner": 1, "reason": "cannot-move"}, "variant": "classic"}
START = ENGINE.new(2, 1)
#: one real raise of every code the engine (and the service, for a seat the table lacks) answers
TRIGGERS = {
    "northcott.not-your-turn": lambda: ENGINE.check(START, 1, roll()),
    "northcott.game-over": lambda: ENGINE.check(position([1] * 8, [2] * 8, **STUCK), 0, mv("a1", "a2")),
    "northcott.no-such-seat": lambda: BINDINGS[ENGINE.game_id].view(START, 2),
    "northcott.tally-unsupported": lambda: ENGINE.score_tally({}),
    "northcott.setup-unsupported": lambda: ENGINE.new(2, 3, setup={"pawns": []}),
    "northcott.wrong-phase": lambda: ENGINE.check(_v3(), 0, roll(3)),
    "northcott.place-first": lambda: ENGINE.check(ENGINE.apply(ENGINE.new(2, 5, {"placement": "choose-file"}), 0,
                                                               roll(2)), 0, roll(3)),
    "northcott.bad-dice": lambda: ENGINE.check(START, 0, roll(7)),
    "northcott.tied-roll": lambda: ENGINE.check(set_up([1] * 8, [1] * 8, first_player="higher-roll"), 1, roll(4, 4)),
    "northcott.roll-first": lambda: ENGINE.check(START, 0, ENGINE.move_from_json({"kind": "place", "file": "a"})),
    "northcott.file-taken": lambda: ENGINE.check(
        position([2, None, None, None, None, None, None, None], [7, None, None, None, None, None, None, None],
                 phase="setup", die=3, placement="choose-file"),
        0, ENGINE.move_from_json({"kind": "place", "file": "a"})),
    "northcott.no-own-pawn": lambda: ENGINE.check(_v3(), 0, mv("b2", "b3")),
    "northcott.no-move": lambda: ENGINE.check(_v3(), 0, mv("d4", "d4")),
    "northcott.not-forward": lambda: ENGINE.check(_v3(), 0, mv("d4", "d3")),
    "northcott.too-far": lambda: ENGINE.check(_v3(), 0, mv("a1", "a5")),
    "northcott.blocked": lambda: ENGINE.check(_v3(), 0, mv("d4", "d7")),
    "northcott.off-board": lambda: ENGINE.check(_v3(variant="classic", turn=1), 1, mv("a8", "a9")),
    "northcott.not-same-file": lambda: ENGINE.move_from_json({"kind": "move", "from": "a1", "to": "b2"}),
    "northcott.malformed-move": lambda: ENGINE.move_from_json({"kind": "jump"}),
    "northcott.bad-state": lambda: ENGINE.from_json("state"),
    "northcott.bad-turn": lambda: position([1] * 8, [8] * 8, phase="first-roll", turn=0, first_player="higher-roll"),
    "northcott.bad-rank": lambda: ENGINE.from_json(setup_json(white=[1, 2, 9, None, None, None, None, None])),
    "northcott.pawns-crossed": lambda: position([1, 1, 1, 7, 1, 1, 1, 1], [8, 8, 8, 5, 8, 8, 8, 8]),
    "northcott.bad-setup": lambda: ENGINE.from_json(setup_json(phase="play")),
    "northcott.bad-phase": lambda: position([1] * 8, [8] * 8, phase="first-roll", turn=None),
    "northcott.bad-die": lambda: position([1] * 8, [8] * 8, die=4),
    "northcott.bad-result": lambda: position([1] * 8, [2] * 8, variant="classic"),
}


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_every_code_is_catalogued_and_its_polish_detail_formats_with_the_raise(code):
    """DESIGN 4.4: a real raise of ``code`` carries the context its Polish template needs."""
    check_raise(ENGINE, code, raise_of(TRIGGERS[code]))


def test_the_declared_codes_are_exactly_those_triggered_above():
    """Every code Northcott's game declares (its own and the shared ones it opts into, DESIGN
    4.4) is raised by a trigger above, and nothing else is declared."""
    assert set(ENGINE.codes) == set(TRIGGERS)


def test_codes_met_in_play_are_catalogued():
    """Random playouts in every option mix that also try moves listed earlier (mostly illegal
    now), by both seats, meet only catalogued codes."""
    met = set()
    for seed, placement in itertools.product(range(3), ("in-order", "choose-file")):
        rnd = random.Random(seed)
        state = ENGINE.new(2, seed, {"placement": placement, "first_player": rnd.choice([0, "higher-roll"])})
        pool = [roll(4), roll(3, 3), roll(9), mv("a1", "a8")]
        while ENGINE.to_act(state):
            met |= codes_checked(ENGINE, state, pool[-12:])
            seat = rnd.choice(sorted(ENGINE.to_act(state)))
            moves = ENGINE.legal_moves(state, seat)
            pool.extend(moves)
            state = ENGINE.apply(state, seat, rnd.choice(moves))
        met.add(raise_of(lambda s=state, last=pool[-1]: ENGINE.check(s, 0, last)).code)
    assert {"northcott.not-your-turn", "northcott.wrong-phase", "northcott.game-over"} <= met
    assert met <= set(ENGINE.codes)
