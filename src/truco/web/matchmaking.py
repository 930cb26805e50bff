"""Find a game (issue 50): the matchmaking queues, one per preset and player count.

This module only decides who sits where: no I/O, no truco rules, no clock of its own (each
step is given ``now``, in seconds). :mod:`truco.web.queue_routes` opens the tables it forms.

The rule, applied to each queue with the entries oldest first, each in turn as the *anchor*:

- An entry that has waited ``w`` seconds has a *window* of ±(150 + 25·w) rating points:
  ±150 at once, ±400 after 10 s, ±900 after 30 s.
- A table of people: the anchor and the oldest other entries within its window, once
  there are as many as the table has seats.
- A table with bots: once the anchor has waited the time it chose (``wait``; None: only
  people, never bots), it sits with the people within ±max(its window, 600) of it who take
  bots at all (their ``wait`` is not None), and bots at the anchor's level take the other
  seats. In a duel that is the person against a bot.
- Teams (seat ``s`` is on team ``s % 2``) are balanced by snake order: the people, best
  rating first, go to teams A, B, B, A, A, B, B, A, so the two best are never partners; in
  each team the people take its first seats and bots the rest. Two people in a four-seat
  queue are thus rivals, each with a bot for a partner.

Bounds: a queue holds at most :data:`MAX_PER_QUEUE` entries, one client address at most
:data:`MAX_PER_ADDRESS`; an account has one ticket (joining again drops the old one); an
entry not polled for :data:`EXPIRE_AFTER` seconds (a closed tab) is dropped, and a seating
is kept :data:`KEEP_SEATED` seconds for its person to read.

Limitation: the queues live in this process's memory. On a cluster (``redis_url`` set) each
node has its own, so a person is matched only with people whose requests reached that node.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from truco.web.people import Signed
from truco.web.ratings import MU

#: The window: ±(BASE_WINDOW + WIDEN_PER_S × seconds waited) rating points.
BASE_WINDOW: Final = 150.0
WIDEN_PER_S: Final = 25.0
#: The least window of a table that bots fill (the people the anchor sits with).
FILL_WINDOW: Final = 600.0
MAX_PER_QUEUE: Final = 200
MAX_PER_ADDRESS: Final = 16
EXPIRE_AFTER: Final = 30.0
KEEP_SEATED: Final = 120.0
#: The longest wait for people a person may choose, in seconds.
MAX_WAIT: Final = 600
#: Teams in snake order: the best person to team 0, the next two to team 1, and so on.
SNAKE: Final = (0, 1, 1, 0)


class QueueFull(Exception):
    """The queue, or this client address's share of the queues, is full."""


@dataclass(slots=True)
class Entry:
    """A person waiting in a queue."""

    ticket: str
    account: Signed | None
    #: The name shown: the account's, a guest's chosen one, or None (the table names it).
    name: str | None
    mu: float
    variant: str
    players: int
    #: Seconds to wait for people before bots may fill (None: only people).
    wait: float | None
    bot_level: str
    joined: float
    polled: float
    address: str = ""

    @property
    def queue(self) -> tuple[str, int]:
        return self.variant, self.players

    def waited(self, now: float) -> float:
        return max(0.0, now - self.joined)

    def window(self, now: float) -> float:
        return BASE_WINDOW + WIDEN_PER_S * self.waited(now)

    def may_fill(self, now: float) -> bool:
        """Whether this entry has waited as long as it chose and bots may fill its table."""
        return self.wait is not None and self.waited(now) >= self.wait


@dataclass(frozen=True, slots=True)
class Formed:
    """A table the matcher formed: an entry per person's seat, None per bot's."""

    variant: str
    players: int
    bot_level: str
    seats: tuple[Entry | None, ...]

    @property
    def bots(self) -> int:
        return sum(1 for e in self.seats if e is None)

    @property
    def people(self) -> list[Entry]:
        return [e for e in self.seats if e is not None]


@dataclass(frozen=True, slots=True)
class Seated:
    """Where a ticket's person sits: the table, their seat and its secret."""

    table: str
    seat: int
    secret: str
    bots: int
    people: tuple[str, ...]
    rated: bool
    at: float


def seat_teams(people: Sequence[Entry], players: int) -> tuple[Entry | None, ...]:
    """Seat ``people`` at a table of ``players`` with balanced teams (snake order by rating,
    ties by who came first); the seats left are bots' (None)."""
    teams: list[list[Entry]] = [[], []]
    ranked = sorted(people, key=lambda e: (-e.mu, e.joined))
    for k, entry in enumerate(ranked):
        teams[SNAKE[k % 4]].append(entry)
    seats: list[Entry | None] = [None] * players
    for team, members in enumerate(teams):
        for i, entry in enumerate(members):
            seats[team + 2 * i] = entry
    return tuple(seats)


