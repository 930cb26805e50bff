"""``truco train``: self-play that writes the betting policy ``expert`` loads.

Training runs in *epochs*. In each, ``jobs`` workers run ``epoch // jobs`` iterations of
:func:`truco.train.mccfr.run_iterations` from the same tables, each from its own seed (a
function of the training seed, the table, the epoch and the worker), and their additions are
summed in worker order. So a training is reproducible from its seed and its number of jobs, on
local processes (``--jobs``) or on a Ray cluster (``--ray-address``) alike, and resuming from
a checkpoint (written after every epoch) gives the same tables as never stopping: the same
policy file byte for byte, whatever the progress bar did (:mod:`truco.train.progress`) and
however often the run was stopped (the file records the command without ``--quiet`` and
``--resume``, :mod:`truco.train.command`).

After every epoch it appends a row to ``convergence.csv`` in the output folder (mean regret;
for two-player tables every ``eval_every`` epochs the local best response's bound on the
policy's exploitability, :mod:`truco.env.best_response`) and redraws ``convergence.png`` when
matplotlib is installed; the policy file is rewritten after every table.
"""

from __future__ import annotations

import csv
import gzip
import multiprocessing
import os
import pickle
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from truco.bots.policy import (
    Policy,
    PolicyTable,
    action_probs,
    load_policy,
    save_policy,
    table_name,
)
from truco.errors import TrucoError
from truco.train.mccfr import Nodes, average_policy, mean_regret, merge, rules_of, run_iterations
from truco.train.progress import Progress

#: The tables ``truco train`` makes by default: every table the issue's figures play.
DEFAULT_TABLES = ("argentino/2", "espanol/4", "valenciano/4", "argentino/6")
CHECKPOINT_VERSION = 1


@dataclass(frozen=True)
class TrainConfig:
    """What a training is: two trainings with the same config give the same policy."""

    tables: tuple[str, ...] = DEFAULT_TABLES
    iterations: int = 200_000
    epoch: int = 20_000
    jobs: int = 2
    seed: int = 1
    eval_hands: int = 100
    eval_every: int = 5


def worker_seed(seed: int, table: str, epoch: int, worker: int) -> int:
    """The seed of one worker's epoch (stable across machines and Python runs)."""
    return random.Random(f"truco-train/{seed}/{table}/{epoch}/{worker}").getrandbits(63)


# ------------------------------------------------------------------ executors

Task = tuple[str, int, int]  # table, iterations, seed
Executor = Callable[[Nodes, Sequence[Task]], list[Nodes]]

_START: Nodes = {}


def _forked(task: Task) -> Nodes:
    return run_iterations(task[0], _START, task[1], task[2])[0]


def local_executor(jobs: int) -> Executor:
    """Worker processes on this machine (forked with the tables, so they are not copied)."""

    def run(start: Nodes, tasks: Sequence[Task]) -> list[Nodes]:
        if jobs <= 1 or len(tasks) <= 1:
            return [run_iterations(t[0], start, t[1], t[2])[0] for t in tasks]
        global _START
        _START = start
        try:
            context = multiprocessing.get_context("fork")
            with context.Pool(min(jobs, len(tasks))) as pool:
                return pool.map(_forked, tasks)
        finally:
            _START = {}

    return run


def ray_executor(address: str) -> Executor:
    """Tasks on a Ray cluster at ``address`` (``auto``, ``ray://host:10001``, or ``local`` to
    start one here); needs ``truco-game[cluster]``."""
    try:
        import ray
    except ImportError:
        raise TrucoError(
            "truco train --ray-address needs Ray: pip install 'truco-game[cluster]'"
        ) from None
    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address, log_to_driver=False)
    remote = ray.remote(_ray_task)

    def run(start: Nodes, tasks: Sequence[Task]) -> list[Nodes]:
        ref = ray.put(start)
        return list(ray.get([remote.remote(ref, *t) for t in tasks]))

    return run


def _ray_task(start: Nodes, table: str, iterations: int, seed: int) -> Nodes:
    return run_iterations(table, start, iterations, seed)[0]


# ------------------------------------------------------------------ checkpoints


