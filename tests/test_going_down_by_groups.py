"""Going down one group at a time (issue 23), one test per rule and preset: a group is
accepted when the rest of the hand can still finish the going down this turn, refused (and
the message says why) when it cannot; until met, only further groups; once met, down as a
whole meld makes it; the rules that speak of going down keep their meaning."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.caches import clear_caches
from shanghai_rummy.engine import going_down
from shanghai_rummy.engine.going_down import listed_group
from shanghai_rummy.melds import check_group, named_kind, sets_may_read_as_runs
from shanghai_rummy.solver import (
    arrangements,
    check_going_down,
    complete,
    possible_groups,
    possible_shapes,
    solve,
)

from .helpers import C, cards

SHANGHAI = sr.get_variant("shanghai")
WIKI = sr.get_variant("shanghai-wiki")
CAMPING = sr.get_variant("shanghai-camping")
R51 = sr.get_variant("rummy51")
STOCK = sr.Source.STOCK
DISCARD = sr.Source.DISCARD


def drawn(variant: sr.Variant, hand: str, draw: str, *, deal_number: int = 1, **more: str):
    """Seat 1 holds ``hand`` and has drawn ``draw`` from the stock (no upcard to buy); the
    other seats hold a card or two (seat 0 deals)."""
    players = max(2, variant.min_players)
    hands = [cards(more.get(f"seat{seat}", "2C 3D")) for seat in range(players)]
    hands[1] = cards(hand)
    state = sr.deal_from(
        variant, hands=hands, upcard=None, stock_top=cards(draw), deal_number=deal_number
    )
    return sr.draw(state, 1, STOCK)


def group_moves(state: sr.GameState) -> list[sr.Meld]:
    return [action for action in sr.legal_actions(state) if isinstance(action, sr.Meld)]


# --- shanghai ---------------------------------------------------------------------------------


def test_shanghai_a_group_is_accepted_when_the_rest_can_finish_the_contract() -> None:
    state = drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D")
    begun = sr.meld(state, 1, [cards("8C 8D 8H")])
    assert not begun.is_down(1)
    assert begun.turn_state.going_down == (begun.table[0].id,)
    seen = sr.view(begun, 0)  # public: every seat sees what is laid and what remains
    assert seen.going_down == begun.turn_state.going_down and seen.still_to_lay == "1 set of 3"
    assert sr.validate(begun) is None
    down = sr.meld(begun, 1, [cards("9C 9D 9H")])
    assert down.is_down(1) and down.turn_state.going_down == ()  # exact count: closed
    assert down.turn_state.must_go_down is None


def test_shanghai_until_met_only_further_groups_are_listed_and_no_discard() -> None:
    begun = sr.meld(
        drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D"), 1, [cards("8C 8D 8H")]
    )
    listed = sr.legal_actions(begun)
    assert listed and all(isinstance(action, sr.Meld) for action in listed)
    assert all(len(action.groups) == 1 for action in listed)
    assert sr.Meld(1, [cards("9C 9D 9H")]) in listed
    with pytest.raises(sr.GoOutError, match="begun to go down"):
        sr.discard(begun, 1, C("KS"))
    with pytest.raises(sr.LayOffError):
        sr.lay_off(begun, 1, C("8S"), begun.table[0].id)


def test_shanghai_the_same_groups_are_listed_as_each_seats_own_melds() -> None:
    """The listing shares the Meld of a group from listing to listing: by seat and kind, so
    another seat holding the same groups is listed its own."""
    hand = cards("8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S")
    first = group_moves(drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D"))
    hands = [cards("2C 3D") for _ in range(3)]
    hands[2] = hand
    state = sr.deal_from(SHANGHAI, hands=hands, upcard=None, stock_top=cards("2D"), dealer=1)
    second = group_moves(sr.draw(state, 2, STOCK))
    assert [action.groups for action in first] == [action.groups for action in second]
    assert {action.seat for action in first} == {1} and {action.seat for action in second} == {2}
    assert sr.Meld(2, [cards("8C 8D 8H")]) in second


def test_a_listing_kept_for_a_state_answers_only_for_the_seat_it_listed() -> None:
    """The move made from a listing finds the listing kept for that very state: for the seat
    listed, never for another seat of the same state."""
    state = drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D")
    assert sr.Meld(1, [cards("8C 8D 8H")]) in group_moves(state)
    group = [cards("8C 8D 8H")]
    assert listed_group(state, 1, group, ()) is not None
    assert listed_group(state, 0, group, ()) is None  # seat 0's hand was never listed


def test_shanghai_a_group_is_refused_when_the_rest_cannot_finish_and_says_why() -> None:
    state = drawn(SHANGHAI, "8C 8D 8H 9C 9D KS QD 3C 5H 7S 4H", "2D")
    with pytest.raises(sr.ContractNotMetError) as refused:
        sr.meld(state, 1, [cards("8C 8D 8H")])
    message = str(refused.value)
    assert "cannot start a going down" in message
    assert "the rest of the hand cannot make what is still to lay (1 set of 3)" in message
    assert not group_moves(state)


def test_shanghai_going_out_never_refuses_a_group_whose_finish_leaves_one_card() -> None:
    state = drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H", "5S")
    with pytest.raises(sr.ContractNotMetError, match="going_out=never"):
        sr.meld(state, 1, [cards("8C 8D 8H")])
    out_by_groups = drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H", "9S")
    begun = sr.meld(out_by_groups, 1, [cards("8C 8D 8H")])  # the rest goes out: no card left
    out = sr.meld(begun, 1, [cards("9C 9D 9H 9S")])
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1


def test_shanghai_the_whole_contract_in_one_meld_still_goes_down() -> None:
    state = drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D")
    down = sr.meld(state, 1, [cards("8C 8D 8H"), cards("9C 9D 9H")])
    assert down.is_down(1) and len(down.table) == 2


def test_shanghai_swap_obligation_met_group_by_group() -> None:
    seat0 = "3S 4S JK 6S 9D 9H 9C 2H"
    state = drawn(SHANGHAI, "5S 8C 8D 10C 10D 10H KS QD 3C 4H 7D", "2D", seat0=seat0)
    run = check_group(cards("3S 4S JK 6S"), SHANGHAI).on_table(state.next_meld_id, 0)
    hands = list(state.hands)
    hands[0] = cards("9D 9H 9C 2H")
    seats = list(state.seats)
    seats[0] = attrs.evolve(seats[0], down=True)
    state = attrs.evolve(
        state,
        hands=tuple(hands),
        table=(run,),
        seats=tuple(seats),
        next_meld_id=run.id + 1,
    )
    swapped = sr.swap_joker(state, 1, C("5S"), run.id)
    assert swapped.turn_state.must_go_down is not None
    begun = sr.meld(swapped, 1, [cards("8C 8D JK")])
    assert not begun.is_down(1) and begun.turn_state.must_go_down is not None
    with pytest.raises(sr.GoOutError, match="must go down"):
        sr.discard(begun, 1, C("KS"))
    down = sr.meld(begun, 1, [cards("10C 10D 10H")])
    assert down.is_down(1) and down.turn_state.must_go_down is None
    assert sr.discard(down, 1, C("KS")).turn == 0


# --- shanghai-wiki -------------------------------------------------------------------------------


def test_wiki_a_run_that_could_join_one_laid_is_no_completion() -> None:
    state = drawn(WIKI, "4H 5H 6H 7H 8H 9H 10H JH 2C 3D KS", "QS", deal_number=3)
    with pytest.raises(sr.ContractNotMetError, match="cannot make what is still to lay"):
        sr.meld(state, 1, [cards("4H 5H 6H 7H")])
    apart = drawn(WIKI, "4H 5H 6H 7H 9H 10H JH QH 2C 3D KS", "QS", deal_number=3)
    begun = sr.meld(apart, 1, [cards("4H 5H 6H 7H")])
    assert sr.Meld(1, [cards("8H 9H 10H JH")]) not in group_moves(begun)  # not held anyway
    assert sr.meld(begun, 1, [cards("9H 10H JH QH")]).is_down(1)


def test_wiki_ace_low_run_laid_first_then_a_set() -> None:
    state = drawn(WIKI, "AH 2H 3H 4H 8C 8D 8H KS QD 7C 5D", "9S", deal_number=2)
    begun = sr.meld(state, 1, [cards("AH 2H 3H 4H")])
    assert sr.view(begun, 1).still_to_lay == "1 set of 3"
    assert sr.meld(begun, 1, [cards("8C 8D 8H")]).is_down(1)


# --- shanghai-camping ----------------------------------------------------------------------------


def test_camping_exact_sizes_refuse_a_set_of_four_as_a_group() -> None:
    state = drawn(CAMPING, "8C 8D 8H 8S 9C 9D 9H KS QD 3C 5H", "2D")
    with pytest.raises(sr.ContractNotMetError, match="not exactly 3"):
        sr.meld(state, 1, [cards("8C 8D 8H 8S")])
    assert sr.Meld(1, [cards("8C 8D 8H 8S")]) not in group_moves(state)
    assert sr.Meld(1, [cards("8C 8D 8H")]) in group_moves(state)


def test_camping_blind_bonus_when_down_and_out_group_by_group_in_one_turn() -> None:
    state = drawn(CAMPING, "8C 8D 8H 9C 9D 9H", "KS")
    state = sr.meld(state, 1, [cards("8C 8D 8H")])
    state = sr.meld(state, 1, [cards("9C 9D 9H")])
    out = sr.discard(state, 1, C("KS"))
    result = sr.score(out)
    assert result.winner == 1 and result.one_turn_out and result.points[1] == -50


def test_camping_no_lay_off_on_the_turn_of_going_down_by_groups() -> None:
    state = drawn(CAMPING, "8C 8D 8H 9C 9D 9H 8S KS", "QD")
    down = sr.meld(sr.meld(state, 1, [cards("8C 8D 8H")]), 1, [cards("9C 9D 9H")])
    with pytest.raises(sr.LayOffError, match="lay_off_same_turn"):
        sr.lay_off(down, 1, C("8S"), down.table[0].id)


# --- rummy51 -------------------------------------------------------------------------------------

SEAT0_R51 = cards("2C 3C 5D 7D 9D 4H 6H 9H 10H QS KD KH 3D 5C")


def starter(hand: str) -> sr.GameState:
    """Two players, dealer 0: seat 1 starts with 15 cards and plays (no draw)."""
    return sr.deal_from(R51, hands=[SEAT0_R51, cards(hand)], upcard=None)


def test_rummy51_opening_laid_in_two_steps() -> None:
    state = starter("6S 7S 8S 10D 10C 10H 2C 3D 4H 5S 7C 9D JH QS KD")
    begun = sr.meld(state, 1, [cards("6S 7S 8S")])
    assert not begun.is_down(1)
    assert sr.view(begun, 1).still_to_lay == "groups worth at least 30 points"
    opened = sr.meld(begun, 1, [cards("10D 10C 10H")])
    assert opened.is_down(1) and opened.turn_state.going_down == (1, 2)  # still open
    assert sr.discard(opened, 1, C("KD")).turn == 0


def test_rummy51_a_group_refused_when_the_opening_cannot_reach_51() -> None:
    state = starter("6S 7S 8S 9H 10H JH 2C 3D 4H 5S 7C 9D JS QS KD")
    with pytest.raises(sr.ContractNotMetError, match="groups worth at least 30 points"):
        sr.meld(state, 1, [cards("6S 7S 8S")])  # the 5S could then join no run: 29 left
    listed = group_moves(state)
    assert sr.Meld(1, [cards("6S 7S 8S")]) not in listed
    assert sr.Meld(1, [cards("5S 6S 7S 8S")]) in listed  # 26, and 9H 10H JH: 55


def test_rummy51_extra_groups_laid_in_one_run_are_one_opening() -> None:
    state = starter("6S 7S 8S 10D 10C 10H QH QD QS 3D 4H 5S 7C 9D JH")
    state = sr.meld(sr.meld(state, 1, [cards("10D 10C 10H")]), 1, [cards("6S 7S 8S")])
    listed = group_moves(state)
    assert sr.Meld(1, [cards("QD QH QS")]) in listed  # joins the opening
    joined = sr.meld(state, 1, [cards("QH QD QS")])
    assert joined.turn_state.going_down == (1, 2, 3) and len(joined.table) == 3


def test_rummy51_hand_still_scored_when_laid_group_by_group_in_one_turn() -> None:
    state = starter("AH 2H 3H 4S 5S 6S 7S 8S 8C 8D 8H JC QC KC 2D")
    for group in ("AH 2H 3H", "4S 5S 6S 7S 8S", "8C 8D 8H", "JC QC KC"):
        state = sr.meld(state, 1, [cards(group)])
    out = sr.discard(state, 1, C("2D"))
    result = sr.score(out)
    assert result.one_turn_out and result.points[1] == -80
    assert result.points[0] == 200  # never opened: 100, doubled


def test_rummy51_upcard_obligation_met_group_by_group() -> None:
    state = sr.deal_from(
        R51, hands=[SEAT0_R51, cards("6S 7S 8S 10D 10C 2C 3D 4H 5S 7C 9D JH QS KD KH")]
    )
    state = sr.discard(state, 1, C("KH"))
    state = sr.discard(sr.draw(state, 0, STOCK), 0, C("10H"))
    taken = sr.draw(state, 1, DISCARD)
    assert taken.turn_state.must_go_down is not None
    begun = sr.meld(taken, 1, [cards("6S 7S 8S")])
    with pytest.raises(sr.GoOutError, match="obliges going down"):
        sr.discard(begun, 1, C("2C"))
    opened = sr.meld(begun, 1, [cards("10D 10C 10H")])
    assert sr.discard(opened, 1, C("2C")).turn == 0


# --- JSON, validation ----------------------------------------------------------------------------


def test_a_half_laid_state_round_trips_and_validates() -> None:
    begun = sr.meld(
        drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D"), 1, [cards("8C 8D 8H")]
    )
    assert sr.from_json(sr.to_json(begun), sr.GameState) == begun
    assert '"going_down"' in sr.to_json(begun)
    forged = attrs.evolve(begun, turn_state=attrs.evolve(begun.turn_state, must_go_down=None))
    with pytest.raises(sr.InvalidStateError, match="must finish this turn"):
        sr.validate(forged)
    stray = attrs.evolve(begun, turn_state=attrs.evolve(begun.turn_state, going_down=(99,)))
    with pytest.raises(sr.InvalidStateError):
        sr.validate(stray)


# --- the solver's completion question against every way ------------------------------------------

POOL = cards("8C 8D 8H 8S 9C 9D 9H 4S 5S 6S 7S 3S 10S JK JK 4H 5H 6H 7H 2C")
REQUIREMENTS = [
    (SHANGHAI, sr.Contract(sets=(3, 3))),
    (SHANGHAI, sr.Contract(sets=(3,), runs=(4,))),
    (WIKI, sr.Contract(runs=(4, 4))),
    (CAMPING, sr.Contract(sets=(3,), runs=(4,))),
    (R51, sr.Opening(min_points=51)),
    (
        sr.load_variant(
            {
                "base": "shanghai",
                "deals": [{"cards": 11, "requirement": {"kind": "contract", "sets": [3, 3]}}],
                "going_down": {"exact_meld_count": False},
                "buying": {"enabled": False},  # hands of at most 12 cards (limits)
            }
        ),
        sr.Contract(sets=(3, 3)),
    ),
]


@settings(max_examples=80, deadline=None)
@given(
    case=st.sampled_from(range(len(REQUIREMENTS))),
    seed=st.integers(min_value=0, max_value=10_000),
    size=st.integers(min_value=6, max_value=11),
)
def test_complete_agrees_with_every_way(case: int, seed: int, size: int) -> None:
    """A group can start a completion exactly when some way to go down with the whole hand
    holds it; each completion found, with the group, is a going down the checks accept."""
    variant, requirement = REQUIREMENTS[case]
    hand = random.Random(seed).sample(POOL, size)
    ways = arrangements(hand, requirement, variant)
    for group in possible_groups(hand, variant)[:12]:
        rest = list(hand)
        for card in group:
            rest.remove(card)
        shape = check_group(group, variant)
        found = complete(rest, requirement, variant, [shape])
        expected = any(group in way for way in ways)
        assert (found is not None) == expected, (group, hand)
        if found is not None:
            check_going_down([group, *found], requirement, variant)


# --- the listing agrees with the moves, in half-laid states ---------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    variant_id=st.sampled_from(["shanghai", "shanghai-wiki", "shanghai-camping", "rummy51"]),
    seed=st.integers(min_value=0, max_value=100_000),
)
def test_every_listed_group_applies_and_every_unlisted_group_is_refused(
    variant_id: str, seed: int
) -> None:
    """Random play up to a seat that may go down (half-laid or not): every single group the
    hand can form is listed exactly when the engine accepts it."""
    variant = sr.get_variant(variant_id)
    rng = random.Random(seed)
    state = sr.new_game(variant, players=3, seed=seed)
    for _ in range(400):
        if state.to_act is None:
            return
        listed = sr.legal_actions(state)
        if state.phase is sr.Phase.PLAY and not state.is_down(state.turn):
            seat = state.turn
            for group in possible_groups(state.hand(seat), variant):
                action = sr.Meld(seat, [group])
                try:
                    sr.apply(state, action)
                except sr.IllegalMoveError:
                    assert action not in listed, action
                else:
                    assert action in listed, action
            melds = [action for action in listed if isinstance(action, sr.Meld)]
            if melds:
                state = sr.apply(state, rng.choice(melds))
                continue
        state = sr.apply(state, rng.choice(listed))


@pytest.mark.parametrize("variant_id", ["shanghai", "shanghai-wiki", "shanghai-camping", "rummy51"])
def test_a_listed_group_is_applied_as_the_full_check_applies_it(variant_id: str) -> None:
    """A move made from a listing reads its group from the listing kept for the hand; made
    again with every memo cleared (the group checked in full), it gives the same state."""
    variant = sr.get_variant(variant_id)
    rng = random.Random(3)
    state = sr.new_game(variant, players=3, seed=3)
    checked = 0
    while checked < 6 and state.to_act is not None:
        listed = sr.legal_actions(state)
        melds = [action for action in listed if isinstance(action, sr.Meld)]
        if melds and state.phase is sr.Phase.PLAY and not state.is_down(state.turn):
            for action in melds:
                kept = sr.apply(state, action)
                clear_caches()
                assert sr.apply(state, action) == kept, sr.format_action(action)
                sr.legal_actions(state)
            checked += 1
            state = sr.apply(state, rng.choice(melds))
            continue
        state = sr.apply(state, rng.choice(listed))
    assert checked == 6


# --- the less common paths -----------------------------------------------------------------------


def test_rummy51_a_group_whose_finish_would_leave_no_card_to_discard_is_refused() -> None:
    # after 8C 8D 8H (24) only 10D 10C 10H (30) finish it, and they leave no card
    state = sr.deal_from(R51, hands=[SEAT0_R51, cards("8C 8D 8H 10D 10C 10H")])
    with pytest.raises(sr.ContractNotMetError, match="going_out=required"):
        sr.meld(state, 1, [cards("8C 8D 8H")])


def test_a_half_laid_going_down_forged_outside_play_or_met_is_refused() -> None:
    begun = sr.meld(
        drawn(SHANGHAI, "8C 8D 8H 9C 9D 9H KS QD 3C 5H 7S", "2D"), 1, [cards("8C 8D 8H")]
    )
    ids = begun.turn_state.going_down
    in_draw = attrs.evolve(begun, phase=sr.Phase.DRAW)
    with pytest.raises(sr.InvalidStateError):
        sr.validate(in_draw)
    down = sr.meld(begun, 1, [cards("9C 9D 9H")])
    kept_open = attrs.evolve(
        down, turn_state=attrs.evolve(down.turn_state, going_down=(*ids, ids[0] + 1))
    )
    with pytest.raises(sr.InvalidStateError, match="takes no more groups"):
        sr.validate(kept_open)


def test_an_open_going_down_takes_a_group_as_a_new_group_where_it_cannot_join() -> None:
    # an opening is met; a group with two jokers cannot join it (one joker a group when
    # going down), and new groups may not be laid on the opening turn
    state = starter("6S 7S 8S 10D 10C 10H 4H JK JK 3D 4D 5S 7C 9D JH")
    opened = sr.meld(state, 1, [cards("6S 7S 8S"), cards("10D 10C 10H")])
    with pytest.raises(sr.InvalidMeldError, match="later_turns"):
        sr.meld(opened, 1, [cards("3D 4D JK JK")])


def test_complete_with_jokers_owed_and_going_out_rules() -> None:
    laid = [check_group(cards("8C 8D 8H"), SHANGHAI)]
    contract = sr.Contract(sets=(3, 3))
    rest = cards("9C 9D JK 2S")
    with_joker = complete(rest, contract, SHANGHAI, laid, jokers_at_least=1)
    assert with_joker is not None and any(card.is_joker for group in with_joker for card in group)
    assert complete(cards("9C 9D 9H 2S"), contract, SHANGHAI, laid, jokers_at_least=1) is None
    assert complete(cards("9C 9D 9H"), contract, SHANGHAI, laid, leaves=lambda n: n == 1) is None
    met = complete(
        cards("2S"), contract, SHANGHAI, [*laid, check_group(cards("9C 9D 9H"), SHANGHAI)]
    )
    assert met == ()


# --- going_out=never: a lone card left by the going down, played on the table --------------------


def _with_table(state: sr.GameState, seat0_keeps: str, *groups: str) -> sr.GameState:
    """``state`` with seat 0 down with ``groups`` (cards its hand held) and keeping the rest."""
    hands = list(state.hands)
    hands[0] = cards(seat0_keeps)
    melds = tuple(
        check_group(cards(group), state.variant).on_table(state.next_meld_id + offset, 0)
        for offset, group in enumerate(groups)
    )
    seats = list(state.seats)
    seats[0] = attrs.evolve(seats[0], down=True)
    return attrs.evolve(
        state,
        hands=tuple(hands),
        table=melds,
        seats=tuple(seats),
        next_meld_id=state.next_meld_id + len(melds),
    )


def test_shanghai_going_out_never_a_swap_and_groups_leaving_a_card_laid_off_on_the_table() -> None:
    """Issue 24's bug 1: every way of the hand leaves one card, QS, which may not be
    discarded (going_out=never) but can be laid off on the queens: the swap that obliges
    going down, and the groups of that going down, are accepted and listed."""
    state = drawn(SHANGHAI, "5C 5D 5H 6C 8H QS", "6D", seat0="8C 8D JK QC QD QH 2H 3D")
    state = _with_table(state, "2H 3D", "8C 8D JK", "QC QD QH")
    jokers, queens = state.table
    swap = sr.SwapJoker(1, C("8H"), jokers.id)
    assert swap in sr.legal_actions(state)
    swapped = sr.apply(state, swap)
    assert group_moves(swapped) == [
        sr.Meld(1, [cards("5C 5D 5H")]),
        sr.Meld(1, [cards("6C 6D JK")]),
    ]
    begun = sr.meld(swapped, 1, [cards("5C 5D 5H")])
    down = sr.meld(begun, 1, [cards("6C 6D JK")])
    assert sr.legal_actions(down) == (sr.LayOff(1, C("QS"), queens.id, None),)
    out = sr.lay_off(down, 1, C("QS"), queens.id)
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1


def test_shanghai_going_out_never_a_lone_card_laid_off_on_a_group_of_the_going_down() -> None:
    """4-7S and 9-QS leave 8S (with 8S either run would join the other, which
    same_suit_runs=not_joinable forbids at going down); 8S is then laid off on 4-7S."""
    state = drawn(SHANGHAI, "4S 5S 6S 7S 9S 10S JS QS", "8S", deal_number=3)
    assert sr.Meld(1, [cards("4S 5S 6S 7S")]) in group_moves(state)
    begun = sr.meld(state, 1, [cards("4S 5S 6S 7S")])
    assert group_moves(begun) == [sr.Meld(1, [cards("9S 10S JS QS")])]
    down = sr.meld(begun, 1, [cards("9S 10S JS QS")])
    out = sr.lay_off(down, 1, C("8S"), down.table[0].id)
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1


def test_shanghai_going_out_never_a_lone_card_nowhere_to_play_is_still_refused() -> None:
    state = drawn(SHANGHAI, "5C 5D 5H 6C 6D 6H", "KS", seat0="QC QD QH 2H 3D")
    state = _with_table(state, "2H 3D", "QC QD QH")
    with pytest.raises(sr.ContractNotMetError, match="could not be played on the table"):
        sr.meld(state, 1, [cards("5C 5D 5H")])
    assert group_moves(state) == []


# --- exactness: a group is accepted exactly when a whole going down holding it finishes the turn -


def _finishes_with_whole_ways(state: sr.GameState, group: tuple[sr.Card, ...]) -> bool:
    """The reference: some way to go down with the whole hand holds ``group`` and the engine
    accepts it as one Meld (which judges the turn's end, a lone card's play included)."""
    seat = state.turn
    requirement = state.variant.deal(state.deal_number).requirement
    for way in arrangements(state.hand(seat), requirement, state.variant):
        if group in way:
            try:
                sr.apply(state, sr.Meld(seat, way))
            except sr.IllegalMoveError:
                continue
            return True
    return False


@settings(max_examples=30, deadline=None)
@given(
    variant_id=st.sampled_from(["shanghai", "shanghai-camping", "rummy51"]),
    seed=st.integers(min_value=0, max_value=100_000),
)
def test_a_first_group_is_accepted_exactly_when_a_whole_going_down_with_it_is(
    variant_id: str, seed: int
) -> None:
    """Random play up to a seat not down in its play phase: each group it can form is
    accepted as the first of its going down exactly when a going down of the whole hand
    holding it is accepted (every early refusal is exact), with a table of melds to lay a
    lone card off on."""
    variant = sr.get_variant(variant_id)
    rng = random.Random(seed)
    state = sr.new_game(variant, players=3, seed=seed)
    checked = 0
    for _ in range(600):
        if state.to_act is None or checked >= 2:
            return
        listed = sr.legal_actions(state)
        seat = state.turn
        if (
            state.phase is sr.Phase.PLAY
            and not state.is_down(seat)
            and not state.turn_state.going_down
            and len(state.hand(seat)) <= 14
        ):
            checked += 1
            for group in possible_groups(state.hand(seat), variant):
                try:
                    sr.apply(state, sr.Meld(seat, [group]))
                except sr.IllegalMoveError:
                    accepted = False
                else:
                    accepted = True
                assert accepted == _finishes_with_whole_ways(state, group), group
        state = sr.apply(state, rng.choice(listed))


def test_rummy51_going_out_by_hand_group_by_group_past_the_opening() -> None:
    """Where the turn must go out by hand (the cut card) and the opening may hold more
    groups, a group that meets the opening but leaves cards is accepted when groups joining
    the opening can still lay the rest (before, the listing was left empty: found by the
    house-rules fuzz test)."""
    state = sr.deal_from(
        R51, hands=[SEAT0_R51, cards("7S 8S 9S 2H 2S 2D 2C JH QH KH 10C JC QC 5D")]
    )
    state = attrs.evolve(
        state, turn_state=attrs.evolve(state.turn_state, must_go_out="go out by hand (test)")
    )
    begun = sr.meld(state, 1, [cards("7S 8S 9S")])
    begun = sr.meld(begun, 1, [cards("2C 2D 2H 2S")])  # 32 points: not yet
    assert not begun.is_down(1)
    met = sr.meld(begun, 1, [cards("JH QH KH")])  # 62 points: met, 10C JC QC still to lay
    assert met.is_down(1) and met.turn_state.going_down
    assert sr.legal_actions(met) == (sr.Meld(1, [cards("10C JC QC")]),)
    out = sr.discard(sr.meld(met, 1, [cards("10C JC QC")]), 1, C("5D"))  # going_out=required
    assert out.phase is sr.Phase.DEAL_OVER and sr.score(out).winner == 1


def accepted_groups(state: sr.GameState, variant: sr.Variant) -> set[sr.Meld]:
    """The one-group Melds of seat 1's hand that the engine accepts (applying each)."""
    accepted = set()
    for group in possible_groups(state.hand(1), variant):
        action = sr.Meld(1, [group])
        try:
            sr.apply(state, action)
        except sr.IllegalMoveError:
            continue
        accepted.add(action)
    return accepted


