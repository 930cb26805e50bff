"""Outcome-sampling MCCFR (OpenSpiel) on the single-hand game of argentino 1v1, with a curve.

    pip install -e '.[train]'        # OpenSpiel comes with truco[rl]; matplotlib with [train]
    python examples/mccfr_single_hand.py --iterations 100000 --out runs/mccfr

The game is ``python_truco(hand_only=True,score0=0,score1=0)``: one hand, dealt by chance
nodes with their exact probabilities, worth the points margin of the hand. Outcome sampling
samples one history per iteration, so its sampled reach stays a product of one deal's
probability and a hand's worth of decisions: its regrets stay finite (they do not over a
whole match of six chance nodes per hand).

An exact best response (exploitability) needs a walk of the whole tree, some 9 * 10^7 deals
times every line of play (and argentino's envido chains have no fixed length): out of reach.
So at each checkpoint the curve shows

- a best-response value: a local best response (:mod:`truco.env.best_response`) plays
  ``--lbr-hands`` hands in each seat against the average policy; the mean of its two values
  is a lower bound on the policy's exploitability, in points per hand;
- the average policy's points per hand against ``heuristic`` and against ``random`` (in
  duplicate: each deal in both seatings), over ``--eval-hands`` hands;
- the share of its decisions that found a trained information state (the rest play
  uniformly).

It writes ``curve.json`` and ``mccfr_curve.png`` under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

import truco.env.openspiel_game  # noqa: F401  (registers python_truco)
from truco.bots import make_bot
from truco.env.best_response import exploitability_lower_bound, tabular_policy

GAME = "python_truco(hand_only=True,score0=0,score1=0)"


def evaluate(solver: Any, game: Any, opponent: str, hands: int, seed: int) -> dict[str, float]:
    """The average policy's points per hand against ``opponent``, in duplicate: every deal is
    played twice, the policy in each seat (``hands`` hands in all)."""
    policy = solver.average_policy()
    infostates = solver._infostates
    rng = random.Random(seed)
    total = 0.0
    decisions = found = 0
    for i in range(hands):
        me = i % 2
        deals = random.Random(seed + i // 2)  # the same deal for both seatings
        bot = make_bot(opponent, seed=seed + i)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(deals.random() * len(outcomes))][0])
                continue
            seat = state.current_player()
            if seat == me:
                decisions += 1
                found += state.information_state_string(seat) in infostates
                probs = policy.action_probabilities(state, seat)
                actions = list(probs)
                weights = [probs[a] for a in actions]
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(bot.choose(state.match.observation(seat)))
        total += state.returns()[me]
    return {"points_per_hand": total / hands, "trained_decisions": found / max(decisions, 1)}


def plot(curve: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = curve["evaluations"]
    its = [max(r["iterations"], 1) for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))
    bound = [r["lbr"]["exploitability_lower_bound"] for r in rows]
    axes[0].plot(its, bound, "o-", color="tab:red")
    axes[0].fill_between(
        its, [r["lbr"]["ci95"][0] for r in rows], [r["lbr"]["ci95"][1] for r in rows], alpha=0.2
    )
    axes[0].set_title("exploitability >= (local best response), points/hand")
    for opponent, style in (("heuristic", "o-"), ("random", "s--")):
        axes[1].plot(its, [r[opponent]["points_per_hand"] for r in rows], style, label=opponent)
    axes[1].axhline(0.0, color="black", linewidth=0.6)
    axes[1].set_title("average policy: points per hand against")
    axes[1].legend()
    axes[2].plot(its, [r["heuristic"]["trained_decisions"] for r in rows], "o-")
    axes[2].set_title("decisions that found a trained infostate")
    axes[2].set_ylim(0, 1)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("MCCFR iterations (outcome sampling)")
        ax.grid(alpha=0.3)
    fig.suptitle(f"{curve['game']}: {curve['seconds']:.0f} s, {curve['infostates']:,} infostates")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iterations", type=int, default=100_000)
    p.add_argument("--checkpoints", type=int, default=6, help="evaluations, spaced in log scale")
    p.add_argument("--eval-hands", type=int, default=400)
    p.add_argument("--lbr-hands", type=int, default=500, help="local best response, per seat")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/mccfr")
    args = p.parse_args(argv)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    game = pyspiel.load_game(GAME)
    np.random.seed(args.seed)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    marks = sorted(
        {round(args.iterations ** (k / args.checkpoints)) for k in range(1, args.checkpoints + 1)}
    )
    curve: dict[str, Any] = {"game": GAME, "evaluations": []}
    done = 0
    spent = 0.0
    for mark in [0, *marks]:
        start = time.perf_counter()
        for _ in range(mark - done):
            solver.iteration()
        spent += time.perf_counter() - start
        done = mark
        row: dict[str, Any] = {"iterations": done, "seconds": round(spent, 1)}
        for opponent in ("heuristic", "random"):
            row[opponent] = evaluate(solver, game, opponent, args.eval_hands, 50_000)
        row["lbr"] = exploitability_lower_bound(
            tabular_policy(solver._infostates), args.lbr_hands, seed=70_000
        )
        curve["evaluations"].append(row)
        print(
            f"{done:>8} iterations ({spent:.0f} s): exploitability >= "
            f"{row['lbr']['exploitability_lower_bound']:.2f} (LBR), points per hand vs "
            f"heuristic {row['heuristic']['points_per_hand']:+.3f}, vs random "
            f"{row['random']['points_per_hand']:+.3f}, trained decisions "
            f"{row['heuristic']['trained_decisions']:.1%}",
            flush=True,
        )
    finite = all(
        math.isfinite(x) for regrets, avg in solver._infostates.values() for x in (*regrets, *avg)
    )
    curve.update(seconds=spent, infostates=len(solver._infostates), all_finite=finite)
    (out / "curve.json").write_text(json.dumps(curve, indent=2))
    plot(curve, out / "mccfr_curve.png")
    print(f"{len(solver._infostates):,} infostates, every regret and average finite: {finite}")
    return curve


if __name__ == "__main__":
    main()
