"""Kanasta: impossible states that conserve the cards are still impossible (issue 10 §2).

Real mid-game states come from seeded random playouts (``tests/playout.py``'s chooser); each
is mutated in one way (duplicate, missing and foreign cards; hand sizes; counters; scores;
seats; phases; types). Every mutation must be refused, by the state schema
(``BINDINGS["canasta"].load_state`` -> marshmallow ValidationError) or by ``from_json``
(InvalidState with a ``canasta.`` code), unless it is marked reachable below with the reason
play can reach it. Nothing may raise any other exception.

docs/rules/canasta.md §13 lists what ``from_json`` checks.
"""

from __future__ import annotations

import json
from itertools import islice

import pytest

from rules.base import InvalidState
from service.games import BINDINGS
from tests.rules.mutations import REFUSED, Mutation, MutationTests
from tests.rules.mutations import playout as play

GAME = "canasta"
B = BINDINGS[GAME]
E = B.engine


def _states() -> list[dict]:
    """Mid-game states (JSON) of seeded random games of 2, 3 and 4 players, a few per game."""
    out = []
    for players in (2, 3, 4):
        for seed in range(4):
            ended = False
            for step, s in enumerate(islice(play(GAME, players, seed, {"target_score": 1000}, any_seat=True), 400)):
                if not E.to_act(s):
                    break
                over = E.round_over(s)
                if step % 53 == 7 or (over and not ended):
                    out.append(json.loads(json.dumps(E.to_json(s))))
                ended = ended or over
    return out


STATES = _states()


def _first_card_holder(d: dict) -> int | None:
    return next((i for i, h in enumerate(d["hands"]) if h), None)


# Each mutation returns REFUSED or the reason it may be reachable, or None when it does not apply
# to that state.

LIVE, OVER = ("draw", "play"), ("round-over", "game-over")


def refused_setting(name: str, key: str, value, phases: tuple[str, ...] | None = None):
    """The mutation ``name`` that sets ``key`` to ``value``, in ``phases`` only (all where None):
    always refused."""
    def mutate(d, s, rnd):
        if phases is not None and d["phase"] not in phases:
            return None
        d[key] = value
        return REFUSED
    mutate.__name__ = mutate.__qualname__ = name
    return mutate


def duplicate_card(d, s, rnd):
    seat = _first_card_holder(d)
    d["hands"][seat][0] = d["stock"][-1] if d["stock"] else d["discard"][-1]
    return REFUSED  # one card twice, one missing: not conserved


def missing_card(d, s, rnd):
    (d["stock"] or d["discard"]).pop()
    return REFUSED


def extra_joker(d, s, rnd):
    d["discard"].append("JK")
    return REFUSED


def foreign_card(d, s, rnd):
    d["stock"].append("1Z")
    return REFUSED  # the schema refuses what is not a card


def stock_card_to_unlaid_hand(d, s, rnd):
    """A player who has laid nothing holds the dealt number of cards (issue 10's "a hand of 12 at the
    first draw"); the card comes from the stock, so the cards are conserved."""
    seats = [i for i, h in enumerate(d["hands"]) if not d["laid"][i] and h]
    if not seats or not d["stock"] or d["phase"] not in ("draw", "play", "answer"):
        return None
    d["hands"][rnd.choice(seats)].append(d["stock"].pop(0))
    return REFUSED


def stock_card_to_laid_hand(d, s, rnd):
    seats = [i for i, h in enumerate(d["hands"]) if d["laid"][i] and h]
    if not seats or not d["stock"]:
        return None
    d["hands"][rnd.choice(seats)].append(d["stock"].pop(0))
    return "a player who took the pile may hold any number of cards"


def hand_card_to_stock(d, s, rnd):
    seats = [i for i, h in enumerate(d["hands"]) if not d["laid"][i] and len(h) > 1]
    if not seats or d["phase"] not in ("draw", "play", "answer") or not d["stock"]:
        return None
    seat = rnd.choice(seats)
    card = d["hands"][seat].pop()
    if card in ("3H", "3D"):
        return None
    d["stock"].insert(0, card)
    if d["options"]["red_three_replacement"] == "dealt-only":
        return "under K-2 'dealt-only' a drawn red three is not replaced: a hand of one card fewer"
    return REFUSED


def empty_a_live_hand(d, s, rnd):
    seats = [i for i, h in enumerate(d["hands"]) if h]
    if d["phase"] not in ("draw", "play", "answer") or not seats:
        return None
    seat = rnd.choice(seats)
    d["stock"][:0] = d["hands"][seat]
    d["hands"][seat] = []
    return REFUSED  # nobody holds no card without going out


