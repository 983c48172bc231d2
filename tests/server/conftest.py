"""Fixtures for the API tests: the app on the session's real Redis, and a started table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from api_helpers import Table, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app


@pytest.fixture(scope="session")
def app(redis_url: str) -> Iterator[Flask]:
    app = create_app({"REDIS_URL": redis_url})
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return make_table(client, 3, seed="fixture")


@pytest.fixture(scope="session")
def accounts_app(redis_url: str) -> Iterator[Flask]:
    """The app with cheap password hashing and no sweeper thread (tests sweep themselves)."""
    from account_helpers import FAST

    app = create_app({"REDIS_URL": redis_url, **FAST})
    app.testing = True
    yield app


@pytest.fixture
def aclient(accounts_app: Flask) -> FlaskClient:
    return accounts_app.test_client()
