"""The states of one moment made together (issue 53's speed): what one view keeps for the others
changes nothing in any of them, and nothing a seat alone sees reaches another's state."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from truco.account_text import Teller, Words
from truco.actions import is_sena
from truco.match import Match
from truco.observation import PublicHand, _public
from truco.variants import find_variant
from truco.web.protocol import encode, once
from truco.web.views import SeatMeta, state_view

TABLES = [
    ("argentino", 2, {}),
    ("argentino", 4, {"flor": True}),
    ("argentino", 6, {}),  # pica-pica hands
    ("espanol", 4, {"senas": True}),  # señas: seats see different moves
    ("valenciano", 4, {"senas": True}),
]


def views_of(match: Match, shared: dict[str, Any] | None, langs: tuple[str, ...]) -> list[Any]:
    """Every seat's view and the spectators', made in one go through ``shared`` (or alone)."""
    meta = [SeatMeta(f"Jugador {i}", "human", None, True) for i in range(match.n)]
    out = []
    for seat in [*range(match.n), None]:
        obs = match.observation(0 if seat is None else seat)
        view = state_view(
            obs,
            table="t",
            seq=seat or 0,
            hand_number=len(match.hands),
            seats=meta,
            spectators=1,
            downloads={"hands": [], "game": match.over},
            spectator=seat is None,
            langs=langs,
            shared=shared,
        )
        out.append(orjson.loads(encode(view)))
    return out


@pytest.mark.parametrize(("variant", "players", "options"), TABLES)
def test_views_made_together_are_the_views_made_alone(
    variant: str, players: int, options: dict[str, bool]
) -> None:
    """Whole games: at every action, each view made with the others (sharing what they have
    in common) equals the view made on its own, in one language and in all."""
    rules = find_variant(variant, players=players, target=15, **options)
    rng = random.Random(players)
    for game in range(2):
        match = Match(rules, seed=game)
        steps = 0
        while not match.over and steps < 400:
            match.apply(rng.choice(match.legal_actions()))
            steps += 1
            langs = ("es",) if steps % 2 else ("es", "en", "va")
            assert views_of(match, {}, langs) == views_of(match, None, langs)


def test_what_a_seat_alone_sees_stays_out_of_the_others_states() -> None:
    """With señas, a seat's cards and its team's señas appear in no opponent's state made
    together with it, nor in the spectators' (docs/rules.md §10, §11.1)."""
    rules = find_variant("espanol", players=4, senas=True, target=30)
    rng = random.Random(5)
    match = Match(rules, seed=11)
    senas = 0
    while not match.over:
        legal = match.legal_actions()
        made = [a for a in legal if is_sena(a)]
        match.apply(rng.choice(made) if made and rng.random() < 0.5 else rng.choice(legal))
        views = views_of(match, {}, ("es",))
        spectators = views[-1]
        assert "senas" in spectators and spectators["senas"] == []
        for i, view in enumerate(views[:-1]):
            for j, other in enumerate(views[:-1]):
                if j % 2 != i % 2:
                    assert not set(view["hand"]) & set(other["hand"])
            senas += len(view["senas"])
    assert senas > 0
    assert views_of(match, {}, ("es",)) == views_of(match, None, ("es",))


def test_a_finished_hand_is_seen_once_per_seat_and_alike_without_senas() -> None:
    match = Match(find_variant("argentino", players=2), seed=4)
    rng = random.Random(1)
    while len(match.hands) < 3:
        match.apply(rng.choice(match.legal_actions()))
    first = match.observation(0).previous
    assert isinstance(first, PublicHand)
    assert match.observation(1).previous is first  # the same hand for both, made once
    fresh = match.hands[-2]
    assert _public(fresh, 0, match.rules) == first


def test_a_teller_says_each_event_as_a_fresh_one_would() -> None:
    match = Match(find_variant("argentino", players=2), seed=8)
    rng = random.Random(2)
    from truco.account import account_of_observation

    kept = Teller(Words("es", "argentino"), ["Ana", "Beto"])
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
        account = account_of_observation(match.observation(0))
        for part in account.parts:
            for event in part.events:
                fresh = Teller(Words("es", "argentino"), ["Ana", "Beto"])
                assert kept.event(event) == fresh.event(event)


def test_once_encodes_a_value_once_and_never_confuses_two() -> None:
    value = {"number": 3, "told": {"es": {"log": ["Ana jugó el as de espadas"]}}}
    fragment = once(value)
    assert once(value) is fragment
    assert orjson.loads(orjson.dumps({"finished": fragment})) == {"finished": value}
    for n in range(50):  # values made and dropped: a new one at an old address is new
        other = {"number": n}
        assert orjson.loads(orjson.dumps(once(other))) == other


def test_a_kept_teller_keeps_a_bounded_number_of_lines() -> None:
    from truco.account import Event
    from truco.account_text import _TOLD_KEPT

    teller = Teller(Words("es", "argentino"), ["Ana", "Beto"])
    for value in range(_TOLD_KEPT + 10):
        line = teller.event(Event("statement", value % 2, value=value))
        assert line == Teller(Words("es", "argentino"), ["Ana", "Beto"]).event(
            Event("statement", value % 2, value=value)
        )
    assert len(teller._told) <= _TOLD_KEPT
