"""Bot levels and the executor that runs them off the event loop.

A bot is CPU-bound (``search`` thinks for about 100 ms), so it never runs on the event loop: by
default it runs in a pool of worker processes, where it cannot hold the server's GIL, so one
thinking bot never delays other tables. A bot is made afresh for each move from its level
and a seed; it receives only the observations of its seat (RULES.md 10): the one it moves in
and, so that it remembers the match as a bot that played it would (``expert`` learns from
the hands it saw end), the seat's observation at the start of each earlier hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from truco.bots import make_bot
from truco.observation import Observation

#: Level name -> (bot registry name, options). The browser shows these names.
BOT_LEVELS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "random": ("random", {}),
    "heuristic": ("heuristic", {}),
    "search": ("search", {}),  # its default fixed deals: the same seed plays the same move
    # The levels people pick (issue 10), by the names the terminal uses too.
    "easy": ("easy", {}),
    "normal": ("heuristic", {}),
    "hard": ("search", {}),
    "expert": ("expert", {}),  # its default fixed deals, like search
}
#: The levels the home page offers; the others stay accepted (stored tables, API clients).
OFFERED_LEVELS: Final = ("easy", "normal", "hard", "expert", "random")
DEFAULT_LEVEL: Final = "normal"


def _searches(level: str) -> bool:
    """Whether a level's bot searches (``search``, ``expert``), whose moves are capped
    (issue 12)."""
    return BOT_LEVELS[level][0] in ("search", "expert")


def choose(level: str, seed: int, obs: Observation, history: tuple[Observation, ...] = ()) -> int:
    """The action the bot of ``level`` takes at ``obs`` (run in a worker), once it has
    recalled ``history``, its seat's earlier observations of the match."""
    name, options = BOT_LEVELS[level]
    bot = make_bot(name, seed=seed, **options)
    for past in history:
        bot.recall(past)
    action = bot.choose(obs)
    return action if action in obs.legal_actions else obs.legal_actions[0]


#: How much lower than the server's a bot worker's scheduling priority is (Unix ``nice``): a
#: bot that thinks for a second yields the CPU to the event loop, so on a machine with few
#: cores the people's actions at every table keep their latency while bots think.
WORKER_NICENESS: Final = 10


