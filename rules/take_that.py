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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from rules.base import (
    BaseEngine,
    Code,
    IllegalMove,
    InvalidOption,
    InvalidState,
    Json,
    NextRound,
    Option,
    Outcome,
    Rng,
    ScoreReport,
    excerpt,
    fields_json,
    malformed,
    replace,
)
from rules.cards import hands_view

_GAME = "take-that"
_CARDS: tuple[int, ...] = tuple(n for n in range(12, 99) if n % 10)
_CARD_SET = frozenset(_CARDS)
_TOADS = frozenset(n for n in _CARDS if n // 10 == n % 10)
_HAND_SIZE = {2: 9, 3: 9, 4: 8}
_REACH = 10
_TOAD_PENALTY = 5
_MAX_ROUND_SCORE = 200  # bounds a tally's totals
_MAX_FACE_UP = 72  # the 36 twin pairs: the most a round can score, for one seat or all together
_MIN_ROUND_SCORE = -(72 + _TOAD_PENALTY * 7)  # every plain card and every toad face down


def is_toad(card: int) -> bool:
    return card in _TOADS


def twin(card: int) -> int:
    """The twisted twin (digits swapped): 49 -> 94; a toad is its own 'twin' and has none."""
    return 10 * (card % 10) + card // 10


# --------------------------------------------------------------------------- types


class Phase(Enum):
    PLAY = "play"
    ROUND_OVER = "round-over"


@dataclass(frozen=True, slots=True)
class Options:
    rounds: int = 2
    professional: bool = False
    next_dealer: str = "clockwise"
    tie_break: str = "shared"
    end_when_last_draw_empties_row: bool = True
    professional_twist_penalty: bool = False
    face_down_view: str = "count"


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    round: int  # 1-based
    dealer: int
    turn: int | None  # the seat to act while playing; None once the round is over
    phase: Phase
    stock: tuple[int, ...]  # the face-down draw pile, top at the end
    row: tuple[int, ...]  # left to right; the rightmost card is row[-1]
    hands: tuple[tuple[int, ...], ...]  # sorted
    face_up: tuple[tuple[int, ...], ...]  # twisted pairs, +1 a card
    face_down: tuple[tuple[int, ...], ...]  # taken cards, -1 / -5 (toad)
    history: tuple[tuple[int, ...], ...]  # scores of every finished round (this one too once over), per seat
    rng: Rng


@dataclass(frozen=True, slots=True)
class Lay:
    card: int
    kind = "lay"


@dataclass(frozen=True, slots=True)
class Twist:
    card: int  # the row card; its twin comes from the hand
    kind = "twist"


@dataclass(frozen=True, slots=True)
class Take:
    card: int | None  # the hand card that opens the new row; None when the round ends
    kind = "take"


Move = Lay | Twist | Take | NextRound


# --------------------------------------------------------------------------- codes

#: Every code this game answers (DESIGN 4.4), with English and Polish titles and the Polish
#: detail, a template over the context each raise passes. Polish in the rulebook's words:
#: "rządek", "ropucha", "karta przekręcona", "stos do pobierania", "zakrytą/otwartą stroną".
_CODES: Mapping[str, Code] = MappingProxyType({
    f"{_GAME}.{name}": Code(*texts) for name, texts in {
        # moves
        "not-your-turn": ("Not your turn", "Nie twoja kolej", "Teraz nie jest kolej gracza {seat}."),
        "game-over": ("The game is over", "Gra skończona",
                      "Rozegrano już wszystkie rundy: nie można wykonać żadnego ruchu."),
        "no-such-seat": ("No such seat", "Nie ma takiego miejsca", "Przy tym stole nie ma miejsca {seat}."),
        "bad-move": ("Malformed move", "Nieprawidłowy ruch",
                     "Ruch nie ma postaci ruchu w Take That (położenie, wyciągnięcie, zabranie rządka, nowa runda)."),
        "round-not-over": ("The round is not over", "Runda trwa",
                           "Runda {round} jeszcze trwa: karty rozdaje się ponownie dopiero po jej końcu."),
        "round-over": ("The round is over", "Runda skończona",
                       "Runda {round} się skończyła: teraz można tylko rozdać karty do następnej rundy."),
        "card-not-in-hand": ("Card not in hand", "Karty nie ma w ręce", "Gracz {seat} nie ma w ręce karty {card}."),
        "not-in-range": ("Card out of range", "Karta poza zasięgiem",
                         "Karta {card} może być najwyżej o 10 wyższa lub o 10 niższa od karty leżącej w rządku "
                         "najbardziej na prawo ({top})."),
        "row-empty": ("The row is empty", "Rządek jest pusty",
                      "Obok stosu do pobierania nie leży jeszcze żadna karta: gracz {seat} musi wyłożyć dowolną "
                      "kartę jako początek rządka."),
        "not-in-row": ("Card not in the row", "Karty nie ma w rządku", "Karty {card} nie ma w rządku."),
        "toad-cannot-be-twisted": ("Toads cannot be twisted", "Ropuchy nie można wyciągnąć",
                                   "Karta {card} to ropucha (dwie takie same cyfry): nie można jej wyciągnąć "
                                   "z rządka."),
        "twin-not-in-hand": ("Twisted twin not in hand", "Brak karty przekręconej",
                             "Aby wyciągnąć z rządka kartę {card}, gracz {seat} musi mieć w ręce kartę "
                             "przekręconą {expected}."),
        "must-open-new-row": ("Open the new row", "Zacznij nowy rządek",
                              "Kto zabrał rządek, wykłada od razu dowolną kartę z ręki jako początek nowego rządka: "
                              "gracz {seat} musi ją wskazać."),
        "no-new-row-at-end": ("No new row at the end", "Koniec rundy bez nowego rządka",
                              "Stos do pobierania jest zużyty: zabranie rządka kończy rundę, więc karty {card} "
                              "nie wykłada się."),
        "setup-unsupported": ("No setup notation", "Brak zapisu ustawienia",
                              "W Take That karty zawsze się rozdaje: gra nie przyjmuje ustawienia początkowego."),
        # states and tallies
        "malformed-state": ("Malformed state", "Nieprawidłowy stan gry", "Stan gry nie ma właściwej postaci."),
        "bad-players": ("Wrong number of players", "Zła liczba graczy",
                        "W Take That gra od 2 do 4 osób, nie {got}."),
        "bad-options": ("Wrong options", "Złe opcje", "Opcje zapisane w stanie gry są niepoprawne."),
        "bad-round": ("Wrong round", "Zły numer rundy", "Runda {got} nie mieści się w ustalonej liczbie rund."),
        "bad-dealer": ("Wrong dealer", "Zły rozdający",
                       "Rozdający nie zgadza się z rundą: pierwszą rundę rozdaje ostatni gracz, a potem rozdający "
                       "zmienia się co rundę zgodnie z ruchem wskazówek zegara (albo zostaje ten sam)."),
        "bad-turn": ("Wrong turn", "Nie ta kolej",
                     "Kolej gracza nie zgadza się ze stanem gry: tego układu nie da się osiągnąć."),
        "bad-phase": ("Wrong phase", "Zła faza gry",
                      "Runda kończy się dokładnie wtedy, gdy stos do pobierania jest zużyty, a rządek pusty."),
        "bad-card": ("Not a card", "To nie karta", "{card} nie jest kartą Take That (od 12 do 98, bez 20, 30 … 90)."),
        "duplicate-card": ("Card twice", "Karta dwa razy", "Karta {card} występuje więcej niż raz."),
        "missing-card": ("Missing card", "Brak karty", "Brakuje karty {card}: wszystkie 79 kart musi być w grze."),
        "bad-face-up": ("Impossible face-up pile", "Niemożliwe karty odkryte",
                        "Karta {card} nie może leżeć otwartą stroną: odkryte leżą tylko pary kart przekręconych, "
                        "nigdy ropuchy."),
        "bad-hand-size": ("Impossible hand size", "Niemożliwa liczba kart w ręce",
                          "Liczba kart w ręce nie zgadza się z przebiegiem rundy: póki starcza stosu do pobierania, "
                          "każdy ma pełną rękę, a potem ręce maleją po kolei."),
        "bad-history": ("Wrong history", "Zły zapis rund",
                        "Zapisane wyniki rund nie zgadzają się ze stanem gry."),
        "bad-rng": ("Malformed rng", "Nieprawidłowy generator", "Zapis generatora losowego jest niepoprawny."),
        "bad-tally": ("Impossible tally", "Niemożliwe podliczenie",
                      "Podliczenie podaje dla każdego gracza karty odłożone otwartą i zakrytą stroną."),
    }.items()
})


# --------------------------------------------------------------------------- engine


class TakeThat(BaseEngine[State, Move]):
    game_id = _GAME
    name = "Take That"
    players = range(2, 5)
    move_kinds = ("lay", "twist", "take", "next-round")
    codes = _CODES
    options = MappingProxyType({
        "rounds": Option(2, "Number of rounds to play; the highest total wins (docs/rules/take-that.md §7.2).",
                         type="integer", minimum=1, maximum=20),
        "professional": Option(False, "Professional variant (docs/rules/take-that.md §6.1): taking a one-card row "
                                      "also moves the top stock card face down onto the taker's pile.", type="boolean"),
        "next_dealer": Option("clockwise", "Who deals the next round (docs/rules/take-that.md §7.1): 'clockwise' moves the "
                                           "dealer one seat on; 'same' keeps the dealer.",
                              choices=("clockwise", "same")),
        "tie_break": Option("shared", "Equal final totals (docs/rules/take-that.md §7.3): 'shared' victory, or 'last-round': "
                                      "the best score of the last round among the tied wins.",
                            choices=("shared", "last-round")),
        "end_when_last_draw_empties_row": Option(
            True, "docs/rules/take-that.md §5.2: true ends the round when the row is empty once the last stock "
                  "card is drawn; "
                  "false lets the next player open a new row.", type="boolean"),
        "professional_twist_penalty": Option(
            False, "docs/rules/take-that.md §6.3: in the professional variant, twisting away a one-card row also costs the "
                   "top stock card (face down).", type="boolean"),
        "face_down_view": Option(
            "count", "Who sees face-down cards before the round is over (docs/rules/take-that.md §9): 'count' nobody "
                     "(only counts), 'own' each seat its own pile, 'open' everyone.",
            choices=("count", "own", "open")),
    })

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption(f"{_GAME}.setup-unsupported", f"take-that has no setup notation, got {excerpt(setup)}")
        opts = Options(**self.resolve_options(options))
        dealer = players - 1
        return _deal(players, opts, 1, dealer, (), rng)

    # -- turn ----------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.PLAY:
            return frozenset((state.turn,))
        if state.round < state.options.rounds:
            return frozenset(range(state.players))
        return frozenset()

    def round_over(self, state: State) -> bool:
        return state.phase is Phase.ROUND_OVER

    def options_of(self, state: State) -> Mapping[str, Json]:
        return fields_json(state.options)

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
                raise IllegalMove(f"{_GAME}.round-not-over",
                                  f"next-round is only possible once the round is over; round {state.round} is being "
                                  f"played", round=state.round)
            return
        if state.phase is not Phase.PLAY:
            raise IllegalMove(f"{_GAME}.round-over",
                              f"round {state.round} is over: the only move is next-round, got {move.kind!r}",
                              round=state.round)
        hand, row = state.hands[seat], state.row
        if isinstance(move, Lay):
            if move.card not in hand:
                raise IllegalMove(f"{_GAME}.card-not-in-hand", f"seat {seat} does not hold {move.card}; hand: {list(hand)}",
                                  card=move.card, seat=seat)
            # "its number may be at most 10 higher or 10 lower than the rightmost card" (§4.1)
            if row and not _can_lay(move.card, row[-1]):
                raise IllegalMove(f"{_GAME}.not-in-range",
                                  f"{move.card} is more than {_REACH} away from the rightmost row card {row[-1]}",
                                  card=move.card, top=row[-1])
            return
        # "if no card lies beside the pile yet, the player must lay one (any) card" (§4.1)
        if not row:
            raise IllegalMove(f"{_GAME}.row-empty",
                              f"the row is empty: seat {seat} must open it by laying a card, not {move.kind!r}", seat=seat)
        if isinstance(move, Twist):
            if move.card not in row:
                raise IllegalMove(f"{_GAME}.not-in-row", f"{move.card} is not in the row {list(row)}", card=move.card)
            # "only the toads, with two equal digits, can never be pulled out" (§4.2)
            if is_toad(move.card):
                raise IllegalMove(f"{_GAME}.toad-cannot-be-twisted",
                                  f"{move.card} is a toad: toads can never be twisted out of the row", card=move.card)
            if twin(move.card) not in hand:
                raise IllegalMove(f"{_GAME}.twin-not-in-hand",
                                  f"twisting {move.card} needs its twin {twin(move.card)} in hand; hand: {list(hand)}",
                                  card=move.card, expected=twin(move.card), seat=seat)
            return
        if isinstance(move, Take):
            if state.stock:
                # "then the taker must do action A: lay any card as the first card of a new row" (§4.3)
                if move.card is None:
                    raise IllegalMove(f"{_GAME}.must-open-new-row",
                                      "after taking the row the taker opens a new row: the take needs a 'card' from "
                                      "the hand", seat=seat)
                if move.card not in hand:
                    raise IllegalMove(f"{_GAME}.card-not-in-hand",
                                      f"seat {seat} does not hold {move.card}; hand: {list(hand)}", card=move.card,
                                      seat=seat)
            else:
                # "once the pile is used up ... the game ends as soon as the row is taken" (§5.1)
                if move.card is not None:
                    raise IllegalMove(f"{_GAME}.no-new-row-at-end",
                                      f"the draw pile is used up: taking the row ends the round, so no new row is "
                                      f"opened (got card {move.card})", card=move.card)
            return
        raise IllegalMove(f"{_GAME}.bad-move", f"not a take-that move: {excerpt(move)}")

    # -- transition ----------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, NextRound):
            opts = state.options
            dealer = (state.dealer + 1) % state.players if opts.next_dealer == "clockwise" else state.dealer
            return _deal(state.players, opts, state.round + 1, dealer, state.history, state.rng)
        opts = state.options
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
        after = replace(
            state,
            turn=None if ended else (seat + 1) % state.players,
            phase=Phase.ROUND_OVER if ended else Phase.PLAY,
            stock=tuple(deck), row=tuple(row), hands=hands, face_up=face_up, face_down=face_down,
        )
        if ended:  # the round's scores are final: they join the history (DESIGN 4.5)
            after = replace(after, history=(*state.history, _round_scores(after)))
        return after

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        """Adds what the table saw: the row taken (and how many extra cards went face down
        unseen), the twisted pair, and a draw (its card is private, so only the pile size)."""
        out = super().events(before, seat, move, after)
        extra: list[Json] = []
        if isinstance(move, Take):
            unseen = len(after.face_down[seat]) - len(before.face_down[seat]) - len(before.row)
            extra.append({"type": "row-taken", "seat": seat, "cards": list(before.row), "extra_face_down": unseen})
        elif isinstance(move, Twist):
            extra.append({"type": "twisted", "seat": seat, "cards": [move.card, twin(move.card)]})
        if not isinstance(move, NextRound) and len(after.hands[seat]) == len(before.hands[seat]) and (
            isinstance(move, Lay | Twist) or move.card is not None
        ):
            extra.append({"type": "drew", "seat": seat, "stock": len(after.stock)})
        return out[:1] + extra + out[1:]

    # -- scores --------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        current = _round_scores(state)
        earlier = state.history if state.phase is Phase.PLAY else state.history[:-1]
        totals = tuple(sum(r[s] for r in earlier) + current[s] for s in range(state.players))
        breakdown = tuple(
            _breakdown(state.face_up[s], state.face_down[s], [r[s] for r in earlier], totals[s])
            for s in range(state.players)
        )
        out = self.outcome(state)
        return ScoreReport(current, totals, breakdown, state.phase is Phase.ROUND_OVER,
                           out.winners if out else ())

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.ROUND_OVER or state.round < state.options.rounds:
            return None
        totals = [sum(r[s] for r in state.history) for s in range(state.players)]
        winners = _winners(totals, state.history[-1], state.options.tie_break)
        return Outcome(winners, f"highest total after {state.round} round(s)", points=tuple(totals))

    def score_tally(self, tally: Json) -> ScoreReport:
        """Score sheet of one round: ``{"seats": [{"face_up": [..], "face_down": [..]}, ..],
        "previous"?: [total of earlier rounds per seat], "tie_break"?: "shared" | "last-round"}``."""
        with malformed(f"{_GAME}.bad-tally", f"take-that tally {excerpt(tally)}"):
            return _score_tally(tally)

    # -- views and JSON ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Json:
        out = self.to_json(state)
        del out["rng"]
        out["stock"] = len(state.stock)
        out.update(hands_view(state.hands, seat))
        # face-down piles like hands: a list where this seat may see it, else null; sizes always
        mode = state.options.face_down_view
        if state.phase is not Phase.ROUND_OVER and mode != "open":
            out["face_down"] = [list(p) if (mode == "own" and s == seat) else None
                                for s, p in enumerate(state.face_down)]
        out["face_down_sizes"] = [len(p) for p in state.face_down]
        return out

    def to_json(self, state: State) -> Json:
        return {
            "players": state.players,
            "options": fields_json(state.options),
            "round": state.round,
            "dealer": state.dealer,
            "turn": state.turn,
            "phase": state.phase.value,
            "stock": list(state.stock),
            "row": list(state.row),
            "hands": [list(h) for h in state.hands],
            "face_up": [list(p) for p in state.face_up],
            "face_down": [list(p) for p in state.face_down],
            "history": [list(r) for r in state.history],
            "rng": state.rng.to_json(),
        }

    def from_json(self, data: Json) -> State:
        try:
            with malformed(f"{_GAME}.malformed-state", "take-that state"):
                return _from_json(self, data)
        except InvalidOption as exc:
            raise InvalidState(f"{_GAME}.bad-options", exc.message) from None

    def move_to_json(self, move: Move) -> Json:
        if isinstance(move, NextRound) or (isinstance(move, Take) and move.card is None):
            return {"kind": move.kind}
        return {"kind": move.kind, "card": move.card}

    def move_from_json(self, data: Json) -> Move:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise IllegalMove(f"{_GAME}.bad-move", f"a move is an object with a 'kind', got {excerpt(data)}")
        kind = data["kind"]
        allowed = _MOVE_FIELDS
        if kind not in allowed:
            raise IllegalMove(f"{_GAME}.bad-move", f"unknown move kind {excerpt(kind)}; kinds: {list(self.move_kinds)}")
        extra = set(data) - {"kind"} - allowed[kind]
        if extra:
            raise IllegalMove(f"{_GAME}.bad-move", f"unexpected field(s) {excerpt(sorted(extra))} in {kind!r} move")
        if kind == "next-round":
            return NextRound()
        if kind == "take" and data.get("card") is None:
            return Take(None)
        if "card" not in data:
            raise IllegalMove(f"{_GAME}.bad-move", f"a {kind!r} move needs a 'card', got {excerpt(data)}")
        card = data["card"]
        if not _is_card(card):
            raise IllegalMove(f"{_GAME}.bad-move",
                              f"{excerpt(card)} is not a take-that card (an integer 12..98, not a multiple of 10)")
        return _MOVE_CLASSES[kind](card)


# --------------------------------------------------------------------------- helpers


#: each move kind's fields besides ``kind``, and the class of a move with a card
_MOVE_FIELDS: dict[str, set[str]] = {"next-round": set(), "take": {"card"}, "lay": {"card"}, "twist": {"card"}}
_MOVE_CLASSES: dict[str, type] = {"lay": Lay, "twist": Twist, "take": Take}


def _is_card(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x in _CARD_SET


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


def _breakdown(face_up: Sequence[int], face_down: Sequence[int], past: list[int], total: int) -> Json:
    toads = sum(1 for c in face_down if c in _TOADS)
    plain = len(face_down) - toads
    return {
        "face_up": len(face_up),
        "face_up_points": len(face_up),
        "face_down": plain,
        "face_down_points": -plain,
        "toads_face_down": toads,
        "toad_points": -_TOAD_PENALTY * toads,
        "round": len(face_up) - plain - _TOAD_PENALTY * toads,
        "earlier_rounds": past,
        "total": total,
    }


def _winners(totals: Sequence[int], last: Sequence[int], tie_break: str) -> tuple[int, ...]:
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    if tie_break == "last-round" and len(tied) > 1:
        top = max(last[s] for s in tied)
        tied = [s for s in tied if last[s] == top]
    return tuple(tied)


def _invalid(code: str, message: str, **context: Json) -> InvalidState:
    return InvalidState(f"{_GAME}.{code}", message, **context)


def _int(data: Mapping[str, Json], key: str, lo: int, hi: int, code: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _invalid(code, f"{key!r} must be an integer {lo}..{hi}, got {excerpt(value)}", got=excerpt(value))
    return value


def _cards(value: Json, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _invalid("malformed-state", f"{what} must be a list of cards, got {excerpt(value)}")
    for c in value:
        if not _is_card(c):
            raise _invalid("bad-card", f"{what} holds {excerpt(c)}, which is not a take-that card (12..98, no tens)",
                           card=excerpt(c))
    return tuple(value)


def _per_seat(value: Json, players: int, what: str) -> list[Json]:
    if not isinstance(value, list) or len(value) != players:
        raise _invalid("malformed-state",
                       f"{what} must be a list with one entry per seat ({players}), got {excerpt(value)}")
    return value


def _check_face_up(pile: tuple[int, ...], who: str) -> None:
    held = set(pile)
    for c in pile:
        if c in _TOADS or twin(c) not in held:
            raise _invalid("bad-face-up", f"{who}: face-up cards are twisted pairs and never toads; "
                                          f"{c} has no twin {twin(c)} beside it in {list(pile)}", card=c)


def _check_conservation(groups: list[tuple[str, tuple[int, ...]]]) -> None:
    seen: dict[int, str] = {}
    for where, cards in groups:
        for c in cards:
            if c in seen:
                raise _invalid("duplicate-card", f"card {c} is both in {seen[c]} and in {where}", card=c)
            seen[c] = where
    missing = sorted(_CARD_SET - set(seen))
    if missing:
        raise _invalid("missing-card", f"{len(missing)} of the 79 cards are nowhere in the state: {excerpt(missing)}",
                       card=missing[0])


def _from_json(engine: TakeThat, data: Json) -> State:
    if not isinstance(data, dict):
        raise _invalid("malformed-state", f"a state is a JSON object, got {excerpt(data)}")
    keys = {"players", "options", "round", "dealer", "turn", "phase", "stock", "row", "hands",
            "face_up", "face_down", "history", "rng"}
    if set(data) != keys:
        raise _invalid("malformed-state", f"state fields must be {sorted(keys)}; missing {sorted(keys - set(data))}, "
                                    f"unexpected {excerpt(sorted(set(data) - keys))}")
    players = _int(data, "players", 2, 4, "bad-players")
    if not isinstance(data["options"], dict) or set(data["options"]) != set(engine.options):
        raise _invalid("bad-options", f"options must be an object naming every option {sorted(engine.options)}, "
                                     f"got {excerpt(data['options'])}")
    opts = Options(**engine.resolve_options(data["options"]))
    round_no = _int(data, "round", 1, opts.rounds, "bad-round")
    dealer = _int(data, "dealer", 0, players - 1, "bad-dealer")
    # "the dealer moves one seat clockwise each round" (docs/rules/take-that.md §7.1): the
    # first dealer is the last seat, so the dealer follows from the round
    expected_dealer = (players - 1 + (round_no - 1 if opts.next_dealer == "clockwise" else 0)) % players
    if dealer != expected_dealer:
        raise _invalid("bad-dealer", f"round {round_no} is dealt by seat {expected_dealer}, not seat {dealer}",
                       seat=dealer, expected=expected_dealer)
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise _invalid("bad-phase", f"phase must be 'play' or 'round-over', got {excerpt(data['phase'])}") from None
    turn = data["turn"]
    if phase is Phase.ROUND_OVER:
        if turn is not None:
            raise _invalid("bad-turn", f"a finished round has no seat to act: turn must be null, got {excerpt(turn)}",
                           seat=turn, expected=None)
    else:
        turn = _int(data, "turn", 0, players - 1, "bad-turn")
    stock = _cards(data["stock"], "the stock")
    row = _cards(data["row"], "the row")
    hands = tuple(tuple(sorted(_cards(h, f"seat {s}'s hand")))
                  for s, h in enumerate(_per_seat(data["hands"], players, "hands")))
    face_up = tuple(_cards(p, f"seat {s}'s face-up pile")
                    for s, p in enumerate(_per_seat(data["face_up"], players, "face_up")))
    face_down = tuple(_cards(p, f"seat {s}'s face-down pile")
                      for s, p in enumerate(_per_seat(data["face_down"], players, "face_down")))
    _check_conservation([("the stock", stock), ("the row", row)]
                        + [(f"seat {s}'s hand", h) for s, h in enumerate(hands)]
                        + [(f"seat {s}'s face-up pile", p) for s, p in enumerate(face_up)]
                        + [(f"seat {s}'s face-down pile", p) for s, p in enumerate(face_down)])
    for s, p in enumerate(face_up):
        _check_face_up(p, f"seat {s}")
    _check_hand_sizes(players, opts, dealer, hands, stock, turn)
    if phase is Phase.ROUND_OVER:
        if stock or row:
            raise _invalid("bad-phase", f"a round is over only once the stock is used up and the row is empty; "
                                        f"stock {len(stock)} card(s), row {excerpt(list(row))}")
    else:
        if not stock and not row and opts.end_when_last_draw_empties_row:
            raise _invalid("bad-phase", "the stock is used up and the row is empty: the round is over, "
                                        "phase must be 'round-over'")
        if not row and not hands[turn]:
            raise _invalid("bad-turn", f"seat {turn} is to act on an empty row with an empty hand", seat=turn)
    history = _history(data["history"], players, round_no - (phase is Phase.PLAY))
    if phase is Phase.ROUND_OVER:
        scores = tuple(_pile_score(face_up[s], face_down[s]) for s in range(players))
        if history[-1] != scores:
            raise _invalid("bad-history", f"the finished round's scores {list(history[-1])} are not what the "
                                          f"piles score: {list(scores)}", expected=list(scores), got=list(history[-1]))
    try:
        rng = Rng.from_json(data["rng"])
    except InvalidState as exc:
        raise _invalid("bad-rng", exc.message) from None
    return State(players, opts, round_no, dealer, turn, phase, stock, row, hands, face_up, face_down, history, rng)


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
            raise _invalid("bad-hand-size", f"seat {s} holds {len(h)} cards; with {players} players a hand is "
                                            f"{size} cards while the stock lasts and never more",
                           seat=s, expected=size, got=len(h))
    first = len(_CARDS) - players * size  # the stock after the deal
    short = [size - len(h) for h in hands]
    sizes = [len(h) for h in hands]
    if not opts.professional:
        turns = first - len(stock) + sum(short)
        expected = (dealer + 1 + turns) % players
        if turn is not None and turn != expected:
            raise _invalid("bad-turn", f"{turns} turn(s) have been played from the seat left of the dealer: "
                                       f"seat {expected} is to act, not seat {turn}", seat=turn, expected=expected)
        if not stock:
            start, k = (dealer + 1 + first) % players, sum(short)
            want = [k // players + ((s - start) % players < k % players) for s in range(players)]
            if short != want:
                raise _invalid("bad-hand-size", f"hand sizes {sizes} cannot be reached: since the stock ran out "
                                                f"the seats have played in turn from seat {start}",
                               expected=[size - w for w in want], got=sizes)
        return
    if stock:
        return
    if turn is None:
        if max(short) - min(short) > 2:
            raise _invalid("bad-hand-size", f"hand sizes {sizes} cannot be reached: seats take turns, "
                                            "so they differ by at most two cards", got=sizes)
        return
    order = [short[(turn + i) % players] for i in range(players)]
    if any(b not in (a, a + 1) for a, b in zip(order, order[1:], strict=False)) or order[-1] - order[0] > 1:
        raise _invalid("bad-hand-size", f"hand sizes {sizes} cannot be reached with seat {turn} to act: since "
                                        "the stock ran out each seat has played once in turn", seat=turn, got=sizes)


def _history(raw: Json, players: int, finished: int) -> tuple[tuple[int, ...], ...]:
    """Scores of the finished rounds: one row per round, one score per seat. A round's scores
    are bounded by the deck (at most 72 cards face up, 72 plain and 7 toads face down)."""
    if not isinstance(raw, list) or len(raw) != finished:
        raise _invalid("bad-history", f"'history' must list the scores of the {finished} finished round(s), "
                                      f"got {excerpt(raw)}", expected=finished)
    history = []
    for r in raw:
        if (not isinstance(r, list) or len(r) != players
                or not all(isinstance(x, int) and not isinstance(x, bool) and _MIN_ROUND_SCORE <= x <= _MAX_FACE_UP
                           for x in r)
                or sum(r) > _MAX_FACE_UP):
            raise _invalid("bad-history", f"each row of 'history' is one round score per seat "
                                          f"({_MIN_ROUND_SCORE}..{_MAX_FACE_UP}, {_MAX_FACE_UP} at most in all), "
                                          f"got {excerpt(r)}")
        history.append(tuple(r))
    return tuple(history)


def _score_tally(tally: Json) -> ScoreReport:
    if not isinstance(tally, dict) or not set(tally) <= {"seats", "previous", "tie_break"} or "seats" not in tally:
        raise _invalid("bad-tally", f"a tally is {{seats, previous?, tie_break?}}, got {excerpt(tally)}")
    seats = tally["seats"]
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        raise _invalid("bad-tally", f"a tally has one entry per seat (2-4), got {excerpt(seats)}")
    groups: list[tuple[str, tuple[int, ...]]] = []
    piles = []
    for s, entry in enumerate(seats):
        if not isinstance(entry, dict) or set(entry) != {"face_up", "face_down"}:
            raise _invalid("bad-tally", f"seat {s}: an entry is {{face_up, face_down}}, got {excerpt(entry)}")
        up = _cards(entry["face_up"], f"seat {s}'s face-up cards")
        down = _cards(entry["face_down"], f"seat {s}'s face-down cards")
        _check_face_up(up, f"seat {s}")
        groups += [(f"seat {s}'s face-up cards", up), (f"seat {s}'s face-down cards", down)]
        piles.append((up, down))
    seen: dict[int, str] = {}
    for where, cards in groups:
        for c in cards:
            if c in seen:
                raise _invalid("duplicate-card", f"card {c} is both in {seen[c]} and in {where}", card=c)
            seen[c] = where
    previous = tally.get("previous", [0] * len(seats))
    if (not isinstance(previous, list) or len(previous) != len(seats)
            or not all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= 20 * _MAX_ROUND_SCORE
                       for x in previous)):
        raise _invalid("bad-tally", f"'previous' is one integer total per seat, got {excerpt(previous)}")
    tie_break = tally.get("tie_break", "shared")
    if tie_break not in ("shared", "last-round"):
        raise _invalid("bad-tally", f"'tie_break' is 'shared' or 'last-round', got {excerpt(tie_break)}")
    current = tuple(_pile_score(up, down) for up, down in piles)
    totals = tuple(p + c for p, c in zip(previous, current, strict=True))
    breakdown = tuple(_breakdown(up, down, [previous[s]] if "previous" in tally else [], totals[s])
                      for s, (up, down) in enumerate(piles))
    return ScoreReport(current, totals, breakdown, True, _winners(totals, current, tie_break))


ENGINE = TakeThat()
