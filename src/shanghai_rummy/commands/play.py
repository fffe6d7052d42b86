"""``shanghai-rummy play``: seat 0 against bots in the terminal."""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from ..actions import Action, Buy, Draw, GoOut, Meld, PassBuy, Source
from ..bots import Bot, GreedyBot
from ..cards import Card, Suit, sort_cards
from ..engine import apply, new_game, next_deal
from ..errors import RummyError
from ..levels import level_name
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
        "--bots",
        default="greedy",
        help="the other seats' bots, one for all or one per seat: greedy, random, or your "
        "own class as module:ClassName",
    )


_MOVES_HELP = [
    ("draw", "draw the top card of the stock"),
    ("take", "take the upcard"),
    ("draw cut card", "take the cut card, where the variant has one"),
    ("buy / pass", "buy the upcard offered to you, or let it go"),
    ("meld 8C 8D JK / 4S 5S 6S 7S", "lay down groups, separated by /; a run in rank order"),
    ("layoff 9C 3 [low|high]", "lay a card off on meld 3 (an end where both fit)"),
    ("swap 8H 1", "give 8H for the joker in meld 1 that stands for it"),
    ("discard KH", "discard, ending your turn"),
    ("out ...", "go out with everything at once, for example:"),
]
_COMMANDS_HELP = [
    ("hint", "a suggestion"),
    ("moves [WORD ...]", "the legal moves, 20 at a time; with words, those with them all"),
    ("more", "the next page of moves"),
    ("show", "the table again"),
    ("help", "this help"),
    ("quit", "stop playing"),
]
_PAGE = 20
_RED = "\x1b[31m"
_MAGENTA = "\x1b[35m"
_RESET = "\x1b[0m"


def _help_text(variant: Variant) -> str:
    """The moves the variant has and the commands, each description starting in one column."""
    moves = [
        (syntax, meaning)
        for syntax, meaning in _MOVES_HELP
        if (syntax != "buy / pass" or variant.buying.enabled)
        and (syntax != "draw cut card" or variant.scoring.cut_card_hand is not None)
    ]
    width = max(len(syntax) for syntax, _ in moves + _COMMANDS_HELP)
    lines = ["Moves (cards as 8C, 10H or TH, AS, JK; meld ids as shown on the table):"]
    lines += [f"  {syntax.ljust(width)}  {meaning}" for syntax, meaning in moves]
    lines.append(f"  {'':{width}}    out meld 8C 8D JK layoff 9C 3, 10C 3 discard KH")
    lines.append("Commands:")
    lines += [f"  {syntax.ljust(width)}  {meaning}" for syntax, meaning in _COMMANDS_HELP]
    lines.append("Line editing and history (the arrow keys) work where Python has readline.")
    return "\n".join(lines)


# The engine's messages name seats by number; seat 0 is the person at the terminal.
_YOU = [
    (re.compile(r"\bdealer seat 0\b"), "you deal"),
    (re.compile(r"\bseat 0 has used its\b"), "you have used your"),
    (re.compile(r"\bseat 0 may not buy its\b"), "you may not buy your"),
    (re.compile(r"\bseat 0 (score|win|play|hold|get)s\b"), r"you \1"),
    (re.compile(r"\bseat 0 does\b"), "you do"),
    (re.compile(r"\bseat 0 has\b"), "you have"),
    (re.compile(r"\bseat 0 is\b"), "you are"),
    (re.compile(r"\bseat 0 was\b"), "you were"),
    (re.compile(r"\bseat 0(?!\d)"), "you"),
]


def you(text: str) -> str:
    """``text`` with seat 0 called "you", verbs agreeing: ``"seat 0 scores 10"`` ->
    ``"you score 10"``.

    >>> you("Deal 1 of 10: 2 sets of 3; dealer seat 0, seat 1 plays first")
    'Deal 1 of 10: 2 sets of 3; you deal, seat 1 plays first'
    >>> you("seat 0 does not hold 9C; seat 10 does")
    'you do not hold 9C; seat 10 does'
    """
    for pattern, replacement in _YOU:
        text = pattern.sub(replacement, text)
    return text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class _Terminal:
    """Reading moves and showing the game to the person at seat 0. On a terminal, lines are
    read with ``input()`` under readline (editing, history, Tab completion of words)."""

    def __init__(self, source: TextIO, out: TextIO, *, colour: bool) -> None:
        self.source = source
        self.out = out
        self.colour = colour
        self.interactive = is_tty(source) and source is sys.stdin and out is sys.stdout
        self.echo = not is_tty(source)
        self.words: list[str] = []
        if self.interactive:
            _use_readline(self)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt).strip()
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.source.readline()
        if not line:
            self.out.write("\n")
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def pause(self, prompt: str) -> bool:
        """Wait for Enter on a terminal (False at the end of input); elsewhere go on."""
        if not is_tty(self.source):
            return True
        return self.ask(prompt) is not None

    def complete(self, text: str, index: int) -> str | None:
        """readline's completer: the words of the moves and the cards in hand."""
        matches = [word for word in self.words if word.lower().startswith(text.lower())]
        return matches[index] if index < len(matches) else None

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


