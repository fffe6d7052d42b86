"""sr.SearchBot: determinized search over sampled states with GreedyBot rollouts, at the
buys GreedyBot's size rule turns down and the takes it leaves once down."""

from __future__ import annotations

from collections.abc import Callable, Iterator

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


def decisions_reached(
    preset: str, phase: sr.Phase, eager: sr.GreedyBot, seeds: range, horizon: int
) -> Iterator[tuple[int, sr.Action, sr.Action, sr.Action, int]]:
    """Each decision of ``phase`` reached in bot games: the seat, GreedyBot's move, the eager
    GreedyBot's, a SearchBot's and how many decisions it searched (0 or 1)."""
    variant = sr.get_variant(preset)
    for seed in seeds:
        for state in bot_play(preset, 4, seed, 400):
            seat = state.to_act
            if state.phase is not phase or seat is None:
                continue
            seen = sr.view(state, seat)
            bot = sr.SearchBot(variant, simulations=2, horizon=horizon, seed=1)
            move = bot.choose(seen)
            yield seat, sr.GreedyBot(variant).choose(seen), eager.choose(seen), move, bot.searches


def turned_down_buy(seat: int) -> tuple[sr.Action, sr.Action]:
    """GreedyBot's pass and the eager GreedyBot's buy."""
    return sr.PassBuy(seat), sr.Buy(seat)


def left_take(seat: int) -> tuple[sr.Action, sr.Action]:
    """GreedyBot's draw from the stock and the eager GreedyBot's take (a seat that is down)."""
    return sr.Draw(seat, sr.Source.STOCK), sr.Draw(seat, sr.Source.DISCARD)


@pytest.mark.parametrize(
    ("preset", "phase", "take_to_build", "seeds", "contested_pair"),
    [
        ("shanghai", sr.Phase.BUY, False, range(1, 6), turned_down_buy),
        ("rummy51", sr.Phase.DRAW, True, range(1, 9), left_take),
    ],
    ids=["the buys the size rule turns down", "the takes that make a new group once down"],
)
def test_it_searches_exactly_where_the_eager_greedy_bot_differs(
    preset: str,
    phase: sr.Phase,
    take_to_build: bool,
    seeds: range,
    contested_pair: Callable[[int], tuple[sr.Action, sr.Action]],
) -> None:
    eager = sr.GreedyBot(sr.get_variant(preset), buy_slack=1000, take_to_build=take_to_build)
    agreed = contested = 0
    for seat, greedy, bolder, move, searches in decisions_reached(preset, phase, eager, seeds, 20):
        if bolder == greedy:
            assert (move, searches) == (greedy, 0)
            agreed += 1
        else:
            assert (greedy, bolder) == contested_pair(seat)
            assert move in (bolder, greedy) and searches == 1
            contested += 1
        if agreed and contested:
            return
    pytest.fail(f"not both kinds were reached: {agreed} agreed, {contested} contested")


def test_without_take_in_its_decisions_it_draws_as_the_greedy_bot() -> None:
    variant = sr.get_variant("rummy51")
    for state in bot_play("rummy51", 4, 3, 200):
        if state.phase is sr.Phase.DRAW and state.to_act is not None:
            seen = sr.view(state, state.to_act)
            bot = sr.SearchBot(variant, simulations=2, horizon=10, decisions=["buy"])
            assert (bot.choose(seen), bot.searches) == (sr.GreedyBot(variant).choose(seen), 0)


def test_the_draw_and_the_discard_are_searched_only_when_asked() -> None:
    variant = sr.get_variant("shanghai")
    for state in bot_play("shanghai", 4, 2, 300):
        if state.phase is not sr.Phase.PLAY or state.to_act is None:
            continue
        seen = sr.view(state, state.to_act)
        if isinstance(sr.GreedyBot(variant).choose(seen), sr.Discard):
            quiet = sr.SearchBot(variant, simulations=2, horizon=10)
            asked = sr.SearchBot(variant, simulations=2, horizon=10, decisions=["discard"])
            quiet.choose(seen), asked.choose(seen)
            assert (quiet.searches, asked.searches) == (0, 1)
            return
    pytest.fail("no discard was reached")  # pragma: no cover


def test_the_draw_is_searched_where_the_upcard_is_near_the_hand() -> None:
    variant = sr.get_variant("shanghai")
    near = far = 0
    for state in bot_play("shanghai", 4, 3, 400):
        if state.phase is not sr.Phase.DRAW or state.to_act is None or state.upcard is None:
            continue
        seen = sr.view(state, state.to_act)
        bot = sr.SearchBot(variant, simulations=2, horizon=10, decisions=["draw"])
        assert bot.choose(seen) in seen.legal_actions
        if seen.down[state.to_act] or state.upcard.rank is sr.Rank.ACE:
            continue  # once down, near is "lays off"; an ace may neighbour a 2
        shares = any(
            card.rank is state.upcard.rank
            or (card.suit is state.upcard.suit and abs(card.rank - state.upcard.rank) <= 2)
            for card in seen.hand
            if card.rank is not None and state.upcard.rank is not None
        )
        if state.upcard.is_joker or shares:
            near += bot.searches
        else:
            assert bot.searches == 0
            far += 1
        if near and far:
            return
    pytest.fail(f"near upcards searched {near} times, {far} far ones")  # pragma: no cover


@pytest.mark.parametrize("decisions", ["buy", ["buy", "go down"]])
def test_decisions_must_be_known_kinds(decisions: object) -> None:
    with pytest.raises(sr.RummyError, match="decisions"):
        sr.SearchBot(decisions=decisions)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["simulations", "max_candidates", "horizon"])
def test_a_budget_must_be_a_positive_integer(field: str) -> None:
    with pytest.raises(sr.RummyError, match=field):
        sr.SearchBot(**{field: 0})  # type: ignore[arg-type]


def test_a_spectator_has_no_decision_to_make() -> None:
    state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=1)
    with pytest.raises(sr.RummyError, match="no decision"):
        sr.SearchBot().choose(sr.view(state, None))
