"""Recorded matches (DESIGN 4.3; docs/rules/backgammon.md, the match and cube sections): real
``.mat`` files replayed end to end, the refusals a record can earn, and ``.mat`` export read back.

The data files and their sources are listed in tests/rules/data/backgammon/records/SOURCES.md (results: EXPECTED.json).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rules.backgammon import ENGINE
from rules.backgammon._records import RECORD_CODES, check_mat, parse_mat, parse_sgf, write_mat
from rules.backgammon._records import replay_record as _replay_record
from rules.base import IllegalMove, InvalidState, NotYourTurn, RulesError
from tests.playout import choose

DATA = Path(__file__).parent / "data" / "backgammon" / "records"


def read(name: str) -> str:
    return (DATA / name).read_text()


def replay_record(record):
    return _replay_record(ENGINE, record)


def refusal(text: str, error: type[RulesError]) -> RulesError:
    """The ``error`` that ``check_mat`` raises reading ``text``."""
    with pytest.raises(error) as info:
        check_mat(ENGINE, text)
    return info.value


def results(replayed) -> list[tuple]:
    return [(g["number"], g["winner"], g["points"], g.get("resigned", False)) for g in replayed.games]


# (file, final score, [(game, winner seat, points, resigned)])
REAL = [
    ("gnubg-charlot-7p.mat", [9, 2], [(1, 1, 2, True), (2, 0, 2, False), (3, 0, 4, False), (4, 0, 3, True)]),
    ("gnubg-selfplay-drops-7p.mat", [3, 7],
     [(1, 0, 1, False), (2, 1, 1, False), (3, 1, 2, True), (4, 1, 2, False), (5, 0, 2, False), (6, 1, 2, False)]),
    ("gnubg-roll-then-resign-1p.mat", [1, 0], [(1, 0, 1, True)]),
    ("bgstudio-adrien75116-raphael_gin-13p.mat", [5, 13],
     [(1, 0, 2, False), (2, 1, 4, False), (3, 1, 4, False), (4, 0, 2, False), (5, 1, 2, False), (6, 0, 1, False),
      (7, 1, 1, False), (8, 1, 2, False)]),
    ("bgstudio-raphael_gin-AnthonyPop-13p.mat", [11, 14],
     [(1, 1, 2, False), (2, 0, 1, False), (3, 0, 1, False), (4, 0, 2, False), (5, 0, 2, False), (6, 0, 2, False),
      (7, 1, 4, False), (8, 0, 2, False), (9, 1, 2, False), (10, 1, 1, False), (11, 1, 2, False), (12, 1, 1, False),
      (13, 0, 1, False), (14, 1, 2, False)]),
]


@pytest.mark.parametrize(("name", "score", "games"), REAL, ids=[r[0] for r in REAL])
def test_real_match_files_replay_to_their_written_results(name, score, games):
    """Every game of a real match: each play legal, each ``Wins`` the engine's own result, each
    score line equal to the results before it (the checks raise otherwise)."""
    replayed = check_mat(ENGINE, read(name))
    assert results(replayed) == games
    assert replayed.match["score"] == score
    assert ENGINE.outcome(replayed.state) is not None  # every file is a finished match


def test_real_files_hold_at_least_twenty_games():
    assert sum(len(games) for _, _, games in REAL) >= 20


def test_the_crawford_game_is_played_without_the_cube():
    """§ Crawford: AnthonyPop reaches 12 of 13 in game 12, so game 13 is the Crawford game and
    game 14 (post-Crawford) opens with raphael_gin's double at row 2."""
    text = read("bgstudio-raphael_gin-AnthonyPop-13p.mat")
    record = parse_mat(text)
    crawford = record.games[12]
    assert crawford.score == (10, 12)
    assert not [c for c in crawford.cells if c.kind == "double"]
    assert [c.number for c in record.games[13].cells if c.kind == "double"] == [2]
    # a double written into the Crawford game is refused by the engine, with the record's place
    doctored = text.replace("  8) 41: 13/8                           61: 8/2 6/5",
                            "  8)  Doubles => 2                       Takes")
    err = refusal(doctored, IllegalMove)
    assert err.code == "backgammon.crawford-game"
    assert err.context["game"] == 13 and err.context["move"] == 8


