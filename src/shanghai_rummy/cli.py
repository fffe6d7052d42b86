"""The ``shanghai-rummy`` command (also ``python -m shanghai_rummy``).

- ``simulate --variant ID --players N --games G --seed S [--bots greedy,random] [--workers W]
  [--deals D] [--json] [--verbose] [--save FILE]``: play G games between bots and print a
  summary (``--verbose`` tells the first game move by move; ``--save`` writes its record).
- ``play --variant ID --players N [--seed S]``: play seat 0 against bots in the terminal.
- ``variants [ID]``: the presets, or one variant's rules.
- ``replay FILE``: a saved game record (or saved game), move by move with the scores.
- ``serve [--host H] [--port P] [--store S] [--log-level L] ...``: the game server (the
  ``[server]`` extra).
- ``serve --stdio``: the JSON-lines protocol of :mod:`shanghai_rummy.protocol` over standard
  input and output (:mod:`shanghai_rummy.commands.stdio`).
- ``schema [--output FILE]``: the JSON Schema of the documents
  (``schema/shanghai-rummy.schema.json``).

Each subcommand lives in its own module of :mod:`shanghai_rummy.commands`; this one parses
the command line and dispatches.

A variant is a preset id or the path of a TOML/JSON variant file. Bad input ends with a
message and exit status 2; an error while playing, with status 1.

>>> main(["variants"])  # doctest: +ELLIPSIS
id                players  deals  ...
shanghai          2-6      10     ...
...
0
>>> main(["simulate", "--variant", "gin"])  # the message goes to stderr
2
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import __version__
from .commands import play, replay, schema, serve, simulate, variants
from .commands.common import PROG, UsageError
from .errors import IllegalMoveError, RummyError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Shanghai Rummy, contract rummy and Rummy 51: simulate bots, play, "
        "read variants and replay saved games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    simulate.add_parser(commands)
    play.add_parser(commands)
    variants.add_parser(commands)
    replay.add_parser(commands)
    serve.add_parser(commands)
    schema.add_parser(commands)
    return parser


# -- main ------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process's arguments) and return the exit
    status: 0 done, 1 an error while playing, 2 bad input (the message goes to stderr)."""
    out, err = sys.stdout, sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage message
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        if args.command == "simulate":
            return simulate.run(args, out, err)
        if args.command == "play":
            return play.run(args, sys.stdin, out)
        if args.command == "variants":
            return variants.run(args, out)
        if args.command == "serve":
            return serve.run(args)
        if args.command == "schema":
            return schema.run(args, out)
        return replay.run(args, out)
    except IllegalMoveError as error:
        err.write(f"{PROG}: error: {error}\n")
        return 1
    except (UsageError, RummyError) as error:
        err.write(f"{PROG}: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        err.write("\ninterrupted\n")
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """Point stdout at devnull so that the final flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - not a real file
        pass


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
