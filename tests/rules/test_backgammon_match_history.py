"""A match's score report lists every game (DESIGN 4.5; docs/rules/backgammon.md §7): the state's
``match.history`` keeps the points each earlier game gave each seat, so the report after game N
of a match has N rows summing to the match score. A state whose history contradicts its score is
refused; a match started at a written score (a record, a setup) has fewer rows than its score."""

from __future__ import annotations

import random

import pytest

from rules.backgammon import ENGINE as E
from rules.backgammon._records import check_mat
from rules.base import InvalidState
from tests.playout import choose
from tests.rules.catalogue import check_refused
from tests.rules.test_backgammon_records import game, mat


def play_match(length: int, seed: int) -> list[tuple[dict, dict, dict]]:
    """A seeded random match to ``length`` through the engine, to its end: per finished game the
    report before its last move, the report after it, and the state after it (JSON)."""
    rnd = random.Random(seed)
    state = E.new(2, seed, {"match_length": length})
    ends = []
    for _ in range(20000):
        acting = E.to_act(state)
        if not acting:
            return ends
        seat = rnd.choice(sorted(acting))
        move = choose(rnd, "backgammon", list(E.legal_moves(state, seat)), lambda m: E.move_to_json(m)["kind"])
        after = E.apply(state, seat, move)
        if not E.round_over(state) and E.round_over(after):
            ends.append((E.scores(state).to_json(), E.scores(after).to_json(), E.to_json(after)))
        state = after
    raise AssertionError(f"the match (seed {seed}) did not end")


@pytest.mark.parametrize(("length", "seed"), [(3, 1), (5, 2), (5, 7)])
def test_the_report_after_game_n_of_a_match_has_n_rows_summing_to_the_score(length, seed) -> None:
    ends = play_match(length, seed)
    assert len(ends) >= 2, "a match of one game shows no history"
    for n, (live, report, state) in enumerate(ends, start=1):
        rows = report["history"]
        assert report["round"] == n and len(rows) == n, report
        assert rows[-1] == report["points"] and live["history"] == rows[:-1], (live, report)
        for row in rows:  # a game gives its points to its winner alone
            assert sorted(row)[0] == 0 < sorted(row)[1], row
        assert [sum(row[s] for row in rows) for s in (0, 1)] == report["totals"] == state["match"]["score"]
        assert state["match"]["history"] == rows[:-1]  # the state keeps the earlier games
        # the history is read back as written, and shown to both seats and spectators
        assert E.to_json(E.from_json(state)) == state
        for seat in (0, 1, None):
            assert E.view(E.from_json(state), seat)["match"]["history"] == rows[:-1]
    assert max(ends[-1][1]["totals"]) >= length and ends[-1][1]["winners"]


def test_the_ids_do_not_encode_the_history() -> None:
    """Position ID, Match ID and XGID are GNU BG's and eXtreme Gammon's: the same with or without
    the earlier games' rows."""
    _, _, state = play_match(5, 2)[1]
    assert state["match"]["history"]
    bare = {k: v for k, v in state.items() if k not in ("position_id", "match_id", "xgid", "pips")}
    bare["match"] = {**state["match"], "history": []}
    without = E.to_json(E.from_json(bare))
    assert [without[k] for k in ("position_id", "match_id", "xgid")] == [
        state[k] for k in ("position_id", "match_id", "xgid")]


def contradicting(state: dict, history: list, **match) -> dict:
    return {**state, "match": {**state["match"], "history": history, **match}}


def test_a_history_that_contradicts_the_score_is_refused() -> None:
    _, _, state = play_match(5, 2)[1]  # game 2 over: one earlier row, the score includes game 2's points
    (row,), score = state["match"]["history"], state["match"]["score"]
    winner = 0 if row[0] else 1
    more = [0, 0]
    more[winner] = score[winner] + 1
    bad = [
        [more],  # more points than the score
        [row, row, row],  # more games than were played before game 2
        [[1, 1]],  # a game with two winners
        [[0, 0]],  # a game with none
    ]
    for history in bad:
        check_refused(E, contradicting(state, history), "backgammon.bad-state", ["match"])
    with pytest.raises(InvalidState) as err:
        E.from_json(contradicting(state, [more]))
    assert err.value.context["field"] == "match.history" and "more than the score" in err.value.message
    # money play is one game: no earlier rows
    money = E.to_json(E.new(2, 1))
    check_refused(E, contradicting(money, [[1, 0]]), "backgammon.bad-state", ["match"])


def test_a_match_started_at_a_written_score_lists_the_games_played_here() -> None:
    """A record that starts mid-match (at 1-0) starts with no rows: the rows add up to less than
    the score, by the starting score."""
    text = mat(game(1, 0) + "  2) 64: 24/18 13/9\n      Wins 1 point\n",
               game(2, 0) + "  2) 64: 24/18 13/9\n      Wins 1 point\n")
    replayed = check_mat(E, text)
    report = E.scores(replayed.state).to_json()
    assert report["totals"] == [3, 0] and report["history"] == [[1, 0], [1, 0]], report
    assert E.to_json(replayed.state)["match"]["history"] == [[1, 0]]
