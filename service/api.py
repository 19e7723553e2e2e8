"""Thin views, shaped the same for every game: parse, hand to the binding, return JSON.

No game names and no try/except here: errors flow to ``service/errors.py``.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from functools import partial
from itertools import accumulate
from typing import Any, cast

import orjson
from flask import Blueprint, Response, current_app, request
from markupsafe import escape
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, ClientDisconnected, RequestEntityTooLarge, UnsupportedMediaType

from rules.base import excerpt
from rules.jsontypes import JsonObject, as_object
from service import errors, events, i18n, records, sessions
from service.errors import ApiError
from service.games import BINDINGS, GameBinding, get_binding
from service.openapi import contract_yaml
from service.schemas import common
from service.schemas.fast import compile_validator
from service.signing import StateSigner, load_state, signed, signer

bp = Blueprint("api", __name__)
Body = dict[str, Any]  # a request body its schema has checked: the schema, not this type, knows its members


def body(schema: type[Schema]) -> Body:
    """The request's JSON object, checked against ``schema`` (415, 400, 413 or 422 if not).

    Hostile input costs little and never reaches a validator it could overwhelm: at most
    ``MAX_BODY_BYTES`` are read however the body is sent (see ``parse`` for the rest)."""
    if not request.is_json:
        raise UnsupportedMediaType(f"send 'Content-Type: application/json', not {request.mimetype or 'nothing'!r}")
    return parse(_raw_body(current_app.config["MAX_CONTENT_LENGTH"]), schema)


def parse(raw: bytes, schema: type[Schema]) -> Body:
    """The JSON object in ``raw``, checked against ``schema`` (400 or 422 if not); nesting
    deeper than ``MAX_DEPTH`` levels is refused before any schema looks at it."""
    try:
        data = orjson.loads(raw)  # refuses NaN/Infinity, nesting deeper than 1024, ints beyond 64 bits
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"the body is not valid JSON: {str(exc)[:200]}") from None
    if too_deep(raw, MAX_DEPTH):
        raise errors.too_deep(MAX_DEPTH)
    if not isinstance(data, dict):
        raise ValidationError({"_schema": [f"the body must be a JSON object, not {type(data).__name__}"]})
    return _LOADERS[schema](data)


MAX_DEPTH = 64  # levels of arrays and objects in a body; the body object is level 1


def _raw_body(limit: int) -> bytes:
    """At most ``limit`` bytes of body, or 413: by ``Content-Length`` before reading, and for a
    body of unknown length (chunked) by reading at most ``limit + 1`` bytes from the stream."""
    length = request.content_length
    if length is not None:
        if length > limit:
            raise RequestEntityTooLarge()
        data = request.get_data(cache=False)
        if len(data) != length:
            raise ClientDisconnected()  # a body cut short (a half-closed socket): 400, as on the fast path
        return data
    if "wsgi.input_terminated" not in request.environ:
        return b""  # no length and a server that does not frame the body: nothing safe to read
    stream = request.environ["wsgi.input"]
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise RequestEntityTooLarge()
    return b"".join(chunks)


_NOT_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')  # every byte but brackets and quotes
_SIGNED = bytes.maketrans(b"[]{}", b"\x01\xff\x01\xff")  # opening +1, closing -1 (as signed bytes)


def too_deep(raw: bytes, limit: int) -> bool:
    """Whether valid JSON ``raw`` nests arrays and objects more than ``limit`` levels deep.

    Done on the bytes at C speed (a 240 KB body in about a millisecond, where walking the
    parsed values costs tens): escaped backslashes and quotes go, then everything but brackets
    and quotes; brackets inside strings go with the strings (two adjacent quotes close one
    string and open the next, or enclose nothing: dropping them keeps the pairing); the
    brackets left become +1/-1, and the deepest running sum is the nesting depth."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    structure = raw.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in structure:
        structure = b"".join(structure.split(b'"')[::2])
    return max(accumulate(array("b", structure.translate(_SIGNED))), default=0) > limit


