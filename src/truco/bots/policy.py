"""The betting policy that ``truco train`` computes and ``expert`` plays: its file, its
look-ups, play-outs under it, and the likelihood of a rival's action under it.

A policy holds, per table (a preset and a number of players), the average strategy of the
self-play solver (:mod:`truco.train.mccfr`) over the abstract actions of each key of
:mod:`truco.bots.abstraction`. Where a key was never visited the policy falls back on the
fixed rules of :mod:`truco.bots.rollout` (believable play), so a policy never blocks play.

The file is gzip'd JSON, versioned (:data:`FORMAT`, :data:`VERSION`)::

    {"format": "truco-expert-policy", "version": 1,
     "tables": {"argentino/2": {"iterations": ..., "seed": ..., "command": "...",
                                "keys": [...], "probs": [[q, ...], ...]}}}

with the probabilities quantized to integers that sum to :data:`SCALE` per key.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from truco.actions import ENVIDO, FALTA_ENVIDO, is_sena
from truco.bots.abstraction import PLAY, bet_key, slots
from truco.bots.rollout import open_choices, play_card, rollout_action
from truco.bots.rollout import play_out as rollout_play_out
from truco.errors import TrucoError
from truco.hand import ENVIDO_PENDING, Hand
from truco.variants import Rules

FORMAT = "truco-expert-policy"
VERSION = 1
#: Quantization of the stored probabilities (each key's integers sum to it).
SCALE = 1000
#: The policy shipped in the package (``truco train`` wrote it; the README has the command).
PACKAGED = "expert-policy.json.gz"


class Chance(Protocol):
    """Where a policy's samples come from: a :class:`random.Random` or anything with its
    ``random()``."""

    def random(self) -> float: ...


def table_name(rules: Rules) -> str:
    """The name of the table that plays ``rules``: its preset and number of players."""
    return f"{rules.name}/{rules.players}"


@dataclass
class PolicyTable:
    """The average strategy of one table: key -> probabilities of its abstract actions."""

    name: str
    probs: dict[int, tuple[float, ...]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


def probs_at(
    table: PolicyTable | None, hand: Hand, choices: tuple[int, ...]
) -> tuple[float, ...] | None:
    """The table's probabilities of ``choices`` for the hand's actor, or None where there is
    no table or it has no entry for the key (the fixed rules play there)."""
    return None if table is None else table.probs.get(bet_key(hand, hand.actor, choices))


@dataclass
class Policy:
    """Every table of a policy file."""

    tables: dict[str, PolicyTable] = field(default_factory=dict)

    def table_for(self, rules: Rules) -> PolicyTable | None:
        """The table that plays ``rules``: its own, else one of the same number of players,
        else the two-player one of its preset, else any (keys carry the number of players,
        so a foreign table mostly falls back on the fixed rules)."""
        name = table_name(rules)
        if name in self.tables:
            return self.tables[name]
        for other in sorted(self.tables):
            if other.endswith(f"/{rules.players}"):
                return self.tables[other]
        same = f"{rules.name}/2"
        if same in self.tables:
            return self.tables[same]
        return self.tables[sorted(self.tables)[0]] if self.tables else None


def quantize(probs: Iterable[float]) -> list[int]:
    """Probabilities as integers summing to :data:`SCALE` (largest remainders)."""
    values = list(probs)
    total = sum(values)
    if total <= 0:
        values = [1.0] * len(values)
        total = float(len(values))
    raw = [v / total * SCALE for v in values]
    out = [int(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (out[i] - raw[i], i))
    for i in order[: SCALE - sum(out)]:
        out[i] += 1
    return out


def save_policy(policy: Policy, path: str | Path) -> None:
    """Write ``policy`` to ``path`` (gzip'd JSON, keys sorted: the same policy gives the same
    bytes)."""
    tables: dict[str, Any] = {}
    for name in sorted(policy.tables):
        table = policy.tables[name]
        keys = sorted(table.probs)
        tables[name] = {
            **table.meta,
            "keys": keys,
            "probs": [quantize(table.probs[k]) for k in keys],
        }
    text = json.dumps({"format": FORMAT, "version": VERSION, "tables": tables}, sort_keys=True)
    data = gzip.compress(text.encode(), compresslevel=9, mtime=0)
    Path(path).write_bytes(data)


def shared_policy(path: str | Path | None = None) -> Policy:
    """:func:`load_policy`, read once per file and version of it (bots share it)."""
    if path is None:
        return _cached(None, 0.0)
    return _cached(str(path), Path(path).stat().st_mtime if Path(path).exists() else 0.0)


@lru_cache(maxsize=8)
def _cached(path: str | None, mtime: float) -> Policy:
    return load_policy(path)


def load_policy(path: str | Path | None = None) -> Policy:
    """The policy in ``path``, or the one shipped in the package; a clear error if the file
    is missing, not a policy or of another version."""
    try:
        if path is None:
            data = resources.files("truco.bots").joinpath("data", PACKAGED).read_bytes()
        else:
            data = Path(path).read_bytes()
    except OSError as e:
        raise TrucoError(f"expert: cannot read the policy file {path or PACKAGED}: {e}") from None
    try:
        doc = json.loads(gzip.decompress(data))
    except (OSError, ValueError) as e:
        raise TrucoError(f"expert: {path or PACKAGED} is not a policy file: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TrucoError(f"expert: {path or PACKAGED} is not a {FORMAT} file")
    if doc.get("version") != VERSION:
        raise TrucoError(
            f"expert: {path or PACKAGED} is version {doc.get('version')!r}; "
            f"this truco reads version {VERSION}"
        )
    policy = Policy()
    for name, raw in doc["tables"].items():
        keys, probs = raw["keys"], raw["probs"]
        table = PolicyTable(name, meta={k: v for k, v in raw.items() if k not in ("keys", "probs")})
        table.probs = {
            int(k): tuple(q / SCALE for q in p) for k, p in zip(keys, probs, strict=True)
        }
        policy.tables[name] = table
    return policy


def _sample(probs: tuple[float, ...], rng: Chance) -> int:
    x = rng.random()
    for i, p in enumerate(probs):
        x -= p
        if x < 0:
            return i
    return len(probs) - 1


def policy_action(
    hand: Hand,
    table: PolicyTable | None,
    rng: Chance,
    greedy: bool = False,
    envido_only: bool = False,
) -> int:
    """The action of the hand's actor under the policy: flor and señas by the fixed rules,
    the bets from the table (the fixed rules where it has no entry), the card by card play."""
    forced, legal = open_choices(hand)
    if forced >= 0:
        return forced
    p = hand.actor
    choices = slots(legal, len(hand.envido_chain))
    if len(choices) == 1:
        return play_card(hand, p, legal) if choices[0] == PLAY else choices[0]
    if envido_only and not (
        hand.envido_state == ENVIDO_PENDING or any(ENVIDO <= c <= FALTA_ENVIDO for c in choices)
    ):
        return rollout_action(hand)
    probs = probs_at(table, hand, choices)
    if probs is None:
        return rollout_action(hand)
    if greedy:
        choice = choices[max(range(len(probs)), key=probs.__getitem__)]
    else:
        choice = choices[_sample(probs, rng)]
    if choice == PLAY:
        return play_card(hand, p, legal)
    return choice


def action_probs(hand: Hand, table: PolicyTable | None) -> dict[int, float]:
    """The probability of each action of the hand's actor under the policy (the card that
    card play picks takes the "play" share), for evaluations such as the local best response."""
    forced, legal = open_choices(hand)
    if forced >= 0:
        return {forced: 1.0}
    p = hand.actor
    choices = slots(legal, len(hand.envido_chain))
    if len(choices) == 1:
        return {play_card(hand, p, legal) if choices[0] == PLAY else choices[0]: 1.0}
    probs = probs_at(table, hand, choices)
    if probs is None:
        return {rollout_action(hand): 1.0}
    out: dict[int, float] = {}
    for choice, q in zip(choices, probs, strict=True):
        action = play_card(hand, p, legal) if choice == PLAY else choice
        out[action] = out.get(action, 0.0) + q
    return out


def play_out(
    hand: Hand,
    table: PolicyTable | None,
    rng: Chance,
    greedy: bool = False,
    envido_only: bool = False,
) -> None:
    """Play the hand to its end with every seat under the policy (its most likely action
    at every decision when ``greedy``; the envido alone from it when ``envido_only``). With
    no table every seat plays the fixed rules, whose loop is :func:`rollout.play_out`."""
    if table is None:
        rollout_play_out(hand)
        return
    apply = hand.apply
    while not hand.over:
        apply(policy_action(hand, table, rng, greedy, envido_only))


def action_likelihood(hand: Hand, action: int, table: PolicyTable | None) -> float:
    """How likely the actor was to take ``action`` here under the policy: a card counts as
    "play" (a rival who played where it could have bet told something too); señas and flor,
    which the policy does not model, weigh 1; where the table has no entry, the fixed rules'
    chance (:func:`truco.bots.knowledge.likelihood`)."""
    decision = bet_decision(hand, action, table)
    if decision is None:
        return 1.0
    choices, slot, probs = decision
    if probs is None:
        from truco.bots.knowledge import likelihood

        return likelihood(hand, action)
    return max(probs[choices.index(slot)], 0.02)


def bet_decision(
    hand: Hand, action: int, table: PolicyTable | None
) -> tuple[tuple[int, ...], int, tuple[float, ...] | None] | None:
    """The betting decision at which the actor took ``action``: its abstract actions, the one
    ``action`` is (a card is "play"), and the policy's probabilities there (None where the
    table has no entry); None when this was no betting decision (one abstract action, or a
    seña or flor call, which the policy does not model)."""
    legal = hand.legal_actions()
    choices = slots(tuple(a for a in legal if not is_sena(a)), len(hand.envido_chain))
    slot = PLAY if action < 40 else action
    if len(choices) < 2 or slot not in choices:
        return None
    probs = probs_at(table, hand, choices)
    return choices, slot, probs
