"""Kierki scenarios (docs/rules/kierki.md, cited as §): the vectors KI-V1..KI-V7 of the rules research, every option of §11,
tampered states, the view, the tally and the schemas.

Seats: 0 = North, 1 = East, 2 = South, 3 = West (clockwise). Positions are built as JSON and
loaded through ``from_json`` (so they pass its meaning checks); earlier tricks of a position
are filled from the cards nobody holds, each won by the seat the test names.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from rules.base import GameOver, IllegalMove, InvalidOption, InvalidState, NotYourTurn
from rules.cards import Suit, card_strs, deck, parse_card, parse_cards
from rules.kierki import (
    ENGINE,
    Deal,
    NameTrump,
    NextRound,
    Options,
    Pass,
    Phase,
    PlayCard,
    Trump,
    _allowed,
    deal_list,
    deal_total,
    full_deck,
)
from rules.shapes import encode
from rules.tricks import Play, trick_winner
from tests.rules.catalogue import check_raise

N, E, S, W = 0, 1, 2, 3
POSITIONS = json.loads((Path(__file__).parent / "data" / "kierki" / "positions.json").read_text())
RNG = {"v": 1, "key": "0" * 64, "counter": 0}
OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)


def items_of(breakdown) -> dict:
    """A seat's breakdown items: the declared breakdown without its contract and points."""
    return {k: v for k, v in encode(breakdown).items() if k not in ("contract", "points")}


def tally_schema():
    """The contract's KierkiTally (made from the declared tally shapes), as a validator."""
    import jsonschema_rs

    from service.openapi import build_spec

    components = build_spec()["components"]
    return jsonschema_rs.Draft202012Validator({"$ref": "#/components/schemas/KierkiTally", "components": components})


def cards(text: str):
    return parse_cards(text.split())


def play(text: str) -> PlayCard:
    return PlayCard(parse_card(text))


def legal(state, seat) -> set[str]:
    """The legal moves as card names (or move kinds), in no particular order."""
    return {ENGINE.move_to_json(m).get("card", ENGINE.move_to_json(m)["kind"]) for m in ENGINE.legal_moves(state, seat)}


def code_of(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as err:
        ENGINE.apply(state, seat, move)
    return err.value.code


def resolved(options: dict | None) -> Options:
    return Options(**ENGINE.resolve_options(options or {}))


def prior_history(opts: Options, players: int, number: int) -> list[list[int]]:
    """The deals before deal ``number``, all taken by North (each row sums to its deal's total,
    in the sign of score_sign)."""
    deals = deal_list(opts, players)
    sign = 1 if opts.score_sign == "penalties-negative" else -1
    return [[sign * deal_total(deals[k], opts, players)] + [0] * (players - 1) for k in range(number - 1)]


def trick_position(contract: str, *, hands, dealer: int, winners=(), trick: str = "", options=None, players=4,
                   trump: str | None = None, phase: str = "play", number: int | None = None):
    """A trick-deal position: ``hands`` (text per seat), earlier tricks won by ``winners``,
    the current ``trick`` (text, in play order from its leader)."""
    opts = resolved(options)
    if number is None:
        number = deal_list(opts, players).index(Deal(contract)) + 1
    held = [c for h in hands for c in cards(h)] + list(cards(trick))
    rest = sorted(set(full_deck(players)) - set(held), key=lambda c: (c.suit.value, c.rank))
    assert len(rest) == players * len(winners), "hands and winners do not add up"
    suit = None if trump in (None, "NT") else Suit(trump)
    leaders = [(dealer + 1) % players, *winners]
    leader = leaders[len(winners)]
    rules = SimpleNamespace(options=opts, players=players, round=number, contract=Deal(contract),
                            trump=None if trump is None else Trump(trump), suit=suit)
    now = [list(cards(h)) for h in hands]
    for i, c in enumerate(cards(trick)):
        now[(leader + i) % players].append(c)
    past = _legal_history(rules, leaders, winners, rest, now)
    tricks = [{"leader": leaders[k], "cards": card_strs(t), "winner": winners[k]} for k, t in enumerate(past)]
    data = {
        "players": players, "options": encode(opts), "round": number, "contract": contract, "dealer": dealer,
        "phase": phase, "hands": [card_strs(cards(h)) for h in hands], "stock": [], "trump": trump,
        "leader": leader, "turn": None if phase in ("round-over", "game-over") else (leader + len(cards(trick))) % players,
        "trick": card_strs(cards(trick)), "tricks": tricks, "rows": [], "finished": [],
        "history": prior_history(opts, players, number), "rng": RNG,
    }
    return ENGINE.from_json(data)


def _legal_history(rules, leaders, winners, pool, now) -> list[tuple]:
    """Earlier tricks made of the ``pool`` cards, each won by its winner; the last one (which
    from_json checks) played legally (``_allowed``: the engine's own rule) from the hands the
    seats held then: their cards ``now`` plus what they played later."""
    n = rules.players
    budget = [2_000]  # a position with no legal past runs out of it instead of searching for ever

    def build(k: int, pool: list, held: list) -> list[tuple] | None:
        if k < 0:
            return []
        budget[0] -= 1
        assert budget[0] > 0, "no legal order of the earlier tricks found"
        seats = [(leaders[k] + i) % n for i in range(n)]

        def fill(i: int, plays: list, pool: list):
            budget[0] -= 1
            assert budget[0] > 0, "no legal order of the earlier tricks found"
            if i == n:
                if trick_winner(tuple(plays), rules.suit) == winners[k]:
                    yield tuple(c for _, c in plays), pool
                return
            seat = seats[i]
            led = plays[0][1].suit if plays else None
            for card in sorted(pool, key=lambda c: (c.suit is not led, -sum(x.suit is c.suit for x in pool))):
                now_plays = [*plays, Play(seat, card)]
                if winners[k] in seats[:i + 1] and trick_winner(tuple(now_plays), rules.suit) != winners[k]:
                    continue  # the trick's winner has played and is beaten: no later card undoes that
                if k < len(winners) - 1 or card in _allowed(rules, (*held[seat], card), plays):
                    yield from fill(i + 1, now_plays, [c for c in pool if c != card])

        for trick, rest in itertools.islice(fill(0, [], pool), 50):
            before = [list(h) for h in held]
            for seat, card in zip(seats, trick, strict=True):
                before[seat].append(card)
            earlier = build(k - 1, rest, before)
            if earlier is not None:
                return [*earlier, trick]
        return None

    found = build(len(winners) - 1, list(pool), now)
    assert found is not None, "no legal order of the earlier tricks"
    return found


def lottery_position(*, hands: dict[int, str], rows: dict[str, tuple[int, int]], turn: int, dealer: int = W,
                     finished=(), options=None, players=4, phase: str = "lottery"):
    """A loteryjka position: the named hands; cards neither held nor laid go round the others, at
    most the cards dealt (13, or 17 with three players) each; what is left tops up the named hands
    with cards that fit no row (so their legal moves stay as named), as a real deal would have."""
    opts = resolved(options)
    number = deal_list(opts, players).index(Deal.LOTERYJKA) + 1
    laid = {parse_card(f"{r if r <= 10 else 'JQKA'[r - 11]}{s}") for s, (lo, hi) in rows.items()
            for r in range(lo, hi + 1)}
    given = {seat: list(cards(text)) for seat, text in hands.items()}
    taken = laid | {c for h in given.values() for c in h}
    rest = sorted(set(full_deck(players)) - taken, key=lambda c: (c.suit.value, c.rank))
    fillers = [s for s in range(players) if s not in given and s not in finished]
    out = {s: given.get(s, []) for s in range(players)}
    size = 52 // players
    start = opts.lottery_start_rank
    ends = {(suit, r) for suit, (lo, hi) in rows.items() for r in (lo - 1, hi + 1)}
    dead = [c for c in rest if c.rank != start and (c.suit.value, int(c.rank)) not in ends]
    live = [c for c in rest if c not in dead]
    for i, c in enumerate(live + dead):
        open_seats = [x for x in fillers if len(out[x]) < size] or \
            [x for x in given if x not in finished and len(out[x]) < size and out[x] and c in dead]
        assert open_seats, "the position holds more cards than the hands can"
        out[open_seats[i % len(open_seats)]].append(c)
    data = {
        "players": players, "options": encode(opts), "round": number, "contract": "loteryjka", "dealer": dealer,
        "phase": phase, "hands": [card_strs(out[s]) for s in range(players)], "stock": [], "trump": None,
        "leader": (dealer + 1) % players, "turn": turn, "trick": [], "tricks": [],
        "rows": [{"suit": s, "low": lo, "high": hi} for s, (lo, hi) in sorted(rows.items(), key=lambda r: "CDHS".index(r[0]))],
        "finished": list(finished), "history": prior_history(opts, players, number), "rng": RNG,
    }
    return ENGINE.from_json(data)


def advance(state, until):
    """Play the first legal move of the lowest acting seat until ``until(state)``."""
    for _ in range(5000):
        if until(state):
            return state
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    raise AssertionError("never reached")


def random_match(players: int, seed: int, options=None):
    rnd = random.Random(seed)
    state = ENGINE.new(players, seed, options)
    states = [state]
    while ENGINE.to_act(state):
        seat = rnd.choice(sorted(ENGINE.to_act(state)))
        state = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_moves(state, seat)))
        states.append(state)
    return states


