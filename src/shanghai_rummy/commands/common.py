"""What the subcommands share: bad input as :class:`UsageError`, argument types, the variant
and bot options."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

import attrs

from ..errors import RummyError
from ..simulate import check_bot
from ..variant_files import load_variant
from ..variants import VARIANTS, Variant, get_variant

__all__ = [
    "PROG",
    "UsageError",
    "bot_names",
    "checked_variant",
    "integer",
    "is_tty",
    "positive",
    "variant_argument",
    "variant_options",
]

PROG = "shanghai-rummy"


class UsageError(Exception):
    """Bad input on the command line: reported with exit status 2."""


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def variant_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default="shanghai",
        metavar="ID",
        help="a preset id (see `variants`) or a TOML/JSON variant file (default shanghai)",
    )
    parser.add_argument("--players", type=positive, default=4, help="seats (default 4)")
    parser.add_argument(
        "--deals", type=positive, default=None, help="play only the first DEALS deals"
    )


def variant_argument(name: str) -> Variant:
    if name in VARIANTS:
        return get_variant(name)
    path = Path(name)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        if not path.is_file():
            raise UsageError(f"no variant file {name!r}")
        try:
            return load_variant(path)
        except OSError as error:
            raise UsageError(f"cannot read {name!r}: {error.strerror}") from None
    known = ", ".join(sorted(VARIANTS))
    raise UsageError(f"unknown variant {name!r}; known: {known} (or a .toml/.json file)")


def checked_variant(args: argparse.Namespace) -> Variant:
    variant = variant_argument(args.variant)
    variant.pack_size(args.players)  # VariantError names the allowed range
    if args.deals is not None:
        variant = attrs.evolve(variant, deal_count=args.deals)
    return variant


def bot_names(text: str, count: int) -> tuple[str, ...]:
    """The bots of ``--bots`` for ``count`` seats: built-in names (any case) or your own as
    ``module:ClassName``, looked up from the current directory first, as ``python -m`` does."""
    names = tuple(name.strip() if ":" in name else name.strip().lower() for name in text.split(","))
    if any(":" in name for name in names) and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    for name in names:
        try:
            check_bot(name)
        except RummyError as error:
            raise UsageError(str(error)) from None
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise UsageError(
            f"--bots names {len(names)} bots for {count} seats: name one for all, or one per seat"
        )
    return names


def is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())
