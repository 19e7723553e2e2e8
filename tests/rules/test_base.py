"""rules.base: the specified Rng (version 1), Option.validate and replace.

The Rng figures below were computed once and are pinned: a change to any of them means
saved games and seeded tests would replay differently, which the spec forbids.
"""

from __future__ import annotations

import dataclasses
import hashlib
from decimal import Decimal

import pytest

from rules.base import InvalidOption, Option, Rng, replace
from rules.shapes import ShapeError, decode, encode

# --------------------------------------------------------------------------- Rng

KEY_42 = "49d395f3f82c96e60efb92d5c340f188cafcb8684911e297bdca15ae28606c58"
FIRST_DRAWS_42 = [2716996323171510867, 5511130979358959037, 3037432573276152039, 9520758912971573366]


def test_seed_becomes_the_specified_key() -> None:
    assert Rng.from_seed(42) == Rng(KEY_42, 0)
    assert hashlib.sha256(b"arbiter-rng-v1:int:42").hexdigest() == KEY_42
    assert Rng.from_seed("42").key == hashlib.sha256(b"arbiter-rng-v1:str:42").hexdigest()
    assert Rng.from_seed("42").key == "3f71deec15a03e86c4d49df3da299ca676e29b82f75baab4854fa5f09e5c5931"


def test_unseeded_keys_are_random_and_well_formed() -> None:
    a, b = Rng.from_seed(), Rng.from_seed()
    assert a.key != b.key and a.counter == 0
    assert decode(Rng, encode(a)) == a


def test_first_draws_are_pinned_and_follow_the_spec() -> None:
    rng = Rng.from_seed(42)
    draws = []
    for i in range(4):
        x, nxt = rng.next_u64()
        digest = hashlib.sha256(bytes.fromhex(KEY_42) + i.to_bytes(8, "big")).digest()
        assert x == int.from_bytes(digest[:8], "big")
        assert nxt == Rng(KEY_42, i + 1) and rng == Rng(KEY_42, i)  # a new value; the old is unchanged
        draws.append(x)
        rng = nxt
    assert draws == FIRST_DRAWS_42


def test_randbelow_pinned_including_a_rejected_draw() -> None:
    n = 2**63 + 1  # limit = 2**64 - 2**64 % n = n: draws >= n are rejected
    assert Rng(KEY_42, 0).randbelow(n) == (FIRST_DRAWS_42[0], Rng(KEY_42, 1))
    # draw 3 (9520758912971573366) is >= n, so it is skipped and draw 4 is used
    assert Rng(KEY_42, 3).randbelow(n) == (3833140280120896526, Rng(KEY_42, 5))


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, 2**64 - 1])
def test_randbelow_stays_in_range(n: int) -> None:
    rng = Rng.from_seed(f"randbelow-{n}")
    for _ in range(200):
        before = rng.counter
        x, rng = rng.randbelow(n)
        assert 0 <= x < n
        assert rng.counter > before
    if n == 1:
        assert rng.counter == 200  # nothing is ever rejected below 1


@pytest.mark.parametrize("n", [0, -1, 2**64, 2**70])
def test_randbelow_rejects_bad_bounds(n: int) -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(1).randbelow(n)


def test_shuffle_and_dice_are_pinned() -> None:
    assert Rng.from_seed(42).shuffle(range(10)) == ((8, 4, 3, 6, 5, 2, 1, 9, 0, 7), Rng(KEY_42, 9))
    assert Rng.from_seed("seed").shuffle("abcdefgh")[0] == ("f", "b", "c", "d", "g", "e", "a", "h")
    assert Rng.from_seed(42).dice(5) == ((4, 4, 4, 3, 3), Rng(KEY_42, 5))


@pytest.mark.parametrize("seed", range(20))
def test_shuffle_is_a_permutation_and_leaves_its_input_alone(seed: int) -> None:
    items = list(range(52))
    out, rng = Rng.from_seed(seed).shuffle(items)
    assert sorted(out) == items and items == list(range(52))
    assert rng.counter >= 51
    dice, _ = rng.dice(10, sides=6)
    assert all(1 <= d <= 6 for d in dice)


def test_shuffle_of_fewer_than_two_items_draws_nothing() -> None:
    rng = Rng.from_seed(3)
    assert rng.shuffle([]) == ((), rng)
    assert rng.shuffle(["x"]) == (("x",), rng)


