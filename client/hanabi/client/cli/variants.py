"""``hanabi-client variants``: the variants the server offers, each suit shown as the
table draws it, and what the suit letters stand for."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from ..i18n import _
from ..variants import VariantInfo
from .common import print_json

#: Suits whose clue colour is their own name, said no further in the legend.
BASIC_COLORS = ("red", "yellow", "green", "blue", "white")


def cmd_variants(args: argparse.Namespace, client: Client, console: Console) -> int:
    variants = client.variants()
    if args.json:
        print_json({"variants": variants})
        return 0
    for v in variants:
        info = VariantInfo.from_api(v)
        line = Text(f"{v['id']:<16} {v.get('name', ''):<30} ")
        for s in info.suits:
            line.append(s.letter, style=s.style)
        line.append(f"  max {v.get('max_score', '?')}")
        console.print(line)
    console.print(variant_legend(variants))
    return 0


def variant_legend(variants: list[dict[str, Any]]) -> Text:
    """What the suit letters stand for, each suit said from the server's data once."""
    by_letter: dict[str, list[str]] = {}
    styles: dict[str, str] = {}
    for v in variants:
        info = VariantInfo.from_api(v)
        for data, suit in zip(v.get("suits") or [], info.suits):
            said = suit_words(data, suit.name)
            if said not in by_letter.setdefault(suit.letter, []):
                by_letter[suit.letter].append(said)
            styles.setdefault(suit.letter, suit.style)
    out = Text("\nSuits (a card shows its suit letter and rank, e.g. R3, M5):")
    for letter, said in by_letter.items():
        out.append("\n  ")
        out.append(letter, style=styles[letter])
        out.append(f"  {'; '.join(said)}")
    out.append("\nmax: the perfect score, 5 per firework.")
    return out


def suit_words(data: dict[str, Any], name: str) -> str:
    """A suit in words: "Rainbow (every colour clue touches it; one of each rank)"."""
    notes = []
    if data.get("all_colors"):
        notes.append("every colour clue touches it")
    elif data.get("no_colors"):
        notes.append("no colour clue touches it")
    elif data.get("color") and data.get("color") not in BASIC_COLORS:
        notes.append(f"its own clue colour, {data['color']}")
    if data.get("all_ranks"):
        notes.append("every rank clue touches it")
    elif data.get("no_ranks"):
        notes.append("no rank clue touches it")
    if data.get("one_of_each"):
        notes.append("one card of each rank")
    if data.get("wild"):
        notes.append("wild: plays on any firework that needs its rank")
    return f"{name} ({', '.join(notes)})" if notes else name


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("variants", parents=[common], help=_("the variants the server offers"))
    p.set_defaults(run=cmd_variants)
