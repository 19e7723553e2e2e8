"""11 nimmt! (Wolfgang Kramer, Amigo 2010; Polish edition "11. bierze!", G3), 2-7 players.

The rules as Arbiter applies them, each ruling and option with its default and the rulebook
passage it rests on, are in ``docs/rules/11-nimmt.md``; section numbers below (§5.2 ...) refer to
that page.

Cards are the integers 1..100. Card ``c`` may go on a stack whose top is ``t`` iff
``1 <= (c - t) % 100 <= 10`` (higher by at most 10, counting on from 100 to 1; §5.1).

Options (defaults first; §2.2, §3, §4, §5.3, §5.4, §6.2-§6.4):

- ``heads`` = ``"6-nimmt"``: the bull-head table (§2.2), kept in ``_HEAD_TABLES`` so another
  named table can be added without touching the rules.
- ``empty_pile`` = ``"new-stack"``: a take reveals as many new stacks as the stock still has
  cards; a player whose turn starts with no stacks places any one card as a new stack (§5.3).
- ``empty_supply`` = ``"opponents"``: with the supply empty the bull card comes from the opponent
  holding the most; ``"all-players"`` reads "the player holding the most" literally (§5.4).
- ``next_starter`` = ``"cumulative"``: most cumulative minus points start the next round;
  ``"round"``: most in the round just finished (§6.2).
- ``bulls_between_rounds`` = ``"return"``: bull cards go back to the supply; ``"keep"`` (§6.3).
- ``rounds`` = ``0`` (one round per player) and ``final_ties`` = ``"shared"`` (§6.4).
- ``open_information`` = ``False``: views show stacks as top cards only (§4).
- ``start_player`` = ``0``: the seat that starts the first round (§3).

Representation decisions:

- A turn is one move. ``play`` carries the whole plan, ``{"stack": i, "cards": [...]}`` per
  stack; every card is checked against the top its stack had before the turn and placed in
  order of distance from it (§5.2). Cards and stacks are stored sorted in the move.
- ``take`` names the stack and, when the supply is empty and several seats could give the bull
  card, the ``source`` seat. Whether a source is needed depends only on public facts (supply and
  bull counts), never on the hidden stack size, so a validation request cannot reveal how many
  cards a stack holds (§5.4).
- ``new-stack`` is the §5.3 move; ``next-round`` deals the next round from the state's rng.
- Stack indices are positions in ``stacks``; a take removes its stack and appends the new ones.
- The stock's next card is its last element. ``turn`` is the seat to act, ``null`` once the
  round is over; ``history`` holds the minus points of every finished round (DESIGN 4.5).
- Scores are minus points (bull heads), so lower is better; ``round`` is the heads in each hand
  (final once the round is over, since the seat that went out holds nothing).
- Hidden information (§4): views show the seat's own hand, ``null`` for the others with
  ``hand_sizes``, the stock as a count and stacks as top cards. Once a round is over its hands
  are shown, as they are counted openly at the table.
- ``from_json`` refuses states play cannot reach, beyond card conservation (§8).
- ``legal_moves`` is not always complete: a player holding bull cards may play any subset of
  the fitting cards onto each of up to that many stacks, which can be exponentially many
  plans. Up to ``_PLAN_CAP`` plans are listed in full (the usual case); beyond that the list
  holds every take, the first ``_PLAN_CAP`` plans, every single-card play, each stack's whole
  fitting set and one maximal plan over several stacks, and ``check`` judges any other plan.
  (Listing many plays keeps uniformly random playouts from being dominated by takes.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
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
    RulesError,
    ScoreReport,
    excerpt,
    fields_json,
    malformed,
    replace,
    require,
)
from rules.cards import hands_view

# --------------------------------------------------------------------------- constants

_GAME = "11-nimmt"
_CARDS = tuple(range(1, 101))
_ALL_CARDS = frozenset(_CARDS)
_HAND_SIZE = 10
_CARDS_AFTER_DEAL = 99  # the first stack's card is turned up from the rest
_BULL_CARDS = 10
_MAX_DISTANCE = 10
_BULL_STACK_SIZE = 3  # taking a stack of at least this many cards earns a bull card
_NEW_STACKS = 2
_PLAN_CAP = 256  # list every play plan up to this many; beyond, the first ones and representatives


def _six_nimmt_heads() -> tuple[int, ...]:
    """The 6 nimmt! bull-head formula on 1..100 (docs/rules/11-nimmt.md §2.2), indexed by card (index 0 unused)."""
    heads = [0] + [1] * 100
    for card in range(5, 101, 10):
        heads[card] = 2
    for card in range(10, 101, 10):
        heads[card] = 3
    for card in range(11, 100, 11):
        heads[card] = 5
    heads[55] = 7
    return tuple(heads)


# The one replaceable data table: option value -> heads per card (index = card).
_HEAD_TABLES: Mapping[str, tuple[int, ...]] = MappingProxyType({"6-nimmt": _six_nimmt_heads()})


class Phase(Enum):
    PLAY = "play"
    ROUND_OVER = "round-over"
    GAME_OVER = "game-over"


# --------------------------------------------------------------------------- options and state


@dataclass(frozen=True, slots=True)
class Options:
    heads: str = "6-nimmt"
    empty_pile: str = "new-stack"
    next_starter: str = "cumulative"
    bulls_between_rounds: str = "return"
    empty_supply: str = "opponents"
    open_information: bool = False
    final_ties: str = "shared"
    rounds: int = 0
    start_player: int = 0

    def to_json(self) -> Json:
        return fields_json(self)


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    phase: Phase
    round: int  # 1-based
    starter: int  # seat that started this round
    turn: int | None  # the seat to act in PLAY; None once the round is over (every seat, or none, acts)
    went_out: int | None  # seat whose hand emptied, once the round is over
    hands: tuple[tuple[int, ...], ...]  # each sorted ascending
    stacks: tuple[tuple[int, ...], ...]  # bottom .. top
    stock: tuple[int, ...]  # the face-down draw pile; the next card to reveal is the last
    bulls: tuple[int, ...]
    supply: int
    history: tuple[tuple[int, ...], ...]  # minus points per seat of each finished round
    rng: Rng


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Play:
    """Cards onto stacks: ``((stack, (card, ...)), ...)``, stacks and cards ascending."""

    plays: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class Take:
    stack: int
    source: int | None = None


@dataclass(frozen=True, slots=True)
class NewStack:
    card: int


Move = Play | Take | NewStack | NextRound


# --------------------------------------------------------------------------- codes

#: Every code this game answers (DESIGN 4.4), with English and Polish titles and the Polish
#: detail, a template over the context each raise passes. Polish in the rulebook's words:
#: "stos zagranych", "stos do dobierania", "karta byka", "bycze głowy", "punkty ujemne".
_CODES: Mapping[str, Code] = MappingProxyType({
    f"{_GAME}.{name}": Code(*texts) for name, texts in {
        # moves
        "not-your-turn": ("Not your turn", "Nie twoja kolej", "Teraz nie jest kolej gracza {seat}."),
        "game-over": ("The game is over", "Gra skończona",
                      "Rozegrano już wszystkie rundy: nie można wykonać żadnego ruchu."),
        "no-such-seat": ("No such seat", "Nie ma takiego miejsca", "Przy tym stole nie ma miejsca {seat}."),
        "bad-move": ("Malformed move", "Nieprawidłowy ruch",
                     "Ruch nie ma postaci ruchu w 11. bierze! (zagranie, zebranie stosu, nowy stos, nowa runda)."),
        "round-not-over": ("The round is not over", "Runda trwa",
                           "Runda {round} jeszcze trwa: karty rozdaje się ponownie dopiero po jej końcu."),
        "round-over": ("The round is over", "Runda skończona",
                       "Runda {round} się skończyła: teraz można tylko rozdać karty do następnej rundy."),
        "no-stacks": ("No stacks on the table", "Brak stosów zagranych",
                      "Na stole nie ma żadnego stosu zagranych: gracz {seat} wykłada jedną kartę z ręki jako "
                      "nowy stos."),
        "empty-play": ("Empty play", "Puste zagranie", "Zagranie musi zawierać co najmniej jedną kartę."),
        "no-such-stack": ("No such stack", "Nie ma takiego stosu",
                          "Nie ma stosu zagranych o numerze {stack}: na stole leży ich {expected}."),
        "duplicate-stack": ("Stack named twice", "Stos podany dwa razy",
                            "Stos {stack} występuje w zagraniu dwa razy: wszystkie jego karty podaje się razem."),
        "duplicate-card": ("Card twice", "Karta dwa razy", "Karta {card} występuje więcej niż raz."),
        "needs-bull-card": ("A bull card is needed", "Potrzebna karta byka",
                            "Bez karty byka gracz {seat} dokłada dokładnie jedną kartę, a nie {got}."),
        "too-many-stacks": ("Too many stacks", "Za dużo stosów",
                            "Karty byka gracza {seat} pozwalają dokładać karty na najwyżej tyle stosów: {expected}; "
                            "zagranie obejmuje ich {got}."),
        "card-not-in-hand": ("Card not in hand", "Karty nie ma na ręce", "Gracz {seat} nie ma na ręce karty {card}."),
        "not-in-range": ("Card out of range", "Karta poza zasięgiem",
                         "Karty {card} nie można dołożyć na stos {stack}: musi być wyższa od wierzchniej karty {top} "
                         "najwyżej o 10 (po 100 liczy się dalej od 1)."),
        "source-required": ("Name the bull card's source", "Wskaż, od kogo karta byka",
                            "Karty byków w zapasie się skończyły, a najwięcej ich mają gracze {expected}: "
                            "wskaż, od którego z nich bierzesz kartę byka."),
        "source-not-needed": ("No source needed", "Karta byka jest w zapasie",
                              "Karty byków są jeszcze w zapasie: nie bierze się ich od gracza {seat}."),
        "bad-source": ("Wrong bull card source", "Nie od tego gracza",
                       "Od gracza {seat} nie można wziąć karty byka; można od: {expected}."),
        "stacks-on-table": ("Stacks on the table", "Na stole są stosy",
                            "Nowy stos zaczyna się tylko wtedy, gdy na stole nie ma żadnego; leży ich {got}."),
        "setup-unsupported": ("No setup notation", "Brak zapisu ustawienia",
                              "W 11. bierze! karty zawsze się rozdaje: gra nie przyjmuje ustawienia początkowego."),
        # states and tallies
        "malformed-state": ("Malformed state", "Nieprawidłowy stan gry", "Stan gry nie ma właściwej postaci."),
        "bad-players": ("Wrong number of players", "Zła liczba graczy",
                        "W 11. bierze! gra od 2 do 7 osób, nie {got}."),
        "bad-options": ("Wrong options", "Złe opcje", "Opcje zapisane w stanie gry są niepoprawne."),
        "bad-phase": ("Wrong phase", "Zła faza gry", "Faza gry nie zgadza się z rundą i rękami graczy."),
        "bad-round": ("Wrong round", "Zły numer rundy",
                      "Runda {got} nie mieści się w grze: rund jest tyle, ilu graczy (albo ile ustalono)."),
        "bad-seat": ("No such seat", "Nie ma takiego miejsca", "Stan gry wskazuje miejsce spoza stołu."),
        "bad-turn": ("Wrong turn", "Nie ta kolej",
                     "Kolej gracza nie zgadza się ze stanem gry: tego układu nie da się osiągnąć."),
        "bad-hands": ("Impossible hands", "Niemożliwe karty na ręce",
                      "Karty na rękach graczy nie zgadzają się z przebiegiem rundy."),
        "bad-stack": ("Impossible stack", "Niemożliwy stos",
                      "Stos zagranych jest pusty albo łamie zasadę maksymalnej różnicy 10."),
        "bad-stock": ("Stock and stacks disagree", "Stos do dobierania nie zgadza się",
                      "Liczba kart w stosie do dobierania nie zgadza się z liczbą stosów zagranych: każde "
                      "zebranie stosu odkrywa dwie karty."),
        "bad-card": ("Not a card", "To nie karta", "{card} nie jest kartą byczych głów (od 1 do 100)."),
        "missing-card": ("Missing card", "Brak karty",
                         "Brakuje karty {card}: wszystkie 100 kart musi być w grze."),
        "bad-bulls": ("Impossible bull cards", "Niemożliwe karty byków",
                      "Karty byków graczy i zapas nie dają razem 10 albo nie mogły zostać zdobyte."),
        "bad-history": ("Wrong history", "Zły zapis rund",
                        "Punkty ujemne zapisanych rund nie zgadzają się ze stanem gry."),
        "bad-starter": ("Wrong starting player", "Zły gracz rozpoczynający",
                        "Rundę rozpoczyna gracz {expected} (najwięcej punktów ujemnych), a nie gracz {seat}."),
        "bad-rng": ("Malformed rng", "Nieprawidłowy generator", "Zapis generatora losowego jest niepoprawny."),
        "bad-tally": ("Impossible tally", "Niemożliwe podliczenie",
                      "Podliczenie musi podawać karty na ręce każdego gracza, z dokładnie jedną pustą ręką."),
    }.items()
})


# --------------------------------------------------------------------------- engine


class ElevenNimmt(BaseEngine[State, Move]):
    game_id = _GAME
    name = "11 nimmt!"
    players = range(2, 8)
    move_kinds = ("play", "take", "new-stack", "next-round")
    legal_moves_complete = False
    codes = _CODES
    options = MappingProxyType(
        {
            "heads": Option(
                "6-nimmt",
                "Bull-head table (docs/rules/11-nimmt.md §2.2): '6-nimmt' is the 6 nimmt! formula on 1..100 "
                "(55: 7, multiples of 11: 5, of 10: 3, ending in 5: 2, others 1; 167 heads).",
                choices=tuple(_HEAD_TABLES),
            ),
            "empty_pile": Option(
                "new-stack",
                "Empty stock (docs/rules/11-nimmt.md §5.3): a take reveals as many stacks as cards are left; "
                "with no stacks on the table the player places any one card as a new stack.",
                choices=("new-stack",),
            ),
            "next_starter": Option(
                "cumulative",
                "Who starts the next round (docs/rules/11-nimmt.md §6.2): 'cumulative' = most cumulative minus points "
                "(ties: more in the last round, then clockwise after the seat that went out); "
                "'round' = most in the last round (ties: cumulative, then clockwise).",
                choices=("cumulative", "round"),
            ),
            "bulls_between_rounds": Option(
                "return",
                "Bull cards at the end of a round (docs/rules/11-nimmt.md §6.3): 'return' to the supply, or 'keep'.",
                choices=("return", "keep"),
            ),
            "empty_supply": Option(
                "opponents",
                "Bull card when the supply is empty (docs/rules/11-nimmt.md §5.4): 'opponents' = from the opponent with "
                "the most (taker's choice among ties; none if no opponent has one); 'all-players' = from "
                "the player with the most, nothing if that is the taker.",
                choices=("opponents", "all-players"),
            ),
            "open_information": Option(
                False,
                "Views show whole stacks instead of top cards only (docs/rules/11-nimmt.md §4; for debugging).",
                type="boolean",
            ),
            "final_ties": Option(
                "shared",
                "Final ties on the fewest minus points (docs/rules/11-nimmt.md §6.4): 'shared' win.",
                choices=("shared",),
            ),
            "rounds": Option(
                0,
                "Number of rounds (docs/rules/11-nimmt.md §6.4); 0 = one round per player.",
                type="integer",
                minimum=0,
                maximum=20,
            ),
            "start_player": Option(
                0,
                "Seat that starts the first round (docs/rules/11-nimmt.md §3: the youngest player).",
                type="integer",
                minimum=0,
                maximum=6,
            ),
        }
    )

    # -- creation ------------------------------------------------------------------

    def new_game(self, players: int, rng: Rng, options: Mapping[str, Json], setup: Json = None) -> State:
        if setup is not None:
            raise InvalidOption(f"{_GAME}.setup-unsupported", f"11 nimmt! has no setup notation, got {excerpt(setup)}")
        opts = Options(**options)
        if opts.start_player >= players:
            raise InvalidOption(
                "options.out-of-range",
                f"option 'start_player' must be a seat below {players}, got {opts.start_player}",
            )
        hands, stacks, stock, rng = _deal(players, rng)
        return State(
            players=players,
            options=opts,
            phase=Phase.PLAY,
            round=1,
            starter=opts.start_player,
            turn=opts.start_player,
            went_out=None,
            hands=hands,
            stacks=stacks,
            stock=stock,
            bulls=(0,) * players,
            supply=_BULL_CARDS,
            history=(),
            rng=rng,
        )

    def options_of(self, state: State) -> Mapping[str, Json]:
        return state.options.to_json()

    # -- turn ----------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase is Phase.PLAY:
            return frozenset((state.turn,))
        if state.phase is Phase.ROUND_OVER:
            return frozenset(range(state.players))
        return frozenset()

    def round_over(self, state: State) -> bool:
        return state.phase is not Phase.PLAY

    def legal_moves(self, state: State, seat: int) -> Sequence[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.ROUND_OVER:
            return [NextRound()]
        hand = state.hands[seat]
        if not state.stacks:
            return [NewStack(card) for card in hand]
        moves: list[Move] = []
        sources = _bull_sources(state, seat)
        for index in range(len(state.stacks)):
            if len(sources) >= 2:
                moves.extend(Take(index, source) for source in sources)
            else:
                moves.append(Take(index))
        moves.extend(_play_moves(state, seat))
        return moves

    def check(self, state: State, seat: int, move: Move) -> None:
        # checks run on every move: each refusal's message is built only when refusing
        self.check_turn(state, seat)
        if isinstance(move, NextRound):
            if state.phase is not Phase.ROUND_OVER:
                raise IllegalMove(
                    f"{_GAME}.round-not-over",
                    f"next-round is only possible once a round is over; round {state.round} is still being played",
                    round=state.round,
                )
            return
        if state.phase is not Phase.PLAY:
            raise IllegalMove(f"{_GAME}.round-over",
                              f"round {state.round} is over: send next-round, not {move_to_json(move)}", round=state.round)
        if isinstance(move, Play):
            _check_play(state, seat, move)
        elif isinstance(move, Take):
            _check_take(state, seat, move)
        elif isinstance(move, NewStack):
            _check_new_stack(state, seat, move)
        else:
            raise IllegalMove(f"{_GAME}.bad-move", f"not an 11 nimmt! move: {excerpt(move)}")

    def _apply(self, state: State, seat: int, move: Move) -> State:
        if isinstance(move, Play):
            return _apply_play(state, seat, move)
        if isinstance(move, Take):
            return _apply_take(state, seat, move)
        if isinstance(move, NewStack):
            return _apply_new_stack(state, seat, move)
        return _apply_next_round(state)

    def events(self, before: State, seat: int, move: Move, after: State) -> list[Json]:
        out = super().events(before, seat, move, after)
        if isinstance(move, Take):
            gained = after.bulls[seat] - before.bulls[seat]
            if gained:
                # source: the seat the bull card came from, null for the supply
                source = None if after.supply < before.supply else next(
                    s for s in range(before.players) if after.bulls[s] < before.bulls[s]
                )
                out.append({"type": "bull-card", "seat": seat, "source": source})
            revealed = after.stacks[len(before.stacks) - 1:]
            if revealed:
                out.append({"type": "new-stacks", "cards": [stack[0] for stack in revealed]})
        if after.phase is not Phase.PLAY and before.phase is Phase.PLAY:
            out.append({"type": "round-scores", "round": after.round, "heads": list(after.history[-1])})
        return out

    # -- scoring -------------------------------------------------------------------

    def scores(self, state: State) -> ScoreReport:
        table = _HEAD_TABLES[state.options.heads]
        current = tuple(_heads(hand, table) for hand in state.hands)
        previous = state.history if state.phase is Phase.PLAY else state.history[:-1]
        totals = tuple(sum(r[s] for r in previous) + current[s] for s in range(state.players))
        breakdown = tuple(
            _seat_breakdown(state.hands[s], table, went_out=state.went_out == s, bulls=state.bulls[s])
            | {"earlier_rounds": [r[s] for r in previous], "total": totals[s]}
            for s in range(state.players)
        )
        winners = _winners(totals) if state.phase is Phase.GAME_OVER else ()
        return ScoreReport(current, totals, breakdown, state.phase is not Phase.PLAY, winners)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        totals = tuple(sum(r[s] for r in state.history) for s in range(state.players))
        return Outcome(_winners(totals), "fewest minus points after the last round", points=totals)

    def score_tally(self, tally: Json) -> ScoreReport:
        """Heads of the cards left in each hand at the end of a round (docs/rules/11-nimmt.md §7).

        ``{"hands": [[card, ...] per seat], "heads"?: table, "previous"?: [totals],
        "bulls"?: [per seat]}``: exactly one hand is empty (the seat that went out),
        no card twice, and at least one card is on the table. Bull cards score nothing.
        """
        with malformed(f"{_GAME}.bad-tally", f"11 nimmt! tally {excerpt(tally)}"):
            return _score_tally(tally)

    # -- views and JSON ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Json:
        data = self.to_json(state)
        del data["rng"]
        # hands: own list, null for the others (DESIGN 4.5); counted openly once the round is over
        data.update(hands_view(state.hands, seat) if state.phase is Phase.PLAY else
                    {"hands": data["hands"], "hand_sizes": [len(h) for h in state.hands]})
        data["stock"] = len(state.stock)
        if not state.options.open_information:
            data["stacks"] = [stack[-1] for stack in state.stacks]
        return data

    def to_json(self, state: State) -> Json:
        return {
            "players": state.players,
            "options": state.options.to_json(),
            "phase": state.phase.value,
            "round": state.round,
            "starter": state.starter,
            "turn": state.turn,
            "went_out": state.went_out,
            "hands": [list(h) for h in state.hands],
            "stacks": [list(s) for s in state.stacks],
            "stock": list(state.stock),
            "bulls": list(state.bulls),
            "supply": state.supply,
            "history": [list(r) for r in state.history],
            "rng": state.rng.to_json(),
        }

    def from_json(self, data: Json) -> State:
        try:
            with malformed(f"{_GAME}.malformed-state", "11 nimmt! state"):
                return _state_from_json(self, data)
        except RulesError as exc:
            if isinstance(exc, InvalidState):
                raise
            raise InvalidState(f"{_GAME}.bad-options", exc.message) from exc

    def move_to_json(self, move: Move) -> Json:
        return move_to_json(move)

    def move_from_json(self, data: Json) -> Move:
        with malformed(f"{_GAME}.bad-move", "11 nimmt! move", IllegalMove, quoting=data):
            return _move_from_json(data)


# --------------------------------------------------------------------------- helpers: rules


def distance(card: int, top: int) -> int:
    """How far ``card`` is above ``top``, counting on from 100 to 1 (0..99)."""
    return (card - top) % 100


def fits(card: int, top: int) -> bool:
    """docs/rules/11-nimmt.md §5.1, distance rule: "1 <= (c - t) mod 100 <= 10"."""
    return 1 <= (card - top) % 100 <= _MAX_DISTANCE


def _deal(players: int, rng: Rng) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...]], tuple[int, ...], Rng]:
    """docs/rules/11-nimmt.md §3: shuffle 100, deal 10 each, turn one card up as the first stack."""
    deck, rng = rng.shuffle(_CARDS)
    dealt = players * _HAND_SIZE
    hands = tuple(tuple(sorted(deck[s * _HAND_SIZE:(s + 1) * _HAND_SIZE])) for s in range(players))
    return hands, ((deck[dealt],),), deck[dealt + 1:], rng


def _max_stacks(state: State, seat: int) -> int:
    """docs/rules/11-nimmt.md §5.2: one stack without bull cards, up to k stacks with k bull cards."""
    return max(1, state.bulls[seat])


def _fitting(hand: Sequence[int], top: int) -> tuple[int, ...]:
    return tuple(c for c in hand if fits(c, top))


def _play_moves(state: State, seat: int) -> list[Play]:
    """Every play plan when there are at most ``_PLAN_CAP``; else the first ``_PLAN_CAP`` of
    them plus the representative plans of ``_representative_plays``."""
    hand = state.hands[seat]
    fitting = [_fitting(hand, stack[-1]) for stack in state.stacks]
    if state.bulls[seat] == 0:
        return [Play(((s, (c,)),)) for s, cards in enumerate(fitting) for c in cards]
    max_stacks = _max_stacks(state, seat)
    plans: list[tuple] = []
    for plan in _plans(fitting, max_stacks):
        if len(plans) == _PLAN_CAP:
            listed = set(plans)
            plans.extend(p for p in _representative_plans(fitting, max_stacks) if p not in listed)
            break
        plans.append(plan)
    return [Play(plan) for plan in plans]


def _subsets(cards: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Non-empty subsets in ascending order of a sorted tuple, by bit mask."""
    n = len(cards)
    for mask in range(1, 1 << n):
        yield tuple(cards[i] for i in range(n) if mask >> i & 1)


