"""simulate --backend ray: the games as Ray tasks on a local Ray give the same results as the
process pool for the same seeds. Skipped where Ray is absent, except in CI
(SHANGHAI_RUMMY_TEST_REQUIRE_SERVICES=1), where a missing Ray fails."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest

import shanghai_rummy as sr
from shanghai_rummy.cli import main
from shanghai_rummy.simulate import GameStats, run_game, simulate

if os.environ.get("SHANGHAI_RUMMY_TEST_REQUIRE_SERVICES") != "1":
    pytest.importorskip("ray")


def same_games(stats: GameStats) -> tuple[object, ...]:
    return (
        stats.seed,
        stats.totals,
        stats.winners,
        stats.turns,
        stats.buys,
        stats.won,
        stats.steps,
    )


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray for the module (the backend uses a Ray already started, and leaves it)."""
    import ray  # in CI a missing Ray fails here

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.usefixtures("local_ray")
def test_ray_tasks_give_the_games_of_the_process_pool(capsys: pytest.CaptureFixture[str]) -> None:
    variant = sr.get_variant("shanghai")
    bots = ["greedy", "random", "greedy"]
    pooled = simulate(variant, 3, games=4, seed=21, bots=bots, workers=2, deals=1)
    on_ray = simulate(variant, 3, games=4, seed=21, bots=bots, workers=2, deals=1, backend="ray")
    assert [same_games(game) for game in on_ray.games] == [
        same_games(game) for game in pooled.games
    ]
    # the command line: the same results as JSON
    command = ["simulate", "--players", "3", "--games", "2", "--seed", "5", "--deals", "1"]
    results = []
    for backend in (["--backend", "ray"], []):
        main([*command, *backend, "--workers", "2", "--json"])
        results.append(json.loads(capsys.readouterr().out)["results"])
    assert results[0] == results[1]


def test_an_unknown_backend_and_a_stray_address_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(sr.RummyError, match="backend"):
        simulate(sr.get_variant("shanghai"), 3, games=1, backend="threads")
    assert main(["simulate", "--players", "3", "--address", "ray://head:10001"]) != 0
    assert "--backend ray" in capsys.readouterr().err


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from shanghai_rummy import cluster

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(sr.RummyError, match=r"shanghai-rummy\[ray\]"):
        cluster.run_games(run_game, sr.get_variant("shanghai"), ["greedy"] * 3, [1])