@pytest.mark.parametrize(
    ("variant", "hand", "owed", "deal_number"),
    [
        (SHANGHAI, "8C 8D JK 9C 9D JK 9H 4S 5S 6S 7S KD", 1, 2),
        (SHANGHAI, "8C 8D JK 9C 9D JK 9H 4S 5S 6S 7S KD", 2, 2),
        (WIKI, "JK JK 3H 4H 5H 6H 8H 9H 7S 8S JK", 3, 3),
        (WIKI, "JK 5D 5C 5H 2S 3S 4S JK 6S 9C 9D KH", 2, 2),
    ],
)
def test_groups_listed_while_owing_swapped_jokers_are_exactly_those_the_engine_accepts(
    variant: sr.Variant, hand: str, owed: int, deal_number: int
) -> None:
    """A seat not down owing jokers taken by swaps (``turn_state.jokers_to_meld``): every
    single group its hand can form is listed exactly when the engine accepts it (the
    listing settles most groups by the ways it found that hold the jokers, and skips the
    engine's check of each)."""
    clear_caches()
    state = drawn(variant, hand, "2D", deal_number=deal_number)
    state = attrs.evolve(state, turn_state=attrs.evolve(state.turn_state, jokers_to_meld=owed))
    listed = set(group_moves(state))
    assert listed == accepted_groups(state, variant)
    assert listed  # each hand can go down holding the jokers owed


