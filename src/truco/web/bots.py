"""Bot levels and the executor that runs them off the event loop.

A bot is CPU-bound (``search`` thinks for about 100 ms), so it never runs on the event loop: by
default it runs in a pool of worker processes, where it cannot hold the server's GIL, so one
thinking bot never delays other tables. A bot is made afresh for each move from its level
and a seed; it receives only the observation of its seat (RULES.md 10).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Final

from truco.bots import make_bot
from truco.observation import Observation

#: Level name -> (bot registry name, options). The browser shows these names.
BOT_LEVELS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "random": ("random", {}),
    "heuristic": ("heuristic", {}),
    "search": ("search", {}),  # its default fixed deals: the same seed plays the same move
}
DEFAULT_LEVEL: Final = "heuristic"


def choose(level: str, seed: int, obs: Observation) -> int:
    """The action the bot of ``level`` takes (run in a worker)."""
    name, options = BOT_LEVELS[level]
    action = make_bot(name, seed=seed, **options).choose(obs)
    return action if action in obs.legal_actions else obs.legal_actions[0]


def _warm() -> int:
    """Import the bots in a worker before the first move needs them."""
    make_bot("random", seed=0)
    return os.getpid()


class BotRunner:
    """Runs bot moves in a process pool (or a thread pool, for quick tests)."""

    def __init__(self, kind: str = "process", workers: int = 0) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot executor must be process or thread, not {kind!r}")
        self.count = workers or max(1, min(4, os.cpu_count() or 1))
        self.kind = kind
        self.pool = self._new_pool()

    def _new_pool(self) -> Executor:
        if self.kind == "process":
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(self.count, mp_context=context)
        return ThreadPoolExecutor(self.count, thread_name_prefix="truco-bot")

    async def warm(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self.pool, _warm)

    async def choose(self, level: str, seed: int, obs: Observation) -> int:
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            return await loop.run_in_executor(pool, choose, level, seed, obs)
        except BrokenExecutor:  # a worker died (killed, out of memory): start afresh, once
            if self.pool is pool:
                self.pool = self._new_pool()
            return await loop.run_in_executor(self.pool, choose, level, seed, obs)

    def close(self) -> None:
        """Stop the workers (waiting for them, so nothing of theirs outlives the server)."""
        self.pool.shutdown(wait=True, cancel_futures=True)
