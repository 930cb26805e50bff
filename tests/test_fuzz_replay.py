"""Malformed and hostile records given to ``truco replay`` (docs/records.md).

Whatever the file holds, the command either referees it (exit 0, one JSON object on stdout)
or refuses it cleanly: exit status 1, nothing on stdout, exactly one line on stderr that
starts with ``error:`` (and names the hand when the fault is inside one), never a traceback
and never any other exception.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from truco import Match, find_variant
from truco.actions import ALIASES, CALL_TOKENS
from truco.cards import NAMES
from truco.commands.cli import main
from truco.records import MAX_ACTIONS, dumps
from truco.referee import record_of

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_RECORDS = sorted(EXAMPLES_DIR.glob("*.truco"))

#: A short valid hand of two players (argentino, 40 cards): seat 0 goes to the mazo.
HAND = '[[hands]]\ncards = ["1e 7o 4c", "3b 12c 5e"]\nactions = ["p0 mazo"]\n'
ARGENTINO = 'variant = "argentino"\n'


def referee(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``truco replay PATH`` in this process: exit status, stdout, stderr."""
    capsys.readouterr()
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, out: str, err: str, hand: int | None = None) -> str:
    """The clean failure of docs/records.md; returns the message after ``error: ``."""
    assert code == 1, f"exit status {code}, stdout {out[:200]!r}"
    assert out == "", f"stdout: {out[:200]!r}"
    assert "Traceback" not in err
    assert err.startswith("error: "), err[:300]
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err[:300]!r}"
    message = err[len("error: ") : -1]
    assert message.strip(), "an empty error message"
    if hand is not None:
        assert re.match(rf"hand {hand}\b", message), f"does not name hand {hand}: {err[:300]!r}"
    return message


def assert_refereed(code: int, out: str, err: str, variant: str) -> dict[str, Any]:
    """Exit 0 with one JSON object of docs/records.md's keys on stdout."""
    assert code == 0, err[:300]
    assert err == ""
    assert out.endswith("\n") and out.count("\n") == 1
    result = json.loads(out)
    keys = {"variant", "score", "winner", "hands"} | (
        {"camas"} if variant == "valenciano" else set()
    )
    assert set(result) == keys
    assert result["variant"] == variant
    rules = find_variant(variant)
    assert len(result["score"]) == 2
    assert all(isinstance(s, int) and s >= 0 for s in result["score"])
    assert result["winner"] in (None, 0, 1)
    if "camas" in result:
        assert len(result["camas"]) == 2
        assert all(isinstance(c, int) and 0 <= c <= rules.camas_to_win for c in result["camas"])
    for h in result["hands"]:
        assert set(h) == {"points", "complete"}
        assert len(h["points"]) == 2 and all(isinstance(p, int) and p >= 0 for p in h["points"])
        assert isinstance(h["complete"], bool)
    return result


def write(tmp_path: Path, content: str | bytes, name: str = "record.truco") -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


# ---------------------------------------------------------------------- hostile files


