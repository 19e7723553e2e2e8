"""Card values, meld validation and the going-out solver (docs/rules/canasta.md §4, §8, §9).

A meld is ``(rank, cards)``: ``rank`` is 4..14 (4 to Ace) or 3 for a set of black threes.
A group in a move is the same pair: the cards go to the side's meld of that rank, which
is created when the side has none (one meld per rank per side, K-6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, Union

from rules.base import excerpt
from rules.cards import Card, Rank, deck, sorted_cards
from rules.shapes import Length, Scalar, declared, field, register_scalar

from ._codes import C

_VALUES = {Rank.JOKER: 50, Rank.TWO: 20, Rank.ACE: 20}
for _r in (Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING):
    _VALUES[_r] = 10
for _r in (Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN):
    _VALUES[_r] = 5
_BLACK_THREE_IN_HAND = 5

RANK_NAMES = {3: "3", **{r: Rank(r).symbol for r in range(4, 15)}}
NAME_RANKS = {v: k for k, v in RANK_NAMES.items()}


if TYPE_CHECKING:
    MeldRank = int
else:
    class MeldRank(int):
        """A meld's rank: 3 (black threes) or 4..14 (4 to Ace), written ``"3"``, ``"4"`` .. ``"10"``, ``"J"``,
        ``"Q"``, ``"K"``, ``"A"``. The values are plain ints; this class only names the shape."""


register_scalar(Scalar(MeldRank, {"type": "string", "enum": list(NAME_RANKS),
                                  "description": "a meld's rank: \"3\" (black threes), \"4\" .. \"10\", \"J\", "
                                                 "\"Q\", \"K\", \"A\""},
                       write=RANK_NAMES.__getitem__, parse=NAME_RANKS.__getitem__, table=NAME_RANKS))

Cards = Annotated[tuple[Card, ...], Length(0, 108)]


@declared
class Meld:
    """A meld on a side's table: its rank and its cards (naturals of the rank and wild cards)."""

    rank: MeldRank
    cards: Cards

    # a meld reads as the pair (rank, cards) the rules work with
    def __iter__(self) -> Iterator[Any]:
        return iter((self.rank, self.cards))

    def __getitem__(self, i: int) -> Any:
        return (self.rank, self.cards)[i]


@declared
class Group:
    """A group of a move: ``cards`` from the hand join the side's meld of ``rank``, made when the side
    has none; ``new`` starts another meld of a rank the side already has (option
    ``one_meld_per_rank`` false, K-6)."""

    rank: MeldRank
    cards: Annotated[tuple[Card, ...], Length(0, 30)]
    new: bool | None = field(default=None, doc="true: start another meld of this rank (one_meld_per_rank=false)")

    def __iter__(self) -> Iterator[Any]:
        return iter((self.rank, self.cards))

    def __getitem__(self, i: int) -> Any:
        return (self.rank, self.cards)[i]


#: a meld or a group as the rules read it: ``(rank, cards)`` (the solver's groups are plain pairs)
Pair = tuple[int, tuple[Card, ...]]
MeldLike = Union[Meld, Group, Pair]  # noqa: UP007  # Meld and Group are classes defined above


def as_groups(pairs: Iterable[Any], fresh: Iterable[int] = ()) -> tuple[Group, ...]:
    """Move groups from ``(rank, cards)`` pairs; the ranks in ``fresh`` start another meld."""
    fresh = frozenset(fresh)
    return tuple(Group(r, tuple(cs), True if r in fresh else None) for r, cs in pairs)


def is_wild(c: Card) -> bool:
    return c.rank is Rank.TWO or c.rank is Rank.JOKER


def is_red_three(c: Card) -> bool:
    return c.rank is Rank.THREE and c.suit is not None and c.suit.is_red


def is_black_three(c: Card) -> bool:
    return c.rank is Rank.THREE and c.suit is not None and not c.suit.is_red


def is_ordinary(c: Card) -> bool:
    """A card that may end the first turn-up: 4 to Ace (§3)."""
    return Rank.FOUR <= c.rank <= Rank.ACE