OWING_POOL = cards(
    "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3S 4S 5S 6S 7S 8S 9S 9C 9D 9H 5C 5D 5H KC KD KH"
)


def owing_reference(state: sr.GameState) -> list[sr.Meld]:
    """The one-group Melds of seat 1's hand the engine accepts, each applied on its own, in
    the order of the listing: the groups the hand can form, then the run readings of its
    sets of one natural card and jokers."""
    variant = state.variant
    shapes = going_down._both_readings(possible_shapes(state.hand(1), variant), variant)
    accepted = []
    for shape in shapes:
        kind = named_kind(shape, variant) if sets_may_read_as_runs(variant) else None
        action = sr.Meld(1, [shape.cards], () if kind is None else [kind])
        try:
            sr.apply(state, action)
        except sr.IllegalMoveError:
            continue
        accepted.append(action)
    return accepted


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from([SHANGHAI, WIKI, CAMPING]),
    seed=st.integers(min_value=0, max_value=100_000),
    jokers=st.integers(min_value=1, max_value=4),
    owed=st.integers(min_value=1, max_value=4),
    lay_first=st.booleans(),
    cold=st.booleans(),
)
def test_the_owing_listing_is_the_per_group_check_in_order(
    variant: sr.Variant, seed: int, jokers: int, owed: int, lay_first: bool, cold: bool
) -> None:
    """Owing jokers taken by swaps, with a group laid or not: the groups listed are, in the
    listing's order, exactly those the engine accepts group by group; listed again (a new
    state of the same hand, the listing kept), the same."""
    rng = random.Random(seed)
    deal_number = rng.randrange(1, len(variant.deals) + 1)
    size = variant.deal(deal_number).cards
    jokers = min(jokers, variant.pack_size(max(2, variant.min_players), deal_number).jokers)
    requirement = variant.deal(deal_number).requirement
    for _ in range(50):  # a hand that can go down at all, most often
        hand = (*cards(" ".join(["JK"] * jokers)), *rng.sample(OWING_POOL, size - jokers))
        if solve(hand, requirement, variant) is not None:
            break
    state = drawn(variant, " ".join(map(str, hand)), "2D", deal_number=deal_number)
    owed = min(owed, jokers)
    state = attrs.evolve(state, turn_state=attrs.evolve(state.turn_state, jokers_to_meld=owed))
    if cold:
        clear_caches()
    listed = group_moves(state)
    if lay_first and listed and not sr.apply(state, listed[0]).is_down(1):
        state = sr.apply(state, listed[0])
        listed = group_moves(state)
    if state.turn_state.jokers_to_meld:
        assert listed == owing_reference(state)
        assert group_moves(attrs.evolve(state)) == listed


