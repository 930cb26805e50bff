"""Layout version 2 of the research environments: the actions and observation of señas, "a
ley de juego" and flor (docs/rules.md §11), with the standard checks of each library."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import gymnasium as gym
import pyspiel  # type: ignore[import-not-found]
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from truco import Match, find_variant
from truco.actions import FLOR, SENA_1E, SENAS, Move
from truco.cards import parse_hand
from truco.env import encoding
from truco.env.gym_env import ENV_ID
from truco.env.openspiel_game import GAME_NAME
from truco.env.pettingzoo_env import env
from truco.errors import RulesError

TABLES = [
    ("argentino", 4, {"senas": True, "flor": True, "ley_de_juego": True}),
    ("espanol", 4, {"senas": True, "senas_catch": 0.5}),
    ("argentino", 2, {"flor": True, "flor_must_sing": True, "ley_de_juego": True}),
    ("valenciano", 6, {"senas": True, "ley_de_juego": True}),
]
IDS = [f"{v}-{n}" for v, n, _ in TABLES]
ADVICE = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def test_docstring_table_of_layout_2_matches_the_code() -> None:
    doc = (encoding.__doc__ or "").split("Layout version 2\n")[1]
    table = doc.split("Observation tensor")[1].split("Information-state tensor")[0]
    rows = re.findall(r"^([a-z_]+)\s{2,}([\dn][\dn *+]*?)\s{2,}", table, re.MULTILINE)
    for n in (2, 4, 6, 8):
        extra = [(name, eval(size, {"n": n})) for name, size in rows]
        assert list(encoding.sections(n, 2)) == [*encoding.sections(n), *extra]
        assert encoding.observation_size(n, 2) == 129 + 137 * n
        assert encoding.observation_size(n) == 125 + 127 * n  # layout 1 unchanged
    assert encoding.num_actions(1) == 50 and encoding.num_actions(2) == 64


def test_layout_1_refuses_the_options_and_layout_2_may_be_chosen_without_them() -> None:
    with pytest.raises(RulesError, match="layout=2"):
        env(variant="argentino", players=4, rules={"senas": True})
    with pytest.raises(RulesError, match="layout"):
        env(layout=3)
    plain = env(layout=2)
    plain.reset(seed=1)
    assert plain.observation_space("player_0")["action_mask"].shape == (64,)


@pytest.mark.parametrize(("variant", "players", "rules"), TABLES, ids=IDS)
def test_pettingzoo_api_with_the_options(variant: str, players: int, rules: dict) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant=variant, players=players, rules=rules, layout=2), num_cycles=600)
        seed_test(
            lambda: env(variant=variant, players=players, rules=rules, layout=2), num_cycles=300
        )
    assert [str(w.message) for w in caught if not str(w.message).startswith(ADVICE)] == []


@pytest.mark.parametrize(("variant", "players", "rules"), TABLES[:3], ids=IDS[:3])
def test_gymnasium_check_env_with_the_options(variant: str, players: int, rules: dict) -> None:
    table = gym.make(
        ENV_ID,
        variant=variant,
        players=players,
        rules=rules,
        layout=2,
        opponent="heuristic",
        render_mode="ansi",
    )
    check_env(table.unwrapped)


def test_openspiel_random_sim_with_flor_and_ley_de_juego() -> None:
    game = pyspiel.load_game(
        f"{GAME_NAME}(variant=argentino,players=4,layout=2,flor=true,ley=true)"
    )
    assert game.num_distinct_actions() == 64
    rules = find_variant("argentino", players=4, flor=True, ley_de_juego=True)
    assert game.information_state_tensor_size() == encoding.information_state_size(rules, 2)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    with pytest.raises(Exception, match="layout=2"):
        pyspiel.load_game(f"{GAME_NAME}(variant=argentino,flor=true)")


def test_the_tensor_shows_the_senas_a_seat_saw_and_the_flor() -> None:
    rules = find_variant("argentino", players=4, senas=True, flor=True)
    m = Match(rules, auto_deal=False)
    m.start_hand([parse_hand(c) for c in ("1e 7e 12e", "3b 6c 7c", "2e 4b 5b", "12o 11o 10b")])
    m.apply_move(Move(0, SENA_1E, (3,)))
    m.apply(FLOR)
    at = encoding.offsets(4, 2)
    for seat, sees in ((0, True), (1, False), (2, True), (3, True)):
        tensor = encoding.encode(m.observation(seat), layout=2)
        r = (0 - seat) % 4
        assert tensor[at["senas"] + 9 * r + (SENA_1E - SENAS[0])] == float(sees)
        assert tensor[at["flor_sung"] + r] == 1.0
        assert tensor[at["flor_status"] + 1] == 1.0
    mask = encoding.action_mask(m.observation(0), 2)
    assert mask.shape == (64,) and set(np.flatnonzero(mask)) == set(m.legal_actions())
