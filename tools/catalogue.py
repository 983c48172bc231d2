"""Write shared/hanabi/game/catalogue.json from hanab.live's published suits and variants.

Usage: ``python tools/catalogue.py [HANABLIVE] [OUT]`` (``make catalogue HANABLIVE=...``).
HANABLIVE is a checkout of hanab.live's repository or its bare git directory; the data is
read from ``packages/game/src/json/{colors,suits,variants}.json`` at its HEAD. The output
keeps hanab.live's facts (names, numeric ids, suits, clue colours and ranks, rule flags)
in our own field names, plus the values the engine derives (card counts, maximum score),
and records the source commit and date so a regenerated file says what it came from.

Only the standard library is used: the script runs before any install.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = Path("/work/.mirror/Hanabi-Live+hanabi-live/repo")
DEFAULT_OUT = ROOT / "shared" / "hanabi" / "game" / "catalogue.json"
DATA_DIR = "packages/game/src/json"
REVERSED_SUFFIX = " Reversed"
START_RANK = 7

#: hanab.live's variant flags and the names the engine uses for them.
RULE_FLAGS = {
    "specialRankAllClueColors": "special_rank_all_colors",
    "specialRankAllClueRanks": "special_rank_all_ranks",
    "specialRankNoClueColors": "special_rank_no_colors",
    "specialRankNoClueRanks": "special_rank_no_ranks",
    "specialRankDeceptive": "special_rank_deceptive",
    "scarceOnes": "scarce_ones",
    "clueStarved": "clue_starved",
    "colorCluesTouchNothing": "color_clues_touch_nothing",
    "rankCluesTouchNothing": "rank_clues_touch_nothing",
    "alternatingClues": "alternating_clues",
    "cowAndPig": "cow_and_pig",
    "duck": "duck",
    "oddsAndEvens": "odds_and_evens",
    "synesthesia": "synesthesia",
    "upOrDown": "up_or_down",
    "throwItInAHole": "throw_it_in_a_hole",
    "funnels": "funnels",
    "chimneys": "chimneys",
    "sudoku": "sudoku",
}
RULE_VALUES = {"specialRank": "special_rank", "criticalRank": "critical_rank"}
KNOWN_VARIANT_KEYS = {"id", "newID", "name", "suits", "clueColors", "clueRanks", "stackSize"}
SUIT_FLAGS = {
    "oneOfEach": "one_of_each",
    "allClueColors": "all_clue_colors",
    "noClueColors": "no_clue_colors",
    "allClueRanks": "all_clue_ranks",
    "noClueRanks": "no_clue_ranks",
    "prism": "prism",
    "inverted": "inverted",
}
KNOWN_SUIT_KEYS = {
    "name", "id", "pip", "abbreviation", "createVariants", "displayName", "fill", "fillColors",
    "clueColors", *SUIT_FLAGS,
}  # fmt: skip


def slug(name: str) -> str:
    """Our identifier for a hanab.live suit or colour name: "Muddy Rainbow" -> "muddy_rainbow"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def read_source(source: Path, name: str) -> Any:
    """One of hanab.live's JSON files, from a work tree or (bare) git directory."""
    path = source / DATA_DIR / f"{name}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    text = git(source, "show", f"HEAD:{DATA_DIR}/{name}.json")
    return json.loads(text)


def git(source: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(source), *args], check=True, capture_output=True, text=True
    ).stdout


def source_commit(source: Path) -> dict[str, str]:
    sha, date = git(source, "log", "-1", "--format=%H %cI").split()
    return {"repository": "Hanabi-Live/hanabi-live", "commit": sha, "date": date}


