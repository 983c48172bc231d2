"""Every namespace of routes, in the order the app registers them and the OpenAPI
document lists them. Its own module because the account routes use :mod:`.api`'s
helpers: listed at the foot of ``api.py``, importing ``account_api`` first met a cycle.
"""

from __future__ import annotations

from .accounts import ACCOUNT_NAMESPACES
from .games import games, system

NAMESPACES = (system, games, *ACCOUNT_NAMESPACES)
