"""gunicorn settings of `make run` and the Dockerfile: ``--config python:service.gunicorn_conf``."""

from __future__ import annotations

from typing import Any


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    """Under the gevent worker, let the other connections run after each request.

    A greenlet serving a keep-alive connection whose next request has already arrived would
    otherwise serve it at once, ahead of connections that have waited longer: with 16 busy
    connections, one in a hundred requests waited 100-500 ms. Yielding here serves connections
    in turn (bench/README.md has the figures)."""
    if type(worker).__module__ == "gunicorn.workers.ggevent":
        import gevent  # type: ignore[import-untyped]  # only under that worker, which has patched the stdlib

        gevent.sleep(0)


def post_worker_init(worker: Any) -> None:
    """The app loaded (every game's rules, specs and schemas), frozen out of the cyclic garbage
    collector: they live as long as the worker, and each full collection walked them again, a
    pause of 100-200 ms for everyone on the worker while a large record made new objects
    (bench/healthz_during_records.py; ``arbiter check`` freezes its start-up the same way)."""
    import gc

    gc.collect()
    gc.freeze()
