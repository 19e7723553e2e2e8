"""rules/shapes.py: one declaration gives the writer, the checking reader, the views and the
JSON Schema (DESIGN 4.8). Each law is checked on small declared classes made here; the games'
own declarations are checked against their contract in tests/service/test_schemas.py."""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, ClassVar, Literal

import jsonschema_rs
import pytest

from rules.base import Label, Rng
from rules.cards import Card, parse_card
from rules.shapes import (
    Doc,
    Length,
    OneOf,
    Pattern,
    Range,
    Schemas,
    ShapeError,
    Visibility,
    computed,
    declared,
    decode,
    encode,
    field,
    option,
    shape_of,
    view,
    view_schema,
)


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


@declared
class Inner:
    n: Annotated[int, Range(0, 9)]
    tag: Literal["a", 1] = field(default="a")


def _mismatch(name: str, got: object, expected: object) -> Exception:
    return ValueError(f"{name} {got} is not {expected}")


@declared
class Opts:
    speed: Annotated[int, Range(1, 3)] = option(default=2, description="how fast", label=Label("Speed", "Szybkość"))


@declared
class Thing:
    players: Annotated[int, Range(2, 4)]
    opts: Opts
    colour: Colour
    word: Annotated[str, Length(1, 5), Pattern("^[a-z]+$")]
    cards: Annotated[tuple[Card, ...], Length(0, 3)]
    hands: Annotated[tuple[tuple[Annotated[int, OneOf((12, 21, 13))], ...], ...], Length(2, 4)] = field(
        visibility=Visibility.OWN, sizes_name="hand_sizes")
    stock: tuple[int, ...] = field(visibility=Visibility.HIDDEN)
    pile: tuple[int, ...] = field(visibility=Visibility.TOP)
    piles: tuple[tuple[int, ...], ...] = field(visibility=Visibility.HIDDEN_EACH)
    pair: tuple[int, int]
    inner: Inner | None
    table: dict[str, Inner] = field(json_name="the-table")
    secret: int = field(visibility=Visibility.SECRET)
    maybe: int | None = field(default=None, doc="left out when null")

    @computed(mismatch=_mismatch)
    def total(self) -> int:
        return sum(self.stock)

    @computed(view_only=True)
    def stock_sum_seen(self) -> int:
        return len(self.stock)


@declared
class Hop:
    to: Annotated[int, Range(0, 25)]
    kind: ClassVar[str] = "hop"


Marked = Annotated[int, Range(1, 2), Doc("a small number")]


@declared
class Small:
    k: Marked


THING = Thing(2, Opts(), Colour.RED, "abc", (parse_card("QH"), parse_card("10S")), ((12, 21), (13,)), (1, 2, 3),
              (4, 5), ((6,), ()), (7, 8), Inner(3), {"x": Inner(1, 1)}, 42)


def test_written_and_read_back_as_itself():
    data = encode(THING)
    assert data == {
        "players": 2, "opts": {"speed": 2}, "colour": "red", "word": "abc", "cards": ["QH", "10S"],
        "hands": [[12, 21], [13]], "stock": [1, 2, 3], "pile": [4, 5], "piles": [[6], []], "pair": [7, 8],
        "inner": {"n": 3, "tag": "a"}, "the-table": {"x": {"n": 1, "tag": 1}}, "secret": 42, "total": 6,
    }
    assert decode(Thing, json.loads(json.dumps(data))) == THING
    assert decode(Thing, {k: v for k, v in data.items() if k != "total"}) == THING  # computed: optional


