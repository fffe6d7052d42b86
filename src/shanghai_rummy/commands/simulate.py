"""``shanghai-rummy simulate``: games between bots, summed up."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from ..actions import Action
from ..engine import next_deal
from ..records import record
from ..serialization import to_json
from ..simulate import BOT_KINDS, deal_footer, deal_header, narrate, simulate
from ..state import GameState, Phase
from .common import (
    UsageError,
    bot_names,
    checked_variant,
    integer,
    is_tty,
    positive,
    variant_options,
)

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``simulate`` and its options to the command's subparsers."""
    sim = commands.add_parser("simulate", help="play games between bots and sum them up")
    variant_options(sim)
    sim.add_argument("--games", type=positive, default=1, help="games to play (default 1)")
    sim.add_argument("--seed", type=integer, default=0, help="seed of the first game (default 0)")
    sim.add_argument(
        "--bots",
        default="greedy",
        help=f"bots by seat, comma-separated: one for all seats or one per seat; "
        f"{', '.join(BOT_KINDS)} (default greedy)",
    )
    sim.add_argument("--workers", type=positive, default=1, help="processes (default 1)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--verbose", action="store_true", help="tell the first game move by move")
    sim.add_argument("--save", metavar="FILE", help="save the first game's record as JSON")
    sim.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )


class _Progress:
    """A plain progress line on a terminal's stderr, redrawn in place."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games")
        if done == total:
            self.stream.write("\r" + " " * (width + 24) + "\r")
        self.stream.flush()


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    variant = checked_variant(args)
    bots = bot_names(args.bots, args.players)
    first: list[GameState] = []

    def tell(before: GameState, action: Action, after: GameState) -> None:
        if not first:
            first.append(before)
            if args.verbose:
                out.write(f"Game 1: {variant.id}, {args.players} players, seed {args.seed}; ")
                out.write(", ".join(f"seat {seat} {bot}" for seat, bot in enumerate(bots)))
                out.write("\n")
                for line in deal_header(before):
                    out.write(line + "\n")
        first[:] = [after]
        if args.verbose:
            out.write(narrate(before, action, after) + "\n")
            if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                for line in deal_footer(after):
                    out.write(line + "\n")
                if after.phase is Phase.DEAL_OVER:
                    for line in deal_header(next_deal(after)):
                        out.write(line + "\n")

    want_first = args.verbose or args.save is not None
    show_progress = is_tty(err) and not args.no_progress
    summary = simulate(
        variant,
        args.players,
        args.games,
        args.seed,
        bots,
        workers=args.workers,
        progress=_Progress(err) if show_progress else None,
        first_game=tell if want_first else None,
    )
    if args.verbose:
        out.write("\n")
    if args.save is not None and first:
        try:
            Path(args.save).write_text(to_json(record(first[0])) + "\n", encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.save!r}: {error.strerror}") from None
    if args.json:
        out.write(json.dumps(summary.to_dict(), indent=2) + "\n")
    else:
        out.write(summary.table() + "\n")
    return 0
