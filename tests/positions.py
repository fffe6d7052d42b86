"""Stacked positions shared by the rule-detail tests: each function builds one moment of a
game that random play reaches rarely, by legal moves from a stacked deal."""

from __future__ import annotations

from typing import Any

import attrs

import shanghai_rummy as sr

from .helpers import C, cards, stacked

SHANGHAI = sr.get_variant("shanghai")
CAMPING = sr.get_variant("shanghai-camping")
R51 = sr.get_variant("rummy51")
STOCK, DISCARD, CUT_CARD = sr.Source.STOCK, sr.Source.DISCARD, sr.Source.CUT_CARD


def house(variant: sr.Variant, name: str, **changes: object) -> sr.Variant:
    """``variant`` with some policy objects' fields changed: ``changes`` maps "policy.field"
    (or a top-level field) to its new value."""
    policies: dict[str, dict[str, object]] = {}
    top: dict[str, object] = {}
    for key, value in changes.items():
        policy, _, field = key.partition("__")
        if field:
            policies.setdefault(policy, {})[field] = value
        else:
            top[policy] = value
    for policy, fields in policies.items():
        top[policy] = attrs.evolve(getattr(variant, policy), **fields)
    return attrs.evolve(variant, id=name, **top)  # type: ignore[arg-type]


def pass_offers(state: sr.GameState) -> sr.GameState:
    """Every seat offered the upcard passes."""
    while state.phase is sr.Phase.BUY:
        assert state.to_act is not None
        state = sr.pass_buy(state, state.to_act)
    return state


def quiet_turn(state: sr.GameState) -> sr.GameState:
    """The seat in turn draws from the stock (nobody buys) and discards its first card."""
    seat = state.turn
    state = pass_offers(sr.draw(pass_offers(state), seat, STOCK))
    return sr.discard(state, seat, state.hand(seat)[0])


SETS_8_9 = [cards("8H 8D 8S"), cards("9C 9H 9S")]


def shanghai_seat_1_down(**options: Any) -> sr.GameState:
    """Shanghai, 4 seats: seat 1 took the upcard, went down with two sets and discarded 2C;
    seat 2 is to draw."""
    hand = cards("8H 8D 8S 9C 9H 9S 2C 5D")
    state = stacked(SHANGHAI, {1: hand}, upcard=C("KS"), **options)
    state = sr.meld(sr.draw(state, 1, DISCARD), 1, SETS_8_9)
    return sr.discard(state, 1, C("2C"))


def seat_0_plays_before_down_seat_1() -> sr.GameState:
    """Shanghai, 4 seats: seat 1 is down; seat 0 has drawn and will discard, and seat 1's turn
    then begins with the upcard offered to the others first."""
    state = quiet_turn(quiet_turn(shanghai_seat_1_down()))
    return pass_offers(sr.draw(state, 0, STOCK))


def with_cut_card(state: sr.GameState, card: sr.Card) -> sr.GameState:
    """The same deal with ``card`` moved to the bottom of the stock, as the cut card."""
    stock = list(state.stock)
    index = stock.index(card)
    stock[index], stock[-1] = stock[-1], stock[index]
    return attrs.evolve(state, stock=tuple(stock), cut_card=card)


R51_CUT_CARD = house(R51, "rummy51-cut-card", scoring__cut_card_hand=-120)
HAND_WIN = [cards("AH 2H 3H"), cards("4C 5C 6C 7C 8C"), cards("8D 8H 8S"), cards("JC QC KC")]


def rummy51_cut_card_deal() -> sr.GameState:
    """Rummy 51 with the cut-card house rule: seat 1 opened with 6S JK 8S and the tens; seat 0
    is to draw and may go out by hand with the cut card KC (HAND_WIN, discarding 9S)."""
    seat0 = cards("AH 2H 3H 4C 5C 6C 7C 8C 8D 8H 8S JC QC 9S")
    starter = cards("6S JK 8S 10D 10C 10H 2C 3D 4H 9D JH QS KD 5S 3C")
    state = with_cut_card(sr.deal_from(R51_CUT_CARD, hands=[seat0, starter]), C("KC"))
    state = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    return sr.discard(state, 1, C("KD"))