def _loader(schema: type[Schema]) -> Callable[[Body], Body]:
    """The hot-path envelope (no defaults, no cross-field rules) uses the compiled check."""
    if schema is common.MoveRequest:
        return cast(Callable[[Body], Body], compile_validator(schema(), "body", nested=False))
    return schema().load


_LOADERS: dict[type[Schema], Callable[[Body], Body]] = {cls: _loader(cls) for cls in (
    common.NewGameRequest, common.StateRequest, common.ViewRequest, common.MoveRequest,
    common.ReplayRequest, common.RecordRequest, common.ScoreRequest, common.SessionCreateRequest, common.SessionMoveRequest,
)}


def bearer() -> str | None:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def store() -> sessions.SessionStore:
    return cast(sessions.SessionStore, current_app.extensions["arbiter.store"])


def notifier() -> events.Notifier:
    return cast(events.Notifier, current_app.extensions["arbiter.events"])


# --------------------------------------------------------------------------- catalogue


@bp.get("/v1/games")
def list_games() -> JsonObject:
    return {"games": [b.describe() for b in BINDINGS.values()]}


@bp.get("/v1/games/<game>")
def describe_game(game: str) -> JsonObject:
    return get_binding(game).describe()


# --------------------------------------------------------------------------- stateless


@bp.post("/v1/games/<game>/new")
def new_game(game: str) -> tuple[JsonObject, int]:
    binding = get_binding(game)
    state = binding.new(body(common.NewGameRequest))
    return signed(signer(), binding, binding.result(state), state), 201


# The four endpoints that read a state (and a seat, and a move): one function each, of the
# binding, the checked request, the signer and the answer's language (asked for only when a
# verdict refuses). The views below and the fast path (service/fastpath.py) both call them.

def _legal_moves(binding: GameBinding, req: Body, signer: StateSigner, lang: Callable[[], str]) -> JsonObject:
    return binding.legal_moves(load_state(signer, binding, req), req["seat"])


def _validate(binding: GameBinding, req: Body, signer: StateSigner, lang: Callable[[], str]) -> JsonObject:
    return binding.verdict(load_state(signer, binding, req), req["seat"], binding.load_move(req["move"]), lang)


def _apply(binding: GameBinding, req: Body, signer: StateSigner, lang: Callable[[], str]) -> JsonObject:
    new, events = binding.apply(load_state(signer, binding, req), req["seat"], binding.load_move(req["move"]))
    return signed(signer, binding, binding.result(new, events=events), new)


def _view(binding: GameBinding, req: Body, signer: StateSigner, lang: Callable[[], str]) -> JsonObject:
    return binding.view(load_state(signer, binding, req), req["seat"])


#: action -> (request schema, answer), for ``POST /v1/games/<game>/<action>``
STATELESS: dict[str, tuple[type[Schema], Callable[[GameBinding, Body, StateSigner, Callable[[], str]], JsonObject]]] = {
    "legal-moves": (common.StateRequest, _legal_moves),
    "validate": (common.MoveRequest, _validate),
    "apply": (common.MoveRequest, _apply),
    "view": (common.ViewRequest, _view),
}


def _stateless(action: str, game: str) -> JsonObject:
    schema, answer = STATELESS[action]
    binding = get_binding(game)  # an unknown game is 404 before the body is looked at
    return answer(binding, body(schema), signer(), lambda: i18n.negotiate(request.accept_languages))


# POST /v1/games/<game>/{legal-moves,validate,apply,view}: one route each, from the table above
# (endpoints api.legal_moves, api.validate, api.apply, api.view)
for _action in STATELESS:
    bp.add_url_rule(f"/v1/games/<game>/{_action}", endpoint=_action.replace("-", "_"),
                    view_func=partial(_stateless, _action), methods=["POST"])


@bp.post("/v1/games/<game>/replay")
def replay(game: str) -> JsonObject:
    binding = get_binding(game)
    req = _replay_body()
    if "record" in req:
        return records.replay(binding, req["record"])
    start = load_state(signer(), binding, req) if "state" in req else binding.new(req["new"])
    final, applied = binding.replay(start, req["moves"])
    return signed(signer(), binding, {**binding.result(final), "applied": applied}, final)


