"""The game service: the rules of the table, in plain Python (no Flask, no HTTP).

Every rule of the game comes from :mod:`hanabi.game`; the table decides who may ask for
what, turns requests into engine calls, and commits the result atomically through the
storage (:mod:`hanabi.server.storage`). It says no by raising a
:class:`~.refusals.Refused`. Its parts, each given what it needs by the composition
(:mod:`hanabi.server.app`, which gathers them in :class:`~.services.Services`):

- :mod:`.reads`: records, views, the event log, exports, replays, waiting for changes;
  :mod:`.listing`: the listing of games; :mod:`.rendering`: views, summaries, ETags;
- :mod:`.writes`: the compare-and-set write loop every change goes through;
- :mod:`.lobby`: create, join, bots, leave, start; :mod:`.seats`: tokens, names, seating;
- :mod:`.play`: actions and their retries, chat; :mod:`.votes`: votes to end a game;
- :mod:`.clocks`, :mod:`.deadlines`: timed and idle games, ended when a deadline passes;
- :mod:`.bots`: the worker threads that play bot turns and enforce deadlines;
- :mod:`.accounts`, :mod:`.login_limits`: accounts, sessions, API keys, failed logins;
- :mod:`.rated`, :mod:`.ratings`, :mod:`.settle`, :mod:`.stats`, :mod:`.leaving`: rated
  tables, the rating model, settling finished games, profiles, deleted accounts.
"""
