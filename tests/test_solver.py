"""Going down: one test per clause of RULES.md that :func:`check_going_down` decides, the
solver on hands built for each contract, and the solver and :func:`arrangements` against a
brute-force reference on random small hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from typing import Any
from unittest import mock

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.engine.play_rules import hand_out_possible
from shanghai_rummy.melds import check_group
from shanghai_rummy.solver import (
    _contract_search,
    arrangements,
    canonical_groups,
    check_going_down,
    contract_options,
    possible_groups,
    solve,
)
from shanghai_rummy.solver._card_counts import count_cards
from shanghai_rummy.solver._contract_search import solve_contract
from shanghai_rummy.solver._opening_search import OpeningSearch
from shanghai_rummy.solver._quick_refusals import contract_out_of_reach, opening_out_of_reach
from shanghai_rummy.solver._variant_rules import rules_of

C = sr.Card.parse
cards = sr.parse_cards
SHANGHAI = sr.get_variant("shanghai")
WIKI = sr.get_variant("shanghai-wiki")
CAMPING = sr.get_variant("shanghai-camping")
RUMMY51 = sr.get_variant("rummy51")
ONE_BUY = sr.BuyRules(limits=((1, 1),))  # hands of 15 at most: 11 dealt, 1 drawn, 1 buy of 3
OPENING = RUMMY51.deals[0].requirement
SET_RUN = sr.Contract(sets=(3,), runs=(4,))


def groups(*texts: str) -> list[tuple[sr.Card, ...]]:
    return [cards(text) for text in texts]


def accepted(requirement: sr.Requirement, variant: sr.Variant, *texts: str) -> None:
    shapes = check_going_down(groups(*texts), requirement, variant)
    assert [shape.cards for shape in shapes] == groups(*texts)


def refused(requirement: sr.Requirement, variant: sr.Variant, match: str, *texts: str) -> None:
    with pytest.raises((sr.ContractNotMetError, sr.InvalidMeldError), match=match):
        check_going_down(groups(*texts), requirement, variant)


def text(arrangement: tuple[tuple[sr.Card, ...], ...] | None) -> list[str] | None:
    if arrangement is None:
        return None
    return [" ".join(map(str, group)) for group in arrangement]


def uses_hand(arrangement: tuple[tuple[sr.Card, ...], ...], hand: tuple[sr.Card, ...]) -> bool:
    used = Counter(card for group in arrangement for card in group)
    return not used - Counter(hand)


# --- melds when going down (RULES §2) ------------------------------------------------------------


def test_shanghai_exact_meld_count_extra_group_refused() -> None:
    refused(
        SET_RUN,
        SHANGHAI,
        r"exactly 2 groups, got 3 \(variant.going_down.exact_meld_count\)",
        "8C 8D 8H",
        "4S 5S 6S 7S",
        "KC KD KH",
    )


def test_shanghai_melds_at_least_contract_size() -> None:
    accepted(SET_RUN, SHANGHAI, "8C 8D 8H 8S JK", "3S 4S 5S 6S 7S")


def test_shanghai_group_of_wrong_kind_refused() -> None:
    refused(SET_RUN, SHANGHAI, r"needs 1 run\(s\); 0 of the groups are run", "8C 8D 8H", "KC KD KH")


def test_shanghai_group_too_small_refused() -> None:
    contract = sr.Contract(sets=(3,), runs=(7,))
    refused(
        contract, SHANGHAI, r"no group is the run of 7: .* fewer than 7", "8C 8D 8H", "4S 5S 6S 7S"
    )


def test_invalid_group_refused_with_its_own_rule() -> None:
    refused(SET_RUN, SHANGHAI, r"run 4S 5S 7S 8S: 5S is followed by 7S", "8C 8D 8H", "4S 5S 7S 8S")


def test_camping_exact_sizes() -> None:
    accepted(SET_RUN, CAMPING, "8C 8D 8H", "4S 5S 6S 7S")
    refused(
        SET_RUN,
        CAMPING,
        r"not exactly 3 \(variant.going_down.exact_sizes\)",
        "8C 8D 8H 8S",
        "4S 5S 6S 7S",
    )
    refused(SET_RUN, CAMPING, r"not exactly 4", "8C 8D 8H", "4S 5S 6S 7S 8S")


@pytest.mark.parametrize(
    ("contract", "groups_ok", "groups_over"),
    [
        (sr.Contract(sets=(3, 3)), ("8C 8D JK", "KC KD KH"), ("8C JK JK", "KC KD KH")),
        (
            sr.Contract(runs=(4, 4)),
            ("4S JK 6S 7S", "8H 9H 10H JH"),
            ("4S JK JK 7S", "8H 9H 10H JH"),
        ),
        (
            sr.Contract(sets=(3, 3), runs=(5,)),
            ("8C 8D JK", "KC KD KH", "4S JK 6S JK 8S"),
            ("8C 8D JK", "KC KD KH", "4S JK JK JK 8S"),
        ),
        (
            sr.Contract(sets=(3,), runs=(7,)),
            ("8C 8D 8H", "3S JK 5S JK 7S JK 9S"),
            ("8C 8D 8H", "3S JK JK JK JK 8S 9S"),
        ),
        (
            sr.Contract(sets=(3,), runs=(10,)),
            ("8C 8D 8H", "2S JK 4S JK 6S JK 8S JK 10S JS"),
            ("8C 8D 8H", "2S JK JK JK JK JK 8S 9S 10S JS"),
        ),
    ],
    ids=["set-of-3:1", "run-of-4:1", "run-of-5:2", "run-of-7:3", "run-of-10:4"],
)
def test_camping_joker_table_per_contract_size(
    contract: sr.Contract, groups_ok: tuple[str, ...], groups_over: tuple[str, ...]
) -> None:
    accepted(contract, CAMPING, *groups_ok)
    refused(contract, CAMPING, r"jokers", *groups_over)


def test_camping_run_of_10_with_5_jokers_refused_by_the_table() -> None:
    # 5 jokers with 5 naturals keeps jokers <= naturals, but the table allows only 4
    contract = sr.Contract(sets=(3,), runs=(10,))
    refused(
        contract,
        CAMPING,
        r"at most 4 in a run of 10 \(variant.jokers.going_down_by_size\)",
        "8C 8D 8H",
        "2S JK 4S JK 6S JK 8S JK 10S JK",
    )


def test_camping_same_suit_runs_separated() -> None:
    two_runs = sr.Contract(runs=(4, 4))
    accepted(two_runs, CAMPING, "3H 4H 5H 6H", "8H 9H 10H JH")
    refused(
        two_runs,
        CAMPING,
        r"not separated by at least one rank \(variant.going_down.same_suit_runs=separated\)",
        "3H 4H 5H 6H",
        "7H 8H 9H 10H",
    )
    refused(two_runs, CAMPING, r"not separated", "3H 4H 5H 6H", "5H 6H 7H 8H")  # overlap


def test_shanghai_same_suit_runs_not_joinable() -> None:
    two_runs = sr.Contract(runs=(4, 4))
    refused(
        two_runs,
        SHANGHAI,
        r"could form one run \(variant.going_down.same_suit_runs=not_joinable\)",
        "3H 4H 5H 6H",
        "7H 8H 9H 10H",
    )
    accepted(two_runs, SHANGHAI, "3H 4H 5H 6H", "8H 9H 10H JH")
    accepted(two_runs, SHANGHAI, "3H 4H 5H 6H", "5H 6H 7H 8H")  # two decks: overlapping


def test_shanghai_not_joinable_counts_what_jokers_stand_for() -> None:
    two_runs = sr.Contract(runs=(4, 4))
    refused(two_runs, SHANGHAI, r"could form one run", "3H 4H 5H 6H", "JK 8H 9H 10H")
    accepted(two_runs, SHANGHAI, "3H 4H 5H 6H", "8H 9H 10H JK")


def test_not_joinable_when_the_joined_run_would_be_invalid() -> None:
    # A-7 and 8-A could only join as an ace-to-ace run, which shanghai-wiki forbids
    two_runs = sr.Contract(runs=(7, 6))
    low, high = "AH 2H 3H 4H 5H 6H 7H", "8H 9H 10H JH QH KH AH"
    accepted(two_runs, WIKI, low, high)


# --- Rummy 51 opening (RULES §3) -----------------------------------------------------------------


def test_rummy51_opening_6s7s8s_10d10c10h_is_51_accepted() -> None:
    accepted(OPENING, RUMMY51, "6S 7S 8S", "10D 10C 10H")


def test_rummy51_opening_one_point_less_refused() -> None:
    refused(
        OPENING,
        RUMMY51,
        r"worth 50 points; an opening needs at least 51 \(Opening.min_points\)",
        "2S 3S 4S 5S 6S",
        "10D 10C 10H",
    )


def test_rummy51_opening_joker_counts_as_the_card_it_stands_for() -> None:
    accepted(OPENING, RUMMY51, "6S JK 8S", "10D 10C JK")


def test_rummy51_opening_at_most_one_joker_per_group() -> None:
    refused(
        OPENING,
        RUMMY51,
        r"at most 1 in a group when going down \(variant.jokers.going_down_per_group\)",
        "QS JK JK",
        "10D 10C 10H",
        "KD KC KH",
    )


def test_rummy51_opening_needs_a_group() -> None:
    refused(sr.Opening(min_points=0), RUMMY51, r"needs at least one group")


def test_rummy51_opening_allows_same_suit_runs() -> None:
    accepted(OPENING, RUMMY51, "3H 4H 5H", "6H 7H 8H", "KD KC KH")


# --- solve ---------------------------------------------------------------------------------------

CONTRACT_HANDS = {
    1: "8C 8D 8H KC KD JK 2S 4H 9D",
    2: "8C 8D JK 4S 5S 6S 7S 2H 9D",
    3: "4S 5S 6S 7S 9H 10H JH JK 2C",
    4: "8C 8D 8H KC KD KH 3S 3D JK 9D",
    5: "8C 8D 8H 3S 4S 5S 6S 7S JK 9S 2D",
    6: "8C 8D JK KC KD KH 5H 6H 7H 8H 9H 2C",
    7: "2C 3C 4C 5C 6H 7H 8H 9H JD QD KD AD",
    8: "8C 8D 8H 2S 3S 4S 5S 6S 7S 8S JK 10S JS",
    9: "8C 8D 8H KC KD KH 3C 3D JK 5H 6H 7H 8H 9H",
    10: "2C 3C 4C 5C 6C 7H 8H 9H JK JH 9D 10D JD QD KD",
}


@pytest.mark.parametrize("deal", sorted(CONTRACT_HANDS))
def test_solve_meets_each_shanghai_contract(deal: int) -> None:
    hand = cards(CONTRACT_HANDS[deal])
    contract = SHANGHAI.deal(deal).requirement
    found = solve(hand, contract, SHANGHAI)
    assert found is not None
    assert uses_hand(found, hand)
    check_going_down(found, contract, SHANGHAI)


@pytest.mark.parametrize("deal", sorted(CONTRACT_HANDS))
def test_solve_finds_nothing_in_a_hand_of_strays(deal: int) -> None:
    strays = cards("2C 5D 8H JS 3C 6D 9H QS 4C 7D 10H KS JK")
    assert solve(strays, SHANGHAI.deal(deal).requirement, SHANGHAI) is None


def test_solve_uses_a_longer_run_to_keep_jokers_at_most_naturals() -> None:
    hand = cards("4H JK JK 7H JK 9H")
    assert text(solve(hand, sr.Contract(runs=(5,)), SHANGHAI)) == ["4H JK JK 7H JK 9H"]


def test_solve_overlaps_same_suit_runs_that_may_not_join() -> None:
    hand = cards("3H 4H 5H 6H 7H 8H 9H 10H JK")
    found = solve(hand, sr.Contract(runs=(4, 4)), SHANGHAI)
    assert found is not None
    check_going_down(found, sr.Contract(runs=(4, 4)), SHANGHAI)
    assert solve(hand[:-1], sr.Contract(runs=(4, 4)), SHANGHAI) is None


def test_solve_respects_the_camping_joker_table() -> None:
    hand = cards("4S JK JK 7S 8C 8D 8H")
    assert solve(hand, SET_RUN, SHANGHAI) is not None
    assert solve(hand, SET_RUN, CAMPING) is None


def test_a_suit_of_runs_worked_out_for_more_jokers_answers_for_fewer() -> None:
    # hearts make 2 runs with one joker (2H-5H, JK QH KH AH), spades one: 3 runs of 4
    naturals = cards("2H 3H 4H 5H 8H QH KH AH 4S 5S 6S 7S")
    contract = SHANGHAI.deal(7).requirement
    variant = attrs.evolve(SHANGHAI)  # a variant of its own: nothing remembered yet
    answers = []
    for jokers in (0, 1, 0, 2, 1):
        hand = naturals + (sr.JOKER,) * jokers
        found = solve(hand, contract, variant)
        answers.append(found is not None)
        if found is not None:
            assert uses_hand(found, hand)
            check_going_down(found, contract, variant)
    assert answers == [False, True, False, True, True]


@pytest.mark.interpreted
def test_a_suit_is_not_searched_for_more_runs_than_its_cards_can_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 3 runs of 4 take 12 cards: hearts (7 cards) and the one joker make at most 2 of them,
    # so the per-suit search never tries a third run of hearts; spades make the third run
    naturals = cards("2H 3H 4H 5H 7H 8H 9H 4S 5S 6S 7S")
    contract = SHANGHAI.deal(7).requirement
    deepest: list[int] = []
    search_suit = _contract_search._ContractSearch._suit_runs

    def recorded(self: _contract_search._ContractSearch, suit: int, *rest: Any) -> bool:
        deepest.append(len(rest[5]) + 1)  # the runs chosen, and the one looked for now
        return search_suit(self, suit, *rest)

    monkeypatch.setattr(_contract_search._ContractSearch, "_suit_runs", recorded)
    hand = (*naturals, sr.JOKER)
    found = solve(hand, contract, attrs.evolve(SHANGHAI))
    assert found is not None
    assert uses_hand(found, hand)
    check_going_down(found, contract, SHANGHAI)
    assert max(deepest) == 2


def test_runs_that_leave_the_same_cards_are_told_apart_where_runs_may_not_join() -> None:
    # 2H-5H JK and JK 7H-10H leave the same cards as 7H-10H JK does, but only the last lets
    # 2H-5H be laid beside it in Shanghai (the others could join it): the search of runs and
    # sets remembers what failed by the cards left and by the runs already placed
    hand = cards("2H 3H 4H 5H 7H 8H 9H 10H JK KC KD KS")
    contract = sr.Contract(sets=(3,), runs=(5, 4))
    assert text(solve(hand, contract, SHANGHAI)) == [
        "KC KD KS",
        "2H 3H 4H 5H",
        "7H 8H 9H 10H JK",
    ]
    allowed = attrs.evolve(
        SHANGHAI, going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.ALLOWED)
    )
    assert solve(hand, contract, allowed) is not None
    # runs alone are worked out suit by suit, each suit's spans together
    runs_only = sr.Contract(runs=(5, 4))
    found = solve(hand[:9], runs_only, SHANGHAI)
    assert text(found) == ["2H 3H 4H 5H", "7H 8H 9H 10H JK"]


def test_a_set_and_two_runs_share_out_the_cards_and_jokers() -> None:
    # a house contract: once a run is placed, the search stops where the set cannot be made
    contract = sr.Contract(sets=(3,), runs=(4, 4))
    hand = cards("4H 5H 6H 7H 9S 10S JS JK JK 7C 7D")
    found = solve(hand, contract, SHANGHAI)
    assert found is not None
    assert text(found)[0] == "7C 7D 7H"  # the jokers go to the runs
    assert found in arrangements(hand, contract, SHANGHAI)
    # one joker fewer: the set, the hearts and the spades each lack a card
    assert solve(hand[:-3] + hand[-2:], contract, SHANGHAI) is None
    assert arrangements(hand[:-3] + hand[-2:], contract, SHANGHAI) == ()
    other = cards("4H 5H 6H 7H 9S 10S JS QS JK 7C 7D")
    found = solve(other, contract, SHANGHAI)
    assert found is not None
    assert uses_hand(found, other)
    check_going_down(found, contract, SHANGHAI)


def test_a_hand_of_more_than_255_cards_is_refused() -> None:
    # the quick refusals count a hand a byte per card: no pack comes near it
    hand = (*sr.make_pack(4, 31), *sr.make_pack(1, 0)[:17])  # 256 cards, 5 copies at most
    with pytest.raises(sr.RummyError, match="31 jokers, 255 cards in all"):
        solve(hand, SHANGHAI.deal(1).requirement, SHANGHAI)
    with pytest.raises(sr.RummyError, match="255 cards in all"):
        solve(hand, OPENING, RUMMY51)
    assert solve(hand[:255], SHANGHAI.deal(1).requirement, SHANGHAI) is not None


def test_solve_rummy51_opening() -> None:
    hand = cards("6S 7S 8S 10D 10C 10H 2C 4D")
    assert text(solve(hand, OPENING, RUMMY51)) == ["10C 10D 10H", "6S 7S 8S"]
    assert solve(cards("2S 3S 4S 5S 6S 10D 10C 10H 2C"), OPENING, RUMMY51) is None
    found = solve(cards("QS KS JK 10D 10C 10H 2C"), OPENING, RUMMY51)
    assert found is not None
    check_going_down(found, OPENING, RUMMY51)


def test_solve_opening_with_zero_points_takes_any_group() -> None:
    found = solve(cards("2C 2D 2H 9S"), sr.Opening(min_points=0), RUMMY51)
    assert text(found) == ["2C 2D 2H"]


# --- arrangements and the canonical form ---------------------------------------------------------


def test_arrangements_lists_every_way_once() -> None:
    ways = arrangements(cards("8C 8D 8H JK"), sr.Contract(sets=(3,)), SHANGHAI)
    assert [text(way) for way in ways] == [
        ["8C 8D 8H"],
        ["8C 8D 8H JK"],
        ["8C 8D JK"],
        ["8C 8H JK"],
        ["8D 8H JK"],
    ]


def test_arrangements_are_canonical_and_accepted() -> None:
    hand = cards("8C 8D 8H 4S 5S 6S 7S JK 2D")
    ways = arrangements(hand, SET_RUN, SHANGHAI)
    assert len(ways) == len(set(ways)) > 5
    for way in ways:
        shapes = check_going_down(way, SET_RUN, SHANGHAI)
        assert canonical_groups(shapes, SHANGHAI) == way
        assert uses_hand(way, hand)


def test_joinable_runs_listed_where_same_suit_runs_are_allowed() -> None:
    allowed = VARIANTS["allowed"]
    hand = cards("3H 4H 5H 6H 7H 8H 9H 10H")
    joined = (cards("3H 4H 5H 6H"), cards("7H 8H 9H 10H"))
    assert joined in arrangements(hand, sr.Contract(runs=(4, 4)), allowed)
    assert joined not in arrangements(hand, sr.Contract(runs=(4, 4)), SHANGHAI)


def test_contract_options_of_slots_of_different_sizes_list_every_way() -> None:
    from shanghai_rummy.solver import contract_options

    hand = cards("8C 8D 8H 8S 9C 9D 9H JK 2S")
    contract = sr.Contract(sets=(3, 4))
    assert contract_options(hand, contract, SHANGHAI) == arrangements(hand, contract, SHANGHAI)
    assert contract_options(hand, contract, SHANGHAI)
    assert contract_options(hand[:5], contract, SHANGHAI) == ()


def test_extra_groups_beside_the_contract_are_listed_as_often_as_the_hand_holds_them() -> None:
    # exact_meld_count off: a going down is the contract's groups and any extra groups
    variant = VARIANTS["extra-groups"]
    hand = cards("8C 8D 8H 5C 6C 7C 5C 6C 7C")
    contract = sr.Contract(sets=(3,))
    ways = arrangements(hand, contract, variant)
    assert set(ways) == brute_arrangements(hand, contract, variant)
    assert ["8C 8D 8H", "5C 6C 7C", "5C 6C 7C"] in [text(way) for way in ways]
    assert len(ways) == len(set(ways))


def test_a_contract_of_five_groups_with_extra_groups_allowed_lists_its_ways() -> None:
    # found by fuzzing house rules: the walk over every multiset of groups tried millions of
    # them for such a hand; the contract's groups are found first now. (Groups of two, as the
    # fuzzer first found it with, are refused now: limits.MIN_GROUP_CARDS.)
    variant = attrs.evolve(
        SHANGHAI,
        id="five-groups",
        packs=(sr.PackSize(min_players=2, max_players=6, decks=4, jokers=1),),
        melds=sr.MeldRules(aces=sr.Aces.HIGH_OR_LOW, run_min=3),
        jokers=sr.JokerRules(going_down_per_group=1),
        going_down=sr.GoingDownRules(
            exact_meld_count=False, exact_sizes=True, same_suit_runs=sr.SameSuitRuns.ALLOWED
        ),
        buying=ONE_BUY,
    )
    hand = cards("8C 8C 8C KC KC KC 4D 5D 6D 7D 8D QH QH KH KH AH 6S 7S 8S KS JK")
    contract = sr.Contract(sets=(3, 3), runs=(3, 3))
    ways = arrangements(hand, contract, variant)
    assert len(ways) == len(set(ways)) > 0
    assert all(check_going_down(way, contract, variant) for way in ways)
    for way in ways:
        assert uses_hand(way, hand)
        check_going_down(way, contract, variant)
    assert any(len(way) == 6 for way in ways)  # an extra group beside the five
    assert solve(hand, contract, variant) in ways


def test_a_listed_way_is_checked_as_a_fresh_one() -> None:
    hand = cards("8C 8D 8H JK 4S 5S 6S 7S 9S 2D")
    for way in arrangements(hand, SET_RUN, SHANGHAI):
        fresh = check_going_down([list(group) for group in way], SET_RUN, SHANGHAI)
        assert check_going_down(way, SET_RUN, SHANGHAI) == fresh
    way = arrangements(hand, SET_RUN, SHANGHAI)[0]
    with pytest.raises(sr.ContractNotMetError):
        check_going_down(way, sr.Contract(sets=(3, 3)), SHANGHAI)


def test_canonical_groups_orders_sets_then_runs() -> None:
    way = canonical_groups(groups("4S 5S 6S JK", "JK KH KC", "8D 8C 8H"), SHANGHAI)
    assert text(way) == ["8C 8D 8H", "KC KH JK", "4S 5S 6S JK"]


@pytest.mark.parametrize(
    ("held", "contract"),
    [
        ("XC XC XD XH JK", sr.Contract(sets=(3,))),
        ("XC XC XD XD XH XH JK JK", sr.Contract(sets=(3, 3))),
        ("XC XD XS JK 5H 6H 7H", sr.Contract(sets=(3,), runs=(4,))),
    ],
)
def test_ranks_held_alike_have_the_same_ways_of_sets(held: str, contract: sr.Contract) -> None:
    # the table of sets of each rank is moved from the one worked out for ranks held alike
    def unranked(card: sr.Card, rank: str) -> str:
        return "X" + card.code[-1] if card.code[:-1] == rank else card.code

    listed = {}
    for rank in ("2", "9", "Q", "K", "A", "2"):
        ways = arrangements(cards(held.replace("X", rank)), contract, SHANGHAI)
        listed[rank] = sorted(
            " | ".join(" ".join(unranked(card, rank) for card in group) for group in way)
            for way in ways
        )
        for way in ways:
            check_going_down(way, contract, SHANGHAI)
    assert len(listed["2"]) > 1
    assert all(ways == listed["2"] for ways in listed.values()), listed


@pytest.mark.parametrize(
    ("hand", "contract"),
    [
        (
            "8C 9C 9C 10C 10C JC 9D 2H 3H 4H 5H 6H 7H 8H 9H 10H 3S 6S JK JK",
            sr.Contract(runs=(5, 5, 5)),
        ),
        ("6C 7C 8C 9C 10C 10C JC QC KC QH KH 5S 6S 8S JK", sr.Contract(runs=(4, 4, 4))),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H 3S 4S 5S 6S 7S JK JK", sr.Contract(runs=(4, 4, 4))),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H 2H 3H 4H 5H 6H JK JK", sr.Contract(runs=(4, 4, 4))),
    ],
)
def test_long_suits_list_the_ways_the_walk_over_every_group_lists(
    hand: str, contract: sr.Contract
) -> None:
    # hundreds of runs in one suit: the per-suit tables skip runs whose cards are used up
    from shanghai_rummy.solver._general_walk import every_way

    counts, jokers = count_cards(cards(hand))
    walked = every_way(counts, jokers, contract, rules_of(SHANGHAI))

    def order(way: tuple[tuple[sr.Card, ...], ...]) -> list[list[str]]:
        return [[str(card) for card in group] for group in way]

    expected = sorted((tuple(group.cards for group in way) for way in walked), key=order)
    listed = arrangements(cards(hand), contract, SHANGHAI)
    assert len(listed) > 0
    assert sorted(listed, key=order) == expected


def test_arrangements_empty_when_impossible() -> None:
    assert arrangements(cards("8C 8D 4S 5S"), SET_RUN, SHANGHAI) == ()


# --- against a brute-force reference --------------------------------------------------------------

VARIANTS = {
    "shanghai": SHANGHAI,
    "wiki": WIKI,
    "camping": CAMPING,
    "rummy51": RUMMY51,
    "wrap": attrs.evolve(SHANGHAI, id="w", melds=sr.MeldRules(aces=sr.Aces.WRAP, run_min=3)),
    "low": attrs.evolve(SHANGHAI, id="l", melds=sr.MeldRules(aces=sr.Aces.LOW, run_min=3)),
    "both": attrs.evolve(SHANGHAI, id="b", melds=sr.MeldRules(aces=sr.Aces.BOTH_ENDS, run_min=3)),
    "jokers-free": attrs.evolve(
        SHANGHAI,
        id="n",
        jokers=sr.JokerRules(at_most_naturals=False),
        melds=sr.MeldRules(run_min=3),
    ),
    "extra-groups": attrs.evolve(
        SHANGHAI,
        id="x",
        going_down=sr.GoingDownRules(
            exact_meld_count=False, same_suit_runs=sr.SameSuitRuns.ALLOWED
        ),
        melds=sr.MeldRules(run_min=3, set_distinct_suits=True),
        buying=ONE_BUY,  # extra groups: a hand of at most limits.MAX_OPEN_ENDED_HAND_CARDS
    ),
    "allowed": attrs.evolve(
        SHANGHAI,
        id="a",
        going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.ALLOWED),
        melds=sr.MeldRules(run_min=3),
    ),
    "separated": attrs.evolve(
        SHANGHAI,
        id="s",
        going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.SEPARATED, exact_sizes=True),
        melds=sr.MeldRules(run_min=3, aces=sr.Aces.HIGH_OR_LOW),
    ),
}
REQUIREMENTS: list[sr.Requirement] = [
    sr.Contract(sets=(3,)),
    sr.Contract(runs=(4,)),
    sr.Contract(sets=(3,), runs=(4,)),
    sr.Contract(runs=(3, 3)),
    sr.Contract(sets=(3, 3)),
    sr.Contract(sets=(3, 4)),  # slots of different sizes: the walk over every group
    sr.Contract(runs=(3, 4)),
    sr.Contract(sets=(3,), runs=(3, 3)),
    sr.Opening(min_points=20),
]


def _sub_multisets(counter: Counter[sr.Card]) -> list[list[sr.Card]]:
    items = sorted(counter.items(), key=lambda item: str(item[0]))
    return [
        [card for (card, _), k in zip(items, picks, strict=True) for _ in range(k)]
        for picks in product(*(range(count + 1) for _, count in items))
    ]


def brute_groups(hand: tuple[sr.Card, ...], variant: sr.Variant) -> list[tuple[sr.Card, ...]]:
    """Every valid group from ``hand``: each sub-multiset of its naturals that shares a rank or
    a suit, in every rotation of rank order, with the jokers in every place."""
    jokers = hand.count(sr.JOKER)
    found: set[tuple[sr.Card, ...]] = set()
    for sub in _sub_multisets(Counter(card for card in hand if not card.is_joker)):
        if not sub or (len({c.rank for c in sub}) > 1 and len({c.suit for c in sub}) > 1):
            continue
        ordered = sorted(sub, key=lambda c: (c.rank, str(c.suit)))
        rotations = {tuple(ordered[i:] + ordered[:i]) for i in range(len(ordered))}
        for used in range(jokers + 1):
            size = len(sub) + used
            for naturals in rotations:
                for spots in combinations(range(size), used):
                    rest = iter(naturals)
                    group = [sr.JOKER if i in spots else next(rest) for i in range(size)]
                    try:
                        shape = check_group(group, variant)
                    except sr.InvalidMeldError:
                        continue
                    found.add(canonical_groups([shape], variant)[0])
    return sorted(found, key=lambda group: [str(card) for card in group])


def brute_arrangements(
    hand: tuple[sr.Card, ...], requirement: sr.Requirement, variant: sr.Variant
) -> set[tuple[tuple[sr.Card, ...], ...]]:
    """Every multiset of valid groups that check_going_down accepts, canonicalised."""
    candidates = brute_groups(hand, variant)
    have = Counter(hand)
    most = len(hand) // min(variant.melds.set_min, variant.melds.run_min)
    if isinstance(requirement, sr.Contract) and variant.going_down.exact_meld_count:
        sizes = [requirement.group_count]
    else:
        sizes = list(range(1, most + 1))
    found = set()
    for size in sizes:
        for combo in combinations_with_replacement(candidates, size):
            if Counter(card for group in combo for card in group) - have:
                continue
            try:
                shapes = check_going_down(combo, requirement, variant)
            except (sr.ContractNotMetError, sr.InvalidMeldError):
                continue
            found.add(canonical_groups(shapes, variant))
    return found


@st.composite
def small_cases(
    draw: st.DrawFn,
) -> tuple[str, sr.Requirement, tuple[sr.Card, ...]]:
    name = draw(st.sampled_from(sorted(VARIANTS)))
    variant = VARIANTS[name]
    melds = variant.melds
    requirement = draw(
        st.sampled_from(
            [
                r
                for r in REQUIREMENTS
                if isinstance(r, sr.Opening)
                or (
                    all(size >= melds.run_min for size in r.runs)
                    and all(size >= melds.set_min for size in r.sets)
                )
            ]
        )
    )
    low = draw(st.sampled_from([0, 6, 9, 10]))  # windows around the ace too
    window = [list(sr.Rank)[(low + i) % 13] for i in range(5)]
    suits = draw(st.lists(st.sampled_from(list(sr.Suit)), min_size=1, max_size=4, unique=True))
    jokers = draw(st.integers(0, 2))
    naturals = draw(
        st.lists(
            st.tuples(st.sampled_from(window), st.sampled_from(suits)),
            min_size=6 - jokers,
            max_size=9 - jokers,
        )
    )
    counted = Counter(sr.Card.of(rank, suit) for rank, suit in naturals)
    hand = tuple(card for card, n in counted.items() for _ in range(min(n, 2)))
    return name, requirement, hand + (sr.JOKER,) * jokers


@settings(max_examples=400, deadline=None)
@given(small_cases())
def test_solve_and_arrangements_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]],
) -> None:
    name, requirement, hand = case
    variant = VARIANTS[name]
    expected = brute_arrangements(hand, requirement, variant)
    ways = arrangements(hand, requirement, variant)
    assert len(ways) == len(set(ways))
    assert set(ways) == expected
    found = solve(hand, requirement, variant)
    if not expected:
        assert found is None
    else:
        assert found in expected  # valid, canonical, from the hand


def _out_by_trying_each_discard(variant: sr.Variant, deal: int, hand: tuple[sr.Card, ...]) -> bool:
    """Going out by hand as the rule reads: every card in one way, or every card but one
    that is then discarded (tried card by card), as ``variant.going_out`` allows."""
    requirement = variant.deal(deal).requirement

    def covered(cards: list[sr.Card]) -> bool:
        return any(
            sum(map(len, way)) == len(cards) for way in arrangements(cards, requirement, variant)
        )

    rule = variant.going_out
    if rule is not sr.GoOutDiscard.REQUIRED and covered(list(hand)):
        return True
    if rule is sr.GoOutDiscard.NEVER:
        return False
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        if covered(rest):
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["shanghai", "shanghai-camping", "rummy51"]),
    st.sampled_from(list(sr.GoOutDiscard)),
    st.integers(1, 10),
    st.data(),
)
def test_going_out_by_hand_is_one_search_that_agrees_with_trying_each_discard(
    preset: str, rule: sr.GoOutDiscard, deal: int, data: st.DataObject
) -> None:
    variant = attrs.evolve(sr.get_variant(preset), going_out=rule)
    deal = min(deal, len(variant.deals))
    naturals = naturals_near_runs(data.draw, most_suits=4, widest=6)[:10]
    cards_held = naturals + (sr.JOKER,) * data.draw(st.integers(0, 2))
    ways = arrangements(cards_held, variant.deal(deal).requirement, variant)
    hand = cards_held
    if ways:  # the cards of one way, and up to two more: no card left over, one, or two
        way = data.draw(st.sampled_from(ways))
        laid = [card for group in way for card in group]
        rest = list((Counter(cards_held) - Counter(laid)).elements())
        hand = tuple(laid) + tuple(rest[: data.draw(st.integers(0, 2))])
    expected = _out_by_trying_each_discard(variant, deal, hand)
    assert hand_out_possible(variant, deal, hand) == expected


@pytest.mark.parametrize(
    ("rule", "exact", "one_over"),
    [
        (sr.GoOutDiscard.NEVER, True, False),
        (sr.GoOutDiscard.OPTIONAL, True, True),
        (sr.GoOutDiscard.REQUIRED, False, True),
    ],
)
def test_going_out_by_hand_leaves_the_cards_the_going_out_rule_allows(
    rule: sr.GoOutDiscard, exact: bool, one_over: bool
) -> None:
    # two sets of 3: every card laid down, or all but 5S, which is then discarded
    variant = attrs.evolve(SHANGHAI, going_out=rule)
    assert hand_out_possible(variant, 1, cards("8C 8D 8H 9C 9D 9H")) is exact
    assert hand_out_possible(variant, 1, cards("8C 8D 8H 9C 9D 9H 5S")) is one_over
    assert not hand_out_possible(variant, 1, cards("8C 8D 8H 9C 9D 9H 5S 6S"))


def test_going_out_by_hand_is_found_with_a_group_twice_or_extra_groups() -> None:
    from shanghai_rummy.solver import way_leaving

    def no_card_left(hand: str, requirement: sr.Requirement, variant: sr.Variant) -> bool:
        return way_leaving(cards(hand), requirement, variant, lambda left: left == 0, 0)

    # the same run twice: the second is the very group the walk stands on
    assert no_card_left("4S 5S 6S 4S 5S 6S", sr.Opening(min_points=20), VARIANTS["allowed"])
    assert not no_card_left("4S 5S 6S 4S 5S 7S", sr.Opening(min_points=20), VARIANTS["allowed"])
    # an extra group takes what no group of the contract could
    assert no_card_left("8C 8D 8H 4S 5S 6S", sr.Contract(sets=(3,)), VARIANTS["extra-groups"])
    assert not no_card_left("8C 8D 8H 4S 5S 7S", sr.Contract(sets=(3,)), VARIANTS["extra-groups"])


@settings(max_examples=300, deadline=None)
@given(small_cases(), st.integers(0, 2))
def test_a_way_leaving_so_many_cards_is_found_where_the_listing_holds_one(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]], cards_left: int
) -> None:
    """The search for a way leaving no card (going out by hand), or one, agrees with the
    listing of every way, with and without giving up early on cards nothing can take."""
    from shanghai_rummy.solver import way_leaving

    name, requirement, hand = case
    variant = VARIANTS[name]
    listed = [len(hand) - sum(map(len, way)) for way in arrangements(hand, requirement, variant)]
    exactly = way_leaving(hand, requirement, variant, lambda left: left == cards_left, cards_left)
    assert exactly == (cards_left in listed)
    other = way_leaving(hand, requirement, variant, lambda left: left != cards_left)
    assert other == any(left != cards_left for left in listed)


def _extra_groups_allowed(same_suit_runs: sr.SameSuitRuns, exact_sizes: bool) -> sr.Variant:
    return attrs.evolve(
        SHANGHAI,
        id=f"extra-{same_suit_runs.value}-{exact_sizes}",
        going_down=sr.GoingDownRules(
            exact_meld_count=False, exact_sizes=exact_sizes, same_suit_runs=same_suit_runs
        ),
        melds=sr.MeldRules(run_min=3),
        buying=ONE_BUY,
    )


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(sr.SameSuitRuns)),
    st.booleans(),
    st.sampled_from(
        [sr.Contract(runs=(3,)), sr.Contract(sets=(3,), runs=(3,)), sr.Contract(runs=(3, 3))]
    ),
    st.integers(0, 1),
    st.data(),
)
def test_going_out_with_extra_groups_is_found_where_the_listing_holds_a_way(
    same_suit_runs: sr.SameSuitRuns,
    exact_sizes: bool,
    contract: sr.Contract,
    most_left: int,
    data: st.DataObject,
) -> None:
    """Where extra groups may join the contract's, going out by hand covers the cards left
    lowest card first; it agrees with the listing of every way, whichever runs of a suit
    may be laid together."""
    from shanghai_rummy.solver import way_leaving

    variant = _extra_groups_allowed(same_suit_runs, exact_sizes)
    naturals = naturals_near_runs(data.draw, most_suits=2, widest=7)[:9]
    hand = naturals + (sr.JOKER,) * data.draw(st.integers(0, 2))
    listed = [len(hand) - sum(map(len, way)) for way in arrangements(hand, contract, variant)]
    found = way_leaving(hand, contract, variant, lambda left: left <= most_left, most_left)
    assert found == any(left <= most_left for left in listed)
    exactly = way_leaving(hand, contract, variant, lambda left: left == most_left, most_left)
    assert exactly == (most_left in listed)


def test_going_out_with_extra_groups_tries_no_core_where_the_cards_cannot_all_be_grouped() -> None:
    """A hand whose cards no groups can all take is refused without checking any choice of
    groups against the contract: walking the contract's groups, with seven jokers, and
    growing each by every multiset of extra groups took seconds."""
    from shanghai_rummy.solver import _general_walk

    variant = attrs.evolve(
        SHANGHAI,
        going_down=sr.GoingDownRules(exact_meld_count=False),
        going_out=sr.GoOutDiscard.NEVER,
        buying=ONE_BUY,
    )
    hand = cards("10H 4D 9H 10C 5D AS AH 2D 6S 10S 10C 7H 6D 9S 8D KS 3S AC") + (sr.JOKER,) * 7
    with mock.patch.object(_general_walk, "_accepts", wraps=_general_walk._accepts) as accepts:
        assert not hand_out_possible(variant, 3, hand)
    assert accepts.call_count == 0
    # the same hand less its loose cards goes out: a run of 4 twice, a set of tens beside
    assert hand_out_possible(variant, 3, cards("4D 5D 6D 7H 8H 9H 10C 10H 10S") + (sr.JOKER,) * 2)


def test_going_out_with_extra_groups_needs_the_contracts_groups_among_them() -> None:
    variant = attrs.evolve(
        SHANGHAI, going_down=sr.GoingDownRules(exact_meld_count=False), buying=ONE_BUY
    )
    two_sets = cards("8C 8D 8H 9C 9D 9H")
    assert hand_out_possible(variant, 1, two_sets)  # two sets of 3
    assert not hand_out_possible(variant, 3, two_sets)  # two runs of 4
    assert hand_out_possible(variant, 2, (*two_sets, *cards("4S 5S 6S 7S")))  # a set, a run


def test_going_out_with_extra_groups_tells_apart_a_core_of_the_same_cards_elsewhere() -> None:
    """JK JH QH as 10-Q leaves 6-9, which may not lie beside it (runs of one suit must be
    separated); as J-K it leaves the same cards, which may. What the first could not cover
    is not what the second cannot: the runs chosen are part of what is remembered."""
    from shanghai_rummy.solver import way_leaving

    variant = _extra_groups_allowed(sr.SameSuitRuns.SEPARATED, exact_sizes=True)
    hand = (*cards("6H 7H 8H 9H JH QH"), sr.JOKER)
    assert way_leaving(hand, sr.Contract(runs=(3,)), variant, lambda left: left == 0, 0)


@settings(max_examples=300, deadline=None)
@given(small_cases())
def test_possible_groups_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]],
) -> None:
    name, _, hand = case
    variant = VARIANTS[name]
    found = possible_groups(hand, variant)
    assert set(found) == set(brute_groups(hand, variant))
    assert canonical_groups(found, variant) == found  # each canonical, in canonical order, once


def test_possible_groups_of_a_small_hand() -> None:
    found = possible_groups(cards("8C 8D 8H JK 9H 10H"), SHANGHAI)
    assert [" ".join(map(str, group)) for group in found] == [
        "8C 8D 8H",
        "8C 8D 8H JK",
        "8C 8D JK",
        "8C 8H JK",
        "8D 8H JK",
        "JK 8H 9H 10H",
        "8H 9H 10H JK",
    ]
    assert possible_groups(cards("8C 9D JK"), SHANGHAI) == ()


def test_possible_groups_put_a_lone_ace_at_either_end_of_an_ace_to_ace_run() -> None:
    hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK")
    longest = [group for group in possible_groups(hand, RUMMY51) if len(group) == 14]
    assert [" ".join(map(str, group)) for group in longest] == [
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK",
        "JK 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    ]
    with_both = possible_groups((*hand, C("AH")), RUMMY51)
    longest = [group for group in with_both if len(group) == 14]
    assert len(longest) == 15  # all natural, or the joker in any one of the 14 places
    for group in longest:
        assert check_group(group, RUMMY51).cards == group


@st.composite
def shanghai_hands(draw: st.DrawFn) -> tuple[int, tuple[sr.Card, ...]]:
    deal = draw(st.integers(1, 10))
    pack = sr.make_pack(2, 0)
    naturals = draw(st.lists(st.sampled_from(pack), min_size=10, max_size=16))
    counted = Counter(naturals)
    hand = tuple(card for card, n in counted.items() for _ in range(min(n, 2)))
    return deal, hand + (sr.JOKER,) * draw(st.integers(0, 4))


@settings(max_examples=150, deadline=None)
@given(shanghai_hands(), st.sampled_from([SHANGHAI, WIKI, CAMPING]))
def test_solve_result_is_always_accepted(
    case: tuple[int, tuple[sr.Card, ...]], variant: sr.Variant
) -> None:
    deal, hand = case
    contract = variant.deal(deal).requirement
    found = solve(hand, contract, variant)
    if found is not None:
        assert uses_hand(found, hand)
        check_going_down(found, contract, variant)


def naturals_near_runs(draw: st.DrawFn, most_suits: int, widest: int) -> tuple[sr.Card, ...]:
    """Natural cards near some runs: a window of ranks in a few suits, up to 2 copies of
    each card."""
    low = draw(st.integers(0, 12))
    window = [list(sr.Rank)[(low + i) % 13] for i in range(draw(st.integers(4, widest)))]
    suits = draw(
        st.lists(st.sampled_from(list(sr.Suit)), min_size=1, max_size=most_suits, unique=True)
    )
    naturals = draw(
        st.lists(st.tuples(st.sampled_from(window), st.sampled_from(suits)), max_size=14)
    )
    counted = Counter(sr.Card.of(rank, suit) for rank, suit in naturals)
    return tuple(card for card, n in counted.items() for _ in range(min(n, 2)))


def assert_solve_finds_what_is_listed(
    contract: sr.Contract,
    naturals: tuple[sr.Card, ...],
    joker_counts: list[int],
    variant: sr.Variant,
) -> None:
    """One hand asked about with more and fewer jokers, as a bot does, in a copy of
    ``variant`` whose remembered tables only these questions made: ``solve`` finds a way
    exactly where the listing of every way holds one, and a valid one."""
    fresh = attrs.evolve(variant)
    for jokers in joker_counts:
        hand = naturals + (sr.JOKER,) * jokers
        found = solve(hand, contract, fresh)
        assert (found is None) == (not arrangements(hand, contract, variant))
        if found is not None:
            assert uses_hand(found, hand)
            check_going_down(found, contract, variant)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([SHANGHAI.deal(deal).requirement for deal in (3, 7, 10)]),
    st.data(),
    st.lists(st.integers(0, 5), min_size=1, max_size=6),
)
def test_remembered_suit_tables_agree_with_the_listing_of_every_way(
    contract: sr.Contract, data: st.DataObject, joker_counts: list[int]
) -> None:
    """A runs-only Shanghai contract: each answer is the listing's."""
    naturals = naturals_near_runs(data.draw, most_suits=4, widest=9)
    assert_solve_finds_what_is_listed(contract, naturals, joker_counts, SHANGHAI)


