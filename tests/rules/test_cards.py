"""The card primitives shared by the card games."""

import pytest

from rules.cards import JOKER, Card, Rank, Suit, deck, hands_seen_by, parse_card


@pytest.mark.parametrize(("text", "card"), [
    ("QH", Card(Rank.QUEEN, Suit.HEARTS)), ("10S", Card(Rank.TEN, Suit.SPADES)),
    ("TS", Card(Rank.TEN, Suit.SPADES)), ("2C", Card(Rank.TWO, Suit.CLUBS)), ("JK", JOKER),
])
def test_cards_read_as_rank_then_suit(text, card):
    assert parse_card(text) == card
    assert str(card) in (text, "10S")


@pytest.mark.parametrize("bad", ["", "Q", "1H", "QX", "HQ", "11S", None, 12, ["QH"], {"QH": 1}])
def test_anything_else_is_a_value_error_naming_it(bad):
    """Hostile JSON may put any value where a card belongs: always ValueError, never TypeError."""
    with pytest.raises(ValueError, match="card"):
        parse_card(bad)


def test_decks():
    assert len(deck()) == len(set(deck())) == 52
    two_packs = deck(packs=2, jokers=4)
    assert len(two_packs) == 108 and two_packs.count(JOKER) == 4 and two_packs.count(parse_card("AS")) == 2


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    hands = (("QH", "2C"), ("AS",), ())
    assert hands_seen_by(hands, 0) == [["QH", "2C"], 1, 0]
    assert hands_seen_by(hands, None) == [2, 1, 0]  # a spectator sees no hand


def test_a_card_is_one_instance_however_it_is_made() -> None:
    """Cards compare and hash by identity (rules/cards.py), so every way of making one must give
    back the same instance: the constructor, the parser, copies and pickles."""
    import copy
    import pickle

    queen = Card(Rank.QUEEN, Suit.HEARTS)
    made = [Card(Rank.QUEEN, Suit.HEARTS), parse_card("QH"), copy.copy(queen), copy.deepcopy(queen),
            pickle.loads(pickle.dumps(queen))]
    assert all(card is queen for card in made)
    assert Card(Rank.JOKER, None) is JOKER is parse_card("JK")
    assert queen != Card(Rank.QUEEN, Suit.SPADES)
    assert len({*deck(), *deck()}) == 52
    assert sorted([Card(Rank.ACE, Suit.CLUBS), queen]) == [queen, Card(Rank.ACE, Suit.CLUBS)]
