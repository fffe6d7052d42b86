"""The shared values the engine builds states from: ``advance`` (a state built positionally)
agrees with ``attrs.evolve``, and shared turn and seat facts equal fresh ones."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.state import (
    KEEP,
    SeatState,
    TurnState,
    advance,
    appended,
    played,
    seat_state,
    turn_start,
)

from .games import random_state

_OPTIONAL = (
    "turn",
    "hands",
    "stock",
    "discard_pile",
    "upcard_live",
    "seats",
    "turns_this_deal",
    "table",
    "next_meld_id",
)


@given(
    seed=st.integers(0, 50),
    steps=st.integers(0, 60),
    changed=st.sets(st.sampled_from((*_OPTIONAL, "cut_card"))),
)
def test_advance_equals_evolve_with_the_same_changes(
    seed: int, steps: int, changed: set[str]
) -> None:
    state = random_state("shanghai", 4, seed, steps)
    other = random_state("shanghai", 4, seed + 1, steps + 7)
    changes = {name: getattr(other, name) for name in changed}
    required = {
        "phase": other.phase,
        "to_act": 3,
        "turn_state": other.turn_state,
        "log": other.log,
    }
    expected = attrs.evolve(state, **required, **changes)
    assert advance(state, **required, **changes) == expected


def test_advance_keeps_or_clears_the_cut_card() -> None:
    state = attrs.evolve(random_state("rummy51", 3, 1, 4), cut_card=sr.Card.parse("5D"))
    kept = advance(state, phase=state.phase, to_act=0, turn_state=state.turn_state, log=state.log)
    cleared = advance(
        state,
        phase=state.phase,
        to_act=0,
        turn_state=state.turn_state,
        log=state.log,
        cut_card=None,
    )
    assert kept.cut_card == sr.Card.parse("5D")
    assert cleared.cut_card is None
    assert (
        advance(
            state,
            phase=state.phase,
            to_act=0,
            turn_state=state.turn_state,
            log=state.log,
            cut_card=KEEP,
        )
        == kept
    )


@given(st.booleans(), st.booleans(), st.booleans(), st.one_of(st.none(), st.integers(0, 7)))
def test_shared_turn_starts_equal_fresh_ones(
    drawn: bool, was_down: bool, offered: bool, discarded_by: int | None
) -> None:
    fresh = TurnState(drawn=drawn, was_down=was_down, offered=offered, discarded_by=discarded_by)
    assert turn_start(drawn, was_down, offered, discarded_by) == fresh
    assert turn_start(drawn, was_down, offered, discarded_by) is turn_start(
        drawn, was_down, offered, discarded_by
    )


@given(st.booleans(), st.integers(0, 9), st.integers(0, 2000))
def test_shared_seat_states_equal_fresh_ones(down: bool, buys: int, turns: int) -> None:
    assert seat_state(down, buys, turns) == SeatState(down, buys, turns)


_TURN_FACTS = st.builds(
    TurnState,
    drawn=st.booleans(),
    was_down=st.booleans(),
    must_go_down=st.sampled_from([None, "must go down"]),
    jokers_to_meld=st.integers(0, 2),
    laid_off_on_others=st.booleans(),
    used_joker=st.booleans(),
    going_down=st.sampled_from([(), (3,), (3, 4)]),
)


@given(
    _TURN_FACTS,
    st.sampled_from([KEEP, None, "must go down"]),
    st.one_of(st.none(), st.integers(0, 2)),
    st.one_of(st.none(), st.booleans()),
    st.one_of(st.none(), st.booleans()),
    st.one_of(st.none(), st.sampled_from([(), (3,), (3, 4)])),
)
def test_played_equals_evolve_with_the_same_changes(
    facts: TurnState,
    must_go_down: Any,
    jokers_to_meld: int | None,
    laid_off_on_others: bool | None,
    used_joker: bool | None,
    going_down: tuple[int, ...] | None,
) -> None:
    changes: dict[str, Any] = {
        name: value
        for name, value in (
            ("jokers_to_meld", jokers_to_meld),
            ("laid_off_on_others", laid_off_on_others),
            ("used_joker", used_joker),
            ("going_down", going_down),
        )
        if value is not None
    }
    if must_go_down is not KEEP:
        changes["must_go_down"] = must_go_down
    after = played(facts, **changes)
    assert after == attrs.evolve(facts, **changes)
    assert (after is facts) == (after == facts)  # unchanged facts are shared, not rebuilt


def test_a_history_node_appended_through_the_slots_is_the_node_its_constructor_builds() -> None:
    """``state.appended`` sets History's slots by name, skipping the constructor: it sets
    every field the class has, to what the constructor would."""
    first = appended(None, sr.Draw(0, sr.Source.STOCK))
    second = appended(first, sr.PassBuy(1))
    assert {field.name for field in attrs.fields(sr.History)} == {"previous", "action", "length"}
    for node, built in (
        (first, sr.History(None, sr.Draw(0, sr.Source.STOCK), 1)),
        (second, sr.History(first, sr.PassBuy(1), 2)),
    ):
        assert [getattr(node, field.name) for field in attrs.fields(sr.History)] == [
            getattr(built, field.name) for field in attrs.fields(sr.History)
        ]
