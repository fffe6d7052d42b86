"""Pictures of simulation results, with matplotlib (the ``plot`` extra:
``pip install 'shanghai-rummy[plot]'``). The core never imports this package.

:func:`plot_scores` draws the distribution of final totals per bot, one panel of histograms
and one of box plots per seat, with each bot's mean and its 95% confidence interval, and
writes it to a file whose suffix names the format (``.png``, ``.svg``, ``.pdf``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from matplotlib.figure import Figure

from ..confidence import mean_interval
from ..simulate import Summary

__all__ = ["plot_scores", "scores_figure"]

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def _bins(values: Sequence[float], count: int = 30) -> list[float]:
    low, high = min(values), max(values)
    if high == low:
        return [low - 0.5, high + 0.5]
    step = (high - low) / count
    return [low + step * index for index in range(count + 1)]


def scores_figure(summary: Summary) -> Figure:
    """The figure of ``summary``'s final totals: per bot a histogram (all the seats it played
    pooled) with its mean and 95% interval marked, and per seat a box plot."""
    bots = sorted(set(summary.bots), key=summary.bots.index)
    scores = {
        bot: [
            float(game.totals[seat])
            for game in summary.games
            for seat, name in enumerate(summary.bots)
            if name == bot
        ]
        for bot in bots
    }
    everything = [value for values in scores.values() for value in values]
    figure = Figure(figsize=(11, 4.8), layout="constrained")
    histograms, boxes = figure.subplots(1, 2, width_ratios=(3, 2))
    bins = _bins(everything)
    for index, bot in enumerate(bots):
        colour = _COLOURS[index % len(_COLOURS)]
        values = scores[bot]
        mean = sum(values) / len(values)
        half = mean_interval(values)
        label = f"{bot}: mean {mean:.1f}" + ("" if half is None else f" ± {half:.1f}")
        histograms.hist(values, bins=bins, histtype="step", linewidth=1.8, color=colour)
        histograms.axvline(mean, color=colour, linestyle="--", linewidth=1.2, label=label)
        if half is not None:
            histograms.axvspan(mean - half, mean + half, color=colour, alpha=0.15)
    histograms.set_xlabel("final total (lower is better)")
    histograms.set_ylabel("games (seats pooled per bot)")
    histograms.legend(title="mean, 95% CI", loc="upper right")
    games = len(summary.games)
    histograms.set_title(
        f"{summary.variant_id}: {games} game{'s' if games != 1 else ''}, "
        f"{summary.players} players, seeds {summary.seed}..{summary.seed + games - 1}",
        loc="left",
    )
    per_seat = [
        [float(game.totals[seat]) for game in summary.games] for seat in range(summary.players)
    ]
    boxes.boxplot(per_seat, orientation="horizontal")
    boxes.set_yticks(
        range(1, summary.players + 1),
        [f"seat {seat} ({bot})" for seat, bot in enumerate(summary.bots)],
    )
    boxes.invert_yaxis()
    boxes.set_xlabel("final total per seat")
    wins = ", ".join(f"{row.win_share:.0%}" for row in summary.seats)
    boxes.set_title(f"win shares by seat: {wins}", loc="left")
    return figure


def plot_scores(summary: Summary, path: str | os.PathLike[str]) -> None:
    """Write :func:`scores_figure` of ``summary`` to ``path`` (its suffix names the format)."""
    scores_figure(summary).savefig(path, dpi=120)
