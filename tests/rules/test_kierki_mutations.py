"""Impossible Kierki states are refused (issue 10 §2; docs/rules/kierki.md §9).

Real mid-game states come from seeded random matches (``tests.playout.choose``), with 3 and 4
players and several options; each is mutated in one way (cards duplicated, lost or foreign;
hand sizes; counters; scores; seats; phases; types). Every mutation is either refused, by the
state schema (``ValidationError``) or by ``from_json`` (``InvalidState`` with a ``kierki.``
code), or is a state that play can reach; the mutations that may be accepted are marked
``REACHABLE`` below with the reason. Nothing else may be raised.
"""

from __future__ import annotations

import random

from rules.kierki import Deal, Phase, deal_list
from service.games import BINDINGS
from tests.rules import mutations as mut
from tests.rules.mutations import MutationTests, duplicate_card, hand_seats, joker, lose_card, not_a_card, tables
from tests.rules.mutations import playout as play

GAME = "kierki"
E = BINDINGS[GAME].engine
OPTIONS = [{}, {"trump_chooser": "left-of-dealer", "lottery": "one-per-player"},
           {"score_sign": "penalties-positive", "no_trump_allowed": True}]


def mid_game_states() -> list[dict]:
    """Per match, one state of each phase met (name-trump, play, lottery, round-over), at random."""
    out: list[dict] = []
    for seed in range(6):
        rnd = random.Random(seed)
        seen: dict[str, list[dict]] = {}
        for s in play(GAME, 3 + seed % 2, seed, OPTIONS[seed % 3], rnd=rnd):
            if E.to_act(s):
                seen.setdefault(s.phase.value, []).append(E.to_json(s))
        out += [rnd.choice(states) for _, states in sorted(seen.items())]
        out.append(rnd.choice(seen["play"]))
    phases = {d["phase"] for d in out}
    assert {p.value for p in Phase if p is not Phase.GAME_OVER} <= phases, phases  # game-over: nobody acts
    return out


STATES = mid_game_states()


def two_of_clubs_with_three(d, s, rnd):
    """The 2♣ is out of a three-player pack; with four players, a card swapped for a foreign one."""
    seats = hand_seats(d)
    if not seats:
        return False
    d["hands"][seats[0]][0] = "2C" if d["players"] == 3 else "11C"
    return True


def move_card(d, s, rnd):
    """A card passed from one hand to another in a trick deal: the sizes no longer fit the tricks."""
    return d["contract"] != "loteryjka" and mut.move_card(d, s, rnd)


def lottery_move_card(d, s, rnd):
    """A card passed from one hand to another in the loteryjka."""
    return d["contract"] == "loteryjka" and mut.move_card(d, s, rnd)


def round_up(d, s, rnd):
    d["round"] += 1
    return True


def contract_changed(d, s, rnd):
    d["contract"] = "robber" if d["contract"] != "robber" else "no-hearts"
    return True


def score_shift_small(d, s, rnd):
    """5 points moved between two seats of a finished deal other than rozbójnik: no penalty or
    prize of such a deal is worth that (in rozbójnik with 3 players a heart less a trick is)."""
    rows = [k for k, deal in enumerate(deal_list(s.options, s.players)[:len(d["history"])]) if deal is not Deal.ROBBER]
    if not rows:
        return False
    return mut.shift_points(d["history"][rnd.choice(rows)], d["players"], 5, rnd)


def score_shift_unit(d, s, rnd):
    """One penalty (20, a heart or a trick) moved between two seats of a finished deal."""
    if not d["history"]:
        return False
    # deal 1, no tricks: 20 (15 with three players) a trick
    return mut.shift_points(d["history"][0], d["players"], 20 if d["players"] == 4 else 15, rnd)


def extra_history_row(d, s, rnd):
    d["history"].append([0] * d["players"])
    return True


def trick_winner_changed(d, s, rnd):
    if not d["tricks"]:
        return False
    t = d["tricks"][rnd.randrange(len(d["tricks"]))]
    t["winner"] = (t["winner"] + 1) % d["players"]
    return True


def trump_changed(d, s, rnd):
    d["trump"] = {"H": "S", None: "H"}.get(d["trump"], "H")
    return True


def finished_seat(d, s, rnd):
    d["finished"] = [*d["finished"], 0][:2] if 0 not in d["finished"] else [1]
    return True


def stock_card(d, s, rnd):
    seats = hand_seats(d)
    if not seats:
        return False
    d["stock"].append(d["hands"][seats[0]].pop())
    return True


def row_widened(d, s, rnd):
    if not d["rows"] or d["rows"][0]["high"] == 14:
        return False
    d["rows"][0]["high"] += 1  # that card is also in a hand
    return True


def players_changed(d, s, rnd):
    d["players"] = 7 - d["players"]
    return True


def type_history_float(d, s, rnd):
    d["history"].append([0.5] * d["players"])
    return True


REFUSED = {f.__name__: f for f in (
    duplicate_card, lose_card, joker, not_a_card, two_of_clubs_with_three, move_card, round_up, mut.round_down,
    contract_changed, mut.next_seat("dealer"), mut.turn_null, mut.score_plus_one, score_shift_small,
    extra_history_row, mut.phase_changed(Phase), trick_winner_changed, stock_card, players_changed,
    mut.next_seat("leader"), finished_seat, row_widened, mut.type_round_text, mut.type_hands_null,
    type_history_float, mut.unknown_field("deal_no"), mut.missing_field,
)}

#: Mutations that may give a reachable state, and why.
REACHABLE = {
    "swap_cards": (mut.swap_cards, "another shuffle deals these hands; refused when the swap gives a seat a suit "
                                   "it showed a void in during the current or last trick"),
    "lottery_move_card": (lottery_move_card, "who laid which card of the rows is not recorded and passes let "
                                             "one seat lay more than another, so hand sizes may differ; refused "
                                             "when a hand exceeds the cards dealt or a finished seat gets a card"),
    "turn_set": (mut.next_seat("turn", "turn_set"),
                 "in the loteryjka passes are not recorded, so any seat still holding cards may be to play; "
                 "refused in trick deals, while naming trumps and once the deal is over"),
    "score_shift_unit": (score_shift_unit, "another play of deal 1 gives one seat a trick more and another one "
                                           "less; refused when a seat would go below 0 tricks"),
    "trump_changed": (trump_changed, "naming another trump gives the same hands; refused when the tricks played "
                                     "would have had other winners, or outside a trump deal"),
    "rng_counter": (mut.rng_counter, mut.RNG_REJECTION_SAMPLING),
}


SUITE = MutationTests(GAME, STATES, tables(REFUSED, REACHABLE))
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()
