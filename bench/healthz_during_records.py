"""``/healthz`` while the worst hostile record is checked (issue 25: "within 100 ms").

    python bench/healthz_during_records.py [--attack NAME...] [--size BYTES] [--rounds 3]

Serves the app as `make run` does (gunicorn, the gevent worker, ``service.gunicorn_conf``), one
worker pinned to core 0, and posts each hostile input of ``tests/rules/test_backgammon_record_attacks.py``
(all of them unless ``--attack`` names some) to ``POST /v1/games/backgammon/records``, the format
left to sniff as a client would; meanwhile a thread asks ``GET /healthz`` every 10 ms on
fresh connections until the record's answer comes. Printed per input and round: the record's
status and seconds, and the health checks' count, median and worst latency in ms; at the end the
worst of all. Never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.servers import start  # noqa: E402
from tests.live import free_port, stop  # noqa: E402
from tests.rules.test_backgammon_record_attacks import ATTACKS  # noqa: E402


def health_ms(port: int) -> float:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/healthz")
        conn.getresponse().read()
    finally:
        conn.close()
    return (time.perf_counter() - started) * 1000


def one_round(port: int, body: bytes) -> tuple[int, float, list[float]]:
    done = threading.Event()
    latencies: list[float] = []

    def probe() -> None:
        while not done.is_set():
            latencies.append(health_ms(port))
            time.sleep(0.01)

    prober = threading.Thread(target=probe)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("POST", "/v1/games/backgammon/records", body=body, headers={"Content-Type": "text/plain"})
    time.sleep(0.05)  # the body is sent: the worker is reading it
    prober.start()
    status = conn.getresponse().status
    took = time.perf_counter() - started
    done.set()
    prober.join()
    conn.close()
    return status, took, latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", nargs="*", default=list(ATTACKS), choices=sorted(ATTACKS))
    parser.add_argument("--size", type=int, default=4 * 1024 * 1024 - 4096, help="bytes of the hostile input")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    port = free_port()
    server = start("gunicorn-gevent", "service.app:create_app()", port)
    worst: tuple[float, str] = (0.0, "")
    try:
        print(f"POST /v1/games/backgammon/records of {args.size} bytes; GET /healthz every 10 ms meanwhile")
        for name in args.attack:
            body = ATTACKS[name](args.size).encode()
            for n in range(args.rounds):
                status, took, lat = one_round(port, body)
                worst = max(worst, (max(lat, default=0.0), name))
                print(f"{name:20} round {n + 1}: record {status} in {took:5.2f} s; /healthz x{len(lat):<3}: median "
                      f"{statistics.median(lat) if lat else 0:5.1f} ms, worst {max(lat, default=0):6.1f} ms", flush=True)
    finally:
        stop(server)
    print(f"worst /healthz: {worst[0]:.1f} ms, during {worst[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