# --------------------------------------------------------------------------- KI-V1: deal totals


STANDARD_TOTALS = [-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325, 1300]


@pytest.mark.parametrize("early_end", [True, False])
def test_deal_totals_match_the_contract_table(early_end: bool) -> None:
    """KI-V1: per deal, summed over the 4 seats: 260, 260, 240, 240, 150, 150, 1300 in
    penalties (negative), +325 a trump deal, +1300 the loteryjka; the match sums to zero."""
    final = random_match(4, 11, {"early_end": early_end})[-1]
    lines = list(final.history)  # the last deal's row joins history when it ends
    assert [sum(line) for line in lines] == STANDARD_TOTALS
    assert sum(ENGINE.scores(final).totals) == 0
    assert [deal_total(d, final.options, 4) for d in deal_list(final.options, 4)] == STANDARD_TOTALS


def test_standard_match_is_zero_sum_over_seeds_and_early_end() -> None:
    """§6: -2600 in the negative deals, +1300 trump deals, +1300 loteryjka: sum 0."""
    for seed in range(3):
        final = random_match(4, seed, {"trump_chooser": "left-of-dealer", "king_of_hearts_must_drop": True})[-1]
        report = ENGINE.scores(final)
        assert sum(report.totals) == 0 and report.final
        assert report.winners == ENGINE.outcome(final).winners
        assert report.totals[report.winners[0]] == max(report.totals)


# --------------------------------------------------------------------------- KI-V2: rozbójnik


ROBBER_LAST_TRICK = dict(hands=["3H", "QS", "KH", "JD"], dealer=W, winners=[N] * 12)


def test_robber_takes_every_penalty_at_once() -> None:
    """KI-V2 (§4, standard rozbójnik): North won tricks 1-12; the 13th trick

              N: 3H (leads)
        W: JD           E: QS
              S: KH  -> South wins

    trick 20 + hearts 2x20 + queen 60 + K/J 2x30 + KH 150 + last trick 75 = 405."""
    state = trick_position("robber", **ROBBER_LAST_TRICK)
    for seat, card in [(N, "3H"), (E, "QS"), (S, "KH"), (W, "JD")]:
        state = ENGINE.apply(state, seat, play(card))
    report = ENGINE.scores(state)
    assert state.phase in OVER and report.final
    assert report.points[S] == -405
    assert items_of(report.breakdown[S]) == {
        "tricks": -20, "hearts": -40, "queens": -60, "kings_jacks": -60, "king_of_hearts": -150,
        "trick_7": 0, "trick_13": -75,
    }
    assert sum(report.points) == -1300


def test_robber_with_the_book_last_trick_costs_480() -> None:
    """KI-V2 (§4, book6 with rozbójnik, the last trick 150): the same 13th trick

              N: 3H (leads)
        W: JD           E: QS
              S: KH  -> South wins: 20 + 40 + 60 + 60 + 150 + 150 = 480."""
    state = trick_position("robber", options={"ruleset": "book6", "book6_robber": True}, **ROBBER_LAST_TRICK)
    for seat, card in [(N, "3H"), (E, "QS"), (S, "KH"), (W, "JD")]:
        state = ENGINE.apply(state, seat, play(card))
    report = ENGINE.scores(state)
    assert report.points[S] == -480
    assert items_of(report.breakdown[S])["trick_13"] == -150


# --------------------------------------------------------------------------- KI-V3: 7th and last


def tally_of(deal: str, winners: list[int], players: int = 4, options=None) -> dict:
    """A tally where trick k (1-based) holds the k-th four cards of the pack, won by winners[k-1]."""
    pack = full_deck(players)
    seats = [{"cards": [], "tricks": []} for _ in range(players)]
    for k, w in enumerate(winners):
        seats[w]["cards"] += card_strs(pack[k * players:(k + 1) * players])
        seats[w]["tricks"].append(k + 1)
    out = {"contract": deal, "players": players, "seats": seats}
    if options:
        out["options"] = options
    return out


def test_seventh_and_last_trick_by_one_player_cost_150() -> None:
    """KI-V3 (§4, deal 6 standard), tricks won:

        trick  1-6  7  8-11  12  13
        seat   N    S  E     W   S     -> South 75 + 75 = 150; West's 12th costs nothing."""
    winners = [N] * 6 + [S] + [E] * 4 + [W] + [S]
    report = ENGINE.score_tally(tally_of("no-seventh-and-last", winners))
    assert report.points == (0, 0, -150, 0)
    assert items_of(report.breakdown[S]) == {"trick_7": -75, "trick_13": -75}


def test_seventh_and_last_trick_by_two_players_cost_75_each() -> None:
    """KI-V3 (§4), tricks won:

        trick  1-6  7  8-11  12  13
        seat   S    N  S     W   E     -> North 75, East 75, West (12th) 0."""
    winners = [S] * 6 + [N] + [S] * 4 + [W] + [E]
    report = ENGINE.score_tally(tally_of("no-seventh-and-last", winners))
    assert report.points == (-75, -75, 0, 0)


def test_seventh_and_last_trick_scored_in_play() -> None:
    """KI-V3 (§4) in play: South won trick 7, East trick 12; East leads the 13th

              N: 4C
        W: 3C           E: 5C (leads)
              S: 2C         -> East wins: East 75, South 75, the 12th trick free."""
    winners = [N] * 6 + [S] + [N] * 4 + [E] + [S]
    state = trick_position("no-seventh-and-last", hands=["4C", "5C", "2C", "3C"], dealer=W, winners=winners[:12])
    for seat, card in [(E, "5C"), (S, "2C"), (W, "3C"), (N, "4C")]:
        state = ENGINE.apply(state, seat, play(card))
    assert state.tricks[-1].winner == E
    assert ENGINE.scores(state).points == (0, -75, -75, 0)


# --------------------------------------------------------------------------- KI-V4, KI-V5: leads and following


def test_hearts_may_not_be_led_while_holding_another_suit() -> None:
    """KI-V4 (§3.3, deal 2 "no hearts"): South to lead.

        S: AH 5H 3C   -> only 3C; leading AH is kierki.lead-forbidden."""
    state = trick_position("no-hearts", hands=["2S 3S 4S", "5S 6S 7S", "AH 5H 3C", "8S 9S 10S"],
                           dealer=E, winners=[S] * 10)
    assert state.turn == S
    assert legal(state, S) == {"3C"}
    assert code_of(state, S, play("AH")) == "kierki.lead-forbidden"


def test_any_heart_may_be_led_with_only_hearts() -> None:
    """KI-V4 (§3.3): South to lead, holding only hearts.

        S: AH 5H 3H   -> every heart is a legal lead."""
    state = trick_position("no-hearts", hands=["2S 3S 4S", "5S 6S 7S", "AH 5H 3H", "8S 9S 10S"],
                           dealer=E, winners=[S] * 10)
    assert legal(state, S) == {"3H", "5H", "AH"}


