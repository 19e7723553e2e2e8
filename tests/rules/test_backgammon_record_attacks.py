"""Hostile records (DESIGN 4.3 "Fast and unbreakable"; issue 25): each input that once made a
reader backtrack or grow with the square of its input, built at the full ``MAX_RECORD_BYTES``
(4 MiB), gets a verdict (the refusal's code and line, or the match read). Nothing here asserts a
time: ``python bench/scan_records.py --attacks`` measures each in seconds per MiB.

``ATTACKS`` (name -> builder of a text of about ``size`` bytes) is shared with that benchmark.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

SIZE = 4 * 1024 * 1024  # the service's MAX_RECORD_BYTES; every attack below is ASCII
WIDE = 4096 - 16  # a line just inside MAX_LINE_CHARS, so that every line is read
# (the builders import nothing from the rules, so that the benchmark can time older readers with them)
HEAD = " 3 point match\n\n"


def _fill(head: str, unit: str, size: int, tail: str = "") -> str:
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


ATTACKS: dict[str, Callable[[int], str]] = {
    # ``; [`` and blanks with no closing quote: the header-tag regex backtracked cubically
    "tag-blanks": lambda size: _fill("", "; [" + " " * WIDE + "x\n", size),
    # one such line past the cap
    "tag-one-line": lambda size: "; [" + " " * (size - 5) + "x\n",
    # score lines of repeated ``a:1 `` (read, one per game): the score regex was quadratic
    "score-colons": lambda size: _fill(HEAD, " Game 1\n " + "a:1 " * (WIDE // 4) + ": 0\n", size),
    # a name padded with blanks before an unclosed rating
    "rating-padded": lambda size: HEAD + " Game 1\n a" + " " * (size - 60) + "x(1 : 0   b : 0\n",
    "rating-padded-wide": lambda size: _fill(HEAD + " Game 1\n a" + " " * (WIDE - 20) + "x(1 : 0   b : 0\n",
                                             "; comment\n", size),
    # rows of many hops (more than a roll can play: refused at the first)
    "row-hops": lambda size: _fill(HEAD + " Game 1\n a : 0     b : 0\n", "  1) 31:" + " 8/5*" * (WIDE // 6) + "\n",
                                   size),
    # a hop list that the old cell regex took back in two ways per starred hop
    "row-starred-hops": lambda size: _fill(HEAD + " Game 1\n a : 0     b : 0\n",
                                           "  1) 31:" + " 1/2*" * (WIDE // 6) + "1\n", size),
    # .sgf values never closed
    "sgf-unclosed": lambda size: _fill("(;GM[6]MI[length:3]", "A[", size),
    # .sgf values closed, a property each
    "sgf-values": lambda size: _fill("(;GM[6]MI[length:3]", "C[x]", size, ")"),
    # many ``;`` without ``[``: the split's lookahead scanned to the end for each
    "sgf-semicolons": lambda size: _fill("(;GM[6]MI[length:3]", ";", size, "["),
    # 64,000 and more game trees: the line count was redone per tree
    "sgf-trees": lambda size: _fill("", "(;GM[6]MI[length:3])\n", size),
    # deep nesting
    "sgf-deep": lambda size: _fill("", "(", size, ";GM[6]MI[length:3]"),
    # games with only a score line
    "mat-games": lambda size: _fill(HEAD, " Game 1\n a : 0     b : 0\n", size),
    # huge numbers where numbers are read
    "huge-numbers": lambda size: _fill(" 99999 point match\n\n Game 1\n a : 99999     b : 99999\n",
                                       "      Wins 99999 points\n", size),
    "sgf-huge-numbers": lambda size: "(;GM[6]MI[length:" + "9" * (size - 30) + "])",
}

# the verdict of each at 4 MiB: (code, line) of the refusal, or ("ok", final score)
VERDICTS = {
    "tag-blanks": ("backgammon.bad-record", 1026),  # the last line: no 'N point match'
    "tag-one-line": ("backgammon.bad-record", 1),
    "score-colons": ("backgammon.record-result-mismatch", 5),
    "rating-padded": ("backgammon.bad-record", 4),
    "rating-padded-wide": ("ok", [0, 0]),
    "row-hops": ("backgammon.bad-record", 5),  # MAX_PLAY_WORDS
    "row-starred-hops": ("backgammon.bad-record", 5),
    "sgf-unclosed": ("backgammon.bad-record", 1),
    "sgf-values": ("ok", [0, 0]),
    "sgf-semicolons": ("backgammon.bad-record", 1),  # the last '[' is never closed
    "sgf-trees": ("backgammon.bad-record", 10_001),  # MAX_RECORD_GAMES
    "sgf-deep": ("ok", [0, 0]),
    "mat-games": ("backgammon.bad-record", 20_003),  # MAX_RECORD_GAMES: game 10,001
    "huge-numbers": ("backgammon.bad-record", 100_004),  # MAX_RECORD_ENTRIES
    "sgf-huge-numbers": ("backgammon.bad-record", 1),
}


def verdict(text: str) -> tuple[str, object]:
    """What checking ``text`` answers: the refusal's (code, line), or ("ok", the final score)."""
    from rules.backgammon import ENGINE
    from rules.backgammon._records import parse_mat, parse_sgf, replay_record
    from rules.base import RulesError

    parse = parse_sgf if text.lstrip("\ufeff \t\r\n").startswith("(") else parse_mat
    try:
        done = replay_record(ENGINE, parse(text), 100_000)
    except RulesError as exc:
        return exc.code, exc.context.get("line")
    return "ok", done.match["score"]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_every_hostile_record_gets_its_verdict_at_the_full_size(name):
    from rules.backgammon._records import MAX_LINE_CHARS, MAX_RECORD_CHARS

    assert (SIZE, WIDE) == (MAX_RECORD_CHARS, MAX_LINE_CHARS - 16)
    text = ATTACKS[name](SIZE)
    assert SIZE - MAX_LINE_CHARS <= len(text.encode()) <= SIZE
    assert verdict(text) == VERDICTS[name]
