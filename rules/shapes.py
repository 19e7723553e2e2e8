"""Declared shapes: one declaration of a JSON value, and everything derived from it (DESIGN 4.8).

A game's state, moves, tally and score breakdown are frozen dataclasses whose annotations say
what each field holds, with its bounds (``Annotated[int, Range(0, 3)]``), and whose field
metadata says who may see it (:class:`Visibility`). From that one declaration come:

- :func:`encode` / :func:`decode`: the JSON writer and the checking JSON reader, compiled once
  per class into plain Python functions (a state is read on every unsigned request), whose
  source shows in tracebacks and ``inspect.getsource`` (:func:`generated_function`);
- :func:`view`: the JSON a seat may see, by redaction of what the visibility hides;
- :func:`json_schema` / :func:`view_schema`: JSON Schema (OpenAPI 3.0 dialect) of the value and
  of its view, from which the service makes its fast checks and its OpenAPI components.

What the annotations may say:

- ``int``, ``bool``, ``str``, ``Annotated[int, Range(lo, hi)]``, ``Annotated[str, Length(..),
  Pattern(..)]``, ``Annotated[int, OneOf(values)]`` (a fixed set, e.g. Take That's 79 cards);
- an :class:`~enum.Enum` (written as its value), ``Literal[...]`` (its values as they are);
- ``X | None``; ``tuple[X, ...]`` (a JSON list; ``Annotated[tuple[X, ...], Length(lo, hi)]``
  bounds it) and ``tuple[X, Y]`` (a list of exactly that many);
- another declared dataclass (a JSON object; ``json_name`` renames a key that is not an
  identifier), ``Mapping[str, X]`` (an object of any keys), a registered :class:`Scalar`
  (``Card`` is written ``"QH"``), and ``Json`` (anything: only for what the engine checks itself).

A field with a default may be left out of the JSON (it then takes the default); a ``None``
whose default is ``None`` is left out when written (a move's optional field). ``kind`` is the
discriminator of a move class (``kind: ClassVar[str] = "lay"``) and is written first.

Reading refuses anything else with :class:`ShapeError` (a path such as ``hands.1.3``, what was
expected, and a short excerpt of what came): the caller turns it into its game's code. Meaning
(conservation, whose turn it can be) is the engine's to check after the shape is read.

:func:`declared` makes the class a frozen dataclass with slots (its ``__init__`` generated to store
them), and :func:`replace` copies an instance with some fields changed, as every engine's moves do.
The readers and :func:`replace` make a class of many fields through :func:`maker` (a generated
function giving what ``__init__`` gives, without a descriptor call per field).
This module imports nothing of Arbiter's but the JSON type: the rest of the core builds on it.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import linecache
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from typing import Annotated, Any, ClassVar, Literal, TypeVar, dataclass_transform, get_args, get_origin, get_type_hints

from rules.jsontypes import Json

JsonObject = dict[str, Json]  # what a declared class is written as

__all__ = [
    "Doc", "Length", "OneOf", "Pattern", "Range", "Scalar", "ShapeError", "Visibility",
    "computed", "decode", "decode_computed", "decode_one_of", "declared", "encode", "excerpt", "field",
    "generated_function", "json_schema", "option", "partial", "replace", "shape_of", "view", "view_schema",
]
T = TypeVar("T")


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps(..., ensure_ascii=False) makes one a call
_JSON_STRING: Callable[[str], str] = json.encoder.encode_basestring  # C-fast, as json.dumps writes a str


def excerpt(value: Any, limit: int = 60) -> str:
    """``value`` as JSON (``repr`` for what JSON cannot write) cut to ``limit`` characters: messages quote a short excerpt of the
    input, never a whole hostile state (DESIGN 4.4)."""
    if value is None or isinstance(value, bool):
        text = "null" if value is None else "true" if value else "false"  # the client's notation, not None
    elif isinstance(value, int | float):
        text = repr(value)
    elif isinstance(value, str):
        text = _JSON_STRING(value)
    else:
        try:
            text = _ENCODER.encode(value)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- generated code


_GENERATED: dict[str, int] = {}


def generated_function(source: str, name: str, scope: dict[str, Any], what: str) -> Callable[..., Any]:
    """The function ``name`` that ``source`` defines, compiled once with ``scope`` as its globals.

    Its source is registered in :mod:`linecache` under the pseudo-filename ``<generated what>``
    (as attrs and cattrs register theirs), so a traceback through it shows its lines and
    ``inspect.getsource`` returns it: generated code is as readable as written code. ``what``
    says what the function is and for which class (``decode rules.kierki.State``)."""
    count = _GENERATED[what] = _GENERATED.get(what, 0) + 1
    filename = f"<generated {what}>" if count == 1 else f"<generated {what} #{count}>"
    if not source.endswith("\n"):
        source += "\n"
    exec(compile(source, filename, "exec"), scope)  # noqa: S102  # made from a class's own declarations
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    fn: Callable[..., Any] = scope[name]
    return fn


# --------------------------------------------------------------------------- markers


@dataclass(frozen=True, slots=True)
class Range:
    """Inclusive bounds of an integer."""

    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class Length:
    """Bounds of a list's length (or a string's)."""

    lo: int = 0
    hi: int | None = None


@dataclass(frozen=True, slots=True)
class Pattern:
    """A regular expression a whole string must match (JSON Schema ``pattern``)."""

    regex: str


@dataclass(frozen=True, slots=True)
class OneOf:
    """A value from a fixed set (JSON Schema ``enum``): Take That's 79 cards, say."""

    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Doc:
    """The description of a type wherever it is used."""

    text: str


class Visibility(enum.Enum):
    """Who may see a field of a state (DESIGN 4.5). A view always carries the size fields of a
    field declared anything but ``PUBLIC`` or ``SECRET`` (unless declared ``sized=False``), so its
    shape never changes with the moment; ``reveal`` (field metadata) may show more at a given moment (a round's end)."""

    PUBLIC = "public"  # everyone
    SECRET = "secret"  # nobody: left out of every view (the rng)
    HIDDEN = "hidden"  # a pile nobody sees: null, with ``<name>_size``
    TOP = "top"  # a pile whose top alone is seen: null, with ``<name>_top`` and ``<name>_size``
    OWN = "own"  # one entry per seat, each seen by its seat only: others null, with ``<name>_sizes`` (of lists)
    HIDDEN_EACH = "hidden-each"  # one entry per seat, seen by nobody: all null, with ``<name>_sizes``
    TOP_EACH = "top-each"  # entries whose tops alone are seen: null, with ``<name>_tops`` and ``<name>_sizes``


_PER_ENTRY = (Visibility.OWN, Visibility.HIDDEN_EACH, Visibility.TOP_EACH)


