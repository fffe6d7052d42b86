"""Bots: the protocol, RandomBot, and what GreedyBot does in each situation."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy.simulate import simulate

from .bot_games import bot_play

C = sr.Card.parse
cards = sr.parse_cards
SHANGHAI = sr.get_variant("shanghai")


def deal(
    hands: list[str],
    *,
    upcard: str | None = None,
    stock_top: str = "",
    variant: sr.Variant = SHANGHAI,
    deal_number: int = 1,
) -> sr.GameState:
    """A stacked deal, dealer seat 0 (so seat 1 plays first)."""
    return sr.deal_from(
        variant,
        hands=[cards(hand) for hand in hands],
        upcard=None if upcard is None else C(upcard),
        stock_top=cards(stock_top),
        deal_number=deal_number,
    )


def lay_down(state: sr.GameState, seat: int, *groups: str) -> sr.GameState:
    """Move ``groups`` from the seat's hand to the table as its melds; the seat is down."""
    hand = list(state.hand(seat))
    table = list(state.table)
    for text in groups:
        group = cards(text)
        for card in group:
            hand.remove(card)
        table.append(
            sr.make_table_meld(state.next_meld_id + len(table), seat, group, state.variant)
        )
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    seats = list(state.seats)
    seats[seat] = attrs.evolve(seats[seat], down=True)
    return attrs.evolve(
        state,
        hands=tuple(hands),
        table=tuple(table),
        seats=tuple(seats),
        next_meld_id=state.next_meld_id + len(table),
    )


def greedy_choice(state: sr.GameState, bot: sr.GreedyBot | None = None) -> sr.Action:
    seat = state.to_act
    assert seat is not None
    return (bot or sr.GreedyBot(state.variant)).choose(sr.view(state, seat))


# -- the protocol and RandomBot --------------------------------------------------------------


def test_both_bots_are_bots() -> None:
    assert isinstance(sr.RandomBot(), sr.Bot)
    assert isinstance(sr.GreedyBot(), sr.Bot)
    assert not isinstance("greedy", sr.Bot)


def test_random_bot_is_legal_and_repeatable() -> None:
    def moves(seed: int) -> list[sr.Action]:
        state = sr.new_game(SHANGHAI, players=3, seed=4)
        bot = sr.RandomBot(seed)
        played = []
        for _ in range(60):
            seat = state.to_act
            assert seat is not None
            seen = sr.view(state, seat)
            action = bot.choose(seen)
            assert action in seen.legal_actions
            played.append(action)
            state = sr.apply(state, action)
            if state.to_act is None:
                break
        return played

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)
    assert repr(sr.RandomBot(5)) == "RandomBot(seed=5)"


@pytest.mark.parametrize("bot", [sr.RandomBot(), sr.GreedyBot(SHANGHAI)])
def test_a_bot_asked_out_of_turn_refuses(bot: sr.Bot) -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=7)
    with pytest.raises(sr.RummyError, match="seat 2 has no decision to make: seat 1 is to act"):
        bot.choose(sr.view(state, 2))


# -- GreedyBot ---------------------------------------------------------------------------------


def test_greedy_finds_its_variant_by_id_and_refuses_another() -> None:
    state = sr.new_game(sr.get_variant("rummy51"), players=3, seed=1)
    assert sr.GreedyBot().choose(sr.view(state, 1)) in sr.legal_actions(state)
    with pytest.raises(sr.RummyError, match="plays variant 'shanghai', not 'rummy51'"):
        sr.GreedyBot(SHANGHAI).choose(sr.view(state, 1))
    assert repr(sr.GreedyBot(SHANGHAI, max_buys=1)) == (
        "GreedyBot(variant='shanghai', max_buys=1, buy_slack=2)"
    )


