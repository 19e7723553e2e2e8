"""Configuration classes; environment variables override the defaults.

Session limits (DESIGN 4.1), each an environment variable of the same name:

- ``MAX_SESSIONS``: live sessions per store; beyond it ``POST /v1/sessions`` is 503
  ``session.store-full``.
- ``SESSIONS_PER_MINUTE``: session creations per client address per minute; beyond it 429
  ``session.rate-limited`` with ``Retry-After`` (counted in Redis with ``REDIS_URL``, so all
  workers share the count; in process memory otherwise); ``SESSION_REQUESTS_PER_SECOND``: every
  other session request per client address per second (429 ``session.too-many-requests``).
- ``SESSION_TTL``: seconds a session lives after its last use; ``SESSION_SWEEP_SECONDS``: how
  often the memory store drops expired sessions.
- ``MAX_RECORD_BYTES``: the body size of the match-record endpoints (DESIGN 4.3: ``/replay`` with a
  ``record``, ``POST /v1/games/{game}/records``), default 4 MiB: analysed GNU BG ``.sgf`` files
  are far over ``MAX_BODY_BYTES``, which every other endpoint keeps.
- ``REDIS_CLUSTER=1``: ``REDIS_URL`` names a node of a Redis Cluster; ``REDIS_WAIT_MS``: how long
  a move waits for the shard's replica to have it (``WAIT 1 <ms>``) before it is acknowledged.
- ``MAX_STREAMS_PER_SESSION``: open event streams per session and process (429 beyond).
- ``BODY_TIMEOUT``: seconds a request body may take to arrive (408 beyond);
  ``MAX_CONNECTIONS_PER_ADDRESS``: open connections per client address and worker (the gevent
  worker of ``make run``; beyond it 429 and the connection closes).
- ``TRUSTED_PROXIES``: comma-separated addresses of reverse proxies whose ``X-Forwarded-For``
  names the client (werkzeug's ``ProxyFix``); from any other peer the header is ignored.
- ``REQUEST_CPU_SECONDS``: seconds one request may compute (503 ``request.too-much-work`` beyond;
  0: no bound), well inside gunicorn's 30 s worker timeout; under the gevent worker, the time it
  holds the worker's thread (``service.guard``, ``rules.deadline``).
- ``REDIS_MAX_CONNECTIONS``: connections to Redis per process (per node on a cluster); a request
  waits up to ``REDIS_POOL_TIMEOUT`` seconds for a free one (503 ``session.store-busy`` after,
  which never opens the breaker below: Redis is up).
- ``REDIS_TIMEOUT``: seconds one Redis call may take; ``REDIS_BACKOFF``: after a failed call,
  seconds during which session endpoints answer 503 at once instead of asking Redis again.
"""

from __future__ import annotations

import os


class Config:
    MAX_CONTENT_LENGTH = int(os.environ.get("MAX_BODY_BYTES", 256 * 1024))
    REDIS_URL = os.environ.get("REDIS_URL") or None
    SESSION_TTL = int(os.environ.get("SESSION_TTL", 7 * 24 * 3600))
    SESSION_SWEEP_SECONDS = float(os.environ.get("SESSION_SWEEP_SECONDS", 60))
    MAX_SESSIONS = int(os.environ.get("MAX_SESSIONS", 10_000))
    SESSIONS_PER_MINUTE = int(os.environ.get("SESSIONS_PER_MINUTE", 30))
    SESSION_REQUESTS_PER_SECOND = int(os.environ.get("SESSION_REQUESTS_PER_SECOND", 100))
    REDIS_MAX_CONNECTIONS = int(os.environ.get("REDIS_MAX_CONNECTIONS", 64))
    REDIS_POOL_TIMEOUT = float(os.environ.get("REDIS_POOL_TIMEOUT", 2.0))
    REDIS_CLUSTER = os.environ.get("REDIS_CLUSTER", "0") not in ("", "0")
    REDIS_WAIT_MS = int(os.environ.get("REDIS_WAIT_MS", 50))
    MAX_STREAMS_PER_SESSION = int(os.environ.get("MAX_STREAMS_PER_SESSION", 1000))
    BODY_TIMEOUT = float(os.environ.get("BODY_TIMEOUT", 10.0))
    MAX_CONNECTIONS_PER_ADDRESS = int(os.environ.get("MAX_CONNECTIONS_PER_ADDRESS", 256))
    TRUSTED_PROXIES = os.environ.get("TRUSTED_PROXIES", "")
    REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", 2.0))
    REDIS_BACKOFF = float(os.environ.get("REDIS_BACKOFF", 5.0))
    REQUEST_CPU_SECONDS = float(os.environ.get("REQUEST_CPU_SECONDS", 5.0))
    # moves one replay may apply; at ~34 bytes a move, 5,000 fit well inside MAX_BODY_BYTES
    MAX_REPLAY_MOVES = int(os.environ.get("MAX_REPLAY_MOVES", 5_000))
    # bytes a match record may have, on the record endpoints only (an analysed .sgf is megabytes)
    MAX_RECORD_BYTES = int(os.environ.get("MAX_RECORD_BYTES", 4 * 1024 * 1024))
    CORS_ORIGINS = os.environ.get("CORS_ORIGINS", "")  # comma-separated origins; default none
    ACCESS_LOG = os.environ.get("ACCESS_LOG", "1") != "0"  # one JSON line per request
    EVENTS_HEARTBEAT = float(os.environ.get("EVENTS_HEARTBEAT", 15.0))  # seconds between keep-alive comments
    EVENTS_RESUME_LIMIT = int(os.environ.get("EVENTS_RESUME_LIMIT", 100))  # further behind: a fresh snapshot
    # HMAC key of state signatures, the same on every host (service/signing.py); unset: one per process
    STATE_SIGNING_KEY = os.environ.get("STATE_SIGNING_KEY") or None
    STATE_CACHE_SIZE = int(os.environ.get("STATE_CACHE_SIZE", 4096))  # signed states kept with their JSON, 0 turns the cache off
    # apply, validate, legal-moves and view answered without Flask's per-request work (service/fastpath.py)
    FAST_PATH = os.environ.get("FAST_PATH", "1") != "0"
    JSON_SORT_KEYS = False
    TESTING = False


class TestConfig(Config):
    TESTING = True
    ACCESS_LOG = False
    REDIS_URL = None
    SESSION_TTL = 3600
    SESSIONS_PER_MINUTE = 100_000  # the tests create many sessions from one address
    SESSION_REQUESTS_PER_SECOND = 1_000_000
    MAX_CONNECTIONS_PER_ADDRESS = 0  # off: the test client leaves responses open unless a test closes them
