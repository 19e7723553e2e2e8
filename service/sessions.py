"""Server-held games: the full state stays here, each seat sees only its view.

A session record is plain JSON (game, full state, version, hashed tokens, move log, the
``new`` parameters). Stores keep records by id and replace them only by compare-and-set
on ``version``, so two concurrent moves on one version never both land.

- ``MemoryStore``: one process (threads), the default.
- ``RedisStore``: selected by ``REDIS_URL``; any number of workers and hosts share it.
  A Lua script does the compare-and-set atomically; every read and write refreshes the TTL.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from typing import Any, Protocol

from service.errors import ApiError, session_not_found, stale_version, store_unavailable

Json = Any


def new_token() -> str:
    """An unguessable token (256 bits from ``secrets``)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(record: Json, token: str | None) -> int | None:
    """The seat a token belongs to; ``None`` for the owner; 401/403 otherwise."""
    if not token:
        raise ApiError(401, "session.no-token", "Token required", "send 'Authorization: Bearer <seat token>'")
    digest = token_hash(token)
    for seat, seat_digest in enumerate(record["seat_tokens"]):
        if hmac.compare_digest(digest, seat_digest):
            return seat
    if hmac.compare_digest(digest, record["owner_token"]):
        return None
    raise ApiError(403, "session.wrong-token", "Forbidden", "this token belongs to no seat of this session")


class SessionStore(Protocol):
    def create(self, session_id: str, record: Json) -> None: ...
    def get(self, session_id: str) -> Json: ...  # raises 404 ApiError
    def compare_and_set(self, session_id: str, version: int, record: Json) -> bool: ...
    def delete(self, session_id: str) -> None: ...
    def ping(self) -> None: ...  # raises 503 ApiError when the store is down


class MemoryStore:
    """Sessions in this process's memory, guarded by a lock; expired ones vanish on access."""

    def __init__(self, ttl: int) -> None:
        self._ttl = ttl
        self._data: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def _live(self, session_id: str) -> str | None:
        item = self._data.get(session_id)
        if item is None:
            return None
        if item[0] < time.monotonic():
            del self._data[session_id]
            return None
        return item[1]

    def create(self, session_id: str, record: Json) -> None:
        with self._lock:
            self._data[session_id] = (time.monotonic() + self._ttl, json.dumps(record))

    def get(self, session_id: str) -> Json:
        with self._lock:
            raw = self._live(session_id)
            if raw is None:
                raise session_not_found(session_id)
            self._data[session_id] = (time.monotonic() + self._ttl, raw)
        return json.loads(raw)

    def compare_and_set(self, session_id: str, version: int, record: Json) -> bool:
        with self._lock:
            raw = self._live(session_id)
            if raw is None or json.loads(raw)["version"] != version:
                return False
            self._data[session_id] = (time.monotonic() + self._ttl, json.dumps(record))
            return True

    def delete(self, session_id: str) -> None:
        with self._lock:
            if self._live(session_id) is None:
                raise session_not_found(session_id)
            del self._data[session_id]

    def ping(self) -> None:
        return None


# KEYS[1] = session key; ARGV = expected version, new record, ttl seconds.
_CAS = """
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
if cjson.decode(raw)['version'] ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
"""


