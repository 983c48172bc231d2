"""Draw a table from a server view as rich Text (plain text when colour is off).

Every card shows its suit letter and rank as well as its colour, so the table reads the
same without colour (``NO_COLOR``) and for colour-blind players. Slots are numbered from
1, left to right, newest card first, in every hand; players are numbered from 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .clocks import clocks_line
from .codes import GameStatus, SeatKind, game_status
from .i18n import N_, _, n_
from .narrate import player_names
from .notes import last_move, note_lines
from .spectating import shadow_seat, watching_line
from .variants import VariantInfo, clue_options
from .words import end_reason, seat_name

MAX_CLUES = 8
MAX_STRIKES = 3
LABEL = 9  # width of the row labels ("  suits  ")
DIM = "dim"
# Shown at a table whose deal the host chose (a seed or a whole deck): they may know it.
CUSTOM_DEAL = N_("The host chose this deal (a seed or a deck), so they may know every card.")


def possible(card: Mapping[str, Any]) -> Mapping[str, Any]:
    """What the card's holder knows it may be: suit -> ranks (deduced, else as clued)."""
    knowledge = card.get("knowledge") or {}
    return knowledge.get("deduced") or knowledge.get("possible") or {}


def knows(card: Mapping[str, Any]) -> tuple[str | None, int | None]:
    """(suit, rank) as far as the card's holder can tell: each None unless certain."""
    suits = list(possible(card))
    ranks = sorted({r for rs in possible(card).values() for r in rs})
    return (suits[0] if len(suits) == 1 else None, ranks[0] if len(ranks) == 1 else None)


def is_clued(card: Mapping[str, Any]) -> bool:
    return bool((card.get("knowledge") or {}).get("clued"))


def seat_kind(player: Mapping[str, Any]) -> str | None:
    """What plays a seat, in words: "hat bot" (a server bot), "hat program" (an API bot
    that said what it plays), None (a person); with ", plays conventions here" when the
    table makes it play another strategy (hat next to anyone who does not play hat)."""
    seat = SeatKind.of(player)
    if seat is SeatKind.PERSON:
        return None
    if seat is SeatKind.BOT:
        kind = _("{strategy} bot", strategy=player["bot"])
    else:
        kind = _("{strategy} program", strategy=player["plays"])
    declared = player.get("bot") or player.get("plays")
    really = player.get("playing")
    if really and really != declared:
        return _("{kind}, plays {strategy} here", kind=kind, strategy=really)
    return kind


