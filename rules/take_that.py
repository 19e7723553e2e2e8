"""Take That (Andreas Spies & Reinhard Staupe, NSV 2016), game id ``take-that``, 2-4 players.

The rules as Arbiter applies them, each ruling and option with its default and the rulebook
passage it rests on, are in ``docs/rules/take-that.md``; section numbers below (§4.1 ...) refer
to that page.

The deck (§2): 79 number cards 12..98 without 20, 30, ..., 90. The seven cards with two equal
digits (22 .. 88) are toads; every other card has exactly one twisted twin with the digits
swapped (49/94): 36 twin pairs. Deal 9 cards each to 2 or 3 players, 8 to 4 players; the rest
is the ``stock`` (§3). A turn is exactly one of:

- ``{"kind": "lay", "card": 41}``: lay a hand card within 10 (inclusive) of the rightmost row
  card; on an empty row any card, and then this is the only legal move (§4.1);
- ``{"kind": "twist", "card": 49}``: ``card`` is the ROW card (anywhere in the row, never a
  toad); its twin (94) leaves the hand; both go face up to the player's pile, +1 each (§4.2);
- ``{"kind": "take", "card": 57}``: take the whole row face down (voluntarily or because nothing
  else is legal) and, in the same turn, open the new row with hand card ``card``. While the
  stock is empty the take ends the round and carries no ``card`` (``{"kind": "take"}``).
  Representation decision: the take and its follow-up lay are ONE move, so a turn is always one
  move and a state never waits half-way through a turn (§4.3).

After the turn the player draws one card while the stock lasts (§4.4). The round ends at once
when the stock is used up and the row is empty (§5.1); scores: +1 per face-up card, -1 per
face-down card, -5 per face-down toad; cards left in hand do not count (§5.3). The round's
scores then join ``history`` and any seat may send ``{"kind": "next-round"}``: the cards are
reshuffled (from the state's rng) and dealt again, until the agreed number of rounds is played;
the highest total wins (§7).

Seats: 0-based, play goes clockwise = increasing seat. The first round's dealer is the last
seat, so seat 0 starts (§3). ``turn`` is the seat to act, ``null`` once the round is over.

Options (name: default):

- ``rounds``: 2, 1..20 (§7.2).
- ``professional``: false: taking a one-card row also moves the top stock card face down onto
  the taker's pile (§6.1).
- ``next_dealer``: "clockwise": the dealer moves one seat on each round; "same" keeps it (§7.1).
- ``tie_break``: "shared": tied totals share the victory; "last-round": among the tied, the best
  score of the last round wins, still tied: shared (§7.3).
- ``end_when_last_draw_empties_row``: true: the end condition is checked after every turn, so a
  twist that empties the row followed by the draw of the stock's last card ends the round;
  false: the next player opens a new row (§5.2).
- ``professional_twist_penalty``: false: twisting away a one-card row costs no extra card;
  true: in the professional variant it costs the top stock card too (§6.3).
- ``face_down_view``: "count": face-down piles are hidden (``null``, with ``face_down_sizes``)
  until the round is over; "own": each seat also sees its own; "open": everyone sees them (§9).

Not an option: no professional extra card when the stock is empty, since such a take ends the
round and there is no card to move (§6.2).

Hidden information (§9): hands, the stock's order and the face-down piles; public: the row,
the face-up piles, the size of every hand and pile. ``from_json`` refuses states play cannot
reach, beyond card conservation (§8).

Random play ends: every turn takes at least one card out of a hand (a lay, a twist, the
lay after a take) and refills it from the 79-card deck at most once, so a round has at
most 80 turns (the last may be a take with an empty hand); a game at most
``rounds * 81 - 1`` moves (1619 for 20 rounds), well inside the conformance cap of 4000.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Any, ClassVar, Literal

from rules.base import (
    BAD_TALLY,
    ROUND_NOT_OVER,
    ROUND_OVER,
    SEAT_COUNT,
    SETUP_UNSUPPORTED,
    BaseEngine,
    GameCodes,
    Label,
    NextRound,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    illegal,
    invalid,
    replace,
)
from rules.events import event
from rules.shapes import Doc, Length, OneOf, Range, Visibility, declared, field, option
from rules.spec import GameSpec, Playout, phase_labels

_GAME = "take-that"
_CARDS: tuple[int, ...] = tuple(n for n in range(12, 99) if n % 10)
_CARD_SET = frozenset(_CARDS)
_TOADS = frozenset(n for n in _CARDS if n // 10 == n % 10)
_HAND_SIZE = {2: 9, 3: 9, 4: 8}
_REACH = 10
_TOAD_PENALTY = 5
_MAX_ROUNDS = 20
_MAX_FACE_UP = 72  # the 36 twin pairs: the most a round can score, for one seat or all together
_MIN_ROUND_SCORE = -(72 + _TOAD_PENALTY * 7)  # every plain card and every toad face down
_MAX_TOTAL = _MAX_ROUNDS * _MAX_FACE_UP  # bounds a tally's earlier totals


def is_toad(card: int) -> bool:
    return card in _TOADS


def twin(card: int) -> int:
    """The twisted twin (digits swapped): 49 -> 94; a toad is its own 'twin' and has none."""
    return 10 * (card % 10) + card // 10


# --------------------------------------------------------------------------- shapes

Card = Annotated[int, OneOf(_CARDS), Doc("a Take That card: 12..98 without 20, 30, ..., 90")]
Cards = Annotated[tuple[Card, ...], Length(0, len(_CARDS))]
Seat = Annotated[int, Range(0, 3)]
PerSeat = Annotated[tuple[Cards, ...], Length(2, 4)]
RoundScores = Annotated[tuple[Annotated[int, Range(_MIN_ROUND_SCORE, _MAX_FACE_UP)], ...], Length(2, 4)]


class Phase(Enum):
    PLAY = "play"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"


@declared
class Options:
    rounds: Annotated[int, Range(1, _MAX_ROUNDS)] = option(
        default=2,
        description="Number of rounds to play; the highest total wins (docs/rules/take-that.md §7.2).",
        label=Label("Rounds", "Liczba rund"),
        help=Label("How many rounds are played; the highest total after the last one wins.",
                   "Ile rund się rozgrywa; wygrywa najwyższa suma po ostatniej."))
    professional: bool = option(
        default=False,
        description="Professional variant (docs/rules/take-that.md §6.1): taking a one-card row also moves the top "
                    "stock card face down onto the taker's pile.",
        label=Label("Professional variant", "Wariant dla zawodowców"),
        help=Label("Taking a row of one card costs the top card of the stock too, face down.",
                   "Kto zabiera rządek z jedną kartą, bierze też zakrytą wierzchnią kartę ze stosu."))
    next_dealer: Literal["clockwise", "same"] = option(
        default="clockwise",
        description="Who deals the next round (docs/rules/take-that.md §7.1): 'clockwise' moves the dealer one seat "
                    "on; 'same' keeps the dealer.",
        label=Label("Next dealer", "Kolejny rozdający"),
        help=Label("Who deals the next round.", "Kto rozdaje karty w następnej rundzie."),
        choices={"clockwise": Label("The next seat clockwise", "Następny gracz zgodnie z ruchem wskazówek zegara"),
                 "same": Label("The same dealer", "Ten sam rozdający")})
    tie_break: Literal["shared", "last-round"] = option(
        default="shared",
        description="Equal final totals (docs/rules/take-that.md §7.3): 'shared' victory, or 'last-round': the best "
                    "score of the last round among the tied wins.",
        label=Label("Equal totals", "Remis"),
        help=Label("What happens when the best totals are equal.", "Co, gdy najlepsze sumy są równe."),
        choices={"shared": Label("Shared victory", "Wspólne zwycięstwo"),
                 "last-round": Label("Best last round wins", "Wygrywa lepszy wynik ostatniej rundy")})
    end_when_last_draw_empties_row: bool = option(
        default=True,
        description="docs/rules/take-that.md §5.2: true ends the round when the row is empty once the last stock "
                    "card is drawn; false lets the next player open a new row.",
        label=Label("Round ends on an empty row after the last draw",
                    "Koniec rundy, gdy po ostatnim dobraniu rządek jest pusty"),
        help=Label("If the row is empty when the last stock card is drawn, the round ends at once.",
                   "Jeśli po dobraniu ostatniej karty ze stosu rządek jest pusty, runda od razu się kończy."))
    professional_twist_penalty: bool = option(
        default=False,
        description="docs/rules/take-that.md §6.3: in the professional variant, twisting away a one-card row also "
                    "costs the top stock card (face down).",
        label=Label("Twist penalty (professional)", "Kara za wyciągnięcie (zawodowcy)"),
        help=Label("In the professional variant, twisting out the row's only card costs the top stock card too.",
                   "W wariancie dla zawodowców wyciągnięcie jedynej karty rządka kosztuje też wierzchnią kartę stosu."))
    face_down_view: Literal["count", "own", "open"] = option(
        default="count",
        description="Who sees face-down cards before the round is over (docs/rules/take-that.md §9): 'count' "
                    "nobody (only counts), 'own' each seat its own pile, 'open' everyone.",
        label=Label("Face-down piles", "Karty zakryte"),
        help=Label("Who may look at the cards taken face down before the round ends.",
                   "Kto może oglądać zabrane zakryte karty przed końcem rundy."),
        choices={"count": Label("Nobody: counts only", "Nikt: tylko liczba kart"),
                 "own": Label("Each player their own", "Każdy swoje"),
                 "open": Label("Everyone", "Wszyscy")})


def _face_down_shown(state: State, seat: int | None) -> Visibility:
    """Face-down piles lie face down until the round is scored; the option may show more (§9)."""
    if state.phase is not Phase.PLAY or state.options.face_down_view == "open":
        return Visibility.PUBLIC
    return Visibility.OWN if state.options.face_down_view == "own" else Visibility.HIDDEN_EACH


@declared
class State:
    players: Annotated[int, Range(2, 4)]
    options: Options
    round: Annotated[int, Range(1, _MAX_ROUNDS)] = field(doc="the round being played (1-based)")
    dealer: Seat = field(doc="the seat that dealt this round")
    turn: Seat | None = field(doc="the seat to act; null once the round is over")
    phase: Phase
    stock: Cards = field(doc="the face-down draw pile, top card last", visibility=Visibility.HIDDEN)
    row: Cards = field(doc="the row, left to right; the rightmost card decides what may be laid")
    hands: Annotated[tuple[Annotated[tuple[Card, ...], Length(0, 9)], ...], Length(2, 4)] = field(
        doc="each seat's hand, sorted", visibility=Visibility.OWN, sizes_name="hand_sizes")
    face_up: PerSeat = field(doc="each seat's twisted pairs, face up: +1 a card")
    face_down: PerSeat = field(doc="each seat's taken cards, face down: -1 a card, -5 a toad",
                               visibility=Visibility.HIDDEN_EACH, reveal=_face_down_shown)
    history: Annotated[tuple[RoundScores, ...], Length(0, _MAX_ROUNDS)] = field(
        doc="the scores of every finished round (this one too once it is over), one row per round")
    rng: Rng = field(visibility=Visibility.SECRET)


@declared
class Lay:
    """Lay a hand card at the right of the row, within 10 of its rightmost card (§4.1)."""

    card: Card
    kind: ClassVar[str] = "lay"
    label: ClassVar[Label] = Label("Lay a card", "Wyłóż kartę")


@declared
class Twist:
    """Twist a row card out with its twin from the hand; both go face up (§4.2)."""

    card: Card = field(doc="the row card; its twin leaves the hand")
    kind: ClassVar[str] = "twist"
    label: ClassVar[Label] = Label("Twist a card out", "Wyciągnij kartę przekręconą")


@declared
class Take:
    """Take the whole row face down and open the new one with a hand card (§4.3)."""

    card: Card | None = field(default=None, doc="the hand card opening the new row; absent once the stock is used up")
    kind: ClassVar[str] = "take"
    label: ClassVar[Label] = Label("Take the row", "Zabierz rządek")


Move = Lay | Twist | Take | NextRound


@declared
class Breakdown:
    """One seat's points of a round: its piles as the sheet counts them."""

    face_up: Annotated[int, Range(0, _MAX_FACE_UP)] = field(doc="cards face up")
    face_up_points: int = field(doc="+1 a face-up card")
    face_down: Annotated[int, Range(0, len(_CARDS))] = field(doc="plain cards face down")
    face_down_points: int = field(doc="-1 a plain face-down card")
    toads_face_down: Annotated[int, Range(0, len(_TOADS))] = field(doc="toads face down")
    toad_points: int = field(doc="-5 a face-down toad")
    points: int = field(doc="the round's points")


