"""Every speed figure of shanghai-rummy in one JSON document.

Run from the repository root: ``python benchmarks/run.py --json`` (or ``python -m benchmarks``).
``--quick`` measures fewer steps and games (for a smoke run). Seeds are fixed; each engine
figure is the median of ``--repeats`` runs.

Figures: the decision step (legal_actions + apply) over seeded random play in ``shanghai`` with
4 seats, overall and per phase (median, p90, p99 and mean µs), with the steps per second;
legal_actions alone; the solver per requirement; new_game; to_json/from_json per state; the
going-down steps of GreedyBot games (the hands real players go down with); the going-down
steps (``going_down_first``: the first group of a turn's going down, ``going_down_later``:
the groups after it, ``going_down``: both) of each seeded run played again once every table
its hands need is built; how many going-down moves are listed per step in each preset and in
the 30-card house rule; GreedyBot games per second per preset; the machine and Python
version; and the sweeps of ``benchmarks/sweeps.py``: the step's mean and median per seat
count (2 to 8), by the history's length in one long game, and before and after a process
has played in 100 other variants. Each phase's figures carry its ``share_of_mean``: the part
of the mean step its steps make.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from benchmarks import engine as engine_bench
from benchmarks import solver as solver_bench
from benchmarks import sweeps
from shanghai_rummy.simulate import simulate


def _median_of_runs(runs: list[dict[str, Any]], path: tuple[str, ...]) -> dict[str, float]:
    """The median, over runs, of each figure found at ``path`` in every run."""
    picked = []
    for run in runs:
        node: Any = run
        for key in path:
            node = node.get(key, {})
        picked.append(node)
    keys = [key for key in picked[0] if key != "n"]
    merged: dict[str, float] = {"n": sum(p.get("n", 0) for p in picked)}
    for key in keys:
        merged[key] = round(statistics.median(p[key] for p in picked if key in p), 2)
    return merged


def engine_figures(steps: int, repeats: int) -> dict[str, Any]:
    runs = [engine_bench.measure("shanghai", 4, steps, seed) for seed in range(1, repeats + 1)]
    phases = sorted({name for run in runs for name in run["per_phase"]})
    return {
        "variant": "shanghai",
        "players": 4,
        "policy": "uniform random over legal_actions",
        "runs": repeats,
        "steps_per_run": steps,
        "step": _median_of_runs(runs, ("step",)),
        "step_apart_from_going_down": _median_of_runs(runs, ("step_apart_from_going_down",)),
        "legal_actions": _median_of_runs(runs, ("legal_actions",)),
        "per_phase": {
            name: _median_of_runs(
                [run for run in runs if name in run["per_phase"]], ("per_phase", name)
            )
            for name in phases
        },
    }


def tables_built_figures(steps: int, repeats: int) -> dict[str, Any]:
    """Going down in each seeded run of :func:`engine_figures`, played a second time once
    every table its hands need is built; the median of the runs, as there."""
    runs = [
        engine_bench.going_down_with_tables_built("shanghai", 4, steps, seed)
        for seed in range(1, repeats + 1)
    ]
    return {
        "variant": "shanghai",
        "players": 4,
        "runs": repeats,
        "steps_per_run": steps,
        "going_down": _median_of_runs(runs, ("going_down",)),
    }


def _timed(function: Any, *args: Any) -> float:
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1e6


def _sample_states(count: int) -> list[sr.GameState]:
    rng = random.Random(5)
    variant = sr.get_variant("shanghai")
    state = sr.new_game(variant, players=4, seed=5)
    states = []
    while len(states) < count:
        if state.phase is sr.Phase.GAME_OVER:
            state = sr.new_game(variant, players=4, seed=len(states))
        elif state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        else:
            actions = sr.legal_actions(state)
            state = sr.apply(state, actions[rng.randrange(len(actions))])
            if rng.random() < 0.05:
                states.append(state)
    return states


def misc_figures(samples: int) -> dict[str, Any]:
    variant = sr.get_variant("shanghai")
    new_game = sorted(_timed(sr.new_game, variant, 4, seed) for seed in range(samples))
    states = _sample_states(max(10, samples // 10))
    dumps = [sr.to_json(state) for state in states]
    to_json = sorted(_timed(sr.to_json, state) for state in states)
    from_json = sorted(_timed(sr.from_json, text, sr.GameState) for text in dumps)
    return {
        "new_game_us": round(statistics.median(new_game), 1),
        "to_json_us_per_state": round(statistics.median(to_json), 1),
        "from_json_us_per_state": round(statistics.median(from_json), 1),
        "from_json_note": "from_json validates the state (every invariant) as it loads",
        "json_bytes_per_state": round(statistics.median(len(text) for text in dumps)),
        "states_sampled": len(states),
    }


def greedy_figures(games: int) -> dict[str, Any]:
    """GreedyBot games per second per preset. Measured first, in a process that has solved
    nothing yet (the solver remembers tables across calls, as it would for a program that
    runs ``simulate`` once), and with games other than those of the going-down figures."""
    figures: dict[str, Any] = {}
    for variant_id in sr.VARIANTS:
        variant = sr.get_variant(variant_id)
        start = time.perf_counter()
        summary = simulate(variant, players=4, games=games, seed=200, bots=("greedy",))
        seconds = time.perf_counter() - start
        document = summary.to_dict()
        figures[variant_id] = {
            "games": games,
            "players": 4,
            "games_per_second": round(games / seconds, 2),
            "deals": document.get("deals"),
            "deals_with_a_winner": document.get("deals_with_winner"),
        }
    return figures


def listing_figures(steps: int, seconds: float) -> dict[str, Any]:
    """How many going-down moves (Melds) and actions are listed per step where the seat in
    turn may go down, in seeded random play of each preset (4 seats) and of the 30-card house
    rule of issue 23 (2 seats), with the step's time."""
    figures: dict[str, Any] = {}
    for variant_id in sr.VARIANTS:
        figures[variant_id] = engine_bench.listing_counts(
            sr.get_variant(variant_id), 4, steps, 1, seconds
        )
    try:
        house = sr.load_variant(engine_bench.HOUSE_30)
        lifted = None
    except sr.VariantError as error:  # beyond the limits of shanghai_rummy.limits
        house = engine_bench.beyond_limits(engine_bench.HOUSE_30)
        lifted = str(error)
    figures["house-30-cards"] = engine_bench.listing_counts(house, 2, steps, 1, seconds)
    if lifted is not None:
        figures["house-30-cards"]["built_with_the_hand_limits_lifted"] = lifted
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    parser.add_argument("--quick", action="store_true", help="fewer steps and games")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    steps = 3_000 if args.quick else 20_000
    hands = 200 if args.quick else 1_000
    games = 1 if args.quick else 5
    greedy_games = greedy_figures(games)  # first: see greedy_figures
    document = {
        "benchmark": "shanghai-rummy",
        "version": sr.__version__,
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
        },
        "engine": engine_figures(steps, 1 if args.quick else args.repeats),
        "going_down_in_greedy_play": engine_bench.going_down_in_greedy_play(
            "shanghai", players=4, games=games, seed=100
        ),
        "going_down_with_tables_built": tables_built_figures(
            steps, 1 if args.quick else args.repeats
        ),
        "going_down_listing": listing_figures(
            1_000 if args.quick else 10_000, 20.0 if args.quick else 120.0
        ),
        "solver": solver_bench.figures(hands),
        "misc": misc_figures(50 if args.quick else 300),
        "sweeps": sweeps.quick_figures() if args.quick else sweeps.figures(6_000),
        "greedy_games": greedy_games,
    }
    print(json.dumps(document, indent=2))


if __name__ == "__main__":
    main()