def test_json_round_trip() -> None:
    """The generator's JSON comes from its declaration, as every state's does (one declaration)."""
    rng = Rng(KEY_42, 17)
    assert encode(rng) == {"v": 1, "key": KEY_42, "counter": 17}
    assert decode(Rng, encode(rng)) == rng
    assert decode(Rng, {"v": 1, "key": KEY_42, "counter": Rng.MAX_COUNTER}).counter == Rng.MAX_COUNTER == 2**48


def _rng_json(**change: object) -> dict[str, object]:
    return {"v": 1, "key": KEY_42, "counter": 0} | change


@pytest.mark.parametrize(("data", "path"), [
    (None, ""),
    ([1, KEY_42, 0], ""),
    ("rng", ""),
    ({"v": 1, "key": KEY_42}, "counter"),
    ({"key": KEY_42, "counter": 0}, "v"),
    (_rng_json(v=2), "v"),
    (_rng_json(v="1"), "v"),
    (_rng_json(key=KEY_42.upper()), "key"),
    (_rng_json(key=KEY_42[:-1]), "key"),
    (_rng_json(key=KEY_42 + "0"), "key"),
    (_rng_json(key="g" * 64), "key"),
    (_rng_json(key=None), "key"),
    (_rng_json(key=42), "key"),
    (_rng_json(counter=-1), "counter"),
    (_rng_json(counter=Rng.MAX_COUNTER + 1), "counter"),
    (_rng_json(counter=True), "counter"),
    (_rng_json(counter=1.0), "counter"),
    (_rng_json(counter="3"), "counter"),
    (_rng_json(counter=None), "counter"),
])
def test_reading_refuses(data: object, path: str) -> None:
    """What the declaration refuses (each state's reader turns it into its game's bad-state)."""
    with pytest.raises(ShapeError) as err:
        decode(Rng, data)
    assert err.value.path == path


# --------------------------------------------------------------------------- Option


def _refused(option: Option, value: object) -> str:
    with pytest.raises(InvalidOption) as err:
        option.validate("opt", value)
    assert "'opt'" in err.value.message
    return err.value.code


def test_choices() -> None:
    opt = Option("a", "letters", choices=("a", "b"))
    assert opt.validate("opt", "b") == "b"
    assert _refused(opt, "c") == "options.bad-value"
    assert _refused(opt, None) == "options.bad-value"


def test_choices_keep_booleans_and_numbers_apart() -> None:
    numbers = Option(1, "a number", choices=(0, 1, 2))
    assert numbers.validate("opt", 0) == 0
    assert _refused(numbers, True) == "options.bad-value"  # True == 1, but it is not a number here
    assert _refused(numbers, 1.0) == "options.bad-value"  # nor is 1.0
    assert _refused(numbers, Decimal("1.0")) == "options.bad-value"  # how the service parses 1.0
    flags = Option(False, "a flag", choices=(False, True))
    assert flags.validate("opt", True) is True
    assert _refused(flags, 0) == "options.bad-value"


def test_integers_and_their_bounds() -> None:
    opt = Option(5, "a count", type="integer", minimum=1, maximum=10)
    assert opt.validate("opt", 1) == 1 and opt.validate("opt", 10) == 10
    assert _refused(opt, 0) == "options.out-of-range"
    assert _refused(opt, 11) == "options.out-of-range"
    assert _refused(opt, True) == "options.bad-type"
    assert _refused(opt, 5.0) == "options.bad-type"
    assert _refused(opt, "5") == "options.bad-type"
    assert Option(0, "unbounded", type="integer").validate("opt", -(10**9)) == -(10**9)
    assert Option(0, "no minimum", type="integer", maximum=3).validate("opt", -5) == -5


def test_other_types() -> None:
    boolean = Option(False, "a flag", type="boolean")
    assert boolean.validate("opt", True) is True
    assert _refused(boolean, 1) == "options.bad-type"
    assert _refused(boolean, "true") == "options.bad-type"
    obj = Option({}, "an object", type="object")
    assert obj.validate("opt", {"x": 1}) == {"x": 1}
    assert _refused(obj, []) == "options.bad-type"
    text = Option("x", "untyped means string")
    assert text.validate("opt", "y") == "y"
    assert _refused(text, 1) == "options.bad-type"


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    a: int
    b: tuple = ()


