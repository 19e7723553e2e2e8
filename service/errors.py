"""Every error becomes ``application/problem+json`` (RFC 9457), from this one module.

``type`` is a relative URI naming the kind of problem; rule errors add their stable
``code`` and context members (``seat``, ``index`` ...). Views never catch exceptions.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import orjson
from flask import Flask, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from rules.base import (
    GameOver,
    IllegalMove,
    InvalidOption,
    InvalidState,
    NotYourTurn,
    RulesError,
    UnknownGame,
    excerpt,
)
from rules.jsontypes import Json, JsonObject
from service import i18n

log = logging.getLogger(__name__)
PROBLEM_JSON = "application/problem+json"


class ApiError(Exception):
    """An HTTP-level refusal that is not a rules matter (sessions, tokens, store, limits).
    ``headers`` go on the response (``Retry-After``, ``WWW-Authenticate``)."""

    def __init__(self, status: int, code: str, title: str, detail: str, *, headers: dict[str, str] | None = None,
                 **extra: Json) -> None:
        super().__init__(detail)
        self.status, self.code, self.title, self.detail, self.extra = status, code, title, detail, extra
        self.headers = headers or {}


def session_not_found(session_id: str) -> ApiError:
    return ApiError(404, "session.not-found", "Session not found",
                    f"no session {excerpt(session_id)}: it may have expired, or been lost if the session store "
                    "restarted without persistence")


def stale_version(expected: int, actual: int) -> ApiError:
    return ApiError(
        409, "session.stale-version", "Stale version",
        f"the session is at version {actual}, not {expected}: reload and try again", version=actual,
    )


def store_unavailable(detail: str, retry_after: int = 1) -> ApiError:
    return ApiError(503, "session.store-unavailable", "Session store unavailable", detail,
                    headers={"Retry-After": str(max(1, retry_after))})


def store_busy() -> ApiError:
    return ApiError(503, "session.store-busy", "Session store busy",
                    "every connection to the session store is in use (REDIS_MAX_CONNECTIONS): try again in a moment",
                    headers={"Retry-After": "1"})


def store_full(limit: int) -> ApiError:
    return ApiError(503, "session.store-full", "Too many sessions",
                    f"the server holds its maximum of {limit} live sessions (MAX_SESSIONS): try again later",
                    headers={"Retry-After": "60"})


def too_much_work(seconds: float) -> ApiError:
    return ApiError(503, "request.too-much-work", "Too much work",
                    f"the request needed more than {seconds:g} s of CPU (REQUEST_CPU_SECONDS) and was stopped; "
                    "nothing was changed: send less at once (fewer moves, a shorter record)")


def not_replicated(version: int) -> ApiError:
    return ApiError(503, "session.not-replicated", "Move not replicated",
                    f"the move was written as version {version}, but no replica confirmed it in time: GET the "
                    f"session; at version {version} or later the move stands, before it the move was lost",
                    headers={"Retry-After": "1"}, version=version)


def too_deep(limit: int) -> ApiError:
    return ApiError(422, "request.too-deep", "Nested too deeply",
                    f"the body nests arrays and objects more than {limit} levels deep")


# (status, title) per rules error class; the most specific class wins.
_RULES = (
    (UnknownGame, 404, "Unknown game"),
    (GameOver, 422, "The game is over"),
    (NotYourTurn, 422, "Not your turn"),
    (IllegalMove, 422, "Illegal move"),
    (InvalidOption, 422, "Invalid option"),
    (InvalidState, 422, "Invalid state"),
    (RulesError, 422, "Rules error"),
)


def problem(status: int, code: str, title: str, detail: str, **members: Json) -> JsonObject:
    """A problem object; its ``type`` is the code's page, ``/problems/<code>``, which the
    service answers (DESIGN 4.4)."""
    return {"type": f"/problems/{code}", "title": title, "status": status, "detail": detail, "code": code,
            **members}


def problem_for(exc: Exception) -> JsonObject:
    """The problem object for any exception (used by handlers and by ``validate``)."""
    if isinstance(exc, RulesError):
        for cls, status, title in _RULES:
            if isinstance(exc, cls):
                return problem(status, exc.code, title, exc.message, **cast("dict[str, Json]", exc.context))
    if isinstance(exc, ValidationError):
        return problem(422, "request.invalid", "Invalid request", "the request does not match the schema",
                       errors=cast(JsonObject, flat_errors(exc.messages)))
    if isinstance(exc, ApiError):
        return problem(exc.status, exc.code, exc.title, exc.detail, **exc.extra)
    if isinstance(exc, HTTPException):
        status = exc.code or 500
        slug = (exc.name or "error").lower().replace(" ", "-")
        return problem(status, f"http.{slug}", exc.name, exc.description or exc.name)
    return problem(500, "server.internal", "Internal Server Error", "the server failed; the error was logged")


def flat_errors(messages: Any, path: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages (``{"state": {"hands": {1: ["..."]}}}``) as one level, by
    dotted path (``{"state.hands.1": ["..."]}``), in a stable order: what a client reads and what
    the contract can type."""
    if isinstance(messages, dict):
        out: dict[str, list[str]] = {}
        for key in sorted(messages, key=str):
            out.update(flat_errors(messages[key], f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {path or "_schema": list(messages)}
    if isinstance(messages, list):
        out = {}
        for item in messages:
            for key, value in flat_errors(item, path).items():
                out.setdefault(key, []).extend(value)
        return out
    return {path or "_schema": [str(messages)]}


def response(exc: Exception, lang: str, request_id: str | None = None) -> Response:
    """The problem+json response for any exception, in ``lang``: the one renderer, used by the
    Flask handlers below and by the fast path (``service/fastpath.py``). An exception that is
    not a known refusal is logged with its traceback and answered 500."""
    if isinstance(exc, HTTPException):
        headers = {k: v for k, v in exc.get_headers() if k.lower() in ("allow", "retry-after")}
    elif isinstance(exc, (RulesError, ValidationError, ApiError)):
        headers = getattr(exc, "headers", None) or {}
    else:
        headers = {}
        log.error("unhandled error", exc_info=exc, extra={} if request_id is None else {"request_id": request_id})
    body = i18n.localize(problem_for(exc), lang)
    resp = Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status=cast(int, body["status"]),
                    mimetype=PROBLEM_JSON)
    resp.headers["Content-Language"] = lang
    for key, value in headers.items():
        resp.headers[key] = value
    if body["status"] == 401:
        resp.headers.setdefault("WWW-Authenticate", "Bearer")  # RFC 6750: the scheme the token goes in
    return resp


def register(app: Flask) -> None:
    @app.errorhandler(Exception)  # HTTPException included (Flask returns routing redirects itself)
    def _any(exc: Exception) -> Response:
        return response(exc, i18n.negotiate(request.accept_languages))