# runs of different sizes, each size with a joker limit of its own when going down
LIMITED = attrs.evolve(
    SHANGHAI,
    id="limited",
    jokers=sr.JokerRules(going_down_by_size=((3, 1), (4, 2), (5, 1), (6, 2), (7, 2), (10, 3))),
)

# runs exactly their contract size: a longer run does not stand in for a shorter one
EXACT_SIZES = attrs.evolve(SHANGHAI, id="exact", going_down=sr.GoingDownRules(exact_sizes=True))


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([SHANGHAI, LIMITED, EXACT_SIZES]),
    st.sampled_from([(5, 4), (4, 5, 4), (6, 4), (5, 5, 4), (3, 5)]),
    st.data(),
    st.lists(st.integers(0, 4), min_size=1, max_size=4),
)
def test_runs_of_different_sizes_are_found_suit_by_suit_as_the_listing_finds_them(
    variant: sr.Variant, runs: tuple[int, ...], data: st.DataObject, joker_counts: list[int]
) -> None:
    """The per-suit tables hold every choice of the contract's runs (which sizes a suit
    makes, with each size's joker limit), also when made for another number of jokers."""
    naturals = naturals_near_runs(data.draw, most_suits=3, widest=10)
    assert_solve_finds_what_is_listed(sr.Contract(runs=runs), naturals, joker_counts, variant)


