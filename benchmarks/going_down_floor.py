"""How much of a going-down step is finding the ways, and how much is everything else.

Run: python benchmarks/going_down_floor.py [--steps 20000] [--repeats 3]
Plays the engine benchmark's seeded random games (``shanghai``, 4 seats) again and again in
one process, and reports the going-down steps (median, p90, p99 and mean, and the medians of
listing and applying, in µs) of four of those times:

- ``first``: as ``benchmarks/engine.py`` measures them (every way is found, and the per-suit
  and per-rank tables of hands new to the process are built);
- ``tables_built``: the same steps again, every table already built;
- ``ways_free``: again, with the ways to meet the contract (``contract_ways``) read from
  what an earlier time found: the step without reading and combining the tables;
- ``listing_free``: again, with the whole listing of ways (finding them, ordering them,
  building their cards) read from what an earlier time found.

``listing_free`` is what the step costs apart from finding the ways: the counts bound, one
Meld action per way, the joker swaps and discards, and applying the going down. It is a
diagnostic, not a figure of the engine's: it replaces two private functions of
``shanghai_rummy.solver`` while it runs (and puts them back). Prints one JSON document, the
median of the seeded runs (seeds 1 to ``--repeats``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import engine as engine_bench
from benchmarks.run import _median_of_runs
from shanghai_rummy import _ways, solver

CONDITIONS = ("first", "tables_built", "ways_free", "listing_free")


@contextmanager
def _replaced(name: str, function: Callable[..., Any]) -> Iterator[None]:
    """``solver.<name>`` replaced by ``function`` while the block runs."""
    original = getattr(solver, name)
    setattr(solver, name, function)
    try:
        yield
    finally:
        setattr(solver, name, original)


def _going_down(run: dict[str, Any]) -> dict[str, float]:
    """The going-down figures of one run of the engine benchmark (none: a short run may hold
    no going down)."""
    figures: dict[str, float] = run["per_phase"].get("going_down", {})
    return figures


def measure(steps: int, seed: int) -> dict[str, dict[str, float]]:
    """The going-down steps of one seeded run under each of :data:`CONDITIONS`."""
    contract_ways = _ways.contract_ways  # what solver calls by that name
    listed = solver._listed
    found_ways: dict[tuple[object, ...], Any] = {}
    found_listings: dict[tuple[object, ...], tuple[Any, list[tuple[Any, Any]]]] = {}

    def recording_ways(counts: list[int], jokers: int, contract: Any, rules: Any) -> Any:
        ways = contract_ways(counts, jokers, contract, rules)
        found_ways[tuple(counts), jokers, id(contract), id(rules)] = ways
        return ways

    def recording_listed(counts: list[int], jokers: int, requirement: Any, rules: Any) -> Any:
        ways = listed(counts, jokers, requirement, rules)
        # what applying a listed way reads back, so that it stays on its usual path
        remembered = [(way, solver._LISTED[way]) for way in ways]
        found_listings[tuple(counts), jokers, id(requirement), id(rules)] = (ways, remembered)
        return ways

    def known_ways(counts: list[int], jokers: int, contract: Any, rules: Any) -> Any:
        return found_ways[tuple(counts), jokers, id(contract), id(rules)]

    def known_listing(counts: list[int], jokers: int, requirement: Any, rules: Any) -> Any:
        ways, remembered = found_listings[tuple(counts), jokers, id(requirement), id(rules)]
        solver._LISTED.update(remembered)
        return ways

    def run() -> dict[str, float]:
        return _going_down(engine_bench.measure("shanghai", 4, steps, seed))

    figures = {"first": run()}
    with _replaced("contract_ways", recording_ways), _replaced("_listed", recording_listed):
        run()  # the same games again, to record what they list (not measured)
    figures["tables_built"] = run()
    with _replaced("contract_ways", known_ways):
        figures["ways_free"] = run()
    with _replaced("_listed", known_listing):
        figures["listing_free"] = run()
    return figures


def _merged(runs: list[dict[str, dict[str, float]]], condition: str) -> dict[str, float]:
    """The median over ``runs`` of each going-down figure under ``condition``, as
    ``benchmarks/run.py`` takes them, from the runs that held a going down."""
    held = [run[condition] for run in runs if run[condition]]
    return _median_of_runs(held, ()) if held else {"n": 0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    runs = [measure(args.steps, seed) for seed in range(1, args.repeats + 1)]
    document: dict[str, Any] = {
        "variant": "shanghai",
        "players": 4,
        "steps_per_run": args.steps,
        "runs": args.repeats,
        "going_down": {condition: _merged(runs, condition) for condition in CONDITIONS},
    }
    print(json.dumps(document, indent=2))


if __name__ == "__main__":
    main()
