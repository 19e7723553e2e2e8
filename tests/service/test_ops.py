"""Operations (DESIGN 4.6): request ids, JSON logs, metrics, CORS."""

from __future__ import annotations

import json
import logging

import pytest

from service.app import create_app
from service.config import TestConfig


def test_request_id_is_echoed_or_made(client):
    given = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert given.headers["X-Request-ID"] == "abc-123"
    made = client.get("/healthz")
    assert len(made.headers["X-Request-ID"]) == 16
    hostile = client.get("/healthz", headers={"X-Request-ID": "x" * 500})
    assert hostile.headers["X-Request-ID"] != "x" * 500


def test_access_log_is_one_json_line_with_the_request_id_and_no_query(capsys):
    app = create_app(TestConfig, {"ACCESS_LOG": True})
    handler_stream = []

    class Capture(logging.Handler):
        def emit(self, record):
            handler_stream.append(self.format(record))

    from service.ops import JsonFormatter

    capture = Capture()
    capture.setFormatter(JsonFormatter())
    logging.getLogger("arbiter.access").addHandler(capture)
    try:
        app.test_client().get("/v1/games/take-that?access_token=secret", headers={"X-Request-ID": "rid-1"})
    finally:
        logging.getLogger("arbiter.access").removeHandler(capture)
    line = json.loads(handler_stream[-1])
    assert line["request_id"] == "rid-1" and line["status"] == 200
    assert line["route"] == "/v1/games/<game>" and line["game"] == "take-that"
    assert "secret" not in handler_stream[-1]


def test_metrics_count_requests_by_route_game_and_status(client):
    client.post("/v1/games/take-that/new", json={"players": 2, "seed": 1})
    client.post("/v1/games/take-that/new", json={"players": 9})
    text = client.get("/metrics").get_data(as_text=True)
    assert 'arbiter_requests_total{game="take-that",method="POST",route="/v1/games/<game>/new",status="201"} 1.0' in text
    assert 'status="422"' in text
    assert "arbiter_request_seconds_bucket" in text
    assert "arbiter_live_sessions" in text and "arbiter_open_event_streams" in text


def test_cors_allows_a_configured_origin_and_refuses_others():
    app = create_app(TestConfig, {"CORS_ORIGINS": "https://table.example"})
    c = app.test_client()
    ok = c.options("/v1/games", headers={"Origin": "https://table.example", "Access-Control-Request-Method": "GET"})
    assert ok.headers.get("Access-Control-Allow-Origin") == "https://table.example"
    other = c.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_no_cors_by_default(client):
    resp = client.get("/v1/games", headers={"Origin": "https://table.example"})
    assert "Access-Control-Allow-Origin" not in resp.headers


def test_made_up_game_ids_share_one_metrics_label(client):
    """A label per game id a client makes up would grow the metrics without bound."""
    for gid in ("nope-1", "nope-2", "nope-3"):
        assert client.post(f"/v1/games/{gid}/new", json={"players": 2}).status_code == 404
    text = client.get("/metrics").get_data(as_text=True)
    assert "nope-1" not in text and 'game="(unknown)"' in text


def test_latency_histogram_counts_each_request_in_its_bucket_and_above():
    """The histogram is counted by the app's own collector (service.ops.RequestCounts): each
    bucket holds the requests at or under its bound, +Inf all of them, and the sum their seconds."""
    from prometheus_client import CollectorRegistry, generate_latest

    from service.ops import RequestCounts

    counts = RequestCounts()
    registry = CollectorRegistry()
    registry.register(counts)
    for seconds in (0.0005, 0.003, 3.0):  # on a bound, between two, beyond the last
        counts.count("POST", "/r", "take-that", 200, seconds)
    counts.count("POST", "/r", "take-that", 422, 0.001)
    lines = dict(line.rsplit(" ", 1) for line in generate_latest(registry).decode().splitlines()
                 if not line.startswith("#"))
    bucket = 'arbiter_request_seconds_bucket{le="%s",method="POST",route="/r"}'
    assert [float(lines[bucket % le]) for le in ("0.0005", "0.001", "0.0025", "0.005", "2.5", "+Inf")] == [
        1, 2, 2, 3, 3, 4]
    assert float(lines['arbiter_request_seconds_count{method="POST",route="/r"}']) == 4
    assert float(lines['arbiter_request_seconds_sum{method="POST",route="/r"}']) == pytest.approx(3.0045)
    total = 'arbiter_requests_total{game="take-that",method="POST",route="/r",status="%d"}'
    assert float(lines[total % 200]) == 3 and float(lines[total % 422]) == 1