def _use_readline(term: _Terminal) -> None:
    """Line editing, history and completion for ``input()``, where Python has readline."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return
    readline.set_completer(term.complete)
    readline.set_completer_delims(" /,")
    readline.parse_and_bind("tab: complete")


def _colour_wanted(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return is_tty(out) and os.environ.get("TERM") != "dumb"


def _show(term: _Terminal, seen: PlayerView, buying: bool) -> None:
    seat = seen.seat or 0  # the player's own seat (the terminal never shows a spectator)
    names = ["you" if other == seat else f"seat {other}" for other in range(seen.num_players)]
    term.say("")
    buys = f" | buys left {seen.buys_left[seat]}" if buying else ""
    level = f" (your {level_name(seen, seat)})" if seen.levels else ""
    term.say(
        f"Deal {seen.deal_number} of {seen.deal_count}: {seen.requirement.describe()}{level}"
        f" | stock {seen.stock_size}{buys}"
    )
    scores = ", ".join(
        f"{names[other]} {seen.totals[other]}"
        + ("" if other == seat else f" ({_plural(seen.hand_sizes[other], 'card')})")
        + (f" {level_name(seen, other)}" if seen.levels else "")
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
    if seen.still_to_lay is not None:
        laid = ", ".join(f"#{meld_id}" for meld_id in seen.going_down)
        who = "you" if seen.turn == seat else f"seat {seen.turn}"
        term.say(f"Going down: {who} laid {laid} this turn; still to lay: {seen.still_to_lay}")


def _prompt(seen: PlayerView) -> str:
    if seen.phase is Phase.BUY:
        card = "-" if seen.upcard is None else seen.upcard.code
        return you(f"Seat {seen.turn} passed up {card}. buy or pass? > ")
    if seen.phase is Phase.DRAW:
        choices = [format_action(action) for action in seen.legal_actions]
        return f"{' or '.join(choices)}? > "
    return "meld / layoff / swap / discard? > "


def _hint(seen: PlayerView, variant: Variant) -> list[str]:
    """The bot's suggestion, and (when it is not itself a going down) whether the solver finds
    a way to go down, so that the two lines never propose different melds."""
    suggestion = GreedyBot(variant).choose(seen)
    lines = [f"hint: {format_action(suggestion)}"]
    if isinstance(suggestion, (Meld, GoOut)):
        if isinstance(suggestion, Meld) and not seen.down[seen.seat or 0]:
            if seen.still_to_lay is not None:
                lines.append(f"going down, a group at a time: still to lay {seen.still_to_lay}")
            else:
                lines.append(f"or a whole way in one move: {_whole_way(seen, variant)}")
        return lines
    seat = seen.seat or 0  # the player's own seat
    if not seen.down[seat] and seen.phase is Phase.PLAY:
        found = solve(seen.hand, seen.requirement, variant)
        if found is None:
            lines.append(f"the solver finds no way yet to lay down {seen.requirement.describe()}")
        else:
            lines.append(
                f"you could go down now, though the hint waits: {format_action(Meld(seat, found))}"
            )
    return lines


def _whole_way(seen: PlayerView, variant: Variant) -> str:
    """One whole way to go down with the seat's hand, as one move."""
    found = solve(seen.hand, seen.requirement, variant)
    return "none" if found is None else format_action(Meld(seen.seat or 0, found))


