"""Kanasta (Polish Canasta): the rules of docs/rules/canasta.md, section by section ("§N" below
is a section of that page), with the rulebook's test vectors ("Vector 1.13-n") and the rulings
K-1..K-11.

Positions are built from JSON: the cards named in a test are placed, every other card of
the 108 goes to the stock (``stock_top`` names the next cards drawn, last = top).
Seats 0 and 2 are side A (side 0), seats 1 and 3 side B (side 1).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

import rules.canasta
from rules.base import IllegalMove, InvalidState, NotYourTurn, RulesError
from rules.canasta import ENGINE as E
from rules.canasta._melds import Group, Meld
from rules.canasta._model import (
    FULL_DECK,
    Answer,
    AskPartner,
    DeclineDouble,
    Discard,
    DoubleGoOut,
    Draw,
    EndRound,
    MeldMove,
    NextRound,
    Phase,
    TakeDiscard,
    TakeTop,
    check_state,
)
from rules.cards import parse_card
from rules.shapes import decode
from service.games import BINDINGS
from tests.rules.catalogue import check_raise, raise_of

C = parse_card


def cards(text: str) -> tuple:
    return tuple(C(t) for t in text.split())


def group(rank: str, text: str, new: bool | None = None) -> Group:
    from rules.canasta._melds import NAME_RANKS

    return Group(NAME_RANKS[rank], cards(text), new)


def build(
    hands,
    *,
    players=4,
    turn=0,
    phase="play",
    melds=None,
    reds=None,
    discard="7C",
    discard_closed=False,
    totals=None,
    stock_top="",
    stock=None,
    laid=None,
    drew=None,
    asked=None,
    meld_moves=0,
    options=None,
    pending=None,
):
    """A position: hands (one string per seat), melds per side ({rank: "cards"}), pile (top last)."""
    base = E.to_json(E.new(players, 1, options or {}))
    nsides = 2 if players == 4 else players
    melds = melds or [{} for _ in range(nsides)]
    reds = reds or ["" for _ in range(nsides)]
    totals = totals or [0] * nsides
    used = Counter()
    for h in hands:
        used.update(cards(h))
    for m in melds:
        for text in m.values():
            used.update(cards(text))
    for r in reds:
        used.update(cards(r))
    used.update(cards(discard))
    top = cards(stock_top)
    used.update(top)
    if stock is None:
        rest = FULL_DECK - used
        assert not (used - FULL_DECK), f"test position uses too many cards: {used - FULL_DECK}"
        stock_cards = sorted(rest.elements()) + list(top)
    else:
        stock_cards = list(cards(stock))
    if drew is None:
        drew = None if phase == "draw" else "stock"
    data = dict(base)
    data.update(
        hands=[list(h.split()) for h in hands],
        sides=[
            {"melds": [{"rank": r, "cards": t.split()} for r, t in m.items()], "red_threes": red.split(), "total": tot}
            for m, red, tot in zip(melds, reds, totals, strict=True)
        ],
        discard=discard.split(),
        discard_closed=discard_closed,
        stock=[str(c) for c in stock_cards],
        turn=turn,
        dealer=(turn - 1) % players,
        phase=phase,
        laid=laid or [False] * players,
        red_threes_pending=pending or [False] * players,
        drew=drew,
        asked=asked,
        meld_moves=meld_moves,
        concealed_melds=None,
        buying=False,
        out_seat=None,
        double_out=False,
        concealed_out=False,
        ending=None,
    )
    return parse(data)


def parse(data):
    """A drawn position, parsed and checked for conservation and shape but not for reachability:
    scenario positions keep only the cards that matter (the reachability checks of ``from_json``
    are tested in test_canasta_mutations.py)."""
    return check_state(decode(rules.canasta.State, data), reachable=False)


def code_of(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as err:
        E.check(state, seat, move)
    return err.value.code


FILL = "4C 4D 5H 6S 7D 8H 9S 10C JD QH KS"  # eleven unrelated cards


# --------------------------------------------------------------------------- the pile (§7)


def test_own_canasta_of_the_top_rank_blocks_the_pile():
    """Vector 1.13-1 (seed), K-3 default "own-side".

        pile top: QD          side A table: Q Q Q Q Q JK 2C (canasta)    side B: opened (8 8 8)
        seat 0 (A) holds Q Q  -> take-discard refused
        seat 1 (B) holds Q Q  -> take-discard legal
    """
    melds = [{"Q": "QC QD QS QC QH JK 2C"}, {"8": "8C 8D 8S"}]
    s0 = build(["QH QS KD 5C", "KC 9D", "4D 4H", "5D 5S"], turn=0, phase="draw", melds=melds, discard="9C QD")
    assert code_of(s0, 0, TakeDiscard(cards("QH QS"))) == "canasta.discard-blocked-canasta"
    assert not any(isinstance(m, TakeDiscard) for m in E.legal_moves(s0, 0))
    s1 = build(["KD 5C", "QH QS KC 9D", "4D 4H", "5D 5S"], turn=1, phase="draw", melds=melds, discard="9C QD")
    after = E.apply(s1, 1, TakeDiscard(cards("QH QS")))
    assert dict(after.melds[1])[12] == cards("QD QH QS")
    assert TakeDiscard(cards("QH QS")) in E.legal_moves(s1, 1)


def test_canasta_blocks_everyone_under_option():
    """K-3 option "everyone": side A's canasta of queens blocks side B too."""
    melds = [{"Q": "QC QD QS QC QH JK 2C"}, {"8": "8C 8D 8S"}]
    s1 = build(["KD 5C", "QH QS KC 9D", "4D 4H", "5D 5S"], turn=1, phase="draw", melds=melds, discard="9C QD",
               options={"canasta_blocks_discard": "everyone"})
    assert code_of(s1, 1, TakeDiscard(cards("QH QS"))) == "canasta.discard-blocked-canasta"


def test_black_three_on_top_blocks_the_pile_until_covered():
    """Vector 1.13-2 (seed).

        pile: ... 9C 3S (top)    seat 1 holds 3C 3S 9D 9H
        -> nobody may take it (not even with two black threes)
        seat 1 draws and discards 9S over it -> seat 2 with 9 9 takes it
    """
    melds = [{"8": "8C 8D 8S"}, {"K": "KC KD KS"}]
    s = build(["4D 5D", "3C 3S 9D 9H 6H", "9C 9C 4H", "5S 6S"], turn=1, phase="draw", melds=melds, discard="7C 3S",
              stock_top="JD")
    assert code_of(s, 1, TakeDiscard(cards("3C 3S"))) == "canasta.discard-blocked-black-three"
    assert not any(isinstance(m, TakeDiscard) for m in E.legal_moves(s, 1))
    s = E.apply(s, 1, Draw())
    s = E.apply(s, 1, Discard(C("9H")))
    assert s.turn == 2 and s.discard[-1] == C("9H")
    assert TakeDiscard(cards("9C 9C")) in E.legal_moves(s, 2)


def test_wild_discard_closes_the_pile_for_everyone():
    """Vector 1.13-3 (seed).

        seat 0 discards 2C onto an open pile; seat 1 covers it with 9H
        pile: 7C 2C 9H (closed: a wild lies crosswise)
        seat 2 (side opened) holds 9D JK -> refused; 9D 9S -> legal; JK 2D -> never
    """
    melds = [{"8": "8C 8D 8S"}, {"K": "KC KD KS"}]
    s = build(["2C 5D 6D", "9H 4H 4S", "9D 9S JK 2D 5S", "5C 6C"], turn=0, phase="play", melds=melds, discard="7C",
              stock_top="10H 10S")
    s = E.apply(s, 0, Discard(C("2C")))
    assert s.discard_closed
    s = E.apply(s, 1, Draw())
    s = E.apply(s, 1, Discard(C("9H")))
    assert s.turn == 2 and s.discard_closed and s.discard[-2:] == cards("2C 9H")
    assert code_of(s, 2, TakeDiscard(cards("9D JK"))) == "canasta.discard-closed"
    assert code_of(s, 2, TakeDiscard(cards("JK 2D"))) == "canasta.discard-closed"
    after = E.apply(s, 2, TakeDiscard(cards("9D 9S")))
    assert not after.discard_closed and after.discard == ()
    assert C("2C") in after.hands[2]  # the wild came to the hand with the pile


def test_natural_and_wild_take_an_open_pile():
    """Vector 1.13-4 (seed).

        side A opened (8 8 8); top 9C; seat 0 holds 9D 2H -> 9 9 2 laid at once, rest to the hand
    """
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["9D 2H KC KD", "4H 4S", "5C 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC QC 9C")
    after = E.apply(s, 0, TakeDiscard(cards("9D 2H")))
    assert dict(after.melds[0])[9] == cards("9C 9D 2H")
    assert sorted(after.hands[0]) == sorted(cards("KC KD JC QC"))
    assert after.phase is Phase.PLAY and after.drew == "discard"


def test_top_card_laid_off_on_own_meld_takes_the_pile():
    """Vector 1.13-5 (seed): side A has 9 9 9; top 9; seat 0 holds no 9 -> takes by laying it off."""
    melds = [{"9": "9C 9D 9S"}, {}]
    s = build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC 9H")
    assert TakeDiscard(()) in E.legal_moves(s, 0)
    after = E.apply(s, 0, TakeDiscard(()))
    assert dict(after.melds[0])[9] == cards("9C 9D 9S 9H")
    assert C("JC") in after.hands[0]


