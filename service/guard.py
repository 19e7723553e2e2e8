"""One client cannot take the service from others (DESIGN 4.9): the outermost WSGI layer.

- ``TRUSTED_PROXIES`` (comma-separated addresses): a request whose peer is one of them gets its
  client address from the last ``X-Forwarded-For`` entry (and scheme and host from
  ``X-Forwarded-Proto``/``-Host``), by werkzeug's ``ProxyFix``; from any other peer these
  headers are ignored, so no client can pick the address its limits are counted by.
- ``MAX_CONNECTIONS_PER_ADDRESS``: requests in progress per client address in this worker
  (a request counts until its response, an event stream included, is closed). Beyond it: 429
  ``request.too-many-connections`` at once, without reading the body, with ``Connection: close``
  (a request to the client: gunicorn decides itself whether to keep a connection). Thousands of stalled connections from one address then hold at most that many of
  the worker's connections; every other address is still answered.
- ``BODY_TIMEOUT``: under gunicorn's gevent worker (``make run``), a request body that has not
  fully arrived that many seconds after the request began is refused: 408
  ``request.body-timeout`` with ``Connection: close`` (each read of the body runs with the
  time left as the socket's timeout, which is reset once the app has read the request). (The gunicorn gevent worker already drops a connection whose
  headers do not arrive within its keep-alive time.)
- Security headers on every answer: ``X-Content-Type-Options: nosniff``; on HTML pages (``/play``,
  ``/docs``, ``/problems/<code>``) also a strict ``Content-Security-Policy`` (scripts, styles and
  connections from this origin only, no inline script, ``frame-ancestors 'none'``),
  ``X-Frame-Options: DENY`` (the playground's confirm button cannot be clickjacked) and
  ``Referrer-Policy: no-referrer`` (its links carry seat tokens).
- ``REQUEST_CPU_SECONDS``: the work one request may do in the app (``rules.deadline``), body
  reading and a stream's later events not counted. Beyond it: 503 ``request.too-much-work``.
  Under the gevent worker a sampler (``SIGALRM``) counts the time the request holds the worker's
  one thread and interrupts it wherever it is, so no request blocks the worker's other
  connections (``/healthz`` included) for longer, and none reaches gunicorn's worker timeout;
  under threads the long loops of the rules check the thread's CPU time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from werkzeug.middleware.proxy_fix import ProxyFix

from rules import deadline
from service import errors, i18n, ops
from service.errors import ApiError

if TYPE_CHECKING:
    from _typeshed.wsgi import InputStream, StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

T = TypeVar("T")

#: the policy of every HTML page: the playground and Swagger UI load everything from this origin;
#: Swagger UI draws its icons from data: URIs and sets inline styles (React's style attributes)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
_NOSNIFF = ("X-Content-Type-Options", "nosniff")
_HTML_HEADERS = [("Content-Security-Policy", CSP), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")]


def _secured(start_response: StartResponse) -> StartResponse:
    """``start_response`` adding the security headers: nosniff on every answer, the rest on HTML."""

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        headers = [*headers, _NOSNIFF]
        for k, v in headers:  # one Content-Type, first in every answer of ours: the loop ends at once
            if k.lower() == "content-type":
                if v.startswith("text/html"):
                    headers += _HTML_HEADERS
                break
        return start_response(status, headers, exc_info) if exc_info is not None else start_response(status, headers)

    return start


class BodyTimeout(ApiError):
    def __init__(self, seconds: float) -> None:
        super().__init__(408, "request.body-timeout", "Request body timed out",
                         f"the request body did not arrive within {seconds:g} s (BODY_TIMEOUT)",
                         headers={"Connection": "close"})


class _TimedInput:
    """``wsgi.input`` whose reads give up at ``deadline``: before each read the connection's
    socket gets the time left as its timeout (an attribute under gevent, no timer per request)."""

    def __init__(self, stream: InputStream, sock: Any, deadline: float, seconds: float) -> None:
        self._stream, self._sock, self._deadline, self._seconds = stream, sock, deadline, seconds

    def _timed(self, fn: Callable[..., T], *args: Any) -> T:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise BodyTimeout(self._seconds)
        self._sock.settimeout(left)
        try:
            return fn(*args)
        except TimeoutError:  # socket.timeout
            raise BodyTimeout(self._seconds) from None

    def read(self, *args: Any) -> bytes:
        return self._timed(self._stream.read, *args)

    def readline(self, *args: Any) -> bytes:
        return self._timed(self._stream.readline, *args)

    def readlines(self, *args: Any) -> list[bytes]:
        return self._timed(self._stream.readlines, *args)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")


class _Closing:
    """A response iterable that gives the address's place back once the server closes it."""

    __slots__ = ("_body", "_guard", "_address")

    def __init__(self, body: Iterable[bytes], guard: Guard | None, address: str) -> None:
        self._body, self._guard, self._address = body, guard, address

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._body)

    def close(self) -> None:
        guard, self._guard = self._guard, None
        if guard is None:
            return
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            guard._release(self._address)