def build_colors(colors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in colors:
        out.append(
            {
                "id": slug(c["name"]),
                "name": c["name"],
                "abbreviation": c.get("abbreviation", c["name"][0]),
                "fill": c["fill"],
                "fill_colorblind": c.get("fillColorblind", c["fill"]),
            }
        )
    return out


def build_suits(suits: list[dict[str, Any]], colors: dict[str, dict[str, Any]]) -> list[dict]:
    out = []
    for s in suits:
        unknown = set(s) - KNOWN_SUIT_KEYS
        if unknown:
            raise SystemExit(f"suit {s['name']!r} has fields this script does not know: {unknown}")
        name = s["name"]
        if name == "Unknown":
            continue  # hanab.live's placeholder for a card nobody has seen; not a real suit
        clue_colors = s.get("clueColors")
        if clue_colors is None:
            if s.get("allClueColors") or s.get("noClueColors") or s.get("prism"):
                clue_colors = []
            else:
                clue_colors = [name]
        for c in clue_colors:
            if c not in colors:
                raise SystemExit(f"suit {name!r} names an unknown colour {c!r}")
        abbreviation = s.get("abbreviation")
        if abbreviation is None:
            color = colors.get(name)
            abbreviation = color["abbreviation"] if color else name[0]
        display = s.get("displayName", name)
        fill = s.get("fill")
        fill_colorblind = fill
        if fill is None:
            color = colors.get(display) or (colors[clue_colors[0]] if clue_colors else None)
            fill = color["fill"]
            fill_colorblind = color["fill_colorblind"]
        suit: dict[str, Any] = {
            "id": slug(name),
            "name": name,
            "hanablive_id": s["id"],
            "display_name": display,
            "abbreviation": abbreviation,
            "pip": s["pip"],
            "fill": fill,
            "fill_colorblind": fill_colorblind,
            "fill_colors": s.get("fillColors", []),
            "clue_colors": [slug(c) for c in clue_colors],
        }
        for key, ours in SUIT_FLAGS.items():
            if s.get(key):
                suit[ours] = True
        if s.get("createVariants"):
            suit["special"] = True  # hanab.live builds its variant families from these
        out.append(suit)
    return out


def copies(suit: dict[str, Any], reversed_: bool, rank: int, rules: dict[str, Any]) -> int:
    """Copies of a card in the deck, as hanab.live deals them."""
    if suit.get("one_of_each"):
        return 1
    if rules.get("critical_rank") == rank:
        return 1
    if rules.get("sudoku"):
        return 2
    if rank == 1:
        if rules.get("up_or_down") or reversed_:
            return 1
        return 2 if rules.get("scarce_ones") else 3
    if rank == 5:
        return 3 if reversed_ else 1
    if rank == START_RANK:
        return 1
    return 2


def build_variants(
    variants: list[dict[str, Any]], suits: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    out = []
    for v in variants:
        unknown = set(v) - KNOWN_VARIANT_KEYS - set(RULE_FLAGS) - set(RULE_VALUES)
        if unknown:
            raise SystemExit(
                f"variant {v['name']!r} has fields this script does not know: {unknown}"
            )
        rules: dict[str, Any] = {}
        for key, ours in RULE_FLAGS.items():
            if v.get(key):
                rules[ours] = True
        for key, ours in RULE_VALUES.items():
            if key in v:
                rules[ours] = v[key]
        stack_size = v.get("stackSize", 5)
        if stack_size != 5:
            rules["stack_size"] = stack_size
        suit_refs = []
        for name in v["suits"]:
            reversed_ = name.endswith(REVERSED_SUFFIX)
            base = name[: -len(REVERSED_SUFFIX)] if reversed_ else name
            if base not in suits:
                raise SystemExit(f"variant {v['name']!r} names an unknown suit {name!r}")
            suit_refs.append((suits[base], reversed_))
        if "clueColors" in v:
            clue_colors = [slug(c) for c in v["clueColors"]]
        else:
            clue_colors = []
            for suit, _ in suit_refs:
                if suit.get("all_clue_colors"):
                    continue
                for c in suit["clue_colors"]:
                    if c not in clue_colors:
                        clue_colors.append(c)
        ranks = list(range(1, stack_size + 1)) + ([START_RANK] if rules.get("up_or_down") else [])
        deck_size = sum(copies(s, r_, rank, rules) for s, r_ in suit_refs for rank in ranks)
        entry: dict[str, Any] = {
            "id": v["id"],
            "name": v["name"],
            "new_id": v["newID"],
            "suits": [s["id"] + ("_reversed" if r_ else "") for s, r_ in suit_refs],
            "clue_colors": clue_colors,
            "clue_ranks": v.get("clueRanks", [1, 2, 3, 4, 5]),
        }
        if rules:
            entry["rules"] = rules
        entry["deck_size"] = deck_size
        entry["max_score"] = len(suit_refs) * stack_size
        out.append(entry)
    return out


def build(source: Path) -> dict[str, Any]:
    colors = build_colors(read_source(source, "colors"))
    by_name = {c["name"]: c for c in colors}
    suits = build_suits(read_source(source, "suits"), by_name)
    variants = build_variants(read_source(source, "variants"), {s["name"]: s for s in suits})
    return {
        "generated": "by tools/catalogue.py (make catalogue); do not edit by hand",
        "source": source_commit(source),
        "colors": colors,
        "suits": suits,
        "variants": variants,
    }


def write(data: dict[str, Any], out: Path) -> None:
    """One variant, suit or colour per line: small diffs when hanab.live adds a variant."""
    lines = ["{"]
    for key in ("generated", "source"):
        lines.append(f"{json.dumps(key)}: {json.dumps(data[key], ensure_ascii=False)},")
    for i, key in enumerate(("colors", "suits", "variants")):
        items = [json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in data[key]]
        tail = "," if i < 2 else ""
        lines.append(f'"{key}": [\n' + ",\n".join(items) + f"\n]{tail}")
    lines.append("}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 and argv[1] else DEFAULT_SOURCE
    out = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUT
    if not source.exists():
        print(f"No hanab.live checkout at {source}: pass HANABLIVE=<path>.", file=sys.stderr)
        return 2
    data = build(source)
    write(data, out)
    print(
        f"{out}: {len(data['variants'])} variants, {len(data['suits'])} suits, "
        f"{len(data['colors'])} colours from {data['source']['commit'][:12]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
