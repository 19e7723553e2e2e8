"""French-deck card primitives shared by the card games.

A card is written as rank then suit: ``"QH"``, ``"10S"`` (``"TS"`` is read too), ``"2C"``;
a joker is ``"JK"``. Ranks are 2-10, J, Q, K, A; suits C, D, H, S (clubs, diamonds,
hearts, spades). Games with two packs (Canasta) hold cards as a multiset (tuples with
repeats); identity is the (rank, suit) pair.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from functools import cache, total_ordering
from operator import attrgetter
from threading import Lock

from rules.shapes import Scalar, register_scalar


class Suit(Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # members are singletons compared by identity: hash them by identity too, in C, rather than
    # Enum's Python-level hash of the name (suits key the engines' dicts on every move)
    __hash__ = object.__hash__

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def sign(self) -> str:
        """The suit as drawn: ♣ ♦ ♥ ♠ (in words a player reads, never the API's letter)."""
        return _SUIT_SIGN[self]


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]


_RANK_SYMBOL = {r: str(int(r)) for r in Rank if r <= 10} | {
    Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A", Rank.JOKER: "JK",
}
_SYMBOL_RANK = {sym: rank for rank, sym in _RANK_SYMBOL.items() if rank is not Rank.JOKER} | {"T": Rank.TEN}
SUITS: tuple[Suit, ...] = tuple(Suit)
#: a suit as drawn on the table and in what a player reads (DESIGN 4.7: card names as drawn, never the API's codes)
_SUIT_SIGN = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ORDER = {suit: 1 + i for i, suit in enumerate(sorted(Suit, key=lambda x: x.value))}  # by letter, as before
RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)


@total_ordering
@dataclass(frozen=True, slots=True, init=False, eq=False)
class Card:
    """A playing card; ``suit`` is ``None`` only for a joker. Ordered by rank, then suit.

    There is one instance per card: ``Card(rank, suit)`` returns the same object every time
    (copies and pickles too), so two cards are equal exactly when they are the same object and
    equality and hashing are the C-speed identity ones, not a dataclass's tuple comparison in
    Python: the engines test cards against hands many times a move."""

    rank: Rank
    suit: Suit | None
    # made once, as every state's to_json names and sorts the cards it holds: the name, and the
    # order (by rank, then suit letter; jokers last) as one integer
    _name: str = field(init=False, repr=False)
    _order: int = field(init=False, repr=False)

    def __new__(cls, rank: Rank, suit: Suit | None) -> Card:
        card = _CARDS.get((rank, suit))
        if card is not None:
            return card
        with _MAKING:
            card = _CARDS.get((rank, suit))
            if card is None:
                card = object.__new__(cls)
                object.__setattr__(card, "rank", rank)
                object.__setattr__(card, "suit", suit)
                name = "JK" if rank is Rank.JOKER else f"{rank.symbol}{suit.value}"  # type: ignore[union-attr]
                object.__setattr__(card, "_name", name)
                object.__setattr__(card, "_order", int(rank) * 8 + (_SUIT_ORDER[suit] if suit else 0))
                _CARDS[rank, suit] = card
            return card

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None]]:
        return Card, (self.rank, self.suit)

    def __str__(self) -> str:
        return self._name

    def __lt__(self, other: Card) -> bool:
        return self._order < other._order

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER


_CARDS: dict[tuple[Rank, Suit | None], Card] = {}
_MAKING = Lock()
for _rank in RANKS:  # every card made at import: later calls only look them up
    for _suit in SUITS:
        Card(_rank, _suit)
JOKER = Card(Rank.JOKER, None)


def parse_card(text: object) -> Card:
    """``"QH"`` -> Card(QUEEN, HEARTS). Raises ValueError naming the bad input (any type)."""
    if not isinstance(text, str):
        raise ValueError(f"a card is a string like 'QH' or '10S', got {text!r}")
    return _parse_card(text)


@cache
def _parse_card(text: str) -> Card:
    if text == "JK":
        return JOKER
    rank = _SYMBOL_RANK.get(text[:-1])
    try:
        suit = Suit(text[-1:])
    except ValueError:
        suit = None
    if rank is None or suit is None:
        raise ValueError(f"not a card: {text!r} (write rank then suit, like 'QH', '10S', '2C', or 'JK')")
    return Card(rank, suit)


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """``sorted(cards)``: each card's order integer is read once and compared in C, where
    ``sorted`` would call ``Card.__lt__`` in Python for every comparison (the same stable order)."""
    return sorted(cards, key=_ORDER)


_ORDER = attrgetter("_order")


#: every name :func:`parse_card` reads, with its card ("QH", "10H" and "TH", ..., "JK"): a move's
#: card looked up in one step; anything not here goes to parse_card (which refuses it)
CARDS_BY_NAME: dict[str, Card] = {
    f"{symbol}{suit.value}": Card(rank, suit) for symbol, rank in _SYMBOL_RANK.items() for suit in SUITS
} | {"JK": JOKER}


CARD_PATTERN = r"^(JK|(10|[2-9TJQKA])[CDHS])$"

#: a card is written as its name in every game's JSON (rules/shapes.py reads it by one look-up)
register_scalar(Scalar(Card, {"type": "string", "pattern": CARD_PATTERN,
                              "description": "a French-deck card: rank then suit ('QH', '10S', '2C'), or 'JK'"},
                       write=str, parse=parse_card, attr="_name", table=CARDS_BY_NAME))


#: a court rank as a Polish player names it (walet, dama; the king and the ace keep K, A)
_RANK_PL = {Rank.JACK: "W", Rank.QUEEN: "D"}
_JOKER_WORD = {"en": "joker", "pl": "dżoker"}


def drawn(card: Card, lang: str = "en") -> str:
    """A card as a player reads it, in ``lang`` (``en`` or ``pl``): 3D -> "3♦", JS -> "J♠" (Polish "W♠"),
    10H -> "10♥", the joker "joker" ("dżoker")."""
    if card.suit is None:
        return _JOKER_WORD.get(lang, "joker")
    rank = _RANK_PL.get(card.rank, card.rank.symbol) if lang == "pl" else card.rank.symbol
    return rank + card.suit.sign


#: a card's name standing alone in a text ("not 3D", "J: JD JS"), never inside a word or a number;
#: fixed-width look-arounds and no repetition: linear on any text
_CARD_IN_TEXT = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS](?!\w)|(?<!\w)JK(?!\w)")


def drawn_in(text: str, lang: str = "en") -> str:
    """``text`` with every card named in it drawn (:func:`drawn`): "J: JD JS is 30" -> "J: J♦ J♠ is 30"."""
    return _CARD_IN_TEXT.sub(lambda m: drawn(CARDS_BY_NAME[m.group()], lang), text)


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def card_strs(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def deck(ranks: Iterable[Rank] = RANKS, packs: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """A fresh deck in canonical order: suit by suit, ranks ascending, then jokers."""
    ranks = tuple(ranks)
    one = tuple(Card(r, s) for s in SUITS for r in ranks)
    return one * packs + (JOKER,) * jokers


def hands_seen_by(hands: Iterable[Iterable[Card]], seat: int | None) -> list[list[Card] | int]:
    """Hands as ``seat`` may see them: its own cards, every other hand only as a count."""
    return [list(h) if s == seat else len(h) for s, h in enumerate(map(list, hands))]


def missing_and_extra(have: Iterable[Card], expected: Iterable[Card]) -> tuple[list[Card], list[Card]]:
    """Cards short of ``expected`` and cards beyond it (for conservation messages)."""
    h, e = Counter(have), Counter(expected)
    return sorted((e - h).elements()), sorted((h - e).elements())