def _garbage(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


#: (id, content) of files refused before any hand is played.
BAD_FILES: list[tuple[str, str | bytes]] = [
    ("bad_toml_unclosed_table", ARGENTINO + "[[hands]\ncards = []\n"),
    ("bad_toml_unclosed_string", 'variant = "argentino\n'),
    ("bad_toml_duplicate_key", ARGENTINO + ARGENTINO),
    ("bad_toml_bare_words", "this is not a record at all\n"),
    ("binary_garbage", _garbage(1, 4096)),
    ("binary_all_bytes", bytes(range(256)) * 8),
    ("binary_nul_bytes", b"\x00" * 1024),
    ("non_utf8_latin1", 'variant = "espa\xf1ol"\n'.encode("latin-1")),
    ("non_utf8_in_comment", b'variant = "argentino"\n# \xff\xfe\xfd\n'),
    ("utf16_with_bom", (ARGENTINO + HAND).encode("utf-16")),
    ("empty_file", b""),
    ("only_comments", "# nothing here\n"),
    ("variant_missing", HAND),
    ("variant_as_int", "variant = 1\n" + HAND),
    ("variant_as_list", 'variant = ["argentino"]\n' + HAND),
    ("variant_as_table", "[variant]\nname = 'argentino'\n" + HAND),
    ("variant_unknown", 'variant = "gallego"\n' + HAND),
    ("variant_empty", 'variant = ""\n' + HAND),
    ("variant_wrong_case", 'variant = "Argentino"\n' + HAND),
    ("variant_very_long", 'variant = "' + "x" * 1_000_000 + '"\n' + HAND),
    ("players_as_string", ARGENTINO + 'players = "2"\n' + HAND),
    ("players_as_float", ARGENTINO + "players = 2.0\n" + HAND),
    ("players_as_bool", ARGENTINO + "players = true\n" + HAND),
    ("players_3", ARGENTINO + "players = 3\n" + HAND),
    ("players_8_argentino", ARGENTINO + "players = 8\n" + HAND),
    ("players_8_espanol", 'variant = "espanol"\nplayers = 8\n' + HAND),
    ("players_10_valenciano", 'variant = "valenciano"\nplayers = 10\n' + HAND),
    ("players_0", ARGENTINO + "players = 0\n" + HAND),
    ("players_negative", ARGENTINO + "players = -2\n" + HAND),
    ("players_huge", ARGENTINO + "players = 9223372036854775807\n" + HAND),
    ("target_0", ARGENTINO + "target = 0\n" + HAND),
    ("target_negative", ARGENTINO + "target = -30\n" + HAND),
    ("target_as_string", ARGENTINO + 'target = "30"\n' + HAND),
    ("target_as_float", ARGENTINO + "target = 30.0\n" + HAND),
    ("target_inf", ARGENTINO + "target = inf\n" + HAND),
    ("target_huge", ARGENTINO + "target = 100000\n" + HAND),
    ("score_three_entries", ARGENTINO + "score = [0, 0, 0]\n" + HAND),
    ("score_one_entry", ARGENTINO + "score = [0]\n" + HAND),
    ("score_negative", ARGENTINO + "score = [-1, 0]\n" + HAND),
    ("score_as_string", ARGENTINO + 'score = "0-0"\n' + HAND),
    ("score_as_int", ARGENTINO + "score = 0\n" + HAND),
    ("score_strings", ARGENTINO + 'score = ["0", "0"]\n' + HAND),
    ("score_floats", ARGENTINO + "score = [0.5, 0]\n" + HAND),
    ("score_at_target", ARGENTINO + "score = [30, 0]\n" + HAND),
    ("score_beyond_target", ARGENTINO + "score = [0, 31]\n" + HAND),
    ("camas_in_argentino", ARGENTINO + "camas = [0, 0]\n" + HAND),
    ("camas_already_won", 'variant = "valenciano"\ncamas = [2, 0]\n' + HAND),
    ("camas_three_entries", 'variant = "valenciano"\ncamas = [0, 0, 0]\n' + HAND),
    ("camas_negative", 'variant = "valenciano"\ncamas = [0, -1]\n' + HAND),
    ("mano_as_string", ARGENTINO + 'mano = "0"\n' + HAND),
    ("mano_out_of_table", ARGENTINO + "mano = 2\n" + HAND),
    ("mano_negative", ARGENTINO + "mano = -1\n" + HAND),
    ("names_wrong_count", ARGENTINO + 'names = ["Pedro"]\n' + HAND),
    ("names_as_ints", ARGENTINO + "names = [1, 2]\n" + HAND),
    ("names_as_string", ARGENTINO + 'names = "Pedro, Juan"\n' + HAND),
    ("names_too_many", ARGENTINO + "names = [" + ", ".join(['"x"'] * 9) + "]\n" + HAND),
    ("next_hand_as_int", 'variant = "espanol"\nplayers = 6\nnext_hand = 1\n' + HAND),
    ("next_hand_unknown", 'variant = "espanol"\nplayers = 6\nnext_hand = "picapica"\n' + HAND),
    ("next_hand_pica_pica_argentino", ARGENTINO + 'next_hand = "pica-pica"\n' + HAND),
    ("unknown_top_level_key", ARGENTINO + "flor = true\n" + HAND),
    ("unknown_top_level_table", ARGENTINO + "[meta]\nauthor = 'x'\n" + HAND),
    ("rules_as_string", ARGENTINO + 'rules = "deck 36"\n' + HAND),
    ("rules_as_array", ARGENTINO + 'rules = ["deck"]\n' + HAND),
    ("rules_unknown_option", ARGENTINO + "[rules]\nmanilla = true\n" + HAND),
    ("rules_players", ARGENTINO + "[rules]\nplayers = 2\n" + HAND),
    ("rules_target", ARGENTINO + "[rules]\ntarget = 15\n" + HAND),
    ("rules_deck_unknown", ARGENTINO + '[rules]\ndeck = "35"\n' + HAND),
    ("rules_deck_too_small", 'variant = "valenciano"\nplayers = 8\n[rules]\ndeck = "22"\n' + HAND),
    ("rules_deck_float", ARGENTINO + "[rules]\ndeck = 36.0\n" + HAND),
    ("rules_window_unknown", ARGENTINO + '[rules]\nenvido_window = "always"\n' + HAND),
    ("rules_falta_rule_int", ARGENTINO + "[rules]\nfalta_rule = 1\n" + HAND),
    ("rules_bool_as_string", ARGENTINO + '[rules]\njoc_fora = "yes"\n' + HAND),
    ("rules_negative_count", ARGENTINO + "[rules]\nmax_envidos = -1\n" + HAND),
    ("rules_calls_unknown", ARGENTINO + '[rules]\nenvido_calls = ["flor"]\n' + HAND),
    ("rules_calls_empty", ARGENTINO + "[rules]\nenvido_calls = []\n" + HAND),
    ("rules_camas_zero", ARGENTINO + "[rules]\ncamas_to_win = 0\n" + HAND),
    ("hands_as_int", ARGENTINO + "hands = 5\n"),
    ("hands_as_table", ARGENTINO + "[hands]\ncards = []\n"),
    ("hands_over_the_limit", ARGENTINO + "hands = [" + "{}, " * 10_001 + "]\n"),
    ("deep_nesting_top_level", ARGENTINO + "x = " + "[" * 100_000 + "]" * 100_000 + "\n"),
    ("deep_nesting_in_rules", ARGENTINO + "[rules]\ndeck = " + "[" * 300 + "]" * 300 + "\n"),
    ("deep_inline_tables", ARGENTINO + "x = " + "{a = " * 50_000 + "1" + "}" * 50_000 + "\n"),
    ("larger_than_4_mib", ARGENTINO + "# " + "x" * (4 * 1024 * 1024) + "\n" + HAND),
]


#: What the error is about, by the case's name: (prefix, text the message must contain).
SUBJECTS = [
    ("bad_toml", "not valid TOML"),
    ("binary", "not valid TOML"),
    ("non_utf8", "not valid TOML"),
    ("utf16", "not valid TOML"),
    ("deep_nesting_in_rules", "deck"),
    ("deep", "nested too deeply"),
    ("empty_file", "variant"),
    ("only_comments", "variant"),
    ("variant", "variant"),
    ("players", "players"),
    ("target", "target"),
    ("score", "score"),
    ("camas", "camas"),
    ("mano", "mano"),
    ("names", "names"),
    ("next_hand", "next_hand"),
    ("unknown_top_level", "unknown key"),
    ("rules_as", "rules"),
    ("rules_unknown_option", "unknown rule option"),
    ("rules_players", "[rules]"),
    ("rules_target", "[rules]"),
    ("rules_deck", "deck"),
    ("rules_window", "envido_window"),
    ("rules_falta_rule", "falta_rule"),
    ("rules_bool", "joc_fora"),
    ("rules_negative_count", "max_envidos"),
    ("rules_calls", "envido_calls"),
    ("rules_camas", "camas_to_win"),
    ("hands", "hands"),
    ("larger", "larger than 4 MiB"),
    # faults inside a hand
    ("cards", "cards"),
    ("card_", "cards"),
    ("actions", "actions"),
    ("action_card_not", "does not hold"),
    ("action_card_played_twice", "already played"),
    ("action_seat_p9", "turn"),
    ("action_wrong_seat", "turn"),
    ("action_after_hand_over", "hand is already over"),
    ("action_after_game_over", "game is over"),
    ("action", "action 1 "),
    ("hand_after_game_over", "game was already over"),
    ("hand_after_incomplete_hand", "hand 1 stops before its end"),
    ("points", "points"),
    ("unknown_hand_key", "unknown key"),
    ("hand_not_a_table", "must be a table"),
    ("second_hand_not_a_table", "must be a table"),
]


def subject(case: str) -> str:
    return next(text for prefix, text in SUBJECTS if case.startswith(prefix))


@pytest.mark.parametrize(("case", "content"), BAD_FILES, ids=[i for i, _ in BAD_FILES])
def test_bad_file_is_refused(tmp_path, capsys, case, content):
    path = write(tmp_path, content)
    message = assert_refused(*referee(path, capsys))
    assert subject(case) in message
    assert not re.match(r"hand \d", message), "a fault outside the hands names a hand"


def test_missing_file_is_refused(tmp_path, capsys):
    message = assert_refused(*referee(tmp_path / "no-such.truco", capsys))
    assert "no-such.truco" in message


def test_directory_is_refused(tmp_path, capsys):
    assert_refused(*referee(tmp_path, capsys))


# ---------------------------------------------------------------------- faults inside a hand


def hand(cards: str, actions: str = "[]", extra: str = "") -> str:
    return f"\n[[hands]]\ncards = {cards}\nactions = {actions}\n{extra}"


CARDS = '["1e 7o 4c", "3b 12c 5e"]'
#: (id, content, hand named in the error) of records with a fault inside a hand.
BAD_HANDS: list[tuple[str, str, int]] = [
    ("cards_missing", ARGENTINO + '\n[[hands]]\nactions = ["p0 mazo"]\n', 1),
    ("cards_as_string", ARGENTINO + hand('"1e 7o 4c 3b 12c 5e"'), 1),
    ("cards_as_ints", ARGENTINO + hand("[[0, 16, 33], [12, 39, 4]]"), 1),
    ("cards_as_table", ARGENTINO + "\n[[hands]]\n[hands.cards]\np0 = '1e 7o 4c'\n", 1),
    ("cards_one_seat", ARGENTINO + hand('["1e 7o 4c"]'), 1),
    ("cards_three_seats", ARGENTINO + hand('["1e 7o 4c", "3b 12c 5e", "2e 2b 2o"]'), 1),
    ("cards_nine_seats", ARGENTINO + hand("[" + ", ".join(['"1e 7o 4c"'] * 9) + "]"), 1),
    ("cards_two_per_seat", ARGENTINO + hand('["1e 7o", "3b 12c"]'), 1),
    ("cards_four_per_seat", ARGENTINO + hand('["1e 7o 4c 6c", "3b 12c 5e 6e"]'), 1),
    ("cards_empty_strings", ARGENTINO + hand('["", ""]'), 1),
    ("cards_dealt_twice_same_seat", ARGENTINO + hand('["1e 1e 4c", "3b 12c 5e"]'), 1),
    ("cards_dealt_twice_two_seats", ARGENTINO + hand('["1e 7o 4c", "1e 12c 5e"]'), 1),
    ("card_unknown_rank", ARGENTINO + hand('["13e 7o 4c", "3b 12c 5e"]'), 1),
    ("card_unknown_suit", ARGENTINO + hand('["1x 7o 4c", "3b 12c 5e"]'), 1),
    ("card_rank_8", ARGENTINO + hand('["8e 7o 4c", "3b 12c 5e"]'), 1),
    (
        "card_10e_deck_36",
        ARGENTINO + '[rules]\ndeck = "36"\n' + hand('["10e 7o 4c", "3b 12c 5e"]'),
        1,
    ),
    ("card_2e_valenciano", 'variant = "valenciano"\n' + hand('["2e 7o 4c", "3b 6c 5e"]'), 1),
    ("card_12c_valenciano", 'variant = "valenciano"\n' + hand('["1e 7o 4c", "3b 12c 5e"]'), 1),
    ("card_1o_valenciano_2p", 'variant = "valenciano"\n' + hand('["1o 7o 4c", "3b 6c 5e"]'), 1),
    ("card_very_long", ARGENTINO + hand('["' + "1e" * 500_000 + '", "3b 12c 5e"]'), 1),
    ("actions_as_ints", ARGENTINO + hand(CARDS, "[1, 2, 3]"), 1),
    ("actions_as_string", ARGENTINO + hand(CARDS, '"p0 mazo"'), 1),
    ("actions_mixed", ARGENTINO + hand(CARDS, '["p0 mazo", 1]'), 1),
    ("actions_nested", ARGENTINO + hand(CARDS, '[["p0 mazo"]]'), 1),
    ("actions_deeply_nested", ARGENTINO + hand(CARDS, "[" * 200 + "]" * 200), 1),
    ("actions_over_the_limit", ARGENTINO + hand(CARDS, "[" + '"p0 envido", ' * 100_000 + "]"), 1),
    ("actions_one_over_limit", ARGENTINO + hand(CARDS, "[" + '"x", ' * (MAX_ACTIONS + 1) + "]"), 1),
    ("action_empty", ARGENTINO + hand(CARDS, '[""]'), 1),
    ("action_no_token", ARGENTINO + hand(CARDS, '["p0"]'), 1),
    ("action_no_seat", ARGENTINO + hand(CARDS, '["mazo"]'), 1),
    ("action_three_words", ARGENTINO + hand(CARDS, '["p0 1e 7o"]'), 1),
    ("action_unknown_token", ARGENTINO + hand(CARDS, '["p0 flor"]'), 1),
    ("action_token_typo", ARGENTINO + hand(CARDS, '["p0 enviddo"]'), 1),
    ("action_seat_letter", ARGENTINO + hand(CARDS, '["px mazo"]'), 1),
    ("action_seat_negative", ARGENTINO + hand(CARDS, '["p-1 mazo"]'), 1),
    ("action_seat_p9", ARGENTINO + hand(CARDS, '["p9 mazo"]'), 1),
    ("action_seat_huge", ARGENTINO + hand(CARDS, '["p99999999999999999999 mazo"]'), 1),
    ("action_wrong_seat", ARGENTINO + hand(CARDS, '["p1 3b"]'), 1),
    ("action_card_not_held", ARGENTINO + hand(CARDS, '["p0 3b"]'), 1),
    ("action_card_not_in_deal", ARGENTINO + hand(CARDS, '["p0 2e"]'), 1),
    ("action_card_played_twice", ARGENTINO + hand(CARDS, '["p0 1e", "p1 3b", "p0 1e"]'), 1),
    ("action_quiero_nothing_called", ARGENTINO + hand(CARDS, '["p0 quiero"]'), 1),
    ("action_joc_fora_argentino", ARGENTINO + hand(CARDS, '["p0 joc-fora"]'), 1),
    ("action_very_long", ARGENTINO + hand(CARDS, '["p0 ' + "x" * 1_000_000 + '"]'), 1),
    ("action_with_newline", ARGENTINO + hand(CARDS, '["p0\\nmazo\\nextra"]'), 1),
    ("action_control_chars", ARGENTINO + hand(CARDS, '["p0 \\u0000\\u001b[2J"]'), 1),
    ("action_after_hand_over", ARGENTINO + hand(CARDS, '["p0 mazo", "p1 3b"]'), 1),
    (
        "action_after_game_over",
        ARGENTINO + "score = [0, 29]\n" + hand(CARDS, '["p0 mazo", "p0 1e"]'),
        1,
    ),
    (
        "hand_after_game_over",
        ARGENTINO + "score = [0, 29]\n" + HAND + hand('["4e 5e 6e", "4b 5b 6b"]'),
        2,
    ),
    ("hand_after_incomplete_hand", ARGENTINO + hand(CARDS, '["p0 1e"]') + HAND, 2),
    ("points_mismatch", ARGENTINO + hand(CARDS, '["p0 mazo"]', "points = [0, 1]\n"), 1),
    ("points_as_strings", ARGENTINO + hand(CARDS, '["p0 mazo"]', 'points = ["0", "2"]\n'), 1),
    ("points_three_entries", ARGENTINO + hand(CARDS, '["p0 mazo"]', "points = [0, 2, 0]\n"), 1),
    ("points_negative", ARGENTINO + hand(CARDS, '["p0 mazo"]', "points = [-1, 2]\n"), 1),
    ("points_as_int", ARGENTINO + hand(CARDS, '["p0 mazo"]', "points = 2\n"), 1),
    ("mano_mismatch", ARGENTINO + hand(CARDS, '["p0 mazo"]', "mano = 1\n"), 1),
    ("mano_mismatch_second_hand", ARGENTINO + HAND + hand(CARDS, "[]", "mano = 0\n"), 2),
    ("mano_as_string", ARGENTINO + hand(CARDS, '["p0 mazo"]', 'mano = "0"\n'), 1),
    ("unknown_hand_key", ARGENTINO + hand(CARDS, '["p0 mazo"]', "winner = 1\n"), 1),
    ("hand_not_a_table", ARGENTINO + "hands = [5]\n", 1),
    (
        "second_hand_not_a_table",
        ARGENTINO + 'hands = [{cards = ["1e 7o 4c", "3b 12c 5e"]}, 5]\n',
        2,
    ),
]


@pytest.mark.parametrize(("case", "content", "number"), BAD_HANDS, ids=[c[0] for c in BAD_HANDS])
def test_fault_inside_a_hand_is_refused_naming_it(tmp_path, capsys, case, content, number):
    path = write(tmp_path, content)
    message = assert_refused(*referee(path, capsys), hand=number)
    assert subject(case) in message


def test_action_error_names_its_index_and_token(tmp_path, capsys):
    path = write(tmp_path, ARGENTINO + hand(CARDS, '["p0 1e", "p1 3b", "p1 retruco"]'))
    message = assert_refused(*referee(path, capsys), hand=1)
    assert message.startswith("hand 1, action 3 'p1 retruco': ")


def test_the_records_that_these_faults_break_are_valid_without_them(tmp_path, capsys):
    """The faults above are the only thing wrong: the records they start from referee."""
    for content in (
        ARGENTINO + HAND,
        ARGENTINO + hand(CARDS, '["p0 mazo"]', "points = [0, 2]\nmano = 0\n"),
        ARGENTINO + "score = [0, 29]\n" + HAND,
        ARGENTINO + '[rules]\ndeck = "36"\n' + hand('["1e 7o 4c", "3b 12c 5e"]'),
        'variant = "valenciano"\n' + hand('["1e 7o 4c", "3b 6c 5e"]'),
        'variant = "valenciano"\nplayers = 8\n'
        + hand(
            '["1e 7o 4c", "3b 6c 5e", "1o 1c 1b", "7e 7b 7c", "3e 3o 3c", "6e 6b 6o",'
            ' "5b 5o 5c", "4e 4b 4o"]'
        ),
    ):
        path = write(tmp_path, content)
        variant = tomllib.loads(content)["variant"]
        assert_refereed(*referee(path, capsys), variant=variant)


# ---------------------------------------------------------------------- engine faults found


#: Records that make the referee raise something other than a TrucoError, or print more than
#: one line: each is a bug (see the test's docstring).
CRASHES: list[tuple[str, str, int | None]] = [
    # "name" is not an option, but it is passed on as a keyword to find_variant(name, ...).
    ("rules_name", ARGENTINO + '[rules]\nname = "espanol"\n' + HAND, None),
    # [rules] values of the wrong shape reach code that assumes the right one.
    ("rules_deck_as_table", ARGENTINO + "[rules]\ndeck = {a = 1}\n" + HAND, None),
    ("rules_deck_list_with_table", ARGENTINO + "[rules]\ndeck = [{}]\n" + HAND, None),
    ("rules_envido_raises_ints", ARGENTINO + "[rules]\nenvido_raises = [1, 2]\n" + HAND, None),
    (
        "rules_envido_raises_short",
        ARGENTINO + '[rules]\nenvido_raises = [["envido"]]\n' + HAND,
        None,
    ),
    (
        "rules_envido_raises_int_raises",
        ARGENTINO + '[rules]\nenvido_raises = [["envido", 5]]\n' + HAND,
        None,
    ),
    ("rules_player_counts_empty", ARGENTINO + "[rules]\nplayer_counts = []\n" + HAND, None),
    ("rules_player_counts_string", ARGENTINO + '[rules]\nplayer_counts = "246"\n' + HAND, None),
    # A [rules] key is echoed without quoting, so a newline in it splits the error line.
    ("rules_key_with_newline", ARGENTINO + '[rules]\n"de\\nck" = "36"\n' + HAND, None),
    # The seat of an action is read with str.isdigit() then int(): these pass the first and
    # make the second raise ValueError.
    ("action_seat_superscript", ARGENTINO + hand(CARDS, '["p\u00b9 mazo"]'), 1),
    ("action_seat_5000_digits", ARGENTINO + hand(CARDS, '["p' + "9" * 5000 + ' mazo"]'), 1),
]


@pytest.mark.parametrize(
    ("content", "number"), [c[1:] for c in CRASHES], ids=[c[0] for c in CRASHES]
)
def test_hostile_record_does_not_crash_the_referee(tmp_path, capsys, content, number):
    """Engine bugs: each of these records escapes the referee's error handling.

    ``[rules] name`` is passed on to ``find_variant(name, **options)`` as a second ``name``;
    ``[rules]`` values are passed to ``Rules`` unchecked for shape (``deck`` must be hashable,
    ``envido_raises`` pairs of a call and a list, ``player_counts`` a non-empty list of ints),
    so a table or a string there raises TypeError/ValueError/IndexError with a traceback; an
    unknown ``[rules]`` key is printed raw, so a newline in it makes two stderr lines; and
    ``Move.parse`` checks the seat with ``str.isdigit()``, which accepts ``¹`` and 5000-digit
    numbers that ``int()`` then refuses with a ValueError (not a TrucoError).
    """
    path = write(tmp_path, content)
    assert_refused(*referee(path, capsys), hand=number)


def test_one_player_table_does_not_hang_the_referee(tmp_path):
    """Engine bug: ``[rules] player_counts = [1]`` lets a record seat one player; the first
    call then searches forever for an opponent to answer it (Hand._first_opponent_after), so
    ``truco replay`` never returns. Expected: the record is refused (exit 1, one error line).
    """
    path = write(
        tmp_path,
        ARGENTINO + "players = 1\n[rules]\nplayer_counts = [1]\n"
        '[[hands]]\ncards = ["1e 7o 4c"]\nactions = ["p0 truco"]\n',
    )
    try:
        proc = run_cli(path, timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("truco replay did not return within 5 s on a one-player record")
    assert_refused(proc.returncode, proc.stdout, proc.stderr)


def test_player_count_of_a_preset_cannot_be_overridden(tmp_path, capsys):
    """Engine bug: argentino is played by 2, 4 or 6 (docs/rules.md §7) and ``players = 3`` is
    refused,
    but ``[rules] player_counts = [3]`` (not a docs/rules.md option) lifts the check, and the record
    is refereed at a three-player table with teams of two and one. Expected: refused."""
    path = write(
        tmp_path,
        ARGENTINO + "players = 3\n[rules]\nplayer_counts = [3]\n"
        '[[hands]]\ncards = ["1e 7o 4c", "2e 2b 2o", "3e 3b 3o"]\nactions = ["p0 mazo"]\n',
    )
    assert_refused(*referee(path, capsys))


# ---------------------------------------------------------------------- the real command


def run_cli(path: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "truco.commands.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )


SUBPROCESS_CASES = [
    ("bad_toml", ARGENTINO + "[[hands]\n", None),
    ("binary_garbage", _garbage(2, 2048), None),
    ("deep_nesting", ARGENTINO + "x = " + "[" * 100_000 + "]" * 100_000 + "\n", None),
    ("unknown_variant", 'variant = "gallego"\n' + HAND, None),
    ("seat_p9", ARGENTINO + hand(CARDS, '["p9 mazo"]'), 1),
    ("points_mismatch", ARGENTINO + HAND + hand(CARDS, '["p1 mazo"]', "points = [9, 9]\n"), 2),
]


@pytest.mark.parametrize(
    ("content", "number"), [c[1:] for c in SUBPROCESS_CASES], ids=[c[0] for c in SUBPROCESS_CASES]
)
def test_command_exits_1_with_one_error_line(tmp_path, content, number):
    path = write(tmp_path, content)
    proc = run_cli(path)
    assert_refused(proc.returncode, proc.stdout, proc.stderr, hand=number)


def test_command_on_a_missing_file(tmp_path):
    proc = run_cli(tmp_path / "missing.truco")
    assert_refused(proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.parametrize("path", EXAMPLE_RECORDS, ids=lambda p: p.name)
def test_command_referees_the_examples(path):
    proc = run_cli(path)
    variant = tomllib.loads(path.read_text(encoding="utf-8"))["variant"]
    result = assert_refereed(proc.returncode, proc.stdout, proc.stderr, variant)
    stated = [h.get("points") for h in tomllib.loads(path.read_text(encoding="utf-8"))["hands"]]
    assert [h["points"] for h in result["hands"]] == stated


# ---------------------------------------------------------------------- mutated records


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
        )
    raise TypeError(value)


def to_toml(data: dict[str, Any]) -> str:
    """A record's parsed TOML written back: top-level keys, then [rules], then [[hands]]."""
    lines = [
        f"{toml_string(k)} = {toml_value(v)}"
        for k, v in data.items()
        if k not in ("rules", "hands")
    ]
    if "rules" in data:
        lines.append("[rules]")
        lines += [f"{toml_string(k)} = {toml_value(v)}" for k, v in data["rules"].items()]
    for h in data.get("hands", []):
        lines.append("[[hands]]")
        lines += [f"{toml_string(k)} = {toml_value(v)}" for k, v in h.items()]
    return "\n".join(lines) + "\n"


@cache
def base_records() -> tuple[str, ...]:
    """Valid records to mutate: the shared examples, and random matches of several hands
    (a pica-pica table and an eight-player valenciano among them), written by the engine."""
    texts = [p.read_text(encoding="utf-8") for p in EXAMPLE_RECORDS]
    for name, players, seed, steps in (
        ("argentino", 2, 11, 60),
        ("argentino", 4, 12, 90),
        ("espanol", 6, 13, 400),
        ("valenciano", 8, 14, 150),
        ("valenciano", 2, 15, 10_000),
    ):
        match = Match(find_variant(name, players=players), seed=seed)
        rnd = random.Random(seed)
        for _ in range(steps):
            if match.over:
                break
            legal = match.legal_actions()
            cards = [a for a in legal if a < 40]
            match.apply(rnd.choice(cards if cards and rnd.random() < 0.7 else legal))
        texts.append(dumps(record_of(match)))
    return tuple(texts)


TOKENS = [*NAMES, *CALL_TOKENS.values(), *ALIASES]
token = st.one_of(st.sampled_from(TOKENS), st.text(max_size=8))
action_text = st.one_of(
    st.builds("p{} {}".format, st.integers(0, 8), st.sampled_from(TOKENS)),
    st.builds("p{} {}".format, st.integers(-1, 12), token),
    st.text(max_size=16),
)
card_text = st.one_of(
    st.lists(st.sampled_from([*NAMES, "0e", "13c", "1x", "e1"]), max_size=4).map(" ".join),
    st.text(max_size=12),
)
any_value = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.text(max_size=8),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.integers(-3, 40), max_size=4),
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any], int]:
    """A valid record with one to four faults inside its hands, and the first hand touched."""
    text = draw(st.sampled_from(base_records()))
    data = tomllib.loads(text)
    hands = data["hands"]
    first = len(hands)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(hands) - 1))
        first = min(first, i)
        h = hands[i]
        actions, cards = h.setdefault("actions", []), h["cards"]
        what = draw(
            st.sampled_from(
                [
                    "delete",
                    "duplicate",
                    "swap",
                    "replace",
                    "insert",
                    "card",
                    "cards",
                    "points",
                    "mano",
                ]
            )
        )
        if what in ("delete", "duplicate", "swap", "replace") and not actions:
            what = "insert"
        if what == "delete":
            del actions[draw(st.integers(0, len(actions) - 1))]
        elif what == "duplicate":
            j = draw(st.integers(0, len(actions) - 1))
            actions.insert(j, actions[j])
        elif what == "swap":
            j, k = (draw(st.integers(0, len(actions) - 1)) for _ in range(2))
            actions[j], actions[k] = actions[k], actions[j]
        elif what == "replace":
            actions[draw(st.integers(0, len(actions) - 1))] = draw(action_text)
        elif what == "insert":
            actions.insert(draw(st.integers(0, len(actions))), draw(action_text))
        elif what in ("card", "cards") and not cards:
            cards.append(draw(card_text))
        elif what == "card":
            seat = draw(st.integers(0, len(cards) - 1))
            words = cards[seat].split() or [""]
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(TOKENS))
            cards[seat] = " ".join(words)
        elif what == "cards":
            how = draw(st.sampled_from(["replace", "swap", "delete", "duplicate"]))
            seat = draw(st.integers(0, len(cards) - 1))
            if how == "replace":
                cards[seat] = draw(card_text)
            elif how == "swap":
                other = draw(st.integers(0, len(cards) - 1))
                cards[seat], cards[other] = cards[other], cards[seat]
            elif how == "delete":
                del cards[seat]
            else:
                cards.insert(seat, cards[seat])
        elif what == "points":
            if draw(st.booleans()):
                h.pop("points", None)
            else:
                h["points"] = draw(
                    st.one_of(st.lists(st.integers(0, 40), min_size=2, max_size=2), any_value)
                )
        else:
            h["mano"] = draw(st.one_of(st.integers(-1, 9), any_value))
    return to_toml(data), data, first + 1


#: Mutated records per run; raise it for a long search: ``TRUCO_FUZZ_EXAMPLES=20000 pytest ...``.
FUZZ_EXAMPLES = int(os.environ.get("TRUCO_FUZZ_EXAMPLES", "300"))


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=mutated())
def test_mutated_records_are_refereed_or_refused_cleanly(tmp_path, capsys, case):
    text, data, first = case
    path = write(tmp_path, text)
    code, out, err = referee(path, capsys)
    event("refereed" if code == 0 else "refused")
    if code == 0:
        result = assert_refereed(code, out, err, data["variant"])
        assert len(result["hands"]) == len(data["hands"])
        assert all(h["complete"] for h in result["hands"][:-1])
        for h, stated in zip(result["hands"], data["hands"], strict=True):
            if "points" in stated:
                assert h["points"] == stated["points"]
    else:
        message = assert_refused(code, out, err)
        named = re.match(r"hand (\d+)\b", message)
        assert named, f"the fault is inside a hand, the error does not name it: {message[:300]!r}"
        assert first <= int(named.group(1)) <= len(data["hands"]), message[:300]
