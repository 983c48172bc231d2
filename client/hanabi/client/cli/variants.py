"""``hanabi-client variants``: search the server's catalogue of variants (every hanab.live
variant, and the server's own), a page at a time, each suit shown as the table draws it;
``hanabi-client variants NAME-OR-NUMBER`` shows one: its suits and which clues touch
them, the clues a player may give, its special rules."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..i18n import N_, _
from ..variants import VariantInfo, clue_options
from ..words import colour_word, suit_word
from .common import Fail, print_json

#: Suits whose clue colour is their own name, said no further in the legend.
BASIC_COLORS = ("red", "yellow", "green", "blue", "white", "purple")
PAGE = 20

#: The special rules (the API's ``rules`` keys) in words; ``{value}``: the rule's number.
RULES = {
    "special_rank": N_("the special rank is {value}: its cards are touched as the rules below say"),
    "special_rank_all_colors": N_("every colour clue touches the special rank"),
    "special_rank_all_ranks": N_("every rank clue touches the special rank"),
    "special_rank_no_colors": N_("no colour clue touches the special rank"),
    "special_rank_no_ranks": N_("no rank clue touches the special rank"),
    "special_rank_deceptive": N_(
        "deceptive: the special rank answers to a rank clue chosen by its suit's place"
    ),
    "critical_rank": N_("one copy of each {value}: every {value} is critical"),
    "scarce_ones": N_("scarce ones: two copies of each 1 instead of three"),
    "clue_starved": N_("clue starved: a discard gives back half a clue token"),
    "color_clues_touch_nothing": N_("colour-blind: a colour clue touches no card"),
    "rank_clues_touch_nothing": N_("number-blind: a rank clue touches no card"),
    "alternating_clues": N_("alternating clues: colour and rank clues take turns"),
    "cow_and_pig": N_("cow & pig: a clue says only moo (colour) or oink (rank)"),
    "duck": N_("duck: a clue says only quack, not even its kind"),
    "odds_and_evens": N_("odds and evens: a 1 clue touches 1, 3 and 5; a 2 clue 2 and 4"),
    "synesthesia": N_(
        "synesthesia: only colour clues; each also touches the rank at its colour's place"
    ),
    "up_or_down": N_("up or down: a firework starts at 1, 5 or START and goes up or down"),
    "throw_it_in_a_hole": N_(
        "throw it in a hole: plays go face down; fireworks and score hidden until the end"
    ),
    "funnels": N_("funnels: a rank clue touches its rank and every lower rank"),
    "chimneys": N_("chimneys: a rank clue touches its rank and every higher rank"),
    "sudoku": N_("sudoku: a firework starts at any rank no other started at, and wraps round"),
}


def cmd_variants(args: argparse.Namespace, client: Client, console: Console) -> int:
    if args.key:
        return show_one(args, client, console)
    try:
        page = client.variants(args.q, args.suits, args.rule, args.limit or PAGE, args.offset)
    except ApiError as exc:
        raise Fail(exc.detail) from None
    if args.json:
        print_json(page)
        return 0
    variants = page["variants"]
    for v in variants:
        info = VariantInfo.from_api(v)
        number = "" if v.get("hanablive_id") is None else str(v["hanablive_id"])
        line = Text(f"{number:>5}  {v['name']:<44} ")
        for s in info.suits:
            line.append(s.letter, style=s.style)
        line.append("  " + _("max {score}", score=v.get("max_score", "?")))
        aliases = v.get("aliases") or ([v["id"]] if v.get("hanablive_id") is None else [])
        if aliases:
            line.append("  " + _("(id {ids})", ids=", ".join(aliases)), style="dim")
        console.print(line)
    first, total = page["offset"] + 1, page["total"]
    if not variants:
        console.print(_("No variant matches ({total} in all).", total=total))
        return 0
    last = page["offset"] + len(variants)
    summary = "\n" + _("Variants {first}-{last} of {total}.", first=first, last=last, total=total)
    if page.get("next"):
        summary += " " + _("Next page: {command}", command=next_command(args, page))
    console.print(summary)
    console.print(variant_legend(variants))
    console.print(_("One in full: hanabi-client variants NAME-OR-NUMBER"))
    return 0


def next_command(args: argparse.Namespace, page: dict[str, Any]) -> str:
    words = ["hanabi-client variants"]
    if args.q:
        words.append(f"--q {args.q!r}" if " " in args.q else f"--q {args.q}")
    if args.suits:
        words.append(f"--suits {args.suits}")
    if args.rule:
        words.append(f"--rule {args.rule}")
    if args.limit:
        words.append(f"--limit {args.limit}")
    words.append(f"--offset {page['offset'] + page['limit']}")
    return " ".join(words)


def show_one(args: argparse.Namespace, client: Client, console: Console) -> int:
    try:
        v = client.variant(args.key)
    except ApiError as exc:
        raise Fail(exc.detail) from None
    if args.json:
        print_json(v)
        return 0
    info = VariantInfo.from_api(v)
    title = Text(v["name"], style="bold")
    if v.get("hanablive_id") is not None:
        title.append("  " + _("(hanab.live variant {number})", number=v["hanablive_id"]))
    elif v.get("hanablive_name"):
        title.append(
            "  " + _("(hanab.live's {name}, this service's suit names)", name=v["hanablive_name"])
        )
    console.print(title)
    ids = [v["id"]] if v["id"] != v["name"] else []
    ids += [a for a in v.get("aliases") or [] if a not in ids]
    if ids:
        console.print(_("Also: {ids} (create --variant takes any of these)", ids=", ".join(ids)))
    console.print(
        _(
            "{suits} suits, {cards} cards, max score {score}",
            suits=len(v["suits"]),
            cards=v.get("deck_size", "?"),
            score=v.get("max_score", "?"),
        )
    )
    console.print(Text(_("Suits:"), style="bold"))
    for data, suit in zip(v["suits"], info.suits, strict=False):
        line = Text("  ")
        line.append(f"{suit.letter:<3}", style=suit.style)
        line.append(suit_words(data, suit_name(data.get("display_name") or suit.name)))
        console.print(line)
    console.print(Text(_("Clues:"), style="bold"))
    console.print(f"  {clue_options(info)}")
    rules = v.get("rules") or {}
    if rules:
        console.print(Text(_("Special rules:"), style="bold"))
        for name, value in rules.items():
            console.print("  " + rule_words(name, value))
    return 0


def variant_legend(variants: list[dict[str, Any]]) -> Text:
    """What the suit letters stand for, each suit said from the server's data once."""
    by_letter: dict[str, list[str]] = {}
    styles: dict[str, str] = {}
    for v in variants:
        info = VariantInfo.from_api(v)
        for data, suit in zip(v.get("suits") or [], info.suits, strict=False):
            said = suit_words(data, suit_name(suit.name))
            if said not in by_letter.setdefault(suit.letter, []):
                by_letter[suit.letter].append(said)
            styles.setdefault(suit.letter, suit.style)
    out = Text("\n" + _("Suits (a card shows its suit letter and rank, e.g. R3, M5):"))
    for letter, said in by_letter.items():
        out.append("\n  ")
        out.append(letter, style=styles[letter])
        out.append(f"  {'; '.join(said)}")
    out.append("\n" + _("max: the perfect score, 5 per firework."))
    return out


