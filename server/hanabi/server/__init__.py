"""Flask REST API for Hanabi games (work in progress)."""
