"""Issue 21: safe to embed. One test per finding of the issue, named after it, with its input:
every input bounded, every loader fast, every forged state refused, one error hierarchy."""

from __future__ import annotations

import json

import attrs
import pytest

import shanghai_rummy as sr
from shanghai_rummy import limits

SHANGHAI = sr.get_variant("shanghai")
RUMMY51 = sr.get_variant("rummy51")


def variant_document(**changes: object) -> str:
    document = sr.to_dict(SHANGHAI)
    document["data"].update(changes)
    return json.dumps(document)


# --- finding 2: a huge max_players hung every loader --------------------------------------


@pytest.mark.parametrize("digits", [7, 9, 5000])
def test_finding_02_huge_max_players_is_refused_before_any_loop(digits: int) -> None:
    seats = 10**digits
    with pytest.raises(
        sr.VariantError, match=r"Variant.max_players: must be an integer from 2 to 10"
    ):
        attrs.evolve(SHANGHAI, max_players=seats)
    with pytest.raises(sr.VariantError, match=r"packs\[0\].max_players: .*limits.MAX_PLAYERS"):
        attrs.evolve(
            SHANGHAI, packs=(sr.PackSize(min_players=2, max_players=seats, decks=2, jokers=2),)
        )
    if digits < 4000:  # json.dumps refuses an int past 4,300 digits itself
        text = variant_document(max_players=seats)
        with pytest.raises(sr.SerializationError, match=r"\$.data.max_players: must be an"):
            sr.from_json(text, sr.Variant)


# --- finding 3: no upper bound on decks or jokers ------------------------------------------


@pytest.mark.parametrize(
    ("decks", "jokers", "field"),
    [
        (10**6, 2, "decks"),
        (10**7, 2, "decks"),
        (10**12, 2, "decks"),
        (2, 10**12, "jokers"),
        (5, 2, "decks"),
        (2, 9, "jokers"),
    ],
)
def test_finding_03_decks_and_jokers_have_a_maximum(decks: int, jokers: int, field: str) -> None:
    pack = sr.PackSize(min_players=2, max_players=6, decks=decks, jokers=jokers)
    with pytest.raises(sr.VariantError, match=rf"Variant.packs\[0\].{field}: .*limits.MAX_"):
        attrs.evolve(SHANGHAI, packs=(pack,))


def test_finding_03_a_4300_digit_deck_count_is_a_variant_error() -> None:
    pack = sr.PackSize(min_players=2, max_players=6, decks=10**4400, jokers=2)
    with pytest.raises(sr.VariantError, match=r"decks: must be an integer .* got an integer of"):
        attrs.evolve(SHANGHAI, packs=(pack,))


def test_finding_03_the_largest_pack_allowed_plays() -> None:
    pack = sr.PackSize(min_players=2, max_players=10, decks=limits.MAX_DECKS, jokers=8)
    widest = attrs.evolve(SHANGHAI, id="widest", max_players=10, packs=(pack,))
    state = sr.new_game(widest, players=limits.MAX_PLAYERS, seed=1)
    assert sum(map(len, state.hands)) + state.stock_size + 1 == 52 * 4 + 8
    sr.validate(state)


# --- finding 4: accepted variants made legal_actions take seconds ---------------------------


def test_finding_04_thirty_cards_with_extra_groups_is_refused() -> None:
    document = {
        "base": "shanghai",
        "deals": [{"cards": 30, "requirement": {"kind": "contract", "sets": [3, 3]}}],
        "going_down": {"exact_meld_count": False},
    }
    with pytest.raises(sr.VariantError, match=r"deals\[0\].cards: .*limits.MAX_CARDS_DEALT"):
        sr.load_variant(document)
    # within MAX_CARDS_DEALT, the hand a buyer can reach is still bounded where extra groups
    # may join the contract's
    document["deals"] = [{"cards": 15, "requirement": {"kind": "contract", "sets": [3, 3]}}]
    with pytest.raises(sr.VariantError, match=r"limits.MAX_OPEN_ENDED_HAND_CARDS"):
        sr.load_variant(document)


