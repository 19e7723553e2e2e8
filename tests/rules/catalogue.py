"""The code-catalogue checks of every tests/rules/test_<game>.py (DESIGN 4.4).

Each game's file keeps its own real triggers (the situations that raise each code) and names
the codes its module's source holds; these helpers say what a catalogued raise must carry.
"""

from __future__ import annotations

import string
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

import pytest

from rules.base import ErrorCode, InvalidState, RulesError


def raise_of(action: Callable[[], object]) -> RulesError:
    """The rules error ``action`` raises (the test fails if it raises none)."""
    with pytest.raises(RulesError) as err:
        action()
    return err.value


class Raised(defaultdict):
    """code -> the rules errors raised with it, gathered by ``catch``."""

    def __init__(self) -> None:
        super().__init__(list)

    def catch(self, action: Callable[[], object]) -> None:
        try:
            action()
        except RulesError as exc:
            self[exc.code].append(exc)


def codes_checked(engine, state, moves: Iterable, seats: Iterable[int] = (0, 1)) -> set[str]:
    """The codes ``check`` raises for each of ``moves`` played by each of ``seats`` in ``state``;
    a catalogued code's Polish detail must format with the raise's context."""
    codes = set()
    for move in moves:
        for seat in seats:
            try:
                engine.check(state, seat, move)
            except RulesError as exc:
                codes.add(exc.code)
                if exc.code in engine.codes:
                    engine.codes[exc.code].detail_pl.format(**exc.context)
    return codes


def check_refused(engine, data, code: str, fields: Iterable[str]) -> None:
    """``from_json(data)`` raises ``code``; a ``<game>.bad-state`` (not of the declared shape)
    names as its field one of ``fields`` or a member of one."""
    with pytest.raises(InvalidState) as err:
        engine.from_json(data)
    assert err.value.code == code
    if code == f"{engine.game_id}.bad-state":
        assert err.value.context["field"].split(".")[0] in set(fields), err.value.context


def check_raise(engine, code: str, exc: RulesError) -> None:
    """A real raise of ``code``: catalogued, with English and Polish titles, and carrying every
    context member its Polish detail names; the template leaves no brace, the detail reads
    without ``None``, and the message shows no Python internals."""
    assert exc.code == code
    entry = engine.codes[code]
    if isinstance(entry, ErrorCode):  # a declared code: both titles, its description, its error class
        assert entry.title.en and entry.title.pl and entry.detail_pl and entry.description.en and entry.description.pl
        assert isinstance(exc, entry.error), (code, type(exc), entry.error)
    else:
        assert entry.title and entry.title_pl and entry.detail_pl, code
    wanted = {name for _, name, _, _ in string.Formatter().parse(entry.detail_pl) if name}
    assert wanted <= set(exc.context), (code, wanted - set(exc.context))
    assert not set("{}") & set(entry.detail_pl.format(**dict.fromkeys(wanted, ""))), (code, entry.detail_pl)
    text = entry.detail_pl.format(**exc.context)
    assert "None" not in text, (code, text)
    assert "None" not in exc.message and "Error" not in exc.message, (code, exc.message)


def check_catalogue(engine, named: Iterable[str], raised: Mapping[str, Iterable[RulesError]]) -> None:
    """The codes the module names, the catalogue and the codes raised are the same set, and
    every raise passes ``check_raise``."""
    codes = set(engine.codes)
    assert set(named) == codes, (set(named) - codes, codes - set(named))
    assert set(raised) == codes, (codes - set(raised), set(raised) - codes)
    for code, errors in raised.items():
        for exc in errors:
            check_raise(engine, code, exc)
