"""Rule details the scenario tests left open, found by mutation testing the engine, the turn
cycle and scoring (issue 9): the exact words of every refusal, what each move records, the
offer's order, the cut card, joker obligations, restocking and the turn limit, and how a deal's
points are explained. One test per rule, named after it."""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy.scoring import score_deal

from .helpers import C, cards, short_stock, stacked
from .positions import (
    CAMPING,
    CUT_CARD,
    DISCARD,
    HAND_WIN,
    R51,
    R51_CUT_CARD,
    SETS_8_9,
    SETS_8C_9C,
    SHANGHAI,
    STOCK,
    deal_over,
    game_over,
    house,
    pass_offers,
    quiet_turn,
    rummy51_cut_card_deal,
    rummy51_opened_seat_1,
    seat_0_plays_before_down_seat_1,
    shanghai_two_sets_drawn,
    with_cut_card,
)

NOBODY_SWAPS = house(SHANGHAI, "no-swaps", joker_swap__who=sr.SwapWho.NOBODY)
BOOLS = ("drawn", "was_down", "laid_off_on_others", "used_joker", "draw_after_buy", "offered")


def checked(state: sr.GameState) -> sr.GameState:
    """``state``, after checking validate and that every flag and list holds its own type
    (a None where False belongs would be written to JSON as null)."""
    sr.validate(state)
    assert type(state.upcard_live) is bool
    turn_state = state.turn_state
    assert all(type(getattr(turn_state, name)) is bool for name in BOOLS), turn_state
    assert type(turn_state.took_cut_card) is bool and type(turn_state.buy_queue) is tuple
    assert type(turn_state.jokers_to_meld) is int
    return state


# --- every refusal says which rule refuses it, in words ---------------------------------------

Build = Callable[[], sr.GameState]
Move = Callable[[sr.GameState], object]


def _laid_off(state: sr.GameState, card: str) -> sr.GameState:
    """``state`` after the seat in turn lays ``card`` off on the first table meld."""
    return sr.lay_off(state, state.turn, C(card), state.table[0].id)


def _r51_starter(starter: str) -> sr.GameState:
    seat0 = cards("2C 3C 4C 5D 7D 9D 4H 6H 9H QS KD KH 3D 5C")
    return sr.deal_from(R51, hands=[seat0, cards(starter)])


def _go_out_with(item: object) -> Move:
    """A go-out of seat 1 with the two sets and one planned lay-off ``item``."""
    return lambda state: sr.go_out(state, 1, SETS_8C_9C, [item])


def _starter_discards(state: sr.GameState) -> sr.GameState:
    """Rummy 51: the starter begins by discarding its first card."""
    return sr.discard(state, state.turn, state.hand(state.turn)[0])


def _shanghai_swap_deal(seat2: str) -> sr.GameState:
    """Seat 1 went down with 8H 8D JK and the nines; seat 2, holding 8C, has drawn."""
    seat1 = cards("8H 8D JK 9C 9H 9S 2C 5D 7S QH KD")
    state = stacked(SHANGHAI, {1: seat1, 2: cards(seat2)}, upcard=C("KS"), stock_top=cards("5C"))
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, [cards("8H 8D JK"), cards("9C 9H 9S")])
    return pass_offers(sr.draw(sr.discard(state, 1, C("2C")), 2, STOCK))


CAN_GO_DOWN_WITH_JK = "8C 7C 7D 7H 3D 3H 4D 6H 10S JC 2S"
NO_GROUP_FOR_JK = "7S 9D QH 2H 10C AD 5D 8H KD"
ONE_GROUP_FOR_JK = "7S 5S 5H QD 9C KD JH 2S 10S"  # after the swap: 5S 5H JK only

