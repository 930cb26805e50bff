"""Who is rated and how a game moves ratings (decision 113, ``truco.web.ratings``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from test_web_accounts import Person, play_out, seated
from web_helpers import LiveServer, choose

from truco.web.ratings import PROVISIONAL_SIGMA, RatedSeat, Skill, aborted, provisional, rate_game
from truco.web.schema import SeatRow

NEW = {a: Skill() for a in range(1, 9)}


def duel(left: int | None = None) -> list[RatedSeat]:
    return [RatedSeat(1, 0, left), RatedSeat(2, 1)]


def test_a_duel_moves_the_winner_up_and_the_loser_down_by_as_much() -> None:
    after = rate_game(duel(), NEW, winner=0)
    assert after[1].mu > 1500 > after[2].mu
    assert round(after[1].mu - 1500, 6) == round(1500 - after[2].mu, 6)
    assert after[1].sigma < 500 and after[2].sigma < 500


def test_an_upset_moves_more_than_the_expected_result() -> None:
    skills = {1: Skill(1800, 150), 2: Skill(1300, 150)}
    expected = rate_game(duel(), skills, winner=0)
    upset = rate_game(duel(), skills, winner=1)
    assert (1800 - upset[1].mu) > (expected[1].mu - 1800)


def test_a_leaver_loses_alone_and_partners_are_not_penalized() -> None:
    seats = [RatedSeat(1, 0, 4), RatedSeat(2, 1), RatedSeat(3, 0), RatedSeat(4, 1)]
    lost = rate_game(seats, NEW, winner=1)
    assert lost[1].mu < 1500  # the leaver
    assert 3 not in lost  # the partner who played on does not move
    assert lost[2].mu > 1500 and lost[4].mu > 1500  # the winners get their win
    won = rate_game(seats, NEW, winner=0)
    assert won[1].mu < 1500  # the leaver loses even when the team won
    assert won[3].mu > 1500  # the partner who played on wins
    assert won[2].mu < 1500 and won[4].mu < 1500


def test_a_game_left_before_its_second_hand_is_aborted() -> None:
    assert aborted(duel(left=1)) and rate_game(duel(left=1), NEW, 0) == {}
    assert not aborted(duel(left=2)) and rate_game(duel(left=2), NEW, 1)[1].mu < 1500


def test_an_account_at_several_seats_moves_by_their_mean() -> None:
    # A bot level's account at both seats of a team: one update, the mean of the two.
    seats = [RatedSeat(1, 0), RatedSeat(7, 1), RatedSeat(2, 0), RatedSeat(7, 1)]
    after = rate_game(seats, NEW, winner=1)
    assert set(after) == {1, 2, 7} and after[7].mu > 1500


def test_provisional_until_the_deviation_settles() -> None:
    assert provisional(Skill().sigma)
    skills = dict(NEW)
    games = 0
    while provisional(skills[1].sigma):
        skills.update(rate_game(duel(), skills, winner=games % 2))
        games += 1
    assert skills[1].sigma <= PROVISIONAL_SIGMA and 8 <= games <= 20


# ---------------------------------------------------------------------- over a real server


def test_a_person_who_leaves_for_good_loses_alone(tmp_path: Path) -> None:
    """Beto leaves a rated duel in its second hand and a stand-in bot plays for him to the
    end: whoever won, Beto is rated as the loser, Ana by the game's result."""
    with LiveServer(f"sqlite:///{tmp_path / 'left.sqlite3'}", away_limit=0.3) as server:
        ana, beto = Person(server, "Ana"), Person(server, "Beto")
        table = ana.create("argentino", ["human", "human"], target=15, clock=0)

        async def play() -> dict[str, Any]:
            async with seated(server, table["id"], table["tokens"][0], ana.cookie) as (c0, _):
                async with seated(server, table["id"], table["tokens"][1], beto.cookie) as (
                    c1,
                    _,
                ):
                    await c0.state_where(lambda v: v["rated"])
                    rng = random.Random(3)
                    while (c0.state or {}).get("hand_number", 0) < 2:
                        for seat, c in ((0, c0), (1, c1)):
                            v = c.state
                            if v and v["turn"] == seat and v["legal"] and not v["over"]:
                                act = {"type": "act", "action": choose(rng, v["legal"])}
                                await c.send({**act, "seq": v["seq"]})
                        for c in (c0, c1):
                            with contextlib.suppress(TimeoutError):
                                while True:
                                    await c.recv(timeout=0.05)
                # Beto's connection is gone: after away_limit a bot plays his seat.
                await c0.state_where(
                    lambda v: [x["seat"] for x in v["stand_in"]] == [1] or v["over"], timeout=10
                )
                return await play_out({0: c0}, seed=4)

        final = asyncio.run(play())
        assert final["over"]
        ana_p = httpx.get(f"{server.http}/api/players/Ana").json()
        beto_p = httpx.get(f"{server.http}/api/players/Beto").json()
        assert beto_p["ratings"][0]["rating"] < 1500  # he loses, whoever won
        assert beto_p["games"][0]["rated"] is True
        with server.app.state.store.engine.connect() as conn:
            left = conn.execute(
                select(SeatRow.seat, SeatRow.left_at_hand).where(SeatRow.table_id == table["id"])
            ).all()
        assert sorted(map(tuple, left)) == [(0, None), (1, 2)]  # from the second hand on
        ana_rating = ana_p["ratings"][0]["rating"]
        assert (ana_rating > 1500) == (final["winner"] == 0)
