"""What the states of a table cost the server's CPU, without the network: after every action of
random games, every seat's ``state`` view is made (``truco.web.views.state_view``, told in one
language) and encoded, as a table's broadcast does, together (``--alone``: each seat's on its
own, as before issue 53's second round).

    .venv/bin/python benchmarks/state_cost.py
    .venv/bin/python benchmarks/state_cost.py --players 4 --variant espanol --senas
    .venv/bin/python benchmarks/state_cost.py --alone
    .venv/bin/python benchmarks/state_cost.py --observations

It prints microseconds an action (all seats' states) and the mean size of a state; with
``--observations``, what each seat's observation (``Match.observation``) costs alone. Seeded: the
same games every run. This is a benchmark, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from truco.actions import token
from truco.match import Match
from truco.variants import find_variant
from truco.web.protocol import encode
from truco.web.views import SeatMeta, state_view

#: The load benchmark's weights (``benchmarks/web_load.py``): cards first, few fast ends.
WEIGHTS = {"falta-envido": 0.05, "mazo": 0.05, "quiero": 2.0, "no-quiero": 0.5}


def pick(rng: random.Random, legal: tuple[int, ...]) -> int:
    names = [token(a) for a in legal]
    weights = [WEIGHTS.get(a, 3.0 if a[0].isdigit() else 0.6) for a in names]
    return rng.choices(legal, weights)[0]


def run(args: argparse.Namespace, actions: int) -> tuple[float, float]:
    rules = find_variant(args.variant, players=args.players, senas=args.senas)
    rng = random.Random(args.seed)
    meta = [SeatMeta(f"Jugador {i}", "human", None, True) for i in range(rules.players)]
    match = Match(rules, seed=args.seed)
    spent = 0.0
    size = 0
    for done in range(actions):
        if match.over:
            match = Match(rules, seed=rng.randrange(1 << 30))
        match.apply(pick(rng, match.legal_actions()))
        start = time.perf_counter()
        if args.observations:
            for seat in range(rules.players):
                match.observation(seat)
            spent += time.perf_counter() - start
            continue
        shared: dict[str, Any] | None = None if args.alone else {}
        for seat in range(rules.players):
            view = state_view(
                match.observation(seat),
                table="bench",
                seq=done,
                hand_number=len(match.hands),
                seats=meta,
                spectators=0,
                downloads={"hands": [], "game": False},
                spectator=False,
                langs=(args.lang,),
                shared=shared,
            )
            size += len(encode({"type": "state", "view": view}))
        spent += time.perf_counter() - start
    return spent / actions * 1e6, size / actions / rules.players


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="argentino")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--senas", action="store_true")
    p.add_argument("--lang", default="es")
    p.add_argument("--actions", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--alone", action="store_true", help="each seat's state on its own")
    p.add_argument("--observations", action="store_true", help="time the observations alone")
    args = p.parse_args()
    run(args, 2_000)  # warm-up: imports, caches
    per_action, size = run(args, args.actions)
    if args.observations:
        print(f"{args.variant} {args.players}p: {per_action / args.players:.1f} µs an observation")
        return
    how = "alone" if args.alone else "together"
    print(
        f"{args.variant} {args.players}p, states made {how}: {per_action:.1f} µs an action "
        f"({args.players} states), {size:.0f} bytes a state"
    )


if __name__ == "__main__":
    main()