round_zero = refused_setting("round_zero", "round", 0)


def round_plus_one(d, s, rnd):
    d["round"] += 1
    if d["phase"] in ("draw", "play", "answer", "double") and d["round"] == 2 and any(s["total"] for s in d["sides"]):
        return "totals after a first round: any round number is possible"
    return "the round counter is not tied to the cards (a round may end with every total unchanged)"


meld_moves_in_draw_phase = refused_setting("meld_moves_in_draw_phase", "meld_moves", 1, phases=("draw",))
drew_null_in_play = refused_setting("drew_null_in_play", "drew", None, phases=("play",))


def total_not_a_multiple_of_five(d, s, rnd):
    d["sides"][rnd.randrange(len(d["sides"]))]["total"] += 1
    return REFUSED


def total_in_the_first_round(d, s, rnd):
    if d["round"] != 1 or d["phase"] not in ("draw", "play", "answer", "double"):
        return None
    d["sides"][0]["total"] += 100
    return REFUSED  # no round has been scored yet


def total_past_the_target(d, s, rnd):
    if d["phase"] == "game-over":
        return None
    d["sides"][0]["total"] = d["options"]["target_score"] + 5 + max(s["total"] for s in d["sides"])
    return REFUSED  # one side alone past the target: the game would be over


def history_row_dropped(d, s, rnd):
    if not d["history"]:
        return None
    d["history"].pop()
    return REFUSED  # the round counter and the totals follow the history


def history_and_total_moved_together(d, s, rnd):
    """A round's row and the side's total changed alike: the sums agree, but in a finished round the
    last row is what the table scores, and partners score alike."""
    if not d["history"]:
        return None
    d["history"][0] = [x + 100 for x in d["history"][0]]
    for side in d["sides"]:
        side["total"] += 100
    if d["phase"] in ("round-over", "game-over") and len(d["history"]) == 1:
        return REFUSED
    if d["phase"] == "game-over" or max(s["total"] for s in d["sides"]) >= d["options"]["target_score"]:
        return "an earlier round may have scored anything; the target decides the phase"
    return "an earlier round may have scored 100 more: its table is gone"


def turn_out_of_range(d, s, rnd):
    d["turn"] = d["players"]
    return REFUSED


turn_in_round_over = refused_setting("turn_in_round_over", "turn", 0, phases=OVER)
turn_null_in_play = refused_setting("turn_null_in_play", "turn", None, phases=LIVE)


def turn_to_another_seat(d, s, rnd):
    if d["phase"] != "draw":
        return None
    d["turn"] = (d["turn"] + 1) % d["players"]
    if d["red_threes_pending"][d["turn"]]:
        return REFUSED  # his dealt red threes would already lie on the table
    return "who is to draw is not tied to the cards (the first player follows a random dealer)"


out_seat_while_live = refused_setting("out_seat_while_live", "out_seat", 0, phases=LIVE)
out_seat_minus_one = refused_setting("out_seat_minus_one", "out_seat", -1)
phase_round_over_mid_round = refused_setting("phase_round_over_mid_round", "phase", "round-over", phases=LIVE)
phase_play_before_drawing = refused_setting("phase_play_before_drawing", "phase", "play", phases=("draw",))
phase_unknown = refused_setting("phase_unknown", "phase", "bidding")


def answer_without_a_question(d, s, rnd):
    if d["players"] != 4 or d["phase"] not in ("draw", "play"):
        return None
    d["phase"] = "answer"
    return REFUSED


def ask_in_two_player_game(d, s, rnd):
    if d["players"] == 4 or d["phase"] not in ("draw", "play"):
        return None
    d["asked"] = "no"
    return REFUSED


def pending_without_red_three(d, s, rnd):
    seats = [i for i, p in enumerate(d["red_threes_pending"]) if not p]
    if not seats:
        return None
    d["red_threes_pending"][rnd.choice(seats)] = True
    return REFUSED


def laid_without_melds(d, s, rnd):
    sides = len(d["sides"])
    seats = [i for i in range(d["players"]) if not d["sides"][i % sides]["melds"] and not d["laid"][i]]
    if not seats:
        return None
    d["laid"][rnd.choice(seats)] = True
    return REFUSED


def unlaid_with_melds(d, s, rnd):
    seats = [i for i in range(d["players"]) if d["laid"][i]]
    if not seats:
        return None
    seat = rnd.choice(seats)
    d["laid"][seat] = False
    partner_laid = d["players"] == 4 and d["laid"][(seat + 2) % 4]
    if partner_laid and len(d["hands"][seat]) <= 11 and d["options"]["red_three_replacement"] == "dealt-only":
        return "the partner laid the melds; this player may still hold fewer than 11 cards under K-2"
    if partner_laid and len(d["hands"][seat]) == 11 + (d["drew"] == "stock" and d["turn"] == seat):
        return "the partner laid the melds and this player holds the dealt number of cards"
    return REFUSED