def test_runs_of_different_sizes_keep_each_sizes_joker_limit() -> None:
    # a run of 5 may hold one joker and a run of 4 two: hearts lack 4H and 5H, so the run of
    # 4 is the hearts' (with both jokers) and the run of 5 the spades'
    hand = cards("2H 3H 6H 7H 2S 3S 4S 5S 6S JK JK")
    contract = sr.Contract(runs=(5, 4))
    found = solve(hand, contract, LIMITED)
    assert text(found) == ["2H 3H JK JK", "2S 3S 4S 5S 6S"]
    check_going_down(found, contract, LIMITED)
    # with one joker allowed in a run of 4 as well, two missing cards of hearts are too many
    limits = ((3, 1), (4, 1), (5, 1), (6, 2), (7, 2), (10, 3))
    strict = attrs.evolve(LIMITED, jokers=sr.JokerRules(going_down_by_size=limits))
    assert solve(hand, contract, strict) is None
    assert not arrangements(hand, contract, strict)


def test_suits_share_out_the_runs_asked_for_and_no_more_of_a_size() -> None:
    # runs (5, 4, 4): a choice of them is coded a digit a size (runs of 5, then of 4), so
    # two suits' runs of 5 are not a run of 4 and a run of 5 is no run of 4
    five, four = (5, 1, 5), (4, 2, 4)
    kinds = _contract_search._run_kinds((five, four, four), rules_of(SHANGHAI))
    assert kinds.kinds == [five, four]
    one_five, one_four, two_fours = 1, 2, 4
    assert kinds.full == one_five + two_fours
    assert kinds.add[one_five][one_five] == -1
    assert kinds.add[one_five][one_four] == one_five + one_four
    assert kinds.add[one_four][one_four] == two_fours
    assert kinds.add[two_fours][one_four] == -1
    assert kinds.grown[one_five] == [-1, one_five + one_four]
    assert sorted(kinds.supersets[one_four]) == [one_five + one_four, two_fours, kinds.full]
    assert kinds.fitting(12) == [True, True, True, True, True, False]


