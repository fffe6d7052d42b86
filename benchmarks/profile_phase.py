"""Where the time of one phase goes: cProfile over the engine benchmark's own random play.

Run: python benchmarks/profile_phase.py [--phase going_down] [--steps 20000] [--sort cumulative]
Plays the same seeded games as ``benchmarks/engine.py`` and profiles only the decision steps
(legal_actions + apply) counted in ``--phase`` (draw, buy, play, going_down, or all), then
prints the functions that cost the most. Unlike the other benchmarks it prints a table, not
JSON: it is for finding what to make faster, and its times include the profiler's overhead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shanghai_rummy as sr
from benchmarks.engine import PHASE_NAMES, next_decision, phase_name

PHASES = (*PHASE_NAMES.values(), "going_down", "all")


def profile(variant_id: str, players: int, steps: int, seed: int, phase: str) -> pstats.Stats:
    """The merged profile of the steps counted in ``phase`` over ``steps`` decision steps."""
    variant = sr.get_variant(variant_id)
    rng = random.Random(seed)
    merged: pstats.Stats | None = None
    profiled = game = done = 0
    state = sr.new_game(variant, players=players, seed=seed)
    while done < steps:
        state, game = next_decision(state, variant, players, seed, game)
        # a going-down step is known only once the action is chosen: each step is profiled
        # on its own and kept when it belongs to the phase
        step = cProfile.Profile()
        step.enable()
        actions = sr.legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        after = sr.apply(state, action)
        step.disable()
        name = phase_name(state, action)
        if phase in ("all", name) or (phase == "going_down" and name.startswith("going_down")):
            profiled += 1
            if merged is None:
                merged = pstats.Stats(step)
            else:
                merged.add(step)
        state = after
        done += 1
    if merged is None:
        raise SystemExit(f"no step of phase {phase!r} in {steps} steps")
    print(f"{profiled} of {steps} steps counted in phase {phase!r} ({variant_id}, {players} seats)")
    return merged


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phase", choices=PHASES, default="going_down")
    parser.add_argument("--sort", default="cumulative", help="a pstats sort key")
    parser.add_argument("--top", type=int, default=30, help="how many functions to print")
    args = parser.parse_args(argv)
    stats = profile(args.variant, args.players, args.steps, args.seed, args.phase)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
