"""Scenario tests for RULES.md §1-2 (the Shanghai presets), one per clause, named after it."""

from __future__ import annotations

import attrs
import pytest

import shanghai_rummy as sr

from .helpers import C, all_cards, cards, pack_of, short_stock, stacked, with_seat
from .positions import house, pass_offers

SHANGHAI = sr.get_variant("shanghai")
WIKI = sr.get_variant("shanghai-wiki")
CAMPING = sr.get_variant("shanghai-camping")
STOCK = sr.Source.STOCK
DISCARD = sr.Source.DISCARD


def pass_all_offers(state: sr.GameState) -> sr.GameState:
    while state.phase is sr.Phase.BUY:
        assert state.to_act is not None
        state = sr.pass_buy(state, state.to_act)
    return state


def quiet_turn(state: sr.GameState) -> sr.GameState:
    """The seat to act draws from the stock (everyone passes the upcard) and discards."""
    seat = state.to_act
    assert seat is not None
    state = pass_all_offers(sr.draw(state, seat, STOCK))
    return sr.discard(state, seat, state.hand(seat)[0])


# -- §1 the turn, the upcard, dealing -------------------------------------------------------


@pytest.mark.parametrize("variant", [SHANGHAI, WIKI, CAMPING], ids=lambda v: v.id)
def test_deal_11_cards_each_from_dealers_left_and_turn_up_the_upcard(variant: sr.Variant) -> None:
    state = sr.new_game(variant, players=4, seed=3)
    assert [len(state.hand(seat)) for seat in range(4)] == [11] * 4
    assert state.dealer == 0 and state.to_act == 1 and state.phase is sr.Phase.DRAW
    assert state.upcard is not None and len(state.discard_pile) == 1
    assert state.stock_size == variant.pack_size(4).cards - 45
    assert all_cards(state) == pack_of(state)


def test_turn_draw_then_discard_passes_to_the_left() -> None:
    state = sr.new_game(SHANGHAI, players=3, seed=1)
    state = quiet_turn(state)
    assert state.turn == 2 and state.to_act == 2
    assert len(state.hand(1)) == 11


def test_taking_the_upcard_ends_the_matter_nobody_buys() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=5)
    upcard = state.upcard
    after = sr.draw(state, 1, DISCARD)
    assert after.phase is sr.Phase.PLAY and after.to_act == 1
    assert upcard in after.hand(1) and after.upcard is None


def test_going_down_only_after_drawing() -> None:
    state = stacked(SHANGHAI, {1: cards("8C 8D 8H 9C 9D 9H 3S 4D 5H 6C 7S")}, upcard=C("KH"))
    with pytest.raises(sr.WrongPhaseError, match="phase 'draw'"):
        sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])


def test_dead_cards_the_card_beneath_a_discard_can_never_be_taken() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=9)
    first = state.upcard
    state = quiet_turn(state)
    assert state.upcard != first or state.discard_pile[-2] == first
    assert state.discard_pile[-2] == first
    taken = sr.draw(state, 2, DISCARD)
    assert taken.hand(2)[-1] == state.discard_pile[-1]


def test_not_your_turn_is_refused_and_changes_nothing() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=1)
    with pytest.raises(sr.NotYourTurnError, match="seat 1 is to act"):
        sr.draw(state, 2, STOCK)
    assert state.phase is sr.Phase.DRAW and state.to_act == 1


# -- §1 the buying protocol -----------------------------------------------------------------


def test_first_upcard_of_a_deal_can_be_bought() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=2)
    upcard = state.upcard
    offered = sr.draw(state, 1, STOCK)
    assert offered.phase is sr.Phase.BUY and offered.to_act == 2
    bought = sr.buy(offered, 2)
    assert upcard in bought.hand(2) and len(bought.hand(2)) == 14
    assert bought.buys_used(2) == 1
    assert bought.phase is sr.Phase.PLAY and bought.to_act == 1 and len(bought.hand(1)) == 12


