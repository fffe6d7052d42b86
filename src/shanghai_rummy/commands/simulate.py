"""``shanghai-rummy simulate``: games between bots, summed up."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..actions import Action
from ..engine import next_deal
from ..records import record
from ..serialization import to_json
from ..simulate import BACKENDS, BOT_KINDS, Summary, deal_footer, deal_header, narrate, simulate
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

__all__ = ["Progress", "add_parser", "run"]


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
        f"{', '.join(BOT_KINDS)}, or your own class as module:ClassName (default greedy)",
    )
    sim.add_argument(
        "--workers", type=positive, default=1, help="processes, or a local Ray's CPUs (default 1)"
    )
    sim.add_argument(
        "--backend",
        choices=BACKENDS,
        default="processes",
        help="where the games are played: processes of this machine, or Ray tasks (needs the "
        "ray extra: pip install 'shanghai-rummy[ray]') (default processes)",
    )
    sim.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the Ray cluster's address (default: a local Ray)",
    )
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--verbose", action="store_true", help="tell the first game move by move")
    sim.add_argument("--save", metavar="FILE", help="save the first game's record as JSON")
    sim.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the score distributions per bot to FILE (.png, .svg, .pdf; needs the plot "
        "extra: pip install 'shanghai-rummy[plot]')",
    )
    sim.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )


class Progress:
    """A progress line on a terminal's stderr, redrawn in place: a bar, the games done, the
    rate so far and the time left at that rate; cleared when the run is done."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.width = 0

    def line(self, done: int, total: int) -> str:
        """The line for ``done`` of ``total`` games."""
        bar_width = 24
        filled = bar_width * done // total
        bar = "#" * filled + "." * (bar_width - filled)
        elapsed = self.clock() - self.start
        text = f"[{bar}] {done}/{total} games"
        if done and elapsed > 0:
            rate = done / elapsed
            text += f", {rate:.2f} games/s, ETA {_duration((total - done) / rate)}"
        return text

    def __call__(self, done: int, total: int) -> None:
        text = self.line(done, total)
        self.stream.write("\r" + text.ljust(self.width))
        self.width = max(self.width, len(text))
        if done == total:
            self.stream.write("\r" + " " * self.width + "\r")
        self.stream.flush()


def _duration(seconds: float) -> str:
    """``"42 s"``, ``"3 min 05 s"``, ``"1 h 02 min"``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    variant = checked_variant(args)
    bots = bot_names(args.bots, args.players)
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is the Ray cluster's: give it with --backend ray")
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
        progress=Progress(err) if show_progress else None,
        first_game=tell if want_first else None,
        backend=args.backend,
        address=args.address,
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
    if args.plot is not None:
        _plot(summary, args.plot, err)
    return 0


def _plot(summary: Summary, path: str, err: TextIO) -> None:
    try:
        from ..plot import plot_scores
    except ImportError as error:
        raise UsageError(
            f"--plot needs matplotlib ({error}): pip install 'shanghai-rummy[plot]'"
        ) from None
    try:
        plot_scores(summary, path)
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot draw {path!r}: {error}") from None
    err.write(f"plot written to {path}\n")
