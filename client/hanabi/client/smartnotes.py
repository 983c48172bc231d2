"""Smart notes at the terminal, as on hanab.live and the web page: the words of your own
note that name cards (``r1``, ``b3 b4``, a suit letter or name alone, a rank alone)
narrow what the card may be, to those its clues still allow; ``kt`` says known trash,
``f`` finessed, ``cm`` chop moved. Shown beside the note, never instead of the clues'
own hint: a note is its author's belief."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .i18n import N_, _
from .variants import VariantInfo

#: The tags a note may hold, and how they are said.
TAGS = {"kt": N_("known trash"), "f": N_("finessed"), "cm": N_("chop moved")}
WORD = re.compile(r"^(\D*?)(\d)?$")


def read_note(info: VariantInfo, text: str) -> tuple[list[tuple[str, int]], list[str]]:
    """The identities (suit id, rank) a note names, and its tags, in the order written."""
    ids: list[tuple[str, int]] = []
    tags: list[str] = []
    ranks = list(info.clue_ranks) or [1, 2, 3, 4, 5]
    for raw in re.split(r"[\s,;/|]+", text.lower()):
        word = re.sub(r"[?!.()\[\]]", "", raw)
        if not word:
            continue
        if word in TAGS:
            if word not in tags:
                tags.append(word)
            continue
        m = WORD.match(word)
        if not m or (not m.group(1) and m.group(2) is None):
            continue
        rank = int(m.group(2)) if m.group(2) is not None else None
        if rank is not None and rank not in ranks:
            continue
        if m.group(1):
            suits = [s.id for s in info.suits if m.group(1) in (s.letter.lower(), s.name.lower())]
            if not suits:
                continue
        else:
            suits = [s.id for s in info.suits]
        ids += [(s, r) for s in suits for r in ([rank] if rank is not None else ranks)]
    return ids, tags


def smart_hint(info: VariantInfo, card: Mapping[str, Any], text: str) -> str | None:
    """What a note says of ``card`` ("may be R1 B1 · finessed"), or None when it names
    no card and holds no tag."""
    ids, tags = read_note(info, text)
    if not ids and not tags:
        return None
    parts = []
    if ids:
        knowledge = card.get("knowledge") or {}
        possible: Mapping[str, Any] = knowledge.get("deduced") or knowledge.get("possible") or {}
        left = [f"{info.letter(s)}{r}" for s, r in ids if r in (possible.get(s) or [])]
        parts.append(_("may be {cards}", cards=" ".join(left)) if left else _("none of these"))
    parts += [_(TAGS[t]) for t in tags]
    return " · ".join(parts)