REFUSALS: dict[str, tuple[Build, Move, type[sr.RummyError], str]] = {
    "a move after the deal": (
        deal_over,
        lambda s: sr.draw(s, 2, STOCK),
        sr.WrongPhaseError,
        "cannot draw: the deal is over",
    ),
    "a move after the game": (
        game_over,
        lambda s: sr.discard(s, 2, C("2C")),
        sr.WrongPhaseError,
        "cannot discard: the game is over",
    ),
    "draw in the play phase": (
        shanghai_two_sets_drawn,
        lambda s: sr.draw(s, 1, STOCK),
        sr.WrongPhaseError,
        "cannot draw now: the game waits for seat 1 in phase 'play', and draw belongs to "
        "phase 'draw'",
    ),
    **{
        f"{verb} in the draw phase": (
            lambda: sr.new_game(SHANGHAI, players=3, seed=1),
            move,
            sr.WrongPhaseError,
            f"cannot {verb} now: the game waits for seat 1 in phase 'draw', and {verb} "
            "belongs to phase 'play'",
        )
        for verb, move in (
            ("meld", lambda s: sr.meld(s, 1, [cards("8C 8D 8H")])),
            ("lay off", lambda s: sr.lay_off(s, 1, C("8C"), 1)),
            ("swap a joker", lambda s: sr.swap_joker(s, 1, C("8C"), 1)),
            ("discard", lambda s: sr.discard(s, 1, C("8C"))),
            ("go out", lambda s: sr.go_out(s, 1, discard=C("8C"))),
        )
    },
    **{
        f"{verb} by a seat not offered the upcard": (
            lambda: sr.draw(sr.new_game(SHANGHAI, players=4, seed=2), 1, STOCK),
            move,
            sr.NotYourTurnError,
            f"seat 3 cannot {verb}: seat 2 is to act (buy)",
        )
        for verb, move in (
            ("buy", lambda s: sr.buy(s, 3)),
            ("pass", lambda s: sr.pass_buy(s, 3)),
        )
    },
    **{
        f"{name} with no offer open": (
            lambda: sr.new_game(SHANGHAI, players=4, seed=2),
            move,
            sr.BuyNotAllowedError,
            "seat 2 cannot buy now: the upcard is offered for buying only after the seat in "
            "turn passes it up (phase is 'draw')",
        )
        for name, move in (
            ("buy", lambda s: sr.buy(s, 2)),
            ("pass", lambda s: sr.pass_buy(s, 2)),
        )
    },
    "a card held once used twice": (
        shanghai_two_sets_drawn,
        lambda s: sr.meld(s, 1, [cards("8C 8C 8D"), cards("9C 9D 9H")]),
        sr.CardNotInHandError,
        "seat 1 does not hold 8C 2 times (holds 1)",
    ),
    "a card not held": (
        shanghai_two_sets_drawn,
        lambda s: sr.discard(s, 1, C("KD")),
        sr.CardNotInHandError,
        "seat 1 does not hold KD",
    ),
    "a lay-off of a card not held": (
        lambda: sr.meld(shanghai_two_sets_drawn("2S 3D"), 1, SETS_8C_9C),
        lambda s: sr.lay_off(s, 1, C("8S"), 1),
        sr.CardNotInHandError,
        "seat 1 does not hold 8S",
    ),
    "a swap with a card not held": (
        lambda: _shanghai_swap_deal(CAN_GO_DOWN_WITH_JK),
        lambda s: sr.swap_joker(s, 2, C("8S"), 1),
        sr.CardNotInHandError,
        "seat 2 does not hold 8S",
    ),
    "a value that is not a card": (
        shanghai_two_sets_drawn,
        lambda s: sr.discard(s, 1, "8C"),  # type: ignore[arg-type]
        sr.CardNotInHandError,
        "not a card: '8C'",
    ),
    "a source that is not one": (
        lambda: sr.new_game(SHANGHAI, players=3, seed=1),
        lambda s: sr.draw(s, 1, "stock"),  # type: ignore[arg-type]
        sr.DrawError,
        "not a source to draw from: 'stock'",
    ),
    "the upcard after a buy took it": (
        lambda: sr.buy(sr.discard(seat_0_plays_before_down_seat_1(), 0, C("2H")), 2),
        lambda s: sr.draw(s, 1, DISCARD),
        sr.DrawError,
        "there is no upcard to take: draw from the stock",
    ),
    "the cut card where there is none": (
        lambda: _starter_discards(sr.new_game(R51, players=2, seed=1)),
        lambda s: sr.draw(s, 0, CUT_CARD),
        sr.DrawError,
        "there is no cut card to take (variant.scoring.cut_card_hand)",
    ),
    "the cut card by a seat that is down": (
        lambda: quiet_turn(rummy51_cut_card_deal()),
        lambda s: sr.draw(s, 1, CUT_CARD),
        sr.DrawError,
        "only a player not yet down may take the cut card: taking the cut card obliges going "
        "out by hand this turn: everything laid down at once (variant.scoring.cut_card_hand)",
    ),
    "melding the last card where going out needs a discard": (
        lambda: _r51_starter("6S 7S 8S 10D 10C 10H"),
        lambda s: sr.meld(s, 1, [cards("6S 7S 8S"), cards("10D 10C 10H")]),
        sr.GoOutError,
        "cannot meld your last card: you go out only by discarding it (variant.going_out=required)",
    ),
    "laying off the last card where going out needs a discard": (
        lambda: sr.meld(
            _r51_starter("6S 7S 8S 10D 10C 10H 9S"), 1, [cards("6S 7S 8S"), cards("10D 10C 10H")]
        ),
        lambda s: sr.lay_off(s, 1, C("9S"), 1),
        sr.GoOutError,
        "cannot lay off your last card: you go out only by discarding it "
        "(variant.going_out=required)",
    ),
    "cards left over after taking the cut card": (
        lambda: sr.draw(rummy51_cut_card_deal(), 0, CUT_CARD),
        # 8D 8H 8S may still join the opening, but 4C and 9S would be left over
        lambda s: sr.meld(s, 0, [HAND_WIN[0], cards("5C 6C 7C 8C"), HAND_WIN[3]]),
        sr.GoOutError,
        "cannot meld that: taking the cut card obliges going out by hand this turn: everything "
        "laid down at once (variant.scoring.cut_card_hand), but cards would be left over",
    ),
    "a lay-off on another's group after taking the cut card": (
        lambda: sr.meld(sr.draw(rummy51_cut_card_deal(), 0, CUT_CARD), 0, HAND_WIN),
        lambda s: sr.lay_off(s, 0, C("9S"), 1),
        sr.LayOffError,
        "taking the cut card obliges going out by hand this turn: everything laid down at once "
        "(variant.scoring.cut_card_hand): no lay-offs on other players' groups",
    ),
    "a discard instead of going out after taking the cut card": (
        lambda: sr.draw(rummy51_cut_card_deal(), 0, CUT_CARD),
        lambda s: sr.discard(s, 0, C("9S")),
        sr.GoOutError,
        "cannot discard without going out: taking the cut card obliges going out by hand this "
        "turn: everything laid down at once (variant.scoring.cut_card_hand)",
    ),
    "going down to one card that can be neither played nor discarded": (
        lambda: shanghai_two_sets_drawn("QC"),
        lambda s: sr.meld(s, 1, SETS_8C_9C),
        sr.GoOutError,
        "cannot meld down to one card you can neither play nor discard: you go out only by "
        "playing every card (variant.going_out=never); keep two and discard one",
    ),
    "discarding the last card where going out needs a play": (
        lambda: sr.meld(shanghai_two_sets_drawn("8S"), 1, SETS_8C_9C),
        lambda s: sr.discard(s, 1, C("8S")),
        sr.GoOutError,
        "cannot discard your last card: you go out only by melding or laying off every card "
        "(variant.going_out=never)",
    ),
    "an empty meld": (
        shanghai_two_sets_drawn,
        lambda s: sr.meld(s, 1, [()]),
        sr.InvalidMeldError,
        "meld: group 1 of 1 is empty: every group needs its cards",
    ),
    "a new group after going down in Shanghai": (
        lambda: sr.meld(shanghai_two_sets_drawn("7S 7H 7D QC"), 1, SETS_8C_9C),
        lambda s: sr.meld(s, 1, [cards("7S 7H 7D")]),
        sr.InvalidMeldError,
        "a player who is down may not lay down new groups (variant.going_down.new_melds=never)",
    ),
    "a new group on the opening turn in Rummy 51 (after a lay-off ended the opening)": (
        lambda: _laid_off(
            sr.meld(
                _r51_starter("6S 7S 8S 10D 10C 10H QC QD QH 2S 3H 4D 5S 7C 9C"),
                1,
                [cards("6S 7S 8S"), cards("10D 10C 10H")],
            ),
            "5S",
        ),
        lambda s: sr.meld(s, 1, [cards("QC QD QH")]),
        sr.InvalidMeldError,
        "new groups may be laid down only on a later turn than going down "
        "(variant.going_down.new_melds=later_turns)",
    ),
    "a lay-off on a meld that is not there": (
        lambda: sr.meld(shanghai_two_sets_drawn("2S 3D"), 1, SETS_8C_9C),
        lambda s: sr.lay_off(s, 1, C("2S"), 99),
        sr.LayOffError,
        "there is no meld #99 on the table (meld ids: 1, 2)",
    ),
    "a swap on an empty table": (
        lambda: sr.draw(sr.new_game(SHANGHAI, players=3, seed=1), 1, DISCARD),
        lambda s: sr.swap_joker(s, 1, next(c for c in s.hand(1) if not c.is_joker), 99),
        sr.JokerSwapError,
        "there is no meld #99 on the table (meld ids: none)",
    ),
    "a lay-off before going down": (
        shanghai_two_sets_drawn,
        lambda s: sr.lay_off(s, 1, C("8C"), 1),
        sr.LayOffError,
        "only a player who is down may lay off cards",
    ),
    "a lay-off on the going-down turn in camping": (
        lambda: sr.meld(
            pass_offers(
                sr.draw(
                    stacked(
                        CAMPING,
                        {1: cards("8C 8D 8H 9C 9D 8S")},
                        upcard=C("KS"),
                        stock_top=cards("9H"),
                    ),
                    1,
                    STOCK,
                )
            ),
            1,
            SETS_8C_9C,
        ),
        lambda s: sr.lay_off(s, 1, C("8S"), 1),
        sr.LayOffError,
        "cannot lay off on the turn you went down: only on later turns "
        "(variant.going_down.lay_off_same_turn=false)",
    ),
    "a swap where nobody may swap": (
        lambda: sr.meld(
            sr.draw(
                stacked(NOBODY_SWAPS, {1: cards("8H 8D JK 9C 9H 9S 8C 2S")}, upcard=C("KS")),
                1,
                DISCARD,
            ),
            1,
            [cards("8H 8D JK"), cards("9C 9H 9S")],
        ),
        lambda s: sr.swap_joker(s, 1, C("8C"), 1),
        sr.JokerSwapError,
        "jokers may not be taken from the table (variant.joker_swap.who=nobody)",
    ),
    "a swap by a seat not down in camping": (
        lambda: sr.draw(sr.new_game(CAMPING, players=3, seed=1), 1, DISCARD),
        lambda s: sr.swap_joker(s, 1, C("8C"), 1),
        sr.JokerSwapError,
        "only a player who is down may swap a joker (variant.joker_swap.who=down_only)",
    ),
    "a joker given for a joker": (
        lambda: sr.meld(
            sr.draw(
                stacked(SHANGHAI, {1: cards("8H 8D JK 9C 9H 9S JK 2S")}, upcard=C("KS")), 1, DISCARD
            ),
            1,
            [cards("8H 8D JK"), cards("9C 9H 9S")],
        ),
        lambda s: sr.swap_joker(s, 1, sr.JOKER, 1),
        sr.JokerSwapError,
        "a joker is swapped for the natural card it stands for, not JK",
    ),
    "a swap that could not be followed by going down": (
        lambda: _shanghai_swap_deal("8C 2S 4D 6H 10S QC 3D 5H 7C 9D JH"),
        lambda s: sr.swap_joker(s, 2, C("8C"), 1),
        sr.JokerSwapError,
        "you swapped a joker while not down, so you must go down this turn "
        "(variant.joker_swap.must_go_down_same_turn), and this hand with the joker cannot go "
        "down: swap refused",
    ),
    "a discard before going down after a swap": (
        lambda: sr.swap_joker(_shanghai_swap_deal(CAN_GO_DOWN_WITH_JK), 2, C("8C"), 1),
        lambda s: sr.discard(s, 2, C("2S")),
        sr.GoOutError,
        "cannot discard yet: you swapped a joker while not down, so you must go down this turn "
        "(variant.joker_swap.must_go_down_same_turn)",
    ),
    "a swap on the opening turn in Rummy 51": (
        lambda: sr.meld(
            _r51_starter("6S JK 8S 10D 10C 10H 7S 5C 5D 2S 3H 4D 9S 7C 9C"),
            1,
            [cards("6S JK 8S"), cards("10D 10C 10H")],
        ),
        lambda s: sr.swap_joker(s, 1, C("7S"), 1),
        sr.JokerSwapError,
        "the joker must go into a new group this turn (variant.joker_swap.joker_into_new_meld), "
        "and you may not lay down a new group this turn",
    ),
    "a swap whose joker no group could take": (
        lambda: rummy51_opened_seat_1(NO_GROUP_FOR_JK),
        lambda s: sr.swap_joker(s, 1, C("7S"), 1),
        sr.JokerSwapError,
        "the joker must go into a new group this turn (variant.joker_swap.joker_into_new_meld), "
        "and this hand cannot make a group with it",
    ),
    "a discard while a swapped joker is owed": (
        lambda: sr.swap_joker(rummy51_opened_seat_1(), 1, C("7S"), 1),
        lambda s: sr.discard(s, 1, C("2C")),
        sr.GoOutError,
        "cannot discard yet: 1 joker(s) taken by a swap must go into a new group this turn "
        "(variant.joker_swap.joker_into_new_meld)",
    ),
    "a lay-off that leaves the owed joker no group": (
        lambda: sr.swap_joker(rummy51_opened_seat_1(ONE_GROUP_FOR_JK), 1, C("7S"), 1),
        lambda s: sr.lay_off(s, 1, C("5S"), 1),
        sr.JokerSwapError,
        "cannot lay off that: the joker taken by a swap must still go into a new group this "
        "turn (variant.joker_swap.joker_into_new_meld), and this would leave no way to",
    ),
    "a go-out whose lay-offs come after the hand is empty": (
        shanghai_two_sets_drawn,
        lambda s: sr.go_out(s, 1, SETS_8C_9C, [(C("8C"), 1)]),
        sr.GoOutError,
        "the hand was empty before every lay-off was made",
    ),
    "a go-out whose discard comes after the hand is empty": (
        shanghai_two_sets_drawn,
        lambda s: sr.go_out(s, 1, SETS_8C_9C, discard=C("8C")),
        sr.GoOutError,
        "the hand was empty before the discard",
    ),
    "a go-out that does not go out": (
        lambda: shanghai_two_sets_drawn("2S 3S 4D"),
        lambda s: sr.go_out(s, 1, SETS_8C_9C),
        sr.GoOutError,
        "these moves do not go out: seat 1 would hold 3 card(s)",
    ),
    **{
        f"a planned lay-off given as {name}": (
            shanghai_two_sets_drawn,
            _go_out_with(item),
            sr.RummyError,
            f"a lay-off is PlannedLayOff(card, meld_id, end) or a tuple, not {item!r}",
        )
        for name, item in (
            ("a card", C("9S")),
            ("a card code", "9S"),
            ("a 4-tuple", (C("9S"), 2, "high", 0)),
        )
    },
    "a score before the deal ends": (
        lambda: sr.new_game(SHANGHAI, players=3, seed=1),
        sr.score,
        sr.WrongPhaseError,
        "no deal to score: the deal is still in phase 'draw'",
    ),
    "a score during the next deal": (
        lambda: sr.next_deal(deal_over()),
        sr.score,
        sr.WrongPhaseError,
        "no deal to score: the deal is still in phase 'draw'",
    ),
    "a next deal after the last": (
        game_over,
        sr.next_deal,
        sr.WrongPhaseError,
        "the game is over: there is no next deal",
    ),
    "a next deal during a deal": (
        lambda: sr.new_game(SHANGHAI, players=3, seed=1),
        sr.next_deal,
        sr.WrongPhaseError,
        "the deal is still in progress (phase 'draw'): finish it first",
    ),
    "something that is not an action": (
        lambda: sr.new_game(SHANGHAI, players=3, seed=1),
        lambda s: sr.apply(s, "8C"),  # type: ignore[arg-type]
        sr.RummyError,
        "not an action: '8C'",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_every_refusal_names_its_rule_in_words(name: str) -> None:
    build, move, error, message = REFUSALS[name]
    state = checked(build())
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        move(state)


# --- what each move records ------------------------------------------------------------------


def test_history_records_every_action_once_in_order_and_a_go_out_as_one() -> None:
    state = sr.new_game(SHANGHAI, players=3, seed=4)
    actions: list[sr.Action] = []
    for _ in range(6):
        action = sr.legal_actions(state)[0]
        actions.append(action)
        state = sr.apply(state, action)
    assert state.history == tuple(actions)
    assert state.log is not None and len(state.log) == 6
    before = shanghai_two_sets_drawn("8S")
    go_out = sr.GoOut(1, SETS_8C_9C, [sr.PlannedLayOff(C("8S"), 1)])
    out = checked(sr.apply(before, go_out))
    assert out.history == (*before.history, go_out)


def test_going_down_lays_melds_owned_by_the_seat_with_the_next_ids() -> None:
    down = checked(sr.meld(shanghai_two_sets_drawn("2S 3D"), 1, SETS_8C_9C))
    assert [(meld.id, meld.owner) for meld in down.table] == [(1, 1), (2, 1)]
    assert down.next_meld_id == 3 and down.is_down(1)


def test_draw_from_the_stock_after_the_offer_remembers_the_offer_and_the_discarder() -> None:
    state = quiet_turn(sr.new_game(SHANGHAI, players=4, seed=2))  # seat 1 discarded
    offered = checked(sr.draw(state, 2, STOCK))
    assert offered.phase is sr.Phase.BUY and offered.turn_state.offered
    drawn = checked(pass_offers(offered))
    assert drawn.phase is sr.Phase.PLAY and drawn.to_act == 2
    assert drawn.turn_state.offered and drawn.turn_state.discarded_by == 1
    assert drawn.turn_state.drawn and not drawn.turn_state.buy_queue


def test_taking_the_upcard_kills_it_and_starts_the_play() -> None:
    state = sr.new_game(SHANGHAI, players=3, seed=1)
    upcard = state.upcard
    taken = checked(sr.draw(state, 1, DISCARD))
    assert taken.upcard is None and taken.hand(1)[-1] == upcard and taken.turn_state.drawn


# --- the buying offer ------------------------------------------------------------------------


def test_a_pass_offers_the_upcard_to_the_next_buyer_in_priority_order() -> None:
    offered = sr.draw(sr.new_game(SHANGHAI, players=4, seed=2), 1, STOCK)
    assert offered.turn_state.buy_queue == (2, 3, 0) and offered.to_act == 2
    second = checked(sr.pass_buy(offered, 2))
    assert second.to_act == 3 and second.turn_state.buy_queue == (3, 0)
    third = checked(sr.pass_buy(second, 3))
    assert third.to_act == 0 and third.turn_state.buy_queue == (0,)
    drawn = checked(sr.pass_buy(third, 0))
    assert (
        drawn.phase is sr.Phase.PLAY
        and drawn.to_act == 1
        and drawn.history[-3:]
        == (
            sr.PassBuy(2),
            sr.PassBuy(3),
            sr.PassBuy(0),
        )
    )


def test_down_players_turn_after_a_buy_the_upcard_is_gone() -> None:
    offered = sr.discard(seat_0_plays_before_down_seat_1(), 0, C("2H"))
    assert offered.phase is sr.Phase.BUY and offered.turn == 1
    bought = checked(sr.buy(offered, offered.to_act or 0))
    assert bought.phase is sr.Phase.DRAW and bought.to_act == 1 and bought.upcard is None
    assert bought.turn_state.buy_queue == ()
    assert sr.legal_actions(bought) == (sr.Draw(1, STOCK),)


def test_down_players_turn_when_nobody_buys_the_upcard_is_still_live() -> None:
    offered = sr.discard(seat_0_plays_before_down_seat_1(), 0, C("2H"))
    passed = checked(pass_offers(offered))
    assert passed.phase is sr.Phase.DRAW and passed.upcard == C("2H")
    assert passed.turn_state.buy_queue == () and sr.Draw(1, DISCARD) in sr.legal_actions(passed)


# --- the cut card ------------------------------------------------------------------------------


SHANGHAI_CUT_CARD = house(SHANGHAI, "shanghai-cut-card", scoring__cut_card_hand=-100)


def test_cut_card_stays_while_the_stock_is_drawn_and_goes_with_its_last_card() -> None:
    state = rummy51_cut_card_deal()
    drawn = checked(sr.draw(state, 0, STOCK))
    assert drawn.cut_card == C("KC") and drawn.stock[-1] == C("KC")
    last = attrs.evolve(
        state, stock=state.stock[-1:], discard_pile=state.stock[:-1] + state.discard_pile
    )
    emptied = checked(sr.draw(checked(last), 0, STOCK))
    assert emptied.cut_card is None and emptied.hand(0)[-1] == C("KC") and not emptied.stock


def test_taking_the_cut_card_takes_the_bottom_of_the_stock() -> None:
    state = rummy51_cut_card_deal()
    taken = checked(sr.draw(state, 0, CUT_CARD))
    assert taken.stock == state.stock[:-1] and taken.hand(0)[-1] == C("KC")
    assert taken.cut_card is None and taken.upcard is None and taken.to_act == 0
    assert taken.history[-1] == sr.Draw(0, CUT_CARD) and taken.turn_state.took_cut_card


def test_cut_card_where_every_card_is_played_goes_out_by_melding() -> None:
    hand = cards("8C 8D 8H 9C 9D")
    state = stacked(SHANGHAI_CUT_CARD, {1: hand}, upcard=C("KS"))
    state = checked(with_cut_card(state, C("9H")))
    taken = checked(sr.draw(state, 1, CUT_CARD))
    out = checked(sr.meld(taken, 1, SETS_8C_9C))
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).points[1] == -100


def test_cut_card_where_every_card_is_played_leaves_not_even_one() -> None:
    state = stacked(SHANGHAI_CUT_CARD, {1: cards("8C 8D 8H 8S 9C 9D")}, upcard=C("KS"))
    taken = sr.draw(with_cut_card(state, C("9H")), 1, CUT_CARD)
    with pytest.raises(sr.GoOutError, match="cards would be left over"):
        sr.meld(taken, 1, SETS_8C_9C)


def test_cut_card_where_the_last_card_is_discarded_leaves_exactly_one() -> None:
    taken = sr.draw(rummy51_cut_card_deal(), 0, CUT_CARD)
    with pytest.raises(sr.GoOutError, match="cards would be left over"):
        sr.meld(taken, 0, [HAND_WIN[0], cards("4C 5C 6C 7C"), HAND_WIN[2], HAND_WIN[3]])


def test_a_buy_leaves_the_cut_card_unless_it_takes_it() -> None:
    state = stacked(SHANGHAI_CUT_CARD, {}, upcard=C("KS"))
    bought = checked(sr.buy(sr.draw(checked(state), 1, STOCK), 2))
    assert bought.cut_card == state.cut_card == bought.stock[-1]
    short = sr.discard(seat_0_plays_before_down_seat_1(), 0, C("2H"))
    short = attrs.evolve(
        short,
        variant=SHANGHAI_CUT_CARD,
        stock=short.stock[:2],
        discard_pile=short.stock[2:] + short.discard_pile,
        cut_card=short.stock[1],
    )
    emptied = checked(sr.buy(checked(short), 2))
    assert not emptied.stock and emptied.cut_card is None


# --- joker swaps ---------------------------------------------------------------------------------


def test_a_player_who_is_down_keeps_a_swapped_joker_freely_in_shanghai() -> None:
    hand = cards("8H 8D JK 9C 9H 9S 2C 8C 5D")
    state = stacked(SHANGHAI, {1: hand}, upcard=C("KS"))
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, [cards("8H 8D JK"), cards("9C 9H 9S")])
    state = quiet_turn(quiet_turn(quiet_turn(sr.discard(state, 1, C("2C")))))
    state = checked(sr.draw(pass_offers(state), 1, STOCK))
    swapped = checked(sr.swap_joker(state, 1, C("8C"), 1))
    assert sr.JOKER in swapped.hand(1) and swapped.turn_state.must_go_down is None
    checked(sr.discard(swapped, 1, C("5D")))


