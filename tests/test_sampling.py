"""sr.sample_state: a full state consistent with one seat's view and its events."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr

from .bot_games import PRESETS, bot_play, bot_state


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(PRESETS),
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.integers(min_value=0, max_value=160),
    sample_seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_sample_gives_the_view_it_was_drawn_from(
    name: str, players: int, seed: int, steps: int, sample_seed: int
) -> None:
    state = bot_state(name, players, seed, steps)
    for seat in range(state.num_players):
        seen = sr.view(state, seat)
        try:
            sample = sr.sample_state(seen, seed=sample_seed)
        except sr.RummyError:
            # documented: only a deal that was re-stocked may find no placement of its cards
            assert state.restocks > 0
            continue
        assert sr.view(sample, seat) == seen
        assert sample.hand(seat) == state.hand(seat)
        sr.validate(sample)


def test_half_laid_going_downs_are_sampled_for_every_seat() -> None:
    half_laid = 0
    for seed in range(12):
        for state in bot_play("shanghai", 4, seed, 200):
            if state.turn_state.must_go_down is None or not state.turn_state.going_down:
                continue
            half_laid += 1
            for seat in range(4):
                seen = sr.view(state, seat)
                assert sr.view(sr.sample_state(seen, seed=seed), seat) == seen
    assert half_laid > 0


def test_cards_known_to_be_in_a_hand_stay_there() -> None:
    for state in bot_play("shanghai", 4, 3, 300):
        events = state.events
        if events and isinstance(events[-1], sr.TookUpcard) and state.turn != 0:
            taker, card = events[-1].seat, events[-1].card
            for sample_seed in range(5):
                sample = sr.sample_state(sr.view(state, 0), seed=sample_seed)
                assert card in sample.hand(taker)
            return
    pytest.fail("no upcard was taken")  # pragma: no cover


def test_the_seed_decides_the_hidden_cards() -> None:
    state = bot_state("shanghai", 4, 5, 40)
    seen = sr.view(state, 1)
    first, again = sr.sample_state(seen, seed=1), sr.sample_state(seen, seed=1)
    other = sr.sample_state(seen, seed=2)
    assert first == again
    assert other.hands != first.hands or other.stock != first.stock
    assert first.hand(1) == other.hand(1) == state.hand(1)


def test_a_finished_deal_shows_every_hand() -> None:
    state = next(s for s in bot_play("shanghai", 3, 1, 400) if s.phase is sr.Phase.DEAL_OVER)
    sample = sr.sample_state(sr.view(state, 0), seed=4)
    assert sample.hands == state.hands


def test_a_spectator_holds_nothing_to_sample_from() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    with pytest.raises(sr.RummyError, match="spectator"):
        sr.sample_state(sr.view(state, None))
    with pytest.raises(sr.RummyError, match="PlayerView"):
        sr.sample_state(state)  # type: ignore[arg-type]


def test_a_variant_of_ones_own_is_passed() -> None:
    import attrs

    variant = attrs.evolve(sr.get_variant("shanghai"), id="house", deal_count=2)
    state = sr.new_game(variant, players=3, seed=2)
    seen = sr.view(state, 0)
    with pytest.raises(sr.VariantError):
        sr.sample_state(seen)
    assert sr.view(sr.sample_state(seen, variant=variant), 0) == seen


def test_a_view_no_deal_could_give_is_refused() -> None:
    import attrs

    state = bot_state("shanghai", 4, 2, 60)
    seen = sr.view(state, 0)
    # a hand the events cannot have left: five jokers more than the pack holds
    forged = attrs.evolve(seen, hand=(*seen.hand, *(sr.JOKER,) * 5))
    with pytest.raises(sr.RummyError, match="not consistent"):
        sr.sample_state(forged)
    # events with no deal dealt
    with pytest.raises(sr.RummyError, match="DealStarted"):
        sr.sample_state(attrs.evolve(seen, events=sr.SeenEvents()))
    # a seat that discards a card it could never have held: a third copy of one card
    card = sr.Card.parse("KS")
    discards = [sr.Discarded(number=1000 + i, seat=1, card=card) for i in range(3)]
    forged = attrs.evolve(seen, events=sr.SeenEvents((*seen.events, *discards)))
    with pytest.raises(sr.RummyError, match="not consistent"):
        sr.sample_state(forged)
