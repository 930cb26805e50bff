"""The ``truco train`` command line: its options, and the command a policy file records.

A policy table records the command that made it (the README gives those commands, and the
file's sha256, to make the shipped policy again). It records the command *as a training*:
without the options that change how a run reports or where it starts (``--quiet``,
``--resume``), so that a quiet run, a run with a progress bar and a run stopped and resumed
any number of times write the same bytes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from truco.errors import TrucoError
from truco.train.progress import Progress
from truco.train.run import DEFAULT_TABLES, TrainConfig, train

#: Options that do not change what is trained: left out of the recorded command.
NOT_RECORDED = ("--quiet", "--resume")


def recorded_command(argv: Sequence[str]) -> str:
    """``truco train`` and its arguments ``argv``, less :data:`NOT_RECORDED` (in full or
    abbreviated as argparse allows, ``--qu``).

    >>> recorded_command(["--seed", "1", "--quiet", "--out", "a", "--res"])
    'truco train --seed 1 --out a'
    """
    kept = [a for a in argv if not _not_recorded(a)]
    return " ".join(["truco train", *kept])


def _not_recorded(arg: str) -> bool:
    # An abbreviation argparse accepted is a prefix of one option only; ``--`` and
    # ``--out=...`` forms are not flags of this kind.
    return len(arg) > 2 and "=" not in arg and any(o.startswith(arg) for o in NOT_RECORDED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = TrainConfig()
    p.description = (
        "Solve the bets of a hand by self-play (Monte Carlo CFR) and write the policy that the "
        "expert bot plays. A command gives the same policy file byte for byte every time, with "
        "or without --quiet, on local processes or Ray, and however often it was stopped "
        "(Ctrl+C) and resumed with --resume: the file records the command, less those two."
    )
    p.add_argument(
        "--tables",
        default=",".join(DEFAULT_TABLES),
        help="preset/players to train, comma-separated (default: %(default)s)",
    )
    p.add_argument("--iterations", type=int, default=d.iterations, help="per table")
    p.add_argument("--epoch", type=int, default=d.epoch, help="iterations between checkpoints")
    p.add_argument("--jobs", type=int, default=d.jobs, help="worker processes (or Ray tasks)")
    p.add_argument("--seed", type=int, default=d.seed, help="the training's seed")
    p.add_argument(
        "--out", default="train-out", help="checkpoints, convergence.csv and convergence.png"
    )
    p.add_argument("--policy", default="expert-policy.json.gz", help="the policy file to write")
    p.add_argument(
        "--resume",
        action="store_true",
        help="go on from the checkpoints in --out (the same file as never stopping)",
    )
    p.add_argument("--ray-address", help="run the workers on Ray (auto, ray://host:port, local)")
    p.add_argument(
        "--eval-hands",
        type=int,
        default=d.eval_hands,
        help="local best response hands per seat (2 players; 0: none)",
    )
    p.add_argument("--eval-every", type=int, default=d.eval_every, help="epochs between LBRs")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (rate, ETA, total time); the same file as with it",
    )


def run(args: argparse.Namespace) -> int:
    """``truco train``: 0 when the policy is written, 1 on bad input, 130 when stopped."""
    try:
        config = TrainConfig(
            tables=tuple(t.strip() for t in args.tables.split(",") if t.strip()),
            iterations=args.iterations,
            epoch=args.epoch,
            jobs=args.jobs,
            seed=args.seed,
            eval_hands=args.eval_hands,
            eval_every=max(1, args.eval_every),
        )
        argv = sys.argv[2:] if sys.argv[1:2] == ["train"] else None
        train(
            config,
            args.out,
            args.policy,
            resume=args.resume,
            ray_address=args.ray_address,
            command=recorded_command(argv) if argv is not None else "",
            progress=Progress(None if args.quiet else sys.stderr),
        )
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            f"\nstopped; the same command with --resume goes on from the last checkpoint "
            f"in {args.out}",
            file=sys.stderr,
        )
        return 130
    print(f"wrote {args.policy}; convergence in {args.out}/convergence.csv")
    return 0
