"""Server-held games: the full state stays here, each seat sees only its view (DESIGN 4.1).

A session record is plain JSON (game, full state, version, hashed tokens, move log, the
``new`` parameters, whether the creator chose the seed). Stores keep records by id and
replace them only by compare-and-set on ``version``, so two concurrent moves on one version
never both land. Each store holds at most ``MAX_SESSIONS`` live sessions (503
``session.store-full`` beyond) and forgets a session ``SESSION_TTL`` seconds after its last use.

- ``MemoryStore``: one process (threads), the default. A background sweep (every
  ``SESSION_SWEEP_SECONDS``, and on creation when due) drops expired sessions without
  waiting for a read. More than one worker process is refused at start (``service.app``).
- ``RedisStore``: selected by ``REDIS_URL``; any number of workers and hosts share it.
  Lua scripts do the compare-and-set and the live-session count atomically; every read and
  write refreshes the TTL. A Redis that times out opens a circuit breaker: for
  ``REDIS_BACKOFF`` seconds every session call answers 503 at once instead of waiting
  ``REDIS_TIMEOUT`` again, then one call probes whether Redis is back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import threading
import time
import weakref
from typing import Any, Protocol

from service.errors import ApiError, session_not_found, stale_version, store_full, store_unavailable

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
    def create(self, session_id: str, record: Json) -> None: ...  # raises 503 store-full
    def get(self, session_id: str) -> Json: ...  # raises 404 ApiError
    def compare_and_set(self, session_id: str, version: int, record: Json) -> bool: ...
    def delete(self, session_id: str) -> None: ...
    def ping(self) -> None: ...  # raises 503 ApiError when the store is down
    def unavailable(self) -> bool: ...  # known down right now (no call made)


class MemoryStore:
    """Sessions in this process's memory, guarded by a lock; expired ones are swept."""

    def __init__(self, ttl: float, max_sessions: int, sweep_every: float = 60.0) -> None:
        self._ttl, self._max, self._sweep_every = ttl, max_sessions, sweep_every
        self._data: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()
        self._next_sweep = time.monotonic() + sweep_every
        _Sweeper.watch(self)

    def __len__(self) -> int:
        return len(self._data)

    def sweep(self) -> int:
        """Drop every expired session now; the number dropped."""
        with self._lock:
            return self._sweep_locked()

    def _sweep_locked(self) -> int:
        now = time.monotonic()
        self._next_sweep = now + self._sweep_every
        expired = [sid for sid, (until, _) in self._data.items() if until < now]
        for sid in expired:
            del self._data[sid]
        return len(expired)

    def sweep_if_due(self) -> None:
        if time.monotonic() >= self._next_sweep:
            self.sweep()

    def _live(self, session_id: str) -> str | None:
        item = self._data.get(session_id)
        if item is None:
            return None
        if item[0] < time.monotonic():
            del self._data[session_id]
            return None
        return item[1]

    def create(self, session_id: str, record: Json) -> None:
        _Sweeper.ensure_running()
        with self._lock:
            if len(self._data) >= self._max or time.monotonic() >= self._next_sweep:
                self._sweep_locked()
            if len(self._data) >= self._max:
                raise store_full(self._max)
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

    def unavailable(self) -> bool:
        return False


class _Sweeper:
    """One daemon thread for the process that sweeps every live MemoryStore when it is due
    (stores are held weakly; the thread is restarted after a fork)."""

    stores: weakref.WeakSet[MemoryStore] = weakref.WeakSet()
    thread: threading.Thread | None = None
    lock = threading.Lock()
    TICK = 0.5

    @classmethod
    def watch(cls, store: MemoryStore) -> None:
        cls.stores.add(store)
        cls.ensure_running()

    @classmethod
    def ensure_running(cls) -> None:
        if cls.thread is not None and cls.thread.is_alive():
            return
        with cls.lock:
            if cls.thread is None or not cls.thread.is_alive():
                cls.thread = threading.Thread(target=cls._run, name="arbiter-session-sweeper", daemon=True)
                cls.thread.start()

    @classmethod
    def _run(cls) -> None:
        while True:
            time.sleep(cls.TICK)
            for store in list(cls.stores):
                store.sweep_if_due()


