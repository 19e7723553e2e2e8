"""Notations (docs/rules/backgammon.md §4.6, §9): standard play notation, GNU BG Position ID and Match ID, XGID.

Play notation: whitespace-separated checker paths ``13/7/3``, ``24/18*/15``, ``bar/20``,
``6/off``, with ``*`` after a point where a blot was hit and ``(n)`` for a path played by
``n`` checkers (``8/5(2)``). Points are in the mover's own numbering.

Position ID (§9.1, orientation verified against gnubg-nn): the side **not on roll**
is encoded first, then the side on roll; for each, points 1..24 then the bar in its own
numbering, one ``1`` bit per checker and a ``0`` after each point; 80 bits little-endian,
Base64 without padding (14 characters).

Match ID: 67 bits little-endian (cube log2 4, owner 2, on roll 1, Crawford 1, game state 3,
turn 1, double offered 1, resign 2, die 1 3, die 2 3, match length 15, score 0 15,
score 1 15, then GNU BG's Jacoby bit, stored as "not Jacoby"), Base64 of 9 bytes (12
characters). :func:`decode_match_id` gives the bit as ``jacoby`` (1: the Jacoby rule is in use,
as in every older 66-bit ID).

XGID: ``XGID=<26 chars>:<cube log2>:<cube pos>:<turn>:<dice>:<score bottom>:<score top>:
<crawford or jacoby/beaver flags>:<match length>:<max cube log2>``; seat 0 is the bottom
player (upper-case checkers, turn ``1``), seat 1 the top player.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from functools import lru_cache
from typing import Any, TypedDict

from rules.base import excerpt

from ._codes import C


def show(value: object) -> str:
    """A short excerpt of untrusted input, written as JSON (``null``, not Python's ``None``)."""
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return excerpt(value)
    return text if len(text) <= 60 else text[:59] + "…"

# --------------------------------------------------------------------------- play notation

_PATH = re.compile(r"^(bar|\d{1,2})(\*?)((?:/(?:off|bar|\d{1,2})\*?)+)(?:\((\d)\))?$")
_HOP = re.compile(r"/(off|bar|\d{1,2})(\*?)")


def _point(text: str, raw: str) -> int:
    if text == "bar":
        return 25
    if text == "off":
        return 0
    value = int(text)
    if not 0 <= value <= 25:
        raise C.malformed_move(f"point {value} in {show(raw)} is not 0..25 (bar/off)", field="notation")
    return value


def parse_play(text: str) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    """``"24/18*/15 13/10"`` -> hops ``((24, 18), (18, 15), (13, 10))`` and the hit marks ``{18}``."""
    if isinstance(text, str) and len(text) <= 200:
        return _parse_play(text)
    raise C.malformed_move(f"notation must be a string of at most 200 characters, got {show(text)}", field="notation")


@lru_cache(maxsize=1 << 14)
def _parse_play(text: str) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    """Each path read once per process (:func:`_path`): a record's plays are new texts of old paths."""
    hops: list[tuple[int, int]] = []
    marks: list[int] = []
    for token in text.lower().split():
        path = _path(token)
        if path is None:
            return _parse_play_checked(text)
        hops += path[0]
        marks += path[1]
    if len(hops) > 4:
        return _parse_play_checked(text)
    return tuple(hops), frozenset(marks)


@lru_cache(maxsize=1 << 12)
def _path(token: str) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None:
    """One path's hops (repeated as ``(n)`` says) and hit marks; None when it is not a readable
    path, which :func:`_parse_play_checked` then names."""
    m = _PATH.match(token)
    if not m or m.group(2):
        return None
    path = [25 if m.group(1) == "bar" else int(m.group(1))]
    marks = []
    for hop in _HOP.finditer(m.group(3)):
        name = hop.group(1)
        point = 25 if name == "bar" else 0 if name == "off" else int(name)
        path.append(point)
        if hop.group(2):
            marks.append(point)
    times = int(m.group(4)) if m.group(4) else 1
    if not 1 <= times <= 4 or not all(0 <= p <= 25 for p in path):
        return None
    return tuple(zip(path, path[1:], strict=False)) * times, tuple(marks)


def _parse_play_checked(text: str) -> tuple[tuple[tuple[int, int], ...], frozenset[int]]:
    if not isinstance(text, str) or len(text) > 200:
        raise C.malformed_move(f"notation must be a string of at most 200 characters, got {show(text)}", field="notation")
    hops: list[tuple[int, int]] = []
    marks: set[int] = set()
    for token in text.lower().split():
        m = _PATH.match(token)
        if not m:
            raise C.bad_notation(f"cannot read {show(token)} in {show(text)}: expected e.g. '13/7', '24/18*/15', 'bar/20', '6/off', '8/5(2)'")
        start = _point(m.group(1), text)
        if m.group(2):
            raise C.bad_notation(f"{show(token)} in {show(text)}: a hit mark '*' goes after the point landed on")
        path = [start]
        token_marks = []
        for hop in _HOP.finditer(m.group(3)):
            point = _point(hop.group(1), text)
            path.append(point)
            if hop.group(2):
                token_marks.append(point)
        times = int(m.group(4)) if m.group(4) else 1
        if not 1 <= times <= 4:
            raise C.bad_notation(f"{show(token)} in {show(text)}: a path is played 1 to 4 times")
        for _ in range(times):
            hops.extend(zip(path, path[1:], strict=False))
        marks.update(token_marks)
    if len(hops) > 4:
        raise C.malformed_move(f"{show(text)} has {len(hops)} steps; a turn has at most 4", field="notation")
    return tuple(hops), frozenset(marks)


def _name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


_NAMES = ("off", *(str(p) for p in range(1, 25)), "bar")


@lru_cache(maxsize=1 << 16)
def format_play(steps: tuple[tuple[int, int, bool], ...]) -> str:
    """Standard notation of a play: paths of one checker chained, equal paths merged as ``(n)``.

    Paths come out highest start first; ``""`` for a forfeited turn.
    """
    if len(steps) == 1:
        s, t, h = steps[0]
        return f"{_NAMES[s]}/{_NAMES[t]}*" if h else f"{_NAMES[s]}/{_NAMES[t]}"
    if len(steps) == 2:  # the common case, without the general machinery
        a, b = steps if steps[0] >= steps[1] else (steps[1], steps[0])
        if a[:2] == b[:2]:
            return f"{_NAMES[a[0]]}/{_NAMES[a[1]]}{'*' if a[2] or b[2] else ''}(2)"
        first = f"{_NAMES[a[0]]}/{_NAMES[a[1]]}*" if a[2] else f"{_NAMES[a[0]]}/{_NAMES[a[1]]}"
        if b[0] == a[1]:
            return f"{first}/{_NAMES[b[1]]}*" if b[2] else f"{first}/{_NAMES[b[1]]}"
        return f"{first} {_NAMES[b[0]]}/{_NAMES[b[1]]}*" if b[2] else f"{first} {_NAMES[b[0]]}/{_NAMES[b[1]]}"
    chains: list[list[Any]] = []  # [points..., hits...] as two lists
    for s, t, h in sorted(steps, reverse=True):
        for chain in chains:
            if chain[0][-1] == s:
                chain[0].append(t)
                chain[1].append(h)
                break
        else:
            chains.append([[s, t], [False, h]])
    grouped: dict[tuple[int, ...], list[Any]] = {}  # [count, hits]
    for points, hits in chains:
        key = tuple(points)
        entry = grouped.get(key)
        if entry is None:
            grouped[key] = [1, hits]
        else:
            entry[0] += 1
            entry[1] = [a or b for a, b in zip(entry[1], hits, strict=True)]
    out = []
    for points, (n, hits) in grouped.items():
        text = "/".join([_NAMES[p] + "*" if h else _NAMES[p] for p, h in zip(points, hits, strict=True)])
        out.append(f"{text}({n})" if n > 1 else text)
    return " ".join(out)


# --------------------------------------------------------------------------- bits


_BAD_ID = {"position-id": C.bad_position_id, "match-id": C.bad_match_id}


def _unpack(text: str, nchars: int, nbytes: int, what: str) -> list[int]:
    if not isinstance(text, str) or len(text) != nchars or not re.fullmatch(r"[A-Za-z0-9+/]+", text):
        raise _BAD_ID[what](f"a {what.replace('-', ' ')} is {nchars} Base64 characters, got {show(text)}")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise _BAD_ID[what](f"{show(text)} is not Base64") from exc
    data = data[:nbytes]
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(nbytes * 8)]


