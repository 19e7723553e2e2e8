"""Live events of a session (DESIGN 4.2): Server-Sent Events, one per move, per token.

The session's own log is the event log: event ``v`` is move ``v`` of ``record["log"]``, and
the state after it is the session's state (for the newest event) or, for older ones, the
state reached by replaying the log from the session's ``new`` parameters, which the record
keeps. So every store keeps every event with the session, across workers and hosts, and a
stream that resumes (``Last-Event-ID``) replays at most what it missed; more than
``EVENTS_RESUME_LIMIT`` behind, it gets a fresh snapshot instead.

Waking the streams: a move notifies the streams of this process at once; with Redis it is
also published on one channel, and one listener thread per process wakes the local streams
of a move made on another worker or host. A stream also re-reads the session at every
heartbeat, so a lost notification delays an event by one heartbeat at most.

Under gevent (``make run``) a stream is a greenlet, so thousands of open streams cost no
threads and do not take capacity from ordinary requests.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import orjson

from service.errors import ApiError

Json = Any
CHANNEL = "arbiter:session-moves"
log = logging.getLogger("arbiter.events")


class Notifier:
    """Wakes the streams waiting on a session when it moves (in this process, and, with a
    Redis client, in every process subscribed to ``CHANNEL``)."""

    def __init__(self, redis_client: Any = None) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._redis = redis_client
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()
        self.open_streams = 0

    # -- waking --------------------------------------------------------------------------

    def notify(self, session_id: str) -> None:
        self._wake(session_id)
        if self._redis is not None:
            with contextlib.suppress(Exception):  # the stream's heartbeat re-check covers a lost publish
                self._redis.publish(CHANNEL, session_id)

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

    # -- other processes (Redis) -------------------------------------------------------------

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
                for message in pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        data = data.decode()
                    if isinstance(data, str):
                        self._wake(data)
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


def _states_after(binding: Any, record: Json, first: int, last: int) -> dict[int, Any]:
    """The engine states after moves ``first..last`` (1-based versions), by replaying the log."""
    engine = binding.engine
    if first == last == record["version"]:
        return {last: engine.from_json(record["state"])}
    state = binding.new(record["new"])
    out = {}
    for version, item in enumerate(record["log"][:last], start=1):
        state = engine.apply(state, item["seat"], binding.load_move(item["move"]))
        if version >= first:
            out[version] = state
    return out


def move_events(binding: Any, record: Json, seat: int | None, after: int) -> list[bytes]:
    """The ``move`` events after version ``after``, each as ``seat`` may see it."""
    engine = binding.engine
    last = record["version"]
    if last <= after:
        return []
    states = _states_after(binding, record, after + 1, last)
    over = engine.outcome(states[last]) is not None
    out = []
    for version in range(after + 1, last + 1):
        item = record["log"][version - 1]
        state = states[version]
        shown = item["move"] if over else engine.move_view(engine.move_from_json(item["move"]), item["seat"], seat)
        data = {"version": version, "seat": item["seat"], "move": shown}
        status = binding.status(state)
        data.update(to_act=status["to_act"], round_over=status["round_over"], game_over=status["game_over"])
        if "scores" in status:
            data["scores"] = status["scores"]
        if "outcome" in status:
            data["outcome"] = status["outcome"]
        data["state"] = engine.view(state, seat)
        out.append(_sse("move", data, version))
    return out


def stream(store: Any, bindings: Mapping[str, Any], notifier: Notifier, session_id: str, token: str | None,
           last_event_id: str | None, *, heartbeat: float, resume_limit: int, show: Any, seat_of: Any) -> Iterator[bytes]:
    """The event stream of ``token`` on a session: checked before the first byte (401/403/404
    answer as problems), then a snapshot or the missed events, then one event per move."""
    notifier.ensure_listener()
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    resume = _parse_id(last_event_id)

    def events() -> Iterator[bytes]:
        notifier.open_streams += 1
        try:
            nonlocal record
            yield f"retry: {int(heartbeat * 1000)}\n\n".encode()
            if resume is not None and 0 <= resume <= record["version"] and record["version"] - resume <= resume_limit:
                last = resume
                chunks = move_events(binding, record, seat, last)
                yield from chunks
                last = record["version"]
            else:
                yield _sse("snapshot", show(store, bindings, session_id, token), record["version"])
                last = record["version"]
            while True:
                notifier.wait(session_id, heartbeat)
                try:
                    record = store.get(session_id)
                except ApiError:
                    yield _sse("end", {"reason": "the session is gone (deleted or expired)"})
                    return
                if record["version"] > last:
                    if record["version"] - last > resume_limit:
                        yield _sse("snapshot", show(store, bindings, session_id, token), record["version"])
                    else:
                        yield from move_events(binding, record, seat, last)
                    last = record["version"]
                else:
                    yield b": keep-alive\n\n"
        finally:
            notifier.open_streams -= 1

    return events()


def _parse_id(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit() or len(value.strip()) > 12:
        return None
    return int(value.strip())
