"""Karten-Kniffel (Michael Feldkötter; Schmidt Spiele 2014, Polish edition G3 2016), 2-5 players.

The rules as Arbiter applies them, with every ruling, option and the rulebook passages they rest
on: ``docs/rules/kniffel-cards.md`` (cited below as §n).

108 cards, 18 each of the values 1-6, no suits (§1). Each player has a sheet of 12 boxes (§1.2).
On a turn a player does exactly one action (§2): EXCHANGE (discard 0-5 cards, then draw as many
or one more, never holding more than 10) or SCORE (play a valid combination, §3, into an empty
box; never 0; 2 penalty points per card held above 5 before playing; refill to 5, §4).

Representation decisions:
- A card is its value, an int 1-6; hands are sorted tuples (cards have no other identity).
- An EXCHANGE is spelled as steps inside one turn (§2.1): ``{"kind": "discard", "card": v}``
  once per discarded card (phase ``exchange``; the turn can no longer score), closed by
  ``{"kind": "draw", "count": n}``. ``draw`` straight away is the exchange with nothing
  discarded (count 1, or 0 = a pass, §2.2). One card per step keeps the move lists short (a
  ten-card hand has hundreds of discard multisets), so random play reaches the end of a game.
- A SCORE is ``{"kind": "score", "box": "full-house", "cards": [1, 1, 3, 3, 3]}``, with
  ``"announce": true`` when the player announces the fill of the 11th box (§5); under
  ``auto_announce`` the flag is irrelevant and the move is listed without it (§5.2). With more
  than 5 cards left, the player then discards down to 5 with ``discard`` steps (phase ``trim``)
  before the turn passes (§4.3).
- The stock is drawn from its end; when a card must be drawn and the stock is empty, the
  discard pile is shuffled from the state's rng into a new stock (§6). Played cards go to the
  discard pile (§6.1).
- End (§7.1): once a seat fills its 12th box, play goes on until the seat just before the start
  player has finished a turn; then ``turn`` is None and the phase ``over``. Scoring: §7.2-7.4.
- ``from_json`` refuses states that conserve the cards but that play cannot reach (§8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations_with_replacement

from rules.base import (
    BaseEngine,
    Code,
    IllegalMove,
    InvalidOption,
    InvalidState,
    Json,
    Option,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    malformed,
    replace,
    require,
)
from rules.cards import hands_view

_GAME = "kniffel-cards"
_VALUES = (1, 2, 3, 4, 5, 6)
_COPIES = 18
_DECK_SIZE = _COPIES * len(_VALUES)
_HAND = 5
_HAND_LIMIT = 10
_MAX_DISCARD = 5
_MAX_DRAW = _MAX_DISCARD + 1  # the most cards one turn draws (an exchange of 5 drawing 6)
_PENALTY_PER_CARD = 2
_MISSED_ANNOUNCEMENT = 10
_BONUS, _BONUS_AT = 35, 63
_MALUS, _MALUS_BELOW = -20, 43


class Box(Enum):
    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three-of-a-kind"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    SMALL_STRAIGHT = "small-straight"
    LARGE_STRAIGHT = "large-straight"
    KNIFFEL = "kniffel"

    @property
    def face(self) -> int | None:
        """The face value of an upper box (Ones = 1 ...), None for the lower section."""
        return _FACE.get(self)


_BOXES: tuple[Box, ...] = tuple(Box)
_UPPER = _BOXES[:6]
_BOX_INDEX = {b: i for i, b in enumerate(_BOXES)}
_FACE = {b: i + 1 for i, b in enumerate(_UPPER)}


class Phase(Enum):
    ACTION = "action"      # the seat to act chooses its action (exchange or score)
    EXCHANGE = "exchange"  # the seat to act has discarded 1-5 cards and must draw
    TRIM = "trim"          # after scoring, the seat to act discards down to 5
    OVER = "over"


_DOC = "docs/rules/kniffel-cards.md"
OPTIONS: Mapping[str, Option] = {
    "allow_pass": Option(
        True, f"{_DOC} §2.2: discarding nothing and drawing nothing (a pass) is a legal exchange", type="boolean"
    ),
    "excess_after_score": Option(
        "discard",
        f"{_DOC} §4.3: more than 5 cards left after scoring: 'discard' the excess (the player chooses) down to 5, "
        "or 'keep' them",
        choices=("discard", "keep"),
    ),
    "second_kniffel_play": Option(
        False,
        f"{_DOC} §3.4: with the Kniffel box filled, five equal cards may still be played as a Kniffel for 0 points",
        type="boolean",
    ),
    "auto_announce": Option(
        False,
        f"{_DOC} §5.2: the penultimate (11th) fill counts as announced: the announce flag is never required and "
        "never penalised",
        type="boolean",
    ),
    "upper_cards": Option(
        "any",
        f"{_DOC} §3.3: an upper box takes 'any' 1-5 matching cards, or 'all' matching cards in hand (up to 5)",
        choices=("any", "all"),
    ),
    "start_player": Option(
        0, f"{_DOC} §1.4: the seat that starts (the youngest player)", type="integer", minimum=0, maximum=4
    ),
}


@dataclass(frozen=True, slots=True)
class Options:
    allow_pass: bool = True
    excess_after_score: str = "discard"
    second_kniffel_play: bool = False
    auto_announce: bool = False
    upper_cards: str = "any"
    start_player: int = 0

    def to_json(self) -> Json:
        return {name: getattr(self, name) for name in OPTIONS}


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    hands: tuple[tuple[int, ...], ...]        # sorted values per seat
    stock: tuple[int, ...]                    # the draw pile, drawn from the end
    discard: tuple[int, ...]                  # face up, last = top
    boxes: tuple[tuple[int | None, ...], ...]  # 12 per seat, None = empty
    penalties: tuple[tuple[int, ...], ...]    # excess-card penalty recorded beside each box
    extra_penalties: tuple[int, ...]          # excess penalties of zero-point second Kniffels
    missed: tuple[int, ...]                   # 1 when the seat failed to announce its 11th fill
    turns: tuple[int, ...]                    # completed turns per seat
    turn: int | None                          # the seat to act; None once the game is over
    phase: Phase
    discarded: int                            # cards discarded so far in this turn's exchange
    end_triggered_by: int | None
    rng: Rng


# ---------------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Score:
    box: Box
    cards: tuple[int, ...]
    announce: bool = False


@dataclass(frozen=True, slots=True)
class Discard:
    card: int


@dataclass(frozen=True, slots=True)
class Draw:
    count: int


Move = Score | Discard | Draw


# ---------------------------------------------------------------------------------- codes

#: Every code this engine answers (DESIGN 4.4): English title, Polish title and a Polish detail
#: in the rulebook's words, formatted with the context each raise passes.
CODES: Mapping[str, Code] = {
    f"{_GAME}.{name}": Code(*texts)
    for name, texts in {
        # turns and moves
        "not-your-turn": ("Not your turn", "Nie twoja kolej", "Teraz nie jest kolej gracza {seat}."),
        "game-over": ("The game is over", "Gra skończona",
                      "Ktoś zdobył już wszystkie kombinacje i ostatnia runda dobiegła końca; ruchów już nie ma."),
        "no-such-seat": ("No such seat", "Nie ma takiego miejsca", "Przy tym stole nie ma miejsca {seat}."),
        "bad-move": ("Malformed move", "Niepoprawny ruch", "Tego ruchu nie da się odczytać: {got}."),
        "card-not-in-hand": ("Card not in hand", "Nie ma tej karty na ręce",
                             "Gracz {seat} nie ma na ręce karty {card}, więc nie może jej odrzucić."),
        "discard-limit": ("Discard limit reached", "Limit odrzuconych kart",
                          "W jednej turze można odrzucić najwyżej {expected} kart."),
        "must-discard-excess": ("Discard down to five first", "Najpierw odrzuć nadmiarowe karty",
                                "Po zagraniu kombinacji gracz {seat} ma {got} kart; najpierw odrzuca nadmiarowe, "
                                "aż zostanie mu {expected}."),
        "draw-too-few": ("Draw too few", "Za mało dobranych kart",
                         "Nie można dobrać mniej kart, niż się odrzuciło: trzeba dobrać co najmniej {expected}."),
        "draw-too-many": ("Draw too many", "Za dużo dobranych kart",
                          "Można dobrać tyle kart, ile się odrzuciło, albo o jedną więcej: najwyżej {expected}."),
        "hand-limit": ("More than ten cards", "Więcej niż dziesięć kart",
                       "Nie można mieć na ręce więcej niż {expected} kart; po dobraniu byłoby ich {got}."),
        "pass-not-allowed": ("Pass not allowed", "Pas niedozwolony",
                             "Przy tym stole nie wolno odrzucić zera kart i nic nie dobrać."),
        "exchange-in-progress": ("Exchange in progress", "Trwa wymiana kart",
                                 "Gracz {seat} odrzucił już karty w tej turze; musi teraz dobrać, "
                                 "a kombinacji zagrać już nie może."),
        "cards-not-in-hand": ("Cards not in hand", "Nie ma tych kart na ręce",
                              "Gracz {seat} nie ma na ręce wszystkich kart {cards}."),
        "box-filled": ("Box already filled", "Pole już zapisane",
                       "Pole „{box}” na karcie punktów gracza {seat} jest już zapisane; każde pole zapisuje się raz."),
        "wrong-card-count": ("Wrong number of cards", "Zła liczba kart",
                             "Liczba zagranych kart ({got}) nie pasuje do pola „{box}”, które wymaga: {expected}."),
        "card-does-not-match": ("Card does not match the box", "Karta nie pasuje do pola",
                                "W górnej części zagrywa się tylko pasujące karty: do pola „{box}” same {expected}."),
        "invalid-combination": ("Not that combination", "To nie ta kombinacja",
                                "Karty {cards} nie tworzą kombinacji „{box}”."),
        "must-play-all-matching": ("Play every matching card", "Zagraj wszystkie pasujące karty",
                                   "Przy tym stole do pola „{box}” zagrywa się wszystkie pasujące karty z ręki: "
                                   "{expected}."),
        "nothing-to-announce": ("Nothing to announce", "Nie ma czego ogłaszać",
                                "Ogłasza się tylko zdobycie przedostatniej kombinacji (jedenastego pola)."),
        # new games
        "start-player": ("No such start player", "Nie ma takiego gracza rozpoczynającego",
                         "Liczba graczy przy stole: {players}; nie ma wśród nich gracza {seat}, który miałby rozpoczynać."),
        "setup-unsupported": ("No setup notation", "Brak zapisu układu",
                              "W Karten-Kniffel nie ustawia się początkowego układu: karty się tasuje i rozdaje."),
        # states
        "malformed-state": ("Malformed state", "Niepoprawny stan gry", "Stanu gry nie da się odczytać."),
        "bad-players": ("Wrong number of players", "Zła liczba graczy",
                    "W Karten-Kniffel gra od 2 do 5 osób, a nie {got}."),
        "bad-options": ("Bad options", "Niepoprawne opcje", "Opcje zapisane w stanie gry są niepoprawne."),
        "bad-card": ("Not a card", "To nie jest karta", "Karty mają wartości od 1 do 6."),
        "duplicate-card": ("Card too many times", "Za dużo kart jednej wartości",
                           "Kart o wartości {card} jest więcej niż 18: talia ma po 18 kart każdej wartości."),
        "missing-card": ("Missing card", "Brak karty",
                         "Brakuje kart o wartości {card}: wszystkie 108 kart, po 18 każdej wartości, musi być w grze."),
        "bad-hand-size": ("Impossible hand size", "Niemożliwa liczba kart na ręce",
                      "Gracz {seat} nie mógł mieć teraz tylu kart na ręce ({got}): każdy dostaje pięć, "
                      "a każda wymiana dokłada najwyżej jedną kartę."),
        "bad-stock": ("Impossible piles", "Niemożliwe stosy",
                  "Stos do dobierania jest za mały ({got}): przy tej liczbie tur musi w nim być co najmniej {expected}."),
        "unknown-box": ("Unknown box", "Nieznane pole",
                        "Karta punktów gracza {seat} ma inne pola niż dwanaście pól Karten-Kniffel."),
        "impossible-box": ("Impossible box value", "Niemożliwa wartość pola",
                           "Na karcie punktów gracza {seat} w polu „{box}” nie może stać {got}."),
        "bad-penalties": ("Impossible penalty points", "Niemożliwe punkty karne",
                      "Punkty karne gracza {seat} nie mogły powstać w tej grze."),
        "bad-announcement": ("Impossible missed announcement", "Niemożliwe nieogłoszenie",
                         "Gracz {seat} nie mógł zapomnieć ogłosić przedostatniej kombinacji."),
        "bad-turn": ("Turns out of order", "Tury nie po kolei",
                  "Liczby tur i gracz, który ma ruch, nie zgadzają się z kolejnością gry."),
        "bad-phase": ("Impossible phase", "Niemożliwa faza tury", "Tura nie mogła dojść do tego miejsca."),
        "bad-end": ("Impossible end", "Niemożliwy koniec gry",
                "Gra kończy się w rundzie, w której ktoś pierwszy zdobył wszystkie kombinacje, "
                "gdy każdy wykonał tyle samo tur."),
        "bad-rng": ("Bad random generator", "Niepoprawny generator losowy",
                "Generator losowy w stanie gry nie mógł potasować tej talii."),
        # score sheets
        "bad-tally": ("Malformed score sheets", "Niepoprawne karty punktów",
                      "Podaje się od 1 do 5 kart punktów, każdą z polami „boxes” oraz opcjonalnie „penalties”, "
                      "„extra_penalties” i „missed_announcement”."),
    }.items()
}


# --------------------------------------------------------------------------------- engine


class KniffelCards(BaseEngine[State, Move]):
    game_id = _GAME
    name = "Karten-Kniffel (Feldkötter)"
    players = range(2, 6)
    options = OPTIONS
    move_kinds = ("score", "discard", "draw")
    legal_moves_complete = True
    codes = CODES

    # -- creation ----------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption(f"{_GAME}.setup-unsupported", f"{_GAME} has no setup notation; got {excerpt(setup)}")
        opts = Options(**{name: options.get(name, opt.default) for name, opt in OPTIONS.items()})
        if opts.start_player >= players:
            raise InvalidOption(
                f"{_GAME}.start-player", f"start_player {opts.start_player} is not a seat of {players} players",
                seat=opts.start_player, players=players,
            )
        deck, rng = rng.shuffle(tuple(v for v in _VALUES for _ in range(_COPIES)))
        hands = tuple(tuple(sorted(deck[len(deck) - _HAND * (p + 1): len(deck) - _HAND * p])) for p in range(players))
        return State(
            players=players,
            options=opts,
            hands=hands,
            stock=deck[: len(deck) - _HAND * players],
            discard=(),
            boxes=((None,) * 12,) * players,
            penalties=((0,) * 12,) * players,
            extra_penalties=(0,) * players,
            missed=(0,) * players,
            turns=(0,) * players,
            turn=opts.start_player,
            phase=Phase.ACTION,
            discarded=0,
            end_triggered_by=None,
            rng=rng,
        )

    def options_of(self, state: State) -> Mapping[str, Json]:
        return state.options.to_json()

    # -- turn --------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.phase is Phase.OVER else frozenset((state.turn,))

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if state.phase is Phase.OVER or seat != state.turn:
            return []
        hand = state.hands[seat]
        values = sorted(set(hand))
        if state.phase is Phase.TRIM:
            return [Discard(v) for v in values]
        moves: list[Move] = []
        if state.phase is Phase.ACTION:
            for box, cards in _score_plays(state, seat):
                for announce in _announce_choices(state, seat, box):
                    moves.append(Score(box, cards, announce))
        if state.discarded < _MAX_DISCARD:
            moves.extend(Discard(v) for v in values)
        moves.extend(Draw(n) for n in _draw_counts(state, seat))
        return moves

    def check(self, state: State, seat: int, move: Move) -> None:
        # checks run on every move: each refusal's message is built only when refusing
        self.check_turn(state, seat)
        hand = state.hands[seat]
        if isinstance(move, Score):
            self._check_score(state, seat, move)
        elif isinstance(move, Discard):
            if move.card not in hand:
                raise IllegalMove(f"{_GAME}.card-not-in-hand", f"cannot discard a {move.card}: hand is {list(hand)}",
                                  card=move.card, seat=seat)
            if not (state.phase is Phase.TRIM or state.discarded < _MAX_DISCARD):
                raise IllegalMove(
                    f"{_GAME}.discard-limit",
                    f"at most {_MAX_DISCARD} cards may be discarded in an exchange; {state.discarded} already discarded",
                    expected=_MAX_DISCARD, got=state.discarded + 1,
                )
        else:
            if state.phase is Phase.TRIM:
                raise IllegalMove(
                    f"{_GAME}.must-discard-excess",
                    f"draw {move.count}: after scoring, first discard down to {_HAND} (hand has {len(hand)})",
                    seat=seat, expected=_HAND, got=len(hand),
                )
            d = state.discarded
            if move.count < d:
                raise IllegalMove(f"{_GAME}.draw-too-few",
                                  f"draw {move.count}: must draw at least as many as discarded ({d})", expected=d,
                                  got=move.count)
            if move.count > d + 1:
                raise IllegalMove(f"{_GAME}.draw-too-many",
                                  f"draw {move.count}: may draw at most one more than discarded ({d} + 1)",
                                  expected=d + 1, got=move.count)
            if len(hand) + move.count > _HAND_LIMIT:
                raise IllegalMove(f"{_GAME}.hand-limit",
                                  f"draw {move.count}: hand of {len(hand)} would exceed {_HAND_LIMIT} cards",
                                  expected=_HAND_LIMIT, got=len(hand) + move.count)
            if not (move.count > 0 or state.options.allow_pass):
                raise IllegalMove(f"{_GAME}.pass-not-allowed",
                                  "draw 0 after discarding nothing is a pass, which the allow_pass option forbids",
                                  seat=seat)

    def _check_score(self, state: State, seat: int, move: Score) -> None:
        require(
            state.phase is not Phase.TRIM, IllegalMove, f"{_GAME}.must-discard-excess",
            f"score {move.box.value}: this turn has scored already; discard down to {_HAND}",
            seat=seat, expected=_HAND, got=len(state.hands[seat]),
        )
        require(
            state.phase is not Phase.EXCHANGE, IllegalMove, f"{_GAME}.exchange-in-progress",
            f"score {move.box.value}: this turn is an exchange ({state.discarded} discarded); finish it with a draw",
            seat=seat, got=state.discarded,
        )
        hand = state.hands[seat]
        have = Counter(hand)
        require(
            not Counter(move.cards) - have, IllegalMove, f"{_GAME}.cards-not-in-hand",
            f"cards {list(move.cards)} are not all in hand {list(hand)}", cards=list(move.cards), seat=seat,
        )
        filled = state.boxes[seat][_BOX_INDEX[move.box]] is not None
        zero_kniffel = filled and move.box is Box.KNIFFEL and state.options.second_kniffel_play
        require(
            not filled or zero_kniffel, IllegalMove, f"{_GAME}.box-filled",
            f"box {move.box.value} already holds {state.boxes[seat][_BOX_INDEX[move.box]]}; a box is filled once",
            box=move.box.value, seat=seat,
        )
        problem = _combination_problem(move.box, move.cards)
        if problem:
            code, message, context = problem
            raise IllegalMove(code, message, **{k: list(v) if isinstance(v, list) else v for k, v in context})
        if state.options.upper_cards == "all" and move.box.face is not None:
            need = min(have[move.box.face], 5)
            require(
                len(move.cards) == need, IllegalMove, f"{_GAME}.must-play-all-matching",
                f"score {move.box.value} with {list(move.cards)}: the upper_cards option asks for all {need} matching cards",
                box=move.box.value, expected=need, got=len(move.cards),
            )
        if state.options.auto_announce:  # the flag is irrelevant: never required, never penalised
            return
        fill = None if zero_kniffel else _filled(state, seat) + 1
        require(
            not move.announce or fill == len(_BOXES) - 1, IllegalMove, f"{_GAME}.nothing-to-announce",
            "announce is only for the fill of the penultimate (11th) box; this play "
            + ("fills no box" if fill is None else f"is fill {fill}"), seat=seat,
        )

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Score):
            return self._apply_score(state, seat, move)
        hand = state.hands[seat]
        if isinstance(move, Discard):
            new = _set(state.hands, seat, _remove(hand, (move.card,)))
            state = replace(state, hands=new, discard=state.discard + (move.card,))
            if state.phase is Phase.TRIM:
                return _end_turn(state) if len(new[seat]) == _HAND else state
            return replace(state, phase=Phase.EXCHANGE, discarded=state.discarded + 1)
        drawn, stock, discard, rng = _draw_cards(state.stock, state.discard, state.rng, move.count)
        hands = _set(state.hands, seat, tuple(sorted(hand + drawn)))
        return _end_turn(replace(state, hands=hands, stock=stock, discard=discard, rng=rng))

    def _apply_score(self, state: State, seat: int, move: Score) -> State:
        hand = state.hands[seat]
        i = _BOX_INDEX[move.box]
        penalty = _PENALTY_PER_CARD * max(0, len(hand) - _HAND)
        left = _remove(hand, move.cards)
        discard = state.discard + move.cards
        if state.boxes[seat][i] is not None:  # a zero-point second Kniffel (option)
            state = replace(state, extra_penalties=_set(state.extra_penalties, seat, state.extra_penalties[seat] + penalty))
        else:
            fills = _filled(state, seat) + 1
            state = replace(
                state,
                boxes=_set(state.boxes, seat, _set(state.boxes[seat], i, _combination_value(move.box, move.cards))),
                penalties=_set(state.penalties, seat, _set(state.penalties[seat], i, penalty)),
            )
            if fills == len(_BOXES) - 1 and not move.announce and not state.options.auto_announce:
                state = replace(state, missed=_set(state.missed, seat, 1))
            if fills == len(_BOXES) and state.end_triggered_by is None:
                state = replace(state, end_triggered_by=seat)
        stock, rng = state.stock, state.rng
        if len(left) < _HAND:
            drawn, stock, discard, rng = _draw_cards(stock, discard, rng, _HAND - len(left))
            left = tuple(sorted(left + drawn))
        state = replace(state, hands=_set(state.hands, seat, left), stock=stock, discard=discard, rng=rng)
        if len(left) > _HAND and state.options.excess_after_score == "discard":
            return replace(state, phase=Phase.TRIM)
        return _end_turn(state)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if after.rng != before.rng:  # only a reshuffle draws from the rng
            out.insert(1, {"type": "reshuffle", "stock": len(after.stock)})
        if after.missed[seat] > before.missed[seat]:
            out.insert(1, {"type": "missed-announcement", "seat": seat, "penalty": _MISSED_ANNOUNCEMENT})
        if after.end_triggered_by is not None and before.end_triggered_by is None:
            out.insert(1, {"type": "sheet-complete", "seat": seat})
        return out

    # -- results -----------------------------------------------------------------------

    def round_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def scores(self, state: State) -> ScoreReport:
        sheets = [
            _sheet_score(state.boxes[p], state.penalties[p], state.extra_penalties[p], state.missed[p])
            for p in range(state.players)
        ]
        totals = tuple(s["total"] for s in sheets)
        over = state.phase is Phase.OVER
        return ScoreReport(totals, totals, tuple(sheets), over, _best(totals) if over else ())

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        totals = self.scores(state).totals
        winners = _best(totals)
        reason = f"seat {state.end_triggered_by} filled the sheet; the round was completed; highest total wins"
        return Outcome(winners, reason, draw=False, points=totals)

    def score_tally(self, tally: Json) -> ScoreReport:
        """Score sheets without a state: ``{"sheets": [{"boxes": {box: value|null},
        "penalties": {box: points}, "extra_penalties": n, "missed_announcement": bool}]}``."""
        with malformed(f"{_GAME}.bad-tally", f"{_GAME} tally {excerpt(tally)} (it is {{'sheets': [...]}})"):
            sheets = tally["sheets"]
            require(
                isinstance(sheets, list) and 1 <= len(sheets) <= 5, InvalidState, f"{_GAME}.bad-tally",
                f"a tally holds 1-5 sheets, got {excerpt(sheets)}",
            )
            out = []
            for n, sheet in enumerate(sheets):
                require(isinstance(sheet, dict), InvalidState, f"{_GAME}.bad-tally", f"sheet {n} is not an object")
                unknown = set(sheet) - {"boxes", "penalties", "extra_penalties", "missed_announcement"}
                require(not unknown, InvalidState, f"{_GAME}.bad-tally", f"sheet {n}: unknown fields {excerpt(sorted(unknown))}")
                boxes_in, pens_in = sheet.get("boxes"), sheet.get("penalties", {})
                require(
                    isinstance(boxes_in, dict) and isinstance(pens_in, dict), InvalidState, f"{_GAME}.bad-tally",
                    f"sheet {n}: 'boxes' (required) and 'penalties' are objects keyed by box",
                )
                for name in (*boxes_in, *pens_in):
                    require(name in _BOX_NAMES, InvalidState, f"{_GAME}.unknown-box", f"sheet {n}: no box {excerpt(name)}")
                boxes = tuple(boxes_in.get(b.value) for b in _BOXES)
                pens = tuple(pens_in.get(b.value, 0) for b in _BOXES)
                extra = sheet.get("extra_penalties", 0)
                missed = sheet.get("missed_announcement", False)
                require(
                    isinstance(missed, bool), InvalidState, f"{_GAME}.bad-tally",
                    f"sheet {n}: missed_announcement {excerpt(missed)} is not a boolean",
                )
                _check_sheet(boxes, pens, extra, int(missed), f"sheet {n}", seat=n)
                out.append(_sheet_score(boxes, pens, extra, int(missed)))
        totals = tuple(s["total"] for s in out)
        return ScoreReport(totals, totals, tuple(out), True, _best(totals))

    # -- views and JSON ----------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Json:
        data = self.to_json(state)
        del data["rng"]
        data.update(hands_view(state.hands, seat))
        data["stock"] = len(state.stock)
        return data

    def to_json(self, state: State) -> Json:
        return {
            "players": state.players,
            "options": state.options.to_json(),
            "turn": state.turn,
            "phase": state.phase.value,
            "discarded": state.discarded,
            "end_triggered_by": state.end_triggered_by,
            "turns": list(state.turns),
            "hands": [list(h) for h in state.hands],
            "stock": list(state.stock),
            "discard": list(state.discard),
            "sheets": [
                {
                    "boxes": {b.value: state.boxes[p][i] for i, b in enumerate(_BOXES)},
                    "penalties": {b.value: state.penalties[p][i] for i, b in enumerate(_BOXES)},
                    "extra_penalties": state.extra_penalties[p],
                    "missed_announcement": bool(state.missed[p]),
                }
                for p in range(state.players)
            ],
            "rng": state.rng.to_json(),
        }

    def from_json(self, data: Json) -> State:
        with malformed(f"{_GAME}.malformed-state", f"{_GAME} state {excerpt(data)}"):
            state = self._read(data)
        _check_reachable(state)
        return state

    def _read(self, data: Json) -> State:
        """The state's fields, each checked on its own (and the 108 cards); no cross-checks yet."""
        players = _int(data["players"], "players")
        require(
            players in self.players, InvalidState, f"{_GAME}.bad-players", f"players must be 2-5, got {players}",
            got=players, expected="2-5",
        )
        raw_opts = data["options"]
        require(
            isinstance(raw_opts, dict) and set(raw_opts) == set(OPTIONS), InvalidState, f"{_GAME}.bad-options",
            f"options must name exactly {sorted(OPTIONS)}, got {excerpt(raw_opts)}",
        )
        try:
            opts = Options(**self.resolve_options(raw_opts))
        except InvalidOption as exc:
            raise InvalidState(f"{_GAME}.bad-options", exc.message) from exc
        require(
            opts.start_player < players, InvalidState, f"{_GAME}.bad-options",
            f"start_player {opts.start_player} is not a seat of {players}",
        )
        hands = tuple(tuple(sorted(_cards(h, f"hands[{p}]"))) for p, h in enumerate(_seq(data["hands"], players, "hands")))
        stock = _cards(data["stock"], "stock")
        discard = _cards(data["discard"], "discard")
        counts = Counter(stock) + Counter(discard)
        for h in hands:
            counts += Counter(h)
        wrong = {v: counts[v] for v in _VALUES if counts[v] != _COPIES}
        if wrong:
            card = max(wrong, key=lambda v: (wrong[v] > _COPIES, v))
            raise InvalidState(
                f"{_GAME}.{'duplicate-card' if wrong[card] > _COPIES else 'missing-card'}",
                f"each value 1-6 must appear {_COPIES} times over hands and piles ({_DECK_SIZE} cards); "
                f"wrong: {wrong}", card=card, expected=_COPIES, got=wrong[card],
            )
        boxes, pens, extras, missed = [], [], [], []
        for p, sheet in enumerate(_seq(data["sheets"], players, "sheets")):
            require(
                set(sheet) == {"boxes", "penalties", "extra_penalties", "missed_announcement"}, InvalidState,
                f"{_GAME}.malformed-state", f"sheets[{p}] has fields {excerpt(sorted(sheet))}",
            )
            require(
                set(sheet["boxes"]) == _BOX_NAMES and set(sheet["penalties"]) == _BOX_NAMES, InvalidState,
                f"{_GAME}.unknown-box", f"sheets[{p}] must name the 12 boxes {sorted(_BOX_NAMES)}", seat=p,
            )
            b = tuple(sheet["boxes"][x.value] for x in _BOXES)
            pe = tuple(sheet["penalties"][x.value] for x in _BOXES)
            ex = sheet["extra_penalties"]
            mi = sheet["missed_announcement"]
            require(isinstance(mi, bool), InvalidState, f"{_GAME}.malformed-state", f"sheets[{p}].missed_announcement {excerpt(mi)}")
            _check_sheet(b, pe, ex, int(mi), f"sheets[{p}]", seat=p)
            require(
                not mi or not opts.auto_announce, InvalidState, f"{_GAME}.bad-announcement",
                f"sheets[{p}] records a missed announcement under auto_announce", seat=p,
            )
            require(
                ex == 0 or opts.second_kniffel_play and b[_BOX_INDEX[Box.KNIFFEL]] is not None, InvalidState,
                f"{_GAME}.bad-penalties",
                f"sheets[{p}] has extra penalties {ex}: they come only from a second Kniffel (second_kniffel_play)",
                seat=p,
            )
            boxes.append(b)
            pens.append(pe)
            extras.append(ex)
            missed.append(int(mi))
        try:
            phase = Phase(data["phase"])
        except ValueError:
            raise InvalidState(
                f"{_GAME}.bad-phase", f"phase must be one of {[x.value for x in Phase]}, got {excerpt(data['phase'])}",
                got=excerpt(data["phase"]),
            ) from None
        turn, end_by = data["turn"], data["end_triggered_by"]
        try:
            rng = Rng.from_json(data["rng"])
        except InvalidState as exc:
            raise InvalidState(f"{_GAME}.bad-rng", exc.message) from None
        return State(
            players=players,
            options=opts,
            hands=hands,
            stock=stock,
            discard=discard,
            boxes=tuple(boxes),
            penalties=tuple(pens),
            extra_penalties=tuple(extras),
            missed=tuple(missed),
            turns=tuple(_int(t, "turns") for t in _seq(data["turns"], players, "turns")),
            turn=None if turn is None else _int(turn, "turn"),
            phase=phase,
            discarded=_int(data["discarded"], "discarded"),
            end_triggered_by=None if end_by is None else _int(end_by, "end_triggered_by"),
            rng=rng,
        )

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, Score):
            out = {"kind": "score", "box": move.box.value, "cards": list(move.cards)}
            if move.announce:  # as a client sends it: the flag only when announcing
                out["announce"] = True
            return out
        if isinstance(move, Discard):
            return {"kind": "discard", "card": move.card}
        return {"kind": "draw", "count": move.count}

    def move_from_json(self, data: Json) -> Move:
        def bad(why: str) -> IllegalMove:
            return IllegalMove(f"{_GAME}.bad-move", f"bad move {excerpt(data)}: {why}", got=excerpt(data))

        if not isinstance(data, dict):
            raise bad("a move is an object with a 'kind'")
        kind = data.get("kind")
        fields = {"score": {"box", "cards", "announce"}, "discard": {"card"}, "draw": {"count"}}.get(kind)
        if fields is None:
            raise bad(f"kind must be one of {list(self.move_kinds)}")
        extra = set(data) - fields - {"kind"}
        if extra:
            raise bad(f"unknown fields {excerpt(sorted(extra))}")
        if kind == "discard":
            card = data.get("card")
            if not _is_value(card):
                raise bad("card must be a value 1-6")
            return Discard(card)
        if kind == "draw":
            count = data.get("count")
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= _MAX_DISCARD + 1:
                raise bad("count must be an integer 0-6")
            return Draw(count)
        box = data.get("box")
        if box not in _BOX_NAMES:
            raise bad(f"box must be one of {[b.value for b in _BOXES]}")
        cards = data.get("cards")
        if not isinstance(cards, list) or not 1 <= len(cards) <= 5 or not all(_is_value(c) for c in cards):
            raise bad("cards must be a list of 1-5 values 1-6")
        announce = data.get("announce", False)
        if not isinstance(announce, bool):
            raise bad("announce must be a boolean")
        return Score(Box(box), tuple(sorted(cards)), announce)