def test_runs_alone_are_never_searched_run_by_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # run by run, the search also chooses which natural cards jokers stand in for: with a
    # dozen wild cards and long runs, one question took seconds (runs of 10, 8 and 8 below)
    def refused(*args: object) -> bool:
        raise AssertionError("runs alone are worked out suit by suit")

    monkeypatch.setattr(_contract_search._ContractSearch, "search_runs", refused)
    house = attrs.evolve(
        SHANGHAI,
        id="house",
        jokers=sr.JokerRules(at_most_naturals=False),
        melds=sr.MeldRules(aces=sr.Aces.WRAP),
    )
    contract = sr.Contract(runs=(10, 8, 8))
    naturals = cards("2C 5C 5C 8C KC 2D 3D 6D 8D 9D 10D AD 2H 5H 10H 3S 8S 9S AS")
    hand = naturals + (sr.JOKER,) * 13
    found = solve(hand, contract, house)
    assert found is not None
    assert uses_hand(found, hand)
    check_going_down(found, contract, house)
    without_10d = tuple(card for card in hand if card != sr.Card.parse("10D"))
    assert solve(without_10d, contract, house) is None


MIXED = [
    sr.Contract(sets=(3,), runs=(3, 3)),
    sr.Contract(sets=(3,), runs=(4, 3)),
    sr.Contract(sets=(3, 3), runs=(3, 3)),
]


