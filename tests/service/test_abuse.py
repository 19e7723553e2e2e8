"""One client cannot take the service from others (DESIGN 4.9), and the small defects of issue 19.

Bounded metric labels, log lines that stay one line, request ids without a newline; the client
address believed from ``X-Forwarded-For`` only when a ``TRUSTED_PROXIES`` proxy sends it; a
per-address ceiling on requests in progress; and, on the real `make run` server, a body that
stops arriving (408 after ``BODY_TIMEOUT``), a body cut short by a half-closed socket (400 on
the Flask path too), and hundreds of stalled connections from one address while another
address is answered.
"""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest

from service.app import create_app
from service.config import TestConfig
from service.ops import JsonFormatter, request_id
from tests.live import make_run


def test_a_made_up_http_method_is_one_metrics_label_other(client):
    for method in ("BREW", "WHEN", "X-1"):
        client.open("/healthz", method=method)
    text = client.get("/metrics").get_data(as_text=True)
    assert "BREW" not in text and "WHEN" not in text and 'method="OTHER"' in text


def test_a_log_line_with_unicode_line_separators_stays_one_line():
    record = logging.LogRecord("arbiter.access", logging.INFO, __file__, 1, "request", None, None)
    record.path = "/v1/games/a\u2028b\x85c\u2029d"
    line = JsonFormatter().format(record)
    assert len(line.splitlines()) == 1
    assert json.loads(line)["path"] == record.path


def test_a_request_id_with_a_trailing_newline_is_replaced():
    assert request_id("abc-1") == "abc-1"
    assert request_id("abc-1\n") != "abc-1\n"


def _create(client, addr: str, forwarded: str | None = None):
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post("/v1/sessions", json={"game": "take-that", "players": 2}, headers=headers,
                       environ_base={"REMOTE_ADDR": addr})


def test_x_forwarded_for_is_believed_from_trusted_proxies_only():
    """Behind a proxy, users get an allowance each; a client cannot pick a new address by header."""
    app = create_app(TestConfig, {"SESSIONS_PER_MINUTE": 1, "TRUSTED_PROXIES": "10.0.0.1"})
    client = app.test_client()
    assert _create(client, "10.0.0.1", "198.51.100.1").status_code == 201
    assert _create(client, "10.0.0.1", "198.51.100.2").status_code == 201  # another user behind the proxy
    again = _create(client, "10.0.0.1", "198.51.100.1")
    assert again.status_code == 429 and again.json["code"] == "session.rate-limited"
    assert _create(client, "203.0.113.5", "198.51.100.7").status_code == 201
    spoofed = _create(client, "203.0.113.5", "198.51.100.8")  # not a proxy: its header is ignored
    assert spoofed.status_code == 429 and spoofed.json["code"] == "session.rate-limited"


def test_requests_in_progress_per_address_are_capped():
    """MAX_CONNECTIONS_PER_ADDRESS: open event streams hold their place until closed."""
    app = create_app(TestConfig, {"MAX_CONNECTIONS_PER_ADDRESS": 2, "EVENTS_HEARTBEAT": 0.05})
    client = app.test_client()
    s = client.post("/v1/sessions", json={"game": "take-that", "players": 2}).json
    url = f"/v1/sessions/{s['id']}/events?access_token={s['owner_token']}"
    streams = [client.get(url, buffered=False, environ_base={"REMOTE_ADDR": "192.0.2.1"}) for _ in range(2)]
    assert all(r.status_code == 200 for r in streams)
    refused = client.get("/healthz", environ_base={"REMOTE_ADDR": "192.0.2.1"})
    assert refused.status_code == 429 and refused.json["code"] == "request.too-many-connections"
    assert refused.headers["Connection"] == "close" and refused.headers["Retry-After"]
    assert client.get("/healthz", environ_base={"REMOTE_ADDR": "192.0.2.2"}).status_code == 200
    streams[0].close()
    assert client.get("/healthz", environ_base={"REMOTE_ADDR": "192.0.2.1"}).status_code == 200


# --------------------------------------------------------------------------- the real server


@pytest.fixture(scope="module")
def server():
    env = {"BODY_TIMEOUT": "1", "MAX_CONNECTIONS_PER_ADDRESS": "50", "FAST_PATH": "0"}
    with make_run(env) as url:
        yield int(url.rsplit(":", 1)[1])


def _send(port: int, data: bytes, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=15, source_address=(source, 0))
    sock.sendall(data)
    return sock


def _answer(sock: socket.socket) -> tuple[int, dict]:
    data = b""
    while b"\r\n\r\n" not in data or len(data) < data.index(b"\r\n\r\n") + 4 + _length(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body else {}


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n")[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


def _post_head(path: str, length: int) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def test_a_body_that_stops_arriving_is_408_after_body_timeout(server):
    sock = _send(server, _post_head("/v1/sessions", 200) + b'{"game": "take')
    status, body = _answer(sock)
    sock.close()
    assert status == 408 and body["code"] == "request.body-timeout"


def test_a_body_cut_short_by_a_half_close_is_400_on_the_flask_path(server):
    sock = _send(server, _post_head("/v1/sessions", 200) + b'{"game": "take-that", "players": 2}')
    sock.shutdown(socket.SHUT_WR)
    status, body = _answer(sock)
    sock.close()
    assert status == 400, body


def test_stalled_bodies_from_one_address_leave_another_answered(server):
    stalled = [_send(server, _post_head("/v1/games/take-that/apply", 500) + b"{") for _ in range(300)]
    try:
        time.sleep(0.3)
        other = _send(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", source="127.0.0.2")
        assert _answer(other)[0] == 200
        other.close()
        status, body = _answer(stalled[-1])  # past the ceiling: refused at once, body unread
        assert status == 429 and body["code"] == "request.too-many-connections"
    finally:
        for sock in stalled:
            sock.close()


@pytest.mark.parametrize("fast_path", [True, False])
def test_cors_headers_are_the_same_on_both_paths(fast_path):
    """With CORS_ORIGINS set: no allow-origin without a matching Origin; Vary: Origin always."""
    app = create_app(TestConfig, {"CORS_ORIGINS": "https://table.example", "FAST_PATH": fast_path})
    client = app.test_client()
    made = client.post("/v1/games/take-that/new", json={"players": 2, "seed": 1}).json
    body = {"state": made["state"], "seat": made["to_act"][0]}
    plain = client.post("/v1/games/take-that/legal-moves", json=body)
    assert plain.status_code == 200 and "Access-Control-Allow-Origin" not in plain.headers
    assert "Access-Control-Expose-Headers" not in plain.headers and "Origin" in plain.headers.get("Vary", "")
    matching = client.post("/v1/games/take-that/legal-moves", json=body, headers={"Origin": "https://table.example"})
    assert matching.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "Origin" in matching.headers.get("Vary", "")
    other = client.post("/v1/games/take-that/legal-moves", json=body, headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers and "Origin" in other.headers.get("Vary", "")
