"""Operations: settings, logs, metrics, the request log, serving with gunicorn, draining,
the embedded Redis and the launcher. Any layer may use its settings, logs and metrics; it
imports none of the layers (:mod:`~hanabi.server.api`, :mod:`~hanabi.server.table`,
:mod:`~hanabi.server.storage`). Importing it loads nothing: gunicorn's master reads the
worker class and the hooks from here before the gevent worker patches the standard library.
"""
