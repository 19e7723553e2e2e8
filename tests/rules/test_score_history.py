"""A score report's ``history`` has one row per finished round, the round just scored included
(DESIGN 4.5), in every game: at the end of round 1 it is that round's row, not ``[]``."""

from __future__ import annotations

import pytest

from rules.registry import ENGINES
from tests.playout import random_steps

# each game under random options, and a backgammon match (its games are its rounds: money play is one)
CASES = [(e, {}) for e in ENGINES.values()] + [(ENGINES["backgammon"], {"match_length": 5})]


@pytest.mark.parametrize(("engine", "options"), CASES, ids=[*ENGINES, "backgammon-match"])
def test_a_final_report_lists_every_finished_round_the_one_scored_last(engine, options) -> None:
    ends, later = 0, 0
    for players in (engine.players.start, engine.players.stop - 1):
        for seed in (1, 2):
            for before, _, _, after in random_steps(engine, players, seed, max_moves=1500, options=options):
                if engine.round_over(before) or not engine.round_over(after):
                    continue  # only the move that ends a round (or the game)
                report = engine.scores(after).to_json()
                assert report["final"], report
                assert report["history"] and report["history"][-1] == report["points"], report
                assert len(report["history"]) == report["round"], report
                ends += 1
                later += report["round"] > 1
                live = engine.scores(before).to_json()  # the round being played is no row yet
                assert live["history"] == report["history"][:-1] or live["round"] != report["round"], (live, report)
    assert ends >= 4 and (later or not options), (ends, later)


def test_a_report_before_a_round_ends_has_no_row_for_it() -> None:
    for engine in ENGINES.values():
        state = engine.new(engine.players.start, 1)
        report = engine.scores(state).to_json()
        assert not report["final"] and report["history"] == [], (engine.game_id, report)


@pytest.mark.parametrize("engine", [e for e in ENGINES.values() if e.spec.tally is not None],
                         ids=[g for g, e in ENGINES.items() if e.spec.tally is not None])
def test_a_score_sheets_report_lists_its_round_too(engine) -> None:
    """A tally scores one finished round: its report's history ends with that round's row."""
    assert engine.spec.tally_example is not None, engine.game_id
    report = engine.score_tally(engine.spec.tally_example).to_json()
    assert report["final"] and report["history"] and report["history"][-1] == report["points"], report
    assert len(report["history"]) == report["round"], report