def test_unopened_side_needs_two_naturals_and_the_minimum_with_the_top_card():
    """§7, §6: the first pile is closed; the top card counts toward the minimum, the rest does not.

        side A total 0 (minimum 50); top KH; seat 0: K K A A 2 ...
        K K + KH = 30 -> below; with A A 2 (60) in the same move -> 90, legal
    """
    s = build(["KC KD AC AD 2S 5C 6C", "4H 4S", "5S 5D", "6D 6H"], turn=0, phase="draw", discard="JC KH")
    assert code_of(s, 0, TakeDiscard(cards("KC KD"))) == "canasta.below-minimum"
    assert code_of(s, 0, TakeDiscard(cards("KC 2S"))) == "canasta.discard-closed"
    move = TakeDiscard(cards("KC KD"), (group("A", "AC AD 2S"),))
    after = E.apply(s, 0, move)
    assert dict(after.melds[0]) == {13: cards("KH KC KD"), 14: cards("AC AD 2S")}
    assert any(isinstance(m, TakeDiscard) and m.melds for m in E.legal_moves(s, 0))


def test_one_card_rule():
    """K-4 default: a player holding one card may not take a pile of one card; larger piles are fine."""
    melds = [{"9": "9C 9D 9S"}, {}]
    s = build(["KC", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="9H")
    assert code_of(s, 0, TakeDiscard(())) == "canasta.one-card-rule"
    s2 = build(["KC", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC 9H")
    assert E.is_legal(s2, 0, TakeDiscard(()))
    s3 = build(["KC", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC 9H",
               options={"one_card_rule": "any-discard"})
    assert code_of(s3, 0, TakeDiscard(())) == "canasta.one-card-rule"


def test_take_top_card_to_go_out():
    """§5 exceptional privilege: only the top card, melded, and the hand goes out with no discard.

        side A: canasta of K; top 9H over JC; seat 0 holds 9C 9D 5C 5D 5S
        -> take-top-to-go-out with 9 9 9 and 5 5 5: the JC stays in the pile
    """
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 5C 5D 5S", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC 9H")
    move = TakeTop(cards("9C 9D"), (group("5", "5C 5D 5S"),))
    after = E.apply(s, 0, move)
    assert after.phase is Phase.ROUND_OVER and after.ending == "out" and after.out_seat == 0
    assert after.discard == cards("JC")
    assert any(isinstance(m, TakeTop) for m in E.legal_moves(s, 0))
    assert code_of(s, 0, TakeTop(cards("9C 9D"))) == "canasta.must-meld-all"


# --------------------------------------------------------------------------- red threes


def test_red_three_dealt_is_laid_and_replaced_and_pile_red_three_is_not():
    """Vector 1.13-6 (seed), K-9 "first-turn".

        seat 0 dealt 3H: at the start of his turn it goes to side A's table and he draws a replacement.
        A pile holding 3D is taken: 3D goes to the table, no replacement.
    """
    s = build(["3H KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=3, phase="play", discard="JC", stock_top="QS 10S",
              pending=[True, False, False, False])
    s = E.apply(s, 3, Discard(C("6C")))
    assert s.turn == 0 and s.phase is Phase.DRAW
    assert s.red_threes[0] == cards("3H")
    assert sorted(s.hands[0]) == sorted(cards("KC KD 5C 10S"))
    melds = [{"9": "9C 9D 9S"}, {}]
    s = build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="3D JC 9H")
    stock_before = len(s.stock)
    after = E.apply(s, 0, TakeDiscard(()))
    assert after.red_threes[0] == cards("3D") and len(after.stock) == stock_before
    assert C("3D") not in after.hands[0]


def test_red_three_drawn_is_replaced_unless_dealt_only():
    """§5 and K-2: a red three drawn from the stock is laid down and replaced ("dealt-only": not replaced)."""
    s = build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", stock_top="QS 3H")
    after = E.apply(s, 0, Draw())
    assert after.red_threes[0] == cards("3H") and C("QS") in after.hands[0] and len(after.hands[0]) == 4
    s = build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", stock_top="QS 3H",
              options={"red_three_replacement": "dealt-only"})
    after = E.apply(s, 0, Draw())
    assert after.red_threes[0] == cards("3H") and len(after.hands[0]) == 3


def test_red_threes_laid_at_the_deal_under_option():
    """K-9 option "deal": nobody holds a red three after the deal."""
    for seed in range(6):
        s = E.new(4, seed, {"red_threes_laid": "deal"})
        assert not any(c.rank == 3 and c.suit.is_red for h in s.hands for c in h)
        assert not any(s.pending)


# --------------------------------------------------------------------------- melds, opening


def test_opening_minimum_depends_on_the_side_score():
    """Vector 1.13-10 (constructed).

        total 1600 -> minimum 90: K K K (30) + A A 2 (60) = 90 legal; 6 6 6 (15) + K K K 2 (50) = 65 refused
        total -40  -> minimum 15: 6 6 6 alone legal
    """
    hand = "KC KD KS AC AD 2H 6C 6D 6S 2S 9C 9D"
    s = build([hand, "4H 4S", "5S 5D", "6H 7H"], totals=[1600, 0])
    assert E.is_legal(s, 0, MeldMove((group("K", "KC KD KS"), group("A", "AC AD 2H"))))
    assert code_of(s, 0, MeldMove((group("6", "6C 6D 6S"), group("K", "KC KD KS 2S")))) == "canasta.below-minimum"
    s = build([hand, "4H 4S", "5S 5D", "6H 7H"], totals=[-40, 0])
    assert E.is_legal(s, 0, MeldMove((group("6", "6C 6D 6S"),)))


@pytest.mark.parametrize(
    ("table", "total", "minimum"),
    [("5000", -5, 15), ("5000", 0, 50), ("5000", 1495, 50), ("5000", 1500, 90), ("5000", 3000, 120),
     ("10000", 995, 30), ("10000", 1000, 60), ("10000", 5000, 150), ("10000", 7000, 180), ("7500", 4995, 120)],
)
def test_opening_minimum_tables(table, total, minimum):
    """§6 and the long-game tables (option opening_table)."""
    from rules.canasta._scoring import opening_minimum

    assert opening_minimum(total, table) == minimum


def test_7500_game_opening_needs_a_whole_canasta_at_5000():
    """§6, opening_table "7500": at 5000 and more the opening melds a whole canasta at once."""
    hand = "KC KD KS KH KC KD KS AC AD AS 9C 9D"
    s = build([hand, "4H 4S", "5S 5D", "6H 7H"], totals=[5000, 0], options={"opening_table": "7500"})
    assert code_of(s, 0, MeldMove((group("A", "AC AD AS"), group("K", "KC KD KS")))) == "canasta.below-minimum"
    assert E.is_legal(s, 0, MeldMove((group("K", "KC KD KS KH KC KD KS"),)))


def test_meld_rules_are_judged_exactly():
    """§8, K-5, K-6: rank, naturals, wild limits, one group per rank, threes."""
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["KC KD 2H 2S JK 2C 9C 9D 9S 9H 3C 3S 3C 5C", "4H 4S", "5S 5D", "6H 7H"], melds=melds)
    assert code_of(s, 0, MeldMove((group("K", "KC 2H 2S"),))) == "canasta.too-few-naturals"
    assert code_of(s, 0, MeldMove((group("K", "KC KD"),))) == "canasta.too-few-cards"
    assert code_of(s, 0, MeldMove((group("K", "KC KD 9C"),))) == "canasta.not-of-rank"
    assert code_of(s, 0, MeldMove((group("9", "9C 9D 9S 9H 2H 2S JK 2C"),))) == "canasta.too-many-wilds"
    assert code_of(s, 0, MeldMove((group("K", "KC KD 2H 2S JK"),))) == "canasta.too-many-wilds"
    assert code_of(s, 0, MeldMove((group("K", "KC KD 2H"), group("K", "2S")))) == "canasta.duplicate-rank"
    assert code_of(s, 0, MeldMove((group("3", "3C 3S 3C"),))) == "canasta.black-threes-only-going-out"
    assert code_of(s, 0, MeldMove((group("8", "2H 2S JK 2C"),))) == "canasta.too-many-wilds"
    assert code_of(s, 0, MeldMove((group("Q", "QC QD QS"),))) == "canasta.card-not-in-hand"
    assert E.is_legal(s, 0, MeldMove((group("8", "2H"), group("9", "9C 9D 9S 9H 2S JK 2C"))))


def test_four_wilds_allowed_without_the_cap():
    """K-5 option max_three_wilds=false: 4 naturals may carry 4 wilds."""
    s = build(["9C 9D 9S 9H 2H 2S JK 2C 5C 6C", "4H 4S", "5S 5D", "6H 7H"], melds=[{"8": "8C 8D 8S"}, {}],
              options={"max_three_wilds": False})
    assert E.is_legal(s, 0, MeldMove((group("9", "9C 9D 9S 9H 2H 2S JK 2C"),)))


def test_listed_melds_include_new_melds_and_additions():
    """legal_moves (incomplete by design) lists at least one meld of each kind that is legal."""
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["8H KC KD KS 2H 5C 6C", "4H 4S", "5S 5D", "6H 7H"], melds=melds)
    listed = [m for m in E.legal_moves(s, 0) if isinstance(m, MeldMove)]
    ranks_new = {g[0] for m in listed for g in m.melds if g[0] not in (8,)}
    assert 13 in ranks_new and any(g[0] == 8 for m in listed for g in m.melds)
    assert all(E.is_legal(s, 0, m) for m in listed)
    discards = {m.card for m in E.legal_moves(s, 0) if isinstance(m, Discard)}
    assert discards == set(s.hands[0])


# --------------------------------------------------------------------------- going out


