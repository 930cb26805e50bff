"""A worker process's tie to the server that started it: the worker exits when the server dies.

A server that exits in order stops its bot workers itself (:meth:`truco.web.bots.BotRunner.close`).
One killed with ``SIGKILL``, or by the kernel for memory, cannot: its workers, blocked on a
queue whose write end they hold too, would live on under init for good, about 115 MiB each
(issue 53). So each worker watches its parent from a thread and exits the moment the parent
is gone. On Linux the thread waits on a pidfd of the parent (woken by its exit); elsewhere it
polls ``os.getppid()``.

``PR_SET_PDEATHSIG`` is not used: it follows the *thread* that spawned the worker, and the
executor may spawn workers from a thread that ends long before the server does (decision 128).
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from typing import Final

#: Seconds between two looks at the parent where no pidfd wakes the watcher at once.
POLL_S: Final = 0.5
#: The exit status of a worker whose server died (nobody reads it: for ``ps`` and core dumps).
ORPHANED: Final = 70


def tie_to_parent(parent: int, poll_s: float = POLL_S) -> threading.Thread:
    """Exit this process (at once, without cleanup) as soon as process ``parent`` is no longer
    its parent; the watching thread, started. Exits at once if it is already gone (it died
    while this worker was starting)."""
    fd = _pidfd(parent)
    if os.getppid() != parent:  # checked after the pidfd opened: a reused pid cannot fool it
        os._exit(ORPHANED)
    thread = threading.Thread(
        target=_watch, args=(parent, fd, poll_s), name="truco-lifeline", daemon=True
    )
    thread.start()
    return thread


def _pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    with contextlib.suppress(OSError):  # an old kernel, a sandbox without the syscall
        fd: int = opener(pid)
        return fd
    return None


def _watch(parent: int, fd: int | None, poll_s: float) -> None:
    while os.getppid() == parent:
        if fd is None:
            time.sleep(poll_s)
        elif select.select([fd], [], [], poll_s)[0]:
            break  # the pidfd is readable: the parent has exited
    os._exit(ORPHANED)


__all__ = ["ORPHANED", "POLL_S", "tie_to_parent"]
