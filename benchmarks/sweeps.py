"""What the decision step's cost depends on: the seats, the game's length, the variants seen.

Run: python benchmarks/sweeps.py [--steps 6000] [--quick]
Prints one JSON document of three sweeps over seeded random play (a decision step is
legal_actions of the seat to act, then apply a uniform random one, as in
``benchmarks/engine.py``):

- ``seats``: the step's mean and median for 2 to 6 seats (``shanghai``) and 3 to 8 seats
  (``shanghai-camping``, the preset that seats 8), with the steps apart from going down;
- ``history``: one long game of a house rule that deals the same contract 20 times (so a late
  deal's positions are like an early one's), the steps grouped by how many actions the
  state's history holds when they are taken;
- ``variants_seen``: the step in ``shanghai`` before and after the process has played in
  ``--variants`` other variants (each a new object, as a program loading house rules makes).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from benchmarks.engine import measure, next_decision, timed_step

SAME_CONTRACT_20_DEALS = {
    "base": "shanghai",
    "deals": [{"cards": 11, "requirement": {"kind": "contract", "sets": [3, 3]}}] * 20,
}
"""A long game: shanghai's first deal dealt twenty times over (the history grows, the
positions stay alike)."""

HISTORY_EDGES = (0, 1_000, 3_000, 6_000, 10_000)
"""Where the history buckets begin (actions in the state's history)."""


def _brief(figures: dict[str, Any]) -> dict[str, Any]:
    """The step's mean and median of a :func:`~benchmarks.engine.measure` run, overall and
    apart from going down."""
    step, apart = figures["step"], figures["step_apart_from_going_down"]
    return {
        "steps": step["n"],
        "mean_us": step["mean_us"],
        "median_us": step["median_us"],
        "apart_from_going_down_mean_us": apart["mean_us"],
        "apart_from_going_down_median_us": apart["median_us"],
    }


def seats_sweep(steps: int, seed: int) -> dict[str, Any]:
    """The step per seat count, in each preset over the seats it allows."""
    sweep: dict[str, Any] = {}
    for variant_id in ("shanghai", "shanghai-camping"):
        variant = sr.get_variant(variant_id)
        sweep[variant_id] = {
            str(players): _brief(measure(variant, players, steps, seed))
            for players in range(variant.min_players, variant.max_players + 1)
        }
    return sweep


def history_sweep(steps: int, seed: int) -> dict[str, Any]:
    """The steps of one long game (:data:`SAME_CONTRACT_20_DEALS`, 4 seats, then further
    games of it until ``steps``), grouped by the history's length when each was taken."""
    variant = sr.load_variant(SAME_CONTRACT_20_DEALS)
    rng = random.Random(seed)
    buckets: dict[int, list[float]] = {edge: [] for edge in HISTORY_EDGES}
    state = sr.new_game(variant, players=4, seed=seed)
    game = done = 0
    while done < steps:
        state, game = next_decision(state, variant, 4, seed, game)
        length = 0 if state.log is None else len(state.log)
        state, _, _, listing, applying = timed_step(state, rng)
        edge = max(edge for edge in HISTORY_EDGES if edge <= length)
        buckets[edge].append(listing + applying)
        done += 1
    return {
        "variant": "shanghai's first deal, 20 deals (SAME_CONTRACT_20_DEALS)",
        "players": 4,
        "steps": done,
        "by_history_actions": {
            f"{edge}+": {
                "n": len(samples),
                "mean_us": round(statistics.fmean(samples), 2),
                "median_us": round(statistics.median(samples), 2),
            }
            for edge, samples in buckets.items()
            if samples
        },
    }


def variants_seen(steps: int, seed: int, variants: int) -> dict[str, Any]:
    """``shanghai``'s step, then ``variants`` other variants played (each a new object, kept
    alive), then ``shanghai``'s step again on the same seeds, twice (the first may rebuild
    tables a bounded cache let go; the second is the steady cost)."""
    before = _brief(measure("shanghai", 4, steps, seed))
    seen = []
    for number in range(variants):
        variant = sr.load_variant({"base": "shanghai", "id": f"house-{number}"})
        seen.append(variant)
        measure(variant, 2 + number % 3, 200, seed + number)
    after = _brief(measure("shanghai", 4, steps, seed))
    again = _brief(measure("shanghai", 4, steps, seed))
    return {
        "variant": "shanghai",
        "players": 4,
        "other_variants_played": len(seen),
        "steps_each_other_variant": 200,
        "before": before,
        # the solver keeps the tables of at most 64 variants: "after" may rebuild them once
        "after": after,
        "after_again": again,
    }


def figures(steps: int, seed: int = 1, variants: int = 100) -> dict[str, Any]:
    """The three sweeps (see the module's docstring)."""
    return {
        "seats": seats_sweep(steps, seed),
        "history": history_sweep(max(steps, 12_000), seed),
        "variants_seen": variants_seen(steps, seed, variants),
    }


def quick_figures(seed: int = 1) -> dict[str, Any]:
    """The three sweeps over few steps (a smoke run)."""
    return {
        "seats": seats_sweep(300, seed),
        "history": history_sweep(1_500, seed),
        "variants_seen": variants_seen(300, seed, 5),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="few steps (a smoke run)")
    args = parser.parse_args(argv)
    if args.quick:
        document = quick_figures(args.seed)
    else:
        document = figures(args.steps, args.seed, args.variants)
    print(json.dumps({"benchmark": "decision step sweeps", **document}, indent=2))


if __name__ == "__main__":
    main()
