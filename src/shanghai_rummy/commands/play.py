"""``shanghai-rummy play``: seat 0 against bots in the terminal."""

from __future__ import annotations

import argparse
import os
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from ..actions import Action, Buy, Draw, Meld, PassBuy, Source
from ..bots import Bot, GreedyBot
from ..cards import Card, Suit, sort_cards
from ..dealing import new_game
from ..engine import apply, next_deal
from ..errors import RummyError
from ..notation import format_action, parse_action
from ..simulate import deal_footer, deal_header, make_bot
from ..solver import solve
from ..state import GameState, Phase
from ..variants import Variant
from ..views import PlayerView, view
from .common import UsageError, bot_names, checked_variant, integer, is_tty, variant_options

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add ``play`` and its options to the command's subparsers."""
    play = commands.add_parser("play", help="play seat 0 against bots in the terminal")
    variant_options(play)
    play.add_argument("--seed", type=integer, default=None, help="the game's seed (random)")
    play.add_argument(
        "--bots", default="greedy", help="the other seats' bots, one for all or one per seat"
    )


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
        self.echo = not is_tty(source)

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
    return is_tty(out) and os.environ.get("TERM") != "dumb"


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


def run(args: argparse.Namespace, source: TextIO, out: TextIO) -> int:
    variant = checked_variant(args)
    if args.players < 2:
        raise UsageError("play needs at least 2 players")
    kinds = bot_names(args.bots, args.players - 1)
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
