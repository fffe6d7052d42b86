"""Wild ranks besides the jokers (issue 24, build 1, first part: ``JokerRules.wild_ranks``):
one test per behaviour of the setting, named for it, and a property that the reading of a
group agrees with the setting's definition tried by brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.engine.play_rules import joker_lay_off_barred, lay_off_options
from shanghai_rummy.melds import (
    GroupShape,
    MeldKind,
    check_group,
    extend,
    lay_off_ends,
    make_table_meld,
    named_kind,
    natural_stretch,
    run_readings,
    swap_positions,
)
from shanghai_rummy.solver import check_shapes, complete, startable_groups

from .bot_games import bot_play
from .helpers import C, cards, stacked
from .positions import house, pass_offers

ROOT = Path(__file__).resolve().parent.parent
SHANGHAI = sr.get_variant("shanghai")
RUMMY51 = sr.get_variant("rummy51")
DEUCES = house(SHANGHAI, "deuces-wild", jokers__wild_ranks=(2,))
DEUCES_51 = house(RUMMY51, "deuces-wild-51", jokers__wild_ranks=(2,))


def test_wild_ranks_card_is_natural_where_it_stands_as_itself() -> None:
    deuces = check_group(cards("2C 2D 2H"), DEUCES)
    assert (deuces.kind, deuces.rank, deuces.naturals, deuces.jokers) == (
        MeldKind.SET,
        sr.Rank.TWO,
        3,
        0,
    )
    run = check_group(cards("2C 3C 4C 5C"), DEUCES)
    assert (run.kind, run.naturals, run.jokers) == (MeldKind.RUN, 4, 0)


def test_wild_ranks_card_is_a_joker_where_it_does_not_stand_as_itself() -> None:
    run = check_group(cards("5H 2C 7H 8H"), DEUCES)
    assert (run.suit, run.start, run.naturals, run.jokers) == (sr.Suit.HEARTS, 5, 3, 1)
    assert run.stands_for(1) == C("6H")
    a_set = check_group(cards("9S 9D 2C"), DEUCES)
    assert (a_set.rank, a_set.naturals, a_set.jokers) == (sr.Rank.NINE, 2, 1)
    # in a run of another suit, or at another place, a deuce of clubs stands for a card
    assert check_group(cards("2H 3C 4C 5C"), DEUCES).jokers == 1


def test_wild_ranks_joker_limits_count_stand_ins_only() -> None:
    # at_most_naturals (on in shanghai): one natural and two stand-ins is too many jokers
    with pytest.raises(sr.InvalidMeldError, match="at_most_naturals"):
        check_group(cards("9S 2C 2D"), DEUCES)
    with pytest.raises(sr.InvalidMeldError, match="wild_ranks"):
        check_group(cards("9S 2C JK"), DEUCES)
    # a going-down limit of one joker a group: a deuce standing as itself does not count
    assert check_group(cards("2C 3C 4C JK"), DEUCES, joker_limit=1).jokers == 1
    with pytest.raises(sr.InvalidMeldError, match="too many jokers"):
        check_group(cards("2H 3C 4C JK"), DEUCES, joker_limit=1)
    two_naturals = house(DEUCES_51, "deuces-two-naturals", jokers__min_naturals=2)
    assert check_group(cards("9S 9D 2C"), two_naturals).naturals == 2
    with pytest.raises(sr.InvalidMeldError, match="min_naturals"):
        check_group(cards("9S 2C 2D"), two_naturals)


def test_wild_ranks_set_is_read_first_where_both_readings_hold() -> None:
    assert check_group(cards("JK 2C 4C"), DEUCES_51).kind is MeldKind.SET
    run = check_group(cards("JK 2C 4C"), DEUCES_51, kind=MeldKind.RUN)
    assert (run.suit, run.start, run.naturals, run.stands_for(1)) == (
        sr.Suit.CLUBS,
        2,
        1,
        C("3C"),
    )


def test_wild_ranks_a_run_that_also_reads_as_a_set_names_its_kind() -> None:
    run = check_group(cards("JK 2C 4C"), DEUCES_51, kind=MeldKind.RUN)
    assert named_kind(run, DEUCES_51) is MeldKind.RUN
    a_set = check_group(cards("9S 2C 2D"), DEUCES_51)
    assert [str(shape) for shape in run_readings(a_set, DEUCES_51)] == [
        "run 9S 2C 2D",
        "run 2C 9S 2D",
        "run 2C 2D 9S",
        "run 9S 2D 2C",  # the deuces told apart, as possible_groups tells them
        "run 2D 9S 2C",
        "run 2D 2C 9S",
    ]
    assert named_kind(check_group(cards("5H 2C 7H"), DEUCES_51), DEUCES_51) is None


def test_wild_ranks_natural_stretch_counts_cards_standing_as_themselves() -> None:
    assert natural_stretch(check_group(cards("2C 3C 4C 5C"), DEUCES_51)) == 4
    assert natural_stretch(check_group(cards("5H 2C 7H 8H"), DEUCES_51)) == 2


def test_wild_ranks_lay_off_as_itself_or_as_a_joker() -> None:
    run = make_table_meld(1, 0, cards("3C 4C 5C"), DEUCES_51)
    assert lay_off_ends(run, C("2C"), DEUCES_51) == ("low", "high")
    assert extend(run, C("2C"), DEUCES_51, end="low").jokers == 0  # 2C as itself
    assert extend(run, C("2C"), DEUCES_51, end="high").jokers == 1  # 2C for 6C
    deuces = make_table_meld(2, 0, cards("2H 2D 2C"), DEUCES_51)
    assert lay_off_ends(deuces, C("2S"), DEUCES_51) == ("set",)
    with pytest.raises(sr.LayOffError, match="set 2H 2D 2C is a set of 2s"):
        extend(deuces, C("5S"), DEUCES_51)
    # at_most_naturals counts the deuce laid off as a joker where it stands for a card
    full = make_table_meld(3, 0, cards("5H 2C 7H 2D"), DEUCES)
    with pytest.raises(sr.LayOffError, match=r"5H 2C 7H 2D: too many jokers.*at_most_naturals"):
        extend(full, C("2S"), DEUCES, end="high")


def test_wild_ranks_only_jokers_are_swapped() -> None:
    run = make_table_meld(1, 0, cards("5H 2C 7H JK"), DEUCES)
    assert swap_positions(run, C("6H"), DEUCES) == ()  # the deuce stands for 6H: not swapped
    assert swap_positions(run, C("8H"), DEUCES) == (3,)


def test_wild_ranks_are_checked() -> None:
    with pytest.raises(sr.VariantError, match="wild_ranks: a rank is given twice"):
        house(SHANGHAI, "twice", jokers__wild_ranks=(2, 2))
    with pytest.raises(sr.VariantError, match=r"wild_ranks\[0\]: must be a rank number"):
        house(SHANGHAI, "one", jokers__wild_ranks=(1,))
    loaded = sr.load_variant({"base": "shanghai", "id": "deuces", "jokers": {"wild_ranks": [2]}})
    assert loaded.jokers.wild_ranks == (2,)


def test_wild_ranks_with_sets_of_distinct_suits_deal_and_play_to_the_end() -> None:
    assert DEUCES_51.melds.set_distinct_suits
    sr.validate(sr.deal_from(DEUCES_51, hands=[cards("2C 2C 3C"), cards("2D"), cards("3D")]))
    bots = [sr.GreedyBot(DEUCES_51) for _ in range(3)]
    state = sr.new_game(DEUCES_51, players=3, seed=2)
    sr.validate(state)
    standing_in = 0
    for _ in range(5_000):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.to_act is None:
            break
        state = sr.apply(state, bots[state.to_act].choose(sr.view(state, state.to_act)))
        standing_in = max(
            standing_in,
            sum(meld.jokers - sum(card.is_joker for card in meld.cards) for meld in state.table),
        )
    assert state.is_over and state.outcome is not None
    sr.validate(state)
    assert standing_in > 0  # a deuce stood for another card on the table


def test_wild_ranks_are_dealt_and_validated() -> None:
    state = sr.new_game(DEUCES, players=4, seed=1)
    sr.validate(state)
    hands = [cards("2C 3C 4C 5C 9S 9D 2D"), cards("2H 3H"), cards("2S 3S"), cards("4D 5D")]
    stacked = sr.deal_from(DEUCES, hands=hands, upcard=C("KS"))
    sr.validate(stacked)


def test_wild_ranks_card_goes_down_as_a_joker_or_as_itself() -> None:
    # deal 1 of shanghai (two sets of 3): 2C stands for a 9, 2D for a king
    hand = cards("9S 9D 2C KH KD 2D 5H")
    way = sr.solve(hand, sr.Contract(sets=(3, 3)), DEUCES)
    assert way is not None and sorted(map(len, way)) == [3, 3]
    assert sr.check_going_down(way, sr.Contract(sets=(3, 3)), DEUCES)
    # a set of deuces, every deuce standing as itself (no joker, so at_most_naturals holds)
    assert sr.solve(cards("2C 2D 2H 7S"), sr.Contract(sets=(3,)), DEUCES) == (cards("2C 2D 2H"),)
    # one natural and two wild cards: too many jokers in shanghai (at_most_naturals)
    assert sr.solve(cards("9S 2C 2D 7S"), sr.Contract(sets=(3,)), DEUCES) is None
    # a run with a deuce as itself at its low end and one standing for the 6
    run = sr.solve(cards("2C 3C 4C 5C 2H 7C"), sr.Contract(runs=(6,)), DEUCES)
    assert run == (cards("2C 3C 4C 5C 2H 7C"),)


def test_wild_ranks_lay_off_listing_offers_a_wild_card_of_another_suit() -> None:
    run = make_table_meld(1, 0, cards("5H 6H 7H 8H"), DEUCES)
    state = sr.deal_from(DEUCES, hands=[cards("2C KS"), cards("3S 4S")], upcard=C("QD"))
    state = attrs.evolve(state, table=(run,))
    assert (C("2C"), 1, "low") in lay_off_options(DEUCES, state.table, cards("2C KS"))


# -- the reading agrees with the definition, tried by brute force ----------------------------

POOL = cards("2C 2H 3C 3H 4C 5C 5H 6C AC JK")


def _definition_kinds(
    group: tuple[sr.Card, ...], variant: sr.Variant, kind: MeldKind | None
) -> set[MeldKind]:
    """The kinds of group ``group`` reads as by the definition, tried by brute force: some
    choice of the wild cards standing for other cards (jokers) makes a group of that kind
    that the variant without wild ranks accepts, every wild card left natural standing as
    itself and every one made a joker standing for another card."""
    plain = attrs.evolve(variant, jokers=attrs.evolve(variant.jokers, wild_ranks=()))
    wild = [i for i, card in enumerate(group) if card.rank in variant.jokers.wild_ranks]
    found: set[MeldKind] = set()
    for each in (MeldKind.SET, MeldKind.RUN) if kind is None else (kind,):
        for size in range(len(wild) + 1):
            for chosen in itertools.combinations(wild, size):
                masked = tuple(sr.JOKER if i in chosen else card for i, card in enumerate(group))
                try:
                    shape = check_group(masked, plain, kind=each)
                except sr.InvalidMeldError:
                    continue
                if all(shape.stands_for(i) not in (group[i], group[i].rank) for i in chosen):
                    found.add(each)
    return found


@settings(max_examples=150, deadline=None)
@given(
    group=st.lists(st.sampled_from(POOL), min_size=3, max_size=5).map(tuple),
    wild=st.sampled_from([(2,), (2, 5)]),
    at_most_naturals=st.booleans(),
    kind=st.sampled_from([None, MeldKind.SET, MeldKind.RUN]),
)
def test_wild_ranks_reading_agrees_with_the_definition(
    group: tuple[sr.Card, ...], wild: tuple[int, ...], at_most_naturals: bool, kind: MeldKind | None
) -> None:
    variant = house(
        RUMMY51, "wild", jokers__wild_ranks=wild, jokers__at_most_naturals=at_most_naturals
    )
    try:
        shape = check_group(group, variant, kind=kind)
    except sr.InvalidMeldError:
        shape = None
    kinds = _definition_kinds(group, variant, kind)
    assert (shape is not None) == bool(kinds)
    if shape is not None:
        assert shape.kind is (MeldKind.SET if MeldKind.SET in kinds else MeldKind.RUN)
        natural = sum(
            1
            for i, card in enumerate(group)
            if card.rank is not None and shape.stands_for(i) in (card, card.rank)
        )
        assert shape.naturals == natural


@settings(max_examples=150, deadline=None)
@given(
    group=st.lists(st.sampled_from(POOL), min_size=3, max_size=5).map(tuple),
    card=st.sampled_from(POOL),
    at_most_naturals=st.booleans(),
)
def test_wild_ranks_lay_off_agrees_with_reading_the_grown_group(
    group: tuple[sr.Card, ...], card: sr.Card, at_most_naturals: bool
) -> None:
    variant = house(
        RUMMY51, "wild", jokers__wild_ranks=(2,), jokers__at_most_naturals=at_most_naturals
    )
    try:
        meld = make_table_meld(1, 0, group, variant)
    except sr.InvalidMeldError:
        return
    if all(variant.jokers.is_wild(held) for held in group):
        return  # no card fixes the reading: a grown group may be read another way
    ends = lay_off_ends(meld, card, variant)
    if meld.kind is MeldKind.SET:
        grown = {"set": (*meld.cards, card)}
    else:
        grown = {"low": (card, *meld.cards), "high": (*meld.cards, card)}
    for end, cards_after in grown.items():
        try:
            shape = check_group(cards_after, variant, kind=meld.kind, laid=False)
        except sr.InvalidMeldError:
            fits = False
        else:
            assert meld.start is not None or meld.kind is MeldKind.SET
            fits = shape.rank is meld.rank and shape.suit is meld.suit
            if fits and end == "low":
                assert meld.start is not None and shape.start is not None
                fits = (shape.start - meld.start + 1) % 13 == 0
            elif fits and end == "high":
                fits = shape.start == meld.start
        assert (end in ends) == fits, (end, ends)


# -- the solver agrees with the definition, tried by brute force -------------------------------

WILD_VARIANTS = {
    "shanghai": DEUCES,
    "free": house(
        SHANGHAI,
        "deuces-free",
        jokers__wild_ranks=(2,),
        jokers__at_most_naturals=False,
        melds__run_min=3,
    ),
    "two-ranks": house(
        SHANGHAI,
        "deuces-and-fives",
        jokers__wild_ranks=(2, 5),
        jokers__at_most_naturals=False,
        melds__run_min=3,
    ),
    "camping": house(sr.get_variant("shanghai-camping"), "deuces-camping", jokers__wild_ranks=(2,)),
    "rummy51": house(DEUCES_51, "deuces-51-any-suits", melds__set_distinct_suits=False),
    "distinct51": DEUCES_51,
    "distinct": house(
        SHANGHAI,
        "deuces-distinct",
        jokers__wild_ranks=(2, 5),
        jokers__at_most_naturals=False,
        melds__set_distinct_suits=True,
    ),
}
_NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # the brute force is slow to shrink
WILD_REQUIREMENTS: list[sr.Requirement] = [
    sr.Contract(sets=(3,)),
    sr.Contract(runs=(4,)),
    sr.Contract(sets=(3, 3)),
    sr.Contract(sets=(3,), runs=(4,)),
    sr.Opening(min_points=20),
]


def _wild_groups(hand: tuple[sr.Card, ...], variant: sr.Variant) -> set[tuple[sr.Card, ...]]:
    """Every valid group of some of ``hand`` (its canonical form): every order of every
    sub-multiset read by check_group."""
    found: set[tuple[sr.Card, ...]] = set()
    for size in range(3, len(hand) + 1):
        for sub in set(itertools.combinations(sorted(hand, key=str), size)):
            for order in set(itertools.permutations(sub)):
                try:
                    shape = check_group(order, variant)
                except sr.InvalidMeldError:
                    continue
                found.add(sr.canonical_groups([shape], variant)[0])
    return found


def _wild_ways(
    hand: tuple[sr.Card, ...],
    requirement: sr.Requirement,
    variant: sr.Variant,
    laid: tuple[GroupShape, ...] = (),
) -> set[tuple[tuple[sr.Card, ...], ...]]:
    """Every multiset of groups of ``hand`` that, with ``laid``, check_going_down's rules
    accept, canonicalised."""
    groups = sorted(_wild_groups(hand, variant), key=lambda group: [str(c) for c in group])
    have = Counter(hand)
    found = set()
    for count in range(0 if laid else 1, len(hand) // 3 + 1):
        for combo in itertools.combinations_with_replacement(groups, count):
            if Counter(card for group in combo for card in group) - have:
                continue
            try:
                shapes = tuple(check_group(group, variant) for group in combo)
                check_shapes((*laid, *shapes), requirement, variant)
            except (sr.ContractNotMetError, sr.InvalidMeldError):
                continue
            found.add(sr.canonical_groups(shapes, variant))
    return found


@st.composite
def wild_cases(draw: st.DrawFn) -> tuple[str, sr.Requirement, tuple[sr.Card, ...]]:
    name = draw(st.sampled_from(sorted(WILD_VARIANTS)))
    requirement = draw(st.sampled_from(WILD_REQUIREMENTS))
    pool = cards("2C 2D 2H 3C 3D 4C 4H 5C 5H 5S 6C 6H JK")
    hand = draw(st.lists(st.sampled_from(pool), min_size=5, max_size=6))
    counted = Counter(hand)
    return name, requirement, tuple(card for card, n in counted.items() for _ in range(min(n, 2)))


@settings(max_examples=30, deadline=None, phases=_NO_SHRINK)
@given(wild_cases())
def test_wild_ranks_solve_and_arrangements_match_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]],
) -> None:
    name, requirement, hand = case
    variant = WILD_VARIANTS[name]
    expected = _wild_ways(hand, requirement, variant)
    ways = sr.arrangements(hand, requirement, variant)
    assert len(ways) == len(set(ways))
    assert set(ways) == expected
    found = sr.solve(hand, requirement, variant)
    assert (found is None) == (not expected)
    assert found is None or found in expected
    assert set(sr.possible_groups(hand, variant)) == _wild_groups(hand, variant)


@settings(max_examples=20, deadline=None, phases=_NO_SHRINK)
@given(wild_cases(), st.data())
def test_wild_ranks_complete_matches_brute_force(
    case: tuple[str, sr.Requirement, tuple[sr.Card, ...]], data: st.DataObject
) -> None:
    name, requirement, hand = case
    variant = WILD_VARIANTS[name]
    groups = sorted(_wild_groups(hand, variant), key=lambda group: [str(c) for c in group])
    if not groups:
        return
    group = data.draw(st.sampled_from(groups))
    laid = (check_group(group, variant),)
    rest = list(hand)
    for card in group:
        rest.remove(card)
    expected = _wild_ways(tuple(rest), requirement, variant, laid)
    found = complete(rest, requirement, variant, laid)
    assert (found is None) == (not expected)
    assert found is None or found in expected
    starts = startable_groups(hand, requirement, variant)
    if laid[0] in starts:
        assert found is not None


def test_wild_ranks_card_laid_off_as_a_joker_counts_toward_the_going_down_turns_limit() -> None:
    variant = house(DEUCES_51, "deuces-51-limit", melds__set_distinct_suits=False)
    meld = make_table_meld(1, 0, cards("3C 4C JK"), variant)  # one joker: rummy51's limit
    assert joker_lay_off_barred(variant, meld, C("2C"), 0, False, "low") is None  # itself
    barred = joker_lay_off_barred(variant, meld, C("2C"), 0, False, "high")  # stands for 6C
    assert barred is not None and "per_group_for_the_going_down_turn" in barred
    assert joker_lay_off_barred(variant, meld, C("2C"), 0, True, "high") is None  # later turn


FREE_RUNS_OF_3 = attrs.evolve(
    WILD_VARIANTS["free"],
    deals=(attrs.evolve(SHANGHAI.deals[2], requirement=sr.Contract(runs=(3, 3))),) * 10,
)


def _seat_0_drawn(variant: sr.Variant, hand: str) -> sr.GameState:
    """Seat 0 holds ``hand`` and has drawn AD from the stock (nobody bought the upcard)."""
    state = sr.deal_from(
        variant,
        hands=[cards(hand), cards("4S 4D 6C 6S 6H 6D 10C 10H")],
        upcard=C("AS"),
        stock_top=cards("AD AH"),
        dealer=1,
    )
    return pass_offers(sr.draw(state, 0, sr.Source.STOCK))


def _orders_read_as_runs(
    group: tuple[sr.Card, ...], variant: sr.Variant
) -> set[tuple[sr.Card, ...]]:
    found = set()
    for order in set(itertools.permutations(group)):
        try:
            found.add(check_group(order, variant, kind=MeldKind.RUN).cards)
        except sr.InvalidMeldError:
            continue
    return found


def test_wild_ranks_run_readings_of_a_set_tell_its_stand_ins_apart() -> None:
    # a set that also reads as a run: every distinct order of its cards that reads as a run
    # is one (a joker and a deuce standing in are two different cards; a deuce natural in a
    # set of deuces may stand in in the run)
    free = WILD_VARIANTS["free"]
    two_wild = house(SHANGHAI, "deuces-and-threes", jokers__wild_ranks=(2, 3), melds__run_min=3)
    for group, variant in [
        (cards("3C 2C JK"), free),
        (cards("2C 2D JK"), free),
        (cards("9H 2C 2D JK"), free),
        (cards("3C 3D 2C"), two_wild),
    ]:
        shape = check_group(group, variant)
        assert shape.kind is MeldKind.SET
        runs = {run.cards for run in run_readings(shape, variant)}
        assert runs == _orders_read_as_runs(group, variant) != set()
    state = _seat_0_drawn(FREE_RUNS_OF_3, "2C 3C JK 7D 8D 9D KS QH 5S 10S 4D")
    listed = set(sr.legal_actions(state))
    for run in ("2C 3C JK", "3C 2C JK", "3C JK 2C", "JK 3C 2C"):
        meld = sr.Meld(0, (cards(run),), (MeldKind.RUN,))
        assert meld in listed
        assert sr.apply(state, meld).table[0].cards == cards(run)


def test_deuces_wild_file_plays_to_the_end_with_deuces_standing_in() -> None:
    variant = sr.load_variant(ROOT / "examples" / "variants" / "deuces-wild.toml")
    assert variant.jokers.wild_ranks == (2,) and len(variant.deals) == 4
    standing_in = 0
    state = None
    for state in bot_play(variant, 3, 5, 50_000):
        standing_in = max(
            standing_in,
            sum(meld.jokers - sum(card.is_joker for card in meld.cards) for meld in state.table),
        )
    assert state is not None and state.is_over and state.outcome is not None
    assert standing_in > 0  # a deuce stood for another card on the table


# -- jokers.dead_wild_discards (a wild card on the discard pile is dead) -----------------------

DEAD = house(DEUCES, "deuces-dead", jokers__dead_wild_discards=True)


def test_dead_wild_discards_a_wild_upcard_may_not_be_taken_or_bought() -> None:
    hands = [cards("9S 9D 5H 6C"), cards("3H 3D 4S 7C"), cards("KS KD 8C 8D")]
    state = sr.deal_from(DEAD, hands=hands, upcard=C("2H"), dealer=2)
    assert state.upcard is None and sr.Draw(0, sr.Source.DISCARD) not in sr.legal_actions(state)
    with pytest.raises(sr.DrawError, match="dead_wild_discards"):
        sr.draw(state, 0, sr.Source.DISCARD)
    # a deuce discarded is dead too: the next seat is not offered it, nobody may buy it
    drawn = sr.draw(state, 0, sr.Source.STOCK)
    assert drawn.phase is sr.Phase.PLAY  # no offer to buy a dead card
    wild = sr.deal_from(DEAD, hands=[cards("2C 9S 9D 5H"), *hands[1:]], upcard=C("QS"), dealer=2)
    wild = sr.draw(wild, 0, sr.Source.STOCK)
    wild = pass_offers(wild) if wild.phase is sr.Phase.BUY else wild
    after = sr.discard(wild, 0, C("2C"))
    assert after.discard_pile[-1] == C("2C") and after.upcard is None
    assert after.phase is sr.Phase.DRAW and sr.legal_actions(after) == (
        sr.Draw(1, sr.Source.STOCK),
    )
    sr.validate(after)
    # without the rule the deuce is a live upcard
    live = sr.discard(attrs.evolve(wild, variant=DEUCES), 0, C("2C"))
    assert live.upcard == C("2C")


def test_dead_wild_discards_needs_wild_ranks_and_loads_from_a_file() -> None:
    with pytest.raises(sr.VariantError, match="dead_wild_discards: needs wild ranks"):
        house(SHANGHAI, "dead-alone", jokers__dead_wild_discards=True)
    loaded = sr.load_variant(
        {
            "base": "shanghai",
            "id": "deuces-dead",
            "jokers": {"wild_ranks": [2], "dead_wild_discards": True},
        }
    )
    assert loaded.jokers.dead_on_the_pile(C("2S")) and not loaded.jokers.dead_on_the_pile(sr.JOKER)


def test_wild_ranks_a_set_laid_off_on_reads_again_as_its_rank() -> None:
    # every card of the set of threes 2C 3D 3H is wild (deuces and threes): given 2H its cards
    # would read as a set of deuces, so the state was refused by validate and by from_json
    variant = house(SHANGHAI, "deuces-and-threes-wild", jokers__wild_ranks=(2, 3))
    meld = make_table_meld(1, 0, cards("2C 3D 3H"), variant)
    assert meld.rank is sr.Rank.THREE
    grown = extend(meld, C("2H"), variant)
    assert grown.rank is sr.Rank.THREE and grown.cards == cards("3D 2C 3H 2H")
    assert check_group(grown.cards, variant).rank is sr.Rank.THREE
    state = _seat_0_drawn(variant, "2C 3D 3H 9C 9D 9H 2H KS QH 5S 10S")
    state = sr.meld(state, 0, [cards("2C 3D 3H"), cards("9C 9D 9H")])
    laid = sr.lay_off(state, 0, C("2H"), state.table[0].id)
    sr.validate(laid)
    assert sr.from_json(sr.to_json(laid), sr.GameState) == laid


def test_wild_ranks_a_set_of_wild_cards_keeps_its_rank_in_canonical_form() -> None:
    # deuces and threes wild: 3D 3H 2C 2H is a set of threes, 2C 2H 3D 3H a set of deuces;
    # the canonical form of each reads again as itself, and both are possible groups
    variant = house(SHANGHAI, "deuces-and-threes-wild", jokers__wild_ranks=(2, 3))
    threes, deuces = (
        check_group(cards("3D 3H 2C 2H"), variant),
        check_group(cards("2C 2H 3D 3H"), variant),
    )
    assert (threes.rank, deuces.rank) == (sr.Rank.THREE, sr.Rank.TWO)
    for shape in (threes, deuces):
        (canonical,) = sr.canonical_groups([shape], variant)
        assert check_group(canonical, variant).rank is shape.rank
    groups = sr.possible_groups(cards("2C 3D 3H 2H"), variant)
    assert {check_group(group, variant).rank for group in groups if len(group) == 4} == {
        sr.Rank.TWO,
        sr.Rank.THREE,
    }


def test_wild_ranks_two_ranks_list_the_run_reading_of_a_set_where_at_most_naturals_holds() -> None:
    # twos and threes wild: 2C 3C 3D reads first as a set of threes, and also as a run
    # (3C itself, 2C and 3D standing in), which at_most_naturals allows; both are listed
    base = house(SHANGHAI, "two-wild-ranks", jokers__wild_ranks=(2, 3), melds__run_min=3)
    spec = attrs.evolve(base.deals[0], requirement=sr.Contract(runs=(3, 3)), cards=11)
    variant = attrs.evolve(base, deals=(spec,), deal_count=None)
    hand = cards("2C 3C 3D 7D 8D 9D KS QH 5S 10S 4H")
    state = stacked(variant, {1: hand}, stock_top=cards("AD"))
    state = pass_offers(sr.apply(state, sr.Draw(1, sr.Source.STOCK)))
    run = sr.Meld(1, (cards("2C 3C 3D"),), kinds=(sr.MeldKind.RUN,))
    assert run in sr.legal_actions(state)
    after = sr.apply(state, run)
    assert after.table[-1].kind is sr.MeldKind.RUN


def test_wild_ranks_possible_groups_hold_the_runs_of_wild_cards_no_split_offers() -> None:
    # fives wild, sets of distinct suits: JK 5C 5C 5S is no set (two clubs) but a run
    # (one five standing as itself, the others and the joker standing in)
    variant = WILD_VARIANTS["distinct"]
    hand = cards("5C 5C 6H 5S 4C JK")
    assert set(sr.possible_groups(hand, variant)) == _wild_groups(hand, variant)
    assert any(
        sorted(map(str, group)) == ["5C", "5C", "5S", "JK"]
        for group in sr.possible_groups(hand, variant)
    )