def closed_pile_without_wild(d, s, rnd):
    if any(c in ("JK",) or c.startswith("2") for c in d["discard"]):
        return None
    d["discard_closed"] = True
    return REFUSED


def black_threes_melded_mid_round(d, s, rnd):
    if d["phase"] not in ("draw", "play"):
        return None
    threes = [c for c in d["stock"] if c in ("3C", "3S")][:3]
    if len(threes) < 3:
        return None
    for c in threes:
        d["stock"].remove(c)
    d["sides"][0]["melds"].append({"rank": "3", "cards": threes})
    return REFUSED


def red_three_back_to_stock(d, s, rnd):
    side = next((s for s in d["sides"] if s["red_threes"]), None)
    if side is None:
        return None
    d["stock"].insert(0, side["red_threes"].pop())
    return "a red three may still lie in the stock: who drew which is not recorded"


def stock_card_to_discard(d, s, rnd):
    if not d["stock"] or d["phase"] not in ("draw", "play"):
        return None
    d["discard"].insert(0, d["stock"].pop(0))
    return "the pile's size is not tied to the cards elsewhere (turns that took no pile)"


def types_turn_as_string(d, s, rnd):
    d["turn"] = "0" if d["turn"] is None else str(d["turn"])
    return REFUSED


def types_stock_as_text(d, s, rnd):
    d["stock"] = " ".join(d["stock"])
    return REFUSED


def types_hand_null(d, s, rnd):
    d["hands"][0] = None
    return REFUSED


def types_laid_as_ints(d, s, rnd):
    d["laid"] = ["yes" if x else "no" for x in d["laid"]]
    return REFUSED


def types_total_as_float(d, s, rnd):
    d["sides"][0]["total"] = d["sides"][0]["total"] + 0.5
    return REFUSED


types_drew_empty_string = refused_setting("types_drew_empty_string", "drew", "")  # "none" is null, never ""


def concealed_melds_unknown_rank(d, s, rnd):
    if d["phase"] not in ("play",):
        return None
    d["concealed_melds"] = ["A"] if not any(m["rank"] == "A" for s in d["sides"] for m in s["melds"]) else ["4"]
    if any(m["rank"] == d["concealed_melds"][0] for s in d["sides"] for m in s["melds"]):
        return None
    return REFUSED


MUTATIONS = [
    duplicate_card, missing_card, extra_joker, foreign_card, stock_card_to_unlaid_hand, stock_card_to_laid_hand,
    hand_card_to_stock, empty_a_live_hand, round_zero, round_plus_one, meld_moves_in_draw_phase, drew_null_in_play,
    total_not_a_multiple_of_five, total_in_the_first_round, history_row_dropped, history_and_total_moved_together, total_past_the_target, turn_out_of_range,
    turn_in_round_over, turn_null_in_play, turn_to_another_seat, out_seat_while_live, out_seat_minus_one,
    phase_round_over_mid_round, phase_play_before_drawing, phase_unknown, answer_without_a_question,
    ask_in_two_player_game, pending_without_red_three, laid_without_melds, unlaid_with_melds,
    closed_pile_without_wild, black_threes_melded_mid_round, red_three_back_to_stock, stock_card_to_discard,
    types_turn_as_string, types_stock_as_text, types_hand_null, types_laid_as_ints, types_total_as_float,
    types_drew_empty_string, concealed_melds_unknown_rank,
]

SUITE = MutationTests(GAME, STATES, {f.__name__: Mutation(f) for f in MUTATIONS}, rng=2024)
test_real_states_load_unchanged, test_enough_mutations_of_every_kind, test_mutation_is_refused_or_reachable = \
    SUITE.tests()


def test_the_playouts_give_real_mid_game_states():
    assert len(STATES) >= 20
    assert any(d["phase"] == "play" for d in STATES) and any(d["round"] > 1 for d in STATES)


def test_a_hand_of_12_at_the_first_draw_is_refused():
    """Issue 10 §2: a fresh deal whose first player holds 12 cards (one taken from the stock)."""
    data = E.to_json(E.new(4, 7))
    seat = data["turn"]
    data["hands"][seat].append(data["stock"].pop(0))
    with pytest.raises(InvalidState) as err:
        B.load_state(data)
    assert err.value.code == "canasta.bad-hand-size"
    assert err.value.context == {"seat": seat, "expected": 11}