class RedisStore:
    """Sessions in Redis as JSON strings under ``arbiter:session:<id>``, with a TTL."""

    def __init__(self, url: str, ttl: int, timeout: float = 2.0) -> None:
        import redis

        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._redis = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True
        )
        self._ttl = ttl
        self._cas = self._redis.register_script(_CAS)

    @staticmethod
    def _key(session_id: str) -> str:
        return f"arbiter:session:{session_id}"

    def _call(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except self._errors as exc:
            raise store_unavailable(f"the session store (Redis) is unreachable: {type(exc).__name__}") from exc

    def create(self, session_id: str, record: Json) -> None:
        self._call(self._redis.set, self._key(session_id), json.dumps(record), ex=self._ttl)

    def get(self, session_id: str) -> Json:
        raw = self._call(self._redis.getex, self._key(session_id), ex=self._ttl)
        if raw is None:
            raise session_not_found(session_id)
        return json.loads(raw)

    def compare_and_set(self, session_id: str, version: int, record: Json) -> bool:
        done = self._call(self._cas, keys=[self._key(session_id)], args=[version, json.dumps(record), self._ttl])
        return bool(done)

    def delete(self, session_id: str) -> None:
        if not self._call(self._redis.delete, self._key(session_id)):
            raise session_not_found(session_id)

    def ping(self) -> None:
        self._call(self._redis.ping)


def make_store(config: Json) -> SessionStore:
    if config.get("REDIS_URL"):
        return RedisStore(config["REDIS_URL"], config["SESSION_TTL"], config["REDIS_TIMEOUT"])
    return MemoryStore(config["SESSION_TTL"])


# --------------------------------------------------------------------------- operations
# Each takes the store and a binding (service.games.GameBinding) and returns response JSON.


def create(store: SessionStore, binding, req: Json) -> Json:
    seed = req.get("seed")
    if seed is None:
        seed = secrets.token_hex(16)  # kept so the owner can replay the log after the game
    state = binding.new({**req, "seed": seed})
    owner, seats = new_token(), [new_token() for _ in range(req["players"])]
    session_id = secrets.token_urlsafe(16)  # 128 bits
    record = {
        "game": binding.engine.game_id,
        "version": 0,
        "state": binding.engine.to_json(state),
        "owner_token": token_hash(owner),
        "seat_tokens": [token_hash(t) for t in seats],
        "new": {"players": req["players"], "seed": seed, "options": req.get("options") or {},
                **({"setup": req["setup"]} if req.get("setup") is not None else {})},
        "log": [],
    }
    store.create(session_id, record)
    return {
        "id": session_id,
        "game": record["game"],
        "version": 0,
        "owner_token": owner,
        "seats": [{"seat": i, "token": t} for i, t in enumerate(seats)],
        "to_act": sorted(binding.engine.to_act(state)),
    }


def _open(store: SessionStore, bindings, session_id: str, token: str | None):
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    return record, seat, binding, binding.engine.from_json(record["state"])


def show(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    out = binding.status(state)
    out.update(id=session_id, game=record["game"], version=record["version"], seat=seat,
               state=binding.engine.view(state, seat))
    return out


def legal_moves(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    _, seat, binding, state = _open(store, bindings, session_id, token)
    if seat is None:
        return {"game": binding.engine.game_id, "seat": None, "moves": [],
                "complete": binding.engine.legal_moves_complete}
    return {"game": binding.engine.game_id, **binding.legal_moves(state, seat)}


def move(store: SessionStore, bindings, session_id: str, token: str | None, req: Json) -> Json:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    if seat is None:
        raise ApiError(403, "session.owner-cannot-move", "Forbidden", "the owner token holds no seat; use a seat token")
    version = record["version"]
    if req.get("version") is not None and req["version"] != version:
        raise stale_version(req["version"], version)
    acting = binding.engine.to_act(state)
    if acting and seat not in acting:
        raise ApiError(403, "session.not-your-turn", "Not your turn",
                       f"seat {seat} may not act now; to act: {sorted(acting)}", seat=seat)
    move_value = binding.load_move(req["move"])
    new, events = binding.apply(state, seat, move_value)
    updated = {
        **record,
        "version": version + 1,
        "state": binding.engine.to_json(new),
        "log": [*record["log"], {"seat": seat, "move": binding.engine.move_to_json(move_value)}],
    }
    if not store.compare_and_set(session_id, version, updated):
        raise stale_version(version, version + 1)
    out = binding.result(new, seat, events, full=False)
    out.update(id=session_id, game=record["game"], version=version + 1, seat=seat)
    return out


def log(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    """The moves so far; a seat sees hidden moves as hidden and the seed only at game end."""
    record, seat, binding, state = _open(store, bindings, session_id, token)
    over = binding.engine.outcome(state) is not None
    engine = binding.engine
    entries = []
    for item in record["log"]:
        shown = item["move"] if seat is None or over else engine.move_view(
            engine.move_from_json(item["move"]), item["seat"], seat)
        entries.append({"seat": item["seat"], "move": shown} if shown is not None
                       else {"seat": item["seat"], "move": None, "hidden": True})
    new = dict(record["new"])
    if seat is not None and not over:
        new.pop("seed")
    return {"id": session_id, "game": record["game"], "version": record["version"], "new": new, "moves": entries}


def delete(store: SessionStore, session_id: str, token: str | None) -> None:
    record = store.get(session_id)
    if seat_of(record, token) is not None:
        raise ApiError(403, "session.not-owner", "Forbidden", "only the session owner's token may delete it")
    store.delete(session_id)