def suit_name(name: str) -> str:
    """A suit's name as the table's language says it ("Rainbow", "彩虹", "радужная"): the
    catalogue's suit words, else the server's name as it is."""
    said = suit_word(name)
    return name if said == name.lower() else said


def rule_words(name: str, value: Any) -> str:
    """A special rule in a sentence of the reader's language; a rule this client does not
    know yet is said by its key (and its value)."""
    words = RULES.get(name)
    if words is None:
        return name.replace("_", " ") + ("" if value is True else f": {value}")
    return _(words, value=value)


def suit_words(data: dict[str, Any], name: str) -> str:
    """A suit in words: "Rainbow (every colour clue touches it; one of each rank)"."""
    notes = []
    own = data.get("color") or (data.get("touched_by") or [None])[0]
    if data.get("all_colors"):
        notes.append(_("every colour clue touches it"))
    elif data.get("no_colors"):
        notes.append(_("no colour clue touches it"))
    elif data.get("prism"):
        notes.append(_("touched by the colour in its rank's place"))
    elif len(data.get("touched_by") or []) > 1:
        colours = _(", ").join(colour_word(c) for c in data["touched_by"])
        notes.append(_("touched by {colours} clues", colours=colours))
    elif own and own not in BASIC_COLORS:
        notes.append(_("its own clue colour, {colour}", colour=colour_word(own)))
    if data.get("all_ranks"):
        notes.append(_("every rank clue touches it"))
    elif data.get("no_ranks"):
        notes.append(_("no rank clue touches it"))
    if data.get("one_of_each"):
        notes.append(_("one card of each rank"))
    if data.get("reversed"):
        notes.append(_("played 5 down to 1"))
    if data.get("inverted"):
        notes.append(_("playing it discards it, and the reverse"))
    if data.get("wild"):
        notes.append(_("wild: plays on any firework that needs its rank"))
    return f"{name} ({', '.join(notes)})" if notes else name


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "variants",
        parents=[common],
        help=_("the variants the server offers"),
        description=_(
            "Search the variants (every hanab.live variant, by its hanab.live "
            "name), a page at a time; with NAME-OR-NUMBER, show one in full."
        ),
    )
    p.add_argument(
        "key",
        nargs="?",
        metavar="NAME-OR-NUMBER",
        help=_("one variant: its hanab.live name (any case; quote it), number or id"),
    )
    p.add_argument("--q", metavar="TEXT", help=_("a piece of the name (e.g. pink)"))
    p.add_argument("--suits", type=int, metavar="N", help=_("only variants with N suits"))
    p.add_argument(
        "--rule",
        metavar="R",
        help=_(
            "a special rule (up_or_down, throw_it_in_a_hole, ...) or a suit kind "
            "(rainbow, pink, white, brown, dark, ...)"
        ),
    )
    p.add_argument(
        "--limit", type=int, metavar="N", help=_("variants per page (default {n})", n=PAGE)
    )
    p.add_argument("--offset", type=int, metavar="N", help=_("skip the first N matches"))
    p.set_defaults(run=cmd_variants)