def test_a_move_writes_its_kind_first_and_reads_it_back():
    assert list(encode(Hop(3))) == ["kind", "to"] and decode(Hop, {"kind": "hop", "to": 3}) == Hop(3)
    with pytest.raises(ShapeError) as err:
        decode(Hop, {"kind": "jump", "to": 3})
    assert err.value.path == ".kind"


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d.update(players=5), "players"),
    (lambda d: d.update(players=True), "players"),
    (lambda d: d.update(players=2.0), "players"),
    (lambda d: d["opts"].update(speed=4), "opts.speed"),
    (lambda d: d["opts"].pop("speed"), "opts.speed"),  # a state's options are all written
    (lambda d: d.update(colour="green"), "colour"),
    (lambda d: d.update(word="ABC"), "word"),
    (lambda d: d.update(word="abcdef"), "word"),
    (lambda d: d.update(cards=["QH", "1X"]), "cards.1"),
    (lambda d: d.update(cards=["QH", ["QH"]]), "cards.1"),  # unhashable: the look-up's TypeError, then named
    (lambda d: d.update(cards=["QH"] * 4), "cards"),
    (lambda d: d["hands"][1].append(14), "hands.1.1"),
    (lambda d: d.update(hands=[[]]), "hands"),
    (lambda d: d.update(pair=[7, True]), "pair.1"),
    (lambda d: d.update(pair=[7]), "pair"),
    (lambda d: d["inner"].update(tag=True), "inner.tag"),
    (lambda d: d["the-table"]["x"].update(n=-1), "the-table.x.n"),
    (lambda d: d.update(maybe="1"), "maybe"),
    (lambda d: d.pop("secret"), "secret"),
    (lambda d: d.update(extra=1), ""),
])
def test_anything_else_is_refused_naming_where(change, path):
    data = encode(THING)
    change(data)
    with pytest.raises(ShapeError) as err:
        decode(Thing, data)
    assert err.value.path == path, err.value.message
    assert "None" not in err.value.message and len(err.value.message) < 300


def test_a_computed_value_given_must_be_what_the_value_gives():
    with pytest.raises(ValueError, match="total 7 is not 6"):
        decode(Thing, {**encode(THING), "total": 7})


def test_optional_fields_are_left_out_when_null_and_read_as_null_when_absent():
    data = encode(THING)
    assert "maybe" not in data and decode(Thing, data).maybe is None
    with_value = encode(Thing(**{**{f: getattr(THING, f) for f in THING.__dataclass_fields__}, "maybe": 5}))
    assert with_value["maybe"] == 5


def test_views_redact_by_visibility_and_keep_their_shape():
    mine = view(THING, 0)
    assert mine["hands"] == [[12, 21], None] and mine["hand_sizes"] == [2, 1]
    assert mine["stock"] is None and mine["stock_size"] == 3
    assert mine["pile"] is None and mine["pile_top"] == 5 and mine["pile_size"] == 2
    assert mine["piles"] == [None, None] and mine["piles_sizes"] == [1, 0]
    assert "secret" not in mine and mine["stock_sum_seen"] == 3
    assert view(THING, None)["hands"] == [None, None]
    assert view(THING, 1)["hands"] == [None, [13]]


def test_an_unknown_field_is_named_and_the_known_ones_quoted_short():
    """A value with many fields: the message names the unknown one and quotes the known ones as a short
    excerpt (DESIGN 4.4: messages quote at most a short excerpt)."""
    many = declared(type("Many", (), {"__annotations__": {f"field_number_{i}": int for i in range(30)}}))
    with pytest.raises(ShapeError) as err:
        decode(many, {"x": 1, **{f"field_number_{i}": i for i in range(30)}})
    assert '["x"]' in err.value.message and "field_number_0" in err.value.message and len(err.value.message) < 250


def test_a_per_seat_entry_that_is_not_a_list_is_redacted_without_sizes():
    """A flag per seat seen by its own seat only (Kanasta's ``red_threes_pending``): others null, and
    no ``<name>_sizes`` (a flag has no size), in the view and in its schema."""
    @declared
    class Flags:
        waiting: tuple[bool, ...] = field(visibility=Visibility.OWN)

    assert view(Flags((True, False, True)), 1) == {"waiting": [None, False, None]}
    assert view(Flags((True, False)), None) == {"waiting": [None, None]}
    schemas = Schemas(lambda cls: cls.__name__)
    view_schema(Flags, schemas, "FlagsView")
    assert set(schemas.components["FlagsView"]["properties"]) == {"waiting"}
    jsonschema_rs.validator_for(schemas.components["FlagsView"]).validate(view(Flags((True, False)), 0))


