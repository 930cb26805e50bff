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
*the app and its routes, by concern*
``app``              the ASGI app: middleware, error answers, the routers below
``routing``          what the routers share: the registry, a table or 404, refusals, base URL
``page_routes``      ``/``, ``/t/{id}``, ``/rules/{variant}``; ``static_pages``: their files
``table_routes``     the tables' JSON API (create, join, lobby, facts) and ``.truco`` records
``socket_routes``    ``WS /ws/{id}``: caps per address, the hello deadline, the receive loop
``ops_routes``       ``/healthz`` and ``/readyz`` for operators and balancers
``account_routes``   accounts, profiles and leaderboards
``queue_routes``     "Jugar con alguien": the matchmaking queues (``matchmaking``)
``game_routes``      a finished game's replay (``replays``) and review (``reviews``)
``daily_routes``     the deal of the day (``daily``)
``puzzle_routes``    the puzzles (``puzzle_mining`` finds them in finished games)
``words_routes``     the interface's words, from the one catalog
``app_shell``        the installable app: manifest, service worker; ``icons``: its icons
``bodies``           request bodies of the JSON API, checked field by field
*a table*
``protocol``         the typed WebSocket messages and their strict parser (``docs/protocol.md``)
``views``            what a seat or a spectator is sent: built from an ``Observation`` only
``viewseq``          each viewer's ``seq``: the actions that viewer saw (señas: decision 127)
``tables``           a live table (match, seats, broadcasts) and the registry that loads them
``table_bots``       a table's bot moves: whether a bot is to move, its pace, the retried loop
``connection``       one WebSocket: its seat, its outbox (newest state only), its rate limit
``clock``            the per-move clock and the bot that stands in for a person gone
``lobby``            the lobby, the waiting room and the rematch
``partners``         partners the person trusts: the people answer a call, not their bots
``phrases``          table talk: quick phrases, rate-limited
``deals``            the deal commitments a table publishes, and the seeds it reveals
``recall``           what a table's bots remember: each seat's view at the start of each hand
``bots``             bot levels and the executor that runs bots off the event loop
``lifeline``         a bot worker's tie to its server: it exits when the server dies
``downloads``        ``.truco`` records offered for download, when they may be, built off the loop
*storage and accounts*
``store``            reads and writes of tables: rules, seed, seats, the append-only action log
``writer``           the one thread that writes, with group commit
``schema``           the database's tables; ``migrate``: the Alembic migrations that make them
``names``            account names (unique after NFKC and case folding) and passwords' length
``auth``             passwords (Argon2id), session cookies, CSRF, the sign-in rate limits
``people``           accounts, sessions, ratings, profiles and leaderboards in the database
``ratings``          Weng-Lin ratings (``openskill``): who is rated and how a game moves them
``fresh``            profiles and leaderboards kept a few seconds as bytes
*the edge, the cluster, operations*
``edge``             what a connection may cost before the app sees it (decision 125)
``limits``           the request-body limit and the counters behind the caps per client
``guard``            security headers, and cross-site state changes refused
``cluster``          a node's registry in a cluster; ``lease``: who owns a table (Redis)
``proxy``            a WebSocket relayed to the node that owns its table
``ops``              the node's id, logs that carry it, draining; ``outages``: failures in a line
``server``           uvicorn with the app; ``command``: the ``truco serve`` arguments
``settings``         database URL, bot pacing and executor, and every cap with its default
===================  ==========================================================================

The web layer holds no rules: legality, scoring and hidden information
all come from the engine. Import :func:`truco.web.app.create_app` to embed the app.
"""
