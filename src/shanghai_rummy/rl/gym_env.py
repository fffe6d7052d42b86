"""A Gymnasium environment for one seat, the other seats played by bots: :class:`GymEnv`.

The observation is the seat's view as the array of :class:`~shanghai_rummy.rl.Observation`;
the action an index of :class:`~shanghai_rummy.rl.ActionEncoding`. The legal actions come
in ``info["action_mask"]`` and from :meth:`GymEnv.action_masks` (the method sb3-contrib's
``MaskablePPO`` calls). After each of the seat's moves the bots play until the seat is to
act again or the game ends. Rewards are the seat's share of the deal and game rewards of
:mod:`shanghai_rummy.rl.game`; an index the mask leaves out changes nothing and earns
``illegal_action_reward`` (with ``info["illegal_action"]`` True); an episode is truncated
after ``max_steps`` of the seat's steps.

>>> from shanghai_rummy import rl
>>> env = rl.GymEnv(variant="shanghai", players=4, opponents=["greedy"] * 3)
>>> observation, info = env.reset(seed=2)
>>> observation.shape == env.observation_space.shape, int(info["action_mask"].sum())
(True, 2)
>>> observation, reward, terminated, truncated, info = env.step(0)  # draw from the stock
>>> terminated, truncated
(False, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot
from ..engine import apply
from ..errors import IllegalMoveError, RummyError
from ..simulate import make_bot
from ..variants import Variant
from ..views import view
from .game import OBSERVATION_BOUND, Game, resolve_variant

__all__ = ["GymEnv"]

Observation = npt.NDArray[np.float32]


class GymEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game against bots (see the module's text).

    ``variant``: a preset id or a :class:`~shanghai_rummy.Variant`; ``players``: seats;
    ``opponents``: one per other seat, in seat order after ``seat``: a bot, or a name for
    :func:`~shanghai_rummy.simulate.make_bot` (``"greedy"``, ``"random"``; made again at each
    reset, seeded from the game's seed); default GreedyBots; ``seat``: the learner's seat;
    ``deals``: play only the first deals; ``render_mode``: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own declaration

    def __init__(
        self,
        variant: Variant | str = "shanghai",
        players: int = 4,
        opponents: Sequence[Bot | str] | None = None,
        *,
        seat: int = 0,
        deals: int | None = None,
        illegal_action_reward: float = -1.0,
        max_steps: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.game = Game(resolve_variant(variant, deals), players)
        if not 0 <= seat < players:
            raise RummyError(f"seat must be from 0 to {players - 1}, got {seat!r}")
        self.seat = seat
        kinds: list[Bot | str] = list(opponents) if opponents is not None else ["greedy"]
        if len(kinds) == 1:
            kinds *= players - 1
        if len(kinds) != players - 1:
            raise RummyError(f"{len(kinds)} opponents for {players - 1} other seats")
        self.opponents = kinds
        self.illegal_action_reward = float(illegal_action_reward)
        self.max_steps = max_steps
        self.observation_space = spaces.Box(
            -OBSERVATION_BOUND, OBSERVATION_BOUND, (self.game.observation.size,), np.float32
        )
        self.action_space = spaces.Discrete(self.game.encoding.num_actions)
        self._bots: dict[int, Bot] = {}
        self._steps = 0

    def _make_bots(self, seed: int) -> None:
        variant = self.game.variant
        others = [
            (self.seat + offset) % self.game.players for offset in range(1, self.game.players)
        ]
        self._bots = {
            other: make_bot(kind, variant, seed * 64 + other) if isinstance(kind, str) else kind
            for other, kind in zip(others, self.opponents, strict=True)
        }

    def _observe(self) -> Observation:
        return self.game.observe(self.seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat now, as booleans (all False once the game is over)."""
        state = self.game.state
        if state.to_act != self.seat or self.game.over:
            return np.zeros(self.game.encoding.num_actions, dtype=np.bool_)
        return self.game.encoding.action_mask(state).astype(np.bool_)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), **extra}

    def _play_bots(self) -> float:
        """Let the bots play until the seat is to act or the game ends; the seat's rewards."""
        reward = 0.0
        game = self.game
        while not game.over and game.state.to_act != self.seat:
            actor = game.state.to_act
            assert actor is not None
            action = self._bots[actor].choose(view(game.state, actor))
            reward += game.settle(apply(game.state, action))[self.seat]
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game (``seed``: its seed; None draws one from the environment's generator)."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self.game.reset(game_seed)
        self._make_bots(game_seed)
        self._steps = 0
        self._play_bots()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the action at index ``action`` for the seat, then the bots' moves."""
        self._steps += 1
        truncated = self._steps >= self.max_steps and not self.game.over
        try:
            reward = self.game.step(int(action))[self.seat]
        except IllegalMoveError:
            info = self._info(illegal_action=True)
            return self._observe(), self.illegal_action_reward, self.game.over, truncated, info
        reward += self._play_bots()
        return self._observe(), reward, self.game.over, truncated, self._info(illegal_action=False)

    def render(self) -> str | None:
        """The game as text, where ``render_mode="ansi"``."""
        if self.render_mode == "ansi":
            return self.game.text()
        return None