# ------------------------------------------------------------------------------- helpers

_BOX_NAMES = frozenset(b.value for b in _BOXES)


def _set(items: tuple, i: int, value) -> tuple:
    return items[:i] + (value,) + items[i + 1:]


def _remove(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return tuple(left)


def _end_turn(state: State) -> State:
    """Close the acting seat's turn (§7.1: after a full sheet, finish the round, then stop)."""
    seat = state.turn
    turns = _set(state.turns, seat, state.turns[seat] + 1)
    last = (state.options.start_player - 1) % state.players
    if state.end_triggered_by is not None and seat == last:
        return replace(state, turns=turns, phase=Phase.OVER, discarded=0, turn=None)
    return replace(state, turns=turns, phase=Phase.ACTION, discarded=0, turn=(seat + 1) % state.players)


def _check_reachable(s: State) -> None:
    """Refuse a state that conserves its 108 cards but that no sequence of moves reaches
    (docs/rules/kniffel-cards.md §8): turns out of order, a seat to act that is not next, hand
    sizes, penalties or fills that the seat's turns cannot explain, an end that is not the
    round of the first full sheet."""
    n, start, total = s.players, s.options.start_player, sum(s.turns)
    require(
        s.rng.counter >= _DECK_SIZE - 1, InvalidState, f"{_GAME}.bad-rng",
        f"the deal alone draws {_DECK_SIZE - 1} numbers from the rng; its counter is {s.rng.counter}",
        got=s.rng.counter,
    )
    expected = tuple(total // n + ((p - start) % n < total % n) for p in range(n))
    require(
        s.turns == expected, InvalidState, f"{_GAME}.bad-turn",
        f"turns {list(s.turns)} are not a consistent round from start seat {start} (expected {list(expected)})",
        expected=list(expected), got=list(s.turns),
    )
    over = s.phase is Phase.OVER
    acting = None if over else (start + total) % n
    require(
        s.turn == acting, InvalidState, f"{_GAME}.bad-turn",
        f"turn {excerpt(s.turn)} is not the seat to act after turns {list(s.turns)} from start seat {start} "
        f"({excerpt(acting)})",
        expected=acting, got=s.turn,
    )
    in_trim = s.phase is Phase.TRIM
    held = len(s.hands[acting]) if acting is not None else 0
    if s.phase is Phase.EXCHANGE:
        require(
            1 <= s.discarded <= _MAX_DISCARD and len(s.discard) >= s.discarded, InvalidState, f"{_GAME}.bad-phase",
            f"an exchange has 1-5 cards discarded, all still on the discard pile; got {s.discarded}",
            got=s.discarded,
        )
    else:
        require(
            s.discarded == 0, InvalidState, f"{_GAME}.bad-phase",
            f"{s.discarded} cards counted as discarded outside an exchange", got=s.discarded,
        )
    if in_trim:
        played = max(max(s.penalties[acting]), s.extra_penalties[acting]) // _PENALTY_PER_CARD + _HAND
        require(
            s.options.excess_after_score == "discard" and _HAND < held < played and s.discard, InvalidState,
            f"{_GAME}.bad-phase",
            f"discarding down to {_HAND} after a score needs the 'discard' excess ruling and fewer cards than the "
            f"scoring hand ({held} left, excess ruling {s.options.excess_after_score!r})",
            got=held,
        )
    complete = [p for p in range(n) if None not in s.boxes[p]]
    for p in range(n):
        trimming = in_trim and p == acting
        fills = sum(x is not None for x in s.boxes[p])
        require(
            fills <= s.turns[p] + trimming, InvalidState, f"{_GAME}.bad-turn",
            f"seat {p} has {fills} boxes filled in {s.turns[p]} turns", seat=p, got=fills,
        )
        # a turn that fills a box is no exchange; only an exchange grows the hand, by one card
        exchanges = s.turns[p] - fills + trimming
        size = len(s.hands[p]) + (s.discarded if p == acting else 0)
        if not trimming:
            require(
                _HAND <= size <= _HAND + exchanges and size <= _HAND_LIMIT, InvalidState, f"{_GAME}.bad-hand-size",
                f"seat {p} holds {size} cards after {exchanges} exchange turns at most "
                f"(5 dealt, at most one more per exchange, never above {_HAND_LIMIT})",
                seat=p, got=size,
            )
        excess = 0 if trimming else size - _HAND
        paid = [x // _PENALTY_PER_CARD for x in s.penalties[p]] + [s.extra_penalties[p] // _PENALTY_PER_CARD]
        grown = excess + sum(paid) if s.options.excess_after_score == "discard" else max(excess, *paid)
        require(
            grown <= exchanges, InvalidState, f"{_GAME}.bad-penalties",
            f"seat {p}'s penalty points and hand need {grown} exchange turns that drew one more card; "
            f"it has had {exchanges} at most", seat=p, got=grown, expected=exchanges,
        )
    dealt_stock = _DECK_SIZE - _HAND * n
    if _MAX_DRAW * total < dealt_stock:  # the stock cannot have run out yet: nothing was reshuffled
        require(
            len(s.stock) >= dealt_stock - _MAX_DRAW * total, InvalidState, f"{_GAME}.bad-stock",
            f"{total} finished turns draw at most {_MAX_DRAW * total} of the {dealt_stock} cards left after the "
            f"deal; the stock holds only {len(s.stock)}", expected=dealt_stock - _MAX_DRAW * total, got=len(s.stock),
        )
    e = s.end_triggered_by
    pos = [(p - start) % n for p in range(n)]
    if e is None:
        require(
            not complete and not over, InvalidState, f"{_GAME}.bad-end",
            f"seats {complete} filled every box but no end is recorded", got=complete,
        )
        return
    require(
        e in complete and all(pos[c] > pos[e] for c in complete if c != e), InvalidState, f"{_GAME}.bad-end",
        f"end_triggered_by {e} must be the first seat of the last round to fill its sheet; full sheets: {complete}",
        seat=e, got=complete,
    )
    if over:
        require(
            total % n == 0, InvalidState, f"{_GAME}.bad-end", "a finished game has equal turns for every seat",
            got=list(s.turns),
        )
    else:
        require(
            pos[acting] > pos[e] or (acting == e and in_trim), InvalidState, f"{_GAME}.bad-end",
            f"seat {e} filled its sheet; only the seats after it in the round still play, not seat {acting}",
            seat=acting,
        )
        done = [c for c in complete if c != e and not (pos[c] < pos[acting] or (c == acting and in_trim))]
        require(
            not done, InvalidState, f"{_GAME}.bad-end",
            f"seats {done} filled their sheets in turns of the last round not yet played", got=done,
        )


def _filled(state: State, seat: int) -> int:
    return sum(x is not None for x in state.boxes[seat])


def _best(totals: Sequence[int]) -> tuple[int, ...]:
    top = max(totals)
    return tuple(p for p, t in enumerate(totals) if t == top)


def _announce_choices(state: State, seat: int, box: Box) -> tuple[bool, ...]:
    """``announce`` values listed for a fill: both on the 11th fill, else false (not sent). Under
    auto_announce the flag is irrelevant (either value is accepted), so the plain move is listed."""
    if (
        state.options.auto_announce
        or state.boxes[seat][_BOX_INDEX[box]] is not None
        or _filled(state, seat) != len(_BOXES) - 2
    ):
        return (False,)
    return (True, False)


def _draw_counts(state: State, seat: int) -> list[int]:
    if state.phase is Phase.TRIM:
        return []
    d, size = state.discarded, len(state.hands[seat])
    return [n for n in (d, d + 1) if size + n <= _HAND_LIMIT and (n > 0 or state.options.allow_pass)]


def _draw_cards(stock: tuple[int, ...], discard: tuple[int, ...], rng: Rng, count: int):
    """Draw ``count`` cards from the end of the stock, reshuffling the discard pile when it is empty."""
    drawn: list[int] = []
    while len(drawn) < count:
        if not stock:
            if not discard:  # docs §6.3: draw as many as there are
                break
            stock, rng = rng.shuffle(discard)
            discard = ()
        take = min(count - len(drawn), len(stock))
        drawn.extend(stock[len(stock) - take:])
        stock = stock[: len(stock) - take]
    return tuple(drawn), stock, discard, rng


def _score_plays(state: State, seat: int) -> list[tuple[Box, tuple[int, ...]]]:
    sheet = state.boxes[seat]
    plays = _plays_for_hand(state.hands[seat], state.options.upper_cards == "all")
    out = [(box, cards) for box, cards in plays if sheet[_BOX_INDEX[box]] is None]
    if state.options.second_kniffel_play and sheet[_BOX_INDEX[Box.KNIFFEL]] is not None:
        out.extend((box, cards) for box, cards in plays if box is Box.KNIFFEL)
    return out


@cache
def _plays_for_hand(hand: tuple[int, ...], all_matching: bool) -> tuple[tuple[Box, tuple[int, ...]], ...]:
    """Every (box, cards) combination a sorted hand can play, boxes in sheet order."""
    have = Counter(hand)
    out: list[tuple[Box, tuple[int, ...]]] = []
    for box in _UPPER:
        n = min(have[box.face], 5)
        out.extend((box, (box.face,) * k) for k in ((n,) if all_matching and n else range(1, n + 1)))
    fives = [c for c in combinations_with_replacement(_VALUES, 5) if not Counter(c) - have]
    fours = [c for c in combinations_with_replacement(_VALUES, 4) if not Counter(c) - have]
    for box in _BOXES[6:]:
        for cards in fours if box is Box.SMALL_STRAIGHT else fives:
            if _combination_problem(box, cards) is None:
                out.append((box, cards))
    return tuple(out)


@cache
def _combination_problem(box: Box, cards: tuple[int, ...]) -> tuple[str, str, tuple] | None:
    """None when sorted ``cards`` validly fill ``box`` (docs §3); else (code, message, context items)."""
    shown = list(cards)
    if box.face is not None:
        if not 1 <= len(cards) <= 5:
            return (f"{_GAME}.wrong-card-count", f"{box.value} takes 1-5 cards, got {shown}",
                    (("box", box.value), ("expected", "1-5"), ("got", len(cards))))
        if any(c != box.face for c in cards):
            return (f"{_GAME}.card-does-not-match", f"{box.value} takes only {box.face}s, got {shown}",
                    (("box", box.value), ("expected", box.face), ("cards", shown)))
        return None
    size = 4 if box is Box.SMALL_STRAIGHT else 5
    if len(cards) != size:
        return (f"{_GAME}.wrong-card-count", f"{box.value} takes exactly {size} cards, got {shown}",
                (("box", box.value), ("expected", size), ("got", len(cards))))
    counts = sorted(Counter(cards).values(), reverse=True)
    ok = {
        Box.THREE_OF_A_KIND: counts[0] >= 3,
        Box.FOUR_OF_A_KIND: counts[0] >= 4,
        Box.FULL_HOUSE: counts == [3, 2],
        Box.SMALL_STRAIGHT: cards in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
        Box.LARGE_STRAIGHT: cards in ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)),
        Box.KNIFFEL: counts == [5],
    }[box]
    if ok:
        return None
    why = {
        Box.THREE_OF_A_KIND: "needs at least 3 cards of one value",
        Box.FOUR_OF_A_KIND: "needs at least 4 cards of one value",
        Box.FULL_HOUSE: "needs 3 of one value and 2 of another (five equal cards are not a Full House)",
        Box.SMALL_STRAIGHT: "needs 4 consecutive values: 1-4, 2-5 or 3-6",
        Box.LARGE_STRAIGHT: "needs 1-5 or 2-6",
        Box.KNIFFEL: "needs 5 equal cards",
    }[box]
    return (f"{_GAME}.invalid-combination", f"{shown} is not a {box.value}: {why}",
            (("box", box.value), ("cards", shown)))


_FIXED_VALUE = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.KNIFFEL: 50}


