"""Whole games between bots: play one (:func:`play_game`), tell it move by move in the text
notation (:func:`narrate`), or play many and sum them up (:func:`simulate`), in several
processes if asked. Game ``i`` of a run uses seed ``seed + i`` and its bots are seeded from
it, so a run gives the same games whatever the number of processes.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy.simulate import simulate
>>> summary = simulate(sr.get_variant("shanghai"), players=3, games=2, seed=7, deals=1)
>>> summary.deals, [game.seed for game in summary.games], summary.seats[0].bot
(2, [7, 8], 'greedy')
>>> print(summary.table())  # doctest: +ELLIPSIS
shanghai: 2 games, 3 players, seeds 7..8
<BLANKLINE>
seat  bot       wins  tied  win share (95% CI)     mean score (95% CI)       sd
0     greedy  ...
deals:                 2, with a winner ...
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from .actions import Action, Buy, Draw, Meld, Source
from .bot_references import bot_factory, is_bot_reference, make_referenced_bot
from .bots import Bot, GreedyBot, RandomBot
from .cards import Card, sort_cards
from .confidence import mean_interval, share_interval
from .engine import apply, new_game, next_deal
from .errors import IllegalMoveError, RummyError
from .levels import level_name, requirement_of
from .notation import format_action
from .scoring import Outcome
from .state import GameState, Phase
from .variants import Variant
from .views import view

__all__ = [
    "BACKENDS",
    "BOT_KINDS",
    "GameStats",
    "SeatSummary",
    "Summary",
    "check_bot",
    "deal_footer",
    "deal_header",
    "make_bot",
    "narrate",
    "narrate_game",
    "play_game",
    "run_game",
    "simulate",
]

BOT_KINDS: tuple[str, ...] = ("greedy", "random")
"""The bots :func:`make_bot` builds by name; it also builds your own, named
``"module:ClassName"`` (see :mod:`shanghai_rummy.bot_references`)."""

BACKENDS: tuple[str, ...] = ("processes", "ray")
"""Where :func:`simulate` plays its games: processes of this machine, or Ray tasks."""

_KNOWN = f"{', '.join(BOT_KINDS)}, or your own as module:ClassName"


def check_bot(kind: str) -> None:
    """Raise :class:`~shanghai_rummy.RummyError` unless :func:`make_bot` knows ``kind``; a
    ``"module:ClassName"`` is imported to be sure it names a class or function."""
    if kind in BOT_KINDS:
        return
    if is_bot_reference(kind):
        bot_factory(kind)
        return
    raise RummyError(f"unknown bot {kind!r}; bots are {_KNOWN}")


def make_bot(kind: str, variant: Variant, seed: int = 0) -> Bot:
    """A bot by name: ``"greedy"`` (:class:`~shanghai_rummy.GreedyBot`), ``"random"``
    (:class:`~shanghai_rummy.RandomBot` seeded with ``seed``), or your own class named
    ``"module:ClassName"``, called with the variant (and ``seed=`` when it takes one).

    >>> import shanghai_rummy as sr
    >>> make_bot("random", sr.get_variant("shanghai"), seed=3)
    RandomBot(seed=3)
    >>> make_bot("clever", sr.get_variant("shanghai"))
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.RummyError: unknown bot 'clever'; bots are greedy, random, or ...
    """
    if kind == "greedy":
        return GreedyBot(variant)
    if kind == "random":
        return RandomBot(seed)
    if is_bot_reference(kind):
        return make_referenced_bot(kind, variant, seed)
    raise RummyError(f"unknown bot {kind!r}; bots are {_KNOWN}")


def _bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 64 + seat


Step = Callable[[GameState, Action, GameState], None]


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    *,
    on_deal: Callable[[GameState], None] | None = None,
    on_step: Step | None = None,
) -> GameState:
    """Play ``state`` to the end of the game, each seat's bot choosing from its view, and
    dealing each next deal. ``on_deal(state)`` is called as each deal starts (the current one
    first) and ``on_step(before, action, after)`` after every move; a deal is over when
    ``after.phase`` is DEAL_OVER or GAME_OVER.

    >>> import shanghai_rummy as sr
    >>> variant = sr.get_variant("shanghai")
    >>> bots = [sr.GreedyBot(variant) for _ in range(3)]
    >>> final = play_game(sr.new_game(variant, players=3, seed=1), bots)
    >>> final.phase, len(final.results)
    (<Phase.GAME_OVER: 'game_over'>, 10)
    """
    if len(bots) != state.num_players:
        raise RummyError(f"{len(bots)} bots for {state.num_players} seats: give one per seat")
    if on_deal is not None and state.phase is not Phase.GAME_OVER:
        on_deal(state)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEAL_OVER:
            state = next_deal(state)
            if on_deal is not None:
                on_deal(state)
            continue
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(view(state, seat))
        try:
            after = apply(state, action)
        except IllegalMoveError as error:
            raise type(error)(
                f"the bot of seat {seat} played {format_action(action)!r}: {error}"
            ) from error
        if on_step is not None:
            on_step(state, action, after)
        state = after
    return state


@attrs.frozen(kw_only=True)
class GameStats:
    """What one game came to: ``totals`` and ``winners`` (lowest total; several on a tie);
    per deal the ``turns`` played, the ``buys`` made and whether it ended with a winner
    (``won``); ``steps`` (moves) and the ``seconds`` it took."""

    seed: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    turns: tuple[int, ...]
    buys: tuple[int, ...]
    won: tuple[bool, ...]
    steps: int
    seconds: float


def run_game(
    variant: Variant, bots: Sequence[str], seed: int, *, on_step: Step | None = None
) -> GameStats:
    """Play one game of ``new_game(variant, len(bots), seed)`` between the named bots (see
    :func:`make_bot`) and return its :class:`GameStats`.

    >>> import shanghai_rummy as sr
    >>> import attrs
    >>> short = attrs.evolve(sr.get_variant("shanghai"), deal_count=2)
    >>> stats = run_game(short, ["greedy"] * 4, seed=7)
    >>> len(stats.turns), len(stats.won), len(stats.totals), stats.steps > 0
    (2, 2, 4, True)
    """
    start = time.perf_counter()
    players = [make_bot(kind, variant, _bot_seed(seed, seat)) for seat, kind in enumerate(bots)]
    turns: list[int] = []
    buys: list[int] = []
    won: list[bool] = []
    counter = {"steps": 0, "buys": 0}

    def step(before: GameState, action: Action, after: GameState) -> None:
        counter["steps"] += 1
        counter["buys"] += isinstance(action, Buy)
        if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            turns.append(after.turns_this_deal)
            buys.append(counter["buys"])
            won.append(after.results[-1].winner is not None)
            counter["buys"] = 0
        if on_step is not None:
            on_step(before, action, after)

    final = play_game(new_game(variant, len(bots), seed), players, on_step=step)
    outcome = final.outcome
    assert outcome is not None
    return GameStats(
        seed=seed,
        totals=final.totals,
        winners=outcome.winners,
        turns=tuple(turns),
        buys=tuple(buys),
        won=tuple(won),
        steps=counter["steps"],
        seconds=time.perf_counter() - start,
    )


@attrs.frozen(kw_only=True)
class SeatSummary:
    """One seat over a run: its bot; its ``wins``, where a game whose lowest total is shared
    counts as a win for every seat sharing it (``tied_wins`` of them were such games); its
    ``win_share`` of the games with a 95% confidence interval (Wilson score, ``win_share_low``
    to ``win_share_high``); and the mean and standard deviation of its final totals, with the
    half-width of the mean's 95% confidence interval (Student's t; None for a single game)."""

    seat: int
    bot: str
    wins: int
    mean_score: float
    sd_score: float
    tied_wins: int = 0
    win_share: float = 0.0
    win_share_low: float = 0.0
    win_share_high: float = 0.0
    mean_score_ci: float | None = None


def _mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def _sd(values: Sequence[float]) -> float:
    return statistics.pstdev(values) if len(values) > 1 else 0.0


@attrs.frozen(kw_only=True)
class Summary:
    """A run of games (:func:`simulate`): the settings, every game's :class:`GameStats`, and
    the figures drawn from them."""

    variant_id: str
    players: int
    seed: int
    bots: tuple[str, ...]
    workers: int
    seconds: float
    games: tuple[GameStats, ...]

    @property
    def seats(self) -> tuple[SeatSummary, ...]:
        """Per seat: bot, wins, mean and spread of final totals."""
        rows = []
        games = len(self.games)
        for seat, bot in enumerate(self.bots):
            scores = [float(game.totals[seat]) for game in self.games]
            wins = sum(seat in game.winners for game in self.games)
            low, high = share_interval(wins, games)
            rows.append(
                SeatSummary(
                    seat=seat,
                    bot=bot,
                    wins=wins,
                    mean_score=_mean(scores),
                    sd_score=_sd(scores),
                    tied_wins=sum(
                        seat in game.winners and len(game.winners) > 1 for game in self.games
                    ),
                    win_share=wins / games if games else 0.0,
                    win_share_low=low,
                    win_share_high=high,
                    mean_score_ci=mean_interval(scores),
                )
            )
        return tuple(rows)

    @property
    def deals(self) -> int:
        """Deals played in all."""
        return sum(len(game.won) for game in self.games)

    @property
    def deals_with_winner(self) -> int:
        """Deals that ended with a player going out."""
        return sum(sum(game.won) for game in self.games)

    @property
    def ties(self) -> int:
        """Games whose lowest total was shared."""
        return sum(len(game.winners) > 1 for game in self.games)

    @property
    def mean_turns_per_deal(self) -> float:
        """Turns per deal, on average."""
        return _mean([turns for game in self.games for turns in game.turns])

    @property
    def mean_buys_per_deal(self) -> float:
        """Buys per deal, on average."""
        return _mean([buys for game in self.games for buys in game.buys])

    @property
    def games_per_second(self) -> float:
        """Games finished per second of wall-clock time."""
        return len(self.games) / self.seconds if self.seconds > 0 else 0.0

    def by_bot(self) -> dict[str, dict[str, float]]:
        """Per bot name: the seats it played (over all games), its wins (a tie counting for
        each seat sharing it) and win share, with the share's 95% Wilson interval."""
        seat_games: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for row in self.seats:
            seat_games[row.bot] += len(self.games)
            wins[row.bot] += row.wins
        figures = {}
        for bot in sorted(seat_games):
            low, high = share_interval(wins[bot], seat_games[bot])
            figures[bot] = {
                "seat_games": seat_games[bot],
                "wins": wins[bot],
                "win_share": wins[bot] / seat_games[bot] if seat_games[bot] else 0.0,
                "win_share_low": low,
                "win_share_high": high,
            }
        return figures

    def to_dict(self) -> dict[str, Any]:
        """The summary as one JSON-ready mapping."""
        deals = self.deals
        return {
            "variant": self.variant_id,
            "players": self.players,
            "games": len(self.games),
            "seed": self.seed,
            "workers": self.workers,
            "seats": [attrs.asdict(row) for row in self.seats],
            "bots": self.by_bot(),
            "ties": self.ties,
            "deals": deals,
            "deals_with_winner": self.deals_with_winner,
            "deals_without_winner": deals - self.deals_with_winner,
            "winner_share": self.deals_with_winner / deals if deals else 0.0,
            "mean_turns_per_deal": self.mean_turns_per_deal,
            "mean_buys_per_deal": self.mean_buys_per_deal,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "results": [
                {"seed": game.seed, "totals": list(game.totals), "winners": list(game.winners)}
                for game in self.games
            ],
        }

    def table(self) -> str:
        """The summary as a plain-text table, with 95% confidence intervals."""
        deals = self.deals
        share = self.deals_with_winner / deals if deals else 0.0
        games = len(self.games)
        width = max(8, *(len(bot) for bot in self.bots))
        lines = [
            f"{self.variant_id}: {games} game{'s' if games != 1 else ''}, "
            f"{self.players} players, seeds {self.seed}..{self.seed + games - 1}",
            "",
            f"{'seat':<5} {'bot':<{width}} {'wins':>5} {'tied':>5}  {'win share (95% CI)':<22}"
            f"{'mean score (95% CI)':>20} {'sd':>8}",
        ]
        for row in self.seats:
            interval = "" if row.mean_score_ci is None else f" ± {row.mean_score_ci:.1f}"
            shares = f"{row.win_share:.1%} ({row.win_share_low:.1%}-{row.win_share_high:.1%})"
            lines.append(
                f"{row.seat:<5} {row.bot:<{width}} {row.wins:>5} {row.tied_wins:>5}  {shares:<22}"
                f"{f'{row.mean_score:.1f}{interval}':>20} {row.sd_score:>8.1f}"
            )
        by_bot = self.by_bot()
        if len(by_bot) > 1:
            lines.append("")
            for bot, figures in by_bot.items():
                lines.append(
                    f"{bot}: {figures['wins']:.0f} wins in {figures['seat_games']:.0f} seat-games "
                    f"({figures['win_share']:.0%}, 95% CI {figures['win_share_low']:.0%}-"
                    f"{figures['win_share_high']:.0%})"
                )
        lines += [
            "wins: a tied game counts as a win for every seat sharing the lowest total;"
            " tied: such wins",
            "",
            f"tied games:            {self.ties}",
            f"deals:                 {deals}, with a winner {self.deals_with_winner} ({share:.1%}),"
            f" no winner {deals - self.deals_with_winner}",
            f"mean turns per deal:   {self.mean_turns_per_deal:.1f}",
            f"mean buys per deal:    {self.mean_buys_per_deal:.2f}",
            f"speed:                 {self.games_per_second:.2f} games/s "
            f"({self.seconds:.1f} s, {self.workers} worker{'s' if self.workers != 1 else ''})",
        ]
        return "\n".join(lines)


