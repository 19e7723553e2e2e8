"""The stateless game endpoints without Flask's per-request machinery (issue 11).

``POST /v1/games/<game>/{apply,validate,legal-moves,view}`` is a referee's inner loop: a client
sends back the state it was given with one move. Flask's request and application contexts, URL
routing, hooks and response objects cost more than the engine's part of such a request (about
150 µs against 25-60 µs), so a WSGI middleware in front of the app, installed as
``app.wsgi_app`` (as werkzeug's ``ProxyFix`` is), answers these four itself:

- the same code: the answer functions of ``service.api.STATELESS``, the body parser
  ``service.api.parse``, the signer, and for any refusal the one renderer
  ``service.errors.response``; request ids, metrics and access lines through ``service.ops``;
- only when it can answer completely: a JSON body of known length within ``MAX_BODY_BYTES``, and
  no ``Origin`` when ``CORS_ORIGINS`` is set. Anything else (other paths and methods, chunked or
  oversized bodies, other content types, cross-origin requests, ``FAST_PATH=0``) goes to Flask
  untouched, which answers it as before.

Both ways give the same status, headers and body; ``tests/service/test_fastpath.py`` compares
them request by request.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import orjson
from flask import Flask
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import ClientDisconnected
from werkzeug.http import parse_accept_header

from service import errors, i18n, ops
from service.api import STATELESS, parse
from service.games import get_binding

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

_ROUTES = {action: f"/v1/games/<game>/{action}" for action in STATELESS}


def _length(environ: WSGIEnvironment) -> int | None:
    """The body's ``Content-Length``, or ``None`` when there is none (chunked) or it is not ASCII
    digits (``"²".isdigit()`` is true, and ``int()`` refuses it)."""
    text = environ.get("CONTENT_LENGTH", "")
    return int(text) if text.isascii() and text.isdigit() else None


def _json(content_type: str) -> bool:
    mimetype = content_type.partition(";")[0].strip().lower()
    return mimetype == "application/json"


class FastPath:
    """WSGI middleware: the four stateless game endpoints, answered without Flask."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.flask = app.wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        parts = path.split("/")
        config = self.app.config
        length = _length(environ)
        if (
            environ.get("REQUEST_METHOD") != "POST"
            or len(parts) != 5 or parts[1] != "v1" or parts[2] != "games" or not parts[3]
            or parts[4] not in _ROUTES
            or not path.isascii()  # werkzeug decodes other paths from UTF-8; leave that to it
            or not _json(environ.get("CONTENT_TYPE", ""))
            or length is None or length > config["MAX_CONTENT_LENGTH"]
            or ("HTTP_ORIGIN" in environ and self.app.extensions["arbiter.cors_origins"])  # flask-cors answers
            or not config.get("FAST_PATH", True)
        ):
            return self.flask(environ, start_response)
        return self._answer(environ, start_response, parts[3], parts[4], path, length)

    def _answer(self, environ: WSGIEnvironment, start_response: StartResponse, game: str, action: str, path: str,
                length: int) -> list[bytes]:
        started = time.perf_counter()
        rid = ops.request_id(environ.get("HTTP_X_REQUEST_ID"))
        schema, answer = STATELESS[action]
        try:
            binding = get_binding(game)  # an unknown game is 404 before the body is looked at, as in Flask
            raw = environ["wsgi.input"].read(length) if length else b""
            if len(raw) != length:
                raise ClientDisconnected()  # what werkzeug raises for a body cut short
            out = answer(binding, parse(raw, schema), self.app.extensions["arbiter.signer"], lambda: _lang(environ))
        except Exception as exc:  # noqa: BLE001 - every refusal is rendered by the one error renderer
            resp = errors.response(exc, _lang(environ), request_id=rid)
            resp.headers["X-Request-ID"] = rid
            status, headers, data = resp.status_code, resp.headers.to_wsgi_list(), resp.get_data()
            status_line = resp.status
        else:
            data = orjson.dumps(out, option=orjson.OPT_NON_STR_KEYS)
            status, status_line = 200, "200 OK"
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                       ("X-Request-ID", rid)]
        if self.app.extensions["arbiter.cors_origins"]:
            headers.append(("Vary", "Origin"))  # as Flask answers (service.ops): no Origin, no allow-origin
        ops.observe(self.app, "POST", _ROUTES[action], path, game, status, time.perf_counter() - started, rid)
        start_response(status_line, headers)
        return [data]


def _lang(environ: dict[str, Any]) -> str:
    return i18n.negotiate(parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept))
