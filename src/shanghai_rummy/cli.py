"""The ``shanghai-rummy`` command (also ``python -m shanghai_rummy``).

- ``simulate --variant ID --players N --games G --seed S [--bots greedy,random] [--workers W]
  [--deals D] [--json] [--verbose] [--save FILE]``: play G games between bots and print a
  summary (``--verbose`` tells the first game move by move; ``--save`` writes its record).
- ``play --variant ID --players N [--seed S]``: play seat 0 against bots in the terminal.
- ``variants [ID]``: the presets, or one variant's rules.
- ``replay FILE``: a saved game record (or saved game), move by move with the scores.

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
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs

from . import __version__
from .actions import Action, Buy, Draw, Meld, PassBuy, Source
from .bots import Bot, GreedyBot
from .cards import Card, Suit, sort_cards
from .contracts import CardValues
from .dealing import new_game
from .engine import apply, next_deal
from .errors import IllegalMoveError, RummyError
from .notation import format_action, parse_action
from .records import GameRecord, record
from .serialization import from_json, to_json
from .simulate import (
    BOT_KINDS,
    deal_footer,
    deal_header,
    make_bot,
    narrate,
    narrate_game,
    simulate,
)
from .solver import solve
from .state import GameState, Phase
from .variant_files import load_variant, variant_to_dict
from .variants import VARIANTS, Variant, get_variant
from .views import PlayerView, view

__all__ = ["main"]

PROG = "shanghai-rummy"


class _UsageError(Exception):
    """Bad input on the command line: reported with exit status 2."""


# -- arguments -----------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Shanghai Rummy, contract rummy and Rummy 51: simulate bots, play, "
        "read variants and replay saved games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sim = commands.add_parser("simulate", help="play games between bots and sum them up")
    _variant_options(sim)
    sim.add_argument("--games", type=_positive, default=1, help="games to play (default 1)")
    sim.add_argument("--seed", type=_integer, default=0, help="seed of the first game (default 0)")
    sim.add_argument(
        "--bots",
        default="greedy",
        help=f"bots by seat, comma-separated: one for all seats or one per seat; "
        f"{', '.join(BOT_KINDS)} (default greedy)",
    )
    sim.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--verbose", action="store_true", help="tell the first game move by move")
    sim.add_argument("--save", metavar="FILE", help="save the first game's record as JSON")
    sim.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )

    play = commands.add_parser("play", help="play seat 0 against bots in the terminal")
    _variant_options(play)
    play.add_argument("--seed", type=_integer, default=None, help="the game's seed (random)")
    play.add_argument(
        "--bots", default="greedy", help="the other seats' bots, one for all or one per seat"
    )

    info = commands.add_parser("variants", help="list the presets, or show one variant's rules")
    info.add_argument("variant", nargs="?", metavar="ID", help="a preset id or a variant file")

    rep = commands.add_parser("replay", help="tell a saved game move by move")
    rep.add_argument("file", metavar="FILE", help="a game record or saved game (JSON)")
    return parser


def _variant_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default="shanghai",
        metavar="ID",
        help="a preset id (see `variants`) or a TOML/JSON variant file (default shanghai)",
    )
    parser.add_argument("--players", type=_positive, default=4, help="seats (default 4)")
    parser.add_argument(
        "--deals", type=_positive, default=None, help="play only the first DEALS deals"
    )


def _variant(name: str) -> Variant:
    if name in VARIANTS:
        return get_variant(name)
    path = Path(name)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        if not path.is_file():
            raise _UsageError(f"no variant file {name!r}")
        try:
            return load_variant(path)
        except OSError as error:
            raise _UsageError(f"cannot read {name!r}: {error.strerror}") from None
    known = ", ".join(sorted(VARIANTS))
    raise _UsageError(f"unknown variant {name!r}; known: {known} (or a .toml/.json file)")


def _checked_variant(args: argparse.Namespace) -> Variant:
    variant = _variant(args.variant)
    variant.pack_size(args.players)  # VariantError names the allowed range
    if args.deals is not None:
        variant = attrs.evolve(variant, deal_count=args.deals)
    return variant


def _bot_names(text: str, count: int) -> tuple[str, ...]:
    names = tuple(name.strip().lower() for name in text.split(","))
    for name in names:
        if name not in BOT_KINDS:
            raise _UsageError(f"unknown bot {name!r}; bots are {', '.join(BOT_KINDS)}")
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise _UsageError(
            f"--bots names {len(names)} bots for {count} seats: name one for all, or one per seat"
        )
    return names


# -- simulate --------------------------------------------------------------------------------


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


def _is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    variant = _checked_variant(args)
    bots = _bot_names(args.bots, args.players)
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
    show_progress = _is_tty(err) and not args.no_progress
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
            raise _UsageError(f"cannot write {args.save!r}: {error.strerror}") from None
    if args.json:
        out.write(json.dumps(summary.to_dict(), indent=2) + "\n")
    else:
        out.write(summary.table() + "\n")
    return 0


# -- variants --------------------------------------------------------------------------------


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
    codes = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    parts: list[str] = []
    start = 0
    for index in range(1, len(codes) + 1):
        if index == len(codes) or values.by_rank[index] != values.by_rank[start]:
            span = codes[start] if index - 1 == start else f"{codes[start]}-{codes[index - 1]}"
            parts.append(f"{span}: {values.by_rank[start]}")
            start = index
    return ", ".join([*parts, f"JK: {values.joker}"])


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
    variant = _variant(name)
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
        jokers = f"{pack.jokers} joker{'s' if pack.jokers != 1 else ''}"
        rows.append(
            (f"pack, {seats} players", f"{pack.decks} decks + {jokers} = {pack.cards} cards")
        )
    rows.append(("deals in a game", _deal_count(variant)))
    for number, spec in enumerate(variant.deals, start=1):
        rows.append((f"deal {number}", f"{spec.cards} cards; {spec.requirement.describe()}"))
    document = variant_to_dict(variant)
    for key, value in document.items():
        if key in ("id", "name", "source", "min_players", "max_players", "packs", "deals"):
            continue
        if key == "deal_count":
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


# -- replay ----------------------------------------------------------------------------------


def _replay(path_text: str, out: TextIO) -> int:
    path = Path(path_text)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise _UsageError(f"cannot read {path_text!r}: {error.strerror or error}") from None
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


# -- play ------------------------------------------------------------------------------------

_HELP = """Moves (cards as 8C, 10H or TH, AS, JK; meld ids as shown on the table):
  draw                       draw the top card of the stock
  take                       take the upcard
  draw cut card              take the cut card, where the variant has one
  buy / pass                 buy the upcard offered to you, or let it go
  meld 8C 8D JK / 4S 5S 6S 7S  lay down groups, separated by /; a run in rank order
  layoff 9C 3 [low|high]     lay a card off on meld 3 (an end where both fit)
  swap 8H 1                  give 8H for the joker in meld 1 that stands for it
  discard KH                 discard, ending your turn
  out meld ... layoff 9C 3, 10C 3 discard KH   everything at once
