"""``render()``'s table text (truco.env.render): what the seat may know, laid out by seat."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium")

from truco import Match, find_variant
from truco.cards import NAMES
from truco.env.render import table_text
from truco.variants import PRESETS

CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts]


def _words(text: str) -> set[str]:
    return set(text.replace(",", " ").replace(":", " ").split())


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=[f"{v}-{n}" for v, n in CONFIGS])
def test_the_table_shows_own_cards_and_what_is_public_only(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    rng = random.Random(players)
    seen_said = False
    for game in range(6):
        match = Match(rules, seed=game, auto_deal=False)
        match.start_hand()
        while True:
            for seat in range(players):  # between hands too: valenciano states its envido then
                obs = match.observation(seat)
                words = _words(table_text(obs))
                public = {NAMES[c] for c in obs.seen_cards()}
                dealt = match.hands[-1].cards
                hidden = {NAMES[c] for s, cs in enumerate(dealt) if s != seat for c in cs}
                assert not (hidden - public) & words, (seat, table_text(obs))
                if seat not in obs.folded:  # a folded seat's row says "mazo"
                    assert {NAMES[c] for c in obs.hand} <= words
                assert f"p{seat}" in words or f"(p{seat}" in words
                seen_said |= bool(obs.statements)
            if match.over:
                break
            if match.hand.over:
                match.start_hand()
                continue
            legal = match.legal_actions()
            match.apply(legal[int(rng.random() * len(legal))])
    assert seen_said  # statements appeared somewhere in the walks


def test_the_table_after_an_envido_and_at_the_end() -> None:
    match = Match("argentino", seed=4)
    for token in (44, 47):  # envido, quiero: settled at once in argentino
        match.apply(token)
    text = table_text(match.observation(0))
    assert "said: p0" in text and "bets: no truco, envido" in text
    while not match.over:
        match.apply(match.legal_actions()[-1])  # the mazo, hand after hand
    assert "match over:" in table_text(match.observation(1))
