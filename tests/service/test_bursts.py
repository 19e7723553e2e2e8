"""One client against everyone (DESIGN 4.9), on a real server as `make run` starts it.

- A burst of reads never makes a healthy Redis "unavailable": the pool waits for a connection
  (``REDIS_MAX_CONNECTIONS``, ``REDIS_POOL_TIMEOUT``) and an exhausted pool is "busy", which
  never opens the breaker; session requests are limited per address
  (``SESSION_REQUESTS_PER_SECOND``, 429), and another address is answered meanwhile.
- ``SESSIONS_PER_MINUTE`` holds exactly under a burst on a cold server (memory and Redis).
- A full store of sessions nobody has moved in never answers ``store-full``: each creation takes
  one eviction candidate atomically, so concurrent creations never fight over one.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections import Counter
from typing import Any

import pytest

from service.sessions import PoolBusy, RedisStore
from tests.live import make_run, redis_server
from tests.service.burst import burst, request_bytes

GAME = "mak-yek"


def _post(url: str, body: dict[str, Any], source: str = "127.0.0.1") -> tuple[int, dict[str, Any]]:
    return burst(url, request_bytes("POST", "/v1/sessions", body), 1, source=source)[0]


def _codes(answers: list[tuple[int, dict[str, Any]]]) -> Counter[str]:
    return Counter(f"{status} {body.get('code', '')}".strip() for status, body in answers)


def test_an_exhausted_pool_is_busy_not_down(redis_url: str) -> None:
    store = RedisStore(redis_url, ttl=60, max_sessions=10, timeout=1.0, pool_size=1, pool_timeout=0.1)
    held = store._redis.connection_pool.get_connection()
    try:
        with pytest.raises(PoolBusy):
            store._redis.connection_pool.get_connection()
        with pytest.raises(Exception) as caught:
            store.get("no-such-session")
        assert getattr(caught.value, "code", None) == "session.store-busy"
        assert not store.unavailable(), "a busy pool opens no breaker"
    finally:
        store._redis.connection_pool.release(held)
    with pytest.raises(Exception) as caught:
        store.get("no-such-session")
    assert getattr(caught.value, "code", None) == "session.not-found"


def test_a_burst_of_400_reads_from_one_address_leaves_redis_available_and_others_answered() -> None:
    """A pool of 4 connections for 256 requests in progress (the address's connection cap): they
    wait for a connection in turn, none is told the store is unavailable."""
    with redis_server() as (redis_url, _, _), \
            make_run({"REDIS_URL": redis_url, "REDIS_MAX_CONNECTIONS": "4"}, WORKERS="1") as url:
        status, made = _post(url, {"game": GAME, "players": 2})
        assert status == 201, made
        read = request_bytes("GET", f"/v1/sessions/{made['id']}", headers={"Authorization": f"Bearer {made['owner_token']}"})
        other: list[tuple[int, dict[str, Any]]] = []

        def meanwhile() -> None:
            time.sleep(0.1)  # the burst's connections are open and sent
            other.extend(burst(url, read, 1, source="127.0.0.2"))

        thread = threading.Thread(target=meanwhile)
        thread.start()
        answers = burst(url, read, 400)
        thread.join(60)
        codes = _codes(answers)
        assert set(codes) <= {"200", "429 session.too-many-requests", "429 request.too-many-connections"}, codes
        assert codes["200"] > 0
        assert other and other[0][0] == 200, other
        assert json.loads(urllib.request.urlopen(f"{url}/readyz", timeout=5).read())["status"] == "ready"


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_sessions_per_minute_is_exact_under_a_burst_on_a_cold_server(store: str) -> None:
    env = {"SESSIONS_PER_MINUTE": "30", "SESSION_REQUESTS_PER_SECOND": "0"}
    with redis_server() as (redis_url, _, _):
        if store == "redis":
            env["REDIS_URL"] = redis_url
        with make_run(env, WORKERS="2" if store == "redis" else "1") as url:
            answers = burst(url, request_bytes("POST", "/v1/sessions", {"game": GAME, "players": 2}), 200)
    codes = _codes(answers)
    assert codes["201"] == 30, codes
    assert codes["429 session.rate-limited"] == 170, codes


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_full_store_of_unplayed_sessions_never_answers_store_full(store: str) -> None:
    env = {"MAX_SESSIONS": "20", "SESSIONS_PER_MINUTE": "100000", "SESSION_REQUESTS_PER_SECOND": "0"}
    with redis_server() as (redis_url, _, _):
        if store == "redis":
            env["REDIS_URL"] = redis_url
        with make_run(env, WORKERS="2" if store == "redis" else "1") as url:
            first = burst(url, request_bytes("POST", "/v1/sessions", {"game": GAME, "players": 2}), 20)
            assert _codes(first) == Counter({"201": 20})
            answers = burst(url, request_bytes("POST", "/v1/sessions", {"game": GAME, "players": 2}), 100)
            live = json.loads(urllib.request.urlopen(f"{url}/readyz", timeout=5).read())
    codes = _codes(answers)
    assert codes == Counter({"201": 100}), codes
    assert live["status"] == "ready"