@pytest.mark.parametrize(("deal", "restricted"), [
    ("no-king-of-hearts", True), ("robber", True), ("no-queens", False), ("no-tricks", False),
])
def test_hearts_lead_restriction_only_in_hearts_deals(deal: str, restricted: bool) -> None:
    """§3.3: the lead restriction holds in deals 2, 5 and 7 only.  South leads from  AH 5H 3C
    (KH and two queens still out, so no deal is over)."""
    state = trick_position(deal, hands=["2S 3S QS", "5S 6S KH", "AH 5H 3C", "8S 9S QH"],
                           dealer=E, winners=[S] * 10)
    assert legal(state, S) == ({"3C"} if restricted else {"3C", "5H", "AH"})


def test_must_follow_the_suit_led() -> None:
    """KI-V5 (§3.1, deal 2): spades led; West to play.

              N: 5S (led)
        W: ?  [2S AH]   E: 9S
              S: 4D         -> West must follow: only 2S."""
    state = trick_position("no-hearts", hands=["KD", "QD", "JD", "2S AH"], trick="5S 9S 4D",
                           dealer=W, winners=[N] * 11)
    assert state.turn == W
    assert legal(state, W) == {"2S"}
    assert code_of(state, W, play("AH")) == "kierki.must-follow-suit"


def test_void_player_may_play_a_heart_even_in_the_hearts_deal() -> None:
    """KI-V5 (§3.1, deal 2): spades led; West has no spade.

              N: 5S (led)
        W: ?  [2D AH]   E: 9S
              S: 4D         -> any card, AH too (East takes it: 20)."""
    state = trick_position("no-hearts", hands=["KD", "QD", "JD", "2D AH"], trick="5S 9S 4D",
                           dealer=W, winners=[N] * 11)
    assert legal(state, W) == {"2D", "AH"}
    after = ENGINE.apply(state, W, play("AH"))
    assert after.tricks[-1].winner == E and ENGINE.scores(after).points[E] == -20


def test_card_not_in_hand_is_refused() -> None:
    state = trick_position("no-hearts", hands=["KD", "QD", "JD", "2D AH"], trick="5S 9S 4D",
                           dealer=W, winners=[N] * 11)
    assert code_of(state, W, play("KD")) == "kierki.card-not-in-hand"


# --------------------------------------------------------------------------- KI-V6: trump deals


def test_discarding_a_low_trump_wins_the_trick() -> None:
    """KI-V6 (§5, diamonds trumps): clubs led, East has no club.

              N: 5C (led)
        W: 4C           E: ? [2D 9H]  -> both legal (no duty to trump); East plays 2D
              S: KC         -> East wins with the lowest trump: +25."""
    state = trick_position("trumps", hands=["KS", "2D 9H", "KC AS", "4C QS"], trick="5C",
                           dealer=W, winners=[N] * 11, trump="D")
    assert legal(state, E) == {"2D", "9H"}
    for seat, card in [(E, "2D"), (S, "KC"), (W, "4C")]:
        state = ENGINE.apply(state, seat, play(card))
    assert state.tricks[-1].winner == E
    assert items_of(ENGINE.scores(state).breakdown[E]) == {"tricks_won": 25}


def test_higher_trump_overtakes() -> None:
    """KI-V6 (§5): ... unless a higher diamond follows.

              N: 5C (led)
        W: 3D           E: 2D
              S: KC         -> West's 3D beats East's 2D."""
    state = trick_position("trumps", hands=["KS", "2D 9H", "KC AS", "3D QS"], trick="5C",
                           dealer=W, winners=[N] * 11, trump="D")
    for seat, card in [(E, "2D"), (S, "KC"), (W, "3D")]:
        state = ENGINE.apply(state, seat, play(card))
    assert state.tricks[-1].winner == W


def test_trump_deal_scores_325() -> None:
    """KI-V1: a trump deal gives exactly +325, +25 a trick."""
    start = advance(ENGINE.new(4, 5), lambda s: s.phase is Phase.NAME_TRUMP)
    end = advance(start, lambda s: s.phase in OVER)
    report = ENGINE.scores(end)
    assert sum(report.points) == 325
    assert all(r % 25 == 0 for r in report.points)


# --------------------------------------------------------------------------- KI-2: naming trumps


def test_dealer_names_trumps_after_five_cards() -> None:
    """KI-2 (a): the dealer sees 5 cards, names trumps; then the rest is dealt and the
    player left of the dealer leads."""
    state = advance(ENGINE.new(4, 3), lambda s: s.phase is Phase.NAME_TRUMP)
    assert ENGINE.to_act(state) == {state.dealer}
    assert [len(h) for h in state.hands] == [5] * 4 and len(state.stock) == 32
    view = ENGINE.view(state, state.dealer)
    assert view["hands"][state.dealer] == card_strs(state.hands[state.dealer])
    assert view["stock"] is None and view["stock_size"] == 32
    assert [h for seat, h in enumerate(view["hands"]) if seat != state.dealer] == [None] * 3
    assert view["hand_sizes"] == [5] * 4
    assert [m.suit.value for m in ENGINE.legal_moves(state, state.dealer)] == ["C", "D", "H", "S"]
    first_five = state.hands
    after = ENGINE.apply(state, state.dealer, NameTrump(Trump.HEARTS))
    assert [len(h) for h in after.hands] == [13] * 4 and after.stock == ()
    assert all(set(a) <= set(b) for a, b in zip(first_five, after.hands, strict=True))
    assert after.phase is Phase.PLAY and after.turn == (state.dealer + 1) % 4
    assert ENGINE.to_json(after)["trump"] == "H"


def test_left_of_dealer_names_trumps_and_leads() -> None:
    """KI-2 (b): the player left of the dealer, holding all 13 cards, names trumps and leads."""
    state = advance(ENGINE.new(4, 3, {"trump_chooser": "left-of-dealer"}), lambda s: s.phase is Phase.NAME_TRUMP)
    left = (state.dealer + 1) % 4
    assert ENGINE.to_act(state) == {left} and state.stock == ()
    assert [len(h) for h in state.hands] == [13] * 4
    after = ENGINE.apply(state, left, NameTrump(Trump.SPADES))
    assert after.turn == left and after.trump is Trump.SPADES


def test_each_player_names_trumps_once_over_the_trump_deals() -> None:
    """§5: over the 4 trump deals the deal passes left, so each player names once."""
    namers = []
    state = ENGINE.new(4, 8)
    for _ in range(4):
        state = advance(state, lambda s: s.phase is Phase.NAME_TRUMP and s.round >= 8 + len(namers))
        namers.append(min(ENGINE.to_act(state)))
        state = ENGINE.apply(state, namers[-1], NameTrump(Trump.CLUBS))
    assert sorted(namers) == [0, 1, 2, 3]


def test_no_trump_is_refused_unless_allowed() -> None:
    """§5: only a suit may be named; option no_trump_allowed admits 'NT' (highest of the led suit wins)."""
    state = advance(ENGINE.new(4, 3), lambda s: s.phase is Phase.NAME_TRUMP)
    assert code_of(state, state.dealer, NameTrump(Trump.NO_TRUMP)) == "kierki.no-trump-not-allowed"
    assert code_of(state, state.dealer, play(card_strs(state.hands[state.dealer])[0])) == "kierki.must-name-trump"
    state = advance(ENGINE.new(4, 3, {"no_trump_allowed": True}), lambda s: s.phase is Phase.NAME_TRUMP)
    assert NameTrump(Trump.NO_TRUMP) in ENGINE.legal_moves(state, state.dealer)
    after = ENGINE.apply(state, state.dealer, NameTrump(Trump.NO_TRUMP))
    assert after.trump is Trump.NO_TRUMP and ENGINE.to_json(after)["trump"] == "NT"
    assert ENGINE.from_json(ENGINE.to_json(after)) == after


