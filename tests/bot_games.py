"""Reachable states of play between a mix of GreedyBots and RandomBots: greedy play goes
down, lays off and buys (half-laid going downs included), random play reaches the odd
corners. For the sampling, search and RL tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

import shanghai_rummy as sr

PRESETS = ("shanghai", "shanghai-wiki", "shanghai-camping", "rummy51")


def bot_play(name: str | sr.Variant, players: int, seed: int, steps: int) -> Iterator[sr.GameState]:
    """Every state of up to ``steps`` moves of a game between bots (seeded) of the preset
    ``name`` (or that variant), next deals dealt; the mix of bots is drawn from the seed."""
    variant = name if isinstance(name, sr.Variant) else sr.get_variant(name)
    players = min(max(players, variant.min_players), variant.max_players)
    rng = random.Random(seed)
    bots: list[sr.Bot] = [
        sr.GreedyBot(variant) if rng.random() < 0.7 else sr.RandomBot(seed * 8 + seat)
        for seat in range(players)
    ]
    state = sr.new_game(variant, players=players, seed=seed)
    yield state
    for _ in range(steps):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.to_act is None:
            return
        seat = state.to_act
        state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
        yield state


def bot_state(name: str | sr.Variant, players: int, seed: int, steps: int) -> sr.GameState:
    """The last state of :func:`bot_play`."""
    states = list(bot_play(name, players, seed, steps))
    return states[-1]
