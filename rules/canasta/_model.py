"""Kanasta's declarations (DESIGN 4.8): phases, options, the state, the moves, the score breakdown
and the score sheet; and the checks of meaning of a state read by its shape (§13)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import Enum
from operator import attrgetter
from typing import Annotated, ClassVar, Literal

from rules.base import ErrorCode, IllegalMove, Label, NextRound, Rng, RulesError, excerpt, replace
from rules.cards import Card, deck, sorted_cards
from rules.shapes import Length, Range, Visibility, computed, declared, field, option

from ._codes import C
from ._melds import BY_RANK, RANK_NAMES, Group, Meld, MeldRank, check_meld_shape, is_red_three, is_wild

FULL_DECK = Counter(deck(packs=2, jokers=4))
_RED_THREES = frozenset(c for c in FULL_DECK if is_red_three(c))
_TOTAL = 10**7
_MAX_ROUNDS = 10**6


class Phase(Enum):
    DRAW = "draw"            # the player to act draws, takes the pile or takes the top to go out
    PLAY = "play"            # meld, then discard
    ANSWER = "answer"        # the partner answers "may I go out?"
    DOUBLE = "double"        # the partner of the player who went out may meld his whole hand
    ROUND_OVER = "round-over"  # scores final; next-round deals
    GAME_OVER = "game-over"

    # members are singletons compared by identity: hashed by identity too, in C, not by Enum's
    # Python-level hash of the name (the phase keys a look-up on every move)
    __hash__ = object.__hash__


# --------------------------------------------------------------------------- options (docs §12)


@declared
class Options:
    black_three_meld_value: Literal[50, 5] = option(
        default=50,
        description="K-1: points per black three melded as a set when going out (50: the seed; 5: the sister text, "
                    "Pagat); docs/rules/canasta.md §10",
        label=Label("Black three melded", "Czarna trójka wyłożona"),
        help=Label("What each black three scores when melded as a set on going out.",
                   "Ile jest warta każda czarna trójka wyłożona w układzie przy kończeniu gry."),
        choices={50: Label("50 points", "50 punktów"), 5: Label("5 points", "5 punktów")})
    red_three_replacement: Literal["dealt-and-drawn", "dealt-only"] = option(
        default="dealt-and-drawn",
        description="K-2: which red threes get a replacement card from the stock (never those in a bought pile); "
                    "docs/rules/canasta.md §5",
        label=Label("Red three replaced", "Czerwona trójka uzupełniana"),
        help=Label("Which red threes laid out are replaced by a card from the stock.",
                   "Za które wyłożone czerwone trójki dobiera się kartę z talonu."),
        choices={"dealt-and-drawn": Label("Dealt and drawn ones", "Rozdane i dobrane"),
                 "dealt-only": Label("Dealt ones only", "Tylko rozdane")})
    canasta_blocks_discard: Literal["own-side", "everyone"] = option(
        default="own-side",
        description="K-3: a canasta of the top card's rank blocks the discard pile for its own side only, or for "
                    "everyone; docs/rules/canasta.md §7.1",
        label=Label("A canasta blocks the discard pile", "Kanasta blokuje stos"),
        help=Label("Whom a canasta of the top card's rank stops from taking the discard pile.",
                   "Komu kanasta w wysokości wierzchniej karty nie pozwala kupić stosu."),
        choices={"own-side": Label("Its own side", "Własną drużynę"), "everyone": Label("Everyone", "Wszystkich")})
    one_card_rule: Literal["one-card-discard", "any-discard"] = option(
        default="one-card-discard",
        description="K-4: a player holding one card may not take a discard pile of one card (or: no discard pile "
                    "at all); docs/rules/canasta.md §7.4",
        label=Label("One card in hand", "Jedna karta w ręku"),
        help=Label("Which discard piles a player holding one card may not take.",
                   "Których stosów nie może kupić gracz z jedną kartą w ręku."),
        choices={"one-card-discard": Label("A pile of one card", "Stosu z jedną kartą"),
                 "any-discard": Label("Any pile", "Żadnego stosu")})
    max_three_wilds: bool = option(
        default=True, description="K-5: at most 3 wild cards in any meld; docs/rules/canasta.md §8",
        label=Label("At most three wild cards", "Najwyżej trzy dżokery"),
        help=Label("No meld holds more than three wild cards.", "Żaden układ nie ma więcej niż trzech dżokerów."))
    one_meld_per_rank: bool = option(
        default=True,
        description="K-6: a side holds at most one meld of each rank (false: a group marked \"new\" starts another "
                    "meld of a rank the side already has); docs/rules/canasta.md §8",
        label=Label("One meld per rank", "Jeden układ na wysokość"),
        help=Label("A side holds one meld of each rank.", "Drużyna ma najwyżej jeden układ każdej wysokości."))
    last_discard_buyable: bool = option(
        default=False,
        description="K-7: after the last stock card, the next player may still take the discard pile and finish "
                    "his turn; docs/rules/canasta.md §9.5",
        label=Label("Last discard pile may be taken", "Ostatni stos można kupić"),
        help=Label("Once the stock is used up, the next player may still take the discard pile.",
                   "Po wyczerpaniu talonu następny gracz może jeszcze kupić stos."))
    wild_turn_up_closes_discard: bool = option(
        default=True,
        description="K-8: a wild card turned up when starting the discard pile closes it for everyone; "
                    "docs/rules/canasta.md §3",
        label=Label("A wild card turned up closes the pile", "Odkryty dżoker zamyka stos"),
        help=Label("A wild card turned up at the deal closes the discard pile, as a discarded one does.",
                   "Dżoker odkryty przy rozdaniu zamyka stos, tak jak zrzucony."))
    red_threes_laid: Literal["first-turn", "deal"] = option(
        default="first-turn",
        description="K-9: dealt red threes are laid out (and replaced) at the owner's first turn, or at the deal; "
                    "docs/rules/canasta.md §5",
        label=Label("Dealt red threes laid out", "Rozdane czerwone trójki wykładane"),
        help=Label("When dealt red threes are laid out and replaced.",
                   "Kiedy wykłada się i uzupełnia rozdane czerwone trójki."),
        choices={"first-turn": Label("At the owner's first turn", "W pierwszej kolejce właściciela"),
                 "deal": Label("At the deal", "Przy rozdaniu")})
    opening_table: Literal["5000", "7500", "10000"] = option(
        default="5000",
        description="opening minimum table: 5000 (15/50/90/120), 7500 (a whole canasta at 5000+), 10000 "
                    "(15/30/60/90/120/150/180); docs/rules/canasta.md §6",
        label=Label("Opening minimum table", "Tabela minimum otwarcia"),
        help=Label("How many points a side's first melds need, by its score.",
                   "Ile punktów potrzebuje pierwsze wyłożenie drużyny, zależnie od jej wyniku."),
        choices={"5000": Label("Game to 5000", "Gra do 5000"), "7500": Label("Game to 7500", "Gra do 7500"),
                 "10000": Label("Game to 10000", "Gra do 10000")})
    target_score: Annotated[int, Range(50, 100000)] = option(
        default=5000,
        description="the game ends after a hand in which a side reaches this score; when not given, the opening "
                    "table's length (5000, 7500 or 10000); docs/rules/canasta.md §11",
        label=Label("Target score", "Wynik do osiągnięcia"),
        help=Label("The game ends after the round in which a side reaches this score.",
                   "Gra kończy się po rozdaniu, w którym drużyna osiągnie ten wynik."))
    from_hand_after_buying: bool = option(
        default=True,
        description="a player who had laid nothing, buys the discard pile and lays his whole hand in that turn "
                    "goes out from hand (the seed; bound by the opening minimum); false: only after a stock draw "
                    "or the top card; docs/rules/canasta.md §9.4",
        label=Label("Going out from hand after taking the pile", "Skończenie z ręki po kupieniu stosu"),
        help=Label("Taking the discard pile and laying the whole hand in that turn counts as going out from hand.",
                   "Kupienie stosu i wyłożenie całej ręki w tej samej kolejce to skończenie gry z ręki."))


# --------------------------------------------------------------------------- the state (docs §13)

Seat = Annotated[int, Range(0, 3)]
Cards = Annotated[tuple[Card, ...], Length(0, 108)]
PerSeat = Length(2, 4)
Points = Annotated[int, Range(-_TOTAL, _TOTAL)]


@declared
class Side:
    """One side's table: its melds (sorted by rank), its red threes, its total after the last finished round."""

    melds: Annotated[tuple[Meld, ...], Length(0, 24)] = field(doc="the side's melds, sorted by rank")
    red_threes: Annotated[tuple[Card, ...], Length(0, 4)] = field(doc="the red threes laid out before the side")
    total: Points = field(doc="the side's total after the last finished round")


