"""`shanghai-rummy simulate` for a person (issue 29): progress with rate and ETA, the score
distributions drawn with --plot, and your own bot class in --bots."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from shanghai_rummy.cli import main
from shanghai_rummy.commands.simulate import Progress

SMALL = ["simulate", "--players", "3", "--games", "2", "--deals", "1"]

TIDY = '''
import shanghai_rummy as sr


class TidyBot:
    """Goes down at once, lays off everything, never buys, discards its costliest card."""

    def __init__(self, variant):
        self.values = variant.scoring.values

    def choose(self, view):
        actions = view.legal_actions
        melds = [action for action in actions if isinstance(action, sr.Meld)]
        if melds:
            return max(melds, key=lambda meld: sum(len(group) for group in meld.groups))
        for action in actions:
            if isinstance(action, sr.LayOff):
                return action
        discards = [action for action in actions if isinstance(action, sr.Discard)]
        if discards:
            return max(discards, key=lambda discard: self.values.of(discard.card))
        if sr.PassBuy(view.seat) in actions:
            return sr.PassBuy(view.seat)
        return actions[0]


class SeededBot(TidyBot):
    def __init__(self, variant, seed):
        super().__init__(variant)
        self.seed = seed


class Chooseless:
    def __init__(self, variant):
        pass
'''


def test_progress_shows_the_rate_and_the_time_left() -> None:
    times = iter([100.0, 110.0, 130.0])
    stream = io.StringIO()
    progress = Progress(stream, clock=lambda: next(times))
    assert progress.line(5, 20) == "[######..................] 5/20 games, 0.50 games/s, ETA 30 s"
    progress(10, 20)  # 30 s for 10 games: 10 more take 30 s
    assert stream.getvalue() == "\r[############............] 10/20 games, 0.33 games/s, ETA 30 s"


def test_progress_gives_long_times_in_minutes_and_hours_and_clears_at_the_end() -> None:
    times = iter([0.0, 10.0, 20.0])
    stream = io.StringIO()
    progress = Progress(stream, clock=lambda: next(times))
    assert progress.line(1, 400).endswith("ETA 1 h 06 min")
    progress(20, 20)
    assert stream.getvalue().endswith("\r" + " " * len(stream.getvalue().split("\r")[1]) + "\r")
    assert (
        Progress(io.StringIO(), clock=iter([0.0, 1.0]).__next__)
        .line(1, 100)
        .endswith("ETA 1 min 39 s")
    )


def test_plot_draws_the_score_distributions_to_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "scores.png", tmp_path / "scores.svg"
    assert main([*SMALL, "--bots", "greedy,random,greedy", "--plot", str(png)]) == 0
    assert f"plot written to {png}" in capsys.readouterr().err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert main([*SMALL, "--plot", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "final total" in text


def test_plot_without_matplotlib_says_which_extra_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(sys.modules, "shanghai_rummy.plot", raising=False)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert main([*SMALL, "--plot", str(tmp_path / "x.png")]) == 2
    assert "pip install 'shanghai-rummy[plot]'" in capsys.readouterr().err


def test_plot_to_a_bad_place_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    assert main([*SMALL, "--plot", str(tmp_path / "no" / "such" / "dir.png")]) == 2
    assert "cannot draw" in capsys.readouterr().err


@pytest.fixture
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of bots in the current directory, as a user writes one."""
    (tmp_path / "my_tidy_bots.py").write_text(TIDY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "my_tidy_bots", raising=False)
    return "my_tidy_bots"


def test_bots_names_your_own_class_from_the_current_directory(
    capsys: pytest.CaptureFixture[str], bot_module: str
) -> None:
    bots = f"{bot_module}:TidyBot,greedy,{bot_module}:SeededBot"
    assert main([*SMALL, "--bots", bots, "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert f"0     {bot_module}:TidyBot " in out and f"2     {bot_module}:SeededBot " in out


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ("{module}:Nope", "has no 'Nope'"),
        ("no_such_module_here:Bot", "cannot import 'no_such_module_here'"),
        ("{module}:Chooseless", "has no choose(view) method"),
    ],
)
def test_bots_naming_a_class_that_is_not_there_or_not_a_bot_is_refused(
    capsys: pytest.CaptureFixture[str], bot_module: str, reference: str, message: str
) -> None:
    status = main([*SMALL, "--bots", reference.format(module=bot_module)])
    assert status == 2
    assert message in capsys.readouterr().err
