"""Wild ranks besides the jokers (issue 24, build 1, first part: ``JokerRules.wild_ranks``):
one test per behaviour of the setting, named for it, and a property that the reading of a
group agrees with the setting's definition tried by brute force."""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.melds import (
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

from .helpers import C, cards
from .positions import house

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


def test_wild_ranks_are_not_dealt_yet() -> None:
    with pytest.raises(sr.VariantError, match="wild_ranks"):
        sr.new_game(DEUCES, players=4, seed=1)
    with pytest.raises(sr.VariantError, match="wild_ranks"):
        sr.deal_from(DEUCES, hands=[cards("3C")] * 4)
    state = attrs.evolve(sr.new_game(SHANGHAI, players=4, seed=1), variant=DEUCES)
    with pytest.raises(sr.InvalidStateError, match="wild_ranks"):
        sr.validate(state)


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