@settings(max_examples=150, deadline=None)
@given(small_cases(), st.sampled_from(MIXED), st.integers(0, 3))
def test_sets_placed_first_find_a_way_exactly_where_the_listing_does(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]], contract: sr.Contract, more: int
) -> None:
    """Sets and several runs: the search that places the sets first (with every choice of
    their natural cards) and then the runs suit by suit, which takes over from the run-by-run
    search where that one runs long, agrees with the walk over every group."""
    name, _, naturals = case
    variant = VARIANTS[name]
    if min(contract.runs) < variant.melds.run_min:
        return
    hand = naturals + (sr.JOKER,) * more
    listed = arrangements(hand, contract, variant)
    for budget in (1, 2, 10**9):  # sets first at once, after one step, or never
        with mock.patch.object(_contract_search, "_RUN_BY_RUN_BUDGET", budget):
            found = solve(hand, contract, attrs.evolve(variant))
        assert (found is None) == (not listed)
        if found is not None:
            assert found in listed


@settings(max_examples=150, deadline=None)
@given(
    small_cases(),
    st.sampled_from(
        [
            sr.Contract(sets=(3, 4), runs=(3,)),
            sr.Contract(sets=(3,), runs=(3, 4)),
            sr.Contract(sets=(3, 3), runs=(3,)),
        ]
    ),
    st.integers(0, 2),
)
def test_the_walk_over_sets_lists_the_same_ways_asking_about_the_runs_at_once_or_never(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]], contract: sr.Contract, more: int
) -> None:
    """A long walk over a contract's sets asks whether the cards they leave can make its
    runs, and stops where they cannot: asked from the first step, it lists the ways, and
    finds a way leaving so many cards, as the walk that never asks does."""
    from shanghai_rummy.solver import _general_walk, way_leaving

    name, _, naturals = case
    variant = VARIANTS[name]
    if min(contract.runs) < variant.melds.run_min:
        return
    hand = naturals + (sr.JOKER,) * more
    answers = []
    for steps in (0, 10**9):
        with mock.patch.object(_general_walk, "_SETS_BEFORE_RUNS_CHECK", steps):
            fresh = attrs.evolve(variant)  # tables of its own
            answers.append(
                (
                    arrangements(hand, contract, fresh),
                    [
                        way_leaving(hand, contract, fresh, lambda left, n=n: left == n, n)
                        for n in (0, 1)
                    ],
                )
            )
    assert answers[0] == answers[1]


