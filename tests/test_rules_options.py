"""docs/rules.md §11: señas (11.1), "a ley de juego" (11.2) and flor (11.3), one test per clause.

Scenario records of the same rules are in tests/records/11_*.truco (and invalid/11_*).
"""

from __future__ import annotations

import pytest

from truco import IllegalActionError, Match, RulesError, find_variant
from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    MAZO,
    NO_QUIERO,
    QUIERO,
    RETRUCO,
    SENAS,
    TRUCO,
    Move,
    is_sena,
    parse_token,
    token,
)
from truco.cards import parse_hand
from truco.flor import best_flor, flor_value, has_flor
from truco.options_hand import ENVIDO_VOID, OptionHand
from truco.referee import record_of, replay
from truco.senas import MEANINGS, is_true, truthful

FOUR = ["1e 4c 5o", "3b 6c 7c", "2e 4b 5b", "12o 11o 10o"]


def table(variant: str = "argentino", players: int = 2, **options: object) -> Match:
    return Match(find_variant(variant, players=players, **options), auto_deal=False)


def deal(match: Match, cards: list[str]) -> Match:
    match.start_hand([parse_hand(c) for c in cards])
    return match


def act(match: Match, *moves: str) -> Match:
    for text in moves:
        match.apply_move(Move.parse(text))
    return match


# ---------------------------------------------------------------------- 11.1 señas


def test_11_1_the_nine_signals_and_their_tokens() -> None:
    tokens = [token(a) for a in SENAS]
    assert tokens == [
        "sena-1e",
        "sena-1b",
        "sena-7e",
        "sena-7o",
        "sena-3",
        "sena-2",
        "sena-falso",
        "sena-malas",
        "sena-envido",
    ]
    assert all(parse_token("seña-" + t[5:]) == parse_token(t) for t in tokens)
    assert MEANINGS[parse_token("sena-1b")][2] == "wink"
    assert MEANINGS[parse_token("sena-malas")][2] == "close the eyes"
    assert [MEANINGS[s][0] for s in truthful(parse_hand("1o 2c 7e"))] == [
        "7e",
        "any 2",
        "1o or 1c",
    ]


def test_11_1_a_sena_on_ones_turn_keeps_the_turn_once_per_turn() -> None:
    m = deal(table(players=4, senas=True), FOUR)
    assert set(SENAS) <= set(m.legal_actions())
    m.apply(parse_token("sena-1e"))
    assert m.turn == 0
    assert not any(is_sena(a) for a in m.legal_actions()), "one seña per turn"
    m.apply(parse_token("4c"))
    assert m.turn == 1 and set(SENAS) <= set(m.legal_actions())
    m.apply(TRUCO)  # answering a call is a turn to act too
    assert m.turn == 2 and set(SENAS) <= set(m.legal_actions())


def test_11_1_no_senas_in_two_player_games_or_pica_pica_duels() -> None:
    with pytest.raises(RulesError, match="team games"):
        find_variant("argentino", senas=True)
    m = Match(
        find_variant("espanol", players=6, senas=True),
        score=(5, 0),
        next_hand="pica-pica",
        seed=3,
    )
    assert m.kind == "pica-pica"
    assert not any(is_sena(a) for a in m.legal_actions())
    with pytest.raises(IllegalActionError, match="pica-pica duel"):
        m.apply(SENAS[0])
    redondo = Match(find_variant("espanol", players=6, senas=True), seed=3)
    assert set(SENAS) <= set(redondo.legal_actions())


def test_11_1_a_sena_need_not_be_true() -> None:
    m = deal(table(players=4, senas=True), FOUR)
    lie = parse_token("sena-7o")
    assert not is_true(lie, parse_hand(FOUR[0]))
    m.apply(lie)  # p0 holds no 7o: the seña is a bluff, and allowed
    assert m.hand.history[-1] & 63 == lie


@pytest.mark.parametrize("chance", [0.0, 0.25, 1.0])
def test_11_1_partners_always_see_each_opponent_catches_with_senas_catch(chance: float) -> None:
    rules = find_variant("argentino", players=4, senas=True, senas_catch=chance)
    caught = made = 0
    for seed in range(300):
        m = Match(rules, seed=seed)
        signaller = m.turn
        m.apply(SENAS[0])
        mask = m.hand_catches().get(len(m.hand_moves()) - 1, 0)
        for seat in range(4):
            obs = m.observation(seat)
            saw = [mv for mv in obs.moves if is_sena(mv.action)]
            if seat % 2 == signaller % 2:
                assert saw == [Move(signaller, SENAS[0])], "partners always see a seña"
            else:
                made += 1
                caught += bool(mask >> seat & 1)
                assert bool(saw) == bool(mask >> seat & 1)
                if saw:
                    assert saw[0].caught_by == (seat,)
        assert mask & 0b0101 == 0, "only opponents catch (team 0 is p0 and p2)"
    if chance in (0.0, 1.0):
        assert caught == made * chance
    else:
        assert 0.18 < caught / made < 0.32, caught / made


