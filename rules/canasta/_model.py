"""State, moves and their JSON for Kanasta."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from rules.base import IllegalMove, InvalidState, Json, NextRound, Rng, RulesError, excerpt, malformed
from rules.cards import Card, deck, parse_card

from ._melds import NAME_RANKS, RANK_NAMES, Meld, check_meld_shape, is_red_three, is_wild

G = "canasta"
FULL_DECK = Counter(deck(packs=2, jokers=4))


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


@dataclass(frozen=True)
class State:
    players: int
    options: tuple[tuple[str, Json], ...]
    round: int                            # 1-based
    dealer: int
    turn: int | None                      # the one seat to act; None when several or none act
    phase: Phase
    stock: tuple[Card, ...]               # top = last
    discard: tuple[Card, ...]             # the pile, top = last
    discard_closed: bool                  # a wild card lies in the pile (§7)
    hands: tuple[tuple[Card, ...], ...]   # per seat, sorted
    melds: tuple[tuple[Meld, ...], ...]   # per side, sorted by rank
    red_threes: tuple[tuple[Card, ...], ...]  # per side
    totals: tuple[int, ...]               # per side, after the last finished round
    history: tuple[tuple[int, ...], ...]  # one row per finished round: each seat's points (partners alike)
    laid: tuple[bool, ...]                # per seat: has laid a card on the table this round
    pending: tuple[bool, ...]             # per seat: dealt red threes not yet laid out (K-9)
    drew: str | None                      # this turn: None, "stock" or "discard"
    asked: str | None                     # this turn: None, "asked", "yes", "no"
    meld_moves: int                       # meld moves this turn
    concealed_melds: tuple[int, ...] | None  # this turn can still go out from hand: ranks of the melds it started
    buying: bool                          # K-7: the turn after the stock ran out
    out_seat: int | None                  # who went out this round
    double_out: bool
    concealed_out: bool
    ending: str | None                    # None, "out" or "stock"
    rng: Rng


HAND_SIZE = {2: 15, 3: 13, 4: 11}
LIVE = (Phase.DRAW, Phase.PLAY, Phase.ANSWER, Phase.DOUBLE)


def player_of(s: State) -> int | None:
    """The seat whose turn it is: the seat to act, or the asker/out player when his partner acts."""
    if s.turn is None:
        return None
    return (s.turn + 2) % 4 if s.phase in (Phase.ANSWER, Phase.DOUBLE) else s.turn


# --------------------------------------------------------------------------- moves

Group = tuple[int, tuple[Card, ...]]


@dataclass(frozen=True)
class Draw:
    kind = "draw"


@dataclass(frozen=True)
class TakePile:
    using: tuple[Card, ...]
    melds: tuple[Group, ...] = ()
    fresh: tuple[int, ...] = ()  # ranks whose group starts another meld (K-6 option)
    kind = "take-pile"


@dataclass(frozen=True)
class TakeTop:
    using: tuple[Card, ...]
    melds: tuple[Group, ...] = ()
    fresh: tuple[int, ...] = ()  # ranks whose group starts another meld (K-6 option)
    kind = "take-top-to-go-out"


@dataclass(frozen=True)
class MeldMove:
    melds: tuple[Group, ...]
    fresh: tuple[int, ...] = ()
    kind = "meld"


@dataclass(frozen=True)
class Discard:
    card: Card
    kind = "discard"


@dataclass(frozen=True)
class AskPartner:
    kind = "ask-partner"


@dataclass(frozen=True)
class Answer:
    yes: bool
    kind = "answer"


@dataclass(frozen=True)
class DoubleGoOut:
    melds: tuple[Group, ...]
    fresh: tuple[int, ...] = ()
    kind = "double-go-out"


@dataclass(frozen=True)
class DeclineDouble:
    kind = "decline-double"


@dataclass(frozen=True)
class EndRound:
    kind = "end-round"


Move = (
    Draw | TakePile | TakeTop | MeldMove | Discard | AskPartner | Answer | DoubleGoOut | DeclineDouble
    | EndRound | NextRound
)
MOVE_KINDS = tuple(
    k.kind for k in (Draw, TakePile, TakeTop, MeldMove, Discard, AskPartner, Answer, DoubleGoOut, DeclineDouble,
                     EndRound, NextRound)
)


def cards_json(cards) -> list[str]:
    return [str(c) for c in cards]


def groups_json(groups, fresh=()) -> list[Json]:
    return [
        {"rank": RANK_NAMES[r], "cards": cards_json(cs), **({"new": True} if r in fresh else {})} for r, cs in groups
    ]


def move_to_json(move: Move) -> Json:
    out: dict[str, Json] = {"kind": move.kind}
    if isinstance(move, TakePile | TakeTop):
        out["using"] = cards_json(move.using)
        out["melds"] = groups_json(move.melds, move.fresh)
    elif isinstance(move, MeldMove | DoubleGoOut):
        out["melds"] = groups_json(move.melds, move.fresh)
    elif isinstance(move, Discard):
        out["card"] = str(move.card)
    elif isinstance(move, Answer):
        out["yes"] = move.yes
    return out


def _bad(msg: str) -> IllegalMove:
    return IllegalMove(f"{G}.bad-move", msg)


def _cards(data: Json, what: str) -> tuple[Card, ...]:
    if not isinstance(data, list) or len(data) > 108:
        raise _bad(f"{what} must be a list of cards, got {excerpt(data)}")
    try:
        return tuple(map(parse_card, data))
    except ValueError:
        raise _bad(f"{what}: not a list of cards: {excerpt(data)}") from None


def _groups(data: Json) -> tuple[tuple[Group, ...], tuple[int, ...]]:
    """Groups and the ranks marked ``"new": true`` (another meld of a rank, K-6 option)."""
    if not isinstance(data, list) or len(data) > 20:
        raise _bad(f"melds must be a list of {{rank, cards}} groups, got {excerpt(data)}")
    out = []
    fresh = []
    for g in data:
        if not isinstance(g, dict) or not {"rank", "cards"} <= set(g) <= {"rank", "cards", "new"}:
            raise _bad(f"a meld group is {{\"rank\": \"K\", \"cards\": [...], \"new\"?: true}}, got {excerpt(g)}")
        rank = NAME_RANKS.get(g["rank"]) if isinstance(g["rank"], str) else None
        if rank is None:
            raise _bad(f"meld rank must be one of {list(NAME_RANKS)}, got {excerpt(g['rank'])}")
        if g.get("new", False) not in (True, False) or not isinstance(g.get("new", False), bool):
            raise _bad(f"a group's 'new' is true or false, got {excerpt(g['new'])}")
        out.append((rank, _cards(g["cards"], "meld cards")))
        if g.get("new") is True:
            fresh.append(rank)
    return tuple(out), tuple(fresh)


#: each move kind's fields besides ``kind``
_FIELDS: dict[str, set[str]] = {
    "draw": set(), "ask-partner": set(), "decline-double": set(), "end-round": set(), "next-round": set(),
    "take-pile": {"using", "melds"}, "take-top-to-go-out": {"using", "melds"}, "meld": {"melds"},
    "double-go-out": {"melds"}, "discard": {"card"}, "answer": {"yes"},
}


def move_from_json(data: Json) -> Move:
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise _bad(f"a move is an object with a 'kind', got {excerpt(data)}")
    kind = data["kind"]
    fields = _FIELDS
    if kind not in fields:
        raise _bad(f"unknown move kind {excerpt(kind)}; known: {list(MOVE_KINDS)}")
    given = set(data) - {"kind"}
    optional = {"melds"} if kind in ("take-pile", "take-top-to-go-out") else set()
    if not (fields[kind] - optional) <= given <= fields[kind]:
        raise _bad(f"move {excerpt(kind)} takes fields {sorted(fields[kind])}, got {sorted(given)}")
    if kind == "draw":
        return Draw()
    if kind == "ask-partner":
        return AskPartner()
    if kind == "decline-double":
        return DeclineDouble()
    if kind == "end-round":
        return EndRound()
    if kind == "next-round":
        return NextRound()
    if kind in ("take-pile", "take-top-to-go-out"):
        cls = TakePile if kind == "take-pile" else TakeTop
        return cls(_cards(data["using"], "using"), *_groups(data.get("melds", [])))
    if kind == "meld":
        return MeldMove(*_groups(data["melds"]))
    if kind == "double-go-out":
        return DoubleGoOut(*_groups(data["melds"]))
    if kind == "discard":
        cards = _cards([data["card"]], "card")
        return Discard(cards[0])
    if not isinstance(data["yes"], bool):
        raise _bad(f"answer 'yes' must be true or false, got {excerpt(data['yes'])}")
    return Answer(data["yes"])


# --------------------------------------------------------------------------- state json


def state_to_json(s: State) -> Json:
    return {
        "players": s.players,
        "options": dict(s.options),
        "round": s.round,
        "dealer": s.dealer,
        "turn": s.turn,
        "phase": s.phase.value,
        "stock": cards_json(s.stock),
        "discard": cards_json(s.discard),
        "discard_closed": s.discard_closed,
        "hands": [cards_json(h) for h in s.hands],
        "sides": [
            {"melds": groups_json(m), "red_threes": cards_json(r), "total": t}
            for m, r, t in zip(s.melds, s.red_threes, s.totals, strict=True)
        ],
        "history": [list(row) for row in s.history],
        "laid": list(s.laid),
        "red_threes_pending": list(s.pending),
        "drew": s.drew,
        "asked": s.asked,
        "meld_moves": s.meld_moves,
        "concealed_melds": None if s.concealed_melds is None else [RANK_NAMES[r] for r in s.concealed_melds],
        "buying": s.buying,
        "out_seat": s.out_seat,
        "double_out": s.double_out,
        "concealed_out": s.concealed_out,
        "ending": s.ending,
        "rng": s.rng.to_json(),
    }


def _inv(code: str, msg: str, **context: Json) -> InvalidState:
    return InvalidState(f"{G}.{code}", msg, **context)


def cards_from_json(data: Json, what: str, prefix: str = "") -> tuple[Card, ...]:
    """A JSON list of cards in a state (or, with ``prefix="tally-"``, a score sheet)."""
    if not isinstance(data, list):
        raise _inv(f"{prefix}bad-field", f"{what} must be a list of cards, got {excerpt(data)}", field=what)
    try:
        return tuple(map(parse_card, data))
    except ValueError:
        bad = next((c for c in data if not _is_card(c)), data)
        raise _inv(f"{prefix}bad-card", f"{what}: not a card: {excerpt(bad)}", card=excerpt(bad)) from None


def _is_card(text: Json) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def _flag(data: Json, what: str) -> bool:
    if not isinstance(data, bool):
        raise _inv("bad-field", f"{what} must be true or false, got {excerpt(data)}", field=what)
    return data


def _int(data: Json, what: str, lo: int, hi: int) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not lo <= data <= hi:
        raise _inv("bad-field", f"{what} must be an integer in {lo}..{hi}, got {excerpt(data)}", field=what)
    return data


def _one_of(data: Json, what: str, choices: tuple) -> Json:
    if not any(data is c or (isinstance(data, str) and data == c) for c in choices):
        raise _inv("bad-field", f"{what} must be one of {list(choices)}, got {excerpt(data)}", field=what)
    return data


def _history(data: Json, players: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(data, list) or len(data) > 10**6:
        raise _inv("bad-field", f"history is a list of rounds, got {excerpt(data)}", field="history")
    return tuple(tuple(_int(x, "history", -10**7, 10**7) for x in row) if isinstance(row, list) and
                 len(row) == players else _bad_row(row, players) for row in data)


def _bad_row(row: Json, players: int) -> tuple[int, ...]:
    raise _inv("bad-field", f"a history row lists {players} seats' points, got {excerpt(row)}", field="history")


def _ranks(data: Json) -> tuple[int, ...] | None:
    """``concealed_melds``: null, or rank names of melds the player to act started this turn."""
    if data is None:
        return None
    if not isinstance(data, list) or any(r not in NAME_RANKS for r in data) or len(set(data)) != len(data):
        raise _inv("bad-field", f"concealed_melds is null or a list of distinct meld ranks, got {excerpt(data)}",
                   field="concealed_melds")
    return tuple(NAME_RANKS[r] for r in data)


def _rng(data: Json) -> Rng:
    try:
        return Rng.from_json(data)
    except InvalidState as exc:
        raise _inv("bad-rng", exc.message) from None


def state_from_json(data: Json, resolve_options, cap3_of) -> State:
    """Parse and check the meaning of a state; raises InvalidState only."""
    try:
        with malformed(f"{G}.bad-state", "Kanasta state"):
            state = _state_from_json(data, resolve_options, cap3_of)
    except IllegalMove as exc:
        raise _inv("bad-state", f"not a Kanasta state: {exc.message}") from None
    _check_reachable(state)
    return state


def _state_from_json(data: Json, resolve_options, cap3_of) -> State:
    if not isinstance(data, dict):
        raise _inv("bad-state", f"a state is an object, got {type(data).__name__}")
    players = _int(data["players"], "players", 2, 4)
    nsides = 2 if players == 4 else players
    raw_options = data["options"]
    if not isinstance(raw_options, dict):
        raise _inv("bad-options", f"options must be an object, got {excerpt(raw_options)}")
    try:
        options = resolve_options(raw_options)
    except RulesError as exc:  # InvalidOption
        raise _inv("bad-options", f"options: {exc.message}") from None
    if not isinstance(data["phase"], str) or data["phase"] not in {p.value for p in Phase}:
        raise _inv("bad-phase", f"unknown phase {excerpt(data['phase'])}")
    phase = Phase(data["phase"])
    hands = data["hands"]
    sides = data["sides"]
    if not isinstance(hands, list) or len(hands) != players:
        raise _inv("bad-hands", f"hands must list {players} hands", expected=players)
    if not isinstance(sides, list) or len(sides) != nsides:
        raise _inv("bad-sides", f"sides must list {nsides} sides", expected=nsides)
    hand_t = tuple(tuple(sorted(cards_from_json(h, f"hands[{i}]"))) for i, h in enumerate(hands))
    cap3 = cap3_of(options)
    one_per_rank = options["one_meld_per_rank"]
    melds = []
    reds = []
    totals = []
    for i, side in enumerate(sides):
        if not isinstance(side, dict) or set(side) != {"melds", "red_threes", "total"}:
            raise _inv("bad-sides", f"sides[{i}] must be {{melds, red_threes, total}}", expected=nsides)
        table: list[tuple[int, tuple[Card, ...]]] = []
        for g in side["melds"]:
            rank = NAME_RANKS.get(g["rank"]) if isinstance(g["rank"], str) else None
            if rank is None or (one_per_rank and any(r == rank for r, _ in table)):
                raise _inv("bad-meld", f"sides[{i}]: bad or repeated meld rank {excerpt(g['rank'])}")
            if set(g) != {"rank", "cards"}:
                raise _inv("bad-meld", f"sides[{i}]: a meld is {{rank, cards}}")
            cards = cards_from_json(g["cards"], f"sides[{i}] meld {g['rank']}")
            try:
                check_meld_shape(rank, cards, None, cap3)
            except IllegalMove as exc:
                raise _inv("bad-meld", f"sides[{i}]: {exc.message}") from None
            table.append((rank, cards))
        melds.append(tuple(sorted(table, key=lambda m: m[0])))  # stable: duplicates keep their order
        red = cards_from_json(side["red_threes"], f"sides[{i}].red_threes")
        if not all(is_red_three(c) for c in red):
            raise _inv("bad-red-threes", f"sides[{i}].red_threes holds a card that is not a red three: "
                                         f"{cards_json(red)}")
        reds.append(red)
        totals.append(_int(side["total"], f"sides[{i}].total", -10**7, 10**7))
    stock = cards_from_json(data["stock"], "stock")
    discard = cards_from_json(data["discard"], "discard")
    seen = Counter(stock) + Counter(discard)
    for h in hand_t:
        seen += Counter(h)
    for m in melds:
        for _, cs in m:
            seen += Counter(cs)
    for r in reds:
        seen += Counter(r)
    if seen != FULL_DECK:
        missing = sorted((FULL_DECK - seen).elements())
        extra = sorted((seen - FULL_DECK).elements())
        raise _inv(
            "cards-not-conserved",
            f"the state must hold the 108 cards exactly once each; missing {excerpt(cards_json(missing))}, "
            f"extra {excerpt(cards_json(extra))}",
            card=str((missing or extra)[0]),
        )
    laid = data["laid"]
    pending = data["red_threes_pending"]
    if not isinstance(laid, list) or len(laid) != players or not isinstance(pending, list) or len(pending) != players:
        raise _inv("bad-field", f"laid and red_threes_pending list one flag per seat ({players})", field="laid")
    live = phase in LIVE
    turn = data["turn"]
    if live or turn is not None:
        turn = _int(turn, "turn", 0, players - 1)
    return State(
        players=players,
        options=tuple(options.items()),
        round=_int(data["round"], "round", 1, 10**6),
        dealer=_int(data["dealer"], "dealer", 0, players - 1),
        turn=turn,
        phase=phase,
        stock=stock,
        discard=discard,
        discard_closed=_flag(data["discard_closed"], "discard_closed"),
        hands=hand_t,
        melds=tuple(melds),
        red_threes=tuple(reds),
        totals=tuple(totals),
        history=_history(data["history"], players),
        laid=tuple(_flag(x, "laid") for x in laid),
        pending=tuple(_flag(x, "red_threes_pending") for x in pending),
        drew=_one_of(data["drew"], "drew", (None, "stock", "discard")),
        asked=_one_of(data["asked"], "asked", (None, "asked", "yes", "no")),
        meld_moves=_int(data["meld_moves"], "meld_moves", 0, 200),
        concealed_melds=_ranks(data["concealed_melds"]),
        buying=_flag(data["buying"], "buying"),
        out_seat=None if data["out_seat"] is None else _int(data["out_seat"], "out_seat", 0, players - 1),
        double_out=_flag(data["double_out"], "double_out"),
        concealed_out=_flag(data["concealed_out"], "concealed_out"),
        ending=_one_of(data["ending"], "ending", (None, "out", "stock")),
        rng=_rng(data["rng"]),
    )


def _side_of(s: State, seat: int) -> int:
    return seat % 2 if s.players == 4 else seat


def _check_reachable(s: State) -> None:
    """Refuse a state that conserves the cards but that no sequence of moves reaches (issue 10 §2):
    the turn and phase, the flags of this turn, hand sizes, and the totals."""
    opts = dict(s.options)
    live = s.phase in LIVE
    player = player_of(s)

    def turn_error(msg: str) -> InvalidState:
        return _inv("bad-turn", msg, seat=player)

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
    if s.buying and (s.stock or not opts["last_pile_buyable"] or not live):
        raise turn_error("the last pile is bought (K-7) only once the stock is empty, under last_pile_buyable")
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
        raise _inv("bad-hand-size", f"seat {s.out_seat} went out but holds cards", seat=s.out_seat)
    if s.double_out and s.hands[(s.out_seat + 2) % 4]:
        raise _inv("bad-hand-size", "a double going out empties the partner's hand too", seat=(s.out_seat + 2) % 4)
    out_side = None if s.out_seat is None else _side_of(s, s.out_seat)
    for side, table in enumerate(s.melds):
        if side != out_side and any(r == 3 for r, _ in table):
            raise _inv("bad-meld", f"sides[{side}] shows black threes, which only the side going out melds (§8)")
    if s.discard and is_red_three(s.discard[-1]):
        raise _inv("bad-discard", "a red three never lies on top of the pile: turned up, it is covered (§3)")
    if s.discard_closed and not any(is_wild(c) for c in s.discard):
        raise _inv("bad-discard", "the discard pile is closed only by a wild card lying in it (§7)")
    # -- this turn's flags
    if (s.drew == "discard" or s.meld_moves or s.concealed_melds is not None) and (
            player is None or not s.laid[player]):
        raise turn_error("taking the pile or melding lays cards: the player has laid")
    if s.concealed_melds is not None:
        side_ranks = {r for r, _ in s.melds[_side_of(s, player)]}
        if s.phase is Phase.DRAW or not s.drew or not set(s.concealed_melds) <= side_ranks:
            raise turn_error("concealed_melds names melds of the side started in this turn after drawing")
        if s.meld_moves > 1 or (s.drew == "stock" and s.meld_moves != 1):
            raise turn_error("going out from hand lays the hand at once: one meld move")
    # -- the table and the hands
    for seat in range(s.players):
        side = _side_of(s, seat)
        reds_in_hand = any(is_red_three(c) for c in s.hands[seat])
        if reds_in_hand != s.pending[seat]:
            raise _inv("red-three-in-hand", f"seat {seat}: red threes wait in a hand exactly while "
                                            "red_threes_pending says so (K-9)", seat=seat)
        if s.pending[seat] and (s.laid[seat] or opts["red_threes_laid"] != "first-turn"):
            raise _inv("red-three-in-hand", f"seat {seat}: dealt red threes are laid out before anything else",
                       seat=seat)
        if s.laid[seat] and not s.melds[side]:
            raise _inv("bad-laid", f"seat {seat} has laid cards, but the side has no meld", seat=seat)
    for side, table in enumerate(s.melds):
        seats = (side, side + 2) if s.players == 4 else (side,)
        if table and not any(s.laid[x] for x in seats):
            raise _inv("bad-laid", f"side {side} has melds that none of its players laid", seat=seats[0])
    if live and s.pending[player]:
        raise _inv("red-three-in-hand", f"seat {player}: dealt red threes are laid out as his turn begins",
                   seat=player)
    if live:
        _check_hand_sizes(s, opts, player)
    # -- the totals and the history
    finished = s.round - (1 if live else 0)
    if len(s.history) != finished:
        raise _inv("bad-total", f"round {s.round} ({s.phase.value}) follows {finished} finished rounds; the history "
                                f"lists {len(s.history)}", expected=finished)
    for row in s.history:
        if any(x % 5 for x in row) or any(row[seat] != row[seat % 2] for seat in range(s.players) if s.players == 4):
            raise _inv("bad-total", f"a round scores multiples of 5, the same for partners; got {list(row)}",
                       expected=5)
    for side, total in enumerate(s.totals):
        if total != sum(row[side] for row in s.history):
            raise _inv("bad-total", f"side {side}'s total {total} is not the sum of its rounds in the history",
                       expected=sum(row[side] for row in s.history))
    best = max(s.totals)
    won = best >= opts["target_score"] and s.totals.count(best) == 1
    if won != (s.phase is Phase.GAME_OVER):
        raise _inv("bad-total", f"the game is over exactly when one side alone has the best total and "
                                f"{opts['target_score']} or more; totals {list(s.totals)}, phase {s.phase.value}",
                   expected=opts["target_score"])


def _check_hand_sizes(s: State, opts: Json, player: int | None) -> None:
    """A player who has laid nothing holds the dealt number of cards (one more after his stock draw);
    fewer only where a red three went without replacement (K-2 "dealt-only", an empty stock, or a red
    three still waiting when a player went out)."""
    n = HAND_SIZE[s.players]
    exact = bool(s.stock) and opts["red_three_replacement"] == "dealt-and-drawn" and s.phase is not Phase.DOUBLE
    for seat, hand in enumerate(s.hands):
        if not hand and seat != s.out_seat:
            raise _inv("bad-hand-size", f"seat {seat} holds no card but did not go out", seat=seat, expected=1)
        if s.laid[seat]:
            continue
        want = n + (1 if seat == player and s.drew == "stock" else 0)
        if len(hand) > want or (exact and len(hand) != want):
            raise _inv("bad-hand-size", f"seat {seat} has laid nothing this round, so holds {want} cards, "
                                        f"not {len(hand)}", seat=seat, expected=want)
