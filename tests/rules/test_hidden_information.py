"""The hidden-information law, over every engine in the registry (issue 9 §4).

A seat's view of two states that differ only in what that seat cannot see is identical.

What a seat cannot see is read off the engine's own view, not a table: walking the state's JSON
beside ``view(state, seat)``, a list of the state (a hand, the stock, a face-down pile) is
*redacted* when the view puts ``null`` or its length (a count) in its place, or leaves it out.
A count is taken for one only when every sibling in the same list is a count too. A pile whose
top alone is seen (``null`` beside ``<name>_top``, or entries ``null`` beside ``<name>_tops``:
11 nimmt!'s ``stacks``) shows its top, so it is not taken as redacted and its twins keep it. The
rng is hidden from everyone. No table of hidden fields is needed for any game.

From real mid-game states (seeded random playouts under random options, ``tests/playout.py``)
each viewer (every seat and the spectator, ``None``) gets twins made through the engine's JSON:
``to_json`` -> change -> ``from_json`` (which checks conservation, so a twin is a state the
engine accepts). Three changes, each on its own twin, keep every redacted list's size:
- ``deal``: the cards of all redacted lists shuffled together and dealt back;
- ``swap``: one card of one redacted list exchanged with a different card of another;
- ``order``: each redacted list shuffled in place (the stock's order);
a list whose top the view shows beside it (``discard: null`` with ``discard_top``) keeps its top;
and every twin gets another rng key and counter. Games with nothing redacted (backgammon,
Mak-yek, Northcott) get the rng-only twin. ``from_json`` may refuse a dealt twin (a red three
in a Kanasta hand is impossible); the test asserts that every game with redacted lists has
twins of each kind accepted and checked.

A seat to act also gets the same legal moves in its twins (the service answers ``legal-moves``
to the seat, so moves that depended on another hand would leak it).

A second law keeps the first honest, since a view that showed another seat's hand in place
would make that hand look visible: a list that the spectator's view redacts is shown by at
most one seat's view (its owner's).

A third law covers the log: a move as another seat sees it (``move_view``) names no card that
stays in lists redacted from that seat (3-5-8's face-down discards, its exchanged cards).

The laws can fail: ``test_a_leaky_view_is_caught`` passes views that leak another seat's hand
(beside the hands, and in place) and the rng, and a log that shows every move whole, and
asserts each leak is reported in every game where there is something to leak.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable

import pytest

from rules.base import BaseEngine, InvalidState
from rules.registry import ENGINES
from tests.playout import random_states

SEEDS = range(3)
EVERY = 29  # one state in 29 of each game: 8-150 states per game and player count
CASES = [pytest.param(engine, n, id=f"{gid}-{n}p") for gid, engine in ENGINES.items() for n in engine.players]

Path = tuple


def _is_count(state, view) -> bool:
    return isinstance(state, list) and type(view) is int and view == len(state)


def redacted_lists(state, view, path: Path = ()) -> list[Path]:
    """Paths of the lists of ``state`` (JSON) that ``view`` replaces by ``null`` or a count."""
    if isinstance(state, list) and view is None:
        return [path]
    if _is_count(state, view):
        return [path]
    out: list[Path] = []
    if isinstance(state, dict) and isinstance(view, dict):
        # a pile whose top alone is seen (DESIGN 4.5: ``discard: null`` beside ``discard_top``, 11 nimmt!'s
        # ``stacks`` beside ``stacks_tops``) shows its top: it is not taken as redacted, so twins keep it
        tops = {key for key in state if f"{key}_top" in view or f"{key}_tops" in view}
        for key in state.keys() & view.keys() - tops:
            out += redacted_lists(state[key], view[key], (*path, key))
        out += [(*path, key) for key in state.keys() - view.keys() if isinstance(state[key], list)]
    elif isinstance(state, list) and isinstance(view, list) and len(state) == len(view):
        ints = [(s, v) for s, v in zip(state, view, strict=True) if type(v) is int and isinstance(s, list)]
        counts = bool(ints) and all(_is_count(s, v) for s, v in ints)
        for i, (s, v) in enumerate(zip(state, view, strict=True)):
            if isinstance(s, list) and (v is None or (counts and type(v) is int)):
                out.append((*path, i))
            elif not (type(v) is int and isinstance(s, list)):
                out += redacted_lists(s, v, (*path, i))
    return out


def topped_lists(places: list[Path], view) -> list[Path]:
    """The redacted lists whose top the view shows beside them (DESIGN 4.5: ``discard: null`` with
    ``discard_top``): the twins keep their top card in place."""
    out = []
    for p in places:
        parent = _get(view, p[:-1])
        if isinstance(parent, dict) and isinstance(p[-1], str) and f"{p[-1]}_top" in parent:
            out.append(p)
    return out


def _get(data, path: Path):
    for key in path:
        data = data[key]
    return data


def _set(data, path: Path, value) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _rngs(data, path: Path = ()) -> list[Path]:
    if isinstance(data, dict):
        if set(data) == {"v", "key", "counter"}:
            return [path]
        return [p for k, v in data.items() for p in _rngs(v, (*path, k))]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in _rngs(v, (*path, i))]
    return []


def _new_rng(data, rnd: random.Random) -> None:
    for path in _rngs(data):
        rng = _get(data, path)
        rng["key"] = hashlib.sha256(f"{rng['key']}:{rnd.random()}".encode()).hexdigest()
        rng["counter"] += 1 + rnd.randrange(1000)


def _deal(data, places: list[Path], rnd: random.Random) -> bool:
    pool = [card for p in places for card in _get(data, p)]
    rnd.shuffle(pool)
    for p in places:
        size = len(_get(data, p))
        _set(data, p, pool[:size])
        del pool[:size]
    return True


def _swap(data, places: list[Path], rnd: random.Random) -> bool:
    filled = [p for p in places if _get(data, p)]
    pairs = [(a, b) for a in filled for b in filled if a < b]
    rnd.shuffle(pairs)
    for a, b in pairs:
        la, lb = _get(data, a), _get(data, b)
        options = [(i, j) for i in range(len(la)) for j in range(len(lb)) if la[i] != lb[j]]
        if options:
            i, j = rnd.choice(options)
            la[i], lb[j] = lb[j], la[i]
            return True
    return False


def _order(data, places: list[Path], rnd: random.Random) -> bool:
    changed = False
    for p in places:
        items = _get(data, p)
        if len(set(map(json.dumps, items))) > 1:
            rnd.shuffle(items)
            changed = True
    return changed


KINDS: dict[str, Callable] = {"deal": _deal, "swap": _swap, "order": _order}

def _text(value) -> str:
    return json.dumps(value, sort_keys=True)


def _moves(engine, state, seat: int) -> list[str]:
    return sorted(_text(engine.move_to_json(m)) for m in engine.legal_moves(state, seat))


def check_twins(engine, state, viewer, rnd: random.Random, tally: Counter, view=None) -> list[str]:
    """Build ``viewer``'s twins of ``state``; return what differs in the view or, for a seat to
    act, in its legal moves (nothing, lawfully: ``legal-moves`` is served to the seat too).
    ``tally`` counts the twins checked per kind, and the twins ``from_json`` refused."""
    view = view or engine.view
    data = engine.to_json(state)
    seen = _text(view(state, viewer))
    places = redacted_lists(data, json.loads(seen))
    topped = topped_lists(places, json.loads(seen))
    leaks = []
    acting = engine.to_act(state)
    moves = _moves(engine, state, viewer) if viewer in acting else None
    twins = [("rng", lambda d, p, r: True)] + [(k, f) for k, f in KINDS.items() if places]
    for kind, make in twins:
        twin = copy.deepcopy(data)
        tops = {p: _get(twin, p).pop() for p in topped if _get(twin, p)}  # a shown top stays where it is
        changed = make(twin, places, rnd)
        for p, top in tops.items():
            _get(twin, p).append(top)
        if not changed or twin == data and kind != "rng":
            continue
        _new_rng(twin, rnd)
        try:
            other = engine.from_json(json.loads(json.dumps(twin)))
        except InvalidState:
            tally[f"{kind}-refused"] += 1
            continue
        tally[kind] += 1
        if _text(view(other, viewer)) != seen:
            leaks.append(f"viewer {viewer}, {kind} twin: {_diff(json.loads(seen), view(other, viewer))}")
        if viewer in acting and _moves(engine, other, viewer) != moves:
            leaks.append(f"seat {viewer}, {kind} twin: legal moves differ")
    return leaks


def _diff(a, b, path: Path = ()) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys(), key=str):
            if a.get(key, "<absent>") != b.get(key, "<absent>"):
                return _diff(a.get(key, "<absent>"), b.get(key, "<absent>"), (*path, key))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _diff(x, y, (*path, i))
    return f"{'/'.join(map(str, path))}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"


def check_owners(engine, state, view=None) -> list[str]:
    """A list the spectator's view redacts is shown whole by at most one seat's view."""
    view = view or engine.view
    data = engine.to_json(state)
    hidden = redacted_lists(data, view(state, None))
    shown: dict[Path, list[int]] = {p: [] for p in hidden}
    for seat in range(len(engine.scores(state).totals)):
        private = set(redacted_lists(data, view(state, seat)))
        for p in hidden:
            if p not in private and _get(data, p):
                shown[p].append(seat)
    return [f"{'/'.join(map(str, p))} is shown to seats {seats}" for p, seats in shown.items() if len(seats) > 1]


def _leaves(data) -> set[str]:
    if isinstance(data, dict):
        return set().union(*map(_leaves, data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*map(_leaves, data)) if data else set()
    return {json.dumps(data)}


def _cards_named(data) -> set[str]:
    """The leaves under ``card``/``cards`` keys (DESIGN 4.5's names) of a move's JSON."""
    if isinstance(data, dict):
        return set().union(set(), *(_leaves(v) if k in ("card", "cards") else _cards_named(v) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(set(), *map(_cards_named, data))
    return set()


def _hidden(data, view) -> set[str]:
    return set().union(set(), *(_leaves(_get(data, p)) for p in redacted_lists(data, view)))


def check_move_views(engine, state, rnd: random.Random, tally: Counter, move_view=None) -> list[str]:
    """A move as another seat sees it in the log (``move_view``) names no card (under ``card``
    or ``cards``) that lies in lists redacted from that seat both before and after the move (a
    discard face down, a card passed to a third seat) and that neither view shows elsewhere. Up to three legal moves of each seat to act are tried."""
    move_view = move_view or engine.move_view
    failures = []
    data = engine.to_json(state)
    for actor in sorted(engine.to_act(state)):
        moves = list(engine.legal_moves(state, actor))
        after = None
        for move in rnd.sample(moves, min(3, len(moves))):
            after = engine.apply(state, actor, move)
            for viewer in [None, *range(len(engine.scores(state).totals))]:
                if viewer == actor:
                    continue
                before_view, after_view = engine.view(state, viewer), engine.view(after, viewer)
                named = (_cards_named(move_view(move, actor, viewer)) & _hidden(data, before_view)
                         & _hidden(engine.to_json(after), after_view)) - _leaves(before_view) - _leaves(after_view)
                tally["move-views"] += 1
                if named:
                    failures.append(f"seat {actor}'s {engine.move_to_json(move)} shows {sorted(named)} to {viewer}")
    return failures


def law(engine, players: int, seeds=SEEDS, view=None, every: int = EVERY, limit: int | None = None, move_view=None):
    """Both laws at every ``every``-th state of seeded games: (tally, failures)."""
    tally: Counter = Counter()
    failures: list[str] = []
    for seed in seeds:
        rnd = random.Random(seed)
        for count, state in enumerate(random_states(engine, players, seed, every=every)):
            if count == limit:
                break
            for viewer in [None, *range(players)]:
                failures += [f"seed {seed}: {f}" for f in check_twins(engine, state, viewer, rnd, tally, view)]
            failures += [f"seed {seed}: {f}" for f in check_owners(engine, state, view)]
            failures += [f"seed {seed}: {f}" for f in check_move_views(engine, state, rnd, tally, move_view)]
            tally["states"] += 1
    return tally, failures


@pytest.mark.parametrize(("engine", "players"), CASES)
def test_a_view_does_not_change_with_what_its_seat_cannot_see(engine, players) -> None:
    tally, failures = law(engine, players)
    assert not failures, "\n".join(failures[:10])
    assert tally["states"] >= 5 and tally["rng"] >= 10 and tally["move-views"] >= 10, tally
    if any(redacted_lists(engine.to_json(s), engine.view(s, None)) for s in random_states(engine, players, 0)):
        # a card game: every kind of twin was accepted by from_json and checked, many times
        assert min(tally["deal"], tally["swap"], tally["order"]) >= 10, tally


def _other(viewer, players: int) -> int:
    return 0 if viewer is None else (viewer + 1) % players


@pytest.mark.parametrize("engine", ENGINES.values(), ids=list(ENGINES))
def test_a_leaky_view_is_caught(engine) -> None:
    """Self-check: views that leak what the law protects are reported, in every game where
    there is something to leak."""
    players = engine.players.start
    card_game = any(redacted_lists(engine.to_json(s), engine.view(s, None)) for s in random_states(engine, players, 0))

    def beside(state, viewer):  # another seat's view (its hand) under a new key
        return {**engine.view(state, viewer), "leak": engine.view(state, _other(viewer, players))}

    def in_place(state, viewer):  # another seat's hand where the view says null
        mine, theirs = engine.view(state, viewer), engine.view(state, _other(viewer, players))
        data = engine.to_json(state)
        for path in set(redacted_lists(data, mine)) - set(redacted_lists(data, theirs)):
            _set(mine, path, _get(data, path))
        return mine

    def rng(state, viewer):
        data = engine.to_json(state)
        return {**engine.view(state, viewer), "leak": [_get(data, p) for p in _rngs(data)]}

    def every_move(move, actor, viewer):  # the log shows every move whole
        return engine.move_to_json(move)

    leaks = {"beside": beside, "in-place": in_place, "rng": rng}
    caught = {name: bool(law(engine, players, seeds=[1], view=leak, limit=6)[1]) for name, leak in leaks.items()}
    caught["move"] = bool(law(engine, players, seeds=[1], move_view=every_move, limit=6)[1])
    has_rng = bool(_rngs(engine.to_json(engine.new(players, 1))))
    hides_moves = type(engine).move_view is not BaseEngine.move_view  # the games whose log hides some moves
    assert caught == {"beside": card_game, "in-place": card_game, "rng": has_rng, "move": hides_moves}
    assert law(engine, players, seeds=[1], limit=6)[1] == []