def _plans(fitting: list[tuple[int, ...]], max_stacks: int) -> Iterator[tuple[tuple[int, tuple[int, ...]], ...]]:
    """Every plan: up to ``max_stacks`` stacks, a non-empty subset of fitting cards on each,
    no card on two stacks. Stacks ascending; ``used`` is a bit set of cards already placed."""

    def extend(start: int, used: int, chosen: tuple, room: int) -> Iterator:
        if chosen:
            yield chosen
        if room == 0:
            return
        for s in range(start, len(fitting)):
            free = tuple(c for c in fitting[s] if not used >> c & 1)
            for subset in _subsets(free):
                bits = used
                for c in subset:
                    bits |= 1 << c
                yield from extend(s + 1, bits, (*chosen, (s, subset)), room - 1)

    yield from extend(0, 0, (), max_stacks)


def _representative_plans(fitting: list[tuple[int, ...]], max_stacks: int) -> Iterator[tuple]:
    """Single cards everywhere, each stack's whole fitting set, and one greedy maximal plan."""
    for s, cards in enumerate(fitting):
        for c in cards:
            yield ((s, (c,)),)
    for s, cards in enumerate(fitting):
        if len(cards) > 1:
            yield ((s, cards),)
    best = sorted((s for s in range(len(fitting)) if fitting[s]), key=lambda s: (-len(fitting[s]), s))[:max_stacks]
    used: set[int] = set()
    greedy = []
    for s in sorted(best):
        cards = tuple(c for c in fitting[s] if c not in used)
        if cards:
            used.update(cards)
            greedy.append((s, cards))
    if len(greedy) > 1:
        yield tuple(greedy)