def rummy51_opened_seat_1(seat1_extra: str = "7S 5C 5D 2C 4H 9D JH QS KD") -> sr.GameState:
    """Rummy 51, 2 seats: seat 1 (the starter) opened with 6S JK 8S and 10D 10C 10H and
    discarded KD; seat 0 drew 2H and discarded it; seat 1 has drawn 4C and is to play."""
    starter = (*cards("6S JK 8S 10D 10C 10H"), *cards(seat1_extra))
    seat0 = cards("2D 3D 4D 5H 6H 8H 9H JC QC KC AC AS 3S 4S")
    state = sr.deal_from(R51, hands=[seat0, starter], stock_top=cards("2H 4C"))
    state = sr.meld(state, 1, [cards("6S JK 8S"), cards("10D 10C 10H")])
    state = sr.discard(state, 1, C("KD"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("2H"))
    return sr.draw(state, 1, STOCK)


def shanghai_two_sets_drawn(extra: str = "", **options: Any) -> sr.GameState:
    """Shanghai: seat 1 has drawn 9H and holds 8C 8D 8H 9C 9D 9H and ``extra``."""
    hand = cards(f"8C 8D 8H 9C 9D {extra}")
    state = stacked(SHANGHAI, {1: hand}, upcard=C("KS"), stock_top=cards("9H"), **options)
    return pass_offers(sr.draw(state, 1, STOCK))


SETS_8C_9C = [cards("8C 8D 8H"), cards("9C 9D 9H")]


def deal_over() -> sr.GameState:
    """Shanghai deal 1 just ended: seat 1 went out with two sets."""
    state = shanghai_two_sets_drawn()
    return sr.meld(state, 1, SETS_8C_9C)


def game_over() -> sr.GameState:
    """Shanghai's last deal (10, three runs of 5) just ended: seat 1 went out, with the
    15 cards its 11 dealt, a buy of the upcard (two penalty cards) and its draw give it."""
    state = stacked(
        SHANGHAI,
        {1: cards("3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 3H")},
        upcard=C("4H"),
        stock_top=cards("5H 6H KS 7H"),  # the penalty cards, seat 0's draw, seat 1's draw
        deal_number=10,
        dealer=3,
    )
    state = sr.buy(sr.draw(state, 0, STOCK), 1)
    while state.phase is sr.Phase.BUY:
        assert state.to_act is not None
        state = sr.pass_buy(state, state.to_act)
    state = sr.draw(sr.discard(state, 0, C("KS")), 1, STOCK)
    while state.phase is sr.Phase.BUY:
        assert state.to_act is not None
        state = sr.pass_buy(state, state.to_act)
    return sr.meld(
        state, 1, [cards("3C 4C 5C 6C 7C"), cards("3D 4D 5D 6D 7D"), cards("3H 4H 5H 6H 7H")]
    )


def on_random_levels(state: sr.GameState, rng: Any) -> sr.GameState:
    """Under progressive contracts, the first deal of ``state`` dealt again as the deal of
    the last level with every seat on a level drawn by ``rng`` (a ``random.Random``), so that
    seats on different contracts play one deal; ``state`` itself otherwise."""
    variant = state.variant
    if variant.progression is not sr.Progression.PER_SEAT or state.deal_number != 1:
        return state
    top = len(variant.deals)
    levels = [rng.randint(1, top) for _ in range(state.num_players)]
    levels[rng.randrange(state.num_players)] = 1  # the hands hold level 1's cards
    return sr.deal_from(
        variant,
        hands=state.hands,
        upcard=state.upcard,
        seed=state.seed,
        deal_number=top,
        dealer=state.dealer,
        levels=levels,
    )