def test_greedy_bots_judge_hands_under_one_relaxed_variant() -> None:
    # every bot measures hands with the same variant object, so they share the solver's tables
    from shanghai_rummy.bots import _relaxed

    relaxed = _relaxed(SHANGHAI)
    assert _relaxed(SHANGHAI) is relaxed
    assert not relaxed.jokers.at_most_naturals
    assert SHANGHAI.jokers.at_most_naturals  # the game's own variant is untouched
    assert attrs.evolve(relaxed, jokers=SHANGHAI.jokers) == SHANGHAI
    other = attrs.evolve(SHANGHAI)
    assert _relaxed(other) is not relaxed


def test_a_greedy_bot_judges_alike_after_the_shared_relaxed_variants_are_let_go() -> None:
    from shanghai_rummy import bots

    state = sr.new_game(SHANGHAI, players=3, seed=5)
    bot = sr.GreedyBot(SHANGHAI)
    first = bot.choose(sr.view(state, state.to_act))
    judged = list(bot._judged_under.values())
    assert judged
    bots._RELAXED.clear()  # as when more than 64 variants have been played
    assert bot.choose(sr.view(state, state.to_act)) == first
    assert all(variant in bot._judged_under.values() for variant in judged)  # still held
    assert sr.GreedyBot(SHANGHAI).choose(sr.view(state, state.to_act)) == first


def test_greedy_takes_an_upcard_that_helps_and_draws_otherwise() -> None:
    hand = "8C 8D 9H 9S 4C 6D 10H QS KC 3S 5H"
    assert greedy_choice(deal(["2C", hand], upcard="8H")) == sr.Draw(1, sr.Source.DISCARD)
    assert greedy_choice(deal(["2C", hand], upcard="7C")) == sr.Draw(1, sr.Source.STOCK)


def test_greedy_goes_down_in_one_turn_with_the_most_cards_a_group_at_a_time() -> None:
    state = deal(["2C", "8C 8D 8H 8S 9C 9D 9H KS QD 3C 5H"], stock_top="7D")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    bot = sr.GreedyBot(SHANGHAI)
    first = bot.choose(sr.view(state, 1))
    assert first == sr.Meld(1, [cards("8C 8D 8H 8S")])
    state = sr.apply(state, first)
    assert not state.is_down(1) and state.turn_state.going_down == (state.table[-1].id,)
    second = bot.choose(sr.view(state, 1))
    assert second == sr.Meld(1, [cards("9C 9D 9H")])
    state = sr.apply(state, second)
    assert state.is_down(1) and state.turn_state.must_go_down is None
    # a fresh bot on the half-laid state lays a listed group that finishes it
    assert (
        sr.GreedyBot(SHANGHAI).choose(
            sr.view(
                sr.apply(
                    sr.apply(
                        deal(["2C", "8C 8D 8H 8S 9C 9D 9H KS QD 3C 5H"], stock_top="7D"),
                        sr.Draw(1, sr.Source.STOCK),
                    ),
                    first,
                ),
                1,
            )
        )
        == second
    )


def test_greedy_lays_off_everything_it_can_then_discards() -> None:
    state = deal(["4S 5S 6S 7S 9D 9H 9C 2H", "8C 8D 8H 10C 10D 10H 3S 9S KD 3C 5H"], stock_top="7D")
    state = lay_down(state, 0, "4S 5S 6S 7S", "9D 9H 9C")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    bot = sr.GreedyBot(SHANGHAI)
    played = []
    while state.to_act == 1 and state.phase is sr.Phase.PLAY:
        action = greedy_choice(state, bot)
        played.append(sr.format_action(action))
        state = sr.apply(state, action)
    assert played[:2] == ["meld 8C 8D 8H", "meld 10C 10D 10H"]  # a group at a time
    assert sorted(played[2:4]) == ["layoff 3S 1", "layoff 9S 2"]
    assert played[4:] == ["discard KD"]


def test_greedy_swaps_a_joker_when_down() -> None:
    state = deal(["3S 4S JK 6S 9D 9H 9C 2H", "8C 8D 8H 5S KD 3C 7H QC 10D 4H JC"], stock_top="QH")
    state = lay_down(state, 0, "3S 4S JK 6S", "9D 9H 9C")
    state = lay_down(state, 1, "8C 8D 8H")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    assert greedy_choice(state) == sr.SwapJoker(1, C("5S"), 1)


