"""The score-sheet calculator: one hand's score per side from its melds, threes and hands (§10, §15).

The sheet's shape is declared (``_model.Tally``; read by ``BaseEngine.score_tally``, anything else is
``canasta.bad-tally`` naming the field); here are its checks of meaning. ``hands`` holds one hand per
player of the side (two in the four-player game); ``total`` is the side's score before the hand. The
report has one entry per seat (partners repeat their side's figure; seat ``s`` belongs to side
``s % 2`` with four players).
"""

from __future__ import annotations

from collections import Counter

from rules.base import ScoreReport
from rules.cards import Card

from ._codes import C
from ._melds import is_canasta, is_red_three
from ._model import FULL_DECK, Breakdown, Tally, check_side_melds
from ._scoring import side_score


def score_tally(tally: Tally) -> ScoreReport:
    players, ended = tally.players, tally.ended
    black_three = tally.options.black_three_meld_value
    cap3, one_per_rank = tally.options.max_three_wilds, tally.options.one_meld_per_rank
    nsides = 2 if players == 4 else players
    per_side = 2 if players == 4 else 1
    if len(tally.sides) != nsides:
        raise C.bad_tally(f"a {players}-player tally lists {nsides} sides, got {len(tally.sides)}", field="sides")
    seen: Counter[Card] = Counter()
    reds_total = 0
    results = []
    outs = 0
    for i, side in enumerate(tally.sides):
        check_side_melds(side.melds, i, cap3, one_per_rank, C.tally_bad_meld)
        for m in side.melds:
            seen.update(m.cards)
        melds = side.melds
        reds_total += side.red_threes
        hands: tuple[tuple[Card, ...], ...] = side.hands if side.hands is not None else ((),) * per_side
        if len(hands) != per_side:
            raise C.bad_tally(f"sides.{i}.hands lists {per_side} hand(s) with {players} players, got {len(hands)}",
                              field=f"sides.{i}.hands")
        for h in hands:
            if any(is_red_three(c) for c in h):
                raise C.tally_red_three_in_hand(f"sides.{i}: a red three is laid out, never kept in a hand")
            seen.update(h)
        went, double, concealed = side.went_out, side.double, side.concealed
        if any(m.rank == 3 for m in melds) and not went:
            raise C.tally_black_threes_without_going_out(
                f"sides.{i}: black threes are melded only by the side that goes out (§8)")
        if (double or concealed) and not went:
            raise C.tally_bonus_without_going_out(f"sides.{i}: double or concealed going out needs going out")
        if went:
            outs += 1
            if ended != "out":
                raise C.tally_stock_no_going_out("a hand ended by the stock has no going out")
            need = 1 if players == 4 else 2
            if sum(1 for m in melds if is_canasta(m)) < need:
                raise C.tally_out_without_canasta(f"sides.{i} went out without the canasta(s) it needs")
            if not any(not h for h in hands):
                raise C.tally_out_with_cards(f"sides.{i} went out, so one of its hands is empty")
            if double and (players != 4 or any(hands)):
                raise C.tally_double(f"sides.{i}: a double going out empties both partners' hands")
        results.append((side_score(melds, side.red_threes, hands, black_three=black_three, went_out=went,
                                   double=double, concealed=concealed), side.total))
    if ended == "out" and outs != 1:
        raise C.tally_who_went_out(f"a hand ended by going out has exactly one side that went out, got {outs}")
    if reds_total > 4:
        raise C.tally_cards(f"there are only 4 red threes, the tally counts {reds_total}")
    extra = seen - FULL_DECK
    if extra:
        raise C.tally_cards(f"more cards than two packs hold: {sorted(map(str, extra.elements()))[:12]}")
    seat_side = [s % 2 if players == 4 else s for s in range(players)]
    return ScoreReport(
        points=tuple(results[k][0][0] for k in seat_side),
        totals=tuple(results[k][1] + results[k][0][0] for k in seat_side),
        breakdown=tuple(Breakdown(side=k, **results[k][0][1]) for k in seat_side),
        final=True,
        round=1,
        history=(),
    )
