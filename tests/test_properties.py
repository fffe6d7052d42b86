"""Hypothesis properties of the engine: card conservation, one seat to act, totals move only
at a deal's end, a finished game stays finished, and legal_actions agrees with apply."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import shanghai_rummy as sr

from .games import random_state
from .helpers import all_cards, pack_of

PRESETS = ["shanghai", "shanghai-wiki", "shanghai-camping", "rummy51"]


def check_invariants(state: sr.GameState) -> None:
    assert all_cards(state) == pack_of(state)
    if state.phase in (sr.Phase.DEAL_OVER, sr.Phase.GAME_OVER):
        assert state.to_act is None
        assert state.totals == tuple(map(sum, zip(*(r.points for r in state.results), strict=True)))
    else:
        assert state.to_act is not None and 0 <= state.to_act < state.num_players
        if state.phase is not sr.Phase.BUY:
            assert state.to_act == state.turn


class RandomPlay(RuleBasedStateMachine):
    """Plays random legal moves (and, between deals, the next deal) in every preset."""

    def __init__(self) -> None:
        super().__init__()
        self.state: sr.GameState

    @initialize(
        variant_id=st.sampled_from(PRESETS),
        players=st.integers(min_value=2, max_value=5),
        seed=st.integers(min_value=0, max_value=10_000),
    )
    def start(self, variant_id: str, players: int, seed: int) -> None:
        variant = sr.get_variant(variant_id)
        players = min(max(players, variant.min_players), variant.max_players)
        self.state = sr.new_game(variant, players=players, seed=seed)

    @precondition(lambda self: self.state.to_act is not None)
    @rule(choice=st.randoms(use_true_random=False))
    def play_a_legal_move(self, choice: random.Random) -> None:
        before = self.state
        actions = sr.legal_actions(before)
        assert actions, (
            f"no legal action: {before.variant.id} phase {before.phase} seat {before.to_act} "
            f"hand {[str(c) for c in before.hand(before.turn)]} {before.turn_state} "
            f"table {[str(m) for m in before.table]}"
        )
        action = choice.choice(actions)
        after = sr.apply(before, action)
        if after.phase not in (sr.Phase.DEAL_OVER, sr.Phase.GAME_OVER):
            assert after.totals == before.totals
        assert after.history[-1] == action
        self.state = after

    @precondition(lambda self: self.state.phase is sr.Phase.DEAL_OVER)
    @rule()
    def deal_next(self) -> None:
        before = self.state
        self.state = sr.next_deal(before)
        assert self.state.deal_number == before.deal_number + 1
        assert self.state.totals == before.totals

    @precondition(lambda self: self.state.phase is sr.Phase.GAME_OVER)
    @rule()
    def finished_stays_finished(self) -> None:
        assert sr.legal_actions(self.state) == ()
        with pytest.raises(sr.WrongPhaseError):
            sr.next_deal(self.state)
        assert self.state.outcome is not None

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "state"):
            check_invariants(self.state)

    @invariant()
    def a_half_laid_going_down_is_finished_before_the_turn_ends(self) -> None:
        """Random play lays going down a group at a time, so it reaches half-laid states:
        there the seat owes the rest, may not discard, and is listed only moves toward it."""
        state = getattr(self, "state", None)
        if state is None or not state.turn_state.going_down or state.is_down(state.turn):
            return
        assert state.phase is sr.Phase.PLAY and state.turn_state.must_go_down is not None
        listed = sr.legal_actions(state)
        assert listed and all(isinstance(a, (sr.Meld, sr.SwapJoker)) for a in listed)
        sr.validate(state)


RandomPlay.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomPlay = RandomPlay.TestCase


def _unlisted_candidates(state: sr.GameState, rng: random.Random) -> list[sr.Action]:
    """Plausible actions for every seat, most of them illegal."""
    seats = range(state.num_players)
    candidates: list[sr.Action] = []
    for seat in seats:
        hand = state.hand(seat)
        candidates += [sr.Draw(seat, sr.Source.STOCK), sr.Draw(seat, sr.Source.DISCARD)]
        candidates += [sr.Buy(seat), sr.PassBuy(seat)]
        for card in set(hand) | {sr.JOKER, sr.Card.parse("AS")}:
            candidates.append(sr.Discard(seat, card))
            for table_meld in state.table:
                candidates.append(sr.LayOff(seat, card, table_meld.id))
                candidates.append(sr.LayOff(seat, card, table_meld.id, "low"))
                candidates.append(sr.SwapJoker(seat, card, table_meld.id))
            candidates.append(sr.LayOff(seat, card, 99))
        if len(hand) >= 3:
            picked = rng.sample(hand, 3)
            candidates.append(sr.Meld(seat, [picked]))
    return candidates


@settings(max_examples=60, deadline=None)
@given(
    variant_id=st.sampled_from(PRESETS),
    seed=st.integers(min_value=0, max_value=100_000),
    steps=st.integers(min_value=0, max_value=150),
)
def test_legal_actions_agree_with_apply(variant_id: str, seed: int, steps: int) -> None:
    state = random_state(variant_id, 4, seed, steps)
    listed = set(sr.legal_actions(state))
    for action in listed:
        after = sr.apply(state, action)
        check_invariants(after)
    assert_unlisted_refused(state, listed, _unlisted_candidates(state, random.Random(seed)))


def assert_unlisted_refused(
    state: sr.GameState, listed: set[sr.Action], candidates: list[sr.Action]
) -> None:
    """Every one of ``candidates`` that ``listed`` (the legal actions) leaves out is refused
    by apply; a Meld only where it names the kinds of its groups (unnamed ones are not in
    canonical form)."""
    for action in candidates:
        if action in listed or (isinstance(action, sr.Meld) and not action.kinds):
            continue
        if isinstance(action, sr.LayOff) and attrs.evolve(action, end=None) in listed:
            continue  # the same lay-off, its end stated where only one end fits
        try:
            sr.apply(state, action)
        except sr.IllegalMoveError:
            continue
        raise AssertionError(f"{sr.format_action(action)} is not listed but apply accepted it")
