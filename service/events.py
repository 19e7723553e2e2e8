"""Live events of a session (DESIGN 4.2, 4.9): Server-Sent Events, one per move, per token.

The session's own log is the event log: event ``v`` is move ``v`` of the stored log. The newest
event is made from the session's head (its state and ``last`` move); a stream that resumes
(``Last-Event-ID``) or fell behind replays from the nearest stored checkpoint
(``service.sessions.CHECKPOINT_EVERY``) only the moves after it, reading those log entries
alone. More than ``EVENTS_RESUME_LIMIT`` behind, it gets a fresh snapshot instead.

Cost per move, however many streams watch: the mover's process knows the new head and hands it
to the notifier; with Redis the move is published (``<id> <version>``) and one listener thread
per process reads the head once for all its streams of that session. Each event is rendered
once per distinct view (each seat, and spectators) and kept in a small cache that the other
streams of that view copy. Streams per session and process are bounded
(``MAX_STREAMS_PER_SESSION``, 429 ``session.too-many-streams`` beyond).

A stream checks at each heartbeat whether its session still exists: only the store's "no such
session" ends it (``event: end`` with the reason); a store that is briefly unavailable just
sends the heartbeat. Streams never refresh a session's expiry: it expires ``SESSION_TTL`` after
its last move whoever is watching.

Under gevent (``make run``) a stream is a greenlet, so thousands of open streams cost no
threads and do not take capacity from ordinary requests.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import orjson

from service.errors import ApiError

Json = Any
CHANNEL = "arbiter:session-moves"
log = logging.getLogger("arbiter.events")


class _Lru:
    def __init__(self, size: int) -> None:
        self._data: OrderedDict = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)


class Notifier:
    """Wakes the streams waiting on a session when it moves (in this process, and, with a
    Redis client, in every process subscribed to ``CHANNEL``), with the session's new head."""

    def __init__(self, redis_client: Any = None, fetch: Callable[[str], Json] | None = None) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._redis = redis_client
        self._fetch = fetch
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()
        self.heads = _Lru(1024)  # session id -> newest head this process knows
        self.rendered = _Lru(8192)  # (session id, version, seat) -> the event's bytes
        self.per_session: dict[str, int] = {}
        self.open_streams = 0

    # -- stream bookkeeping --------------------------------------------------------------------

    def open(self, session_id: str, limit: int) -> None:
        with self._lock:
            if self.per_session.get(session_id, 0) >= limit:
                raise ApiError(429, "session.too-many-streams", "Too many event streams",
                               f"this session already has {limit} open event streams here "
                               "(MAX_STREAMS_PER_SESSION): close one first", headers={"Retry-After": "15"})
            self.per_session[session_id] = self.per_session.get(session_id, 0) + 1
            self.open_streams += 1

    def close(self, session_id: str) -> None:
        with self._lock:
            left = self.per_session.get(session_id, 1) - 1
            if left > 0:
                self.per_session[session_id] = left
            else:
                self.per_session.pop(session_id, None)
            self.open_streams -= 1

    # -- waking --------------------------------------------------------------------------------

    def notify(self, session_id: str, head: Json | None = None) -> None:
        if head is not None:
            self._learn(session_id, head)
        self._wake(session_id)
        if self._redis is not None and head is not None:
            with contextlib.suppress(Exception):  # the stream's heartbeat re-check covers a lost publish
                self._redis.publish(CHANNEL, f"{session_id} {head['version']}")

    def _learn(self, session_id: str, head: Json) -> None:
        known = self.heads.get(session_id)
        if known is None or known["version"] < head["version"]:
            self.heads.put(session_id, head)

    def _wake(self, session_id: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(session_id, ()))
        for event in waiters:
            event.set()

    def wait(self, session_id: str, timeout: float) -> bool:
        """Block until the session moves or ``timeout`` passes; True if woken."""
        event = threading.Event()
        with self._lock:
            self._waiters.setdefault(session_id, set()).add(event)
        try:
            return event.wait(timeout)
        finally:
            with self._lock:
                waiters = self._waiters.get(session_id)
                if waiters is not None:
                    waiters.discard(event)
                    if not waiters:
                        del self._waiters[session_id]

    def _remote_move(self, message: str) -> None:
        session_id, _, version = message.partition(" ")
        with self._lock:
            watched = session_id in self._waiters
        if not watched:
            return
        known = self.heads.get(session_id)
        if self._fetch is not None and (known is None or not version.isdigit() or known["version"] < int(version)):
            with contextlib.suppress(Exception):  # the streams re-read the store themselves
                self._learn(session_id, self._fetch(session_id))
        self._wake(session_id)

    # -- other processes (Redis) ---------------------------------------------------------------

    def ensure_listener(self, timeout: float = 2.0) -> None:
        """Start the listener of this process (once) and wait until it is subscribed, so a
        stream that has read the session cannot miss a move published right after."""
        if self._redis is None:
            return
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._subscribed = threading.Event()
                self._listener = threading.Thread(target=self._listen, name="arbiter-events", daemon=True)
                self._listener.start()
            subscribed = self._subscribed
        subscribed.wait(timeout)

    def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self._subscribed.set()
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    data = message.get("data")
                    if isinstance(data, bytes):
                        data = data.decode()
                    if isinstance(data, str):
                        self._remote_move(data)
            except Exception as exc:  # noqa: BLE001 - Redis down: retry; streams still poll at heartbeats
                self._subscribed.clear()
                log.warning("event listener lost Redis (%s); retrying", type(exc).__name__)
                time.sleep(1.0)