def test_partner_answer_no_forbids_going_out():
    """Vector 1.13-7 (seed): asked "may I go out?", the partner says no: going out is illegal this turn."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="play", melds=melds)
    go_out = MeldMove((group("9", "9C 9D 9S"),))
    assert E.is_legal(s, 0, go_out)
    s = E.apply(s, 0, AskPartner())
    assert E.to_act(s) == {2}
    with pytest.raises(NotYourTurn) as err:
        E.check(s, 0, go_out)
    assert err.value.code == "canasta.not-your-turn"
    s = E.apply(s, 2, Answer(False))
    assert code_of(s, 0, go_out) == "canasta.must-keep-card"
    assert code_of(s, 0, MeldMove((group("9", "9C 9D 9S"), ))) == "canasta.must-keep-card"
    assert code_of(s, 0, AskPartner()) == "canasta.already-asked"
    s2 = build(["9C 9D 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", melds=melds, discard="4D 9S",
               asked="no")
    assert code_of(s2, 0, TakeTop(cards("9C 9D"), (group("5", "5C"),))) in ("canasta.too-few-cards",)
    s3 = build(["9C 9D", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", melds=melds, discard="4D 9S", asked="no")
    assert code_of(s3, 0, TakeTop(cards("9C 9D"))) == "canasta.partner-said-no"
    assert E.is_legal(replace(s3, asked=None), 0, TakeTop(cards("9C 9D")))


def test_partner_answer_yes_obliges_going_out():
    """§9.2: once the partner says yes, a discard that does not go out is refused while going out is possible."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="play", melds=melds, asked="yes")
    assert code_of(s, 0, Discard(C("5C"))) == "canasta.must-go-out"
    s = E.apply(s, 0, MeldMove((group("9", "9C 9D 9S"),)))
    s = E.apply(s, 0, Discard(C("5C")))
    assert s.ending == "out" and s.out_seat == 0


