"""The collector held off while a listing builds: restored after, and never turned on by us."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

import shanghai_rummy as sr
from shanghai_rummy.collector import CollectorPaused


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


def test_collection_is_off_inside_and_back_on_after() -> None:
    gc.enable()
    with CollectorPaused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collection_is_back_on_when_the_block_raises() -> None:
    gc.enable()
    with pytest.raises(sr.IllegalMoveError), CollectorPaused():
        raise sr.IllegalMoveError("a listing that failed")
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_program_stays_off() -> None:
    gc.disable()
    with CollectorPaused():
        pass
    assert not gc.isenabled()


def test_nested_blocks_leave_it_to_the_outermost() -> None:
    gc.enable()
    with CollectorPaused():
        with CollectorPaused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_listing_a_going_down_leaves_collection_on() -> None:
    gc.enable()
    choice = random.Random(5).choice
    state = sr.new_game(sr.get_variant("shanghai"), 2, seed=5)
    for _ in range(2000):
        actions = sr.legal_actions(state)
        assert gc.isenabled()
        if any(isinstance(action, sr.Meld) for action in actions):
            break
        state = sr.apply(state, choice(actions))
    else:
        pytest.fail("no going down was listed in 2000 steps")