def _check_play(state: State, seat: int, move: Play) -> None:
    if not state.stacks:
        raise IllegalMove(f"{_GAME}.no-stacks",
                          "there are no stacks on the table: place one card as a new stack (docs/rules/11-nimmt.md §5.3)",
                          seat=seat)
    plays = move.plays
    if not plays:
        raise IllegalMove(f"{_GAME}.empty-play", "a play needs at least one card on one stack")
    seen_stacks: set[int] = set()
    seen_cards: set[int] = set()
    total = 0
    # the hot path of every play: messages are built only for a refusal (a require() would build each one)
    for index, cards in plays:
        if not 0 <= index < len(state.stacks):
            raise IllegalMove(f"{_GAME}.no-such-stack", f"there is no stack {index}: the stacks are "
                              f"0..{len(state.stacks) - 1}", stack=index, expected=len(state.stacks))
        if index in seen_stacks:
            raise IllegalMove(f"{_GAME}.duplicate-stack",
                              f"stack {index} appears twice in the play; list all its cards once", stack=index)
        seen_stacks.add(index)
        if not cards:
            raise IllegalMove(f"{_GAME}.empty-play", f"no cards given for stack {index}")
        for card in cards:
            if card in seen_cards:
                raise IllegalMove(f"{_GAME}.duplicate-card", f"card {card} is played twice", card=card)
            seen_cards.add(card)
        total += len(cards)
    bulls = state.bulls[seat]
    if not (bulls > 0 or total == 1):
        raise IllegalMove(f"{_GAME}.needs-bull-card", f"without a bull card a player plays exactly one card, "
                          f"not {total} ({sorted(seen_cards)})", seat=seat, expected=1, got=total)
    most = _max_stacks(state, seat)
    if len(plays) > most:
        raise IllegalMove(f"{_GAME}.too-many-stacks", f"with {bulls} bull card(s) a player plays onto at most "
                          f"{most} stack(s), not {len(plays)} (stacks {[i for i, _ in plays]})",
                          seat=seat, expected=most, got=len(plays))
    hand = set(state.hands[seat])
    for index, cards in plays:
        top = state.stacks[index][-1]
        for card in cards:
            if card not in hand:
                raise IllegalMove(f"{_GAME}.card-not-in-hand", f"card {card} is not in seat {seat}'s hand",
                                  card=card, seat=seat)
            if not fits(card, top):
                raise IllegalMove(f"{_GAME}.not-in-range", f"card {card} cannot go on stack {index} (top {top}): "
                                  f"distance {distance(card, top)}, must be 1..{_MAX_DISTANCE} above the top",
                                  card=card, stack=index, top=top)


