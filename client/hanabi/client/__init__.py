"""The Hanabi client: a small library over the REST API, and the terminal client built on
it (the ``hanabi-client`` command).

The library: :mod:`.api` is its face (:class:`~.api.Client`, :class:`~.table.Table` and
what they return and raise); the calls live in :mod:`.games` and :mod:`.accounts`, sent
through :mod:`.transport`, the event stream in :mod:`.sse`.

The terminal: :mod:`.cli` has one module per command; sitting at a table is
:mod:`.session` (with :mod:`.follow`, :mod:`.keyboard`, :mod:`.screen` and
:mod:`.table_commands`), drawing is :mod:`.render`, moves in words :mod:`.narrate`, and
``hanabi-client bot``'s player :mod:`.bot`. Nothing here imports the server; only the
bot imports the rules engine and the bots (``hanabi-core``).
"""
