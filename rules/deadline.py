"""A bound on the work of one request (DESIGN 4.9); standard library only.

The service opens a ``budget`` around each request (``service.guard``); the long loops of the
rules (replays, legal-move enumerations, record readers) call ``check()``, which raises
``DeadlineExceeded`` once the request has spent its budget. With no budget open (an engine used
as a library, a test) ``check()`` is one context-variable read.

How a request's CPU is counted:

- per thread (a threaded server, the test client): the thread's own CPU time since the budget
  opened (``time.thread_time``), read by ``check()``;
- under gevent (``make run``: every request a greenlet of one thread, so the thread's CPU time
  is everyone's): by sampling. ``start_sampler()`` sets an interval timer (``ITIMER_REAL``,
  ``SIGALRM``) that ticks every ``TICK`` seconds; its handler charges the tick to the budget of
  the greenlet running then (each greenlet has its own context variables) and, once that budget
  is spent, raises ``DeadlineExceeded`` in it, wherever it is: work that never yields and never
  calls ``check()`` is interrupted too (a ``gevent.Timeout`` fires only at a yield). What is
  counted is the time the request holds the worker's one thread, computing or waiting for a
  core on a busy machine: what every other connection and gunicorn's heartbeat wait for. (A
  CPU timer, ``ITIMER_PROF``, let a request with 5 s of CPU hold a loaded worker for 28 s.) A
  tick that finds the hub or a greenlet without a budget is charged to nobody.

``DeadlineExceeded`` is a ``BaseException`` (as ``KeyboardInterrupt`` and ``gevent.Timeout``
are): no ``except Exception`` on the way swallows it; the outermost layer answers it.
"""

from __future__ import annotations

import atexit
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from types import FrameType

TICK = 0.05  # seconds between two samples under gevent


class DeadlineExceeded(BaseException):
    """The request has spent its CPU budget (``seconds``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the request used more than {seconds:g} s of CPU")
        self.seconds = seconds


class Budget:
    """One request's CPU allowance: ``limit`` seconds, counted from ``start`` (thread CPU
    time) or by the sampler's ticks (``sampled``)."""

    __slots__ = ("limit", "start", "sampled", "ticks", "spent_out")

    def __init__(self, limit: float, sampled: bool) -> None:
        self.limit, self.sampled = limit, sampled
        self.start = 0.0 if sampled else time.thread_time()
        self.ticks = 0.0
        self.spent_out = False  # raised once: the refusal itself is never interrupted

    def spent(self) -> float:
        return self.ticks if self.sampled else time.thread_time() - self.start

    def over(self) -> bool:
        if self.spent_out or self.spent() <= self.limit:
            return False
        self.spent_out = True
        return True


_current: ContextVar[Budget | None] = ContextVar("arbiter_cpu_budget", default=None)


@contextmanager
def budget(seconds: float, sampled: bool = False) -> Iterator[Budget | None]:
    """Work inside may use ``seconds`` of CPU (none: no bound); ``sampled`` under gevent."""
    if seconds <= 0:
        yield None
        return
    token = opened(seconds, sampled)
    try:
        yield _current.get()
    finally:
        closed(token)


def opened(seconds: float, sampled: bool) -> Token[Budget | None]:
    """What ``budget`` opens (``seconds`` > 0), without a generator and a context manager per
    call: the service opens one around every request (``service.guard``). Open until ``closed``
    is given the token returned."""
    return _current.set(Budget(seconds, sampled))


def closed(token: Token[Budget | None]) -> None:
    _current.reset(token)


def check() -> None:
    """Raise ``DeadlineExceeded`` when the running request has spent its budget."""
    held = _current.get()
    if held is not None and held.over():
        raise DeadlineExceeded(held.limit)


def _tick(signum: int, frame: FrameType | None) -> None:
    held = _current.get()
    if held is None or not held.sampled:
        return
    held.ticks += TICK
    if held.over():
        raise DeadlineExceeded(held.limit)


def start_sampler() -> bool:
    """Start the sampler in this process (call from the main thread, after any fork: interval
    timers are not inherited); False where there are no interval timers."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover - not POSIX
        return False
    signal.signal(signal.SIGALRM, _tick)
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
    # the timer stops before the interpreter puts SIGALRM back to its default, which ends the process
    atexit.register(stop_sampler)
    return True


def stop_sampler() -> None:
    atexit.unregister(stop_sampler)
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
