"""A deal anyone can verify (issue 16): commitments, revealed seeds and ``truco verify``."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from truco.bots import make_bot
from truco.cards import NAMES, parse_hand
from truco.commands.cli import main
from truco.commands.verify import FAILED, UNREVEALED, VERIFIED, verify_record
from truco.errors import TrucoError
from truco.fairness import Dealer, commitment, deal_from_seed, hand_seed, shuffled
from truco.match import Match
from truco.records import DealProof, Record, dumps, loads
from truco.referee import record_of, replay
from truco.variants import find_variant


def test_known_answer_vector() -> None:
    """The published vector of docs/records.md: any implementation must reproduce it (checked
    also with `sha256sum` and `openssl dgst -hmac` when it was written)."""
    seed = hand_seed(b"truco test vector", "table-1", 1)
    assert seed.hex() == "ee7e1a3410f115fbd0502a23140ef16b1ce677cfe7b7e9cf8a5eb8a1e396c50d"
    assert (
        commitment("table-1", 1, seed)
        == "14cf91c84032ac4f2e2ba1217066a5ea800833e99a95f156c40b7eacd658e587"
    )
    deal = deal_from_seed(find_variant("argentino").cards, 2, 0, seed)
    assert [" ".join(NAMES[c] for c in h) for h in deal] == ["12b 2b 5o", "3c 2e 12o"]


def test_shuffle_is_a_permutation_and_depends_on_the_seed() -> None:
    deck = find_variant("valenciano").cards
    a = shuffled(deck, b"\x01" * 32)
    b = shuffled(deck, b"\x02" * 32)
    assert sorted(a) == sorted(deck) == sorted(b)
    assert a != b
    assert a == shuffled(deck, b"\x01" * 32)


def _game(variant: str = "argentino", players: int = 2, target: int = 12) -> Record:
    rules = find_variant(variant, players=players, target=target)
    dealer = Dealer(b"a secret of the table, 32 bytes!", "t-42")
    match = Match(
        rules, seed=3, dealer=lambda n, mano: dealer.deal(rules.cards, rules.players, n, mano)
    )
    bots = [make_bot("heuristic", seed=s) for s in range(players)]
    while not match.over:
        match.apply(bots[match.turn].choose(match.observation(match.turn)))
    record = record_of(match)
    hands = range(1, len(match.hands) + 1)
    record.deal_proof = DealProof(
        table="t-42",
        commitments=[dealer.commitment(n) for n in hands],
        seeds=[dealer.seed(n).hex() for n in hands],
    )
    return record


@pytest.mark.parametrize(
    ("variant", "players"), [("argentino", 2), ("espanol", 6), ("valenciano", 8)]
)
def test_an_honest_record_verifies_hand_by_hand(variant: str, players: int) -> None:
    record = _game(variant, players)
    checks = verify_record(record)
    assert len(checks) == len(record.hands) >= 2
    assert all(c.status == VERIFIED for c in checks), checks


def test_the_record_round_trips_and_the_referee_ignores_the_proof() -> None:
    record = _game()
    assert loads(dumps(record)) == record
    bare = dataclasses.replace(record, deal_proof=None)
    assert replay(record).to_json() == replay(bare).to_json()


def test_a_tampered_seed_or_commitment_fails() -> None:
    record = _game()
    proof = record.deal_proof
    assert proof is not None
    other = Dealer(b"another secret..................", "t-42").seed(2).hex()
    proof.seeds[1] = other
    proof.commitments[2] = "0" * 64
    checks = verify_record(record)
    assert [c.status for c in checks[:4]] == [VERIFIED, FAILED, FAILED, VERIFIED]
    assert "does not match the commitment" in checks[1].text


def test_tampered_cards_fail_with_the_seat_named() -> None:
    """A record whose dealt cards were changed (an unplayed card swapped for one left in the
    deck: the actions stay legal) names the seat and the cards the seed deals."""
    record = _game()
    hand = next(h for h in record.hands if len(h.actions) <= 4)
    played = {a.split()[1] for a in hand.actions}
    dealt = {c for text in hand.cards for c in parse_hand(text)}
    seat = 0
    held = hand.cards[seat].split()
    index = next(i for i, c in enumerate(held) if c not in played)
    spare = next(
        NAMES[c] for c in find_variant("argentino").cards if c not in dealt and NAMES[c] not in held
    )
    held[index] = spare
    hand.cards[seat] = " ".join(held)
    replay(record)  # still a legal record: only the proof can tell
    number = record.hands.index(hand) + 1
    check = verify_record(record)[number - 1]
    assert check.status == FAILED
    assert check.text.startswith(f"seat {seat} holds {hand.cards[seat]} in the record")


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _game()
    path = tmp_path / "game.truco"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hand 1: verified: the seed matches the commitment")
    assert out[-1] == f"all {len(record.hands)} hands verified"

    assert record.deal_proof is not None
    record.deal_proof.seeds[-1] = ""  # the last hand not revealed yet
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["verified"] is False and data["hands"][-1]["status"] == UNREVEALED

    record.deal_proof.seeds[0] = "not hex"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hand 1: failed: seed: 'not hex' is not a seed (64 hex digits)"
    assert out[-1] == "NOT VERIFIED: hand 1 failed"


def test_no_proof_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "examples/argentino-2p.truco"]) == 1
    err = capsys.readouterr().err
    assert err == "error: the record has no [deal_proof] table: its deals carry no commitments\n"
    with pytest.raises(TrucoError, match="unknown key 'salt'"):
        loads('variant = "argentino"\n[deal_proof]\ntable = "t"\nsalt = "x"\n')