def test_finding_04_groups_of_two_are_refused() -> None:
    document = {
        "base": "shanghai",
        "melds": {"set_min": 2, "run_min": 2},
        "deals": [{"cards": 11, "requirement": {"kind": "contract", "sets": [2], "runs": [2]}}],
    }
    with pytest.raises(sr.VariantError, match=r"melds.set_min: must be an integer from 3"):
        sr.load_variant(document)


def test_finding_04_contract_groups_and_sizes_have_maxima() -> None:
    with pytest.raises(sr.VariantError, match=r"Contract: at most 6 groups"):
        sr.Contract(sets=(3, 3, 3, 3), runs=(4, 4, 4))
    with pytest.raises(sr.VariantError, match=r"Contract.runs: .*at most 14"):
        sr.Contract(runs=(100,))


# --- finding 5: a variant dealing 300 cards ----------------------------------------------


def test_finding_05_a_variant_dealing_300_cards_is_refused() -> None:
    deal = sr.DealSpec(requirement=sr.Contract(sets=(3, 3)), cards=300)
    with pytest.raises(sr.VariantError, match=r"deals\[0\].cards: must be an integer from 1 to 15"):
        attrs.evolve(SHANGHAI, deals=(deal,))


# --- finding 11: attrs.evolve did not check the policy fields -------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"melds": attrs.evolve(SHANGHAI.melds, aces="high")},
            r"Variant.melds.aces: expected Aces",
        ),
        (
            {"scoring": attrs.evolve(SHANGHAI.scoring, values=None)},
            r"Variant.scoring.values: expected CardValues, got NoneType",
        ),
        ({"packs": None}, r"Variant.packs: expected a tuple"),
        ({"packs": list(SHANGHAI.packs)}, r"Variant.packs: expected a tuple"),
        ({"deals": list(SHANGHAI.deals)}, r"Variant.deals: expected a tuple"),
        (
            {"buying": attrs.evolve(SHANGHAI.buying, limits=[[1, 3]])},
            r"Variant.buying.limits: expected a tuple",
        ),
        (
            {"buying": attrs.evolve(SHANGHAI.buying, limits=((1, 3, 4),))},
            r"Variant.buying.limits\[0\]: expected 2 items",
        ),
        ({"going_out": "never"}, r"Variant.going_out: expected GoOutDiscard"),
        ({"melds": None}, r"Variant.melds: expected MeldRules"),
        (
            {"going_down": attrs.evolve(SHANGHAI.going_down, exact_meld_count=1)},
            r"exact_meld_count: expected bool, got int 1",
        ),
        ({"min_players": True}, r"Variant.min_players: expected int, got bool"),
        ({"name": "\ud800"}, r"Variant.name: holds a lone surrogate"),
    ],
)
def test_finding_11_evolve_checks_every_policy_field(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(sr.VariantError, match=message):
        attrs.evolve(SHANGHAI, **changes)


def test_finding_11_a_checked_variant_is_hashable_and_equal_to_its_round_trip() -> None:
    house = attrs.evolve(
        SHANGHAI, id="house", buying=attrs.evolve(SHANGHAI.buying, limits=((1, 2),))
    )
    assert hash(house) == hash(sr.from_json(sr.to_json(house), sr.Variant))
    assert sr.from_json(sr.to_json(house), sr.Variant) == house


# --- finding 17: no turn limit from files -------------------------------------------------


def test_finding_17_turn_limit_none_from_a_file_is_refused() -> None:
    with pytest.raises(sr.VariantError, match=r"Variant.stock.turn_limit: expected an integer"):
        sr.load_variant({"base": "shanghai", "stock": {"turn_limit": "none"}})
    with pytest.raises(sr.VariantError, match=r"stock.turn_limit: .*limits.MAX_TURN_LIMIT"):
        sr.load_variant({"base": "shanghai", "stock": {"turn_limit": 10**6}})


# --- every maximum named in one module ------------------------------------------------------


def test_every_preset_fits_within_the_maxima_with_its_largest_hand() -> None:
    for variant in sr.VARIANTS.values():
        assert variant.max_players <= limits.MAX_PLAYERS
        for pack in variant.packs:
            assert pack.decks <= limits.MAX_DECKS and pack.jokers <= limits.MAX_JOKERS
        assert all(deal.cards <= limits.MAX_CARDS_DEALT for deal in variant.deals)
