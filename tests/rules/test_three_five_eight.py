"""Scenario tests for 3-5-8 (docs/rules/3-5-8.md, cited as §; vectors 358-1 .. 358-17 of the rules research).

Positions are built as JSON and loaded with ``from_json``, so every position is also a
state the engine accepts as consistent (52 cards, sizes, turn).
"""

from __future__ import annotations

import json
import random

import pytest

from rules.base import GameOver, IllegalMove, InvalidState, NotYourTurn
from rules.cards import card_strs, deck, parse_card
from rules.three_five_eight import ENGINE as E
from rules.three_five_eight import (
    Choose,
    Contract,
    Discard,
    EndExchange,
    ExchangeCard,
    NextRound,
    Phase,
    PlayCard,
)
from rules.three_five_eight import _records as records
from tests.rules.catalogue import check_raise

GAME_ID = "3-5-8"
ALL = card_strs(deck())
DEFAULTS = {
    "must_trump": True, "exchange": True, "exchange_timing": "before-musik", "exchange_limit": "per-opponent",
    "discard_trumps": True, "tie": "shared", "first_dealer": "random",
}


def suit_of(card: str) -> str:
    return card[-1]


def fill(fixed: dict[int, list[str]], sizes: list[int], void: dict[int, str] | None = None,
         used: list[str] = ()) -> tuple[list[list[str]], list[str]]:
    """Hands of ``sizes`` cards holding ``fixed``, the seats in ``void`` getting none of those
    suits; the cards left over (not in ``used``) are returned second."""
    void = void or {}
    hands = [list(fixed.get(s, [])) for s in range(3)]
    taken = {c for h in hands for c in h} | set(used)
    rest = []
    order = sorted(range(3), key=lambda s: -len(void.get(s, "")))  # constrained seats fill first
    for card in ALL:
        if card in taken:
            continue
        for s in order:
            if len(hands[s]) < sizes[s] and suit_of(card) not in void.get(s, ""):
                hands[s].append(card)
                break
        else:
            rest.append(card)
    assert [len(h) for h in hands] == sizes, "the position cannot be filled"
    return hands, rest


def turn_of(data: dict) -> int | None:
    """The one seat to act (DESIGN 4.5 ``turn``): the player due in the trick, the chooser while
    choosing and discarding, the current exchanger; nobody single once a deal is over."""
    phase = data["phase"]
    if phase == "play":
        return (data["leader"] + len(data["trick"])) % 3
    if phase in ("choose", "discard"):
        return (data["dealer"] + 1) % 3
    if phase == "exchange":
        return data["exchange"]["queue"][0] if data["exchange"] and data["exchange"]["queue"] else None
    return None


def state(**fields) -> dict:
    """A state JSON with defaults for a fresh deal 1, dealer 0; ``options`` merged over defaults;
    ``history`` given as ``record()`` rows (split into ``history`` points and ``contracts``);
    ``turn`` derived unless given."""
    base = {
        "players": 3, "options": dict(DEFAULTS), "round": 1, "dealer": 0, "phase": "choose", "contract": None,
        "hands": [[], [], []], "musik": [], "discards": [], "leader": 1, "trick": [], "last_trick": [],
        "won": [[], [], []], "exchange": None, "history": [], "contracts": [],
        "rng": {"v": 1, "key": "ab" * 32, "counter": 0},
    }
    base["options"].update(fields.pop("options", {}))
    records = fields.pop("history", [])
    base["history"] = [r["scores"] for r in records]
    base["contracts"] = [r["contract"] for r in records]
    base.update(fields)
    if "turn" not in fields:
        base["turn"] = turn_of(base)
    return base


def first_trick(contract: str, fixed: dict[int, list[str]], trick: list[tuple[int, str]], *, dealer: int = 0,
                void: dict[int, str] | None = None, options: dict | None = None):
    """A PLAY state in the first trick of deal 1: chooser ``(dealer+1)%3`` led, ``trick`` so far."""
    played = {s for s, _ in trick}
    sizes = [16 - (s in played) for s in range(3)]
    hands, rest = fill(fixed, sizes, void, used=[c for _, c in trick])
    assert len(rest) == 4
    return E.from_json(state(
        phase="play", dealer=dealer, contract=contract, hands=hands, musik=rest, discards=rest,
        leader=(dealer + 1) % 3, trick=[{"seat": s, "card": c} for s, c in trick], options=options or {},
    ))


def record(dealer: int, contract: str, tricks: list[int]) -> dict:
    roles = [(s - dealer - 1) % 3 for s in range(3)]
    if contract == "BL":
        scores = [(3, 5, 8)[roles[s]] - tricks[s] for s in range(3)]
    else:
        scores = [tricks[s] - (8, 5, 3)[roles[s]] for s in range(3)]
    return {"dealer": dealer, "contract": contract, "tricks": tricks, "scores": scores}


def deal2_exchange(prev_tricks: list[int], fixed: dict[int, list[str]], *, contract: str = "H", dealer: int = 0,
                   void: dict[int, str] | None = None, options: dict | None = None):
    """Deal 2 right after the chooser picked ``contract``; deal 1 was a ♠ deal of the previous
    dealer with ``prev_tricks``. The engine decides whether and who exchanges."""
    hands, rest = fill(fixed, [16, 16, 16], void)
    pre = E.from_json(state(
        round=2, dealer=dealer, phase="choose", hands=hands, musik=rest, leader=(dealer + 1) % 3,
        history=[record((dealer - 1) % 3, "S", prev_tricks)], options=options or {},
    ))
    return E.apply(pre, (dealer + 1) % 3, Choose(Contract(contract)))


def cards(*texts: str):
    return tuple(parse_card(t) for t in texts)


def play_codes(s, seat: int, card: str) -> str:
    with pytest.raises(IllegalMove) as err:
        E.check(s, seat, PlayCard(parse_card(card)))
    return err.value.code


# --------------------------------------------------------------------------- 358-1 roles


def test_chooser_sits_left_of_dealer_with_targets_8_5_3():
    """358-1: dealer 0 -> chooser 1 (8 / BL 3), third 2 (5 / 5), dealer 0 (3 / 8).

        seat 0 dealer   seat 1 CHOOSER (to act)   seat 2 third
    """
    s = E.new(3, 5, {"first_dealer": 0})
    assert s.dealer == 0 and E.to_act(s) == {1}
    rows = E.scores(s).breakdown
    assert [(b.role, b.target) for b in rows] == [("dealer", 3), ("chooser", 8), ("third", 5)]
    bl = E.score_tally({"contract": "BL", "dealer": 0, "tricks": [8, 3, 5]}).breakdown
    assert [(b.role, b.limit) for b in bl] == [("dealer", 8), ("chooser", 3), ("third", 5)]


