"""Operations (DESIGN 4.6): request ids, JSON log lines, Prometheus metrics and CORS.

- ``X-Request-ID``: taken from the request when it is a short token, made otherwise, and
  echoed on every response; every log line of the request carries it.
- One JSON access line per request (method, route, path without its query string, so an
  ``access_token`` never reaches the log, status, milliseconds, request id).
- ``GET /metrics`` (prometheus-client): requests by route, game and status, latency
  histograms by route, live sessions and open event streams.
- ``CORS_ORIGINS`` (comma-separated, default none) through flask-cors.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import logging
import random
import re
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

from rules.registry import ENGINES, canonical_id

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}\Z")  # \Z: "$" would let a trailing newline through
#: the methods the metrics name; any other is counted as OTHER (a label per made-up method would
#: let any client grow /metrics without bound)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: line and paragraph separators that JSON may carry raw but splitlines() breaks a line at
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085",
                              "\x1c": "\\u001c", "\x1d": "\\u001d", "\x1e": "\\u001e"})
access_log = logging.getLogger("arbiter.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and extras."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("request_id", "method", "route", "path", "status", "ms", "game"):
            if hasattr(record, key):
                out[key] = getattr(record, key)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False).translate(_LINE_BREAKS)  # one record, one line


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            try:
                record.request_id = g.get("request_id")
            except RuntimeError:  # outside a request
                record.request_id = None
        return True


def gevent_patched(module: str) -> bool:
    """True under gunicorn's gevent worker (``make run``), which patches ``module`` (``socket``,
    ``threading`` ...): a request, or an event stream, is a greenlet of the worker's one loop."""
    try:
        from gevent import monkey  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - gevent is a dependency
        return False
    return bool(monkey.is_module_patched(module))


def configure_logging() -> None:
    """JSON lines on stderr for the ``arbiter`` and ``service`` loggers (idempotent)."""
    for name in ("arbiter", "service"):
        logger = logging.getLogger(name)
        if any(getattr(h, "_arbiter", False) for h in logger.handlers):
            continue
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler.addFilter(_RequestIdFilter())
        handler._arbiter = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def unpatched_lock() -> Any:
    """A plain lock, even under the gevent worker, which makes ``threading.Lock`` a lock of Python
    code: for the few sections of every request that never yield (a count, a cache's entry), where
    a greenlet can never wait on it."""
    from gevent import monkey  # a dependency of the service

    return monkey.get_original("_thread", "allocate_lock")()


#: the latency histogram's buckets, in seconds
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)


class RequestCounts:
    """``arbiter_requests_total`` (by method, route, game and status) and ``arbiter_request_seconds``
    (by method and route): counted in plain numbers under one plain lock, written out by
    prometheus-client's exposition when ``/metrics`` is read (a custom collector, as its docs
    describe). Its own ``Counter`` and ``Histogram`` take a lock per increment, three a request,
    each of Python code under the gevent worker: 4 µs of every request's 40."""

    def __init__(self) -> None:
        self._lock = unpatched_lock()
        self._requests: dict[tuple[str, str, str, str], int] = {}
        self._latency: dict[tuple[str, str], list[float]] = {}  # per bucket and +Inf, then the sum

    def count(self, method: str, route: str, game: str, status: int, seconds: float) -> None:
        key = (method, route, game, str(status))
        with self._lock:
            self._requests[key] = self._requests.get(key, 0) + 1
            row = self._latency.get((method, route))
            if row is None:
                row = self._latency[(method, route)] = [0.0] * (len(BUCKETS) + 2)
            row[bisect.bisect_left(BUCKETS, seconds)] += 1
            row[-1] += seconds

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            requests, latency = dict(self._requests), {k: list(v) for k, v in self._latency.items()}
        counter = CounterMetricFamily("arbiter_requests", "HTTP requests by route, game and status",
                                      labels=["method", "route", "game", "status"])
        for key, n in requests.items():
            counter.add_metric(list(key), n)
        yield counter
        histogram = HistogramMetricFamily("arbiter_request_seconds", "Request latency by route",
                                          labels=["method", "route"])
        bounds = [*map(floatToGoString, BUCKETS), "+Inf"]
        for route, row in latency.items():
            total, cumulative = 0.0, []  # (bound, observations at or under it)
            for bound, seen in zip(bounds, row[:-1], strict=True):  # the last is the sum
                total += seen
                cumulative.append((bound, total))
            histogram.add_metric(list(route), cumulative, row[-1])
        yield histogram