def card_value(c: Card, black_three: int = _BLACK_THREE_IN_HAND) -> int:
    """§4: the value of a card; a black three counts ``black_three`` (melded set: K-1)."""
    if c.rank is Rank.THREE:
        return black_three if not c.suit.is_red else 0  # type: ignore[union-attr]
    return _VALUES[c.rank]


#: the cards by what the rules ask of them most (one instance per card: look-ups by identity, in C)
_WILDS = frozenset(c for c in deck(jokers=1) if is_wild(c))
CARD_VALUES = {c: card_value(c) for c in deck(jokers=1)}  # card_value(c), a black three counting 5


def hand_value(cards: Iterable[Card]) -> int:
    return sum(card_value(c) for c in cards)


def meld_value(meld: MeldLike, black_three: int) -> int:
    rank, cards = meld
    return sum(black_three if rank == 3 else card_value(c) for c in cards)


def wild_count(cards: Iterable[Card]) -> int:
    return len([c for c in cards if c in _WILDS])


def is_canasta(meld: MeldLike) -> bool:
    return len(meld[1]) >= 7


def is_natural_canasta(meld: MeldLike) -> bool:
    return is_canasta(meld) and wild_count(meld[1]) == 0


def max_wilds(naturals: int, cap3: bool) -> int:
    """K-5: never more wilds than naturals, and (default) at most 3 wilds in a meld."""
    return min(naturals, 3) if cap3 else naturals


BY_RANK = attrgetter("rank")  # a meld's or group's rank: the sort key of a side's melds


def group_text(rank: int, cards: Sequence[Card]) -> str:
    return f"{RANK_NAMES.get(rank, rank)}: [{', '.join(map(str, cards))}]"


def check_meld_shape(rank: int, cards: Sequence[Card], existing: Meld | None, cap3: bool) -> Meld:
    """The meld of ``rank`` after adding ``cards`` to ``existing`` (or making it); raises IllegalMove."""
    if not cards:
        raise C.empty_group(f"a meld group holds no cards ({group_text(rank, cards)})")
    if rank == 3:
        if existing is not None or not all(is_black_three(c) for c in cards) or not 3 <= len(cards) <= 4:
            raise C.bad_black_threes(
                f"black threes are melded only as one set of 3 or 4 black threes, no wilds ({group_text(rank, cards)})"
            )
        return Meld(3, tuple(cards))
    wilds = 0
    for c in cards:
        if c in _WILDS:
            wilds += 1
        elif c.rank != rank:
            if c.rank is Rank.THREE:
                raise C.three_in_meld(f"a three never goes into an ordinary meld: {c} in {group_text(rank, cards)}",
                                  card=str(c))
            raise C.not_of_rank(f"{c} does not belong in a meld of {RANK_NAMES[rank]} ({group_text(rank, cards)})",
                              card=str(c), expected=RANK_NAMES[rank])
    if existing is not None:
        old = existing.cards
        allc = old + tuple(cards)
        wilds += wild_count(old)
    else:
        allc = tuple(cards)
    naturals = len(allc) - wilds
    if existing is None:
        if len(allc) < 3:
            raise C.too_few_cards(f"a new meld needs at least 3 cards ({group_text(rank, cards)})")
        if naturals < 2:
            raise C.too_few_naturals(f"a meld needs at least two natural cards ({group_text(rank, cards)})")
    if wilds > max_wilds(naturals, cap3):
        raise C.too_many_wilds(
            f"a meld may hold no more wild cards than naturals{' and at most 3' if cap3 else ''}: "
            f"{naturals} naturals and {wilds} wilds after {group_text(rank, cards)}", expected=max_wilds(naturals, cap3), got=wilds,
        )
    return Meld(rank, allc)