def test_bar_entry_bear_off_hits_and_forced_passes_are_read():
    """``25/21``, ``bar/20``, ``3/0``, ``6/off``, ``*`` and a roll with no play (``65:``,
    ``61: Cannot Move``) as the programs write them."""
    record = parse_mat(read("gnubg-charlot-7p.mat"))
    cells = record.games[2].cells
    passes = [c for c in cells if c.kind == "play" and not c.play]
    assert passes and passes[0].dice == (6, 5) and passes[0].seat == 1
    studio = parse_mat(read("bgstudio-adrien75116-raphael_gin-13p.mat"))
    cannot = [c for c in studio.games[0].cells if c.number == 17][0]
    assert (cannot.seat, cannot.dice, cannot.play) == (0, (6, 1), "")


def test_a_hop_spanning_both_dice_to_off_is_read():
    """``63: 9/off`` (Backgammon Studio, adrien75116 game 5 row 26): one hop over both dice,
    9/3/off, whose landing on the 3 is legal."""
    replayed = check_mat(ENGINE, read("bgstudio-adrien75116-raphael_gin-13p.mat"))
    moves = [m["move"] for m in replayed.moves]
    assert {"kind": "move", "steps": [[9, 3], [3, 0]]} in moves or {"kind": "move", "notation": "9/off"} in moves


# --------------------------------------------------------------------------- refusals

MINI = """ 3 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 64: 24/18 13/9              Doubles => 2
  3)  Drops                      Wins 1 point

 Game 2
 Ann : 0                        Bob : 1
  1)                             52: 13/8 13/11
"""


def test_a_short_record_replays_with_an_unfinished_last_game():
    replayed = check_mat(ENGINE, MINI)
    assert results(replayed)[0] == (1, 1, 1, False)
    assert replayed.games[1]["winner"] is None
    assert replayed.match == {"length": 3, "players": ["Ann", "Bob"], "score": [0, 1]}


def test_an_illegal_play_names_the_game_the_row_and_the_index():
    """Row 2 of game 2 plays 13/8 with a 6-4: refused by the engine's own rule, placed exactly."""
    text = MINI + "  2) 64: 13/8\n"
    err = refusal(text, IllegalMove)
    ctx = err.context
    assert err.code in ("backgammon.illegal-play", "backgammon.must-use-all-dice", "backgammon.dice-mismatch")
    # game 1: roll, move, roll, move, roll, move, double, drop (8); next-round (9); game 2: roll, move, roll, move
    assert (ctx["game"], ctx["move"], ctx["index"]) == (2, 2, 12)


def test_a_play_out_of_turn_is_refused_with_the_engine_code():
    """Bob doubled and Ann took: Bob rolls next, so Ann's roll in the left column of row 4 is
    out of turn."""
    text = MINI.replace("  3)  Drops                      Wins 1 point\n",
                        "  3)  Takes\n  4) 21: 13/11 6/5\n")
    err = refusal(text, NotYourTurn)
    assert err.code == "backgammon.not-your-turn"
    assert (err.context["game"], err.context["move"]) == (1, 4)


def test_a_score_line_that_disagrees_with_the_results_is_refused():
    text = MINI.replace(" Ann : 0                        Bob : 1", " Ann : 1                        Bob : 0")
    err = refusal(text, IllegalMove)
    assert err.code == "backgammon.record-score-mismatch"
    assert err.context["game"] == 2 and err.context["expected"] == [0, 1]


def test_a_wins_line_that_disagrees_with_the_drop_is_refused():
    """A dropped double scores the cube before the offer (1 point), not 2."""
    err = refusal(MINI.replace("Wins 1 point", "Wins 2 points"), IllegalMove)
    assert err.code == "backgammon.record-result-mismatch"
    assert err.context["game"] == 1


def test_a_resignation_worth_no_level_is_refused():
    """Before the game is over ``Wins 5 points`` at cube 1 is no single/gammon/backgammon (and,
    short of the 9 points the match needs, no forfeit either)."""
    text = " 9 point match\n\n Game 1\n A : 0          B : 0\n  1) 31: 8/5 6/5\n      Wins 5 points\n"
    err = refusal(text, IllegalMove)
    assert err.code == "backgammon.record-result-mismatch"


@pytest.mark.parametrize(("text", "line"), [
    ("hello\n", 1),
    (" 3 point match\n\n Game 1\n Ann : 0    Bob : 0\n  1) 31: 8/5 6/5   what is this\n", 5),
    (" 3 point match\n\n Game 1\n no score line here\n", 4),
    (" Game 1\n", 1),
    (" 3 point match\n", 1),
])
def test_unreadable_text_is_a_bad_record_with_its_line(text, line):
    err = refusal(text, InvalidState)
    assert err.code == "backgammon.bad-record"
    assert err.context["line"] == line


