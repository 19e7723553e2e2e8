"""The contract: ``openapi.yaml`` is current, and the app honours it (schemathesis, in process)."""

from __future__ import annotations

import os
from pathlib import Path

import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service.app import create_app
from service.config import TestConfig
from service.openapi import build_spec

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"

# A body over the configured limit is refused with 413 before its content is looked at.
CONFIG = SchemathesisConfig.from_dict({
    "checks": {"negative_data_rejection": {"expected-statuses": [400, 404, 405, 413, 415, 422]}},
    "generation": {"max-examples": int(os.environ.get("CONTRACT_EXAMPLES", 25))},
    "seed": 20261125,
})
# the file equals it (first test); an event stream never ends by itself (tests/service/test_events.py)
schema = schemathesis.openapi.from_dict(build_spec(), config=CONFIG).exclude(operation_id="sessionEvents")
schema.app = create_app(TestConfig)


def test_openapi_yaml_is_generated_from_the_schemas():
    """Regenerate with `make openapi` after changing a schema."""
    assert yaml.safe_load(SPEC.read_text()) == yaml.safe_load(yaml.safe_dump(build_spec()))


def test_served_contract_is_the_file(client):
    served = client.get("/openapi.yaml")
    assert served.status_code == 200
    assert yaml.safe_load(served.data) == yaml.safe_load(SPEC.read_text())


def test_docs_are_served_offline(client):
    page = client.get("/docs")
    assert page.status_code == 200 and b"/docs/static/swagger-ui-bundle.js" in page.data
    assert client.get("/docs/static/swagger-ui-bundle.js").status_code == 200


@schema.parametrize()
@settings(max_examples=int(os.environ.get("CONTRACT_EXAMPLES", 25)), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_honours_its_contract(case):
    """Every documented status, body and content type; no 5xx. ``positive_data_acceptance`` is
    left out on purpose: a state can match its JSON Schema and still be impossible (a lost
    card, a wrong turn), which the contract answers with a 422 problem."""
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_every_game_with_a_score_sheet_has_a_real_tally_example():
    """Each game that takes a ``tally`` shows one in its score operation, and the engine scores it."""
    from service.games import BINDINGS
    from service.openapi import _prefix

    spec = build_spec()
    for gid, b in BINDINGS.items():
        if not b.has_tally:
            continue
        media = spec["paths"][f"/v1/games/{gid}/score"]["post"]["requestBody"]["content"]["application/json"]
        assert "tally" in media["examples"], f"{gid}: no tally example (is TALLIES[{gid!r}] refused by the engine?)"
        tally = media["examples"]["tally"]["value"]["tally"]
        report = b.score({"tally": tally})
        points = report["points"]
        assert len(points) == len(report["totals"]) >= 2, gid
        assert spec["paths"][f"/v1/games/{gid}/score"]["post"]["tags"] == [_prefix(b)]


def test_views_of_other_games_match_the_view_schemas():
    """Every game's ``<Game>View`` schema (made from its declaration) holds the views of other seeded games, at every player count, for
    every seat and a spectator. OpenAPI 3.1's schemas are JSON Schema 2020-12 as they stand."""
    import random

    import jsonschema_rs

    from service.games import BINDINGS
    from service.openapi import _prefix

    spec = build_spec()
    components = {"schemas": spec["components"]["schemas"]}
    for gid, b in BINDINGS.items():
        e = b.engine
        check = jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{_prefix(b)}View",
                                             "components": components})
        for players in e.players:
            rnd, state = random.Random(players), b.new({"players": players, "seed": 7 + players})
            for step in range(60):
                acting = sorted(e.to_act(state))
                if step % 3 == 0 or not acting:
                    for seat in (*range(players), None):
                        view = e.view(state, seat)
                        errors = [str(err) for err in check.iter_errors(view)]
                        assert not errors, (gid, players, step, seat, errors[:3])
                if not acting:
                    break
                seat = rnd.choice(acting)
                state = e.apply(state, seat, rnd.choice(list(e.legal_moves(state, seat))))


def test_each_games_events_are_the_union_of_its_declared_event_classes():
    """``<Game>Event`` lists exactly the game's declared classes, each its own component named
    after it (``BackgammonOpeningRollEvent``), discriminated by ``type``; the apply answer, the
    session answer and a stream's move event carry a list of them, the log one list per move."""
    from rules.events import event_type
    from service.games import BINDINGS
    from service.openapi import _prefix

    schemas = build_spec()["components"]["schemas"]
    for b in BINDINGS.values():
        p, classes = _prefix(b), b.spec.event_classes
        refs = [f"#/components/schemas/{p}{cls.__name__}" for cls in classes]
        union = schemas[f"{p}Event"]
        assert [item["$ref"] for item in union["oneOf"]] == refs
        assert union["discriminator"] == {"propertyName": "type",
                                          "mapping": dict(zip(map(event_type, classes), refs, strict=True))}
        for cls, ref in zip(classes, refs, strict=True):
            component = schemas[ref.rsplit("/", 1)[1]]
            assert component["properties"]["type"]["enum"] == [event_type(cls)] and "type" in component["required"]
        for answer in (f"{p}Envelope", f"{p}Session", f"{p}SessionMoveEvent"):
            assert schemas[answer]["properties"]["events"]["items"] == {"$ref": f"#/components/schemas/{p}Event"}
        assert schemas[f"{p}SessionLog"]["properties"]["events"]["items"]["items"] == {
            "$ref": f"#/components/schemas/{p}Event"}


def test_events_of_played_games_match_their_games_event_schema():
    """Real events (random games of every game) are valid ``<Game>Event`` values: the contract's
    bounds, the move event's move and seat included. OpenAPI 3.1's schemas are JSON Schema."""
    import jsonschema_rs

    from service.games import BINDINGS
    from service.openapi import _prefix
    from tests.playout import random_steps

    components = {"schemas": build_spec()["components"]["schemas"]}
    for gid, b in BINDINGS.items():
        e = b.engine
        check = jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{_prefix(b)}Event",
                                             "components": components})
        types = set()
        for before, seat, move, after in random_steps(e, e.players.stop - 1, 5, max_moves=600):
            for event in e.events(before, seat, move, after):
                errors = [str(err) for err in check.iter_errors(event)]
                assert not errors, (gid, event, errors[:3])
                types.add(event["type"])
        assert len(types) > 1, (gid, types)
