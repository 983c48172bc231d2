"""Importing a hanab.live game: its JSON export becomes a finished game here (docs/history.md).

The document is the one hanab.live's ``/export/<id>`` gives and ours writes
(``GET /games/{id}/export``, :mod:`hanabi.game.hanablive`): players, deck, actions,
options, and optionally ``notes`` (per seat, per card order). Our engine replays it; a
document the rules refuse (an illegal move, a deck that is not the variant's, a game that
did not end) is refused with the engine's code, and nothing is stored.

The game is stored as any finished game is (its archive: the deal and the action log), so
its replay, its export, its notes and shared replay rooms work as they do for a game
played here. It is marked ``imported``: it never settles (no rating, no statistics), is on
no leaderboard, no seed page and no variant page's counts; the history lists it with
``imported: true``. Its seats have no tokens and no accounts; the importing account may
tag it.
"""

from __future__ import annotations

from typing import Any

from hanabi.game import ActionKind, Game, HanabiError, import_game

from ..ops.times import now_ms
from ..storage.archive import encode_action
from ..storage.imports import ImportStore
from ..storage.record import GameStatus, Player, Record
from ..storage.slots import new_game_id
from ..storage.store import VersionConflict
from .accounts import Account
from .history import History, deal_digest
from .notes import NOTE_MAX
from .refusals import Forbidden, Invalid, Unauthorized, Unavailable, from_engine
from .seats import check_name
from .writes import WriteLoop


class Imports:
    """Turning a hanab.live document into a finished game here."""

    def __init__(self, writes: WriteLoop, store: ImportStore, history: History) -> None:
        self.writes = writes
        self.store = store
        self.history = history

    def run(self, data: Any, account: Account | None) -> Record:
        """Replay ``data`` and store it as a finished, imported game."""
        if account is None:
            raise Unauthorized(
                "account_required",
                "Importing a game needs an account: send an account's session token or API "
                "key as Bearer.",
            )
        try:
            played = import_game(data, catalogue_names=True)
        except HanabiError as exc:
            raise from_engine(Invalid, exc) from None
        if not played.is_over:
            raise Invalid(
                "import_not_finished",
                "This game did not end (its last action leaves it on): only finished games "
                "can be imported.",
            )
        names = [check_name(name) for name in played.setup.players]
        deck = [list(card) for card in played.setup.deck or ()]
        if self.history.store.deal_seed(deal_digest(played.setup.variant, deck)) is not None:
            # A seed's cards are shown only to those who finished it (docs/seeds.md): an
            # import would show them to everyone, and anyone may deal the seed by name.
            raise Forbidden(
                "seed_deal_import",
                "This deal is one of this server's named seeds: its cards are shown only to "
                "players who finished it, so it cannot be imported.",
            )
        game = Game(played.setup)
        event_count = len(game.deal_events())
        log = []
        for action in played.actions:
            seat = game.current
            terminate = action.type == ActionKind.TERMINATE
            event_count += len(game.apply(action, None if terminate else seat))
            log.append(encode_action(seat, action))
        now = now_ms()
        result = dict(game.result or {})
        for _ in range(8):
            record = Record(
                id=new_game_id(),
                status=GameStatus.FINISHED,
                variant=game.setup.variant,
                options=game.setup.options.to_dict(),
                max_players=len(names),
                seed=game.setup.seed,
                deck=deck,
                host=0,
                created=now,
                updated=now,
                players=[Player(name) for name in names],
                turn=game.turn,
                event_count=event_count,
                score=result.get("score", game.score),
                result=result,
                compact_log=log,
                table_events=[],
                custom_deal=True,  # its deal is known: it is nobody's challenge
                imported=True,
            )
            try:
                self.writes.store.commit(record, 0)
            except VersionConflict:
                continue
            self.store.put_notes(record.id, _notes(data, len(names), len(game.deck)))
            self.writes.store.index(record, None)
            self.history.record(record, imported=True, by=account.id)
            return record
        raise Unavailable("busy", "Could not allocate a game id; try again.")


def _notes(data: dict[str, Any], seats: int, deck: int) -> list[dict[int, str]]:
    """hanab.live's ``notes`` (a list per seat of texts per card order), bounded as notes
    written here are (:data:`NOTE_MAX` characters, one per card); anything else is left out."""
    raw = data.get("notes")
    out: list[dict[int, str]] = [{} for _ in range(seats)]
    if not isinstance(raw, list):
        return out
    for seat, texts in enumerate(raw[:seats]):
        if not isinstance(texts, list):
            continue
        for order, text in enumerate(texts[:deck]):
            if isinstance(text, str) and text.strip():
                out[seat][order] = text.strip()[:NOTE_MAX]
    return out