def _bull_sources(state: State, seat: int) -> tuple[int, ...]:
    """Seats the taker may take a bull card from when the supply is empty (docs/rules/11-nimmt.md §5.4).

    Depends only on public facts. Empty when the supply has cards or nothing would move.
    """
    if state.supply > 0:
        return ()
    if state.options.empty_supply == "all-players":
        most = max(state.bulls)
        if state.bulls[seat] == most:
            return ()
        return tuple(s for s in range(state.players) if state.bulls[s] == most)
    most = max((state.bulls[s] for s in range(state.players) if s != seat), default=0)
    if most == 0:
        return ()
    return tuple(s for s in range(state.players) if s != seat and state.bulls[s] == most)


def _check_take(state: State, seat: int, move: Take) -> None:
    if not state.stacks:
        raise IllegalMove(f"{_GAME}.no-stacks",
                          "there are no stacks to take: place one card as a new stack (docs/rules/11-nimmt.md §5.3)",
                          seat=seat)
    if not 0 <= move.stack < len(state.stacks):
        raise IllegalMove(f"{_GAME}.no-such-stack",
                          f"there is no stack {move.stack}: the stacks are 0..{len(state.stacks) - 1}",
                          stack=move.stack, expected=len(state.stacks))
    sources = _bull_sources(state, seat)
    if move.source is None:
        if len(sources) >= 2:
            raise IllegalMove(f"{_GAME}.source-required",
                              f"the bull supply is empty and seats {list(sources)} tie for the most bull cards: "
                              "name the source seat of the bull card", expected=list(sources))
        return
    if state.supply > 0:
        raise IllegalMove(
            f"{_GAME}.source-not-needed",
            f"source {move.source} given, but bull cards come from the supply ({state.supply} left)",
            seat=move.source,
        )
    require(
        move.source in sources, IllegalMove, f"{_GAME}.bad-source",
        f"source {move.source} is not a seat to take a bull card from; choices: {list(sources)}"
        if sources else f"source {move.source} given, but no bull card would change hands",
        seat=move.source, expected=list(sources),
    )


