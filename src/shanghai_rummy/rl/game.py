"""What both environments share: one game stepped by action index, its rewards and its text.

Rewards (per seat, lower points being better in every preset): when a deal ends, each seat
gets ``(mean of the other seats' points in that deal - its own points) / 100``, so the
rewards of a deal add up to zero; when the game ends, each winner (lowest total, ties
shared) gets ``+1`` more.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from ..engine import apply, new_game, next_deal
from ..levels import level_name, requirement_of
from ..state import GameState, Phase
from ..variants import Variant, get_variant
from ..views import view
from .encoding import ActionEncoding
from .observation import KnownCards, Observation

__all__ = ["Game", "deal_rewards", "resolve_variant"]

OBSERVATION_BOUND = 1000.0
"""The observation spaces' bound either way (the arrays' entries are far inside it)."""

REWARD_SCALE = 100.0
"""Deal points are divided by this in the rewards."""


def resolve_variant(variant: Variant | str, deals: int | None) -> Variant:
    """The variant (a preset by id), cut to its first ``deals`` deals when given."""
    rules = get_variant(variant) if isinstance(variant, str) else variant
    if deals is not None:
        rules = attrs.evolve(rules, deal_count=deals)
    return rules


def deal_rewards(state: GameState) -> list[float]:
    """The rewards of the deal ``state`` just finished (and of the game, when it is over)."""
    points = state.results[-1].points
    players = state.num_players
    rewards = [
        (sum(points) - own) / (players - 1) / REWARD_SCALE - own / REWARD_SCALE
        if players > 1
        else 0.0
        for own in points
    ]
    outcome = state.outcome
    if outcome is not None:
        for winner in outcome.winners:
            rewards[winner] += 1.0
    return rewards


class Game:
    """A game of ``variant`` with ``players`` seats, stepped by action indices: the state,
    the encoding and the observation; each deal after the first is dealt as the last ends."""

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.players = players
        self.encoding = ActionEncoding(variant, players)
        self.observation = Observation(variant, players, self.encoding.max_meld_id)
        self.state = new_game(variant, players, 0)
        self.known = KnownCards(players)
        self._read = -1
        self._follow()

    def _follow(self) -> None:
        """Feed :attr:`known` the events the state has that it has not read yet."""
        nodes = []
        chain = self.state.event_log
        while chain is not None and chain[1] > self._read:
            nodes.append(chain)
            chain = chain[0]
        for node in reversed(nodes):
            self.known.add(node[2](node[1], *node[3:]))
        if nodes:
            self._read = nodes[0][1]

    def reset(self, seed: int) -> None:
        """A new game from ``seed``."""
        self.state = new_game(self.variant, self.players, seed)
        self.known = KnownCards(self.players)
        self._read = -1
        self._follow()

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation array of ``seat`` now."""
        return self.observation.encode(view(self.state, seat), self.known.by_seat)

    def step(self, index: int) -> list[float]:
        """Play the action at ``index`` for the seat to act; the rewards it brought."""
        state = apply(self.state, self.encoding.decode(index, self.state))
        return self.settle(state)

    def settle(self, state: GameState) -> list[float]:
        """Take ``state`` as the game's, dealing the next deal if it just ended; rewards."""
        rewards = [0.0] * self.players
        if state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            rewards = deal_rewards(state)
            if state.phase is Phase.DEAL_OVER:
                state = next_deal(state)
        self.state = state
        self._follow()
        return rewards

    @property
    def over(self) -> bool:
        """The game is over."""
        return self.state.phase is Phase.GAME_OVER

    def text(self) -> str:
        """The game as text: the deal, the table, the pile and every hand."""
        state = self.state
        lines = [
            f"{self.variant.id}: deal {state.deal_number}, phase {state.phase.value}, "
            f"to act {state.to_act}, totals {list(state.totals)}",
            "requirement: "
            + "; ".join(
                f"seat {seat} {level_name(state, seat)}: {requirement_of(state, seat).describe()}"
                for seat in range(state.num_players)
            )
            if state.levels
            else f"requirement: {requirement_of(state, state.turn).describe()}",
            "table: " + (", ".join(str(meld) for meld in state.table) or "-"),
            "pile: "
            + (" ".join(map(str, state.discard_pile[-5:])) or "-")
            + f"  (stock {state.stock_size})",
        ]
        for seat in range(self.players):
            down = " (down)" if state.seats[seat].down else ""
            lines.append(f"seat {seat}{down}: {' '.join(map(str, state.hands[seat]))}")
        return "\n".join(lines)
