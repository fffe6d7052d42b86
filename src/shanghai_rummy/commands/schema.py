"""``shanghai-rummy schema [--output FILE]``: the JSON Schema of the documents, for other
languages (the same as ``schema/shanghai-rummy.schema.json``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from ..schema import json_schema
from .common import UsageError

__all__ = ["add_parser", "run", "schema_text"]


def add_parser(commands: Any) -> None:
    """Add ``schema`` and its option to the command's subparsers."""
    sub = commands.add_parser(
        "schema",
        help="print the JSON Schema of the documents (games, actions, views, events, ...)",
        description="Print the JSON Schema (draft 2020-12) of every document the library "
        "writes and reads: the file schema/shanghai-rummy.schema.json of the repository.",
    )
    sub.add_argument("--output", metavar="FILE", help="write it to FILE instead")


def schema_text() -> str:
    """The schema as the committed file holds it: indented JSON and a final line end."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print (or write) the schema."""
    text = schema_text()
    if args.output is None:
        out.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.output!r}: {error.strerror or error}") from None
    return 0