def remove_cards(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` less ``cards`` (a multiset); raises card-not-in-hand for the first card (in the
    order given) that the hand does not hold (once more)."""
    cards = list(cards)
    take: dict[Card, int] = {}  # a card is one instance: counted by identity, in C
    get = take.get
    for c in cards:
        take[c] = get(c, 0) + 1
    left = []
    for c in hand:
        n = get(c)
        if n:
            take[c] = n - 1
        else:
            left.append(c)
    if len(left) + len(cards) != len(hand):
        held: dict[Card, int] = {}
        for c in hand:
            held[c] = held.get(c, 0) + 1
        for c in cards:
            n = held.get(c, 0)
            if not n:
                raise C.card_not_in_hand(f"{c} is not in the hand "
                                         f"({excerpt(' '.join(map(str, sorted(hand))))})", card=str(c))
            held[c] = n - 1
    return tuple(sorted_cards(left))


def apply_groups(
    melds: tuple[Meld, ...],
    groups: Sequence[Group],
    cap3: bool,
    one_per_rank: bool = True,
) -> tuple[tuple[Meld, ...], tuple[Meld, ...]]:
    """The side's melds after the groups, and the melds this move started.

    A group joins the side's (latest) meld of its rank, or starts one when there is none.
    A group marked ``new`` starts another meld beside the side's existing one, which only
    K-6's option (``one_per_rank`` false) allows.
    """
    table = list(melds)
    seen: set[int] = set()
    started: list[Meld] = []  # never changed later in the move: a rank has one group in it
    last = {m.rank: i for i, m in enumerate(table)} if table else {}  # each rank's latest meld
    for g in groups:
        rank, cards = g.rank, g.cards
        if rank in seen:
            raise C.duplicate_rank(f"two groups of rank {RANK_NAMES.get(rank, rank)} in one move",
                              expected=RANK_NAMES.get(rank, str(rank)))
        seen.add(rank)
        at = last.get(rank)
        if at is not None and g.new:
            if one_per_rank:
                raise C.one_meld_per_rank(
                    f"the side already has a meld of {RANK_NAMES.get(rank, rank)}: one meld per rank (K-6)",
                    expected=RANK_NAMES.get(rank, str(rank)),
                )
            at = None
        if at is None:
            meld = check_meld_shape(rank, cards, None, cap3)
            last[rank] = len(table)
            table.append(meld)
            started.append(meld)
        else:
            table[at] = check_meld_shape(rank, cards, table[at], cap3)
    table.sort(key=BY_RANK)  # stable: a rank's melds keep their order
    return tuple(table), tuple(started)


def shadowed_canastas(melds: Sequence[MeldLike]) -> int:
    """Canastas that are not their rank's latest meld (only with K-6's option)."""
    last = {r: i for i, (r, _) in enumerate(melds)}
    return sum(1 for i, (r, cs) in enumerate(melds) if len(cs) >= 7 and last[r] != i)


# --------------------------------------------------------------------------- solver


def go_out_groups(
    hand: Sequence[Card],
    melds: Sequence[MeldLike],
    cap3: bool,
    need_canastas: int,
    allow_discard: bool,
    forced: int | None = None,
) -> tuple[tuple[Pair, ...], Card | None] | None:
    """Groups that meld the whole hand (or all but one card, then discarded), or None.

    The side must end with ``need_canastas`` canastas (0: no condition). ``forced`` is a
    rank whose meld must exist afterwards (the top card's, when taking it to go out).
    Every natural of a rank joins that rank's meld, so only the discard and the wild
    cards are choices: each rank's meld needs ``3 - naturals`` wilds when new and takes at
    most ``max_wilds`` in all; spare wilds complete the canastas closest to seven first.
    """
    candidates: list[Card | None] = [None]
    if allow_discard:
        discards: list[Card] = sorted(set(hand), key=lambda c: (-card_value(c), c))
        candidates.extend(discards)
    table = {m[0]: m[1] for m in melds}
    need_canastas = max(0, need_canastas - shadowed_canastas(melds)) if need_canastas else 0
    for discard in candidates:
        cards = list(hand)
        if discard is not None:
            cards.remove(discard)
        if not cards:
            continue
        plan = _plan(cards, table, cap3, need_canastas, forced)
        if plan is not None:
            return plan, discard
    return None


def _plan(cards: list[Card], table: Mapping[int, Any], cap3: bool, need: int, forced: int | None) -> tuple[Pair, ...] | None:
    wilds = [c for c in cards if is_wild(c)]
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if not is_wild(c):
            by_rank.setdefault(int(c.rank), []).append(c)
    groups: dict[int, list[Card]] = {}
    black = by_rank.pop(3, [])
    if black:
        if len(black) < 3 or 3 in table or not all(is_black_three(c) for c in black):
            return None
        groups[3] = list(black)
    size: dict[int, int] = {}
    room: dict[int, int] = {}
    for rank, nat in by_rank.items():
        old = table.get(rank, ())
        if not old and len(nat) < 2:
            return None
        groups[rank] = list(nat)
        old_w = wild_count(old)
        n = len(old) - old_w + len(nat)
        want = max(0, 3 - len(nat)) if not old else 0
        size[rank] = len(old) + len(nat)
        room[rank] = max_wilds(n, cap3) - old_w
        if room[rank] < want or len(wilds) < want:
            return None
        for _ in range(want):
            groups[rank].append(wilds.pop())
        size[rank] += want
        room[rank] -= want
    if forced is not None and forced not in groups and forced not in table:
        return None
    for rank, cards_ in table.items():
        if rank not in size and rank != 3:
            size[rank] = len(cards_)
            room[rank] = max_wilds(len(cards_) - wild_count(cards_), cap3) - wild_count(cards_)
    if len(wilds) > sum(max(0, r) for r in room.values()):
        return None
    # complete canastas, closest first, then spread the rest
    order = sorted((r for r in room if size[r] < 7), key=lambda r: 7 - size[r])
    for rank in order:
        gap = 7 - size[rank]
        if gap <= min(room[rank], len(wilds)):
            for _ in range(gap):
                groups.setdefault(rank, []).append(wilds.pop())
            size[rank] += gap
            room[rank] -= gap
    for rank in sorted(room):
        while wilds and room[rank] > 0:
            groups.setdefault(rank, []).append(wilds.pop())
            room[rank] -= 1
            size[rank] += 1
    if wilds:
        return None
    if need and sum(1 for r in size if size[r] >= 7) < need:
        return None
    return tuple((r, tuple(g)) for r, g in sorted(groups.items()))


def greedy_groups(hand: Sequence[Card], melds: Sequence[MeldLike], cap3: bool, keep: int) -> tuple[Pair, ...]:
    """A large legal set of groups from ``hand`` (no black threes), keeping ``keep`` cards.

    New melds of every rank held three times or more (twice, with a wild), all naturals
    laid on existing melds, then the spare wilds where they fit. Used to list melds.
    """
    table = {m[0]: m[1] for m in melds}
    wilds = [c for c in hand if is_wild(c)]
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        if not is_wild(c) and c.rank is not Rank.THREE:
            by_rank.setdefault(int(c.rank), []).append(c)
    groups: dict[int, list[Card]] = {}
    room: dict[int, int] = {}
    for rank, nat in sorted(by_rank.items(), key=lambda kv: -len(kv[1])):
        old = table.get(rank, ())
        if old or len(nat) >= 3:
            groups[rank] = list(nat)
        elif len(nat) == 2 and wilds:
            groups[rank] = nat + [wilds.pop()]
        else:
            continue
        allc = old + tuple(groups[rank])
        room[rank] = max_wilds(len(allc) - wild_count(allc), cap3) - wild_count(allc)
    for rank, old in table.items():
        if rank not in room and rank != 3:
            room[rank] = max_wilds(len(old) - wild_count(old), cap3) - wild_count(old)
    for rank in sorted(room):
        while wilds and room[rank] > 0:
            groups.setdefault(rank, []).append(wilds.pop())
            room[rank] -= 1
    out = [(r, g) for r, g in sorted(groups.items())]
    # keep enough cards in the hand: drop whole groups from the cheapest end
    total = sum(len(g) for _, g in out)
    while out and len(hand) - total < keep:
        r, g = out.pop(0)
        total -= len(g)
    return tuple((r, tuple(g)) for r, g in out)