def test_a_run_frees_a_card_for_a_set_where_a_later_run_takes_one_of_its_rank() -> None:
    # sets of 3 hold no joker and runs of 5 two: the run of 5 must leave both 9S for the set
    # (7S 8S JK JK JS), as the run of 3 takes a 9 too (7H 8H 9H). The run-by-run search
    # counted only the set's need for nines and found no way
    variant = attrs.evolve(
        SHANGHAI,
        id="house",
        melds=sr.MeldRules(run_min=3, aces=sr.Aces.WRAP),
        jokers=sr.JokerRules(going_down_by_size=((3, 0), (4, 1), (5, 2), (7, 2), (10, 0))),
        going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.ALLOWED, exact_sizes=True),
    )
    contract = sr.Contract(sets=(3,), runs=(5, 3))
    hand = cards("7S 8S 8S 9S 9S JS 7H 8H 9H 9H 10H 10H JK JK JK JK")
    for budget in (1, 10**9):  # sets placed first, or run by run throughout
        with mock.patch.object(_contract_search, "_RUN_BY_RUN_BUDGET", budget):
            found = solve(hand, contract, attrs.evolve(variant))
        assert found is not None
        assert uses_hand(found, hand)
        check_going_down(found, contract, variant)
    # the engine lists the ways to go down only where solve finds one
    assert contract_options(hand, contract, variant) == arrangements(hand, contract, variant)


def test_runs_free_a_card_for_each_set_of_distinct_suits_that_needs_it() -> None:
    # two sets of queens in distinct suits take both QH and both QS, so both runs of hearts
    # hold a joker for the queen (JH JK KH, JK KH AH); the run-by-run search judged one QH
    # enough for the sets and found no way
    variant = attrs.evolve(
        SHANGHAI,
        id="house",
        melds=sr.MeldRules(run_min=3, aces=sr.Aces.BOTH_ENDS, set_distinct_suits=True),
    )
    contract = sr.Contract(sets=(3, 3), runs=(3, 3))
    hand = cards("QS QS QH QH JH KH KH AH AH JK JK JK JK JK")
    for budget in (1, 10**9):  # sets placed first, or run by run throughout
        with mock.patch.object(_contract_search, "_RUN_BY_RUN_BUDGET", budget):
            found = solve(hand, contract, attrs.evolve(variant))
        assert text(found) == ["QH QS JK", "QH QS JK", "JH JK KH", "JK KH AH"]
        check_going_down(found, contract, variant)


