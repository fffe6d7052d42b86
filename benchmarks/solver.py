"""Benchmark of the solver: how long `solve` takes to decide a contract or an opening.

For each of the 10 Shanghai contracts (`get_variant("shanghai").deals`): 1,000 seeded random
hands of 12-20 cards, 0-4 of them jokers, the naturals drawn from a 2-deck pack; and for a
51-point opening under `rummy51`: 1,000 hands of 15 cards from its pack (2 decks + 4 jokers).
Prints one JSON document: median and p99 microseconds of `solve`, and how often a way was found;
the same percentiles of the CPU time of each call (`*_cpu_us`, the thread's clock), which a
loaded machine does not inflate the way it does the elapsed time (a call the scheduler pauses
counts its pause in the elapsed time only).

    python benchmarks/solver.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

from shanghai_rummy import JOKER, Card, get_variant, make_pack
from shanghai_rummy.contracts import Requirement
from shanghai_rummy.solver import solve
from shanghai_rummy.variants import Variant


def _percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


def _measure(
    hands: list[tuple[Card, ...]], requirement: Requirement, variant: Variant
) -> dict[str, float]:
    timings: list[float] = []
    cpu: list[float] = []
    found = 0
    for hand in hands:
        begin = time.perf_counter()
        begin_cpu = time.thread_time_ns()
        result = solve(hand, requirement, variant)
        cpu.append((time.thread_time_ns() - begin_cpu) / 1e3)
        timings.append((time.perf_counter() - begin) * 1e6)
        found += result is not None
    timings.sort()
    cpu.sort()
    return {
        "median_us": round(statistics.median(timings), 1),
        "p99_us": round(_percentile(timings, 0.99), 1),
        "max_us": round(timings[-1], 1),
        "median_cpu_us": round(statistics.median(cpu), 1),
        "p99_cpu_us": round(_percentile(cpu, 0.99), 1),
        "max_cpu_us": round(cpu[-1], 1),
        "found_rate": round(found / len(hands), 3),
    }


def _contract_hands(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    naturals = make_pack(2, 0)
    hands = []
    for _ in range(count):
        size = rng.randint(12, 20)
        jokers = rng.randint(0, 4)
        hands.append(tuple(rng.sample(naturals, size - jokers)) + (JOKER,) * jokers)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(json.dumps(figures(args.hands, args.seed), indent=2))


def figures(hands_per_case: int = 1000, seed: int = 2024) -> dict[str, object]:
    """Solver latency per requirement, as one JSON-ready document."""
    shanghai = get_variant("shanghai")
    contracts: dict[str, dict[str, object]] = {}
    for number, deal in enumerate(shanghai.deals, start=1):
        rng = random.Random(f"{seed}-contract-{number}")
        hands = _contract_hands(rng, hands_per_case)
        solve(hands[0], deal.requirement, shanghai)  # warm the per-variant cache
        entry: dict[str, object] = {"contract": deal.requirement.describe()}
        entry.update(_measure(hands, deal.requirement, shanghai))
        contracts[str(number)] = entry

    rummy51 = get_variant("rummy51")
    opening = rummy51.deals[0].requirement
    rng = random.Random(f"{seed}-opening")
    pack = make_pack(2, 4)
    hands = [tuple(rng.sample(pack, 15)) for _ in range(hands_per_case)]
    solve(hands[0], opening, rummy51)
    opening_entry: dict[str, object] = {
        "requirement": opening.describe(),
        "variant": "rummy51",
        "cards": 15,
    }
    opening_entry.update(_measure(hands, opening, rummy51))

    document = {
        "benchmark": "solver.solve",
        "hands_per_case": hands_per_case,
        "seed": seed,
        "shanghai_contracts": contracts,
        "rummy51_opening": opening_entry,
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
        },
    }
    return document


if __name__ == "__main__":
    main()