def _lower_priority() -> None:
    """A worker process's initializer: run at :data:`WORKER_NICENESS` (where the OS has it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)


def _warm() -> int:
    """Import the bots in a worker before the first move needs them."""
    make_bot("random", seed=0)
    return os.getpid()


#: Seconds a move of each level may take in a worker before the watchdog's grace starts.
THINK_BUDGET: Final[dict[str, float]] = {
    level: 1.0 if name in ("search", "expert") else 0.5 for level, (name, _) in BOT_LEVELS.items()
}


@dataclass(eq=False, slots=True)
class _Job:
    level: str
    seed: int
    obs: Observation
    future: asyncio.Future[int]
    history: tuple[Observation, ...] = field(default=())
    started: float = 0.0
    pool: Executor | None = None


class BotRunner:
    """Runs bot moves in a pool of workers, through a fair queue.

    Every move waits in a queue: moves for tables where a person sits go first, then those of
    tables of bots only (which play only while watched); within each, first come first
    served. A table's bot loop asks for one move at a time, so no table can take more than
    its turn. At most ``search_concurrency`` moves at ``search`` level think at once (by
    default all workers but one), so quick bots always find a free worker.

    A pool that breaks (a worker killed, out of memory) is replaced; the moves it held fail
    and their tables try again (:meth:`truco.web.tables.Table._bots`).
    """

    def __init__(self, kind: str = "process", workers: int = 0, search_concurrency: int = 0):
        if kind not in ("process", "thread"):
            raise ValueError(f"bot executor must be process or thread, not {kind!r}")
        self.count = workers or max(1, min(4, os.cpu_count() or 1))
        self.search_cap = search_concurrency or max(1, self.count - 1)
        self.kind = kind
        self.pool = self._new_pool()
        self._queues: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self._running: set[_Job] = set()
        self.renewed = 0
        self._closed = False

    def _new_pool(self) -> Executor:
        if self.kind == "process":
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(self.count, mp_context=context, initializer=_lower_priority)
        return ThreadPoolExecutor(self.count, thread_name_prefix="truco-bot")

    def renew(self, broken: Executor | None = None) -> None:
        """Replace the pool (if ``broken`` is still the current one)."""
        if broken is not None and broken is not self.pool:
            return
        old, self.pool = self.pool, self._new_pool()
        self.renewed += 1
        with contextlib.suppress(Exception):
            old.shutdown(wait=False, cancel_futures=True)
        if isinstance(old, ProcessPoolExecutor):  # a hung worker would hold its process
            for process in list(getattr(old, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    process.kill()

    async def warm(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.pool, _warm)

    async def choose(
        self,
        level: str,
        seed: int,
        obs: Observation,
        priority: int = 0,
        history: tuple[Observation, ...] = (),
    ) -> int:
        """The bot's move, once a worker is free for it (``priority`` 0 before 1), after it
        has recalled ``history`` (:func:`choose`)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        job = _Job(level, seed, obs, future, history=history)
        self._queues[min(1, max(0, priority))].append(job)
        self._dispatch()
        return await future

    def waiting(self) -> int:
        return sum(len(q) for q in self._queues)

    def _next(self) -> _Job | None:
        searching = sum(1 for j in self._running if _searches(j.level))
        for queue in self._queues:
            for job in list(queue):
                if job.future.done():  # its table gave up on it
                    queue.remove(job)
                elif not _searches(job.level) or searching < self.search_cap:
                    queue.remove(job)
                    return job
        return None

    def _dispatch(self) -> None:
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        while len(self._running) < self.count:
            job = self._next()
            if job is None:
                return
            try:
                done = self._submit(loop, job)
            except Exception as e:  # the pool is broken even afresh: this move fails
                if not job.future.done():
                    job.future.set_exception(e)
                continue
            self._running.add(job)
            done.add_done_callback(functools.partial(self._finished, job))

    def _submit(self, loop: asyncio.AbstractEventLoop, job: _Job) -> asyncio.Future[int]:
        job.started = time.monotonic()
        try:
            job.pool = self.pool
            return loop.run_in_executor(
                self.pool, choose, job.level, job.seed, job.obs, job.history
            )
        except (BrokenExecutor, RuntimeError):  # broken or shut down: start afresh, once
            self.renew(job.pool)
            job.pool = self.pool
            return loop.run_in_executor(
                self.pool, choose, job.level, job.seed, job.obs, job.history
            )

    def _finished(self, job: _Job, done: asyncio.Future[int]) -> None:
        self._running.discard(job)
        if done.cancelled():
            error: BaseException | None = RuntimeError("the bot's move was cancelled")
        else:
            error = done.exception()
        if isinstance(error, BrokenExecutor):
            self.renew(job.pool)
        if not job.future.done():
            if error is None:
                job.future.set_result(done.result())
            else:
                job.future.set_exception(error)
        self._dispatch()

    def fail_stuck(self, grace: float) -> int:
        """Fail every move thinking longer than its level's budget plus ``grace`` seconds (a
        hung worker) and replace the pool; how many failed."""
        now = time.monotonic()
        stuck = [j for j in self._running if now - j.started > THINK_BUDGET[j.level] + grace]
        for job in stuck:
            self._running.discard(job)
            if not job.future.done():
                job.future.set_exception(TimeoutError("the bot took too long to think"))
        if stuck and not self._closed:
            self.renew()
            self._dispatch()
        return len(stuck)

    def close(self) -> None:
        """Stop the workers (waiting for them, so nothing of theirs outlives the server)."""
        self._closed = True
        for queue in self._queues:  # their tables' bot loops were cancelled already
            queue.clear()
        self.pool.shutdown(wait=True, cancel_futures=True)