@pytest.mark.interpreted
def test_sets_and_several_runs_with_many_jokers_place_the_sets_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a house contract a GreedyBot asks about with many wild cards: the run-by-run search
    # took seconds choosing which natural cards the jokers stand in for
    placed_first: list[bool] = []
    sets_first = _contract_search._ContractSearch.search_sets_then_runs

    def recorded(self: _contract_search._ContractSearch, slot: int, first: int) -> bool:
        if slot == 0:
            placed_first.append(True)
        return sets_first(self, slot, first)

    monkeypatch.setattr(_contract_search._ContractSearch, "search_sets_then_runs", recorded)
    house = attrs.evolve(
        SHANGHAI,
        id="house",
        jokers=sr.JokerRules(at_most_naturals=False),
        melds=sr.MeldRules(set_distinct_suits=True, aces=sr.Aces.LOW, run_min=3),
    )
    contract = sr.Contract(sets=(4, 4), runs=(7, 3, 7))
    naturals = cards("2C 4C 7C 8C 10C QC JD 2H 9H JH QH 3S 5S 7S 8S 9S 10S KS")
    assert solve(naturals + (sr.JOKER,) * 9, contract, house) is None
    hand = naturals + (sr.JOKER,) * 10
    found = solve(hand, contract, house)
    assert found is not None
    assert uses_hand(found, hand)
    check_going_down(found, contract, house)
    assert placed_first == [True, True]


def _sets_first(hand: tuple[sr.Card, ...], contract: sr.Contract, variant: sr.Variant) -> Any:
    with mock.patch.object(_contract_search, "_RUN_BY_RUN_BUDGET", 1):  # sets placed first at once
        return solve(hand, contract, attrs.evolve(variant))


@pytest.mark.parametrize("rule", [sr.SameSuitRuns.ALLOWED, sr.SameSuitRuns.NOT_JOINABLE])
def test_sets_placed_first_leave_runs_that_may_overlap_every_copy_they_need(
    rule: sr.SameSuitRuns,
) -> None:
    # the two runs of hearts overlap, so each takes a 7H: the set of sevens must take no 7H,
    # though the hand holds two
    variant = attrs.evolve(SHANGHAI, id="house", going_down=sr.GoingDownRules(same_suit_runs=rule))
    contract = sr.Contract(sets=(3,), runs=(4, 4))
    hand = cards("5H 5H 6H 6H 7H 7H 8H 8H 7C 7D 7S")
    assert text(_sets_first(hand, contract, variant)) == ["7C 7D 7S", "5H 6H 7H 8H", "5H 6H 7H 8H"]


def test_sets_placed_first_leave_separated_runs_an_ace_at_each_end() -> None:
    # separated runs of hearts share no rank, but an ace sits low in one and high in the
    # other: the set of aces must leave both AH
    variant = attrs.evolve(
        SHANGHAI,
        id="house",
        melds=sr.MeldRules(aces=sr.Aces.HIGH_OR_LOW),
        going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.SEPARATED),
    )
    contract = sr.Contract(sets=(3,), runs=(4, 4))
    hand = cards("AH AH 2H 3H 4H JH QH KH AC AD AS")
    found = _sets_first(hand, contract, variant)
    assert text(found) == ["AC AD AS", "AH 2H 3H 4H", "JH QH KH AH"]
    check_going_down(found, contract, variant)


FOUR_DECKS = attrs.evolve(
    SHANGHAI,
    id="house",
    packs=(sr.PackSize(min_players=2, max_players=8, decks=4, jokers=4),),
    melds=sr.MeldRules(set_max=5, run_min=3, aces=sr.Aces.LOW),
    jokers=sr.JokerRules(at_most_naturals=False),
    going_down=sr.GoingDownRules(same_suit_runs=sr.SameSuitRuns.SEPARATED),
)


def test_sets_placed_first_try_once_the_picks_that_leave_the_runs_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a GreedyBot under four decks asked about this hand: a set of five fives could take
    # the nine fives held in 19 ways (66 with jokers in it), but where runs of a suit must
    # be separated, only one five of each suit is of use to them: the set takes the others
    contract = sr.Contract(sets=(5, 4, 4), runs=(4, 5, 4))
    hand = cards("5C 6C 6C 3D 4D 5D 5D 5D 6D 6D 5H 5H 5H 6H 6H 3S 5S 5S 6S 6S 6S JK JK JK JK JK")
    expanded: list[int] = []
    expand = _contract_search._ContractSearch._sets_then_runs_from

    def counted(self: _contract_search._ContractSearch, slot: int, first: int) -> bool:
        expanded.append(slot)
        return expand(self, slot, first)

    monkeypatch.setattr(_contract_search._ContractSearch, "_sets_then_runs_from", counted)
    assert _sets_first(hand, contract, FOUR_DECKS) is None
    assert len(expanded) < 50  # 771 when every pick was tried
    wilder = (*hand[:-6], *(sr.JOKER,) * 6)  # 6S for a sixth joker
    found = _sets_first(wilder, contract, FOUR_DECKS)
    assert found is not None
    assert uses_hand(found, wilder)
    check_going_down(found, contract, FOUR_DECKS)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(sr.SameSuitRuns)),
    st.sampled_from([sr.Aces.LOW, sr.Aces.HIGH_OR_LOW, sr.Aces.BOTH_ENDS]),
    st.sampled_from(
        [
            sr.Contract(sets=(3,), runs=(3, 3)),
            sr.Contract(sets=(3, 3), runs=(3, 4)),
            sr.Contract(sets=(4,), runs=(3, 3, 3)),
        ]
    ),
    st.integers(0, 9),
    st.lists(st.tuples(st.integers(0, 4), st.sampled_from(list(sr.Suit))), min_size=8, max_size=16),
    st.integers(0, 3),
)
def test_sets_placed_first_from_many_copies_find_a_way_where_run_by_run_does(
    rule: sr.SameSuitRuns,
    aces: sr.Aces,
    contract: sr.Contract,
    low: int,
    picked: list[tuple[int, sr.Suit]],
    jokers: int,
) -> None:
    """Four decks, sets that may repeat a suit: placing the sets first, each pick of a rank's
    copies tried once for what it leaves the runs, finds a way exactly where the run-by-run
    search does, and a way that the rules accept."""
    variant = attrs.evolve(
        FOUR_DECKS,
        melds=sr.MeldRules(set_max=5, run_min=3, aces=aces),
        going_down=sr.GoingDownRules(same_suit_runs=rule),
    )
    ranks = list(sr.Rank)
    naturals = [sr.Card.of(ranks[(low + offset) % 13], suit) for offset, suit in picked]
    hand = (*naturals, *(sr.JOKER,) * jokers)
    found = _sets_first(hand, contract, variant)
    with mock.patch.object(_contract_search, "_RUN_BY_RUN_BUDGET", 10**9):  # run by run throughout
        reference = solve(hand, contract, attrs.evolve(variant))
    assert (found is None) == (reference is None)
    if found is not None:
        assert uses_hand(found, hand)
        check_going_down(found, contract, variant)


# --- the quick refusals are sound -----------------------------------------------------------------


def out_of_reach(
    hand: tuple[sr.Card, ...], requirement: sr.Requirement, variant: sr.Variant
) -> bool:
    rules = rules_of(variant)
    if isinstance(requirement, sr.Opening):
        return opening_out_of_reach(hand, requirement, rules)
    return contract_out_of_reach(hand, requirement, rules)


def searched(hand: tuple[sr.Card, ...], requirement: sr.Requirement, variant: sr.Variant) -> bool:
    """Whether the exact search, without the quick refusals, finds a way."""
    rules = rules_of(variant)
    counts, jokers = count_cards(hand)
    if isinstance(requirement, sr.Opening):
        return OpeningSearch(rules, counts, jokers, requirement).search(0)
    return solve_contract(counts, jokers, requirement, rules) is not None


@settings(max_examples=400, deadline=None)
@given(small_cases())
def test_quick_refusals_never_refuse_a_hand_with_a_way(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]],
) -> None:
    name, requirement, hand = case
    variant = VARIANTS[name]
    if out_of_reach(hand, requirement, variant):
        assert not brute_arrangements(hand, requirement, variant)


CONTRACTS: list[sr.Contract] = sorted(
    {
        r
        for r in (*(deal.requirement for deal in SHANGHAI.deals), *REQUIREMENTS)
        if isinstance(r, sr.Contract)
    },
    key=str,
)


@st.composite
def dense_hands(draw: st.DrawFn) -> tuple[sr.Variant, sr.Requirement, tuple[sr.Card, ...]]:
    """A hand of 6 to 16 cards near a way to go down: its natural cards from a few suits and a
    window of ranks (often around the ace), up to 2 copies of each, and 0 to 4 jokers."""
    variant = draw(st.sampled_from([*VARIANTS.values(), WIKI]))
    melds = variant.melds
    requirement: sr.Requirement = draw(
        st.sampled_from(
            [
                r
                for r in CONTRACTS
                if all(melds.run_min <= size <= melds.longest_run for size in r.runs)
                and all(size >= melds.set_min for size in r.sets)
            ]
            + [sr.Opening(min_points=points) for points in (20, 40, 51)]
        )
    )
    low = draw(st.integers(0, 12))
    width = draw(st.integers(3, 13))
    window = [list(sr.Rank)[(low + i) % 13] for i in range(width)]
    suits = draw(st.lists(st.sampled_from(list(sr.Suit)), min_size=1, max_size=4, unique=True))
    jokers = draw(st.integers(0, 4))
    naturals = draw(
        st.lists(
            st.tuples(st.sampled_from(window), st.sampled_from(suits)),
            min_size=max(1, 6 - jokers),
            max_size=16 - jokers,
        )
    )
    counted = Counter(sr.Card.of(rank, suit) for rank, suit in naturals)
    hand = tuple(card for card, n in counted.items() for _ in range(min(n, 2)))
    return variant, requirement, hand + (sr.JOKER,) * jokers