def _replay_body() -> Body:
    """A replay's body: up to ``MAX_RECORD_BYTES`` when it carries a ``record`` (analysed ``.sgf``
    files are megabytes), ``MAX_BODY_BYTES`` otherwise (413 past either)."""
    config = current_app.config
    limit = max(config["MAX_RECORD_BYTES"], config["MAX_CONTENT_LENGTH"])
    if not request.is_json:
        raise UnsupportedMediaType(f"send 'Content-Type: application/json', not {request.mimetype or 'nothing'!r}")
    request.max_content_length = limit
    raw = _raw_body(limit)
    if len(raw) > config["MAX_CONTENT_LENGTH"] and b'"record"' not in raw:
        raise RequestEntityTooLarge()
    req = parse(raw, common.ReplayRequest)
    if len(raw) > config["MAX_CONTENT_LENGTH"] and "record" not in req:
        raise RequestEntityTooLarge()
    return req


@bp.post("/v1/games/<game>/records")
def replay_record_file(game: str) -> JsonObject:
    """The record file itself as the body (``curl --data-binary @match.mat``), ``?format=mat|sgf``
    or sniffed; answered as ``replay`` with a record. Up to ``MAX_RECORD_BYTES``."""
    binding = get_binding(game)
    if request.mimetype in ("application/json", "multipart/form-data"):
        raise UnsupportedMediaType(f"send the file itself as 'Content-Type: text/plain', not {request.mimetype!r}")
    limit = current_app.config["MAX_RECORD_BYTES"]
    request.max_content_length = limit
    return records.replay_file(binding, _raw_body(limit), request.args.get("format"))


@bp.post("/v1/games/<game>/record")
def write_record(game: str) -> Response:
    return Response(records.write(get_binding(game), body(common.RecordRequest)), mimetype="text/plain")


@bp.post("/v1/games/<game>/score")
def score(game: str) -> JsonObject:
    binding = get_binding(game)
    req = body(common.ScoreRequest)
    if "tally" in req:
        return binding.score(req)
    return as_object(binding.engine.scores(load_state(signer(), binding, req)).to_json())


# --------------------------------------------------------------------------- sessions


@bp.after_request
def _sessions_not_cached(response: Response) -> Response:
    """Session answers are one seat's secrets and change with every move: never cached."""
    if request.path.startswith("/v1/sessions"):
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.before_request
def _session_requests_limited() -> None:
    """Every session request but a creation counts against ``SESSION_REQUESTS_PER_SECOND``."""
    if request.path.startswith("/v1/sessions/"):
        current_app.extensions["arbiter.limiter"].request(request.remote_addr)


@bp.post("/v1/sessions")
def create_session() -> tuple[JsonObject, int]:
    current_app.extensions["arbiter.limiter"].creation(request.remote_addr)
    req = body(common.SessionCreateRequest)
    return sessions.create(store(), get_binding(req.pop("game")), req), 201


@bp.get("/v1/sessions/<session_id>")
def get_session(session_id: str) -> JsonObject:
    return sessions.show(store(), BINDINGS, session_id, bearer())


@bp.post("/v1/sessions/<session_id>/moves")
def session_move(session_id: str) -> JsonObject:
    events_of = notifier()
    return sessions.move(store(), BINDINGS, session_id, bearer(), body(common.SessionMoveRequest),
                         on_move=lambda head: events_of.notify(session_id, head))


@bp.post("/v1/sessions/<session_id>/validate")
def session_validate(session_id: str) -> JsonObject:
    """A session move judged, not applied: 200 ``{"legal": true}`` or the problem the move would get."""
    return sessions.validate(store(), BINDINGS, session_id, bearer(), body(common.SessionMoveRequest))


@bp.get("/v1/sessions/<session_id>/legal-moves")
def session_legal_moves(session_id: str) -> JsonObject:
    return sessions.legal_moves(store(), BINDINGS, session_id, bearer())


