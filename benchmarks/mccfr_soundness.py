"""MCCFR on the single-hand game stays numerically sound: run OpenSpiel's external- or
outcome-sampling solver for many iterations and check every regret and average as it goes.

    .venv/bin/python benchmarks/mccfr_soundness.py --solver outcome --iterations 100000
    .venv/bin/python benchmarks/mccfr_soundness.py --solver external --iterations 100000 \\
        --max-gb 8

Every ``--check-every`` iterations it scans the solver's tables for a non-finite value and
prints iterations, seconds, iterations a second, information states and the process's
resident memory. External sampling meets a new deal every iteration and so a few hundred
new information states (card-exact: the seat's three cards are in every key); ``--max-gb``
stops a run whose tables would outgrow the machine, and the report says where it stopped.
The last line is the JSON summary.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

import truco.env.openspiel_game  # noqa: F401  (registers python_truco)

SOLVERS = {
    "external": external_sampling_mccfr.ExternalSamplingSolver,
    "outcome": outcome_sampling_mccfr.OutcomeSamplingSolver,
}


def _rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def non_finite(solver: Any) -> int:
    """How many information states hold a non-finite regret or average."""
    return sum(
        1
        for regrets, average in solver._infostates.values()
        if not (np.isfinite(regrets).all() and np.isfinite(average).all())
    )


def run(
    solver_name: str, iterations: int, game_name: str, check_every: int, max_gb: float, seed: int
) -> dict[str, Any]:
    game = pyspiel.load_game(game_name)
    np.random.seed(seed)
    solver = SOLVERS[solver_name](game)
    done = 0
    bad = 0
    spent = 0.0
    stopped = ""
    while done < iterations:
        step = min(check_every, iterations - done)
        start = time.process_time()
        for _ in range(step):
            solver.iteration()
        spent += time.process_time() - start
        done += step
        bad = non_finite(solver)
        print(
            f"{done:>8} iterations  {spent:8.1f} s cpu  {done / spent:7.1f} it/s  "
            f"{len(solver._infostates):>10,} infostates  {_rss_gb():5.2f} GB  "
            f"non-finite: {bad}",
            flush=True,
        )
        if bad:
            stopped = "a non-finite value"
            break
        if _rss_gb() > max_gb:
            stopped = f"memory over {max_gb} GB"
            break
    return {
        "solver": solver_name,
        "game": game_name,
        "seed": seed,
        "iterations": done,
        "cpu_seconds": round(spent, 1),
        "iterations_per_s": round(done / spent, 1),
        "infostates": len(solver._infostates),
        "max_rss_gb": round(_rss_gb(), 2),
        "non_finite_infostates": bad,
        "stopped_early_by": stopped or None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--solver", choices=sorted(SOLVERS), default="outcome")
    p.add_argument("--iterations", type=int, default=100_000)
    p.add_argument("--game", default="python_truco(hand_only=True,score0=0,score1=0)")
    p.add_argument("--check-every", type=int, default=0, help="default: iterations / 20")
    p.add_argument("--max-gb", type=float, default=8.0)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    every = args.check_every or max(1, args.iterations // 20)
    summary = run(args.solver, args.iterations, args.game, every, args.max_gb, args.seed)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
