"""Golden games: seeded games of every preset and example variant file, played by GreedyBot,
hashed move by move with the final totals. A change meant to keep behaviour (a refactor, a
speed-up) must leave every hash as it is; a change of the rules or of GreedyBot changes some,
and the new hashes are written here on purpose, with the reason in the commit."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import shanghai_rummy as sr
from shanghai_rummy.notation import format_action

ROOT = Path(__file__).resolve().parent.parent

GOLDEN = {
    ("shanghai", 4, 1): "d30a192a2a128781",
    ("shanghai", 3, 2): "c9b4b83626b472c1",
    ("shanghai-wiki", 4, 1): "46300aadb8addb40",
    ("shanghai-wiki", 6, 2): "2cf089a7aa0a2e98",
    ("shanghai-camping", 4, 1): "dfd77eb1fea67980",
    ("shanghai-camping", 5, 2): "b984175f8af3b69e",
    ("rummy51", 4, 1): "3bdbf2ba7eca48c3",
    ("rummy51", 2, 2): "e049632f352a98ad",
    ("examples/variants/contract-rummy.toml", 4, 1): "5a670264853f2a42",
    ("examples/variants/deuces-wild.toml", 4, 1): "16acf1d294b0f5db",
    ("examples/variants/house-rules.json", 4, 1): "0c386a7da6e24aa8",
    ("examples/variants/liverpool.toml", 4, 1): "fcc0f92cb6b00fe2",
    ("examples/variants/progressive.toml", 4, 1): "7ca26fa015cf0bd4",
    ("examples/variants/remik.toml", 4, 1): "17baaf51fe66ccc4",
    ("examples/variants/remik-natural-run.toml", 4, 1): "396247ea10ed1a16",
    ("examples/variants/shanghai.toml", 4, 1): "d30a192a2a128781",
    ("examples/variants/strict-table.toml", 4, 1): "0000695bcbfc0b5b",
}


def golden_digest(variant: sr.Variant, players: int, seed: int) -> str:
    """The hash of a whole seeded game of GreedyBots: every move in notation, then the
    final totals."""
    bots = [sr.GreedyBot(variant) for _ in range(players)]
    state = sr.new_game(variant, players=players, seed=seed)
    lines = []
    while not state.is_over:
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
            continue
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(sr.view(state, seat))
        lines.append(format_action(action))
        state = sr.apply(state, action)
    lines.append(" ".join(map(str, state.totals)))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def _variant(name: str) -> sr.Variant:
    return sr.load_variant(ROOT / name) if "/" in name else sr.get_variant(name)


def test_every_example_variant_file_has_a_golden_game() -> None:
    files = {str(path.relative_to(ROOT)) for path in (ROOT / "examples" / "variants").iterdir()}
    assert files <= {name for name, _, _ in GOLDEN}
    assert set(sr.VARIANTS) <= {name for name, _, _ in GOLDEN}


@pytest.mark.parametrize(("name", "players", "seed"), sorted(GOLDEN))
def test_seeded_games_play_the_same_moves_and_scores(name: str, players: int, seed: int) -> None:
    assert golden_digest(_variant(name), players, seed) == GOLDEN[name, players, seed]