@declared
class TallySeat:
    face_up: Cards = field(doc="the seat's face-up cards (twisted pairs)")
    face_down: Cards = field(doc="the seat's face-down cards")


@declared
class Tally:
    """A round's score sheet: each seat's piles, and perhaps the totals before the round."""

    seats: Annotated[tuple[TallySeat, ...], Length(2, 4)]
    previous: Annotated[tuple[Annotated[int, Range(-_MAX_TOTAL, _MAX_TOTAL)], ...], Length(2, 4)] | None = field(
        default=None, doc="each seat's total before this round")
    tie_break: Literal["shared", "last-round"] = field(default="shared", doc="as the option `tie_break`")


# --------------------------------------------------------------------------- codes


class C(GameCodes, namespace=_GAME):
    """Every code Take That answers (DESIGN 4.4). Polish in the rulebook's words: "rządek",
    "ropucha", "karta przekręcona", "stos do pobierania", "zakrytą/otwartą stroną"."""

    round_not_over = ROUND_NOT_OVER
    round_over = ROUND_OVER
    setup_unsupported = SETUP_UNSUPPORTED
    bad_tally = BAD_TALLY
    seat_count = SEAT_COUNT
    card_not_in_hand = illegal(
        Label("Card not in hand", "Karty nie ma w ręce"), "Gracz {seat} nie ma w ręce karty {card}.",
        "The lay or take names a card the seat does not hold. Choose one of the seat's hand cards.",
        "Wyłożenie lub zabranie rządka wskazuje kartę, której gracz nie ma. Wybierz kartę z ręki.")
    not_in_range = illegal(
        Label("Card out of range", "Karta poza zasięgiem"),
        "Karta {card} może być najwyżej o 10 wyższa lub o 10 niższa od karty leżącej w rządku najbardziej na prawo "
        "({top}).",
        "A card may be laid only within 10 of the rightmost row card. Lay another card, twist or take the row.",
        "Kartę można wyłożyć tylko o najwyżej 10 wyżej lub niżej od karty najbardziej na prawo. Wyłóż inną kartę, "
        "wyciągnij kartę przekręconą albo zabierz rządek.")
    row_empty = illegal(
        Label("The row is empty", "Rządek jest pusty"),
        "Obok stosu do pobierania nie leży jeszcze żadna karta: gracz {seat} musi wyłożyć dowolną kartę jako początek "
        "rządka.",
        "On an empty row the only move is to lay a card (any card) to open it.",
        "Gdy rządek jest pusty, jedyny ruch to wyłożenie dowolnej karty na jego początek.")
    not_in_row = illegal(
        Label("Card not in the row", "Karty nie ma w rządku"), "Karty {card} nie ma w rządku.",
        "A twist names the row card to take out; that card is not in the row.",
        "Wyciągnięcie wskazuje kartę z rządka; tej karty w rządku nie ma.")
    toad_cannot_be_twisted = illegal(
        Label("Toads cannot be twisted", "Ropuchy nie można wyciągnąć"),
        "Karta {card} to ropucha (dwie takie same cyfry): nie można jej wyciągnąć z rządka.",
        "Toads (22, 33, ..., 88) have no twin and never leave the row by a twist.",
        "Ropuchy (22, 33, …, 88) nie mają kart przekręconych i nie można ich wyciągnąć z rządka.")
    twin_not_in_hand = illegal(
        Label("Twisted twin not in hand", "Brak karty przekręconej"),
        "Aby wyciągnąć z rządka kartę {card}, gracz {seat} musi mieć w ręce kartę przekręconą {expected}.",
        "Twisting a row card needs its twin (the digits swapped) in the hand.",
        "Aby wyciągnąć kartę z rządka, trzeba mieć w ręce jej kartę przekręconą (z zamienionymi cyframi).")
    must_open_new_row = illegal(
        Label("Open the new row", "Zacznij nowy rządek"),
        "Kto zabrał rządek, wykłada od razu dowolną kartę z ręki jako początek nowego rządka: gracz {seat} musi ją "
        "wskazać.",
        "While the stock lasts, a take opens the new row in the same move: name the hand card in `card`.",
        "Póki jest stos do pobierania, zabranie rządka od razu zaczyna nowy: podaj kartę z ręki w polu `card`.")
    no_new_row_at_end = illegal(
        Label("No new row at the end", "Koniec rundy bez nowego rządka"),
        "Stos do pobierania jest zużyty: zabranie rządka kończy rundę, więc karty {card} nie wykłada się.",
        "Once the stock is used up a take ends the round: send it without `card`.",
        "Gdy stos do pobierania się skończył, zabranie rządka kończy rundę: wyślij je bez pola `card`.")
    bad_round = invalid(
        Label("Wrong round", "Zły numer rundy"), "Runda {got} nie mieści się w ustalonej liczbie rund.",
        "The state's round is beyond the number of rounds its options agree.",
        "Numer rundy w stanie gry przekracza liczbę rund ustaloną w opcjach.")
    bad_dealer = invalid(
        Label("Wrong dealer", "Zły rozdający"),
        "Rozdający nie zgadza się z rundą: pierwszą rundę rozdaje ostatni gracz, a potem rozdający zmienia się co "
        "rundę zgodnie z ruchem wskazówek zegara (albo zostaje ten sam).",
        "The first round is dealt by the last seat, and the dealer follows from the round and `next_dealer`.",
        "Pierwszą rundę rozdaje ostatni gracz, a kolejnych rozdających wyznaczają runda i opcja `next_dealer`.")
    bad_turn = invalid(
        Label("Wrong turn", "Nie ta kolej"),
        "Kolej gracza nie zgadza się ze stanem gry: tego układu nie da się osiągnąć.",
        "The seat to act is not the one the cards played so far give; the state cannot be reached by play.",
        "Gracz, na którego przypada kolej, nie wynika z dotychczasowej gry: takiego stanu nie da się osiągnąć.")
    bad_phase = invalid(
        Label("Wrong phase", "Zła faza gry"),
        "Runda kończy się dokładnie wtedy, gdy stos do pobierania jest zużyty, a rządek pusty.",
        "A round is over exactly when the stock is used up and the row is empty; the game is over after the last "
        "round.",
        "Runda kończy się dokładnie wtedy, gdy stos do pobierania jest zużyty, a rządek pusty; gra kończy się po "
        "ostatniej rundzie.")
    duplicate_card = invalid(
        Label("Card twice", "Karta dwa razy"), "Karta {card} występuje więcej niż raz.",
        "Each of the 79 cards is in exactly one place; this one is in two.",
        "Każda z 79 kart leży w dokładnie jednym miejscu; ta jest w dwóch.")
    missing_card = invalid(
        Label("Missing card", "Brak karty"), "Brakuje karty {card}: wszystkie 79 kart musi być w grze.",
        "Every one of the 79 cards must be somewhere in the state (stock, row, hands, piles).",
        "Każda z 79 kart musi gdzieś być w stanie gry (stos, rządek, ręce, karty odłożone).")
    bad_face_up = invalid(
        Label("Impossible face-up pile", "Niemożliwe karty odkryte"),
        "Karta {card} nie może leżeć otwartą stroną: odkryte leżą tylko pary kart przekręconych, nigdy ropuchy.",
        "Face-up piles hold twisted pairs only (both twins), never toads.",
        "Otwartą stroną leżą tylko pary kart przekręconych (obie karty pary), nigdy ropuchy.")
    bad_hand_size = invalid(
        Label("Impossible hand size", "Niemożliwa liczba kart w ręce"),
        "Liczba kart w ręce nie zgadza się z przebiegiem rundy: póki starcza stosu do pobierania, każdy ma pełną "
        "rękę, a potem ręce maleją po kolei.",
        "While the stock lasts every hand is full; afterwards hands shrink one card a turn, in turn.",
        "Póki jest stos do pobierania, każdy ma pełną rękę; potem ręce maleją o kartę na turę, po kolei.")
    bad_history = invalid(
        Label("Wrong history", "Zły zapis rund"), "Zapisane wyniki rund nie zgadzają się ze stanem gry.",
        "`history` must hold one row per finished round, the last one what the piles score.",
        "`history` ma jeden wiersz na każdą skończoną rundę, a ostatni to wynik z kart odłożonych.")