# --------------------------------------------------------------------------- Position ID


def position_id(not_on_roll: tuple[int, ...], on_roll: tuple[int, ...]) -> str:
    """Each side: 25 counts, points 1..24 then the bar, in that side's own numbering."""
    key = 0
    at = 0
    for side in (not_on_roll, on_roll):
        for n in side:
            if n:
                key |= ((1 << n) - 1) << at
                at += n
            at += 1
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def decode_position_id(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The inverse of :func:`position_id`; ``InvalidState`` for a malformed or impossible ID."""
    bits = _unpack(text, 14, 10, "position-id")
    sides: list[list[int]] = [[], []]
    i = 0
    for side in sides:
        while len(side) < 25:
            n = 0
            while i < 80 and bits[i]:
                n += 1
                i += 1
            if i >= 80:
                raise C.bad_position_id(f"position ID {show(text)} runs out of bits")
            i += 1
            side.append(n)
    if any(bits[i:]):
        raise C.bad_position_id(f"position ID {show(text)} has stray bits after both sides")
    for side in sides:
        if sum(side) > 15:
            raise C.bad_position_id(f"position ID {show(text)} has {sum(side)} checkers on one side (max 15)")
    return tuple(sides[0]), tuple(sides[1])


# --------------------------------------------------------------------------- Match ID

_MATCH_FIELDS = (
    ("cube_log", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("game_state", 3), ("turn", 1),
    ("doubled", 1), ("resign", 2), ("die1", 3), ("die2", 3), ("length", 15), ("score0", 15), ("score1", 15),
)


def match_id(fields: dict[str, int]) -> str:
    """Encode the Match ID fields (``owner`` 0, 1 or 3 for a centred cube; ``jacoby`` 0/1, default 1)."""
    key = 0
    at = 0
    for name, width in _MATCH_FIELDS:
        key |= (fields[name] & ((1 << width) - 1)) << at
        at += width
    key |= (1 - fields.get("jacoby", 1)) << at
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def decode_match_id(text: str) -> dict[str, int]:
    bits = _unpack(text, 12, 9, "match-id")
    out: dict[str, int] = {}
    i = 0
    for name, width in _MATCH_FIELDS:
        out[name] = sum(bits[i + k] << k for k in range(width))
        i += width
    out["jacoby"] = 1 - bits[i]
    if any(bits[i + 1:]):
        raise C.bad_match_id(f"match ID {show(text)} has stray bits after the Jacoby bit")
    return out


# --------------------------------------------------------------------------- XGID

class XgidFields(TypedDict):
    """The fields of an XGID after its 26 position characters."""

    cube_log: int
    cube_pos: int  # 0 centred, 1 bottom, -1 top
    turn: int  # 1 bottom, -1 top
    dice: str  # "00", "D", "B", "R" or two digits
    score_bottom: int
    score_top: int
    flags: int
    length: int
    max_cube_log: int


_XG = re.compile(r"^XGID=([-A-Oa-o]{26}):(\d{1,2}):(-1|0|1):(-1|1):(00|D|B|R|[1-6]{2}):(\d{1,5}):(\d{1,5}):([0-3]):(\d{1,5}):(\d{1,2})$")


def xgid(bottom: tuple[int, ...], top: tuple[int, ...], fields: XgidFields) -> str:
    """``bottom``/``top``: 25 counts (points 1..24 then bar) in each side's own numbering."""
    chars = ["-"] * 26
    chars[0] = _xg_char(top[24], upper=False)
    chars[25] = _xg_char(bottom[24], upper=True)
    for p in range(1, 25):
        if bottom[p - 1]:
            chars[p] = _xg_char(bottom[p - 1], upper=True)
        elif top[24 - p]:
            chars[p] = _xg_char(top[24 - p], upper=False)
    return (
        f"XGID={''.join(chars)}:{fields['cube_log']}:{fields['cube_pos']}:{fields['turn']}:{fields['dice']}:"
        f"{fields['score_bottom']}:{fields['score_top']}:{fields['flags']}:{fields['length']}:{fields['max_cube_log']}"
    )


def _xg_char(n: int, upper: bool) -> str:
    if not n:
        return "-"
    return chr((ord("A") if upper else ord("a")) + n - 1)


def decode_xgid(text: str) -> tuple[tuple[int, ...], tuple[int, ...], XgidFields]:
    """The inverse of :func:`xgid`: (bottom, top, fields); ``InvalidState`` when malformed."""
    m = _XG.match(text) if isinstance(text, str) else None
    if not m:
        raise C.bad_xgid(f"cannot read XGID {show(text)}")
    chars = m.group(1)
    bottom = [0] * 25
    top = [0] * 25
    for i, c in enumerate(chars):
        if c == "-":
            continue
        upper = c.isupper()
        n = ord(c) - (ord("A") if upper else ord("a")) + 1
        if i == 0:
            if upper:
                raise C.bad_xgid(f"XGID {show(text)}: character 0 is the top bar (lower case)")
            top[24] = n
        elif i == 25:
            if not upper:
                raise C.bad_xgid(f"XGID {show(text)}: character 25 is the bottom bar (upper case)")
            bottom[24] = n
        elif upper:
            bottom[i - 1] = n
        else:
            top[24 - i] = n
    for side in (bottom, top):
        if sum(side) > 15:
            raise C.bad_xgid(f"XGID {show(text)} has {sum(side)} checkers on one side (max 15)")
    fields: XgidFields = {
        "cube_log": int(m.group(2)), "cube_pos": int(m.group(3)), "turn": int(m.group(4)), "dice": m.group(5),
        "score_bottom": int(m.group(6)), "score_top": int(m.group(7)), "flags": int(m.group(8)),
        "length": int(m.group(9)), "max_cube_log": int(m.group(10)),
    }
    return tuple(bottom), tuple(top), fields
