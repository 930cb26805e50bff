"""The browser game: ``truco serve`` (issue 5).

An ASGI app (FastAPI, served by uvicorn) where people play truco with friends and bots. The
server is the only referee: browsers send intentions over a WebSocket, the engine validates
them, and every seat and spectator receives views built only from
:meth:`truco.match.Match.observation` (docs/rules.md §10). Tables are stored as their rules, seed
and append-only action log (SQLite by default, PostgreSQL when the database URL says so) and
resume by replaying that log on a fresh :class:`~truco.match.Match`.

===================  ==========================================================================
module               what it holds
===================  ==========================================================================
``protocol``         the typed WebSocket messages and their strict parser (``docs/protocol.md``)
``views``            what a seat or a spectator is sent: built from an ``Observation`` only
``store``            reads and writes of tables: rules, seed, seats, the append-only action log
``writer``           the one thread that writes, with group commit
``bots``             bot levels and the executor that runs bots off the event loop
``tables``           a live table (match, seats, pacing) and the registry that loads and unloads
``connection``       one WebSocket: its seat, its outbox (newest state only), its rate limit
``downloads``        ``.truco`` records offered for download, when they may be, built off the loop
``limits``           the request-body limit and the counters behind the caps per client
``app``              routes: pages, JSON API, the WebSocket
``schema``           the database's tables; ``migrate``: the Alembic migrations that make them
``names``            account names (unique after NFKC and case folding) and passwords' length
``auth``             passwords (Argon2id), session cookies, CSRF, the sign-in rate limits
``people``           accounts, sessions, ratings, profiles and leaderboards in the database
``ratings``          Weng-Lin ratings (``openskill``): who is rated and how a game moves them
``account_routes``   the routes of accounts, profiles and leaderboards
``replays``          a finished game's positions, action by action; ``game_routes``: its routes
``matchmaking``      the "Jugar con alguien" queues; ``queue_routes``: their routes
``guard``            security headers, and cross-site state changes refused
``fresh``            profiles and leaderboards kept a few seconds as bytes
``server``           uvicorn with the app; ``command``: the ``truco serve`` arguments
``settings``         database URL, bot pacing and executor, and every cap with its default
===================  ==========================================================================

The web layer holds no rules: legality, scoring and hidden information
all come from the engine. Import :func:`truco.web.app.create_app` to embed the app.
"""
