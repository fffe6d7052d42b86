"""The quick type check of validate (a predicate compiled per hint) says exactly what the walk
field by field says: the same values pass, the same values fail."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy._field_types import FieldTypes, Special
from shanghai_rummy.state import HistoryBlock

from .games import reach

WRONG = (None, "x", 7, True, 1.5, [], (), ("x",), sr.Card.parse("9C"))


def mutations(value: object, depth: int) -> Iterator[object]:
    """Copies of ``value`` with one part (down to ``depth`` levels) replaced by a value of a
    wrong (or right) type."""
    if depth == 0:
        return
    if attrs.has(type(value)) and not isinstance(value, sr.Card):
        for field in attrs.fields(type(value)):
            for part in (*WRONG, *mutations(getattr(value, field.name), depth - 1)):
                changed = copy.copy(value)
                object.__setattr__(changed, field.name, part)
                yield changed
    elif type(value) is tuple:
        for index in range(min(2, len(value))):
            for part in (*WRONG, *mutations(value[index], depth - 1)):
                yield (*value[:index], part, *value[index + 1 :])


def accepted(value: object, path: str) -> Iterator[tuple[str, str]]:
    return iter(())


def agree(
    check: FieldTypes, cls: type, value: object, depth: int, stride: int = 1
) -> dict[bool, int]:
    """Assert that the compiled check and the walk agree on every ``stride``-th mutation of
    ``value`` (the walk of a whole state takes milliseconds)."""
    fits = check.fits(cls)
    assert fits(value)
    verdicts = {True: 0, False: 0}
    for number, forged in enumerate(mutations(value, depth)):
        if number % stride:
            continue
        found = next(check.problems(forged, cls, ""), None)
        assert fits(forged) is (found is None), found
        if found is not None:
            assert check.first_mistyped(forged, cls, "") == found
        verdicts[found is None] += 1
    return verdicts


def test_the_compiled_type_check_agrees_with_the_walk_field_by_field() -> None:
    state = reach("shanghai", 3, lambda s: len(s.history) >= 12 and bool(s.table))
    # the variant and the history on their own below, as validate checks them
    skipped = Special(lambda value: True, accepted)
    verdicts = agree(
        FieldTypes({sr.Variant: skipped, sr.History: skipped}), sr.GameState, state, 3, stride=5
    )
    assert verdicts[True] > 50 and verdicts[False] > 100, verdicts
    verdicts = agree(FieldTypes(), sr.Variant, state.variant, 3)
    assert verdicts[True] > 0 and verdicts[False] > 300, verdicts


def test_validate_finds_a_mistyped_action_anywhere_in_a_history_it_has_checked() -> None:
    state = reach("shanghai", 3, lambda s: len(s.history) >= 40)
    sr.validate(state)  # the history's head is now remembered as checked
    actions = list(state.history)
    for index in (0, len(actions) // 2, len(actions) - 1):
        action = actions[index]
        for field in attrs.fields(type(action)):
            forged_action = copy.copy(action)
            object.__setattr__(forged_action, field.name, 1.5)  # no field's type
            history = None
            for number, kept in enumerate(actions):
                history = sr.History(
                    history, forged_action if number == index else kept, number + 1
                )
            forged = attrs.evolve(state, log=history)
            with pytest.raises(sr.InvalidStateError, match="types"):
                sr.validate(forged)
    # an action added to a checked history is checked, and so is a history built on it
    appended = sr.History(state.log, forged_action, len(actions) + 1)
    with pytest.raises(sr.InvalidStateError, match="types"):
        sr.validate(attrs.evolve(state, log=sr.History(appended, actions[0], len(actions) + 2)))


JUNK: Any = "junk"


def test_validate_refuses_a_history_whose_links_or_lengths_are_forged() -> None:
    # each node of a history holds the one before it and counts its actions: a forged link
    # or length is refused (it was a stray AttributeError/TypeError, or accepted)
    state = reach("shanghai", 3, lambda s: len(s.history) >= 6)
    log = state.log
    assert log is not None and log.previous is not None
    forged_logs = {
        "History before action": sr.History(JUNK, log.action, log.length),
        "does not hold": sr.History(log.previous, log.action, 2),
        "is the first one": sr.History(None, log.action, 2),
        "expected int": sr.History(log.previous, log.action, True),
        "1 to": sr.History(log.previous, log.action, 0),
    }
    deep = sr.History(JUNK, log.previous.action, log.length - 1)
    forged_logs[f"History before action {log.length - 1}"] = sr.History(
        deep, log.action, log.length
    )
    for message, forged in forged_logs.items():
        with pytest.raises(sr.InvalidStateError, match=message):
            sr.validate(attrs.evolve(state, log=forged))
    sr.validate(state)
    sr.validate(attrs.evolve(state, log=sr.History(log.previous, log.action, log.length)))


def test_validate_refuses_a_block_of_a_history_that_is_forged() -> None:
    # a node may hold a block of actions before its last (as a history read from a document
    # does): the block is a tuple of actions, and the node's length counts it
    state = reach("shanghai", 3, lambda s: len(s.history) >= 6)
    actions = state.history
    assert state.log is not None
    whole = HistoryBlock(None, actions[-1], len(actions), actions[:-1])
    on_top = HistoryBlock(
        HistoryBlock(None, actions[1], 2, actions[:1]), actions[-1], len(actions), actions[2:-1]
    )
    for good in (whole, on_top):
        assert good == state.log
        sr.validate(attrs.evolve(state, log=good))
    as_list: Any = list(actions[:-1])
    forged_logs = {
        "expected a tuple of the actions before action": HistoryBlock(
            None, actions[-1], len(actions), as_list
        ),
        "is the first one": HistoryBlock(None, actions[-1], len(actions), actions[1:-1]),
        "history before action 3 does not hold 2": HistoryBlock(
            sr.History(None, actions[0], 1), actions[-1], len(actions), actions[2:-1]
        ),
        r"log\[2\]: types: expected an Action": HistoryBlock(
            None, actions[-1], len(actions), (*actions[:2], JUNK, *actions[3:-1])
        ),
    }
    for message, forged in forged_logs.items():
        with pytest.raises(sr.InvalidStateError, match=message):
            sr.validate(attrs.evolve(state, log=forged))
