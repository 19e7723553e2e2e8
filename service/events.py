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
threads. A move wakes them in batches of ``WAKE_BATCH`` with a return to the event loop between
two batches (``_ring``), so requests are served while 3,000 streams write a move's event. Each
stream stays registered while it is open and knows the newest version announced to it: a move
made while it was writing is not missed, it is not woken twice for one move, and a stream that
a later move's fan-out reached first catches up from that head, a short catch-up rendered once
per view like a single event. Woken by a move this process knows the head of, a stream reads
nothing from the store.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import orjson

from rules.jsontypes import Json, JsonObject
from service import ops
from service.errors import ApiError

if TYPE_CHECKING:
    from service.games import GameBinding
    from service.sessions import LogEntry, Record, SessionStore

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

CHANNEL = "arbiter:session-moves"
log = logging.getLogger("arbiter.events")


class _Lru(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self._data: OrderedDict[K, V] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)


WAKE_BATCH = 10
"""Streams woken by a move before, under gevent, the fan-out lets the event loop run other work.
Smaller batches answer other requests sooner, at a loop iteration (a poll) per batch: with 3,000
streams, /healthz p50 2.0-2.4 ms and p99 8-11 ms with 10, 3.4-4.0 and 13-20 ms with 25,
8.5 and 17-20 ms with 100 (as ``bench/sessions.py --only streams`` measures, a quiet machine)."""

WAKE_PAUSE = 1e-5
"""The fan-out's pause between two batches (seconds): any positive sleep resumes it at the next
iteration of gevent's loop, after a poll of the sockets (see ``_ring``)."""

CATCH_UP_CACHED = 8
"""A stream woken late (the next move's fan-out began first) is a few events behind: such short
catch-ups are rendered once per view and kept like single events; longer resumes are not kept."""


class _Watch:
    """The doorbell of one open stream, registered for the stream's whole life (a move made
    while the stream is writing is not missed): the newest version announced to it, and an
    event set when that grows. Only the stream clears the event."""

    __slots__ = ("event", "version")

    def __init__(self, version: int) -> None:
        self.event = threading.Event()
        self.version = version

    def ring(self, version: int) -> bool:
        """Announce ``version``; a stream already told of it (or past it) is not woken again.
        True if woken."""
        if version <= self.version:
            return False
        self.version = version
        self.event.set()
        return True

    def sent(self, version: int) -> None:
        """The stream has sent up to ``version``: moves up to it need no wake."""
        if version > self.version:
            self.version = version

    def wait(self, timeout: float) -> int | None:
        """The newest version announced, or None once ``timeout`` passed without one."""
        if not self.event.wait(timeout):
            return None
        self.event.clear()  # before reading the version: a ring after this sets the event again
        return self.version


def _ring(watches: list[_Watch], version: int, pause: Callable[[], Any] | None = None) -> None:
    """Wake the streams of a move, calling ``pause`` after every ``WAKE_BATCH`` woken.

    Under gevent (``make run``) waking a stream queues its greenlet on the worker's one event
    loop. The loop runs what is queued, in order, and polls its sockets only between such runs
    (or once its switch interval, 5 ms, has passed), so a request that arrives meanwhile is
    queued behind every stream woken before it. Woken all at once, 3,000 streams that each
    write their event to their socket held every other request for the whole fan-out: /healthz
    took hundreds of ms per move (bench/README.md, "Sessions at internet scale").

    So the fan-out runs in a greenlet of its own and pauses after each batch with
    ``gevent.sleep(WAKE_PAUSE)``: a positive sleep resumes "at the next iteration of the loop"
    (gevent's words), after the batch's streams have written and after a poll, so a request
    that arrived is served within about one batch. Measured against the alternatives:
    ``gevent.sleep(0)`` may resume before the loop polls (requests then waited for the 5 ms
    switch interval), and ``gevent.idle()`` resumes only when nothing else is pending, which
    under a load that keeps the worker busy starves the fan-out (one batch of 3,000 streams
    had the move a second later)."""
    woken = 0
    for watch in watches:
        if watch.ring(version):
            woken += 1
            if pause is not None and woken % WAKE_BATCH == 0:
                pause()