@bp.get("/v1/sessions/<session_id>/log")
def session_log(session_id: str) -> Response | JsonObject:
    """The log as JSON, or with ``?format=mat`` as a match record (games that have one)."""
    fmt = request.args.get("format", "json")
    if fmt == "mat":
        return Response(sessions.log_record(store(), BINDINGS, session_id, bearer()), mimetype="text/plain")
    if fmt != "json":
        raise ValidationError({"format": [f"must be 'json' or 'mat', got {fmt[:20]!r}"]})
    return sessions.log(store(), BINDINGS, session_id, bearer())


@bp.get("/v1/sessions/<session_id>/events")
def session_events(session_id: str) -> Response:
    """Server-Sent Events (DESIGN 4.2); a browser's EventSource sends the token as ``access_token``."""
    cfg = current_app.config
    chunks = events.stream(
        store(), BINDINGS, notifier(), session_id, bearer() or request.args.get("access_token"),
        request.headers.get("Last-Event-ID"), heartbeat=cfg["EVENTS_HEARTBEAT"],
        resume_limit=cfg["EVENTS_RESUME_LIMIT"], show=sessions.show, seat_of=sessions.seat_of,
        max_streams=cfg["MAX_STREAMS_PER_SESSION"])
    return Response(chunks, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.delete("/v1/sessions/<session_id>")
def delete_session(session_id: str) -> tuple[str, int]:
    sessions.delete(store(), session_id, bearer())
    return "", 204


# --------------------------------------------------------------------------- operations


@bp.get("/v1/codes")
def list_codes() -> tuple[JsonObject, int, dict[str, str]]:
    lang = i18n.negotiate(request.accept_languages)
    return i18n.codes_json(lang), 200, {"Content-Language": lang, "Vary": "Accept-Language"}


_PROBLEM_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{code}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>{title}</h1><p><code>{code}</code> · HTTP {status}</p><p>{description}</p>
<p>{games_label}: {games}</p><p><a href="/v1/codes">/v1/codes</a></p></main></body></html>"""


@bp.get("/problems/<code>")
def describe_problem(code: str) -> Response | tuple[JsonObject, int, dict[str, str]]:
    """A problem's ``type`` links here (DESIGN 4.4): the code's catalogue entry, as JSON for a
    client that asks for it, else as a small HTML page in the negotiated language."""
    lang = i18n.negotiate(request.accept_languages)
    entry = i18n.catalogue().get(code)
    if entry is None:
        raise ApiError(404, "problem.unknown", "Unknown code",
                       f"no error code {excerpt(code)}: GET /v1/codes lists them", requested=excerpt(code))
    headers = {"Content-Language": lang, "Vary": "Accept, Accept-Language"}
    body = entry.to_json(lang)
    kind = request.accept_mimetypes.best_match(["application/json", "application/problem+json", "text/html"])
    if kind != "text/html" or not request.accept_mimetypes.accept_html:
        return body, 200, headers
    page = _PROBLEM_PAGE.format(
        lang=lang, code=escape(entry.code), title=escape(body["title"]), status=entry.status,
        description=escape(body.get("description", "")), games_label="Gry" if lang == "pl" else "Games",
        games=escape(", ".join(entry.games) or ("wszystkie" if lang == "pl" else "all")))
    return Response(page, mimetype="text/html", headers=headers)


@bp.get("/healthz")
def healthz() -> JsonObject:
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> JsonObject:
    store().ping()
    return {"status": "ready", "store": type(store()).__name__}


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(contract_yaml(), mimetype="application/yaml")


_DOCS = """<!doctype html>
<html><head><meta charset="utf-8"><title>Arbiter API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>"""
# a file of its own, not an inline script: the page's Content-Security-Policy allows no inline script
_DOCS_INIT = 'SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#ui"});\n'


@bp.get("/docs")
def docs() -> Response:
    return Response(_DOCS, mimetype="text/html")


@bp.get("/docs/init.js")
def docs_init() -> Response:
    return Response(_DOCS_INIT, mimetype="text/javascript")