def test_a_decoded_instance_is_what_the_class_itself_makes():
    """The decoder stores a plain declared class's slots itself (no ``__init__`` call); a class
    with a ``__post_init__`` or an ``__init__`` of its own is still made by calling it."""
    @declared
    class Plain:
        a: int
        b: tuple[int, ...] = ()
        c: str | None = None

    data = {"a": 1, "b": [2, 3]}
    got = decode(Plain, data)
    assert got == Plain(1, (2, 3), None) and type(got) is Plain
    assert decode(Plain, encode(got)) == got
    with pytest.raises(AttributeError):
        got.a = 2  # type: ignore[misc]  # still frozen

    @declared
    class Sorted:
        b: tuple[int, ...]

        def __post_init__(self) -> None:
            object.__setattr__(self, "b", tuple(sorted(self.b)))

    assert decode(Sorted, {"b": [3, 1, 2]}).b == (1, 2, 3)

    class Own:
        b: int

        def __init__(self, b: int) -> None:
            object.__setattr__(self, "b", b * 10)

    own = declared(Own)
    assert decode(own, {"b": 2}).b == 20


def test_reveal_shows_more_at_a_moment_with_the_same_fields():
    @declared
    class Open:
        piles: tuple[tuple[int, ...], ...] = field(visibility=Visibility.HIDDEN_EACH,
                                                   reveal=lambda state, seat: Visibility.PUBLIC)

    assert view(Open(((1,), ())), 0) == {"piles": [[1], []], "piles_sizes": [1, 0]}


def test_a_pile_declared_unsized_shows_no_sizes_in_its_view_or_its_schema():
    """``sized=False``: where the rules hide how many cards a pile holds, the view gives its
    tops alone (nulls for the piles), with the same fields at every moment."""

    @declared
    class Table:
        stacks: tuple[tuple[int, ...], ...] = field(visibility=Visibility.TOP_EACH, sized=False,
                                                    reveal=lambda state, seat: Visibility.PUBLIC if seat == 9 else
                                                    Visibility.TOP_EACH)
        stock: tuple[int, ...] = field(visibility=Visibility.HIDDEN, sized=False)

    table = Table(((1, 2), (7,)), (3, 4))
    assert view(table, 0) == {"stacks": [None, None], "stacks_tops": [2, 7], "stock": None}
    assert view(table, 9) == {"stacks": [[1, 2], [7]], "stacks_tops": [2, 7], "stock": None}
    seen = _validator(Table, view_of=True)
    assert seen.is_valid(view(table, 0)) and seen.is_valid(view(table, 9))
    assert not seen.is_valid({**view(table, 0), "stacks_sizes": [2, 1]})
    assert not seen.is_valid({"stacks": [None, None], "stock": None})


def _validator(cls: type, view_of: bool = False):
    schemas = Schemas(lambda c: c.__name__)
    ref = view_schema(cls, schemas, f"{cls.__name__}View") if view_of else schemas.ref(cls)
    return jsonschema_rs.Draft202012Validator({**ref, "components": {"schemas": schemas.components}})


def test_the_json_schema_accepts_what_is_written_and_refuses_what_the_reader_refuses():
    state, seen = _validator(Thing), _validator(Thing, view_of=True)
    data = encode(THING)
    assert state.is_valid(data) and seen.is_valid(view(THING, 0)) and seen.is_valid(view(THING, None))
    for bad in ({**data, "players": 5}, {**data, "cards": ["1X"]}, {**data, "extra": 1}, {**data, "word": "A"},
                {k: v for k, v in data.items() if k != "secret"}, {**data, "pair": [7, True]}, {**data, "pair": [7]}):
        assert not state.is_valid(bad)
        with pytest.raises(ShapeError):
            decode(Thing, bad)


def test_the_schema_carries_bounds_docs_and_required_fields():
    schemas = Schemas(lambda c: c.__name__)
    schemas.ref(Thing)
    thing = schemas.components["Thing"]
    assert thing["properties"]["players"] == {"type": "integer", "minimum": 2, "maximum": 4}
    assert thing["properties"]["maybe"]["description"] == "left out when null"
    assert "maybe" not in thing["required"] and "secret" in thing["required"] and "total" not in thing["required"]
    assert schemas.components["Opts"]["required"] == ["speed"]
    assert schemas.components["Inner"]["properties"]["tag"] == {"oneOf": [{"type": "integer", "enum": [1]},
                                                                          {"type": "string", "enum": ["a"]}]}