def _check_new_stack(state: State, seat: int, move: NewStack) -> None:
    if state.stacks:
        raise IllegalMove(f"{_GAME}.stacks-on-table",
                          f"a new stack may be started only when no stacks are on the table; there are {len(state.stacks)}",
                          got=len(state.stacks))
    if move.card not in state.hands[seat]:
        raise IllegalMove(f"{_GAME}.card-not-in-hand", f"card {move.card} is not in seat {seat}'s hand",
                          card=move.card, seat=seat)


def _replace_at(items: tuple, index: int, value: object) -> tuple:
    return (*items[:index], value, *items[index + 1:])


def _after_turn(state: State, seat: int, hand: tuple[int, ...], **changes: object) -> State:
    """Finish a turn: the next seat plays, or the round ends when ``hand`` is empty (docs/rules/11-nimmt.md §6.1)."""
    hands = _replace_at(state.hands, seat, hand)
    if hand:
        return replace(state, hands=hands, turn=(seat + 1) % state.players, **changes)
    table = _HEAD_TABLES[state.options.heads]
    round_heads = tuple(_heads(h, table) for h in hands)
    last = state.round >= _rounds(state.options, state.players)
    return replace(
        state,
        hands=hands,
        phase=Phase.GAME_OVER if last else Phase.ROUND_OVER,
        turn=None,
        went_out=seat,
        history=(*state.history, round_heads),
        **changes,
    )


def _apply_play(state: State, seat: int, move: Play) -> State:
    """docs/rules/11-nimmt.md §5.2: cards go on in order of distance from the old top."""
    stacks = list(state.stacks)
    played: set[int] = set()
    for index, cards in move.plays:
        top = stacks[index][-1]
        stacks[index] = stacks[index] + tuple(sorted(cards, key=lambda c: distance(c, top)))
        played.update(cards)
    hand = tuple(c for c in state.hands[seat] if c not in played)
    return _after_turn(state, seat, hand, stacks=tuple(stacks))


