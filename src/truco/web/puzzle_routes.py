"""The puzzles (issue 51): positions of real games where one answer is clearly best, served
one after another, each attempt rated like a game.

================================  ==========================================================
route                             what
================================  ==========================================================
``GET /api/puzzles/next``         a puzzle: its id, its ``.truco`` record (it stops just
                                  before the seat's decision), the seat, the kind, its
                                  rating, the legal choices and the seat's ``position`` to
                                  draw (``?lang=es|en`` for the words, ``?skip=1,2`` for
                                  puzzles just seen)
``GET /api/puzzles/{id}``         that puzzle again (the page asks for it in the other
                                  language)
``POST /api/puzzles/{id}``        ``{"action": "quiero"}`` -> whether it was right, the
                                  answer, every choice's figures, why (``"lang"`` in the
                                  body or the query) and the rating change (null for a guest)
``GET /puzzles``                  the page
================================  ==========================================================

Who gets what (decision: guests may use the puzzles; ratings need an account):

- an account is served the puzzles nearest its puzzle rating that it has not tried yet (then
  those it has not solved, then any); a guest, those nearest 1500; among the
  :data:`NEAREST` nearest, one at random;
- an account's **first** attempt at a puzzle is rated as a duel, the person against the
  puzzle (a right answer wins), with the ratings' model (:mod:`truco.web.ratings`): both
  ratings move. The person's puzzle rating is a rating row of ``variant`` ``"puzzles"`` and
  ``players`` 0 (it is listed on their profile with the others). Later attempts, and a
  guest's, are answered but move no rating;
- a signed-in person's attempt must carry the session's CSRF token (403 otherwise);
  attempts are limited to :data:`ATTEMPTS_PER_MINUTE` per client address.

The position is read from the engine's observation of the seat after the record is refereed
again (:func:`truco.web.views.state_view`), never from rules of this module's own. The
miner that makes puzzles runs with this router's lifespan (:mod:`truco.web.puzzle_mining`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse
from sqlalchemy import ColumnElement, Engine, func, insert, select, true, update
from sqlalchemy.engine import Connection

from truco.account_text import Words
from truco.actions import MAZO, NO_QUIERO, QUIERO, is_card, is_sena, parse_token, token
from truco.errors import TrucoError
from truco.records import loads
from truco.referee import replay
from truco.web import people
from truco.web.bodies import json_object, text_field
from truco.web.limits import Window, client_host, take_or_429
from truco.web.puzzle_mining import MINED, Mining, enabled
from truco.web.ratings import MU, RatedSeat, Skill, provisional, rate_game
from truco.web.schema import PuzzleAttemptRow, PuzzleRow, RatingRow
from truco.web.settings import Settings
from truco.web.static_pages import page
from truco.web.views import SeatMeta, state_view

#: A person's puzzle rating is stored as a rating of this "variant" and 0 players.
PUZZLES: Final = "puzzles"
#: The next puzzle is one of this many nearest the player's rating, at random.
NEAREST: Final = 12
#: At most this many ids in ``?skip=``.
MAX_SKIP: Final = 50
#: Attempts per client address and minute.
ATTEMPTS_PER_MINUTE: Final = 30


def _lang(value: object) -> str:
    return "en" if value == "en" else "es"


def _skip(text: str) -> list[int]:
    out = []
    for part in text.split(",")[:MAX_SKIP]:
        part = part.strip()
        if part.isdigit() and len(part) < 10:
            out.append(int(part))
    return out


# ---------------------------------------------------------------------- database


def _skill(conn: Connection, account_id: int) -> tuple[Skill, int] | None:
    row = conn.execute(
        select(RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
            RatingRow.account_id == account_id,
            RatingRow.variant == PUZZLES,
            RatingRow.players == 0,
        )
    ).first()
    return None if row is None else (Skill(float(row.mu), float(row.sigma)), int(row.games))


_COLUMNS: Final = (
    PuzzleRow.id,
    PuzzleRow.seat,
    PuzzleRow.kind,
    PuzzleRow.variant,
    PuzzleRow.players,
    PuzzleRow.record,
    PuzzleRow.mu,
    PuzzleRow.sigma,
    PuzzleRow.attempts,
    PuzzleRow.solved,
)


def pick(
    engine: Engine, account_id: int | None, skip: Sequence[int], rng: random.Random
) -> tuple[Any, tuple[Skill, int] | None] | None:
    """The next puzzle for an account (or a guest: None) and the account's puzzle rating
    with its number of rated attempts (None: none yet); None when there is no puzzle."""
    with engine.connect() as conn:
        mine = _skill(conn, account_id) if account_id is not None else None
        rating = mine[0].mu if mine is not None else MU
        columns = select(*_COLUMNS).where(MINED)
        tiers: list[ColumnElement[bool]] = [true()]
        if account_id is not None:
            tried = select(PuzzleAttemptRow.puzzle_id).where(
                PuzzleAttemptRow.account_id == account_id
            )
            solved = tried.where(PuzzleAttemptRow.correct.is_(True))
            tiers = [PuzzleRow.id.not_in(tried), PuzzleRow.id.not_in(solved), true()]
        skips = [list(skip), []] if skip else [[]]
        for skipped in skips:
            for tier in tiers:
                query = columns.where(tier)
                if skipped:
                    query = query.where(PuzzleRow.id.not_in(skipped))
                rows = conn.execute(
                    query.order_by(func.abs(PuzzleRow.mu - rating), PuzzleRow.id).limit(NEAREST)
                ).all()
                if rows:
                    return rng.choice(rows), mine
    return None


def fetch(
    engine: Engine, puzzle_id: int, account_id: int | None
) -> tuple[Any, tuple[Skill, int] | None] | None:
    """A puzzle by its id, as :func:`pick` answers (None: no such puzzle)."""
    with engine.connect() as conn:
        row = conn.execute(select(*_COLUMNS).where(PuzzleRow.id == puzzle_id, MINED)).first()
        if row is None:
            return None
        return row, _skill(conn, account_id) if account_id is not None else None


def load_puzzle(engine: Engine, puzzle_id: int) -> Any:
    with engine.connect() as conn:
        return conn.execute(
            select(
                PuzzleRow.id,
                PuzzleRow.variant,
                PuzzleRow.answer,
                PuzzleRow.choices,
                PuzzleRow.mu,
                PuzzleRow.sigma,
            ).where(PuzzleRow.id == puzzle_id, MINED)
        ).first()


def attempt(
    conn: Connection, puzzle_id: int, account_id: int | None, action: str, correct: bool
) -> tuple[Skill, Skill, Skill] | None:
    """Store an attempt (in the writer's transaction); for an account's first attempt at the
    puzzle, rate it: (the person's skill before, after, the puzzle's after). None otherwise."""
    row = conn.execute(
        select(PuzzleRow.mu, PuzzleRow.sigma).where(PuzzleRow.id == puzzle_id)
    ).first()
    if row is None:
        return None
    first = False
    if account_id is not None:
        first = (
            conn.execute(
                select(PuzzleAttemptRow.id)
                .where(
                    PuzzleAttemptRow.account_id == account_id,
                    PuzzleAttemptRow.puzzle_id == puzzle_id,
                )
                .limit(1)
            ).first()
            is None
        )
    at = datetime.now(UTC)
    conn.execute(
        insert(PuzzleAttemptRow).values(
            puzzle_id=puzzle_id, account_id=account_id, action=action, correct=correct, at=at
        )
    )
    conn.execute(
        update(PuzzleRow)
        .where(PuzzleRow.id == puzzle_id)
        .values(
            attempts=PuzzleRow.attempts + 1,
            solved=PuzzleRow.solved + (1 if correct else 0),
        )
    )
    if not first or account_id is None:
        return None
    had = _skill(conn, account_id)
    before = had[0] if had is not None else Skill()
    puzzle = Skill(float(row.mu), float(row.sigma))
    # A duel: the person (0) against the puzzle (1); a right answer is the person's win.
    after = rate_game(
        [RatedSeat(0, 0), RatedSeat(1, 1)], {0: before, 1: puzzle}, 0 if correct else 1
    )
    person, solved = after[0], after[1]
    people.store_skill(conn, account_id, PUZZLES, 0, person, at)
    conn.execute(
        update(PuzzleRow).where(PuzzleRow.id == puzzle_id).values(mu=solved.mu, sigma=solved.sigma)
    )
    return before, person, solved


# ---------------------------------------------------------------------- words


_NAMES: Final = {
    "es": {"you": "Tú", "partner": "Compañero", "rival": "Rival"},
    "en": {"you": "You", "partner": "Partner", "rival": "Opponent"},
}


def seat_names(players: int, seat: int, lang: str) -> list[str]:
    """The seats' names in a puzzle: you, your partners and the opponents, numbered in
    the order of play from you when there are several."""
    words = _NAMES[lang]
    out = []
    partners = rivals = 0
    several = players > 2
    for i in range(players):
        s = (seat + i) % players
        if s == seat:
            out.append((s, words["you"]))
        elif s % 2 == seat % 2:
            partners += 1
            out.append((s, f"{words['partner']} {partners}" if players > 4 else words["partner"]))
        else:
            rivals += 1
            out.append((s, f"{words['rival']} {rivals}" if several else words["rival"]))
    return [name for _, name in sorted(out)]


def say(words: Words, text: str) -> str:
    """A choice's token in words: ``as de espadas``, ``quiero``, ``real envido``."""
    try:
        action = parse_token(text)
    except TrucoError:
        return text
    if is_card(action):
        return words.card(action)
    if action in (QUIERO, NO_QUIERO):
        return words.answer(action)
    if action == MAZO:
        return "irse al mazo" if words.lang == "es" else "go to the mazo"
    try:
        return words.call(action)
    except KeyError:
        return token(action)


def _number(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "es" else text


def _signed(value: float, lang: str) -> str:
    return ("+" if value >= 0 else "−") + _number(abs(value), lang)


def why(lang: str, variant: str, answer: str, choices: dict[str, dict[str, float]]) -> str:
    """The answer's reason in words: its chance of winning the match and its points, and
    those of the next best choice."""
    words = Words(lang, variant)
    best = choices[answer]
    others = sorted((c for c in choices if c != answer), key=lambda c: -choices[c]["win"])
    first = say(words, answer)
    first = first[:1].upper() + first[1:]
    win, points = _number(best["win"], lang), _signed(best["points"], lang)
    if lang == "es":
        text = f"{first}: {win} % de ganar la partida y {points} puntos esperados en la mano."
    else:
        text = f"{first}: {win}% to win the match and {points} points expected in the hand."
    if others:
        alt = others[0]
        gap = _number(best["win"] - choices[alt]["win"], lang)
        a_win, a_points = _number(choices[alt]["win"], lang), _signed(choices[alt]["points"], lang)
        if lang == "es":
            text += (
                f" La mejor de las otras, {say(words, alt)}: {a_win} % y {a_points} puntos"
                f" ({gap} puntos de porcentaje menos)."
            )
        else:
            text += (
                f" The best of the others, {say(words, alt)}: {a_win}% and {a_points} points"
                f" ({gap} percentage points less)."
            )
    if lang == "es":
        text += " Lo calcula el bot expert con lo que este asiento veía."
    else:
        text += " Worked out by the expert bot from what this seat could see."
    return text


# ---------------------------------------------------------------------- views


def puzzle_view(row: Any, lang: str) -> dict[str, Any]:
    """``GET /api/puzzles/next``'s puzzle: the record refereed again, and the seat's view."""
    record = loads(row.record)
    match = replay(record).match
    seat = match.turn
    obs = match.observation(seat)
    names = seat_names(obs.players, seat, lang)
    seats = [SeatMeta(name, "human", None, True) for name in names]
    actions = len(record.hands[-1].actions) if record.hands else 0
    position = state_view(
        obs,
        table=f"puzzle-{row.id}",
        seq=actions,
        hand_number=1,
        seats=seats,
        spectators=0,
        downloads={},
        spectator=False,
    )
    for key in ("downloads", "finished", "spectators", "table", "seq"):
        position.pop(key, None)
    return {
        "id": int(row.id),
        "record": row.record,
        "seat": seat,
        "kind": row.kind,
        "rating": round(float(row.mu)),
        "variant": row.variant,
        "players": int(row.players),
        "target": match.rules.target,
        "legal": [token(a) for a in obs.legal_actions if not is_sena(a)],
        "position": position,
        "attempts": int(row.attempts),
        "solved": int(row.solved),
    }


def _player(mine: tuple[Skill, int] | None, threshold: float) -> dict[str, Any]:
    skill, games = mine if mine is not None else (Skill(), 0)
    return {
        "rating": skill.rating,
        "deviation": round(skill.sigma),
        "attempts": games,
        "provisional": provisional(skill.sigma, threshold),
    }


async def _body(
    request: Request, found: tuple[Any, tuple[Skill, int] | None], lang: str, signed: bool
) -> dict[str, Any]:
    row, mine = found
    body = await asyncio.to_thread(puzzle_view, row, _lang(lang))
    settings: Settings = request.app.state.settings
    body["player"] = _player(mine, settings.provisional_deviation) if signed else None
    return body


#: What ``GET /api/puzzles/next`` says, with ``"id": null``, while no puzzle has been mined.
NONE_YET = "no puzzles yet: they are mined from finished games, come back later"


def router() -> APIRouter:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings: Settings = app.state.settings
        mining = Mining(app)
        app.state.puzzle_mining = mining
        if enabled(settings.bot_executor):
            mining.start()
        try:
            yield
        finally:
            await mining.stop()

    r = APIRouter(lifespan=lifespan)
    attempts = Window(ATTEMPTS_PER_MINUTE, 60.0)

    @r.get("/api/puzzles/next")
    async def next_puzzle(request: Request, lang: str = "es", skip: str = "") -> dict[str, Any]:
        who = await request.app.state.auth.signed(request)
        account_id = None if who is None else who.account_id
        engine = request.app.state.store.engine
        rng = random.Random()
        found = await asyncio.to_thread(pick, engine, account_id, _skip(skip[:1000]), rng)
        if found is None:  # an answer, not an error: there is simply none yet
            return {"id": None, "detail": NONE_YET}
        return await _body(request, found, lang, who is not None)

    @r.get("/api/puzzles/{puzzle_id}")
    async def one_puzzle(puzzle_id: int, request: Request, lang: str = "es") -> dict[str, Any]:
        """A puzzle again (the page asks for it in the other language)."""
        who = await request.app.state.auth.signed(request)
        account_id = None if who is None else who.account_id
        engine = request.app.state.store.engine
        found = (
            await asyncio.to_thread(fetch, engine, puzzle_id, account_id)
            if 0 < puzzle_id < 2**31
            else None
        )
        if found is None:
            raise HTTPException(404, "no such puzzle")
        return await _body(request, found, lang, who is not None)

    @r.post("/api/puzzles/{puzzle_id}")
    async def answer(puzzle_id: int, request: Request, lang: str = "es") -> dict[str, Any]:
        who = await request.app.state.auth.acting(request)
        data = await json_object(request)
        action = text_field(data, "action", 32)
        words = _lang(data.get("lang", lang))
        address = client_host(request)
        take_or_429(attempts, address, "at most {cap} answers a minute from one address")
        engine = request.app.state.store.engine
        row = (
            await asyncio.to_thread(load_puzzle, engine, puzzle_id)
            if 0 < puzzle_id < 2**31
            else None
        )
        if row is None:
            raise HTTPException(404, "no such puzzle")
        choices: dict[str, dict[str, float]] = json.loads(row.choices)
        if action not in choices:
            raise HTTPException(422, f"action: one of {', '.join(choices)}")
        correct = action == row.answer
        account_id = None if who is None else who.account_id
        writer = request.app.state.tables.writer
        rated = await writer.call(lambda c: attempt(c, puzzle_id, account_id, action, correct))
        rating: dict[str, Any] | None = None
        puzzle_rating = round(float(row.mu))
        if rated is not None:
            before, after, puzzle = rated
            rating = {
                "before": before.rating,
                "after": after.rating,
                "change": after.rating - before.rating,
            }
            puzzle_rating = puzzle.rating
            request.app.state.tables.generation += 1  # the profile shows the rating
        return {
            "correct": correct,
            "answer": row.answer,
            "choices": choices,
            "why": why(words, row.variant, row.answer, choices),
            "rating": rating,
            "puzzle_rating": puzzle_rating,
        }

    @r.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> FileResponse:
        return page("puzzles.html")

    return r