Commands: help, hint (a suggestion), moves (every legal move), show (the table again), quit"""

_RED = "\x1b[31m"
_MAGENTA = "\x1b[35m"
_RESET = "\x1b[0m"


class _Terminal:
    """Reading moves and showing the game to the person at seat 0."""

    def __init__(self, source: TextIO, out: TextIO, *, colour: bool) -> None:
        self.source = source
        self.out = out
        self.colour = colour
        self.echo = not _is_tty(source)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.source.readline()
        if not line:
            self.out.write("\n")
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def card(self, card: Card) -> str:
        if not self.colour:
            return card.code
        if card.is_joker:
            return f"{_MAGENTA}{card.code}{_RESET}"
        if card.suit in (Suit.HEARTS, Suit.DIAMONDS):
            return f"{_RED}{card.code}{_RESET}"
        return card.code

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(card) for card in cards) or "-"


def _colour_wanted(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return _is_tty(out) and os.environ.get("TERM") != "dumb"


def _show(term: _Terminal, seen: PlayerView) -> None:
    seat = seen.seat
    names = ["you" if other == seat else f"seat {other}" for other in range(seen.num_players)]
    term.say("")
    term.say(
        f"Deal {seen.deal_number} of {seen.deal_count}: {seen.requirement.describe()}"
        f" | stock {seen.stock_size} | buys left {seen.buys_left[seat]}"
    )
    scores = ", ".join(
        f"{names[other]} {seen.totals[other]}"
        + ("" if other == seat else f" ({seen.hand_sizes[other]} cards)")
        + (" down" if seen.down[other] else "")
        for other in range(seen.num_players)
    )
    term.say(f"Scores: {scores}")
    if seen.table:
        term.say("Table:")
        for meld in seen.table:
            term.say(
                f"  #{meld.id} {meld.kind.value} {term.cards(meld.cards)}  ({names[meld.owner]})"
            )
    else:
        term.say("Table: no melds yet")
    term.say(f"Upcard: {'-' if seen.upcard is None else term.card(seen.upcard)}")
    hand = sort_cards(seen.hand)
    groups = []
    for suit in Suit:
        cards = [card for card in hand if card.suit is suit]
        if cards:
            groups.append(term.cards(cards))
    jokers = [card for card in hand if card.is_joker]
    if jokers:
        groups.append(term.cards(jokers))
    status = " (down)" if seen.down[seat] else ""
    term.say(f"Your hand ({len(hand)}){status}: {'  '.join(groups)}")


def _prompt(seen: PlayerView) -> str:
    if seen.phase is Phase.BUY:
        card = "-" if seen.upcard is None else seen.upcard.code
        return f"Seat {seen.turn} passed up {card}. buy or pass? > "
    if seen.phase is Phase.DRAW:
        choices = [format_action(action) for action in seen.legal_actions]
        return f"{' or '.join(choices)}? > "
    return "meld / layoff / swap / discard? > "


def _hint(seen: PlayerView, variant: Variant) -> list[str]:
    lines = [f"hint: {format_action(GreedyBot(variant).choose(seen))}"]
    if not seen.down[seen.seat] and seen.phase is Phase.PLAY:
        found = solve(seen.hand, seen.requirement, variant)
        if found is None:
            lines.append(f"the solver finds no way yet to lay down {seen.requirement.describe()}")
        else:
            lines.append(f"you can go down: {format_action(Meld(seen.seat, found))}")
    return lines


def _public(action: Action, before: GameState) -> str:
    """A bot's move as the person at the table sees it (no hidden card)."""
    text = format_action(action)
    upcard = before.upcard
    if isinstance(action, Draw) and action.source is Source.DISCARD and upcard is not None:
        text += f" ({upcard})"
    elif isinstance(action, Buy) and upcard is not None:
        penalty = before.variant.buying.penalty_cards
        text += f" ({upcard} and {penalty} card{'s' if penalty != 1 else ''} from the stock)"
    return f"  seat {action.seat}: {text}"