# KEYS[1] = session key, KEYS[2] = index of live sessions (score: expiry time)
_NOW = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) + tonumber(t[2]) / 1e6\n"

# ARGV = record, ttl seconds, max sessions. 1 created, 0 full.
_CREATE = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2]))
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[4])
return 1
"""

# ARGV = ttl seconds, session id. The record (TTL refreshed) or nil.
_GET = _NOW + """
local raw = redis.call('GETEX', KEYS[1], 'EX', tonumber(ARGV[1]))
if raw then redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[1]), ARGV[2]) end
return raw
"""

# ARGV = expected version, new record, ttl seconds, session id. 1 replaced, 0 stale or gone.
_CAS = _NOW + """
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
if cjson.decode(raw)['version'] ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[3]), ARGV[4])
return 1
"""

# ARGV = session id. 1 deleted, 0 gone.
_DELETE = """
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
"""


class RedisStore:
    """Sessions in Redis as JSON strings under ``arbiter:session:<id>``, with a TTL; the
    sorted set ``arbiter:sessions`` indexes the live ones by expiry for ``MAX_SESSIONS``."""

    INDEX = "arbiter:sessions"

    def __init__(self, url: str, ttl: int, max_sessions: int, timeout: float = 2.0, backoff: float = 5.0) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._redis = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True,
            # one quick retry for a dropped connection (a restarted Redis); never wait out a timeout twice
            retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)),
        )
        self._ttl, self._max, self._timeout, self._backoff = int(ttl), max_sessions, timeout, backoff
        self._scripts = {name: self._redis.register_script(src) for name, src in
                         (("create", _CREATE), ("get", _GET), ("cas", _CAS), ("delete", _DELETE))}
        self._open_until = 0.0  # circuit breaker: no call to Redis before this (monotonic) time
        self._breaker = threading.Lock()

    @staticmethod
    def _key(session_id: str) -> str:
        return f"arbiter:session:{session_id}"

    def unavailable(self) -> bool:
        return time.monotonic() < self._open_until

    def _call(self, fn, *args, **kwargs):
        with self._breaker:
            now = time.monotonic()
            if now < self._open_until:
                raise store_unavailable(
                    "the session store (Redis) failed moments ago; not asking again until the back-off ends",
                    math.ceil(self._open_until - now))
            if self._open_until:  # the back-off is over: this call probes, the others still fail fast
                self._open_until = now + self._timeout + 1
        try:
            out = fn(*args, **kwargs)
        except self._errors as exc:
            with self._breaker:
                self._open_until = time.monotonic() + self._backoff
            raise store_unavailable(f"the session store (Redis) is unreachable: {type(exc).__name__}",
                                    math.ceil(self._backoff)) from exc
        if self._open_until:
            with self._breaker:
                self._open_until = 0.0
        return out

    def _script(self, name: str, session_id: str, *args):
        return self._call(self._scripts[name], keys=[self._key(session_id), self.INDEX], args=list(args))

    def create(self, session_id: str, record: Json) -> None:
        if not self._script("create", session_id, json.dumps(record), self._ttl, self._max, session_id):
            raise store_full(self._max)

    def get(self, session_id: str) -> Json:
        raw = self._script("get", session_id, self._ttl, session_id)
        if raw is None:
            raise session_not_found(session_id)
        return json.loads(raw)

    def compare_and_set(self, session_id: str, version: int, record: Json) -> bool:
        return bool(self._script("cas", session_id, version, json.dumps(record), self._ttl, session_id))

    def delete(self, session_id: str) -> None:
        if not self._script("delete", session_id, session_id):
            raise session_not_found(session_id)

    def ping(self) -> None:
        self._call(self._redis.ping)


def make_store(config: Json) -> SessionStore:
    if config.get("REDIS_URL"):
        return RedisStore(config["REDIS_URL"], config["SESSION_TTL"], config["MAX_SESSIONS"],
                          config["REDIS_TIMEOUT"], config["REDIS_BACKOFF"])
    return MemoryStore(config["SESSION_TTL"], config["MAX_SESSIONS"], config["SESSION_SWEEP_SECONDS"])


# --------------------------------------------------------------------------- operations
# Each takes the store and a binding (service.games.GameBinding) and returns response JSON.
# No response shows ``seed`` or ``rng`` before the game is over (views never carry ``rng``),
# and each says ``seeded``: whether the creator chose the seed (and so may know the deal).


def create(store: SessionStore, binding, req: Json) -> Json:
    seeded = req.get("seed") is not None
    seed = req["seed"] if seeded else secrets.token_hex(16)  # kept so the log replays after the game
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
        "seeded": seeded,
        "log": [],
    }
    store.create(session_id, record)
    return {
        "id": session_id,
        "game": record["game"],
        "version": 0,
        "seeded": seeded,
        "owner_token": owner,
        "seats": [{"seat": i, "token": t} for i, t in enumerate(seats)],
        "to_act": sorted(binding.engine.to_act(state)),
    }


def _open(store: SessionStore, bindings, session_id: str, token: str | None):
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    return record, seat, binding, binding.engine.from_json(record["state"])


def _about(session_id: str, record: Json, **members) -> Json:
    """The members every response about a session carries."""
    return {"id": session_id, "game": record["game"], "version": record["version"],
            "seeded": record.get("seeded", True), **members}


def show(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    out = binding.status(state)
    out.update(_about(session_id, record, seat=seat, state=binding.engine.view(state, seat)))
    return out


def legal_moves(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    if seat is None:
        out = {"seat": None, "moves": [], "complete": binding.engine.legal_moves_complete}
    else:
        out = binding.legal_moves(state, seat)
    return {**out, **_about(session_id, record)}


def move(store: SessionStore, bindings, session_id: str, token: str | None, req: Json) -> Json:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    if seat is None:
        raise ApiError(403, "session.owner-cannot-move", "Forbidden", "the owner token holds no seat; use a seat token")
    if req.get("version") is None:
        raise ApiError(422, "session.version-required", "Version required",
                       "name the session 'version' the move was made against (as in the last response)")
    version = record["version"]
    if req["version"] != version:
        raise stale_version(req["version"], version)
    acting = binding.engine.to_act(state)
    if acting and seat not in acting:
        raise ApiError(403, "session.not-your-turn", "Not your turn",
                       f"seat {seat} may not act now; to act: {sorted(acting)}", seat=seat)
    move_value = binding.load_move(req["move"])
    if binding.engine.carries_chance(move_value):
        raise ApiError(422, "session.chance-from-server", "Chance is the server's",
                       "in a session the server rolls the dice and deals: send the move without its outcome "
                       "(e.g. {\"kind\": \"roll\"})")
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
    out.update(_about(session_id, updated, seat=seat))
    return out


def log(store: SessionStore, bindings, session_id: str, token: str | None) -> Json:
    """The moves so far as the token's seat may see them (the owner: as a spectator); the seed
    only once the game is over, when the log and ``new`` replay the game with ``/replay``."""
    record, seat, binding, state = _open(store, bindings, session_id, token)
    over = binding.engine.outcome(state) is not None
    engine = binding.engine
    entries = []
    for item in record["log"]:
        shown = item["move"] if over else engine.move_view(engine.move_from_json(item["move"]), item["seat"], seat)
        entries.append({"seat": item["seat"], "move": shown} if shown is not None
                       else {"seat": item["seat"], "move": None, "hidden": True})
    new = dict(record["new"])
    if not over:
        new.pop("seed")
    return _about(session_id, record, new=new, moves=entries)


def log_record(store: SessionStore, bindings, session_id: str, token: str | None) -> str:
    """The moves so far as a match record (``.mat``), for any token of the session: a game with
    a record format (backgammon) has no hidden information, and the record shows only the rolls
    already made."""
    record, _, binding, _ = _open(store, bindings, session_id, token)
    from service import records  # records imports the binding machinery; imported late to keep this module light

    return records.session_log_mat(binding, record)


def delete(store: SessionStore, session_id: str, token: str | None) -> None:
    record = store.get(session_id)
    if seat_of(record, token) is not None:
        raise ApiError(403, "session.not-owner", "Forbidden", "only the session owner's token may delete it")
    store.delete(session_id)