def _sse(event: str | None, data: Json, event_id: int | None = None) -> bytes:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event is not None:
        lines.append(f"event: {event}")
    lines.append("data: " + orjson.dumps(data).decode())
    return ("\n".join(lines) + "\n\n").encode()


def _event(binding: Any, version: int, item: Json, state: Any, seat: int | None, over: bool) -> bytes:
    engine = binding.engine
    shown = item["move"] if over else engine.move_view(engine.move_from_json(item["move"]), item["seat"], seat)
    data = {"version": version, "seat": item["seat"], "move": shown}
    status = binding.status(state)
    data.update(to_act=status["to_act"], round_over=status["round_over"], game_over=status["game_over"])
    if "scores" in status:
        data["scores"] = status["scores"]
    if "outcome" in status:
        data["outcome"] = status["outcome"]
    data["state"] = engine.view(state, seat)
    return _sse("move", data, version)


def newest_event(binding: Any, head: Json, seat: int | None, cache: _Lru | None = None,
                 session_id: str = "") -> bytes:
    """The event of the head's newest move as ``seat`` sees it, rendered once per view."""
    key = (session_id, head["version"], seat)
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    state = binding.engine.from_json(head["state"])
    out = _event(binding, head["version"], head["last"], state, seat, binding.engine.outcome(state) is not None)
    if cache is not None:
        cache.put(key, out)
    return out


def move_events(binding: Any, store: Any, session_id: str, head: Json, seat: int | None, after: int,
                cache: _Lru | None = None) -> list[bytes]:
    """The ``move`` events after version ``after``, each as ``seat`` may see it: from the
    nearest checkpoint at or before ``after``, reading only the log entries after it."""
    last = head["version"]
    if last <= after:
        return []
    if last == after + 1 and head.get("last") is not None:
        return [newest_event(binding, head, seat, cache, session_id)]
    engine = binding.engine
    checkpoint = store.checkpoint(session_id, after)
    start, state = (checkpoint[0], engine.from_json(checkpoint[1])) if checkpoint else (0, binding.new(head["new"]))
    entries = store.log(session_id, start, last)
    final = engine.from_json(head["state"])
    over = engine.outcome(final) is not None
    out = []
    for version, item in enumerate(entries, start=start + 1):
        state = final if version == last else engine.apply(state, item["seat"], binding.load_move(item["move"]))
        if version > after:
            out.append(_event(binding, version, item, state, seat, over))
    return out


def stream(store: Any, bindings: Mapping[str, Any], notifier: Notifier, session_id: str, token: str | None,
           last_event_id: str | None, *, heartbeat: float, resume_limit: int, show: Any, seat_of: Any,
           max_streams: int = 1000) -> Iterator[bytes]:
    """The event stream of ``token`` on a session: checked before the first byte (401/403/404/429
    answer as problems), then a snapshot or the missed events, then one event per move."""
    notifier.ensure_listener()
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    resume = parse_id(last_event_id)
    notifier.open(session_id, max_streams)

    def events() -> Iterator[bytes]:
        try:
            head = record
            yield f"retry: {int(heartbeat * 1000)}\n\n".encode()
            if resume is not None and 0 <= resume <= head["version"] and head["version"] - resume <= resume_limit:
                yield from move_events(binding, store, session_id, head, seat, resume, notifier.rendered)
            else:
                yield _sse("snapshot", show(store, bindings, session_id, token), head["version"])
            last = head["version"]
            while True:
                woken = notifier.wait(session_id, heartbeat)
                known = notifier.heads.get(session_id)
                if woken and known is not None and known["version"] > last:
                    head = known
                else:
                    try:
                        head = store.get(session_id)
                    except ApiError as exc:
                        if exc.code == "session.not-found":
                            yield _sse("end", {"reason": "the session is gone (deleted, or expired "
                                                         "SESSION_TTL after its last move)"})
                            return
                        yield b": keep-alive (session store unavailable)\n\n"
                        continue
                if head["version"] > last:
                    if head["version"] - last > resume_limit:
                        yield _sse("snapshot", show(store, bindings, session_id, token), head["version"])
                    else:
                        try:
                            yield from move_events(binding, store, session_id, head, seat, last, notifier.rendered)
                        except ApiError:
                            continue  # the store failed mid-resume: try again at the next wake
                    last = head["version"]
                else:
                    yield b": keep-alive\n\n"
        finally:
            notifier.close(session_id)

    return events()


def parse_id(value: str | None) -> int | None:
    """A ``Last-Event-ID`` as a version: ASCII digits only (``'²'.isdigit()`` is true too)."""
    if value is None:
        return None
    value = value.strip()
    if not value or len(value) > 12 or not value.isascii() or not value.isdigit():
        return None
    return int(value)