# --------------------------------------------------------------------------- 358-2..5 tricks


def test_player_void_in_led_suit_must_trump():
    """358-2: ♥ trump; chooser 1 led ♠K; seat 2 has no ♠, holds ♥2 and ♦A.

        trick: 1:KS   seat 2 [no spades] 2H ... AD ...   -> only hearts
    """
    s = first_trick("H", {2: ["2H", "AD"]}, [(1, "KS")], void={2: "S"})
    hearts = sorted(c for c in card_strs(s.hands[2]) if c.endswith("H"))
    legal = sorted(E.move_to_json(m)["card"] for m in E.legal_moves(s, 2))
    assert legal == hearts and "2H" in legal
    assert play_codes(s, 2, "AD") == "3-5-8.must-trump"


def test_without_must_trump_a_void_player_may_discard_any_card():
    """§5.2 option must_trump off (Polish online rules): ♦A is playable on ♠K."""
    s = first_trick("H", {2: ["2H", "AD"]}, [(1, "KS")], void={2: "S"}, options={"must_trump": False})
    assert len(E.legal_moves(s, 2)) == 16
    E.check(s, 2, PlayCard(parse_card("AD")))


def test_holder_of_led_suit_must_follow_even_with_trumps():
    """358-3: trick ♠K, ♥2; seat 0 holds ♠3 (and hearts): must follow with a spade.

        trick: 1:KS 2:2H    seat 0 [3S, hearts...] -> spades only
    """
    s = first_trick("H", {0: ["3S", "AH"], 2: ["AD"]}, [(1, "KS"), (2, "2H")], void={2: "S"})
    legal = [E.move_to_json(m)["card"] for m in E.legal_moves(s, 0)]
    assert legal == [c for c in card_strs(s.hands[0]) if c.endswith("S")] and "3S" in legal
    assert play_codes(s, 0, "AH") == "3-5-8.must-follow-suit"


def test_lowest_trump_beats_the_led_king():
    """358-4: ♥ trump; trick 1:♠K, 2:♥2, 0:♠3 -> seat 2 wins and leads.

        1:KS  2:2H  0:3S   => winner 2
    """
    s = first_trick("H", {0: ["3S"]}, [(1, "KS"), (2, "2H")], void={2: "S"})
    after = E.apply(s, 0, PlayCard(parse_card("3S")))
    assert after.leader == 2 and E.to_act(after) == {2}
    assert sorted(card_strs(after.won[2])) == sorted(["KS", "2H", "3S"])
    assert after.won[0] == after.won[1] == () and after.trick == ()


def test_off_suit_card_never_wins_in_no_trump():
    """358-5: NT; trick 1:♣5 (lead), 2:♦A, 0:♣2 -> ♣5 wins.

        1:5C  2:AD  0:2C   => winner 1
    """
    s = first_trick("NT", {0: ["2C"]}, [(1, "5C"), (2, "AD")], void={2: "C"})
    after = E.apply(s, 0, PlayCard(parse_card("2C")))
    assert after.leader == 1 and len(after.won[1]) == 3


def test_play_out_of_turn_and_card_not_held_are_refused():
    s = first_trick("H", {0: ["3S"]}, [(1, "KS")])
    with pytest.raises(NotYourTurn) as err:
        E.check(s, 0, PlayCard(parse_card("3S")))
    assert err.value.code == "3-5-8.not-your-turn"
    assert play_codes(s, 2, "3S") == "3-5-8.card-not-in-hand"


# --------------------------------------------------------------------------- 358-6..9 scores


@pytest.mark.parametrize(("vector", "contract", "tricks", "expected"), [
    ("358-6", "H", [2, 10, 4], [-1, 2, -1]),     # trump: chooser 10 / third 4 / dealer 2
    ("358-7", "NT", [3, 8, 5], [0, 0, 0]),       # NT: 8 / 5 / 3
    ("358-8", "BL", [10, 1, 5], [-2, 2, 0]),     # BL: chooser 1 / third 5 / dealer 10
    ("358-9", "BL", [8, 5, 3], [0, -2, 2]),      # BL: chooser 5 / third 3 / dealer 8
])
def test_deal_scores_are_tricks_against_target_and_sum_to_zero(vector, contract, tricks, expected):
    """358-6..9 via the tally (dealer 0, chooser 1, third 2): trump/NT tricks - target, BL limit - tricks."""
    report = E.score_tally({"contract": contract, "dealer": 0, "tricks": tricks})
    assert list(report.points) == expected and sum(report.points) == 0 and report.final
    assert [b.points for b in report.breakdown] == expected
    assert [b.tricks for b in report.breakdown] == tricks


@pytest.mark.parametrize(("tally", "code"), [
    ({"contract": "H", "dealer": 0, "tricks": [5, 5, 5]}, "3-5-8.tricks-sum"),
    ({"contract": "H", "chooser": 1, "tricks": [8, 5, 3]}, "3-5-8.bad-tally"),
    ({"contract": "X", "dealer": 0, "tricks": [8, 5, 3]}, "3-5-8.bad-tally"),
    ({"contract": "H", "tricks": [8, 5, 3]}, "3-5-8.bad-tally"),
    ({"contract": "H", "dealer": 0, "tricks": [8, 5]}, "3-5-8.bad-tally"),
    ({"contract": "H", "dealer": 0, "tricks": [17, -1, 0]}, "3-5-8.bad-tally"),
    ({"contract": "H", "dealer": 0, "tricks": [8, 5, 3], "bonus": 1}, "3-5-8.bad-tally"),
    ([1, 2, 3], "3-5-8.bad-tally"),
])
def test_impossible_tallies_are_rejected(tally, code):
    with pytest.raises(InvalidState) as err:
        E.score_tally(tally)
    assert err.value.code == code


def first_deal_played(seed: int, first_dealer: int):
    """A seeded game's first deal played to its end, the lowest acting seat playing at random."""
    rnd = random.Random(seed)
    s = E.new(3, seed, {"first_dealer": first_dealer})
    while s.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        seat = min(E.to_act(s))
        s = E.apply(s, seat, rnd.choice(E.legal_moves(s, seat)))
    return s


def test_finished_deal_is_scored_zero_sum_and_recorded():
    """§6: the 16th trick ends the deal; its scores follow the role table and sum to 0."""
    s = first_deal_played(3, first_dealer=2)
    rec = records(s)[-1]
    targets = {0: 8, 1: 5, 2: 3} if rec.contract is not Contract.NO_TRICKS else {0: 3, 1: 5, 2: 8}
    roles = {0: 0, 1: 1, 2: 2}  # dealer 2: chooser 0, third 1, dealer 2
    sign = -1 if rec.contract is Contract.NO_TRICKS else 1
    assert sum(rec.tricks) == 16 and sum(rec.scores) == 0
    assert rec.scores == tuple(sign * (rec.tricks[x] - targets[roles[x]]) for x in range(3))
    report = E.scores(s)
    assert report.final and report.points == rec.scores and report.totals == rec.scores
    assert E.to_act(s) == {0, 1, 2} and E.round_over(s)


