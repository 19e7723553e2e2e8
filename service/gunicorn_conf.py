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
