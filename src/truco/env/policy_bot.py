"""``maskable-ppo``: a trained sb3-contrib ``MaskablePPO`` model as a bot (``truco-game[train]``).

``truco arena maskable-ppo:path=runs/ppo.zip heuristic`` plays a model saved by
``examples/train_maskable_ppo.py`` (or any ``MaskablePPO`` trained on ``truco/Truco-v0``) in
duplicate matches. Like every bot it is given its seat's
:class:`~truco.observation.Observation` only, and reads it through the same tensor and mask
the environment gave the model in training (:mod:`truco.env.encoding`, layout version 1).

Option ``path`` (needed): the ``.zip`` that ``model.save()`` wrote. The bot plays the
policy's most likely legal action (``deterministic=True``), so it is deterministic whatever
its seed.

sb3-contrib and torch are imported when the first such bot is made, and a model is loaded once
per process and path.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from truco.bots.base import Bot, register
from truco.env import encoding
from truco.errors import TrucoError
from truco.observation import Observation

_MODELS: dict[str, Any] = {}


def load_model(path: str) -> Any:
    """The ``MaskablePPO`` saved at ``path``, loaded once per process (on the CPU)."""
    model = _MODELS.get(path)
    if model is None:
        try:
            ppo = importlib.import_module("sb3_contrib").MaskablePPO
        except ImportError as e:
            raise TrucoError(f"maskable-ppo needs the extra truco-game[train]: {e}") from None
        try:
            model = _MODELS[path] = ppo.load(path, device="cpu")
        except (OSError, ValueError) as e:
            raise TrucoError(f"maskable-ppo: cannot load {path!r}: {e}") from None
    return model


class PolicyBot(Bot):
    """A ``MaskablePPO`` policy choosing among the seat's legal actions."""

    name = "maskable-ppo"

    def __init__(
        self,
        seed: int | None = None,
        path: str = "",
        model: Any = None,
        **options: Any,
    ) -> None:
        super().__init__(seed, **options)
        if model is None:
            if not path:
                raise TrucoError("maskable-ppo: give the model's path (maskable-ppo:path=...)")
            model = load_model(str(path))
        self.model = model
        shape = model.observation_space["observation"].shape
        self.size = int(shape[0])

    def choose(self, obs: Observation) -> int:
        if encoding.observation_size(obs.players) != self.size:
            raise TrucoError(
                f"maskable-ppo: the model reads a table of {(self.size - 125) // 127} players, "
                f"not {obs.players}"
            )
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        mask = encoding.action_mask(obs)
        observed = {"observation": encoding.encode(obs), "action_mask": mask}
        action, _ = self.model.predict(observed, action_masks=mask.astype(bool), deterministic=True)
        choice = int(np.asarray(action).item())
        return choice if choice in legal else legal[0]


@register("maskable-ppo")
def make(seed: int | None = None, **options: Any) -> PolicyBot:
    """The registry factory of ``maskable-ppo``."""
    return PolicyBot(seed=seed, **options)