def _combination_value(box: Box, cards: tuple[int, ...]) -> int:
    return _FIXED_VALUE.get(box, sum(cards))


@cache
def _possible_values(box: Box) -> frozenset[int]:
    sizes = (4,) if box is Box.SMALL_STRAIGHT else (1, 2, 3, 4, 5) if box.face else (5,)
    return frozenset(
        _combination_value(box, c)
        for n in sizes
        for c in combinations_with_replacement(_VALUES, n)
        if _combination_problem(box, c) is None
    )


def _check_sheet(boxes: Sequence, pens: Sequence, extra: Json, missed: int, where: str, seat: int) -> None:
    for box, value, pen in zip(_BOXES, boxes, pens, strict=True):
        if value is not None:
            require(
                _int_ok(value) and value in _possible_values(box), InvalidState, f"{_GAME}.impossible-box",
                f"{where}: {box.value} = {excerpt(value)} is impossible; possible: {sorted(_possible_values(box))}",
                seat=seat, box=box.value, got=excerpt(value),
            )
        require(
            _int_ok(pen) and pen % 2 == 0 and 0 <= pen <= _PENALTY_PER_CARD * (_HAND_LIMIT - _HAND), InvalidState,
            f"{_GAME}.bad-penalties", f"{where}: penalty {excerpt(pen)} beside {box.value} must be an even 0-10",
            seat=seat, box=box.value, got=excerpt(pen),
        )
        require(
            value is not None or pen == 0, InvalidState, f"{_GAME}.bad-penalties",
            f"{where}: penalty {pen} beside the empty box {box.value}", seat=seat, box=box.value, got=pen,
        )
    require(
        _int_ok(extra) and extra >= 0 and extra % 2 == 0, InvalidState, f"{_GAME}.bad-penalties",
        f"{where}: extra_penalties {excerpt(extra)} must be an even number >= 0", seat=seat, got=excerpt(extra),
    )
    require(
        not missed or sum(v is not None for v in boxes) >= len(_BOXES) - 1, InvalidState, f"{_GAME}.bad-announcement",
        f"{where}: a missed announcement needs at least 11 filled boxes", seat=seat,
    )


