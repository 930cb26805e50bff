"""``truco play`` at a team table: the person answers the calls made to their team, never a
bot partner on their behalf (decision 64), and ``--rule answer_seats=...`` says otherwise."""

from __future__ import annotations

import pytest

from truco.actions import TRUCO, parse_token
from truco.commands.cli import build_parser
from truco.errors import TrucoError
from truco.match import Match
from truco.tui.command import config_of


def config(*argv: str):  # type: ignore[no-untyped-def]
    return config_of(build_parser().parse_args(["play", *argv]))


def test_the_person_answers_for_their_team_at_a_team_table() -> None:
    assert config("--variant", "valenciano", "--players", "4").rules.answer_seats == (0,)
    assert config("--players", "6", "--seat", "3").rules.answer_seats == (3,)
    assert config("--players", "2").rules.answer_seats == ()  # a duel: each team is one seat


@pytest.mark.parametrize(
    ("rule", "seats"),
    [("answer_seats=0,2", (0, 2)), ("answer_seats=2", (2,)), ("answer_seats=", ())],
)
def test_answer_seats_as_a_rule_in_every_form(rule: str, seats: tuple[int, ...]) -> None:
    made = config("--variant", "valenciano", "--players", "4", "--rule", rule)
    assert made.rules.answer_seats == seats


def test_a_bad_answer_seats_is_refused_with_its_reason() -> None:
    with pytest.raises(TrucoError, match="answer_seats"):
        config("--players", "4", "--rule", "answer_seats=0,9")


def test_a_truco_called_at_the_persons_team_waits_for_the_person() -> None:
    rules = config("--variant", "valenciano", "--players", "4").rules
    match = Match(rules, seed=3)
    # Seat 0 (the person) is mano: it plays a card, then seat 1 calls the truco.
    first_card = next(a for a in match.legal_actions() if a < TRUCO)
    match.apply(first_card)
    assert match.turn == 1 and parse_token("truco") in match.legal_actions()
    match.apply(parse_token("truco"))
    assert match.turn == 0  # the person, not seat 2 (the bot partner, the next seat)