def field(*, doc: str | None = None, visibility: Visibility = Visibility.PUBLIC,
          reveal: Callable[[Any, int | None], Visibility] | None = None, json_name: str | None = None,
          sizes_name: str | None = None, sized: bool = True, default: Any = MISSING,
          default_factory: Any = MISSING, required: bool | None = None) -> Any:
    """A dataclass field with its description, visibility and JSON name.

    ``reveal(state, seat)`` gives the visibility that applies at this moment, where it is less
    than the declared one (a face-down pile turned up at the round's end); ``sizes_name`` names
    the view's size field where ``<name>_sizes`` reads wrong (``hands`` -> ``hand_sizes``);
    ``sized=False`` leaves the size fields out of the view where the rules hide how many items a
    hidden pile holds, too (11 nimmt!'s stacks: tops only); ``required`` makes a field with a default required in the JSON all the same."""
    metadata = {"doc": doc, "visibility": visibility, "reveal": reveal, "json": json_name, "sizes": sizes_name,
                "sized": sized, "required": required}
    return dataclasses.field(default=default, default_factory=default_factory, metadata=metadata)


def option(*, default: Any, description: str, label: Any, help: Any = None,  # noqa: A002
           choices: Mapping[Any, Any] | None = None) -> Any:
    """A field of a game's options dataclass: its default, its description for the API docs
    (English, citing the rules page), its ``label`` and one-sentence ``help`` for players in
    both languages (``rules.base.Label``), and a label per choice where the type is a
    ``Literal``. A state's options are read with every field required."""
    meta = {"option": True, "description": description, "label": label, "help": help,
            "choice_labels": dict(choices) if choices is not None else None}
    return dataclasses.field(default=default, metadata=meta)


@dataclass_transform(frozen_default=True, field_specifiers=(field, option, dataclasses.field))
def declared(cls: type[T]) -> type[T]:
    """A declared shape: a frozen dataclass with slots, whose fields :func:`field` and
    :func:`option` describe (type checkers know them as dataclass fields).

    Its ``__init__`` stores each field through its slot, as the dataclass's own does, without
    looking up ``object.__setattr__`` and the slot by name for each field (a state is made on
    every request, and copied on every move): generated once per class, readable like all
    generated code (:func:`generated_function`)."""
    own_init = "__init__" in cls.__dict__  # a class's own __init__ is kept, as dataclass keeps it
    out = dataclass(frozen=True, slots=True)(cls)
    return out if own_init else slot_init(out)


def slot_init(cls: type[T]) -> type[T]:
    """``cls``, a frozen slotted dataclass, with the ``__init__`` that :func:`declared` gives: each
    field stored through its slot (its own ``__init__`` is kept where that cannot be made). Declared
    events (:mod:`rules.events`, keyword-only fields) get theirs here too."""
    init = _slot_init(cls)
    if init is not None:
        setattr(cls, "__init__", init)  # noqa: B010  # assigning to a method, which mypy refuses
        every = _init_fields(cls)
        make = _filling_maker(cls, every) if every is not None else None
        if make is not None:
            _MAKERS[cls] = make
    return cls


#: per wide declared class, a function making an instance from every field by position, as the
#: class's generated ``__init__`` does, for the readers and :func:`replace` (:func:`_filling_maker`)
_MAKERS: dict[type, Callable[..., Any]] = {}

_WIDE_CLASS = 8  # below this, the __class__ assignment costs more than the stores save


def maker(cls: type[T]) -> Callable[..., T]:
    """What makes an instance of ``cls`` from every field by position: ``cls`` itself, or for a wide
    declared class the faster function of :func:`_filling_maker` (the same object in the end)."""
    return _MAKERS.get(cls, cls)


def _filling_maker(cls: type, every: list[dataclasses.Field[Any]]) -> Callable[..., Any] | None:
    """A function ``make(*fields)`` giving what ``cls(*fields)`` gives, for a frozen slotted class
    with many fields, or ``None``.

    The frozen class's ``__setattr__`` refuses every store, so its ``__init__`` stores each field
    through the slot's descriptor, a call each. Here the fields are stored with plain attribute
    stores (which Python runs without a call) into an instance of a twin class with the same
    slots and no ``__setattr__``, whose ``__class__`` is then set to ``cls``: Python allows that
    assignment between classes of the same layout (the language reference, "object.__class__"),
    checking it. Only for a class whose only base is ``object`` and whose slots are its fields."""
    names = tuple(f.name for f in every)
    if (len(names) < _WIDE_CLASS or cls.__bases__ != (object,) or cls.__dict__.get("__slots__") != names
            or {"_o_", "_Twin", "_cls"} & set(names)):
        return None
    twin = type(cls.__name__, (), {"__slots__": names, "__module__": cls.__module__,
                                   "__qualname__": f"{cls.__qualname__}.<being made>"})
    source = "\n".join([f"def make({', '.join(names)}):", "    _o_ = _Twin()",
                        *(f"    _o_.{name} = {name}" for name in names), "    _o_.__class__ = _cls", "    return _o_"])
    return generated_function(source, "make", {"_Twin": twin, "_cls": cls}, f"make {cls.__module__}.{cls.__qualname__}")


def _init_fields(cls: type, keyword_only: bool = False) -> list[dataclasses.Field[Any]] | None:
    """The fields of ``cls`` in ``__init__``'s order, when ``__init__`` takes exactly them, each by
    position (no ``InitVar``, ``init=False`` or keyword-only field), or with ``keyword_only`` each by
    keyword (an event's); else ``None``."""
    if not is_dataclass(cls):
        return None
    every = fields(cls)
    if any(not f.init or (f.kw_only is True) != keyword_only for f in every):
        return None
    params = list(inspect.signature(cls).parameters)
    return list(every) if params == [f.name for f in every] else None


