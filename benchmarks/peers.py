"""The decision step of shanghai-rummy beside its peers', measured in one run.

Run from the repository root: ``python benchmarks/peers.py`` (``--quick`` for a smoke run).
The peers are installed into a virtual environment of their own (``--venv``, by default
``benchmarks/.peers-venv``, made on the first run with ``pip install rlcard open_spiel``), so
the library never depends on them:

- RLCard's gin rummy, its game core (pure Python): ``judge.get_legal_actions()`` then
  ``game.step(action)``;
- OpenSpiel's gin rummy (C++ behind pybind11): ``state.legal_actions()`` then
  ``state.apply_action(action)``; chance nodes (the deal) are played but not timed;
- ours: :func:`shanghai_rummy.legal_actions` then :func:`shanghai_rummy.apply` over seeded
  games (``--variant``, ``--players``); dealing a new game or deal is not timed;
  ``--compiled DIR`` times ours a second time, from a compiled copy of the library in
  ``DIR`` (made by ``benchmarks/compiled_build.py``), as ``ours_compiled``; ``--baseline DIR``
  times ours from the ``src`` folder of another checkout (an earlier commit), as
  ``ours_baseline``, for a before-and-after in the same run.

A decision step is one listing of the legal actions of the seat to act and one apply of a
uniformly drawn one. Each engine plays for ``--seconds`` per round, in turn (ours, RLCard,
OpenSpiel, ours, ...), each in a fresh process, for ``--rounds`` rounds. The JSON printed
gives, per engine, the mean and median microseconds of a decision step (the median over
rounds of each round's figure), and the ratios of ours to each peer, round by round and
their median: ratios from one run survive a noisy machine where single timings do not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEER_PACKAGES = ("rlcard>=1.2", "open_spiel>=1.5", "numpy>=1.24")
ENGINES = ("ours", "rlcard", "openspiel", "ours_compiled", "ours_baseline")


def _summary(samples: list[float], elapsed: float) -> dict[str, Any]:
    return {
        "steps": len(samples),
        "mean_us": round(statistics.fmean(samples), 2),
        "median_us": round(statistics.median(samples), 2),
        "seconds": round(elapsed, 2),
    }


def measure_ours(
    seconds: float, seed: int, variant_id: str, players: int, source: Path = ROOT / "src"
) -> dict[str, Any]:
    """Our decision step, the library imported from ``source`` (a compiled copy there, for
    ``--compiled``)."""
    sys.path[:0] = [str(source), str(ROOT)]
    import shanghai_rummy as sr
    from benchmarks.engine import next_decision

    variant = sr.get_variant(variant_id)
    rng = random.Random(seed)
    clock = time.perf_counter
    samples: list[float] = []
    game = 0
    state = sr.new_game(variant, players=players, seed=seed)
    started = clock()
    while clock() - started < seconds:
        state, game = next_decision(state, variant, players, seed, game)
        start = clock()
        actions = sr.legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        state = sr.apply(state, action)
        samples.append((clock() - start) * 1e6)
    return _summary(samples, clock() - started)


def measure_rlcard(seconds: float, seed: int) -> dict[str, Any]:
    from rlcard.games.gin_rummy.game import GinRummyGame

    rng = random.Random(seed)
    clock = time.perf_counter
    samples: list[float] = []
    game = GinRummyGame()
    game.np_random.seed(seed)
    game.init_game()
    started = clock()
    while clock() - started < seconds:
        if game.is_over():
            game.init_game()
            continue
        start = clock()
        actions = game.judge.get_legal_actions()
        game.step(actions[rng.randrange(len(actions))])
        samples.append((clock() - start) * 1e6)
    return _summary(samples, clock() - started)


def measure_openspiel(seconds: float, seed: int) -> dict[str, Any]:
    import pyspiel

    rng = random.Random(seed)
    clock = time.perf_counter
    samples: list[float] = []
    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    started = clock()
    while clock() - started < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        start = clock()
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        samples.append((clock() - start) * 1e6)
    return _summary(samples, clock() - started)


def peer_python(folder: Path) -> Path:
    """The Python of the peers' virtual environment in ``folder``, made (and the peers
    installed) where it is missing."""
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        print(f"making the peers' environment in {folder}", file=sys.stderr)
        venv.create(folder, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *PEER_PACKAGES], check=True)
    return python


def run_child(python: Path, engine: str, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    command = [
        str(python),
        str(Path(__file__).resolve()),
        "--child",
        engine,
        "--seconds",
        str(args.seconds),
        "--seed",
        str(seed),
        "--variant",
        args.variant,
        "--players",
        str(args.players),
    ]
    if engine == "ours_compiled":
        command += ["--source", str(args.compiled)]
    if engine == "ours_baseline":
        command += ["--source", str(args.baseline)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def child(args: argparse.Namespace) -> None:
    measures: dict[str, Callable[[], dict[str, Any]]] = {
        "ours": lambda: measure_ours(args.seconds, args.seed, args.variant, args.players),
        "rlcard": lambda: measure_rlcard(args.seconds, args.seed),
        "openspiel": lambda: measure_openspiel(args.seconds, args.seed),
        "ours_compiled": lambda: measure_ours(
            args.seconds, args.seed, args.variant, args.players, args.source
        ),
        "ours_baseline": lambda: measure_ours(
            args.seconds, args.seed, args.variant, args.players, args.source
        ),
    }
    print(json.dumps(measures[args.child]()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=ROOT / "benchmarks" / ".peers-venv")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", default="shanghai")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="0.5 s, one round")
    parser.add_argument(
        "--compiled",
        type=Path,
        help="also time ours from this compiled copy (made by benchmarks/compiled_build.py)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="also time ours from this src folder (of an earlier commit), as ours_baseline",
    )
    parser.add_argument("--child", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--source", type=Path, default=ROOT / "src", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args)
        return
    if args.quick:
        args.seconds, args.rounds = 0.5, 1
    peers = peer_python(args.venv)
    pythons = {"ours": Path(sys.executable), "rlcard": peers, "openspiel": peers}
    if args.compiled is not None:
        pythons["ours_compiled"] = Path(sys.executable)
    if args.baseline is not None:
        pythons["ours_baseline"] = Path(sys.executable)
    rounds: list[dict[str, dict[str, Any]]] = []
    for number in range(args.rounds):
        seed = number + 1
        rounds.append({name: run_child(exe, name, args, seed) for name, exe in pythons.items()})
    engines = {
        engine: {
            "mean_us": statistics.median(one[engine]["mean_us"] for one in rounds),
            "median_us": statistics.median(one[engine]["median_us"] for one in rounds),
            "steps": sum(one[engine]["steps"] for one in rounds),
        }
        for engine in pythons
    }
    ratios = {
        f"{ours}_over_{peer}_{figure}": {
            "by_round": [
                round(one[ours][f"{figure}_us"] / one[peer][f"{figure}_us"], 3) for one in rounds
            ],
            "median": round(
                statistics.median(
                    one[ours][f"{figure}_us"] / one[peer][f"{figure}_us"] for one in rounds
                ),
                3,
            ),
        }
        for ours in ("ours", "ours_compiled")
        if ours in pythons
        for peer in ("rlcard", "openspiel", "ours_baseline")
        if peer in pythons
        for figure in ("mean", "median")
    }
    print(
        json.dumps(
            {
                "benchmark": "decision step beside the peers (legal actions + apply one)",
                "ours": {"variant": args.variant, "players": args.players},
                "rlcard": "gin rummy, game core (judge.get_legal_actions + game.step)",
                "openspiel": "gin_rummy (legal_actions + apply_action; chance nodes not timed)",
                "seconds_per_round": args.seconds,
                "rounds": args.rounds,
                "engines": engines,
                "ratios": ratios,
                "machine": {
                    "python": platform.python_version(),
                    "cpus": os.cpu_count(),
                    "platform": platform.platform(),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
