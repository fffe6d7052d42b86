"""Reinforcement learning and search on shanghai-rummy (extra ``[rl]``: numpy, gymnasium,
pettingzoo). The core never imports this package.

- :class:`ActionEncoding`: a fixed integer action space per variant and seat count, with
  ``encode``, ``decode``, ``action_mask`` and a label per index;
- :class:`Observation`: a seat's view as a fixed-shape array, and an information-state string;
- :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, every seat an agent;
- :class:`GymEnv`: a Gymnasium environment for one seat, the others played by bots.
"""

from __future__ import annotations

from .aec import env, raw_env
from .encoding import CARDS, ActionEncoding, card_index
from .gym_env import GymEnv
from .observation import KnownCards, Observation, known_cards

__all__ = [
    "CARDS",
    "ActionEncoding",
    "GymEnv",
    "KnownCards",
    "Observation",
    "card_index",
    "env",
    "known_cards",
    "raw_env",
]
