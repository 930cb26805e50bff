"""The headers every answer carries, and the refusal of cross-site state changes: a plain
ASGI middleware (Starlette's ``@app.middleware("http")`` costs a task and a stream per
request, on every request of the server's hot path)."""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from truco.web.auth import UNSAFE, same_origin
from truco.web.limits import plain_answer
from truco.web.settings import Settings

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Guard:
    """Add :data:`HEADERS` to every HTTP answer; refuse (403) a state-changing request that
    another site's page sent (its ``Origin`` is not this site: cross-site request forgery)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        if scope["method"] in UNSAFE and not same_origin(HTTPConnection(scope), self.settings):
            await plain_answer(with_headers, 403, "cross-site request refused")
            return
        await self.app(scope, receive, with_headers)