def test_scores_mid_deal_are_running_and_not_final():
    s = first_trick("H", {0: ["3S"]}, [(1, "KS"), (2, "2H")], void={2: "S"})
    s = E.apply(s, 0, PlayCard(parse_card("3S")))  # seat 2 took one trick
    report = E.scores(s)
    assert not report.final and report.totals == (0, 0, 0)
    assert report.points == (0 - 3, 0 - 8, 1 - 5)
    assert report.breakdown[2].tricks == 1


# --------------------------------------------------------------------------- 358-10..15 exchange


def test_receiver_returns_highest_card_of_offered_suit():
    """358-10: A (+2) gives ♥5 to C (-2) holding ♥K ♥9 ♥3: C returns ♥K. Contract ♠.

        prev deal (dealer 2): seat 0 8 tricks (0), A=seat 1 7 (+2), C=seat 2 1 (-2)     A: 5H ...   C: KH 9H 3H (only hearts)
    """
    s = deal2_exchange([8, 7, 1], {1: ["5H"], 2: ["KH", "9H", "3H"]}, contract="S", void={2: "H"})
    assert s.phase is Phase.EXCHANGE and E.to_act(s) == {1}
    after = E.apply(s, 1, ExchangeCard(2, parse_card("5H")))
    assert "KH" in card_strs(after.hands[1]) and "5H" not in card_strs(after.hands[1])
    assert sorted(c for c in card_strs(after.hands[2]) if c.endswith("H")) == ["3H", "5H", "9H"]
    assert after.exchange.steps == (0, 0, 1)


def test_receiver_with_only_lower_cards_returns_the_offered_card():
    """358-11: A gives ♥5; C holds only ♥3 of hearts: ♥5 comes back, nothing changes."""
    s = deal2_exchange([8, 7, 1], {1: ["5H"], 2: ["3H"]}, contract="S", void={2: "H"})
    after = E.apply(s, 1, ExchangeCard(2, parse_card("5H")))
    assert after.hands == s.hands and after.exchange.steps == (0, 0, 1)


def test_receiver_void_in_suit_returns_the_offered_card():
    """358-12: A gives ♦4; C has no diamonds: ♦4 comes back."""
    s = deal2_exchange([8, 7, 1], {1: ["4D"]}, contract="S", void={2: "D"})
    after = E.apply(s, 1, ExchangeCard(2, parse_card("4D")))
    assert after.hands == s.hands


def test_trump_card_may_not_be_offered():
    """358-13: contract ♠; A tries to offer ♠7 -> illegal; no listed exchange offers a spade."""
    s = deal2_exchange([8, 7, 1], {1: ["7S"]}, contract="S")
    with pytest.raises(IllegalMove) as err:
        E.check(s, 1, ExchangeCard(2, parse_card("7S")))
    assert err.value.code == "3-5-8.trump-offered"
    offers = [m for m in E.legal_moves(s, 1) if isinstance(m, ExchangeCard)]
    assert offers and all(m.card.suit.value != "S" and m.to == 2 for m in offers)
    assert EndExchange() in E.legal_moves(s, 1)


@pytest.mark.parametrize("contract", ["NT", "BL"])
def test_no_exchange_phase_in_no_trump_or_no_tricks(contract):
    """358-14: previous deal had plus and minus players, but NT / BL skip to the musik."""
    s = deal2_exchange([8, 7, 1], {}, contract=contract)
    assert s.phase is Phase.DISCARD and s.exchange is None and len(s.hands[1]) == 20


def test_no_exchange_when_option_off_or_in_first_deal():
    """§8 from the 2nd deal on; option exchange off: straight to the musik."""
    s = deal2_exchange([8, 7, 1], {}, contract="H", options={"exchange": False})
    assert s.phase is Phase.DISCARD
    first = E.new(3, 1, {"first_dealer": 0})
    assert E.apply(first, 1, Choose(Contract.HEARTS)).phase is Phase.DISCARD


def test_plus_player_with_higher_target_exchanges_first():
    """358-15: previous deal A +1, B +2, C -3; now B chooses (8), A deals (3), C third.

        deal 2, dealer A=0:  B=1 exchanges first (<= 2 with C), then A (<= 1 with C)
        deal 1, dealer C=2:  A chooser 9 tricks (+1), B third 7 (+2), C dealer 0 (-3)
    """
    s = deal2_exchange([9, 7, 0], {0: ["2D", "3D"], 1: ["2C", "3C", "4C"]}, contract="H")
    assert s.exchange.queue == (1, 0) and E.to_act(s) == {1}
    offers = {m.to for m in E.legal_moves(s, 1) if isinstance(m, ExchangeCard)}
    assert offers == {2}
    with pytest.raises(IllegalMove) as err:
        E.check(s, 1, ExchangeCard(0, parse_card("2C")))
    assert err.value.code == "3-5-8.not-a-minus-player"
    s = E.apply(s, 1, ExchangeCard(2, parse_card("2C")))
    assert E.to_act(s) == {1}
    s = E.apply(s, 1, ExchangeCard(2, parse_card("3C")))
    assert E.to_act(s) == {0} and s.exchange.queue == (0,)  # B's 2 cards used up
    s = E.apply(s, 0, ExchangeCard(2, parse_card("2D")))
    assert s.phase is Phase.DISCARD and s.exchange is None  # A's 1 card used up -> musik


def test_end_exchange_passes_to_the_next_exchanger():
    s = deal2_exchange([9, 7, 0], {}, contract="H")
    s = E.apply(s, 1, EndExchange())
    assert E.to_act(s) == {0}
    s = E.apply(s, 0, EndExchange())
    assert s.phase is Phase.DISCARD


def test_per_opponent_limit_caps_each_minus_player():
    """§8 ruling 8.1: A +2 (chooser of deal 1, 10 tricks), B -1, C -1:
    at most 1 card with each. Option own-points: 2 with the same player."""
    prev = [10, 4, 2]  # dealer 2: chooser 0 +2, third 1 -1, dealer 2 -1
    s = deal2_exchange(prev, {0: ["2C", "3C", "4C"]}, contract="H", dealer=0)
    assert s.exchange.queue == (0,)
    s = E.apply(s, 0, ExchangeCard(1, parse_card("2C")))
    with pytest.raises(IllegalMove) as err:
        E.check(s, 0, ExchangeCard(1, parse_card("3C")))
    assert err.value.code == "3-5-8.exchange-limit"
    assert {m.to for m in E.legal_moves(s, 0) if isinstance(m, ExchangeCard)} == {2}
    t = deal2_exchange(prev, {0: ["2C", "3C", "4C"]}, contract="H", options={"exchange_limit": "own-points"})
    t = E.apply(t, 0, ExchangeCard(1, parse_card("2C")))
    t = E.apply(t, 0, ExchangeCard(1, parse_card("3C")))
    assert t.phase is Phase.DISCARD  # two plus points spent