def test_the_rng_is_a_declared_shape_with_its_version():
    rng = Rng.from_seed(1)
    assert encode(rng) == {"key": rng.key, "counter": 0, "v": 1}
    for bad in ({"key": rng.key, "counter": 0}, {"key": rng.key, "counter": 0, "v": 2},
                {"key": "X" * 64, "counter": 0, "v": 1}, {"key": rng.key, "counter": -1, "v": 1},
                {"key": rng.key, "v": 1}):
        with pytest.raises(ShapeError):
            decode(Rng, bad)


def test_a_fixed_tuple_of_mixed_types_is_not_declarable():
    """OpenAPI 3.0 has no positional ``items``: a mix is a class of its own."""
    @declared
    class Mixed:
        pair: tuple[int, bool]

    with pytest.raises(TypeError, match="one type"):
        shape_of(Mixed)


def test_docs_of_a_type_travel_with_it():
    t = shape_of(Inner).fields[0].type
    assert t.lo == 0 and t.hi == 9
    schemas = Schemas(lambda c: c.__name__)
    schemas.ref(Small)
    assert schemas.components["Small"]["properties"]["k"]["description"] == "a small number"


@declared
class PackOnly:
    card: Annotated[Card, Pattern(r"^(10|[2-9TJQKA])[CDHS]$")]
    cards: tuple[Annotated[Card, Pattern(r"^(10|[2-9TJQKA])[CDHS]$")], ...] = ()


def test_a_pattern_narrows_a_scalar_reader_and_its_schema():
    """``Annotated[Card, Pattern(...)]``: a card of a pack without jokers, refused in the reader
    and in the schema alike (the narrowed table keeps the one-look-up read)."""
    assert decode(PackOnly, {"card": "QH", "cards": ["10S", "2C"]}) == PackOnly(
        parse_card("QH"), (parse_card("10S"), parse_card("2C")))
    for bad in ({"card": "JK"}, {"card": "QH", "cards": ["2C", "JK"]}, {"card": 7}):
        with pytest.raises(ShapeError):
            decode(PackOnly, bad)
    schemas = Schemas(lambda c: c.__name__)
    schemas.ref(PackOnly)
    validator = jsonschema_rs.Draft202012Validator(
        {"$ref": "#/components/PackOnly", "components": schemas.components})
    assert validator.is_valid({"card": "QH"}) and not validator.is_valid({"card": "JK"})


def test_a_partial_copy_takes_any_of_the_fields_and_defaults_the_rest():
    from rules.shapes import partial

    Some = partial(Opts, "SomeOpts")
    assert decode(Some, {}).speed == 2 and decode(Some, {"speed": 3}).speed == 3
    with pytest.raises(ShapeError):
        decode(Some, {"speed": 9})
    schemas = Schemas(lambda c: c.__name__)
    schemas.ref(Some)
    assert "required" not in schemas.components["SomeOpts"]


@declared
class CatSheet:
    sort: Literal["cat", "lion"]
    lives: Annotated[int, Range(0, 9)]


@declared
class DogSheet:
    sort: Literal["dog"]
    tricks: int


def test_one_of_several_shapes_is_read_by_its_discriminator():
    """Shapes told apart by a Literal field (a tally whose fields depend on its contract): the
    reader takes exactly one shape's fields, so no mix of two passes."""
    from rules.shapes import decode_one_of

    shapes = (CatSheet, DogSheet)
    assert decode_one_of(shapes, {"sort": "lion", "lives": 3}) == CatSheet("lion", 3)
    assert decode_one_of(shapes, {"sort": "dog", "tricks": 2}) == DogSheet("dog", 2)
    for bad, path in [({"sort": "dog", "lives": 3}, "t"), ({"sort": "cat", "lives": 3, "tricks": 1}, "t"),
                      ({"lives": 3}, "t.sort"), ({"sort": "cow"}, "t.sort"), ([], "t")]:
        with pytest.raises(ShapeError) as err:
            decode_one_of(shapes, bad, "t")
        assert err.value.path == path, bad


def test_a_playout_declares_the_options_of_a_long_game():
    """``Playout.long_options`` (the benchmarks' 1,000-move replays) defaults to none."""
    from rules.spec import Playout

    assert dict(Playout().long_options) == {}
    assert dict(Playout(long_options={"rounds": 20}).long_options) == {"rounds": 20}


