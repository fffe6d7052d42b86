"""Placings in the outcome (issue 24, 11): every seat's place, 1st to nth, ties sharing one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.simulate import deal_footer, play_game

totals = st.lists(st.integers(min_value=-500, max_value=5000), min_size=2, max_size=10)


@given(totals)
def test_placings_rank_every_seat_with_ties_sharing_a_place(scores: list[int]) -> None:
    outcome = sr.Outcome.from_totals(scores)
    for seat, place in enumerate(outcome.placings):
        assert place == 1 + sum(other < scores[seat] for other in scores)
        assert (place == 1) == (seat in outcome.winners)
    placed = [seat for seats in outcome.standings for seat in seats]
    assert sorted(placed) == list(range(len(scores)))
    ordered = [scores[seats[0]] for seats in outcome.standings]
    assert ordered == sorted(set(scores))


def test_a_tie_for_second_skips_third() -> None:
    outcome = sr.Outcome.from_totals((30, 10, 30, 50))
    assert outcome.placings == (2, 1, 2, 4)
    assert outcome.standings == ((1,), (0, 2), (3,))


def test_the_game_over_lines_give_every_place() -> None:
    variant = sr.get_variant("shanghai")
    bots = [sr.GreedyBot(variant) for _ in range(3)]
    state = play_game(sr.new_game(variant, players=3, seed=5), bots)
    outcome = state.outcome
    assert outcome is not None
    last = deal_footer(state)[-1]
    assert last.startswith("Places: 1st ")
    for seat, total in enumerate(outcome.totals):
        assert f"seat {seat}" in last and f"({total})" in last
