"""Simulation results a person can read (issue 29): ties said, 95% confidence intervals on mean
scores and win shares."""

from __future__ import annotations

import math
import statistics

import pytest

from shanghai_rummy.confidence import mean_interval, share_interval, t_quantile_95
from shanghai_rummy.simulate import GameStats, Summary


def _game(seed: int, totals: tuple[int, ...]) -> GameStats:
    best = min(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best)
    return GameStats(
        seed=seed,
        totals=totals,
        winners=winners,
        turns=(30,),
        buys=(2,),
        won=(True,),
        steps=90,
        seconds=0.1,
    )


def _summary(*totals: tuple[int, ...]) -> Summary:
    return Summary(
        variant_id="shanghai",
        players=len(totals[0]),
        seed=0,
        bots=("greedy",) * len(totals[0]),
        workers=1,
        seconds=1.0,
        games=tuple(_game(seed, game) for seed, game in enumerate(totals)),
    )


def test_a_tie_counts_a_win_for_each_tied_seat_and_says_so() -> None:
    summary = _summary((10, 10, 40), (5, 30, 20), (0, 50, 0))
    seats = summary.seats
    assert [seat.wins for seat in seats] == [3, 1, 1]
    assert [seat.tied_wins for seat in seats] == [2, 1, 1]
    assert summary.ties == 2
    table = summary.table()
    assert "a tied game counts as a win for every seat sharing the lowest total" in table
    assert "tied games:            2" in table


def test_t_quantiles_match_the_tables() -> None:
    assert t_quantile_95(1) == 12.706
    assert t_quantile_95(10) == 2.228
    assert t_quantile_95(30) == 2.042
    assert abs(t_quantile_95(40) - 2.021) <= 0.003
    assert abs(t_quantile_95(120) - 1.980) <= 0.003
    assert abs(t_quantile_95(10_000) - 1.960) <= 0.003
    with pytest.raises(ValueError, match="degree of freedom"):
        t_quantile_95(0)


def test_mean_interval_is_t_times_the_standard_error() -> None:
    values = [417.0, 431.0, 400.0, 426.0, 390.0]
    expected = 2.776 * statistics.stdev(values) / math.sqrt(5)
    assert mean_interval(values) == pytest.approx(expected)
    assert mean_interval([3.0]) is None
    summary = _summary((10, 20), (30, 40), (50, 60))
    assert summary.seats[0].mean_score_ci == pytest.approx(4.303 * 20 / math.sqrt(3))
    assert _summary((10, 20)).seats[0].mean_score_ci is None


def test_share_interval_is_wilsons_and_stays_inside_zero_and_one() -> None:
    low, high = share_interval(44, 200)  # 22%: Wilson gives 16.8% to 28.2%
    assert (round(low, 3), round(high, 3)) == (0.168, 0.282)
    assert share_interval(0, 10)[0] == 0.0 and share_interval(10, 10)[1] == pytest.approx(1.0)
    assert share_interval(0, 0) == (0.0, 1.0)
    low, high = share_interval(0, 12)
    assert low == 0.0 and 0.2 < high < 0.3