class Notifier:
    """Wakes the streams of a session when it moves (in this process, and, with a Redis
    client, in every process subscribed to ``CHANNEL``), with the session's new head."""

    live: weakref.WeakSet[Notifier] = weakref.WeakSet()  # every notifier of the process (``stop``)

    def __init__(self, redis_client: Any = None, fetch: Callable[[str], Record] | None = None) -> None:
        self._stopped = threading.Event()
        Notifier.live.add(self)
        self._lock = threading.Lock()
        self._watches: dict[str, dict[_Watch, None]] = {}  # session id -> its open streams, oldest first
        self._redis = redis_client
        self._fetch = fetch
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()
        self.heads: _Lru[str, Record] = _Lru(1024)  # session id -> newest head this process knows
        # (session id, version, seat) -> an event's bytes; (session id, after, last, seat) -> a short catch-up's
        self.rendered: _Lru[tuple[object, ...], bytes | list[bytes]] = _Lru(8192)
        self.open_streams = 0

    # -- stream bookkeeping --------------------------------------------------------------------

    def open(self, session_id: str, limit: int, version: int) -> _Watch:
        """Register a stream that has sent up to ``version``; 429 past ``limit`` per session."""
        watch = _Watch(version)
        with self._lock:
            if len(self._watches.get(session_id, ())) >= limit:
                raise ApiError(429, "session.too-many-streams", "Too many event streams",
                               f"this session already has {limit} open event streams here "
                               "(MAX_STREAMS_PER_SESSION): close one first", headers={"Retry-After": "15"})
            self._watches.setdefault(session_id, {})[watch] = None
            self.open_streams += 1
        return watch

    def close(self, session_id: str, watch: _Watch) -> None:
        with self._lock:
            watches = self._watches.get(session_id)
            if watches is not None and watches.pop(watch, False) is None:
                self.open_streams -= 1
                if not watches:
                    del self._watches[session_id]

    # -- waking --------------------------------------------------------------------------------

    def notify(self, session_id: str, head: Record) -> None:
        """``head`` is the session's new head, just stored."""
        self._learn(session_id, head)
        self._wake(session_id, head["version"])
        if self._redis is not None:
            with contextlib.suppress(Exception):  # the stream's heartbeat re-check covers a lost publish
                self._redis.publish(CHANNEL, f"{session_id} {head['version']}")

    def _learn(self, session_id: str, head: Record) -> None:
        known = self.heads.get(session_id)
        if known is None or known["version"] < head["version"]:
            self.heads.put(session_id, head)

    def _wake(self, session_id: str, version: int) -> None:
        with self._lock:
            watches = list(self._watches.get(session_id, ()))
        if not watches:
            return
        if ops.gevent_patched("threading"):
            import gevent  # type: ignore[import-untyped]

            # a greenlet of its own: the mover's answer does not wait for the fan-out
            gevent.spawn(_ring, watches, version, lambda: gevent.sleep(WAKE_PAUSE))
        else:
            _ring(watches, version)  # threads: the OS schedules the woken streams among the others

    def _remote_move(self, message: str) -> None:
        session_id, _, version = message.partition(" ")
        with self._lock:
            watched = session_id in self._watches
        if not watched:
            return
        known = self.heads.get(session_id)
        moved = int(version) if version.isascii() and version.isdigit() else None
        if self._fetch is not None and (known is None or moved is None or known["version"] < moved):
            with contextlib.suppress(Exception):  # the streams re-read the store themselves
                self._learn(session_id, self._fetch(session_id))
                known = self.heads.get(session_id)
        if moved is None and known is not None:
            moved = known["version"]
        if moved is not None:
            self._wake(session_id, moved)

    # -- other processes (Redis) ---------------------------------------------------------------

    def ensure_listener(self, timeout: float = 2.0) -> None:
        """Start the listener of this process (once) and wait until it is subscribed, so a
        stream that has read the session cannot miss a move published right after."""
        if self._redis is None:
            return
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._subscribed = threading.Event()
                self._stopped.clear()
                self._listener = threading.Thread(target=self._listen, name="arbiter-events", daemon=True)
                self._listener.start()
            subscribed = self._subscribed
        subscribed.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """End this process's listener, if any (an app shut down: ``service.app.shutdown``)."""
        self._stopped.set()
        listener = self._listener
        if listener is not None and listener is not threading.current_thread():
            listener.join(timeout)

    def _listen(self) -> None:
        while not self._stopped.is_set():
            pubsub = None
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self._subscribed.set()
                while not self._stopped.is_set():
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
                self._stopped.wait(1.0)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()


