"""Golden OpenSpiel playthroughs of ``python_truco`` (``generate_playthrough``), one per preset.

Each file in ``tests/playthroughs/`` is what OpenSpiel's ``generate_playthrough`` writes for a
game string and a sequence of random actions: every observer's strings and tensors (the
seat's, the public and the private ones), the legal actions and the returns along the way.
Replaying the file's actions must give the file again, byte for byte: any change of the
observations, the layout or the rules shows up as a diff here.

After an intended change, regenerate them and review the diff::

    UPDATE_PLAYTHROUGHS=1 .venv/bin/pytest -q tests/test_env_playthroughs.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import truco.env.openspiel_game  # noqa: F401  (registers python_truco)

if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()  # generate_playthrough reads an absl flag (its defaults)

FOLDER = Path(__file__).parent / "playthroughs"

#: file name -> (game string, seed of the random actions)
GAMES = {
    "argentino_hand.txt": ("python_truco(hand_only=True)", 1),
    "espanol_hand.txt": ("python_truco(variant=espanol,hand_only=True,score0=20,mano=1)", 2),
    "valenciano_hand.txt": ("python_truco(variant=valenciano,hand_only=True,score0=10)", 3),
    "argentino_match_to_3.txt": ("python_truco(target=3)", 4),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_replays_exactly(name: str) -> None:
    path = FOLDER / name
    game, seed = GAMES[name]
    if os.environ.get("UPDATE_PLAYTHROUGHS"):
        path.write_text(generate_playthrough.playthrough(game, None, seed=seed), encoding="utf-8")
    original, replayed = generate_playthrough.replay(str(path))
    assert original.startswith(f"game: {game}\n")
    assert "PublicObservationString()" in original and "PrivateObservationString(0)" in original
    assert replayed == original
