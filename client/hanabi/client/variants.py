"""What the client needs to know about a variant to draw it and read clues.

The server's ``GET /variants`` is the source (suit names, letters, clue colours); when it
cannot be had, the suits are read off the view itself and the well-known ones get their
usual letters, so a table can always be drawn without the rules engine.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .api import ApiError, Client
from .i18n import _
from .words import COLOURS, colour_word

# Letter and terminal style of the shipped suits; others get their initial, unstyled.
KNOWN_SUITS: dict[str, tuple[str, str, str]] = {
    "red": ("Red", "R", "bold red"),
    "yellow": ("Yellow", "Y", "bold yellow"),
    "green": ("Green", "G", "bold green"),
    "blue": ("Blue", "B", "bold bright_blue"),
    "white": ("White", "W", "bold bright_white"),
    "multicolor": ("Multicolor", "M", "bold magenta"),
    "black": ("Black", "K", "bold bright_black"),
    "rainbow": ("Rainbow", "M", "bold magenta"),
    "dark_rainbow": ("Dark Rainbow", "M", "bold magenta"),
    "wild_rainbow": ("Wild Rainbow", "M", "bold magenta"),
}
KNOWN_VARIANT_NAMES = {
    "no_variant": "No Variant",
    "six_suits": "Six Suits",
    "single_sixth": "Single Sixth",
    "rainbow": "Rainbow",
    "single_rainbow": "Single Rainbow",
    "wild_rainbow": "Wild Rainbow",
    "black_powder": "Black Powder",
}


@dataclass(frozen=True)
class SuitInfo:
    id: str
    name: str
    letter: str
    style: str


@dataclass(frozen=True)
class VariantInfo:
    id: str
    name: str
    suits: tuple[SuitInfo, ...]
    clue_colors: tuple[str, ...]
    clue_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    max_score: int | None = None  # the variant's perfect score (None: not known)
    color_names: tuple[str, ...] = ()  # clue_colors as people say them ("Red"), if known

    def suit(self, suit_id: str | None) -> SuitInfo:
        for s in self.suits:
            if s.id == suit_id:
                return s
        return _suit(suit_id or "?")

    def top_score(self, view: Mapping[str, Any]) -> int:
        """The variant's perfect score: from the server, else 5 per firework of the view.

        Not the view's ``max_score``, which is the best score still reachable."""
        if self.max_score is not None:
            return self.max_score
        fireworks = view.get("fireworks") or {}
        return 5 * len(fireworks) if fireworks else 25

    def letter(self, suit_id: str | None) -> str:
        return self.suit(suit_id).letter if suit_id else "?"

    def color_letter(self, color: str) -> str:
        """The letter a player types for a clue colour (``r`` for red, ``k`` for black)."""
        for s in self.suits:
            if s.id == color:
                return s.letter.lower()
        known = KNOWN_SUITS.get(color)
        return (known[1] if known else color[:1]).lower()

    @classmethod
    def from_api(cls, data: Mapping[str, Any]) -> VariantInfo:
        """From one entry of ``GET /variants``."""
        suits = []
        for s in data.get("suits", []):
            known = KNOWN_SUITS.get(s["id"])
            suits.append(
                SuitInfo(
                    s["id"],
                    s.get("display_name") or s.get("name") or (known[0] if known else s["id"]),
                    s.get("abbreviation") or (known[1] if known else s["id"][:1].upper()),
                    known[2] if known else fill_style(s.get("fill")),
                )
            )
        suits = distinct(suits)
        colors = data.get("clue_colors")
        if colors is None:
            colors = [s["color"] for s in data.get("suits", []) if s.get("color")]
        return cls(
            data["id"],
            data.get("name") or data["id"],
            tuple(suits),
            tuple(colors),
            tuple(data.get("clue_ranks") or (1, 2, 3, 4, 5)),
            data.get("max_score") if isinstance(data.get("max_score"), int) else None,
            tuple(data.get("clue_color_names") or ()),
        )

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> VariantInfo:
        """Guessed from a view alone: the suits its cards could be, in view order."""
        suit_ids: list[str] = []

        def add(ids: Iterable[str]) -> None:
            for i in ids:
                if i not in suit_ids:
                    suit_ids.append(i)

        for hand in view.get("hands") or []:
            for card in hand:
                add((card.get("knowledge") or {}).get("possible", {}))
        add(view.get("fireworks") or {})
        suits = tuple(distinct([_suit(i) for i in suit_ids]))
        colors = tuple(s.id for s in suits if s.id in KNOWN_SUITS and "rainbow" not in s.id)
        variant_id = str(view.get("variant") or "?")
        return cls(variant_id, KNOWN_VARIANT_NAMES.get(variant_id, variant_id), suits, colors)


