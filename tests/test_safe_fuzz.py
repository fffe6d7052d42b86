"""Issue 21: fuzzing the boundary. Random variant mappings and random damaged state documents
are either accepted or refused with a RummyError, nothing else, and each call stays within a
step budget: the solver's search steps (the searches by card counts and the walk over groups)
and the actions listed are counted, not wall time."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.engine import phases
from shanghai_rummy.solver import _contract_search, _general_walk, _opening_search

PRESETS = sorted(sr.VARIANTS)
STEP_BUDGET = 200_000  # solver steps (search calls) per loader call
LISTING_BUDGET = 5_000  # actions listed per loader call (going down: single groups)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


class Budget:
    def __init__(self) -> None:
        self.steps = 0
        self.listings = 0


_SEARCH_STEPS = (
    (_contract_search._ContractSearch, "search_runs"),
    (_contract_search._ContractSearch, "search_sets_then_runs"),
    (_opening_search.OpeningSearch, "search"),
    (_general_walk.GeneralWalk, "walk"),
    (_general_walk.GeneralWalk, "grow"),
)
"""The solver's search steps: each call of these methods counts one."""


@contextmanager
def counted() -> Iterator[Budget]:
    """Count the solver's search steps and the actions listed."""
    budget = Budget()
    listing = phases.list_actions

    def stepping(method: Any) -> Any:
        def step(self: Any, *args: Any) -> Any:
            budget.steps += 1
            return method(self, *args)

        return step

    def listed(state: Any) -> Any:
        actions = listing(state)
        budget.listings += len(actions)
        return actions

    with pytest.MonkeyPatch.context() as patch:
        for owner, name in _SEARCH_STEPS:
            patch.setattr(owner, name, stepping(getattr(owner, name)))
        patch.setattr(phases, "list_actions", listed)
        yield budget


def _tree_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _tree_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:30]):
            yield from _tree_paths(value, (*path, index))


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = _replace(copy[head], rest, value)
    return copy


@st.composite
def damaged(draw: st.DrawFn, data: Any) -> Any:
    """``data`` with a few of its values replaced by random JSON, or its arrays grown."""
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_tree_paths(data))
        path = draw(st.sampled_from(paths))
        target: Any = data
        for key in path:
            target = target[key]
        if isinstance(target, list) and target and draw(st.booleans()):
            value: Any = target * draw(st.integers(2, 40))  # more of the same: cards, seats
        elif isinstance(target, int) and not isinstance(target, bool) and draw(st.booleans()):
            value = draw(st.sampled_from([10**9, -1, 10**100, target + 1, 0]))
        else:
            value = draw(json_values)
        data = _replace(data, path, value)
    return data


def _states() -> list[sr.GameState]:
    states = []
    for index, variant_id in enumerate(PRESETS):
        rng = random.Random(index)
        state = sr.new_game(sr.get_variant(variant_id), players=4, seed=index)
        for _ in range(rng.randrange(5, 60)):
            if state.phase is sr.Phase.DEAL_OVER:
                state = sr.next_deal(state)
            if state.to_act is None:
                break
            state = sr.apply(state, rng.choice(sr.legal_actions(state)))
        states.append(state)
    return states


STATES = [sr.to_dict(state) for state in _states()]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_state_documents_are_refused_with_rummy_errors_within_the_budget(
    data: st.DataObject,
) -> None:
    document = data.draw(damaged(data.draw(st.sampled_from(STATES))))
    text = json.dumps(document)
    with counted() as budget:
        try:
            state = sr.from_json(text, sr.GameState)
        except sr.RummyError:
            state = None
        if state is not None:
            sr.validate(state)
    assert budget.steps <= STEP_BUDGET and budget.listings <= LISTING_BUDGET


@st.composite
def variant_mappings(draw: st.DrawFn) -> dict[str, Any]:
    base = sr.variant_to_dict(sr.get_variant(draw(st.sampled_from(PRESETS))))
    mapping = draw(damaged(base))
    if not isinstance(mapping, dict):
        mapping = {"base": "shanghai", "x": mapping}
    if draw(st.booleans()):
        mapping = {**mapping, "base": draw(st.sampled_from(PRESETS))}
    return mapping


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mapping=variant_mappings(), players=st.integers(2, 10), seed=st.integers(0, 50))
def test_random_variant_mappings_are_accepted_or_refused_with_rummy_errors(
    mapping: dict[str, Any], players: int, seed: int
) -> None:
    with counted() as budget:
        try:
            variant = sr.load_variant(mapping)
        except sr.RummyError:
            return
        assert sr.from_json(sr.to_json(variant), sr.Variant) == variant
        try:
            state = sr.new_game(variant, players=players, seed=seed)
        except sr.RummyError:
            return
        sr.validate(state)
        assert sr.from_json(sr.to_json(state), sr.GameState) == state
    assert budget.steps <= STEP_BUDGET and budget.listings <= LISTING_BUDGET
    # the first listing of the game, counted by its size
    assert len(sr.legal_actions(state)) <= 10_000