def test_going_out_needs_a_canasta():
    """§9.1: no going out while the side has no canasta (two in the 2- and 3-player games)."""
    melds = [{"K": "KC KD KS KH KC KD"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="play", melds=melds)
    assert code_of(s, 0, MeldMove((group("9", "9C 9D 9S"),))) == "canasta.must-keep-card"
    assert code_of(s, 0, MeldMove((group("9", "9C 9D 9S"), group("K", "5C")))) in (
        "canasta.not-of-rank",
    )
    s = build(["9C 9D 9S KH", "4H 4S"], players=2, turn=0, phase="play", melds=[{"K": "KC KD KS KH KC KD"}, {}])
    code = code_of(s, 0, MeldMove((group("9", "9C 9D 9S"), group("K", "KH"))))
    assert code == "canasta.no-canasta"


def stock_of_one_card(hands: list[str], melds: list[dict], **kwargs):
    """Seat 0 to draw the stock's one card, the 5H, over the discard 7C: ``hands`` and ``melds`` as
    given, the four red threes on side A's table, and every other card in seat 2's hand too."""
    used = Counter(cards(" ".join([*hands, *(text for side in melds for text in side.values()), "7C 5H"])))
    filler = [str(c) for c in sorted((FULL_DECK - used).elements()) if str(c) not in ("3H", "3D")]
    return build([hands[0], hands[1], hands[2] + " " + " ".join(filler), hands[3]], turn=0, phase="draw",
                 melds=melds, stock="5H", reds=["3H 3D 3H 3D", ""], **kwargs)


def test_stock_running_out_ends_the_hand_without_going_out_bonuses():
    """Vector 1.13-8 (seed), K-7 default: the hand ends at the discard of the player who drew the last card.

        side A holds a canasta; the stock has one card; seat 0 draws it and discards -> hand over, no +100
    """
    s = stock_of_one_card(["9C 9D", "4H 4S", "AC AD", "6C 6D"], [{"K": "KC KD KS KH KC KD KS"}, {}])
    s = E.apply(s, 0, Draw())
    assert s.stock == ()
    s = E.apply(s, 0, Discard(C("5H")))
    assert s.phase is Phase.ROUND_OVER and s.ending == "stock"
    report = E.scores(s)
    assert report.final and report.breakdown[0].going_out == 0
    assert E.to_act(s) == {0, 1, 2, 3}
    nxt = E.apply(s, 3, NextRound())
    assert nxt.round == 2 and nxt.phase is Phase.DRAW and nxt.totals == s.totals


def last_discard_buyable():
    """K-7 option last_discard_buyable: seat 0 has drawn the stock's last card and discarded the 9C."""
    s = stock_of_one_card(["9C 9D", "4H 4S KH", "AC AD", "6C 6D"], [{}, {"K": "KC KD KS"}],
                          options={"last_discard_buyable": True})
    return E.apply(E.apply(s, 0, Draw()), 0, Discard(C("9C")))


def test_last_discard_pile_may_be_taken_under_option():
    """K-7 option last_discard_buyable: after the last drawer's discard, the next player may take the pile."""
    s = last_discard_buyable()
    assert s.phase is Phase.DRAW and s.turn == 1 and s.buying
    assert EndRound() in E.legal_moves(s, 1) and Draw() not in E.legal_moves(s, 1)
    assert code_of(s, 1, Draw()) == "canasta.stock-empty"
    s2 = E.apply(s, 1, EndRound())
    assert s2.ending == "stock" and s2.phase is Phase.ROUND_OVER


def test_going_out_from_hand_after_stock_draw_ignores_the_minimum():
    """Vector 1.13-13 (seed).

        side A unopened, total 3000 (minimum 120); seat 0 holds K x7, 5 5 5 5, draws 2H
        melds all 12 at once: K x7 (70) + 5 5 5 5 2 (40) = 110 < 120, legal as going out from hand
        -> going out +100, from hand +100
    """
    hand = "KC KD KS KH KC KD KS 5C 5D 5S 5H"
    s = build([hand, "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", totals=[3000, 0], stock_top="2H")
    s = E.apply(s, 0, Draw())
    assert code_of(s, 0, MeldMove((group("K", "KC KD KS KH KC KD KS"),))) == "canasta.below-minimum"
    move = MeldMove((group("K", "KC KD KS KH KC KD KS"), group("5", "5C 5D 5S 5H 2H")))
    listed = [m for m in E.legal_moves(s, 0) if isinstance(m, MeldMove)]
    assert any(sum(len(g[1]) for g in m.melds) == 12 for m in listed), "a going-out meld is listed"
    s = E.apply(s, 0, move)
    assert s.phase is Phase.ROUND_OVER and s.concealed_out
    b = E.scores(s).breakdown[0]
    assert b.going_out == 100 and b.going_out_from_hand == 100
    assert b.points == 70 + 500 + 40 + 200 - 40  # partner holds A A


def test_partner_of_an_opened_side_goes_out_from_hand():
    """Vector 1.13-14 (seed).

        side A opened (8 8 8 laid by seat 0); seat 2 has laid nothing, holds 11, draws a 12th,
        melds all 12 with a new canasta -> from-hand bonus. Had he laid a card before: no bonus.
    """
    melds = [{"8": "8C 8D 8S"}, {}]
    hand = "QC QD QS QH QC QD QS 6C 6D 6S 2C"
    for laid_before, bonus in ((False, 100), (True, 0)):
        s = build(["4C 4D", "4H 4S", hand, "7C 7D"], turn=2, phase="draw", melds=melds, stock_top="6H",
                  laid=[True, False, laid_before, False])
        s = E.apply(s, 2, Draw())
        s = E.apply(s, 2, MeldMove((group("Q", "QC QD QS QH QC QD QS"), group("6", "6C 6D 6S 6H 2C"))))
        assert s.ending == "out" and s.out_seat == 2
        assert E.scores(s).breakdown[2].going_out_from_hand == bonus


def test_double_going_out_is_all_or_nothing():
    """§9.3 double going out: the partner melds all his cards (+100 more) or none."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD AS 8C 8D 8S", "6C 6D"], turn=0, phase="play", melds=melds)
    s = E.apply(s, 0, MeldMove((group("9", "9C 9D 9S"),)))
    s = E.apply(s, 0, Discard(C("5C")))
    assert s.phase is Phase.DOUBLE and E.to_act(s) == {2}
    assert code_of(s, 2, DoubleGoOut((group("A", "AC AD AS"),))) == "canasta.double-not-all"
    assert DeclineDouble() in E.legal_moves(s, 2)
    done = E.apply(s, 2, DoubleGoOut((group("A", "AC AD AS"), group("8", "8C 8D 8S"))))
    b = E.scores(done).breakdown[0]
    assert b.going_out == 100 and b.double_going_out == 100 and b.cards_in_hand == 0
    declined = E.apply(s, 2, DeclineDouble())
    assert E.scores(declined).breakdown[0].double_going_out == 0
    assert E.scores(declined).breakdown[0].cards_in_hand == -(20 * 3 + 30)


def test_black_threes_melded_only_when_going_out():
    """K-1: a set of black threes is melded when going out by melding; 50 each (5 under the option)."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    for value in (50, 5):
        s = build(["3C 3S 3C 9C 9D 9S", "4H 4S", "AC AD", "6C 6D"], melds=melds,
                  options={"black_three_meld_value": value})
        assert code_of(s, 0, MeldMove((group("3", "3C 3S 3C"),))) == "canasta.black-threes-only-going-out"
        s = E.apply(s, 0, MeldMove((group("3", "3C 3S 3C"), group("9", "9C 9D 9S"))))
        b = E.scores(s).breakdown[0]
        assert b.black_threes == 3 * value


# --------------------------------------------------------------------------- scoring


def test_hand_scores_885_and_minus_130():
    """Vector 1.13-11 (constructed), in play and on the score sheet.

        A: K x7 natural canasta (70+500), 8 8 2 (40), two red threes (+200), went out (+100),
           partner left with A 4 (-25) -> 885
        B: 5 5 5 JK (65), one red three, no canasta (-100), hands K Q 7 2 JK (-95) -> -130
    """
    melds = [{"K": "KC KD KS KH KC KD KS", "8": "8C 8D 2S"}, {"5": "5C 5D 5S JK"}]
    s = build(["9C", "KH QH 7H", "AC 4C", "2D JK"], melds=melds, reds=["3H 3D", "3H"])
    s = E.apply(s, 0, Discard(C("9C")))
    report = E.scores(s)
    assert s.phase is Phase.ROUND_OVER
    assert report.points == (885, -130, 885, -130)
    assert report.totals == (885, -130, 885, -130)
    tally = {
        "ended": "out",
        "sides": [
            {"melds": [{"rank": "K", "cards": ["KC", "KD", "KS", "KH", "KC", "KD", "KS"]},
                       {"rank": "8", "cards": ["8C", "8D", "2S"]}],
             "red_threes": 2, "hands": [[], ["AC", "4C"]], "went_out": True},
            {"melds": [{"rank": "5", "cards": ["5C", "5D", "5S", "JK"]}], "red_threes": 1,
             "hands": [["KH", "QH", "7H"], ["2D", "JK"]]},
        ],
    }
    t = E.score_tally(tally)
    assert t.points == (885, -130, 885, -130)
    assert t.breakdown[0].natural_canasta_bonus == 500 and t.breakdown[1].red_three_points == -100


def test_mixed_canasta_scores_395():
    """Vector 1.13-12 (constructed): 7 7 7 7 7 2 JK = 25 + 20 + 50 = 95 in cards, +300 -> 395."""
    t = E.score_tally({"ended": "stock", "sides": [
        {"melds": [{"rank": "7", "cards": ["7C", "7D", "7S", "7H", "7C", "2H", "JK"]}]}, {}]})
    assert t.points[0] == 395 and t.breakdown[0].mixed_canastas == 1


def test_four_red_threes_score_800_with_a_canasta_and_minus_800_without():
    """Vector 1.13-9 (seed)."""
    canasta = [{"rank": "7", "cards": ["7C", "7D", "7S", "7H", "7C", "7D", "7S"]}]
    with_c = E.score_tally({"ended": "stock", "sides": [{"melds": canasta, "red_threes": 4}, {}]})
    without = E.score_tally({"ended": "stock", "sides": [{"red_threes": 4}, {}]})
    assert with_c.breakdown[0].red_three_points == 800
    assert without.breakdown[0].red_three_points == -800 and without.points[0] == -800


def test_tally_rejects_impossible_sheets():
    """Score sheet: impossible tallies raise InvalidState with a code."""
    bad = [
        ({"sides": [{"red_threes": 3}, {"red_threes": 2}], "ended": "stock"}, "canasta.tally-cards"),
        ({"sides": [{"went_out": True}, {}]}, "canasta.tally-out-without-canasta"),
        ({"sides": [{}, {}], "ended": "out"}, "canasta.tally-who-went-out"),
        ({"sides": [{"melds": [{"rank": "K", "cards": ["KC", "2C", "2D"]}]}, {}], "ended": "stock"},
         "canasta.tally-bad-meld"),
        ({"sides": [{"hands": [["JK"] * 5, []]}, {}], "ended": "stock"}, "canasta.tally-cards"),
        ({"sides": [{"double": True}, {}], "ended": "stock"}, "canasta.tally-bonus-without-going-out"),
    ]
    for tally, code in bad:
        with pytest.raises(InvalidState) as err:
            E.score_tally(tally)
        assert err.value.code == code, tally


def test_game_ends_when_a_side_reaches_the_target():
    """§11 with target_score 50: the first hand a side ends at 50+ alone on top ends the game."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C", "4H 4S", "AC AD", "6C 6D"], melds=melds, options={"target_score": 50})
    s = E.apply(s, 0, Discard(C("9C")))
    assert s.phase is Phase.GAME_OVER and E.to_act(s) == frozenset()
    out = E.outcome(s)
    assert out.winners == (0, 2) and E.scores(s).winners == (0, 2)


# --------------------------------------------------------------------------- options and deal


def test_deal_sizes_and_first_pile():
    """§3: 11/13/15 cards; the turned-up pile ends with an ordinary card; K-8 closes on a wild."""
    for players, size in ((4, 11), (3, 13), (2, 15)):
        s = E.new(players, 3)
        assert all(len(h) in (size, size - 1, size + 1) or s.pending[i] for i, h in enumerate(s.hands))
        assert 4 <= s.discard[-1].rank <= 14
    closed = [seed for seed in range(200) if any(c.rank in (2, 15) for c in E.new(4, seed).discard)]
    assert closed, "some deal turns up a wild card"
    seed = closed[0]
    assert E.new(4, seed).discard_closed
    assert not E.new(4, seed, {"wild_turn_up_closes_discard": False}).discard_closed


def test_setup_is_unsupported():
    from rules.base import InvalidOption

    with pytest.raises(InvalidOption) as err:
        E.new(4, 1, None, setup={"x": 1})
    assert err.value.code == "canasta.setup-unsupported"


# --------------------------------------------------------------------------- json, views


def _json(state):
    return json.loads(json.dumps(E.to_json(state)))


def test_from_json_rejects_tampered_states():
    """A lost card, a duplicated card, a wrong turn: InvalidState with a code."""
    s = E.new(4, 11)
    lost = _json(s)
    lost["stock"].pop()
    dup = _json(s)
    dup["hands"][0][0] = dup["hands"][1][0]
    turn = _json(s)
    turn["phase"] = "play"
    red = _json(s)
    red["red_threes_pending"] = [False] * 4
    at = red["stock"].index("3H")  # a red three in seat 0's hand, with nothing saying it waits (K-9)
    red["hands"][0][0], red["stock"][at] = "3H", red["hands"][0][0]
    for data, code in ((lost, "canasta.cards-not-conserved"), (dup, "canasta.cards-not-conserved"),
                       (turn, "canasta.bad-turn"), ({"players": 4}, "canasta.bad-state"),
                       ("nonsense", "canasta.bad-state")):
        with pytest.raises(InvalidState) as err:
            E.from_json(data)
        assert err.value.code == code
    with pytest.raises(InvalidState) as err:
        E.from_json(red)
    assert err.value.code == "canasta.red-three-in-hand"


def test_view_hides_hands_and_the_stock():
    """DESIGN 4.5 view: own hand as a list, null for the others, hand_sizes for all; the stock null with its
    size; others' waiting red threes hidden; `seat_sides` says which side each seat is on."""
    p = build(["3H KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=3, phase="play", pending=[True, False, False, False])
    assert E.view(p, 0)["red_threes_pending"][0] is True
    assert E.view(p, 1)["red_threes_pending"] == [None, False, None, None]
    assert "3H" not in json.dumps(E.view(p, 1)["hands"])
    s = E.new(4, 5)
    v = E.view(s, 1)
    assert "rng" not in v
    assert v["hands"] == [None, [str(c) for c in s.hands[1]], None, None]
    assert v["hand_sizes"] == [len(h) for h in s.hands]
    assert v["stock"] is None and v["stock_size"] == len(s.stock)
    assert v["seat_sides"] == [0, 1, 0, 1] and E.view(E.new(3, 5), 0)["seat_sides"] == [0, 1, 2]
    spectator = E.view(s, None)
    assert spectator["hands"] == [None] * 4


def test_view_shows_the_discard_piles_top_card_and_size_only():
    """Issue 19, DESIGN 4.5: "KART STOSU NIE MOŻNA PODGLĄDAĆ W TRAKCIE GRY" (the discard pile may not be
    looked through during play): every seat, and a spectator, sees `discard: null`, `discard_top` and
    `discard_size`; the cards under the top are nowhere in the view.

        pile JC 8D 9H (top) -> discard null, discard_top "9H", discard_size 3; JC and 8D not shown
    """
    p = build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", discard="JC 8D 9H")
    for seat in (0, 1, 2, 3, None):
        v = E.view(p, seat)
        assert v["discard"] is None and v["discard_top"] == "9H" and v["discard_size"] == 3, seat
        shown = json.dumps({k: x for k, x in v.items() if k != "hands"})
        assert '"JC"' not in shown and '"8D"' not in shown, seat
    empty = E.view(build(["KC KD 5C", "4H 4S", "5S 5D", "6C 6D"], discard=""), 0)
    assert (empty["discard"], empty["discard_top"], empty["discard_size"]) == (None, None, 0)
    assert E.to_json(p)["discard"] == ["JC", "8D", "9H"]  # the state itself keeps the pile


def test_malformed_moves_are_refused_naming_the_field():
    for data, field in (({"kind": "fly"}, "kind"), ({"kind": "discard"}, "card"),
                        ({"kind": "discard", "card": "ZZ"}, "card"),
                        ({"kind": "meld", "melds": [{"rank": "2", "cards": ["2C"]}]}, "melds.0.rank"),
                        ([], "kind"), ({"kind": "answer", "yes": 1}, "yes"),
                        ({"kind": "take-pile", "using": []}, "kind"),
                        ({"kind": "meld", "melds": [{"rank": "K", "cards": ["KC"], "new": 1}]}, "melds.0.new")):
        with pytest.raises(IllegalMove) as err:
            E.move_from_json(data)
        assert err.value.code == "canasta.malformed-move" and err.value.context["field"] == field, data


def test_states_and_moves_read_back_as_themselves():
    """The declared shapes write what they read: random play's states and every listed move."""
    for seed, players in ((1, 4), (2, 3), (3, 2)):
        rnd = random.Random(seed)
        s = E.new(players, seed)
        for _ in range(250):
            acting = sorted(E.to_act(s))
            if not acting:
                break
            seat = rnd.choice(acting)
            moves = E.legal_moves(s, seat)
            for m in moves:
                assert E.move_from_json(json.loads(json.dumps(E.move_to_json(m)))) == m
            s = E.apply(s, seat, rnd.choice(moves))
            assert E.from_json(json.loads(json.dumps(E.to_json(s)))) == s
    assert E.score_tally({"sides": [{"red_threes": 4}, {}], "ended": "stock"}).points == (-800, 0, -800, 0)


def test_moves_round_trip_through_json():
    moves = [Draw(), TakeDiscard(cards("9C 2H"), (group("A", "AC AD AS"),)), TakeTop(()), MeldMove((group("K", "KC KD KS"),)),
             Discard(C("10H")), AskPartner(), Answer(True), DoubleGoOut((group("3", "3C 3S 3S"),)), DeclineDouble(),
             EndRound(), NextRound()]
    for m in moves:
        assert E.move_from_json(json.loads(json.dumps(E.move_to_json(m)))) == m


def test_turn_structure_codes():
    """§5: one draw per turn, then meld/discard; questions only with a partner, before melding."""
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["KC KD KS 5C 6C", "4H 4S", "5S 5D", "6H 7H"], turn=0, phase="draw", melds=melds)
    assert code_of(s, 0, Discard(C("5C"))) == "canasta.wrong-phase"
    assert code_of(s, 0, EndRound()) == "canasta.stock-not-empty"
    assert code_of(s, 0, NextRound()) == "canasta.round-not-over"
    with pytest.raises(NotYourTurn) as err:
        E.check(s, 1, Draw())
    assert err.value.code == "canasta.not-your-turn" and err.value.context == {"seat": 1}
    s = E.apply(s, 0, Draw())
    assert code_of(s, 0, Draw()) == "canasta.wrong-phase"
    s = E.apply(s, 0, MeldMove((group("K", "KC KD KS"),)))
    assert code_of(s, 0, AskPartner()) == "canasta.ask-before-melding"
    two = build(["KC KD KS 5C 6C", "4H 4S"], players=2, turn=0, phase="play")
    assert code_of(two, 0, AskPartner()) == "canasta.no-partner"
    assert AskPartner() not in E.legal_moves(two, 0)


def test_taking_a_one_card_pile_down_to_one_card_commits_to_going_out():
    """§5.5, §7.5 card-count invariant: left with one card after the take, the player goes out by discarding it.

        side A: canasta of K; pile: 9H alone; seat 0 holds 9C 9D 5C -> takes with 9 9, keeps 5C
        -> asking now is too late; the discard of 5C goes out
    """
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", melds=melds, discard="9H")
    s = E.apply(s, 0, TakeDiscard(cards("9C 9D")))
    assert s.hands[0] == cards("5C")
    assert code_of(s, 0, AskPartner()) == "canasta.ask-too-late"
    assert E.legal_moves(s, 0) == [Discard(C("5C"))]
    s = E.apply(s, 0, Discard(C("5C")))
    assert s.ending == "out"
    no_canasta = build(["9C 9D 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", melds=[{"K": "KC KD KS"}, {}],
                       discard="9H")
    assert code_of(no_canasta, 0, TakeDiscard(cards("9C 9D"))) == "canasta.must-keep-card"


def test_second_meld_of_a_rank_only_under_option():
    """K-6: one meld per rank per side; option one_meld_per_rank=false lets a group marked "new" start another.

        side A: K K K K K K K (canasta); seat 0 holds K K 2H ... -> "new" K meld refused by default
    """
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    hand = "KH 9C 9D 9S 2H 5C 6C"
    move = MeldMove((group("9", "9C 9D 9S"), group("K", "KH 2H", new=True)))
    s = build([hand, "4H 4S", "AC AD", "6D 7D"], melds=melds)
    assert code_of(s, 0, move) == "canasta.one-meld-per-rank"
    move = MeldMove((group("9", "9C 9D 9S", new=True),))
    s = build([hand, "4H 4S", "AC AD", "6D 7D"], melds=[{"K": "KC KD KS KH KC KD KS", "9": "9H 9H 2C"}, {}])
    assert code_of(s, 0, move) == "canasta.one-meld-per-rank"
    s = build([hand, "4H 4S", "AC AD", "6D 7D"], melds=[{"K": "KC KD KS KH KC KD KS", "9": "9H 9H 2C"}, {}],
              options={"one_meld_per_rank": False})
    after = E.apply(s, 0, move)
    assert [m for m in after.melds[0] if m[0] == 9] == [Meld(9, cards("9H 9H 2C")), Meld(9, cards("9C 9D 9S"))]
    assert move in E.legal_moves(s, 0)
    again = parse(json.loads(json.dumps(E.to_json(after))))
    assert again == after
    assert E.move_to_json(move)["melds"][0]["new"] is True
    # an addition joins the latest meld of the rank
    later = E.apply(after, 0, MeldMove((group("9", "2H"),)))
    assert [m for m in later.melds[0] if m[0] == 9][-1] == Meld(9, cards("9C 9D 9S 2H"))


# --------------------------------------------------------------------------- review: §7-§10 scenarios


def test_tally_black_three_set_belongs_to_the_side_that_went_out():
    """§8, K-1 on the score sheet: black threes are melded only when going out.

        hand ended by the stock; side A shows a set 3C 3S 3C     -> impossible sheet
        hand ended by going out (side A); side B shows 3C 3S 3C -> impossible sheet
        side A went out with K x7 and 3C 3S 3C                   -> 70 + 500 + 150 + 100 = 820
    """
    canasta = {"rank": "K", "cards": ["KC", "KD", "KS", "KH", "KC", "KD", "KS"]}
    threes = {"rank": "3", "cards": ["3C", "3S", "3C"]}
    for tally in (
        {"ended": "stock", "sides": [{"melds": [canasta, threes]}, {}]},
        {"ended": "out", "sides": [{"melds": [canasta], "went_out": True, "hands": [[], []]},
                                   {"melds": [threes], "hands": [["5C"], ["6C"]]}]},
    ):
        with pytest.raises(InvalidState) as err:
            E.score_tally(tally)
        assert err.value.code == "canasta.tally-black-threes-without-going-out"
    ok = E.score_tally({"ended": "out", "sides": [{"melds": [canasta, threes], "went_out": True, "hands": [[], []]},
                                                  {}]})
    assert ok.points[0] == 70 + 500 + 150 + 100 and ok.breakdown[0].black_threes == 150


def test_red_threes_still_waiting_when_the_hand_ends_score_for_their_side():
    """§10 with K-9 "first-turn": a hand can end before a dealt red three's owner has had a turn.

        seat 0 (first to play) draws 2H and goes out from hand on his first turn:
          K x7, 5 5 5 2H, discards 9C
        seat 1 (side B, no canasta) still holds a dealt 3H; seat 2 (side A) a dealt 3D
        -> both are laid out at the end: side A +100 (it has a canasta), side B -100
    """
    hand = "KC KD KS KH KC KD KS 5C 5D 5S 9C"
    s = build([hand, "3H 4H 4S", "3D AC AD", "6C 6D"], turn=0, phase="draw", stock_top="2H",
              pending=[False, True, True, False])
    s = E.apply(s, 0, Draw())
    s = E.apply(s, 0, MeldMove((group("K", "KC KD KS KH KC KD KS"), group("5", "5C 5D 5S 2H"))))
    s = E.apply(s, 0, Discard(C("9C")))
    assert s.phase is Phase.ROUND_OVER and not any(s.pending)
    assert s.red_threes == (cards("3D"), cards("3H"))
    assert C("3H") not in s.hands[1] and C("3D") not in s.hands[2]
    report = E.scores(s)
    assert [b.red_three_points for b in report.breakdown] == [100, -100, 100, -100]
    assert report.points[0] == 70 + 500 + 35 + 100 + 100 + 100 - 40
    assert report.points[1] == -100 - 10 - 10
    assert parse(json.loads(json.dumps(E.to_json(s)))) == s


def test_going_out_from_hand_with_the_top_card_keeps_the_minimum_and_scores_the_bonus():
    """§6 exception and §9.4 going out from hand ("w chwili otwarcia gry jednocześnie ją kończy").

        side A unopened; pile JC KH (top); seat 0 holds K K K K K K 9 9 9 (laid nothing yet)
        total 3000 (minimum 120): K x7 (70) + 9 9 9 (30) = 100 -> below-minimum (the privilege is bound)
        total 0 (minimum 50): legal; opens and goes out at once with a canasta of his own
          -> going out +100 and from hand +100: 100 + 500 + 30 + 100 + 100 - 40 (partner A A) = 790
        the partner of an opened side who had already laid a card: no from-hand bonus
    """
    hand = "KC KD KS KH KC KD 9C 9D 9S"
    move = TakeTop(cards("KC KD KS KH KC KD"), (group("9", "9C 9D 9S"),))
    s = build([hand, "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", discard="JC KH", totals=[3000, 0])
    assert code_of(s, 0, move) == "canasta.below-minimum"
    s = build([hand, "4H 4S", "AC AD", "6C 6D"], turn=0, phase="draw", discard="JC KH")
    after = E.apply(s, 0, move)
    assert after.ending == "out" and after.concealed_out and after.discard == cards("JC")
    b = E.scores(after).breakdown[0]
    assert b.going_out == 100 and b.going_out_from_hand == 100
    assert b.points == 70 + 500 + 30 + 100 + 100 - 40
    opened = [{"8": "8C 8D 8S"}, {}]
    for laid_before, bonus in ((False, 100), (True, 0)):
        s = build(["4C 4D", "4H 4S", hand, "7C 7D"], turn=2, phase="draw", melds=opened, discard="JC KH",
                  laid=[True, False, laid_before, False])
        after = E.apply(s, 2, move)
        assert E.scores(after).breakdown[2].going_out_from_hand == bonus


def test_wild_card_on_top_blocks_the_pile():
    """§7 blocked: a wild card on top cannot be matched, even with two wilds or a meld to take it.

        side A opened (8 8 8); pile 9C 2H (top), closed; seat 0 holds 2S JK 9D 9S
        -> take-discard with 2S JK, with 9D 9S or with nothing: discard-blocked-wild; no take is listed
    """
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["2S JK 9D 9S 5C", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="9C 2H",
              discard_closed=True)
    for using in ("2S JK", "9D 9S", ""):
        assert code_of(s, 0, TakeDiscard(cards(using))) == "canasta.discard-blocked-wild"
    assert not any(isinstance(m, TakeDiscard | TakeTop) for m in E.legal_moves(s, 0))


def test_open_pile_needs_a_pair_a_natural_and_a_wild_or_a_meld():
    """§7 open pile: one natural alone (no meld of the rank) or a card of another rank is not enough.

        side A opened (8 8 8); pile JC 9H (open); seat 0 holds 9D 2S KC KD
        -> 9D alone: discard-needs-match; 2S alone: discard-needs-match; 9D KC: using-not-of-rank; 9D 2S: legal
    """
    melds = [{"8": "8C 8D 8S"}, {}]
    s = build(["9D 2S KC KD", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="JC 9H")
    assert code_of(s, 0, TakeDiscard(cards("9D"))) == "canasta.discard-needs-match"
    assert code_of(s, 0, TakeDiscard(cards("2S"))) == "canasta.discard-needs-match"
    assert code_of(s, 0, TakeDiscard(())) == "canasta.discard-needs-match"
    assert code_of(s, 0, TakeDiscard(cards("9D KC"))) == "canasta.using-not-of-rank"
    assert E.is_legal(s, 0, TakeDiscard(cards("9D 2S")))


def test_closed_pile_cannot_be_taken_by_laying_off_on_a_meld():
    """§7 closed pile: only two naturals of the rank from the hand; a lay-off or natural + wild is refused.

        side A has 9 9 9 on the table; pile 7C 2C 9H (closed by the 2C); seat 0 holds 9D 2S KC
        -> nothing (lay-off): pile-closed; 9D 2S: pile-closed
        the same pile turned up at the start (K-8 default): closed too, even for an opened side
    """
    melds = [{"9": "9C 9D 9S"}, {}]
    s = build(["9D 2S KC", "4H 4S", "5S 5D", "6C 6D"], turn=0, phase="draw", melds=melds, discard="7C 2C 9H",
              discard_closed=True)
    assert code_of(s, 0, TakeDiscard(())) == "canasta.discard-closed"
    assert code_of(s, 0, TakeDiscard(cards("9D 2S"))) == "canasta.discard-closed"
    assert not any(isinstance(m, TakeDiscard) for m in E.legal_moves(s, 0))
    opened = replace(s, discard_closed=False)
    assert E.is_legal(opened, 0, TakeDiscard(()))


def test_last_stock_card_a_red_three_is_laid_without_replacement():
    """K-7: the last stock card is a red 3: laid down, no replacement; the player finishes his turn.

        stock: 3H alone; seat 0 (side A: K x7, three red threes) holds 9C 9D
        -> draws 3H (side A now has all four: +800), still holds 9C 9D; discards 9C: hand over by the stock
    """
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    hands = ["9C 9D", "4H 4S", "AC AD", "6C 6D"]
    used = Counter(cards(" ".join(hands) + " KC KD KS KH KC KD KS 7C 3H 3H 3D 3D"))
    filler = " ".join(str(c) for c in sorted((FULL_DECK - used).elements()))
    s = build([hands[0], hands[1], hands[2] + " " + filler, hands[3]], turn=0, phase="draw",
              melds=melds, stock="3H", reds=["3H 3D 3D", ""])
    s = E.apply(s, 0, Draw())
    assert s.stock == () and s.hands[0] == cards("9C 9D") and len(s.red_threes[0]) == 4
    assert s.phase is Phase.PLAY
    s = E.apply(s, 0, Discard(C("9C")))
    assert s.phase is Phase.ROUND_OVER and s.ending == "stock"
    b = E.scores(s).breakdown[0]
    assert b.red_three_points == 800 and b.going_out == 0


def test_every_item_of_the_scoring_table_in_play_and_on_the_score_sheet():
    """§10, every plus item at once, and the score sheet agrees item by item.

        side A: 8 8 8 laid by seat 2; four red threes on the table
        seat 0 (laid nothing yet) holds Q x7, 9 9 9 9 2C JK 2D, 3C 3S 3C; draws QH
          -> melds everything in one move: Q x8 (natural), 9 9 9 9 2 JK 2 (mixed), black threes
             = going out, from hand; seat 2 then doubles out with 8H 8C
        side A: Q 80 + 500, 9s 40 + 90 + 300, 8s 50, black threes 3 x 50, red threes 800,
                out 100, double 100, from hand 100 -> 2310
        side B: 5 5 5 JK (65), no canasta, no red three, hands K J | 7 2 (-45) -> 20
    """
    melds = [{"8": "8C 8D 8S"}, {"5": "5C 5D 5S JK"}]
    hand = "QC QD QS QH QC QD QS 9C 9D 9S 9H 2C JK 2D 3C 3S 3C"
    s = build([hand, "KH JD", "8H 8C", "7H 2H"], turn=0, phase="draw", melds=melds, stock_top="QH",
              reds=["3H 3D 3H 3D", ""], laid=[False, True, True, True])
    s = E.apply(s, 0, Draw())
    s = E.apply(s, 0, MeldMove((group("Q", "QC QD QS QH QC QD QS QH"), group("9", "9C 9D 9S 9H 2C JK 2D"),
                                group("3", "3C 3S 3C"))))
    assert s.phase is Phase.DOUBLE and s.concealed_out
    assert E.from_json(json.loads(json.dumps(E.to_json(s)))) == s  # §13: reachable, with concealed_melds set
    s = E.apply(s, 2, DoubleGoOut((group("8", "8H 8C"),)))
    report = E.scores(s)
    a, b = report.breakdown[0], report.breakdown[1]
    assert (a.meld_cards, a.natural_canasta_bonus, a.mixed_canasta_bonus, a.black_threes) == (
        80 + 130 + 50, 500, 300, 150)
    assert (a.red_three_points, a.going_out, a.double_going_out, a.going_out_from_hand) == (
        800, 100, 100, 100)
    assert a.cards_in_hand == 0 and a.points == 2310
    assert b.meld_cards == 65 and b.red_three_points == 0 and b.cards_in_hand == -45 and b.points == 20
    tally = {"ended": "out", "sides": [
        {"melds": [{"rank": "Q", "cards": ["QC", "QD", "QS", "QH", "QC", "QD", "QS", "QH"]},
                   {"rank": "9", "cards": ["9C", "9D", "9S", "9H", "2C", "JK", "2D"]},
                   {"rank": "8", "cards": ["8C", "8D", "8S", "8H", "8C"]},
                   {"rank": "3", "cards": ["3C", "3S", "3C"]}],
         "red_threes": 4, "hands": [[], []], "went_out": True, "double": True, "concealed": True},
        {"melds": [{"rank": "5", "cards": ["5C", "5D", "5S", "JK"]}], "hands": [["KH", "JD"], ["7H", "2H"]]},
    ]}
    sheet = E.score_tally(tally)
    assert sheet.points == report.points == (2310, 20, 2310, 20)
    for key in ("meld_cards", "natural_canasta_bonus", "mixed_canasta_bonus", "black_threes", "red_three_points",
                "going_out", "double_going_out", "going_out_from_hand", "cards_in_hand"):
        assert getattr(sheet.breakdown[0], key) == getattr(a, key) and getattr(sheet.breakdown[1], key) == getattr(b, key), key


def test_from_json_refuses_black_threes_on_the_table_of_a_side_that_has_not_gone_out():
    """§8, §13: black threes reach the table only when their side goes out; a live hand showing them is invalid."""
    s = build(["9C 9D 5C", "4H 4S", "AC AD", "6C 6D"], melds=[{"3": "3C 3S 3C", "K": "KC KD KS"}, {}])
    with pytest.raises(InvalidState) as err:
        E.from_json(E.to_json(s))
    assert err.value.code == "canasta.bad-meld"


# --------------------------------------------------------------------------- issue 9 rulings


FROM_HAND_SEED = ("Jeśli gracz w chwili otwarcia gry jednocześnie ją kończy (wykłada wszystkie karty z ręki i posiada "
                  "kanastę) - jest to skończenie gry z ręki. W przypadku gdy gracz kończąc grę dobiera jedynie kartę "
                  "z talonu, nie dotyczy go minimum punktowe dla otwarcia.")


def _bought_pile_position(**kw):
    """Side A unopened; seat 0 (laid nothing) holds K K K A A A Q Q Q J J; the pile is KC KD KS QH JH KH (top)."""
    return build(["KC KD KS AC AD AS QC QD QS JC JD", "4H 4S", "6C 6D", "7H 7D"], turn=0, phase="draw",
                 discard="KC KD KS QH JH KH", **kw)


BUY = TakeDiscard(cards("KC KD"), (group("A", "AC AD AS"),))
MELD_ALL = MeldMove((group("K", "KC KD KS KS"), group("Q", "QC QD QS QH"), group("J", "JC JD JH")))


def test_buying_the_pile_and_melding_everything_is_going_out_from_hand():
    """docs/rules/canasta.md §9.4 (issue 9), the seed: "Jeśli gracz w chwili otwarcia gry jednocześnie ją
    kończy … jest to skończenie gry z ręki. W przypadku gdy gracz kończąc grę dobiera jedynie kartę z
    talonu, nie dotyczy go minimum". Only the stock draw lifts the minimum; buying the pile does not
    take away the from-hand bonus.

        side A unopened (total 0, minimum 50); seat 0 has laid nothing
        hand: KC KD KS AC AD AS QC QD QS JC JD       pile: KC KD KS QH JH [KH]
        take-discard with KC KD + A A A  (K K K 30 + A A A 60 = 90 >= 50) -> the rest of the pile to the hand
        meld K K K K (7 kings: natural canasta), Q Q Q Q, J J J -> hand empty: going out from hand
        side A: 70+500 + 60 + 40 + 30 + out 100 + from hand 100 - partner 6C 6D (10) = 890
    """
    assert "skończenie gry z ręki" in FROM_HAND_SEED
    s = E.apply(_bought_pile_position(), 0, BUY)
    assert s.concealed_melds == (13, 14)
    s = E.apply(s, 0, MELD_ALL)
    assert s.phase is Phase.ROUND_OVER and s.out_seat == 0 and s.concealed_out
    b = E.scores(s).breakdown[0]
    assert (b.going_out, b.going_out_from_hand) == (100, 100)
    assert b.points == 70 + 500 + 60 + 40 + 30 + 100 + 100 - 10


def test_buying_the_pile_to_go_out_from_hand_is_bound_by_the_minimum():
    """docs/rules/canasta.md §9.4, §6: the exception to the minimum is for the stock draw only.

        the same position with side A at 3000 (minimum 120): K K K + A A A = 90 -> below-minimum
    """
    assert code_of(_bought_pile_position(totals=[3000, 0]), 0, BUY) == "canasta.below-minimum"


def test_buying_the_pile_then_melding_in_two_moves_or_having_laid_before_earns_no_from_hand_bonus():
    """docs/rules/canasta.md §9.4: the whole hand is laid at once (the take and one meld move).

        take-discard, then meld K K K K, then meld Q Q Q Q J J J -> goes out, no from-hand bonus
        option from_hand_after_buying=false (the other reading) -> goes out, no from-hand bonus
    """
    s = E.apply(_bought_pile_position(), 0, BUY)
    s = E.apply(s, 0, MeldMove((group("K", "KC KD KS KS"),)))
    assert s.concealed_melds == (13, 14)  # the take and one meld move still lay the hand "at once"
    s = E.apply(s, 0, MeldMove((group("Q", "QC QD QS QH"), group("J", "JC JD JH"))))
    assert s.out_seat == 0 and not s.concealed_out and s.concealed_melds is None
    assert E.scores(s).breakdown[0].going_out_from_hand == 0
    s = E.apply(_bought_pile_position(options={"from_hand_after_buying": False}), 0, BUY)
    s = E.apply(s, 0, MELD_ALL)
    assert s.out_seat == 0 and not s.concealed_out


def test_partner_who_laid_a_card_before_buying_gets_no_from_hand_bonus():
    """docs/rules/canasta.md §9.4: the partner of an opened side goes out from hand only if he had laid
    no card this hand ("nie dokładał swoich kart do układów na stole").

        side A opened (8 8 8); seat 2 holds the hand of the scenario above; laid before: no -> +100, yes -> 0
    """
    melds = [{"8": "8C 8D 8S"}, {}]
    for laid_before, bonus in ((False, 100), (True, 0)):
        s = build(["6C 6D", "4H 4S", "KC KD KS AC AD AS QC QD QS JC JD", "7H 7D"], turn=2, phase="draw",
                  melds=melds, discard="KC KD KS QH JH KH", laid=[True, False, laid_before, False])
        s = E.apply(E.apply(s, 2, BUY), 2, MELD_ALL)
        assert s.out_seat == 2 and E.scores(s).breakdown[2].going_out_from_hand == bonus


@pytest.mark.parametrize(("given", "target"), [
    ({}, 5000), ({"opening_table": "7500"}, 7500), ({"opening_table": "10000"}, 10000),
    ({"opening_table": "7500", "target_score": 6000}, 6000), ({"target_score": 5000, "opening_table": "7500"}, 5000),
])
def test_opening_table_brings_its_target_unless_target_score_is_given(given, target):
    """docs/rules/canasta.md §11 (issue 9: options that contradict each other): the 7500 table plays to 7500."""
    s = E.new(4, 1, given)
    assert s.options.target_score == target
    assert E.from_json(E.to_json(s)) == s


def test_turn_names_the_one_seat_to_act_and_nobody_is_null():
    """DESIGN 4.5: ``turn`` is the seat to act (the partner while he answers or may double out), null
    once the round is over; "nobody" is null in ``out_seat``, ``drew``, ``asked`` and ``ending``;
    ``history`` has one row of per-seat points per finished round (§13).

        seat 0 asks "may I go out?" -> turn 2 (the partner answers) -> turn 0 again
        seat 0 goes out -> round-over: turn null, out_seat 0, ending "out"
    """
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="play", melds=melds)
    data = E.to_json(s)
    assert (data["out_seat"], data["asked"], data["ending"]) == (None, None, None)
    s = E.apply(s, 0, AskPartner())
    assert E.to_json(s)["turn"] == 2 and E.to_act(s) == {2}
    s = E.apply(s, 2, Answer(True))
    assert E.to_json(s)["turn"] == 0 and E.to_json(s)["asked"] == "yes"
    s = E.apply(E.apply(s, 0, MeldMove((group("9", "9C 9D 9S"),))), 0, Discard(C("5C")))
    data = E.to_json(s)
    assert (data["phase"], data["turn"], data["out_seat"], data["ending"]) == ("round-over", None, 0, "out")
    assert data["drew"] is None and data["round"] == 1
    row = list(E.scores(s).points)
    assert data["history"] == [row] and row[0] == row[2] and [x["total"] for x in data["sides"]] == row[:2]
    nxt = E.to_json(E.apply(s, 1, NextRound()))
    assert nxt["round"] == 2 and nxt["history"] == [row] and nxt["turn"] is not None


def test_a_sides_total_is_the_sum_of_its_rounds_in_the_history():
    """§13: each side's ``total`` is what the history's rows give it, round by round: a state read
    back after a scored round is accepted, and one whose total differs from its column by 5 (still
    a multiple of 5) is refused as bad-total, naming the sum it should be."""
    melds = [{"K": "KC KD KS KH KC KD KS"}, {}]
    s = build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], turn=0, phase="play", melds=melds)
    s = E.apply(E.apply(s, 0, MeldMove((group("9", "9C 9D 9S"),))), 0, Discard(C("5C")))
    data = E.to_json(s)
    assert len(data["history"]) == 1 and E.from_json(data) == s
    row = data["history"][0]
    for side in (0, 1):
        changed = E.to_json(s)
        changed["sides"][side]["total"] += 5
        with pytest.raises(RulesError) as err:
            E.from_json(changed)
        assert err.value.code == "canasta.bad-total" and err.value.context["expected"] == row[side]


# --------------------------------------------------------------------------- the code catalogue (DESIGN 4.4)


def _raised(thunk) -> RulesError:
    try:
        thunk()
    except RulesError as exc:
        return exc
    raise AssertionError("nothing was raised")


def _state(**changes):
    """The JSON of a fresh four-player deal, changed."""
    data = json.loads(json.dumps(E.to_json(E.new(4, 7))))
    for key, value in changes.items():
        data[key] = value(data) if callable(value) else value
    return data


def _move_stock_card_to_hand(data):
    data["hands"][data["turn"]].append(data["stock"].pop(0))
    return data["hands"]


def _round_over():
    s = build(["9C", "4H 4S", "AC AD", "6C 6D"], melds=[{"K": "KC KD KS KH KC KD KS"}, {}])
    return E.apply(s, 0, Discard(C("9C")))


def _game_over():
    s = build(["9C", "4H 4S", "AC AD", "6C 6D"], melds=[{"K": "KC KD KS KH KC KD KS"}, {}],
              options={"target_score": 50})
    return E.apply(s, 0, Discard(C("9C")))


CANASTA = {"K": "KC KD KS KH KC KD KS"}
OPENED = [{"8": "8C 8D 8S"}, {}]
SHEET_CANASTA = {"rank": "K", "cards": ["KC", "KD", "KS", "KH", "KC", "KD", "KS"]}
TRIGGERS = {
    "not-your-turn": lambda: E.check(E.new(4, 1), (E.new(4, 1).turn + 1) % 4, Draw()),
    "game-over": lambda: E.check(_game_over(), 0, NextRound()),
    "no-such-seat": lambda: BINDINGS["canasta"].view(E.new(2, 1), 3),
    "wrong-phase": lambda: E.check(build([FILL, "4H", "5S", "6H"], phase="draw"), 0, Discard(C("4C"))),
    "round-not-over": lambda: E.check(E.new(4, 1), E.new(4, 1).turn, NextRound()),
    "round-over": lambda: E.check(_round_over(), 1, Draw()),
    "stock-empty": lambda: E.check(last_discard_buyable(), 1, Draw()),
    "stock-not-empty": lambda: E.check(build([FILL, "4H", "5S", "6H"], phase="draw"), 0, EndRound()),
    "no-partner": lambda: E.check(build(["KC KD", "4H 4S"], players=2), 0, AskPartner()),
    "already-asked": lambda: E.check(build([FILL, "4H", "5S", "6H"], asked="no"), 0, AskPartner()),
    "ask-before-melding": lambda: E.check(build([FILL, "4H", "5S", "6H"], meld_moves=1, melds=OPENED), 0,
                                          AskPartner()),
    "ask-too-late": lambda: E.check(build(["5C", "4H", "5S", "6H"], melds=OPENED, drew="discard"), 0, AskPartner()),
    "partner-said-no": lambda: E.check(build(["9C 9D", "4H 4S", "AC AD", "6C 6D"], phase="draw", discard="4D 9S",
                                             melds=[CANASTA, {}], asked="no"), 0, TakeTop(cards("9C 9D"))),
    "must-go-out": lambda: E.check(build(["9C 9D 9S 5C", "4H 4S", "AC AD", "6C 6D"], melds=[CANASTA, {}],
                                         asked="yes"), 0, Discard(C("5C"))),
    "discard-empty": lambda: E.check(build([FILL, "4H", "5S", "6H"], phase="draw", discard=""), 0, TakeDiscard(())),
    "one-card-rule": lambda: E.check(build(["KC", "4H 4S", "5S 5D", "6C 6D"], phase="draw", melds=[{"9": "9C 9D 9S"},
                                           {}], discard="9H"), 0, TakeDiscard(())),
    "discard-blocked-black-three": lambda: E.check(build(["3C 3S 9D", "4H", "5S", "6H"], phase="draw",
                                                      discard="7C 3S"), 0, TakeDiscard(cards("3C 3S"))),
    "discard-blocked-wild": lambda: E.check(build(["2S JK 9D", "4H", "5S", "6H"], phase="draw", discard="9C 2H",
                                               discard_closed=True, melds=OPENED), 0, TakeDiscard(cards("2S JK"))),
    "discard-blocked-canasta": lambda: E.check(build(["QH QS KD", "4H", "5S", "6H"], phase="draw", discard="9C QD",
                                                  melds=[{"Q": "QC QD QS QC QH JK 2C"}, {}]), 0,
                                            TakeDiscard(cards("QH QS"))),
    "discard-closed": lambda: E.check(build(["KC 2S 5C", "4H", "5S", "6H"], phase="draw", discard="JC KH"), 0,
                                   TakeDiscard(cards("KC 2S"))),
    "discard-needs-match": lambda: E.check(build(["9D KC", "4H", "5S", "6H"], phase="draw", discard="JC 9H",
                                              melds=OPENED), 0, TakeDiscard(cards("9D"))),
    "using-not-of-rank": lambda: E.check(build(["9D KC", "4H", "5S", "6H"], phase="draw", discard="JC 9H",
                                               melds=OPENED), 0, TakeDiscard(cards("9D KC"))),
    "must-meld-all": lambda: E.check(build(["9C 9D 5C 5D 5S", "4H", "5S", "6H"], phase="draw", discard="JC 9H",
                                           melds=[CANASTA, {}]), 0, TakeTop(cards("9C 9D"))),
    "use-take-top": lambda: E.check(build(["9C 9D", "4H", "5S", "6H"], phase="draw", discard="9H",
                                          melds=[CANASTA, {}]), 0, TakeDiscard(cards("9C 9D"))),
    "must-keep-card": lambda: E.check(build(["9C 9D 5C", "4H", "5S", "6H"], phase="draw", discard="9H",
                                            melds=[{"K": "KC KD KS"}, {}]), 0, TakeDiscard(cards("9C 9D"))),
    "below-minimum": lambda: E.check(build(["6C 6D 6S 5C", "4H", "5S", "6H"]), 0, MeldMove((group("6", "6C 6D 6S"),))),
    "no-canasta": lambda: E.check(build(["9C 9D 9S KH", "4H 4S"], players=2, melds=[{"K": "KC KD KS KH KC KD"}, {}]),
                                  0, MeldMove((group("9", "9C 9D 9S"), group("K", "KH")))),
    "empty-meld": lambda: E.check(build([FILL, "4H", "5S", "6H"], melds=OPENED), 0, MeldMove(())),
    "empty-group": lambda: E.check(build([FILL, "4H", "5S", "6H"], melds=OPENED), 0, MeldMove((Group(8, ()),))),
    "duplicate-rank": lambda: E.check(build(["8H 8H 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                      MeldMove((group("8", "8H"), group("8", "8H")))),
    "one-meld-per-rank": lambda: E.check(build(["8H 8H 8C 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                         MeldMove((group("8", "8H 8H 8C", new=True),))),
    "not-of-rank": lambda: E.check(build(["8H 9C 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                   MeldMove((group("8", "8H 9C"),))),
    "three-in-meld": lambda: E.check(build(["8H 3C 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                     MeldMove((group("8", "3C"),))),
    "bad-black-threes": lambda: E.check(build(["3C 3S 9C 9D 9S", "4H", "5S", "6H"], melds=[CANASTA, {}]), 0,
                                        MeldMove((group("3", "3C 3S"), group("9", "9C 9D 9S")))),
    "black-threes-only-going-out": lambda: E.check(build(["3C 3S 3C 9C", "4H", "5S", "6H"], melds=[CANASTA, {}]), 0,
                                                   MeldMove((group("3", "3C 3S 3C"),))),
    "too-few-cards": lambda: E.check(build(["KC KD 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                     MeldMove((group("K", "KC KD"),))),
    "too-few-naturals": lambda: E.check(build(["KC 2H 2S 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                        MeldMove((group("K", "KC 2H 2S"),))),
    "too-many-wilds": lambda: E.check(build(["2H 2S JK 2C 5C", "4H", "5S", "6H"], melds=OPENED), 0,
                                      MeldMove((group("8", "2H 2S JK 2C"),))),
    "card-not-in-hand": lambda: E.check(build([FILL, "4H", "5S", "6H"]), 0, Discard(C("AS"))),
    "double-not-all": lambda: E.check(E.apply(E.apply(build(["9C 9D 9S 5C", "4H 4S", "AC AD AS 8C 8D 8S", "6C 6D"],
                                                            melds=[CANASTA, {}]), 0,
                                                      MeldMove((group("9", "9C 9D 9S"),))), 0, Discard(C("5C"))),
                                      2, DoubleGoOut((group("A", "AC AD AS"),))),
    "malformed-move": lambda: E.move_from_json({"kind": "fly"}),
    "setup-unsupported": lambda: E.new(4, 1, None, setup={"x": 1}),
    "bad-state": lambda: E.from_json("nonsense"),
    "seat-count": lambda: E.from_json(_state(hands=lambda d: d["hands"][:3])),
    "bad-sides": lambda: E.from_json(_state(sides=lambda d: [*d["sides"], d["sides"][0]])),
    "bad-meld": lambda: E.from_json(_state(sides=lambda d: [{**d["sides"][0], "melds": [{"rank": "K", "cards": []}]},
                                                            d["sides"][1]])),
    "bad-red-threes": lambda: E.from_json(_state(sides=lambda d: [{**d["sides"][0], "red_threes": ["KC"]},
                                                                  d["sides"][1]])),
    "cards-not-conserved": lambda: E.from_json(_state(stock=lambda d: d["stock"][:-1])),
    "red-three-in-hand": lambda: E.from_json(_state(red_threes_pending=[True] * 4)),
    "bad-turn": lambda: E.from_json(_state(phase="play")),
    "bad-hand-size": lambda: E.from_json(_state(hands=_move_stock_card_to_hand)),
    "bad-laid": lambda: E.from_json(_state(laid=lambda d: [not p for p in d["red_threes_pending"]])),
    "bad-total": lambda: E.from_json(_state(sides=lambda d: [{**d["sides"][0], "total": 3}, d["sides"][1]])),
    "bad-discard": lambda: E.from_json(_state(discard_closed=True, discard=lambda d: [
        c for c in d["discard"] if c != "JK" and not c.startswith("2")] or d["discard"])),
    "bad-tally": lambda: E.score_tally({"sides": [{}, {}], "ended": "later"}),
    "tally-bad-meld": lambda: E.score_tally({"sides": [{"melds": [{"rank": "K", "cards": ["KC", "2C", "2D"]}]}, {}],
                                             "ended": "stock"}),
    "tally-red-three-in-hand": lambda: E.score_tally({"sides": [{"hands": [["3H"], []]}, {}], "ended": "stock"}),
    "tally-black-threes-without-going-out": lambda: E.score_tally(
        {"ended": "stock", "sides": [{"melds": [{"rank": "3", "cards": ["3C", "3S", "3C"]}]}, {}]}),
    "tally-bonus-without-going-out": lambda: E.score_tally({"sides": [{"double": True}, {}], "ended": "stock"}),
    "tally-stock-no-going-out": lambda: E.score_tally(
        {"ended": "stock", "sides": [{"melds": [SHEET_CANASTA], "went_out": True, "hands": [[], []]}, {}]}),
    "tally-out-without-canasta": lambda: E.score_tally({"sides": [{"went_out": True}, {}]}),
    "tally-out-with-cards": lambda: E.score_tally(
        {"sides": [{"melds": [SHEET_CANASTA], "went_out": True, "hands": [["4C"], ["5C"]]}, {}]}),
    "tally-double": lambda: E.score_tally(
        {"sides": [{"melds": [SHEET_CANASTA], "went_out": True, "double": True, "hands": [[], ["5C"]]}, {}]}),
    "tally-who-went-out": lambda: E.score_tally({"sides": [{}, {}], "ended": "out"}),
    "tally-cards": lambda: E.score_tally({"sides": [{"red_threes": 3}, {"red_threes": 2}], "ended": "stock"}),
}


def test_every_declared_code_has_a_real_trigger():
    """DESIGN 4.4: the codes are declared once (``rules.canasta._codes.C``, typed, so nothing raises a
    code it did not declare); each one has a real raise here, with a position, move, state or sheet."""
    assert {f"canasta.{c}" for c in TRIGGERS} == set(E.codes)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_code_is_raised_with_the_context_its_polish_detail_needs(code):
    check_raise(E, f"canasta.{code}", raise_of(TRIGGERS[code]))


@pytest.mark.parametrize(("data", "field"), [
    ({"sides": [{}, {}], "ended": "later"}, "tally.ended"),
    ({"sides": [{"hands": [["1Z"], []]}, {}], "ended": "stock"}, "tally.sides.0.hands.0.0"),
    ({"sides": [{}]}, "tally.sides"),
    ({"sides": [{}, {}], "players": 3}, "sides"),
    ({"sides": [{"hands": [[]]}, {}]}, "sides.0.hands"),
    ({"sides": [{}, {}], "options": {"black_three_meld_value": 7}}, "tally.options.black_three_meld_value"),
    ({"sides": [{"melds": [{"rank": "2", "cards": ["2C", "2D", "2H"]}]}, {}]}, "tally.sides.0.melds.0.rank"),
])
def test_a_sheet_of_another_shape_is_bad_tally_naming_the_field(data, field):
    err = raise_of(lambda: E.score_tally(data))
    assert err.code == "canasta.bad-tally" and err.context["field"] == field, err


@pytest.mark.parametrize(("change", "field"), [
    ({"phase": "bidding"}, "phase"), ({"drew": ""}, "drew"), ({"options": {"colour": "red"}}, "options"),
    ({"rng": {"v": 1, "key": "x", "counter": 0}}, "rng.key"), ({"players": 5}, "players"),
])
def test_a_state_of_another_shape_is_bad_state_naming_the_field(change, field):
    err = raise_of(lambda: E.from_json(_state(**change)))
    assert err.code == "canasta.bad-state" and err.context["field"] == field, err
    stock = raise_of(lambda: E.from_json(_state(stock=lambda d: d["stock"][:-1] + ["1Z"])))
    assert stock.code == "canasta.bad-state" and stock.context["field"].startswith("stock.")