def _slug(table: str) -> str:
    return table.replace("/", "-")


def checkpoint_path(out: Path, table: str) -> Path:
    return out / f"checkpoint-{_slug(table)}.pkl.gz"


def save_checkpoint(path: Path, config: TrainConfig, table: str, epoch: int, nodes: Nodes) -> None:
    """Write the tables after ``epoch`` epochs (atomically: a crash leaves the last one)."""
    doc = {
        "version": CHECKPOINT_VERSION,
        "config": asdict(config),
        "table": table,
        "epoch": epoch,
        "nodes": nodes,
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(gzip.compress(pickle.dumps(doc, protocol=5), compresslevel=1))
    os.replace(tmp, path)


def load_checkpoint(path: Path, config: TrainConfig, table: str) -> tuple[int, Nodes] | None:
    """The epoch and tables of a checkpoint of this very training, or None if there is none;
    a checkpoint of another training is an error (it would not reproduce)."""
    if not path.exists():
        return None
    try:
        doc = pickle.loads(gzip.decompress(path.read_bytes()))
    except (OSError, pickle.UnpicklingError, EOFError) as e:
        raise TrucoError(f"truco train: cannot read the checkpoint {path}: {e}") from None
    if doc.get("version") != CHECKPOINT_VERSION or doc.get("table") != table:
        raise TrucoError(f"truco train: {path} is not a checkpoint of table {table}")
    theirs = dict(doc["config"])
    mine = asdict(config)
    for name in ("seed", "jobs", "epoch"):
        if theirs.get(name) != mine[name]:
            raise TrucoError(
                f"truco train: {path} was made with --{name} {theirs.get(name)}, not "
                f"{mine[name]}; resuming would not reproduce it (use another --out)"
            )
    return int(doc["epoch"]), doc["nodes"]


# ------------------------------------------------------------------ convergence


def _lbr(table: str, nodes: Nodes, hands: int, seed: int) -> dict[str, Any] | None:
    """The local best response bound of a two-player table's average policy."""
    rules = rules_of(table)
    if rules.players != 2 or hands <= 0:
        return None
    from truco.env.best_response import exploitability_lower_bound
    from truco.match import Match

    policy = PolicyTable(table, average_policy(nodes))

    def fn(match: Match, seat: int) -> list[float]:
        probs = action_probs(match.hand, policy)
        return [probs.get(a, 0.0) for a in sorted(match.legal_actions())]

    return exploitability_lower_bound(fn, hands, rules=rules, samples=16, seed=seed)


CSV_FIELDS = ("table", "epoch", "iterations", "keys", "mean_regret", "lbr", "lbr_low",
              "lbr_high", "seconds")  # fmt: skip


def _append_row(out: Path, row: dict[str, Any]) -> None:
    path = out / "convergence.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def _forget_rows_after(out: Path, table: str, epoch: int) -> None:
    """Drop the rows of ``table`` past ``epoch``: a run stopped between an epoch's row and its
    checkpoint runs that epoch again when resumed, and the figure shows each epoch once."""
    rows = _rows(out)
    kept = [r for r in rows if r["table"] != table or int(r["epoch"]) <= epoch]
    if len(kept) == len(rows):
        return
    with (out / "convergence.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(kept)


def _rows(out: Path) -> list[dict[str, str]]:
    path = out / "convergence.csv"
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def draw_figure(out: Path) -> Path | None:
    """``convergence.png`` from ``convergence.csv`` (None without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = _rows(out)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for table in dict.fromkeys(r["table"] for r in rows):
        mine = [r for r in rows if r["table"] == table]
        its = [int(r["iterations"]) for r in mine]
        axes[0].plot(its, [float(r["mean_regret"]) for r in mine], label=table)
        lbr = [(int(r["iterations"]), float(r["lbr"]), float(r["lbr_low"]), float(r["lbr_high"]))
               for r in mine if r["lbr"]]  # fmt: skip
        if lbr:
            x = [a[0] for a in lbr]
            axes[1].plot(x, [a[1] for a in lbr], marker="o", label=table)
            axes[1].fill_between(x, [a[2] for a in lbr], [a[3] for a in lbr], alpha=0.2)
    axes[0].set_title("mean regret per iteration")
    axes[0].set_yscale("log")
    axes[1].set_title("exploitability >= local best response, points/hand")
    for ax in axes:
        ax.set_xlabel("iterations")
        if ax.get_lines():
            ax.legend()
    fig.tight_layout()
    path = out / "convergence.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ------------------------------------------------------------------ training


def train_table(
    config: TrainConfig,
    table: str,
    out: Path,
    executor: Executor,
    progress: Progress,
    resume: bool = False,
) -> Nodes:
    """Train one table to ``config.iterations`` iterations; its cumulative tables."""
    rules_of(table)  # a clear error for an unknown preset or player count, before any work
    path = checkpoint_path(out, table)
    epochs = max(1, -(-config.iterations // config.epoch))
    epoch = 0
    nodes: Nodes = {}
    if resume:
        found = load_checkpoint(path, config, table)
        if found is not None:
            epoch, nodes = found
    elif path.exists():
        raise TrucoError(
            f"truco train: {path} exists; pass --resume to go on from it, or use another --out"
        )
    per_job = max(1, config.epoch // config.jobs)
    total = epochs * per_job * config.jobs
    _forget_rows_after(out, table, epoch)
    progress.begin(table, epoch * per_job * config.jobs, total)
    while epoch < epochs:
        t0 = time.perf_counter()
        tasks = [
            (table, per_job, worker_seed(config.seed, table, epoch, w)) for w in range(config.jobs)
        ]
        for delta in executor(nodes, tasks):
            merge(nodes, delta)
        epoch += 1
        done = epoch * per_job * config.jobs
        row: dict[str, Any] = {
            "table": table,
            "epoch": epoch,
            "iterations": done,
            "keys": len(nodes),
            "mean_regret": f"{mean_regret(nodes, done):.6g}",
            "lbr": "",
            "lbr_low": "",
            "lbr_high": "",
        }
        if epoch % config.eval_every == 0 or epoch == epochs:
            bound = _lbr(table, nodes, config.eval_hands, config.seed)
            if bound is not None:
                row["lbr"] = f"{bound['exploitability_lower_bound']:.4f}"
                row["lbr_low"] = f"{bound['ci95'][0]:.4f}"
                row["lbr_high"] = f"{bound['ci95'][1]:.4f}"
        row["seconds"] = f"{time.perf_counter() - t0:.1f}"
        _append_row(out, row)
        save_checkpoint(path, config, table, epoch, nodes)
        draw_figure(out)
        extra = f"keys {len(nodes):,}" + (f"  lbr {row['lbr']}" if row["lbr"] else "")
        progress.show(table, done, total, extra)
    return nodes


def train(
    config: TrainConfig,
    out: str | Path,
    policy_path: str | Path,
    *,
    resume: bool = False,
    ray_address: str | None = None,
    command: str = "",
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> Policy:
    """Train every table of ``config`` and write the policy file (tables of an existing file
    that this training does not make are kept).

    The file depends on ``config`` and ``command`` only: not on ``progress``, nor on how
    often the run was stopped and resumed (every epoch starts from the checkpointed tables
    with seeds of its own, :func:`worker_seed`). ``executor`` defaults to local processes,
    or Ray with ``ray_address``."""
    if config.jobs < 1 or config.iterations < 1 or config.epoch < 1:
        raise TrucoError("truco train: --jobs, --iterations and --epoch must be at least 1")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if executor is None:
        executor = ray_executor(ray_address) if ray_address else local_executor(config.jobs)
    progress = progress or Progress.to_stderr()
    policy_file = Path(policy_path)
    policy = load_policy(policy_file) if policy_file.exists() else Policy()
    policy = Policy(dict(policy.tables))
    for table in config.tables:
        nodes = train_table(config, table, folder, executor, progress, resume)
        meta = {
            "iterations": config.iterations,
            "seed": config.seed,
            "jobs": config.jobs,
            "epoch": config.epoch,
            "command": command,
        }
        policy.tables[table_name(rules_of(table))] = PolicyTable(table, average_policy(nodes), meta)
        save_policy(policy, policy_file)
    progress.finish(config.tables)
    return policy