def _sheet_score(boxes: Sequence, pens: Sequence, extra: int, missed: int) -> Json:
    upper = sum(v for v in boxes[:6] if v is not None)
    lower = sum(v for v in boxes[6:] if v is not None)
    bonus = _BONUS if upper >= _BONUS_AT else _MALUS if upper < _MALUS_BELOW else 0
    card_penalties = sum(pens) + extra
    announcement = _MISSED_ANNOUNCEMENT * missed
    total = upper + bonus + lower - card_penalties - announcement
    return {
        "boxes": {b.value: v for b, v in zip(_BOXES, boxes, strict=True)},
        "penalties": {b.value: v for b, v in zip(_BOXES, pens, strict=True)},
        "extra_penalties": extra,
        "upper": upper,
        "upper_bonus": bonus,
        "lower": lower,
        "card_penalties": card_penalties,
        "announcement_penalty": announcement,
        "total": total,
    }


def _is_value(x: Json) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6


def _int_ok(x: Json) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int(x: Json, what: str) -> int:
    require(_int_ok(x) and x >= 0, InvalidState, f"{_GAME}.malformed-state", f"{what} must be a non-negative integer, got {excerpt(x)}")
    return x


def _seq(x: Json, n: int, what: str) -> list:
    require(isinstance(x, list) and len(x) == n, InvalidState, f"{_GAME}.malformed-state", f"{what} must list {n} seats, got {excerpt(x)}")
    return x


def _cards(x: Json, what: str) -> tuple[int, ...]:
    require(
        isinstance(x, list) and all(_is_value(c) for c in x), InvalidState, f"{_GAME}.bad-card",
        f"{what} must be a list of card values 1-6, got {excerpt(x)}",
    )
    return tuple(x)


ENGINE = KniffelCards()