# --------------------------------------------------------------------------- KI-V7: loteryjka


def test_lottery_start_passes_left_when_the_leader_has_no_eight() -> None:
    """KI-V7 (§5, loteryjka, book): empty table; North (left of dealer West) holds no 8
    -> North may only pass; East, holding 8C 8D, must lay one of them (no pass)."""
    north = "2C 3C 4C 5C 6C 7C 9C 10C JC QC KC AC 2D"
    state = lottery_position(hands={N: north, E: "8C 8D 2H 3H 4H 5H 6H 7H 9H 10H JH QH KH"}, rows={}, turn=N)
    assert ENGINE.legal_moves(state, N) == [Pass()]
    assert code_of(state, N, play("2C")) == "kierki.does-not-fit"
    state = ENGINE.apply(state, N, Pass())
    assert state.turn == E
    assert legal(state, E) == {"8C", "8D"}
    assert code_of(state, E, Pass()) == "kierki.must-play"


def test_lottery_player_who_can_play_must_play() -> None:
    """KI-V7 (§5): on the table   S: 8   (no other row)

        South: 7S 9S 2C 3C   -> must play 7S or 9S; passing is kierki.must-play."""
    state = lottery_position(hands={S: "7S 9S 2C 3C"}, rows={"S": (8, 8)}, turn=S)
    assert legal(state, S) == {"7S", "9S"}
    assert code_of(state, S, Pass()) == "kierki.must-play"
    assert code_of(state, S, play("2C")) == "kierki.does-not-fit"
    after = ENGINE.apply(state, S, play("9S"))
    assert ENGINE.to_json(after)["rows"] == [{"suit": "S", "low": 8, "high": 9}]


def test_lottery_ends_when_the_second_player_is_out() -> None:
    """§5: first out +800, second out +500; the deal ends then (others keep their cards).
    Rows  C 3-A  D 2-A ; North has out already; East holds  2C , South  KH ."""
    rows = {"C": (3, 14), "D": (2, 14), "H": (2, 12), "S": (2, 14)}
    state = lottery_position(hands={N: "", E: "2C", S: "KH", W: "AH"}, rows=rows, turn=E, finished=[N])
    before = state
    state = ENGINE.apply(state, E, play("2C"))
    assert {"type": "out", "seat": E, "place": 2} in ENGINE.events(before, E, play("2C"), state)
    assert state.phase in OVER and state.finished == (N, E)
    assert ENGINE.scores(state).points == (800, 500, 0, 0)
    assert items_of(ENGINE.scores(state).breakdown[E]) == {"prize": 500}


def test_lottery_skips_players_who_are_out() -> None:
    """West passes; North is out (the 13 clubs on the table), so East is next."""
    rows = {"C": (2, 14)}
    state = lottery_position(hands={N: "", W: "2D 3D"}, rows=rows, turn=W, finished=[N])
    after = ENGINE.apply(state, W, Pass())
    assert after.turn == E


def test_lottery_start_rank_seven() -> None:
    """KI-3: with lottery_start_rank 7 the rows start from a 7."""
    state = lottery_position(hands={N: "7C 8C 2D"}, rows={}, turn=N, options={"lottery_start_rank": 7})
    assert legal(state, N) == {"7C"}


def test_four_lotteries_at_200_and_125() -> None:
    """§5 variant: one loteryjka per player at +200 and +125 (4 x 325 = 1300)."""
    opts = resolved({"lottery": "one-per-player"})
    assert deal_list(opts, 4)[-4:] == (Deal.LOTERYJKA,) * 4
    assert deal_total(Deal.LOTERYJKA, opts, 4) == 325
    report = ENGINE.score_tally({"contract": "loteryjka", "players": 4, "finish_order": [2, 0],
                                 "options": {"lottery": "one-per-player"}})
    assert report.points == (125, 0, 200, 0)


# --------------------------------------------------------------------------- KI-4, early end


def test_king_of_hearts_must_drop_when_void() -> None:
    """KI-4 on: K♥ deal, N leads 5C; East has no clubs and holds  KH 2S  -> only KH."""
    opts = {"king_of_hearts_must_drop": True}
    state = trick_position("no-king-of-hearts", hands=["KD", "KH 2S", "JD 2D", "QD 3D"], trick="5C",
                           dealer=W, winners=[N] * 11, options=opts)
    assert legal(state, E) == {"KH"}
    assert code_of(state, E, play("2S")) == "kierki.must-drop-king-of-hearts"


def test_king_of_hearts_may_be_kept_when_the_rule_is_off() -> None:
    """KI-4 off (default): East keeps KH and throws 2S."""
    state = trick_position("no-king-of-hearts", hands=["KD", "KH 2S", "JD 2D", "QD 3D"], trick="5C",
                           dealer=W, winners=[N] * 11)
    assert legal(state, E) == {"2S", "KH"}


def test_king_of_hearts_need_not_drop_on_a_heart_lead() -> None:
    """KI-4 on: North, holding only hearts, leads one; East follows with any heart (he can follow suit)."""
    state = trick_position("no-king-of-hearts", hands=["6H", "KH 2H", "JD 2D", "QD 3D"], trick="5H",
                           dealer=W, winners=[N] * 11, options={"king_of_hearts_must_drop": True})
    assert legal(state, E) == {"2H", "KH"}


@pytest.mark.parametrize("early_end", [True, False])
def test_deal_stops_once_no_penalty_is_left(early_end: bool) -> None:
    """§4 early_end: K♥ deal, trick 3:  N 2C  E KH (void)  S 3C  W 4C  -> West takes KH and the
    deal is over (remaining cards stay in the hands); with early_end off play goes on. (North,
    holding clubs, led no heart in tricks 1-2: those were diamonds and spades.)"""
    hands = ["2C 5C 6C 7C 8C 9C 10C JC QC KC AC", "KH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
             "3C 2S 3S 4S 5S 6S 7S 8S 9S QH AH", "4C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"]
    state = trick_position("no-king-of-hearts", hands=hands, dealer=W, winners=[N, N],
                           options={"early_end": early_end})
    for seat, card in [(N, "2C"), (E, "KH"), (S, "3C"), (W, "4C")]:
        state = ENGINE.apply(state, seat, play(card))
    assert (state.phase in OVER) == early_end
    assert ENGINE.scores(state).points == (0, 0, 0, -150)
    assert len(state.hands[N]) == 10
    assert ENGINE.from_json(ENGINE.to_json(state)) == state


def test_book_third_and_seventh_deal_stops_after_the_seventh_trick() -> None:
    """§4 early_end with book6_sixth_deal 3rd-and-7th: once trick 7 is taken nothing is left."""
    opts = {"ruleset": "book6", "book6_sixth_deal": "3rd-and-7th"}
    end = advance(ENGINE.new(4, 1, opts), lambda s: s.round == 6 and s.phase in OVER)
    assert len(end.tricks) == 7 and sum(ENGINE.scores(end).points) == -150


def test_no_tricks_deal_is_played_out() -> None:
    """§4: 'no tricks' is never cut short: all 13 tricks are played."""
    end = advance(ENGINE.new(4, 2), lambda s: s.phase in OVER)
    assert len(end.tricks) == 13 and all(not h for h in end.hands)


# --------------------------------------------------------------------------- rulesets and 3 players


def test_book6_deal_lists() -> None:
    """KI-1: book6 = five negative deals + the book's 6th, then one positive round (or none);
    with rozbójnik both positive rounds."""
    names = lambda o: [d.value for d in deal_list(resolved(o), 4)]  # noqa: E731
    negative = ["no-tricks", "no-hearts", "no-queens", "no-kings-jacks", "no-king-of-hearts", "no-last"]
    assert names({"ruleset": "book6"}) == [*negative, "loteryjka"]
    assert names({"ruleset": "book6", "book6_positive": "trumps"}) == [*negative, *["trumps"] * 4]
    assert names({"ruleset": "book6", "book6_positive": "none"}) == negative
    assert names({"ruleset": "book6", "book6_robber": True}) == [*negative, "robber", *["trumps"] * 4, "loteryjka"]
    assert names({}) == [*negative[:5], "no-seventh-and-last", "robber", *["trumps"] * 4, "loteryjka"]


