"""The trick-taking core shared by 3-5-8 and Kierki: following suit, trumps, the winner.

Rules common to both (docs/rules/3-5-8.md §5; docs/rules/kierki.md §3):
- a player holding a card of the led suit must play one (any: no duty to beat);
- otherwise, where ``must_trump`` is on and there are trumps, a player holding a trump must
  play one (any: no duty to over-trump); otherwise any card;
- the leader may not lead a suit in ``lead_forbidden`` while holding a card of another suit;
- the highest trump wins the trick, else the highest card of the led suit.
Cards are :class:`rules.cards.Card`; ranks compare as A high. A play is anything with a
``seat`` and a ``card`` (:class:`Play`, or a game's declared trick entry). Refusals are raised as
the game's own typed codes (``card_not_in_hand``, ``lead_forbidden``, ``must_follow_suit``,
``must_trump``: each game declares those its rules can raise).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple, Protocol

from rules.cards import Card, Suit
from rules.shapes import Pattern

#: a card of the 52-card pack, as both games declare it (no jokers)
PackCard = Annotated[Card, Pattern(r"^(10|[2-9TJQKA])[CDHS]$")]


class PlayLike(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def card(self) -> Card: ...


class Play(NamedTuple):
    """A card played to a trick, and by whom."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickRules:
    """What a deal's tricks obey: the trump suit (None for no-trump), the duty to trump,
    and suits that may not be led while the leader holds another suit."""

    trump: Suit | None = None
    must_trump: bool = False
    lead_forbidden: frozenset[Suit] = frozenset()


def led_suit(plays: Sequence[PlayLike]) -> Suit | None:
    return plays[0].card.suit if plays else None


def playable(hand: Iterable[Card], plays: Sequence[PlayLike], rules: TrickRules) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to the trick so far (``plays``)."""
    hand = tuple(hand)
    if not plays:
        allowed = tuple(c for c in hand if c.suit not in rules.lead_forbidden)
        return allowed or hand
    led = led_suit(plays)
    following = tuple(c for c in hand if c.suit is led)
    if following:
        return following
    if rules.trump is not None and rules.must_trump:
        trumps = tuple(c for c in hand if c.suit is rules.trump)
        if trumps:
            return trumps
    return hand


def check_play(codes: Any, hand: Sequence[Card], plays: Sequence[PlayLike], card: Card, rules: TrickRules) -> None:
    """Raise, as the game's code (``codes``: its codes class), why ``card`` may not be played now."""
    if card not in hand:
        raise codes.card_not_in_hand(f"{card} is not in your hand", card=str(card))
    if card in playable(hand, plays, rules):
        return
    if not plays:
        raise codes.lead_forbidden(
            f"you may not lead {card}: {card.suit.sign if card.suit else card} may not be led while you hold another suit",
            card=str(card))
    led = led_suit(plays)
    if any(c.suit is led for c in hand):
        raise codes.must_follow_suit(f"{card} does not follow the led suit {led.sign}", card=str(card))  # type: ignore[union-attr]
    raise codes.must_trump(
        f"{card} is not a trump: with no {led.sign} you must play a trump ({rules.trump.sign})",  # type: ignore[union-attr]
        card=str(card))


def trick_winner(plays: Sequence[PlayLike], trump: Suit | None) -> int:
    """The seat that wins a complete trick: highest trump, else highest of the led suit."""
    led = led_suit(plays)
    trumps = [p for p in plays if trump is not None and p.card.suit is trump]
    contenders = trumps or [p for p in plays if p.card.suit is led]
    return max(contenders, key=lambda p: p.card.rank).seat


def next_seat(seat: int, players: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % players
