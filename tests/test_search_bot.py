"""sr.SearchBot: determinized search over sampled states with GreedyBot rollouts."""

from __future__ import annotations

import pytest

import shanghai_rummy as sr

from .bot_games import bot_play


def play_deal(bots: list[sr.Bot], seed: int) -> sr.GameState:
    state = sr.new_game(sr.get_variant("shanghai"), players=len(bots), seed=seed)
    while state.to_act is not None:
        seat = state.to_act
        action = bots[seat].choose(sr.view(state, seat))
        assert action in sr.legal_actions(state)
        state = sr.apply(state, action)
    return state


def test_a_search_bot_plays_a_whole_deal_with_legal_moves_and_is_seeded() -> None:
    variant = sr.get_variant("shanghai")

    def bots() -> list[sr.Bot]:
        return [sr.SearchBot(variant, simulations=4, horizon=30, seed=3), sr.GreedyBot(variant)]

    first, again = play_deal(bots(), 11), play_deal(bots(), 11)
    assert first.phase is sr.Phase.DEAL_OVER
    assert first.history == again.history


def test_it_follows_the_greedy_bot_where_it_goes_down_or_lays_off() -> None:
    variant = sr.get_variant("shanghai")
    checked = 0
    for state in bot_play("shanghai", 4, 4, 300):
        if state.phase is not sr.Phase.PLAY or state.to_act is None:
            continue
        seen = sr.view(state, state.to_act)
        greedy = sr.GreedyBot(variant).choose(seen)
        if isinstance(greedy, sr.Meld | sr.LayOff):
            assert sr.SearchBot(variant, simulations=2, horizon=10).choose(seen) == greedy
            checked += 1
            if checked == 3:
                return
    pytest.fail("no going down or lay-off was reached")  # pragma: no cover


@pytest.mark.parametrize("field", ["simulations", "max_candidates", "horizon"])
def test_a_budget_must_be_a_positive_integer(field: str) -> None:
    with pytest.raises(sr.RummyError, match=field):
        sr.SearchBot(**{field: 0})  # type: ignore[arg-type]


def test_a_spectator_has_no_decision_to_make() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    with pytest.raises(sr.RummyError, match="no decision"):
        sr.SearchBot().choose(sr.view(state, None))