def _apply_take(state: State, seat: int, move: Take) -> State:
    """docs/rules/11-nimmt.md §5.4, with the bull-card rule and §5.3's short stock."""
    taken = state.stacks[move.stack]
    hand = tuple(sorted(state.hands[seat] + taken))
    bulls, supply = state.bulls, state.supply
    if len(taken) >= _BULL_STACK_SIZE:
        if supply > 0:
            supply -= 1
            bulls = _replace_at(bulls, seat, bulls[seat] + 1)
        else:
            sources = _bull_sources(state, seat)
            source = move.source if move.source is not None else (sources[0] if sources else None)
            if source is not None:
                bulls = _replace_at(bulls, source, bulls[source] - 1)
                bulls = _replace_at(bulls, seat, bulls[seat] + 1)
    reveal = min(_NEW_STACKS, len(state.stock))
    revealed = tuple((state.stock[-1 - i],) for i in range(reveal))
    stacks = (*state.stacks[:move.stack], *state.stacks[move.stack + 1:], *revealed)
    return _after_turn(
        state, seat, hand,
        stacks=stacks, stock=state.stock[:len(state.stock) - reveal], bulls=bulls, supply=supply,
    )


def _apply_new_stack(state: State, seat: int, move: NewStack) -> State:
    """docs/rules/11-nimmt.md §5.3: with no stacks, one card from hand becomes a new stack."""
    hand = tuple(c for c in state.hands[seat] if c != move.card)
    return _after_turn(state, seat, hand, stacks=((move.card,),))


def _next_starter(state: State) -> int:
    return _starter_after(state.history, state.options, state.players)


def _starter_after(history: Sequence[Sequence[int]], options: Options, players: int) -> int:
    """docs/rules/11-nimmt.md §6.2: the seat with the most minus points starts the next round;
    ties as ``next_starter`` says, then clockwise after the seat that went out (the one 0 of
    the last round's scores)."""
    n = players
    cumulative = [sum(r[s] for r in history) for s in range(n)]
    last = history[-1]
    went_out = list(last).index(0) if 0 in last else n - 1

    def clockwise(s: int) -> int:  # 0 for the seat right after the one who went out
        return (s - went_out - 1) % n

    if options.next_starter == "round":
        return max(range(n), key=lambda s: (last[s], cumulative[s], -clockwise(s)))
    return max(range(n), key=lambda s: (cumulative[s], last[s], -clockwise(s)))


def _apply_next_round(state: State) -> State:
    """docs/rules/11-nimmt.md §6.1: reshuffle all 100 cards and deal again."""
    hands, stacks, stock, rng = _deal(state.players, state.rng)
    starter = _next_starter(state)
    keep = state.options.bulls_between_rounds == "keep"
    return replace(
        state,
        phase=Phase.PLAY,
        round=state.round + 1,
        starter=starter,
        turn=starter,
        went_out=None,
        hands=hands,
        stacks=stacks,
        stock=stock,
        bulls=state.bulls if keep else (0,) * state.players,
        supply=state.supply if keep else _BULL_CARDS,
        rng=rng,
    )


def _rounds(options: Options, players: int) -> int:
    return options.rounds or players


# --------------------------------------------------------------------------- helpers: scoring


def _heads(cards: Sequence[int], table: tuple[int, ...]) -> int:
    return sum(table[c] for c in cards)


def _seat_breakdown(hand: Sequence[int], table: tuple[int, ...], *, went_out: bool, bulls: int) -> dict[str, Json]:
    return {
        "heads": _heads(hand, table),
        "cards": [{"card": c, "heads": table[c]} for c in hand],
        "went_out": went_out,
        "bulls": bulls,
    }


def _winners(totals: Sequence[int]) -> tuple[int, ...]:
    """docs/rules/11-nimmt.md §6.4: fewest minus points wins; ties share the win."""
    best = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _card_list(value: Json, what: str, code: str = "bad-card") -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidState(f"{_GAME}.{code}", f"{what} must be a list of cards 1..100, got {excerpt(value)}",
                           card=excerpt(value))
    if not all(type(card) is int and 1 <= card <= 100 for card in value):  # bool is not int here
        card = next(c for c in value if not (type(c) is int and 1 <= c <= 100))
        raise InvalidState(f"{_GAME}.bad-card", f"{what}: {excerpt(card)} is not a card 1..100", card=excerpt(card))
    return tuple(value)


def _score_tally(tally: Json) -> ScoreReport:
    if not isinstance(tally, dict):
        raise InvalidState(f"{_GAME}.bad-tally", f"a tally is an object with 'hands', got {excerpt(tally)}")
    unknown = sorted(set(tally) - {"hands", "heads", "previous", "bulls"})
    require(not unknown, InvalidState, f"{_GAME}.bad-tally", f"unknown tally field(s) {unknown}")
    table_name = tally.get("heads", "6-nimmt")
    require(
        table_name in _HEAD_TABLES, InvalidState, f"{_GAME}.bad-tally",
        f"unknown heads table {excerpt(table_name)}; known: {list(_HEAD_TABLES)}",
    )
    table = _HEAD_TABLES[table_name]
    raw = tally["hands"]
    require(
        isinstance(raw, list) and 2 <= len(raw) <= 7, InvalidState, f"{_GAME}.bad-tally",
        f"'hands' must list the hands of 2..7 seats, got {excerpt(raw)}",
    )
    hands = [tuple(sorted(_card_list(h, f"hand of seat {s}"))) for s, h in enumerate(raw)]
    everything = [c for h in hands for c in h]
    dupes = sorted({c for c in everything if everything.count(c) > 1})
    require(not dupes, InvalidState, f"{_GAME}.duplicate-card", f"card(s) {dupes} appear in more than one place",
            card=dupes[0] if dupes else None)
    empty = [s for s, h in enumerate(hands) if not h]
    require(
        len(empty) == 1, InvalidState, f"{_GAME}.bad-tally",
        f"a round ends when exactly one seat has played out its hand; empty hands: {empty}",
    )
    require(
        len(everything) < 100, InvalidState, f"{_GAME}.bad-tally",
        "all 100 cards in hands is impossible: the last card played lies on a stack",
    )
    players = len(hands)
    previous = tally.get("previous", [0] * players)
    require(
        isinstance(previous, list) and len(previous) == players
        and all(_is_int(p) and p >= 0 for p in previous),
        InvalidState, f"{_GAME}.bad-tally",
        f"'previous' must be {players} non-negative totals, got {excerpt(previous)}",
    )
    bull_cards = tally.get("bulls", [0] * players)
    require(
        isinstance(bull_cards, list) and len(bull_cards) == players
        and all(_is_int(b) and b >= 0 for b in bull_cards) and sum(bull_cards) <= _BULL_CARDS,
        InvalidState, f"{_GAME}.bad-tally",
        f"'bulls' must be {players} counts totalling at most {_BULL_CARDS}, got {excerpt(bull_cards)}",
    )
    round_heads = tuple(_heads(h, table) for h in hands)
    totals = tuple(p + r for p, r in zip(previous, round_heads, strict=True))
    breakdown = tuple(
        _seat_breakdown(hands[s], table, went_out=s == empty[0], bulls=bull_cards[s])
        | {"previous_total": previous[s], "total": totals[s]}
        for s in range(players)
    )
    return ScoreReport(round_heads, totals, breakdown, True)