@declared
class State:
    players: Annotated[int, Range(2, 4)]
    options: Options
    round: Annotated[int, Range(1, _MAX_ROUNDS)] = field(doc="the round being played (1-based)")
    dealer: Seat = field(doc="the seat that dealt this round")
    turn: Seat | None = field(doc="the one seat to act: the player, or his partner while he answers or may go out "
                                  "double; null once the round is over")
    phase: Phase
    stock: Cards = field(doc="the face-down stock (talon), top card last", visibility=Visibility.HIDDEN)
    discard: Cards = field(doc="the discard pile (stos), top card last; a view shows its top card and size only: "
                               "the pile may not be looked through", visibility=Visibility.TOP)
    discard_closed: bool = field(doc="a wild card lies in the discard pile (crosswise): it is closed (§7.2)")
    hands: Annotated[tuple[Cards, ...], PerSeat] = field(
        doc="each seat's hand, sorted", visibility=Visibility.OWN, sizes_name="hand_sizes")
    sides: Annotated[tuple[Side, ...], Length(2, 3)] = field(
        doc="per side (seats 0+2 and 1+3 with four players, each seat alone otherwise; see `seat_sides`)")
    history: Annotated[tuple[Annotated[tuple[Points, ...], PerSeat], ...], Length(0, _MAX_ROUNDS)] = field(
        doc="one row per finished round: each seat's points (partners alike)")
    laid: Annotated[tuple[bool, ...], PerSeat] = field(doc="per seat: has laid a card on the table this round")
    pending: Annotated[tuple[bool, ...], PerSeat] = field(
        json_name="red_threes_pending", visibility=Visibility.OWN,
        doc="per seat: dealt red threes still in the hand, laid out at the owner's first turn (K-9)")
    drew: Literal["stock", "discard"] | None = field(doc="this turn: what the player drew from, or null")
    asked: Literal["asked", "yes", "no"] | None = field(doc="this turn: \"may I go out?\" asked, answered, or null")
    meld_moves: Annotated[int, Range(0, 200)] = field(doc="meld moves made this turn")
    concealed_melds: Annotated[tuple[MeldRank, ...], Length(0, 12)] | None = field(
        doc="while this turn can still go out from hand: the ranks of the melds it started (§9.4); else null")
    buying: bool = field(doc="K-7: the turn after the stock ran out, in which the last pile may be taken")
    out_seat: Seat | None = field(doc="the seat that went out this round, or null")
    double_out: bool = field(doc="the partner went out double (§9.3)")
    concealed_out: bool = field(doc="the going out was from hand (§9.4)")
    ending: Literal["out", "stock"] | None = field(doc="how the round ended: by going out, by the stock; null while "
                                                       "it is played")
    rng: Rng = field(visibility=Visibility.SECRET)

    @computed(doc="the side each seat plays on (an index into `sides`): seat % 2 with four players, the seat "
                  "itself otherwise")
    def seat_sides(self) -> tuple[Annotated[int, Range(0, 2)], ...]:
        return _SEAT_SIDES[self.players]

    # the engine reads the sides' parts as one tuple per side
    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        return tuple(map(_MELDS, self.sides))

    @property
    def red_threes(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(map(_RED_THREES_OF, self.sides))

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(map(_TOTAL_OF, self.sides))


def _seat_side(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


#: per table size, the side each seat plays on: seat % 2 with four players (partners), the seat
#: itself otherwise (State.seat_sides, written in every state's JSON)
_SEAT_SIDES = {players: tuple(_seat_side(players, seat) for seat in range(players)) for players in (2, 3, 4)}
_MELDS, _RED_THREES_OF, _TOTAL_OF = attrgetter("melds"), attrgetter("red_threes"), attrgetter("total")


def sides_with(state: State, side: int, **changes: object) -> tuple[Side, ...]:
    """``state``'s sides with one side's ``melds``, ``red_threes`` or ``total`` changed (for one
    ``replace`` of the state that changes more than the side)."""
    sides = state.sides
    return sides[:side] + (replace(sides[side], **changes),) + sides[side + 1:]


HAND_SIZE = {2: 15, 3: 13, 4: 11}
LIVE = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.DOUBLE)


def player_of(s: State) -> int | None:
    """The seat whose turn it is: the seat to act, or the asker/out player when his partner acts."""
    if s.turn is None:
        return None
    return (s.turn + 2) % 4 if s.phase in (Phase.ANSWER, Phase.DOUBLE) else s.turn


# --------------------------------------------------------------------------- moves (docs §14)

Groups = Annotated[tuple[Group, ...], Length(0, 12)]
Using = Annotated[tuple[Card, ...], Length(0, 30)]


@declared
class Draw:
    """Draw the top card of the stock (§5)."""

    kind: ClassVar[str] = "draw"
    label: ClassVar[Label] = Label("Draw from the stock", "Dobierz z talonu")


@declared
class TakeDiscard:
    """Take the discard pile (§7.5): the hand cards shown with the top card (``using``) and the top card
    make or join the meld of its rank, with any further groups (``melds``) laid before the rest of the
    pile is picked up; judged as a whole (the opening minimum)."""

    using: Using = field(doc="the hand cards shown with the top card: naturals of its rank or wild cards")
    melds: Groups = field(default=(), doc="further groups laid before the rest of the pile is picked up")
    kind: ClassVar[str] = "take-discard"
    label: ClassVar[Label] = Label("Take the discard pile", "Kup stos")


@declared
class TakeTop:
    """Take only the top card of the discard pile and meld the whole hand with it: going out (§7.6)."""

    using: Using = field(doc="the hand cards melded with the top card: naturals of its rank or wild cards")
    melds: Groups = field(default=(), doc="the other groups: every card left in the hand")
    kind: ClassVar[str] = "take-top-to-go-out"
    label: ClassVar[Label] = Label("Take the top card to go out", "Weź wierzchnią kartę i skończ")


@declared
class MeldMove:
    """Lay new melds or add cards to the side's melds (§8), judged as a whole."""

    melds: Groups = field(doc="the groups laid")
    kind: ClassVar[str] = "meld"
    label: ClassVar[Label] = Label("Meld", "Wyłóż układy")


@declared
class Discard:
    """Discard a card onto the discard pile: the turn ends (§5)."""

    card: Card
    kind: ClassVar[str] = "discard"
    label: ClassVar[Label] = Label("Discard", "Zrzuć kartę")


@declared
class AskPartner:
    """Ask the partner "may I go out?" (§9.2, K-10)."""

    kind: ClassVar[str] = "ask-partner"
    label: ClassVar[Label] = Label("Ask the partner: may I go out?", "Zapytaj partnera: czy mogę skończyć?")


@declared
class Answer:
    """The partner's answer to "may I go out?"; the asker must abide by it this turn (§9.2)."""

    yes: bool
    kind: ClassVar[str] = "answer"
    label: ClassVar[Label] = Label("Answer the partner", "Odpowiedz partnerowi")


@declared
class DoubleGoOut:
    """Meld every card of the hand when the partner went out (§9.3)."""

    melds: Groups = field(doc="the groups: every card of the hand")
    kind: ClassVar[str] = "double-go-out"
    label: ClassVar[Label] = Label("Go out double", "Skończ podwójnie")


@declared
class DeclineDouble:
    """Do not go out double: the round ends (§9.3)."""

    kind: ClassVar[str] = "decline-double"
    label: ClassVar[Label] = Label("Do not go out double", "Nie kończ podwójnie")


@declared
class EndRound:
    """End the round when the stock is used up and the discard pile is not taken (§9.5)."""

    kind: ClassVar[str] = "end-round"
    label: ClassVar[Label] = Label("End the round", "Zakończ rozdanie")


Move = (
    Draw | TakeDiscard | TakeTop | MeldMove | Discard | AskPartner | Answer | DoubleGoOut | DeclineDouble
    | EndRound | NextRound
)
MOVES = (Draw, TakeDiscard, TakeTop, MeldMove, Discard, AskPartner, Answer, DoubleGoOut, DeclineDouble, EndRound,
         NextRound)


def cards_json(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


# --------------------------------------------------------------------------- scores (docs §10, §15)


@declared
class Breakdown:
    """One seat's side's points of a round (partners repeat their side's figures), item by item (§10)."""

    side: Annotated[int, Range(0, 2)] = field(doc="the seat's side (an index into the state's `sides`)")
    meld_cards: int = field(doc="the card values of the side's melds (black-three sets apart)")
    natural_canastas: Annotated[int, Range(0, 20)] = field(doc="natural canastas (no wild card)")
    natural_canasta_bonus: int = field(doc="+500 a natural canasta")
    mixed_canastas: Annotated[int, Range(0, 20)] = field(doc="mixed canastas (with wild cards)")
    mixed_canasta_bonus: int = field(doc="+300 a mixed canasta")
    black_threes: int = field(doc="a black-three set melded when going out (K-1)")
    red_threes: Annotated[int, Range(0, 4)] = field(doc="red threes laid out")
    red_three_points: int = field(doc="+100 each (+800 all four) with a canasta, as much against without one")
    going_out: int = field(doc="+100 for going out")
    double_going_out: int = field(doc="+100 for going out double")
    going_out_from_hand: int = field(doc="+100 for going out from hand")
    cards_in_hand: int = field(doc="the values of the cards left in the side's hands, against")
    points: int = field(doc="the round's points of the side")


@declared
class TallyOptions:
    """The options that change a round's points; each defaults to the game's default."""

    black_three_meld_value: Literal[50, 5] = field(default=50, doc="as the option `black_three_meld_value`")
    max_three_wilds: bool = field(default=True, doc="as the option `max_three_wilds`")
    one_meld_per_rank: bool = field(default=True, doc="as the option `one_meld_per_rank`")


@declared
class TallySide:
    """One side on the score sheet."""

    melds: Annotated[tuple[Meld, ...], Length(0, 24)] = field(default=(), doc="the side's melds")
    red_threes: Annotated[int, Range(0, 4)] = field(default=0, doc="red threes laid out")
    hands: Annotated[tuple[Cards, ...], Length(1, 2)] | None = field(
        default=None, doc="the cards left in each hand of the side (two with four players); absent: empty")
    went_out: bool = field(default=False, doc="the side went out")
    double: bool = field(default=False, doc="the partner went out double")
    concealed: bool = field(default=False, doc="the going out was from hand")
    total: Points = field(default=0, doc="the side's total before the round")


@declared
class Tally:
    """One round of a score sheet: per side its melds, red threes, hands and how it ended (§15)."""

    sides: Annotated[tuple[TallySide, ...], Length(2, 3)]
    players: Annotated[int, Range(2, 4)] = field(default=4, doc="2, 3 or 4 (4: two sides of partners)")
    ended: Literal["out", "stock"] = field(default="out", doc="the round ended by going out or by the stock")
    options: TallyOptions = field(default=TallyOptions(), doc="the options that change the points")


# --------------------------------------------------------------------------- the checks of meaning (§13)


def check_state(s: State, reachable: bool = True) -> State:
    """What play can reach, beyond the shape: one entry per seat and side, the melds and red threes, the
    108 cards, the turn and this turn's flags, the hand sizes, the totals. Hands and melds are sorted."""
    players = s.players
    nsides = 2 if players == 4 else players
    for key, entries in (("hands", s.hands), ("laid", s.laid), ("red_threes_pending", s.pending)):
        if len(entries) != players:
            raise C.seat_count(f"{key} must have one entry per seat ({players}), got {len(entries)}", field=key,
                               expected=players, got=len(entries))
    for row in s.history:
        if len(row) != players:
            raise C.seat_count(f"a history row lists {players} seats' points, got {list(row)}", field="history",
                               expected=players, got=len(row))
    if len(s.sides) != nsides:
        raise C.bad_sides(f"sides must list {nsides} sides", expected=nsides)
    for name, seat in (("dealer", s.dealer), ("turn", s.turn), ("out_seat", s.out_seat)):
        if seat is not None and seat >= players:
            raise C.bad_turn(f"{name} must be a seat 0..{players - 1}, got {seat}", seat=seat)
    if s.phase in LIVE and s.turn is None:
        raise C.bad_turn(f"a round being played ({s.phase.value}) has a seat to act: turn is null", seat=0)
    cap3, one_per_rank = s.options.max_three_wilds, s.options.one_meld_per_rank
    # the 108 cards, gathered in one list while the sides are checked (a state may hold thousands)
    cards = [*s.stock, *s.discard]
    sides = []
    for i, side in enumerate(s.sides):
        if side.melds:
            check_side_melds(side.melds, i, cap3, one_per_rank, C.bad_meld)
            melds = tuple(sorted(side.melds, key=BY_RANK))  # stable: a rank's melds keep their order
            if melds != side.melds:
                side = replace(side, melds=melds)
            for m in melds:
                cards.extend(m.cards)
        if not _RED_THREES.issuperset(side.red_threes):
            raise C.bad_red_threes(f"sides.{i}.red_threes holds a card that is not a red three: "
                                   f"{cards_json(side.red_threes)}")
        cards.extend(side.red_threes)
        sides.append(side)
    hands = tuple([tuple(sorted_cards(h)) for h in s.hands])
    for h in hands:
        cards.extend(h)
    seen_cards = Counter(cards)
    # every count is positive in both: a plain dict comparison (C speed) is the Counter's
    if dict.__ne__(seen_cards, FULL_DECK):
        missing = sorted((FULL_DECK - seen_cards).elements())
        extra = sorted((seen_cards - FULL_DECK).elements())
        raise C.cards_not_conserved(
            f"the state must hold the 108 cards exactly once each; missing {excerpt(cards_json(missing))}, "
            f"extra {excerpt(cards_json(extra))}", card=str((missing or extra)[0]))
    if hands != s.hands or any([a is not b for a, b in zip(sides, s.sides, strict=True)]):
        s = replace(s, hands=hands, sides=tuple(sides))
    if reachable:
        _check_reachable(s)
    return s


def check_side_melds(melds: Sequence[Meld], i: int, cap3: bool, one_per_rank: bool, code: ErrorCode) -> None:
    """A side's laid melds as a state or a score sheet gives them (side ``i``): each meld's shape
    (§8), and one meld per rank where the option says so; ``code`` is the refusal."""
    ranks: set[int] = set()
    for m in melds:
        if one_per_rank and m.rank in ranks:
            raise code(f"sides.{i}: repeated meld rank {RANK_NAMES[m.rank]}")
        ranks.add(m.rank)
        try:
            check_meld_shape(m.rank, m.cards, None, cap3)
        except IllegalMove as exc:  # any meld rule
            raise code(f"sides.{i}: {exc.message}") from None

def side_of(s: State, seat: int) -> int:
    """The side ``seat`` plays on: seat % 2 with four players (partners), the seat itself otherwise."""
    return _seat_side(s.players, seat)



def _check_reachable(s: State) -> None:
    """Refuse a state that conserves the cards but that no sequence of moves reaches (issue 10 §2):
    the turn and phase, the flags of this turn, hand sizes, and the totals."""
    opts = s.options
    live = s.phase in LIVE
    player = player_of(s)
    melds = s.melds  # a property, made once here

    def turn_error(msg: str) -> RulesError:
        return C.bad_turn(msg, seat=player)

    # -- the turn and the phase
    if not live and (s.turn is not None or s.drew or s.asked or s.meld_moves or s.concealed_melds is not None):
        raise turn_error(f"nobody has a turn in the {s.phase.value} phase: turn, drew, asked and "
                         "concealed_melds are null, meld_moves 0")
    if s.players != 4 and (s.asked or s.phase in (Phase.ANSWER, Phase.DOUBLE)):
        raise turn_error("only partners ask 'may I go out?' and go out double (4 players)")
    if s.phase is Phase.DRAW and (s.drew or s.meld_moves):
        raise turn_error("in the draw phase the player has neither drawn nor melded")
    if s.phase is Phase.PLAY and not s.drew:
        raise turn_error("in the play phase the player has drawn or taken the pile")
    if (s.phase is Phase.ANSWER) != (s.asked == "asked"):
        raise turn_error("the answer phase follows a question, and a question is answered at once")
    if s.buying and (s.stock or not opts.last_discard_buyable or not live):
        raise turn_error("the last pile is bought (K-7) only once the stock is empty, under last_discard_buyable")
    if s.phase in (Phase.DRAW, Phase.ANSWER) and not s.drew and not s.stock and not s.buying:
        raise turn_error("with the stock empty the round ended at the last drawer's discard")
    if live == bool(s.ending):
        raise turn_error("a finished round says how it ended (ending), and only a finished round")
    if s.ending == "stock" and s.stock:
        raise turn_error("a round ends by the stock only once the stock is empty")
    if (s.ending == "out" or s.phase is Phase.DOUBLE) != (s.out_seat is not None):
        raise turn_error("out_seat names the player who went out, and only then")
    if s.phase is Phase.DOUBLE and player != s.out_seat:
        raise turn_error("in the double phase the partner of the player who went out acts")
    if (s.double_out and (s.ending != "out" or s.players != 4)) or (s.concealed_out and s.out_seat is None):
        raise turn_error("double_out and concealed_out describe a going out")
    if s.out_seat is not None and s.hands[s.out_seat]:
        raise C.bad_hand_size(f"seat {s.out_seat} went out but holds cards", seat=s.out_seat, expected=0)
    if s.double_out:
        assert s.out_seat is not None, "checked above: double_out is a going out, which names out_seat"
        if s.hands[(s.out_seat + 2) % 4]:
            raise C.bad_hand_size("a double going out empties the partner's hand too", seat=(s.out_seat + 2) % 4,
                                  expected=0)
    out_side = None if s.out_seat is None else side_of(s, s.out_seat)
    for side, table in enumerate(melds):
        if table and side != out_side and any(r == 3 for r, _ in table):
            raise C.bad_meld(f"sides[{side}] shows black threes, which only the side going out melds (§8)")
    if s.discard and is_red_three(s.discard[-1]):
        raise C.bad_discard("a red three never lies on top of the pile: turned up, it is covered (§3)")
    if s.discard_closed and not any(is_wild(c) for c in s.discard):
        raise C.bad_discard("the discard pile is closed only by a wild card lying in it (§7)")
    # -- this turn's flags
    if (s.drew == "discard" or s.meld_moves or s.concealed_melds is not None) and (
            player is None or not s.laid[player]):
        raise turn_error("taking the pile or melding lays cards: the player has laid")
    if s.concealed_melds is not None:
        assert player is not None, "checked just above: concealed_melds needs a player who has laid"
        side_ranks = {r for r, _ in melds[side_of(s, player)]}
        if s.phase is Phase.DRAW or not s.drew or not set(s.concealed_melds) <= side_ranks:
            raise turn_error("concealed_melds names melds of the side started in this turn after drawing")
        if s.meld_moves > 1 or (s.drew == "stock" and s.meld_moves != 1):
            raise turn_error("going out from hand lays the hand at once: one meld move")
    # -- the table and the hands
    for seat, (hand, pending, laid) in enumerate(zip(s.hands, s.pending, s.laid, strict=True)):  # one each: checked
        if _RED_THREES.isdisjoint(hand) == pending:  # red threes in the hand, not pending, or the other way
            raise C.red_three_in_hand(f"seat {seat}: red threes wait in a hand exactly while "
                                      "red_threes_pending says so (K-9)", seat=seat)
        if pending and (laid or opts.red_threes_laid != "first-turn"):
            raise C.red_three_in_hand(f"seat {seat}: dealt red threes are laid out before anything else",
                                      seat=seat)
        if laid and not melds[side_of(s, seat)]:
            raise C.bad_laid(f"seat {seat} has laid cards, but the side has no meld", seat=seat)
    for side, table in enumerate(melds):
        seats = (side, side + 2) if s.players == 4 else (side,)
        if table and not any(s.laid[x] for x in seats):
            raise C.bad_laid(f"side {side} has melds that none of its players laid", seat=seats[0])
    if live:
        assert player is not None, "check_state refuses a live phase with nobody to act"
        if s.pending[player]:
            raise C.red_three_in_hand(f"seat {player}: dealt red threes are laid out as his turn begins",
                                      seat=player)
        _check_hand_sizes(s, opts, player)
    # -- the totals and the history
    finished = s.round - (1 if live else 0)
    if len(s.history) != finished:
        raise C.bad_total(f"round {s.round} ({s.phase.value}) follows {finished} finished rounds; the history "
                          f"lists {len(s.history)}", expected=finished)
    for row in s.history:
        if any(x % 5 for x in row) or any(row[seat] != row[seat % 2] for seat in range(s.players) if s.players == 4):
            raise C.bad_total(f"a round scores multiples of 5, the same for partners; got {list(row)}",
                              expected=5)
    totals = s.totals
    summed = tuple(map(sum, zip(*s.history, strict=True))) if s.history else (0,) * s.players  # per seat
    for side, total in enumerate(totals):
        if total != summed[side]:
            raise C.bad_total(f"side {side}'s total {total} is not the sum of its rounds in the history",
                              expected=summed[side])
    best = max(totals)
    won = best >= opts.target_score and totals.count(best) == 1
    if won != (s.phase is Phase.GAME_OVER):
        raise C.bad_total(f"the game is over exactly when one side alone has the best total and "
                          f"{opts.target_score} or more; totals {list(totals)}, phase {s.phase.value}",
                          expected=opts.target_score)


def _check_hand_sizes(s: State, opts: Options, player: int | None) -> None:
    """A player who has laid nothing holds the dealt number of cards (one more after his stock draw);
    fewer only where a red three went without replacement (K-2 "dealt-only", an empty stock, or a red
    three still waiting when a player went out)."""
    n = HAND_SIZE[s.players]
    exact = bool(s.stock) and opts.red_three_replacement == "dealt-and-drawn" and s.phase is not Phase.DOUBLE
    for seat, hand in enumerate(s.hands):
        if not hand and seat != s.out_seat:
            raise C.bad_hand_size(f"seat {seat} holds no card but did not go out", seat=seat, expected=1)
        if s.laid[seat]:
            continue
        want = n + (1 if seat == player and s.drew == "stock" else 0)
        if len(hand) > want or (exact and len(hand) != want):
            raise C.bad_hand_size(f"seat {seat} has laid nothing this round, so holds {want} cards, "
                                  f"not {len(hand)}", seat=seat, expected=want)
