"""A PettingZoo AEC environment: every seat an agent, ``player_0`` .. ``player_{n-1}``.

Each agent's observation is a dict: ``"observation"``, its seat's view as the array of
:class:`~shanghai_rummy.rl.Observation`, and ``"action_mask"``, the legal actions of
:class:`~shanghai_rummy.rl.ActionEncoding` (int8; all zeros for a seat not to act). The agent
to act is the seat whose decision is pending: during buying, the seat offered the upcard.
Rewards come at the end of each deal and of the game (:mod:`shanghai_rummy.rl.game`); the
game ends with every agent terminated. ``render_mode="ansi"`` renders the table as text
(every hand shown: it is for the person watching).

>>> from shanghai_rummy import rl
>>> env = rl.env(variant="shanghai", players=4)
>>> env.reset(seed=1)
>>> observation, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, int(observation["action_mask"].sum()), reward
('player_1', 2, 0.0)
>>> env.step(int(observation["action_mask"].argmax()))  # the first legal action
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..variants import Variant
from .game import OBSERVATION_BOUND, Game, resolve_variant

__all__ = ["env", "raw_env"]


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):
    """The environment without PettingZoo's wrappers (see :func:`env`).

    ``variant``: a preset id or a :class:`~shanghai_rummy.Variant`; ``players``: seats;
    ``deals``: play only the first deals (None: the whole game); ``render_mode``: None or
    ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "shanghai_rummy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str = "shanghai",
        players: int = 4,
        deals: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.game = Game(resolve_variant(variant, deals), players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size = self.game.observation.size
        actions = self.game.encoding.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -OBSERVATION_BOUND, OBSERVATION_BOUND, (size,), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._next_seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions (the encoding's indices)."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and action mask."""
        seat = self._seat(agent)
        state = self.game.state
        if state.to_act == seat and not self.game.over:
            mask = self.game.encoding.action_mask(state)
        else:
            mask = np.zeros(self.game.encoding.num_actions, dtype=np.int8)
        return {"observation": self.game.observe(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` seeds the deal (None: the one after the last game's)."""
        if seed is not None:
            self._next_seed = seed
        self.game.reset(self._next_seed)
        self._next_seed += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game.state.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        """Play the action at index ``action`` for the agent to act (None for an agent that
        is done); :class:`~shanghai_rummy.IllegalMoveError` for an index the mask leaves out."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for an agent that is done")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.game.step(int(action))
        for seat, reward in enumerate(rewards):
            self.rewards[self.possible_agents[seat]] = reward
        if self.game.over:
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game as text, where ``render_mode="ansi"``."""
        if self.render_mode == "ansi":
            return self.game.text()
        return None

    def close(self) -> None:
        """Nothing to release."""


def env(
    variant: Variant | str = "shanghai",
    players: int = 4,
    deals: int | None = None,
    render_mode: str | None = None,
) -> AECEnv[str, dict[str, npt.NDArray[Any]], int]:
    """The PettingZoo AEC environment of ``variant`` with ``players`` seats, in PettingZoo's
    usual wrappers (an index out of range and steps out of order are refused)."""
    wrapped: Any = raw_env(variant, players, deals, render_mode)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    result: AECEnv[str, dict[str, npt.NDArray[Any]], int] = wrappers.OrderEnforcingWrapper(wrapped)
    return result
