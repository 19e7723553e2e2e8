"""Thin views, shaped the same for every game: parse, hand to the binding, return JSON.

No game names and no try/except here: errors flow to ``service/errors.py``.
"""

from __future__ import annotations

from functools import cache

import orjson
import yaml
from flask import Blueprint, Response, current_app, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from service import events, i18n, records, sessions
from service.games import BINDINGS, get_binding
from service.openapi import build_spec
from service.schemas import common
from service.schemas.fast import compile_validator
from service.signing import load_state, signed

bp = Blueprint("api", __name__)


def body(schema: type[Schema]) -> dict:
    """The request's JSON object, checked against ``schema`` (415, 400, 413 or 422 if not)."""
    if not request.is_json:
        raise UnsupportedMediaType(f"send 'Content-Type: application/json', not {request.mimetype or 'nothing'!r}")
    raw = request.get_data(cache=False)
    try:
        data = orjson.loads(raw)  # refuses NaN/Infinity, nesting deeper than 1024, ints beyond 64 bits
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"the body is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict):
        raise ValidationError({"_schema": [f"the body must be a JSON object, not {type(data).__name__}"]})
    return _LOADERS[schema](data)


def _loader(schema: type[Schema]):
    """The hot-path envelope (no defaults, no cross-field rules) uses the compiled check."""
    if schema is common.MoveRequest:
        return compile_validator(schema(), "body", nested=False)
    return schema().load


_LOADERS = {cls: _loader(cls) for cls in (
    common.NewGameRequest, common.StateRequest, common.ViewRequest, common.MoveRequest,
    common.ReplayRequest, common.RecordRequest, common.ScoreRequest, common.SessionCreateRequest, common.SessionMoveRequest,
)}


def bearer() -> str | None:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def store() -> sessions.SessionStore:
    return current_app.extensions["arbiter.store"]


def notifier() -> events.Notifier:
    return current_app.extensions["arbiter.events"]


# --------------------------------------------------------------------------- catalogue


@bp.get("/v1/games")
def list_games():
    return {"games": [b.describe() for b in BINDINGS.values()]}


@bp.get("/v1/games/<game>")
def describe_game(game: str):
    return get_binding(game).describe()


# --------------------------------------------------------------------------- stateless


@bp.post("/v1/games/<game>/new")
def new_game(game: str):
    binding = get_binding(game)
    state = binding.new(body(common.NewGameRequest))
    return signed(binding, binding.result(state), state), 201


@bp.post("/v1/games/<game>/legal-moves")
def legal_moves(game: str):
    binding = get_binding(game)
    req = body(common.StateRequest)
    return binding.legal_moves(load_state(binding, req), req["seat"])


@bp.post("/v1/games/<game>/validate")
def validate(game: str):
    binding = get_binding(game)
    req = body(common.MoveRequest)
    return binding.verdict(load_state(binding, req), req["seat"], binding.load_move(req["move"]))


@bp.post("/v1/games/<game>/apply")
def apply(game: str):
    binding = get_binding(game)
    req = body(common.MoveRequest)
    new, events = binding.apply(load_state(binding, req), req["seat"], binding.load_move(req["move"]))
    return signed(binding, binding.result(new, events=events), new)


@bp.post("/v1/games/<game>/replay")
def replay(game: str):
    binding = get_binding(game)
    req = body(common.ReplayRequest)
    if "record" in req:
        return records.replay(binding, req["record"])
    start = load_state(binding, req) if "state" in req else binding.new(req["new"])
    final, applied = binding.replay(start, req["moves"])
    return signed(binding, {**binding.result(final), "applied": applied}, final)


@bp.post("/v1/games/<game>/record")
def write_record(game: str):
    return Response(records.write(get_binding(game), body(common.RecordRequest)), mimetype="text/plain")


@bp.post("/v1/games/<game>/score")
def score(game: str):
    binding = get_binding(game)
    req = body(common.ScoreRequest)
    return binding.score(req) if "tally" in req else binding.engine.scores(load_state(binding, req)).to_json()


@bp.post("/v1/games/<game>/view")
def view(game: str):
    binding = get_binding(game)
    req = body(common.ViewRequest)
    return binding.view(load_state(binding, req), req["seat"])


# --------------------------------------------------------------------------- sessions


@bp.post("/v1/sessions")
def create_session():
    req = body(common.SessionCreateRequest)
    return sessions.create(store(), get_binding(req.pop("game")), req), 201


@bp.get("/v1/sessions/<session_id>")
def get_session(session_id: str):
    return sessions.show(store(), BINDINGS, session_id, bearer())


@bp.post("/v1/sessions/<session_id>/moves")
def session_move(session_id: str):
    out = sessions.move(store(), BINDINGS, session_id, bearer(), body(common.SessionMoveRequest))
    notifier().notify(session_id)
    return out


@bp.get("/v1/sessions/<session_id>/legal-moves")
def session_legal_moves(session_id: str):
    return sessions.legal_moves(store(), BINDINGS, session_id, bearer())


@bp.get("/v1/sessions/<session_id>/log")
def session_log(session_id: str):
    return sessions.log(store(), BINDINGS, session_id, bearer())


@bp.get("/v1/sessions/<session_id>/events")
def session_events(session_id: str):
    """Server-Sent Events (DESIGN 4.2); a browser's EventSource sends the token as ``access_token``."""
    cfg = current_app.config
    chunks = events.stream(
        store(), BINDINGS, notifier(), session_id, bearer() or request.args.get("access_token"),
        request.headers.get("Last-Event-ID"), heartbeat=cfg["EVENTS_HEARTBEAT"],
        resume_limit=cfg["EVENTS_RESUME_LIMIT"], show=sessions.show, seat_of=sessions.seat_of)
    return Response(chunks, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.delete("/v1/sessions/<session_id>")
def delete_session(session_id: str):
    sessions.delete(store(), session_id, bearer())
    return "", 204


# --------------------------------------------------------------------------- operations


@bp.get("/v1/codes")
def list_codes():
    lang = i18n.negotiate(request.accept_languages)
    return i18n.codes_json(lang), 200, {"Content-Language": lang, "Vary": "Accept-Language"}


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    store().ping()
    return {"status": "ready", "store": type(store()).__name__}


@cache
def _spec_yaml() -> str:
    return yaml.safe_dump(build_spec(), sort_keys=False, allow_unicode=True)


@bp.get("/openapi.yaml")
def openapi_yaml():
    return Response(_spec_yaml(), mimetype="application/yaml")


_DOCS = """<!doctype html>
<html><head><meta charset="utf-8"><title>Arbiter API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#ui"});</script>
</body></html>"""


@bp.get("/docs")
def docs():
    return Response(_DOCS, mimetype="text/html")