@pytest.mark.parametrize(("variant", "tricks"), [
    ("last", {13: 150}), ("last-two", {12: 75, 13: 75}), ("3rd-and-7th", {3: 75, 7: 75}), ("3rd-and-8th", {3: 75, 8: 75}),
])
def test_book_sixth_deal_variants(variant: str, tricks: dict[int, int]) -> None:
    """§4 (no-last): the book's penalised tricks; North takes them all (total 150)."""
    winners = [N if k + 1 in tricks else E for k in range(13)]
    report = ENGINE.score_tally(tally_of("no-last", winners, options={"ruleset": "book6", "book6_sixth_deal": variant}))
    assert items_of(report.breakdown[N]) == {f"trick_{k}": -v for k, v in tricks.items()}
    assert report.points == (-150, 0, 0, 0)


def test_book6_with_loteryjka_is_zero_sum() -> None:
    """§6: the book's 6-deal game (1300) is balanced by one positive round."""
    final = random_match(4, 4, {"ruleset": "book6"})[-1]
    assert sum(ENGINE.scores(final).totals) == 0
    assert len(final.history) == 7 and final.history[-1] == ENGINE.scores(final).points


def test_three_players_drop_the_two_of_clubs() -> None:
    """§2: 51 cards without 2C, 17 each."""
    state = ENGINE.new(3, 1)
    assert [len(h) for h in state.hands] == [17] * 3
    assert parse_card("2C") not in [c for h in state.hands for c in h]
    assert len(full_deck(3)) == 51 and set(full_deck(3)) == set(deck()) - {parse_card("2C")}


def test_three_player_totals_and_zero_sum() -> None:
    """§4: 255 (17 x 15), 260, 240, 240, 140, 140, 1275; three trump deals of 17 x 25;
    loteryjka 790 + 485; the match sums to zero with the book values."""
    final = random_match(3, 6)[-1]
    lines = list(final.history)  # the last deal's row joins history when it ends
    assert [sum(line) for line in lines] == [-255, -260, -240, -240, -140, -140, -1275, 425, 425, 425, 1275]
    assert sum(ENGINE.scores(final).totals) == 0


def test_three_player_summary_trump_value_does_not_balance() -> None:
    """§5: +20 a trump trick with 3 players (option) gives 3 x 17 x 20 = 1020, not 1275."""
    opts = resolved({"three_player_trump_trick": 20})
    assert deal_total(Deal.TRUMPS, opts, 3) == 340
    assert sum(deal_total(d, opts, 3) for d in deal_list(opts, 3)) == 1020 - 1275


def test_penalties_positive_sign_negates_and_lowest_wins() -> None:
    """score_sign penalties-positive (book sheet): figures negated, the same seats win (lowest)."""
    neg = random_match(4, 9)[-1]
    pos = random_match(4, 9, {"score_sign": "penalties-positive"})[-1]
    a, b = ENGINE.scores(neg), ENGINE.scores(pos)
    assert b.totals == tuple(-t for t in a.totals)
    assert b.winners == a.winners and b.totals[b.winners[0]] == min(b.totals)


# --------------------------------------------------------------------------- options


def test_option_defaults_are_the_spec_rulings() -> None:
    """§6 and §11: standard, trumps named by the dealer after 5 cards, loteryjka from the 8 at
    800/500, K♥ need not drop, early end allowed, penalties negative, fixed deal order."""
    defaults = {name: opt.default for name, opt in ENGINE.options.items()}
    assert defaults == {
        "ruleset": "standard", "trump_chooser": "dealer-after-5", "no_trump_allowed": False, "lottery_start_rank": 8,
        "lottery": "one", "king_of_hearts_must_drop": False, "early_end": True, "score_sign": "penalties-negative",
        "three_player_trump_trick": 25, "book6_sixth_deal": "last", "book6_robber": False, "deal_order": "fixed",
        "book6_positive": "loteryjka",
    }
    state = ENGINE.new(4, 1, {"ruleset": "book6"})
    assert ENGINE.options_of(state) == {**defaults, "ruleset": "book6"}
    assert ENGINE.to_json(state)["options"]["ruleset"] == "book6"


@pytest.mark.parametrize(("options", "code"), [
    ({"ruleset": "kurnik"}, "options.bad-value"), ({"lottery_start_rank": 9}, "options.bad-value"),
    ({"early_end": "yes"}, "options.bad-type"), ({"trumps": "H"}, "options.unknown"),
])
def test_bad_options_are_refused(options: dict, code: str) -> None:
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(4, 1, options)
    assert err.value.code == code


def test_players_three_or_four() -> None:
    for players in (2, 5):
        with pytest.raises(InvalidOption) as err:
            ENGINE.new(players, 1)
        assert err.value.code == "options.players"


# --------------------------------------------------------------------------- rounds and turns


def test_next_round_only_after_the_deal_and_by_anyone() -> None:
    state = advance(ENGINE.new(4, 2), lambda s: s.phase in OVER)
    assert ENGINE.to_act(state) == {0, 1, 2, 3} and ENGINE.round_over(state)
    assert ENGINE.scores(state).final
    assert code_of(state, 1, play("2C")) == "kierki.round-over"
    after = ENGINE.apply(state, 2, NextRound())
    assert after.round == 2 and after.dealer == (state.dealer + 1) % 4
    assert after.history == (ENGINE.scores(state).points,)
    seat = min(ENGINE.to_act(after))
    assert code_of(after, seat, NextRound()) == "kierki.round-not-over"
    assert code_of(after, seat, Pass()) == "kierki.pass-not-allowed"
    assert code_of(after, seat, NameTrump(Trump.NO_TRUMP)) == "kierki.not-naming-trump"


def test_wrong_seat_and_game_over() -> None:
    state = ENGINE.new(4, 2)
    idle = (state.turn + 1) % 4
    with pytest.raises(NotYourTurn) as err:
        ENGINE.check(state, idle, ENGINE.legal_moves(state, state.turn)[0])
    assert err.value.code == "kierki.not-your-turn"
    final = random_match(4, 1)[-1]
    assert ENGINE.to_act(final) == frozenset() and ENGINE.outcome(final) is not None
    with pytest.raises(GameOver) as err:
        ENGINE.check(final, 0, NextRound())
    assert err.value.code == "kierki.game-over"


def test_setup_is_unsupported() -> None:
    with pytest.raises(InvalidOption) as err:
        ENGINE.new(4, 1, None, setup={"x": 1})
    assert err.value.code == "kierki.setup-unsupported"


def test_scores_mid_deal_are_running() -> None:
    state = advance(ENGINE.new(4, 2), lambda s: len(s.tricks) == 3)
    report = ENGINE.scores(state)
    assert not report.final and report.winners == ()
    assert sum(report.points) == -60 and report.breakdown[0].contract is Deal.NO_TRICKS
    assert report.totals == report.points and report.history == () and report.round == 1


def test_trick_event_names_the_winner() -> None:
    state = trick_position("no-hearts", hands=["KD", "QD", "JD", "2D AH"], trick="5S 9S 4D",
                           dealer=W, winners=[N] * 11)
    after = ENGINE.apply(state, W, play("AH"))
    assert {"type": "trick", "number": 12, "winner": E} in ENGINE.events(state, W, play("AH"), after)


# --------------------------------------------------------------------------- from_json: tampered states


def base_json() -> dict:
    state = advance(ENGINE.new(4, 21), lambda s: len(s.tricks) == 2 and len(s.trick) == 1)
    return ENGINE.to_json(state)


def tampered_code(mutate) -> str:
    data = base_json()
    mutate(data)
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(json.loads(json.dumps(data)))
    return err.value.code