UPCARD_OBLIGES = house(
    SHANGHAI,
    "upcard-obliges",
    drawing__upcard_obliges_going_down_from_turn=1,
    joker_swap__must_go_down_same_turn=False,
)


def _upcard_taken_under_obligation(hand: tuple[sr.Card, ...]) -> sr.GameState:
    """Seat 1 went down with 8H 8D JK and 9C 9H 9S; seat 2, not down, takes the 2C it
    discarded on a turn where taking the upcard obliges going down."""
    starter = cards("8H 8D JK 9C 9H 9S 2C 5D")
    state = stacked(UPCARD_OBLIGES, {1: starter, 2: hand}, upcard=C("KS"))
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, [cards("8H 8D JK"), cards("9C 9H 9S")])
    taken = checked(sr.draw(sr.discard(state, 1, C("2C")), 2, DISCARD))
    assert taken.turn_state.must_go_down is not None
    return taken


def test_a_swap_that_leaves_an_upcard_obligation_unmeetable_is_refused() -> None:
    # 8C 8S JK and 2C 2D 2H go down; with the 8C given for the table's joker, 8S JK JK is
    # no set (jokers <= natural cards) and the turn could not end: the swap is refused, as
    # the swap's own obligation to go down would refuse it
    taken = _upcard_taken_under_obligation(cards("8C 8S JK 2D 2H 3C 5S 7H 10S QC KD"))
    assert not [a for a in sr.legal_actions(taken) if isinstance(a, sr.SwapJoker)]
    with pytest.raises(sr.JokerSwapError, match=r"obliges going down this turn.*cannot go down"):
        sr.swap_joker(taken, 2, C("8C"), taken.table[0].id)


