"""Per-address limits on sessions (DESIGN 4.1, 4.9), counted by the session store itself.

- ``SESSIONS_PER_MINUTE``: session creations per client address per minute (429
  ``session.rate-limited``);
- ``SESSION_REQUESTS_PER_SECOND``: every other session request (reads, moves, log, event
  streams) per client address per second (429 ``session.too-many-requests``), so one address
  cannot take the store's connections from everyone.

Each is a fixed window from the window's first hit, counted by the store's ``hit``: in Redis
(one script that increments and sets the expiry in one step, so a burst on a cold server is
counted exactly, shared by every worker and host) with ``REDIS_URL``, under the memory store's
lock otherwise. A count that cannot be made refuses the request (503, as the store would: the
counter lives in the same Redis) rather than letting it through uncounted. 0 turns a limit off.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from service.errors import ApiError
from service.sessions import SessionStore


class Limits:
    def __init__(self, config: Mapping[str, Any], store: SessionStore) -> None:
        self._config = config
        self._store = store

    def _count(self, kind: str, address: str | None, limit: int, window: float, code: str, title: str,
               rule: str) -> None:
        """Count one hit of ``kind`` by ``address``; 429 ``code`` with ``Retry-After`` past ``limit``."""
        if limit <= 0:
            return
        hits, left = self._store.hit(f"{kind}:{(address or 'unknown')[:64]}", window)
        if hits > limit:
            retry = max(1, math.ceil(left))
            raise ApiError(429, code, title, f"{rule}: wait {retry} s (Retry-After)", headers={"Retry-After": str(retry)})

    def creation(self, address: str | None) -> None:
        """One session creation by ``address``; 429 ``session.rate-limited`` past the limit."""
        per_minute = int(self._config["SESSIONS_PER_MINUTE"])
        self._count("create", address, per_minute, 60.0, "session.rate-limited", "Too many new sessions",
                    f"at most {per_minute} new sessions per minute from one client address")

    def request(self, address: str | None) -> None:
        """One other session request by ``address``; 429 ``session.too-many-requests`` past the limit."""
        per_second = int(self._config["SESSION_REQUESTS_PER_SECOND"])
        self._count("session", address, per_second, 1.0, "session.too-many-requests", "Too many session requests",
                    f"at most {per_second} session requests per second from one client address "
                    "(SESSION_REQUESTS_PER_SECOND)")
