"""The one catalog's account of a hand: Valencià beside Spanish and English, the variant's
call words in every language, whose flor scored, and an envido won by a seat that never said
its value (issue 52)."""

from __future__ import annotations

import re
import string

import pytest

from truco.account import account_of_match, account_of_observation
from truco.account_text import CALL_WORDS, LANGS, MESSAGES, SENA_WORDS, Teller, Words
from truco.actions import Move
from truco.cards import parse_hand
from truco.match import Match
from truco.variants import find_variant

NAMES = ["Ana", "Bea", "Pedro", "Juan"]


#: Fields every message may use: the variant's call words (Words fills them).
SAID = {"envido", "Envido", "truco", "said_yes", "said_no"}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name} - SAID


def played(variant: str, cards: list[str], moves: list[str], **options: object) -> Match:
    """A hand dealt ``cards``, ``moves`` made, then played out with the first card legal."""
    m = Match(find_variant(variant, players=len(cards), **options), auto_deal=False)
    m.start_hand([parse_hand(c) for c in cards])
    for text in moves:
        m.apply_move(Move.parse(text))
    while not m.hand.over:
        legal = m.legal_actions()
        m.apply(next((a for a in legal if a < 40), legal[0]))
    return m


def told(m: Match, lang: str, variant: str) -> list[str]:
    return Teller(Words(lang, variant), NAMES[: m.rules.players]).explain(account_of_match(m, 0), 1)


def test_every_language_has_every_message_with_the_same_fields() -> None:
    assert LANGS == ("es", "en", "va")
    for lang in LANGS:
        assert MESSAGES[lang].keys() == MESSAGES["es"].keys(), lang
        assert SENA_WORDS[lang].keys() == SENA_WORDS["es"].keys(), lang
        for key, text in MESSAGES["es"].items():
            assert fields(MESSAGES[lang][key]) == fields(text), (lang, key)


def test_a_message_names_a_call_only_through_the_variants_words() -> None:
    """No message of any language says a call word itself (issue 52: "Envido" beside "no
    vull"): ``{envido}``, ``{truco}``, ``{said_yes}``, ``{said_no}`` say the variant's."""
    calls = {w for words in CALL_WORDS.values() for w in words.values()} - {"flor", "falta"}
    for lang in LANGS:
        for key, text in MESSAGES[lang].items():
            said = re.sub(r"\{\w+\}", "", text)
            for word in calls:
                assert not re.search(rf"\b{re.escape(word)}\b", said, re.I), (lang, key, word)


@pytest.mark.parametrize("lang", LANGS)
def test_a_valenciano_hand_says_envit_and_vull_in_every_language(lang: str) -> None:
    m = played("valenciano", ["3e 4o 5c", "6b 7b 4e"], ["p0 envido", "p1 quiero", "p0 truco"])
    text = "\n".join(told(m, lang, "valenciano"))
    assert "Envit" in text and "Vull" in text and "Truc!" in text
    assert not re.search(r"(?i)\benvido\b|\bquiero\b|\btruco\b", text), text


def test_valencia_tells_a_hand_in_valencian() -> None:
    m = played("valenciano", ["3e 4o 5c", "6b 7b 4e"], ["p0 envido", "p1 quiero", "p0 truco"])
    text = told(m, "va", "valenciano")
    assert text[0] == "Mà 1 · redondo · és mà: Ana"
    assert "    Bea: Vull! (accepta l'envit)" in text
    assert "    Ana: tinc 5" in text and "    Bea: tinc 33" in text
    assert "    Bea: mostre 7 de bastos i 6 de bastos (33 d'envit)" in text
    assert "    · Envit volgut → Bea: 33 · Bea +2" in text
    assert Words("va", "argentino").card(parse_hand("1e")[0]) == "as d'espases"
    assert Words("va", "argentino").card(parse_hand("12c")[0]) == "rei de copes"


def test_an_unanswered_flor_names_whose_flor_it_was() -> None:
    m = played("argentino", ["1e 7e 12e", "3b 4o 5c"], ["p0 flor"], flor=True)
    assert told(m, "es", "argentino")[-3] == "    · Flor: Ana → Ana +3"
    assert "    · Flor: Ana → Ana +3" in told(m, "en", "argentino")
    assert "    · Flor: Ana → Ana +3" in told(m, "va", "argentino")


def test_two_unanswered_flores_of_one_team_name_both() -> None:
    cards = ["1e 7e 12e", "3b 4o 5c", "1o 7o 12o", "4b 5b 6c"]
    m = played("argentino", cards, ["p0 flor", "p0 1e", "p1 3b", "p2 flor"], flor=True)
    text = told(m, "es", "argentino")
    assert "    · Flor: Ana y Pedro → Ana y Pedro +6" in text, text


def test_an_envido_won_by_a_partner_who_never_spoke_says_so() -> None:
    """Ana states 30, the rivals concede; her partner Pedro holds 33 and wins it unsaid."""
    cards = ["6c 4c 1o", "4e 5e 6b", "7o 6o 1e", "3b 4b 5o"]
    m = played("argentino", cards, ["p0 envido", "p1 quiero"])
    assert "    · Envido querido → gana Pedro con 33 (no lo había cantado) · Ana y Pedro +2" in (
        told(m, "es", "argentino")
    )
    assert "    · Envido accepted → Pedro wins with 33 (not said before) · Ana and Pedro +2" in (
        told(m, "en", "argentino")
    )
    assert "    · Envido volgut → guanya Pedro amb 33 (no ho havia dit) · Ana i Pedro +2" in (
        told(m, "va", "argentino")
    )
    # A winner who said the value is told as before.
    m = played(
        "argentino", ["3b 4o 5c", "4e 5e 6c", "7o 6o 1e", "6b 5b 4c"], ["p0 envido", "p1 quiero"]
    )
    assert "    · Envido querido → Pedro: 33 · Ana y Pedro +2" in told(m, "es", "argentino")


def test_a_seats_stake_and_own_envido_use_the_variants_words() -> None:
    m = Match(find_variant("valenciano"), auto_deal=False)
    m.start_hand([parse_hand(c) for c in ["3e 4o 5c", "6b 7b 4e"]])
    m.apply_move(Move.parse("p0 envido"))
    obs = m.observation(1)
    account = account_of_observation(obs)
    from truco.account import stake

    pending = stake(obs)
    assert pending is not None
    teller = Teller(Words("va", "valenciano"), NAMES[:2], ("Nosaltres", "Ells"))
    assert teller.stake(pending) == "Envit: vull → 2; no vull → Nosaltres +1"
    es = Teller(Words("es", "valenciano"), NAMES[:2], ("Ellos", "Nosotros"))
    assert es.stake(pending) == "Envit: vull → 2; no vull → Ellos +1"
    assert Words("va", "valenciano")("own_envido", value=33) == "El teu envit: 33"
    assert account.parts and not account.complete


def test_an_unknown_language_is_refused_with_the_languages() -> None:
    with pytest.raises(ValueError, match="languages are es, en, va"):
        Words("ca", "valenciano")