def test_greedy_swaps_a_joker_to_go_down_even_with_every_card() -> None:
    # 3 runs of 4 after the swap use all twelve cards: going down is going out. Wherever
    # legal_actions leaves that going down out, the bot still finds it (see GreedyBot).
    state = deal(
        ["3S 4S JK 6S 9D 9H 9C 2H", "2D 3D 4D 5D 9S 10S JS QS 8H 9H JH"],
        stock_top="5S",
        deal_number=7,
    )
    state = lay_down(state, 0, "3S 4S JK 6S")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    bot = sr.GreedyBot(SHANGHAI)
    swap = greedy_choice(state, bot)
    assert swap == sr.SwapJoker(1, C("5S"), 1)
    state = sr.apply(state, swap)
    while state.phase is sr.Phase.PLAY:  # the three runs, a group at a time
        going_down = greedy_choice(state, bot)
        assert isinstance(going_down, sr.Meld) and len(going_down.groups) == 1
        state = sr.apply(state, going_down)
    assert state.phase is sr.Phase.DEAL_OVER
    assert sr.score(state).winner == 1


def test_greedy_buys_an_upcard_that_helps_within_its_limits() -> None:
    hands = ["2C 3D", "4C 6D 10H QS KC 3S 5H 7C 9D JH KS", "8C 8D 9H 9S 9C 4C 6D 10H QS KC 3S"]
    state = sr.apply(deal(hands, upcard="8H"), sr.Draw(1, sr.Source.STOCK))
    assert state.phase is sr.Phase.BUY and state.to_act == 2
    assert greedy_choice(state) == sr.Buy(2)
    assert greedy_choice(state, sr.GreedyBot(SHANGHAI, max_buys=0)) == sr.PassBuy(2)
    state = sr.apply(deal(hands, upcard="7S"), sr.Draw(1, sr.Source.STOCK))
    assert greedy_choice(state) == sr.PassBuy(2)


def test_greedy_buys_beyond_the_contracts_size_only_within_its_buy_slack() -> None:
    # the 8H pairs the 8C (one card fewer missing) without completing the contract, and
    # 11 cards + 3 exceed the 6 cards of two sets by more than 2
    hands = ["2C 3D", "4C 6D 10H QS KC 3S 5H 7C 9D JH KS", "8C 9H 9S 4C 6D 10H QS KC 3S 2D 5H"]
    state = sr.apply(deal(hands, upcard="8H"), sr.Draw(1, sr.Source.STOCK))
    assert greedy_choice(state) == sr.PassBuy(2)
    assert greedy_choice(state, sr.GreedyBot(SHANGHAI, buy_slack=8)) == sr.Buy(2)
    assert greedy_choice(state, sr.GreedyBot(SHANGHAI, buy_slack=7)) == sr.PassBuy(2)
    with pytest.raises(sr.RummyError, match="buy_slack"):
        sr.GreedyBot(SHANGHAI, buy_slack=-1)


def test_greedy_discards_the_highest_card_that_helps_least() -> None:
    state = deal(["2C", "8C 8D 9H 9S 4C 4D 6S 6H 7S 7H KH"], stock_top="3D")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    assert greedy_choice(state) == sr.Discard(1, C("KH"))


def test_greedy_keeps_its_jokers() -> None:
    state = deal(["2C", "JK AS AH KD QC 10S 9H 7D 5C 4S 3H"], stock_top="2D")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    choice = greedy_choice(state)
    assert isinstance(choice, sr.Discard) and not choice.card.is_joker


def test_greedy_keeps_the_card_that_fits_when_it_may_not_go_out_by_discarding() -> None:
    state = deal(["4S 5S 6S 7S 9D 9H 9C 2H", "8C 8D 8H 7H"], stock_top="3S")
    state = lay_down(state, 0, "4S 5S 6S 7S", "9D 9H 9C")
    state = lay_down(state, 1, "8C 8D 8H")
    state = sr.apply(state, sr.Draw(1, sr.Source.STOCK))
    # 3S fits the run but 7H fits nothing: laying off 3S would leave a card it can neither
    # play nor discard (going out needs every card played), so it discards 7H and keeps 3S.
    assert greedy_choice(state) == sr.Discard(1, C("7H"))


