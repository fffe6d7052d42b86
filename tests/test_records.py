"""Game records (issue 5, point 4): variant, seats, seed and actions replay to the same state."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import shanghai_rummy as sr

from .games import (
    assert_schema_valid,
    dumps_checked_against_the_schema,
    play,
    random_state,
    same_state,
    states,
)
from .helpers import C, cards, stacked


@pytest.fixture(autouse=True, scope="module")
def _every_dump_matches_the_schema() -> Iterator[None]:
    with dumps_checked_against_the_schema():
        yield


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=states)
def test_records_replay_to_the_identical_state(state: sr.GameState) -> None:
    game = sr.record(state)
    assert game.actions == state.history
    assert same_state(sr.replay(game), state)
    text = sr.to_json(game)
    assert_schema_valid(json.loads(text))
    loaded = sr.from_json(text, sr.GameRecord)
    assert loaded == game
    assert same_state(sr.replay(loaded), state)


def test_a_game_over_several_deals_replays() -> None:
    state = random_state("shanghai", 3, 21, 3000)
    assert state.deal_number >= 3
    assert same_state(sr.replay(sr.record(state)), state)


def test_a_finished_game_replays() -> None:
    state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=9)
    rng = random.Random(9)
    while not state.is_over:
        state = play(state, rng, 500)
    replayed = sr.replay(sr.record(state))
    assert replayed.is_over and replayed.outcome == state.outcome
    assert same_state(replayed, state)


def test_deal_number_tells_before_and_after_next_deal() -> None:
    state = random_state("shanghai", 3, 8, 300)
    while state.phase is not sr.Phase.DEAL_OVER:
        state = sr.apply(state, sr.legal_actions(state)[0])
    dealt = sr.next_deal(state)
    assert sr.record(dealt).actions == sr.record(state).actions
    assert same_state(sr.replay(sr.record(state)), state)
    assert same_state(sr.replay(sr.record(dealt)), dealt)
    assert sr.replay(attrs.evolve(sr.record(dealt), deal_number=None)).phase is sr.Phase.DEAL_OVER


def test_replay_steps() -> None:
    state = random_state("shanghai", 4, 2, 40)
    game = sr.record(state)
    assert sr.replay(game, steps=0) == sr.new_game(game.variant, players=4, seed=2)
    middle = sr.replay(game, steps=20)
    assert middle.history == game.actions[:20]
    assert same_state(sr.replay(game, steps=len(game.actions) + 5), state)


def test_an_illegal_record_names_the_action() -> None:
    state = random_state("shanghai", 4, 2, 10)
    actions = (*state.history, sr.Discard(state.to_act or 0, sr.JOKER), sr.Buy(0))
    game = attrs.evolve(sr.record(state), actions=actions)
    with pytest.raises(sr.IllegalMoveError, match=r"record action #10 "):
        sr.replay(game)


def test_record_json_names_bad_fields() -> None:
    state = random_state("shanghai", 4, 2, 10)
    document = sr.to_dict(sr.record(state))
    document["data"]["players"] = 9
    with pytest.raises(sr.SerializationError, match=r"^\$\.data\.players: 'shanghai' is for 2-6"):
        sr.from_dict(document, sr.GameRecord)
    document["data"]["players"] = 4
    document["data"]["actions"][3]["seat"] = 5
    with pytest.raises(sr.SerializationError, match=r"^\$\.data\.actions\[3\]\.seat: no seat 5"):
        sr.from_dict(document, sr.GameRecord)
    document["data"]["actions"][3] = {"type": "draw", "seat": 1}
    with pytest.raises(sr.SerializationError, match=r"\$\.data\.actions\[3\]\.source: required"):
        sr.from_dict(document, sr.GameRecord)


def test_records_are_small() -> None:
    state = random_state("shanghai", 4, 2, 200)
    assert len(sr.to_json(sr.record(state))) < len(sr.to_json(state))


def test_a_stacked_game_keeps_its_deal_in_the_record_and_replays() -> None:
    # issue 21: records of deal_from games did not replay (GameRecord had no stacked origin)
    state = stacked(
        sr.get_variant("shanghai"), {1: cards("8C 8D 8H 9C 9D 9H 2C 3C 4C 5D 7S")}, upcard=C("KH")
    )
    rng = random.Random(3)
    for _ in range(60):
        state = sr.apply(state, rng.choice(sr.legal_actions(state)))
    game = sr.record(state)
    assert game.stacked == state.stacked is not None
    assert sr.replay(game) == state
    loaded = sr.from_json(sr.to_json(game), sr.GameRecord)
    assert loaded == game and sr.replay(loaded) == state
    document = json.loads(sr.to_json(game))
    document["data"]["stacked"]["hands"].pop()
    with pytest.raises(sr.SerializationError, match=r"\$\.data\.stacked\.hands: needs one hand"):
        sr.from_dict(document, sr.GameRecord)