def _slot_init(cls: type) -> Callable[..., None] | None:
    """An ``__init__`` for the frozen slotted dataclass ``cls`` storing each field through its slot's
    descriptor (what the dataclass's ``object.__setattr__(self, name, value)`` ends in), or ``None``
    where ``cls`` is not that plain (a ``__post_init__``, a field without a slot of its own ...)."""
    every, keyword_only = _init_fields(cls), False
    if every is None:
        every, keyword_only = _init_fields(cls, keyword_only=True), True
    if every is None or hasattr(cls, "__post_init__"):
        return None
    scope: dict[str, Any] = {"_FACTORY": _FACTORY}
    params, body = [], []
    for n, f in enumerate(every):
        slot = inspect.getattr_static(cls, f.name, None)
        if type(slot) is not types.MemberDescriptorType:
            return None
        scope[f"_set{n}"] = slot.__set__
        value = f.name
        if f.default is not MISSING:
            scope[f"_default{n}"] = f.default
            params.append(f"{f.name}=_default{n}")
        elif f.default_factory is not MISSING:
            scope[f"_factory{n}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            value = f"_factory{n}() if {f.name} is _FACTORY else {f.name}"
        else:
            params.append(f.name)
        body.append(f"    _set{n}(self, {value})")
    star = "*, " if keyword_only else ""
    source = "\n".join([f"def __init__(self, {star}{', '.join(params)}):", *body] if body else
                       ["def __init__(self):", "    pass"])
    init = generated_function(source, "__init__", scope, f"__init__ {cls.__module__}.{cls.__qualname__}")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return typing.cast(Callable[..., None], init)


class _Factory:
    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` at a fraction of its cost: every engine makes a new
    state this way on every move, and the generic version walks ``fields()`` and calls ``__init__``
    with keywords each time. Here, per class and per set of changed names (an engine changes a
    few fixed sets), a generated function calls ``__init__`` with every field by position, the
    changed ones from ``changes``; a class whose ``__init__`` does not take its fields so, or a
    name that is no field, goes to ``dataclasses.replace`` itself (the same result, the same
    errors)."""
    cls = obj.__class__
    copiers = _COPIERS.get(cls)
    if copiers is None:
        copiers = _COPIERS[cls] = {}
    names = tuple(changes)
    copy = copiers.get(names)
    if copy is None:
        copy = copiers[names] = _copier(cls, names)
    new: T = copy(obj, changes)
    return new


_COPIERS: dict[type, dict[tuple[str, ...], Callable[[Any, dict[str, Any]], Any]]] = {}


def _slow_replace(obj: Any, changes: dict[str, Any]) -> Any:
    return dataclasses.replace(obj, **changes)


def _copier(cls: type, changed: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    every = _init_fields(cls)
    if every is None or not {f.name for f in every}.issuperset(changed):
        return _slow_replace
    args = ", ".join(f"_c_[{f.name!r}]" if f.name in changed else f"_o_.{f.name}" for f in every)
    return generated_function(f"def replace(_o_, _c_):\n    return _cls({args})\n", "replace", {"_cls": maker(cls)},
                              f"replace {cls.__module__}.{cls.__qualname__} {', '.join(changed) or '(a copy)'}")


@dataclass(frozen=True)
class Scalar:
    """A Python type written as one JSON value (``Card`` as ``"QH"``): how to write it, read it
    (``parse`` raises ValueError, KeyError or TypeError on anything else) and describe it."""

    type: type
    schema: Mapping[str, Json]
    write: Callable[[Any], Json]
    parse: Callable[[Any], Any]  # given the JSON value (a str, for a card)
    attr: str | None = None  # the attribute holding the JSON form, if any: written without a call
    table: Mapping[Any, Any] | None = None  # every JSON form -> value, if finite: read by one look-up


_SCALARS: dict[type, Scalar] = {}


def register_scalar(scalar: Scalar) -> Scalar:
    _SCALARS[scalar.type] = scalar
    return scalar


class computed:  # noqa: N801  # a decorator, used like property
    """A value derived from the state that its JSON carries too (backgammon's ``pips``), or, with
    ``view_only``, only its views (3-5-8's ``tricks_won``). Read back, it is optional and, when
    present, must equal what the state gives (``mismatch`` is the error it raises); ``required``
    makes it present always (a format's version number)."""

    def __init__(self, fn: Callable[[Any], Any] | None = None, *, view_only: bool = False, doc: str | None = None,
                 mismatch: Callable[..., Exception] | None = None, required: bool = False) -> None:
        self.fn, self.view_only, self.doc, self.mismatch = fn, view_only, doc, mismatch
        self.required = required  # read back, it must be present (a format's version number)
        self.name = fn.__name__ if fn is not None else ""

    def __call__(self, fn: Callable[[Any], Any]) -> computed:
        self.fn, self.name = fn, fn.__name__
        return self

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        assert self.fn is not None
        return self.fn(obj)


class ShapeError(ValueError):
    """JSON that does not have the declared shape: where (``path``), what was expected."""

    def __init__(self, path: str, expected: str, got: object = MISSING, reason: str = "type") -> None:
        self.path, self.expected, self.reason = path, expected, reason
        where = path or "the value"
        text = f"{where} must be {expected}" if reason != "unknown" else f"{where}: {expected}"
        if got is not MISSING and reason not in ("missing", "unknown"):
            text += f", got {excerpt(got)}"
        super().__init__(text)
        self.message = text


# --------------------------------------------------------------------------- type analysis


@dataclass
class _T:
    """One analysed annotation."""

    kind: str  # int bool str float enum literal oneof optional list fixed object scalar mapping any
    lo: int | None = None
    hi: int | None = None
    pattern: str | None = None
    values: tuple[Any, ...] = ()
    enum: type | None = None
    inner: tuple[_T, ...] = ()
    cls: type | None = None
    scalar: Scalar | None = None
    doc: str | None = None
    writer: Callable[[Any], Json] | None = None  # made by _writer when first needed


def _analyse(hint: Any) -> _T:
    doc = None
    marks: list[Any] = []
    if get_origin(hint) is Annotated:
        hint, *marks = get_args(hint)
        nested = _analyse(hint)
        for mark in marks:
            if isinstance(mark, (Range, Length)):
                nested.lo, nested.hi = mark.lo, mark.hi
            elif isinstance(mark, Pattern):
                if nested.kind == "scalar" and nested.scalar is not None:  # a narrower scalar: cards without jokers
                    nested.scalar = _narrowed(nested.scalar, mark.regex)
                else:
                    nested.pattern = mark.regex
            elif isinstance(mark, OneOf):
                nested.kind, nested.values = "oneof", tuple(mark.values)
            elif isinstance(mark, Doc):
                doc = mark.text
        if doc is not None:
            nested.doc = doc
        return nested
    origin = get_origin(hint)
    if hint is typing.Any or hint == Json:
        return _T("any")
    if hint is int:
        return _T("int")
    if hint is bool:
        return _T("bool")
    if hint is str:
        return _T("str")
    if hint is float:
        return _T("float")
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if len(args) != 1 or len(get_args(hint)) != 2:
            raise TypeError(f"only 'X | None' unions can be declared, got {hint}")
        return _T("optional", inner=(_analyse(args[0]),))
    if origin is Literal:
        return _T("literal", values=get_args(hint))
    if origin is tuple:
        items = get_args(hint)
        if len(items) == 2 and items[1] is Ellipsis:
            return _T("list", inner=(_analyse(items[0]),), lo=0)
        if len(set(map(repr, items))) != 1:  # OpenAPI 3.0 has no positional `items`: declare a class instead
            raise TypeError(f"a fixed-length tuple holds one type (declare a class for a mix), got {hint}")
        return _T("fixed", inner=tuple(_analyse(a) for a in items))
    if origin in (Mapping, dict, typing.Mapping):
        key, value = get_args(hint)
        if key is not str:
            raise TypeError(f"only Mapping[str, X] can be declared, got {hint}")
        return _T("mapping", inner=(_analyse(value),))
    if isinstance(hint, type) and hint in _SCALARS:
        return _T("scalar", scalar=_SCALARS[hint])
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _T("enum", enum=hint, values=tuple(m.value for m in hint))
    if isinstance(hint, type) and is_dataclass(hint):
        return _T("object", cls=hint)
    raise TypeError(f"cannot declare a JSON shape for {hint!r}")


_NARROWED: dict[tuple[int, str], Scalar] = {}


def _narrowed(scalar: Scalar, regex: str) -> Scalar:
    """``scalar`` restricted to the values whose JSON form matches ``regex`` (``Annotated[Card,
    Pattern(...)]``: a French-deck card without the joker); its table keeps only those forms."""
    key = (id(scalar), regex)
    found = _NARROWED.get(key)
    if found is None:
        rx = re.compile(regex)

        def parse(value: Json) -> Any:
            if type(value) is not str or rx.fullmatch(value) is None:
                raise ValueError(value)
            return scalar.parse(value)

        table = None if scalar.table is None else {k: v for k, v in scalar.table.items() if rx.fullmatch(k)}
        found = _NARROWED[key] = dataclasses.replace(scalar, schema={**scalar.schema, "pattern": regex},
                                                     parse=parse, table=table)
    return found


def partial(cls: type, name: str, doc: str | None = None) -> type:
    """A declared copy of ``cls`` (named ``name``) whose every field may be left out and then takes
    ``cls``'s default: a game's options as a score sheet may give some of them."""
    hints = get_type_hints(cls, include_extras=True)
    specs: list[Any] = []
    for f in fields(cls):
        if f.default is MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has no default: it cannot be left out")
        text = f.metadata.get("description") or f.metadata.get("doc")
        specs.append((f.name, hints[f.name], field(default=f.default, doc=text)))
    out = dataclasses.make_dataclass(name, specs, frozen=True, slots=True)
    out.__module__ = cls.__module__
    out.__doc__ = doc or f"{cls.__name__}, each field optional (its default when left out)"
    return out


def decode_one_of(classes: tuple[type, ...], data: Json, path: str = "") -> Any:
    """An instance of the one class of ``classes`` that ``data`` names by their discriminator: a
    field every class has, typed ``Literal`` with values no two classes share (a tally whose shape
    depends on its ``contract``). ShapeError if it names none, or has that class's wrong shape."""
    key, table = _discriminator(classes)
    tag = data.get(key, MISSING) if type(data) is dict else MISSING
    if type(data) is not dict:
        raise ShapeError(path, "an object", data)
    cls = table.get((type(tag), tag)) if tag is not MISSING and not isinstance(tag, (list, dict)) else None
    if cls is None:
        where = f"{path}.{key}" if path else key
        if tag is MISSING:
            raise ShapeError(where, "given", reason="missing")
        raise ShapeError(where, f"one of {excerpt([v for _, v in table])}", tag)
    return shape_of(cls).decode(data, path)


_DISCRIMINATORS: dict[tuple[type, ...], tuple[str, dict[tuple[type, Any], type]]] = {}


def _discriminator(classes: tuple[type, ...]) -> tuple[str, dict[tuple[type, Any], type]]:
    found = _DISCRIMINATORS.get(classes)
    if found is not None:
        return found
    shapes = [shape_of(c) for c in classes]
    common = set.intersection(*({f.key for f in s.fields if f.type.kind == "literal" and f.required} for s in shapes))
    for key in sorted(common):
        table: dict[tuple[type, Any], type] = {}
        for s in shapes:
            (f,) = [f for f in s.fields if f.key == key]
            for v in f.type.values:
                if (type(v), v) in table:
                    break
                table[(type(v), v)] = s.cls
            else:
                continue
            break
        else:
            _DISCRIMINATORS[classes] = (key, table)
            return key, table
    raise TypeError(f"{[c.__name__ for c in classes]} share no Literal field with distinct values")


@dataclass
class _Field:
    name: str
    key: str
    type: _T
    required: bool
    default: Any
    omit_none: bool
    doc: str | None
    visibility: Visibility
    reveal: Callable[[Any, int | None], Visibility] | None
    sizes: str | None
    sized: bool = True


@dataclass
class _Computed:
    name: str
    type: _T
    view_only: bool
    doc: str | None
    mismatch: Callable[..., Exception] | None
    required: bool = False
    reader: Callable[[Json, str], Any] | None = None  # made by decode_computed when first needed


class Shape:
    """The compiled shape of one dataclass: its fields, reader, writer and kind (for moves)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.name = f"{cls.__module__}.{cls.__qualname__}"
        hints = get_type_hints(cls, include_extras=True)
        self.kind: str | None = cls.__dict__.get("kind") if isinstance(cls.__dict__.get("kind"), str) else None
        self.fields: list[_Field] = []
        for f in fields(cls):
            if not f.init:
                continue
            meta = f.metadata
            default = f.default if f.default is not MISSING else (
                f.default_factory() if f.default_factory is not MISSING else MISSING)
            t = _analyse(hints[f.name])
            doc = meta.get("doc") or meta.get("description") or t.doc
            required = meta.get("required")
            if required is None:  # a state's options are all written
                required = default is MISSING or bool(meta.get("option"))
            self.fields.append(_Field(
                f.name, meta.get("json") or f.name, t, required, default,
                default is None, doc, meta.get("visibility", Visibility.PUBLIC), meta.get("reveal"), meta.get("sizes"),
                meta.get("sized", True)))
        self.computed: list[_Computed] = []
        for name in dir(cls):
            attr = getattr(cls, name, None)
            if isinstance(attr, computed):
                assert attr.fn is not None
                ret = get_type_hints(attr.fn, include_extras=True)["return"]
                self.computed.append(_Computed(name, _analyse(ret), attr.view_only, attr.doc or attr.fn.__doc__,
                                               attr.mismatch, attr.required))
        #: the computed values its JSON carries (not the view-only ones), by name
        self.written_computed = {c.name: c for c in self.computed if not c.view_only}
        self.keys = frozenset([f.key for f in self.fields] + [c.name for c in self.computed if not c.view_only]
                              + (["kind"] if self.kind else []))
        self._encode: Callable[[Any], JsonObject] | None = None
        self._decode: Callable[[Json, str], Any] | None = None

    @property
    def encode(self) -> Callable[[Any], JsonObject]:
        if self._encode is None:
            self._encode = _compile_encoder(self)
        return self._encode

    @property
    def decode(self) -> Callable[[Json, str], Any]:
        if self._decode is None:
            self._decode = _compile_decoder(self)
        return self._decode


_SHAPES: dict[type, Shape] = {}


def shape_of(cls: type) -> Shape:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = Shape(cls)
    return shape


def encode(value: Any) -> JsonObject:
    """The JSON of a declared dataclass instance."""
    return shape_of(type(value)).encode(value)


def decode(cls: type, data: Json, path: str = "") -> Any:
    """An instance of ``cls`` read from ``data`` (:class:`ShapeError` if it has another shape)."""
    return shape_of(cls).decode(data, path)


def decode_computed(cls: type, data: Mapping[str, Json], path: str = "") -> dict[str, Any]:
    """The computed values of ``cls`` that ``data`` holds, each read by its declared type
    (:class:`ShapeError` if one has another shape): for a game that compares them with the
    value only after its checks of meaning (backgammon's position IDs)."""
    shape = shape_of(cls)
    out = {}
    for key, value in data.items():
        c = shape.written_computed.get(key)
        if c is None:
            known = sorted(shape.written_computed)
            raise ShapeError(path, f"unexpected field(s) {excerpt([key])}; known: {excerpt(known, 160)}",
                             reason="unknown")
        if c.reader is None:
            c.reader = _reader(c.type, f"{shape.name}.{c.name}")
        out[key] = c.reader(value, f"{path}.{key}" if path else key)
    return out


# --------------------------------------------------------------------------- code generation


class _Gen:
    """The source of one generated function, and the constants it names (its globals)."""

    def __init__(self, what: str) -> None:
        self.what = what  # what the function is, for its pseudo-filename (``decode rules.kierki.State``)
        self.scope: dict[str, Any] = {"_E": ShapeError, "_M": MISSING, "_unknown": _unknown, "_shape": shape_of}
        self.lines: list[str] = []
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def const(self, value: Any, prefix: str = "_c") -> str:
        name = self.name(prefix)
        self.scope[name] = value
        return name

    def nested(self, cls: Any, way: str) -> str:
        """The name of ``cls``'s encoder or decoder (``way``) in the generated code. It is compiled at
        its first call (a shape may hold itself), which puts the compiled function in its place:
        later calls go straight to it, without looking up the shape each time."""
        name, scope = self.name("_nested"), self.scope

        def first(*args: Any) -> Any:
            fn = getattr(shape_of(cls), way)
            scope[name] = fn
            return fn(*args)

        scope[name] = first
        return name

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def build(self, fn: str) -> Callable[..., Any]:
        return generated_function("\n".join(self.lines), fn, self.scope, self.what)


def _unknown(data: dict[str, Json], known: frozenset[str], path: str) -> typing.NoReturn:
    extra = sorted(str(k) for k in data if k not in known)
    # the known names cut to a short excerpt too: a large state (Kanasta's) has 27 (DESIGN 4.4)
    raise ShapeError(path, f"unexpected field(s) {excerpt(extra)}; known: {excerpt(sorted(known), 160)}",
                     reason="unknown")


def _expected(t: _T) -> str:
    """What a value of ``t`` is, in words, for messages."""
    k = t.kind
    if k == "int":
        return f"an integer {t.lo}..{t.hi}" if t.lo is not None and t.hi is not None else "an integer"
    if k == "bool":
        return "true or false"
    if k == "str":
        return "a string" + (f" of at most {t.hi} characters" if t.hi is not None else "")
    if k == "float":
        return "a number"
    if k in ("enum", "literal", "oneof"):
        values = list(t.values)
        return f"one of {excerpt(values)}" if len(values) <= 12 else f"one of the {len(values)} allowed values"
    if k == "optional":
        return f"null or {_expected(t.inner[0])}"
    if k == "list":
        bounds = "" if t.hi is None and not t.lo else f" of {t.lo}..{t.hi if t.hi is not None else 'any'} items"
        return f"a list{bounds}"
    if k == "fixed":
        return f"a list of {len(t.inner)} items"
    if k in ("object", "mapping"):
        return "an object"
    if k == "scalar":
        assert t.scalar is not None
        return str(t.scalar.schema.get("description", f"a {t.scalar.type.__name__}"))
    return "a JSON value"


def _outside(t: _T, size: str, length: bool = False) -> str:
    """`` or ...`` conditions that ``size`` (an int, or with ``length`` a length) is outside ``t``'s
    bounds; a length's lower bound of 0 needs none."""
    cond = ""
    if t.lo is not None and (t.lo or not length):
        cond += f" or {size} < {t.lo}"
    if t.hi is not None:
        cond += f" or {size} > {t.hi}"
    return cond


def _limits(t: _T, low: str, high: str, length: bool = False) -> dict[str, int]:
    """``t``'s bounds as the JSON Schema keywords ``low`` and ``high`` (``minimum``/``maximum``, or with
    ``length`` ``minLength``/``maxLength`` or ``minItems``/``maxItems``)."""
    lo = t.lo if t.lo or not length else None
    return {key: v for key, v in ((low, lo), (high, t.hi)) if v is not None}


def _check_leaf(g: _Gen, t: _T, src: str, path: str, indent: int) -> str | None:
    """Statements that check a leaf value in place; its value expression, or None if not a leaf."""
    k = t.kind
    err = f"raise _E({path}, {g.const(_expected(t))}, {src})"
    if k == "int":
        cond = f"type({src}) is not int" + _outside(t, src)
        g.emit(indent, f"if {cond}: {err}")
        return src
    if k == "bool":
        g.emit(indent, f"if type({src}) is not bool: {err}")
        return src
    if k == "float":
        g.emit(indent, f"if type({src}) not in (int, float): {err}")
        return src
    if k == "str":
        cond = f"type({src}) is not str" + _outside(t, f"len({src})", length=True)
        if t.pattern is not None:
            cond += f" or {g.const(re.compile(t.pattern))}.fullmatch({src}) is None"
        g.emit(indent, f"if {cond}: {err}")
        return src
    if k == "oneof":
        types_ = {type(v) for v in t.values}
        (typ,) = types_
        g.emit(indent, f"if type({src}) is not {g.const(typ)} or {src} not in {g.const(frozenset(t.values))}: {err}")
        return src
    if k == "literal":
        allowed = {(type(v), v): v for v in t.values}
        g.emit(indent, f"if type({src}) not in {g.const(frozenset(type(v) for v in t.values))} "
                       f"or (type({src}), {src}) not in {g.const(allowed)}: {err}")
        return src
    if k == "any":
        return src
    return None


def _decode_value(g: _Gen, t: _T, src: str, path: str, indent: int) -> str:
    """Statements that read ``src`` as ``t``; returns the expression of the value read."""
    leaf = _check_leaf(g, t, src, path, indent)
    if leaf is not None:
        return leaf
    k = t.kind
    out = g.name("v")
    err = f"raise _E({path}, {g.const(_expected(t))}, {src})"
    if k == "enum":
        table = g.const({m.value: m for m in t.enum})  # type: ignore[union-attr]
        value_types = g.const(frozenset(type(v) for v in t.values))
        g.emit(indent, f"{out} = {table}.get({src}) if type({src}) in {value_types} else None")
        g.emit(indent, f"if {out} is None: {err}")
        return out
    if k == "optional":
        g.emit(indent, f"if {src} is None:")
        g.emit(indent + 1, f"{out} = None")
        g.emit(indent, "else:")
        inner = _decode_value(g, t.inner[0], src, path, indent + 1)
        g.emit(indent + 1, f"{out} = {inner}")
        return out
    if k == "scalar":
        s = t.scalar
        assert s is not None
        if s.table is not None:
            table = g.const(s.table)
            g.emit(indent, f"{out} = {table}.get({src}) if type({src}) is str else None")
            g.emit(indent, f"if {out} is None: {err}")
        else:
            parse = g.const(s.parse)
            g.emit(indent, "try:")
            g.emit(indent + 1, f"{out} = {parse}({src})")
            g.emit(indent, "except (ValueError, KeyError, TypeError):")
            g.emit(indent + 1, err)
        return out
    if k == "object":
        g.emit(indent, f"{out} = {g.nested(t.cls, 'decode')}({src}, {path})")
        return out
    if k == "list":
        cond = f"type({src}) is not list" + _outside(t, f"len({src})", length=True)
        g.emit(indent, f"if {cond}: {err}")
        if t.lo:  # never empty
            return _decode_items(g, t, src, path, indent, out)
        # an empty list (a state has many: no melds yet, no finished round ...) is () at once, without
        # the comprehension's call (a function of its own before Python 3.12)
        g.emit(indent, f"if not {src}:")
        g.emit(indent + 1, f"{out} = ()")
        g.emit(indent, "else:")
        return _decode_items(g, t, src, path, indent + 1, out)
    if k == "fixed":
        g.emit(indent, f"if type({src}) is not list or len({src}) != {len(t.inner)}: {err}")
        parts = []
        for n, item in enumerate(t.inner):
            elem = g.name("e")
            g.emit(indent, f"{elem} = {src}[{n}]")
            parts.append(_decode_value(g, item, elem, f"{path} + '.{n}'", indent))
        g.emit(indent, f"{out} = ({', '.join(parts)},)")
        return out
    if k == "mapping":
        g.emit(indent, f"if type({src}) is not dict: {err}")
        fn = _item_decoder(g, t.inner[0])
        kk, vv = g.name("k"), g.name("w")
        g.emit(indent, f"{out} = {{{kk}: {fn}({vv}, {path} + '.' + str({kk})) for {kk}, {vv} in {src}.items()}}")
        return out
    raise TypeError(f"cannot read {t.kind}")


def _decode_items(g: _Gen, t: _T, src: str, path: str, indent: int, out: str) -> str:
    """Statements that read the items of the list ``src`` (its type and length checked) into the
    tuple ``out``; returns ``out``."""
    item = t.inner[0]
    i, x = g.name("i"), g.name("x")
    item_path = f"{path} + '.' + str({i})"
    if item.kind == "scalar" and item.scalar is not None and item.scalar.table is not None:
        # one look-up a card, in C (map over the table's bound __getitem__: no comprehension
        # function made per list); the loop below runs only to name the bad item
        table = g.const(item.scalar.table)
        g.emit(indent, "try:")
        g.emit(indent + 1, f"{out} = tuple(map({g.const(item.scalar.table.__getitem__)}, {src}))")
        g.emit(indent, "except (KeyError, TypeError):")
        g.emit(indent + 1, f"for {i}, {x} in enumerate({src}):")
        g.emit(indent + 2, f"if type({x}) is not str or {x} not in {table}: "
                           f"raise _E({item_path}, {g.const(_expected(item))}, {x})")
        g.emit(indent + 1, "raise AssertionError('unreachable')")
        return out
    probe = _Gen("")
    if _check_leaf(probe, item, "x", "p", 0) is not None:  # items checked in place
        g.emit(indent, f"for {i}, {x} in enumerate({src}):")
        _check_leaf(g, item, x, item_path, indent + 1)
        g.emit(indent, f"{out} = tuple({src})")
        return out
    # an object's decoder is called as it is (no function around it); anything else gets one.
    # Items are read without their paths, which only a refusal needs: on a refusal they are read
    # again with them, and the same item refuses the same way, now naming where (readers are pure)
    fn = g.nested(item.cls, "decode") if item.kind == "object" else _item_decoder(g, item)
    g.emit(indent, "try:")
    g.emit(indent + 1, f"{out} = tuple([{fn}({x}, '') for {x} in {src}])")
    g.emit(indent, "except _E:")
    g.emit(indent + 1, f"{out} = tuple([{fn}({x}, {path} + '.' + str({i})) for {i}, {x} in enumerate({src})])")
    return out


def _item_decoder(g: _Gen, t: _T) -> str:
    """A function ``(value, path) -> value`` for ``t`` (for list items and mapping values)."""
    return g.const(_reader(t, f"{g.what}, an item"), "_fn")


def _reader(t: _T, what: str) -> Callable[[Json, str], Any]:
    """A function ``(value, path) -> value`` reading a value of ``t``."""
    sub = _Gen(what)
    sub.emit(0, "def read(value, path):")
    result = _decode_value(sub, t, "value", "path", 1)
    sub.emit(1, f"return {result}")
    return sub.build("read")


def _compile_decoder(shape: Shape) -> Callable[[Json, str], Any]:
    g = _Gen(f"decode {shape.name}")
    g.emit(0, "def decode(data, path=''):")
    g.emit(1, "if type(data) is not dict: raise _E(path, 'an object', data)")
    known = g.const(shape.keys)
    g.emit(1, f"if not {known}.issuperset(data): _unknown(data, {known}, path)")
    if shape.kind is not None:
        g.emit(1, f"if data.get('kind', {g.const(shape.kind)}) != {g.const(shape.kind)}: "
                  f"raise _E(path + '.kind', {g.const(repr(shape.kind))}, data.get('kind'))")
    args = []
    for f in shape.fields:
        src = g.name("raw")
        key = g.const(f.key)
        path = f"(path + '.' + {key} if path else {key})"
        if f.required:  # a subscript, not .get: no call; the KeyError is caught only for this statement
            g.emit(1, "try:")
            g.emit(2, f"{src} = data[{key}]")
            g.emit(1, "except KeyError:")
            g.emit(2, f"raise _E({path}, 'given', reason='missing') from None")
            value = _decode_value(g, f.type, src, path, 1)
        else:
            g.emit(1, f"{src} = data.get({key}, _M)")
            value = g.name("d")
            g.emit(1, f"if {src} is _M:")
            g.emit(2, f"{value} = {g.const(f.default)}")
            g.emit(1, "else:")
            got = _decode_value(g, f.type, src, path, 2)
            g.emit(2, f"{value} = {got}")
        args.append((f.name, value))
    every = _init_fields(shape.cls)
    if every is not None and [f.name for f in every] == [name for name, _ in args]:  # by position: faster
        g.emit(1, f"obj = {g.const(maker(shape.cls), '_cls')}({', '.join(value for _, value in args)})")
    else:
        g.emit(1, f"obj = {g.const(shape.cls, '_cls')}({', '.join(f'{name}={value}' for name, value in args)})")
    for c in shape.computed:
        if c.view_only:
            continue
        src = g.name("raw")
        key = g.const(c.name)
        g.emit(1, f"{src} = data.get({key}, _M)")
        path = f"(path + '.' + {key} if path else {key})"
        if c.required:
            g.emit(1, f"if {src} is _M: raise _E({path}, 'given', reason='missing')")
        g.emit(1, f"if {src} is not _M:")
        got = _decode_value(g, c.type, src, path, 2)
        derived = g.name("d")  # its function called once, as ``obj.<name>`` would, without the descriptor's frame
        g.emit(2, f"{derived} = {g.const(getattr(shape.cls, c.name).fn)}(obj)")
        encoded = _encode_value(g, c.type, derived)
        g.emit(2, f"if {got} != {derived} and {src} != {encoded}:")
        if c.mismatch is not None:
            g.emit(3, f"raise {g.const(c.mismatch)}({g.const(c.name)}, {src}, {encoded})")
        else:
            g.emit(3, f"raise _E({path}, 'what the rest of the value gives: ' + repr({encoded}), {src})")
    g.emit(1, "return obj")
    return typing.cast(Callable[[Json, str], Any], g.build("decode"))


def _encode_value(g: _Gen, t: _T, src: str) -> str:
    """The expression that writes ``src`` (of type ``t``) as JSON."""
    k = t.kind
    if k in ("int", "bool", "str", "float", "literal", "oneof", "any"):
        return src
    if k == "enum":
        return f"{src}._value_"  # what ``.value`` returns, without Enum's Python-level property
    if k == "optional":
        inner = _encode_value(g, t.inner[0], src)
        return src if inner == src else f"(None if {src} is None else {inner})"
    if k == "scalar":
        s = t.scalar
        assert s is not None
        return f"{src}.{s.attr}" if s.attr else f"{g.const(s.write)}({src})"
    if k == "object":
        return f"{g.nested(t.cls, 'encode')}({src})"
    if k in ("list", "fixed"):
        items = t.inner if k == "fixed" else (t.inner[0],)
        x = g.name("x")
        encoded = [_encode_value(g, item, x) for item in items]
        if all(e == x for e in encoded):
            return f"list({src})"
        if k == "fixed":
            elements = [_encode_value(g, item, f"{src}[{n}]") for n, item in enumerate(items)]
            return f"[{', '.join(elements)}]"
        comprehension = f"[{encoded[0]} for {x} in {src}]"
        # an empty tuple is [] without the comprehension's call (a function of its own before Python
        # 3.12), where ``src`` is a name or an attribute that may be read twice
        return f"({comprehension} if {src} else [])" if src.replace(".", "").isidentifier() else comprehension
    if k == "mapping":
        kk, vv = g.name("k"), g.name("w")
        value = _encode_value(g, t.inner[0], vv)
        return f"dict({src})" if value == vv else f"{{{kk}: {value} for {kk}, {vv} in {src}.items()}}"
    raise TypeError(f"cannot write {t.kind}")


def _compile_encoder(shape: Shape) -> Callable[[Any], JsonObject]:
    g = _Gen(f"encode {shape.name}")
    g.emit(0, "def encode(o):")
    items = [f"'kind': {g.const(shape.kind)}"] if shape.kind is not None else []
    optional = []
    for f in shape.fields:
        expr = _encode_value(g, f.type, f"o.{f.name}")
        if f.omit_none:
            optional.append((f, expr))
        else:
            items.append(f"{g.const(f.key)}: {expr}")
    for c in shape.computed:
        if not c.view_only:  # its function called as ``o.<name>`` would, without the descriptor's frame
            fn = g.const(getattr(shape.cls, c.name).fn)
            items.append(f"{g.const(c.name)}: {_encode_value(g, c.type, f'{fn}(o)')}")
    g.emit(1, f"out = {{{', '.join(items)}}}")
    for f, expr in optional:
        g.emit(1, f"if o.{f.name} is not None: out[{g.const(f.key)}] = {expr}")
    g.emit(1, "return out")
    return typing.cast(Callable[[Any], JsonObject], g.build("encode"))


# --------------------------------------------------------------------------- views


def _size(value: Any) -> int:
    return len(value)


def _sized(entry: _T) -> bool:
    """Whether a per-seat entry of type ``entry`` has a size a view gives beside it (a list has)."""
    return entry.kind in ("list", "fixed")


def _writer(t: _T, what: str) -> Callable[[Any], Json]:
    """The function writing a value of ``t`` as JSON (a pile's top, a view-only value), made once."""
    if t.writer is None:
        g = _Gen(f"write {what}")
        g.emit(0, "def write(value):")
        g.emit(1, f"return {_encode_value(g, t, 'value')}")
        t.writer = g.build("write")
    return t.writer


def _top(t: _T, value: Any, what: str) -> Json:
    return _writer(t.inner[0], what)(value[-1]) if value else None


def view(state: Any, seat: int | None) -> JsonObject:
    """The JSON of ``state`` as ``seat`` (``None``: a spectator) may see it: every field as its
    visibility allows at this moment, with the size (and top) fields of the hidden ones, the
    view-only computed values, and nothing ``SECRET``."""
    shape = shape_of(type(state))
    out = shape.encode(state)
    for f in shape.fields:
        declared = f.visibility
        if declared is Visibility.PUBLIC:
            continue
        if declared is Visibility.SECRET:
            del out[f.key]
            continue
        now = f.reveal(state, seat) if f.reveal is not None else declared
        value = getattr(state, f.name)
        if declared in (Visibility.HIDDEN, Visibility.TOP):
            if declared is Visibility.TOP:
                out[f"{f.key}_top"] = _top(f.type, value, f"{shape.name}.{f.name} top")
            if f.sized:
                out[f"{f.key}_size"] = _size(value)
            if now is not Visibility.PUBLIC:
                out[f.key] = None
            continue
        sizes = f.sizes or f"{f.key}_sizes"
        if declared is Visibility.TOP_EACH:
            item, what = f.type.inner[0], f"{shape.name}.{f.name} top"
            out[f"{f.key}_tops"] = [_top(item, entry, what) for entry in value]
        if f.sized and _sized(f.type.inner[0]):  # entries that are not lists (a flag per seat) have no sizes
            out[sizes] = [_size(entry) for entry in value]
        if now is Visibility.PUBLIC:
            continue
        shown = typing.cast(list[Json], out[f.key])
        out[f.key] = [entry if (now is Visibility.OWN and s == seat) else None for s, entry in enumerate(shown)]
    for c in shape.computed:
        if c.view_only:
            out[c.name] = _writer(c.type, f"{shape.name}.{c.name}")(getattr(state, c.name))
    return out


# --------------------------------------------------------------------------- JSON Schema


Namer = Callable[[type], str]


class Schemas:
    """JSON Schema (the OpenAPI 3.1 dialect, JSON Schema 2020-12) of declared classes, each nested class a
    component named by ``namer``; ``components`` collects them as they are met."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer
        self.components: dict[str, JsonObject] = {}

    def ref(self, cls: type) -> JsonObject:
        name = self.namer(cls)
        if name not in self.components:
            self.components[name] = {}  # reserved: a class may refer to itself
            self.components[name] = self.object_schema(shape_of(cls))
        return {"$ref": f"#/components/schemas/{name}"}

    def object_schema(self, shape: Shape) -> JsonObject:
        props: dict[str, Json] = {}
        required: list[Json] = []
        if shape.kind is not None:
            props["kind"] = {"type": "string", "enum": [shape.kind]}
            required.append("kind")
        for f in shape.fields:
            props[f.key] = self.field_schema(f.type, f.doc)
            if f.required:
                required.append(f.key)
        for c in shape.computed:
            if not c.view_only:
                props[c.name] = self.field_schema(c.type, c.doc)
                if c.required:
                    required.append(c.name)
        out: JsonObject = {"type": "object", "additionalProperties": False, "properties": props}
        if required:
            out["required"] = required
        doc = (shape.cls.__doc__ or "").strip()
        if doc and not doc.startswith(f"{shape.cls.__name__}("):  # not the dataclass's generated signature
            out["description"] = " ".join(doc.split("\n\n")[0].split())
        return out

    def field_schema(self, t: _T, doc: str | None = None) -> JsonObject:
        out = self.schema(t)
        if doc:
            out = {"allOf": [out], "description": doc} if "$ref" in out else {**out, "description": doc}
        return out

    def schema(self, t: _T) -> JsonObject:
        k = t.kind
        out: JsonObject
        if k == "int":
            out = {"type": "integer", **_limits(t, "minimum", "maximum")}
        elif k == "bool":
            out = {"type": "boolean"}
        elif k == "float":
            out = {"type": "number"}
        elif k == "str":
            out = {"type": "string", **_limits(t, "minLength", "maxLength", length=True)}
            if t.pattern is not None:
                out["pattern"] = t.pattern
        elif k in ("enum", "literal", "oneof"):
            out = typed_enum(list(t.values))
        elif k == "optional":
            inner = self.schema(t.inner[0])
            out = nullable(inner)
        elif k == "list":
            out = {"type": "array", "items": self.schema(t.inner[0]), **_limits(t, "minItems", "maxItems", length=True)}
        elif k == "fixed":
            out = {"type": "array", "items": self.schema(t.inner[0]), "minItems": len(t.inner),
                   "maxItems": len(t.inner)}
        elif k == "mapping":
            out = {"type": "object", "additionalProperties": self.schema(t.inner[0])}
        elif k == "object":
            assert t.cls is not None
            out = self.ref(t.cls)
        elif k == "scalar":
            assert t.scalar is not None
            out = dict(t.scalar.schema)
        else:
            out = {}
        if t.doc and "$ref" not in out:
            out = {**out, "description": t.doc}
        return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def typed_enum(values: list[Any]) -> JsonObject:
    """An ``enum`` with a ``type`` (generated clients want one type per enum); values of several
    types become a ``oneOf`` of one typed enum per type."""
    kinds = sorted({_kind(v) for v in values})
    if len(kinds) == 1:
        return {"type": kinds[0], "enum": values}
    return {"oneOf": [{"type": k, "enum": [v for v in values if _kind(v) == k]} for k in kinds]}


def nullable(schema: JsonObject) -> JsonObject:
    """``schema`` or null, in OpenAPI 3.1 (JSON Schema 2020-12): a plain type gains ``"null"``
    (``type: [integer, "null"]``); an enum, a reference or a union becomes ``anyOf`` it and
    ``{type: null}`` (the form Redocly, openapi-typescript and openapi-python-client all read)."""
    kind = schema.get("type")
    if isinstance(kind, str) and not {"enum", "$ref", "oneOf", "anyOf", "allOf"} & set(schema):
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    doc = {"description": schema["description"]} if "description" in schema else {}
    inner = {k: v for k, v in schema.items() if k != "description"}
    every = inner.get("allOf")
    if list(inner) == ["allOf"] and isinstance(every, list) and len(every) == 1 and isinstance(every[0], dict):
        inner = every[0]
    return {"anyOf": [inner, {"type": "null"}], **doc}


def json_schema(cls: type, schemas: Schemas) -> JsonObject:
    """A reference to ``cls``'s component (made, with its nested classes', in ``schemas``)."""
    return schemas.ref(cls)


def view_schema(cls: type, schemas: Schemas, name: str, description: str = "") -> JsonObject:
    """The schema of :func:`view` of a ``cls`` (a component named ``name`` in ``schemas``)."""
    shape = shape_of(cls)
    props: dict[str, Json] = {}
    required: list[Json] = []
    for f in shape.fields:
        v = f.visibility
        if v is Visibility.SECRET:
            continue
        base = schemas.field_schema(f.type, f.doc)
        if not f.omit_none:  # a view is written, not read: every field but the optional ones is there
            required.append(f.key)
        if v is Visibility.PUBLIC:
            props[f.key] = base
            continue
        if v in (Visibility.HIDDEN, Visibility.TOP):
            props[f.key] = nullable(base)
            if v is Visibility.TOP:
                item = f.type.inner[0] if f.type.kind == "list" else f.type
                props[f"{f.key}_top"] = nullable(schemas.schema(item))
                required.append(f"{f.key}_top")
            if f.sized:
                props[f"{f.key}_size"] = {"type": "integer", "minimum": 0,
                                          "description": f"the number of items in `{f.key}`"}
                required.append(f"{f.key}_size")
            continue
        if f.type.kind != "list":
            raise TypeError(f"{cls.__name__}.{f.name}: {v.value} needs a list (one entry per seat)")
        entry = f.type.inner[0]
        array = {k: val for k, val in schemas.schema(f.type).items() if k != "items"}
        entries: JsonObject = {**array, "items": nullable(schemas.schema(entry))}
        if f.doc:
            entries["description"] = f.doc
        props[f.key] = entries
        sizes = f.sizes or f"{f.key}_sizes"
        if v is Visibility.TOP_EACH:
            item = entry.inner[0] if entry.kind == "list" else entry
            props[f"{f.key}_tops"] = {"type": "array", "items": nullable(schemas.schema(item))}
            required.append(f"{f.key}_tops")
        if f.sized and _sized(entry):
            props[sizes] = {"type": "array", "items": {"type": "integer", "minimum": 0},
                            "description": f"the number of items in each entry of `{f.key}`"}
            required.append(sizes)
    for c in shape.computed:
        props[c.name] = schemas.field_schema(c.type, c.doc)
        if c.view_only:
            required.append(c.name)
    out: JsonObject = {"type": "object", "additionalProperties": False, "required": required, "properties": props}
    if description:
        out["description"] = description
    schemas.components[name] = out
    return {"$ref": f"#/components/schemas/{name}"}


ClassVar  # noqa: B018  # re-exported for declarations' convenience
