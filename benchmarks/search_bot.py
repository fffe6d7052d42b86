"""SearchBot against three GreedyBots, 4 seats, every preset: strength per deal and time per
move, as JSON.

Run from the repository root (one process, about 1 CPU-second a deal)::

    nice -n 10 python benchmarks/search_bot.py --deals 200 > search_bot.json

For each preset, whole games are played until at least ``--deals`` deals (ten deals a game in
the Shanghai presets, one per seat in Rummy 51). Game ``i`` uses seed ``seed + i`` and seats
the SearchBot at seat ``i % 4``, so every seat takes its turn; every deal is one sample.

Figures per preset, each with a 95% confidence interval, one sample per deal: the SearchBot's
mean points per deal and a GreedyBot seat's (the mean of the three in that deal; Student's t;
lower is better in every preset); the *margin*, the SearchBot's points minus the mean of the
three GreedyBots' in the same deal (a paired difference; negative is better); the share of
deals the SearchBot won (went out) and the mean share of one GreedyBot seat (Wilson
intervals), and the paired gap between the two (per deal: 1 if the SearchBot won, less a
third if a GreedyBot did; Student's t); the CPU time per SearchBot move (all its moves) and
per searched decision.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from shanghai_rummy.confidence import mean_interval, share_interval
from shanghai_rummy.simulate import play_game
from shanghai_rummy.views import PlayerView

PLAYERS = 4
PRESETS = ("shanghai", "shanghai-wiki", "shanghai-camping", "rummy51")


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


def play(preset: str, seed: int, simulations: int) -> dict[str, Any]:
    """One game: the SearchBot's seat, each deal's points and winner, its moves and time."""
    variant = sr.get_variant(preset)
    seat = seed % PLAYERS
    searcher = _TimedSearchBot(variant, simulations=simulations, seed=seed)
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
        "searched": searcher.searches,
        "seconds": searcher.seconds,
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def summary(preset: str, games: list[dict[str, Any]], simulations: int) -> dict[str, Any]:
    """The figures of one preset's games (one sample per deal: a GreedyBot's points are the
    mean of the three GreedyBot seats' in that deal)."""
    margins: list[float] = []
    own: list[float] = []
    theirs: list[float] = []
    win_gaps: list[float] = []
    won = greedy_won = deals = 0
    for game in games:
        seat = game["seat"]
        for deal in game["deals"]:
            points = deal["points"]
            others = statistics.fmean(value for other, value in enumerate(points) if other != seat)
            margins.append(points[seat] - others)
            own.append(points[seat])
            theirs.append(others)
            deals += 1
            searcher_won = deal["winner"] == seat
            greedy_went_out = deal["winner"] is not None and not searcher_won
            won += searcher_won
            greedy_won += greedy_went_out
            win_gaps.append(searcher_won - greedy_went_out / (PLAYERS - 1))
    moves = sum(game["moves"] for game in games)
    searched = sum(game["searched"] for game in games)
    seconds = sum(game["seconds"] for game in games)
    return {
        "preset": preset,
        "players": PLAYERS,
        "games": len(games),
        "deals": deals,
        "simulations_per_searched_decision": simulations,
        "search_mean_points": round(statistics.fmean(own), 3),
        "search_mean_points_ci95": _rounded(mean_interval(own)),
        "greedy_mean_points": round(statistics.fmean(theirs), 3),
        "greedy_mean_points_ci95": _rounded(mean_interval(theirs)),
        "margin_per_deal": round(statistics.fmean(margins), 3),
        "margin_per_deal_ci95": _rounded(mean_interval(margins)),
        "search_deal_win_share": round(won / deals, 4),
        "search_deal_win_share_ci95": [round(x, 4) for x in share_interval(won, deals)],
        "greedy_deal_win_share": round(greedy_won / (deals * (PLAYERS - 1)), 4),
        "greedy_deal_win_share_ci95": [
            round(x, 4) for x in share_interval(greedy_won, deals * (PLAYERS - 1))
        ],
        "win_share_gap": round(statistics.fmean(win_gaps), 4),
        "win_share_gap_ci95": _rounded(mean_interval(win_gaps)),
        "search_moves": moves,
        "searched_decisions": searched,
        "cpu_seconds_per_move": round(seconds / moves, 5) if moves else 0.0,
        "cpu_seconds_per_searched_decision": round(seconds / searched, 5) if searched else 0.0,
        "search_cpu_seconds": round(seconds, 1),
    }


def resummarize(path: Path) -> dict[str, Any]:
    """The figures again from the games of a saved run (this script's JSON output)."""
    saved = json.loads(path.read_text())
    return {
        "search_bot": [
            summary(preset, games, figures["simulations_per_searched_decision"])
            for figures, (preset, games) in zip(
                saved["search_bot"], saved["games"].items(), strict=True
            )
        ],
        "cpu_seconds": saved["cpu_seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=list(PRESETS))
    parser.add_argument("--deals", type=int, default=200, help="at least this many per preset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=8, help="rollouts per searched decision")
    parser.add_argument("--summarize", type=Path, help="only sum up a saved run's games again")
    options = parser.parse_args()
    if options.summarize is not None:
        print(json.dumps(resummarize(options.summarize), indent=2))
        return
    results = []
    started = time.process_time()
    for preset in options.presets:
        variant = sr.get_variant(preset)
        per_game = variant.total_deals(PLAYERS)
        games = [
            play(preset, options.seed + index, options.simulations)
            for index in range(math.ceil(options.deals / per_game))
        ]
        results.append({"summary": summary(preset, games, options.simulations), "games": games})
        print(json.dumps(results[-1]["summary"]), file=sys.stderr, flush=True)
    print(
        json.dumps(
            {
                "search_bot": [result["summary"] for result in results],
                "cpu_seconds": round(time.process_time() - started, 1),
                "games": {result["summary"]["preset"]: result["games"] for result in results},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
