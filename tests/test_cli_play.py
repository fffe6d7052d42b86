"""`shanghai-rummy play` at the edges a person touches (issue 29): "you" for seat 0, the moves
a page at a time and filtered, a pause after a deal's scores, plurals, no buys without buying,
the help table aligned, and line editing on a terminal."""

from __future__ import annotations

import io
import re
import sys

import pytest

from shanghai_rummy.cli import main
from shanghai_rummy.commands.play import you

from .test_cli import FakeTerminal, play, scripted_deal


def test_seat_0_is_you_with_verbs_that_agree() -> None:
    assert you("  seat 0 scores 10 (2 cards left: 3D 3H), total 10") == (
        "  you score 10 (2 cards left: 3D 3H), total 10"
    )
    assert you("Game over: seat 0 wins with 5") == "Game over: you win with 5"
    assert you("seat 0 and seat 2 share the win") == "you and seat 2 share the win"
    assert you("seat 0 has used its 3 buys") == "you have used your 3 buys"
    assert you("seat 0 is down; seat 10 is not") == "you are down; seat 10 is not"


def test_play_says_you_in_the_deal_header_footer_and_refusals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = scripted_deal("shanghai", 3, 2)
    text = "\n".join(["discard 9Z", *moves]) + "\n"
    status, out, _ = play(
        capsys, monkeypatch, text, "--players", "3", "--seed", "2", "--deals", "1"
    )
    assert status == 0
    assert "; you deal, seat 1 plays first" in out
    assert re.search(r"^  you score -?\d+ \(", out, re.M)
    assert "seat 0" not in out.replace("you are seat 0", "")


def _listing_lines(out: str, start: str) -> list[str]:
    lines = out.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(start))
    return lines[index:]


def test_moves_come_a_page_at_a_time_and_filter_by_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = scripted_deal("rummy51", 2, 3)
    commands = ["moves", "more", "more", "more", "moves discard", "moves zz", "quit"]
    text = "\n".join([moves[0], *commands]) + "\n"
    status, out, _ = play(
        capsys, monkeypatch, text, "--variant", "rummy51", "--players", "2", "--seed", "3"
    )
    assert status == 0
    first = re.search(r"^legal moves, 1-(\d+) of (\d+):$", out, re.M)
    assert first is not None
    shown, total = int(first[1]), int(first[2])
    assert shown == min(20, total) and total > 20
    page = _listing_lines(out, "legal moves, 1-")[1 : shown + 1]
    assert all(line.startswith("  ") for line in page)
    assert re.search(rf"^legal moves, 21-{min(40, total)} of {total}:$", out, re.M)
    discards = re.search(r"^legal moves with DISCARD, 1-(\d+) of (\d+):$", out, re.M)
    assert discards is not None and 10 <= int(discards[2]) <= 16  # a distinct card each
    assert all(
        line.startswith("  discard ")
        for line in _listing_lines(out, "legal moves with DISCARD")[1 : int(discards[1]) + 1]
    )
    assert re.search(r"^no legal move has zz \(\d+ in all\)$", out, re.M)


def test_no_buys_left_shown_without_buying_and_one_card_is_singular(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = play(capsys, monkeypatch, "quit\n", "--variant", "rummy51", "--seed", "1")
    assert "buys left" not in out
    _, out, _ = play(capsys, monkeypatch, "quit\n", "--variant", "shanghai", "--seed", "1")
    assert "| buys left 3" in out
    assert "(1 cards)" not in out


def test_the_help_table_starts_every_description_in_one_column(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = play(capsys, monkeypatch, "help\nquit\n", "--seed", "1")
    rows = [line for line in out.splitlines() if re.match(r"^  \S.*\S  +\S", line)]
    columns = set()
    for line in rows:
        found = re.match(r"^  (.*?\S)  +\S", line)
        assert found is not None
        columns.add(found.end() - 1)
    assert len(rows) >= 12 and len(columns) == 1, rows
    assert any(line.lstrip().startswith("out ...") for line in rows)


def test_a_deals_scores_wait_for_enter_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = scripted_deal("shanghai", 3, 2)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stdin", FakeTerminal("\n".join([*moves, "", "quit"]) + "\n"))
    monkeypatch.setenv("NO_COLOR", "1")
    status = main(["play", "--players", "3", "--seed", "2", "--deals", "2"])
    out = terminal.getvalue()
    assert status == 0
    footer = out.index("Deal 1 over after")
    pause = out.index("Press Enter for deal 2 of 2 > ")
    assert footer < pause < out.index("Deal 2 of 2:")


def test_without_a_terminal_the_deals_follow_without_a_pause(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = scripted_deal("shanghai", 3, 2)
    text = "\n".join(moves) + "\n"
    _, out, _ = play(capsys, monkeypatch, text, "--players", "3", "--seed", "2", "--deals", "2")
    assert "Press Enter" not in out and "Deal 2 of 2:" in out


def test_a_terminal_reads_lines_with_readline(monkeypatch: pytest.MonkeyPatch) -> None:
    readline = pytest.importorskip("readline")
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stdin", FakeTerminal("hint\nquit\n"))
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["play", "--seed", "1"]) == 0
    completer = readline.get_completer()
    assert completer is not None and completer("hin", 0) == "hint"
    assert "hint: " in terminal.getvalue()
    assert "hint\n" not in terminal.getvalue()  # a terminal echoes for itself
    readline.set_completer(None)


def test_piped_input_is_echoed_so_a_transcript_reads_well(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = play(capsys, monkeypatch, "show\nquit\n", "--seed", "1")
    assert "? > show\n" in out
    assert isinstance(sys.stdin, io.StringIO)