# --------------------------------------------------------------------------- helpers: JSON


def move_to_json(move: Move) -> Json:
    if isinstance(move, Play):
        return {"kind": "play", "plays": [{"stack": s, "cards": list(cards)} for s, cards in move.plays]}
    if isinstance(move, Take):
        out: dict[str, Json] = {"kind": "take", "stack": move.stack}
        if move.source is not None:
            out["source"] = move.source
        return out
    if isinstance(move, NewStack):
        return {"kind": "new-stack", "card": move.card}
    return {"kind": "next-round"}


def _bad_move(data: Json, why: str) -> IllegalMove:
    return IllegalMove(f"{_GAME}.bad-move", f"malformed 11 nimmt! move {excerpt(data)}: {why}")


def _expect_keys(data: dict, required: set[str], optional: set[str] = frozenset()) -> None:
    if data.keys() == required:  # the common case, decided without building the lists below
        return
    missing = sorted(required - set(data))
    extra = sorted(set(data) - required - optional)
    if missing or extra:
        raise _bad_move(data, f"missing {missing}, unexpected {extra}")


def _expect_int(data: Json, value: Json, what: str, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise _bad_move(data, f"{what} must be an integer {lo}..{hi}, got {excerpt(value)}")
    return value


def _move_from_json(data: Json) -> Move:
    if not isinstance(data, dict):
        raise _bad_move(data, "a move is an object with a 'kind'")
    kind = data.get("kind")
    if kind == "play":
        _expect_keys(data, {"kind", "plays"})
        plays = data["plays"]
        if not isinstance(plays, list) or not plays:
            raise _bad_move(data, "'plays' must be a non-empty list of {stack, cards}")
        out = []
        for entry in plays:
            if not isinstance(entry, dict):
                raise _bad_move(data, f"each play is an object {{stack, cards}}, got {excerpt(entry)}")
            _expect_keys(entry, {"stack", "cards"})
            stack = entry["stack"]
            if not (type(stack) is int and 0 <= stack <= 99):  # a plain int in range passes _expect_int as is
                stack = _expect_int(data, stack, "'stack'", 0, 99)
            cards = entry["cards"]
            if not isinstance(cards, list) or not cards:
                raise _bad_move(data, f"'cards' must be a non-empty list of cards, got {excerpt(cards)}")
            out.append((stack, tuple(sorted(
                c if type(c) is int and 1 <= c <= 100 else _expect_int(data, c, "a card", 1, 100) for c in cards
            ))))
        return Play(tuple(sorted(out)))
    if kind == "take":
        _expect_keys(data, {"kind", "stack"}, {"source"})
        source = data.get("source")
        if source is not None:
            _expect_int(data, source, "'source'", 0, 6)
        return Take(_expect_int(data, data["stack"], "'stack'", 0, 99), source)
    if kind == "new-stack":
        _expect_keys(data, {"kind", "card"})
        return NewStack(_expect_int(data, data["card"], "'card'", 1, 100))
    if kind == "next-round":
        _expect_keys(data, {"kind"})
        return NextRound()
    raise _bad_move(data, "'kind' must be one of play, take, new-stack, next-round")


def _bad_state(reason: str, message: str, **context: Json) -> InvalidState:
    return InvalidState(f"{_GAME}.{reason}", message, **context)


def _state_from_json(engine: ElevenNimmt, data: Json) -> State:
    if not isinstance(data, dict):
        raise _bad_state("malformed-state", f"a state is an object, got {type(data).__name__}")
    keys = {"players", "options", "phase", "round", "starter", "turn", "went_out", "hands",
            "stacks", "stock", "bulls", "supply", "history", "rng"}
    missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
    if missing or extra:
        raise _bad_state("malformed-state", f"state fields: missing {missing}, unexpected {excerpt(extra)}")
    players = data["players"]
    if not _is_int(players) or players not in engine.players:
        raise _bad_state("bad-players", f"players must be 2..7, got {excerpt(players)}", got=excerpt(players))
    if not isinstance(data["options"], dict) or set(data["options"]) != set(engine.options):
        raise _bad_state("bad-options",
                         f"options must name exactly {sorted(engine.options)}, got {excerpt(data['options'])}")
    options = Options(**engine.resolve_options(data["options"]))
    if options.start_player >= players:
        raise _bad_state("bad-options", f"start_player {options.start_player} is not a seat of {players}")
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise _bad_state("bad-phase", f"phase must be play, round-over or game-over, got {excerpt(data['phase'])}") \
            from None
    rounds = _rounds(options, players)
    rnd = data["round"]
    if not _is_int(rnd) or not 1 <= rnd <= rounds:
        raise _bad_state("bad-round", f"round must be 1..{rounds}, got {excerpt(rnd)}", got=excerpt(rnd))
    if (phase is Phase.GAME_OVER) != (phase is not Phase.PLAY and rnd == rounds):
        raise _bad_state("bad-phase", f"phase {phase.value!r} does not fit round {rnd} of {rounds}")

    def seat_or_none(key: str) -> int | None:
        value = data[key]
        if value is not None and (not _is_int(value) or not 0 <= value < players):
            raise _bad_state("bad-seat", f"{key} must be a seat 0..{players - 1} or null, got {excerpt(value)}")
        return value

    starter, turn, went_out = seat_or_none("starter"), seat_or_none("turn"), seat_or_none("went_out")
    if starter is None:
        raise _bad_state("bad-seat", "starter must be a seat")
    if (turn is None) != (phase is not Phase.PLAY) or (went_out is None) != (phase is Phase.PLAY):
        raise _bad_state(
            "bad-turn", f"in phase {phase.value!r} turn={excerpt(turn)} and went_out={excerpt(went_out)} do not fit"
        )

    if not isinstance(data["hands"], list) or len(data["hands"]) != players:
        raise _bad_state("bad-hands", f"hands must list {players} hands")
    hands = tuple(tuple(sorted(_card_list(h, f"hand of seat {s}"))) for s, h in enumerate(data["hands"]))
    if not isinstance(data["stacks"], list):
        raise _bad_state("bad-stack", "stacks must be a list of stacks")
    stacks = tuple(_card_list(st, f"stack {i}", "bad-stack") for i, st in enumerate(data["stacks"]))
    for i, stack in enumerate(stacks):
        if not stack:
            raise _bad_state("bad-stack", f"stack {i} is empty")
        for below, above in zip(stack, stack[1:], strict=False):
            if not fits(above, below):
                raise _bad_state(
                    "bad-stack", f"stack {i} {list(stack)}: {above} cannot lie on {below} (distance rule)"
                )
    stock = _card_list(data["stock"], "stock")
    everything = [c for h in hands for c in h] + [c for st in stacks for c in st] + list(stock)
    seen = set(everything)
    if len(seen) != len(everything):
        dupes = sorted(c for c, n in Counter(everything).items() if n > 1)
        raise _bad_state("duplicate-card", f"card(s) {dupes} appear more than once", card=dupes[0])
    if len(seen) != 100:
        lost = sorted(_ALL_CARDS - seen)
        raise _bad_state("missing-card", f"card(s) {excerpt(lost)} are missing: all 100 must be in play", card=lost[0])
    if not stacks and stock:
        raise _bad_state("bad-stock", "no stacks on the table while the stock still has cards")
    empty = [s for s, h in enumerate(hands) if not h]
    if phase is Phase.PLAY and empty:
        raise _bad_state("bad-hands", f"seat(s) {empty} have no cards, so the round would be over")
    if phase is not Phase.PLAY and empty != [went_out]:
        raise _bad_state("bad-hands", f"the round is over with seat {went_out} out, but empty hands are {empty}")

    bulls, supply = data["bulls"], data["supply"]
    if (
        not isinstance(bulls, list) or len(bulls) != players
        or not all(_is_int(b) and b >= 0 for b in bulls) or not _is_int(supply) or supply < 0
        or sum(bulls) + supply != _BULL_CARDS
    ):
        raise _bad_state(
            "bad-bulls", f"bulls {excerpt(bulls)} and supply {excerpt(supply)} must be non-negative and total {_BULL_CARDS}"
        )

    history = data["history"]
    finished = rnd - 1 if phase is Phase.PLAY else rnd
    if not isinstance(history, list) or len(history) != finished:
        raise _bad_state("bad-history", f"history must hold the scores of {finished} finished round(s)")
    max_heads = sum(_HEAD_TABLES[options.heads])
    for r in history:
        if not isinstance(r, list) or len(r) != players or not all(_is_int(x) and 0 <= x <= max_heads for x in r):
            raise _bad_state("bad-history",
                             f"each round in history has {players} scores 0..{max_heads}, got {excerpt(r)}")
        if r.count(0) != 1:
            raise _bad_state("bad-history", f"round scores {r} must have exactly one 0 (the seat that went out)")
        if sum(r) >= max_heads:  # at least the last card played lies on a stack
            raise _bad_state("bad-history", f"round scores {r} add up to more than the cards in hand can hold")
    if phase is not Phase.PLAY:
        table = _HEAD_TABLES[options.heads]
        if tuple(history[-1]) != tuple(_heads(h, table) for h in hands):
            raise _bad_state("bad-history", f"last round's scores {history[-1]} do not match the hands")
    _check_reachable(players, options, phase, rnd, starter, turn, hands, stacks, stock, bulls, supply, history)
    return State(
        players=players,
        options=options,
        phase=phase,
        round=rnd,
        starter=starter,
        turn=turn,
        went_out=went_out,
        hands=hands,
        stacks=stacks,
        stock=stock,
        bulls=tuple(bulls),
        supply=supply,
        history=tuple(tuple(r) for r in history),
        rng=_rng_from_json(data["rng"]),
    )


def _check_reachable(players: int, options: Options, phase: Phase, rnd: int, starter: int, turn: int | None,
                     hands: tuple[tuple[int, ...], ...], stacks: tuple[tuple[int, ...], ...], stock: tuple[int, ...],
                     bulls: list[int], supply: int, history: list[list[int]]) -> None:
    """What play can reach beyond card conservation (docs/rules/11-nimmt.md §8).

    - The starter: round 1 is ``start_player``'s, every later one the seat the history gives.
    - While the stock lasts every take revealed two cards, so the stock tells how many stacks
      were taken (K) and how many lie on the table (1 + K), and at most K bull cards have left
      the supply this round (when they return between rounds).
    - Before the first take with no bull card out, every turn was one card onto the one stack:
      its height tells how many turns were played, whose turn it is and every hand's size.
    """
    expected = options.start_player if rnd == 1 else _starter_after(history[:rnd - 1], options, players)
    if starter != expected:
        raise _bad_state("bad-starter", f"round {rnd} is started by seat {expected}, not seat {starter}",
                         seat=starter, expected=expected)
    if not stock:
        return
    first = _CARDS_AFTER_DEAL - players * _HAND_SIZE  # the stock once the first stack is turned up
    taken, odd = divmod(first - len(stock), _NEW_STACKS)
    if taken < 0 or odd:
        raise _bad_state("bad-stock", f"a stock of {len(stock)} cards cannot follow a deal to {players}: it starts "
                                      f"with {first} and every take reveals two", got=len(stock))
    if len(stacks) != 1 + taken:
        raise _bad_state("bad-stock", f"a stock of {len(stock)} cards means {taken} take(s) and {1 + taken} "
                                      f"stack(s) on the table, not {len(stacks)}", expected=1 + taken, got=len(stacks))
    fresh_bulls = options.bulls_between_rounds == "return" or rnd == 1
    if fresh_bulls and _BULL_CARDS - supply > taken:
        raise _bad_state("bad-bulls", f"{_BULL_CARDS - supply} bull card(s) are out of the supply after "
                                      f"{taken} take(s) this round", expected=taken, got=_BULL_CARDS - supply)
    if taken or any(bulls) or phase is not Phase.PLAY:
        return
    played = len(stacks[0]) - 1  # one card a turn, in turn from the starter
    if turn != (starter + played) % players:
        raise _bad_state("bad-turn", f"{played} card(s) played one a turn from seat {starter}: seat "
                                     f"{(starter + played) % players} is to act, not seat {turn}",
                         seat=turn, expected=(starter + played) % players)
    for seat in range(players):
        moves = played // players + ((seat - starter) % players < played % players)
        if len(hands[seat]) != _HAND_SIZE - moves:
            raise _bad_state("bad-hands", f"seat {seat} holds {len(hands[seat])} cards, but has played {moves} "
                                          f"of its {_HAND_SIZE} before the first take",
                             seat=seat, expected=_HAND_SIZE - moves, got=len(hands[seat]))


def _rng_from_json(data: Json) -> Rng:
    try:
        return Rng.from_json(data)
    except InvalidState as exc:
        raise _bad_state("bad-rng", exc.message) from exc


ENGINE = ElevenNimmt()