# --------------------------------------------------------------------------- generated code, readable


@declared
class Pair:
    left: Annotated[int, Range(0, 9)]
    right: tuple[int, ...] = ()


def test_generated_functions_show_their_source_in_tracebacks_and_to_inspect():
    """Generated code (DESIGN 4.8) is made once per class and is as readable as written code: its
    source is in linecache under a pseudo-filename naming what it is, so inspect.getsource prints
    it and a traceback through it shows the line that raised."""
    import inspect
    import traceback

    from rules import shapes as shapes_module
    from rules.shapes import replace

    name = f"{__name__}.Pair"
    decoder = shape_of(Pair).decode
    assert decoder is shape_of(Pair).decode  # made once
    source = inspect.getsource(decoder)
    assert source.startswith("def decode(data, path=''):") and "_cls" in source
    assert inspect.getsourcefile(decoder) == f"<generated decode {name}>"
    with pytest.raises(ShapeError) as err:
        decoder({"left": 10}, "")
    shown = "".join(traceback.format_exception(err.value))
    assert f'File "<generated decode {name}>", line' in shown
    assert "raise _E(" in shown  # the generated line itself, not just its number
    assert inspect.getsource(shape_of(Pair).encode).startswith("def encode(o):")
    init = inspect.getsource(Pair.__init__)  # a declared class stores its slots by a generated __init__
    assert init.startswith("def __init__(self, left, right=_default1):") and inspect.getsourcefile(
        Pair.__init__) == f"<generated __init__ {name}>"
    assert Pair(3) == Pair(3, ()) and Pair(left=1, right=(2,)).right == (2,)
    assert replace(Pair(3), right=(1,)) == Pair(3, (1,))
    copier = shapes_module._COPIERS[Pair][("right",)]  # one per set of changed fields
    assert inspect.getsource(copier) == "def replace(_o_, _c_):\n    return _cls(_o_.left, _c_['right'])\n"


def test_the_core_uses_no_private_internals_and_no_eval():
    """rules/shapes.py, errors.py, spec.py and base.py: no dataclasses internals, no instance made
    by object.__new__ with its slots filled by hand, no sniffing of code objects, no eval (DESIGN
    4.8). The one instance made without its __init__, a wide class's by its generated maker, goes
    through public Python (__class__ assignment) and is held equal to __init__'s by the test above."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "rules"
    for module in ("shapes", "errors", "spec", "base", "jsontypes"):
        text = (root / f"{module}.py").read_text()
        for banned in ("dataclasses._", "_field_type", "_FIELD", "object.__new__", "co_filename", "eval(",
                       "__code__"):
            assert banned not in text, f"rules/{module}.py uses {banned}"


@declared
class Wide:
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
    h: tuple[int, ...] = ()


def test_a_wide_class_is_made_by_a_generated_maker_that_gives_what_its_init_gives():
    """The readers and replace() make a class of 8 fields or more through a generated function that
    stores each field into a twin class with the same slots and no frozen __setattr__, then assigns
    ``__class__`` (shapes._filling_maker): a plain store is no call, where __init__ calls a slot
    descriptor per field. What it makes must be what __init__ makes: the class itself, equal, with
    the same hash, frozen, every slot set; a narrower class is made by the class itself."""
    import dataclasses
    import inspect

    from rules.shapes import maker, replace

    make = maker(Wide)
    assert make is not Wide and maker(Pair) is Pair
    made, init = make(1, 2, 3, 4, 5, 6, 7, (8,)), Wide(1, 2, 3, 4, 5, 6, 7, (8,))
    assert type(made) is Wide and made == init and hash(made) == hash(init) and repr(made) == repr(init)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 0  # type: ignore[misc]
    assert inspect.getsource(make).endswith("    _o_.__class__ = _cls\n    return _o_\n")
    read = shape_of(Wide).decode({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": [8]}, "")
    assert type(read) is Wide and read == init
    copied = replace(init, h=())
    assert type(copied) is Wide and copied == Wide(1, 2, 3, 4, 5, 6, 7) and init.h == (8,)