def test_buy_penalty_cards_come_from_the_stock_before_the_in_turn_draw() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=2)
    top3 = state.stock[:3]
    bought = sr.buy(sr.draw(state, 1, STOCK), 2)
    assert bought.hand(2)[-2:] == top3[:2]
    assert bought.hand(1)[-1] == top3[2]


def test_buy_penalty_one_card_in_camping() -> None:
    state = sr.new_game(CAMPING, players=4, seed=2)
    top2 = state.stock[:2]
    bought = sr.buy(sr.draw(state, 1, STOCK), 2)
    assert len(bought.hand(2)) == 13 and bought.hand(2)[-1] == top2[0]
    assert bought.hand(1)[-1] == top2[1]


def test_all_pass_then_the_in_turn_player_draws_from_the_stock() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=2)
    top = state.stock[0]
    offered = sr.draw(state, 1, STOCK)
    assert [offered.to_act] == [2]
    state = pass_all_offers(offered)
    assert state.phase is sr.Phase.PLAY and state.hand(1)[-1] == top
    assert state.upcard is None


@pytest.mark.parametrize(
    ("variant", "buyer"), [(SHANGHAI, 1), (CAMPING, 0)], ids=["shanghai", "camping"]
)
def test_buy_priority_dealers_left_vs_in_turn_players_left(variant: sr.Variant, buyer: int) -> None:
    state = sr.new_game(variant, players=4, seed=4)
    state = quiet_turn(quiet_turn(state))  # seats 1 and 2 have played; seat 2 discarded
    assert state.to_act == 3
    offered = sr.draw(state, 3, STOCK)
    # Seats 0 and 1 both may buy. From the dealer's (seat 0's) left: seat 1 first. From the
    # in-turn seat's (seat 3's) left: seat 0 first.
    assert offered.phase is sr.Phase.BUY and offered.to_act == buyer
    assert offered.turn_state.buy_queue == ((1, 0) if buyer == 1 else (0, 1))


def test_player_cannot_buy_their_own_discard() -> None:
    state = quiet_turn(sr.new_game(SHANGHAI, players=4, seed=4))
    offered = sr.draw(state, 2, STOCK)
    assert 1 not in offered.turn_state.buy_queue
    assert 2 not in offered.turn_state.buy_queue


def test_down_player_cannot_buy() -> None:
    state = with_seat(sr.new_game(SHANGHAI, players=4, seed=4), 2, down=True)
    offered = sr.draw(state, 1, STOCK)
    assert offered.turn_state.buy_queue == (3, 0)


@pytest.mark.parametrize(("deal_number", "eligible"), [(8, False), (9, True)])
def test_buy_limit_3_in_deals_1_to_8_and_4_in_deals_9_and_10(
    deal_number: int, eligible: bool
) -> None:
    state = stacked(SHANGHAI, {}, upcard=C("KH"), deal_number=deal_number)
    state = with_seat(state, 2, buys=3)
    offered = sr.draw(state, 1, STOCK)
    assert (2 in offered.turn_state.buy_queue) is eligible


def test_buying_over_the_limit_is_refused_by_name() -> None:
    state = with_seat(sr.new_game(SHANGHAI, players=3, seed=4), 2, buys=3)
    offered = sr.draw(state, 1, STOCK)
    assert offered.turn_state.buy_queue == (0,)
    with pytest.raises(sr.BuyNotAllowedError, match=r"made 3 of its 3 buys in deal 1"):
        sr.buy(offered, 2)


@pytest.mark.parametrize(
    ("seat", "reason"),
    [
        (0, "may not buy their own discard"),
        (1, "taking it is its draw"),
        (3, "player who is down may not buy"),
    ],
)
def test_a_seat_left_out_of_the_offer_is_told_why(seat: int, reason: str) -> None:
    state = stacked(SHANGHAI, {}, upcard=C("KH"))
    state = attrs.evolve(state, turn_state=attrs.evolve(state.turn_state, discarded_by=0))
    state = with_seat(state, 3, down=True)
    offered = sr.draw(state, 1, STOCK)
    assert offered.turn_state.buy_queue == (2,)
    # docs/concepts/errors.md: BuyNotAllowedError, "the upcard is not being offered to this seat"
    with pytest.raises(sr.BuyNotAllowedError, match=reason):
        sr.buy(offered, seat)
    with pytest.raises(sr.BuyNotAllowedError, match=f"cannot pass: .*{reason}"):
        sr.pass_buy(offered, seat)


