"""The browser game: ``truco serve`` (issue 5).

An ASGI app (FastAPI, served by uvicorn) where people play truco with friends and bots. The
server is the only referee: browsers send intentions over a WebSocket, the engine validates
them, and every seat and spectator receives views built only from
:meth:`truco.match.Match.observation` (RULES.md 10). Tables are stored as their rules, seed
and append-only action log (SQLite by default, PostgreSQL when the database URL says so) and
resume by replaying that log on a fresh :class:`~truco.match.Match`.

=================  ==========================================================================
module             what it holds
=================  ==========================================================================
``protocol``       the typed WebSocket messages and their strict parser (``docs/protocol.md``)
``views``          what a seat or a spectator is sent: built from an ``Observation`` only
``store``          SQLAlchemy 2 tables: rules, seed, seats and the append-only action log
``writer``         the one thread that writes, with group commit
``bots``           bot levels and the executor that runs bots off the event loop
``tables``         a live table (match, seats, pacing) and the registry that loads and unloads
``connection``     one WebSocket: its seat, its outbox (newest state only), its rate limit
``downloads``      ``.truco`` records offered for download, when they may be, built off the loop
``limits``         the request-body limit and the counters behind the caps per client
``app``            routes: pages, JSON API, the WebSocket
``server``         uvicorn with the app; ``command``: the ``truco serve`` arguments
``settings``       database URL, bot pacing and executor, and every cap with its default
=================  ==========================================================================

The web layer holds no rules (STYLE.md lesson 10): legality, scoring and hidden information
all come from the engine. Import :func:`truco.web.app.create_app` to embed the app.
"""