def _sse(event: str | None, data: Json, event_id: int | None = None) -> bytes:
    lines: list[str] = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event is not None:
        lines.append(f"event: {event}")
    lines.append("data: " + orjson.dumps(data).decode())
    return ("\n".join(lines) + "\n\n").encode()


def _event(binding: GameBinding, version: int, item: LogEntry, state: Any, seat: int | None, over: bool) -> bytes:
    engine = binding.engine
    shown, events = binding.logged(item, seat, over)
    data: JsonObject = {"version": version, "seat": item["seat"], "move": shown}
    status = binding.status(state)
    data.update(to_act=status["to_act"], round_over=status["round_over"], game_over=status["game_over"])
    if "scores" in status:
        data["scores"] = status["scores"]
    if "outcome" in status:
        data["outcome"] = status["outcome"]
    data["state"] = engine.view(state, seat)
    data["events"] = list[Json](events)
    return _sse("move", data, version)


def newest_event(binding: GameBinding, head: Record, seat: int | None,
                 cache: _Lru[tuple[object, ...], bytes | list[bytes]] | None = None,
                 session_id: str = "") -> bytes:
    """The event of the head's newest move as ``seat`` sees it, rendered once per view."""
    key = (session_id, head["version"], seat)
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return cast(bytes, hit)  # the key of one event
    state = binding.engine.from_json(head["state"])
    out = _event(binding, head["version"], cast("LogEntry", head["last"]), state, seat, binding.engine.outcome(state) is not None)
    if cache is not None:
        cache.put(key, out)
    return out


def move_events(binding: GameBinding, store: SessionStore, session_id: str, head: Record, seat: int | None,
                after: int, cache: _Lru[tuple[object, ...], bytes | list[bytes]] | None = None) -> list[bytes]:
    """The ``move`` events after version ``after``, each as ``seat`` may see it: from the
    nearest checkpoint at or before ``after``, reading only the log entries after it."""
    last = head["version"]
    if last <= after:
        return []
    if last == after + 1 and head.get("last") is not None:
        return [newest_event(binding, head, seat, cache, session_id)]
    # A short catch-up is kept whole: its events depend on its head too (once the game is over
    # every move is shown in full).
    keep = cache if last - after <= CATCH_UP_CACHED else None
    key = (session_id, after, last, seat)
    if keep is not None:
        hit = keep.get(key)
        if hit is not None:
            return cast("list[bytes]", hit)  # the key of a catch-up
    engine = binding.engine
    checkpoint = store.checkpoint(session_id, after)
    start, state = (checkpoint[0], engine.from_json(checkpoint[1])) if checkpoint else (0, binding.new(head["new"]))
    entries = store.log(session_id, start, last)
    final = engine.from_json(head["state"])
    over = engine.outcome(final) is not None
    out: list[bytes] = []
    for version, item in enumerate(entries, start=start + 1):
        state = final if version == last else engine.apply(state, item["seat"], binding.load_move(item["move"]))
        if version > after:
            out.append(_event(binding, version, item, state, seat, over))
    if keep is not None:
        keep.put(key, out)
    return out


_GONE = _sse("end", {"reason": "the session is gone (deleted, or expired SESSION_TTL after its last move)"})