@dataclasses.dataclass(frozen=True)
class _Plain:
    a: int
    b: str = "x"


@dataclasses.dataclass(frozen=True)
class _Derived:  # __post_init__ and an init=False field: replace() must leave these to dataclasses
    a: int
    b: int = 0
    total: int = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.a + self.b)


@pytest.mark.parametrize("obj", [_Slotted(1, (2,)), _Plain(1), _Derived(1, 2)], ids=lambda o: type(o).__name__)
def test_replace_is_dataclasses_replace(obj) -> None:
    """Every engine copies its state with rules.base.replace: it must give what
    dataclasses.replace gives, a new instance of the same class, and the same error."""
    for changes in ({}, {"a": 5}, {"a": 5, "b": (7,) if isinstance(obj, _Slotted) else 3}):
        got, want = replace(obj, **changes), dataclasses.replace(obj, **changes)
        assert (type(got), got) == (type(want), want)
        assert got is not obj
    with pytest.raises(TypeError) as ours:
        replace(obj, nope=1)
    with pytest.raises(TypeError) as theirs:
        dataclasses.replace(obj, nope=1)
    assert str(ours.value) == str(theirs.value)


def test_a_draw_past_the_generators_last_is_refused_so_no_state_outgrows_its_shape():
    """A client may send a state whose rng counter is at the largest a state may carry; drawing
    from it would write a counter beyond it (and break the contract): refused as state.rng."""
    from rules.base import InvalidState, Rng

    last = Rng.from_seed(1).__class__(Rng.from_seed(1).key, Rng.MAX_COUNTER)
    for draw in (lambda r: r.next_u64(), lambda r: r.randbelow(6), lambda r: r.dice(2), lambda r: r.shuffle([1, 2, 3])):
        with pytest.raises(InvalidState) as refused:
            draw(last)
        assert refused.value.code == "state.rng"
    almost = last.__class__(last.key, Rng.MAX_COUNTER - 1)
    assert almost.next_u64()[1].counter == Rng.MAX_COUNTER


# --------------------------------------------------------------------------- phase words and who acts


def test_phase_labels_give_shared_words_and_a_games_own_in_declared_order() -> None:
    from enum import Enum

    from rules.base import Label
    from rules.spec import SHARED_PHASES, phase_labels

    class Phase(Enum):
        TRUMP = "trump"
        PLAY = "play"
        ROUND_OVER = "round-over"
        GAME_OVER = "game-over"

    deal_over = Label("Deal over", "Koniec rozdania")
    labels = phase_labels(Phase, TRUMP=Label("Trumps", "Atuty"), ROUND_OVER=deal_over)
    assert list(labels) == list(Phase)
    assert labels[Phase.TRUMP] == Label("Trumps", "Atuty") and labels[Phase.ROUND_OVER] is deal_over
    assert labels[Phase.PLAY] is SHARED_PHASES["play"] and labels[Phase.GAME_OVER] is SHARED_PHASES["game-over"]
    with pytest.raises(TypeError, match="'trump' needs its words"):
        phase_labels(Phase)
    with pytest.raises(TypeError, match=r"has no phase \['LOTERY'\]"):
        phase_labels(Phase, TRUMP=Label("Trumps", "Atuty"), LOTERY=Label("x", "y"))


def test_who_acts_follows_the_phase_unless_the_game_says_otherwise() -> None:
    """BaseEngine.to_act/round_over (DESIGN 4.5): the `turn` seat while playing, every seat in
    round-over, none in game-over; 11 nimmt! and Kierki use it as it is."""
    from rules.registry import ENGINES

    for game in ("11-nimmt", "kierki"):
        engine = ENGINES[game]
        state = engine.new(4, seed=7)
        assert engine.to_act(state) == frozenset({state.turn}) and not engine.round_over(state)
        over = replace(state, phase=type(state.phase)("round-over"), turn=None)
        assert engine.to_act(over) == frozenset(range(4)) and engine.round_over(over)
        ended = replace(state, phase=type(state.phase)("game-over"), turn=None)
        assert engine.to_act(ended) == frozenset() and engine.round_over(ended)
