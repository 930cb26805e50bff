"""A killed server leaves no bot worker behind (issue 53): after ``kill -9`` of ``truco serve``,
its worker processes and multiprocessing's resource tracker exit within a few seconds, rather
than living on under init for good (:mod:`truco.web.lifeline`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from web_helpers import _free_port, wait_healthy
from websockets.asyncio.client import connect

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

WORKERS = 2
#: How long the workers may take to notice: they are told at once (a pidfd), so this is only
#: a margin for a loaded machine.
GONE_WITHIN_S = 5.0


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of ``pid``, or None when there is no such process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), fields[0], int(fields[19])


def _children(parent: int) -> dict[int, tuple[str, int]]:
    """Each child of ``parent``: its command line and start time."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) and stat[0] == parent:
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
                out[int(entry)] = (cmdline.decode(errors="replace"), stat[2])
    return out


def _alive(pid: int, started: int) -> bool:
    """Whether the process ``pid`` that started at ``started`` still runs (a zombie is dead, a
    reused pid is another process)."""
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[1] != "Z"


async def _watch_bots_play(base: str, ws: str) -> None:
    """Create a table of bots and watch it until the bots have made a few moves, so that the
    workers have started, warmed up and thought (a table of bots plays only while watched)."""
    async with httpx.AsyncClient(timeout=10) as http:
        body = {"variant": "argentino", "players": 2, "seats": [{"kind": "bot"}] * 2}
        r = await http.post(f"{base}/api/tables", json=body)
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
    async with connect(f"{ws}/{table_id}", max_size=2**22) as socket_:
        await socket_.send(json.dumps({"type": "hello"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(socket_.recv(), 60))
            if message.get("type") == "state" and message["view"]["seq"] >= 4:
                return
    raise AssertionError("the bots did not play")


def test_killed_server_leaves_no_worker(tmp_path: Path) -> None:
    port = _free_port()
    args = [sys.executable, "-m", "truco.commands.cli", "serve", "--port", str(port)]
    args += ["--database-url", f"sqlite:///{tmp_path / 'truco.sqlite3'}"]
    args += ["--bot-workers", str(WORKERS), "--bot-delay", "0", "--hand-pause", "0"]
    args += ["--bot-executor", "process"]
    with open(tmp_path / "serve.log", "wb") as log:
        server = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    children: dict[int, tuple[str, int]] = {}
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server, tmp_path / "serve.log")
        asyncio.run(_watch_bots_play(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"))
        children = _children(server.pid)
        workers = [p for p, (cmd, _) in children.items() if "multiprocessing.spawn" in cmd]
        trackers = [p for p, (cmd, _) in children.items() if "resource_tracker" in cmd]
        assert len(workers) == WORKERS and len(trackers) == 1, children

        server.send_signal(signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + GONE_WITHIN_S
        left = dict(children)
        while left and time.monotonic() < deadline:
            left = {p: c for p, c in left.items() if _alive(p, c[1])}
            time.sleep(0.05)
        assert not left, f"left behind after kill -9 of the server: {left}"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid, (_, started) in children.items():  # what a failed run left: ours to end
            if _alive(pid, started):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


_GRANDCHILD = """
import os, sys, time
if sys.argv[1] == "poll":
    del os.pidfd_open  # as on a system without pidfds: the watcher polls getppid()
from truco.web.lifeline import tie_to_parent
tie_to_parent(os.getppid(), poll_s=0.05)
print("tied", flush=True)
time.sleep(60)
"""
_PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]], stdout=subprocess.PIPE)
print(child.pid, child.stdout.readline().decode().strip(), flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("how", ["pidfd", "poll"])
def test_a_tied_process_exits_with_its_parent(how: str) -> None:
    if how == "pidfd" and not hasattr(os, "pidfd_open"):
        pytest.skip("no pidfd on this system")  # the poll case runs everywhere
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT, _GRANDCHILD, how], stdout=subprocess.PIPE
    )
    pid, stat = 0, None
    try:
        assert parent.stdout is not None
        pid_text, said = parent.stdout.readline().decode().split()
        pid = int(pid_text)
        stat = _stat(pid)
        assert said == "tied" and stat is not None and stat[0] == parent.pid
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + GONE_WITHIN_S
        while _alive(pid, stat[2]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _alive(pid, stat[2]), "the tied process outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)
        if stat is not None and _alive(pid, stat[2]):  # what a failed run left: ours to end
            os.kill(pid, signal.SIGKILL)
