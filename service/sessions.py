"""Server-held games: the full state stays here, each seat sees only its view (DESIGN 4.1, 4.9).

A session is stored in three parts, so a move costs the same at move 1,500 as at move 100:

- the *head*: game, version, full state, hashed tokens, the ``new`` parameters, ``seeded`` and
  the last move (``last``), replaced as a whole on every move (its size does not grow with the
  game's length);
- the *log*: one entry per move, appended (a Redis list: ``RPUSH``), never rewritten;
- *checkpoints*: the state after every ``CHECKPOINT_EVERY`` moves, so an event stream that
  resumes replays at most that many moves plus the ones it missed.

A move is a compare-and-set on ``version`` that replaces the head and appends one log entry
atomically: two concurrent moves on one version never both land. Each store holds at most
``MAX_SESSIONS`` live sessions; when full, the session created longest ago that has had no move
yet is dropped for the new one (DESIGN 4.9), and 503 ``session.store-full`` answers only when
every live session has had a move. A session expires ``SESSION_TTL`` seconds after its creation
or last move; reads and open event streams do not keep it alive.

- ``MemoryStore``: one process (threads or greenlets), the default. A background sweep (every
  ``SESSION_SWEEP_SECONDS``, and on creation when due) drops expired sessions without waiting
  for a read. More than one worker process is refused at start (``service.app``).
- ``RedisStore``: selected by ``REDIS_URL``; any number of workers and hosts share it. Keys of
  one session share a hash slot (``arbiter:{<id>}:head``, ``:log``, ``:ckpt``), and every
  script touches one session's keys only, so ``REDIS_CLUSTER=1`` runs it on a Redis Cluster.
  Live sessions are counted in 16 bucket sorted sets, each in a slot of its own spread over the
  slot space (``arbiter:{<bucket tag>}:live`` by expiry, ``:fresh`` by creation for sessions
  without a move), summed at creation: no cross-slot index. The count is not atomic with the
  creation, so concurrent creations on several hosts may pass ``MAX_SESSIONS`` by how many race;
  each creation that finds the store full evicts one session, picked atomically (``ZPOPMIN``), so
  racing creations never fight over one candidate and a store of unplayed sessions is never full.
  On a cluster a move is acknowledged only once ``WAIT 1 REDIS_WAIT_MS`` on the shard's master
  says a replica has it, when the shard has a replica: a failover loses no acknowledged move. A
  move no replica confirmed in time is written on the master but answered 503
  ``session.not-replicated`` with its version (GET the session to learn whether it stands); a
  shard whose replica is gone (``connected_slaves`` 0) keeps playing. A Redis that times out
  opens a circuit breaker: for ``REDIS_BACKOFF`` seconds every session call answers 503 at once,
  then one call probes whether Redis is back. Connections come from a pool that waits for a free
  one (``WaitingPool``); a pool exhausted for its timeout is 503 ``session.store-busy``, which
  opens no breaker (Redis is up).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import math
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, TypeVar, cast

import redis

from rules.jsontypes import Json, JsonObject
from service.errors import (
    ApiError,
    not_replicated,
    session_not_found,
    stale_version,
    store_busy,
    store_full,
    store_unavailable,
)

if TYPE_CHECKING:
    from service.games import GameBinding

T = TypeVar("T")


class LogEntry(TypedDict):
    """One move of a session's log: the seat and its move's JSON."""

    seat: int
    move: Json
    events: NotRequired[list[Json]]  # what the move did, where the entry keeps it


class Record(TypedDict):
    """A session's head as the store keeps it (``create`` writes it, each move replaces it)."""

    game: str
    version: int
    state: Json
    owner_token: str  # token_hash of each token, never the token
    seat_tokens: list[str]
    new: JsonObject  # players, seed, options (and setup): what replays the game from its log
    seeded: NotRequired[bool]
    last: LogEntry | None  # the newest log entry, for the event of the newest move


class RecordWithLog(Record):
    log: list[LogEntry]  # the whole log (a record written from a session)

CHECKPOINT_EVERY = 100  # moves between two stored states (resume cost of an event stream)


