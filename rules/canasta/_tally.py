"""The score-sheet calculator: one hand's score per side from its melds, threes and hands (§10).

Tally JSON::

    {"players": 4, "ended": "out" | "stock", "options": {"black_three_meld_value": 50, "max_three_wilds": true},
     "sides": [{"melds": [{"rank": "K", "cards": [...]}], "red_threes": 2,
                "hands": [[...], [...]], "went_out": true, "double": false, "concealed": false,
                "total": 0}, ...]}

``hands`` holds one hand per player of the side (two in the four-player game); ``total``
(optional) is the side's score before the hand. The report has one entry per seat
(partners repeat their side's figure; seat ``s`` belongs to side ``s % 2`` with four players).
"""

from __future__ import annotations

from collections import Counter

from rules.base import IllegalMove, InvalidState, Json, ScoreReport, excerpt
from rules.cards import Card

from ._melds import NAME_RANKS, check_meld_shape, is_canasta, is_red_three
from ._model import FULL_DECK, cards_from_json
from ._scoring import side_score

G = "canasta"


def _bad(code: str, msg: str, **context: Json) -> InvalidState:
    return InvalidState(f"{G}.{code}", msg, **context)


def _cards(data: Json, what: str) -> tuple[Card, ...]:
    return cards_from_json(data, what, prefix="tally-")


def _bool(side: dict, key: str) -> bool:
    v = side.get(key, False)
    if not isinstance(v, bool):
        raise _bad("tally-bad-field", f"{key} must be true or false, got {excerpt(v)}")
    return v


def score_tally(tally: Json) -> ScoreReport:
    if not isinstance(tally, dict):
        raise _bad("tally-bad-field", f"a tally is an object, got {type(tally).__name__}")
    unknown = set(tally) - {"players", "ended", "options", "sides"}
    if unknown:
        raise _bad("tally-bad-field", f"unknown tally fields {sorted(unknown)}")
    players = tally.get("players", 4)
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise _bad("tally-bad-field", f"players must be 2, 3 or 4, got {excerpt(players)}")
    ended = tally.get("ended", "out")
    if ended not in ("out", "stock"):
        raise _bad("tally-bad-field", f"ended must be 'out' or 'stock', got {excerpt(ended)}")
    options = tally.get("options", {})
    if not isinstance(options, dict) or set(options) - {
        "black_three_meld_value", "max_three_wilds", "one_meld_per_rank"
    }:
        raise _bad("tally-bad-field",
                   f"tally options are black_three_meld_value, max_three_wilds and one_meld_per_rank, got {excerpt(options)}")
    black_three = options.get("black_three_meld_value", 50)
    cap3 = options.get("max_three_wilds", True)
    one_per_rank = options.get("one_meld_per_rank", True)
    if black_three not in (50, 5) or not isinstance(cap3, bool) or not isinstance(one_per_rank, bool):
        raise _bad("tally-bad-field", f"bad tally options {excerpt(options)}")
    nsides = 2 if players == 4 else players
    per_side = 2 if players == 4 else 1
    sides = tally.get("sides")
    if not isinstance(sides, list) or len(sides) != nsides:
        raise _bad("tally-sides", f"a {players}-player tally lists {nsides} sides", expected=nsides)
    seen: Counter = Counter()
    reds_total = 0
    results = []
    outs = 0
    for i, side in enumerate(sides):
        if not isinstance(side, dict) or set(side) - {"melds", "red_threes", "hands", "went_out", "double",
                                                       "concealed", "total"}:
            raise _bad("tally-bad-field", f"sides[{i}] has unknown fields or is not an object")
        table: list[tuple[int, tuple[Card, ...]]] = []
        for g in side.get("melds", []):
            if not isinstance(g, dict) or set(g) != {"rank", "cards"}:
                raise _bad("tally-bad-meld", f"sides[{i}]: a meld is {{rank, cards}}, got {excerpt(g)}")
            rank = NAME_RANKS.get(g["rank"]) if isinstance(g["rank"], str) else None
            if rank is None or (one_per_rank and any(r == rank for r, _ in table)):
                raise _bad("tally-bad-meld", f"sides[{i}]: bad or repeated meld rank {excerpt(g['rank'])}")
            cards = _cards(g["cards"], f"sides[{i}] meld {g['rank']}")
            try:
                check_meld_shape(rank, cards, None, cap3)
            except IllegalMove as exc:
                raise _bad("tally-bad-meld", f"sides[{i}]: {exc.message}") from None
            table.append((rank, cards))
            seen.update(cards)
        melds = tuple(table)
        reds = side.get("red_threes", 0)
        if not isinstance(reds, int) or isinstance(reds, bool) or not 0 <= reds <= 4:
            raise _bad("tally-bad-field", f"sides[{i}].red_threes is a count 0..4, got {excerpt(reds)}")
        reds_total += reds
        hands_data = side.get("hands", [[]] * per_side)
        if not isinstance(hands_data, list) or len(hands_data) != per_side:
            raise _bad("tally-bad-field", f"sides[{i}].hands lists {per_side} hand(s)")
        hands = [_cards(h, f"sides[{i}].hands[{k}]") for k, h in enumerate(hands_data)]
        for h in hands:
            if any(is_red_three(c) for c in h):
                raise _bad("tally-red-three-in-hand", f"sides[{i}]: a red three is laid out, never kept in a hand")
            seen.update(h)
        went, double, concealed = _bool(side, "went_out"), _bool(side, "double"), _bool(side, "concealed")
        total = side.get("total", 0)
        if not isinstance(total, int) or isinstance(total, bool) or abs(total) > 10**7:
            raise _bad("tally-bad-field", f"sides[{i}].total must be an integer, got {excerpt(total)}")
        if any(r == 3 for r, _ in melds) and not went:
            raise _bad("tally-black-threes-without-going-out",
                       f"sides[{i}]: black threes are melded only by the side that goes out (§8)")
        if (double or concealed) and not went:
            raise _bad("tally-bonus-without-going-out", f"sides[{i}]: double or concealed going out needs going out")
        if went:
            outs += 1
            if ended != "out":
                raise _bad("tally-stock-no-going-out", "a hand ended by the stock has no going out")
            need = 1 if players == 4 else 2
            if sum(1 for m in melds if is_canasta(m)) < need:
                raise _bad("tally-out-without-canasta", f"sides[{i}] went out without the canasta(s) it needs")
            if not any(not h for h in hands):
                raise _bad("tally-out-with-cards", f"sides[{i}] went out, so one of its hands is empty")
            if double and (players != 4 or any(hands)):
                raise _bad("tally-double", f"sides[{i}]: a double going out empties both partners' hands")
        results.append((side_score(melds, reds, hands, black_three=black_three, went_out=went, double=double,
                                   concealed=concealed), total, i))
    if ended == "out" and outs != 1:
        raise _bad("tally-who-went-out", f"a hand ended by going out has exactly one side that went out, got {outs}")
    if reds_total > 4:
        raise _bad("tally-cards", f"there are only 4 red threes, the tally counts {reds_total}")
    extra = seen - FULL_DECK
    if extra:
        raise _bad("tally-cards", f"more cards than two packs hold: {sorted(map(str, extra.elements()))}")
    seat_side = [s % 2 if players == 4 else s for s in range(players)]
    return ScoreReport(
        points=tuple(results[k][0][0] for k in seat_side),
        totals=tuple(results[k][1] + results[k][0][0] for k in seat_side),
        breakdown=tuple({"side": k, **results[k][0][1], "total": results[k][1] + results[k][0][0]}
                        for k in seat_side),
        final=True,
    )