@settings(max_examples=600, deadline=None)
@given(dense_hands())
def test_quick_refusals_agree_with_the_exact_search(
    case: tuple[sr.Variant, sr.Requirement, tuple[sr.Card, ...]],
) -> None:
    variant, requirement, hand = case
    if out_of_reach(hand, requirement, variant):
        assert not searched(hand, requirement, variant)


@settings(max_examples=300, deadline=None)
@given(shanghai_hands(), st.sampled_from([SHANGHAI, WIKI, CAMPING]))
def test_quick_refusals_agree_with_the_exact_search_on_shanghai_deals(
    case: tuple[int, tuple[sr.Card, ...]], variant: sr.Variant
) -> None:
    deal, hand = case
    contract = variant.deal(deal).requirement
    if out_of_reach(hand, contract, variant):
        assert not searched(hand, contract, variant)
    opening = RUMMY51.deals[0].requirement
    if out_of_reach(hand, opening, RUMMY51):
        assert not searched(hand, opening, RUMMY51)


def test_quick_refusals_catch_the_common_hopeless_hand() -> None:
    strays = cards("2C 5D 9H KS 7C JD 4H AS 3D 8S 10H")
    for deal in SHANGHAI.deals:
        assert out_of_reach(strays, deal.requirement, SHANGHAI)
    assert out_of_reach(strays, OPENING, RUMMY51)
    assert not out_of_reach(cards("8C 8D 8H 4S 5S 6S 7S"), SET_RUN, SHANGHAI)
    assert not out_of_reach(cards("8C 8D JK 4S 5S JK 7S"), SET_RUN, SHANGHAI)
    assert out_of_reach(cards("8C 8D JK 4S 5S JK 9S"), SET_RUN, SHANGHAI)  # 6S and 7S: 3 jokers


@settings(max_examples=150, deadline=None)
@given(
    dense_hands(),
    st.sampled_from([sr.Contract(sets=(3,), runs=(4,)), sr.Contract(sets=(3, 3), runs=(5,))]),
    st.integers(0, 3),
    st.booleans(),
)
def test_a_run_leaving_the_sets_short_is_passed_over_without_changing_the_way(
    case: tuple[sr.Variant, sr.Requirement, tuple[sr.Card, ...]],
    contract: sr.Contract,
    more: int,
    relaxed: bool,
) -> None:
    """The run-by-run search passes over a last run whose every filling leaves the sets more
    jokers short than the hand holds (``_sets_out_of_reach``): a cut of failing branches
    only, so the way found is the one the search finds trying every filling."""
    variant, _, hand = case
    if min(contract.runs) < variant.melds.run_min:
        return
    if relaxed:  # as GreedyBot asks: no joker limits
        variant = attrs.evolve(variant, jokers=sr.JokerRules(at_most_naturals=False))
    hand = hand + (sr.JOKER,) * more
    found = solve(hand, contract, attrs.evolve(variant))
    with mock.patch.object(
        _contract_search._ContractSearch, "_sets_out_of_reach", return_value=False
    ):
        assert solve(hand, contract, attrs.evolve(variant)) == found


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 32), min_size=0, max_size=16),
    st.integers(1, 6),
    st.integers(-1, 6),
    st.integers(1, 5),
)
def test_set_costs_count_the_cheapest_increments_the_bound_lists(
    rank_counts: list[int], size: int, least: int, wanted: int
) -> None:
    """The sets' bound counts each rank's increments by tables: the sum of the ``wanted``
    smallest, as listing them (``f_r(k) - f_r(k - 1)`` for ``k * least <= c_r``) gives."""
    from shanghai_rummy.solver._card_counts import NO_LIMIT
    from shanghai_rummy.solver._quick_refusals import SetCosts

    increments = []
    for count in rank_counts:
        taken = 1
        while taken <= wanted and taken * least <= count:
            increments.append(max(0, taken * size - count) - max(0, (taken - 1) * size - count))
            taken += 1
    listed = NO_LIMIT if len(increments) < wanted else sum(sorted(increments)[:wanted])
    assert SetCosts(size, least, wanted).jokers(bytes(rank_counts)) == listed


# --- what the solver remembers (DESIGN.md principle 6: owned, bounded, clearable) -------------


def test_every_memo_is_owned_by_the_compiled_rules_and_cleared_by_clear_caches() -> None:
    from shanghai_rummy.solver import clear_caches

    hand = cards("8C 8D 8H 4S 5S 6S JK KD 9H 10H JH")
    contract = sr.Contract(sets=(3,), runs=(4,))
    assert solve(hand, contract, SHANGHAI) is not None
    arrangements(hand, contract, SHANGHAI)
    possible_groups(hand, SHANGHAI)
    rules = rules_of(SHANGHAI)
    assert any(rules.memos.sizes().values())
    clear_caches()
    assert rules_of(SHANGHAI) is not rules  # compiled again, with empty memos
    assert not any(rules_of(SHANGHAI).memos.sizes().values())
    assert solve(hand, contract, SHANGHAI) is not None  # the same answers after


def test_a_memo_never_holds_more_than_its_size() -> None:
    from shanghai_rummy.solver._memo import Memo

    memo: Memo[int, int] = Memo(3)
    for key in range(10):
        memo[key] = key
        assert len(memo) <= 3
        assert memo[key] == key
    memo[9] = 90  # an existing key is replaced, nothing forgotten
    assert memo == {9: 90}


def test_the_compiled_rules_of_at_most_so_many_variants_are_kept() -> None:
    from shanghai_rummy.solver._variant_rules import _COMPILED, MOST_COMPILED_VARIANTS

    variants = [
        attrs.evolve(SHANGHAI, melds=attrs.evolve(SHANGHAI.melds, run_min=3 + n % 2))
        for n in range(MOST_COMPILED_VARIANTS * 2)
    ]
    for variant in variants:
        rules_of(variant)
        assert len(_COMPILED) <= MOST_COMPILED_VARIANTS


@pytest.mark.interpreted
def test_check_going_down_checks_a_listed_way_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # no cache decides which checks run: a way arrangements() listed is read and checked again
    from shanghai_rummy import solver

    hand = cards("8C 8D 8H 4S 5S 6S 7S KD")
    contract = sr.Contract(sets=(3,), runs=(4,))
    (way,) = arrangements(hand, contract, SHANGHAI)
    checked = []
    real = solver.check_shapes
    monkeypatch.setattr(solver, "check_shapes", lambda *args: checked.append(args) or real(*args))
    assert [str(shape) for shape in check_going_down(way, contract, SHANGHAI)] == [
        "set 8C 8D 8H",
        "run 4S 5S 6S 7S",
    ]
    assert len(checked) == 1


# GreedyBot's questions (recorded in shanghai games, jokers not bound to at most the naturals)
# whose way once depended on the question
# asked just before: the per-suit run tables of one hand were reused where the search made
# afresh would have stopped early with other runs. Each: (the earlier hand, the later hand,
# the runs of the contract).
_ASKED_BEFORE = [
    (
        "9C KC AC 5H JC JH 5C 3H 8H 9H 9H 9S JK JK JK",
        "9C KC AC 5H JC JH 3H 8H 9H 9H 9S QC 7C 9D JK JK JK",
        (4, 4, 4),
    ),
    (
        "9C KC AC 5H JC JH 5C 3H 8H 9H 9H 9S JK JK JK",
        "9C KC AC 5H JC JH 3H 8H 9H 9H 9S QC 7C JS JK JK JK",
        (4, 4, 4),
    ),
    (
        "4D KC 4D QD JK QH KH 3S 8H 5S AC 10H 5D AS JC JK 6H 3C JK JK JK JK",
        "4D KC 4D QD JK QH KH 3S 8H 5S AC 10H 5D JC JK 6H 3C QC JK JK JK JK",
        (5, 5, 5),
    ),
]
_JOKERS_UNBOUND = attrs.evolve(
    SHANGHAI, jokers=attrs.evolve(SHANGHAI.jokers, at_most_naturals=False)
)


@pytest.mark.parametrize(("earlier", "later", "runs"), _ASKED_BEFORE)
def test_solve_gives_the_way_a_fresh_process_gives_whatever_was_asked_before(
    earlier: str, later: str, runs: tuple[int, ...]
) -> None:
    from shanghai_rummy.caches import clear_caches

    contract = sr.Contract(runs=runs)
    clear_caches()
    fresh = solve(cards(later), contract, _JOKERS_UNBOUND)
    assert fresh is not None
    clear_caches()
    solve(cards(earlier), contract, _JOKERS_UNBOUND)
    assert solve(cards(later), contract, _JOKERS_UNBOUND) == fresh
    # and with every question of the list asked before, in both orders
    for order in (_ASKED_BEFORE, _ASKED_BEFORE[::-1]):
        clear_caches()
        for first, second, asked in order:
            solve(cards(first), sr.Contract(runs=asked), _JOKERS_UNBOUND)
            solve(cards(second), sr.Contract(runs=asked), _JOKERS_UNBOUND)
        assert solve(cards(later), contract, _JOKERS_UNBOUND) == fresh