def new_token() -> str:
    """An unguessable token (256 bits from ``secrets``)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(record: Record, token: str | None) -> int | None:
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
    def create(self, session_id: str, head: Record) -> None: ...  # raises 503 store-full
    def get(self, session_id: str) -> Record: ...  # the head; raises 404 ApiError
    def log(self, session_id: str, start: int = 0, stop: int | None = None) -> list[LogEntry]: ...
    def checkpoint(self, session_id: str, version: int) -> tuple[int, Json] | None: ...
    def append(self, session_id: str, version: int, head: Record, entry: LogEntry) -> bool: ...
    def delete(self, session_id: str) -> None: ...
    def count(self) -> int: ...
    def ping(self) -> None: ...  # raises 503 ApiError when the store is down
    def unavailable(self) -> bool: ...  # known down right now (no call made)
    def hit(self, key: str, window: float) -> tuple[int, float]: ...  # (hits in the window, seconds left)


class _Session:
    __slots__ = ("head", "log", "ckpt", "until")

    def __init__(self, head: str, until: float) -> None:
        self.head, self.until = head, until
        self.log: list[str] = []
        self.ckpt: dict[int, str] = {}


class MemoryStore:
    """Sessions in this process's memory, guarded by a lock; expired ones are swept."""

    def __init__(self, ttl: float, max_sessions: int, sweep_every: float = 60.0) -> None:
        self._ttl, self._max, self._sweep_every = ttl, max_sessions, sweep_every
        self._data: dict[str, _Session] = {}
        self._fresh: OrderedDict[str, None] = OrderedDict()  # sessions without a move, oldest first
        self._lock = threading.Lock()
        self._next_sweep = time.monotonic() + sweep_every
        self._hits: dict[str, tuple[int, float]] = {}  # rate-limit key -> (hits, end of its window)
        _Sweeper.watch(self)

    def __len__(self) -> int:
        return len(self._data)

    def count(self) -> int:
        return len(self._data)

    def sweep(self) -> int:
        """Drop every expired session now; the number dropped."""
        with self._lock:
            return self._sweep_locked()

    def _sweep_locked(self) -> int:
        now = time.monotonic()
        self._next_sweep = now + self._sweep_every
        expired = [sid for sid, s in self._data.items() if s.until < now]
        for sid in expired:
            self._drop(sid)
        for key in [k for k, (_, end) in self._hits.items() if end <= now]:
            del self._hits[key]
        return len(expired)

    def _drop(self, session_id: str) -> None:
        del self._data[session_id]
        self._fresh.pop(session_id, None)

    def sweep_if_due(self) -> None:
        if time.monotonic() >= self._next_sweep:
            self.sweep()

    def _live(self, session_id: str) -> _Session | None:
        item = self._data.get(session_id)
        if item is None:
            return None
        if item.until < time.monotonic():
            self._drop(session_id)
            return None
        return item

    def create(self, session_id: str, head: Record) -> None:
        _Sweeper.ensure_running()
        with self._lock:
            if len(self._data) >= self._max or time.monotonic() >= self._next_sweep:
                self._sweep_locked()
            while len(self._data) >= self._max and self._fresh:
                self._drop(next(iter(self._fresh)))  # the oldest session nobody has moved in
            if len(self._data) >= self._max:
                raise store_full(self._max)
            self._data[session_id] = _Session(json.dumps(head), time.monotonic() + self._ttl)
            self._fresh[session_id] = None

    def get(self, session_id: str) -> Record:
        with self._lock:
            item = self._live(session_id)
            if item is None:
                raise session_not_found(session_id)
            raw = item.head
        return cast(Record, json.loads(raw))

    def log(self, session_id: str, start: int = 0, stop: int | None = None) -> list[LogEntry]:
        with self._lock:
            item = self._live(session_id)
            if item is None:
                raise session_not_found(session_id)
            raw = item.log[start:stop]
        return [json.loads(x) for x in raw]

    def checkpoint(self, session_id: str, version: int) -> tuple[int, Json] | None:
        at = version // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        with self._lock:
            item = self._live(session_id)
            raw = item.ckpt.get(at) if item is not None and at else None
        return None if raw is None else (at, json.loads(raw))

    def append(self, session_id: str, version: int, head: Record, entry: LogEntry) -> bool:
        raw_head, raw_entry = json.dumps(head), json.dumps(entry)
        with self._lock:
            item = self._live(session_id)
            if item is None or len(item.log) != version:
                return False
            item.head = raw_head
            item.log.append(raw_entry)
            if (version + 1) % CHECKPOINT_EVERY == 0:
                item.ckpt[version + 1] = json.dumps(head["state"])
            item.until = time.monotonic() + self._ttl
            self._fresh.pop(session_id, None)
            return True

    def delete(self, session_id: str) -> None:
        with self._lock:
            if self._live(session_id) is None:
                raise session_not_found(session_id)
            self._drop(session_id)

    def ping(self) -> None:
        return None

    def unavailable(self) -> bool:
        return False

    def hit(self, key: str, window: float) -> tuple[int, float]:
        """Count one hit on ``key`` in a fixed window of ``window`` seconds from its first hit."""
        now = time.monotonic()
        with self._lock:
            hits, end = self._hits.get(key, (0, 0.0))
            if end <= now:
                hits, end = 0, now + window
            self._hits[key] = (hits + 1, end)
        return hits + 1, end - now


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


