"""One client cannot deny everyone (DESIGN 4.9): the CPU budget of a request.

``REQUEST_CPU_SECONDS`` bounds the CPU one request spends (``rules.deadline``, ``service.guard``):
beyond it the answer is 503 ``request.too-much-work`` and the worker lives on. Under threads the
rules' long loops check the budget; under the gevent worker of ``make run`` a CPU sampler
(``SIGALRM``) interrupts even a loop that never yields and never checks.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from rules import deadline
from service.app import create_app
from service.config import TestConfig
from tests.live import make_run


def _get(url: str, headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_sampler_interrupts_a_loop_that_never_checks() -> None:
    """No ``check()`` in the loop and no yield: the SIGALRM handler raises in it."""
    assert deadline.start_sampler()
    try:
        n = 0
        with pytest.raises(deadline.DeadlineExceeded) as caught, deadline.budget(0.2, sampled=True):
            while True:
                n += 1
        assert caught.value.seconds == 0.2
    finally:
        deadline.stop_sampler()


def test_check_raises_once_a_thread_has_spent_its_cpu() -> None:
    with pytest.raises(deadline.DeadlineExceeded), deadline.budget(0.05):
        while True:
            deadline.check()


def test_no_budget_no_bound() -> None:
    with deadline.budget(0) as held:
        assert held is None
        deadline.check()
    deadline.check()


def long_replay(game: str = "backgammon", plies: int = 60) -> dict[str, Any]:
    """A replay body of ``plies`` legal moves (each the first one listed), from a seeded start."""
    client = create_app(TestConfig).test_client()
    new = {"players": 2, "seed": 5}
    out: Any = client.post(f"/v1/games/{game}/new", json=new).json
    played: list[dict[str, Any]] = []
    while out["to_act"] and len(played) < plies:
        seat = out["to_act"][0]
        listed: Any = client.post(f"/v1/games/{game}/legal-moves", json={"state": out["state"], "seat": seat}).json
        move = listed["moves"][0]
        out = client.post(f"/v1/games/{game}/apply", json={"state": out["state"], "seat": seat, "move": move}).json
        played.append({"seat": seat, "move": move})
    return {"new": new, "moves": played}


def test_a_replay_past_the_budget_is_503_too_much_work_in_english_and_polish() -> None:
    client = create_app(TestConfig, {"REQUEST_CPU_SECONDS": 1e-6}).test_client()
    game, body = "backgammon", long_replay()
    for lang, title in (("en", "Too much work"), ("pl", "Zbyt dużo pracy")):
        r = client.post(f"/v1/games/{game}/replay", json=body, headers={"Accept-Language": lang})
        problem: Any = r.json
        assert r.status_code == 503, problem
        assert problem["code"] == "request.too-much-work"
        assert problem["title"] == title
        assert r.headers["Content-Language"] == lang
    ok = create_app(TestConfig).test_client().post(f"/v1/games/{game}/replay", json=body)
    assert ok.status_code == 200, "within the default budget the same replay is answered"


def test_the_code_is_in_the_catalogue() -> None:
    client = create_app(TestConfig).test_client()
    listed: Any = client.get("/v1/codes").json
    codes = {c["code"]: c for c in listed["codes"]}
    assert codes["request.too-much-work"]["status"] == 503
    listed = client.get("/v1/codes", headers={"Accept-Language": "pl"}).json
    pl = {c["code"]: c for c in listed["codes"]}
    assert pl["request.too-much-work"]["title"] == "Zbyt dużo pracy"


def test_under_make_run_a_request_that_never_yields_is_stopped_and_the_worker_lives() -> None:
    """gunicorn's gevent worker, one process: the burning request ends as 503 while /healthz is
    answered (once the budget interrupts it), and the same worker process answers afterwards."""
    env = {"REQUEST_CPU_SECONDS": "1"}
    with make_run(env, APP="tests.service.cpu_hog_app:create()") as url:
        status, before = _get(f"{url}/test/pid")
        assert status == 200
        out: dict[str, tuple[int, Any]] = {}
        burner = threading.Thread(target=lambda: out.update(burn=_get(f"{url}/test/burn",
                                                                       {"Accept-Language": "pl"})))
        burner.start()
        time.sleep(0.3)  # the burn has begun: /healthz waits behind it until the budget ends it
        health = _get(f"{url}/healthz")
        burner.join(30)
        assert not burner.is_alive()
        status, problem = out["burn"]
        assert status == 503, problem
        assert problem["code"] == "request.too-much-work"
        assert problem["title"] == "Zbyt dużo pracy"
        assert health == (200, {"status": "ok"})
        assert _get(f"{url}/test/pid") == (200, before), "the same worker answers: it was never killed"
