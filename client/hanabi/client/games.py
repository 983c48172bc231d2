"""The client library's calls about games: what the server offers, tables in their
lobby, a game's view, its moves and its events (see :mod:`.api` for the whole client).

Every call returns plain JSON data (views and events are dicts, exactly as the server
sends them) or a small dataclass of :mod:`.results` around it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote

from .codes import ActionKind, GameStatus
from .results import ActResult, BotSeat, Event, EventPage, GamePage, Poll, Seat, View, _seat
from .sse import STREAM_FIRST, STREAM_QUIET, StreamEvent, read_stream
from .transport import Transport


class GameCalls:
    """Games: the service's lists, the lobby, play, events and the event stream.

    One part of :class:`~hanabi.client.api.Client`: it sends its requests through the
    ``transport`` it holds (the client itself), like :class:`~.replays.RoomCalls`.
    """

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    # -- service --------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``{"status": "ok"}`` when the server and its Redis answer."""
        return self.transport._request("GET", "/health").json()

    def ready(self) -> bool:
        """Whether this server takes new clients now: its Redis answers and it is not
        shutting down (``GET /ready``; a 503 ``draining`` or ``storage_unavailable`` is
        False, asked once: a readiness answer is about this moment)."""
        response = self.transport._request("GET", "/ready", idempotent=False, allow=(503,))
        return response.status_code == 200

    def variants(
        self,
        q: str | None = None,
        suits: int | None = None,
        rule: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> dict[str, Any]:
        """A page of the variants the server offers, searched: ``q`` a piece of the name,
        ``suits`` how many, ``rule`` a special rule or suit kind. ``{"variants": [...],
        "total", "offset", "limit", "next"}``; each variant with its suits (name,
        abbreviation, touch flags), clue colours and ranks, rules, max score, deck size."""
        params = {"q": q, "suits": suits, "rule": rule, "limit": limit, "offset": offset}
        return self.transport._request("GET", "/variants", params=params).json()

    def variant(self, key: str | int) -> dict[str, Any]:
        """One variant by hanab.live name (any letter case), hanab.live number, or the
        server's id; ApiError 404 ``unknown_variant`` else."""
        return self.transport._request("GET", "/variants/" + quote(str(key), safe="")).json()

    def strategies(self) -> list[dict[str, Any]]:
        """The bot strategies a host may seat: ``name``, ``description`` (whom to seat it
        with), ``default`` and ``fallback`` (what it plays unless every other seat plays it)."""
        return self.transport._request("GET", "/strategies").json()["strategies"]

    # -- lobby ----------------------------------------------------------------------

    def create_game(
        self,
        name: str,
        *,
        variant: str | None = None,
        max_players: int | None = None,
        options: Mapping[str, bool] | None = None,
        seed: str | None = None,
        deck: list[Mapping[str, Any]] | None = None,
        password: str | None = None,
        password_spectators: bool = False,
    ) -> Seat:
        """Open a new table with ``name`` as its host at seat 0; with ``password``, a
        password table (spectators need it too with ``password_spectators``)."""
        body: dict[str, Any] = {"name": name}
        if password is not None:
            body.update(password=password, password_spectators=password_spectators)
        for key, value in (
            ("variant", variant),
            ("max_players", max_players),
            ("options", dict(options) if options is not None else None),
            ("seed", seed),
            ("deck", [dict(c) for c in deck] if deck is not None else None),
        ):
            if value is not None:
                body[key] = value
        data = self.transport._request("POST", "/games", json=body, idempotent=False).json()
        return _seat(data)

    def list_games(
        self, status: str | None = None, *, limit: int | None = None, cursor: str | None = None
    ) -> GamePage:
        """One page of game summaries, newest first, optionally filtered by status."""
        page = self._games_page(status, limit, cursor)
        assert page is not None  # without an ETag the server never answers 304
        return page

    def poll_games(
        self,
        status: str | None = None,
        etag: str | None = None,
        *,
        limit: int | None = None,
        wait: float | None = None,
    ) -> GamePage | None:
        """The first page if it changed since ``etag`` (else None); with ``wait`` (seconds,
        at most 30; needs ``etag``) the server holds the request until the listing changes
        (a table opens, a seat is taken or freed, a game starts or ends) or the time is up."""
        return self._games_page(status, limit, None, etag, wait)

    def watch_games(
        self, status: str | None = None, *, limit: int | None = None, wait: float = 25
    ) -> Iterator[GamePage]:
        """Yield the first page now and again every time it changes (a live lobby)."""
        etag = None
        while True:
            page = self.poll_games(status, etag, limit=limit, wait=wait)
            if page is not None:
                etag = page.etag
                yield page

    def _games_page(
        self,
        status: str | None,
        limit: int | None,
        cursor: str | None,
        etag: str | None = None,
        wait: float | None = None,
    ) -> GamePage | None:
        params: dict[str, Any] = {"status": status, "limit": limit, "cursor": cursor}
        headers = {"If-None-Match": etag} if etag else {}
        timeout = self.transport._long_poll(params, wait, etag)
        response = self.transport._request(
            "GET", "/games", params=params, headers=headers, timeout=timeout, allow=(304,)
        )
        if response.status_code == 304:
            return None
        data = response.json()
        tag = response.headers.get("ETag")
        if isinstance(data, list):
            return GamePage(data, None, {"games": data}, tag)
        cursor = data.get("next_cursor", data.get("cursor", data.get("next")))
        return GamePage(list(data.get("games", data.get("items", []))), cursor, data, tag)

    def iter_games(self, status: str | None = None, *, limit: int | None = None) -> Iterator[dict]:
        """Every game summary, following the cursor from page to page."""
        cursor = None
        while True:
            page = self.list_games(status, limit=limit, cursor=cursor)
            yield from page.games
            if not page.cursor or not page.games:
                return
            cursor = page.cursor

    def join(
        self, game_id: str, name: str, *, plays: str | None = None, password: str | None = None
    ) -> Seat:
        """Take the next free seat at a table in its lobby. ``plays``: the bot strategy of
        the program that takes it (see :meth:`declare`), said with the join; ``password``:
        a password table's (401 password_required, 403 wrong_password)."""
        body: dict[str, Any] = {"name": name}
        if plays is not None:
            body["plays"] = plays
        if password is not None:
            body["password"] = password
        data = self.transport._request(
            "POST", f"/games/{game_id}/players", json=body, idempotent=False
        ).json()
        return _seat({"id": game_id, **data})

    def leave(self, game_id: str, seat: int, *, token: str | None = None) -> None:
        """Leave a table before it starts (or, as its host, remove a seat)."""
        self.transport._request("DELETE", f"/games/{game_id}/players/{seat}", token=token)

    def declare(
        self, game_id: str, seat: int, plays: str | None, *, token: str | None = None
    ) -> View:
        """Say which bot strategy the program in your seat plays (None: a person), in the
        lobby. The table shows it as ``players[].plays`` and its bots read it like a
        server bot's strategy (two API hat bots then play hat together). Saying it again
        changes nothing, so it is retried like a read. Your view of the table."""
        return self.transport._request(
            "PATCH", f"/games/{game_id}/players/{seat}", json={"plays": plays}, token=token
        ).json()

    def add_bot(
        self,
        game_id: str,
        strategy: str | None = None,
        name: str | None = None,
        *,
        token: str | None = None,
    ) -> BotSeat:
        """Seat a bot that the server plays at the next free seat (host only, in the lobby).

        ``strategy`` defaults to the server's (``conventions``; an unknown one is refused
        with 400, the detail listing them), ``name`` to ``<strategy>-bot-<seat>``. Like a
        join, a re-sent request would seat a second bot, so it is retried only when the
        connection was never made.
        """
        body: dict[str, Any] = {}
        if strategy is not None:
            body["strategy"] = strategy
        if name is not None:
            body["name"] = name
        data = self.transport._request(
            "POST", f"/games/{game_id}/bots", json=body, token=token, idempotent=False
        ).json()
        return BotSeat(game_id, int(data["seat"]), dict(data.get("game") or {}))

    def start(self, game_id: str, *, watch: bool = False, token: str | None = None) -> View:
        """Deal the cards (host only, at least two seated).

        ``watch``: the host gives up their seat at the deal and follows the game as a
        spectator (at least two other seats taken, e.g. by bots); the answer is then a
        spectator's view, and the token holds no seat any more.
        """
        body = {"watch": True} if watch else None
        return self.transport._request(
            "POST", f"/games/{game_id}/start", json=body, token=token
        ).json()

    # -- the game -------------------------------------------------------------------

    def game(self, game_id: str, *, token: str | None = None, shadow: int | None = None) -> View:
        """The view for the token's seat (the spectator view without one; with ``shadow``,
        a seat numbered from 0, a spectator's view of the table as that seat sees it)."""
        return self.poll(game_id, token=token, shadow=shadow).game  # type: ignore[return-value]

    def poll(
        self,
        game_id: str,
        etag: str | None = None,
        *,
        wait: float | None = None,
        token: str | None = None,
        shadow: int | None = None,
    ) -> Poll:
        """The view if it changed since ``etag``; with ``wait``, hold until it does.

        ``wait`` (seconds, at most 30; needs ``etag``) makes the server answer as soon as the game
        changes, or with 304 once the time is up. ``shadow``: a seat (from 0) a spectator
        watches the table as (a seat's own credential gets its own view whatever it asks).
        """
        headers = {"If-None-Match": etag} if etag else {}
        params: dict[str, Any] = {} if shadow is None else {"shadow": shadow}
        timeout = self.transport._long_poll(params, wait, etag)
        response = self.transport._request(
            "GET",
            f"/games/{game_id}",
            token=token,
            headers=headers,
            params=params,
            timeout=timeout,
            allow=(304,),
        )
        new_etag = response.headers.get("ETag", etag)
        if response.status_code == 304:
            return Poll(None, new_etag)
        return Poll(response.json(), new_etag)

    def watch(self, game_id: str, *, wait: float = 25, token: str | None = None) -> Iterator[View]:
        """Yield the view now and then every time it changes, until the game is over."""
        etag = None
        while True:
            polled = self.poll(game_id, etag, wait=wait, token=token)
            etag = polled.etag
            if polled.game is not None:
                yield polled.game
                if polled.game.get("status") == GameStatus.FINISHED:
                    return

    def stream(
        self,
        game_id: str,
        *,
        after: int | None = None,
        token: str | None = None,
        resume: bool = True,
        quiet: float = STREAM_QUIET,
        first: float = STREAM_FIRST,
        shadow: int | None = None,
    ) -> Iterator[StreamEvent]:
        """The game's server-sent event stream, as :class:`StreamEvent` objects: every event
        the viewer may see (after ``after``, when given), and a ``view`` after each change,
        until the server ends it (``end``: the game finished, or is gone).

        A connection that drops is resumed where it stopped (``Last-Event-ID``) when
        ``resume``; each reconnection counts against ``retries`` until a message arrives.
        The server sends its first message at once and a keep-alive every 15 s: a connection
        silent for ``first`` seconds after it opens, or ``quiet`` seconds later on, is dead.
        Raises :class:`StreamUnavailable` when the server has no stream or something in
        between buffers it (nothing arrives on a new connection), so the caller can
        long-poll instead; :class:`ApiError` for a refusal. ``shadow``: as :meth:`poll`'s.
        """
        return read_stream(
            self.transport,
            game_id,
            after=after,
            token=token,
            resume=resume,
            quiet=quiet,
            first=first,
            shadow=shadow,
        )

    def stream_ticket(
        self, game_id: str, *, token: str | None = None, shadow: int | None = None
    ) -> dict[str, Any]:
        """A one-time ticket (``{"ticket", "expires"}``) that opens the token's event stream
        as ``GET /games/{id}/stream?ticket=``: for clients that cannot send headers (a
        browser's EventSource); ``shadow``: the seat its spectator's stream shadows."""
        body = None if shadow is None else {"shadow": shadow}
        return self.transport._request(
            "POST", f"/games/{game_id}/tickets", token=token, json=body
        ).json()

    def act(
        self, game_id: str, turn: int, action: Mapping[str, Any], *, token: str | None = None
    ) -> ActResult:
        """Take an action (``{"type": "play", "card": 12}``, ...) as the move of ``turn``.

        Safe to retry: a different ``turn`` than the game's is refused with
        ``stale_turn``, and the same action re-sent for a turn already taken returns the
        original result (``repeated=True``).
        """
        body = {**action, "turn": turn}
        response = self.transport._request(
            "POST", f"/games/{game_id}/actions", json=body, token=token
        )
        data = response.json()
        return ActResult(list(data.get("events", [])), data["game"], response.status_code == 200)

    def play(
        self,
        game_id: str,
        turn: int,
        card: int,
        *,
        firework: str | None = None,
        token: str | None = None,
    ) -> ActResult:
        """Play the card with deck order ``card``."""
        action: dict[str, Any] = {"type": ActionKind.PLAY, "card": card}
        if firework is not None:
            action["firework"] = firework
        return self.act(game_id, turn, action, token=token)

    def discard(self, game_id: str, turn: int, card: int, *, token: str | None = None) -> ActResult:
        """Discard the card with deck order ``card``."""
        return self.act(game_id, turn, {"type": ActionKind.DISCARD, "card": card}, token=token)

    def clue(
        self,
        game_id: str,
        turn: int,
        target: int,
        *,
        color: str | None = None,
        rank: int | None = None,
        token: str | None = None,
    ) -> ActResult:
        """Clue seat ``target`` with a colour or a rank."""
        action: dict[str, Any] = {"type": ActionKind.CLUE, "target": target}
        if color is not None:
            action["color"] = color
        if rank is not None:
            action["rank"] = rank
        return self.act(game_id, turn, action, token=token)

    def events(
        self, game_id: str, after: int | None = None, *, token: str | None = None
    ) -> list[Event]:
        """The event log as the token's seat may see it: every event with ``seq`` >
        ``after``, all pages (see :meth:`all_events`)."""
        return self.all_events(game_id, after, token=token)

    def event_page(
        self,
        game_id: str,
        after: int | None = None,
        *,
        token: str | None = None,
        limit: int | None = None,
    ) -> EventPage:
        """One page of events with ``seq`` > ``after`` (at most ``limit``; default: the
        server's page size), with the server's ``last_seq`` and the next page's ``after``."""
        params: dict[str, int] = {"after": after} if after is not None else {}
        if limit is not None:
            params["limit"] = limit
        data = self.transport._request(
            "GET", f"/games/{game_id}/events", params=params, token=token
        ).json()
        if isinstance(data, list):
            return EventPage(list(data))
        last, after_next = data.get("last_seq"), data.get("next")
        return EventPage(
            list(data["events"]),
            last if isinstance(last, int) else None,
            after_next if isinstance(after_next, int) else None,
        )

    def all_events(
        self, game_id: str, after: int | None = None, *, token: str | None = None
    ) -> list[Event]:
        """Every event with ``seq`` > ``after``, following the pages' ``next`` (or, from a
        server that sends none, up to its ``last_seq``) to the end of the log."""
        out: list[Event] = []
        seen = after or 0
        while True:
            page = self.event_page(game_id, seen, token=token)
            new = [e for e in page.events if int(e.get("seq", 0)) > seen]
            out.extend(new)
            if new:
                seen = max(int(e.get("seq", 0)) for e in new)
            if page.next is not None and new:
                continue
            if not new or page.last_seq is None or seen >= page.last_seq:
                return out

    def chat(self, game_id: str, text: str, *, token: str | None = None) -> dict[str, Any]:
        """Say something to the table (it appears in the event log)."""
        response = self.transport._request(
            "POST", f"/games/{game_id}/chat", json={"text": text}, token=token, idempotent=False
        )
        return response.json() if response.content else {}

    def note(
        self, game_id: str, card: int, text: str, *, token: str | None = None
    ) -> dict[str, str]:
        """Write the seat's note on card ``card`` (an order); empty ``text`` deletes it.
        A PUT: sending it twice is the same note. The seat's notes after, order -> text."""
        response = self.transport._request(
            "PUT", f"/games/{game_id}/notes/{card}", json={"text": text}, token=token
        )
        return response.json()["notes"]

    def notes(self, game_id: str, *, token: str | None = None) -> dict[str, str]:
        """The seat's own notes in this game, card order (a string) -> text."""
        return self.transport._request("GET", f"/games/{game_id}/notes", token=token).json()[
            "notes"
        ]

    def vote(self, game_id: str, end: bool = True, *, token: str | None = None) -> View:
        """Vote to end the game (``end``), or take the vote back; the game ends (reason
        ``terminated``, score 0) once half of the seated people voted. The view after it."""
        data = self.transport._request(
            "POST", f"/games/{game_id}/votes", json={"end": end}, token=token
        ).json()
        return data.get("game", data) if isinstance(data, dict) else data

    def terminate(self, game_id: str, *, token: str | None = None) -> View:
        """A vote to end the game (the server's ``POST /terminate``); the view after it."""
        data = self.transport._request("POST", f"/games/{game_id}/terminate", token=token).json()
        return data.get("game", data) if isinstance(data, dict) else data

    # -- a table's lobby life (docs/lobby.md) ---------------------------------------

    def use_pass(self, game_id: str, password: str) -> str:
        """Watch a password table locked to spectators: its pass for ``password`` (403
        wrong_password), sent from now on with every request of this client (the
        ``X-Table-Pass`` header, good for that game only)."""
        data = self.transport._request(
            "POST", f"/games/{game_id}/passes", json={"password": password}, idempotent=False
        ).json()
        self.transport.session.headers[data["header"]] = data["pass"]
        return str(data["pass"])

    def vote_pause(self, game_id: str, paused: bool = True, *, token: str | None = None) -> View:
        """Vote to pause the game (``paused``) or to go on; the same vote again changes
        nothing, so it is retried like a read. Your view after it."""
        return self.transport._request(
            "POST", f"/games/{game_id}/pause", json={"paused": paused}, token=token
        ).json()

    def rematch(self, game_id: str, *, shuffle: bool = False, token: str | None = None) -> Seat:
        """As the finished game's host, open the next game with the same seats: your seat
        there and its token."""
        data = self.transport._request(
            "POST", f"/games/{game_id}/rematch", json={"shuffle": shuffle}, token=token,
            idempotent=False,
        ).json()  # fmt: skip
        return _seat(data)

    def answer_rematch(
        self, game_id: str, join: bool = True, *, token: str | None = None
    ) -> Seat | None:
        """With the finished game's seat token: take your seat at its next game (the seat
        and its new token), or decline it (None: the seat opens)."""
        response = self.transport._request(
            "POST", f"/games/{game_id}/rematch/answer", json={"join": join}, token=token,
            idempotent=False,
        )  # fmt: skip
        return _seat(response.json()) if join else None

    def open_kept_seat(self, game_id: str, name: str, *, token: str | None = None) -> View:
        """As the next game's host, open the seat kept for ``name`` (who has not
        answered): it goes to anyone. Your view after it."""
        return self.transport._request(
            "DELETE", f"/games/{game_id}/rematch/invited/{quote(name, safe='')}", token=token
        ).json()

    def export(self, game_id: str) -> dict[str, Any]:
        """A finished game as hanab.live JSON."""
        return self.transport._request("GET", f"/games/{game_id}/export").json()

    def replay(self, game_id: str, turn: int | None = None) -> View:
        """The full view of a finished game at ``turn`` (the end when None)."""
        params = {"turn": turn} if turn is not None else {}
        return self.transport._request("GET", f"/games/{game_id}/replay", params=params).json()

    def past(self, game_id: str, turn: int | None = None, *, token: str | None = None) -> View:
        """The game as the bearer's seat saw it after ``turn`` moves (now when None), its
        own cards then hidden: an in-game replay, while the game is on or after."""
        params = {"turn": turn} if turn is not None else {}
        return self.transport._request(
            "GET", f"/games/{game_id}/past", params=params, token=token
        ).json()