@pytest.mark.parametrize(
    ("preset", "players"),
    [("shanghai", 4), ("shanghai-wiki", 3), ("shanghai-camping", 3), ("rummy51", 4)],
)
def test_greedy_bots_finish_deals_with_a_winner(preset: str, players: int) -> None:
    summary = simulate(sr.get_variant(preset), players=players, games=1, seed=3, deals=3)
    assert summary.deals == 3
    assert summary.deals_with_winner >= 2


@pytest.mark.parametrize("preset", ["shanghai", "shanghai-camping", "rummy51"])
def test_greedy_always_answers_with_a_legal_action(preset: str) -> None:
    variant = sr.get_variant(preset)
    bots: list[sr.Bot] = [sr.GreedyBot(variant), sr.RandomBot(1), sr.GreedyBot(variant)]
    state = sr.new_game(variant, players=3, seed=5)
    kinds: Counter[str] = Counter()
    for _ in range(400):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.phase is sr.Phase.GAME_OVER:
            break
        seat = state.to_act
        assert seat is not None
        seen = sr.view(state, seat)
        action = bots[seat].choose(seen)
        if seen.legal_actions:
            assert action in seen.legal_actions
        kinds[type(action).__name__] += 1
        state = sr.apply(state, action)
    assert kinds["Meld"] > 0 and kinds["Discard"] > 0


def _makes_a_group(card: sr.Card, hand: tuple[sr.Card, ...], variant: sr.Variant) -> bool:
    naturals = [other for other in hand if not other.is_joker]
    for index, first in enumerate(naturals):
        for second in naturals[index + 1 :]:
            try:
                sr.check_group((first, second, card), variant)
            except sr.RummyError:
                continue
            return True
    return False


def test_greedy_takes_an_upcard_that_makes_a_new_group_once_down_only_with_take_to_build() -> None:
    variant = sr.get_variant("rummy51")
    plain, builder = sr.GreedyBot(variant), sr.GreedyBot(variant, take_to_build=True)
    differed = agreed = 0
    for seed in range(1, 9):
        for state in bot_play("rummy51", 4, seed, 300):
            seat = state.to_act
            if state.phase is not sr.Phase.DRAW or seat is None or state.upcard is None:
                continue
            seen = sr.view(state, seat)
            mine, theirs = builder.choose(seen), plain.choose(seen)
            if mine == theirs:
                agreed += 1
                continue
            # it differs only by taking, once down, an upcard that makes a new group
            assert (mine, theirs) == (
                sr.Draw(seat, sr.Source.DISCARD),
                sr.Draw(seat, sr.Source.STOCK),
            )
            assert seen.down[seat] and _makes_a_group(state.upcard, seen.hand, variant)
            differed += 1
        if differed >= 2 and agreed:
            break
    assert differed >= 2 and agreed


def test_take_to_build_changes_nothing_where_a_player_down_lays_no_new_groups() -> None:
    builder = sr.GreedyBot(SHANGHAI, take_to_build=True)
    for state in bot_play("shanghai", 4, 5, 400):
        if state.to_act is not None:
            seen = sr.view(state, state.to_act)
            assert builder.choose(seen) == sr.GreedyBot(SHANGHAI).choose(seen)


def test_take_to_build_is_a_bool_and_shown_when_set() -> None:
    assert "take_to_build=True" in repr(sr.GreedyBot(SHANGHAI, take_to_build=True))
    assert "take_to_build" not in repr(sr.GreedyBot(SHANGHAI))
    with pytest.raises(sr.RummyError, match="take_to_build"):
        sr.GreedyBot(SHANGHAI, take_to_build=1)  # type: ignore[arg-type]
