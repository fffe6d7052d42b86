"""Public events (issue 25): every kind, as every seat sees it; hidden cards stay hidden."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.events import chain_of
from shanghai_rummy.serialization import EVENT_TAGS

from .games import assert_schema_valid, dumps_checked_against_the_schema, states
from .samples import event_examples
from .test_views import hide_differently

C = sr.Card.parse
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True, scope="module")
def _every_dump_matches_the_schema() -> Iterator[None]:
    with dumps_checked_against_the_schema():
        yield


EXAMPLES = event_examples()


def test_play_shows_every_kind_of_event() -> None:
    assert set(EXAMPLES) == set(EVENT_TAGS)


@pytest.mark.parametrize("kind", list(EVENT_TAGS), ids=lambda kind: kind.__name__)
def test_every_event_kind_as_every_seat_sees_it(kind: type) -> None:
    state, event = EXAMPLES[kind]
    index = state.events.index(event)
    for seat in [*range(state.num_players), None]:
        seen = sr.view(state, seat).events[index]
        assert seen.number == event.number and type(seen) is kind
        own = getattr(event, "seat", None) == seat
        if kind is sr.Drew:
            assert isinstance(seen, sr.Drew) and isinstance(event, sr.Drew)
            assert seen.card == (event.card if own else None)
            assert seen.seat == event.seat
        elif kind is sr.Bought:
            assert isinstance(seen, sr.Bought) and isinstance(event, sr.Bought)
            assert seen.penalty == (event.penalty if own else ())
            assert seen.penalty_cards == event.penalty_cards == len(event.penalty)
            assert (seen.card, seen.seat) == (event.card, event.seat)
        else:  # everything else is public: the same for every seat and a spectator
            assert seen == event
        assert sr.seen_by(event, seat) == seen


def test_stock_draw_names_the_card_drawn() -> None:
    state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=4)
    top = state.stock[0]
    state = sr.discard(state, 1, state.hand(1)[0])
    after = sr.draw(state, 0, sr.Source.STOCK)
    assert after.events[-1] == sr.Drew(number=after.events[-2].number + 1, seat=0, card=top)
    assert sr.view(after, 1).events[-1] == sr.Drew(
        number=after.events[-1].number, seat=0, card=None
    )


def test_buy_penalty_cards_are_the_stock_top() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    upcard = state.upcard
    state = sr.draw(state, 1, sr.Source.STOCK)  # seat 1 passes the upcard up
    buyer = state.to_act
    assert buyer is not None
    top = state.stock[: state.variant.buying.penalty_cards]
    after = sr.buy(state, buyer)
    bought = next(event for event in after.events if isinstance(event, sr.Bought))
    assert (bought.seat, bought.card, bought.penalty) == (buyer, upcard, top)
    offered = next(event for event in after.events if isinstance(event, sr.UpcardOffered))
    assert offered.seat == 1 and offered.card == upcard and offered.buyers[0] == buyer


def test_go_out_is_told_as_its_parts_then_the_result() -> None:
    state, event = EXAMPLES[sr.DealEnded]
    assert isinstance(event, sr.DealEnded)
    assert event.result == state.results[event.result.deal_number - 1]


def test_events_are_numbered_and_earlier_deals_keep_their_results() -> None:
    state, event = EXAMPLES[sr.GameEnded]
    assert isinstance(event, sr.GameEnded) and event.outcome == state.outcome
    numbers = [item.number for item in state.events]
    assert numbers == sorted(set(numbers))
    ended = [item.result for item in state.events if isinstance(item, sr.DealEnded)]
    assert tuple(ended) == state.results  # one per deal, the earlier deals' included
    started = [item for item in state.events if isinstance(item, sr.DealStarted)]
    assert [item.deal_number for item in started] == [state.deal_number]  # only this deal's


def test_a_new_deal_starts_with_its_deal() -> None:
    state, _ = EXAMPLES[sr.DealEnded]
    assert state.phase is sr.Phase.DEAL_OVER
    after = sr.next_deal(state)
    started = [item for item in after.events if isinstance(item, sr.DealStarted)]
    assert len(started) == 1 and started[0].deal_number == after.deal_number
    assert started[0].number == state.events[-1].number + 1
    assert started[0].hand_sizes == tuple(len(hand) for hand in sr.next_deal(state).hands)
    assert [item for item in after.events if isinstance(item, sr.DealEnded)] == [
        item for item in state.events if isinstance(item, sr.DealEnded)
    ]


@pytest.mark.parametrize("kind", list(EVENT_TAGS), ids=lambda kind: kind.__name__)
def test_events_survive_json(kind: type) -> None:
    _, event = EXAMPLES[kind]
    text = sr.to_json(event)
    document = json.loads(text)
    assert document["type"] == "event" and document["data"]["type"] == EVENT_TAGS[kind]
    assert_schema_valid(document)
    assert sr.from_json(text, sr.Event) == event
    assert sr.from_json(text, kind) == event


def test_an_event_of_another_kind_is_refused() -> None:
    text = sr.to_json(sr.PassedBuy(number=3, seat=1))
    with pytest.raises(sr.SerializationError, match="expected a 'drew' event"):
        sr.from_json(text, sr.Drew)


def test_a_forged_event_log_is_refused() -> None:
    state, _ = EXAMPLES[sr.Discarded]
    events = list(state.events)
    events[-1] = attrs.evolve(events[-1], number=events[0].number)
    forged = attrs.evolve(state, event_log=chain_of(events))
    with pytest.raises(sr.InvalidStateError, match="events"):
        sr.validate(forged)
    seat_forged = attrs.evolve(state, event_log=chain_of([sr.PassedBuy(number=0, seat=9)]))
    with pytest.raises(sr.InvalidStateError, match="no seat 9"):
        sr.validate(seat_forged)


def test_a_state_saved_before_events_loads_without_them() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    document = sr.to_dict(state)
    del document["data"]["events"]
    loaded = sr.from_dict(document, sr.GameState)
    assert loaded.events == () and sr.view(loaded, 0).events == ()


def _hide_event_cards(state: sr.GameState, seat: int, rng: random.Random) -> sr.GameState:
    """The state with the cards ``seat`` may not see in its events (other seats' stock
    draws, other seats' buy penalties) replaced by random cards."""
    pack = sr.make_pack(2, 4)
    changed = []
    for event in state.events:
        if isinstance(event, sr.Drew) and event.seat != seat:
            event = attrs.evolve(event, card=rng.choice(pack))
        elif isinstance(event, sr.Bought) and event.seat != seat:
            event = attrs.evolve(event, penalty=tuple(rng.sample(pack, len(event.penalty))))
        changed.append(event)
    return attrs.evolve(state, event_log=chain_of(changed))


@SETTINGS
@given(state=states, seat=st.integers(min_value=0, max_value=7), seed=st.integers(0, 1000))
def test_hidden_cards_in_events_do_not_change_the_view(
    state: sr.GameState, seat: int, seed: int
) -> None:
    seat %= state.num_players
    rng = random.Random(seed)
    other = _hide_event_cards(hide_differently(state, seat, rng), seat, rng)
    assert sr.view(other, seat) == sr.view(state, seat)
    assert sr.to_json(sr.view(other, seat)) == sr.to_json(sr.view(state, seat))
    assert sr.view(other, None) == sr.view(state, None)


def test_seen_events_is_a_lazy_sequence_equal_to_a_tuple() -> None:
    state, _ = EXAMPLES[sr.Melded]
    seen = sr.view(state, 0).events
    values = tuple(sr.seen_by(event, 0) for event in state.events)
    assert seen == values and len(seen) == len(values) and seen[-1] == values[-1]
    assert seen[:2] == values[:2] and list(seen) == list(values)
    assert hash(seen) == hash(sr.SeenEvents(values)) and seen == sr.SeenEvents(values)
    assert repr(sr.SeenEvents(values[:1])) == f"SeenEvents([{values[0]!r}])"
    assert len(sr.SeenEvents()) == 0 and (seen == "text") is False


def test_a_state_and_a_view_with_a_long_event_chain_pickle_and_deep_copy() -> None:
    # the chain nests one tuple per link: written link by link it passed the recursion limit
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=3)
    events = list(state.events)
    after = events[-1].number + 1
    more = [sr.PassedBuy(number=after + i, seat=i % 4) for i in range(5000)]
    long = attrs.evolve(state, event_log=chain_of(events + more))
    for copied in (pickle.loads(pickle.dumps(long)), copy.deepcopy(long)):
        assert copied == long and copied.events == long.events
    seen = sr.view(long, 0)
    for copied_view in (pickle.loads(pickle.dumps(seen)), copy.deepcopy(seen)):
        assert copied_view == seen and len(copied_view.events) == len(events) + 5000
