"""SearchBot against three GreedyBots: strength per deal and time per move, as JSON.

Run from the repository root: ``python benchmarks/search_bot.py --preset shanghai --games 20``.
Game ``i`` uses seed ``seed + i`` and seats the SearchBot at seat ``i % 4`` (so every seat
takes its turn); whole games are played (ten deals in Shanghai, one per player in Rummy 51)
and every deal is one sample.

Per deal: the SearchBot's points minus the mean of the three GreedyBots' points (negative is
better), with its mean and a 95% confidence interval (Student's t); the share of deals the
SearchBot won (went out) and the mean share of one GreedyBot seat, each with a 95% Wilson
interval; the SearchBot's mean points per deal beside a GreedyBot seat's; and the time per
searched decision and per move.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from shanghai_rummy.confidence import mean_interval, share_interval
from shanghai_rummy.simulate import play_game
from shanghai_rummy.views import PlayerView

PLAYERS = 4


class _TimedSearchBot(sr.SearchBot):
    """A SearchBot that counts its moves and the time they took."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView) -> sr.Action:
        start = time.perf_counter()
        action = super().choose(view)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


def play(args: tuple[str, int, int, int, int, float]) -> dict[str, Any]:
    """One game: the SearchBot's seat, each deal's points and winner, its move count and time."""
    preset, seed, simulations, horizon, deals, margin = args
    variant = sr.get_variant(preset)
    if deals:
        variant = attrs.evolve(variant, deal_count=deals)
    seat = seed % PLAYERS
    searcher = _TimedSearchBot(
        variant, simulations=simulations, horizon=horizon, margin=margin, seed=seed
    )
    bots: list[sr.Bot] = [sr.GreedyBot(variant) for _ in range(PLAYERS)]
    bots[seat] = searcher
    final = play_game(sr.new_game(variant, players=PLAYERS, seed=seed), bots)
    return {
        "seed": seed,
        "seat": seat,
        "deals": [
            {"points": list(result.points), "winner": result.winner} for result in final.results
        ],
        "moves": searcher.moves,
        "seconds": searcher.seconds,
    }


def summary(
    preset: str, games: list[dict[str, Any]], simulations: int, horizon: int
) -> dict[str, Any]:
    """The figures of a run."""
    margins: list[float] = []
    own: list[float] = []
    theirs: list[float] = []
    won = greedy_won = deals = 0
    for game in games:
        seat = game["seat"]
        for deal in game["deals"]:
            points = deal["points"]
            others = [value for other, value in enumerate(points) if other != seat]
            margins.append(points[seat] - statistics.fmean(others))
            own.append(points[seat])
            theirs.extend(others)
            deals += 1
            won += deal["winner"] == seat
            greedy_won += deal["winner"] is not None and deal["winner"] != seat
    low, high = share_interval(won, deals)
    greedy_low, greedy_high = share_interval(greedy_won, deals * (PLAYERS - 1))
    moves = sum(game["moves"] for game in games)
    seconds = sum(game["seconds"] for game in games)
    half = mean_interval(margins)
    return {
        "preset": preset,
        "players": PLAYERS,
        "games": len(games),
        "deals": deals,
        "simulations_per_decision": simulations,
        "horizon": horizon,
        "margin_per_deal": statistics.fmean(margins),
        "margin_per_deal_ci95": half,
        "search_mean_points": statistics.fmean(own),
        "search_mean_points_ci95": mean_interval(own),
        "greedy_mean_points": statistics.fmean(theirs),
        "greedy_mean_points_ci95": mean_interval(theirs),
        "search_deal_win_share": won / deals,
        "search_deal_win_share_ci95": [low, high],
        "greedy_deal_win_share": greedy_won / (deals * (PLAYERS - 1)),
        "greedy_deal_win_share_ci95": [greedy_low, greedy_high],
        "search_moves": moves,
        "seconds_per_move": seconds / moves if moves else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="shanghai")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--horizon", type=int, default=120)
    parser.add_argument("--margin", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--deals", type=int, default=0, help="deals per game (0: whole games)")
    options = parser.parse_args()
    tasks = [
        (
            options.preset,
            options.seed + index,
            options.simulations,
            options.horizon,
            options.deals,
            options.margin,
        )
        for index in range(options.games)
    ]
    if options.workers > 1:
        with ProcessPoolExecutor(options.workers) as pool:
            games = list(pool.map(play, tasks))
    else:
        games = [play(task) for task in tasks]
    figures = summary(options.preset, games, options.simulations, options.horizon)
    print(json.dumps({"search_bot": figures, "games": games}, indent=2))


if __name__ == "__main__":
    main()