def test_record_codes_are_catalogued_and_their_polish_details_format():
    raised = {"backgammon.bad-record": {"line": 3, "excerpt": "'x'"},
              "backgammon.record-score-mismatch": {"game": 2, "got": [0, 1], "expected": [1, 0]},
              "backgammon.record-result-mismatch": {"game": 1, "got": 2, "expected": 1},
              "backgammon.record-illegal-play": {"line": 5, "dice": "52"}}
    assert set(raised) == set(RECORD_CODES)
    for code, ctx in raised.items():
        assert RECORD_CODES[code].detail_pl.format(**ctx)


# --------------------------------------------------------------------------- export


def _playout(seed: int, length: int, cube: str = "auto"):
    rnd = random.Random(seed)
    start = ENGINE.new(2, seed, {"match_length": length, "cube": cube})
    state, moves, finished = start, [], []
    for _ in range(4000):
        acting = sorted(ENGINE.to_act(state))
        if not acting:
            break
        seat = acting[0]
        move = choose(rnd, "backgammon", list(ENGINE.legal_moves(state, seat)), lambda m: m.kind)
        before = ENGINE.to_json(state)
        state = ENGINE.apply(state, seat, move)
        moves.append({"seat": seat, "move": ENGINE.move_to_json(move)})
        after = ENGINE.to_json(state)
        if after["result"] is not None and before["result"] is None:
            res = after["result"]
            finished.append((after["round"], res["winner"], res["points"], res["how"] == "resign"))
    return start, state, moves, finished


@pytest.mark.parametrize("seed", range(60))  # seeds 16.. hold doubles plays longer than the column
def test_exported_mat_reads_back_to_the_same_games_and_results(seed):
    """Seeded random matches (cube, drops, resignations, Crawford; every fourth without the cube,
    so that games run to the last checker) written as ``.mat`` and read back: the same games,
    winners, points, resignations, final position and score."""
    start, final, moves, finished = _playout(seed, 1 + seed % 5, "off" if seed % 4 == 3 else "auto")
    text = write_mat(ENGINE, start, moves, ("North", "South"))
    back = check_mat(ENGINE, text)
    assert results(back) == finished
    assert back.match["players"] == ["North", "South"]
    mine, theirs = ENGINE.to_json(final), ENGINE.to_json(back.state)
    for key in ("points", "bar", "off", "cube", "match", "result"):
        assert mine[key] == theirs[key], key


def test_export_writes_bar_as_25_off_as_0_and_marks_hits():
    plays = ""
    for seed in range(6):
        start, _, moves, _ = _playout(seed, 3, "off")
        text = write_mat(ENGINE, start, moves)
        plays += " ".join(line for line in text.splitlines() if re.match(r"^\s*\d+\)", line))
    assert "25/" in plays and "/0" in plays and "*" in plays
    assert "bar" not in plays and "off" not in plays


# --------------------------------------------------------------------------- GNU BG .sgf


def test_gnubg_sgf_reads_to_the_same_position_as_its_mat():
    """The same ten moves of game 1 as GNU BG wrote them in ``.sgf`` (``B[41lpab]``: Black's
    13/9 24/23, ``W[21ywyx]``: White's bar/23 bar/24) and in ``.mat``."""
    sgf = replay_record(parse_sgf(read("gnubg-charlot-7p-excerpt.sgf")))
    mat_lines = read("gnubg-charlot-7p.mat").splitlines()
    cut = mat_lines.index("  6) 31: 23/22 24/21*            53: 25/22 13/8 ")
    mat = check_mat(ENGINE, "\n".join([*mat_lines[:cut], "  6) 31: 23/22 24/21*"]) + "\n")
    assert sgf.applied == mat.applied == 20
    assert sgf.match["players"] == ["charlot1", "charlot2"]
    mine, theirs = ENGINE.to_json(sgf.state), ENGINE.to_json(mat.state)
    assert (mine["points"], mine["bar"]) == (theirs["points"], theirs["bar"])
    assert mine["bar"] == [0, 1]  # 24/21* hit


