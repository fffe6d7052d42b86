"""Environment steps per second beside the engine's decision step, in one run, as JSON.

Run from the repository root: ``python benchmarks/rl_env.py`` (``--steps``, ``--repeats``).
Both loops play the same seeded random games of ``shanghai`` with 4 seats (the next deal
dealt as one ends, a new game as one ends):

- ``engine_step``: ``legal_actions(state)``, a random choice, ``apply``;
- ``env_step``: the PettingZoo AEC environment's observation of the agent to act (the
  observation array and the action mask), a random index from the mask, ``env.step``.

Each figure is the median over ``--repeats`` runs (the two loops alternate); the ratio is
engine steps per second over environment steps per second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import shanghai_rummy as sr
from shanghai_rummy import rl


def engine_steps(steps: int, seed: int) -> float:
    """Decision steps per second of the engine alone."""
    variant = sr.get_variant("shanghai")
    rng = random.Random(seed)
    game = seed
    state = sr.new_game(variant, players=4, seed=game)
    start = time.perf_counter()
    for _ in range(steps):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.phase is sr.Phase.GAME_OVER:
            game += 1
            state = sr.new_game(variant, players=4, seed=game)
        actions = sr.legal_actions(state)
        state = sr.apply(state, actions[rng.randrange(len(actions))])
    return steps / (time.perf_counter() - start)


def env_steps(steps: int, seed: int) -> float:
    """Environment steps per second: observation and mask, a masked random index, step."""
    env = rl.raw_env("shanghai", 4)
    env.reset(seed=seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(steps):
        if not env.agents or env.terminations[env.agent_selection]:
            env.reset()
        observation = env.observe(env.agent_selection)
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    engine, env = [], []
    for _ in range(options.repeats):
        engine.append(engine_steps(options.steps, options.seed))
        env.append(env_steps(options.steps, options.seed))
    figures = {
        "preset": "shanghai",
        "players": 4,
        "steps": options.steps,
        "repeats": options.repeats,
        "engine_steps_per_second": statistics.median(engine),
        "env_steps_per_second": statistics.median(env),
        "engine_over_env": statistics.median(engine) / statistics.median(env),
        "observation_size": rl.Observation(sr.get_variant("shanghai"), 4).size,
        "num_actions": rl.ActionEncoding(sr.get_variant("shanghai"), 4).num_actions,
    }
    print(json.dumps({"rl_env": figures}, indent=2))


if __name__ == "__main__":
    main()