@pytest.mark.parametrize(
    "rest",
    ["3S 4S 5S 6S KH", "3S 4S 5S 6S 7S", "3S 4S 5S JK KH", "3S 4S 5S 6S 8S 9S 10S JK KH"],
)
def test_complete_where_only_a_way_of_every_card_ends_the_turn(rest: str) -> None:
    """Under ``going_out=never`` a way that would leave one card does not end the turn: with
    a card more than the slots take, only a way of every card does, and a card that no group
    for the slots holds (KH beside spades) rules it out at once; as every way says."""
    hand = cards(rest)
    runs = sr.Contract(runs=(4,)) if len(hand) == 5 else sr.Contract(runs=(4, 4))
    clear_caches()
    found = complete(hand, runs, WIKI, leaves=lambda left: left != 1)
    every = arrangements(hand, runs, WIKI)
    assert (found is not None) == any(len(hand) - sum(map(len, way)) != 1 for way in every)


@pytest.mark.parametrize(
    "hand",
    [
        "JK QH KH 2S 3S 4S 10C 10D 10H 6C 8D 5S 7H 9S 2C",
        "JK 2S 3S 4S 5S QH KH 9C 9D 9H 7C 8D 10S 6C 4H",
    ],
)
def test_rummy51_groups_listed_while_owing_a_swapped_joker_are_those_the_engine_accepts(
    hand: str,
) -> None:
    """Owing a swapped joker toward an opening: groups read alike (kind, size, jokers) are
    worth different points (2S 3S JK and JK QH KH), so what they leave to lay is asked of
    each (only a contract's answer is the same for groups read alike)."""
    clear_caches()
    state = starter(hand)
    state = attrs.evolve(state, turn_state=attrs.evolve(state.turn_state, jokers_to_meld=1))
    listed = set(group_moves(state))
    assert listed == accepted_groups(state, R51)
    assert sr.Meld(1, [cards("JK QH KH")]) in listed