def test_gnubg_sgf_cube_actions_and_result():
    """``double``/``drop`` nodes and ``RE[B+1]`` (a drop: not resigned); ``RE[..R]`` before the end
    is a resignation (synthetic, in GNU BG's syntax)."""
    head = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RE[B+1];B[41lpab];W[31fehe];B[double];W[drop])"
    assert results(replay_record(parse_sgf(head))) == [(1, 1, 1, False)]
    resigned = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+2R];B[41lpab];W[31fehe])"
    assert results(replay_record(parse_sgf(resigned))) == [(1, 0, 2, True)]
    with pytest.raises(InvalidState) as info:
        parse_sgf("(;FF[4]GM[1]SZ[19];B[pd])")
    assert info.value.code == "backgammon.bad-record" and info.value.context["line"] == 1


# --------------------------------------------------------------------------- writers' conventions (DESIGN 4.3)
# Each is read as GNU BG's importer reads it and noted in ``warnings`` with its line; the moves
# around it are still checked strictly.

from rules.backgammon._records import RECORD_WARNINGS  # noqa: E402

OPEN = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"


def game(ann: int = 0, bob: int = 0) -> str:
    """The head of a game: the score line (Ann's, Bob's) and the opening row OPEN."""
    return f" Ann : {ann}                        Bob : {bob}\n" + OPEN


def mat(*games: str, length: int = 3, header: str = "") -> str:
    return header + f" {length} point match\n\n" + "\n".join(
        f" Game {n}\n{g}" for n, g in enumerate(games, start=1))


def warned(replayed) -> list[tuple[int, str]]:
    return [(w["line"], w["code"]) for w in replayed.warnings]


def test_xg_question_marks_after_a_roll_are_a_resignation_after_rolling():
    """eXtreme Gammon writes ``64: ????`` when the roller resigned: the roll stands, then the
    other side's ``Wins``."""
    for marks in ("????", "???"):
        text = mat(game() +
                   f"  2) 64: {marks}                    Wins 1 point\n")
        replayed = check_mat(ENGINE, text)
        assert results(replayed) == [(1, 1, 1, True)]
        assert warned(replayed) == [(6, "backgammon.record-resigned-unknown")]


def test_question_marks_not_followed_by_the_others_win_are_unreadable():
    text = mat(game() + "  2) 64: ????                    53: 13/8 13/10\n")
    err = refusal(text, InvalidState)
    assert err.code == "backgammon.bad-record" and err.context["line"] == 6


def test_galaxy_losses_beside_wins_is_skipped_and_noted():
    text = mat(game() +
               "  2) 64: 24/18 13/9              Doubles => 2\n"
               "  3)  Drops\n"
               "      Losses 1 point             Wins 1 point and the match\n", length=1)
    replayed = check_mat(ENGINE, text.replace("Doubles => 2\n  3)  Drops\n", "53: 13/8 13/10\n"))
    assert results(replayed) == [(1, 1, 1, True)]
    assert warned(replayed) == [(7, "backgammon.record-losses-cell")]


def test_galaxy_losses_alone_is_the_other_sides_win():
    text = mat(game() + "  2) 64: 24/18 13/9\n      Losses 1 point\n")
    replayed = check_mat(ENGINE, text)
    assert results(replayed) == [(1, 1, 1, True)]
    assert ("backgammon.record-losses-cell") in [c for _, c in warned(replayed)]


def test_the_last_games_wins_capped_at_what_the_match_needed():
    """Game 3 at 1-2 (post-Crawford): Bob's redouble to 4 is dropped, worth 2; the record writes
    ``Wins 1 point and the match``, what Bob needed."""
    cube = ("  2)  Doubles => 2                Takes\n"
            "  3) 64: 24/18 13/9              Doubles => 4\n"
            "  4)  Drops                      Wins {} and the match\n")
    text = mat(game() + cube.format("2 points").replace(" and the match", ""),
               game(0, 2) + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               game(1, 2) + cube.format("1 point"))
    replayed = check_mat(ENGINE, text)
    assert results(replayed) == [(1, 1, 2, False), (2, 0, 1, True), (3, 1, 2, False)]
    assert warned(replayed) == [(len(text.splitlines()), "backgammon.record-wins-capped")]
    assert replayed.warnings[0]["context"] == {"game": 3, "got": 1, "expected": 2}
    # not the last game, or not what the match needed: still a mismatch
    err = refusal(text.replace("Wins 1 point and the match", "Wins 3 points"), IllegalMove)
    assert err.code == "backgammon.record-result-mismatch"


