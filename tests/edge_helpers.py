"""Helpers for the edge tests (issue 53): a real ``truco serve`` in a subprocess, and clients
bound to a chosen loopback source address (Linux routes all of 127/8 to ``lo``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """``truco serve`` with ``flags`` on a free loopback port, its log in ``folder``."""

    def __init__(self, folder: Path, *flags: str) -> None:
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.log_path = folder / f"serve-{self.port}.log"
        self._log = self.log_path.open("wb")
        command = [
            *(sys.executable, "-m", "truco.commands.cli", "serve", "--port", str(self.port)),
            *("--database-url", f"sqlite:///{folder / f'edge-{self.port}.sqlite3'}"),
            *("--bot-executor", "thread", "--bot-workers", "1", "--log-level", "warning"),
            *flags,
        ]
        self.process = subprocess.Popen(
            command, stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ}
        )

    def __enter__(self) -> Served:
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"truco serve exited: {self.log()}")
            try:
                if httpx.get(self.http + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"truco serve did not start: {self.log()}")
            time.sleep(0.1)

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def create(self, source: str = "127.0.0.1", **headers: str) -> dict[str, Any]:
        """A two-person table created from ``source``; its id and seat tokens."""
        body = {"variant": "argentino", "players": 2, "seats": [{"kind": "human"}] * 2}
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport, base_url=self.http, timeout=10) as client:
            r = client.post("/api/tables", json=body, headers=headers)
        r.raise_for_status()
        data = r.json()
        return {"id": data["id"], "tokens": [s["token"] for s in data["seats"]]}

    def post_table(self, source: str = "127.0.0.1", **headers: str) -> int:
        """The status of ``POST /api/tables`` from ``source``."""
        body = {"variant": "argentino", "players": 2, "seats": [{"kind": "bot"}] * 2}
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport, base_url=self.http, timeout=10) as client:
            return client.post("/api/tables", json=body, headers=headers).status_code

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


def raw(port: int, data: bytes, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A plain TCP connection from ``source`` that has sent ``data``."""
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    if data:
        s.sendall(data)
    return s


def read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (or the timeout)."""
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return got


def loopback(i: int) -> str:
    """The ``i``-th loopback source address, from 127.0.1.1 on (never 127.0.0.1)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"
