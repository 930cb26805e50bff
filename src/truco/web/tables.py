"""Live tables: a match, its seats and connections, its bots; and the registry of tables.

A :class:`Table` applies one action at a time under its lock: check it (turn, ``seq``,
legality, all by the engine), apply it, wait until the database has committed it, then send
every connection its new view. Nothing is sent that the database does not hold, so a restart
never loses an acknowledged action. A seña goes only to the seats that see it: nobody else
hears of it, by a state, a ``seq`` or a delay (:mod:`truco.web.viewseq`, decision 127). Bots
think in the :class:`~truco.web.bots.BotRunner`'s workers as soon as their turn comes and act
through the same path once their pause is up (so people can follow them).

Connections (:mod:`truco.web.connection`) keep only the newest ``state`` in their outbox, so a
slow browser never holds up a table. States are coalesced: whatever happens at a table within
one ``broadcast_tick`` (actions, names, people coming and going) reaches each connection as one
state.

Bots heal (issue 12): a bot whose move could not be thought (a broken worker pool) or stored
(the database down) tries again with backoff, and the registry's watchdog restarts the bot
loop of any table whose turn is a bot's and whose loop is gone, and fails a move that has
been thinking far past its budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from truco import __version__
from truco.account_text import LANGS
from truco.actions import parse_token, token
from truco.errors import TrucoError
from truco.match import Match
from truco.variants import Rules, variant_with
from truco.web import clock, deals, lobby, ops, partners, phrases, ratings, views
from truco.web.bots import BOT_LEVELS, BotRunner
from truco.web.connection import Conn, hash_token
from truco.web.downloads import offered_hands
from truco.web.limits import Window
from truco.web.outages import report
from truco.web.people import Signed, bot_accounts
from truco.web.protocol import (
    PROTOCOL_VERSION,
    Act,
    Back,
    BotSeat,
    ClientMessage,
    Hello,
    Lang,
    Ping,
    ProtocolError,
    Rematch,
    Rename,
    Say,
    Start,
    clean_name,
    encode,
    error,
    once,
)
from truco.web.ratings import RatedSeat
from truco.web.recall import HandStarts
from truco.web.settings import Settings
from truco.web.store import ActionData, Fenced, GameResult, SeatData, Store, TableData
from truco.web.table_bots import TableBots
from truco.web.viewseq import ViewSeqs
from truco.web.writer import Writer

log = logging.getLogger("truco.web")

#: How often the watchdog looks at every live table, and the purge runs, in seconds.
WATCH_EVERY = 1.0
PURGE_EVERY = 3600.0


class Incompatible(Exception):
    """A stored table that this engine cannot replay exactly (another engine dealt it)."""


class ServerFull(Exception):
    """This process holds as many live tables as ``max_live_tables`` allows."""


class Draining(ServerFull):
    """This node is draining (SIGTERM): it takes no table any more."""


@dataclass(slots=True)
class Seat:
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    conns: set[Conn] = field(default_factory=set)
    #: The person's account that holds the seat (issue 50), or None.
    account_id: int | None = None

    @staticmethod
    def of(data: SeatData) -> Seat:
        return Seat(data.kind, data.bot, data.name, data.token_hash, account_id=data.account_id)


class Table:
    """One table being played (see the module docstring)."""

    def __init__(
        self,
        registry: Tables,
        table_id: str,
        rules: Rules,
        seed: int,
        bot_level: str,
        seats: list[Seat],
        options: dict[str, Any],
        deal_secret: str | None = None,
        clock_seconds: int = 0,
        rated: bool = False,
    ) -> None:
        self.registry = registry
        self.id = table_id
        self.rules = rules
        self.seed = seed
        self.bot_level = bot_level
        self.seats = seats
        self.options = options
        #: Deals each hand from a committed seed (None: a table stored before issue 16).
        self.dealer = deals.dealer_of(table_id, deal_secret)
        self.deal_ledger = deals.Ledger()
        self.match = self.fresh_match()
        self.actions: list[tuple[int, int]] = []
        #: Each viewer's ``seq``: the actions it saw (:mod:`truco.web.viewseq`).
        self.seqs = ViewSeqs(rules.players)
        #: What the bots recall of the match before they move (:mod:`truco.web.recall`).
        self.hand_starts = HandStarts()
        self.hand_starts.note(self.match)
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        #: The bots' moves at this table (:mod:`truco.web.table_bots`).
        self.bots = TableBots(self)
        self.bot_restarts = 0
        self.last_active = time.monotonic()
        self._offered: tuple[int, bool, list[int]] = (-1, False, [])
        self._flush: asyncio.TimerHandle | asyncio.Handle | None = None
        self._last_flush = -1e9
        #: An action is applied but not yet committed: no state may be sent meanwhile to
        #: those who see it (everyone, or a seña's seers in ``_storing_seers``); a state held
        #: back goes out once the database holds it (``_held``).
        self._storing = False
        self._storing_seers: tuple[int, ...] | None = None
        self._held = False
        self.broadcasts = 0
        #: Listed in the lobby (:mod:`truco.web.lobby`); the seats sat at since loaded; whether
        #: the first move may be made (a table of people waits for them, or for its host);
        #: the rematch's table, once made.
        self.public = False
        self.created = time.monotonic()
        self.arrived: set[int] = set()
        self.started = sum(1 for s in seats if s.kind == "human") < 2
        self.rematch: str | None = None
        #: Whether the table asked to be rated (its game is, if every seat is rated too), and
        #: seat -> the hand from which a stand-in bot has played that person's seat (issue 50).
        self.rated_requested = rated
        self.left_at: dict[int, int] = {}
        #: The seat of the person who opened the table (:func:`truco.web.lobby.host_of`).
        self.creator = lobby.host_of({}, [i for i, s in enumerate(seats) if s.kind == "human"])
        #: The quick phrases said lately (:mod:`truco.web.phrases`).
        self.talk = phrases.Talk()
        #: The per-move clock and the bots that stand in for people (:mod:`truco.web.clock`).
        self.clock = clock.Clock(
            clock_seconds,
            registry.settings.away_limit,
            turn=lambda: -1 if self.match.over or not self.started else self.match.turn,
            people=[i for i, s in enumerate(seats) if s.kind == "human"],
            connected=lambda seat: bool(self.seats[seat].conns),
            changed=self._stand_in_changed,
        )

    # ------------------------------------------------------------------ state

    @property
    def seq(self) -> int:
        """The actions applied so far, señas included: the log's own count (the store's and
        the bots'), never shown; a view shows :attr:`seqs` (decision 127)."""
        return len(self.actions)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def fresh_match(self) -> Match:
        """This table's match before any action (dealt as its first hand was)."""
        return deals.new_match(self.rules, self.seed, self.dealer)

    def deal_news(self) -> str | None:
        """The ``deal`` message of the commitments and seeds not yet sent to everyone."""
        if self.dealer is None:
            return None
        news = self.deal_ledger.news(self.dealer, self.match, self.offered())
        return None if news is None else encode(news)

    def deal_history(self) -> str | None:
        """The ``deal`` message of everything published so far, for a connection that joins."""
        if self.dealer is None:
            return None
        return encode(deals.history(self.dealer, self.match, self.offered()))

    def replay(self, actions: Sequence[tuple[int, int]]) -> None:
        """Apply a stored log (resuming after a restart)."""
        for seat, action in actions:
            if self.match.over or self.match.turn != seat:
                raise TrucoError(f"action {len(self.actions)}: not p{seat}'s turn")
            self.match.apply(action)
            self.actions.append((seat, action))
            self.seqs.note(self.match, seat, action)
            self.hand_starts.note(self.match)
        if self.actions:
            self.started = True

    def connections(self) -> int:
        return len(self.spectators) + sum(len(s.conns) for s in self.seats)

    def offered(self) -> list[int]:
        key = (len(self.match.hands), self.match.over)
        if self._offered[:2] != key:
            self._offered = (*key, offered_hands(self.match))
        return self._offered[2]

    def _seat_meta(self) -> list[views.SeatMeta]:
        return [
            views.SeatMeta(
                s.name, s.kind, s.bot, bool(s.conns) or s.kind == "bot", s.account_id is not None
            )
            for s in self.seats
        ]

    # ------------------------------------------------------------------ ratings (issue 50)

    def rated_seats(self) -> tuple[RatedSeat, ...]:
        """The seats as the ratings see them, or () when this game is not rated: the table
        did not ask for it, no person sits at it, or some seat is a guest's or a bot's at an
        unrated level."""
        if not self.rated_requested or all(s.kind == "bot" for s in self.seats):
            return ()  # (bots among themselves rate nobody: the bots' scale is set by people)
        bots = self.registry.bot_accounts
        out = []
        for i, s in enumerate(self.seats):
            account = s.account_id if s.kind == "human" else bots.get(s.bot or "")
            if account is None:
                return ()
            out.append(RatedSeat(account, i % 2, self.left_at.get(i)))
        return tuple(out)

    @property
    def rated(self) -> bool:
        """Whether the game counts for the ratings, as its seats stand now."""
        return bool(self.rated_seats())

    def game_result(self) -> GameResult:
        """What the finished game leaves besides its log: score, leavers, ratings."""
        rated = self.rated_seats()
        return GameResult(
            variant=self.rules.name,
            players=self.rules.players,
            score=tuple(self.match.score),
            left_at_hand=dict(self.left_at),
            rated=rated if not ratings.aborted(rated) else (),
        )

    def state_message(
        self,
        seat: int | None,
        meta: list[views.SeatMeta] | None = None,
        lang: str | None = None,
        shared: dict[str, Any] | None = None,
    ) -> str:
        """The ``state`` message for ``seat``, or for a spectator when ``seat`` is None; its
        ``told`` in ``lang`` only when the connection said which language it reads (telling
        the hand is most of a state's cost, and every language triples it). ``shared``: one
        empty dict for all the states of one broadcast, which keeps what they have in common
        (:func:`truco.web.views.state_view`)."""
        obs = self.match.observation(0 if seat is None else seat)
        view = views.state_view(
            obs,
            table=self.id,
            seq=self.seqs.of(seat),
            hand_number=len(self.match.hands),
            seats=meta if meta is not None else self._seat_meta(),
            spectators=len(self.spectators),
            downloads={"hands": self.offered(), "game": self.match.over},
            spectator=seat is None,
            langs=LANGS if lang is None else (lang,),
            shared=shared,
        )
        extra: dict[str, Any] | None = shared.get("table") if shared is not None else None
        if extra is None:
            extra = self.clock.view()
            extra["waiting"] = lobby.waiting_view(self)
            extra["host"] = self.host()
            extra["rematch"] = self.rematch
            extra["public"] = self.public
            extra["talk"] = self.talk.view()
            extra["rated"] = self.rated
            if shared is not None:
                shared["table"] = extra
        view.update(extra)
        if view["finished"] is not None and not obs.hand_over:
            # The previous hand's view, the same object in every state of this hand
            # (views._previous): encoded once.
            view["finished"] = once(view["finished"])
        return encode({"type": "state", "view": view})

    def welcome(self, seat: int | None) -> str:
        return encode(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "table": self.id,
                "seat": seat,
                "bot_level": self.bot_level,
                "rules": views.rules_summary(self.rules),
                "phrases": {k: {"es": es, "en": en} for k, (es, en) in phrases.PHRASES.items()},
            }
        )

    def broadcast(self) -> None:
        """Send every connection its view of the table soon: at once if the last states went
        out over a tick ago, else one tick after them; whatever changed in between goes out
        as one state."""
        if self._flush is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._last_flush + self.registry.settings.broadcast_tick - loop.time()
        if wait <= 0:
            self._flush = loop.call_soon(self._send_states)
        else:
            self._flush = loop.call_later(wait, self._send_states)

    def _send_states(self) -> None:
        self._flush = None
        seers: tuple[int, ...] = ()
        if self._storing:
            if self._storing_seers is None:  # the commit broadcasts once it is stored
                self._held = True
                return
            # A seña being stored: the seats that see it wait for it (its commit sends them
            # their state); everyone else gets theirs now, as they would without it.
            seers = self._storing_seers
        self._last_flush = asyncio.get_running_loop().time()
        self.broadcasts += 1
        news = self.deal_news()
        if news is not None:
            for c in self.everyone():
                c.send(news)
        meta = self._seat_meta()
        shared: dict[str, Any] = {}
        for i, s in enumerate(self.seats):
            if s.conns and i not in seers:
                self._send_view(i, s.conns, meta, shared)
        if self.spectators:
            self._send_view(None, self.spectators, meta, shared)

    def _send_view(
        self,
        seat: int | None,
        conns: Iterable[Conn],
        meta: list[views.SeatMeta],
        shared: dict[str, Any] | None = None,
    ) -> None:
        """One seat's (or the spectators') state to each of its connections, made once per
        language they read."""
        texts: dict[str | None, str] = {}
        for c in conns:
            text = texts.get(c.lang)
            if text is None:
                text = texts[c.lang] = self.state_message(seat, meta, c.lang, shared)
            c.send(text, state=True)

    def _send_seen(self, seers: tuple[int, ...]) -> None:
        """A seña was stored: the seats that saw it get their new state, and nobody else gets
        anything because of it (docs/rules.md §11.1, decision 127): no state, no ``seq``, and
        no change to when the others' next states go out (the broadcast tick is not touched).
        A flush already due carries it instead."""
        if self._flush is not None:
            return
        meta = self._seat_meta()
        shared: dict[str, Any] = {}
        for i in seers:
            conns = self.seats[i].conns
            if conns:
                self._send_view(i, conns, meta, shared)

    # ------------------------------------------------------------------ connections

    def everyone(self) -> list[Conn]:
        return [c for s in self.seats for c in s.conns] + list(self.spectators)

    def detach(self, conn: Conn) -> None:
        if conn.seat is None:
            self.spectators.discard(conn)
        else:
            self.seats[conn.seat].conns.discard(conn)
            self.clock.left(conn.seat)
        if conn.hello:
            self.last_active = time.monotonic()
            self.broadcast()

    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """One message from ``conn``; a refused one gets an ``error`` and changes nothing."""
        try:
            if isinstance(msg, Hello):
                await self._hello(conn, msg)
            elif not conn.hello:
                raise ProtocolError("hello_first", "say hello first")
            elif isinstance(msg, Ping):
                conn.send(encode({"type": "pong"}))
            elif isinstance(msg, Lang):
                conn.lang = msg.lang
                conn.send(self.state_message(conn.seat, lang=conn.lang), state=True)
            elif isinstance(msg, Rename):
                await self._rename(conn, msg)
            elif isinstance(msg, Act):
                await self._act(conn, msg)
            elif isinstance(msg, Back):
                self._back(conn)
            elif isinstance(msg, BotSeat):
                self._bot_seat(conn, msg)
            elif isinstance(msg, Start):
                self._start(conn)
            elif isinstance(msg, Rematch):
                await self._rematch(conn)
            elif isinstance(msg, Say):
                self._say(conn, msg)
        except ProtocolError as e:
            conn.send(error(e.code, e.message))

    async def _hello(self, conn: Conn, msg: Hello) -> None:
        if conn.hello:
            raise ProtocolError("already_hello", "this connection has already said hello")
        seat: int | None = None
        if msg.token is not None:
            digest = hash_token(msg.token)
            for i, s in enumerate(self.seats):
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    seat = i
            if seat is None:
                raise ProtocolError("bad_token", "this link is not a seat of this table")
            owner = self.seats[seat].account_id
            if owner is not None and (conn.account is None or conn.account.account_id != owner):
                raise ProtocolError(
                    "account_seat",
                    f"this seat belongs to {self.seats[seat].name}'s account: sign in as them",
                )
            cap = self.registry.settings.max_connections_per_seat
            if len(self.seats[seat].conns) >= cap:
                raise ProtocolError(
                    "seat_full", f"this seat is open in {cap} places already; close one"
                )
            self.seats[seat].conns.add(conn)
        else:
            cap = self.registry.settings.max_spectators
            if len(self.spectators) >= cap:
                raise ProtocolError(
                    "spectators_full", f"this table has {cap} spectators, as many as it takes"
                )
            self.spectators.add(conn)
        conn.hello = True
        conn.seat = seat
        conn.lang = msg.lang
        self.last_active = time.monotonic()
        conn.send(self.welcome(seat))
        history = self.deal_history()
        if history is not None:
            conn.send(history)
        if seat is not None:
            await self._claim_seat(conn, seat)
            self.arrived.add(seat)
            if not self.started and all(p in self.arrived for p in self.clock.people):
                self.started = True  # everyone is here: the game begins
                self.clock.moved()
            self.clock.arrived(seat)
        self.broadcast()
        self.bots.kick()

    async def _claim_seat(self, conn: Conn, seat: int) -> None:
        """A signed-in person sits at a guest's seat before the game's first move: the seat
        becomes their account's (its name too). Anyone else, or later, sits as a guest."""
        who = conn.account
        if (
            who is None
            or self.seats[seat].account_id is not None
            or self.actions
            or seat in self.arrived
            or any(s.account_id == who.account_id for s in self.seats)
        ):
            return
        table_id, name = self.id, who.name
        async with self.lock:
            if self.actions or self.seats[seat].account_id is not None:
                return
            try:
                fence = self.registry.fence_of(table_id)
                await self.registry.writer.run(
                    lambda c: Store.claim_seat(c, table_id, seat, who.account_id, name, fence)
                )
            except Exception as e:
                report(
                    log, logging.ERROR, e, "table %s: a seat could not be claimed: %s", self.id, e
                )
                if isinstance(e, Fenced):
                    self.registry.disown(self)
                return  # they play as a guest
            self.seats[seat].account_id = who.account_id
            self.seats[seat].name = name
            self.registry.generation += 1

    async def _rename(self, conn: Conn, msg: Rename) -> None:
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators have no seat to name")
        seat = conn.seat
        if self.seats[seat].account_id is not None:
            raise ProtocolError("account_name", "this seat carries its account's name")
        if msg.name == self.seats[seat].name:  # nothing to store; the state says so
            self.broadcast()
            return
        if not self.registry.renames.allow(f"{self.id}/{seat}"):
            raise ProtocolError("rate_limited", "too many renames; wait a minute")
        async with self.lock:
            table_id, name = self.id, msg.name
            try:
                fence = self.registry.fence_of(table_id)
                await self.registry.writer.run(
                    lambda c: Store.rename(c, table_id, seat, name, fence)
                )
            except Exception as e:
                report(log, logging.ERROR, e, "table %s: could not store a name: %s", self.id, e)
                if isinstance(e, Fenced):
                    self.registry.disown(self)
                raise ProtocolError("server", "the name could not be saved; try again") from None
            self.seats[seat].name = name
            self.broadcast()

    async def _act(self, conn: Conn, msg: Act) -> None:
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot act")
        if not self.started:
            raise ProtocolError("not_started", "the host has not started the game yet")
        self.clock.give_back(conn.seat)  # a person who acts is back (the bot stops)
        async with self.lock:
            match = self.match
            if match.over:
                raise ProtocolError("game_over", "the game is over")
            seen = self.seqs.of(conn.seat)  # the seq of this seat's view (decision 127)
            if msg.seq != seen:
                conn.send(self.state_message(conn.seat, lang=conn.lang), state=True)
                raise ProtocolError("stale", f"the table is at seq {seen}, not {msg.seq}")
            if match.turn != conn.seat:
                raise ProtocolError("not_your_turn", f"it is p{match.turn}'s turn")
            try:
                action = parse_token(msg.action)
            except TrucoError as e:
                raise ProtocolError("bad_action", str(e)) from None
            await self._commit(conn.seat, action)
        self.bots.kick()

    async def _commit(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat`` (the seat to act), store it, then tell everyone.

        Called with the lock held. The engine refuses an illegal action with the reason and
        no change; if the database cannot store it, the match is rebuilt without it.
        """
        try:
            self.match.apply(action)
        except TrucoError as e:
            raise ProtocolError("illegal", f"{token(action)!r}: {e}") from None
        seq = self.seq
        self.actions.append((seat, action))
        seers = self.seqs.note(self.match, seat, action)
        writer = self.registry.writer
        self._storing, self._storing_seers = True, seers
        try:
            fence = self.registry.fence_of(self.id)
            await writer.append(ActionData(self.id, seq, seat, action, token(action), fence))
            if self.match.over:
                winner, table_id, result = self.match.winner, self.id, self.game_result()
                await writer.run(lambda c: Store.finish(c, table_id, winner, fence, result))
        except Exception as e:  # (cancelled, the writer still commits it: it stays applied)
            report(
                log, logging.ERROR, e, "table %s: could not store action %d: %s", self.id, seq, e
            )
            if isinstance(e, Fenced):  # another node owns it now: this one lets it go
                self.registry.disown(self)
            self.actions.pop()
            self.match = self.fresh_match()
            self.hand_starts.clear()
            self.hand_starts.note(self.match)
            self.seqs = ViewSeqs(self.rules.players)
            kept, self.actions = self.actions, []
            self.replay(kept)
            raise ProtocolError("server", "the action could not be saved; try again") from e
        finally:
            self._storing, self._storing_seers = False, None
            if seers is None or self._held:
                self._held = False
                self.broadcast()
            if seers is not None:
                self._send_seen(seers)
        if self.match.over:
            self.registry.generation += 1
        self.hand_starts.note(self.match)  # (once stored: a failed store rebuilds them)
        if seers is None:  # a seña keeps the turn, and its clock (docs/rules.md §11.1)
            self.clock.moved()
        self.last_active = time.monotonic()

    # ------------------------------------------------------------------ bots

    def _stand_in_changed(self) -> None:
        """A seat was handed to a bot or given back: everyone is told, the bots start."""
        for seat in self.clock.people:
            if not self.clock.plays(seat):
                self.left_at.pop(seat, None)
            elif not self.match.over:
                self.left_at.setdefault(seat, max(1, len(self.match.hands)))
        self.broadcast()
        self.bots.kick()

    def _back(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators have no seat to take back")
        self.clock.give_back(conn.seat)
        self.broadcast()

    def host(self) -> int | None:
        """The host's seat: the creator's, or while they are away the lowest seat with a
        person at it (:func:`truco.web.lobby.present_host`)."""
        return lobby.present_host(self)

    def _bot_seat(self, conn: Conn, msg: BotSeat) -> None:
        if conn.seat is None or conn.seat != self.host():
            raise ProtocolError("not_host", "only the host may hand a seat to a bot")
        seat = msg.seat
        if seat not in self.clock.people or seat == conn.seat:
            raise ProtocolError("bad_seat", f"p{seat} is not another person's seat")
        if self.seats[seat].conns:
            raise ProtocolError("bad_seat", f"p{seat} is connected: its person plays it")
        if not self.clock.hand_over(seat, "host"):
            self.broadcast()

    def _say(self, conn: Conn, msg: Say) -> None:
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators watch in silence")
        try:
            said = self.talk.say(conn.seat, msg.phrase)
        except ValueError as e:
            raise ProtocolError("bad_message", str(e)) from None
        if said is None:
            raise ProtocolError("rate_limited", "too many phrases; wait a few seconds")
        self.broadcast()

    def _start(self, conn: Conn) -> None:
        """The host starts the game: a bot stands in for every person still missing."""
        if conn.seat is None or conn.seat != self.host():
            raise ProtocolError("not_host", "only the host may start the game")
        if self.started:
            self.broadcast()
            return
        self.started = True
        for seat in self.clock.people:
            if not self.seats[seat].conns:
                self.clock.hand_over(seat, "host")
        self.clock.moved()
        self.broadcast()
        self.bots.kick()

    async def _rematch(self, conn: Conn) -> None:
        """Everyone to the rematch's table (made once, by the first who asks)."""
        if conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot ask for a rematch")
        if not self.match.over:
            raise ProtocolError("not_over", "a rematch comes after the game")
        try:
            new = await lobby.rematch(self.registry, self)
        except ServerFull as e:
            raise ProtocolError("server_full", str(e)) from None
        except Exception as e:
            report(log, logging.ERROR, e, "table %s: no rematch: %s", self.id, e)
            raise ProtocolError("server", "the rematch could not be made; try again") from None
        text = encode({"type": "rematch", "table": new.id})
        for c in [*self.spectators, *(c for s in self.seats for c in s.conns)]:
            c.send(text)
        self.broadcast()

    def has_people(self) -> bool:
        """Whether a person sits here now (their bots think before bot-only tables')."""
        return any(s.kind == "human" and s.conns for s in self.seats)


def _seed() -> int:
    return secrets.randbits(63)


class Tables:
    """The registry: creates tables, loads them from the database, unloads idle ones."""

    def __init__(self, settings: Settings, store: Store, writer: Writer, runner: BotRunner):
        self.settings = settings
        self.store = store
        self.writer = writer
        self.runner = runner
        self.live: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.renames = Window(settings.renames_per_minute, 60.0)
        self._tasks: list[asyncio.Task[None]] = []
        self.node = ops.node_id(settings.node_id)
        self.drain = ops.Drain()
        #: The rated bot levels' accounts (issue 50): level -> account id.
        self.bot_accounts = bot_accounts(store.engine)
        #: Grows whenever this node changes what a profile or a leaderboard shows (a game
        #: with an account begun, claimed or finished, an account deleted): cached pages of
        #: an older generation are built again (:mod:`truco.web.fresh`).
        self.generation = 0

    def start(self) -> None:
        """Start the background jobs: unloading idle tables, the bots' watchdog, the purge."""
        self._tasks = [
            asyncio.create_task(self._every(30.0, self._sweep), name="truco-sweep"),
            asyncio.create_task(self._every(WATCH_EVERY, self._watch), name="truco-watchdog"),
            asyncio.create_task(self._every(PURGE_EVERY, self.purge), name="truco-purge"),
        ]

    @staticmethod
    async def _every(seconds: float, job: Any) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except Exception:
                log.exception("background job %s failed", getattr(job, "__name__", job))

    async def _sweep(self) -> None:
        self.sweep()

    async def _watch(self) -> None:
        self.watch()

    def watch(self) -> int:
        """The watchdog: restart the bot loop of every table whose turn is a bot's and whose
        loop is gone; fail moves thinking far past their budget (a hung worker). Returns how
        many tables it restarted."""
        restarted = 0
        grace = self.settings.bot_watchdog
        for table in list(self.live.values()):
            if table._storing:  # a person's action is being stored: its handler starts them
                continue
            had_loop = table.bots.task is not None
            if table.bots.kick():
                table.bot_restarts += 1
                restarted += 1
                if had_loop:  # it stopped on a bot's turn: that should not happen
                    log.warning("table %s: the watchdog restarted its bots", table.id)
                else:  # loaded from the database with a bot to move
                    log.info("table %s: the watchdog started its bots", table.id)
        self.runner.fail_stuck(grace)
        return restarted

    async def purge(self) -> int:
        """Delete finished and abandoned tables past their retention (not the live ones)."""
        s = self.settings
        keep = set(self.live)
        gone = await asyncio.to_thread(
            self.store.purge, s.purge_finished_days, s.purge_abandoned_hours, keep
        )
        if gone:
            log.info("purged %d old tables", gone)
        return gone

    def _room(self) -> None:
        """Make room for one more live table, or :class:`ServerFull`."""
        if len(self.live) < self.settings.max_live_tables:
            return
        self.sweep(force=True)
        if len(self.live) >= self.settings.max_live_tables:
            raise ServerFull("this server holds as many tables as it can; try again later")

    async def create(
        self,
        *,
        variant: str,
        players: int,
        target: int | None,
        options: dict[str, Any],
        bot_level: str,
        seats: Sequence[tuple[str, str | None]],
        clock_seconds: int | None = None,
        public: bool = False,
        account: Signed | None = None,
        rated: bool = True,
        seat_accounts: Sequence[Signed | None] | None = None,
        host: int | None = None,
    ) -> tuple[Table, dict[int, str]]:
        """A new table; ``seats`` holds (kind, name) per seat. Returns it and the seat secrets.

        ``host`` is the seat of the person opening it, who hosts it (by default the first
        person's seat); a signed-in ``account`` sits there.

        ``seat_accounts`` (one per seat; used instead of ``account``) ties each person's seat
        that has one to that account, with its name (matchmaking, issue 50).

        Raises :class:`TrucoError` for rules or seats that make no sense.
        """
        if bot_level not in BOT_LEVELS:
            raise TrucoError(f"bot level must be one of {', '.join(BOT_LEVELS)}")
        if self.drain.draining:
            raise Draining("this server is draining; try again")
        settings: dict[str, Any] = dict(options)
        for key in ("players", "target"):
            if key in settings:
                raise TrucoError(f"options: {key} is given on its own")
        settings["players"] = players
        if target is not None:
            settings["target"] = target
        kinds = [kind for kind, _ in seats]
        try:
            seconds = clock.check_seconds(
                clock.default_seconds(kinds) if clock_seconds is None else clock_seconds
            )
        except ValueError as e:
            raise TrucoError(str(e)) from None
        if clock.KEY in settings or lobby.KEY in settings:
            raise TrucoError("options: the clock and public are given on their own")
        if "answer_seats" in settings:
            raise TrucoError("options: answer_seats is the table's own (its people's seats)")
        settings.update(partners.answer_seats(players, kinds))
        rules = variant_with(variant, settings)
        if len(seats) != rules.players:
            raise TrucoError(f"seats: {len(seats)} seats for {rules.players} players")
        if seat_accounts is not None and len(seat_accounts) != len(seats):
            raise TrucoError(f"seat_accounts: {len(seat_accounts)} for {len(seats)} seats")
        people = [i for i, kind in enumerate(kinds) if kind == "human"]
        if host is not None and host not in people:
            raise TrucoError(f"host: seat {host} is not a person's seat (people sit at {people})")
        creator = host if host is not None else (people[0] if people else None)
        secrets_by_seat: dict[int, str] = {}
        stored: list[SeatData] = []
        for i, (kind, name) in enumerate(seats):
            if kind == "human":
                secret = secrets.token_urlsafe(18)
                secrets_by_seat[i] = secret
                owner = seat_accounts[i] if seat_accounts is not None else None
                if owner is not None:
                    seat = SeatData("human", None, owner.name, hash_token(secret))
                    stored.append(dataclasses.replace(seat, account_id=owner.account_id))
                    continue
                if seat_accounts is None and account is not None and i == creator:
                    # A signed-in creator sits at their own seat, as their account.
                    seat = SeatData("human", None, account.name, hash_token(secret))
                    stored.append(dataclasses.replace(seat, account_id=account.account_id))
                    continue
                shown = clean_name(name) if name else f"Jugador {i + 1}"
                stored.append(SeatData("human", None, shown, hash_token(secret)))
            elif kind == "bot":
                stored.append(SeatData("bot", bot_level, f"Bot {i + 1}", None))
            else:
                raise TrucoError(f"seats: seat {i} must be human or bot, not {kind!r}")
        overrides = {k: v for k, v in settings.items() if k not in ("players", "target")}
        table = await self.open_table(
            rules, bot_level, stored, overrides, seconds, public, rated=rated, host=creator
        )
        return table, secrets_by_seat

    async def open_table(
        self,
        rules: Rules,
        bot_level: str,
        stored: list[SeatData],
        options: dict[str, Any],
        clock_seconds: int,
        public: bool,
        rated: bool = False,
        deal: tuple[int, str | None] | None = None,
        host: int | None = None,
    ) -> Table:
        """A new table, live here (a created one or a rematch): its id, seed and deal secret,
        this node's lease on it (a cluster), its row in the database. ``options`` are the
        rule options other than players and target.

        ``deal`` is the (seed, deal secret) to use instead of fresh random ones. With no
        secret the table deals every hand from the seed alone (as tables before issue 16 do),
        so every table opened with that seed and rules deals the same cards in hand *n*
        whatever is played: the deal of the day (:mod:`truco.web.daily`). ``host`` is the
        creator's seat (by default the first person's)."""
        if self.drain.draining:
            raise Draining("this server is draining; try again")
        self._room()
        table_id = secrets.token_urlsafe(9)
        seed, deal_secret = (_seed(), deals.new_secret()) if deal is None else deal
        await self._claim(table_id, new=True)
        saved = {**options, clock.KEY: clock_seconds} if clock_seconds else dict(options)
        if public:
            saved[lobby.KEY] = True
        if host is not None:
            saved[lobby.HOST_KEY] = host

        def insert(conn: Any) -> None:
            Store.insert_table(
                conn,
                table_id=table_id,
                variant=rules.name,
                players=rules.players,
                target=rules.target,
                options=saved,
                seed=seed,
                bot_level=bot_level,
                engine=__version__,
                seats=stored,
                deal_secret=deal_secret,
                rated=rated,
            )

        await self.writer.run(insert)
        table = Table(
            self,
            table_id,
            rules,
            seed,
            bot_level,
            [Seat.of(s) for s in stored],
            options,
            deal_secret=deal_secret,
            clock_seconds=clock_seconds,
            rated=rated,
        )
        table.deal_news()  # what the table has committed to so far goes out on hello
        table.public = public
        table.creator = lobby.host_of(saved, table.clock.people)
        self.generation += 1
        self._room()
        self.live[table_id] = table
        table.bots.kick()
        return table

    async def get(self, table_id: str) -> Table | None:
        """The live table, loading it from the database (once) if it is not in memory."""
        table = self.live.get(table_id)
        if table is not None:
            table.last_active = time.monotonic()  # not swept while its caller says hello
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            if self.drain.draining:
                raise Draining("this server is draining; try again")
            self._room()
            await self._claim(table_id, new=False)
            data = await asyncio.to_thread(self.store.load, table_id)
            table = None if data is None else self._resume(data)
            if table is not None:
                self._room()
                self.live[table_id] = table
            future.set_result(table)
            return table
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            del self._loading[table_id]

    def _resume(self, data: TableData) -> Table:
        if data.engine != __version__ and data.engine not in self.settings.compatible_engines:
            raise Incompatible(
                f"this table was dealt by truco {data.engine}; this server runs truco "
                f"{__version__}, which may deal and referee it differently, so it cannot "
                "resume it exactly"
            )
        stored, seconds = clock.split(dict(data.options))
        creator = lobby.host_of(stored, [i for i, s in enumerate(data.seats) if s.kind == "human"])
        stored, public = lobby.split(stored)
        options: dict[str, Any] = dict(stored)
        options["players"] = data.players
        options["target"] = data.target
        rules = variant_with(data.variant, options)
        table = Table(
            self,
            data.id,
            rules,
            data.seed,
            data.bot_level,
            [
                Seat(s.kind, s.bot, s.name, s.token_hash, account_id=s.account_id)
                for s in data.seats
            ],
            stored,
            deal_secret=data.deal_secret,
            clock_seconds=seconds or 0,
            rated=data.rated,
        )
        table.public = public
        table.creator = creator
        table.replay(data.actions)
        table.deal_news()  # published before the restart; hello sends it again
        log.info("table %s resumed at seq %d", data.id, table.seq)
        return table

    def sweep(self, force: bool = False) -> int:
        """Drop idle tables from memory (they stay stored); the number dropped. ``force``
        drops every table nobody is at, however recently it was used."""
        now = time.monotonic()
        idle = [
            t
            for t in self.live.values()
            if t.connections() == 0
            and (t.bots.task is None or t.bots.task.done())
            and (force or now - t.last_active > self.settings.idle_unload)
            and not t.lock.locked()
            and not t._storing
        ]
        for t in idle:
            t.clock.stop()  # no timer may wake a table that is no longer live
            del self.live[t.id]
        if idle:
            self._released([t.id for t in idle])
        return len(idle)

    # -------------------------------------------------------------- a cluster's hooks
    # One process (the default) owns every table: these do nothing. On a cluster
    # (:class:`truco.web.cluster.ClusterTables`) they take, renew and give up leases.

    async def _claim(self, table_id: str, new: bool) -> None:
        """Before a table is created or loaded here: make this node its owner (or raise)."""

    def fence_of(self, table_id: str) -> int | None:
        """The fencing token this node commits ``table_id``'s actions with (None: no check)."""
        return None

    def _released(self, table_ids: list[str]) -> None:
        """These tables left this node's memory: give up their leases (soon)."""

    async def _give_up(self, table_ids: list[str]) -> None:
        """Give up the leases of these tables, which left this node's memory, now."""

    def disown(self, table: Table) -> None:
        """Another node owns ``table`` now: forget it and close its connections (1012), so
        its clients reconnect to whoever owns it."""
        if self.live.get(table.id) is table:
            del self.live[table.id]
        if table.bots.task is not None and not table.bots.task.done():
            table.bots.task.cancel()
        for conn in table.everyone():
            conn.drop(ops.RESTART)
        log.warning("table %s: another node owns it now; let go", table.id)

    async def relayed_for(self, header: str, table_id: str) -> str | None:
        """The client address a cluster node vouches for in a relayed connection's header,
        or None (one process relays nothing)."""
        return None

    async def sign_relay(self, address: str, table_id: str) -> str:
        """The header a cluster node sends with a connection it relays."""
        return ""

    async def view(self, table_id: str) -> Table | None:
        """A table for reading (the HTTP API): here, the live one (see :meth:`get`)."""
        return await self.get(table_id)

    async def drain_all(self) -> None:
        """SIGTERM: take no table any more, let in-flight commits finish, close every
        connection with 1012 (clients reconnect elsewhere) and give up every lease."""
        self.drain.start()
        log.info("draining: %d live tables", len(self.live))
        tables = list(self.live.values())
        tasks = [t.bots.task for t in tables if t.bots.task and not t.bots.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for table in tables:
            async with table.lock:  # an action being committed finishes first
                for conn in table.everyone():
                    conn.drop(ops.RESTART)
                if self.live.get(table.id) is table:
                    del self.live[table.id]
        await self._give_up([t.id for t in tables])
        log.info("drained")

    async def lobby_listing(self) -> list[dict[str, Any]]:
        """The open public tables with a free seat (:func:`truco.web.lobby.listing`); a cluster
        node lists every node's."""
        return lobby.listing(self)

    async def close(self) -> None:
        for job in self._tasks:
            job.cancel()
        for table in self.live.values():
            table.clock.stop()
        tasks = [t.bots.task for t in self.live.values() if t.bots.task and not t.bots.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
