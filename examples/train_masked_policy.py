"""Train a masked policy on one seat of Shanghai and plot its learning curve.

sb3-contrib's ``MaskablePPO`` learns on :class:`shanghai_rummy.rl.GymEnv` (the learner at
seat 0, the other seats played by bots; illegal indices masked out through the environment's
``action_masks``); a game is the first deal of Shanghai, cut at 60 turns. Every
``--eval-every`` steps the policy plays ``--eval-games`` seeded games against three
RandomBots and against three GreedyBots, and the mean reward per game (the seat's share of
the deal points, divided by 100, plus 1 for winning the game; see
:mod:`shanghai_rummy.rl.game`) is recorded. The plot shows both curves beside what a
RandomBot and a GreedyBot earn in the same seat against the same opponents, on the same
seeds; the figures are printed as JSON.

Needs the ``train`` extra (sb3-contrib, torch) and ``plot`` (matplotlib)::

    pip install 'shanghai-rummy[rl,train,plot]'
    python examples/train_masked_policy.py --steps 20000 --eval-every 2000 --eval-games 8

The defaults (256 steps, evaluations of 2 games, the plot in the temporary directory) only
show that the loop works, in well under a minute; it takes far more steps to learn a policy
that beats RandomBot, and more again for GreedyBot.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import matplotlib

matplotlib.use("Agg")  # no display needed: the curve goes to a file

import matplotlib.pyplot as plt
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import shanghai_rummy as sr
from shanghai_rummy import rl

OPPONENTS = ("random", "greedy")
PLAYERS = 4
TURN_LIMIT = 60
"""Turns after which a deal ends with no winner, every hand scored: RandomBots (and a policy
still learning) rarely go down, and the preset's safety limit of 1,000 turns would make
their games long."""
VARIANT = attrs.evolve(
    sr.get_variant("shanghai"),
    deal_count=1,
    stock=attrs.evolve(sr.get_variant("shanghai").stock, turn_limit=TURN_LIMIT),
)
"""The first deal of Shanghai, cut at ``TURN_LIMIT`` turns: one deal is one episode."""


def play_policy(
    choose: Callable[[rl.GymEnv, np.ndarray], int], opponents: str, games: int, seed: int
) -> float:
    """The mean reward per game of ``choose(env, observation) -> index`` at seat 0, over
    ``games`` seeded games (one deal each) against three bots of the kind ``opponents``."""
    env = rl.GymEnv(VARIANT, players=PLAYERS, opponents=[opponents])
    total = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            observation, reward, terminated, truncated, _ = env.step(choose(env, observation))
            total += float(reward)
            done = terminated or truncated
    return total / games


def bot_choice(bot: sr.Bot) -> Callable[[rl.GymEnv, np.ndarray], int]:
    """A library bot as a ``choose`` function: its move, encoded."""

    def choose(env: rl.GymEnv, observation: np.ndarray) -> int:
        state = env.game.state
        return env.game.encoding.encode(bot.choose(sr.view(state, 0)))

    return choose


def policy_choice(model: MaskablePPO) -> Callable[[rl.GymEnv, np.ndarray], int]:
    """The trained policy's most likely legal index."""

    def choose(env: rl.GymEnv, observation: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=256, help="training steps in all")
    parser.add_argument("--eval-every", type=int, default=128, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=2, help="games per evaluation")
    parser.add_argument("--train-against", choices=OPPONENTS, default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    parser.add_argument(
        "--output", type=Path, default=Path(tempfile.gettempdir()) / "learning-curve.png"
    )
    options = parser.parse_args()

    started = time.perf_counter()
    torch.set_num_threads(options.threads)
    env = rl.GymEnv(VARIANT, players=PLAYERS, opponents=[options.train_against])
    env.reset(seed=options.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=min(512, options.eval_every),
        batch_size=64,
        n_epochs=4,
        seed=options.seed,
        verbose=0,
    )
    evaluation_seed = 10_000 + options.seed
    baselines = {
        opponents: {
            "random": play_policy(
                bot_choice(sr.RandomBot(seed=1)), opponents, options.eval_games, evaluation_seed
            ),
            "greedy": play_policy(
                bot_choice(sr.GreedyBot(VARIANT)),
                opponents,
                options.eval_games,
                evaluation_seed,
            ),
        }
        for opponents in OPPONENTS
    }
    curve: list[dict[str, Any]] = []
    trained = 0
    while True:
        curve.append(
            {
                "steps": trained,
                **{
                    opponents: play_policy(
                        policy_choice(model), opponents, options.eval_games, evaluation_seed
                    )
                    for opponents in OPPONENTS
                },
            }
        )
        if trained >= options.steps:
            break
        chunk = min(options.eval_every, options.steps - trained)
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        trained += chunk

    figure, axes = plt.subplots(figsize=(7, 4))
    steps = [point["steps"] for point in curve]
    for opponents, color in zip(OPPONENTS, ("tab:blue", "tab:orange"), strict=True):
        axes.plot(
            steps,
            [point[opponents] for point in curve],
            color=color,
            marker="o",
            label=f"MaskablePPO vs 3 {opponents}",
        )
        axes.axhline(
            baselines[opponents]["random"],
            color=color,
            linestyle=":",
            label=f"RandomBot vs 3 {opponents}",
        )
        axes.axhline(
            baselines[opponents]["greedy"],
            color=color,
            linestyle="--",
            label=f"GreedyBot vs 3 {opponents}",
        )
    axes.set_xlabel("training steps")
    axes.set_ylabel(f"mean reward per game ({options.eval_games} seeded games)")
    axes.set_title(f"Shanghai, seat 0 of {PLAYERS}, trained against {options.train_against}")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(options.output)
    print(
        json.dumps(
            {
                "steps": options.steps,
                "trained_against": options.train_against,
                "eval_games": options.eval_games,
                "seconds": round(time.perf_counter() - started, 1),
                "curve": curve,
                "baselines": baselines,
                "plot": str(options.output),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
