"""House rules of the contract-rummy family as variant settings (issue 24's builds): one test
per setting, named for it, in a position where the setting decides the move."""

from __future__ import annotations

import pytest

import shanghai_rummy as sr

from .helpers import C, cards, stacked
from .positions import house, pass_offers

SHANGHAI = sr.get_variant("shanghai")
STOCK = sr.Source.STOCK


def _seat_0_to_play(variant: sr.Variant, hand: str) -> sr.GameState:
    """Seat 0 (dealer 3) holds ``hand``, has drawn 2C from the stock and is to play."""
    state = stacked(variant, {0: cards(hand)}, upcard=C("KH"), stock_top=cards("2C"), dealer=3)
    return pass_offers(sr.draw(state, 0, STOCK))


def _seat_0_down_with_a_joker_set(variant: sr.Variant, seat_1_hand: str) -> sr.GameState:
    """Seat 0 went down with 8C 8D JK + 9S 9H 9D and discarded; seat 1 has drawn."""
    state = stacked(
        variant,
        {0: cards("8C 8D 9S 9H 9D 5C 6D 7S 10C JD JK"), 1: cards(seat_1_hand)},
        upcard=C("KH"),
        stock_top=cards("2C 2H"),
        dealer=3,
    )
    state = pass_offers(sr.draw(state, 0, STOCK))
    state = sr.meld(state, 0, [cards("8C 8D JK"), cards("9S 9H 9D")])
    state = sr.discard(state, 0, C("5C"))
    return pass_offers(sr.draw(pass_offers(state), 1, STOCK))


# -- melds.set_distinct_suits_when_laid (issue 24, build 2: distinct suits by scope) ---------


DISTINCT_WHEN_LAID = house(SHANGHAI, "distinct-when-laid", melds__set_distinct_suits_when_laid=True)


def test_set_distinct_suits_when_laid_refuses_a_set_laid_with_two_of_a_suit() -> None:
    with pytest.raises(sr.InvalidMeldError, match="set_distinct_suits_when_laid"):
        sr.check_group(cards("8C 8C 8D"), DISTINCT_WHEN_LAID)
    assert sr.check_group(cards("8C 8C 8D"), SHANGHAI).kind is sr.MeldKind.SET
    # a set already on the table, grown by lay-offs, is read as it stands
    grown = sr.check_group(cards("8C 8C 8D 8H 8S"), DISTINCT_WHEN_LAID, laid=False)
    assert len(grown.cards) == 5
    hand = cards("8C 8C 8D 9S 9H 9D")
    assert sr.solve(hand, sr.Contract(sets=(3, 3)), SHANGHAI) is not None
    assert sr.solve(hand, sr.Contract(sets=(3, 3)), DISTINCT_WHEN_LAID) is None
    state = _seat_0_to_play(DISTINCT_WHEN_LAID, "8C 8C 8D 9S 9H 9D 5C 6D 7S 10C JD")
    assert sr.Meld(0, (cards("8C 8C 8D"),)) not in sr.legal_actions(state)
    with pytest.raises(sr.InvalidMeldError, match="set_distinct_suits_when_laid"):
        sr.meld(state, 0, [cards("8C 8C 8D"), cards("9S 9H 9D")])


def test_set_distinct_suits_when_laid_lets_lay_offs_add_a_suit_the_set_holds() -> None:
    state = _seat_0_to_play(DISTINCT_WHEN_LAID, "8C 8H 8D 9S 9H 9D 8C 6D 7S 10C JD")
    down = sr.meld(state, 0, [cards("8C 8H 8D"), cards("9S 9H 9D")])
    eights = down.table[0].id
    assert sr.LayOff(0, C("8C"), eights) in sr.legal_actions(down)
    laid_off = sr.lay_off(down, 0, C("8C"), eights)
    assert laid_off.table[0].cards.count(C("8C")) == 2
    sr.validate(laid_off)
    always = house(SHANGHAI, "distinct-always", melds__set_distinct_suits=True)
    state = _seat_0_to_play(always, "8C 8H 8D 9S 9H 9D 8C 6D 7S 10C JD")
    down = sr.meld(state, 0, [cards("8C 8H 8D"), cards("9S 9H 9D")])
    with pytest.raises(sr.LayOffError, match="set_distinct_suits"):
        sr.lay_off(down, 0, C("8C"), down.table[0].id)


def test_set_distinct_suits_when_laid_refuses_a_contract_set_larger_than_four() -> None:
    contract = sr.DealSpec(requirement=sr.Contract(sets=(5,)), cards=11)
    with pytest.raises(sr.VariantError, match=r"deals\[0\]\.requirement"):
        house(DISTINCT_WHEN_LAID, "sets-of-5", deals=(contract,))


# -- joker_swap.from_melds (issue 24, build 4: the groups a joker is taken from) --------------


def test_joker_swap_from_runs_only_leaves_the_jokers_of_sets() -> None:
    runs_only = house(SHANGHAI, "swap-from-runs", joker_swap__from_melds=sr.SwapFrom.RUNS)
    state = _seat_0_down_with_a_joker_set(runs_only, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    joker_set = state.table[0].id
    assert sr.SwapJoker(1, C("8H"), joker_set) not in sr.legal_actions(state)
    with pytest.raises(sr.JokerSwapError, match="from_melds=runs"):
        sr.swap_joker(state, 1, C("8H"), joker_set)
    run = sr.make_table_meld(1, 0, cards("4C JK 6C 7C"), runs_only)
    assert sr.swap_positions(run, C("5C"), runs_only) == (1,)


def test_joker_swap_from_sets_only_leaves_the_jokers_of_runs() -> None:
    sets_only = house(SHANGHAI, "swap-from-sets", joker_swap__from_melds=sr.SwapFrom.SETS)
    run = sr.make_table_meld(1, 0, cards("4C JK 6C 7C"), sets_only)
    assert sr.swap_positions(run, C("5C"), sets_only) == ()
    with pytest.raises(sr.JokerSwapError, match="from_melds=sets"):
        sr.melds.swap_joker(run, C("5C"), sets_only)
    state = _seat_0_down_with_a_joker_set(sets_only, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    joker_set = state.table[0].id
    assert sr.SwapJoker(1, C("8H"), joker_set) in sr.legal_actions(state)
    assert sr.JOKER in sr.swap_joker(state, 1, C("8H"), joker_set).hand(1)