def test_11_1_catches_are_drawn_at_play_time_and_stored_so_a_record_replays() -> None:
    rules = find_variant("espanol", players=4, senas=True, senas_catch=0.5)
    first, second = Match(rules, seed=11), Match(rules, seed=11)
    for m in (first, second):
        for _ in range(3):
            m.apply(SENAS[1])
            m.apply(next(a for a in m.legal_actions() if a < 40))
    assert first.hand_catches() == second.hand_catches()
    record = record_of(first)
    texts = record.hands[0].actions
    assert any("caught-by" in t for t in texts) or not first.hand_catches()
    again = replay(record).match
    assert again.hand_catches() == first.hand_catches()
    for seat in range(4):
        assert again.observation(seat) == first.observation(seat)


def test_11_1_a_player_who_does_not_see_a_sena_does_not_know_one_was_made() -> None:
    m = deal(table(players=4, senas=True), FOUR)
    plain = deal(table(players=4, senas=True), FOUR)
    act(m, "p0 sena-1e caught-by p3", "p0 4c")
    act(plain, "p0 4c")
    assert m.observation(1) == plain.observation(1)  # p1 did not catch it
    assert m.observation(3) != plain.observation(3)  # p3 did
    assert [mv for mv in m.observation(2).moves if is_sena(mv.action)] == [Move(0, SENAS[0])]


def test_11_1_the_referee_refuses_catches_that_contradict_the_rules() -> None:
    m = deal(table(players=4, senas=True), FOUR)
    for text, words in [
        ("p0 sena-1e caught-by p2", "partner"),
        ("p0 sena-1e caught-by p0", "signaller"),
        ("p0 sena-1e caught-by p4", "not at this table of 4"),
    ]:
        with pytest.raises(IllegalActionError, match=words):
            act(m, text)
    assert m.hand.history == [] and m.turn == 0


# ---------------------------------------------------------------------- 11.2 a ley de juego


def test_11_2_a_ley_de_juego_is_falta_and_truco_at_once_only_as_first_action() -> None:
    m = deal(table(ley_de_juego=True), ["1e 7o 5c", "3b 4c 6o"])
    assert A_LEY_DE_JUEGO in m.legal_actions()
    m.apply(A_LEY_DE_JUEGO)
    hand = m.hand
    assert hand.envido_chain == (FALTA_ENVIDO,) and hand.truco_pending == 1
    late = deal(table(ley_de_juego=True), ["1e 7o 5c", "3b 4c 6o"])
    late.apply(parse_token("5c"))
    assert A_LEY_DE_JUEGO not in late.legal_actions()
    off = deal(table(), ["1e 7o 5c", "3b 4c 6o"])
    assert A_LEY_DE_JUEGO not in off.legal_actions()
    with pytest.raises(IllegalActionError, match="ley_de_juego option is off"):
        off.apply(A_LEY_DE_JUEGO)


def test_11_2_the_falta_is_answered_first_then_the_truco() -> None:
    m = deal(table(ley_de_juego=True), ["1e 7o 5c", "3b 4c 6o"])
    m.apply(A_LEY_DE_JUEGO)
    assert m.turn == 1 and m.legal_actions() == (QUIERO, NO_QUIERO)  # nothing raises a falta
    m.apply(NO_QUIERO)
    assert m.turn == 1 and m.legal_actions() == (QUIERO, NO_QUIERO, RETRUCO)
    espanol = deal(table("espanol", ley_de_juego=True), ["1e 7o 5c", "3b 4c 6o"])
    espanol.apply(A_LEY_DE_JUEGO)
    espanol.apply(NO_QUIERO)
    assert espanol.legal_actions() == (QUIERO, NO_QUIERO)  # no raise as response in espanol