@event
class RowTakenEvent:
    """A seat took the row: its cards, and how many more went face down unseen (§5)."""

    type: Literal["row-taken"] = "row-taken"
    seat: Seat
    cards: Cards = field(doc="the row's cards, now the seat's")
    extra_face_down: Annotated[int, Range(0, len(_CARDS))] = field(
        doc="how many cards beside the row went face down unseen")


@event
class TwistedEvent:
    """A seat twisted a pair: the card laid and its twin."""

    type: Literal["twisted"] = "twisted"
    seat: Seat
    cards: Annotated[tuple[Card, ...], Length(2, 2)] = field(doc="the card and its twin")


@event
class DrewEvent:
    """A seat drew a card (which one is private): the draw pile's size after it."""

    type: Literal["drew"] = "drew"
    seat: Seat
    stock: Annotated[int, Range(0, len(_CARDS))] = field(doc="the cards left in the draw pile")


SPEC = GameSpec(
    id=_GAME,
    name="Take That",
    label=Label("Take That", "Take That"),
    players=range(2, 5),
    options=Options,
    state=State,
    moves=(Lay, Twist, Take, NextRound),
    phases=phase_labels(Phase),
    codes=C,
    breakdown=Breakdown,
    tally=Tally,
    terms={
        "row": Label("Row", "Rządek"), "stock": Label("Stock", "Stos do pobierania"),
        "face_up": Label("Face-up cards", "Karty odkryte"), "face_down": Label("Face-down cards", "Karty zakryte"),
        "face_up_points": Label("Face-up points", "Punkty za karty odkryte"),
        "face_down_points": Label("Face-down points", "Punkty za karty zakryte"),
        "toads_face_down": Label("Toads face down", "Zakryte ropuchy"),
        "toad_points": Label("Toad points", "Punkty za ropuchy"), "toad": Label("Toad", "Ropucha"),
        "points": Label("Points", "Punkty"), "cards": Label("Cards", "Karty"), "round": Label("Round", "Runda"),
        # the log's sentences (service/static/play/log.js fills the {names})
        "move:lay": Label("{seat} laid {card}", "{seat} wykłada {card}"),
        "move:twist": Label("{seat} twisted out {card}", "{seat} wyciąga przekręconą {card}"),
        "move:take": Label("{seat} took the row", "{seat} zabiera rządek"),
        "move:next-round": Label("{seat} dealt the next round", "{seat} rozdaje następną rundę"),
        "event:row-taken": Label("{seat} took the row: {cards}", "{seat} zabiera rządek: {cards}"),
        "event:twisted": Label("Twisted out: {cards}", "Wyciągnięte: {cards}"),
        "event:drew": Label("{seat} drew a card", "{seat} dobiera kartę"),
    },
    tally_example={"seats": [{"face_up": [12, 21], "face_down": [33]}, {"face_up": [], "face_down": [14, 15]}],
                   "previous": [0, -1]},
    playout=Playout(long_options={"rounds": 20}),
    events=(RowTakenEvent, TwistedEvent, DrewEvent),
)


