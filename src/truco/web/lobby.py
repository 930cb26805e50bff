"""The lobby, the waiting room and the rematch (issue 13): how friends find a table, wait for
each other and play again.

- A table opened as *public* is listed on the home page while it has a free seat: a person's
  seat whose person has not sat down yet (never connected since the table was loaded, still
  with its default name), other than the host's. Anyone may take it (:func:`join`): the seat
  gets a new secret, so the old invitation to it stops working. Private tables (the default)
  are link-only.
- A table of two or more people waits before its first move until every person has sat down,
  or until the host starts it: then a bot stands in for each person still missing
  (:mod:`truco.web.clock`), until they arrive. The host is the table's creator, in whatever
  seat they chose (:func:`host_of`); while the creator is away, the lowest seat with a person
  at it.
- A rematch (*revancha*) is a new table with the same seats (the same secrets, so every link
  still works), the same rules, clock and bot levels, and a new seed; one click at the table
  sends everyone there.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import update
from sqlalchemy.engine import Connection

from truco.web.connection import hash_token
from truco.web.protocol import clean_name
from truco.web.schema import SeatRow
from truco.web.store import SeatData

if TYPE_CHECKING:
    from truco.web.people import Signed
    from truco.web.tables import Table, Tables

#: Where a table's "public" flag is stored, beside its rule options.
KEY: Final = "public"
#: Where the creator's seat is stored, beside its rule options.
HOST_KEY: Final = "host"
#: Tables the lobby lists at most.
MAX_LISTED: Final = 50
_DEFAULT_NAME = re.compile(r"Jugador \d+")


def split(options: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A stored table's options: (the rule options, whether it is public); the creator's seat
    (:func:`host_of`) is left out too."""
    rest = {k: v for k, v in options.items() if k not in (KEY, HOST_KEY)}
    return rest, options.get(KEY) is True


def host_of(options: dict[str, Any], people: Sequence[int]) -> int | None:
    """The creator's seat stored in a table's options; a table stored without one (or with a
    seat that is no person's) was opened from its first person's seat (decision 121)."""
    seat = options.get(HOST_KEY)
    if isinstance(seat, int) and not isinstance(seat, bool) and seat in people:
        return seat
    return people[0] if people else None


def present_host(table: Table) -> int | None:
    """The host's seat: the creator's, while they are at the table; while they are away, the
    lowest seat with a person at it; the creator's again when nobody is there."""
    creator = table.creator
    if creator is None or table.seats[creator].conns:
        return creator
    here = [i for i in table.clock.people if table.seats[i].conns]
    return here[0] if here else creator


def free_seats(table: Table) -> list[int]:
    """The people's seats nobody has taken: never sat at since loaded, with the default name;
    never the creator's (the one who opened the table is on their way to it)."""
    if table.match.over:
        return []
    return [
        i
        for i, s in enumerate(table.seats)
        if s.kind == "human"
        and i != table.creator
        and i not in table.arrived
        and not s.conns
        and _DEFAULT_NAME.fullmatch(s.name)
    ]


def listing(tables: Tables) -> list[dict[str, Any]]:
    """The open public tables with a free seat, the newest first."""
    out: list[dict[str, Any]] = []
    for table in sorted(tables.live.values(), key=lambda t: -t.created):
        if not table.public:
            continue
        free = free_seats(table)
        if not free:
            continue
        out.append(
            {
                "id": table.id,
                "variant": table.rules.name,
                "players": table.rules.players,
                "target": table.rules.target,
                "bot_level": table.bot_level,
                "clock": table.clock.seconds,
                "seats": [
                    {
                        "seat": i,
                        "kind": s.kind,
                        "name": None if i in free else s.name,
                        "free": i in free,
                    }
                    for i, s in enumerate(table.seats)
                ],
                "started": table.started,
            }
        )
        if len(out) >= MAX_LISTED:
            break
    return out


def _set_token(
    conn: Connection, table_id: str, seat: int, token_hash: str, name: str, account: int | None
) -> None:
    conn.execute(
        update(SeatRow)
        .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
        .values(token_hash=token_hash, name=name, account_id=account)
    )


class NoFreeSeat(Exception):
    """The table is not public, or has no free seat left."""


async def join(
    tables: Tables, table: Table, name: str | None, account: Signed | None = None
) -> tuple[int, str]:
    """Take a free seat of a public table: (its seat, its new secret); a signed-in
    person's ``account`` holds it (issue 50)."""
    if not table.public:
        raise NoFreeSeat("this table is not open to everyone: it takes its invitations only")
    async with table.lock:
        free = free_seats(table)
        if not free:
            raise NoFreeSeat("this table has no free seat left")
        seat = free[0]
        shown = clean_name(name) if name else f"Invitado {seat + 1}"
        owner = None
        if account is not None and not any(s.account_id == account.account_id for s in table.seats):
            shown, owner = account.name, account.account_id
        secret = secrets.token_urlsafe(18)
        digest = hash_token(secret)
        table_id = table.id
        await tables.writer.run(lambda c: _set_token(c, table_id, seat, digest, shown, owner))
        table.seats[seat].token_hash = digest
        table.seats[seat].name = shown
        table.seats[seat].account_id = owner
        tables.generation += 1
        table.arrived.add(seat)  # taken: no longer listed, even before they connect
    table.broadcast()
    return seat, secret


async def rematch(tables: Tables, table: Table) -> Table:
    """The table's rematch, made once: the same seats and settings, a new seed."""
    async with table.lock:  # two clicks at once make one rematch
        if table.rematch is not None:
            found = await tables.get(table.rematch)
            if found is not None:
                return found
        return await _new_rematch(tables, table)


async def _new_rematch(tables: Tables, table: Table) -> Table:
    stored = [SeatData(s.kind, s.bot, s.name, s.token_hash, s.account_id) for s in table.seats]
    new = await tables.open_table(
        table.rules,
        table.bot_level,
        stored,
        dict(table.options),
        table.clock.seconds,
        table.public,
        rated=table.rated_requested,
        host=table.creator,
    )
    table.rematch = new.id
    return new


def waiting_view(table: Table) -> dict[str, Any] | None:
    """The waiting room in the state: the people's seats still missing and the host's seat,
    or None once the game has started."""
    if table.started:
        return None
    missing = [i for i in table.clock.people if i not in table.arrived]
    return {"missing": missing, "host": table.host()}
