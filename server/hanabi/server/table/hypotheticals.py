"""What a shared replay room shows: the finished game at the leader's turn, or the
leader's hypothetical, rebuilt by the engine.

A hypothetical is the real game replayed from its action log up to the turn it branches
from (:func:`hanabi.game.replay`), then the leader's moves applied one by one with
:meth:`hanabi.game.Game.apply`: the engine, never the client, says what is legal. Nothing
of it is stored with the game; the room keeps the branch turn and the moves.

Cards drawn during a hypothetical may be hidden from followers (``reveal`` false): their
suit and rank are blanked in the followers' view while they sit in a hand (a played or
discarded card is public, as at a real table), every card's deduced knowledge falls
back to its clue knowledge, since deductions count the cards each hand sees, and the
legal moves they are shown offer every clue to a hand holding a hidden card (which clues
touch something would tell the card: :func:`hanabi.game.legal.legal_actions_unseen`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hanabi.game import Action, Game, HanabiError, IllegalAction, full_view, replay
from hanabi.game.legal import legal_actions_unseen

from ..ops.times import iso
from ..storage.record import Record
from . import rendering, restore
from .last_action import _event as last_move_event
from .refusals import Conflict, Invalid, NotFound, Refused
from .restore import Finished


class Audience(StrEnum):
    """Who a room's state is rendered for: its leader sees every card of a hypothetical;
    followers (and anyone with the link) may not (hidden draws)."""

    LEADER = "leader"
    FOLLOWERS = "followers"


@dataclass
class Branch:
    """A hypothetical as a room stores it: the turn it leaves the real game at, whether
    cards drawn in it are shown to followers, and the moves made in it (seat, action)."""

    turn: int
    reveal: bool
    moves: list[tuple[int, dict[str, Any]]]

    def to_state(self) -> dict[str, Any]:
        return {"turn": self.turn, "reveal": self.reveal, "moves": [list(m) for m in self.moves]}

    @classmethod
    def from_state(cls, data: dict[str, Any] | None) -> Branch | None:
        if data is None:
            return None
        moves = [(int(seat), dict(action)) for seat, action in data["moves"]]
        return cls(int(data["turn"]), bool(data["reveal"]), moves)


def check_turn(finished: Finished, turn: int) -> None:
    """404 ``no_such_turn`` past the game's last turn."""
    last = finished.game.turn
    if not 0 <= turn <= last:
        raise NotFound("no_such_turn", "The game has turns 0 to {last}.", last=last)


def branch_game(record: Record, finished: Finished, branch: Branch) -> tuple[Game, int]:
    """The hypothetical's game, and the order of the first card drawn in it."""
    try:
        game = replay(restore.setup_of(record), finished.game.actions, upto=branch.turn)
        first_drawn = game.next_draw
        for seat, action in branch.moves:
            game.apply(Action.from_dict(action), seat)
    except HanabiError as exc:  # pragma: no cover - every stored move was applied once
        raise Refused("replay_failed", exc.template, **exc.params) from None
    return game, first_drawn


def apply_move(
    record: Record, finished: Finished, branch: Branch, body: dict[str, Any], limit: int
) -> tuple[int, dict[str, Any]]:
    """Check one move of the hypothetical with the engine: (seat, action) to append.

    ``body`` is a game action request: its ``turn`` is the hypothetical's turn the client
    believes it is (409 ``stale_turn`` otherwise); the move is made for the seat to move.
    The body's schema takes plays, discards and clues only (no ``terminate``).
    """
    if len(branch.moves) >= limit:
        raise Conflict(
            "hypothetical_full",
            "A hypothetical holds at most {limit} moves; go back first.",
            limit=limit,
        )
    game, _ = branch_game(record, finished, branch)
    if body["turn"] != game.turn:
        raise Conflict(
            "stale_turn", "It is turn {now}, not turn {turn}.", now=game.turn, turn=body["turn"]
        )
    fields = {k: v for k, v in body.items() if k != "turn"}
    try:
        action = Action.from_dict(fields)
    except IllegalAction as exc:
        raise Invalid(exc.code, exc.template, **exc.params) from None
    seat = game.current
    try:
        game.apply(action, seat)
    except IllegalAction as exc:
        raise Conflict(exc.code, exc.template, **exc.params) from None
    return seat, action.to_dict()


def room_view(
    room: dict[str, Any],
    record: Record,
    finished: Finished,
    audience: Audience,
    position_view: dict[str, Any],
) -> dict[str, Any]:
    """The state of a room as ``audience`` sees it. ``position_view``: the finished game's
    full view at the room's turn (what GET /games/{id}/replay?turn= answers)."""
    branch = Branch.from_state(room.get("hypo"))
    out: dict[str, Any] = {
        "id": room["id"],
        "game_id": room["game"],
        "leader": room["leader"],
        "turn": room["turn"],
        "last_turn": finished.game.turn,
        "highlight": room["highlight"],
        "followers": room["followers"],
        "version": room["version"],
        "expires": iso(room["expires"]),
        "last_move": _real_move(finished, room["turn"]),
        "hypothetical": None,
        "view": position_view,
    }
    if branch is None:
        return out
    game, first_drawn = branch_game(record, finished, branch)
    view = rendering.with_table(full_view(game), record, None)
    # the table's keys as the real game's view at the branch has them (its notes, clocks)
    view.update({k: v for k, v in position_view.items() if k not in view or k == "last_action"})
    if branch.moves:  # the hypothetical's own last move
        seat, action = branch.moves[-1]
        view["last_action"] = last_move_event(game, game.turn - 1, seat, Action.from_dict(action))
    hidden = not branch.reveal and audience is Audience.FOLLOWERS
    if hidden:
        _hide_draws(view, first_drawn)
    unseen = sorted(c["order"] for h in view["hands"] for c in h if c["suit"] is None)
    unseen = unseen if hidden else []
    moves = [{"seat": seat, "action": action} for seat, action in branch.moves]
    out["view"] = view
    out["last_move"] = moves[-1] if moves else out["last_move"]
    out["hypothetical"] = {
        "turn": branch.turn,
        "reveal_draws": branch.reveal,
        "moves": moves,
        "current_turn": game.turn,
        "current_seat": None if game.is_over else game.current,
        # what the seat to move may do, told by what this audience sees only: a clue to
        # a hand holding a hidden card is offered whatever that card is
        "legal_actions": [
            {**a.to_dict(), "turn": game.turn} for a in legal_actions_unseen(game, unseen)
        ],
        "hidden": unseen,
    }
    return out


def _real_move(finished: Finished, turn: int) -> dict[str, Any] | None:
    """The real game's move that led to ``turn`` (None at turn 0)."""
    if turn == 0:
        return None
    return {"seat": finished.seats[turn - 1], "action": finished.game.actions[turn - 1].to_dict()}


def _hide_draws(view: dict[str, Any], first_drawn: int) -> None:
    for hand in view["hands"]:
        for card in hand:
            if card["order"] >= first_drawn:
                card["suit"] = card["rank"] = None
            card["knowledge"]["deduced"] = card["knowledge"]["possible"]
