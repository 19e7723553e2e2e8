"""One registry (issue 12 §4): every engine in ``rules.registry.ENGINES`` has exactly one HTTP
binding in ``service.games.BINDINGS``, bound to that very engine, and no binding lacks an engine."""

from __future__ import annotations

from rules.registry import ENGINES
from service.games import BINDINGS


def test_every_engine_has_an_http_binding_and_every_binding_an_engine():
    unbound = sorted(set(ENGINES) - set(BINDINGS))
    orphans = sorted(set(BINDINGS) - set(ENGINES))
    assert not unbound, f"engines without an HTTP binding (add the schema module to service.games): {unbound}"
    assert not orphans, f"bindings whose game is not in rules.registry.ENGINES: {orphans}"


def test_each_binding_holds_the_registered_engine_in_registry_order():
    assert list(BINDINGS) == list(ENGINES)
    for gid, binding in BINDINGS.items():
        assert binding.engine is ENGINES[gid], gid
