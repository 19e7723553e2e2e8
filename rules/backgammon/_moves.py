"""Full-turn play generation and play replay (spec §5.4): the hot path.

Boards here are seen from the side on roll (the *mover*): ``me`` is a list of 26 counts in
the mover's own numbering, ``me[0]`` borne off, ``me[1..24]`` the points, ``me[25]`` the
bar; ``opp`` is a list of 26 counts of the opponent's checkers on the mover's points
(``opp[p]`` for ``p`` in 1..24; the other entries are unused). A step is ``(src, dst)``
with ``25`` the bar and ``0`` off.

The search is a depth-first walk over sub-moves on mutable scratch lists with undo
(nothing mutable escapes). Doubles take their sources in non-increasing order, so each
multiset of sub-moves is tried once; every result is keyed by the mover's board plus the
set of hit points, so a position reached by several orders is kept once, with the first
sequence that reached it.
"""

from __future__ import annotations

BAR = 25
OFF = 0

# A result key: the mover's 26 counts followed by the bitmask of hit points.
Key = tuple


def generate(me: list[int], opp: list[int], d1: int, d2: int) -> tuple[int, dict[Key, tuple]]:
    """All distinct legal plays of the roll ``d1``-``d2``.

    Returns ``(dice_used, plays)`` where ``plays`` maps each result key to one step
    sequence reaching it (a tuple of ``(src, dst, hit)``); an empty dict when nothing can
    be played (the turn is forfeited). The larger-die rule is applied.
    """
    results: dict[Key, tuple] = {}
    best = [0]
    steps: list[tuple[int, int, bool]] = []
    if d1 == d2:
        orders: tuple[tuple[int, ...], ...] = ((d1, d1, d1, d1),)
    else:
        orders = ((d1, d2), (d2, d1)) if d1 > d2 else ((d2, d1), (d1, d2))
    doubles = d1 == d2
    far0 = 25
    while far0 > 0 and not me[far0]:
        far0 -= 1

    def rec(dice: tuple[int, ...], idx: int, top: int, far: int, hits: int) -> None:
        d = dice[idx]
        last = idx + 1 == len(dice)
        moved = False
        if me[BAR]:
            srcs: range | tuple[int, ...] = (BAR,)
        else:
            srcs = range(min(far, top), 0, -1)
        for s in srcs:
            if not me[s]:
                continue
            t = s - d
            if t > 0:
                n = opp[t]
                if n > 1:
                    continue
                me[s] -= 1
                me[t] += 1
                nf = far
                if not me[far]:
                    while nf > 0 and not me[nf]:
                        nf -= 1
                if n:
                    opp[t] = 0
                    steps.append((s, t, True))
                    h = hits | (1 << t)
                else:
                    steps.append((s, t, False))
                    h = hits
                moved = True
                if last:
                    _record(h)
                else:
                    rec(dice, idx + 1, s if doubles else 25, nf, h)
                steps.pop()
                if n:
                    opp[t] = n
                me[t] -= 1
                me[s] += 1
            else:
                if far > 6:
                    break  # not all home: nothing lower can bear off either
                if t < 0 and s != far:
                    continue  # a larger die bears off only from the highest point
                me[s] -= 1
                me[0] += 1
                nf = far
                while nf > 0 and not me[nf]:
                    nf -= 1
                steps.append((s, 0, False))
                moved = True
                if nf == 0:
                    _record(hits, len(dice))  # all off: the game ends, nothing more to use
                elif last:
                    _record(hits)
                else:
                    rec(dice, idx + 1, s if doubles else 25, nf, hits)
                steps.pop()
                me[0] -= 1
                me[s] += 1
        if not moved and idx:
            _record(hits)

    def _record(hits: int, n: int = 0) -> None:
        n = n or len(steps)
        if n < best[0]:
            return
        if n > best[0]:
            best[0] = n
            results.clear()
        key = (*me, hits)
        if key not in results:
            results[key] = (tuple(steps), dice_now[0])

    dice_now = [0]
    for dice in orders:
        dice_now[0] = dice[0]
        rec(dice, 0, 25, far0, 0)
        if doubles:
            break
    if best[0] == 1 and not doubles:
        hi = max(d1, d2)
        big = {k: v for k, v in results.items() if v[1] == hi}
        if big:
            return 1, {k: v[0] for k, v in big.items()}
    return best[0], {k: v[0] for k, v in results.items()}


def result_key(me: list[int], hits: int) -> Key:
    return (*me, hits)
