"""Reading the other seats' card plays by the fixed card play (decision 104)."""

from __future__ import annotations

import pytest
from support import match_after

from truco.bots import make_bot
from truco.bots.knowledge import CARD_FLOOR, card_likelihood, rebuild_weighted
from truco.cards import parse_hand
from truco.errors import TrucoError
from truco.observation import observe

RIVAL = "4c 7e 1e"
OWN = "5b 6o 12c"


def weight(obs_cards: str, actions: list[str], rival: str, floor: float | None) -> float:
    m = match_after("argentino", [RIVAL, OWN], actions)
    obs = observe(m, 1)
    deal = (tuple(parse_hand(rival)), tuple(parse_hand(obs_cards)))
    cards = None if floor is None else card_likelihood(floor)
    return rebuild_weighted(obs, deal, cards=cards)[1]


def test_a_lead_reads_one_card_above_and_one_below() -> None:
    """The fixed card play leads the middle card of three: a rival that led the 7 of
    espadas is read as holding a card above it more likely than two below."""
    lead = ["p0 7e"]
    assert weight(OWN, lead, "4c 7e 1e", 0.2) == pytest.approx(0.8)  # its middle card
    assert weight(OWN, lead, "4c 7e 5o", 0.2) == pytest.approx(0.1)  # it would lead 5o
    assert weight(OWN, lead, "1b 7e 1e", 0.2) == pytest.approx(0.1)  # or 1b
    # off by default: a card played says nothing
    assert weight(OWN, lead, "4c 7e 5o", None) == weight(OWN, lead, "4c 7e 1e", None)


def test_a_lead_after_a_won_baza_reads_the_lowest_card() -> None:
    """Having won the first baza, the fixed card play leads its lowest card."""
    m = match_after("argentino", [RIVAL, OWN], ["p0 7e", "p1 5b"])
    obs = observe(m, 1)  # seat 0 to lead the second baza
    read = card_likelihood(0.1)
    hand = rebuild_weighted(obs, (tuple(parse_hand(RIVAL)), tuple(parse_hand(OWN))))[0].hand
    assert read(hand, parse_hand("4c")[0]) == pytest.approx(0.9)  # it won: it leads its lowest
    assert read(hand, parse_hand("1e")[0]) == pytest.approx(0.1)


def test_expert_takes_the_option_and_refuses_bad_floors() -> None:
    bot = make_bot("expert", seed=1, cards="read", card_floor="0.3", iterations=20)
    m = match_after("argentino", [RIVAL, OWN], ["p0 7e"])
    assert bot.choose(observe(m, 1)) in m.legal_actions()
    for bad in ("1.5", "x", "-0.1"):
        with pytest.raises(TrucoError, match="card_floor must be from 0 to 1"):
            make_bot("expert", seed=1, cards="read", card_floor=bad)
    with pytest.raises(TrucoError, match="cards must be one of none, read"):
        make_bot("expert", seed=1, cards="all")
    assert 0.0 < CARD_FLOOR < 1.0