# ----------------------------------------------------------------------------- Redis
# KEYS = head, log, ckpt of one session (one hash slot). The head is a hash: v (version),
# doc (the head JSON), n (the nonce of the move that made this version).

# ARGV = head JSON, ttl ms. 1 created, 0 the id exists.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 0, 'doc', ARGV[1], 'n', '')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# ARGV = expected version, new head JSON, log entry, ttl ms, checkpoint state or '', nonce.
# 1 appended, 2 this very move was appended already (a retry), 0 stale, -1 gone.
_APPEND = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
local want = tonumber(ARGV[1])
if tonumber(v) ~= want then
  if tonumber(v) == want + 1 and redis.call('HGET', KEYS[1], 'n') == ARGV[6] then return 2 end
  return 0
end
redis.call('HSET', KEYS[1], 'v', want + 1, 'doc', ARGV[2], 'n', ARGV[6])
redis.call('RPUSH', KEYS[2], ARGV[3])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], tostring(want + 1), ARGV[5]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return 1
"""

# Evict a session only while it still has no move. 1 evicted, 0 not.
_EVICT = """
if redis.call('HGET', KEYS[1], 'v') ~= '0' then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""

# KEYS = one rate-limit counter; ARGV = window ms. {hits in this window, ms until it ends}: the
# increment and the window's expiry in one step, so a burst on a cold counter is counted exactly.
_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); left = tonumber(ARGV[1]) end
return {n, left}
"""


def _bucket_tags(n: int = 16) -> list[str]:
    """``n`` hash tags whose slots lie in ``n`` equal parts of the slot space, so the buckets
    spread over the shards of a cluster."""
    from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

    width = REDIS_CLUSTER_HASH_SLOTS // n
    tags = []
    for i in range(n):
        k = 0
        while key_slot(f"sessions-{i}-{k}".encode()) // width != i:
            k += 1
        tags.append(f"sessions-{i}-{k}")
    return tags


BUCKETS = _bucket_tags()


def _bucket(session_id: str) -> str:
    from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

    return BUCKETS[key_slot(session_id.encode()) * len(BUCKETS) // REDIS_CLUSTER_HASH_SLOTS]


class PoolBusy(redis.exceptions.RedisError):
    """Every connection of this process's pool stayed in use for the pool's timeout: Redis is up."""


class WaitingPool(redis.BlockingConnectionPool):
    """redis-py's blocking pool (a request waits up to ``timeout`` seconds for a free connection,
    never more than ``max_connections`` are opened), whose exhaustion raises ``PoolBusy`` instead
    of the ``ConnectionError`` that means a Redis that does not answer."""

    def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().get_connection(*args, **kwargs)  # type: ignore[no-untyped-call]  # redis-py's own signature is untyped
        except redis.exceptions.ConnectionError as exc:
            if str(exc) == "No connection available.":  # the pool's queue stayed empty: not a socket error
                raise PoolBusy(str(exc)) from None
            raise


class RedisStore:
    """Sessions in Redis (or a Redis Cluster) under ``arbiter:{<id>}:head|log|ckpt``."""

    def __init__(self, url: str, ttl: int, max_sessions: int, timeout: float = 2.0, backoff: float = 5.0,
                 cluster: bool = False, wait_ms: int = 50, pool_size: int = 64, pool_timeout: float = 2.0) -> None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                        redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
                        redis.exceptions.RedisClusterException, redis.exceptions.ReadOnlyError)
        # a pool that waits up to pool_timeout for a free connection (never more than pool_size
        # connections per node), and says "busy" rather than "down" when none came free
        options = dict(socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True,
                       max_connections=pool_size, timeout=pool_timeout)
        self.cluster = cluster
        self._redis: Any
        if cluster:
            from redis.cluster import RedisCluster

            self._redis = RedisCluster.from_url(url, connection_pool_class=WaitingPool, **options)
        else:
            self._redis = redis.Redis(connection_pool=WaitingPool.from_url(
                url, **options,
                # one quick retry for a dropped connection (a restarted Redis); never wait out a timeout twice
                retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)),
            ))
        self._ttl, self._max, self._timeout, self._backoff = float(ttl), max_sessions, timeout, backoff
        self._wait_ms = int(wait_ms)
        self._replicas: dict[str, tuple[bool, float]] = {}  # master -> (has a replica, when asked)
        self._scripts = {name: self._redis.register_script(src) for name, src in
                         (("create", _CREATE), ("append", _APPEND), ("evict", _EVICT), ("hit", _HIT))}
        self._open_until = 0.0  # circuit breaker: no call to Redis before this (monotonic) time
        self._breaker = threading.Lock()

    @staticmethod
    def keys(session_id: str) -> list[str]:
        return [f"arbiter:{{{session_id}}}:head", f"arbiter:{{{session_id}}}:log", f"arbiter:{{{session_id}}}:ckpt"]

    @staticmethod
    def _bucket_keys(tag: str) -> tuple[str, str]:
        return f"arbiter:{{{tag}}}:live", f"arbiter:{{{tag}}}:fresh"

    def unavailable(self) -> bool:
        return time.monotonic() < self._open_until

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
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
        except PoolBusy:  # Redis is up, this process has every connection in use: not a failure of Redis
            raise store_busy() from None
        except self._errors as exc:
            with self._breaker:
                self._open_until = time.monotonic() + self._backoff
            raise store_unavailable(f"the session store (Redis) is unreachable: {type(exc).__name__}",
                                    math.ceil(self._backoff)) from exc
        if self._open_until:
            with self._breaker:
                self._open_until = 0.0
        return out

    # -- live-session count --------------------------------------------------------------------

    def _prune_and_count(self) -> int:
        now = time.time()
        pipe = self._redis.pipeline(transaction=False)
        for tag in BUCKETS:
            live, fresh = self._bucket_keys(tag)
            pipe.zremrangebyscore(live, "-inf", now)
            pipe.zremrangebyscore(fresh, "-inf", now - self._ttl)
            pipe.zcard(live)
        counts: list[int] = pipe.execute()[2::3]
        return sum(counts)

    def count(self) -> int:
        return self._call(self._prune_and_count)

    def _evict_one(self) -> bool:
        """Drop the session created longest ago that has no move; False when there is none.

        The candidate is taken out of its bucket's ``fresh`` set by ``ZPOPMIN``, one atomic step:
        concurrent creations never pick the same session, so none gives up for another. A popped
        session that has had a move meanwhile (or expired) is left alone, and the next is taken."""
        while True:
            pipe = self._redis.pipeline(transaction=False)
            for tag in BUCKETS:
                pipe.zrange(self._bucket_keys(tag)[1], 0, 0, withscores=True)
            heads = sorted((found[0][1], tag) for tag, found in zip(BUCKETS, pipe.execute(), strict=True) if found)
            if not heads:
                return False
            for _, tag in heads:
                live, fresh = self._bucket_keys(tag)
                popped = self._redis.zpopmin(fresh, 1)
                if not popped:
                    continue  # another creation emptied this bucket first: the next oldest bucket
                sid = popped[0][0]
                if self._scripts["evict"](keys=self.keys(sid), args=[]):
                    self._redis.zrem(live, sid)
                    return True
                break  # played or expired: look at the buckets again

    def _create(self, session_id: str, head: Record) -> None:
        # One eviction per creation: concurrent creations each see the others in the count, and
        # evicting for all of them would drain the candidates (a full store answering store-full).
        if self._prune_and_count() >= self._max and not self._evict_one():
            raise store_full(self._max)
        self._scripts["create"](keys=self.keys(session_id), args=[json.dumps(head), max(1, int(self._ttl * 1000))])
        now = time.time()
        live, fresh = self._bucket_keys(_bucket(session_id))
        pipe = self._redis.pipeline(transaction=False)
        pipe.zadd(live, {session_id: now + self._ttl})
        pipe.zadd(fresh, {session_id: now})
        pipe.execute()

    def create(self, session_id: str, head: Record) -> None:
        self._call(self._create, session_id, head)

    # -- one session ---------------------------------------------------------------------------

    def get(self, session_id: str) -> Record:
        raw = self._call(self._redis.hget, self.keys(session_id)[0], "doc")
        if raw is None:
            raise session_not_found(session_id)
        return cast(Record, json.loads(raw))

    def log(self, session_id: str, start: int = 0, stop: int | None = None) -> list[LogEntry]:
        end = -1 if stop is None else stop - 1
        if stop is not None and stop <= start:
            return []
        return [json.loads(x) for x in self._call(self._redis.lrange, self.keys(session_id)[1], start, end)]

    def checkpoint(self, session_id: str, version: int) -> tuple[int, Json] | None:
        at = version // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        raw = self._call(self._redis.hget, self.keys(session_id)[2], str(at)) if at else None
        return None if raw is None else (at, json.loads(raw))

    def _append(self, session_id: str, version: int, args: list[object]) -> int:
        keys = self.keys(session_id)
        if not self.cluster:
            return int(self._scripts["append"](keys=keys, args=args))
        # On a cluster a moved slot or a lost master retries once through a fresh view of the
        # cluster (the nonce makes the retry of a move that did land answer 2, not a stale version).
        try:
            return self._append_on_master(keys, version, args)
        except (PoolBusy, ApiError):
            raise
        except Exception:  # noqa: BLE001 - moved slot, failed master: learn the cluster again, retry once
            self._redis.nodes_manager.initialize()
            return self._append_on_master(keys, version, args)

    def _append_on_master(self, keys: list[str], version: int, args: list[object]) -> int:
        """The script and ``WAIT 1`` on one connection to the shard's master, so ``WAIT`` counts
        this write; 503 ``session.not-replicated`` when the shard has a replica and none confirmed
        the move within ``REDIS_WAIT_MS`` (the move stays written: its version tells its fate)."""
        node = self._redis.get_node_from_key(keys[0])
        pipe = node.redis_connection.pipeline(transaction=False)
        self._scripts["append"](keys=keys, args=args, client=pipe)
        replicated = self._has_replica(node)
        if replicated:
            pipe.execute_command("WAIT", 1, self._wait_ms)
        out = pipe.execute()
        done = int(out[0])
        if replicated and done > 0 and int(out[1]) < 1:
            raise not_replicated(version + 1)
        return done

    def _has_replica(self, node: Any) -> bool:
        """Whether a master has a connected replica (its ``INFO replication``, asked at most
        every 5 seconds per master)."""
        now = time.monotonic()
        known = self._replicas.get(node.name)
        if known is None or now - known[1] > 5.0:
            connected = int(node.redis_connection.info("replication").get("connected_slaves", 0))
            known = self._replicas[node.name] = (connected > 0, now)
        return known[0]

    def append(self, session_id: str, version: int, head: Record, entry: LogEntry) -> bool:
        checkpoint = json.dumps(head["state"]) if (version + 1) % CHECKPOINT_EVERY == 0 else ""
        args: list[object] = [version, json.dumps(head), json.dumps(entry), max(1, int(self._ttl * 1000)), checkpoint, secrets.token_hex(8)]
        unconfirmed: ApiError | None = None
        try:
            done = self._call(self._append, session_id, version, args)
        except ApiError as exc:
            if exc.code != "session.not-replicated":
                raise
            done, unconfirmed = 1, exc  # written on the master: the bookkeeping below still applies
        if done == -1:
            raise session_not_found(session_id)
        if done <= 0:
            return False
        live, fresh = self._bucket_keys(_bucket(session_id))
        pipe = self._redis.pipeline(transaction=False)
        pipe.zadd(live, {session_id: time.time() + self._ttl}, xx=True)
        if version == 0:
            pipe.zrem(fresh, session_id)
        # The move has landed: a failure here must not answer 503 for it (the breaker still opens).
        # What it leaves is harmless: a count pruned at the old expiry, and a `fresh` entry that
        # eviction checks against the stored version before it deletes anything.
        with contextlib.suppress(ApiError):
            self._call(pipe.execute)
        if unconfirmed is not None:
            raise unconfirmed
        return True

    def _delete(self, session_id: str) -> int:
        gone: int = self._redis.delete(*self.keys(session_id))
        live, fresh = self._bucket_keys(_bucket(session_id))
        pipe = self._redis.pipeline(transaction=False)
        pipe.zrem(live, session_id)
        pipe.zrem(fresh, session_id)
        pipe.execute()
        return gone

    def delete(self, session_id: str) -> None:
        if not self._call(self._delete, session_id):
            raise session_not_found(session_id)

    def ping(self) -> None:
        self._call(self._redis.ping)

    def close(self) -> None:
        """Close every connection of the pool (the app is shutting down)."""
        with contextlib.suppress(Exception):
            self._redis.close()

    def hit(self, key: str, window: float) -> tuple[int, float]:
        """Count one hit on ``key`` in a fixed window of ``window`` seconds, atomically in Redis
        (one script: a burst on a cold key counts every hit), shared by every worker and host."""
        hits, left_ms = self._call(self._scripts["hit"], keys=[f"arbiter:{{limit:{key}}}"],
                                   args=[max(1, int(window * 1000))])
        return int(hits), int(left_ms) / 1000



def make_store(config: Mapping[str, Any]) -> SessionStore:
    if config.get("REDIS_URL"):
        return RedisStore(config["REDIS_URL"], config["SESSION_TTL"], config["MAX_SESSIONS"],
                          config["REDIS_TIMEOUT"], config["REDIS_BACKOFF"],
                          cluster=bool(config.get("REDIS_CLUSTER")), wait_ms=config.get("REDIS_WAIT_MS", 50),
                          pool_size=config.get("REDIS_MAX_CONNECTIONS", 64),
                          pool_timeout=config.get("REDIS_POOL_TIMEOUT", 2.0))
    return MemoryStore(config["SESSION_TTL"], config["MAX_SESSIONS"], config["SESSION_SWEEP_SECONDS"])


# --------------------------------------------------------------------------- operations
# Each takes the store and a binding (service.games.GameBinding) and returns response JSON.
# No response shows ``seed`` or ``rng`` before the game is over (views never carry ``rng``),
# and each says ``seeded``: whether the creator chose the seed (and so may know the deal).


def create(store: SessionStore, binding: GameBinding, req: Mapping[str, Any]) -> JsonObject:
    seeded = req.get("seed") is not None
    seed = req["seed"] if seeded else secrets.token_hex(16)  # kept so the log replays after the game
    state = binding.new({**req, "seed": seed})
    owner, seats = new_token(), [new_token() for _ in range(req["players"])]
    session_id = secrets.token_urlsafe(16)  # 128 bits
    record: Record = {
        "game": binding.engine.game_id,
        "version": 0,
        "state": binding.engine.to_json(state),
        "owner_token": token_hash(owner),
        "seat_tokens": [token_hash(t) for t in seats],
        "new": {"players": req["players"], "seed": seed, "options": req.get("options") or {},
                **({"setup": req["setup"]} if req.get("setup") is not None else {})},
        "seeded": seeded,
        "last": None,  # the newest log entry, for the event of the newest move
    }
    store.create(session_id, record)
    return {
        "id": session_id,
        "game": record["game"],
        "version": 0,
        "seeded": seeded,
        "owner_token": owner,
        "seats": [{"seat": i, "token": t} for i, t in enumerate(seats)],
        "to_act": cast("list[Json]", sorted(binding.engine.to_act(state))),
    }


def _open(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str,
          token: str | None) -> tuple[Record, int | None, GameBinding, Any]:
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    return record, seat, binding, binding.engine.from_json(record["state"])


def _about(session_id: str, record: Record, **members: Json) -> JsonObject:
    """The members every response about a session carries."""
    return {"id": session_id, "game": record["game"], "version": record["version"],
            "seeded": record.get("seeded", True), **members}


def show(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None) -> JsonObject:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    out = binding.status(state)
    out.update(_about(session_id, record, seat=seat, state=binding.engine.view(state, seat)))
    return out


def legal_moves(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str,
                token: str | None) -> JsonObject:
    record, seat, binding, state = _open(store, bindings, session_id, token)
    out: JsonObject
    if seat is None:
        out = {"seat": None, "moves": [], "complete": binding.engine.legal_moves_complete}
    else:
        out = binding.legal_moves(state, seat)
    return {**out, **_about(session_id, record)}


def _judge(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None,
           req: Mapping[str, Any]) -> tuple[Record, int, GameBinding, Any, Any]:
    """Every check a session move goes through, in order; the record, seat, binding, state and
    move when all pass (``move`` applies it, ``validate`` only reports)."""
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
    return record, seat, binding, state, move_value


def move(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None,
         req: Mapping[str, Any], on_move: Callable[[Record], object] | None = None) -> JsonObject:
    """Apply a seat's move; ``on_move(head)`` is told the session's new head once it is stored."""
    record, seat, binding, state, move_value = _judge(store, bindings, session_id, token, req)
    version = record["version"]
    new, events = binding.apply(state, seat, move_value)
    entry: LogEntry = {"seat": seat, "move": binding.engine.move_to_json(move_value), "events": events}
    updated: Record = {**record, "version": version + 1, "state": binding.engine.to_json(new), "last": entry}
    if not store.append(session_id, version, updated, entry):
        raise stale_version(version, version + 1)
    if on_move is not None:
        on_move(updated)
    out = binding.result(new, seat, events, full=False)
    out.update(_about(session_id, updated, seat=seat))
    return out


def validate(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None,
             req: Mapping[str, Any]) -> JsonObject:
    """A session move judged without applying it: ``{"legal": true, "version"}``, or the very
    problem the move would get (raised); the session never changes."""
    record, seat, binding, state, move_value = _judge(store, bindings, session_id, token, req)
    binding.apply(state, seat, move_value)  # raises what the move would raise; the result is dropped
    return _about(session_id, record, legal=True)


def log(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None) -> JsonObject:
    """The moves so far as the token's seat may see them (the owner: as a spectator), and beside
    them what each did (``events[i]`` of ``moves[i]``; the moves stay ``/replay``'s input as they
    are); the seed only once the game is over, when the log and ``new`` replay the game."""
    record, seat, binding, state = _open(store, bindings, session_id, token)
    over = binding.engine.outcome(state) is not None
    entries: list[Json] = []
    events: list[Json] = []
    for item in store.log(session_id):
        shown, did = binding.logged(item, seat, over)
        entries.append({"seat": item["seat"], "move": shown} if shown is not None
                       else {"seat": item["seat"], "move": None, "hidden": True})
        events.append(list[Json](did))
    new = dict(record["new"])
    if not over:
        new.pop("seed")
    return _about(session_id, record, new=new, moves=entries, events=events)


def log_record(store: SessionStore, bindings: Mapping[str, GameBinding], session_id: str, token: str | None) -> str:
    """The moves so far as a match record (``.mat``), for any token of the session: a game with
    a record format (backgammon) has no hidden information, and the record shows only the rolls
    already made."""
    record, _, binding, _ = _open(store, bindings, session_id, token)
    from service import records  # records imports the binding machinery; imported late to keep this module light

    return records.session_log_mat(binding, {**record, "log": store.log(session_id)})


def delete(store: SessionStore, session_id: str, token: str | None) -> None:
    record = store.get(session_id)
    if seat_of(record, token) is not None:
        raise ApiError(403, "session.not-owner", "Forbidden", "only the session owner's token may delete it")
    store.delete(session_id)