def test_wins_right_after_the_losers_own_move_is_a_concession():
    """Ann plays row 2 and Bob's ``Wins`` follows at once: Ann conceded before Bob rolled."""
    text = mat(game() + "  2) 64: 24/18 13/9\n"
               "                                 Wins 1 point\n")
    replayed = check_mat(ENGINE, text)
    assert results(replayed) == [(1, 1, 1, True)]
    assert warned(replayed) == [(7, "backgammon.record-conceded-out-of-turn")]


def test_a_record_that_starts_mid_match_takes_its_first_score_line():
    text = mat(game(1, 0) + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               game(2, 0) + "  2) 64: 24/18 13/9\n      Wins 1 point\n")
    replayed = check_mat(ENGINE, text)
    assert [g["score_after"] for g in replayed.games] == [[2, 0], [3, 0]]
    assert replayed.match["score"] == [3, 0]
    assert warned(replayed) == [(4, "backgammon.record-starts-mid-match")]
    assert ENGINE.outcome(replayed.state) is not None


def test_a_record_that_starts_one_away_is_not_assumed_to_start_with_the_crawford_game():
    """6-5 in a 7-point match at the first game (issue 25): the Crawford game may have been played
    before the file starts. A double in the first game shows it was: the game is post-Crawford,
    noted; without a double it is taken as the Crawford game, noted too."""
    text = mat(game(2, 0) + "  2)  Doubles => 2                Takes\n")
    replayed = check_mat(ENGINE, text)
    assert warned(replayed) == [(4, "backgammon.record-starts-mid-match"), (4, "backgammon.record-crawford-unknown")]
    assert ENGINE.to_json(replayed.state)["cube"]["value"] == 2
    assert "post-Crawford" in replayed.warnings[1]["detail"]
    quiet = check_mat(ENGINE, mat(game(2, 0) + "  2) 64: 24/18 13/9\n"))
    assert warned(quiet)[1] == (4, "backgammon.record-crawford-unknown")
    assert ENGINE.to_json(quiet.state)["match"]["crawford"] is True
    # a double in a later Crawford game is still refused: only the first game's status is unknown
    later = mat(game(1, 0) + "  2) 64: 24/18 13/9\n      Wins 1 point\n", game(2, 0) + "  2)  Doubles => 2\n")
    err = refusal(later, IllegalMove)
    assert err.code == "backgammon.crawford-game" and err.context["game"] == 2


def test_players_come_from_the_score_columns_not_the_header_tags():
    header = '; [Player 1 "Bob"]\n; [Player 2 "Ann"]\n\n'
    text = mat(game() + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               header=header)
    replayed = check_mat(ENGINE, text)
    assert replayed.match["players"] == ["Ann", "Bob"]
    assert results(replayed) == [(1, 0, 1, True)]
    assert warned(replayed) == [(7, "backgammon.record-players-from-columns")]


def test_byte_order_mark_crlf_and_ratings_are_read_and_noted():
    text = mat(" Ann (1650.5) : 0               Bob [1702] : 0\n" + OPEN + "  2) 64: 24/18 13/9\n      Wins 1 point\n")
    replayed = check_mat(ENGINE, "\ufeff" + text.replace("\n", "\r\n"))
    assert replayed.match["players"] == ["Ann", "Bob"]
    assert results(replayed) == [(1, 0, 1, True)]
    assert warned(replayed) == [(1, "backgammon.record-byte-order-mark"), (1, "backgammon.record-crlf"),
                                (4, "backgammon.record-rating"), (4, "backgammon.record-rating")]


def test_a_real_illegal_move_among_conventions_is_still_refused_with_its_line():
    """BOM, CRLF, swapped tags and a mid-match start are read; row 2's 64: 13/8 is still illegal,
    named by its line."""
    header = '; [Player 1 "Bob"]\n; [Player 2 "Ann"]\n\n'
    text = mat(game(1, 0) + "  2) 64: 13/8\n", header=header)
    err = refusal("\ufeff" + text.replace("\n", "\r\n"), IllegalMove)
    assert err.code in ("backgammon.illegal-play", "backgammon.must-use-all-dice", "backgammon.dice-mismatch")
    assert (err.context["line"], err.context["game"], err.context["move"]) == (9, 1, 2)