def test_a_seat_later_in_the_queue_is_told_whose_turn_it_is() -> None:
    offered = sr.draw(stacked(SHANGHAI, {}, upcard=C("KH")), 1, STOCK)
    assert offered.turn_state.buy_queue == (2, 3, 0)
    with pytest.raises(sr.NotYourTurnError, match="seat 2 is to act"):
        sr.buy(offered, 3)
    with pytest.raises(sr.NotYourTurnError, match="seat 2 is to act"):
        sr.buy(offered, 7)


def test_buy_with_the_stock_one_card_short_nobody_may_buy() -> None:
    state = short_stock(sr.new_game(SHANGHAI, players=4, seed=6), 1)
    drawn = sr.draw(state, 1, STOCK)
    assert drawn.phase is sr.Phase.PLAY and drawn.to_act == 1
    assert drawn.stock_size == 0


def test_buy_that_empties_the_stock_restocks_for_the_in_turn_draw() -> None:
    state = short_stock(sr.new_game(CAMPING, players=4, seed=6), 1)
    bought = sr.buy(sr.draw(state, 1, STOCK), 2)
    assert len(bought.hand(2)) == 13 and len(bought.hand(1)) == 12
    assert bought.restocks == 1
    assert all_cards(bought) == pack_of(bought)


def test_buy_outside_an_offer_is_refused() -> None:
    state = sr.new_game(SHANGHAI, players=4, seed=6)
    with pytest.raises(sr.BuyNotAllowedError, match="only after the seat in turn passes"):
        sr.buy(state, 2)


def _down_players_turn(variant: sr.Variant) -> sr.GameState:
    state = with_seat(sr.new_game(variant, players=4, seed=8), 2, down=True)
    return quiet_turn(state)  # seat 1 discards; seat 2 (down) is next


def test_down_players_turn_others_are_offered_the_upcard_first() -> None:
    state = _down_players_turn(SHANGHAI)
    assert state.turn == 2 and state.phase is sr.Phase.BUY
    assert state.turn_state.buy_queue == (3, 0)
    upcard = state.upcard
    bought = sr.buy(state, 3)
    assert upcard in bought.hand(3)
    assert bought.phase is sr.Phase.DRAW and bought.to_act == 2 and bought.upcard is None
    assert sr.legal_actions(bought) == (sr.Draw(2, STOCK),)
    with pytest.raises(sr.DrawError, match="no upcard"):
        sr.draw(bought, 2, DISCARD)


def test_down_players_turn_takes_the_upcard_if_nobody_bought() -> None:
    state = pass_all_offers(_down_players_turn(SHANGHAI))
    assert state.phase is sr.Phase.DRAW and state.to_act == 2 and state.upcard is not None
    upcard = state.upcard
    taken = sr.draw(state, 2, DISCARD)
    assert upcard in taken.hand(2)


def test_down_players_draw_from_the_stock_only_where_the_variant_says_so() -> None:
    # issue 24, house rule 6: whether a player who is down may take the upcard
    variant = house(SHANGHAI, "down-stock-only", drawing__down_players_take_upcard=False)
    state = pass_all_offers(_down_players_turn(variant))
    assert state.phase is sr.Phase.DRAW and state.to_act == 2 and state.upcard is not None
    assert sr.legal_actions(state) == (sr.Draw(2, STOCK),)
    with pytest.raises(sr.DrawError, match="down_players_take_upcard=false"):
        sr.draw(state, 2, DISCARD)
    not_down = pass_all_offers(sr.draw(sr.new_game(variant, players=4, seed=8), 1, STOCK))
    assert sr.Draw(2, DISCARD) in sr.legal_actions(sr.discard(not_down, 1, not_down.hand(1)[0]))
    with pytest.raises(sr.VariantError, match=r"buying\.down_player_may_block"):
        house(variant, "contradiction", buying__down_player_may_block=True)