def test_a_swap_that_keeps_an_upcard_obligation_meetable_is_allowed() -> None:
    taken = _upcard_taken_under_obligation(cards("8C 8C 8S JK 2D 2H 3C 5S 7H 10S QC"))
    swap = sr.SwapJoker(2, C("8C"), taken.table[0].id)
    assert swap in sr.legal_actions(taken)
    swapped = checked(sr.apply(taken, swap))
    assert any(isinstance(a, sr.Meld) for a in sr.legal_actions(swapped))


NEVER_DISCARD_OUT = house(
    R51,
    "never-out",
    going_out=sr.GoOutDiscard.NEVER,
    going_down__lay_off_same_turn=False,
    joker_swap__who=sr.SwapWho.ANYONE,
    joker_swap__joker_into_new_meld=False,
)


def test_a_last_card_swapped_for_a_joker_that_cannot_be_played_does_not_count_as_a_play() -> None:
    # going out only by playing every card, a player may go down to one card only if it can
    # still play it; giving its 7S for seat 1's joker would leave a joker it can neither lay
    # off this turn nor discard, so that swap is no play, and going down to the 7S is refused
    starter = cards("6S JK 8S 10D 10C 10H 7H 10S 5C 5D 2H 9H 9C QS 3D")
    hand = cards("QH QD QC KH KD KC 2S 3S 4S 5S 7S 9C 9D 9H")
    state = sr.deal_from(NEVER_DISCARD_OUT, hands=[hand, starter], stock_top=cards("9S 4C"))
    state = sr.discard(sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")]), 1, C("2H"))
    state = checked(sr.draw(state, 0, STOCK))
    groups = [cards("QH QD QC"), cards("KH KD KC"), cards("2S 3S 4S 5S"), cards("9C 9D 9H 9S")]
    with pytest.raises(sr.GoOutError, match="one card you can neither play nor discard"):
        sr.meld(state, 0, groups)
    melds = [a for a in sr.legal_actions(state) if isinstance(a, sr.Meld)]
    assert melds and all(len(state.hand(0)) - sum(map(len, a.groups)) != 1 for a in melds)


def test_a_swapped_joker_owed_allows_plays_that_keep_a_group_for_it() -> None:
    owes = checked(sr.swap_joker(rummy51_opened_seat_1(ONE_GROUP_FOR_JK), 1, C("7S"), 1))
    assert owes.turn_state.jokers_to_meld == 1
    laid = checked(sr.lay_off(owes, 1, C("10S"), 2))
    melded = checked(sr.meld(laid, 1, [cards("5S 5H JK")]))
    assert melded.turn_state.jokers_to_meld == 0
    checked(sr.discard(melded, 1, C("2S")))


def _rummy51_two_jokers_on_the_table() -> sr.GameState:
    """Rummy 51: seat 1 opened with 6S JK 8S and 10D JK 10H, and has drawn 4C on its next
    turn, holding 7S and 10S for both jokers."""
    starter = cards("6S JK 8S 10D JK 10H 7S 10S 5C 5D 2H 9H 9C QS 3D")
    seat0 = cards("2D 3C 4D 5H 6H 8H JH JC QC KC AC AS 3S 4S")
    state = sr.deal_from(R51, hands=[seat0, starter], stock_top=cards("2C 4C"))
    state = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D JK 10H")])
    state = sr.discard(state, 1, C("2H"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("2C"))
    return sr.draw(state, 1, STOCK)


def test_two_swaps_in_one_turn_owe_two_jokers_until_both_are_laid_down() -> None:
    state = checked(_rummy51_two_jokers_on_the_table())
    once = checked(sr.swap_joker(state, 1, C("7S"), 1))
    twice = checked(sr.swap_joker(once, 1, C("10S"), 2))
    assert (once.turn_state.jokers_to_meld, twice.turn_state.jokers_to_meld) == (1, 2)
    one_laid = checked(sr.meld(twice, 1, [cards("5C 5D JK")]))
    assert one_laid.turn_state.jokers_to_meld == 1
    with pytest.raises(sr.GoOutError, match="1 joker"):
        sr.discard(one_laid, 1, C("QS"))
    both_laid = checked(sr.meld(one_laid, 1, [cards("9C 9H JK")]))
    assert both_laid.turn_state.jokers_to_meld == 0
    checked(sr.discard(both_laid, 1, C("QS")))


def test_buy_that_empties_the_stock_hands_the_in_turn_seat_a_restocked_card() -> None:
    state = short_stock(sr.new_game(CAMPING, players=4, seed=6), 1)
    bought = checked(sr.buy(sr.draw(state, 1, STOCK), 2))
    assert bought.phase is sr.Phase.PLAY and bought.to_act == 1 and bought.turn == 1
    assert bought.upcard is None and bought.restocks == 1


# --- lay-offs, going out, GoOut ------------------------------------------------------------------


def test_one_turn_out_laying_off_a_joker_counts_as_using_one() -> None:
    lay_off_at_once = house(CAMPING, "camping-lay-off-at-once", going_down__lay_off_same_turn=True)
    hand = cards("8C 8D 8H 9C 9D 9H JK")
    state = stacked(lay_off_at_once, {1: hand}, upcard=C("KS"), stock_top=cards("5S"))
    state = pass_offers(sr.draw(state, 1, STOCK))
    go_out = sr.GoOut(1, SETS_8C_9C, [sr.PlannedLayOff(sr.JOKER, 1)], discard=C("5S"))
    out = checked(sr.apply(state, go_out))
    assert sr.score(out).points[1] == lay_off_at_once.scoring.one_turn_out == -25
    assert out.discard_pile[-1] == C("5S") and out.hand(1) == ()


def test_going_out_by_discarding_empties_the_hand_onto_the_pile() -> None:
    state = stacked(CAMPING, {1: cards("8C 8D 8H 9C 9D 9H")}, upcard=C("KS"), stock_top=cards("5S"))
    down = sr.meld(pass_offers(sr.draw(state, 1, STOCK)), 1, SETS_8C_9C)
    out = checked(sr.discard(down, 1, C("5S")))
    assert out.hand(1) == () and out.discard_pile[-1] == C("5S")
    assert sr.score(out).winner == 1 and sr.score(out).seats[1].cards == ()


def test_go_out_lays_a_joker_off_at_the_end_it_names() -> None:
    runs = [cards("4C 5C 6C 7C"), cards("4D 5D 6D 7D")]
    hand = (*runs[0], *runs[1])
    state = stacked(SHANGHAI, {1: hand}, upcard=C("KS"), stock_top=cards("JK"), deal_number=3)
    state = pass_offers(sr.draw(state, 1, STOCK))
    with pytest.raises(sr.LayOffError, match="fits both ends"):
        sr.go_out(state, 1, runs, [(sr.JOKER, 1)])
    high = checked(sr.apply(state, sr.GoOut(1, runs, [sr.PlannedLayOff(sr.JOKER, 1, "high")])))
    assert high.table[0].cards[-1] == sr.JOKER and high.table[0].start == 4
    low = checked(sr.go_out(state, 1, runs, [(sr.JOKER, 1, "low")]))
    assert low.table[0].cards[0] == sr.JOKER and low.table[0].start == 3


# --- the stock and the turn limit ----------------------------------------------------------------


# one deck and no jokers, so that a few turns reach the end of the stock while every hand
# holds only what its seat can reach (cards dealt, drawn and bought)
ONE_DECK_FIVE_SEATS = house(
    SHANGHAI,
    "one-deck-five-seats",
    max_players=5,
    packs=(sr.PackSize(min_players=2, max_players=5, decks=1, jokers=0),),
    deals=(sr.DealSpec(requirement=sr.Contract(sets=(3, 3)), cards=10),),
)
ONE_DECK = house(
    SHANGHAI,
    "one-deck",
    max_players=4,
    packs=(sr.PackSize(min_players=2, max_players=4, decks=1, jokers=0),),
)


def test_restock_from_a_pile_of_two_leaves_its_top_and_stocks_one() -> None:
    state = checked(sr.new_game(ONE_DECK_FIVE_SEATS, players=5, seed=1))
    assert state.stock_size == 1 and len(state.discard_pile) == 1  # 52 = 5 x 10 + 1 + 1
    upcard = state.upcard
    drawn = sr.draw(state, 1, STOCK)  # the last card: nobody may buy, two penalty cards short
    assert drawn.phase is sr.Phase.PLAY and not drawn.stock
    discarded = drawn.hand(1)[0]
    next_turn = checked(sr.discard(drawn, 1, discarded))
    assert next_turn.phase is sr.Phase.DRAW and next_turn.restocks == 1
    assert next_turn.stock == (upcard,) and next_turn.discard_pile == (discarded,)


def test_restock_shuffles_the_same_way_for_the_same_seed() -> None:
    state = short_stock(sr.new_game(SHANGHAI, players=4, seed=6), 1)
    once = sr.discard(sr.draw(state, 1, STOCK), 1, state.stock[0])
    again = sr.discard(sr.draw(state, 1, STOCK), 1, state.stock[0])
    assert once.restocks == 1 and once.stock == again.stock


def test_max_restocks_ends_the_deal_with_no_winner_when_the_stock_runs_out_again() -> None:
    # issue 24, house rule 9: at most N re-stocks, then the deal ends with no winner
    for most, restocks_before, ends in ((0, 0, True), (1, 0, False), (1, 1, True), (2, 1, False)):
        capped = house(ONE_DECK_FIVE_SEATS, f"restocks-{most}", stock__max_restocks=most)
        state = sr.new_game(capped, players=5, seed=1)  # a stock of 1, a pile of 1
        state = checked(attrs.evolve(state, restocks=restocks_before))
        drawn = sr.draw(state, 1, STOCK)
        after = checked(sr.discard(drawn, 1, drawn.hand(1)[0]))
        if ends:
            assert after.phase is sr.Phase.DEAL_OVER and after.results[-1].winner is None
            assert after.restocks == restocks_before
        else:
            assert after.phase is sr.Phase.DRAW and after.restocks == restocks_before + 1


def test_max_restocks_is_bounded_and_checked_in_states() -> None:
    for bad in (-1, 1001, True):
        with pytest.raises(sr.VariantError, match=r"stock.max_restocks"):
            house(SHANGHAI, "bad-restocks", stock__max_restocks=bad)
    capped = house(SHANGHAI, "one-restock", stock__max_restocks=1)
    state = attrs.evolve(sr.new_game(capped, players=3, seed=1), restocks=2)
    with pytest.raises(sr.InvalidStateError, match=r"restocks.*at most 1"):
        sr.validate(state)


def test_down_players_draw_after_a_buy_restocks_exactly_one_card() -> None:
    hand = cards("8H 8D 8S 9C 9H 9S 2C 5D 4C 6D 10C")
    state = stacked(ONE_DECK, {1: hand}, upcard=C("KS"))  # a stock of 7
    state = sr.discard(sr.meld(sr.draw(state, 1, DISCARD), 1, SETS_8_9), 1, C("2C"))
    state = sr.buy(sr.draw(state, 2, STOCK), 3)  # seat 3 buys 2C with two penalty cards
    state = pass_offers_only(state)
    state = quiet_turn(sr.discard(state, 2, state.hand(2)[0]))  # seat 3's turn
    state = pass_offers_only(sr.draw(state, 0, STOCK))
    tight = checked(sr.discard(state, 0, state.hand(0)[0]))
    assert tight.stock_size == 2 and len(tight.discard_pile) == 3 and tight.is_down(1)
    bought = checked(sr.buy(tight, 2))
    assert not bought.stock and len(bought.discard_pile) == 2
    drawn = checked(sr.draw(bought, 1, STOCK))
    assert drawn.phase is sr.Phase.PLAY and drawn.restocks == 1 and not drawn.stock


def pass_offers_only(state: sr.GameState) -> sr.GameState:
    """Every seat still offered the upcard passes."""
    while state.phase is sr.Phase.BUY:
        assert state.to_act is not None
        state = sr.pass_buy(state, state.to_act)
    return state


def test_turn_limit_ends_the_deal_with_the_last_discard_on_the_pile() -> None:
    limited = house(SHANGHAI, "three-turns", stock__turn_limit=3)
    state = sr.new_game(limited, players=3, seed=1)
    state = quiet_turn(quiet_turn(state))
    seat = state.turn
    drawn = pass_offers(sr.draw(state, seat, STOCK))
    card = drawn.hand(seat)[0]
    ended = checked(sr.discard(drawn, seat, card))
    assert ended.phase is sr.Phase.DEAL_OVER and ended.discard_pile[-1] == card
    assert card not in ended.hand(seat) or drawn.hand(seat).count(card) > 1


def test_a_deal_always_has_a_turn_limit() -> None:
    # issue 21, finding 17: "no limit" let a deal nobody could win run 22,489 turns
    with pytest.raises(sr.VariantError, match=r"stock.turn_limit: expected int, got NoneType"):
        house(SHANGHAI, "no-turn-limit", stock__turn_limit=None)
    longest = house(SHANGHAI, "longest", stock__turn_limit=1000)
    state = quiet_turn(quiet_turn(sr.new_game(longest, players=3, seed=1)))
    assert checked(state).phase is sr.Phase.DRAW and state.turns_this_deal == 3


# --- scoring: points and the words for them -------------------------------------------------------


def test_deal_result_explains_every_seat() -> None:
    hands = ((), cards("5D"), cards("5D 6D"))
    result = score_deal(SHANGHAI.scoring, 4, hands, (True, True, False), 0)
    assert result == score_deal(
        SHANGHAI.scoring,
        4,
        hands,
        (True, True, False),
        0,
        one_turn_out=False,
        used_joker=False,
        took_cut_card=False,
    )
    assert result.deal_number == 4 and result.winner == 0 and not result.one_turn_out
    assert [(s.seat, s.cards, s.points, s.reason) for s in result.seats] == [
        (0, (), 0, "went out"),
        (1, cards("5D"), 5, "1 card left"),
        (2, cards("5D 6D"), 10, "2 cards left"),
    ]


def test_one_turn_out_bonus_without_jokers_unless_told_a_joker_was_used() -> None:
    hands = ((), cards("5D"), cards("6D"))
    blind = score_deal(CAMPING.scoring, 1, hands, (True, True, True), 0, one_turn_out=True)
    with_joker = score_deal(
        CAMPING.scoring, 1, hands, (True, True, True), 0, one_turn_out=True, used_joker=True
    )
    assert blind.points[0] == -50 and with_joker.points[0] == -25


def test_one_turn_out_explains_the_bonus_and_the_multiplier() -> None:
    hands = ((), cards("5D 6D"), cards("2C"))
    result = score_deal(R51.scoring, 2, hands, (True, True, False), 0, one_turn_out=True)
    assert result.one_turn_out and result.points == (-80, 22, 200)
    assert [s.reason for s in result.seats] == [
        "went down and out in one turn",
        "2 cards left, x2 after a one-turn out",
        "never went down: flat 100, x2 after a one-turn out",
    ]


def test_cut_card_score_only_for_a_hand_made_with_the_cut_card() -> None:
    scoring = R51_CUT_CARD.scoring
    hands = ((), cards("5D"))
    plain = score_deal(scoring, 1, hands, (True, True), 0, one_turn_out=True)
    with_cut = score_deal(scoring, 1, hands, (True, True), 0, one_turn_out=True, took_cut_card=True)
    assert plain.points[0] == -80 and with_cut.points[0] == -120
    assert score_deal(scoring, 1, hands, (True, True), 0, took_cut_card=True).points[0] == -40


def test_a_finished_deal_is_scored_under_its_number() -> None:
    over = checked(deal_over())
    assert sr.score(over).deal_number == 1 and over.results[-1] is sr.score(over)
    assert over.totals == sr.score(over).points
