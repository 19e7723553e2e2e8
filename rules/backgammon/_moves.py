"""Full-turn play generation (docs/rules/backgammon.md §4): the hot path.

Boards here are seen from the side on roll (the *mover*): ``me`` is a list of 26 counts in
the mover's own numbering, ``me[0]`` borne off, ``me[1..24]`` the points, ``me[25]`` the
bar; ``opp`` is a list of 26 counts of the opponent's checkers on the mover's points
(``opp[p]`` for ``p`` in 1..24; the other entries are unused). A step is ``(src, dst, hit)``
with ``25`` the bar and ``0`` off.

The search walks sub-moves on the mutable scratch lists with undo (nothing mutable
escapes): a roll of two numbers is tried in both orders by two nested loops; doubles take
their sources in non-increasing order (so each multiset of sub-moves is tried once). The
last sub-move of a play is never applied for real: its result key is built directly. A
result key is the mover's 26 counts plus the bitmask of points hit, so a position reached
by several orders is kept once, with the first sequence that reached it.

Sub-move legality (docs/rules/backgammon.md §4.1-§4.3): with a checker on the bar only entries; the target must hold at
most one opposing checker (one is hit); bearing off only with every checker home (far
point <= 6); a die larger than the distance bears off only from the highest point.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

BAR = 25
OFF = 0

Key = tuple[int, ...]  # a play's identity inside a search: two plays with equal keys reach one position
Step = tuple[int, int, bool]  # (src, dst, hit)
Play = tuple[Step, ...]


def generate(me: list[int], opp: list[int], d1: int, d2: int) -> tuple[int, list[Play]]:
    """All distinct legal plays of the roll ``d1``-``d2`` (``me``/``opp`` are scratch lists,
    changed during the search and restored).

    Returns ``(dice_used, plays)``: ``plays`` holds one step sequence per distinct resulting
    position (:func:`result_of` gives the position); an empty list when
    nothing can be played (the turn is forfeited). Plays use as many dice as possible; when
    only one die of a non-double can be used, the larger one if it can be (docs/rules/backgammon.md §4.4-§4.5).
    A play that bears off the last checker counts the dice it used: with 6-1 a last checker
    on 5 and a blot on 4 must play 5/4*/off, not 5/off (as GNU BG). With doubles every way
    of bearing off the last checkers reaches one position (each checker's path is forced).
    """
    board = me  # scratch: every change is undone before returning
    occ = [p for p in range(25, 0, -1) if me[p]]
    far = occ[0] if occ else 0
    if d1 == d2:
        # A target holding two or more opposing checkers stays blocked all turn (hits only
        # empty points), so sources that could only move there are dropped up front.
        if me[BAR] and opp[BAR - d1] > 1:
            return 0, []  # the bar cannot enter: nothing else may move
        return _doubles(board, opp, d1, far, [p for p in occ if p <= d1 or opp[p - d1] < 2])
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    full: dict[Key, Play] = {}
    single_hi: dict[Key, Play] = {}
    single_lo: dict[Key, Play] = {}
    _two(board, opp, hi, lo, far, occ, full, single_hi, False)
    _two(board, opp, lo, hi, far, occ, full, single_lo, not me[BAR])
    if full:
        return 2, list(full.values())
    if single_hi:
        return 1, list(single_hi.values())
    if single_lo:
        return 1, list(single_lo.values())
    return 0, []


def _two(me: list[int], opp: list[int], x: int, y: int, far: int, occ: list[int], full: dict[Key, Play],
         single: dict[Key, Play], reorder: bool) -> None:
    """Plays of ``x`` then ``y``: two-dice results into ``full``, one-die results into ``single``.

    ``reorder`` (the smaller die first, nobody on the bar): a play of two different checkers
    with neither bearing off was already found with the larger die first (the larger
    sub-move is legal in the start position, and the smaller one after it), so when the
    first sub-move is not a bear-off and no bear-off is possible yet, only the checker just
    moved is tried again.

    The second sub-move is never applied: a two-step result is keyed by its net change
    (``(src, dst, hits)`` for one checker moved twice, ``(src_hi, src_lo, dst_hi, dst_lo,
    hits)`` for two checkers), which identifies the position as well as the board would.
    """
    for s in ((BAR,) if me[BAR] else occ):
        t = s - x
        if t > 0:
            n = opp[t]
            if n > 1:
                continue
            hit = n == 1
            if hit:
                opp[t] = 0
                h = 1 << t
            else:
                h = 0
        else:
            if far > 6:
                continue
            if t < 0 and s != far:
                continue
            t = 0
            hit = False
            h = 0
        me[s] -= 1
        me[t] += 1
        nf = far
        while nf and not me[nf]:
            nf -= 1
        if nf == 0:  # the last checker is off with one die: a play of both dice (say, hitting on
            # the way, 5/4*/off with 6-1) beats it (docs/rules/backgammon.md §4.4), as in GNU BG
            if not full:
                key: Key = (s, 0, 0)
                if key not in single:
                    single[key] = ((s, t, hit),)
        else:
            moved = False
            if me[BAR]:
                cands: tuple[int, ...] | list[int] = (BAR,)
            elif reorder and t and nf > 6:
                cands = (t,)
            elif t and me[t] == 1:
                cands = [*occ, t]
            else:
                cands = occ
            for s2 in cands:
                if not me[s2]:
                    continue
                t2 = s2 - y
                if t2 > 0:
                    n2 = opp[t2]
                    if n2 > 1:
                        continue
                    h2 = h | (1 << t2) if n2 else h
                else:
                    if nf > 6 or (t2 < 0 and s2 != nf):
                        continue
                    t2 = 0
                    n2 = 0
                    h2 = h
                moved = True
                if s2 == t:
                    key = (s, t2, h2)
                elif t2 == s:
                    key = (s2, t, h2)
                elif s > s2:
                    key = (s, s2, t, t2, h2) if t > t2 else (s, s2, t2, t, h2)
                else:
                    key = (s2, s, t, t2, h2) if t > t2 else (s2, s, t2, t, h2)
                if key not in full:
                    full[key] = ((s, t, hit), (s2, t2, n2 == 1))
            if not moved and not full:
                key = (s, t, h)
                if key not in single:
                    single[key] = ((s, t, hit),)
        me[t] -= 1
        me[s] += 1
        if hit:
            opp[t] = 1


def result_of(me: list[int], opp: list[int], steps: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], int]:
    """The mover's 26 counts and the bitmask of points hit after ``steps`` (no legality check)."""
    board = list(me)
    other = list(opp)
    hits = 0
    for s, t, *_ in steps:
        board[s] -= 1
        board[t] += 1
        if t and other[t] == 1:
            other[t] = 0
            hits |= 1 << t
    return tuple(board), hits


def _doubles(me: list[int], opp: list[int], d: int, far0: int, occ0: list[int]) -> tuple[int, list[Play]]:
    """Up to four sub-moves of ``d``, sources non-increasing; keep the plays using the most.

    Every sub-move of a double goes from some ``p`` to ``p - d``, so a play's resulting
    position (hits included) is fixed by the multiset of its sources, and conversely (solve
    ``count(p) = count(p + d) - change(p)`` from the top). Taking sources in non-increasing
    order enumerates each multiset once, so every play found is a distinct position: no
    dedupe is needed. ``occ`` lists the occupied points high to low; a level takes sources
    from index ``i`` on. The last sub-move is looped inline and never applied.
    """
    found: list[Play] = []
    partial: list[Any] = [0, []]  # plays that use fewer than four dice: (dice used, plays)
    steps: list[tuple[int, int, bool]] = []

    def short(extra: Play) -> None:
        used = len(steps) + len(extra)
        if used >= partial[0]:
            if used > partial[0]:
                partial[0] = used
                partial[1] = []
            partial[1].append((*steps, *extra))

    def rec(left: int, occ: list[int], i: int, far: int) -> None:
        moved = False
        # a checker on the bar must enter first (the bar, 25, is occ[0] when occupied)
        for j in range(i, 1 if me[BAR] else len(occ)):
            s = occ[j]
            if not me[s]:
                continue
            t = s - d
            if t > 0:
                n = opp[t]
                if n > 1:
                    continue
                hit = n == 1
            else:
                if far > 6:
                    break
                if t < 0 and s != far:
                    continue
                t = 0
                hit = False
            moved = True
            me[s] -= 1
            me[t] += 1
            if hit:
                opp[t] = 0
            nf = far
            while nf and not me[nf]:
                nf -= 1
            step = (s, t, hit)
            if nf == 0:  # the last checker is off: the game is over
                found.append((*steps, step))
            else:
                if t and me[t] == 1 and (t <= d or opp[t - d] < 2):  # a new source: keep ``occ`` sorted
                    k = j + 1
                    while k < len(occ) and occ[k] > t:
                        k += 1
                    nocc = [*occ[:k], t, *occ[k:]]
                else:
                    nocc = occ
                if left > 2:
                    steps.append(step)
                    rec(left - 1, nocc, j, nf)
                    steps.pop()
                else:  # the last sub-move, inline
                    last = False
                    for s2 in nocc[j:1] if me[BAR] else nocc[j:]:
                        if not me[s2]:
                            continue
                        t2 = s2 - d
                        if t2 > 0:
                            n2 = opp[t2]
                            if n2 > 1:
                                continue
                            found.append((*steps, step, (s2, t2, n2 == 1)))
                        else:
                            if nf > 6:
                                break
                            if t2 < 0 and s2 != nf:
                                continue
                            found.append((*steps, step, (s2, 0, False)))
                        last = True
                    if not last and not found:
                        short((step,))
            if hit:
                opp[t] = 1
            me[t] -= 1
            me[s] += 1
        if not moved and steps and not found:
            short(())

    rec(4, occ0, 0, far0)
    if found:
        return 4, found
    return partial[0], partial[1]


def every_die(me: list[int], opp: list[int], hops: Sequence[tuple[int, int]], dice: tuple[int, ...],
              hits: int) -> bool:
    """Whether ``hops`` (highest source first) can be played as single-die sub-moves, each legal
    in turn (the sub-move legality above), that use every die of ``dice`` and hit exactly the
    points of the bitmask ``hits`` (a hop spanning several dice may land on a blot on its way).

    Such a play is legal without listing the others: a play that uses every die uses as many
    dice as possible, and with two numbers both of them (docs/rules/backgammon.md §4.4-§4.5).
    False says nothing about legality (another order of the hops, or a play that must leave
    dice unused, is for :func:`generate` to judge). ``me``/``opp`` are scratch lists, restored.
    """
    last = len(hops)

    def step(i: int, at: int, left: tuple[int, ...], hit: int) -> bool:
        src, dst = hops[i]
        if at < 0:  # the hop's first sub-move: its checker must be there
            at = src
            if not me[at]:
                return False
        if me[BAR] and at != BAR:
            return False
        for j, d in enumerate(left):
            if j and d == left[0]:  # doubles, or two different dice: each value tried once
                continue
            t = at - d
            if t > 0:
                if t < dst or opp[t] > 1:
                    continue
                was = opp[t]
            else:
                if dst:
                    continue
                far = BAR
                while not me[far]:
                    far -= 1
                if far > 6 or (t < 0 and at != far):
                    continue
                t = was = 0
            rest = left[1:] if j == 0 else left[:j] + left[j + 1:]
            now = hit | 1 << t if was else hit
            if t == dst and i + 1 == last:  # the last sub-move: no need to make it
                if not rest and now == hits:
                    return True
                continue
            me[at] -= 1
            me[t] += 1
            opp[t] = 0
            done = step(i + 1, -1, rest, now) if t == dst else step(i, t, rest, now)
            opp[t] = was
            me[t] -= 1
            me[at] += 1
            if done:
                return True
        return False

    return step(0, -1, dice, 0)