def test_down_player_may_block_buy_setting() -> None:
    variant = attrs.evolve(
        SHANGHAI, buying=attrs.evolve(SHANGHAI.buying, down_player_may_block=True)
    )
    state = _down_players_turn(variant)
    assert state.phase is sr.Phase.DRAW and state.to_act == 2


# -- §1 going down, laying off, joker swaps -------------------------------------------------

GOING_DOWN = cards("8C 8D 8H 9C 9D 9H")


def _going_down_deal(variant: sr.Variant, extra: str, draw: str) -> sr.GameState:
    state = stacked(variant, {1: GOING_DOWN + cards(extra)}, upcard=C("KH"), stock_top=cards(draw))
    return pass_all_offers(sr.draw(state, 1, STOCK))


def test_going_down_with_the_contract_two_sets_of_3() -> None:
    state = _going_down_deal(SHANGHAI, "8S 5D", "QC")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    assert down.is_down(1) and len(down.table) == 2
    assert [str(card) for card in down.table[0].cards] == ["8C", "8D", "8H"]
    assert down.hand(1) == cards("8S 5D QC")


def test_going_down_needs_the_whole_contract_before_the_turn_ends() -> None:
    state = _going_down_deal(SHANGHAI, "8S 5D", "QC")
    begun = sr.meld(state, 1, [cards("8C 8D 8H")])  # the rest can still make the second set
    assert not begun.is_down(1) and begun.turn_state.must_go_down is not None
    with pytest.raises(sr.GoOutError, match="begun to go down"):
        sr.discard(begun, 1, C("QC"))
    assert sr.meld(begun, 1, [cards("9C 9D 9H")]).is_down(1)


def test_going_down_exact_meld_count_shanghai_sets_may_be_larger() -> None:
    state = _going_down_deal(SHANGHAI, "8S 5D", "QC")
    down = sr.meld(state, 1, [cards("8C 8D 8H 8S"), cards("9C 9D 9H")])
    assert len(down.table[0].cards) == 4


def test_going_down_exact_sizes_camping_refuses_a_set_of_4() -> None:
    state = _going_down_deal(CAMPING, "8S 5D", "QC")
    with pytest.raises(sr.ContractNotMetError):
        sr.meld(state, 1, [cards("8C 8D 8H 8S"), cards("9C 9D 9H")])


def test_lay_off_on_the_going_down_turn_allowed_in_shanghai() -> None:
    state = _going_down_deal(SHANGHAI, "8S 5D", "QC")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    laid = sr.lay_off(down, 1, C("8S"), down.table[0].id)
    assert len(laid.table[0].cards) == 4


def test_lay_off_on_the_going_down_turn_refused_in_camping() -> None:
    state = _going_down_deal(CAMPING, "8S 5D", "QC")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    with pytest.raises(sr.LayOffError, match="lay_off_same_turn"):
        sr.lay_off(down, 1, C("8S"), down.table[0].id)


def test_new_melds_after_going_down_refused_in_shanghai() -> None:
    state = _going_down_deal(SHANGHAI, "KC KD", "KS")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    with pytest.raises(sr.InvalidMeldError, match="new_melds=never"):
        sr.meld(down, 1, [cards("KC KD KS")])


def test_lay_off_only_after_going_down() -> None:
    state = _going_down_deal(SHANGHAI, "8S 5D", "QC")
    with pytest.raises(sr.LayOffError, match="only a player who is down"):
        sr.lay_off(state, 1, C("8S"), 1)


def test_lay_off_keeps_run_order_4c_8c_takes_3c_or_9c() -> None:
    hand = cards("4C 5C 6C 7C 8C KH KD KS 3C 9C 2D")
    state = stacked(SHANGHAI, {1: hand}, upcard=C("QH"), stock_top=cards("5S"), deal_number=2)
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    down = sr.meld(state, 1, [cards("KH KD KS"), cards("4C 5C 6C 7C 8C")])
    run_id = down.table[1].id
    low = sr.lay_off(down, 1, C("3C"), run_id)
    assert [str(c) for c in low.table[1].cards][:2] == ["3C", "4C"]
    high = sr.lay_off(low, 1, C("9C"), run_id)
    assert str(high.table[1].cards[-1]) == "9C"
    with pytest.raises(sr.LayOffError):
        sr.lay_off(high, 1, C("2D"), run_id)