def test_from_json_refuses_a_seat_the_table_lacks_and_names_its_field() -> None:
    """The shape allows seats 0..3; with three players seat 3 is refused wherever it is named."""
    state = advance(ENGINE.new(3, 21), lambda s: len(s.tricks) == 2)
    for where, mutate in (("dealer", lambda d: d.update(dealer=3)),
                          ("tricks.1.winner", lambda d: d["tricks"][1].update(winner=3)),
                          ("tricks.0.leader", lambda d: d["tricks"][0].update(leader=3))):
        data = ENGINE.to_json(state)
        mutate(data)
        with pytest.raises(InvalidState) as err:
            ENGINE.from_json(data)
        assert err.value.code == "kierki.bad-state" and err.value.context["field"] == where, err.value
        check_raise(ENGINE, "kierki.bad-state", err.value)


def test_from_json_rejects_a_lost_card() -> None:
    assert tampered_code(lambda d: d["hands"][0].pop()) == "kierki.card-conservation"


def test_from_json_rejects_a_duplicate_card() -> None:
    def dup(d):
        d["hands"][1][0] = d["hands"][0][0]
    assert tampered_code(dup) == "kierki.card-conservation"


def test_from_json_rejects_a_wrong_turn() -> None:
    def turn(d):
        d["turn"] = (d["turn"] + 1) % 4
    assert tampered_code(turn) == "kierki.bad-turn"


def test_from_json_rejects_a_wrong_trick_winner() -> None:
    def winner(d):
        d["tricks"][0]["winner"] = (d["tricks"][0]["winner"] + 1) % 4
    assert tampered_code(winner) == "kierki.bad-trick"


def test_from_json_rejects_history_rows_that_do_not_add_up() -> None:
    data = ENGINE.to_json(advance(ENGINE.new(4, 21), lambda s: s.round == 2))
    data["history"][0][0] += 20
    with pytest.raises(InvalidState) as err:
        ENGINE.from_json(data)
    assert err.value.code == "kierki.bad-history"


@pytest.mark.parametrize(("mutate", "code"), [
    (lambda d: d.__setitem__("contract", "robber"), "kierki.bad-contract"),
    (lambda d: d.__setitem__("trump", "H"), "kierki.bad-phase"),
    (lambda d: d.__setitem__("trump", "NT"), "kierki.bad-trump"),
    (lambda d: d.__setitem__("phase", "lottery"), "kierki.bad-phase"),
    (lambda d: d.__setitem__("players", 7), "kierki.bad-state"),
    (lambda d: d.pop("hands"), "kierki.bad-state"),
    (lambda d: d.__setitem__("hands", 5), "kierki.bad-state"),
    (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "kierki.bad-state"),
    (lambda d: d["options"].__setitem__("ruleset", "x"), "kierki.bad-state"),
    (lambda d: d.__setitem__("rng", {"v": 1}), "kierki.bad-state"),
])
def test_from_json_rejects_malformed_and_inconsistent_states(mutate, code: str) -> None:
    assert tampered_code(mutate) == code


def test_move_from_json_rejects_malformed_moves() -> None:
    for bad in [{}, {"kind": "play"}, {"kind": "play", "card": "1X"}, {"kind": "play", "card": "JK"},
                {"kind": "name-trump", "suit": "X"}, {"kind": "pass", "extra": 1}, [], {"kind": "fly"}]:
        with pytest.raises(IllegalMove) as err:
            ENGINE.move_from_json(bad)
        assert err.value.code == "kierki.malformed-move"
    assert ENGINE.move_from_json({"kind": "name-trump", "suit": "NT"}) == NameTrump(Trump.NO_TRUMP)


# --------------------------------------------------------------------------- view


def test_view_hides_other_hands_and_the_stock() -> None:
    state = advance(ENGINE.new(4, 3), lambda s: s.phase is Phase.NAME_TRUMP)
    for viewer in (None, 0, 1, 2, 3):
        view = ENGINE.view(state, viewer)
        assert "rng" not in view and view["stock"] is None and view["stock_size"] == 32
        assert view["hand_sizes"] == [5] * 4
        for seat, hand in enumerate(view["hands"]):
            assert hand == (card_strs(state.hands[seat]) if seat == viewer else None)
        text = json.dumps(view)
        assert not any(f'"{c}"' in text for c in card_strs(state.stock))


def test_view_shows_tricks_taken() -> None:
    state = advance(ENGINE.new(4, 3), lambda s: len(s.tricks) == 2)
    view = ENGINE.view(state, None)
    assert view["tricks"] == ENGINE.to_json(state)["tricks"] and view["hands"] == [None] * 4


# --------------------------------------------------------------------------- tally


def test_tally_robber_vector() -> None:
    """KI-V2 as a score sheet: South took only the 13th trick  3H QS KH JD  -> 405."""
    pack = [c for c in full_deck(4) if str(c) not in ("3H", "QS", "KH", "JD")]
    seats = [{"cards": card_strs(pack), "tricks": list(range(1, 13))}, {"cards": [], "tricks": []},
             {"cards": ["3H", "QS", "KH", "JD"], "tricks": [13]}, {"cards": [], "tricks": []}]
    report = ENGINE.score_tally({"contract": "robber", "players": 4, "seats": seats})
    assert report.points[S] == -405 and sum(report.points) == -1300 and report.final
    positive = ENGINE.score_tally({"contract": "robber", "players": 4, "seats": seats,
                                   "options": {"score_sign": "penalties-positive"}})
    assert positive.points[S] == 405


def test_tally_early_ended_deal() -> None:
    """A K♥ deal that stopped after trick 1 (KH in it) scores; one without KH is unfinished."""
    seats = [{"cards": ["KH", "2C", "3C", "4C"], "tricks": [1]}] + [{"cards": [], "tricks": []}] * 3
    assert ENGINE.score_tally({"contract": "no-king-of-hearts", "players": 4, "seats": seats}).points == (-150, 0, 0, 0)
    seats[0] = {"cards": ["AH", "2C", "3C", "4C"], "tricks": [1]}
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally({"contract": "no-king-of-hearts", "players": 4, "seats": seats})
    assert err.value.code == "kierki.deal-unfinished"


TALLY_CASES = [
    ({"contract": "no-hearts"}, "kierki.bad-tally"),
    ({"contract": "nope", "players": 4}, "kierki.bad-tally"),
    ({"contract": "loteryjka", "players": 4, "finish_order": [1, 1]}, "kierki.bad-tally"),
    ({"contract": "no-hearts", "players": 4, "options": {"ruleset": "x"}, "seats": []}, "kierki.bad-tally"),
    ({"contract": "no-hearts", "players": 4, "seats": [{"cards": ["2C"], "tricks": [1]}] * 4}, "kierki.cards-per-trick"),
    ({"contract": "no-hearts", "players": 4,
      "seats": [{"cards": ["2C", "3C", "4C", "5C"], "tricks": [1]}] * 4}, "kierki.card-conservation"),
    ({"contract": "no-hearts", "players": 3,
      "seats": [{"cards": ["2C", "3C", "4C"], "tricks": [1]}] + [{"cards": [], "tricks": []}] * 2},
     "kierki.card-conservation"),
    ({"contract": "no-hearts", "players": 4,
      "seats": [{"cards": ["2C", "3C", "4C", "5C"], "tricks": [2]}] + [{"cards": [], "tricks": []}] * 3},
     "kierki.trick-numbers"),
]


@pytest.mark.parametrize(("tally", "code"), TALLY_CASES)
def test_tally_rejects_impossible_sheets(tally: dict, code: str) -> None:
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally(tally)
    assert err.value.code == code
    assert "KeyError" not in err.value.message and "None" not in err.value.message


