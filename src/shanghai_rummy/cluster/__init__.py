"""Games as Ray tasks, on a local Ray or a cluster (extra ``[ray]``): the ``ray`` backend of
:func:`~shanghai_rummy.simulate.simulate` and ``shanghai-rummy simulate --backend ray``.

Each game is one task, :func:`~shanghai_rummy.simulate.run_game` of the same variant, bots
and seed as in a process pool, so a run gives the same games (the same
:class:`~shanghai_rummy.simulate.GameStats` but for the seconds) with every backend. The core
never imports this package; :func:`~shanghai_rummy.simulate.simulate` does, when asked for
the ``ray`` backend.

``address`` is a running cluster's address (``"ray://head:10001"`` for a Ray client,
``"auto"`` on a node of the cluster), or None for a local Ray started for the run (and shut
down after it) with ``workers`` CPUs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..errors import RummyError
from ..variants import Variant

__all__ = ["run_games"]

Stats = TypeVar("Stats")


def run_games(
    play: Callable[[Variant, tuple[str, ...], int], Stats],
    variant: Variant,
    bots: Sequence[str],
    seeds: Sequence[int],
    *,
    address: str | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[int, Stats]:
    """Play one game per seed as Ray tasks, each ``play(variant, bots, seed)`` (a
    module-level function, such as :func:`~shanghai_rummy.simulate.run_game`); the results
    by seed. ``progress(done)`` is called as games finish."""
    try:
        import ray
    except ImportError:
        raise RummyError("the ray backend needs Ray: pip install 'shanghai-rummy[ray]'") from None
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = workers
        ray.init(address=address, **options)
    try:
        task = ray.remote(play)
        pending = {task.remote(variant, tuple(bots), seed): seed for seed in seeds}
        results: dict[int, Stats] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                stats: Stats = ray.get(ref)
                results[pending.pop(ref)] = stats
                if progress is not None:
                    progress(len(results))
        return results
    finally:
        if started:
            ray.shutdown()
