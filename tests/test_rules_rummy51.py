"""Scenario tests for RULES.md §3 (`rummy51`), one per clause, named after it."""

from __future__ import annotations

import attrs
import pytest

import shanghai_rummy as sr

from .helpers import C, all_cards, cards, pack_of

R51 = sr.get_variant("rummy51")
STOCK = sr.Source.STOCK
DISCARD = sr.Source.DISCARD
OPEN_51 = [cards("6S 7S 8S"), cards("10D 10C 10H")]
HAND_WIN = [cards("AH 2H 3H"), cards("4S 5S 6S 7S 8S"), cards("8C 8D 8H"), cards("JC QC KC")]
SEAT0 = cards("2C 3C 5D 7D 9D 4H 6H 9H 10H QS KD KH 3D 5C")


def starter_deal(
    starter: str, stock_top: str = "", seat0: tuple[sr.Card, ...] = SEAT0
) -> sr.GameState:
    """Two players, dealer 0: seat 1 starts with 15 cards and begins by discarding."""
    return sr.deal_from(R51, hands=[seat0, cards(starter)], upcard=None, stock_top=cards(stock_top))


def test_deal_14_each_15_to_the_starter_no_upcard() -> None:
    state = sr.new_game(R51, players=4, seed=11)
    assert [len(state.hand(seat)) for seat in range(4)] == [14, 15, 14, 14]
    assert state.upcard is None and not state.discard_pile
    assert state.stock_size == 108 - 57
    assert all_cards(state) == pack_of(state)


def test_starter_begins_by_discarding_without_drawing() -> None:
    state = sr.new_game(R51, players=3, seed=1)
    assert state.phase is sr.Phase.PLAY and state.to_act == 1
    with pytest.raises(sr.WrongPhaseError):
        sr.draw(state, 1, STOCK)
    after = sr.discard(state, 1, state.hand(1)[0])
    assert after.to_act == 2 and after.upcard == state.hand(1)[0]


def test_no_buying_in_rummy51() -> None:
    state = sr.new_game(R51, players=3, seed=1)
    after = sr.discard(state, 1, state.hand(1)[0])
    drawn = sr.draw(after, 2, STOCK)
    assert drawn.phase is sr.Phase.PLAY and drawn.to_act == 2


def test_opening_worth_51_accepted() -> None:
    state = starter_deal("6S 7S 8S 10D 10C 10H 2C 3D 4H 5S 7C 9D JH QS KD")
    opened = sr.meld(state, 1, OPEN_51)
    assert opened.is_down(1) and len(opened.table) == 2


def test_opening_worth_50_refused() -> None:
    state = starter_deal("6S 7S 8S 9H 10H JH 2C 3D 4H 5S 7C 9D JS QS KD")
    with pytest.raises(sr.ContractNotMetError, match="51"):
        sr.meld(state, 1, [cards("6S 7S 8S"), cards("9H 10H JH")])


def test_opening_joker_counts_as_the_card_it_stands_for() -> None:
    state = starter_deal("6S JK 8S 10D 10C 10H 2C 3D 4H 5S 7C 9D JH QS KD")
    opened = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    assert opened.is_down(1)


def test_opening_two_jokers_in_one_group_refused() -> None:
    state = sr.deal_from(
        R51, hands=[SEAT0, cards("10D 10C JK JK QH QD QS 2C 3D 4H 5S 7C 9D JH KD")], upcard=None
    )
    with pytest.raises(sr.IllegalMoveError, match="joker"):
        sr.meld(state, 1, [cards("10D 10C JK JK"), cards("QH QD QS")])


def test_opening_joker_limit_holds_for_the_whole_opening_turn() -> None:
    # RULES.md §3 ruling: no lay-off on the opening turn adds a second joker to a group
    state = starter_deal("6S JK 8S 10D 10C 10H JK 2C 3D 4H 7C 9D JH QS KD")
    opened = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    run, tens = opened.table
    listed = sr.legal_actions(opened)
    assert not any(
        isinstance(a, sr.LayOff) and a.card == sr.JOKER and a.meld_id == run.id for a in listed
    )
    with pytest.raises(sr.LayOffError, match="per_group_for_the_going_down_turn"):
        sr.lay_off(opened, 1, sr.JOKER, run.id)
    # a group still without a joker may take one
    assert sr.LayOff(1, sr.JOKER, tens.id, None) in listed
    assert sr.JOKER in sr.lay_off(opened, 1, sr.JOKER, tens.id).table[1].cards


