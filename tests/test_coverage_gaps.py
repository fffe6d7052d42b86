"""Rules and refusals the scenario tests did not reach (issue 9's coverage gate), one test per
rule, named after it: values that are not cards, draws from an empty stock, the cut card's
obligations, go-outs that empty the hand early, house-rule variants, stacked deals, and every
invariant ``validate`` checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy.engine import validation
from shanghai_rummy.engine.play_rules import hand_out_possible, opening_possible
from shanghai_rummy.state import History

from .helpers import C, cards, stacked, with_seat
from .positions import (
    HAND_WIN,
    pass_offers,
    quiet_turn,
    rummy51_cut_card_deal,
    seat_0_plays_before_down_seat_1,
)

SHANGHAI = sr.get_variant("shanghai")
CAMPING = sr.get_variant("shanghai-camping")
R51 = sr.get_variant("rummy51")
STOCK, DISCARD = sr.Source.STOCK, sr.Source.DISCARD
ANY: object = "8C"
"""A value of the wrong type, for calls that ignore the annotations."""


# --- the engine: values that are not what the move takes ------------------------------------


def test_a_value_that_is_not_a_card_is_not_held() -> None:
    state = sr.draw(sr.new_game(CAMPING, players=3, seed=1), 1, DISCARD)
    with pytest.raises(sr.CardNotInHandError, match="not a card: '8C'"):
        sr.discard(state, 1, ANY)  # type: ignore[arg-type]


def test_a_draw_from_a_source_that_is_not_one_is_refused() -> None:
    state = sr.new_game(SHANGHAI, players=3, seed=1)
    with pytest.raises(sr.DrawError, match="not a source"):
        sr.draw(state, 1, ANY)  # type: ignore[arg-type]


def test_meld_needs_a_group_and_refuses_an_empty_one_among_others() -> None:
    state = sr.draw(sr.new_game(SHANGHAI, players=3, seed=1), 1, DISCARD)
    with pytest.raises(sr.InvalidMeldError, match="at least one group of cards"):
        sr.meld(state, 1, [])
    with pytest.raises(sr.InvalidMeldError, match="group 1 of 1 is empty"):
        sr.meld(state, 1, [()])
    tens = sr.parse_cards("10D 10H 10S")
    for groups, message in (([tens, ()], "group 2 of 2 is empty"), (((), tens), "group 1 of 2")):
        with pytest.raises(sr.InvalidMeldError, match=message):
            sr.meld(state, 1, groups)
        with pytest.raises(sr.InvalidMeldError, match=message):
            sr.go_out(state, 1, groups=groups)


def test_apply_refuses_what_is_not_an_action() -> None:
    state = sr.new_game(SHANGHAI, players=3, seed=1)
    with pytest.raises(sr.RummyError, match="not an action"):
        sr.apply(state, ANY)  # type: ignore[arg-type]


# --- drawing from a stock that a buy emptied -------------------------------------------------


def test_down_players_draw_after_a_buy_emptied_the_stock_restocks() -> None:
    state = seat_0_plays_before_down_seat_1()
    short = attrs.evolve(
        state, stock=state.stock[:2], discard_pile=state.stock[2:] + state.discard_pile
    )
    offered = sr.discard(short, 0, short.hand(0)[0])
    assert offered.phase is sr.Phase.BUY and offered.turn == 1
    bought = sr.buy(offered, offered.to_act or 0)
    assert bought.phase is sr.Phase.DRAW and bought.to_act == 1 and not bought.stock
    drawn = sr.draw(bought, 1, STOCK)
    assert drawn.phase is sr.Phase.PLAY and drawn.restocks == 1
    assert drawn.history[-1] == sr.Draw(1, STOCK)
    sr.validate(drawn)


def test_down_players_draw_from_a_stock_that_cannot_be_refilled_ends_the_deal() -> None:
    state = seat_0_plays_before_down_seat_1()
    hands = list(state.hands)
    hands[3] = hands[3] + state.stock[2:] + state.discard_pile
    bare = attrs.evolve(
        state, stock=state.stock[:2], discard_pile=(), upcard_live=False, hands=tuple(hands)
    )
    # a hand of 73 cards is beyond any hand's reach (issue 21): the engine still copes
    with pytest.raises(sr.InvalidStateError, match=r"hands\[3\]: shape: 73 cards, but a hand"):
        sr.validate(bare)
    bought = sr.buy(sr.discard(bare, 0, bare.hand(0)[0]), 2)
    assert not bought.stock and not bought.discard_pile
    ended = sr.draw(bought, 1, STOCK)
    assert ended.phase is sr.Phase.DEAL_OVER and sr.score(ended).winner is None


# --- the cut card (variant.scoring.cut_card_hand) --------------------------------------------


def test_cut_card_only_for_a_player_not_yet_down() -> None:
    state = quiet_turn(rummy51_cut_card_deal())  # seat 0 draws and discards; seat 1 (down) draws
    assert state.turn == 1 and state.cut_card is not None
    assert sr.Draw(1, sr.Source.CUT_CARD) not in sr.legal_actions(state)
    with pytest.raises(sr.DrawError, match="only a player not yet down"):
        sr.draw(state, 1, sr.Source.CUT_CARD)


def test_cut_card_obliges_going_out_no_cards_left_over() -> None:
    taken = sr.draw(rummy51_cut_card_deal(), 0, sr.Source.CUT_CARD)
    assert not any(isinstance(action, sr.Discard) for action in sr.legal_actions(taken))
    with pytest.raises(sr.GoOutError, match="cards would be left over"):
        # 8D 8H 8S could still join the opening; 4C and 9S could not both go
        sr.meld(taken, 0, [HAND_WIN[0], cards("5C 6C 7C 8C"), HAND_WIN[3]])
    # laid group by group in one turn, the going down by hand may take its last group later
    met = sr.meld(taken, 0, [HAND_WIN[0], HAND_WIN[1], HAND_WIN[3]])
    out = sr.discard(sr.meld(met, 0, [HAND_WIN[2]]), 0, C("9S"))
    assert out.phase in (sr.Phase.DEAL_OVER, sr.Phase.GAME_OVER) and out.results[-1].winner == 0


def test_cut_card_no_lay_off_on_other_players_groups() -> None:
    laid = sr.meld(sr.draw(rummy51_cut_card_deal(), 0, sr.Source.CUT_CARD), 0, HAND_WIN)
    with pytest.raises(sr.LayOffError, match="no lay-offs on other players' groups"):
        sr.lay_off(laid, 0, C("9S"), laid.table[0].id)


def test_cut_card_last_card_is_the_only_listed_move_and_goes_out_for_minus_120() -> None:
    laid = sr.meld(sr.draw(rummy51_cut_card_deal(), 0, sr.Source.CUT_CARD), 0, HAND_WIN)
    assert sr.legal_actions(laid) == (sr.Discard(0, C("9S")),)
    out = sr.discard(laid, 0, C("9S"))
    assert sr.score(out).points[0] == -120


# --- joker swaps under house rules ------------------------------------------------------------


def test_joker_swap_refused_when_nobody_may_swap() -> None:
    nobody = attrs.evolve(
        SHANGHAI, id="no-swaps", joker_swap=attrs.evolve(SHANGHAI.joker_swap, who=sr.SwapWho.NOBODY)
    )
    hand = cards("8H 8D JK 9C 9H 9S 8C 2S")
    state = stacked(nobody, {1: hand}, upcard=C("KS"))
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, [cards("8H 8D JK"), cards("9C 9H 9S")])
    with pytest.raises(sr.JokerSwapError, match="who=nobody"):
        sr.swap_joker(state, 1, C("8C"), state.table[0].id)


ANYONE_SWAPS = attrs.evolve(
    R51, id="rummy51-anyone-swaps", joker_swap=attrs.evolve(R51.joker_swap, who=sr.SwapWho.ANYONE)
)


def _anyone_swaps_deal(seat0: str) -> sr.GameState:
    """Seat 1 opens with 6S JK 8S; seat 0, not down, has drawn and holds 7S."""
    starter = cards("6S JK 8S 10D 10C 10H 2C 3D 4H 9D JH QS KD 5S 3C")
    state = sr.deal_from(ANYONE_SWAPS, hands=[cards(seat0), starter], stock_top=cards("2H"))
    state = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    return sr.draw(sr.discard(state, 1, C("KD")), 0, STOCK)


def test_joker_swap_by_a_player_not_down_owes_a_group_that_opens() -> None:
    state = _anyone_swaps_deal("7S 5C 5D 2D 4D 6H 8H 9H JC QC KC AC AS 3S")
    swapped = sr.swap_joker(state, 0, C("7S"), state.table[0].id)
    assert swapped.turn_state.jokers_to_meld == 1 and not swapped.is_down(0)
    with pytest.raises(sr.GoOutError, match="joker"):
        sr.discard(swapped, 0, C("2H"))
    opened = sr.meld(swapped, 0, [cards("JC QC KC AC"), cards("4D 5D JK")])
    assert opened.turn_state.jokers_to_meld == 0
    sr.discard(opened, 0, C("2H"))


# --- go-out: a hand that empties before the move is done ----------------------------------------


def _two_sets_and_nothing_else() -> sr.GameState:
    """Shanghai: seat 1 has drawn and holds exactly two sets."""
    state = stacked(SHANGHAI, {1: cards("8C 8D 8H 9C 9D")}, upcard=C("KS"), stock_top=cards("9H"))
    return pass_offers(sr.draw(state, 1, STOCK))


SETS = [cards("8C 8D 8H"), cards("9C 9D 9H")]


def test_go_out_lay_offs_after_the_hand_is_empty_are_refused() -> None:
    state = _two_sets_and_nothing_else()
    with pytest.raises(sr.GoOutError, match="empty before every lay-off"):
        sr.go_out(state, 1, SETS, [(C("8C"), 1)])
    assert not state.table


def test_go_out_discard_after_the_hand_is_empty_is_refused() -> None:
    state = _two_sets_and_nothing_else()
    with pytest.raises(sr.GoOutError, match="empty before the discard"):
        sr.go_out(state, 1, SETS, discard=C("8C"))


def test_go_out_takes_planned_lay_offs_and_tuples_and_nothing_else() -> None:
    state = stacked(
        SHANGHAI, {1: cards("8C 8D 8H 9C 9D 9S")}, upcard=C("KS"), stock_top=cards("9H")
    )
    state = pass_offers(sr.draw(state, 1, STOCK))
    out = sr.go_out(state, 1, SETS, [sr.PlannedLayOff(C("9S"), 2)])
    assert out.phase is sr.Phase.DEAL_OVER and out.history[-1] == sr.GoOut(
        1, SETS, [sr.PlannedLayOff(C("9S"), 2)]
    )
    assert sr.apply(state, out.history[-1]).totals == out.totals
    with pytest.raises(sr.RummyError, match="PlannedLayOff"):
        sr.go_out(state, 1, SETS, [C("9S")])


# --- dealing ------------------------------------------------------------------------------------


def test_lowest_cut_deals_first_the_same_for_the_same_seed() -> None:
    cut = attrs.evolve(CAMPING, id="camping-cut", first_dealer=sr.FirstDealer.LOWEST_CUT)
    dealers = [sr.new_game(cut, players=5, seed=seed).dealer for seed in range(12)]
    assert dealers == [sr.new_game(cut, players=5, seed=seed).dealer for seed in range(12)]
    assert len(set(dealers)) > 1 and all(0 <= dealer < 5 for dealer in dealers)
    state = sr.new_game(cut, players=5, seed=3)
    assert state.to_act == (state.dealer + 1) % 5


@pytest.mark.parametrize("seed", ["7", 1.5, True, None])
def test_seed_must_be_an_integer(seed: object) -> None:
    with pytest.raises(sr.RummyError, match="seed must be an integer"):
        sr.new_game(SHANGHAI, players=3, seed=seed)  # type: ignore[arg-type]


def test_stacked_deal_refuses_a_dealer_a_deal_number_or_cards_that_do_not_exist() -> None:
    hands = [cards("8C"), cards("8D"), cards("8H")]
    with pytest.raises(sr.RummyError, match="dealer must be a seat from 0 to 2"):
        sr.deal_from(SHANGHAI, hands=hands, dealer=3)
    with pytest.raises(sr.RummyError, match="deal_number must be from 1 to 10"):
        sr.deal_from(SHANGHAI, hands=hands, deal_number=11)
    with pytest.raises(sr.RummyError, match="too many 8C"):
        sr.deal_from(SHANGHAI, hands=[cards("8C 8C"), cards("8C"), cards("8D")])


# --- the state value ----------------------------------------------------------------------------


def test_history_equality_and_hash_follow_the_actions() -> None:
    first = History(None, sr.Draw(1, STOCK), 1)
    same = History(None, sr.Draw(1, STOCK), 1)
    assert first == first and first == same and hash(first) == hash(same)
    assert first != History(None, sr.Draw(1, DISCARD), 1)
    assert first.__eq__("not a history") is NotImplemented
    assert len(first) == 1 and "History of 1 actions" in repr(first)


def test_table_meld_by_id_and_outcome_only_at_the_end() -> None:
    state = stacked(SHANGHAI, {1: cards("8C 8D 8H 9C 9D 9H 2S")}, upcard=C("KS"))
    down = sr.meld(sr.draw(state, 1, DISCARD), 1, SETS)
    assert down.table_meld(2) is down.table[1]
    assert down.table_meld(99) is None
    assert down.outcome is None


# --- play rules: can this hand still end the turn? ----------------------------------------------


def test_opening_possible_keeps_a_card_to_discard_where_going_out_requires_it() -> None:
    exact = cards("6S 7S 8S 10D 10C 10H")  # 51 points with every card: nothing to discard
    assert not opening_possible(R51, 1, exact)
    assert opening_possible(R51, 1, (*exact, C("9S")))  # 6-9S and the tens: 9S is spare


def test_opening_possible_never_leaves_a_lone_card_where_it_may_not_be_discarded() -> None:
    assert not opening_possible(SHANGHAI, 1, cards("8C 8D 8H 9C 9D 9H 5S"))
    assert opening_possible(SHANGHAI, 1, cards("8C 8D 8H 9C 9D 9H 8S"))


def test_hand_out_possible_by_playing_every_card_or_not_at_all() -> None:
    assert hand_out_possible(CAMPING, 1, cards("8C 8D 8H 9C 9D 9H"))
    assert not hand_out_possible(SHANGHAI, 1, cards("8C 8D 8H 9C 9D 9H 5S"))


# --- variants and contracts that cannot be played -------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: sr.Contract(sets=(0,)), "Contract.sets: sizes must be positive"),
        (lambda: sr.Contract(sets=3), "Contract: the sizes are a tuple"),  # type: ignore[arg-type]
        (lambda: sr.Contract(), "at least one set or run"),
        (lambda: sr.CardValues(by_rank=(1,) * 13, joker="x"), "values must be integers"),  # type: ignore[arg-type]
        (lambda: sr.CardValues(by_rank=(1,) * 12, joker=1), "needs 13 values"),
        (lambda: sr.CardValues.from_mapping({"9-3": 5}), "not a rank range"),
        (lambda: sr.CardValues.from_mapping({"X": 5}), "not a rank: 'X'"),
        (lambda: sr.CardValues.from_mapping({"2-A": 1, "2": 2, "JK": 3}), "2 is given twice"),
        (lambda: sr.Opening(min_points=-1), "Opening.min_points"),
        (lambda: attrs.evolve(SHANGHAI, id=""), "Variant.id"),
        (lambda: attrs.evolve(SHANGHAI, deals=()), "Variant.deals"),
        (
            lambda: attrs.evolve(
                SHANGHAI, melds=attrs.evolve(SHANGHAI.melds, set_distinct_suits=True, set_min=5)
            ),
            "Variant.melds.set_min: 5 is more than a set may hold",
        ),
        (
            lambda: attrs.evolve(SHANGHAI, melds=attrs.evolve(SHANGHAI.melds, run_min=14)),
            "Variant.melds.run_min: 14 is longer than the longest run",
        ),
        (
            lambda: attrs.evolve(SHANGHAI, melds=attrs.evolve(SHANGHAI.melds, set_min=4)),
            "a set of 3 is not a valid set under melds",
        ),
    ],
)
def test_unplayable_rules_are_refused_naming_the_field(
    build: Callable[[], object], message: str
) -> None:
    with pytest.raises(sr.VariantError, match=message):
        build()


def test_joker_limit_when_opening_is_per_group_not_by_size() -> None:
    assert R51.jokers.going_down_limit(None) == 1
    assert CAMPING.jokers.going_down_limit(None) is None
    assert CAMPING.jokers.going_down_limit(7) == 3


# --- validate: every invariant, and only the first broken one of each check ----------------------


@pytest.fixture(scope="module")
def offered() -> sr.GameState:
    """Shanghai, 4 seats, seat 1 down; seat 3 passed the upcard up: seat 0 is offered it."""
    state = stacked(SHANGHAI, {1: cards("8H 8D 8S 9C 9H 9S 2C 5D")}, upcard=C("KS"))
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, SETS_8_9)
    state = quiet_turn(sr.discard(state, 1, C("2C")))
    state = sr.draw(state, 3, STOCK)
    assert state.phase is sr.Phase.BUY and state.to_act == 0
    return state


SETS_8_9 = [cards("8H 8D 8S"), cards("9C 9H 9S")]


def _turn_state(state: sr.GameState, **changes: Any) -> sr.GameState:
    return attrs.evolve(state, turn_state=attrs.evolve(state.turn_state, **changes))


FORGERIES: dict[str, tuple[Callable[[sr.GameState], sr.GameState], str]] = {
    "jokers_to_meld below zero": (
        lambda s: _turn_state(s, jokers_to_meld=-1),
        "turn_state.jokers_to_meld",
    ),
    "discarded by no seat": (lambda s: _turn_state(s, discarded_by=7), "turn_state.discarded_by"),
    "a restock where the variant never restocks": (
        lambda s: attrs.evolve(
            s,
            restocks=1,
            variant=attrs.evolve(
                s.variant, stock=attrs.evolve(s.variant.stock, restock=sr.Restock.END_DEAL)
            ),
        ),
        "restocks",
    ),
    "an action of a seat that does not exist": (
        lambda s: attrs.evolve(s, log=History(s.log, sr.PassBuy(9), len(s.history) + 1)),
        f"history[{0}].seat",
    ),
    "an empty hand while the deal is in play": (
        lambda s: attrs.evolve(s, hands=((), *s.hands[1:]), stock=s.stock + s.hands[0]),
        "hands[0]",
    ),
    "a buy offer outside the buy phase": (
        lambda s: _turn_state(attrs.evolve(s, phase=sr.Phase.DRAW, to_act=s.turn), drawn=False),
        "turn_state.buy_queue",
    ),
    "a seat offered the upcard twice": (
        lambda s: _turn_state(s, buy_queue=(0, 0)),
        "turn_state.buy_queue[1]",
    ),
    "a down seat offered the upcard": (
        lambda s: _turn_state(s, buy_queue=(0, 1)),
        "turn_state.buy_queue[1]",
    ),
    "an offer after the seat in turn drew": (
        lambda s: _turn_state(s, drawn=True),
        "turn_state.drawn",
    ),
    "a result of a deal not yet played": (
        lambda s: attrs.evolve(s, results=(_result(s, deal_number=2),), totals=(0, 0, 0, 0)),
        "results",
    ),
    "a result whose winner is no seat": (
        lambda s: attrs.evolve(s, results=(_result(s, deal_number=1, winner=9),)),
        "results",
    ),
}


def _result(state: sr.GameState, *, deal_number: int, winner: int | None = None) -> sr.DealResult:
    seats = tuple(sr.SeatScore(seat, (), 0, 0, "forged") for seat in range(state.num_players))
    return sr.DealResult(deal_number, winner, False, seats)


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_validate_names_the_broken_invariant(offered: sr.GameState, name: str) -> None:
    forge, path = FORGERIES[name]
    sr.validate(offered)
    with pytest.raises(sr.InvalidStateError) as caught:
        sr.validate(forge(offered))
    assert caught.value.path.startswith(path.split("[")[0]), str(caught.value)


def test_validate_plays_in_the_draw_and_play_phases(offered: sr.GameState) -> None:
    drawing = pass_offers(offered)
    played = drawing if drawing.phase is sr.Phase.PLAY else sr.draw(drawing, 3, STOCK)
    assert played.phase is sr.Phase.PLAY and played.turn == 3
    not_down = _turn_state(played, was_down=True)
    with pytest.raises(sr.InvalidStateError, match="was down but is not"):
        sr.validate(not_down)
    state = quiet_turn(sr.discard(played, 3, played.hand(3)[0]))  # seat 0, then seat 1
    down_seat = sr.draw(pass_offers(state), 1, STOCK)
    assert down_seat.phase is sr.Phase.PLAY and down_seat.is_down(1)
    owes = _turn_state(down_seat, must_go_down="forged")
    with pytest.raises(sr.InvalidStateError, match="is already down"):
        sr.validate(owes)


def test_validate_cut_card_is_the_bottom_card_of_the_stock() -> None:
    state = rummy51_cut_card_deal()
    sr.validate(state)
    elsewhere = next(card for card in state.stock if card != state.stock[-1])
    with pytest.raises(sr.InvalidStateError, match="not the bottom card of the stock") as caught:
        sr.validate(attrs.evolve(state, cut_card=elsewhere))
    assert caught.value.path == "cut_card"
    empty = attrs.evolve(state, stock=(), discard_pile=state.discard_pile + state.stock)
    with pytest.raises(sr.InvalidStateError, match="the stock is empty"):
        sr.validate(empty)
    plain = attrs.evolve(state, variant=R51)
    with pytest.raises(sr.InvalidStateError, match="a variant without one"):
        sr.validate(plain)


def test_validate_refused_cut_card_cannot_corrupt_the_game() -> None:
    """The engine takes the bottom card for the cut card: a cut card naming another card
    would duplicate it. validate (and so from_json) refuses such a state."""
    state = rummy51_cut_card_deal()
    forged = attrs.evolve(state, cut_card=C("KC"), stock=(*state.stock[:-1], C("2S")))
    with pytest.raises(sr.InvalidStateError):
        sr.validate(forged)


def _states_breaking_two_invariants_of_one_check(
    fresh: sr.GameState, offered: sr.GameState
) -> Iterator[tuple[str, sr.GameState]]:
    yield "_shape", attrs.evolve(fresh, num_players=9, totals=())
    yield "_shape", attrs.evolve(fresh, hands=(), seats=())
    yield "_shape", attrs.evolve(fresh, dealer=9, turn=9)
    yield "_shape", with_seat(attrs.evolve(fresh, log=History(None, sr.Buy(9), 1)), 0)
    yield "_conservation", attrs.evolve(fresh, stock=fresh.stock + fresh.stock[:2])
    yield "_phase", attrs.evolve(fresh, to_act=7)
    yield "_phase", attrs.evolve(fresh, phase=sr.Phase.DEAL_OVER)
    yield (
        "_phase",
        attrs.evolve(
            fresh,
            hands=((), (), *fresh.hands[2:]),
            stock=fresh.stock + fresh.hands[0] + fresh.hands[1],
        ),
    )
    yield "_phase", attrs.evolve(fresh, results=(_result(fresh, deal_number=1),), to_act=2)
    yield "_phase", attrs.evolve(offered, to_act=2)
    yield "_phase", _turn_state(offered, buy_queue=(0, 0, 0))
    yield "_table", attrs.evolve(offered, next_meld_id=1)
    yield "_table", with_seat(offered, 1, down=False)
    yield (
        "_table",
        attrs.evolve(
            offered, table=(attrs.evolve(offered.table[0], cards=offered.table[0].cards[:2]),)
        ),
    )
    meld = offered.table[0]
    forged_rank = sr.Rank.TWO if meld.rank is not sr.Rank.TWO else sr.Rank.THREE
    yield "_table", attrs.evolve(offered, table=(attrs.evolve(meld, rank=forged_rank),))
    yield "_table", with_seat(with_seat(offered, 2, down=True), 3, down=True)
    yield "_buys", with_seat(with_seat(fresh, 0, buys=9), 1, buys=9)
    yield "_totals", attrs.evolve(fresh, results=(_result(fresh, deal_number=5),) * 2)
    yield (
        "_totals",
        attrs.evolve(fresh, results=(attrs.evolve(_result(fresh, deal_number=1), seats=()),) * 2),
    )
    yield "_totals", attrs.evolve(fresh, results=(_result(fresh, deal_number=1, winner=9),) * 2)


def test_each_check_names_only_the_first_problem_it_finds(offered: sr.GameState) -> None:
    fresh = sr.new_game(SHANGHAI, players=4, seed=7)
    for check_name, state in _states_breaking_two_invariants_of_one_check(fresh, offered):
        check = getattr(validation, check_name)
        problems = list(check(state))
        assert len(problems) == 1, (check_name, problems)