def test_exchange_after_discard_timing():
    """§3 ruling 3.1, option after-discard: choice, musik and discard, then the exchange, then play."""
    s = deal2_exchange([9, 7, 0], {}, contract="H", options={"exchange_timing": "after-discard"})
    assert s.phase is Phase.DISCARD
    for _ in range(4):
        s = E.apply(s, 1, E.legal_moves(s, 1)[0])
    assert s.phase is Phase.EXCHANGE and E.to_act(s) == {1}
    s = E.apply(s, 1, EndExchange())
    s = E.apply(s, 0, EndExchange())
    assert s.phase is Phase.PLAY and E.to_act(s) == {1}


# --------------------------------------------------------------------------- 358-16 contracts


def test_last_unused_contract_is_forced():
    """358-16: chooser 1 has used ♥ ♠ ♦ ♣ BA (deals 1, 4, 7, 10, 13): only BL is legal in deal 16."""
    history = []
    used = iter(["H", "S", "D", "C", "NT"])
    others = iter(["H", "S", "D", "C", "NT", "BL"] * 2)
    for i in range(15):
        dealer = i % 3
        chooser = (dealer + 1) % 3
        contract = next(used) if chooser == 1 else next(others) if chooser == 2 else ["H", "S", "D", "C", "NT"][i // 3]
        history.append(record(dealer, contract, [8, 5, 3]))
    hands, rest = fill({}, [16, 16, 16])
    s = E.from_json(state(round=16, dealer=0, hands=hands, musik=rest, history=history))
    assert E.legal_moves(s, 1) == (Choose(Contract.NO_TRICKS),)
    with pytest.raises(IllegalMove) as err:
        E.check(s, 1, Choose(Contract.HEARTS))
    assert err.value.code == "3-5-8.contract-used"


# --------------------------------------------------------------------------- 358-17 game end


def random_game(seed: int, options: dict | None = None):
    rnd = random.Random(seed)
    s = E.new(3, seed, options or {})
    moves = 0
    while E.to_act(s):
        seat = rnd.choice(sorted(E.to_act(s)))
        s = E.apply(s, seat, rnd.choice(E.legal_moves(s, seat)))
        moves += 1
    return s, moves


def test_game_ends_after_18_deals_with_every_contract_used():
    """358-17: after 18 deals the game is over; each player chose each of the 6 contracts once."""
    s, moves = random_game(11)
    assert s.phase is Phase.GAME_OVER and len(s.history) == 18 and moves < 4000
    for seat in range(3):
        assert sorted(r.contract.value for r in records(s) if r.chooser == seat) == sorted(c.value for c in Contract)
    assert [r.dealer for r in records(s)] == [(records(s)[0].dealer + i) % 3 for i in range(18)]
    totals = E.scores(s).totals
    assert sum(totals) == 0
    out = E.outcome(s)
    assert out.winners == tuple(x for x in range(3) if totals[x] == max(totals))
    assert E.scores(s).winners == out.winners and E.scores(s).final
    with pytest.raises(GameOver) as err:
        E.check(s, 0, NextRound())
    assert err.value.code == "3-5-8.game-over"


def tied_final(tie: str):
    """A finished game (deal 18 over) whose totals are tied 0 / 0 / 0: every deal made exactly."""
    history = []
    plan = {0: iter([c.value for c in Contract]), 1: iter([c.value for c in Contract]),
            2: iter([c.value for c in Contract])}
    for i in range(18):
        dealer = i % 3
        contract = next(plan[(dealer + 1) % 3])
        tricks = [0, 0, 0]
        for x in range(3):
            role = (x - dealer - 1) % 3
            tricks[x] = (3, 5, 8)[role] if contract == "BL" else (8, 5, 3)[role]
        history.append(record(dealer, contract, tricks))
    t0, t1, _ = (3 * t for t in history[-1]["tricks"])  # deal 18 is seat 0's BL: 3 / 5 / 8 tricks
    won = [ALL[0:t0], ALL[t0:t0 + t1], ALL[t0 + t1:48]]
    last = [{"seat": 2, "card": ALL[47]}, {"seat": 0, "card": ALL[0]}, {"seat": 1, "card": ALL[1]}]
    return E.from_json(state(
        round=18, dealer=2, phase="game-over", contract=history[-1]["contract"], hands=[[], [], []],
        musik=ALL[48:], discards=ALL[48:], leader=2, last_trick=last, won=won, history=history,
        options={"tie": tie},
    ))


def test_tie_for_the_win_is_shared_by_default_or_a_draw():
    """§10 ruling 10.1: tie -> shared win (default); option tie=draw -> no winner."""
    shared = tied_final("shared")
    assert E.outcome(shared).winners == (0, 1, 2) and not E.outcome(shared).draw
    assert E.scores(shared).winners == (0, 1, 2)
    draw = tied_final("draw")
    assert E.outcome(draw).winners == () and E.outcome(draw).draw and E.scores(draw).winners == ()


# --------------------------------------------------------------------------- deal flow


def test_next_round_rotates_the_dealer_and_deals_afresh():
    """§1: the dealer moves one seat clockwise; deal 2's chooser acts first."""
    s = first_deal_played(8, first_dealer=1)
    with pytest.raises(IllegalMove) as err:
        E.check(s, 0, PlayCard(parse_card("2C")))
    assert err.value.code == "3-5-8.round-over"
    nxt = E.apply(s, 2, NextRound())
    assert (nxt.round, nxt.dealer, nxt.phase) == (2, 2, Phase.CHOOSE) and E.to_act(nxt) == {0}
    assert [len(h) for h in nxt.hands] == [16, 16, 16] and len(nxt.musik) == 4
    assert nxt.rng.counter > s.rng.counter


def test_musik_goes_to_chooser_who_discards_four():
    """§3.4: after the choice (no exchange in deal 1) the chooser holds 20 cards and
    discards 4, one per move; then he leads the first trick."""
    s = E.new(3, 2, {"first_dealer": 0})
    musik = s.musik
    s = E.apply(s, 1, Choose(Contract.SPADES))
    assert s.phase is Phase.DISCARD and len(s.hands[1]) == 20 and set(musik) <= set(s.hands[1])
    for card in musik:  # the musik cards themselves may be discarded (§3.4)
        s = E.apply(s, 1, Discard(card))
    assert s.phase is Phase.PLAY and s.discards == musik and E.to_act(s) == {1}
    assert [len(h) for h in s.hands] == [16, 16, 16]


def test_discarding_trumps_can_be_forbidden():
    """§3.4 option discard_trumps off: a trump may not be discarded."""
    s = E.new(3, 4, {"first_dealer": 0, "discard_trumps": False})
    s = E.apply(s, 1, Choose(Contract.HEARTS))
    hearts = [c for c in s.hands[1] if c.suit.value == "H"]
    assert hearts and all(m.card.suit.value != "H" for m in E.legal_moves(s, 1))
    with pytest.raises(IllegalMove) as err:
        E.check(s, 1, Discard(hearts[0]))
    assert err.value.code == "3-5-8.discard-trump"
    t = E.new(3, 4, {"first_dealer": 0})
    t = E.apply(t, 1, Choose(Contract.HEARTS))
    assert len(E.legal_moves(t, 1)) == 20


def test_first_dealer_option_or_random():
    """§10 ruling 10.2: a fixed first dealer, or one drawn from the rng (seed-determined)."""
    assert {E.new(3, seed, {"first_dealer": 2}).dealer for seed in range(5)} == {2}
    drawn = {E.new(3, seed).dealer for seed in range(30)}
    assert drawn == {0, 1, 2}
    assert E.new(3, 9).dealer == E.new(3, 9).dealer


def test_moves_in_the_wrong_phase_are_refused():
    s = E.new(3, 1, {"first_dealer": 0})
    for move in (PlayCard(s.hands[1][0]), Discard(s.hands[1][0]), EndExchange(), ExchangeCard(2, s.hands[1][0])):
        with pytest.raises(IllegalMove) as err:
            E.check(s, 1, move)
        assert err.value.code == "3-5-8.wrong-phase"
    with pytest.raises(IllegalMove) as err:
        E.check(s, 1, NextRound())
    assert err.value.code == "3-5-8.round-not-over"


@pytest.mark.parametrize("data", [
    {"kind": "play"}, {"kind": "play", "card": "1X"}, {"kind": "play", "card": "JK"},
    {"kind": "choose", "contract": "BA"}, {"kind": "exchange", "to": 3, "card": "2C"},
    {"kind": "exchange", "to": True, "card": "2C"}, {"kind": "next-round", "x": 1}, {"kind": "bid"}, [], "play",
])
def test_malformed_moves_are_bad_move(data):
    with pytest.raises(IllegalMove) as err:
        E.move_from_json(data)
    assert err.value.code == "3-5-8.malformed-move"


# --------------------------------------------------------------------------- hidden information


def test_view_shows_own_hand_and_only_the_chooser_first_six_cards():
    """§3.2, §12: while choosing, the chooser sees his first 6 cards; the others their hands;
    nobody sees the musik; no view holds the rng."""
    s = E.new(3, 6, {"first_dealer": 0})
    v1 = E.view(s, 1)
    assert v1["hands"] == [None, card_strs(s.hands[1][:6]), None] and v1["hand_sizes"] == [16, 16, 16]
    assert v1["musik"] is None and "rng" not in v1
    v0 = E.view(s, 0)
    assert v0["hands"] == [card_strs(s.hands[0]), None, None]
    assert E.view(s, None)["hands"] == [None, None, None]
    for viewer in (None, 0, 1, 2):
        text = json.dumps(E.view(s, viewer))
        assert not any(f'"{c}"' in text for c in card_strs(s.musik))


def test_view_shows_musik_once_revealed_but_never_others_discards():
    """§3.4: the musik is public before the discard; the discards stay face down."""
    s = E.new(3, 6, {"first_dealer": 0})
    s = E.apply(s, 1, Choose(Contract.NO_TRICKS))
    assert all(E.view(s, v)["musik"] == card_strs(s.musik) for v in (None, 0, 1, 2))
    discarded = s.hands[1][0]
    s = E.apply(s, 1, Discard(discarded))
    for viewer in (None, 0, 2):
        view = E.view(s, viewer)
        assert view["discards"] is None and view["hands"][1] is None and view["hand_sizes"][1] == 19
    assert E.view(s, 1)["discards"] == [str(discarded)]
    assert E.move_view(Discard(discarded), 1, 0) == {"kind": "discard"}
    assert E.move_view(Discard(discarded), 1, 1) == {"kind": "discard", "card": str(discarded)}


def test_exchange_card_is_hidden_from_the_third_seat():
    move = ExchangeCard(2, parse_card("5H"))
    assert E.move_view(move, 1, 0) == {"kind": "exchange", "to": 2}
    assert E.move_view(move, 1, None) == {"kind": "exchange", "to": 2}
    assert E.move_view(move, 1, 2) == {"kind": "exchange", "to": 2, "card": "5H"}


# --------------------------------------------------------------------------- tampered states


def tamper(change) -> dict:
    s = first_trick("H", {0: ["3S"]}, [(1, "KS")])
    data = E.to_json(s)
    change(data)
    return data


@pytest.mark.parametrize(("change", "code"), [
    (lambda d: d["hands"][0].pop(), "3-5-8.card-conservation"),                 # a lost card
    (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "3-5-8.card-conservation"),  # a duplicate
    (lambda d: d.__setitem__("leader", 2), "3-5-8.bad-turn"),                     # trick not from the leader
    (lambda d: d["trick"].__setitem__(0, {"seat": 0, "card": "KS"}), "3-5-8.bad-turn"),
    (lambda d: d.__setitem__("phase", "choose"), "3-5-8.bad-contract"),
    (lambda d: d.__setitem__("round", 2), "3-5-8.bad-history"),
    (lambda d: d.__setitem__("discards", []), "3-5-8.card-conservation"),
    (lambda d: d.__setitem__("exchange", {"queue": [1], "steps": [0, 0, 0]}), "3-5-8.bad-exchange"),
    (lambda d: d["options"].__setitem__("first_dealer", 1), "3-5-8.bad-dealer"),
    (lambda d: d.pop("won"), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("hands", [["ZZ"], [], []]), "3-5-8.bad-state"),
    (lambda d: d["options"].__setitem__("tie", "coin"), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("phase", "bidding"), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("round", "1"), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("turn", 1), "3-5-8.bad-turn"),
    (lambda d: d.__setitem__("players", 4), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("contracts", ["H"]), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("history", [None]), "3-5-8.bad-state"),
    (lambda d: d.__setitem__("rng", {}), "3-5-8.bad-state"),
])
def test_tampered_states_are_rejected(change, code):
    with pytest.raises(InvalidState) as err:
        E.from_json(tamper(change))
    assert err.value.code == code


def test_reused_contract_and_wrong_history_scores_are_rejected():
    hands, rest = fill({}, [16, 16, 16])
    ok = state(round=2, dealer=1, phase="choose", hands=hands, musik=rest, leader=2,
               history=[record(0, "H", [3, 8, 5])])
    E.from_json(ok)
    bad = json.loads(json.dumps(ok))
    for row in ([-9, 3, 6], [1, 0, 0]):  # dealer 0 would need -6 tricks; 4 + 8 + 5 = 17 tricks
        bad["history"][0] = row
        with pytest.raises(InvalidState) as err:
            E.from_json(bad)
        assert err.value.code == "3-5-8.bad-history"
    played = [record(i % 3, "H", [8, 5, 3]) for i in range(4)]  # chooser 1 chose H twice (deals 1, 4)
    with pytest.raises(InvalidState) as err:
        E.from_json(state(round=5, dealer=1, hands=hands, musik=rest, leader=2, history=played))
    assert err.value.code == "3-5-8.contract-reused"


@pytest.mark.parametrize("data", [None, [], "state", {"phase": "play"}, 17])
def test_non_states_are_invalid_not_crashes(data):
    with pytest.raises(InvalidState) as err:
        E.from_json(data)
    assert err.value.code == "3-5-8.bad-state"


# --------------------------------------------------------------------------- schemas and playouts


def tally_schema():
    """The contract's ThreeFiveEightTally (made from the declared tally), as a validator."""
    import jsonschema_rs

    from service.openapi import build_spec

    components = build_spec()["components"]
    return jsonschema_rs.Draft202012Validator(
        {"$ref": "#/components/schemas/ThreeFiveEightTally", "components": components})


def test_tally_schema_matches_the_engine_tally():
    """Issues 9 and 19: the contract's tally is closed and requires exactly what the engine needs
    (contract, dealer, tricks); the engine refuses what it refuses, naming the field."""
    tally = {"contract": "BL", "dealer": 0, "tricks": [10, 1, 5]}
    validator = tally_schema()
    assert validator.is_valid(tally)
    assert E.score_tally(tally).points == (-2, 2, 0)
    for field in tally:
        partial = {k: v for k, v in tally.items() if k != field}
        assert not validator.is_valid(partial)
        with pytest.raises(InvalidState) as err:
            E.score_tally(partial)
        assert err.value.code == "3-5-8.bad-tally" and err.value.context["field"] == f"tally.{field}"
    for extra in ({"finish_order": [0, 1]}, {"contract": "no-tricks"}, {"players": 3}):
        assert not validator.is_valid({**tally, **extra})
        with pytest.raises(InvalidState) as err:
            E.score_tally({**tally, **extra})
        assert err.value.code == "3-5-8.bad-tally"


def test_playouts_stay_far_below_the_move_cap():
    """Random whole games (18 deals) end well within the conformance cap of 4000 moves."""
    for seed in range(4):
        s, moves = random_game(100 + seed, {"exchange_limit": "own-points"})
        assert s.phase is Phase.GAME_OVER and moves < 1500


def test_views_in_play_name_no_card_of_other_hands_or_discards():
    """§12: hands and discards are hidden; the current trick, the last trick and the musik are public."""
    rnd = random.Random(21)
    s = E.new(3, 21, {"first_dealer": 0})
    while len(s.won[0]) + len(s.won[1]) + len(s.won[2]) < 9 or s.trick == ():
        seat = min(E.to_act(s))
        s = E.apply(s, seat, rnd.choice(E.legal_moves(s, seat)))
    assert s.phase is Phase.PLAY
    public = set(card_strs(p.card for p in s.trick)) | set(card_strs(p.card for p in s.last_trick)) | set(card_strs(s.musik))
    for viewer in (None, 0, 1, 2):
        text = json.dumps(E.view(s, viewer))
        secret = {c for x in range(3) if x != viewer for c in card_strs(s.hands[x])}
        if viewer != s.chooser:
            secret |= set(card_strs(s.discards))
        assert not [c for c in secret - public if f'"{c}"' in text]
        if viewer is not None:
            assert E.view(s, viewer)["hands"][viewer] == card_strs(s.hands[viewer])
        assert E.view(s, viewer)["tricks_won"] == [len(w) // 3 for w in s.won]
        assert E.view(s, viewer)["won"] == [None, None, None]


def test_events_report_musik_tricks_and_deal_scores():
    s = E.new(3, 5, {"first_dealer": 0})
    after = E.apply(s, 1, Choose(Contract.NO_TRUMP))
    events = E.events(s, 1, Choose(Contract.NO_TRUMP), after)
    assert {"type": "musik-revealed", "cards": card_strs(s.musik), "to": 1} in events
    t = first_trick("H", {0: ["3S"]}, [(1, "KS"), (2, "2H")], void={2: "S"})
    move = PlayCard(parse_card("3S"))
    events = E.events(t, 0, move, E.apply(t, 0, move))
    assert {"type": "trick-won", "seat": 2, "cards": ["KS", "2H", "3S"]} in events
    rnd = random.Random(4)
    while not E.round_over(after):
        seat = min(E.to_act(after))
        before, move = after, rnd.choice(E.legal_moves(after, seat))
        after = E.apply(before, seat, move)
    events = E.events(before, seat, move, after)
    assert {"type": "deal-scored", "scores": list(after.history[-1])} in events
    assert {"type": "round-over"} in events


def test_setup_notation_and_bad_options_are_refused():
    from rules.base import InvalidOption

    with pytest.raises(InvalidOption) as err:
        E.new(3, 1, None, setup={"hands": []})
    assert err.value.code == "3-5-8.setup-unsupported"
    for bad, code in (({"first_dealer": 3}, "options.bad-value"), ({"first_dealer": True}, "options.bad-value"),
                      ({"tie": "coin"}, "options.bad-value"), ({"trumps": 1}, "options.unknown")):
        with pytest.raises(InvalidOption) as err:
            E.new(3, 1, bad)
        assert err.value.code == code
    with pytest.raises(InvalidOption) as err:
        E.new(4, 1)
    assert err.value.code == "options.players"


# --------------------------------------------------------------------------- review: roles, exchange details


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_roles_and_targets_follow_the_dealer(dealer):
    """§2 for every dealer d: chooser (d+1)%3 (8 / BL 3), third (d+2)%3 (5 / 5), dealer d (3 / 8);
    the chooser chooses first and, with no exchange in deal 1, leads the first trick.

        d=0: chooser 1, third 2   d=1: chooser 2, third 0   d=2: chooser 0, third 1
    """
    chooser, third = (dealer + 1) % 3, (dealer + 2) % 3
    s = E.new(3, 7, {"first_dealer": dealer})
    assert s.dealer == dealer and E.to_act(s) == {chooser}
    want = {chooser: ("chooser", 8), third: ("third", 5), dealer: ("dealer", 3)}
    assert [(b.role, b.target) for b in E.scores(s).breakdown] == [want[x] for x in range(3)]
    tricks = [0, 0, 0]
    tricks[chooser], tricks[third], tricks[dealer] = 3, 5, 8
    bl = E.score_tally({"contract": "BL", "dealer": dealer, "tricks": tricks})
    limits = {chooser: ("chooser", 3), third: ("third", 5), dealer: ("dealer", 8)}
    assert [(b.role, b.limit) for b in bl.breakdown] == [limits[x] for x in range(3)]
    assert bl.points == (0, 0, 0)
    s = E.apply(s, chooser, Choose(Contract.CLUBS))
    assert E.to_act(s) == {chooser} and s.phase is Phase.DISCARD
    for _ in range(4):
        s = E.apply(s, chooser, E.legal_moves(s, chooser)[0])
    assert s.phase is Phase.PLAY and E.to_act(s) == {chooser} and s.leader == chooser


def test_no_exchange_after_a_deal_where_everyone_made_his_target():
    """§8 who: only plus players exchange, only with minus players. Deal 1 (♠, dealer 2) was
    made exactly, 8 / 5 / 3 -> 0 / 0 / 0: deal 2 in ♥ goes straight to the musik."""
    s = deal2_exchange([8, 5, 3], {}, contract="H")
    assert s.phase is Phase.DISCARD and s.exchange is None and len(s.hands[1]) == 20


def test_a_zero_player_neither_exchanges_nor_receives():
    """§8 who: deal 1 (♠, dealer 2): seat 0 chooser 9 (+1), seat 1 third 5 (0), seat 2 dealer 2 (-1).
    Deal 2 (♥, dealer 0): only seat 0 exchanges, and only with seat 2; seat 1 is no partner."""
    s = deal2_exchange([9, 5, 2], {0: ["5C"]}, contract="H")
    assert s.exchange.queue == (0,) and E.to_act(s) == {0}
    assert {m.to for m in E.legal_moves(s, 0) if isinstance(m, ExchangeCard)} == {2}
    with pytest.raises(IllegalMove) as err:
        E.check(s, 0, ExchangeCard(1, parse_card("5C")))
    assert err.value.code == "3-5-8.not-a-minus-player"
    s = E.apply(s, 0, ExchangeCard(2, parse_card("5C")))
    assert s.phase is Phase.DISCARD  # one plus point: one card


def test_third_exchanges_before_dealer():
    """§8 order, 5 before 3: deal 1 (♠, dealer 2): seat 0 chooser 9 (+1), seat 1 third 3 (-2),
    seat 2 dealer 4 (+1). Deal 2 (♥, dealer 0): chooser 1 is minus; third 2 (target 5) exchanges
    before dealer 0 (target 3), each one card with seat 1."""
    s = deal2_exchange([9, 3, 4], {0: ["2C"], 2: ["3C"]}, contract="H")
    assert s.exchange.queue == (2, 0) and E.to_act(s) == {2}
    assert {m.to for m in E.legal_moves(s, 2) if isinstance(m, ExchangeCard)} == {1}
    s = E.apply(s, 2, ExchangeCard(1, parse_card("3C")))
    assert E.to_act(s) == {0} and s.exchange.steps == (0, 0, 0)
    s = E.apply(s, 0, ExchangeCard(1, parse_card("2C")))
    assert s.phase is Phase.DISCARD


def test_exchange_before_the_musik_does_not_count_musik_cards():
    """§3 steps 3-5 (ruling 3.1): the exchange comes before the musik. Deal 1 (♠, dealer 2):
    seat 0 chooser 9 (+1), seat 1 third 4 (-1), seat 2 dealer 3 (0). Deal 2, dealer 0: chooser 1 picks ♦.

        seat 0 offers 5H to the chooser (seat 1), who holds 3H only; the musik holds AH
        -> 5H comes back (AH is not yet in his hand); the musik stays hidden during the exchange
    """
    hands, rest = fill({0: ["5H"], 1: ["3H"]}, [16, 16, 16], {1: "H"}, used=["AH"])
    musik = [*rest, "AH"]
    pre = E.from_json(state(round=2, dealer=0, phase="choose", hands=hands, musik=musik, leader=1,
                            history=[record(2, "S", [9, 4, 3])]))
    s = E.apply(pre, 1, Choose(Contract.DIAMONDS))
    assert s.phase is Phase.EXCHANGE and E.to_act(s) == {0} and len(s.hands[1]) == 16
    assert all(E.view(s, v)["musik"] is None for v in (None, 0, 1, 2))
    after = E.apply(s, 0, ExchangeCard(1, parse_card("5H")))
    assert "5H" in card_strs(after.hands[0]) and "5H" not in card_strs(after.hands[1])
    assert after.phase is Phase.DISCARD and "AH" in card_strs(after.hands[1])
    assert len(after.hands[1]) == 20


def test_returned_card_is_seen_before_the_next_offer():
    """§8 one step at a time (the exchanger sees each returned card): seat 1 (+2) gives 5H to seat 2 (-2), gets KH back,
    and may then offer that KH in his second step (C now holds 9H 5H 3H: KH comes back again)."""
    s = deal2_exchange([8, 7, 1], {1: ["5H"], 2: ["KH", "9H", "3H"]}, contract="S", void={2: "H"})
    s = E.apply(s, 1, ExchangeCard(2, parse_card("5H")))
    assert E.to_act(s) == {1} and ExchangeCard(2, parse_card("KH")) in E.legal_moves(s, 1)
    s = E.apply(s, 1, ExchangeCard(2, parse_card("KH")))
    assert "KH" in card_strs(s.hands[1]) and s.phase is Phase.DISCARD


# --------------------------------------------------------------------------- the code catalogue (DESIGN 4.4)


def _raised() -> dict[str, list]:
    """Every rules error a battery of real situations raises, by code: illegal moves of every kind
    in positions of every phase, malformed moves, the impossible states of the mutation suite, bad
    tallies and setups, a move after the end, a seat the table lacks."""
    from service.games import BINDINGS
    from tests.rules import test_three_five_eight_mutations as mutations
    from tests.rules.catalogue import Raised

    found = Raised()
    catch = found.catch

    everything = [parse_card(c) for c in ALL]
    for seed, options in ((1, {}), (2, {"discard_trumps": False, "exchange_limit": "own-points"})):
        rnd = random.Random(seed)
        s = E.new(3, seed, options)
        seen: set[tuple[str, int]] = set()
        while E.to_act(s):
            if s.round in (1, 2, 7, 13) and (s.phase.value, s.round) not in seen:
                seen.add((s.phase.value, s.round))
                candidates = [NextRound(), EndExchange(), *(Choose(c) for c in Contract),
                              *(PlayCard(c) for c in everything), *(Discard(c) for c in everything),
                              *(ExchangeCard(to, c) for to in range(3) for c in everything[::5])]
                for seat in range(3):
                    for move in candidates:
                        catch(lambda s=s, seat=seat, move=move: E.apply(s, seat, move))
            seat = min(E.to_act(s))
            s = E.apply(s, seat, rnd.choice(list(E.legal_moves(s, seat))))
        catch(lambda s=s: E.apply(s, 0, NextRound()))  # after the 18th deal
    for data in ({"kind": "bid"}, {"kind": "play", "card": "1X"}, []):
        catch(lambda data=data: E.move_from_json(data))
    for case in mutations.SUITE.cases:
        if case.kind in mutations.REFUSED:
            catch(lambda data=case.data: E.from_json(data))
    for tally in ({"contract": "H", "dealer": 0, "tricks": [5, 5, 5]}, {"contract": "H"}):
        catch(lambda tally=tally: E.score_tally(tally))
    catch(lambda: E.new(3, 1, None, setup={"hands": []}))
    catch(lambda: BINDINGS[GAME_ID].view(E.new(3, 1), 5))
    for build in EXTRA_STATES.values():
        catch(lambda build=build: E.from_json(build()))
    for trigger in EXTRA_MOVES.values():
        catch(trigger)
    return found


def _musik_short():
    data = E.to_json(first_trick("H", {0: ["3S"]}, [(1, "KS")]))
    data["musik"].pop()  # a revealed musik is no longer counted among the 52: only 3 of its 4 cards
    return data


def _won_pile_split():
    s = first_trick("H", {}, [])
    s = E.apply(E.apply(E.apply(s, 1, PlayCard(s.hands[1][0])), 2, E.legal_moves(E.apply(s, 1, PlayCard(
        s.hands[1][0])), 2)[0]), 0, E.legal_moves(E.apply(E.apply(s, 1, PlayCard(s.hands[1][0])), 2, E.legal_moves(
            E.apply(s, 1, PlayCard(s.hands[1][0])), 2)[0]), 0)[0])
    data = E.to_json(s)
    winner = next(x for x in range(3) if data["won"][x])
    data["won"][(winner + 1) % 3].append(data["won"][winner].pop())
    return data


def _discards_while_choosing():
    hands, rest = fill({}, [16, 16, 16])
    data = state(hands=hands, musik=rest)
    data["discards"] = [data["hands"][1].pop()]
    return data


def _game_over_early():
    hands, rest = fill({}, [16, 16, 16])
    data = state(round=2, dealer=1, hands=hands, musik=rest, leader=2,
                 history=[record(0, "H", [3, 8, 5]), record(1, "NT", [5, 3, 8])])
    won = [[], [], []]
    data.update(phase="game-over", contract="NT", hands=[[], [], []], won=won, turn=None)
    return data


def _exchange_spent():
    s = deal2_exchange([10, 4, 2], {0: ["2C", "3C", "4C"]}, contract="H", dealer=0)
    s = E.apply(s, 0, ExchangeCard(1, parse_card("2C")))
    E.apply(s, 0, ExchangeCard(1, parse_card("3C")))  # one card with each minus player


def _contract_reused():
    hands, rest = fill({}, [16, 16, 16])
    played = [record(i % 3, "H", [8, 5, 3]) for i in range(4)]  # chooser 1 chose H in deals 1 and 4
    return state(round=5, dealer=1, hands=hands, musik=rest, leader=2, history=played)


def _void_broken():
    data = E.to_json(first_trick("H", {2: ["2H", "3S"]}, [(1, "KS")]))
    data["trick"].append({"seat": 2, "card": "2H"})  # seat 2 holds 3S, so it had to follow
    data["hands"][2].remove("2H")
    data["turn"] = 0
    return data


def _tampered(change):
    def build():
        data = E.to_json(first_trick("H", {0: ["3S"]}, [(1, "KS")]))
        change(data)
        return data
    return build


EXTRA_MOVES = {
    "3-5-8.must-follow-suit": lambda: E.apply(first_trick("H", {0: ["3S", "AH"], 2: ["AD"]}, [(1, "KS"), (2, "2H")],
                                                          void={2: "S"}), 0, PlayCard(parse_card("AH"))),
    "3-5-8.exchange-limit": _exchange_spent,
    "3-5-8.must-trump": lambda: E.apply(first_trick("H", {2: ["2H", "AD"]}, [(1, "KS")], void={2: "S"}), 2,
                                        PlayCard(parse_card("AD"))),
    "3-5-8.contract-used": lambda: E.apply(E.from_json(state(round=4, dealer=0, hands=fill({}, [16] * 3)[0],
                                                             musik=fill({}, [16] * 3)[1], history=[
                                                                 record(0, "H", [8, 5, 3]), record(1, "S", [5, 3, 8]),
                                                                 record(2, "D", [3, 8, 5])])), 1,
                                           Choose(Contract.HEARTS)),
}
EXTRA_STATES = {
    "3-5-8.contract-reused": _contract_reused,
    "3-5-8.bad-trick": _void_broken,
    "3-5-8.bad-dealer": _tampered(lambda d: d["options"].__setitem__("first_dealer", 1)),
    "3-5-8.bad-exchange": _tampered(lambda d: d.__setitem__("exchange", {"queue": [1], "steps": [0, 0, 0]})),
    "3-5-8.bad-musik": _musik_short,
    "3-5-8.bad-tricks": _won_pile_split,
    "3-5-8.bad-discards": _discards_while_choosing,
    "3-5-8.bad-phase": _game_over_early,
}
RAISED = _raised()


def test_every_code_raised_is_catalogued_and_every_catalogued_code_is_raised():
    """DESIGN 4.4: the codes are declared once (``three_five_eight.C``, typed, so nothing raises a
    code it did not declare), and the battery raises every one of them."""
    assert set(RAISED) == set(E.codes), (set(E.codes) - set(RAISED), set(RAISED) - set(E.codes))


def test_every_polish_detail_formats_with_the_context_of_its_raises() -> None:
    for code, raised in RAISED.items():
        for exc in raised:
            check_raise(E, code, exc)


@pytest.mark.parametrize("code", sorted({*EXTRA_MOVES, *EXTRA_STATES}))
def test_each_extra_trigger_raises_its_code(code):
    from rules.base import RulesError

    with pytest.raises(RulesError) as err:
        EXTRA_MOVES[code]() if code in EXTRA_MOVES else E.from_json(EXTRA_STATES[code]())
    assert err.value.code == code
