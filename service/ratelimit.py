"""The session-creation limit (DESIGN 4.1): ``SESSIONS_PER_MINUTE`` per client address.

Counted by ``limits`` (the library Flask-Limiter is built on; a fixed one-minute window), in
Redis when ``REDIS_URL`` is set, so every worker and host shares one count, and in memory
otherwise. It is checked in the one view that creates sessions, so no other request pays for a
rate-limit hook. While the session store is known to be down the count is not consulted (its
Redis is the same one): the creation fails fast with 503 instead of waiting on Redis twice; a
counter that cannot be reached lets the creation through rather than refusing everyone.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from limits import parse, storage, strategies

from service.errors import ApiError


class CreationLimit:
    def __init__(self, config: Any, store: Any) -> None:
        url, timeout = config.get("REDIS_URL"), config["REDIS_TIMEOUT"]
        if url and config.get("REDIS_CLUSTER"):  # limits' cluster storage: redis+cluster://host:port
            url = "redis+cluster://" + url.split("://", 1)[1].split("/", 1)[0]
        options = {"socket_timeout": timeout, "socket_connect_timeout": timeout} if url else {}
        self._limiter = strategies.FixedWindowRateLimiter(storage.storage_from_string(url or "memory://", **options))
        self._config = config
        self._store = store

    def check(self, address: str | None) -> None:
        """Count one creation by ``address``; 429 ``session.rate-limited`` past the limit."""
        if self._store.unavailable():
            return
        per_minute = self._config["SESSIONS_PER_MINUTE"]
        item = parse(f"{per_minute} per minute")
        allowed = True
        with contextlib.suppress(Exception):  # the counter's Redis unreachable: do not refuse everyone
            allowed = self._limiter.hit(item, "arbiter-sessions", address or "unknown")
        if allowed:
            return
        reset = self._limiter.get_window_stats(item, "arbiter-sessions", address or "unknown").reset_time
        retry = max(1, int(reset - time.time() + 0.999))
        raise ApiError(429, "session.rate-limited", "Too many new sessions",
                       f"at most {per_minute} new sessions per minute from one client address: "
                       f"wait {retry} s (Retry-After)", headers={"Retry-After": str(retry)})
