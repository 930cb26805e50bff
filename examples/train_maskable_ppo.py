"""Train sb3-contrib's MaskablePPO against the ``heuristic`` bot, plot it, evaluate it in duplicate.

    pip install -e '.[train]'        # torch 2.13.0 (CPU build), sb3-contrib, matplotlib
    python examples/train_maskable_ppo.py --timesteps 300000 --out runs/ppo

The learner plays seat 0 or 1 (alternating by episode) of an argentino 1v1 match to 30
against ``heuristic`` (``truco/Truco-v0``, reward: the points margin of each step, so every
hand teaches something). Every ``--eval-every`` steps it plays ``--eval-matches`` whole
matches against ``heuristic`` with its greedy policy and records its win rate and points per
hand. It writes, under ``--out``:

* ``model.zip``: the trained model, playable as the bot ``maskable-ppo:path=runs/ppo/model.zip``
* ``curve.json``: the evaluations, with the ``random`` bot's figures against ``heuristic``
  measured the same way (a floor, not a goal)
* ``learning_curve.png``: both, over training steps
* ``arena.json``: a duplicate run of the trained model against ``heuristic``
  (``truco arena``'s duplicate format: both seatings of every deal)

Evaluate a saved model again with the arena command line::

    truco arena maskable-ppo:path=runs/ppo/model.zip heuristic --matches 400
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from truco.commands.arena import run_arena
from truco.env.gym_env import TrucoGymEnv
from truco.variants import find_variant


class AlternatingSeat(TrucoGymEnv):
    """``truco/Truco-v0`` whose learner changes seat every episode (mano first or second)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._episodes = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        self.seat = self._episodes % 2
        self._episodes += 1
        return super().reset(seed=seed, options=options)


def evaluate(model: Any, opponent: str, matches: int, seed: int) -> dict[str, float]:
    """Greedy play of ``model`` (or uniformly random play when None) in whole matches."""
    rng = random.Random(seed)
    wins = 0
    points = hands = 0
    for i in range(matches):
        table = TrucoGymEnv(opponent=opponent, seat=i % 2)
        observed, _ = table.reset(seed=seed + i)
        done = False
        while not done:
            mask = observed["action_mask"]
            if model is None:
                legal = np.flatnonzero(mask)
                action = int(legal[int(rng.random() * len(legal))])
            else:
                action, _ = model.predict(
                    observed, action_masks=mask.astype(bool), deterministic=True
                )
            observed, _, done, _, info = table.step(int(action))
        team = table.seat & 1
        wins += info["winner"] == team
        for log in table.match.hands:
            points += log.points[team] - log.points[1 - team]
            hands += 1
    return {"win_rate": wins / matches, "points_per_hand": points / max(hands, 1)}


def plot(curve: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [e["timesteps"] for e in curve["evaluations"]]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, key, label in (
        (axes[0], "win_rate", "match win rate vs heuristic"),
        (axes[1], "points_per_hand", "points per hand vs heuristic"),
    ):
        ax.plot(steps, [e[key] for e in curve["evaluations"]], marker="o", label="MaskablePPO")
        ax.axhline(curve["random"][key], color="grey", linestyle="--", label="random bot")
        ax.set_xlabel("training steps (learner decisions)")
        ax.set_title(label)
        ax.grid(alpha=0.3)
    axes[0].axhline(0.5, color="black", linewidth=0.6)
    axes[1].axhline(0.0, color="black", linewidth=0.6)
    axes[0].legend(loc="lower right")
    fig.suptitle(
        f"argentino 1v1 to 30, {curve['eval_matches']} matches per point "
        f"({curve['train_seconds']:.0f} s of training)"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--timesteps", type=int, default=300_000)
    p.add_argument("--eval-every", type=int, default=25_000)
    p.add_argument("--eval-matches", type=int, default=100)
    p.add_argument("--arena-matches", type=int, default=400)
    p.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/ppo")
    args = p.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = AlternatingSeat(opponent="heuristic", reward="points")
    n_steps = max(16, min(args.n_steps, args.timesteps))
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(256, n_steps),
        gamma=0.995,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve: dict[str, Any] = {
        "variant": "argentino",
        "players": 2,
        "opponent": "heuristic",
        "eval_matches": args.eval_matches,
        "random": evaluate(None, "heuristic", args.eval_matches, 10_000),
        "evaluations": [],
    }

    def record(steps: int) -> None:
        result = evaluate(model, "heuristic", args.eval_matches, 10_000)
        curve["evaluations"].append({"timesteps": steps, **result})
        print(
            f"{steps:>9} steps: win rate {result['win_rate']:.1%}, "
            f"points per hand {result['points_per_hand']:+.3f}",
            flush=True,
        )

    class Evaluations(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if self.num_timesteps % args.eval_every == 0:
                record(self.num_timesteps)
            return True

    record(0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=Evaluations())
    curve["train_seconds"] = time.perf_counter() - start
    if not curve["evaluations"] or curve["evaluations"][-1]["timesteps"] != model.num_timesteps:
        record(model.num_timesteps)
    model.save(out / "model.zip")
    (out / "curve.json").write_text(json.dumps(curve, indent=2))
    plot(curve, out / "learning_curve.png")

    rules = find_variant("argentino")
    report = run_arena(
        f"maskable-ppo:path={out / 'model.zip'}",
        "heuristic",
        rules,
        matches=args.arena_matches,
        seed=args.seed,
    )
    arena = report.to_json()
    (out / "arena.json").write_text(json.dumps(arena, indent=2))
    print(report.text())
    return {"curve": curve, "arena": arena}


if __name__ == "__main__":
    main()
