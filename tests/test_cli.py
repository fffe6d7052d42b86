"""The shanghai-rummy command: simulate, play, variants, replay, and their bad input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy.cli import main
from shanghai_rummy.simulate import make_bot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"
MOVE = re.compile(r"^  seat (\d+): (.+?)(?:  \((.*)\))?$")


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- variants ----------------------------------------------------------------------------------


def test_variants_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "variants")
    assert status == 0 and err == ""
    for variant_id, variant in sr.VARIANTS.items():
        assert re.search(rf"^{re.escape(variant_id)}\s+{variant.min_players}-", out, re.M)


@pytest.mark.parametrize("preset", sorted(sr.VARIANTS))
def test_variants_shows_one_variants_rules(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    status, out, _ = run(capsys, "variants", preset)
    variant = sr.get_variant(preset)
    assert status == 0
    assert re.search(rf"^name\s+{re.escape(variant.name)}$", out, re.M)
    assert variant.deal(1).requirement.describe() in out
    for label in ("melds.aces", "going_out", "scoring.values"):
        assert re.search(rf"^{re.escape(label)}\s", out, re.M)
    buying = "buying.penalty_cards" if variant.buying.enabled else "buying"
    assert re.search(rf"^{re.escape(buying)}\s", out, re.M)


def test_variants_reads_a_variant_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "variants", str(EXAMPLES / "liverpool.toml"))
    assert status == 0
    assert re.search(r"^id\s+liverpool$", out, re.M)
    assert re.search(r"^pack, 4 players\s+2 decks \+ 3 jokers = 107 cards$", out, re.M)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["variants", "gin"], "unknown variant 'gin'; known: rummy51, shanghai"),
        (["variants", "missing.toml"], "no variant file 'missing.toml'"),
    ],
)
def test_variants_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("shanghai-rummy: error: ") and message in err


# -- simulate ----------------------------------------------------------------------------------

SMALL = ["simulate", "--variant", "shanghai", "--players", "3", "--games", "2", "--deals", "2"]


def test_simulate_prints_the_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *SMALL, "--seed", "5")
    assert status == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "shanghai: 2 games, 3 players, seeds 5..6" in out
    header = r"^seat\s+bot\s+wins\s+tied\s+win share \(95% CI\)\s+mean score \(95% CI\)\s+sd$"
    assert re.search(header, out, re.M)
    share = r"\d+\.\d%\s\(\d+\.\d%-\d+\.\d%\)"
    for seat in range(3):
        row = rf"^{seat}\s+greedy\s+\d+\s+\d+\s+{share}\s+\d+\.\d ± \d+\.\d\s+\d+\.\d$"
        assert re.search(row, out, re.M)
    assert "a tied game counts as a win for every seat sharing the lowest total" in out
    for label in ("deals:", "mean turns per deal:", "mean buys per deal:", "games/s"):
        assert label in out
    assert re.search(r"deals:\s+4, with a winner \d", out)


def test_simulate_json_is_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, *SMALL, "--json", "--bots", "greedy,random,greedy")
    assert status == 0
    document = json.loads(out)
    assert document["variant"] == "shanghai" and document["games"] == 2
    assert [row["bot"] for row in document["seats"]] == ["greedy", "random", "greedy"]
    assert set(document["bots"]) == {"greedy", "random"}
    assert document["deals"] == 4
    assert document["deals_with_winner"] + document["deals_without_winner"] == 4
    assert 0 <= document["winner_share"] <= 1
    for key in ("mean_turns_per_deal", "mean_buys_per_deal", "games_per_second", "ties"):
        assert key in document
    assert [game["seed"] for game in document["results"]] == [0, 1]
    for row in document["seats"]:
        assert set(row) == {
            "seat",
            "bot",
            "wins",
            "tied_wins",
            "win_share",
            "win_share_low",
            "win_share_high",
            "mean_score",
            "mean_score_ci",
            "sd_score",
        }
        assert row["win_share_low"] <= row["win_share"] <= row["win_share_high"]


def test_simulate_gives_the_same_games_in_several_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, one, _ = run(capsys, *SMALL, "--games", "3", "--json", "--seed", "9")
    _, two, _ = run(capsys, *SMALL, "--games", "3", "--json", "--seed", "9", "--workers", "2")
    first, second = json.loads(one), json.loads(two)
    assert second["workers"] == 2
    assert first["results"] == second["results"]
    assert first["seats"] == second["seats"]


def test_simulate_shows_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main([*SMALL, "--deals", "1"]) == 0
    assert "2/2 games" in terminal.getvalue() and "[" in terminal.getvalue()
    quiet = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert main([*SMALL, "--deals", "1", "--no-progress"]) == 0
    assert quiet.getvalue() == ""


def test_simulate_verbose_tells_the_game_in_the_notation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, *SMALL, "--games", "1", "--verbose", "--seed", "7")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Game 1: shanghai, 3 players, seed 7")
    assert lines[1].startswith("Deal 1 of 2: 2 sets of 3; dealer seat 0")
    moves = [MOVE.match(line) for line in lines]
    parsed = [sr.parse_action(m.group(2), int(m.group(1))) for m in moves if m is not None]
    assert len(parsed) > 20
    assert {type(action) for action in parsed} >= {sr.Draw, sr.Meld, sr.Discard}
    assert any(line.startswith("Deal 1 over after") for line in lines)
    assert any(line.startswith("Deal 2 of 2: 1 set of 3 + 1 run of 4") for line in lines)
    assert any(line.startswith("Game over: seat") for line in lines)
    assert "deals:" in out  # the summary follows


def test_simulate_saves_a_record_that_replay_tells_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    status, told, _ = run(capsys, *SMALL, "--games", "1", "--verbose", "--save", str(saved))
    assert status == 0
    game = sr.from_json(saved.read_text(), sr.GameRecord)
    assert game.players == 3 and game.seed == 0 and game.variant.deal_count == 2
    assert sr.replay(game).phase is sr.Phase.GAME_OVER

    status, replayed, _ = run(capsys, "replay", str(saved))
    assert status == 0
    assert replayed.splitlines()[0] == f"shanghai: 3 players, seed 0, {len(game.actions)} moves"
    story = told.split("\n\n")[0].splitlines()[1:]  # the verbose game, without its title
    assert replayed.splitlines()[1:] == story


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--variant", "gin"], "unknown variant 'gin'"),
        (["simulate", "--players", "9"], "'shanghai' is for 2-6 players, not 9"),
        (["simulate", "--variant", "shanghai-camping", "--players", "2"], "3-8 players"),
        (["simulate", "--games", "0"], "argument --games: must be at least 1, got 0"),
        (["simulate", "--games", "many"], "argument --games: not a whole number: 'many'"),
        (["simulate", "--workers", "0"], "argument --workers: must be at least 1"),
        (["simulate", "--players", "-2"], "argument --players: must be at least 1"),
        (["simulate", "--seed", "x"], "argument --seed: not a whole number"),
        (["simulate", "--deals", "0"], "argument --deals: must be at least 1"),
        (["simulate", "--bots", "clever"], "unknown bot 'clever'; bots are greedy, random"),
        (["simulate", "--bots", "greedy,random"], "names 2 bots for 4 seats"),
        (["simulate", "--variant", "nowhere.json"], "no variant file 'nowhere.json'"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_simulate_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_simulate_cannot_save_into_a_missing_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "no" / "such" / "game.json"
    status, _, err = run(capsys, *SMALL, "--games", "1", "--deals", "1", "--save", str(target))
    assert status == 2 and "cannot write" in err


def test_simulate_reads_a_variant_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "contract-rummy.toml")
    status, out, _ = run(capsys, "simulate", "--variant", path, "--players", "3", "--deals", "1")
    assert status == 0 and "deals:" in out


# -- replay ------------------------------------------------------------------------------------


def test_replay_of_a_saved_game_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    variant = sr.get_variant("rummy51")
    state = sr.new_game(variant, players=2, seed=4)
    bots = [sr.GreedyBot(variant), sr.GreedyBot(variant)]
    for _ in range(12):
        seat = state.to_act
        assert seat is not None
        state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
    path = tmp_path / "state.json"
    path.write_text(sr.to_json(state))
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert out.splitlines()[0] == "rummy51: 2 players, seed 4, 12 moves"
    assert sum(1 for line in out.splitlines() if MOVE.match(line)) == 12


@pytest.mark.parametrize(
    ("content", "status", "message"),
    [
        (None, 2, "cannot read"),
        ("not json", 2, "shanghai-rummy: error: "),
        ('{"format": "shanghai-rummy", "version": 1, "type": "action"}', 2, "error: "),
    ],
)
def test_replay_bad_files(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str | None,
    status: int,
    message: str,
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == status
    assert message in err
    assert "Traceback" not in err


def test_replay_of_a_record_with_an_illegal_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = sr.GameRecord(
        variant=sr.get_variant("shanghai"),
        players=4,
        seed=7,
        actions=[sr.Draw(1, sr.Source.STOCK), sr.Discard(1, sr.Card.parse("AS"))],
    )
    path = tmp_path / "bad.json"
    path.write_text(sr.to_json(game))
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1
    assert "seat 1: draw" in out
    assert "action #1 'discard AS': cannot discard now" in err


# -- play --------------------------------------------------------------------------------------


def scripted_deal(variant_id: str, players: int, seed: int) -> list[str]:
    """Seat 0's moves for the first deal, as GreedyBot plays them against the command's bots."""
    variant = attrs.evolve(sr.get_variant(variant_id), deal_count=1)
    bots = [sr.GreedyBot(variant)]
    bots += [make_bot("greedy", variant, seed * 64 + seat) for seat in range(1, players)]
    state = sr.new_game(variant, players=players, seed=seed)
    lines = []
    while state.to_act is not None:
        seat = state.to_act
        action = bots[seat].choose(sr.view(state, seat))
        if seat == 0:
            lines.append(sr.format_action(action))
        state = sr.apply(state, action)
    return lines


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    *argv: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return run(capsys, "play", *argv)


@pytest.mark.parametrize(("variant_id", "players", "seed"), [("shanghai", 3, 2), ("rummy51", 2, 3)])
def test_play_a_whole_deal_through_standard_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variant_id: str,
    players: int,
    seed: int,
) -> None:
    moves = scripted_deal(variant_id, players, seed)
    mistakes = ["help", "hint", "moves", "show", "", "fly", "discard 11H", "layoff 9C 99"]
    text = "\n".join([*mistakes, *moves]) + "\n"
    argv = ["--variant", variant_id, "--players", str(players), "--seed", str(seed)]
    status, out, err = play(capsys, monkeypatch, text, *argv, "--deals", "1")
    assert status == 0, err
    assert "Traceback" not in out + err
    assert f"Seed {seed}." in out
    assert "Your hand (" in out and "Scores: you 0" in out
    assert "meld 8C 8D JK / 4S 5S 6S 7S" in out  # help
    assert "hint: " in out and re.search(r"^legal moves, 1-\d+ of \d+:$", out, re.M)
    assert "not played: 'fly': unknown move 'fly'" in out
    assert "not played: 'discard 11H': not a card: '11H'" in out
    assert out.count("not played:") == 3
    assert "Deal 1 over after" in out and "Game over:" in out
    # every scripted move was read at a prompt and accepted
    assert out.count("? > ") == len(mistakes) + len(moves)


def test_play_shows_the_table_with_meld_ids(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = scripted_deal("shanghai", 3, 2)
    status, out, _ = play(
        capsys, monkeypatch, "\n".join(moves) + "\n", "--players", "3", "--seed", "2"
    )
    assert status == 0
    assert re.search(r"^  #1 (set|run) ", out, re.M)
    assert "Upcard: " in out and "buys left" in out
    assert "Deal 2 of 10" in out  # the game goes on to the next deal
    assert out.rstrip().endswith("End of input: goodbye.")


def test_play_quit_and_end_of_input_end_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = play(capsys, monkeypatch, "quit\n", "--seed", "1")
    assert status == 0 and out.rstrip().endswith("Goodbye.")
    status, out, _ = play(capsys, monkeypatch, "", "--seed", "1")
    assert status == 0 and out.rstrip().endswith("End of input: goodbye.")


def test_play_without_a_seed_picks_and_shows_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = play(capsys, monkeypatch, "quit\n")
    assert status == 0 and re.search(r"Seed \d+\.", out)


def test_play_colours_suits_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for colour_wanted, no_color in ((True, None), (False, "1")):
        if no_color is None:
            monkeypatch.delenv("NO_COLOR", raising=False)
        else:
            monkeypatch.setenv("NO_COLOR", no_color)
        terminal = FakeTerminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        assert main(["play", "--seed", "3"]) == 0
        assert ("\x1b[31m" in terminal.getvalue()) is colour_wanted
    status, out, _ = play(capsys, monkeypatch, "quit\n", "--seed", "3")
    assert status == 0 and "\x1b[" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "gin"], "unknown variant 'gin'"),
        (["--players", "7"], "2-6 players, not 7"),
        (["--bots", "greedy,random"], "names 2 bots for 3 seats"),
        (["--seed", "soon"], "argument --seed: not a whole number"),
    ],
)
def test_play_bad_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    status, out, err = play(capsys, monkeypatch, "quit\n", *argv)
    assert status == 2 and message in err and out == ""


# -- the installed command -----------------------------------------------------------------------


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shanghai_rummy", "variants"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "shanghai-camping" in done.stdout


def test_the_console_script_runs_simulate() -> None:
    script = Path(sys.executable).with_name("shanghai-rummy")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    done = subprocess.run(
        [str(script), "simulate", "--players", "2", "--deals", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deals"] == 1
    assert done.stderr == ""  # piped: no progress bar