def _swap_deal(variant: sr.Variant, seat1_hand: str) -> sr.GameState:
    """Seat 0 goes down with 8C 8D JK + 9S 9H 9D and discards; seat 1 is to play."""
    seat0 = cards("8C 8D 9S 9H 9D 5C 6D 7S 10C JD JK")
    given = {0: seat0, 1: cards(seat1_hand)}
    state = stacked(variant, given, upcard=C("KH"), stock_top=cards("2C 2H"), dealer=3)
    state = pass_all_offers(sr.draw(state, 0, STOCK))
    state = sr.meld(state, 0, [cards("8C 8D JK"), cards("9S 9H 9D")])
    state = sr.discard(state, 0, C("5C"))
    return pass_all_offers(sr.draw(state, 1, STOCK))


def test_joker_swap_by_a_player_not_down_obliges_going_down_that_turn() -> None:
    state = _swap_deal(SHANGHAI, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    swapped = sr.swap_joker(state, 1, C("8H"), state.table[0].id)
    assert sr.JOKER in swapped.hand(1) and C("8H") in swapped.table[0].cards
    with pytest.raises(sr.GoOutError, match="must go down this turn"):
        sr.discard(swapped, 1, C("3S"))
    down = sr.meld(swapped, 1, [cards("KC KD JK"), cards("QC QD QS")])
    assert sr.discard(down, 1, C("3S")).turn == 2


def test_joker_swap_refused_when_going_down_would_then_be_impossible() -> None:
    state = _swap_deal(SHANGHAI, "8H KC 5D QC QD 2S 3S 4D 6H 7C 10D")
    with pytest.raises(sr.JokerSwapError, match="cannot go down"):
        sr.swap_joker(state, 1, C("8H"), state.table[0].id)


def test_joker_swap_with_the_wrong_card_refused() -> None:
    state = _swap_deal(SHANGHAI, "7H KC KD QC QD QS 3S 4D 6H 7C 10D")
    with pytest.raises(sr.JokerSwapError):
        sr.swap_joker(state, 1, C("7H"), state.table[0].id)


def test_joker_swap_only_by_down_players_in_camping() -> None:
    state = _swap_deal(CAMPING, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    with pytest.raises(sr.JokerSwapError, match="down_only"):
        sr.swap_joker(state, 1, C("8H"), state.table[0].id)


def test_joker_swap_only_on_turns_after_going_down_in_camping() -> None:
    # RULES.md, shanghai-camping: "only on turns after the one they went down on" (004)
    state = _swap_deal(CAMPING, "8H KC KD KS QC QD QS 3S 4D 6H 7C")
    down = sr.meld(state, 1, [cards("KC KD KS"), cards("QC QD QS")])
    joker_meld = down.table[0].id
    assert not any(isinstance(action, sr.SwapJoker) for action in sr.legal_actions(down))
    with pytest.raises(sr.JokerSwapError, match="same_turn_as_going_down=false"):
        sr.swap_joker(down, 1, C("8H"), joker_meld)
    later = sr.discard(down, 1, C("3S"))
    for _ in range(3):  # seats 2, 3 and 0
        later = quiet_turn(pass_offers(later))
    later = pass_offers(sr.draw(pass_offers(later), 1, STOCK))
    assert sr.SwapJoker(1, C("8H"), joker_meld) in sr.legal_actions(later)
    swapped = sr.swap_joker(later, 1, C("8H"), joker_meld)
    assert sr.JOKER in swapped.hand(1)


def test_joker_swap_on_the_going_down_turn_where_the_variant_allows_it() -> None:
    variant = house(CAMPING, "camping-swap-at-once", joker_swap__same_turn_as_going_down=True)
    state = _swap_deal(variant, "8H KC KD KS QC QD QS 3S 4D 6H 7C")
    down = sr.meld(state, 1, [cards("KC KD KS"), cards("QC QD QS")])
    swapped = sr.swap_joker(down, 1, C("8H"), down.table[0].id)
    assert sr.JOKER in swapped.hand(1)


# -- §2 going out ---------------------------------------------------------------------------


def test_going_out_only_without_a_discard_in_shanghai() -> None:
    state = _going_down_deal(SHANGHAI, "", "5S")
    with pytest.raises(sr.GoOutError, match="going_out=never"):
        sr.go_out(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")], discard=C("5S"))
    assert state.phase is sr.Phase.PLAY and state.hand(1) == GOING_DOWN + cards("5S")


def test_going_out_by_discard_accepted_in_camping() -> None:
    state = _going_down_deal(CAMPING, "", "5S")
    out = sr.go_out(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")], discard=C("5S"))
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1


def test_going_out_by_playing_every_card_in_shanghai() -> None:
    state = _going_down_deal(SHANGHAI, "8S", "9S")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    one_left = sr.lay_off(down, 1, C("8S"), down.table[0].id)
    with pytest.raises(sr.GoOutError, match="last card"):
        sr.discard(one_left, 1, C("9S"))
    out = sr.lay_off(one_left, 1, C("9S"), down.table[1].id)
    assert out.phase is sr.Phase.DEAL_OVER
    result = sr.score(out)
    assert result.winner == 1 and result.points[1] == 0


def test_player_whose_last_card_cannot_be_played_keeps_two_and_discards() -> None:
    state = _going_down_deal(SHANGHAI, "5D", "QC")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    assert down.hand(1) == cards("5D QC")
    ended = sr.discard(down, 1, C("5D"))
    assert ended.hand(1) == cards("QC") and ended.turn == 2


def test_going_out_is_atomic_refused_go_out_changes_nothing() -> None:
    state = _going_down_deal(CAMPING, "", "5S")
    with pytest.raises(sr.GoOutError):
        sr.go_out(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    assert not state.is_down(1) and not state.table


def test_blind_bonus_camping_minus_50_without_joker() -> None:
    state = _going_down_deal(CAMPING, "", "5S")
    out = sr.go_out(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")], discard=C("5S"))
    assert sr.score(out).points[1] == -50 and sr.score(out).one_turn_out


def test_blind_bonus_camping_minus_25_with_a_joker() -> None:
    hand = cards("8C 8D 9C 9D 9H JK")
    state = stacked(CAMPING, {1: hand}, upcard=C("KH"), stock_top=cards("5S"))
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    out = sr.go_out(state, 1, [cards("8C 8D JK"), cards("9C 9D 9H")], discard=C("5S"))
    assert sr.score(out).points[1] == -25


def test_no_blind_bonus_in_shanghai() -> None:
    state = _going_down_deal(SHANGHAI, "8S", "9S")
    out = sr.go_out(
        state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")], lay_offs=[(C("8S"), 1), (C("9S"), 2)]
    )
    assert sr.score(out).points[1] == 0


def test_no_blind_bonus_after_going_down_on_an_earlier_turn() -> None:
    stock_top = cards("QC 4C 4D 4S 8S")
    state = stacked(CAMPING, {1: GOING_DOWN + cards("5D")}, upcard=C("KH"), stock_top=stock_top)
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    state = sr.discard(sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")]), 1, C("5D"))
    for _ in range(3):
        state = quiet_turn(state)
    state = pass_all_offers(state)  # seat 1 is down: the upcard is offered to others first
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    assert state.hand(1) == cards("QC 8S")
    state = sr.lay_off(state, 1, C("8S"), state.table[0].id)
    out = sr.discard(state, 1, C("QC"))
    result = sr.score(out)
    assert result.winner == 1 and result.points[1] == 0 and not result.one_turn_out


# -- §2 runs --------------------------------------------------------------------------------


def _runs_deal(variant: sr.Variant, hand: str) -> sr.GameState:
    given = {1: cards(hand)}
    state = stacked(variant, given, upcard=C("KS"), stock_top=cards("2S"), deal_number=3)
    return pass_all_offers(sr.draw(state, 1, STOCK))


def test_adjacent_same_suit_runs_refused_in_camping() -> None:
    state = _runs_deal(CAMPING, "3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C")
    with pytest.raises((sr.ContractNotMetError, sr.InvalidMeldError), match="same_suit_runs"):
        sr.meld(state, 1, [cards("3H 4H 5H 6H"), cards("7H 8H 9H 10H")])


def test_adjacent_same_suit_runs_refused_in_shanghai_they_could_form_one_run() -> None:
    state = _runs_deal(SHANGHAI, "3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C")
    with pytest.raises((sr.ContractNotMetError, sr.InvalidMeldError), match="same_suit_runs"):
        sr.meld(state, 1, [cards("3H 4H 5H 6H"), cards("7H 8H 9H 10H")])


def test_overlapping_same_suit_runs_allowed_in_shanghai_refused_in_camping() -> None:
    hand = "3H 4H 5H 6H 5H 6H 7H 8H 2C 3C 4C"
    down = sr.meld(_runs_deal(SHANGHAI, hand), 1, [cards("3H 4H 5H 6H"), cards("5H 6H 7H 8H")])
    assert down.is_down(1)
    with pytest.raises((sr.ContractNotMetError, sr.InvalidMeldError), match="same_suit_runs"):
        sr.meld(_runs_deal(CAMPING, hand), 1, [cards("3H 4H 5H 6H"), cards("5H 6H 7H 8H")])


def test_same_suit_runs_separated_by_a_rank_accepted_in_camping() -> None:
    state = _runs_deal(CAMPING, "3H 4H 5H 6H 8H 9H 10H JH 2C 3C 4C")
    down = sr.meld(state, 1, [cards("3H 4H 5H 6H"), cards("8H 9H 10H JH")])
    assert down.is_down(1)


# -- §2 stock, end of deal, scoring, game ---------------------------------------------------


def test_stock_runs_out_discard_pile_but_top_reshuffled() -> None:
    state = short_stock(sr.new_game(SHANGHAI, players=4, seed=6), 1)
    pile = len(state.discard_pile)
    state = sr.draw(state, 1, STOCK)
    discard = state.hand(1)[0]
    state = sr.discard(state, 1, discard)
    assert state.restocks == 1 and state.upcard == discard
    assert state.stock_size == pile and state.discard_pile == (discard,)
    assert all_cards(state) == pack_of(state)


def test_stock_that_cannot_be_refilled_ends_the_deal_with_no_winner() -> None:
    seat0 = cards("3C 5D 7S 9C JD KS 4H 6C 8D 10S QH")
    state = stacked(SHANGHAI, {0: seat0, 1: cards("3S 5H 7C 9D JC KD 4S 6H 8C 10D QS")})
    rest = state.stock[1:]
    hands = list(state.hands)
    hands[3] = hands[3] + rest
    state = attrs.evolve(state, stock=state.stock[:1], hands=tuple(hands))
    state = sr.discard(sr.draw(state, 1, STOCK), 1, C("3S"))
    assert state.phase is sr.Phase.DEAL_OVER
    result = sr.score(state)
    assert result.winner is None
    assert result.points[0] == sum(SHANGHAI.scoring.values.of(card) for card in seat0)


def test_turn_limit_ends_a_deal_so_every_deal_ends() -> None:
    variant = attrs.evolve(SHANGHAI, stock=sr.StockRules(turn_limit=3))
    state = sr.new_game(variant, players=3, seed=1)
    for _ in range(3):
        state = quiet_turn(state)
    assert state.phase is sr.Phase.DEAL_OVER and sr.score(state).winner is None


@pytest.mark.parametrize(
    ("variant", "points"),
    [(SHANGHAI, 15 + 20 + 25 + 5 + 10), (WIKI, 75), (CAMPING, 20 + 20 + 25 + 5 + 10)],
    ids=lambda v: getattr(v, "id", str(v)),
)
def test_card_values_in_a_deals_score(variant: sr.Variant, points: int) -> None:
    given = {1: GOING_DOWN, 2: cards("AS 2C 7D 10H JK")}
    state = stacked(variant, given, upcard=C("KH"), stock_top=cards("9S"))
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    groups = [cards("8C 8D 8H"), cards("9C 9D 9H")]
    if variant.going_out is sr.GoOutDiscard.NEVER:
        out = sr.go_out(state, 1, groups, lay_offs=[(C("9S"), 2)])
    else:
        out = sr.go_out(state, 1, groups, discard=C("9S"))
    assert sr.score(out).points[2] == points
    assert sr.score(out).seats[2].card_points == points
    assert out.totals == sr.score(out).points


def test_score_before_the_deal_ends_is_refused() -> None:
    with pytest.raises(sr.WrongPhaseError):
        sr.score(sr.new_game(SHANGHAI, players=3, seed=1))


def test_dealer_rotates_left_and_the_next_contract_applies() -> None:
    variant = attrs.evolve(SHANGHAI, stock=sr.StockRules(turn_limit=1))
    state = quiet_turn(sr.new_game(variant, players=3, seed=1))
    assert state.phase is sr.Phase.DEAL_OVER
    with pytest.raises(sr.WrongPhaseError):
        sr.draw(state, 1, STOCK)
    nxt = sr.next_deal(state)
    assert nxt.deal_number == 2 and nxt.dealer == 1 and nxt.to_act == 2
    assert nxt.totals == state.totals and not nxt.table


def test_ten_deals_then_the_game_is_over_lowest_total_wins_ties_share() -> None:
    variant = attrs.evolve(SHANGHAI, stock=sr.StockRules(turn_limit=1))
    state = sr.new_game(variant, players=3, seed=1)
    deals = 0
    while True:
        state = quiet_turn(state)
        deals += 1
        if state.phase is sr.Phase.GAME_OVER:
            break
        state = sr.next_deal(state)
    assert deals == 10 and state.deal_number == 10
    outcome = state.outcome
    assert outcome is not None and outcome.totals == state.totals
    best = min(state.totals)
    assert outcome.winners == tuple(s for s in range(3) if state.totals[s] == best)
    with pytest.raises(sr.WrongPhaseError, match="game is over"):
        sr.next_deal(state)
    assert sr.legal_actions(state) == ()


def test_joker_swap_obligation_met_by_going_down_and_out_at_once() -> None:
    """A going down that uses every card discharges the swap's obligation and ends the deal."""
    # deal 2 (a set and a run): 11 cards dealt, no buys, each hand within its reach
    seat0 = cards("9C 9H 9S 3S 4S JK 6S KD KH 2C 7H")
    seat1 = cards("2D 3D 4D 5D 6D 7D 8D QC QD QH 5S")
    given = {0: seat0, 1: seat1}
    state = stacked(
        SHANGHAI, given, upcard=C("KC"), stock_top=cards("10C QS"), dealer=3, deal_number=2
    )
    state = pass_all_offers(sr.draw(state, 0, STOCK))
    state = sr.meld(state, 0, [cards("9C 9H 9S"), cards("3S 4S JK 6S")])
    state = sr.discard(state, 0, C("KD"))
    state = pass_all_offers(sr.draw(state, 1, STOCK))
    run = next(meld for meld in state.table if sr.JOKER in meld.cards)
    swapped = sr.swap_joker(state, 1, C("5S"), run.id)
    going_out = sr.Meld(1, [cards("2D 3D 4D 5D 6D 7D 8D"), cards("QC QD QH QS JK")])
    listed = sr.legal_actions(swapped)
    assert all(sr.Meld(1, [group]) in listed for group in going_out.groups)  # a group at a time
    out = sr.apply(swapped, going_out)  # or all at once
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1
    step = swapped
    for group in going_out.groups:
        step = sr.apply(step, sr.Meld(1, [group]))
    assert step.phase is sr.Phase.DEAL_OVER and sr.score(step).winner == 1
