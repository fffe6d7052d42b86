"""``shanghai-rummy variants [ID] [--toml | --json] [--output FILE]``, ``variants --schema``:
the presets, one variant's rules, a variant written as a file to edit, or the JSON Schema of
variant files."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..contracts import CardValues
from ..variant_file_schema import variant_file_schema
from ..variant_files import variant_to_dict
from ..variants import VARIANTS, Progression, Variant
from .common import PROG, UsageError, variant_argument
from .variant_template import json_text, toml_text, value_ranges

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``variants`` and its options to the command's subparsers."""
    info = commands.add_parser(
        "variants",
        help="list the presets, show one variant's rules, or write one as a file to edit",
        description="List the presets; with ID, show that variant's rules; with --toml or "
        "--json, write it as a variant file to edit (then play it with --variant FILE).",
    )
    info.add_argument("variant", nargs="?", metavar="ID", help="a preset id or a variant file")
    form = info.add_mutually_exclusive_group()
    form.add_argument("--toml", action="store_true", help="write the variant as a TOML file")
    form.add_argument("--json", action="store_true", help="write the variant as a JSON file")
    form.add_argument(
        "--schema",
        action="store_true",
        help="write the JSON Schema of variant files (for editors: taplo, VS Code)",
    )
    info.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE instead of the standard output"
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the presets, show one variant's rules, or write a file."""
    if args.schema:
        if args.variant is not None:
            raise UsageError("--schema takes no ID: the schema is the same for every variant")
        return _write(json.dumps(variant_file_schema(), indent=2) + "\n", args.output, out)
    if args.toml or args.json:
        if args.variant is None:
            raise UsageError("--toml and --json write one variant: name its ID")
        variant = variant_argument(args.variant)
        text = toml_text(variant) if args.toml else json_text(variant) + "\n"
        return _write(text, args.output, out)
    if args.output is not None:
        raise UsageError("--output goes with --toml, --json or --schema")
    if args.variant is None:
        return _list_variants(out)
    return _show_variant(args.variant, out)


def _write(text: str, output: str | None, out: TextIO) -> int:
    if output is None:
        out.write(text)
        return 0
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {output!r}: {error.strerror}") from None
    return 0


def _players(variant: Variant) -> str:
    return f"{variant.min_players}-{variant.max_players}"


def _deal_count(variant: Variant) -> str:
    return "1 per seat" if variant.deal_count is None else str(variant.deal_count)


def _list_variants(out: TextIO) -> int:
    rows = [("id", "players", "deals", "name")]
    for variant_id in sorted(VARIANTS):
        variant = VARIANTS[variant_id]
        rows.append((variant_id, _players(variant), _deal_count(variant), variant.name))
    out.write(_columns(rows))
    out.write(f"\nShow one variant's rules: {PROG} variants ID\n")
    return 0


def _columns(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]) - 1)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines) + "\n"


def _values_text(values: CardValues) -> str:
    """Card values with runs of equal ranks joined: ``2: 20, 3-9: 5, 10-K: 10, ...``."""
    return ", ".join(f"{span}: {value}" for span, value in value_ranges(values).items())


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "none"
        if all(isinstance(item, list) and len(item) == 2 for item in value):
            return ", ".join(f"{first}: {second}" for first, second in value)
        return ", ".join(_value_text(item) for item in value)
    return str(value)


_PAIRS = {
    "jokers.going_down_by_size": "group size: most jokers when going down",
    "buying.limits": "from deal: most buys",
}


def _show_variant(name: str, out: TextIO) -> int:
    variant = variant_argument(name)
    rows: list[tuple[str, str]] = [
        ("id", variant.id),
        ("name", variant.name),
        ("source", variant.source),
        ("players", _players(variant)),
    ]
    for pack in variant.packs:
        seats = str(pack.min_players)
        if pack.max_players != pack.min_players:
            seats += f"-{pack.max_players}"
        decks = f"{pack.decks} deck{'s' if pack.decks != 1 else ''}"
        jokers = f"{pack.jokers} joker{'s' if pack.jokers != 1 else ''}"
        rows.append((f"pack, {seats} players", f"{decks} + {jokers} = {pack.cards} cards"))
    # progressive contracts: the deals are levels each seat climbs, deal_count the most deals
    climbing = variant.progression is Progression.PER_SEAT
    label = "most deals in a game" if climbing else "deals in a game"
    rows.append((label, _deal_count(variant)))
    for number, spec in enumerate(variant.deals, start=1):
        name = f"level {number}" if climbing else f"deal {number}"
        rows.append((name, f"{spec.cards} cards; {spec.requirement.describe()}"))
    document = variant_to_dict(variant)
    for key, value in document.items():
        if key in ("id", "name", "source", "min_players", "max_players", "packs", "deals"):
            continue
        if key == "deal_count":
            continue
        if key == "buying" and not variant.buying.enabled:
            rows.append(("buying", "none (buying.enabled = no)"))
            continue
        if isinstance(value, dict):
            for field, item in value.items():
                if key == "scoring" and field == "values":
                    rows.append(("scoring.values", _values_text(variant.scoring.values)))
                else:
                    label = f"{key}.{field}"
                    text = _value_text(item)
                    if label in _PAIRS and item:
                        text += f"  ({_PAIRS[label]})"
                    rows.append((label, text))
        else:
            rows.append((key, _value_text(value)))
    width = max(len(label) for label, _ in rows)
    for label, text in rows:
        out.write(f"{label.ljust(width)}  {text}\n")
    return 0