def _task(args: tuple[Variant, tuple[str, ...], int]) -> GameStats:
    variant, bots, seed = args
    return run_game(variant, bots, seed)


def simulate(
    variant: Variant,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    *,
    workers: int = 1,
    deals: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    first_game: Step | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> Summary:
    """Play ``games`` games (game ``i`` with seed ``seed + i``) and sum them up.

    ``bots`` names one bot for every seat, or one per seat. ``workers`` > 1 plays the games
    in that many processes; ``deals`` cuts each game to its first deals; ``progress(done,
    total)`` is called as games finish; ``first_game`` is given every step of the first game
    (which is then played in this process), as ``on_step`` of :func:`play_game`.
    ``backend``: ``"processes"`` (``workers`` processes of this machine) or ``"ray"`` (Ray
    tasks, extra ``[ray]``, on the cluster at ``address`` or a local Ray of ``workers``
    CPUs; see :mod:`shanghai_rummy.cluster`); every backend gives the same games.

    >>> import shanghai_rummy as sr
    >>> summary = simulate(sr.get_variant("rummy51"), players=2, games=2, seed=3, deals=1)
    >>> [game.seed for game in summary.games], summary.bots
    ([3, 4], ('greedy', 'greedy'))
    >>> simulate(sr.get_variant("rummy51"), players=3, games=1, bots=["greedy", "random"])
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.RummyError: 2 bots for 3 players: name one bot for all, or one per seat
    """
    variant.pack_size(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RummyError(f"games must be a positive integer, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RummyError(f"workers must be a positive integer, got {workers!r}")
    kinds = tuple(bots)
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise RummyError(
            f"{len(kinds)} bots for {players} players: name one bot for all, or one per seat"
        )
    for kind in kinds:
        check_bot(kind)
    if deals is not None:
        variant = attrs.evolve(variant, deal_count=deals)
    start = time.perf_counter()
    results: dict[int, GameStats] = {}
    seeds = [seed + index for index in range(games)]
    pending = seeds
    if first_game is not None:
        results[seed] = run_game(variant, kinds, seed, on_step=first_game)
        pending = seeds[1:]
        if progress is not None:
            progress(len(results), games)
    if backend not in BACKENDS:
        raise RummyError(f"unknown backend {backend!r}; backends are {', '.join(BACKENDS)}")
    if backend == "ray" and pending:
        from .cluster import run_games

        def finished(done: int) -> None:
            if progress is not None:
                progress(len(results) + done, games)

        results.update(
            run_games(
                run_game,
                variant,
                kinds,
                pending,
                address=address,
                workers=workers,
                progress=finished,
            )
        )
    elif workers > 1 and len(pending) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(pending))) as pool:
            futures = [pool.submit(_task, (variant, kinds, game_seed)) for game_seed in pending]
            for future in as_completed(futures):
                stats = future.result()
                results[stats.seed] = stats
                if progress is not None:
                    progress(len(results), games)
    else:
        for game_seed in pending:
            results[game_seed] = run_game(variant, kinds, game_seed)
            if progress is not None:
                progress(len(results), games)
    return Summary(
        variant_id=variant.id,
        players=players,
        seed=seed,
        bots=kinds,
        workers=workers,
        seconds=time.perf_counter() - start,
        games=tuple(results[game_seed] for game_seed in seeds),
    )


# -- telling a game move by move ------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards) or "-"


def deal_header(state: GameState, *, hands: bool = True) -> list[str]:
    """Lines that open a deal: its number, requirement, dealer, upcard, and (when ``hands``)
    every seat's sorted hand.

    >>> import shanghai_rummy as sr
    >>> hands = [sr.parse_cards("8C 2D"), sr.parse_cards("JK 9H 3S")]
    >>> state = sr.deal_from(sr.get_variant("shanghai"), hands, upcard=sr.Card.parse("9C"))
    >>> for line in deal_header(state):
    ...     print(line)
    Deal 1 of 10: 2 sets of 3; dealer seat 0, seat 1 plays first; upcard 9C
      seat 0 holds 8C 2D
      seat 1 holds 9H 3S JK
    """
    variant = state.variant
    upcard = "" if state.upcard is None else f"; upcard {state.upcard}"
    total = variant.total_deals(state.num_players)
    if state.levels:  # progressive contracts: a line per seat says its level
        contract = f"Deal {state.deal_number} of at most {total}: each seat on its level"
    else:
        contract = f"Deal {state.deal_number} of {total}: {requirement_of(state, 0).describe()}"
    lines = [
        f"{contract}; dealer seat {state.dealer}, seat {state.turn} plays first{upcard}",
        *(
            f"  seat {seat} on {level_name(state, seat)}: {requirement_of(state, seat).describe()}"
            for seat in range(len(state.levels))
        ),
    ]
    if hands:
        for seat in range(state.num_players):
            lines.append(f"  seat {seat} holds {_cards(sort_cards(state.hand(seat)))}")
    return lines


def narrate(before: GameState, action: Action, after: GameState) -> str:
    """One move as a line of the game's story: the seat, the move in the text notation, and
    what it brought: cards that joined a hand, new meld ids.

    >>> import shanghai_rummy as sr
    >>> hands = [sr.parse_cards("8C 2D"), sr.parse_cards("JK 9H 3S")]
    >>> state = sr.deal_from(sr.get_variant("shanghai"), hands, upcard=sr.Card.parse("9C"))
    >>> move = sr.Draw(seat=1, source=sr.Source.DISCARD)
    >>> narrate(state, move, sr.apply(state, move))
    '  seat 1: take  (gets 9C)'
    """
    notes = []
    for seat in range(after.num_players):
        gained = Counter(after.hands[seat])
        gained.subtract(before.hands[seat])
        cards = [card for card, count in gained.items() for _ in range(max(count, 0))]
        if cards:
            who = "gets" if seat == action.seat else f"seat {seat} gets"
            notes.append(f"{who} {_cards(sort_cards(cards))}")
    if isinstance(action, Meld):
        old = {meld.id for meld in before.table}
        new = [f"#{meld.id}" for meld in after.table if meld.id not in old]
        notes.append(f"melds {' '.join(new)}")
    if isinstance(action, Draw) and action.source is Source.STOCK and not notes:
        notes.append("the upcard is offered")
    line = f"  seat {action.seat}: {format_action(action)}"
    return line + (f"  ({'; '.join(notes)})" if notes else "")


def deal_footer(state: GameState) -> list[str]:
    """Lines that close a finished deal: who went out, and each seat's points and total.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=2, seed=1)
    >>> deal_footer(state)
    []
    """
    if state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER) or not state.results:
        return []
    result = state.results[-1]
    if result.winner is None:
        first = f"Deal {result.deal_number} over after {state.turns_this_deal} turns: no winner"
    else:
        first = (
            f"Deal {result.deal_number} over after {state.turns_this_deal} turns: "
            f"seat {result.winner} went out"
        )
    lines = [first]
    for score in result.seats:
        lines.append(
            f"  seat {score.seat} scores {score.points} ({score.reason}"
            + (f": {_cards(sort_cards(score.cards))}" if score.cards else "")
            + f"), total {state.totals[score.seat]}"
        )
    outcome = state.outcome
    if outcome is not None:
        best = outcome.totals[outcome.winners[0]]
        seats = " and ".join(f"seat {seat}" for seat in outcome.winners)
        verb = "share the win" if outcome.is_tie else "wins"
        lines.append(f"Game over: {seats} {verb} with {best}")
        if outcome.completed:
            done = ", ".join(f"seat {seat} {count}" for seat, count in enumerate(outcome.completed))
            lines.append(f"Levels completed (of {len(state.variant.deals)}): {done}")
        lines.append("Places: " + "; ".join(_placed(outcome, place) for place in outcome.standings))
    return lines


def _placed(outcome: Outcome, seats: tuple[int, ...]) -> str:
    """One place of the standings: ``2nd seat 1 (25)``, ``1st seat 0 and seat 2 (10)``."""
    place = outcome.placings[seats[0]]
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    names = " and ".join(f"seat {seat}" for seat in seats)
    return f"{place}{suffix} {names} ({outcome.totals[seats[0]]})"


def narrate_game(state: GameState, actions: Sequence[Action]) -> Iterator[str]:
    """The story of ``actions`` played from ``state`` (dealing each next deal before the
    action that follows a finished one), as :func:`replay` would play them. An action the
    rules refuse raises the engine's error, its message prefixed with the action's index."""
    yield from deal_header(state)
    for index, action in enumerate(actions):
        if state.phase is Phase.DEAL_OVER:
            state = next_deal(state)
            yield from deal_header(state)
        try:
            after = apply(state, action)
        except RummyError as error:
            raise type(error)(f"action #{index} {format_action(action)!r}: {error}") from error
        yield narrate(state, action, after)
        if after.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            yield from deal_footer(after)
        state = after