# GNU Backgammon 1.07.001's ``export match snowietxt`` of a game where the left player's play of 4-2
# was entered against the rules (``set board`` to 13/7 13/10): the right column's cell follows on the line
GNUBG_ILLEGAL_LEFT = """ 3 point match

 Game 1
 gnubg : 0                      root : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2) 42: Illegal play (3;0;0;0;0;root;gnubg;0;0;0;1;0;0;-2;0;0;0;2;4;1;2;0;1;0;-3;3;-1;0;0;-4;0;-5;0;0;0;0;2;0;6;6;) \
66: 24/18 24/18 13/7 13/7
"""  # the backslash joins the two halves of line 6 (as GNU BG wrote it, one line)


def test_gnubgs_illegal_play_is_refused_at_its_line_in_either_column():
    """``42: Illegal play (<Snowie position>)``: the writer's own mark of a play entered against
    the rules. The roll is checked, then the record is refused there (``record-illegal-play``, a
    refusal, not an unreadable line); the left column's is read as its cell, the right column's
    cell after it on the line is not reached. The right column's case is the corpus file
    ``gnubg-illegal-play-3p.mat``."""
    err = refusal(GNUBG_ILLEGAL_LEFT, IllegalMove)
    assert err.code == "backgammon.record-illegal-play"
    assert (err.context["line"], err.context["game"], err.context["move"], err.context["seat"]) == (6, 1, 2, 0)
    assert err.context["dice"] == "42" and err.context["index"] == 5  # after its roll (index 4) was applied
    record = parse_mat(GNUBG_ILLEGAL_LEFT)
    assert [c.kind for c in record.games[0].cells] == ["play", "play", "illegal-play", "play"]
    # out of turn, the roll is refused first, by the engine's own code
    out_of_turn = GNUBG_ILLEGAL_LEFT.replace("  2) 42: Illegal", "  2)                             42: Illegal")
    assert refusal(out_of_turn.replace(") 66: 24/18 24/18 13/7 13/7", ")"), IllegalMove).code == \
        "backgammon.not-your-turn"
    # not closed within a Snowie text's words, or not followed by one: unreadable, as before
    for broken in (GNUBG_ILLEGAL_LEFT.replace(";6;6;)", ";6;6;"), GNUBG_ILLEGAL_LEFT.replace("play (3;", "play 3;")):
        err = refusal(broken, InvalidState)
        assert (err.code, err.context["line"]) == ("backgammon.bad-record", 6)


def test_every_warning_code_has_english_and_polish_texts_that_format():
    ctx = {"player": "Ann", "rating": "(1650)", "players": ["Ann", "Bob"], "score": [1, 0], "game": 2, "seat": 1,
           "written": "????", "points": 1, "got": 3, "expected": 4}
    ctx.update(row=24, cube=1, taken="przyjęto", written="RE[W+2Resign]")
    assert len(RECORD_WARNINGS) == 17
    for code, warning in RECORD_WARNINGS.items():
        assert code.startswith("backgammon.record-")
        assert warning.title.en and warning.title.pl and warning.detail_pl.format(**ctx)


def test_a_resigns_cell_is_followed_by_the_others_wins():
    """``21) Resigns      Wins 2 points`` (a transcribed club match): the resignation is the
    ``Wins``; a ``Resigns`` with no ``Wins`` after it is unreadable."""
    text = mat(game() + "  2) 64: 24/18 13/9\n"
               "  3)                             Resigns\n      Wins 1 point\n")
    assert results(check_mat(ENGINE, text)) == [(1, 0, 1, True)]
    err = refusal(text.replace("      Wins 1 point\n", ""), InvalidState)
    assert err.code == "backgammon.bad-record" and err.context["line"] == 7


# --------------------------------------------------------------------------- the corpus (issue 18)

EXPECTED = __import__("json").loads((DATA / "EXPECTED.json").read_text())
CORPUS = sorted(p.name for p in DATA.iterdir() if p.suffix in (".mat", ".sgf"))


def test_every_corpus_file_has_its_written_results_and_its_source():
    assert sorted(EXPECTED) == CORPUS
    sources = (DATA / "SOURCES.md").read_text()
    for name, entry in EXPECTED.items():
        assert f"`{name}`" in sources, name
        assert entry["writer"] and ("refused" in entry) != ("score" in entry), name


