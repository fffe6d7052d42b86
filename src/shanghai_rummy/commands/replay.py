"""``shanghai-rummy replay FILE``: a saved game told move by move."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from ..engine import new_game
from ..records import GameRecord, record
from ..serialization import from_json
from ..simulate import narrate_game
from ..state import GameState
from .common import UsageError

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``replay`` and its argument to the command's subparsers."""
    rep = commands.add_parser("replay", help="tell a saved game move by move")
    rep.add_argument("file", metavar="FILE", help="a game record or saved game (JSON)")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Tell the saved game in ``args.file``."""
    return _replay(args.file, out)


def _replay(path_text: str, out: TextIO) -> int:
    path = Path(path_text)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {path_text!r}: {error.strerror or error}") from None
    try:
        kind = json.loads(text).get("type")
    except (ValueError, AttributeError):
        kind = None
    game: GameRecord
    if kind == "game_state":
        game = record(from_json(text, GameState))
    else:
        game = from_json(text, GameRecord)
    out.write(
        f"{game.variant.id}: {game.players} players, seed {game.seed}, {len(game.actions)} moves\n"
    )
    state = new_game(game.variant, players=game.players, seed=game.seed)
    for line in narrate_game(state, game.actions):
        out.write(line + "\n")
    return 0
