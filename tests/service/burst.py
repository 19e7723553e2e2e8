"""Bursts of concurrent requests from one address, on raw sockets (no thread per request): every
request is sent before any answer is read. Used by ``test_bursts.py`` and ``bench/abuse.py``."""

from __future__ import annotations

import json
import selectors
import socket
import time
from typing import Any
from urllib.parse import urlsplit


def request_bytes(method: str, path: str, body: dict[str, Any] | None = None,
                  headers: dict[str, str] | None = None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{k}: {v}" for k, v in (headers or {}).items())]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def burst(url: str, raw: bytes, count: int, source: str = "127.0.0.1", timeout: float = 60) -> list[tuple[int, dict[str, Any]]]:
    """``count`` connections from ``source`` each sending ``raw`` at once; (status, JSON body) per
    answer (status 0: the connection closed without one)."""
    parts = urlsplit(url)
    socks = []
    for _ in range(count):
        s = socket.create_connection((parts.hostname, parts.port), timeout=timeout, source_address=(source, 0))
        socks.append(s)
    for s in socks:
        s.sendall(raw)
    sel = selectors.DefaultSelector()
    got: dict[socket.socket, bytearray] = {}
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        got[s] = bytearray()
    open_socks, deadline = len(socks), time.monotonic() + timeout
    while open_socks and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1):
            conn: socket.socket = key.fileobj  # type: ignore[assignment]  # the sockets registered above
            try:
                chunk = conn.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                got[conn] += chunk
            else:
                sel.unregister(conn)
                conn.close()
                open_socks -= 1
    out = []
    for s in socks:
        if s.fileno() != -1:
            sel.unregister(s)
            s.close()
        out.append(_parse(bytes(got[s])))
    sel.close()
    return out


def _parse(data: bytes) -> tuple[int, dict[str, Any]]:
    if not data.startswith(b"HTTP/1."):
        return 0, {}
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = _unchunk(body)
    try:
        parsed = json.loads(body) if body else {}
        return status, parsed if isinstance(parsed, dict) else {}
    except ValueError:
        return status, {}


def _unchunk(body: bytes) -> bytes:
    out = bytearray()
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2:]
    return bytes(out)