def test_opening_joker_limit_of_the_turn_is_a_setting() -> None:
    relaxed = attrs.evolve(
        R51, jokers=attrs.evolve(R51.jokers, per_group_for_the_going_down_turn=False)
    )
    hands = [SEAT0, cards("6S JK 8S 10D 10C 10H JK 2C 3D 4H 7C 9D JH QS KD")]
    state = sr.deal_from(relaxed, hands=hands, upcard=None)
    opened = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    laid = sr.lay_off(opened, 1, sr.JOKER, opened.table[0].id, "high")
    assert laid.table[0].cards.count(sr.JOKER) == 2


def test_set_with_a_duplicate_suit_refused() -> None:
    state = starter_deal("10D 10D 10C QH QD QS KH KD KS 3D 4H 5S 7C 9D JH")
    with pytest.raises(sr.InvalidMeldError, match="set_distinct_suits"):
        sr.meld(state, 1, [cards("10D 10D 10C"), cards("QH QD QS"), cards("KH KD KS")])


def test_closed_four_card_set_refuses_a_fifth_card() -> None:
    starter = "10D 10C 10H 10S QH QD QS 10D 2C 3D 4H 5S 7C 9D JH"
    state = starter_deal(starter, "5H")
    opened = sr.meld(state, 1, [cards("10D 10C 10H 10S"), cards("QH QD QS")])
    state = sr.discard(opened, 1, C("2C"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("2C"))
    state = sr.draw(state, 1, STOCK)
    with pytest.raises(sr.LayOffError):
        sr.lay_off(state, 1, C("10D"), opened.table[0].id)


def test_upcard_free_in_the_first_round() -> None:
    state = starter_deal("6S 7S 8S 10D 10C 10H 2C 3D 4H 5S 7C 9D JH QS KD")
    state = sr.discard(state, 1, C("KD"))
    taken = sr.draw(state, 0, DISCARD)
    assert C("KD") in taken.hand(0) and taken.turn_state.must_go_down is None
    assert sr.discard(taken, 0, C("2C")).turn == 1


def _second_round(starter: str, seat0_discard: str) -> sr.GameState:
    state = starter_deal(starter)
    state = sr.discard(state, 1, state.hand(1)[-1])
    state = sr.draw(state, 0, STOCK)
    return sr.discard(state, 0, C(seat0_discard))


def test_taking_the_discard_in_the_second_round_without_opening_refused_at_the_discard() -> None:
    state = _second_round("6S 7S 8S 10D 10C 2C 3D 4H 5S 7C 9D JH QS KD KH", "10H")
    assert state.turn == 1 and state.seats[1].turns == 2
    taken = sr.draw(state, 1, DISCARD)
    assert taken.turn_state.must_go_down is not None
    with pytest.raises(sr.GoOutError, match="obliges going down"):
        sr.discard(taken, 1, C("2C"))
    opened = sr.meld(taken, 1, [cards("6S 7S 8S"), cards("10D 10C 10H")])
    assert sr.discard(opened, 1, C("2C")).turn == 0


def test_taking_the_discard_in_the_second_round_offered_only_when_an_opening_is_possible() -> None:
    state = _second_round("6S 7S 8S 10D 2H 2C 3D 4H 5S 7C 9D JH QS KD KH", "10H")
    assert sr.legal_actions(state) == (sr.Draw(1, STOCK),)
    with pytest.raises(sr.DrawError, match="cannot go down"):
        sr.draw(state, 1, DISCARD)


def test_after_opening_take_the_discard_freely() -> None:
    state = starter_deal("6S 7S 8S 10D 10C 10H 2C 3D 4H 5S 7C 9D JH QS KD")
    state = sr.discard(sr.meld(state, 1, OPEN_51), 1, C("KD"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("2C"))
    taken = sr.draw(state, 1, DISCARD)
    assert taken.turn_state.must_go_down is None


def test_new_groups_on_later_turns_not_on_the_opening_turn() -> None:
    starter = "6S 7S 8S 10D 10C 10H QH QD QS 3D 4H 5S 7C 9D JH"
    state = starter_deal(starter, "9C")
    opened = sr.meld(state, 1, OPEN_51)
    # a group laid straight after is part of the opening (one going down, as one meld)
    assert sr.meld(opened, 1, [cards("QH QD QS")]).turn_state.going_down == (1, 2, 3)
    laid_off = sr.lay_off(opened, 1, C("5S"), opened.table[0].id)  # the opening is over
    with pytest.raises(sr.InvalidMeldError, match="later_turns"):
        sr.meld(laid_off, 1, [cards("QH QD QS")])
    state = sr.discard(laid_off, 1, C("3D"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("2C"))
    state = sr.draw(state, 1, STOCK)
    later = sr.meld(state, 1, [cards("QH QD QS")])
    assert len(later.table) == 3


def test_laying_off_the_last_card_refused() -> None:
    starter = "6S 7S 8S 10D 10C 10H 9S 4D 5D 6D 7D 8D 2C 3C 4C"
    state = starter_deal(starter, "JC")
    state = sr.meld(state, 1, [*OPEN_51, cards("4D 5D 6D 7D 8D"), cards("2C 3C 4C")])
    assert state.hand(1) == cards("9S")
    with pytest.raises(sr.GoOutError, match="going_out=required"):
        sr.lay_off(state, 1, C("9S"), state.table[0].id)
    out = sr.discard(state, 1, C("9S"))
    assert sr.score(out).winner == 1


def test_going_out_scores_minus_40_others_count_cards() -> None:
    starter = "6S 7S 8S 10D 10C 10H 9S 4D 5D 6D 7D 8D 2C 3C 4C"
    state = starter_deal(starter, "JC")
    state = sr.discard(sr.meld(state, 1, OPEN_51), 1, C("9S"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("JC"))
    state = sr.draw(state, 1, STOCK)
    drawn = state.hand(1)[-1]
    state = sr.meld(state, 1, [cards("4D 5D 6D 7D 8D")])
    out = sr.go_out(state, 1, [cards("2C 3C 4C")], discard=drawn)
    result = sr.score(out)
    assert result.points[1] == -40 and not result.one_turn_out
    assert result.points[0] == 100  # seat 0 never opened: a flat 100


def test_hand_win_scores_minus_80_and_doubles_the_others() -> None:
    state = starter_deal("AH 2H 3H 4S 5S 6S 7S 8S 8C 8D 8H JC QC KC 2D")
    out = sr.go_out(state, 1, HAND_WIN, discard=C("2D"))
    result = sr.score(out)
    assert result.one_turn_out and result.points[1] == -80
    assert result.points[0] == 200  # never opened: 100, doubled


SEAT2 = cards("QH QD QS KH KD KS 2C 3D 4C 5C 6C 9C 9S JK")
SEAT1_3P = "AH 2H 3H 3S 4S 5S 6S 7S 8S 9S 8C 8D 8H 2D 10D"


def _three_seats_to_seat1_second_turn(third_card: str) -> sr.GameState:
    """Dealer 0: seat 1 discards 10D; seat 2 opens QQQ + KKK and discards; seat 0 draws and
    discards; seat 1 draws ``third_card``. Seat 2 keeps 2C 3D 4C 5C 6C 9C 9S JK (58 points)."""
    hands = [SEAT0, cards(SEAT1_3P), SEAT2]
    state = sr.deal_from(R51, hands=hands, upcard=None, stock_top=cards(f"5H 6D {third_card}"))
    state = sr.discard(state, 1, C("10D"))
    state = sr.draw(state, 2, STOCK)
    state = sr.meld(state, 2, [cards("QH QD QS"), cards("KH KD KS")])
    state = sr.discard(state, 2, C("5H"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("6D"))
    return sr.draw(state, 1, STOCK)


def test_hand_win_others_card_values_doubled_joker_left_in_hand_20() -> None:
    state = _three_seats_to_seat1_second_turn("2S")
    groups = [cards("AH 2H 3H"), cards("2S 3S 4S 5S 6S 7S 8S 9S"), cards("8C 8D 8H")]
    out = sr.go_out(state, 1, groups, discard=C("2D"))
    result = sr.score(out)
    assert result.one_turn_out and result.points[1] == -80
    assert result.seats[2].card_points == 2 + 3 + 4 + 5 + 6 + 9 + 9 + 20
    assert result.points[2] == 2 * 58
    assert result.points[0] == 200


def test_hand_win_not_counted_after_laying_off_on_others_groups() -> None:
    state = _three_seats_to_seat1_second_turn("KC")
    k_set = state.table[1]
    assert C("KS") in k_set.cards
    groups = [cards("AH 2H 3H"), cards("3S 4S 5S 6S 7S 8S 9S"), cards("8C 8D 8H")]
    out = sr.go_out(state, 1, groups, lay_offs=[(C("KC"), k_set.id)], discard=C("2D"))
    result = sr.score(out)
    assert not result.one_turn_out and result.points[1] == -40
    assert result.points[2] == 58 and result.points[0] == 100


def _swap_position() -> sr.GameState:
    """Seat 1 opened on turn 1; seat 0 opened with QH QD JK; seat 1 has drawn on turn 2."""
    seat0 = cards("QH QD KD KH KS 2C 3C 5D 7D 9D 4H 6H 9H JK")
    seat1 = cards("6S 7S 8S 10D 10C 10H QC 3D 4D 9C 2H 5C 7H JS KC")
    state = sr.deal_from(R51, hands=[seat0, seat1], upcard=None, stock_top=cards("8D 5S"))
    state = sr.discard(sr.meld(state, 1, OPEN_51), 1, C("KC"))
    state = sr.draw(state, 0, STOCK)
    state = sr.meld(state, 0, [cards("QH QD JK"), cards("KD KH KS")])
    state = sr.discard(state, 0, C("2C"))
    return sr.draw(state, 1, STOCK)


def test_joker_swap_by_an_opened_player_obliges_a_new_group_with_it() -> None:
    state = _swap_position()
    q_set = state.table[2]
    swapped = sr.swap_joker(state, 1, C("QC"), q_set.id)
    assert sr.JOKER in swapped.hand(1) and C("QC") in swapped.table[2].cards
    with pytest.raises(sr.GoOutError, match="joker_into_new_meld"):
        sr.discard(swapped, 1, C("9C"))
    melded = sr.meld(swapped, 1, [cards("3D 4D JK")])
    assert sr.discard(melded, 1, C("9C")).turn == 0


def test_joker_swap_with_the_wrong_card_refused() -> None:
    state = _swap_position()
    with pytest.raises(sr.JokerSwapError):
        sr.swap_joker(state, 1, C("5S"), state.table[2].id)


def test_joker_swap_by_a_player_not_opened_refused() -> None:
    seat0 = cards("QH QD KD KH KS 2C 3C 5D 7D 9D 4H 6H 9H JK")
    seat1 = cards("6S 7S 8S 10D 10C 10H QC 3D 4D 9C 2H 5C 7H JS KC")
    state = sr.deal_from(R51, hands=[seat0, seat1], upcard=None, stock_top=cards("8D 5S"))
    state = sr.discard(state, 1, C("KC"))
    state = sr.draw(state, 0, STOCK)
    state = sr.meld(state, 0, [cards("QH QD JK"), cards("KD KH KS")])
    state = sr.discard(sr.draw(sr.discard(state, 0, C("2C")), 1, STOCK), 1, C("5S"))
    state = sr.draw(state, 0, STOCK)
    assert not state.is_down(1)
    moved = sr.discard(state, 0, C("3C"))
    moved = sr.draw(moved, 1, STOCK)
    with pytest.raises(sr.JokerSwapError, match="down_only"):
        sr.swap_joker(moved, 1, C("QC"), moved.table[0].id)


CUT_RULE = attrs.evolve(R51, scoring=attrs.evolve(R51.scoring, cut_card_hand=-120))


def _cut_card_deal(seat0: str, cut: str) -> sr.GameState:
    starter = cards("2C 3C 5D 7D 9D 4H 6H 9H 10H QS KD KH 3D 5C 6C")
    state = sr.deal_from(CUT_RULE, hands=[cards(seat0), starter], upcard=None)
    card = C(cut)
    stock = list(state.stock)
    stock.remove(card)
    state = attrs.evolve(state, stock=(*stock, card), cut_card=card)
    return sr.discard(state, 1, C("6C"))


def test_cut_card_taken_only_to_go_out_by_hand_scores_minus_120() -> None:
    state = _cut_card_deal("AH 2H 3H 4S 5S 6S 7S 8S 8C 8D 8H JC QC 2D", "KC")
    assert state.cut_card == C("KC")
    assert sr.Draw(0, sr.Source.CUT_CARD) in sr.legal_actions(state)
    taken = sr.draw(state, 0, sr.Source.CUT_CARD)
    assert C("KC") in taken.hand(0) and taken.cut_card is None
    with pytest.raises(sr.GoOutError, match="cut_card_hand"):
        sr.discard(taken, 0, C("2D"))
    out = sr.go_out(taken, 0, HAND_WIN, discard=C("2D"))
    result = sr.score(out)
    assert result.points[0] == -120 and result.points[1] == 200


def test_cut_card_refused_when_the_hand_cannot_go_out_with_it() -> None:
    state = _cut_card_deal("AH 2H 3H 4S 5S 6S 7S 8S 8C 8D 8H JC 9C 2D", "KC")
    assert sr.Draw(0, sr.Source.CUT_CARD) not in sr.legal_actions(state)
    with pytest.raises(sr.DrawError, match="cut_card_hand"):
        sr.draw(state, 0, sr.Source.CUT_CARD)


def test_cut_card_rule_off_by_default() -> None:
    state = sr.new_game(R51, players=3, seed=2)
    assert state.cut_card is None
    with pytest.raises(sr.DrawError, match="no cut card"):
        sr.draw(sr.discard(state, 1, state.hand(1)[0]), 2, sr.Source.CUT_CARD)
