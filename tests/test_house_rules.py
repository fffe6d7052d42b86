"""House rules of the contract-rummy family as variant settings (issue 24's builds): one test
per setting, named for it, in a position where the setting decides the move."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.engine.play_rules import possible_groups
from shanghai_rummy.melds import extend, joker_moved_to_end, natural_stretch, run_readings

from .bot_games import bot_state
from .helpers import C, cards, stacked
from .positions import house, on_random_levels, pass_offers
from .test_fuzz_moves import advance, wide_variants
from .test_properties import _unlisted_candidates, assert_unlisted_refused

SHANGHAI = sr.get_variant("shanghai")
STOCK = sr.Source.STOCK


def _seat_0_to_play(
    variant: sr.Variant, hand: str, drawn: str = "2C", **options: object
) -> sr.GameState:
    """Seat 0 (dealer 3) holds ``hand``, has drawn ``drawn`` from the stock and is to play
    (``options``: of the stacked deal, such as its ``deal_number``)."""
    state = stacked(
        variant, {0: cards(hand)}, upcard=C("KH"), stock_top=cards(drawn), dealer=3, **options
    )
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
        sr.melds.joker_swapped(run, C("5C"), sets_only)
    state = _seat_0_down_with_a_joker_set(sets_only, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    joker_set = state.table[0].id
    assert sr.SwapJoker(1, C("8H"), joker_set) in sr.legal_actions(state)
    assert sr.JOKER in sr.swap_joker(state, 1, C("8H"), joker_set).hand(1)


# -- a group that reads both as a set and as a run (issue 24, fix 3; RULES.md §2 rulings) ----


FREE_JOKERS = house(sr.get_variant("shanghai-wiki"), "free-jokers", jokers__at_most_naturals=False)
RUN = sr.MeldKind.RUN


def _set_and_run_deal(hand: str, variant: sr.Variant = FREE_JOKERS) -> sr.GameState:
    """Deal 2 (a set of 3 and a run of 4) of shanghai-wiki with jokers free of the naturals'
    count (or ``variant``); seat 0 holds ``hand`` and has drawn 2C."""
    return _seat_0_to_play(variant, hand, deal_number=2)


def test_a_group_that_reads_both_ways_is_laid_as_the_player_names_it() -> None:
    state = _set_and_run_deal("JK JK JK 9C 8C 8D 8H 3S 4D 5H 6S")
    groups = [cards("JK JK JK 9C"), cards("8C 8D 8H")]
    with pytest.raises(sr.ContractNotMetError):
        sr.meld(state, 0, groups)  # read as it reads unnamed: two sets
    down = sr.meld(state, 0, groups, [RUN, None])
    run, eights = down.table
    assert run.kind is RUN and run.start == 6 and run.stands_for(0) == C("6C")
    assert eights.kind is sr.MeldKind.SET and down.is_down(0)
    sr.validate(down)
    as_a_move = sr.apply(state, sr.parse_action("meld run JK JK JK 9C / 8C 8D 8H", seat=0))
    assert as_a_move.table == down.table


def test_a_group_that_reads_both_ways_is_listed_in_both_readings() -> None:
    state = _set_and_run_deal("9C JK JK JK 5S 6S 7S 8S 2D 2H 4C")
    listed = sr.legal_actions(state)
    as_set = sr.Meld(0, (cards("9C JK JK JK"),))
    as_runs = [sr.Meld(0, (cards(run),), (RUN,)) for run in ("9C JK JK JK", "JK JK JK 9C")]
    assert as_set in listed and all(run in listed for run in as_runs)
    assert sr.apply(state, as_set).table[0].kind is sr.MeldKind.SET
    laid = sr.apply(state, as_runs[1])
    assert laid.table[0].kind is RUN and laid.table[0].start == 6
    assert sr.Meld(0, (cards("2C 2D 2H"),)) in sr.legal_actions(laid)


def test_the_kind_of_a_group_is_written_in_the_notation_and_in_json() -> None:
    action = sr.parse_action("meld run JK JK 9C / 8C 8D JK", seat=1)
    assert action == sr.Meld(1, (cards("JK JK 9C"), cards("8C 8D JK")), (RUN, None))
    assert sr.format_action(action) == "meld run JK JK 9C / 8C 8D JK"
    assert sr.format_action(sr.Meld(1, (cards("8C 8D JK"),), (None,))) == "meld 8C 8D JK"
    out = sr.parse_action("out meld set JK JK 9C discard 2C", seat=0)
    assert isinstance(out, sr.GoOut) and out.kinds == (sr.MeldKind.SET,)
    assert sr.from_json(sr.to_json(action), sr.Meld) == action
    assert sr.from_json(sr.to_json(out), sr.GoOut) == out
    wrong = sr.to_json(action).replace('"kinds":["run",null]', '"kinds":["run"]')
    with pytest.raises(sr.SerializationError, match="kinds"):
        sr.from_json(wrong, sr.Meld)
    state = _set_and_run_deal("JK JK JK 9C 8C 8D 8H 3S 4D 5H 6S")
    with pytest.raises(sr.InvalidMeldError, match="kind"):
        sr.meld(state, 0, [cards("JK JK JK 9C"), cards("8C 8D 8H")], [RUN])


# -- the listing agrees with the moves over random house variants -------------------------------


def _named_runs(state: sr.GameState, seat: int) -> list[sr.Action]:
    """Every single group of ``seat``'s hand laid as the run reading of a set of one natural
    card and jokers (the Melds that name ``MeldKind.RUN``)."""
    variant = state.variant
    melds: list[sr.Action] = []
    for group in possible_groups(state.hand(seat), variant):
        if sum(1 for card in group if not card.is_joker) == 1:
            shape = sr.check_group(group, variant)
            melds += [sr.Meld(seat, (run.cards,), (RUN,)) for run in run_readings(shape, variant)]
    return melds


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    variant=wide_variants(),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.integers(min_value=0, max_value=120),
)
def test_legal_actions_agree_with_apply_in_house_variants(
    variant: sr.Variant, seed: int, steps: int
) -> None:
    """Over random house variants (the new settings among them): every listed move applies
    to a valid state, and no move that applies is left out, the runs named by kind included."""
    rng = random.Random(seed)
    players = rng.randint(variant.min_players, min(variant.max_players, 4))
    state = on_random_levels(sr.new_game(variant, players=players, seed=seed), rng)
    state = advance(state, rng, steps)
    if state.phase is sr.Phase.DEAL_OVER:
        state = sr.next_deal(state)
    listed = set(sr.legal_actions(state))
    for action in listed:
        sr.validate(sr.apply(state, action))
    candidates = _unlisted_candidates(state, rng)
    if state.phase is sr.Phase.PLAY and state.to_act is not None:
        candidates += _named_runs(state, state.to_act)
    assert_unlisted_refused(state, listed, candidates)


# -- going_down.out_same_turn (issue 24, build 3: going out on the turn of going down) --------


NO_OUT_AT_ONCE = house(SHANGHAI, "no-out-at-once", going_down__out_same_turn=False)
EIGHTS, NINES = cards("8C 8C 8D 8D 8H 8S"), cards("9C 9D 9H 9H 9S 9S")  # canonical order


def _twelve_eights_and_nines(variant: sr.Variant) -> sr.GameState:
    """Seat 0 holds six eights and five nines and has drawn the sixth nine: it can meld all
    twelve cards."""
    return _seat_0_to_play(variant, "8C 8D 8H 8S 8C 8D 9S 9H 9D 9C 9S", drawn="9H")


def test_going_out_on_the_turn_of_going_down_where_the_variant_allows_it() -> None:
    state = _twelve_eights_and_nines(SHANGHAI)
    assert sr.Meld(0, (EIGHTS,)) in sr.legal_actions(state)
    out = sr.meld(state, 0, [EIGHTS, NINES])
    assert out.phase is sr.Phase.DEAL_OVER and out.results[-1].winner == 0


def test_going_down_out_same_turn_false_keeps_a_card_to_discard_and_one_to_keep() -> None:
    state = _twelve_eights_and_nines(NO_OUT_AT_ONCE)
    with pytest.raises(sr.GoOutError, match="out_same_turn=false"):
        sr.meld(state, 0, [EIGHTS, NINES])
    begun = sr.meld(state, 0, [EIGHTS])
    listed = sr.legal_actions(begun)
    assert sr.Meld(0, (NINES,)) not in listed and sr.Meld(0, (NINES[:5],)) not in listed
    assert sr.Meld(0, (NINES[:4],)) in listed
    with pytest.raises(sr.GoOutError, match="out_same_turn=false"):
        sr.meld(begun, 0, [NINES[:5]])  # one card left, whose discard would go out
    down = sr.meld(begun, 0, [NINES[:4]])  # two cards left: 9S 9S
    assert not any(isinstance(action, sr.LayOff) for action in sr.legal_actions(down))
    with pytest.raises(sr.GoOutError, match="out_same_turn=false"):
        sr.lay_off(down, 0, C("9S"), down.table[1].id)
    after = sr.discard(down, 0, C("9S"))
    assert after.hand(0) == (C("9S"),) and after.phase is not sr.Phase.DEAL_OVER
    optional = house(NO_OUT_AT_ONCE, "no-out-optional", going_out=sr.GoOutDiscard.OPTIONAL)
    state = _twelve_eights_and_nines(optional)
    with pytest.raises(sr.GoOutError, match="out_same_turn=false"):
        sr.meld(state, 0, [EIGHTS, NINES[:5]])  # one card left: its discard would go out


def test_going_down_out_same_turn_false_refuses_a_bonus_for_going_out_at_once() -> None:
    with pytest.raises(sr.VariantError, match=r"scoring\.one_turn_out"):
        house(sr.get_variant("shanghai-camping"), "x", going_down__out_same_turn=False)


# -- CardValues.ace_low (issue 24, build 7: the ace's value by its place) --------------------


REMIK_VALUES = sr.CardValues(
    by_rank=(2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11), joker=0, ace_low=1
)


def test_card_values_ace_low_counts_an_ace_below_the_two_by_its_place() -> None:
    rummy51 = sr.get_variant("rummy51")
    low, high = (
        sr.check_group(cards("AS 2S 3S 4S"), rummy51),
        sr.check_group(cards("QS KS AS"), rummy51),
    )
    assert sr.group_points(low, REMIK_VALUES) == 10 and sr.group_points(high, REMIK_VALUES) == 31
    assert sr.group_points(sr.check_group(cards("AS AH AD"), rummy51), REMIK_VALUES) == 33
    hand = cards("AS 2S 3S 4S KD KC KH")
    ace_anywhere = attrs.evolve(REMIK_VALUES, ace_low=None)
    assert sr.solve(hand, sr.Opening(min_points=45, values=ace_anywhere), rummy51) is not None
    assert sr.solve(hand, sr.Opening(min_points=45, values=REMIK_VALUES), rummy51) is None
    assert sr.solve(hand, sr.Opening(min_points=40, values=REMIK_VALUES), rummy51) is not None
    with pytest.raises(sr.ContractNotMetError, match="worth 40 points"):
        sr.check_going_down(
            [cards("AS 2S 3S 4S"), cards("KD KC KH")],
            sr.Opening(min_points=45, values=REMIK_VALUES),
            rummy51,
        )


def test_card_values_ace_low_loads_from_a_file_and_is_bounded_by_the_aces_value() -> None:
    values = {str(n): n for n in range(2, 11)} | {"J-K": 10, "A": 11, "A low": 1, "JK": 0}
    opening = {"kind": "opening", "min_points": 51, "values": values}
    variant = sr.load_variant(
        {"base": "rummy51", "id": "remik-aces", "deals": [{"cards": 14, "requirement": opening}]}
    )
    requirement = variant.deals[0].requirement
    assert isinstance(requirement, sr.Opening) and requirement.values == REMIK_VALUES
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant
    with pytest.raises(sr.VariantError, match="ace_low"):
        attrs.evolve(REMIK_VALUES, ace_low=12)


# -- the example variant files of these settings, played to the end -----------------------------


EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"


def _bots_play(variant: sr.Variant, players: int, seed: int) -> sr.GameState:
    """A whole game of that variant between bots (see :func:`tests.bot_games.bot_play`)."""
    state = bot_state(variant, players, seed, 50_000)
    assert state.is_over
    return state


def test_strict_table_file_plays_to_the_end_and_nobody_goes_out_on_the_turn_of_going_down() -> None:
    variant = sr.load_variant(EXAMPLES / "strict-table.toml")
    assert not variant.going_down.out_same_turn and variant.melds.set_distinct_suits_when_laid
    assert variant.joker_swap.from_melds is sr.SwapFrom.RUNS
    state = _bots_play(variant, 4, 3)
    assert state.outcome is not None and len(state.results) == variant.deal_count
    won = [result for result in state.results if result.winner is not None]
    assert won  # deals are won, by going out on a later turn than going down
    assert all(result.points[result.winner] == 0 for result in won)


def test_remik_file_plays_to_the_end_with_the_ace_counted_by_its_place() -> None:
    variant = sr.load_variant(EXAMPLES / "remik.toml")
    requirement = variant.deals[0].requirement
    assert isinstance(requirement, sr.Opening) and requirement.values.ace_low == 1
    assert variant.deals[0].cards == 13
    state = _bots_play(variant, 3, 5)
    assert state.outcome is not None and len(state.results) == 3
    assert any(result.winner is not None for result in state.results)


# -- DealSpec.packs (issue 24, build 8: the pack may differ from deal to deal) ------------------


def _with_a_bigger_second_deal(base: sr.Variant) -> sr.Variant:
    """``base``, two deals: the first with its packs, the second with three decks and six
    jokers for every seat count."""
    bigger = (
        sr.PackSize(min_players=base.min_players, max_players=base.max_players, decks=3, jokers=6),
    )
    first, second = base.deals[:2]
    return house(
        base, "bigger-second-deal", deals=(first, attrs.evolve(second, packs=bigger)), deal_count=2
    )


def _all_cards(state: sr.GameState) -> list[sr.Card]:
    held = [card for hand in state.hands for card in hand]
    return (
        held
        + list(state.stock)
        + list(state.discard_pile)
        + [c for m in state.table for c in m.cards]
    )


def test_deal_spec_packs_deal_that_deal_from_its_own_pack() -> None:
    variant = _with_a_bigger_second_deal(SHANGHAI)
    assert variant.pack_size(4).cards == variant.pack_size(4, 1).cards == 106
    assert variant.pack_size(4, 2).cards == 162 and variant.largest_pack(4).jokers == 6
    bots = [sr.GreedyBot(variant) for _ in range(4)]
    state = sr.new_game(variant, players=4, seed=2)
    assert len(_all_cards(state)) == 106
    while state.deal_number == 1 and not state.is_over:
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
            continue
        seat = state.to_act
        assert seat is not None
        state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
    assert state.deal_number == 2
    cards = _all_cards(state)
    assert len(cards) == 162 and cards.count(sr.JOKER) == 6
    sr.validate(state)
    assert sr.from_json(sr.to_json(state), sr.GameState) == state
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant


def test_deal_spec_packs_must_cover_every_seat_count_and_leave_a_stock() -> None:
    spec = SHANGHAI.deals[0]
    two_to_four = sr.PackSize(min_players=2, max_players=4, decks=2, jokers=2)
    with pytest.raises(sr.VariantError, match=r"deals\[0\]\.packs"):
        house(SHANGHAI, "x", deals=(attrs.evolve(spec, packs=(two_to_four,)),))
    one_deck = sr.PackSize(min_players=2, max_players=6, decks=1, jokers=0)
    with pytest.raises(sr.VariantError, match=r"deals\[0\]\.cards.*leave no stock"):
        house(SHANGHAI, "x", deals=(attrs.evolve(spec, packs=(one_deck,)),))


# -- DealSpec.going_out (issue 24, build 8: the going-out rule may differ from deal to deal) -----


def test_deal_spec_going_out_sets_the_going_out_rule_of_its_deal() -> None:
    sets = SHANGHAI.deals[0]
    discard_out = attrs.evolve(sets, going_out=sr.GoOutDiscard.OPTIONAL)
    variant = house(SHANGHAI, "first-deal-discards", deals=(discard_out, sets), deal_count=2)
    assert variant.going_out_in(1) is sr.GoOutDiscard.OPTIONAL
    assert variant.going_out_in(2) is variant.going_out is sr.GoOutDiscard.NEVER
    groups = [cards("8C 8C 8D 8D 8H 8S"), cards("9C 9D 9H 9H 9S")]  # KD left
    for deal_number in (1, 2):
        hand = "8C 8C 8D 8D 8H 8S 9C 9D 9H 9H 9S"
        state = _seat_0_to_play(variant, hand, drawn="KD", deal_number=deal_number)
        if deal_number == 1:
            out = sr.discard(sr.meld(state, 0, groups), 0, C("KD"))
            assert out.phase is sr.Phase.DEAL_OVER and out.results[-1].winner == 0
        else:
            with pytest.raises(sr.GoOutError, match="going_out=never"):
                sr.meld(state, 0, groups)
            assert sr.Meld(0, (groups[1],)) not in sr.legal_actions(sr.meld(state, 0, groups[:1]))
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant


# -- JokerRules.min_naturals (issue 24, build 5: the fewest natural cards in a group) ------------


TWO_NATURALS = house(FREE_JOKERS, "two-naturals", jokers__min_naturals=2)


def test_jokers_min_naturals_2_refuses_a_group_of_one_natural_card_and_jokers() -> None:
    assert sr.check_group(cards("9C JK JK"), FREE_JOKERS).kind is sr.MeldKind.SET
    with pytest.raises(sr.InvalidMeldError, match="min_naturals"):
        sr.check_group(cards("9C JK JK"), TWO_NATURALS)
    with pytest.raises(sr.InvalidMeldError, match="min_naturals"):
        sr.check_group(cards("JK JK JK 9C"), TWO_NATURALS, kind=RUN)
    assert sr.check_group(cards("9C 9D JK JK"), TWO_NATURALS).jokers == 2
    hand = cards("9C JK JK 5S 6S 7S 8S")
    contract = sr.Contract(sets=(3,), runs=(4,))
    assert sr.solve(hand, contract, FREE_JOKERS) is not None
    assert sr.solve(hand, contract, TWO_NATURALS) is None
    assert not any(
        group.count(sr.JOKER) >= len(group) - 1 for group in possible_groups(hand, TWO_NATURALS)
    )
    state = _set_and_run_deal("9C JK JK JK 5S 6S 7S 8S 2D 2H 4C", TWO_NATURALS)
    assert all(
        sum(not card.is_joker for card in action.groups[0]) >= 2
        for action in sr.legal_actions(state)
        if isinstance(action, sr.Meld)
    )


def test_jokers_min_naturals_is_at_least_one_and_at_most_the_smallest_group() -> None:
    with pytest.raises(sr.VariantError, match="jokers only is not supported"):
        house(SHANGHAI, "x", jokers__min_naturals=0)
    with pytest.raises(sr.VariantError, match=r"jokers\.min_naturals"):
        house(SHANGHAI, "x", jokers__min_naturals=4)


def test_the_rl_action_encoding_keeps_the_kind_a_meld_names() -> None:
    pytest.importorskip("numpy")  # the [rl] extra
    from shanghai_rummy.rl.encoding import ActionEncoding

    encoding = ActionEncoding(sr.get_variant("rummy51"), 4)
    as_run = sr.Meld(0, (cards("JK JK 9C"),), (RUN,))
    as_set = sr.Meld(0, (cards("9C JK JK"),))
    run_index, set_index = encoding.encode(as_run), encoding.encode(as_set)
    assert run_index != set_index
    assert encoding.action_at(run_index, 0) == as_run
    assert encoding.action_at(set_index, 0) == as_set


# -- jokers.side_by_side_in_runs (issue 24, build 7: no two jokers next to each other) ---------


RUMMY51 = sr.get_variant("rummy51")
APART = house(SHANGHAI, "jokers-apart", jokers__side_by_side_in_runs=False)


def test_jokers_side_by_side_in_runs_false_refuses_two_jokers_next_to_each_other() -> None:
    free = house(SHANGHAI, "free-jokers", jokers__at_most_naturals=False)
    apart = house(free, "free-jokers-apart", jokers__side_by_side_in_runs=False)
    assert len(sr.check_group(cards("5S JK JK 8S"), free).cards) == 4
    with pytest.raises(sr.InvalidMeldError, match="side_by_side_in_runs=false"):
        sr.check_group(cards("5S JK JK 8S"), apart)
    assert sr.check_group(cards("JK 5S JK 7S"), apart).start == 4
    assert sr.check_group(cards("8C JK JK"), apart).kind is sr.MeldKind.SET  # sets: no rule
    hand = cards("5S 8S JK JK 9D")
    assert cards("5S JK JK 8S") in possible_groups(hand, free)
    assert cards("5S JK JK 8S") not in possible_groups(hand, apart)
    run = sr.Contract(runs=(4,))
    assert sr.solve(cards("5S 8S JK JK"), run, free) == (cards("5S JK JK 8S"),)
    assert sr.solve(cards("5S 8S JK JK"), run, apart) is None
    assert sr.solve(cards("5S 7S JK JK"), run, apart) is not None  # JK 5S JK 7S
    state = _seat_0_to_play(apart, "5S 8S JK JK 2D 3D 4H 6C 9C 10D JH")
    assert sr.Meld(0, (cards("5S JK JK 8S"),)) not in sr.legal_actions(state)
    with pytest.raises(sr.InvalidMeldError, match="side_by_side_in_runs=false"):
        sr.meld(state, 0, [cards("5S JK JK 8S")])


def test_jokers_side_by_side_in_runs_false_refuses_a_joker_laid_off_next_to_a_joker() -> None:
    run = sr.make_table_meld(1, 0, cards("JK 5S 6S 7S"), APART)
    assert sr.lay_off_ends(run, sr.JOKER, APART) == ("high",)
    assert sr.lay_off_ends(run, sr.JOKER, SHANGHAI) == ("low", "high")
    with pytest.raises(sr.LayOffError, match="side_by_side_in_runs=false"):
        extend(run, sr.JOKER, APART, end="low")
    assert str(extend(run, sr.JOKER, APART)) == "#1 run JK 5S 6S 7S JK"
    state = _seat_0_to_play(APART, "JK 5S 6S 7S 8H 8D 8S JK 9C 2D 4H", drawn="3C", deal_number=2)
    down = sr.meld(state, 0, [cards("8H 8D 8S"), cards("JK 5S 6S 7S")])
    listed = sr.legal_actions(down)
    run_id = down.table[1].id
    assert sr.LayOff(0, sr.JOKER, run_id) in listed  # one end only: no end to name
    assert sr.LayOff(0, sr.JOKER, run_id, "low") not in listed
    with pytest.raises(sr.LayOffError, match="side_by_side_in_runs=false"):
        sr.lay_off(down, 0, sr.JOKER, run_id, end="low")
    assert sr.lay_off(down, 0, sr.JOKER, run_id).table[1].cards[-1] == sr.JOKER


# -- Opening.natural_run (issue 24, build 7: an opening holds a run of natural cards) ----------


NATURAL_RUN = sr.Opening(min_points=30, natural_run=3)


def test_opening_natural_run_needs_a_run_of_natural_cards_in_a_row() -> None:
    assert NATURAL_RUN.describe() == (
        "groups worth at least 30 points, one a run of 3 natural cards in a row"
    )
    sets = cards("KD KC KH QD QC QH 5S 6S JK 8S")
    assert sr.solve(sets, sr.Opening(min_points=30), RUMMY51) is not None
    assert sr.solve(sets, NATURAL_RUN, RUMMY51) is None  # 5S 6S JK 8S: two in a row
    way = sr.solve((*sets, C("7S")), NATURAL_RUN, RUMMY51)
    assert way is not None and any(natural_stretch(sr.check_group(g, RUMMY51)) >= 3 for g in way)
    with pytest.raises(sr.ContractNotMetError, match=r"Opening\.natural_run"):
        sr.check_going_down([cards("KD KC KH"), cards("QD QC QH")], NATURAL_RUN, RUMMY51)
    assert sr.check_going_down([cards("KD KC KH"), cards("5S 6S 7S")], NATURAL_RUN, RUMMY51)
    with pytest.raises(sr.VariantError, match="natural_run"):
        sr.Opening(min_points=30, natural_run=1)


def test_opening_natural_run_keeps_a_going_down_open_until_the_run_is_laid() -> None:
    variant = house(RUMMY51, "natural-run", deals=(sr.DealSpec(requirement=NATURAL_RUN, cards=13),))
    # rummy51: the first player is dealt a card more and begins by playing
    state = stacked(
        variant, {0: cards("KD KC KH QD QC QH 5S 6S 7S 2D 3H 9C 10C 2C")}, size=13, dealer=3
    )
    begun = sr.meld(state, 0, [cards("KD KC KH"), cards("QD QC QH")])  # 60 points, no run
    assert not begun.is_down(0)
    listed = sr.legal_actions(begun)
    assert sr.Meld(0, (cards("5S 6S 7S"),)) in listed
    assert not any(isinstance(action, sr.Discard) for action in listed)
    down = sr.meld(begun, 0, [cards("5S 6S 7S")])
    assert down.is_down(0)


def test_remik_natural_run_file_plays_to_the_end_with_runs_of_natural_cards() -> None:
    variant = sr.load_variant(EXAMPLES / "remik-natural-run.toml")
    requirement = variant.deals[0].requirement
    assert isinstance(requirement, sr.Opening) and requirement.natural_run == 3
    assert not variant.jokers.side_by_side_in_runs
    state = _bots_play(variant, 3, 5)
    assert state.outcome is not None and len(state.results) == 3
    assert all(sr.check_group(meld.cards, variant, laid=False) for meld in state.table)


# -- joker_swap.freed_joker (issue 24, build 4: the freed joker stays in the run, at an end) ----


TO_RUN_END = house(SHANGHAI, "joker-to-run-end", joker_swap__freed_joker=sr.FreedJoker.TO_RUN_END)


def _both_down_with_a_joker_run(
    variant: sr.Variant,
    seat_1_down: bool = True,
    seat_1_hand: str = "9C 9D 9H 5H 6H 7H 8H 5C KD QD 2H",
    seat_1_draws: str = "3S",
) -> sr.GameState:
    """Deal 2 (a set and a run of 4): seat 0 went down with 8H 8D 8S and 4C JK 6C 7C; seat 1
    has drawn and gone down with 9C 9D 9H and 5H 6H 7H 8H, holding 5C KD QD 2H 3S (or, with
    ``seat_1_down`` false, has only drawn, to ``seat_1_hand``, the card ``seat_1_draws``)."""
    state = stacked(
        variant,
        {0: cards("8H 8D 8S 4C JK 6C 7C 9D 10D 2S 3H"), 1: cards(seat_1_hand)},
        upcard=C("KH"),
        stock_top=cards(f"AS {seat_1_draws}"),
        dealer=3,
        deal_number=2,
    )
    state = pass_offers(sr.draw(state, 0, STOCK))
    state = sr.discard(sr.meld(state, 0, [cards("8H 8D 8S"), cards("4C JK 6C 7C")]), 0, C("AS"))
    state = pass_offers(sr.draw(pass_offers(state), 1, STOCK))
    if not seat_1_down:
        return state
    return sr.meld(state, 1, [cards("9C 9D 9H"), cards("5H 6H 7H 8H")])


def test_joker_swap_freed_joker_to_run_end_keeps_the_joker_in_the_run_at_its_high_end() -> None:
    state = _both_down_with_a_joker_run(TO_RUN_END)
    run_id = state.table[1].id
    assert sr.SwapJoker(1, C("5C"), run_id) in sr.legal_actions(state)
    after = sr.swap_joker(state, 1, C("5C"), run_id)
    assert str(after.table[1]) == f"#{run_id} run 4C 5C 6C 7C JK"
    assert sr.JOKER not in after.hand(1) and len(after.hand(1)) == len(state.hand(1)) - 1
    sr.validate(after)
    seen = sr.view(after, 0)  # the joker stayed: a sample holds none for seat 1
    assert sr.view(sr.sample_state(seen, seed=1, variant=TO_RUN_END), 0) == seen
    to_hand = sr.swap_joker(_both_down_with_a_joker_run(SHANGHAI), 1, C("5C"), run_id)
    assert str(to_hand.table[1]) == f"#{run_id} run 4C 5C 6C 7C" and sr.JOKER in to_hand.hand(1)


def test_joker_swap_freed_joker_to_run_end_moves_it_low_or_refuses_where_no_end_is_free() -> None:
    high_closed = sr.make_table_meld(1, 0, cards("JK QC KC AC"), TO_RUN_END)
    assert str(joker_moved_to_end(high_closed, C("JC"), TO_RUN_END)) == "#1 run JK JC QC KC AC"
    short = house(TO_RUN_END, "short-runs", melds__run_max=4, deals=(SHANGHAI.deals[1],))
    full = sr.make_table_meld(1, 0, cards("4C JK 6C 7C"), short)
    with pytest.raises(sr.JokerSwapError, match="freed_joker=to_run_end"):
        joker_moved_to_end(full, C("5C"), short)
    state = _both_down_with_a_joker_run(short)
    assert not any(isinstance(action, sr.SwapJoker) for action in sr.legal_actions(state))
    with pytest.raises(sr.JokerSwapError, match="no end of"):
        sr.swap_joker(state, 1, C("5C"), state.table[1].id)


def test_joker_swap_freed_joker_to_run_end_is_a_lay_off_and_a_set_joker_goes_to_the_hand() -> None:
    state = _seat_0_down_with_a_joker_set(TO_RUN_END, "8H KC KD QC QD QS 3S 4D 6H 7C 10D")
    sets_id = state.table[0].id
    assert sr.SwapJoker(1, C("8H"), sets_id) in sr.legal_actions(state)
    assert sr.JOKER in sr.swap_joker(state, 1, C("8H"), sets_id).hand(1)  # as under to_hand
    # seat 1, not down, may not swap into a run whose joker stays: a lay-off in effect
    not_down = _both_down_with_a_joker_run(TO_RUN_END, seat_1_down=False)
    run_id = not_down.table[1].id
    assert sr.SwapJoker(1, C("5C"), run_id) not in sr.legal_actions(not_down)
    with pytest.raises(sr.JokerSwapError, match="only a player who is down"):
        sr.swap_joker(not_down, 1, C("5C"), run_id)
    assert sr.SwapJoker(1, C("5C"), run_id) in sr.legal_actions(
        _both_down_with_a_joker_run(SHANGHAI, seat_1_down=False)
    )


def test_joker_swap_freed_joker_to_run_end_goes_out_where_it_plays_the_last_card() -> None:
    state = _both_down_with_a_joker_run(
        TO_RUN_END, False, "9C 9D 9H 5H 6H 7H 8H 9H 10H JH QH", seat_1_draws="5C"
    )
    down = sr.meld(state, 1, [cards("9C 9D 9H"), cards("5H 6H 7H 8H 9H 10H JH QH")])
    assert down.hand(1) == (C("5C"),)
    swap = sr.SwapJoker(1, C("5C"), down.table[1].id)
    assert swap in sr.legal_actions(down)
    out = sr.apply(down, swap)
    assert out.phase is sr.Phase.DEAL_OVER and out.results[-1].winner == 1
    assert isinstance(out.events[-1], sr.DealEnded)
    sr.validate(out)