@dataclass
class Matchmaker:
    """Every queue of one process (see the module docstring)."""

    max_per_queue: int = MAX_PER_QUEUE
    max_per_address: int = MAX_PER_ADDRESS
    expire_after: float = EXPIRE_AFTER
    keep_seated: float = KEEP_SEATED
    queues: dict[tuple[str, int], list[Entry]] = field(default_factory=dict)
    #: Entries taken from a queue whose table is being opened.
    forming: dict[str, Entry] = field(default_factory=dict)
    seated: dict[str, Seated] = field(default_factory=dict)

    # ------------------------------------------------------------------ people

    def entries(self) -> Iterable[Entry]:
        for queue in self.queues.values():
            yield from queue
        yield from self.forming.values()

    def join(
        self,
        *,
        account: Signed | None,
        name: str | None,
        mu: float = MU,
        variant: str,
        players: int,
        wait: float | None,
        bot_level: str,
        now: float,
        address: str = "",
    ) -> Entry:
        """A new entry at the back of its queue; an account's earlier ticket is dropped.
        :class:`QueueFull` when its queue or its address has no room."""
        if account is not None:
            for old in [e for e in self.entries() if _same(e.account, account)]:
                self.leave(old.ticket)
        queue = self.queues.setdefault((variant, players), [])
        if len(queue) >= self.max_per_queue:
            raise QueueFull("this queue is full; try again soon")
        if address and sum(1 for e in self.entries() if e.address == address) >= (
            self.max_per_address
        ):
            raise QueueFull(f"at most {self.max_per_address} people queue from one address")
        entry = Entry(
            ticket=secrets.token_urlsafe(18),
            account=account,
            name=account.name if account is not None else name,
            mu=mu,
            variant=variant,
            players=players,
            wait=wait,
            bot_level=bot_level,
            joined=now,
            polled=now,
            address=address,
        )
        queue.append(entry)
        return entry

    def find(self, ticket: str) -> Entry | None:
        entry = self.forming.get(ticket)
        if entry is not None:
            return entry
        for queue in self.queues.values():
            for e in queue:
                if e.ticket == ticket:
                    return e
        return None

    def poll(self, ticket: str, now: float) -> Entry | Seated | None:
        """The ticket's entry (still waiting) or seating, None when unknown; a poll keeps
        the entry alive."""
        seated = self.seated.get(ticket)
        if seated is not None:
            return seated
        entry = self.find(ticket)
        if entry is not None:
            entry.polled = now
        return entry

    def leave(self, ticket: str) -> bool:
        """Drop the ticket (waiting, being seated or seated); whether it was known."""
        found = self.forming.pop(ticket, None) is not None
        found = self.seated.pop(ticket, None) is not None or found
        for key, queue in list(self.queues.items()):
            kept = [e for e in queue if e.ticket != ticket]
            if len(kept) != len(queue):
                found = True
                self._set(key, kept)
        return found

    def in_queue(self, variant: str, players: int) -> int:
        return len(self.queues.get((variant, players), ()))

    def _set(self, key: tuple[str, int], queue: list[Entry]) -> None:
        if queue:
            self.queues[key] = queue
        else:
            self.queues.pop(key, None)

    # ------------------------------------------------------------------ matching

    def expire(self, now: float) -> None:
        """Drop entries not polled lately and seatings kept long enough."""
        for key, queue in list(self.queues.items()):
            self._set(key, [e for e in queue if now - e.polled <= self.expire_after])
        for ticket, s in list(self.seated.items()):
            if now - s.at > self.keep_seated:
                del self.seated[ticket]

    def match(self, now: float) -> list[Formed]:
        """Form every table the queues allow now; their people move to :attr:`forming`
        until :meth:`seat` (or :meth:`requeue`) says how it went."""
        self.expire(now)
        formed: list[Formed] = []
        for key in list(self.queues):
            queue = sorted(self.queues[key], key=lambda e: e.joined)
            while True:
                table = _form(queue, key[1], now)
                if table is None:
                    break
                formed.append(table)
                taken = {e.ticket for e in table.people}
                queue = [e for e in queue if e.ticket not in taken]
                for e in table.people:
                    self.forming[e.ticket] = e
            self._set(key, queue)
        return formed

    def seat(
        self,
        table: Formed,
        table_id: str,
        secrets_by_seat: Mapping[int, str],
        names: Sequence[str],
        rated: bool,
        now: float,
    ) -> None:
        """The formed table is open: each of its people (who did not leave meanwhile) may
        read where they sit."""
        people = tuple(names[i] for i, e in enumerate(table.seats) if e is not None)
        for seat, entry in enumerate(table.seats):
            if entry is None or self.forming.pop(entry.ticket, None) is None:
                continue
            self.seated[entry.ticket] = Seated(
                table_id, seat, secrets_by_seat[seat], table.bots, people, rated, now
            )

    def requeue(self, table: Formed) -> None:
        """The formed table could not be opened: its people wait again, in their places."""
        for entry in table.people:
            if self.forming.pop(entry.ticket, None) is None:
                continue
            queue = self.queues.setdefault(entry.queue, [])
            queue.append(entry)
            queue.sort(key=lambda e: e.joined)


def _same(a: Signed | None, b: Signed) -> bool:
    return a is not None and a.account_id == b.account_id


def _form(queue: Sequence[Entry], players: int, now: float) -> Formed | None:
    """The first table ``queue`` (oldest first) allows now, or None."""
    for anchor in queue:
        window = anchor.window(now)
        near = [e for e in queue if e is not anchor and abs(e.mu - anchor.mu) <= window]
        if len(near) + 1 >= players:
            return _formed(anchor, [anchor, *near[: players - 1]], players)
        if anchor.may_fill(now):
            wide = max(window, FILL_WINDOW)
            fill = [
                e
                for e in queue
                if e is not anchor and e.wait is not None and abs(e.mu - anchor.mu) <= wide
            ]
            return _formed(anchor, [anchor, *fill[: players - 1]], players)
    return None


def _formed(anchor: Entry, people: Sequence[Entry], players: int) -> Formed:
    return Formed(anchor.variant, players, anchor.bot_level, seat_teams(people, players))
