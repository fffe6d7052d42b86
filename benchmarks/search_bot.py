"""SearchBot against three GreedyBots, 4 seats, every preset, by the pre-planned protocol of
the bots page of the docs ("The evaluation protocol"): strength per deal and time per move,
as JSON.

Run from the repository root (one process; about 40 CPU-minutes on one core)::

    nice -n 10 python benchmarks/search_bot.py > search_bot.json

Each preset plays :data:`PROTOCOL`'s games, whole games, game ``i`` with seed
``first_seed + i`` and the bot under test at seat ``seed % 4`` (the games are a multiple of
four, so every seat takes an equal share), GreedyBots at the other three. Every game is
played three times from the same seed, the seat's bot changed: the SearchBot; the all-GreedyBot
game (the *control*); and an *eager* GreedyBot (no size rule on buys, and taking an upcard
that makes a new group once down: ``GreedyBot(buy_slack=1000, take_to_build=True)``), the
search-free baseline the SearchBot's searched moves default to. Every deal is one sample.

Figures per preset, each with a 95% confidence interval: the seat's mean points per deal and
a GreedyBot seat's (the mean of the three in that deal; Student's t; lower is better in every
preset); the *margin*, the seat's points minus the mean of the three GreedyBots' in the same
deal (negative is better), as a plain mean and adjusted by the control (see
:func:`adjusted`); the share of deals the seat won (went out) and the mean share of one
GreedyBot seat (Wilson intervals); the CPU time per SearchBot move (all its moves) and per
searched decision.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from shanghai_rummy.confidence import mean_interval, share_interval
from shanghai_rummy.search_bot import EAGER_BUY_SLACK
from shanghai_rummy.simulate import play_game
from shanghai_rummy.views import PlayerView

PLAYERS = 4


@dataclass(frozen=True)
class Setup:
    """One preset's pre-planned run: its games and seeds, and the SearchBot's budget."""

    preset: str
    games: int
    first_seed: int
    simulations: int
    decisions: tuple[str, ...]
    margin: float


PROTOCOL = (
    Setup("rummy51", 300, 400_000, 16, ("buy", "take"), 5.0),
    Setup("shanghai-camping", 32, 300_000, 8, ("buy", "take"), 5.0),
    Setup("shanghai-wiki", 32, 200_000, 8, ("buy", "take"), 5.0),
    Setup("shanghai", 32, 100_000, 8, ("buy", "take"), 5.0),
)
"""The pre-planned evaluation, fixed before it was run (the docs' bots page says why)."""


class _TimedSearchBot(sr.SearchBot):
    """A SearchBot that counts its moves and the time they took."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView) -> sr.Action:
        start = time.process_time()
        action = super().choose(view)
        self.seconds += time.process_time() - start
        self.moves += 1
        return action


def _deals(variant: sr.Variant, seed: int, seat_bot: sr.Bot) -> list[dict[str, Any]]:
    """Each deal's points and winner of one game with ``seat_bot`` at seat ``seed % 4``."""
    bots: list[sr.Bot] = [sr.GreedyBot(variant) for _ in range(PLAYERS)]
    bots[seed % PLAYERS] = seat_bot
    final = play_game(sr.new_game(variant, players=PLAYERS, seed=seed), bots)
    return [{"points": list(result.points), "winner": result.winner} for result in final.results]


def play(setup: Setup, seed: int) -> dict[str, Any]:
    """One seed's three games: the SearchBot's, the control's and the eager one's."""
    variant = sr.get_variant(setup.preset)
    searcher = _TimedSearchBot(
        variant,
        simulations=setup.simulations,
        decisions=setup.decisions,
        margin=setup.margin,
        seed=seed,
    )
    game: dict[str, Any] = {"seed": seed, "seat": seed % PLAYERS}
    game["search"] = _deals(variant, seed, searcher)
    game["moves"], game["searched"] = searcher.moves, searcher.searches
    game["seconds"] = searcher.seconds
    game["control"] = _deals(variant, seed, sr.GreedyBot(variant))
    eager = sr.GreedyBot(variant, buy_slack=EAGER_BUY_SLACK, take_to_build=True)
    game["eager"] = _deals(variant, seed, eager)
    return game


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def adjusted(values: Sequence[float], control: Sequence[float]) -> tuple[float, float | None]:
    """The mean of ``values`` adjusted by a control of known mean zero, and its 95% interval.

    The control is the same seat's margin in the same deal of the all-GreedyBot game of the
    same seed: over seats taken in equal shares its expected value is exactly zero (the four
    seats' margins of a deal sum to zero), and it is correlated with the bot's margin (the
    same hands are dealt). The estimate is the mean of ``value - b * control``, ``b`` the
    regression slope of the values on the control (a control variate: the same expected
    value, a smaller spread where the two are correlated, about the plain one where not);
    the interval is Student's t of those adjusted values.
    """
    spread = statistics.pvariance(control)
    slope = 0.0
    if spread > 0:
        mean_value, mean_control = statistics.fmean(values), statistics.fmean(control)
        slope = (
            statistics.fmean(
                (value - mean_value) * (base - mean_control)
                for value, base in zip(values, control, strict=True)
            )
            / spread
        )
    residuals = [value - slope * base for value, base in zip(values, control, strict=True)]
    return statistics.fmean(residuals), mean_interval(residuals)


def _seat_figures(games: list[dict[str, Any]], key: str) -> dict[str, list[float]]:
    """Per deal, of the seat's bot in the games ``key``: its points, the GreedyBots' mean,
    the margin, whether it won and how many GreedyBots won (0 or 1)."""
    figures: dict[str, list[float]] = {"own": [], "theirs": [], "margin": [], "won": [], "lost": []}
    for game in games:
        seat = game["seat"]
        for deal in game[key]:
            points = deal["points"]
            others = statistics.fmean(value for other, value in enumerate(points) if other != seat)
            figures["own"].append(points[seat])
            figures["theirs"].append(others)
            figures["margin"].append(points[seat] - others)
            figures["won"].append(float(deal["winner"] == seat))
            figures["lost"].append(float(deal["winner"] is not None and deal["winner"] != seat))
    return figures


def _margin_figures(
    figures: dict[str, list[float]], control: list[float], prefix: str
) -> dict[str, Any]:
    deals = len(figures["own"])
    won, lost = int(sum(figures["won"])), int(sum(figures["lost"]))
    estimate, interval = adjusted(figures["margin"], control)
    return {
        f"{prefix}_mean_points": round(statistics.fmean(figures["own"]), 3),
        f"{prefix}_mean_points_ci95": _rounded(mean_interval(figures["own"])),
        "greedy_mean_points": round(statistics.fmean(figures["theirs"]), 3),
        "greedy_mean_points_ci95": _rounded(mean_interval(figures["theirs"])),
        f"{prefix}_margin_plain": round(statistics.fmean(figures["margin"]), 3),
        f"{prefix}_margin_plain_ci95": _rounded(mean_interval(figures["margin"])),
        f"{prefix}_margin_adjusted": round(estimate, 3),
        f"{prefix}_margin_adjusted_ci95": _rounded(interval),
        f"{prefix}_deal_win_share": round(won / deals, 4),
        f"{prefix}_deal_win_share_ci95": [round(x, 4) for x in share_interval(won, deals)],
        "greedy_deal_win_share": round(lost / (deals * (PLAYERS - 1)), 4),
        "greedy_deal_win_share_ci95": [
            round(x, 4) for x in share_interval(lost, deals * (PLAYERS - 1))
        ],
    }


def summary(setup: Setup, games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one preset's games (one sample per deal)."""
    search = _seat_figures(games, "search")
    control = _seat_figures(games, "control")["margin"]
    moves = sum(game["moves"] for game in games)
    searched = sum(game["searched"] for game in games)
    seconds = sum(game["seconds"] for game in games)
    result: dict[str, Any] = {
        "setup": asdict(setup),
        "games": len(games),
        "deals": len(search["own"]),
        **_margin_figures(search, control, "search"),
        "control_margin_plain": round(statistics.fmean(control), 3),
        "control_margin_plain_ci95": _rounded(mean_interval(control)),
        "search_moves": moves,
        "searched_decisions": searched,
        "cpu_seconds_per_move": round(seconds / moves, 5) if moves else 0.0,
        "cpu_seconds_per_searched_decision": round(seconds / searched, 5) if searched else 0.0,
        "search_cpu_seconds": round(seconds, 1),
    }
    if all("eager" in game for game in games):
        eager = _seat_figures(games, "eager")
        figures = _margin_figures(eager, control, "eager")
        result.update({key: value for key, value in figures.items() if key.startswith("eager")})
        gap = [
            mine - theirs for mine, theirs in zip(search["margin"], eager["margin"], strict=True)
        ]
        estimate, interval = adjusted(gap, control)
        result["search_less_eager_plain"] = round(statistics.fmean(gap), 3)
        result["search_less_eager_plain_ci95"] = _rounded(mean_interval(gap))
        result["search_less_eager_adjusted"] = round(estimate, 3)
        result["search_less_eager_adjusted_ci95"] = _rounded(interval)
    return result


def resummarize(path: Path) -> dict[str, Any]:
    """The figures again from the games of a saved run (this script's JSON output)."""
    saved = json.loads(path.read_text())
    setups = {setup.preset: setup for setup in PROTOCOL}
    return {
        "search_bot": [summary(setups[preset], games) for preset, games in saved["games"].items()],
        "cpu_seconds": saved["cpu_seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=[setup.preset for setup in PROTOCOL])
    parser.add_argument("--games", type=int, help="play only this many games per preset (a trial)")
    parser.add_argument("--seed", type=int, help="first seed instead of the protocol's (pilots)")
    parser.add_argument("--summarize", type=Path, help="only sum up a saved run's games again")
    parser.add_argument("--output", type=Path, help="also write the JSON here after each preset")
    options = parser.parse_args()
    if options.summarize is not None:
        print(json.dumps(resummarize(options.summarize), indent=2))
        return
    results: dict[str, Any] = {"search_bot": [], "games": {}, "cpu_seconds": 0.0}
    started = time.process_time()
    for setup in PROTOCOL:
        if setup.preset not in options.presets:
            continue
        first = setup.first_seed if options.seed is None else options.seed
        count = setup.games if options.games is None else options.games
        games = [play(setup, first + index) for index in range(count)]
        results["search_bot"].append(summary(setup, games))
        results["games"][setup.preset] = games
        print(json.dumps(results["search_bot"][-1]), file=sys.stderr, flush=True)
        results["cpu_seconds"] = round(time.process_time() - started, 1)
        if options.output is not None:
            options.output.write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
