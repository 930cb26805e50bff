"""Bot levels and the executor that runs them off the event loop.

A bot is CPU-bound (``search`` thinks for about 100 ms), so it never runs on the event loop: by
default it runs in a pool of worker processes, where it cannot hold the server's GIL, so one
thinking bot never delays other tables. A bot is made afresh for each move from its level
and a seed; it receives only the observations of its seat (docs/rules.md §10): the one it moves in
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
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from truco.bots import make_bot
from truco.bots.policy import shared_policy
from truco.observation import Observation
from truco.web.lifeline import tie_to_parent

T = TypeVar("T")

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


def _start_worker(server: int) -> None:
    """A worker process's initializer: die with the ``server`` process however it dies
    (:func:`truco.web.lifeline.tie_to_parent`, decision 128), run at :data:`WORKER_NICENESS`
    (where the OS has it), and load what the bots need before any move of theirs is timed
    (:func:`_warm`)."""
    tie_to_parent(server)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    _warm()


def _warm() -> int:
    """Import the bots, and read the policy ``expert`` plays (about a second of CPU), in a
    worker before the first move needs them."""
    make_bot("random", seed=0)
    shared_policy()
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
        #: When the current pool's workers had all started and warmed up (None: not yet).
        #: No move is failed for thinking too long before then (:meth:`fail_stuck`): a pool
        #: that starts on a busy machine is slow, not hung.
        self.ready_at: float | None = None
        self._generation = 0
        self.pool = self._new_pool()
        self._queues: tuple[deque[_Job], deque[_Job]] = (deque(), deque())
        self._running: set[_Job] = set()
        self.renewed = 0
        self._closed = False

    def _new_pool(self) -> Executor:
        self._generation += 1
        if self.kind == "thread":  # (the server's own process: nothing to start or read)
            self.ready_at = time.monotonic()
            return ThreadPoolExecutor(self.count, thread_name_prefix="truco-bot")
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            self.count, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
        )
        self.ready_at = None
        generation = self._generation
        warming = [pool.submit(_warm) for _ in range(self.count)]  # one per worker, first

        def warmed(_: object) -> None:  # (in the pool's thread: it only sets a number)
            if generation == self._generation and all(f.done() for f in warming):
                self.ready_at = time.monotonic()

        for future in warming:
            future.add_done_callback(warmed)
        return pool

    def renew(self, broken: Executor | None = None) -> None:
        """Replace the pool (if ``broken`` is still the current one)."""
        if broken is not None and broken is not self.pool:
            return
        old = self.pool
        # Its processes, taken before the shutdown forgets them: a hung one must be killed.
        processes = list((getattr(old, "_processes", None) or {}).values())
        self.pool = self._new_pool()
        self.renewed += 1
        with contextlib.suppress(Exception):
            old.shutdown(wait=False, cancel_futures=True)
        for process in processes:
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

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (picklable, like a move) run in the bots' pool, outside the moves'
        queue: work that is not a move (a finished game's review, issue 51). The caller
        bounds how many it runs at once, so that the moves always find a free worker."""
        if self._closed:
            raise RuntimeError("the bot workers are closed")
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            done = loop.run_in_executor(pool, fn, *args)
        except (BrokenExecutor, RuntimeError):  # broken or shut down: start afresh, once
            self.renew(pool)
            pool = self.pool
            done = loop.run_in_executor(pool, fn, *args)
        try:
            return await done
        except BrokenExecutor:
            self.renew(pool)
            raise

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
        hung worker) and replace the pool; how many failed. A move's time counts from when
        it was handed to the pool, or from when the pool was ready if that came later."""
        if self.ready_at is None:
            return 0
        now, ready = time.monotonic(), self.ready_at
        stuck = [
            j for j in self._running if now - max(j.started, ready) > THINK_BUDGET[j.level] + grace
        ]
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