@pytest.mark.parametrize(("tally", "field"), [
    ({"contract": "no-hearts", "players": 4}, "seats"),                                  # seats required
    ({"contract": "loteryjka", "players": 4}, "finish_order"),                           # finish_order required
    ({"contract": "loteryjka", "players": 4, "finish_order": [0, 1], "seats": []}, "seats"),
    ({"contract": "no-hearts", "players": 4, "finish_order": [0, 1],
      "seats": [{"cards": [], "tricks": []}] * 4}, "finish_order"),
    ({"players": 4, "seats": []}, "contract"),
    ({"contract": "no-hearts", "seats": []}, "players"),
])
def test_tally_schema_states_what_the_engine_needs(tally: dict, field: str) -> None:
    """Issues 9 and 19: the contract's tally (one closed shape per kind of deal) refuses exactly the
    tallies the engine refuses for their shape (``seats`` for trick contracts, ``finish_order`` for
    the loteryjka, never both), and the engine names the field."""
    assert not tally_schema().is_valid(tally)
    with pytest.raises(InvalidState) as err:
        ENGINE.score_tally(tally)
    assert err.value.code == "kierki.bad-tally" and "KeyError" not in err.value.message
    assert err.value.context["field"].startswith(f"tally.{field}") or err.value.context["field"] == "tally"


def test_tally_full_deal_matches_play() -> None:
    """The tally of a played deal gives the engine's own figures."""
    state = advance(ENGINE.new(4, 14), lambda s: s.phase in OVER and s.round == 4)
    seats = [{"cards": [], "tricks": []} for _ in range(4)]
    for k, t in enumerate(state.tricks, 1):
        seats[t.winner]["cards"] += card_strs(t.cards)
        seats[t.winner]["tricks"].append(k)
    tally = {"contract": "no-kings-jacks", "players": 4, "seats": seats}
    assert tally_schema().is_valid(tally)
    assert ENGINE.score_tally(tally).points == ENGINE.scores(state).points


# --------------------------------------------------------------------------- views


def test_a_view_hides_the_other_hands_and_the_stock() -> None:
    """DESIGN 4.5: a seat sees its own hand (others null, with hand_sizes) and the undealt stock
    as null with stock_size; never the rng."""
    state = advance(ENGINE.new(4, 3, {"trump_chooser": "dealer-after-5"}), lambda s: s.phase is Phase.NAME_TRUMP)
    view = ENGINE.view(state, state.dealer)
    assert view["stock"] is None and view["stock_size"] == len(state.stock) == 32
    assert view["hand_sizes"] == [5] * 4 and "rng" not in view
    assert [h is None for h in view["hands"]] == [s != state.dealer for s in range(4)]


# --------------------------------------------------------------------------- data positions


@pytest.mark.parametrize("case", POSITIONS["tricks"], ids=[c["name"] for c in POSITIONS["tricks"]])
def test_trick_positions_from_data(case: dict) -> None:
    """tests/rules/data/kierki/positions.json: trick positions and their legal moves."""
    state = trick_position(case["contract"], hands=case["hands"], dealer=case["dealer"], winners=case["winners"],
                           trick=case["trick"], options=case.get("options"), players=case.get("players", 4),
                           trump=case.get("trump"))
    assert state.turn == case["seat"]
    assert legal(state, case["seat"]) == set(case["legal"])
    for seat in set(range(state.players)) - {case["seat"]}:
        assert ENGINE.legal_moves(state, seat) == []


@pytest.mark.parametrize("case", POSITIONS["lottery"], ids=[c["name"] for c in POSITIONS["lottery"]])
def test_lottery_positions_from_data(case: dict) -> None:
    """tests/rules/data/kierki/positions.json: loteryjka positions and their legal moves."""
    state = lottery_position(hands={int(k): v for k, v in case["hands"].items()},
                             rows={k: tuple(v) for k, v in case["rows"].items()}, turn=case["turn"])
    assert legal(state, case["seat"]) == set(case["legal"])


# --------------------------------------------------------------------------- review: values, leads, loteryjka


