"""An app with two extra routes for the CPU-budget tests (``tests/service/test_limits.py``):
``/test/burn`` spins in pure Python without ever yielding or calling ``rules.deadline.check``,
``/test/pid`` names the worker process. Served as ``APP='tests.service.cpu_hog_app:create()'``."""

from __future__ import annotations

import os

from flask import Flask

from service.app import create_app


def create() -> Flask:
    app = create_app()

    @app.get("/test/burn")
    def burn() -> dict[str, int]:
        n = 0
        while True:  # only the CPU sampler can end this
            n += 1

    @app.get("/test/pid")
    def pid() -> dict[str, int]:
        return {"pid": os.getpid()}

    return app