@pytest.mark.parametrize("name", CORPUS)
def test_every_corpus_record_replays_to_its_written_results_or_is_refused_for_its_defect(name):
    """Each ``Wins`` and score line is checked by the replay itself; the results are pinned here. A
    refusal is a real defect of the record, named by its line (``defect`` in EXPECTED.json)."""
    expected = EXPECTED[name]
    parse = parse_sgf if name.endswith(".sgf") else parse_mat
    if "refused" in expected:
        with pytest.raises((IllegalMove, InvalidState)) as info:
            replay_record(parse(read(name)))
        assert (info.value.context.get("line"), info.value.code) == (expected["refused"]["line"],
                                                                      expected["refused"]["code"])
        assert expected["refused"]["defect"]
        return
    replayed = replay_record(parse(read(name)))
    assert replayed.match["score"] == expected["score"]
    assert [[g["winner"], g["points"], g.get("resigned", False)] for g in replayed.games] == expected["games"]
    assert [[w["line"], w["code"]] for w in replayed.warnings] == expected.get("warnings", [])


def test_a_game_written_as_its_result_alone_was_resigned_before_the_opening_roll():
    """An online server writes a last game with no moves, only ``Wins 1 points and the match``."""
    text = mat(game() + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               " Ann : 1                        Bob : 0\n  1)\n   Wins 1 points and the match\n", length=2)
    replayed = check_mat(ENGINE, text)
    assert results(replayed) == [(1, 0, 1, True), (2, 0, 1, True)]
    assert warned(replayed) == [(12, "backgammon.record-resigned-before-opening")]


# --------------------------------------------------------------------------- the archive corpus (issue 25)

from bench.scan_records import verdict  # noqa: E402  (the scan report's own verdict: one definition)

ARCHIVE = DATA / "corpus"
MANIFEST = __import__("json").loads((ARCHIVE / "MANIFEST.json").read_text())
ARCHIVE_EXPECTED = __import__("json").loads((ARCHIVE / "EXPECTED.json").read_text())


def test_the_archive_corpus_holds_300_files_of_6_writers_each_with_its_source_and_verdict():
    files = sorted(p.relative_to(ARCHIVE).as_posix() for p in ARCHIVE.rglob("*") if p.suffix in (".txt", ".mat", ".sgf"))
    assert files == sorted(MANIFEST) == sorted(ARCHIVE_EXPECTED)
    assert len(files) >= 300
    assert len({e["writer"] for e in MANIFEST.values()} | {e["writer"] for e in EXPECTED.values()}) >= 6
    for entry in MANIFEST.values():
        assert entry["licence"] == "MIT" and re.fullmatch(r"[0-9a-f]{40}", entry["commit"]) and entry["path"]
        assert entry["repository"] in ("lassehjorthmadsen/bglab", "kevung/gbf", "kevung/lazyBG")
    for name, expected in ARCHIVE_EXPECTED.items():
        assert ("refused" in expected) != ("score" in expected), name
        assert "refused" not in expected or expected["defect"], name


@pytest.mark.parametrize("name", sorted(ARCHIVE_EXPECTED))
def test_every_archive_record_gets_its_expected_verdict(name):
    """Each file replayed end to end: its score, each game's result and the conventions noted, or
    the refusal's code and line (a real defect of the record, ``defect`` in EXPECTED.json)."""
    found = verdict(ARCHIVE / name)
    found.pop("message", None)
    expected = {k: v for k, v in ARCHIVE_EXPECTED[name].items() if k != "defect"}
    assert found == expected


# --------------------------------------------------------------------------- the archives' conventions (issue 25)


def test_galaxys_last_wins_capped_at_the_match_length():
    """Game 2 at 0-1 of a 3-point match: the cube at 4, Ann concedes a single game (worth 4) where
    Bob needed 2; Galaxy writes ``Wins 3 point and the match``: the match length."""
    text = mat(game() + "  2) 64: 24/18 13/9\n" + " " * 33 + "Wins 1 point\n",
               game(0, 1) + "  2)  Doubles => 2                Takes\n"
               "  3) 64: 24/18 13/9              Doubles => 4\n"
               "  4)  Takes                      53: 13/8 13/10\n"
               + " " * 33 + "Wins 3 point and the match\n")
    replayed = check_mat(ENGINE, text)
    assert results(replayed)[-1] == (2, 1, 4, True) and replayed.match["score"] == [0, 5]
    assert warned(replayed)[-1] == (len(text.splitlines()), "backgammon.record-wins-capped-at-length")
    assert replayed.warnings[-1]["context"] == {"game": 2, "got": 3, "expected": 4}
    # short of what the match needed, and not the game's worth: refused as before
    err = refusal(text.replace("Wins 3 point and the match", "Wins 1 point"), IllegalMove)
    assert err.code == "backgammon.record-result-mismatch"


