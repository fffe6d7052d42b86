"""Reachable game states for the serialization, view, validation and record tests."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import strategies as st

import shanghai_rummy as sr
import shanghai_rummy.serialization

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"
PRESETS = ("shanghai", "shanghai-wiki", "shanghai-camping", "rummy51")
FILE_VARIANTS = ("contract-rummy.toml", "liverpool.toml", "house-rules.json")


def variant_named(name: str) -> sr.Variant:
    """A preset by id, or an example file by name."""
    if name in sr.VARIANTS:
        return sr.get_variant(name)
    return sr.load_variant(EXAMPLES / name)


def play(state: sr.GameState, rng: random.Random, steps: int) -> sr.GameState:
    """``steps`` random legal moves (dealing the next deal when one ends)."""
    for _ in range(steps):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        actions = sr.legal_actions(state)
        if not actions:
            break
        state = sr.apply(state, rng.choice(actions))
    return state


def random_state(name: str, players: int, seed: int, steps: int) -> sr.GameState:
    """A state reached by random legal play from a new game."""
    variant = variant_named(name)
    players = min(max(players, variant.min_players), variant.max_players)
    state = sr.new_game(variant, players=players, seed=seed)
    return play(state, random.Random(seed), steps)


def reach(
    name: str, players: int, wanted: Callable[[sr.GameState], bool], budget: int = 6000
) -> sr.GameState:
    """The first state of random play (seeds 0, 1, ...) for which ``wanted`` holds."""
    for seed in range(20):
        rng = random.Random(seed)
        state = sr.new_game(variant_named(name), players=players, seed=seed)
        for _ in range(budget):
            if wanted(state):
                return state
            state = play(state, rng, 1)
            if state.is_over:
                break
    raise AssertionError("random play never reached the state wanted")  # pragma: no cover


def same_state(first: sr.GameState, second: sr.GameState) -> bool:
    """The two states are equal (histories included)."""
    return first == second


_VALIDATOR: Any = None


def schema_validator() -> Any:
    """A validator of sr.json_schema(), compiled once (jsonschema-rs: the suite validates
    thousands of documents, some of 150 KB; the schema itself is checked against the
    meta-schema by jsonschema in test_serialization)."""
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = jsonschema_rs.Draft202012Validator(sr.json_schema())
    return _VALIDATOR


def assert_schema_valid(document: dict[str, Any]) -> None:
    """The document validates against sr.json_schema()."""
    schema_validator().validate(document)


@contextlib.contextmanager
def dumps_checked_against_the_schema() -> Iterator[None]:
    """While active, every document sr.to_dict or sr.to_json writes is validated against
    sr.json_schema()."""
    module = shanghai_rummy.serialization
    original = module.to_dict

    def checked(obj: object) -> dict[str, Any]:
        document = original(obj)
        assert_schema_valid(document)
        return document

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "to_dict", checked)
        patch.setattr(sr, "to_dict", checked)
        yield


states = st.builds(
    random_state,
    name=st.sampled_from(PRESETS + FILE_VARIANTS),
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10_000),
    # mostly the first deal; sometimes deep enough for finished deals and restocks
    steps=st.integers(min_value=0, max_value=300) | st.integers(min_value=1000, max_value=2000),
)
"""Random reachable states of every preset and example variant."""