def test_11_2_each_part_is_scored_as_if_called_alone() -> None:
    m = act(
        deal(
            Match(find_variant("argentino", ley_de_juego=True), score=(20, 18), auto_deal=False),
            ["4c 5o 12e", "6e 7e 3b"],
        ),
        "p0 a-ley-de-juego",
        "p1 quiero",
    )
    assert m.score == [20, 28]  # the falta: 30 - 20 = 10 to team 1 (docs/rules.md §5.4)
    act(m, "p1 no-quiero")
    assert m.score == [21, 28]  # the truco rejected: 1 to the caller's team


# ---------------------------------------------------------------------- 11.3 flor


def test_11_3_a_flor_is_three_cards_of_one_suit_worth_20_plus_their_envido() -> None:
    assert has_flor(parse_hand("1e 7e 12e")) and not has_flor(parse_hand("1e 7e 12o"))
    assert flor_value(parse_hand("1e 7e 12e")) == 28
    assert flor_value(parse_hand("5o 6o 7o")) == 38
    with pytest.raises(RulesError, match="only in argentino"):
        find_variant("valenciano", flor=True)


def test_11_3_flor_is_sung_on_ones_turn_before_the_first_card_and_keeps_the_turn() -> None:
    m = deal(table(flor=True), ["3b 4o 5c", "1e 7e 12e"])
    assert FLOR not in m.legal_actions()  # p0 has no flor
    m.apply(parse_token("3b"))
    assert FLOR in m.legal_actions()
    m.apply(FLOR)
    assert m.turn == 1  # the singer keeps the turn
    assert FLOR not in m.legal_actions()  # sung once


def test_11_3_flor_instead_of_answering_an_envido_drops_it_and_voids_the_envido() -> None:
    m = deal(table(flor=True), ["3b 4o 5c", "1e 7e 12e"])
    m.apply(ENVIDO)
    assert FLOR in m.legal_actions()
    m.apply(FLOR)
    hand = m.hand
    assert isinstance(hand, OptionHand)
    assert hand.envido_state == ENVIDO_VOID and m.turn == 0 and m.score == [0, 0]
    assert not {ENVIDO, FALTA_ENVIDO} & set(m.legal_actions())
    with pytest.raises(IllegalActionError, match="void"):
        m.apply(ENVIDO)


def test_11_3_a_flor_not_sung_in_time_is_lost() -> None:
    m = act(deal(table(flor=True), ["3b 4o 5c", "1e 7e 12e"]), "p0 3b", "p1 1e")
    assert FLOR not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="lost"):
        m.apply(FLOR)
    assert m.hand_points() == (0, 0)


def test_11_3_an_unanswered_flor_scores_3_per_flor_at_the_end_of_the_first_baza() -> None:
    m = act(deal(table(flor=True), ["1e 7e 12e", "3b 4o 5c"]), "p0 flor", "p0 1e")
    assert m.score == [0, 0]
    act(m, "p1 3b")
    assert m.score == [3, 0]


def test_11_3_an_opponent_with_a_flor_answers_with_contraflor_or_gives_in() -> None:
    m = act(deal(table(flor=True), ["1e 7e 12e", "4o 5o 6o"]), "p0 flor", "p0 1e")
    legal = m.legal_actions()
    assert {CONTRAFLOR, CONTRAFLOR_AL_RESTO, CON_FLOR_ME_ACHICO} <= set(legal)
    assert FLOR not in legal
    act(m, "p1 con-flor-me-achico")
    assert m.score == [4, 0] and m.turn == 1


def test_11_3_a_contraflor_is_answered_quiero_no_quiero_or_raised_al_resto() -> None:
    cards = ["1e 7e 12e", "4o 5o 6o"]
    m = act(deal(table(flor=True), cards), "p0 flor", "p0 1e", "p1 contraflor")
    assert m.turn == 0 and m.legal_actions() == (QUIERO, NO_QUIERO, CONTRAFLOR_AL_RESTO)
    assert m.observation(0).flor_pending == CONTRAFLOR
    with pytest.raises(IllegalActionError, match="answered first"):
        m.apply(MAZO)
    act(m, "p0 quiero")
    assert m.score == [0, 6] and m.turn == 1  # 35 beats 28: 6 to the best flor
    rejected = act(deal(table(flor=True), cards), "p0 flor", "p0 1e", "p1 contraflor")
    act(rejected, "p0 no-quiero")
    assert rejected.score == [0, 4]
    raised = act(deal(table(flor=True), cards), "p0 flor", "p0 1e", "p1 contraflor")
    act(raised, "p0 contraflor-al-resto")
    assert raised.turn == 1 and raised.legal_actions() == (QUIERO, NO_QUIERO)
    act(raised, "p1 no-quiero")
    assert raised.score == [6, 0]