def _play(args: argparse.Namespace, source: TextIO, out: TextIO) -> int:
    variant = _checked_variant(args)
    if args.players < 2:
        raise _UsageError("play needs at least 2 players")
    kinds = _bot_names(args.bots, args.players - 1)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    bots: list[Bot | None] = [None]
    bots += [make_bot(kind, variant, seed * 64 + seat) for seat, kind in enumerate(kinds, 1)]
    term = _Terminal(source, out, colour=_colour_wanted(out))
    term.say(
        f"{variant.name}: you are seat 0 against "
        + ", ".join(f"seat {seat} ({kind})" for seat, kind in enumerate(kinds, 1))
        + f". Seed {seed}. Type help for the moves, quit to stop."
    )
    state = new_game(variant, players=args.players, seed=seed)
    term.say(deal_header(state, hands=False)[0])
    shown = False
    while True:
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            for line in deal_footer(state):
                term.say(line)
            if state.phase is Phase.GAME_OVER:
                return 0
            state = next_deal(state)
            term.say(deal_header(state, hands=False)[0])
            continue
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        if bot is not None:
            action = bot.choose(view(state, seat))
            term.say(_public(action, state))
            after = apply(state, action)
            _tell_gains(term, state, after)
            state = after
            shown = False
            continue
        seen = view(state, 0)
        if not shown:
            _show(term, seen)
            shown = True
        entry = term.ask(_prompt(seen))
        if entry is None:
            term.say("End of input: goodbye.")
            return 0
        word = entry.lower()
        if not word:
            continue
        if word in ("quit", "exit", "q"):
            term.say("Goodbye.")
            return 0
        if word in ("help", "?"):
            term.say(_HELP)
            continue
        if word == "show":
            _show(term, seen)
            continue
        if word == "hint":
            for text in _hint(seen, variant):
                term.say(text)
            continue
        if word == "moves":
            moves = [format_action(action) for action in seen.legal_actions]
            term.say("legal moves: " + ("; ".join(moves[:40]) or "none listed"))
            if len(moves) > 40:
                term.say(f"... and {len(moves) - 40} more")
            continue
        try:
            action = parse_action(entry, 0)
            after = apply(state, action)
        except RummyError as error:
            term.say(f"not played: {error}")
            continue
        if not isinstance(action, (Draw, Buy, PassBuy)):
            term.say(f"  you: {format_action(action)}")
        _tell_gains(term, state, after)
        state = after
        shown = False


def _tell_gains(term: _Terminal, before: GameState, after: GameState) -> None:
    """Tell the person the cards that joined their hand (a draw, a buy, a joker swap)."""
    gained = Counter(after.hand(0))
    gained.subtract(before.hand(0))
    cards = [card for card, count in gained.items() for _ in range(max(count, 0))]
    if cards:
        term.say(f"  you get {term.cards(sort_cards(cards))}")


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
            return _simulate(args, out, err)
        if args.command == "play":
            return _play(args, sys.stdin, out)
        if args.command == "variants":
            if args.variant is None:
                return _list_variants(out)
            return _show_variant(args.variant, out)
        return _replay(args.file, out)
    except IllegalMoveError as error:
        err.write(f"{PROG}: error: {error}\n")
        return 1
    except (_UsageError, RummyError) as error:
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