# --------------------------------------------------------------------------- engine


class TakeThat(BaseEngine[State, Move]):
    spec = SPEC

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Options, setup: None = None) -> State:
        return _deal(players, options, 1, players - 1, (), rng)

    # -- turn ----------------------------------------------------------------------

    # -- legality ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if seat not in self.to_act(state):
            return ()
        if state.phase is Phase.ROUND_OVER:
            return (NextRound(),)
        hand, row = state.hands[seat], state.row
        if not row:
            return tuple(Lay(c) for c in hand)
        last = row[-1]
        moves: list[Move] = [Lay(c) for c in hand if _can_lay(c, last)]
        moves += [Twist(r) for r in row if _can_twist(r, hand)]
        if state.stock:
            moves += [Take(c) for c in hand]
        else:
            moves.append(Take(None))
        return tuple(moves)

    def check(self, state: State, seat: int, move: Move) -> None:
        # checks run on every move: each refusal's message is built only when refusing
        self.check_turn(state, seat)
        if isinstance(move, NextRound):
            if state.phase is not Phase.ROUND_OVER:
                raise C.round_not_over(f"next-round is only possible once the round is over; round {state.round} is "
                                       f"being played", round=state.round)
            return
        if state.phase is not Phase.PLAY:
            raise C.round_over(f"round {state.round} is over: the only move is next-round, got {move.kind!r}",
                               round=state.round)
        hand, row = state.hands[seat], state.row
        if isinstance(move, Lay):
            if move.card not in hand:
                raise C.card_not_in_hand(f"seat {seat} does not hold {move.card}; hand: {list(hand)}",
                                         card=move.card, seat=seat)
            # "its number may be at most 10 higher or 10 lower than the rightmost card" (§4.1)
            if row and not _can_lay(move.card, row[-1]):
                raise C.not_in_range(f"{move.card} is more than {_REACH} away from the rightmost row card {row[-1]}",
                                     card=move.card, top=row[-1])
            return
        # "if no card lies beside the pile yet, the player must lay one (any) card" (§4.1)
        if not row:
            raise C.row_empty(f"the row is empty: seat {seat} must open it by laying a card, not {move.kind!r}",
                              seat=seat)
        if isinstance(move, Twist):
            if move.card not in row:
                raise C.not_in_row(f"{move.card} is not in the row {list(row)}", card=move.card)
            # "only the toads, with two equal digits, can never be pulled out" (§4.2)
            if is_toad(move.card):
                raise C.toad_cannot_be_twisted(f"{move.card} is a toad: toads can never be twisted out of the row",
                                               card=move.card)
            if twin(move.card) not in hand:
                raise C.twin_not_in_hand(f"twisting {move.card} needs its twin {twin(move.card)} in hand; hand: "
                                         f"{list(hand)}", card=move.card, expected=twin(move.card), seat=seat)
            return
        # a Take
        if state.stock:
            # "then the taker must do action A: lay any card as the first card of a new row" (§4.3)
            if move.card is None:
                raise C.must_open_new_row("after taking the row the taker opens a new row: the take needs a 'card' "
                                          "from the hand", seat=seat)
            if move.card not in hand:
                raise C.card_not_in_hand(f"seat {seat} does not hold {move.card}; hand: {list(hand)}",
                                         card=move.card, seat=seat)
        # "once the pile is used up ... the game ends as soon as the row is taken" (§5.1)
        elif move.card is not None:
            raise C.no_new_row_at_end(f"the draw pile is used up: taking the row ends the round, so no new row is "
                                      f"opened (got card {move.card})", card=move.card)

    # -- transition ----------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
        opts = state.options
        if isinstance(move, NextRound):
            dealer = (state.dealer + 1) % state.players if opts.next_dealer == "clockwise" else state.dealer
            return _deal(state.players, opts, state.round + 1, dealer, state.history, state.rng)
        started_empty = not state.stock
        hand = list(state.hands[seat])
        row = list(state.row)
        deck = list(state.stock)
        face_up, face_down = state.face_up, state.face_down
        if isinstance(move, Lay):
            hand.remove(move.card)
            row.append(move.card)
        elif isinstance(move, Twist):
            was_single = len(row) == 1
            row.remove(move.card)
            hand.remove(twin(move.card))
            face_up = _with(face_up, seat, (move.card, twin(move.card)))
            if opts.professional and opts.professional_twist_penalty and was_single and deck:
                face_down = _with(face_down, seat, (deck.pop(),))
        else:  # Take
            taken = tuple(row)
            face_down = _with(face_down, seat, taken)
            row = []
            if opts.professional and len(taken) == 1 and deck:
                face_down = _with(face_down, seat, (deck.pop(),))
            if move.card is not None:
                hand.remove(move.card)
                row.append(move.card)
        if deck:
            hand.append(deck.pop())
            hand.sort()
        hands = _with_hand(state.hands, seat, tuple(hand))
        ended = not row and not deck and (started_empty or opts.end_when_last_draw_empties_row)
        phase = Phase.PLAY
        if ended:
            phase = Phase.GAME_OVER if state.round == opts.rounds else Phase.ROUND_OVER
        after = replace(
            state,
            turn=None if ended else (seat + 1) % state.players,
            phase=phase, stock=tuple(deck), row=tuple(row), hands=hands, face_up=face_up, face_down=face_down,
        )
        if ended:  # the round's scores are final: they join the history (DESIGN 4.5)
            after = replace(after, history=(*state.history, _round_scores(after)))
        return after

    def emit(self, before: State, seat: int, move: Move, after: State) -> list[Any]:
        """Adds what the table saw: the row taken (and how many extra cards went face down
        unseen), the twisted pair, and a draw (its card is private, so only the pile size)."""
        out = super().emit(before, seat, move, after)
        extra: list[Any] = []
        if isinstance(move, Take):
            unseen = len(after.face_down[seat]) - len(before.face_down[seat]) - len(before.row)
            extra.append(RowTakenEvent(seat=seat, cards=before.row, extra_face_down=unseen))
        elif isinstance(move, Twist):
            extra.append(TwistedEvent(seat=seat, cards=(move.card, twin(move.card))))
        if not isinstance(move, NextRound) and len(after.hands[seat]) == len(before.hands[seat]) and (
            isinstance(move, Lay | Twist) or move.card is not None
        ):
            extra.append(DrewEvent(seat=seat, stock=len(after.stock)))
        return out[:1] + extra + out[1:]

    # -- scores --------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        current = _round_scores(state)
        earlier = state.history if state.phase is Phase.PLAY else state.history[:-1]
        totals = tuple(sum(r[s] for r in earlier) + current[s] for s in range(state.players))
        breakdown = tuple(_breakdown(state.face_up[s], state.face_down[s]) for s in range(state.players))
        out = self.outcome(state)
        return ScoreReport(current, totals, breakdown, state.phase is not Phase.PLAY, out.winners if out else (),
                           round=state.round, history=earlier)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = [sum(r[s] for r in state.history) for s in range(state.players)]
        winners = _winners(totals, state.history[-1], state.options.tie_break)
        return Outcome(winners, f"highest total after {state.round} round(s)", points=tuple(totals))

    def tally_scores(self, tally: Tally) -> ScoreReport:
        """Score sheet of one round: each seat's piles, ``previous`` totals, the tie-break."""
        players = len(tally.seats)
        if tally.previous is not None and len(tally.previous) != players:
            raise C.bad_tally(f"'previous' has {len(tally.previous)} totals for {players} seats",
                              field="previous")
        groups: list[tuple[str, tuple[int, ...]]] = []
        for s, seat in enumerate(tally.seats):
            _check_face_up(seat.face_up, f"seat {s}")
            groups += [(f"seat {s}'s face-up cards", seat.face_up), (f"seat {s}'s face-down cards", seat.face_down)]
        _check_no_duplicates(groups)
        previous = tally.previous or (0,) * players
        current = tuple(_pile_score(seat.face_up, seat.face_down) for seat in tally.seats)
        totals = tuple(p + c for p, c in zip(previous, current, strict=True))
        breakdown = tuple(_breakdown(seat.face_up, seat.face_down) for seat in tally.seats)
        history = (tuple(previous),) if tally.previous is not None else ()
        return ScoreReport(current, totals, breakdown, True, _winners(totals, current, tally.tie_break),
                           round=len(history) + 1, history=history)

    # -- meaning -------------------------------------------------------------------

    def check_state(self, state: State) -> State:
        """What play can reach, beyond the shape (§8): card conservation, the dealer, the turn,
        the hand sizes, the phase and the history."""
        players, opts = state.players, state.options
        if state.round > opts.rounds:
            raise C.bad_round(f"round {state.round} is beyond the {opts.rounds} round(s) agreed", got=state.round)
        for name in ("hands", "face_up", "face_down"):
            if len(getattr(state, name)) != players:
                raise C.seat_count(f"{name} must have one entry per seat ({players}), got {len(getattr(state, name))}",
                                   field=name, expected=players, got=len(getattr(state, name)))
        # "the dealer moves one seat clockwise each round" (§7.1): the first dealer is the last
        # seat, so the dealer follows from the round
        expected_dealer = (players - 1 + (state.round - 1 if opts.next_dealer == "clockwise" else 0)) % players
        if state.dealer != expected_dealer:
            raise C.bad_dealer(f"round {state.round} is dealt by seat {expected_dealer}, not seat {state.dealer}",
                               seat=state.dealer, expected=expected_dealer)
        turn = state.turn
        if state.phase is Phase.PLAY:
            if turn is None or turn >= players:
                raise C.bad_turn(f"a round being played has a seat to act 0..{players - 1}, got {excerpt(turn)}",
                                 seat=turn, expected=list(range(players)))
        elif turn is not None:
            raise C.bad_turn(f"a finished round has no seat to act: turn must be null, got {turn}",
                             seat=turn, expected="null")
        if (state.phase is Phase.GAME_OVER) != (state.phase is not Phase.PLAY and state.round == opts.rounds):
            raise C.bad_phase(f"the game is over exactly when the last round ({opts.rounds}) is over; round "
                              f"{state.round} is {state.phase.value}")
        hands = tuple(tuple(sorted(h)) for h in state.hands)
        _check_no_duplicates([("the stock", state.stock), ("the row", state.row)]
                             + [(f"seat {s}'s hand", h) for s, h in enumerate(hands)]
                             + [(f"seat {s}'s face-up pile", p) for s, p in enumerate(state.face_up)]
                             + [(f"seat {s}'s face-down pile", p) for s, p in enumerate(state.face_down)],
                             conserve=True)
        for s, p in enumerate(state.face_up):
            _check_face_up(p, f"seat {s}")
        _check_hand_sizes(players, opts, state.dealer, hands, state.stock, turn)
        if state.phase is not Phase.PLAY:
            if state.stock or state.row:
                raise C.bad_phase(f"a round is over only once the stock is used up and the row is empty; "
                                  f"stock {len(state.stock)} card(s), row {list(state.row)}")
        else:
            if not state.stock and not state.row and opts.end_when_last_draw_empties_row:
                raise C.bad_phase("the stock is used up and the row is empty: the round is over, "
                                  "phase must be 'round-over'")
            if not state.row and not hands[turn]:  # type: ignore[index]
                raise C.bad_turn(f"seat {turn} is to act on an empty row with an empty hand", seat=turn,
                                 expected="a seat holding cards")
        _check_history(state)
        return state if hands == state.hands else replace(state, hands=hands)


