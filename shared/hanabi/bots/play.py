"""Running bots: self-play, and one decision for a stateless caller.

Every path feeds a bot the same thing: the opening deal and each action's events, as
:func:`~hanabi.game.views.redact_event` shows them to the bot's seat. The bot never gets
the :class:`~hanabi.game.Game` itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hanabi.game import EVENT_TYPES, Action, Game, Setup, Variant, get_variant
from hanabi.game.views import redact_event

from .base import Bot
from .observation import split_turns
from .registry import Table, make_bot


def seat_events(
    events: Iterable[dict[str, Any]], seat: int, variant: Variant | str | None = None
) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them while the game is on (its own draws hidden; given
    the ``variant``, also what its rules hide: plays thrown in a hole, what a Cow & Pig or
    Duck clue was)."""
    if isinstance(variant, str):
        variant = get_variant(variant)
    return [redact_event(e, seat, False, variant) for e in events]


def play_game(setup: Setup, strategies: str | Sequence[str]) -> Game:
    """Play a whole game with one bot per seat (one strategy name, or one per seat).

    Bots are stateful and updated incrementally, so this is the fast path for
    benchmarks; it returns the finished game. Every bot knows the table (the list of
    strategies), so a hat bot seated with conventions bots plays conventions.
    """
    n = len(setup.players)
    if isinstance(strategies, str):
        strategies = [strategies] * n
    table = list(strategies)
    options = setup.options.to_dict()
    bots = [make_bot(strategies[s], setup.variant, n, s, options, table) for s in range(n)]
    return run_game(setup, bots)


def run_game(setup: Setup, bots: Sequence[Bot]) -> Game:
    """Play a whole game with ready-made bots (one per seat, in seat order), feeding each
    its seat's events; returns the finished game. ``play_game`` builds the bots from
    strategy names; benchmarks pass their own (e.g. partners that break conventions)."""
    game = Game(setup)
    variant = game.variant
    deal = game.deal_events()
    for seat, bot in enumerate(bots):
        bot.observe(seat_events(deal, seat, variant))
    while game.result is None:
        action = bots[game.current].act()
        events = game.apply(action)
        for seat, bot in enumerate(bots):
            bot.observe(seat_events(events, seat, variant))
    return game


def bot_from_events(
    strategy: str,
    variant: str,
    num_players: int,
    seat: int,
    events: Iterable[dict[str, Any]],
    options: dict[str, Any] | None = None,
    table: Table | None = None,
) -> Bot:
    """A bot of ``strategy`` for ``seat`` that has watched ``events``.

    ``events`` is the game's event log from the opening deal on, as ``seat`` may see it
    (draws of its own cards without suit and rank; unredacted events are redacted here).
    ``table`` is who sits where (see :func:`~hanabi.bots.registry.playing`).
    """
    bot = make_bot(strategy, variant, num_players, seat, options, table)
    for batch in split_turns(events):
        bot.observe(seat_events(batch, seat, bot.obs.variant))
    return bot


def choose_action(strategy: str, game: Game, seat: int, table: Table | None = None) -> Action:
    """The action ``strategy`` takes for ``seat`` in ``game`` (for a stateless server).

    ``table`` says who sits where: per seat, a strategy name for a bot or None for a
    person (the server knows it from its player records). A strategy that needs partners
    of its own kind (hat) plays its fallback unless every other seat is one; without
    ``table`` every seat is taken to play ``strategy``.

    Replays the game's action log from its setup and feeds the bot only what ``seat``
    may see; deterministic (the same game and seat always give the same action). Costs
    one engine replay plus the bot's own bookkeeping: a few milliseconds for a full game
    (``search`` adds its per-move budget). Raises ValueError if the game is over or it
    is not ``seat``'s turn.
    """
    if game.is_over:
        raise ValueError("the game is over")
    if game.current != seat:
        raise ValueError(f"it is seat {game.current}'s turn, not seat {seat}'s")
    setup = game.setup
    replay = Game(setup)
    options = setup.options.to_dict()
    bot = make_bot(strategy, setup.variant, replay.num_players, seat, options, table)
    bot.observe(seat_events(replay.deal_events(), seat, replay.variant))
    for action in game.actions:
        events = replay.apply(action, None if action.type == "terminate" else replay.current)
        bot.observe(seat_events(events, seat, replay.variant))
    return bot.act()


def choose_action_from_view(
    strategy: str, view: dict[str, Any], events: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The action (as an action dict) for an API client holding its seat's JSON view and
    the game's public event log.

    ``view`` is what ``view(game, seat)`` returns (the REST API's seat view) and
    ``events`` the event log as the API serves it to that seat (``redact_event``); events
    that are not game events (chat, lobby) are ignored. If the
    log does not start with the opening deal's draws, they are rebuilt from the view and
    the later events (every dealt card is either still in a hand the seat sees, or was
    revealed when played or discarded). Raises ValueError if it is not the seat's turn.

    The table is read from the view: the REST API lists ``players[].plays`` (a server
    bot's strategy, or the one another API client declared for its seat; None for a
    person), so a hat bot here plays hat only when every other seat plays hat and its own
    seat says so too (a seat that never said what it plays is a person to the others,
    who then play the conventions with it). An engine view (player names only) does not
    tell, and every seat is then taken to play ``strategy``.
    """
    seat = view["you"]
    if seat is None:
        raise ValueError("a spectator view has no seat to act for")
    if view.get("result") is not None or view.get("current_seat") != seat:
        raise ValueError("it is not this seat's turn")
    n = len(view["players"])
    events = [e for e in events if e.get("type") in EVENT_TYPES]  # not chat or lobby
    if not any(e.get("type") == "draw" and e.get("turn") == 0 for e in events[:1]):
        events = _rebuild_deal(view, events) + events
    table = view_table(view, strategy)
    bot = bot_from_events(strategy, view["variant"], n, seat, events, view.get("options"), table)
    if bot.obs.turn != view["turn"]:
        raise ValueError(
            f"the event log covers {bot.obs.turn} turns but the view is at turn {view['turn']}"
        )
    return bot.act().to_dict()


def view_table(view: dict[str, Any], strategy: str) -> list[str | None] | None:
    """Who sits where, from a seat view's ``players``: each seat's ``plays`` (a server
    bot's strategy, or the one a program in a person's seat declared; the viewing seat's
    too, since the others read it from there), or where a view has no ``plays`` its
    ``bot`` (the viewing seat then plays ``strategy``). None when the view does not say
    (player names)."""
    players = view["players"]
    if not all(isinstance(p, dict) and "bot" in p for p in players):
        return None
    table: list[str | None] = [p.get("plays", p["bot"]) for p in players]
    if "plays" not in players[view["you"]]:
        table[view["you"]] = strategy
    return table


def _rebuild_deal(view: dict[str, Any], events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    from hanabi.game import HAND_SIZES

    seat = view["you"]
    n = len(view["players"])
    size = HAND_SIZES[n]
    known: dict[int, tuple[str | None, int | None]] = {}
    for hand in view["hands"]:
        for c in hand:
            known[c["order"]] = (c.get("suit"), c.get("rank"))
    for e in events:
        if e.get("type") in ("play", "misplay", "discard"):
            known[e["card"]] = (e["suit"], e["rank"])
    deal = []
    for s in range(n):
        for order in range(s * size, (s + 1) * size):
            suit, rank = known.get(order, (None, None))
            if s == seat:
                suit = rank = None
            deal.append(
                {"type": "draw", "turn": 0, "seat": s, "card": order, "suit": suit, "rank": rank}
            )
    return deal
