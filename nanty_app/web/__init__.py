"""The browser UI of ``nanty serve`` — play against bots, watch bots play, watch recorded games.

A Starlette app on uvicorn (the ``web`` extra) serving one page (plain HTML and JavaScript in
``nanty_app/static``, no build step) and a small JSON API:

=======  ==================================  ===============================================
GET      /api/bots                           the bots one can play against, the trained
                                            policies a watched game may seat (``policies``:
                                            names and rulesets; only with ``--allow-policy``)
                                            and the game menu (``games``: the rulesets offered,
                                            ``nanty serve --expansion``, with their titles)
POST     /api/games                          a new game: ``{"bots": [...], "seed": 1}``
                                            (``"expansion": "cthulhu"``, ``"theme"``,
                                            ``"personalities"``); bots are specs such as
                                            ``ismcts:time=1`` that ``untrusted_spec`` allows
                                            under ``WEB_LIMITS`` (bounded, no paths)
GET      /api/games/{id}                     the game as the person's seat sees it (the seed
                                            and the record's name once it is over)
POST     /api/games/{id}/act                 the person's action: ``{"action": 17}``
POST     /api/games/{id}/advance             let the bots take up to ``{"max": n}`` decisions,
                                            for about ``ADVANCE_SECONDS`` at most; the answer
                                            says how many were taken (``moved``)
POST     /api/watch                          a game of bots to watch: ``{"bots": [2 to 4
                                            specs], "view": "all"}`` (and the fields of a new
                                            game); ``policy:path="NAME"`` only for a
                                            checkpoint inside the ``--allow-policy`` folder
GET      /api/watch/{id}?view=&since=        the watched game as ``view`` shows it: ``all``
                                            (everything revealed, as a replay), ``public``
                                            (what every seat knows) or a seat (that seat's
                                            view); the moves from ``since`` on
POST     /api/watch/{id}/advance             as for a game (``{"max": n, "view", "since"}``)
GET      /api/records                        the records in the records folder (but those of
                                            games being played here) and the uploaded ones,
                                            each with its ruleset, players, bots, winners, date
POST     /api/records                        upload a record (its JSON, up to ``MAX_UPLOAD``
                                            bytes) to watch; the last ``MAX_UPLOADS`` are
                                            kept, ``MAX_UPLOADS_BYTES`` in all
GET      /api/records/{name}/step/{k}        the recorded game after ``k`` actions, revealed
=======  ==================================  ===============================================

What a game's answers show is what the person's seat may know: its view of the board, every
move in words that seat may read, and whether its own decisions were forced (a single legal
action). Until the game is over they carry no seed, no record name and no forced flag of another
seat (an interrupt window with one legal answer tells that its seat held no card to block), and
the records endpoints neither list nor step the record of a game still being played here.
A watched game seats no person: it hides nothing from a spectator who reveals everything, and
from one who follows a seat (or the public view) all that seat (every seat) may not know, the
seed included until the game is over. At most ``MAX_WATCHED`` are kept (one over, or left alone
for ``WATCH_IDLE`` seconds, makes room for a new one; else 429).

Bad requests get a 4xx answer ``{"error": "..."}`` and change nothing: malformed JSON or fields
400 (also bots the web may not ask for, or that cannot play the game asked for), a request from
another web site (an ``Origin`` that is not the page's own) or to a host name the server does not
answer to (a ``Host`` that is not the bound address, ``localhost`` or a loopback address: a
DNS-rebinding page) 403, an unknown game, record or step 404, an action out of turn or a game
whose bots are still moving 409, a body over ``MAX_BODY`` (``MAX_UPLOAD`` for an upload) 413,
read a chunk at a time and refused as soon as it passes, an illegal action 422. An uploaded
record is replayed to its end when it arrives and refused (400) unless it replays exactly as it
says. Anything else that goes wrong is logged and answered with a 500 that names no detail.

Bots think in threads outside the event loop, each game under its own lock, so a slow bot holds
up only its own game: games with slow bots (any but plain ``random`` and ``heuristic``) take
turns for ``BOT_THREADS`` threads, the others never queue behind them, and reading a game never
waits for its bots (it answers the state after the last request that changed it). The server
binds to 127.0.0.1 unless told otherwise; games live in memory (the last ``MAX_GAMES``) and
every one is saved as a record after each of the person's moves.

The modules: ``app`` (the routes), ``guard`` (request bodies, their caps, the host and origin
checks), ``views`` (what a seat and a spectator are shown), ``lobby`` (the games being played),
``watch`` (the games being watched), ``uploads`` (the records to watch, stepped through),
``record_list`` (a record's line in the list), ``seating`` (the bots and config a request asks
for, the bots' turns) and ``policies`` (the ``--allow-policy`` folder). The command is
:mod:`nanty_app.server`.
"""
