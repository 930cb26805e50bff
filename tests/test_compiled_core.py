"""The compiled build of the rules core plays exactly as the pure one (issue 55, docs/engine.md).

``make test`` compiles the engine's modules with mypyc (``tools/compile_core.py``); this test
plays the same random games on both builds, each in its own process (``TRUCO_PURE=1`` for the
pure one), and compares every legal set, every refusal of an illegal action, every score and
every reason of every hand, on every preset and table size with and without the options of
docs/rules.md §11, clones included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import truco
from truco import _core_build

PACKAGE = Path(truco.__file__).parent

#: Played in a fresh interpreter: one digest per table of everything the engine said.
TRACE = r"""
import hashlib, json, random, sys
import truco
from truco.errors import IllegalActionError
from truco.match import Match
from truco.variants import find_variant

TABLES = [
    ("argentino", 2, {}), ("argentino", 4, {}), ("argentino", 6, {}),
    ("argentino", 2, {"flor": True, "flor_must_sing": True}),
    ("argentino", 4, {"senas": True, "ley_de_juego": True, "flor": True, "flor_points": 4}),
    ("espanol", 2, {}), ("espanol", 4, {"senas": True}), ("espanol", 6, {}),
    ("valenciano", 2, {}), ("valenciano", 4, {"ley_de_juego": True}), ("valenciano", 6, {}),
    ("valenciano", 8, {"senas": True}),
]
GAMES = int(sys.argv[1])
out = {"compiled": truco.COMPILED, "file": truco.match.__file__, "tables": {}}
for name, players, options in TABLES:
    rules = find_variant(name, players=players, **options)
    digest = hashlib.sha256()
    said = digest.update
    steps = 0
    for game in range(GAMES):
        rng = random.Random(game)
        match = Match(rules, seed=game)
        while not match.over:
            legal = match.legal_actions()
            said(repr((match.turn, legal, match.score, match.hand_points())).encode())
            if rng.random() < 0.1:  # an illegal action: refused, with the same words
                wrong = rng.randrange(64)
                if wrong not in legal:
                    try:
                        match.apply(wrong)
                    except IllegalActionError as error:
                        said(str(error).encode())
                    else:
                        raise AssertionError(f"{wrong} was accepted, not in {legal}")
            if rng.random() < 0.02:  # a clone plays on as its original would
                clone = match.clone()
                while not clone.over:
                    options_now = clone.legal_actions()
                    clone.apply(options_now[int(rng.random() * len(options_now))])
                said(repr((clone.score, clone.camas, clone.winner)).encode())
            match.apply(legal[int(rng.random() * len(legal))])
            steps += 1
        for log in match.hands:
            said(repr(log).encode())
        said(repr((match.winner, match.score, match.camas)).encode())
    out["tables"][f"{name} {players} {sorted(options.items())}"] = [steps, digest.hexdigest()]
print(json.dumps(out))
"""


#: ``expert`` (its play-outs compiled too) against ``search``: the first 30 actions of a game.
BOTS = r"""
import json
import truco
import truco.bots.equity
from truco.bots import make_bot
from truco.match import Match
from truco.variants import find_variant

out = {"compiled": truco.COMPILED, "file": truco.bots.equity.__file__, "games": []}
for variant, players, target in (("argentino", 2, 30), ("espanol", 4, 30)):
    rules = find_variant(variant, players=players, target=target)
    bots = [
        make_bot("expert", seed=seat) if seat % 2 == 0 else make_bot("search", seed=seat)
        for seat in range(players)
    ]
    for seat, bot in enumerate(bots):
        bot.start(rules, seat)
    match = Match(rules, seed=3)
    moves = []
    while not match.over and len(moves) < 30:
        seat = match.turn
        action = bots[seat].choose(match.observation(seat))
        moves.append(seat << 6 | action)
        match.apply(action)
    out["games"].append([variant, moves, match.score])
print(json.dumps(out))
"""


def trace(*, pure: bool, games: int, script: str = TRACE) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "TRUCO_PURE"}
    if pure:
        env["TRUCO_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", script, str(games)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_build_is_current() -> None:
    """``make test`` builds it; a core source edited since is caught here, not run stale."""
    assert _core_build.current(PACKAGE), (
        "the compiled core is missing or older than its sources: run "
        "`python tools/compile_core.py` (make test does)"
    )


def test_both_builds_say_the_same_on_the_same_random_games() -> None:
    if not _core_build.current(PACKAGE):
        pytest.fail("no current compiled build to compare (python tools/compile_core.py)")
    pure = trace(pure=True, games=40)
    compiled = trace(pure=False, games=40)
    assert pure["compiled"] is False and str(pure["file"]).endswith("match.py")
    assert compiled["compiled"] is True and str(compiled["file"]).endswith(".so")
    tables = pure["tables"]
    assert isinstance(tables, dict) and len(tables) == 12
    assert all(steps > 500 for steps, _ in tables.values()), tables
    assert compiled["tables"] == tables


def test_expert_plays_the_same_games_on_both_builds() -> None:
    """The bots' play-outs are compiled too: the same seeds give the same moves, so the
    compiled `expert` is the measured one (docs/strength.md), only faster."""
    if not _core_build.current(PACKAGE):
        pytest.fail("no current compiled build to compare (python tools/compile_core.py)")
    pure = trace(pure=True, games=0, script=BOTS)
    compiled = trace(pure=False, games=0, script=BOTS)
    assert str(pure["file"]).endswith("equity.py") and str(compiled["file"]).endswith(".so")
    games = pure["games"]
    assert isinstance(games, list) and sum(len(moves) for _, moves, _ in games) == 60
    assert compiled["games"] == games


def test_an_edited_source_falls_back_to_the_pure_core(tmp_path: Path) -> None:
    """The stamp holds the sources' hash: a build made from other sources is never used."""
    copy = tmp_path / "truco"
    for name in _core_build.MODULES:
        source = f"{name.replace('.', '/')}.py"
        (copy / source).parent.mkdir(parents=True, exist_ok=True)
        (copy / source).write_bytes((PACKAGE / source).read_bytes())
    (copy / _core_build.FOLDER).mkdir()
    (copy / _core_build.FOLDER / _core_build.STAMP).write_text(_core_build.digest(copy))
    assert _core_build.current(copy)
    with (copy / "hand.py").open("a") as f:
        f.write("# edited\n")
    assert not _core_build.current(copy)
    (copy / "hand.py").write_bytes((PACKAGE / "hand.py").read_bytes())
    assert _core_build.current(copy)
    (copy / _core_build.FOLDER / _core_build.STAMP).unlink()
    assert not _core_build.current(copy)


def test_the_cores_objects_pickle_and_copy_on_either_build() -> None:
    """Workers get rules, matches and moves by pickle (the arena's pool, the server's bots):
    the compiled build's frozen and slotted classes come back equal and playable."""
    import copy
    import pickle

    from truco.actions import Move
    from truco.match import Match
    from truco.variants import find_variant

    rules = find_variant("espanol", players=4, senas=True)
    match = Match(rules, seed=3)
    for _ in range(5):
        match.apply(match.legal_actions()[0])
    for value in (rules, Move(1, 3, (0, 2)), match.start, match.hands[0]):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    for again in (pickle.loads(pickle.dumps(match)), copy.deepcopy(match)):
        assert again.legal_actions() == match.legal_actions()
        assert again.hand_moves() == match.hand_moves() and again.score == match.score
        again.apply(again.legal_actions()[0])
        assert again.hand_moves() != match.hand_moves()  # its own state, not the original's