def test_11_3_contraflor_al_resto_is_worth_the_falta() -> None:
    m = Match(find_variant("argentino", flor=True), score=(10, 12), auto_deal=False)
    act(deal(m, ["1e 7e 12e", "4o 5o 6o"]), "p0 flor", "p0 1e", "p1 contraflor-al-resto")
    act(m, "p0 quiero")
    assert m.score == [10, 30] and m.over and m.winner == 1


def test_11_3_ties_between_flores_go_to_the_player_closest_to_the_mano() -> None:
    dealt = [parse_hand("4e 5e 6e"), parse_hand("4o 5o 6o")]
    assert best_flor(dealt, [1, 0]) == 0
    m = Match(find_variant("argentino", flor=True), mano=1, auto_deal=False)
    act(deal(m, ["4o 5o 6o", "4e 5e 6e"]), "p1 flor", "p1 4e", "p0 contraflor", "p1 quiero")
    assert m.score == [0, 6]  # p1 is the mano: its 35 beats p0's 35


def test_11_3_flor_points_are_scored_before_truco_points() -> None:
    m = Match(find_variant("argentino", flor=True), score=(28, 27), auto_deal=False)
    act(deal(m, ["1e 7e 12e", "3b 4o 5c"]), "p0 flor", "p0 truco", "p1 no-quiero")
    assert m.score == [30, 27] and m.over and m.winner == 0
    assert m.hands[-1].points == [2, 0]  # the flor reached the target: the truco point is moot


def test_11_3_local_options_flor_worth_4_and_flor_must_be_sung() -> None:
    m = act(deal(table(flor=True, flor_points=4), ["1e 7e 12e", "3b 4o 5c"]), "p0 flor", "p0 1e")
    act(m, "p1 3b")
    assert m.score == [4, 0]
    must = deal(table(flor=True, flor_must_sing=True), ["1e 7e 12e", "3b 4o 5c"])
    assert must.legal_actions() == (FLOR,)
    with pytest.raises(IllegalActionError, match="must sing"):
        must.apply(parse_token("1e"))
    must.apply(FLOR)
    assert parse_token("1e") in must.legal_actions()


def test_11_3_flor_must_be_sung_before_a_ley_de_juego_decision_38() -> None:
    """Decision 38: under flor_must_sing a flor holder's only actions are the flor calls, so
    "a ley de juego" (after which the flor could never be sung) and the mazo are refused."""
    rules = {"flor": True, "ley_de_juego": True}
    free = deal(table(**rules), ["1o 3o 6o", "3b 4e 5c"])
    assert {FLOR, A_LEY_DE_JUEGO, MAZO} <= set(free.legal_actions())
    must = deal(table(flor_must_sing=True, **rules), ["1o 3o 6o", "3b 4e 5c"])
    assert must.legal_actions() == (FLOR,)
    for refused in ("a-ley-de-juego", "mazo", "truco", "envido"):
        with pytest.raises(IllegalActionError, match=f"must sing it first, before {refused}"):
            must.apply_move(Move.parse(f"p0 {refused}"))
    assert must.hand.why_illegal(A_LEY_DE_JUEGO) == (
        "p0 holds a flor and must sing it first, before a-ley-de-juego, after which it could "
        "never be sung (flor_must_sing, decision 38): flor"
    )
    act(must, "p0 flor")
    assert A_LEY_DE_JUEGO not in must.legal_actions()  # the hand is opened: too late for it


def test_11_3_flor_must_be_sung_leaves_the_senas_decision_38() -> None:
    four = deal(
        table(players=4, flor=True, flor_must_sing=True, ley_de_juego=True, senas=True),
        ["1o 3o 6o", "3b 6c 7c", "2e 4b 5b", "12e 11c 10b"],
    )
    assert four.legal_actions() == (FLOR, *SENAS)


def test_option_hands_clone_independently() -> None:
    m = Match(find_variant("argentino", players=4, senas=True, flor=True), seed=5)
    m.apply(SENAS[0])
    copy = m.clone()
    assert copy.hand is not m.hand and isinstance(copy.hand, OptionHand)
    assert copy.hand.rng is copy.rng and copy.hand.catches == m.hand.catches  # type: ignore[attr-defined]
    copy.apply(copy.legal_actions()[0])
    assert len(m.hand.history) == 1 and len(copy.hand.history) == 2
