"""What a viewer sees: game views, table keys, summaries and ETags.

Pure functions of a record and (once dealt) its engine state; the redaction itself is the
engine's (:func:`hanabi.game.view` and friends), this module only picks which one applies
and adds the table's own keys.
"""

from __future__ import annotations

from typing import Any

from hanabi.bots import playing
from hanabi.game import MAX_CLUE_TOKENS, Game, full_view, get_variant, spectator_view, view
from hanabi.game.views import public_view

from ..ops.times import iso
from ..storage.record import GameStatus, Record
from .clocks import timing_options
from .last_action import last_action
from .passwords import lock_view
from .table_keys import pause_view, rematch_view
from .viewers import Spectating, Viewer
from .vote_count import votes_view


def lobby_view(record: Record) -> dict[str, Any]:
    """The view of a table not dealt yet: an empty board of its variant."""
    variant = get_variant(record.variant)
    return {
        "turn": 0,
        "current_seat": None,
        "clue_tokens": MAX_CLUE_TOKENS,
        "strikes": 0,
        "deck_size": variant.card_count,
        "score": 0,
        "max_score": variant.max_score,
        "pace": None,
        "fireworks": {variant.suits[f].id: 0 for f in variant.firework_suits},
        "hands": [[] for _ in record.players],
        "discards": [],
        "clues": [],
        "turns_left": None,
        "legal_actions": [],
        "result": None,
    }


def render(record: Record, viewer: Viewer, game: Game | None) -> dict[str, Any]:
    """The view of ``record`` for ``viewer`` (:mod:`.viewers`); ``game`` once dealt."""
    if record.status is GameStatus.LOBBY:
        out = lobby_view(record)
        out["last_action"] = None
    else:
        assert game is not None
        out = _cards(game, viewer)
        sight = viewer.spectating
        public = sight is Spectating.PUBLIC
        out["last_action"] = last_action(
            record, game, viewer.eyes, reveal=sight is Spectating.FULL, hidden=public
        )
        if record.paused:  # nobody moves while paused (pause.py)
            out["legal_actions"] = []
    out["spectating"] = viewer.spectating
    if viewer.shadow is not None:
        out["shadow_seat"] = viewer.shadow
    return with_table(out, record, viewer.seat)


def _cards(game: Game, viewer: Viewer) -> dict[str, Any]:
    """The engine's view that ``viewer`` gets of a dealt game."""
    if viewer.seat is not None:
        return view(game, viewer.seat)
    sight = viewer.spectating
    if sight is Spectating.FULL:
        return full_view(game)
    if sight is Spectating.HANDS:
        return hands_view(game)
    if sight is Spectating.SHADOW:
        assert viewer.shadow is not None
        out = view(game, viewer.shadow)
        out["legal_actions"] = []  # a shadow watches: it moves for nobody
        return out
    return public_view(game)  # as a spectator saw it in play, even once it is over


def hands_view(game: Game) -> dict[str, Any]:
    """A spectator's view with every hand's cards shown: the public view (clues as the
    table heard them, the hole unseen, knowledge deduced from public facts only) with each
    card in a hand named. The deck stays unseen."""
    out = spectator_view(game)
    variant, deck = game.variant, game.deck
    for cards, orders in zip(out["hands"], game.hands, strict=True):
        for card, order in zip(cards, orders, strict=True):
            card["suit"] = variant.suits[variant.suit_of[deck[order]]].id
            card["rank"] = variant.rank_of[deck[order]]
    return out


def with_table(out: dict[str, Any], record: Record, seat: int | None) -> dict[str, Any]:
    """A game view completed with the table's own keys (id, status, players...)."""
    out.update(
        id=record.id,
        status=record.status,
        version=record.version,
        variant=record.variant,
        options={
            **record.options,
            **({"rated": True} if record.rated else {}),
            **timing_options(record),
            "spectators_see_hands": spectators_see_hands(record),
        },
        max_players=record.max_players,
        players=players(record),
        host=record.host,
        you=seat,
        custom_deal=record.custom_deal,
        votes=votes_view(record, seat),
        lock=lock_view(record),
        pause=pause_view(record, seat),
        rematch=rematch_view(record),
    )
    # A dealt name is a deck anyone may deal again by that name: while the game is on, a
    # seat learns it only if the creator chose it (docs/seeds.md).
    shown = record.status is not GameStatus.PLAYING or record.custom_deal
    if seat is not None and record.seed_name is not None and shown:
        out["seed"] = record.seed_name  # a seat's only, and never a custom seed (docs/seeds.md)
    changes = (record.result or {}).get("rating_changes")
    if changes is not None and out.get("result") is not None:
        out["result"] = {**out["result"], "rating_changes": changes}
    return out


def spectators_see_hands(record: Record) -> bool:
    """The table's ``options.spectators_see_hands``: never at a rated table."""
    return not (record.rated or record.hide_hands)


def players(record: Record) -> list[dict[str, Any]]:
    """The seats: who sits there, the strategy the table knows it plays, and the one it
    really plays at this table as it stands (hat falls back to conventions next to
    anyone who does not play hat, and in a variant its code cannot carry: what a host
    needs to see before the deal)."""
    table = [p.table_strategy for p in record.players]
    return [
        {
            "seat": i,
            "name": p.name,
            "bot": p.bot,
            "plays": strategy,
            "playing": None if strategy is None else playing(strategy, i, table, record.variant),
        }
        for i, (p, strategy) in enumerate(zip(record.players, table, strict=True))
    ]


def etag(version: int, viewer: Viewer) -> str:
    return f'"{version}.{viewer.tag}"'


def score_hidden(record: Record) -> str | None:
    """Why a game's score is nobody's to see yet (a view's ``score_hidden``): Throw It in
    a Hole hides it until the game is over; else None."""
    if record.status is GameStatus.FINISHED:
        return None
    return "throw_it_in_a_hole" if get_variant(record.variant).rules.throw_it_in_a_hole else None


def public_score(record: Record) -> dict[str, Any]:
    """The score as the listing and the turn list show it: null (and why) while hidden."""
    hidden = score_hidden(record)
    return {"score": None, "score_hidden": hidden} if hidden else {"score": record.score}


def summary(record: Record) -> dict[str, Any]:
    """A game as the listing shows it."""
    return {
        "id": record.id,
        "status": record.status,
        "variant": record.variant,
        "max_players": record.max_players,
        "players": players(record),
        "host": record.host,
        "custom_deal": record.custom_deal,
        "options": {
            **({"rated": True} if record.rated else {}),
            "spectators_see_hands": spectators_see_hands(record),
        },
        "lock": lock_view(record),
        "turn": record.turn,
        **public_score(record),
        "result": record.result,
        "created": iso(record.created),
        "updated": iso(record.updated),
    }
