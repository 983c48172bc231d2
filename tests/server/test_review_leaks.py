"""An attacker's review of the recent features: each test is a way a player tried to learn
what is hidden from them (their own cards, another seat's notes...) or to act where they
may not, through the real API."""

from __future__ import annotations

from api_helpers import make_table
from flask.testing import FlaskClient

from hanabi.server.table.seeds import parse


def test_a_seat_cannot_copy_its_random_seed_to_see_its_own_cards(client: FlaskClient) -> None:
    """The deal of a seed is the same at every table that names it: a seat that read its
    own table's seed name while the game is on could open a second table on that name and
    look at its own hand there. While the game goes on, a random seed's name stays hidden."""
    table = make_table(client, 2)
    mine = table.view(1)["hands"][0]  # seat 0's cards, as seat 1 sees them
    for seat in (0, 1):
        name = table.view(seat).get("seed")
        if name is not None and parse(name) is not None:
            copy = make_table(client, 2, seed=name)
            assert copy.view(1)["hands"][0] != mine, "seat 0 saw its own cards on a copy"
    table.end()
    assert parse(table.view(0)["seed"]) is not None  # once over, the name is the seat's
