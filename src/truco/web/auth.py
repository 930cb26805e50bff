"""Who a request comes from: passwords, session cookies, cross-site request forgery and the
sign-in rate limits (issue 50).

- Passwords are hashed with Argon2id (``argon2-cffi``) at OWASP's parameters (19 MiB, two
  passes: about 20 ms of one core), off the event loop.
- A session is a random cookie (``truco_session``: HttpOnly, SameSite=Lax, ``Secure`` when
  the site is served over https), stored only as its SHA-256.
- A state-changing request that a session cookie authenticates must carry that session's
  token in ``X-CSRF-Token`` (the page reads it from ``GET /api/me``; another site cannot),
  and every state-changing request whose ``Origin`` is another site's is refused.
- Sign-in is rate-limited per client address and per name, and its answers are the same
  whether the name exists or not (an unknown name is checked against a dummy hash, so even
  the time taken tells nothing).
"""

from __future__ import annotations

import asyncio
import hmac
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import HTTPException, Request, Response
from starlette.requests import HTTPConnection

from truco.web import people
from truco.web.connection import hash_token
from truco.web.limits import Window, take_or_429
from truco.web.names import name_key
from truco.web.settings import Settings
from truco.web.store import Store
from truco.web.writer import Writer

T = TypeVar("T")

COOKIE: Final = "truco_session"
CSRF_HEADER: Final = "X-CSRF-Token"
UNSAFE: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The answer to a failed sign-in, whatever failed (no such name, wrong password).
WRONG: Final = "wrong name or password"
#: Seconds a session looked up is trusted without asking the database again, and how many
#: are kept.
SESSION_TTL: Final = 10.0
MAX_SESSIONS_KEPT: Final = 20_000


def hasher() -> PasswordHasher:
    """Argon2id at OWASP's recommended minimum (m=19 MiB, t=2, p=1)."""
    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def same_origin(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether the request's ``Origin`` (when it has one) is this site: the base URL when
    set, else the scheme and ``Host`` the browser used (a page of another site sends its
    own origin, which it cannot forge)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    if settings.base_url:
        return origin.rstrip("/").lower() == settings.base_url.rstrip("/").lower()
    host = conn.headers.get("host", "")
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    return origin.lower() == f"{scheme}://{host}".lower()


class Auth:
    """The accounts' gatekeeper of one server (its rate limits are this process's)."""

    def __init__(self, settings: Settings, store: Store, writer: Writer) -> None:
        self.settings = settings
        self.store = store
        self.writer = writer
        self.hasher = hasher()
        #: Argon2 runs in threads of its own (it releases the GIL), as many as the cores, so
        #: a burst of sign-ins queues here and never holds up the reads of other requests in
        #: the event loop's default pool.
        self._hashing = ThreadPoolExecutor(
            max_workers=max(1, os.cpu_count() or 1), thread_name_prefix="truco-argon2"
        )
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        quarter = 900.0
        self.by_address = Window(settings.signins_per_address, quarter)
        self.by_name = Window(settings.signins_per_name, quarter)
        self.signups = Window(settings.signups_per_address_per_hour, 3600.0)
        #: Sessions looked up lately: cookie hash -> (until when, who), so that a page's
        #: requests do not each ask the database. A session ended here is forgotten at
        #: once; one ended on another node of a cluster lasts here :data:`SESSION_TTL` more.
        self._sessions: OrderedDict[str, tuple[float, people.Signed | None]] = OrderedDict()

    # ------------------------------------------------------------------ passwords

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    async def _hashed(self, job: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._hashing, job)

    async def hash(self, password: str) -> str:
        return await self._hashed(lambda: self.hasher.hash(password))

    def close(self) -> None:
        self._hashing.shutdown(wait=False, cancel_futures=True)

    def _check(self, key: str, password: str) -> tuple[int, str, str] | None:
        """(id, name, stored hash) if ``password`` is the account's: the look-up and the
        hash in one job of the hashing threads (the same work whether the name exists)."""
        found = people.credentials(self.store.engine, key)
        stored = None if found is None else found[2]
        return found if self._verify(stored, password) else None

    async def check(self, name: str, password: str) -> tuple[int, str] | None:
        """(account id, name) if ``password`` is that account's."""
        key = name_key(name)
        found = await self._hashed(lambda: self._check(key, password))
        if found is None:
            return None
        account_id, shown, stored = found
        if self.hasher.check_needs_rehash(stored):
            rehashed = await self.hash(password)
            await self.writer.run(lambda c: people.set_password_hash(c, account_id, rehashed))
        return account_id, shown

    def throttle(self, address: str, name: str) -> None:
        """Count a sign-in attempt, or 429 when the address or the name has had too many."""
        for window, key in ((self.by_address, address), (self.by_name, "n:" + name_key(name))):
            take_or_429(window, key, "too many sign-in attempts")

    # ------------------------------------------------------------------ sessions

    async def open_session(self, account_id: int) -> tuple[str, str]:
        """A new session for the account: (its cookie's secret, its CSRF token)."""
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        digest = hash_token(token)
        lifetime = timedelta(days=self.settings.session_days)
        await self.writer.run(lambda c: people.new_session(c, account_id, digest, csrf, lifetime))
        return token, csrf

    def set_cookie(self, response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(self.settings.session_days * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.settings.https,
        )

    def clear_cookie(self, response: Response) -> None:
        response.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=self.settings.https
        )

    async def signed(self, conn: HTTPConnection) -> people.Signed | None:
        """Who the session cookie says sent this request or WebSocket (None: a guest, or a
        cookie that is unknown, expired, or sent from another site's page)."""
        token = conn.cookies.get(COOKIE)
        if not token or len(token) > 128 or not same_origin(conn, self.settings):
            return None
        digest = hash_token(token)
        now = time.monotonic()
        hit = self._sessions.get(digest)
        if hit is not None and hit[0] > now:
            return hit[1]
        who = await asyncio.to_thread(people.session, self.store.engine, digest)
        self._sessions[digest] = (now + SESSION_TTL, who)
        self._sessions.move_to_end(digest)
        while len(self._sessions) > MAX_SESSIONS_KEPT:
            self._sessions.popitem(last=False)
        return who

    def forget_session(self, digest: str) -> None:
        self._sessions.pop(digest, None)

    def forget_account(self, account_id: int) -> None:
        for digest, (_, who) in list(self._sessions.items()):
            if who is not None and who.account_id == account_id:
                del self._sessions[digest]

    async def acting(self, request: Request) -> people.Signed | None:
        """Who a state-changing request acts for: its session, which must then carry its
        CSRF token (403 otherwise); None for a guest."""
        who = await self.signed(request)
        if who is None:
            return None
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), who.csrf.encode()):
            raise HTTPException(403, f"cross-site request refused: send the {CSRF_HEADER} header")
        return who

    async def required(self, request: Request) -> people.Signed:
        """Like :meth:`acting`, for what only a signed-in person may do (401 otherwise)."""
        who = await self.acting(request)
        if who is None:
            raise HTTPException(401, "sign in first")
        return who