def stream(store: SessionStore, bindings: Mapping[str, GameBinding], notifier: Notifier, session_id: str,
           token: str | None, last_event_id: str | None, *, heartbeat: float, resume_limit: int,
           show: Callable[[SessionStore, Mapping[str, GameBinding], str, str | None], JsonObject],
           seat_of: Callable[[Record, str | None], int | None], max_streams: int = 1000) -> Iterable[bytes]:
    """The event stream of ``token`` on a session: checked before the first byte (401/403/404/429
    answer as problems), then a snapshot or the missed events, then one event per move."""
    notifier.ensure_listener()
    record = store.get(session_id)
    seat = seat_of(record, token)
    binding = bindings[record["game"]]
    resume = parse_id(last_event_id)
    watch = notifier.open(session_id, max_streams, record["version"])
    known = notifier.heads.get(session_id)
    if known is not None:
        watch.ring(known["version"])  # a move between the read above and open(): sent at once

    def catch_up(after: int | None, head: Record) -> list[bytes]:
        """What brings a client that has ``after`` (None: nothing yet) to ``head``: the missed
        events from the stored log, or a snapshot when they are too many or ``after`` is unknown.
        Whole or nothing (a store failure sends no part of it)."""
        if after is not None and 0 <= after <= head["version"] and head["version"] - after <= resume_limit:
            return move_events(binding, store, session_id, head, seat, after, notifier.rendered)
        return [_sse("snapshot", show(store, bindings, session_id, token), head["version"])]

    def events() -> Generator[bytes, None, None]:
        try:
            yield f"retry: {int(heartbeat * 1000)}\n\n".encode()
            head, last, announced = record, resume, None
            pending, failed = True, False  # the first answer (the resume, or a snapshot) is sent at once
            while True:
                if failed or not pending:
                    failed = False
                    announced = watch.wait(heartbeat)
                    known = notifier.heads.get(session_id)
                    if announced is not None and known is not None and known["version"] >= announced:
                        head = known  # the move's head as this process learnt it: no store read per stream
                    else:
                        # a heartbeat (does the session still exist?), or another process's move
                        # whose head this process could not fetch
                        try:
                            head = store.get(session_id)
                        except ApiError as exc:
                            if exc.code == "session.not-found":
                                yield _GONE
                                return
                            yield b": keep-alive (session store unavailable)\n\n"
                            failed = True
                            continue
                    pending = last is None or head["version"] > last
                if pending:
                    try:
                        chunks = catch_up(last, head)
                    except ApiError as exc:  # the store failed (or the session went) mid-way
                        if exc.code == "session.not-found":
                            yield _GONE
                            return
                        yield b": keep-alive (session store unavailable)\n\n"
                        failed = True  # tried again at the next wake or heartbeat
                        continue
                    yield from chunks
                    last, pending = head["version"], False
                    watch.sent(last)  # caught up past what was announced: no wake for those moves
                elif announced is None:
                    yield b": keep-alive\n\n"
        finally:
            notifier.close(session_id, watch)

    return _Released(events(), lambda: notifier.close(session_id, watch))


class _Released:
    """A stream's body whose ``close`` gives its registration back even when it was never read
    (a HEAD request, a client gone before the first byte: the WSGI server closes the body
    without running the generator, so its ``finally`` never runs). Closing twice is harmless."""

    __slots__ = ("_chunks", "_release")

    def __init__(self, chunks: Generator[bytes, None, None], release: Callable[[], None]) -> None:
        self._chunks, self._release = chunks, release

    def __iter__(self) -> Iterator[bytes]:
        return self._chunks

    def close(self) -> None:
        try:
            self._chunks.close()  # a generator: its finally runs if it started
        finally:
            self._release()


def parse_id(value: str | None) -> int | None:
    """A ``Last-Event-ID`` as a version: ASCII digits only (``'²'.isdigit()`` is true too)."""
    if value is None:
        return None
    value = value.strip()
    if not value or len(value) > 12 or not value.isascii() or not value.isdigit():
        return None
    return int(value)
