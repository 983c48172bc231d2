"""Flask REST API for Hanabi games: ``create_app(config)`` builds the WSGI app."""

from .app import create_app

__all__ = ["create_app"]