#: Characters a reader takes for a digit next to a rank ("I1" for a pink 1, "O0", "З4"):
#: never a suit's symbol. The web client refuses the same (suits.js, DIGIT_LIKE).
DIGIT_LIKE = frozenset("OoОоΟοΌIlІіӀ|ЗзӠӡƷʒЧчБб〇一二三四五六七八九十零")
#: Letters of other scripts that look like a Latin one: two suits' symbols must differ in
#: looks, not only in code points (a Cyrillic "Р" beside a Latin "P").
LOOKALIKE = str.maketrans("АВЕКМНОРСТХУ", "ABEKMHOPCTXY")
#: Where a suit finds a symbol when neither its own letter nor one of its name is free.
SPARE_LETTERS = "ABCDEFGHJKLMNPRTUVWXYZ"


def symbol_ok(char: str) -> bool:
    """Whether ``char`` may be a suit's symbol: one letter, not a digit nor like one."""
    return len(char) == 1 and unicodedata.category(char).startswith("L") and char not in DIGIT_LIKE


def suit_symbols(preferred: Sequence[str], names: Sequence[Sequence[str]]) -> list[str]:
    """One symbol per suit of a variant, all different in looks, none a digit or like
    one: each suit keeps its ``preferred`` letter (its abbreviation, or its letter in the
    reader's language) when it may and no suit before it took it; the others take the
    first free letter of their ``names`` (in order), else a spare letter. The same rule
    as the web client's (suits.js, suitSymbols), so both draw a variant alike."""
    out: list[str | None] = [None] * len(preferred)
    taken: set[str] = set()

    def take(i: int, char: str) -> bool:
        char = char.upper()
        key = char.translate(LOOKALIKE)
        if not symbol_ok(char) or key in taken:
            return False
        out[i] = char
        taken.add(key)
        return True

    for i, letter in enumerate(preferred):
        take(i, letter[:1] if letter else "")
    for i in range(len(preferred)):
        if out[i] is None:
            candidates = [c for name in names[i] for c in name] + list(SPARE_LETTERS)
            next((c for c in candidates if take(i, c)), None)
    return [c or "?" for c in out]


def distinct(suits: Sequence[SuitInfo]) -> list[SuitInfo]:
    """``suits`` with letters told apart (:func:`suit_symbols`): "Pink & Light Pink" has
    no "I" (read as 1) twice. The letter is what a card shows and what a clue's colour is
    typed as, in every language (the terminal keeps hanab.live's Latin letters)."""
    symbols = suit_symbols([s.letter for s in suits], [(s.name, s.id) for s in suits])
    return [replace(s, letter=c) for s, c in zip(suits, symbols, strict=True)]


def fill_style(fill: Any) -> str:
    """A terminal style for hanab.live's colour of a suit ("#e60000"): bold in it."""
    if isinstance(fill, str) and len(fill) == 7 and fill.startswith("#"):
        try:
            int(fill[1:], 16)
        except ValueError:
            return "bold"
        return f"bold {fill.lower()}"
    return "bold"


def clue_options(info: VariantInfo) -> str:
    """The clues of the variant as a player types them: "colours: red (r), blue (b);
    ranks: 1 2 3 4 5" (what a clue may name; the rules decide which are legal now). The
    colours in the player's language ("красный (r)"), their letters as typed."""
    names = info.color_names if len(info.color_names) == len(info.clue_colors) else ()
    colors = [
        f"{colour_word(c) if c in COLOURS else (names[i] if names else c).lower()}"
        f" ({info.color_letter(c)})"
        for i, c in enumerate(info.clue_colors)
    ]
    parts = [_("colours: {colours}", colours=", ".join(colors)) if colors else _("no colour clues")]
    ranks = " ".join(str(r) for r in info.clue_ranks)
    parts.append(_("ranks: {ranks}", ranks=ranks) if ranks else _("no rank clues"))
    return "; ".join(parts)


def _suit(suit_id: str) -> SuitInfo:
    known = KNOWN_SUITS.get(suit_id)
    if known:
        return SuitInfo(suit_id, *known)
    return SuitInfo(suit_id, suit_id.replace("_", " ").title(), suit_id[:1].upper(), "bold")


def variant_info(client: Client, view: Mapping[str, Any]) -> VariantInfo:
    """The variant of ``view`` as the server describes it (``GET /variants/{id}``), else
    as read off the view."""
    variant = view.get("variant")
    if variant:
        try:
            return VariantInfo.from_api(client.variant(str(variant)))
        except ApiError:
            pass
    return VariantInfo.from_view(view)