def test_an_empty_player_name_is_read_and_noted():
    """``; [Player 2 ""]`` and the score line ``lasse : 0          : 0`` (Galaxy)."""
    text = mat(" lasse : 0                         : 0\n" + OPEN + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               header='; [Player 1 "lasse"]\n; [Player 2 ""]\n\n')
    replayed = check_mat(ENGINE, text)
    assert replayed.match["players"] == ["lasse", ""]
    assert results(replayed) == [(1, 0, 1, True)]
    assert warned(replayed) == [(7, "backgammon.record-empty-name")]
    assert replayed.warnings[0]["context"] == {"seat": 1}


def test_a_row_number_repeated_inside_a_line_starts_a_second_row():
    """`` 2) 64: 24/18 13/9     2)  Losses 1 point     Wins 1 point and the match`` (Galaxy): the
    second ``2)`` starts a row of Ann's ``Losses`` and Bob's ``Wins``."""
    text = mat(game() + "  2) 64: 24/18 13/9              2)  Losses 1 point"
               + " " * 40 + "Wins 1 point and the match\n", length=1)
    replayed = check_mat(ENGINE, text)
    assert results(replayed) == [(1, 1, 1, True)]
    assert [c for _, c in warned(replayed)] == ["backgammon.record-row-repeated", "backgammon.record-losses-cell",
                                                "backgammon.record-conceded-out-of-turn"]
    # any other text after a repeated number is as unreadable as before
    err = refusal(text.replace("Losses 1 point", "Loses 1 point"), InvalidState)
    assert err.code == "backgammon.bad-record" and err.context["line"] == 6


@pytest.mark.parametrize("written", ["????                           Wins 4016 point",
                                     "????                           Wins 100 points"])
def test_a_match_ending_wins_no_resignation_is_worth_is_a_forfeit(written):
    """Backgammon Studio's ``????  Wins 4016 point``, a server's ``Wins 100 points``: the match
    goes to the winner, the game gets no points but what the match needed."""
    text = mat(game() + f"  2) 64: {written}\n", length=5)
    replayed = check_mat(ENGINE, text)
    assert replayed.games == [{"number": 1, "winner": 1, "points": 5, "forfeit": True, "score_after": [0, 5]}]
    assert replayed.match["score"] == [0, 5] and ENGINE.outcome(replayed.state).winners == (1,)
    assert warned(replayed)[-1] == (6, "backgammon.record-forfeit")


def test_galaxys_losses_and_wins_at_cube_1_worth_more_than_a_backgammon_is_a_forfeit():
    text = mat(game(0, 1) + "  2) 64: 24/18 13/9\n      Losses 4 point                Wins 4 point and the match\n",
               length=5)
    replayed = check_mat(ENGINE, text)
    assert replayed.games[0]["forfeit"] is True and replayed.match["score"] == [0, 5]
    # a Wins that does not end the match is no forfeit: a wrong result, as before
    err = refusal(text.replace(" 5 point match", " 9 point match"), IllegalMove)
    assert err.code == "backgammon.record-result-mismatch"


def test_an_empty_play_where_a_play_existed_stays_must_move():
    """The strict part of the conventions (issue 25): ``64:`` with nothing after it, where 6-4
    could be played, and the game goes on."""
    err = refusal(mat(game() + "  2) 64:                          53: 13/8 13/10\n"), IllegalMove)
    assert err.code == "backgammon.must-move" and err.context["line"] == 6


def test_sgf_resign_spelled_out_is_read_as_r():
    resigned = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+2Resign];B[41lpab];W[31fehe])"
    replayed = replay_record(parse_sgf(resigned))
    assert results(replayed) == [(1, 0, 2, True)]
    assert warned(replayed) == [(1, "backgammon.record-resign-spelled-out")]
    with pytest.raises(InvalidState):
        parse_sgf(resigned.replace("Resign", "Resigned"))


def test_a_rating_after_a_comma_is_not_part_of_the_name():
    text = mat(" BlueNote,1780 : 0                Bob : 0\n" + OPEN + "  2) 64: 24/18 13/9\n      Wins 1 point\n")
    replayed = check_mat(ENGINE, text)
    assert replayed.match["players"] == ["BlueNote", "Bob"]
    assert warned(replayed) == [(4, "backgammon.record-rating-after-comma")]