# --------------------------------------------------------------------------- helpers


def _can_lay(card: int, last: int) -> bool:
    return abs(card - last) <= _REACH


def _can_twist(row_card: int, hand: tuple[int, ...]) -> bool:
    return row_card not in _TOADS and twin(row_card) in hand


def _with(piles: tuple[tuple[int, ...], ...], seat: int, cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return piles[:seat] + (piles[seat] + cards,) + piles[seat + 1:]


def _with_hand(hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1:]


def _deal(players: int, opts: Options, round_no: int, dealer: int, history: tuple[tuple[int, ...], ...],
          rng: Rng) -> State:
    cards, rng = rng.shuffle(_CARDS)
    size = _HAND_SIZE[players]
    hands = tuple(tuple(sorted(cards[s * size:(s + 1) * size])) for s in range(players))
    empty = tuple(() for _ in range(players))
    return State(players, opts, round_no, dealer, (dealer + 1) % players, Phase.PLAY,
                 tuple(cards[players * size:]), (), hands, empty, empty, history, rng)


def _pile_score(face_up: Sequence[int], face_down: Sequence[int]) -> int:
    toads = sum(1 for c in face_down if c in _TOADS)
    return len(face_up) - (len(face_down) - toads) - _TOAD_PENALTY * toads


def _round_scores(state: State) -> tuple[int, ...]:
    return tuple(_pile_score(state.face_up[s], state.face_down[s]) for s in range(state.players))


def _breakdown(face_up: Sequence[int], face_down: Sequence[int]) -> Breakdown:
    toads = sum(1 for c in face_down if c in _TOADS)
    plain = len(face_down) - toads
    return Breakdown(face_up=len(face_up), face_up_points=len(face_up), face_down=plain, face_down_points=-plain,
                     toads_face_down=toads, toad_points=-_TOAD_PENALTY * toads,
                     points=len(face_up) - plain - _TOAD_PENALTY * toads)


def _winners(totals: Sequence[int], last: Sequence[int], tie_break: str) -> tuple[int, ...]:
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    if tie_break == "last-round" and len(tied) > 1:
        top = max(last[s] for s in tied)
        tied = [s for s in tied if last[s] == top]
    return tuple(tied)


def _check_face_up(pile: tuple[int, ...], who: str) -> None:
    held = set(pile)
    for c in pile:
        if c in _TOADS or twin(c) not in held:
            raise C.bad_face_up(f"{who}: face-up cards are twisted pairs and never toads; {c} has no twin "
                                f"{twin(c)} beside it in {list(pile)}", card=c)


def _check_no_duplicates(groups: list[tuple[str, tuple[int, ...]]], conserve: bool = False) -> None:
    """No card in two places; with ``conserve``, every one of the 79 cards somewhere (§8)."""
    seen: dict[int, str] = {}
    for where, cards in groups:
        for c in cards:
            if c in seen:
                raise C.duplicate_card(f"card {c} is both in {seen[c]} and in {where}", card=c)
            seen[c] = where
    if conserve:
        missing = sorted(_CARD_SET - set(seen))
        if missing:
            raise C.missing_card(f"{len(missing)} of the 79 cards are nowhere in the state: {missing[:12]}",
                                 card=missing[0])


def _check_hand_sizes(players: int, opts: Options, dealer: int, hands: tuple[tuple[int, ...], ...],
                      stock: tuple[int, ...], turn: int | None) -> None:
    """Hand sizes and a turn that play can reach (docs/rules/take-that.md §8).

    While the stock lasts every hand is full after each turn. Each turn draws one card, so
    without the professional variant the stock tells how many turns were played, hence whose
    turn it is (the seat left of the dealer opens). Once the stock is used up each turn takes
    one card out of the mover's hand (the round-ending take none), seats moving in order from
    the seat after the last draw: the cards each seat is short follow from their sum. With the
    professional variant an extra card may leave the stock on a take, so the turns are not
    counted; read clockwise from the seat to act, the shortfalls are equal or grow by one (by
    at most two once the round is over, the last mover unknown)."""
    size = _HAND_SIZE[players]
    for s, h in enumerate(hands):
        if len(h) > size or (stock and len(h) != size):
            raise C.bad_hand_size(f"seat {s} holds {len(h)} cards; with {players} players a hand is {size} cards "
                                  "while the stock lasts and never more", seat=s, expected=size, got=len(h))
    first = len(_CARDS) - players * size  # the stock after the deal
    short = [size - len(h) for h in hands]
    sizes = [len(h) for h in hands]
    if not opts.professional:
        turns = first - len(stock) + sum(short)
        expected = (dealer + 1 + turns) % players
        if turn is not None and turn != expected:
            raise C.bad_turn(f"{turns} turn(s) have been played from the seat left of the dealer: seat {expected} "
                             f"is to act, not seat {turn}", seat=turn, expected=expected)
        if not stock:
            start, k = (dealer + 1 + first) % players, sum(short)
            want = [k // players + ((s - start) % players < k % players) for s in range(players)]
            if short != want:
                raise C.bad_hand_size(f"hand sizes {sizes} cannot be reached: since the stock ran out the seats "
                                      f"have played in turn from seat {start}", expected=[size - w for w in want],
                                      got=sizes)
        return
    if stock:
        return
    if turn is None:
        if max(short) - min(short) > 2:
            raise C.bad_hand_size(f"hand sizes {sizes} cannot be reached: seats take turns, so they differ by "
                                  "at most two cards", got=sizes)
        return
    order = [short[(turn + i) % players] for i in range(players)]
    if any(b not in (a, a + 1) for a, b in zip(order, order[1:], strict=False)) or order[-1] - order[0] > 1:
        raise C.bad_hand_size(f"hand sizes {sizes} cannot be reached with seat {turn} to act: since the stock ran "
                              "out each seat has played once in turn", seat=turn, got=sizes)


def _check_history(state: State) -> None:
    """One row per finished round, the last one (once the round is over) what the piles score;
    a round's scores are bounded by the deck (at most 72 cards face up in all)."""
    finished = state.round - (state.phase is Phase.PLAY)
    if len(state.history) != finished:
        raise C.bad_history(f"'history' must list the scores of the {finished} finished round(s), got "
                            f"{len(state.history)}", expected=finished, got=len(state.history))
    for row in state.history:
        if len(row) != state.players or sum(row) > _MAX_FACE_UP:
            raise C.bad_history(f"each row of 'history' is one round score per seat ({state.players}), "
                                f"{_MAX_FACE_UP} at most in all, got {list(row)}")
    if state.phase is not Phase.PLAY:
        scores = _round_scores(state)
        if state.history[-1] != scores:
            raise C.bad_history(f"the finished round's scores {list(state.history[-1])} are not what the piles "
                                f"score: {list(scores)}", expected=list(scores), got=list(state.history[-1]))


ENGINE = TakeThat()