def first_trick_tally(deal: str, taken: str, players: int = 4, options=None) -> dict:
    """A full-deal sheet: North took trick 1 (the cards ``taken``), East every other trick."""
    mine = card_strs(cards(taken))
    rest = [c for c in card_strs(full_deck(players)) if c not in mine]
    seats = [{"cards": mine, "tricks": [1]}, {"cards": rest, "tricks": list(range(2, 52 // players + 1))}]
    seats += [{"cards": [], "tricks": []} for _ in range(players - 2)]
    out = {"contract": deal, "players": players, "seats": seats}
    if options:
        out["options"] = options
    return out


@pytest.mark.parametrize(("deal", "items"), [
    ("no-tricks", {"tricks": -20}),
    ("no-hearts", {"hearts": -40}),            # 3H KH
    ("no-queens", {"queens": -60}),            # QS
    ("no-kings-jacks", {"kings_jacks": -60}),  # KH JD; QS and 3H cost nothing
    ("no-king-of-hearts", {"king_of_hearts": -150}),
    ("robber", {"tricks": -20, "hearts": -40, "queens": -60, "kings_jacks": -60, "king_of_hearts": -150,
                "trick_7": 0, "trick_13": 0}),
])
def test_penalty_values_per_card_in_each_negative_deal(deal: str, items: dict) -> None:
    """§4 penalty table (4 players): North's one trick  3H QS KH JD  costs 20 a trick, 20 a heart,
    60 a queen, 30 a K or J (not a Q), 150 for KH; the 7th and 13th tricks went to East."""
    report = ENGINE.score_tally(first_trick_tally(deal, "3H QS KH JD"))
    assert items_of(report.breakdown[N]) == items
    assert report.points[N] == sum(items.values())
    assert sum(report.points) == deal_total(Deal(deal), resolved(None), 4)


@pytest.mark.parametrize(("deal", "north", "total"), [
    ("no-tricks", {"tricks": -15}, -255),
    ("no-hearts", {"hearts": -20}, -260),
    ("no-queens", {"queens": -60}, -240),
    ("no-kings-jacks", {"kings_jacks": -30}, -240),
    ("no-king-of-hearts", {"king_of_hearts": 0}, -140),
    ("no-seventh-and-last", {"trick_7": 0, "trick_17": 0}, -140),
])
def test_three_player_penalty_values(deal: str, north: dict, total: int) -> None:
    """§4 (3 players, 17 tricks): North's trick 1  3H QS JD  costs 15 a trick, 20 a heart, 60 a queen,
    30 a K/J; East's tricks carry 140 for KH and 70 + 70 for the 7th and 17th tricks."""
    report = ENGINE.score_tally(first_trick_tally(deal, "3H QS JD", players=3))
    assert items_of(report.breakdown[N]) == north
    assert sum(report.points) == total
    if deal == "no-seventh-and-last":
        assert items_of(report.breakdown[E]) == {"trick_7": -70, "trick_17": -70}


def test_three_player_loteryjka_prizes() -> None:
    """§5: one loteryjka with 3 players: +790 and +485 (1275); one per player: +250 and +175."""
    one = ENGINE.score_tally({"contract": "loteryjka", "players": 3, "finish_order": [1, 2]})
    assert one.points == (0, 790, 485)
    each = ENGINE.score_tally({"contract": "loteryjka", "players": 3, "finish_order": [2, 0],
                               "options": {"lottery": "one-per-player"}})
    assert each.points == (175, 0, 250)
    assert deal_list(resolved({"lottery": "one-per-player"}), 3)[-3:] == (Deal.LOTERYJKA,) * 3


def test_hearts_may_be_led_in_a_trump_deal() -> None:
    """§3.3: the hearts lead restriction belongs to deals 2, 5 and 7 only; in a trump deal (♠ trumps)
    South may lead from  AH 5H 3C  anything."""
    state = trick_position("trumps", hands=["2S 3S QS", "5S 6S KH", "AH 5H 3C", "8S 9S QH"],
                           dealer=E, winners=[S] * 10, trump="S")
    assert state.turn == S
    assert legal(state, S) == {"3C", "5H", "AH"}


def test_lottery_ace_lies_next_to_the_king() -> None:
    """§5 loteryjka, A high: rows  S 8-K  H 7-8 ; West holds  AS 6H 2H QD  -> AS (above K) or 6H;
    QD fits no row (no 8D laid) and 2H is not next to 7H."""
    state = lottery_position(hands={W: "AS 6H 2H QD"}, rows={"S": (8, 13), "H": (7, 8)}, turn=W)
    assert legal(state, W) == {"AS", "6H"}
    after = ENGINE.apply(state, W, play("AS"))
    assert {"suit": "S", "low": 8, "high": 14} in ENGINE.to_json(after)["rows"]
    assert after.turn == N


# --------------------------------------------------------------------------- the code catalogue (DESIGN 4.4)


def _raised() -> dict[str, list]:
    """Every rules error a battery of real situations raises, by code: illegal moves of every kind
    in positions of every phase, malformed moves, the impossible states of the mutation suite, bad
    tallies and setups, a move after the end, a seat the table lacks."""
    from service.games import BINDINGS
    from tests.rules import test_kierki_mutations as mutations
    from tests.rules.catalogue import Raised

    found = Raised()
    catch = found.catch

    everything = list(deck())
    for players, options in ((4, {}), (3, {"king_of_hearts_must_drop": True})):
        rnd = random.Random(players)
        s = ENGINE.new(players, players, options)
        seen: set[tuple[str, int]] = set()
        while ENGINE.to_act(s):
            key = (s.phase.value, s.round, len(s.trick) > 0)
            if key not in seen:
                seen.add(key)
                candidates = [NextRound(), Pass(), NameTrump(Trump.NO_TRUMP), *(NameTrump(x) for x in Trump if x is not Trump.NO_TRUMP),
                              *(PlayCard(c) for c in everything)]
                for seat in range(players):
                    for move in candidates:
                        catch(lambda s=s, seat=seat, move=move: ENGINE.apply(s, seat, move))
            seat = min(ENGINE.to_act(s))
            s = ENGINE.apply(s, seat, rnd.choice(list(ENGINE.legal_moves(s, seat))))
        catch(lambda s=s: ENGINE.apply(s, 0, NextRound()))  # after the last deal
    for data in ({"kind": "bid"}, {"kind": "play", "card": "1X"}, []):
        catch(lambda data=data: ENGINE.move_from_json(data))
    for case in mutations.SUITE.cases:
        if case.kind in mutations.REFUSED:
            catch(lambda data=case.data: ENGINE.from_json(data))
    for tally, _code in TALLY_CASES:
        catch(lambda tally=tally: ENGINE.score_tally(tally))
    catch(lambda: ENGINE.score_tally({"contract": "no-king-of-hearts", "players": 4, "seats": [
        {"cards": ["AH", "2C", "3C", "4C"], "tricks": [1]}] + [{"cards": [], "tricks": []}] * 3}))
    catch(lambda: ENGINE.new(4, 1, None, setup={"hands": []}))
    catch(lambda: BINDINGS["kierki"].view(ENGINE.new(4, 1), 6))
    for trigger in EXTRA_TRIGGERS.values():
        catch(trigger)
    return found


def _state_with(change):
    def build():
        data = ENGINE.to_json(advance(ENGINE.new(4, 3), lambda s: len(s.tricks) == 2))
        change(data)
        ENGINE.from_json(data)
    return build


def _lottery_with(change):
    def build():
        data = ENGINE.to_json(lottery_position(hands={N: "7S 9S 2C 3C"}, rows={"S": (8, 8)}, turn=N))
        change(data)
        ENGINE.from_json(data)
    return build


EXTRA_TRIGGERS = {
    "kierki.lead-forbidden": lambda: ENGINE.apply(trick_position(
        "no-hearts", hands=["2D 3D 4D", "5D 6D 7D", "AH 5H 3C", "8D 9D 10D"], dealer=W, winners=[S] * 10), S,
        play("AH")),
    "kierki.must-drop-king-of-hearts": lambda: ENGINE.apply(trick_position(
        "no-king-of-hearts", hands=["KD", "KH 2S", "JD 2D", "QD 3D"], trick="5C", dealer=W, winners=[N] * 11,
        options={"king_of_hearts_must_drop": True}), E, play("2S")),
    "kierki.must-play": lambda: ENGINE.apply(lottery_position(hands={S: "7S 9S 2C 3C"}, rows={"S": (8, 8)},
                                                              turn=S), S, Pass()),
    "kierki.does-not-fit": lambda: ENGINE.apply(lottery_position(hands={S: "7S 9S 2C 3C"}, rows={"S": (8, 8)},
                                                                 turn=S), S, play("2C")),
    "kierki.no-trump-not-allowed": lambda: (lambda s: ENGINE.apply(s, s.turn, NameTrump(Trump.NO_TRUMP)))(
        advance(ENGINE.new(4, 3), lambda s: s.phase is Phase.NAME_TRUMP)),
    "kierki.seat-count": _state_with(lambda d: d["hands"].pop()),
    "kierki.bad-state": _state_with(lambda d: d["options"].__setitem__("lottery", "two")),
    "kierki.bad-trump": _state_with(lambda d: d.__setitem__("trump", "NT")),
    "kierki.bad-row": _lottery_with(lambda d: d["rows"].append(dict(d["rows"][0]))),
    "kierki.bad-finished": _lottery_with(lambda d: d.__setitem__("finished", [1])),
}
RAISED = _raised()


def test_every_code_raised_is_catalogued_and_every_catalogued_code_is_raised() -> None:
    """DESIGN 4.4: the codes are declared once (``kierki.C``, typed, so nothing raises a code it
    did not declare), and the battery raises every one of them."""
    assert set(RAISED) == set(ENGINE.codes), (set(ENGINE.codes) - set(RAISED), set(RAISED) - set(ENGINE.codes))


def test_every_polish_detail_formats_with_the_context_of_its_raises() -> None:
    for code, raised in RAISED.items():
        for exc in raised:
            check_raise(ENGINE, code, exc)


@pytest.mark.parametrize("code", sorted(EXTRA_TRIGGERS))
def test_each_extra_trigger_raises_its_code(code: str) -> None:
    from rules.base import RulesError

    with pytest.raises(RulesError) as err:
        EXTRA_TRIGGERS[code]()
    assert err.value.code == code


# --------------------------------------------------------------------------- the checks of the trick in play


@pytest.mark.parametrize(("seed", "drop"), [(3, False), (4, True), (5, True)])
def test_from_json_judges_the_last_play_of_the_trick_as_the_rules_do(seed: int, drop: bool) -> None:
    """Swapping the trick's last card for any card of that seat's hand gives a state that
    ``from_json`` accepts exactly when ``_allowed`` (the one source of trick legality, KI-4's
    king drop included) lets the seat play that card there; else ``kierki.bad-trick``."""
    options = {"king_of_hearts_must_drop": drop}
    checked = 0
    for state in random_match(4, seed, options)[::3]:
        if state.phase is not Phase.PLAY or not state.trick:
            continue
        seat = (state.leader + len(state.trick) - 1) % 4
        played = state.trick[-1]
        before = (*state.hands[seat], played)
        plays = [Play((state.leader + i) % 4, c) for i, c in enumerate(state.trick[:-1])]
        allowed = _allowed(state, before, plays)
        for card in state.hands[seat]:
            data = ENGINE.to_json(state)
            data["trick"][-1] = str(card)
            data["hands"][seat] = [str(c) for c in before if c != card]
            if card in allowed:
                ENGINE.from_json(data)
            else:
                with pytest.raises(InvalidState) as err:
                    ENGINE.from_json(data)
                assert err.value.code == "kierki.bad-trick"
            checked += 1
    assert checked > 50


def test_loteryjka_rows_written_out_of_suit_order_are_read_in_suit_order() -> None:
    """The state's rows are kept in suit order (C, D, H, S) whatever order a client writes them in;
    a state already in order is read as it is."""
    state = lottery_position(hands={S: "7S 9S 2C 3C"}, rows={"S": (8, 8), "H": (7, 9), "C": (6, 8)}, turn=S)
    assert [r.suit.value for r in state.rows] == ["C", "H", "S"]
    data = ENGINE.to_json(state)
    shuffled = {**data, "rows": list(reversed(data["rows"]))}
    assert [r.suit.value for r in ENGINE.from_json(shuffled).rows] == ["C", "H", "S"]
    assert ENGINE.from_json(data) == state and ENGINE.to_json(ENGINE.from_json(shuffled)) == data