class Guard:
    """WSGI middleware: trusted proxies, a per-address ceiling, the body deadline."""

    def __init__(self, app: Flask, inner: WSGIApplication) -> None:
        self.app, self.inner = app, inner
        config = app.config
        self.trusted = {p.strip() for p in (config.get("TRUSTED_PROXIES") or "").split(",") if p.strip()}
        self.proxied = ProxyFix(inner, x_for=1, x_proto=1, x_host=1)
        self.limit = int(config.get("MAX_CONNECTIONS_PER_ADDRESS") or 0)
        self.body_timeout = float(config.get("BODY_TIMEOUT") or 0)
        self.timed = self.body_timeout > 0 and ops.gevent_patched("socket")
        self._open: dict[str, int] = {}
        self.cpu_seconds = float(config.get("REQUEST_CPU_SECONDS") or 0)
        self.sampled = self.cpu_seconds > 0 and ops.gevent_patched("threading")
        self._sampler_pid = 0  # the process whose sampler runs (interval timers are not inherited by a fork)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        start_response = _secured(start_response)
        address = peer = environ.get("REMOTE_ADDR", "")
        trusted = peer in self.trusted
        if trusted:  # the client: the last X-Forwarded-For entry, as the trusted proxy appended it
            address = environ.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip() or peer
        if self.limit:
            # no lock: under gevent nothing runs between these two lines; under threads the
            # count of one address may be off by the requests that race it
            count = self._open.get(address, 0)
            if count >= self.limit:
                return self._refuse(environ, start_response, address)
            self._open[address] = count + 1
        sock = environ.get("gunicorn.socket") if self.timed else None
        if sock is not None:
            environ["wsgi.input"] = _TimedInput(environ["wsgi.input"], sock, time.monotonic() + self.body_timeout,
                                                self.body_timeout)
        app = self.proxied if trusted else self.inner
        if self.sampled and self._sampler_pid != os.getpid():
            self._sampler_pid = os.getpid()
            deadline.start_sampler()
        try:
            # the request's CPU budget (rules.deadline), closed before a refusal is written
            token = deadline.opened(self.cpu_seconds, self.sampled) if self.cpu_seconds > 0 else None
            try:
                body = app(environ, start_response)
            finally:
                if token is not None:
                    deadline.closed(token)
        except deadline.DeadlineExceeded as exc:
            body = self._answer(environ, start_response, errors.too_much_work(exc.seconds), "(too much work)")
        except BaseException:
            if self.limit:
                self._release(address)
            raise
        finally:
            if sock is not None:
                sock.settimeout(None)  # the body is read: writing the answer (a stream too) has no deadline
        return _Closing(body, self, address) if self.limit else body

    def _release(self, address: str) -> None:
        left = self._open.get(address, 1) - 1
        if left > 0:
            self._open[address] = left
        else:
            self._open.pop(address, None)

    def _refuse(self, environ: WSGIEnvironment, start_response: StartResponse, address: str) -> list[bytes]:
        exc = ApiError(429, "request.too-many-connections", "Too many connections",
                       f"this client address already has {self.limit} requests in progress "
                       "(MAX_CONNECTIONS_PER_ADDRESS): finish or close one first",
                       headers={"Retry-After": "1", "Connection": "close"})
        return self._answer(environ, start_response, exc, "(refused)")

    def _answer(self, environ: dict[str, Any], start_response: Callable[..., Any], exc: ApiError,
                route: str) -> list[bytes]:
        """A refusal made here, outside Flask: rendered, counted and logged as Flask's are."""
        rid = ops.request_id(environ.get("HTTP_X_REQUEST_ID"))
        from werkzeug.datastructures import LanguageAccept
        from werkzeug.http import parse_accept_header

        lang = i18n.negotiate(parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept))
        resp = errors.response(exc, lang, request_id=rid)
        resp.headers["X-Request-ID"] = rid
        ops.observe(self.app, environ.get("REQUEST_METHOD", ""), route, environ.get("PATH_INFO", ""), "",
                    exc.status, 0.0, rid)
        start_response(resp.status, resp.headers.to_wsgi_list())
        return [resp.get_data()]
