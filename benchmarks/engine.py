"""Microseconds per decision step (legal_actions + apply) over seeded random-policy play.

Run: python benchmarks/engine.py [--variant shanghai] [--players 4] [--steps 20000] [--json]
Prints one JSON document: median, p90, p99 and mean per step, overall and per phase (with
the medians of its two parts, listing the legal actions and applying the chosen one), and
the decision steps per second (listing and applying only, not the random choice).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

import shanghai_rummy as sr

PHASE_NAMES = {
    sr.Phase.DRAW: "draw",
    sr.Phase.BUY: "buy",
    sr.Phase.PLAY: "play",
}


def _quantiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(fraction: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 2)

    return {
        "n": len(ordered),
        "median_us": round(statistics.median(ordered), 2),
        "p90_us": at(0.90),
        "p99_us": at(0.99),
        "mean_us": round(statistics.fmean(ordered), 2),
    }


def phase_name(state: sr.GameState, action: sr.Action) -> str:
    """The phase a decision step is counted in: the state's phase, except that a Meld toward
    a going down is "going_down_first" (the first group of the turn's going down, by a player
    not yet down) or "going_down_later" (a group after others laid toward it this turn)."""
    if state.phase is sr.Phase.PLAY and isinstance(action, sr.Meld):
        if getattr(state.turn_state, "going_down", ()):  # (none before going down by groups)
            return "going_down_later"
        if not state.is_down(state.turn):
            return "going_down_first"
    return PHASE_NAMES[state.phase]


HOUSE_30 = {
    "base": "shanghai",
    "max_players": 3,  # 30 cards to each of more players would leave no stock
    "deals": [{"cards": 30, "requirement": {"kind": "contract", "sets": [3, 3]}}],
    "going_down": {"exact_meld_count": False},
}
"""The 30-card house rule of issue 23, where listing every way ran to half a million."""


def beyond_limits(document: dict[str, Any]) -> sr.Variant:
    """The variant of ``document`` loaded with the hand-size maxima of
    :mod:`shanghai_rummy.limits` lifted for the call (for measuring a house rule the loader
    refuses today, as issue 23's 30-card rule): measurement only, never play."""
    names = ("MAX_CARDS_DEALT", "MAX_HAND_CARDS", "MAX_OPEN_ENDED_HAND_CARDS")
    saved = {name: getattr(sr.limits, name) for name in names}
    try:
        for name in names:
            setattr(sr.limits, name, 64)
        return sr.load_variant(document)
    finally:
        for name, value in saved.items():
            setattr(sr.limits, name, value)


def may_go_down(state: sr.GameState) -> bool:
    """Whether the seat in turn is in phase play and not down, or its going down is open."""
    return state.phase is sr.Phase.PLAY and (
        not state.is_down(state.turn) or bool(getattr(state.turn_state, "going_down", ()))
    )


def listing_counts(
    variant: sr.Variant, players: int, steps: int, seed: int, seconds: float = 60.0
) -> dict[str, Any]:
    """Seeded random play: at each step where the seat in turn may go down (see
    :func:`may_go_down`) and some Meld is listed, how many Melds (going-down moves) and how
    many actions in all are listed, and the step's time; stops after ``seconds``."""
    rng = random.Random(seed)
    clock = time.perf_counter
    melds: list[int] = []
    actions_listed: list[int] = []
    times: list[float] = []
    game = 0
    state = sr.new_game(variant, players=players, seed=seed)
    deadline = clock() + seconds
    done = 0
    while done < steps and clock() < deadline:
        state, game = next_decision(state, variant, players, seed, game)
        after, actions, _, listing, applying = timed_step(state, rng)
        if may_go_down(state):
            count = sum(1 for listed_action in actions if isinstance(listed_action, sr.Meld))
            if count:
                melds.append(count)
                actions_listed.append(len(actions))
                times.append(listing + applying)
        state = after
        done += 1
    if not melds:
        return {"steps": done, "n": 0}
    return {
        "steps": done,
        "n": len(melds),
        "melds_listed_median": statistics.median(melds),
        "melds_listed_max": max(melds),
        "actions_listed_median": statistics.median(actions_listed),
        "actions_listed_max": max(actions_listed),
        "step_median_us": round(statistics.median(times), 2),
        "step_max_us": round(max(times), 2),
        "stopped_at_deadline": done < steps,
    }


def timed_step(
    state: sr.GameState, rng: random.Random
) -> tuple[sr.GameState, tuple[sr.Action, ...], sr.Action, float, float]:
    """One step of the random policy from ``state``: the state after it, the actions
    listed, the one chosen, and the microseconds of listing and of applying (the random
    choice between them not timed)."""
    clock = time.perf_counter
    start = clock()
    actions = sr.legal_actions(state)
    listed = clock()
    action = actions[rng.randrange(len(actions))]
    chosen = clock()
    after = sr.apply(state, action)
    finished = clock()
    return after, actions, action, (listed - start) * 1e6, (finished - chosen) * 1e6


def next_decision(
    state: sr.GameState, variant: sr.Variant, players: int, seed: int, game: int
) -> tuple[sr.GameState, int]:
    """``state`` moved on to the next decision, with the number of the game it is in: the
    next deal between deals, and a new game seeded ``seed + game`` once one is over."""
    while state.to_act is None:
        if state.phase is sr.Phase.GAME_OVER:
            game += 1
            state = sr.new_game(variant, players=players, seed=seed + game)
        else:
            state = sr.next_deal(state)
    return state, game


def measure(variant_id: str | sr.Variant, players: int, steps: int, seed: int) -> dict[str, Any]:
    """Seeded random play of ``steps`` decision steps: their times overall and per phase
    (see :func:`phase_name`), with each phase's share of the whole time (what sets the mean),
    and the steps apart from going down."""
    variant = variant_id if isinstance(variant_id, sr.Variant) else sr.get_variant(variant_id)
    rng = random.Random(seed)
    per_phase: dict[str, list[float]] = defaultdict(list)
    listing_by_phase: dict[str, list[float]] = defaultdict(list)
    applying_by_phase: dict[str, list[float]] = defaultdict(list)
    everything: list[float] = []
    listing: list[float] = []
    apart: list[float] = []  # the steps that are not going down
    game = 0
    state = sr.new_game(variant, players=players, seed=seed)
    while len(everything) < steps:
        state, game = next_decision(state, variant, players, seed, game)
        before = state
        state, _, action, listed, applied = timed_step(state, rng)
        elapsed = listed + applied
        everything.append(elapsed)
        listing.append(listed)
        name = phase_name(before, action)
        names = (name, "going_down") if name.startswith("going_down_") else (name,)
        if len(names) == 1:
            apart.append(elapsed)
        for counted in names:
            per_phase[counted].append(elapsed)
            listing_by_phase[counted].append(listed)
            applying_by_phase[counted].append(applied)
    total = sum(everything)
    return {
        "variant": variant.id,
        "players": players,
        "policy": "uniform random over legal_actions",
        "step": {
            **_quantiles(everything),
            # what a bot or a learner playing many games gets: the tail counts here
            "steps_per_second": round(len(everything) / total * 1e6),
        },
        "step_apart_from_going_down": _quantiles(apart),
        "legal_actions": _quantiles(listing),
        "per_phase": {
            name: {
                **_quantiles(samples),
                "legal_actions_median_us": round(statistics.median(listing_by_phase[name]), 2),
                "legal_actions_mean_us": round(statistics.fmean(listing_by_phase[name]), 2),
                "apply_median_us": round(statistics.median(applying_by_phase[name]), 2),
                "apply_mean_us": round(statistics.fmean(applying_by_phase[name]), 2),
                # the phase's part of the mean step: its steps' time over every step's
                "share_of_mean": round(sum(samples) / total, 3),
            }
            for name, samples in sorted(per_phase.items())
        },
    }


def going_down_with_tables_built(
    variant_id: str, players: int, steps: int, seed: int
) -> dict[str, Any]:
    """The going-down steps of a seeded run of :func:`measure` played a second time in the
    same process: every per-suit and per-rank table its hands need is built by then, so this
    is what going down costs apart from building tables (in a first run most of them are new,
    as going down is the first listing of its hand)."""
    measure(variant_id, players, steps, seed)
    again = measure(variant_id, players, steps, seed)
    return {
        "variant": variant_id,
        "players": players,
        "steps": steps,
        "seed": seed,
        "going_down": again["per_phase"]["going_down"],
    }


def going_down_in_greedy_play(
    variant_id: str, players: int, games: int, seed: int
) -> dict[str, Any]:
    """The going-down steps of whole games between GreedyBots, which go down as soon as they
    can and so hold the hands real players hold then (the random policy hoards cards)."""
    variant = sr.get_variant(variant_id)
    clock = time.perf_counter
    steps: list[float] = []
    listing: list[float] = []
    applying: list[float] = []
    hand_sizes: list[int] = []
    ways: list[int] = []
    for game in range(games):
        bots = [sr.GreedyBot(variant) for _ in range(players)]
        state = sr.new_game(variant, players=players, seed=seed + game)
        while state.phase is not sr.Phase.GAME_OVER:
            if state.phase is sr.Phase.DEAL_OVER:
                state = sr.next_deal(state)
                continue
            seat = state.to_act
            assert seat is not None  # a deal in play has a seat to act
            start = clock()
            actions = sr.legal_actions(state)
            listed_at = clock()
            action = bots[seat].choose(sr.view(state, seat))
            chosen = clock()
            after = sr.apply(state, action)
            done = clock()
            if phase_name(state, action).startswith("going_down"):
                steps.append((listed_at - start + done - chosen) * 1e6)
                listing.append((listed_at - start) * 1e6)
                applying.append((done - chosen) * 1e6)
                hand_sizes.append(len(state.hand(state.turn)))
                ways.append(sum(1 for listed in actions if isinstance(listed, sr.Meld)))
            state = after
    return {
        "variant": variant_id,
        "players": players,
        "games": games,
        "policy": "GreedyBot",
        "going_down": {
            **_quantiles(steps),
            "legal_actions_median_us": round(statistics.median(listing), 2),
            "apply_median_us": round(statistics.median(applying), 2),
            "hand_cards_median": statistics.median(hand_sizes),
            "melds_listed_median": statistics.median(ways),
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = parser.parse_args(argv)
    report = {
        "benchmark": "engine decision step",
        "machine": platform.machine(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        **measure(args.variant, args.players, args.steps, args.seed),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