class TableRenderer:
    """Renders views of one game; ``info`` names its suits."""

    def __init__(self, info: VariantInfo) -> None:
        self.info = info
        self.width = max(6, len(info.suits) + 2)

    # -- cells ----------------------------------------------------------------------

    def card(self, suit: str | None, rank: int | None, clued: bool = False) -> Text:
        """A card as letter+rank in its suit's colour; "?" for what is not known."""
        letter = self.info.letter(suit) if suit else "?"
        text = f"{letter}{rank if rank is not None else '?'}{'*' if clued else ''}"
        style = self.info.suit(suit).style if suit else DIM
        if clued:
            style += " underline"
        return Text(text, style=style)

    def _cell(self, text: Text | str) -> Text:
        cell = text if isinstance(text, Text) else Text(text)
        cell = cell.copy()
        cell.pad_right(max(0, self.width - len(cell.plain)))
        return cell

    def _row(self, label: str, cells: Sequence[Text | str]) -> Text:
        label = _(label)
        width = LABEL - 2 - sum(1 for ch in label if ord(ch) > 0x2E80)  # CJK: two cells each
        row = Text(f"  {label:<{width}}")
        for c in cells:
            row.append_text(self._cell(c))
        row.rstrip()
        return row

    def possible_suits(self, card: Mapping[str, Any]) -> Text:
        suits = possible(card)
        out = Text()
        for s in self.info.suits:
            if s.id in suits:
                out.append(s.letter, style=s.style)
        for s in suits:  # suits the variant info does not know
            if all(s != known.id for known in self.info.suits):
                out.append(self.info.letter(s))
        return out if out.plain else Text("-")

    def possible_ranks(self, card: Mapping[str, Any]) -> str:
        ranks = sorted({r for rs in possible(card).values() for r in rs})
        return "".join(map(str, ranks)) or "-"

    # -- blocks ---------------------------------------------------------------------

    def header(
        self, view: Mapping[str, Any], game_id: str | None, elapsed: float = 0.0
    ) -> list[Text]:
        title = Text("Hanabi", style="bold")
        gid = game_id or view.get("id")
        if gid:
            title.append(_(" · game {id}", id=gid))
        title.append(f" · {self.info.name}")
        if game_status(view) == GameStatus.LOBBY:
            title.append(_(" · lobby"))
            return [title]
        title.append(_(" · turn {turn}", turn=int(view.get("turn") or 0) + 1))
        if view.get("custom_deal"):
            title.append(_(" · the host chose this deal"))
        fireworks = view.get("fireworks") or {}
        top = self.info.top_score(view)
        result = view.get("result") or {}
        played = view.get("score", 0)
        if "score" in result and result["score"] != played:
            # A strikeout scores 0 (unless the table kept the score): say both.
            score = Text(
                _(
                    "Score {score}/{top} ({played} played)",
                    score=result["score"],
                    top=top,
                    played=played,
                )
            )
        elif view.get("score_hidden") or played is None:
            # Throw It in a Hole: the plays lie face down, the score with them
            score = Text(_("Score hidden until the end"))
        else:
            score = Text(_("Score {score}/{top}", score=played, top=top))
        max_now = view.get("max_score")
        if isinstance(max_now, int) and max_now < top and not result:
            score.append(_(" (max {max} now)", max=max_now))
        score.append(_("   Clues {n}/{max}", n=view.get("clue_tokens", 0), max=MAX_CLUES))
        strikes = int(view.get("strikes") or 0)
        score.append(_("   Strikes "))
        score.append(f"{strikes}/{MAX_STRIKES}", style="bold red" if strikes else "")
        score.append(_("   Deck {n}", n=view.get("deck_size", 0)))
        if view.get("turns_left") is not None and not view.get("result"):
            left = int(view["turns_left"])
            score.append(
                n_("   Final round: {n} turn left", "   Final round: {n} turns left", left),
                style="bold",
            )
        works = Text(_("Fireworks "))
        for suit, rank in fireworks.items():
            works.append(" ")
            works.append_text(self.card(suit, rank))
        if any(rank is None for rank in fireworks.values()):
            works.append(_("  (each hidden until the end)"))
        clocks = clocks_line(view, player_names(view), elapsed)
        return [title, score, works] if clocks is None else [title, score, clocks, works]

    def players(self, view: Mapping[str, Any]) -> list[Text]:
        """The lobby: who sits where."""
        names = player_names(view)
        seats = view.get("max_players")
        if seats:
            lines = [Text(_("Players ({n} of {seats} seated):", n=len(names), seats=seats))]
        else:
            lines = [Text(_("Players ({n} seated):", n=len(names)))]
        for seat, name in enumerate(names):
            lines.append(Text(f"  {seat + 1} {name}{self._tags(view, seat)}"))
        return lines

    def _tags(self, view: Mapping[str, Any], seat: int) -> str:
        tags = []
        if view.get("you") == seat:
            tags.append(_("you"))
        if shadow_seat(view) == seat:
            tags.append(_("shadowed"))
        if view.get("host") == seat:
            tags.append(_("host"))
        players = view.get("players") or []
        player = players[seat] if seat < len(players) else None
        kind = seat_kind(player) if isinstance(player, Mapping) else None
        if kind:
            tags.append(kind)
        return f" ({_(', ').join(tags)})" if tags else ""

    def hand(self, view: Mapping[str, Any], seat: int, name: str) -> list[Text]:
        cards = (view.get("hands") or [])[seat] if seat < len(view.get("hands") or []) else []
        head = Text(f"{seat + 1} {name}{self._tags(view, seat)}", style="bold")
        if view.get("current_seat") == seat and not view.get("result"):
            head.append(_("  ◀ to play"), style="bold reverse")
        lines = [head, self._row(N_("slot"), [str(i + 1) for i in range(len(cards))])]
        shown = [c for c in cards if c.get("suit") is not None or c.get("rank") is not None]
        if cards and len(shown) == len(cards):
            lines.append(
                self._row(N_("card"), [self.card(c["suit"], c["rank"], is_clued(c)) for c in cards])
            )
            lines.append(self._row(N_("knows"), [self.card(*knows(c), is_clued(c)) for c in cards]))
        else:
            lines.append(self._row(N_("knows"), [self.card(*knows(c), is_clued(c)) for c in cards]))
            lines.append(self._row(N_("suits"), [self.possible_suits(c) for c in cards]))
            lines.append(self._row(N_("ranks"), [self.possible_ranks(c) for c in cards]))
        lines += [Text(f"  {line}", style="italic") for line in note_lines(view, cards, self.info)]
        return lines

    def discards(self, view: Mapping[str, Any]) -> Text:
        line = Text(_("Discards "))
        piles = view.get("discards") or []
        if not piles:
            line.append(_(" none"))
            return line
        order = [s.id for s in self.info.suits]
        order += [d["suit"] for d in piles if d["suit"] not in order]
        marked = False
        for suit in dict.fromkeys(order):
            pile = sorted((d for d in piles if d["suit"] == suit), key=lambda d: d["rank"])
            if not pile:
                continue
            line.append(" ")
            line.append(f"{self.info.letter(suit)}:", style=self.info.suit(suit).style)
            for d in pile:
                line.append(f" {d['rank']}", style=self.info.suit(suit).style)
                if d.get("misplayed"):
                    line.append("!", style="bold red")
                    marked = True
            line.append(" ")
        line.rstrip()
        if marked:
            line.append(_("   (! misplayed)"), style=DIM)
        return line

    def result(self, view: Mapping[str, Any]) -> Text:
        text = Text(game_over_line(view, self.info), style="bold")
        changes = (view.get("result") or {}).get("rating_changes") or {}
        names = player_names(view)
        for seat, change in sorted(changes.items(), key=lambda item: int(item[0])):
            name = seat_name(names, int(seat))
            delta = change["after"] - change["before"]
            text.append(
                "\n  "
                + _(
                    "{name}: rating {before} -> {after} ({change})",
                    name=name,
                    before=format(change["before"], ".1f"),
                    after=format(change["after"], ".1f"),
                    change=format(delta, "+.1f"),
                )
            )
        return text

    def turn_line(self, view: Mapping[str, Any]) -> Text:
        if view.get("result"):
            return self.result(view)
        current = view.get("current_seat")
        names = player_names(view)
        if current is None:
            return Text("")
        if (view.get("pause") or {}).get("paused"):  # docs/lobby.md: nobody moves
            return Text(_("Paused: type resume to vote to go on."), style="bold")
        if view.get("you") == current:
            line = Text(_("Your turn."), style="bold")
            line.append(" " + _("Clues: {clues}.", clues=clue_options(self.info)), style="")
            return line
        return Text(_("{name}'s turn.", name=seat_name(names, current)))

    # -- the whole table ------------------------------------------------------------

    def render(
        self,
        view: Mapping[str, Any],
        *,
        recent: Sequence[str] = (),
        chat: Sequence[str] = (),
        game_id: str | None = None,
        join_hint: str | None = None,
        elapsed: float = 0.0,
    ) -> Text:
        """The whole table as one Text; ``recent`` are the last moves, in words;
        ``elapsed``: seconds since the view arrived (the running clock counts down);
        ``chat``: the last chat lines, listed apart from the moves."""
        lines = self.header(view, game_id, elapsed)
        last = last_move(view, self.info)
        if last is not None:
            lines.append(Text(_("Last move: {move}", move=last), style="bold"))
        lobby = game_status(view) == GameStatus.LOBBY
        if lobby:
            lines += self.players(view)
            invited = (view.get("rematch") or {}).get("invited")
            if invited:  # the next game with the same seats (docs/lobby.md)
                lines.append(Text(_("Seats kept for: {names}", names=", ".join(invited))))
            if view.get("custom_deal"):
                lines.append(Text(_(CUSTOM_DEAL), style="bold"))
            if join_hint and not is_full(view):
                lines.append(Text(_("Friends join with: {command}", command=join_hint)))
        else:
            names = player_names(view)
            you = view.get("you")
            # Your own hand first (or the one a spectator shadows), then the others in
            # seat order after it.
            n = len(names)
            shadowed = shadow_seat(view)
            start = you if isinstance(you, int) else shadowed if shadowed is not None else 0
            for k in range(n):
                seat = (start + k) % n
                lines.append(Text(""))
                lines += self.hand(view, seat, names[seat])
            lines.append(Text(""))
            lines.append(self.discards(view))
        if recent:
            lines.append(Text(""))
            lines.append(Text(_("Last moves:"), style="bold"))
            lines += [Text(f"  {r}") for r in recent]
        if chat:
            lines.append(Text(""))
            lines.append(Text(_("Chat:"), style="bold"))
            lines += [Text(f"  {line}") for line in chat]
        lines.append(Text(""))
        watching = watching_line(view)  # a spectator: what the table shows them
        if watching is not None:
            lines.append(Text(watching, style=DIM))
        lines.append(self.lobby_line(view) if lobby else self.turn_line(view))
        out = Text("\n").join(lines)
        return out

    def lobby_line(self, view: Mapping[str, Any]) -> Text:
        host = view.get("you") is not None and view.get("you") == view.get("host")
        if is_full(view):
            if host:
                return Text(
                    _(
                        'Every seat is taken. Type "start" to deal '
                        '("start watch" deals and watches without you).'
                    )
                )
            return Text(_("Every seat is taken: waiting for the host to start the game."))
        if host:
            return Text(
                _(
                    'Waiting for players. Type "start" when everyone is seated '
                    '("bot" seats a bot; "start watch" deals and watches).'
                )
            )
        return Text(_("Waiting for the host to start the game."))


def is_full(view: Mapping[str, Any]) -> bool:
    """A lobby whose every seat is taken."""
    seats = view.get("max_players")
    return isinstance(seats, int) and len(view.get("players") or []) >= seats


def game_over_line(view: Mapping[str, Any], info: VariantInfo) -> str:
    """ "Game over (three strikes): final score 0/25", out of the variant's perfect score."""
    result = view.get("result") or {}
    reason = end_reason(result.get("reason"))
    return _(
        "Game over ({reason}): final score {score}/{top}",
        reason=reason,
        score=result.get("score"),
        top=info.top_score(view),
    )


def render_plain(view: Mapping[str, Any], info: VariantInfo | None = None, **kw: Any) -> str:
    """The table as plain text (what a terminal without colour shows)."""
    renderer = TableRenderer(info or VariantInfo.from_view(view))
    return renderer.render(view, **kw).plain