class Metrics:
    """The app's Prometheus collectors, in a registry of its own (one per app)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = RequestCounts()
        self.registry.register(self.requests)
        self.sessions = Gauge("arbiter_live_sessions", "Live sessions in the store", registry=self.registry)
        self.streams = Gauge("arbiter_open_event_streams", "Open event streams in this process",
                             registry=self.registry)


def request_id(given: str | None) -> str:
    """The request's ``X-Request-ID`` when it is a short token, else a new one (an id, not a secret)."""
    return given if given and _REQUEST_ID.match(given) else f"{random.getrandbits(64):016x}"


def observe(app: Flask, method: str, route: str, path: str, game: str, status: int, seconds: float,
            rid: str) -> None:
    """Count a finished request in the metrics and write its access line (Flask's hook and the
    fast path both end here). ``route`` is the URL rule; ``path`` goes to the log without its
    query string."""
    if method not in METHODS:
        method = "OTHER"
    if game and canonical_id(game) not in ENGINES:
        game = "(unknown)"  # a label per made-up game id would let any client grow the metrics without bound
    app.extensions["arbiter.metrics"].requests.count(method, route, game, status, seconds)
    if app.config.get("ACCESS_LOG", True):
        access_log.info("request", extra={"request_id": rid, "method": method, "route": route, "path": path,
                                          "status": status, "ms": round(seconds * 1000, 2), "game": game or None})


def cors_origins(config: Mapping[str, Any]) -> list[str]:
    """The origins ``CORS_ORIGINS`` allows (comma-separated; none by default)."""
    return [o.strip() for o in (config.get("CORS_ORIGINS") or "").split(",") if o.strip()]


def init_app(app: Flask) -> None:
    configure_logging()
    metrics = Metrics()
    app.extensions["arbiter.metrics"] = metrics

    app.extensions["arbiter.cors_origins"] = origins = cors_origins(app.config)  # as flask-cors was set up
    if origins:
        from flask_cors import CORS

        # always_send=False: no Access-Control-Allow-Origin without an Origin that matches
        CORS(app, origins=origins, always_send=False, expose_headers=["X-Request-ID", "Content-Language", "Retry-After"],
             allow_headers=["Content-Type", "Authorization", "Accept-Language", "Last-Event-ID", "X-Request-ID"],
             max_age=600)

    @app.before_request
    def _start() -> None:
        g.request_id = request_id(request.headers.get("X-Request-ID"))
        g.started = time.perf_counter()

    @app.after_request
    def _finish(resp: Response) -> Response:
        rid = g.get("request_id") or request_id(None)
        resp.headers["X-Request-ID"] = rid
        if origins:
            resp.vary.add("Origin")  # the answer depends on Origin whether or not one was sent
        route = request.url_rule.rule if request.url_rule is not None else "(unmatched)"
        observe(app, request.method, route, request.path, (request.view_args or {}).get("game", ""),
                resp.status_code, time.perf_counter() - g.get("started", time.perf_counter()), rid)
        return resp

    @app.get("/metrics")
    def _metrics() -> Response:
        store = app.extensions.get("arbiter.store")
        count = getattr(store, "count", None)
        if callable(count):
            with contextlib.suppress(Exception):  # a store that is down still lets /metrics answer
                metrics.sessions.set(count())
        notifier = app.extensions.get("arbiter.events")
        if notifier is not None:
            metrics.streams.set(notifier.open_streams)
        return Response(generate_latest(metrics.registry), mimetype=CONTENT_TYPE_LATEST)
