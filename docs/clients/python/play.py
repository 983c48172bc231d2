"""A whole game of Hanabi through a client generated from openapi.yaml, nothing else.

Generate the client (https://github.com/openapi-generators/openapi-python-client), then
play two seats against a server until the game ends:

    pip install openapi-python-client
    openapi-python-client generate --path openapi.yaml --meta none --output-path hanabi_api
    python docs/clients/python/play.py http://127.0.0.1:8000

Everything below is the generated package's calls and models; the one hand-written
decision is :func:`choose` (which legal move to make). The test suite runs this very file
against a live server (tests/contract/test_generated_clients.py), so it cannot go stale.
"""

from __future__ import annotations

import sys
from typing import TypeVar

from hanabi_api import AuthenticatedClient, Client
from hanabi_api.api.games import (
    act,
    create_game,
    export_game,
    get_game,
    join_game,
    start_game,
    stream_game,
)
from hanabi_api.models import (
    ClueRequest,
    CreateGame,
    DiscardRequest,
    GameView,
    GameViewStatus,
    HanabLiveGame,
    Join,
    PlayRequest,
    Problem,
    SeatGrant,
    Start,
)

Move = PlayRequest | DiscardRequest | ClueRequest
T = TypeVar("T")


def choose(legal: list[Move]) -> Move:
    """The only hand-written part: discard the first card that may be discarded, else
    give the first legal clue (a dull but complete game)."""
    discards = [m for m in legal if isinstance(m, DiscardRequest)]
    clues = [m for m in legal if isinstance(m, ClueRequest)]
    return (discards or clues or legal)[0]


def ok(answer: T | Problem | None) -> T:
    """The answer, unless the server said a problem (RFC 9457) or nothing documented."""
    if isinstance(answer, Problem):
        raise SystemExit(f"{answer.status} {answer.code}: {answer.detail}")
    if answer is None:
        raise SystemExit("an answer the contract does not document")
    return answer


def main(base_url: str) -> int:
    # Creating and joining take a credential or none (the seat's token comes back, shown
    # once); the generator types every operation that takes a bearer token as wanting
    # an AuthenticatedClient, and a plain Client is what "none" means.
    anyone = Client(base_url=base_url, raise_on_unexpected_status=True)
    host = ok(create_game.sync(client=anyone, body=CreateGame(name="Ann", max_players=2)))
    guest = ok(join_game.sync(host.id, client=anyone, body=Join(name="Bob")))
    assert isinstance(host, SeatGrant) and isinstance(guest, SeatGrant)
    seats = {
        grant.seat: AuthenticatedClient(
            base_url=base_url, token=grant.token, raise_on_unexpected_status=True
        )
        for grant in (host, guest)
    }
    view = ok(start_game.sync(host.id, client=seats[host.seat], body=Start()))
    moves = 0
    while view.status is not GameViewStatus.FINISHED:
        seat = view.current_seat
        assert seat is not None
        view = ok(get_game.sync(host.id, client=seats[seat]))
        assert isinstance(view, GameView)
        # A legal action is a request as it is (it carries the turn): send it back.
        result = ok(act.sync(host.id, client=seats[seat], body=choose(view.legal_actions)))
        view = result.game
        moves += 1
    assert view.result is not None
    print(f"game {host.id} over after {moves} moves: score {view.result.score}")

    export = ok(export_game.sync(host.id, client=seats[host.seat]))
    assert isinstance(export, HanabLiveGame)
    print(f"export: {len(export.actions)} actions, {len(export.deck)} cards, {export.players}")

    # The stream is text/event-stream: the generated call hands back its raw text. A
    # finished game's stream sends its events, the view, then `event: end`, and closes.
    stream = stream_game.sync_detailed(host.id, client=seats[guest.seat], after=0)
    kinds = [line.split(":", 1)[1].strip() for line in stream.content.decode().splitlines()
             if line.startswith("event:")]  # fmt: skip
    print(f"stream: {len(kinds)} messages, the last {kinds[-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"))
