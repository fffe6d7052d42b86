"""Per-seat views (issue 5, point 1): what a seat sees, and that it never sees hidden cards."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr

from .games import assert_schema_valid, dumps_checked_against_the_schema, random_state, states


@pytest.fixture(autouse=True, scope="module")
def _every_dump_matches_the_schema() -> Iterator[None]:
    with dumps_checked_against_the_schema():
        yield


SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_view_of_a_new_game() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    seen = sr.view(state, 1)
    assert seen.seat == 1 and seen.variant_id == "shanghai"
    assert seen.hand == state.hand(1)
    assert seen.hand_sizes == (11, 11, 11, 11)
    assert seen.upcard == state.upcard and seen.discard_pile == state.discard_pile
    assert seen.stock_size == state.stock_size
    assert seen.totals == (0, 0, 0, 0) and seen.results == ()
    assert seen.phase is sr.Phase.DRAW and seen.to_act == 1 and seen.turn == 1
    assert seen.deal_number == 1 and seen.deal_count == 10 and seen.dealer == 0
    assert seen.requirement == sr.Contract(sets=(3, 3))
    assert seen.buys_used == (0, 0, 0, 0) and seen.buys_left == (3, 3, 3, 3)
    assert seen.down == (False,) * 4 and seen.table == ()
    assert seen.legal_actions == sr.legal_actions(state) and seen.is_my_turn
    assert sr.view(state, 0).legal_actions == () and not sr.view(state, 0).is_my_turn


def test_buyer_sees_its_offer() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    offered = sr.draw(state, 1, sr.Source.STOCK)
    assert offered.phase is sr.Phase.BUY
    buyer = offered.to_act
    assert buyer is not None and buyer != 1
    assert sr.view(offered, buyer).legal_actions == (sr.Buy(buyer), sr.PassBuy(buyer))
    assert sr.view(offered, 1).legal_actions == ()
    assert sr.view(offered, 1).turn == 1 and sr.view(offered, 1).to_act == buyer


def test_buys_left_follow_the_limit() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    seats = list(state.seats)
    seats[2] = attrs.evolve(seats[2], buys=2)
    seen = sr.view(attrs.evolve(state, seats=tuple(seats)), 0)
    assert seen.buys_used == (0, 0, 2, 0) and seen.buys_left == (3, 3, 1, 3)
    rummy = sr.view(sr.new_game(sr.get_variant("rummy51"), players=2, seed=1), 0)
    assert rummy.buys_left == (0, 0)  # no buying in Rummy 51


def test_contract_follows_the_deal() -> None:
    state = random_state("shanghai", 3, 4, 2000)
    assert state.deal_number > 1
    variant = state.variant
    assert sr.view(state, 0).requirement == variant.deal(state.deal_number).requirement


def test_between_deals_nobody_acts_and_results_are_shown() -> None:
    state = random_state("shanghai", 3, 8, 400)
    while state.phase is not sr.Phase.DEAL_OVER:
        state = sr.apply(state, sr.legal_actions(state)[0])
    for seat in range(3):
        seen = sr.view(state, seat)
        assert seen.legal_actions == () and seen.to_act is None
        assert seen.results == state.results and seen.totals == state.totals


def test_unknown_seat_is_refused() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    for seat in (-1, 3, True, "1"):
        with pytest.raises(sr.RummyError, match="no seat"):
            sr.view(state, seat)  # type: ignore[arg-type]


def hide_differently(state: sr.GameState, seat: int, rng: random.Random) -> sr.GameState:
    """The same state with the cards ``seat`` cannot see (other hands, the stock) dealt
    again at random, every hand keeping its size."""
    hidden = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    hidden += state.stock
    rng.shuffle(hidden)
    hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[: len(hand)]))
            hidden = hidden[len(hand) :]
    return attrs.evolve(state, hands=tuple(hands), stock=tuple(hidden))


@SETTINGS
@given(state=states, seat=st.integers(min_value=0, max_value=7), seed=st.integers(0, 1000))
def test_hidden_cards_do_not_change_the_view(state: sr.GameState, seat: int, seed: int) -> None:
    seat %= state.num_players
    other = hide_differently(state, seat, random.Random(seed))
    # Still a valid state: only hidden cards moved; except that the seat in turn, halfway
    # through going down, obliged to go down (it took the upcard), to meld a joker it swapped
    # or to go out, may be dealt a hand that cannot do it (no legal move).
    turn = state.turn_state
    owes = (
        turn.going_down or turn.must_go_down or turn.jokers_to_meld or turn.must_go_out is not None
    )
    if not (owes and state.to_act != seat):
        sr.validate(other)
    assert sr.view(other, seat) == sr.view(state, seat)
    assert sr.to_json(sr.view(other, seat)) == sr.to_json(sr.view(state, seat))


@SETTINGS
@given(state=states)
def test_views_survive_json_and_match_the_schema(state: sr.GameState) -> None:
    for seat in range(state.num_players):
        seen = sr.view(state, seat)
        text = sr.to_json(seen)
        assert_schema_valid(json.loads(text))
        assert sr.from_json(text, sr.PlayerView) == seen
        data = json.loads(text)["data"]
        assert "stock" not in data and "hands" not in data


def test_forged_view_is_refused() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=2)
    document = sr.to_dict(sr.view(state, 0))
    document["data"]["hand_sizes"] = [11, 11]
    with pytest.raises(sr.SerializationError, match=r"\$\.data\.hand_sizes: needs one entry"):
        sr.from_dict(document, sr.PlayerView)
    document["data"]["hand_sizes"] = [10, 11, 11]
    with pytest.raises(sr.SerializationError, match=r"\$\.data\.hand_sizes\[0\]"):
        sr.from_dict(document, sr.PlayerView)