class _Listing:
    """The legal moves, filtered by words and shown a page at a time."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.shown = 0
        self.words: tuple[str, ...] = ()

    def start(self, seen: PlayerView, words: Sequence[str]) -> list[str]:
        self.words = tuple(word.upper() for word in words)
        everything = [format_action(action) for action in seen.legal_actions]
        self.moves = [
            move
            for move in everything
            if all(word in move.upper().replace("/", " ").split() for word in self.words)
        ]
        self.shown = 0
        if not self.moves:
            if self.words:
                return [f"no legal move has {' '.join(words)} ({len(everything)} in all)"]
            return ["no legal move listed"]
        return self.more()

    def more(self) -> list[str]:
        if self.shown >= len(self.moves):
            return ["no more moves: type moves to list them again"]
        page = self.moves[self.shown : self.shown + _PAGE]
        first = self.shown + 1
        self.shown += len(page)
        which = f" with {' '.join(self.words)}" if self.words else ""
        lines = [f"legal moves{which}, {first}-{self.shown} of {len(self.moves)}:"]
        lines += [f"  {move}" for move in page]
        if self.shown < len(self.moves):
            lines.append(
                f"more: the next {min(_PAGE, len(self.moves) - self.shown)}; "
                "moves WORD ...: only those with every word (moves meld, moves 8C)"
            )
        return lines


def _public(action: Action, before: GameState) -> str:
    """A bot's move as the person at the table sees it (no hidden card)."""
    text = format_action(action)
    upcard = before.upcard
    if isinstance(action, Draw) and action.source is Source.DISCARD and upcard is not None:
        text += f" ({upcard})"
    elif isinstance(action, Buy) and upcard is not None:
        penalty = before.variant.buying.penalty_cards
        text += f" ({upcard} and {_plural(penalty, 'card')} from the stock)"
    return f"  seat {action.seat}: {text}"


def run(args: argparse.Namespace, source: TextIO, out: TextIO) -> int:
    """Play seat 0 against bots, reading moves from ``source``."""
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
    term.say(you(deal_header(state, hands=False)[0]))
    listing = _Listing()
    shown = False
    while True:
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            following = _after_deal(term, state)
            if following is None:
                return 0
            state = following
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
            _show(term, seen, variant.buying.enabled)
            shown = True
        term.words = _completions(seen)
        entry = term.ask(_prompt(seen))
        if entry is None:
            term.say("End of input: goodbye.")
            return 0
        words = entry.split()
        command = words[0].lower() if words else ""
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            term.say("Goodbye.")
            return 0
        if _answer(term, command, words[1:], seen, variant, listing):
            continue
        try:
            action = parse_action(entry, 0)
            after = apply(state, action)
        except RummyError as error:
            term.say(f"not played: {you(str(error))}")
            continue
        if not isinstance(action, (Draw, Buy, PassBuy)):
            term.say(f"  you: {format_action(action)}")
        _tell_gains(term, state, after)
        state = after
        shown = False


def _after_deal(term: _Terminal, state: GameState) -> GameState | None:
    """Tell the deal's scores; on a terminal wait for Enter; deal the next deal (None when the
    game is over or the input ended)."""
    for line in deal_footer(state):
        term.say(you(line))
    if state.phase is Phase.GAME_OVER:
        return None
    deals = state.variant.total_deals(state.num_players)
    if not term.pause(f"Press Enter for deal {state.deal_number + 1} of {deals} > "):
        term.say("End of input: goodbye.")
        return None
    following = next_deal(state)
    term.say(you(deal_header(following, hands=False)[0]))
    return following


def _answer(
    term: _Terminal,
    command: str,
    words: Sequence[str],
    seen: PlayerView,
    variant: Variant,
    listing: _Listing,
) -> bool:
    """Answer a command that is not a move (help, show, hint, moves, more); False for any
    other word."""
    if command == "show":
        _show(term, seen, variant.buying.enabled)
        return True
    if command in ("help", "?"):
        lines = [_help_text(variant)]
    elif command == "hint":
        lines = _hint(seen, variant)
    elif command == "moves":
        lines = listing.start(seen, words)
    elif command == "more":
        lines = listing.more()
    else:
        return False
    for line in lines:
        term.say(line)
    return True


def _completions(seen: PlayerView) -> list[str]:
    """The words Tab completes: commands, move words, the cards in hand, meld ids."""
    words = {"help", "hint", "moves", "more", "show", "quit", "low", "high"}
    for action in seen.legal_actions:
        words.update(format_action(action).replace("/", " ").split())
    words.update(card.code for card in seen.hand)
    return sorted(words)


def _tell_gains(term: _Terminal, before: GameState, after: GameState) -> None:
    """Tell the person the cards that joined their hand (a draw, a buy, a joker swap)."""
    gained = Counter(after.hand(0))
    gained.subtract(before.hand(0))
    cards = [card for card, count in gained.items() for _ in range(max(count, 0))]
    if cards:
        term.say(f"  you get {term.cards(sort_cards(cards))}")
