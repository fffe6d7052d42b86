"""Variants: presets as data (RULES.md §1-3) and validation that names the field."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import shanghai_rummy as sr

SHANGHAI = sr.get_variant("shanghai")
CAMPING = sr.get_variant("shanghai-camping")
RUMMY51 = sr.get_variant("rummy51")


def test_contracts_per_deal_shanghai_presets() -> None:
    expected = [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "2 runs of 4",
        "3 sets of 3",
        "1 set of 3 + 1 run of 7",
        "2 sets of 3 + 1 run of 5",
        "3 runs of 4",
        "1 set of 3 + 1 run of 10",
        "3 sets of 3 + 1 run of 5",
        "3 runs of 5",
    ]
    for variant_id in ("shanghai", "shanghai-wiki", "shanghai-camping"):
        variant = sr.get_variant(variant_id)
        assert variant.total_deals(4) == 10
        described = [variant.deal(n).requirement.describe() for n in range(1, 11)]
        assert described == expected
        assert all(variant.deal(n).cards == 11 for n in range(1, 11))


def test_rummy51_one_deal_per_player_14_cards_opening_51() -> None:
    assert RUMMY51.total_deals(4) == 4
    spec = RUMMY51.deal(3)
    assert spec.cards == 14
    assert spec.requirement == sr.Opening(min_points=51, values=RUMMY51.scoring.values)


@pytest.mark.parametrize(
    ("variant_id", "values"),
    [
        ("shanghai", {"3": 5, "9": 5, "10": 10, "K": 10, "A": 15, "2": 20, "JK": 25}),
        ("shanghai-wiki", {"3": 5, "9": 5, "10": 10, "K": 10, "A": 15, "2": 20, "JK": 25}),
        ("shanghai-camping", {"3": 5, "9": 5, "10": 10, "K": 10, "A": 20, "2": 20, "JK": 25}),
        ("rummy51", {"2": 2, "9": 9, "10": 10, "J": 10, "A": 10, "JK": 20}),
    ],
)
def test_card_values_per_preset(variant_id: str, values: dict[str, int]) -> None:
    scoring = sr.get_variant(variant_id).scoring
    for code, value in values.items():
        card = sr.JOKER if code == "JK" else sr.Card.parse(code + "S")
        assert scoring.values.of(card) == value, code


def test_buy_limits_3_in_deals_1_to_8_and_4_in_deals_9_10() -> None:
    assert [SHANGHAI.buying.limit(n) for n in range(1, 11)] == [3] * 8 + [4] * 2


def test_buy_penalty_two_cards_shanghai_one_card_camping() -> None:
    assert SHANGHAI.buying.penalty_cards == 2
    assert sr.get_variant("shanghai-wiki").buying.penalty_cards == 2
    assert CAMPING.buying.penalty_cards == 1


def test_rummy51_has_no_buying() -> None:
    assert RUMMY51.buying.limit(1) == 0


def test_presets_name_their_source_by_title_and_language() -> None:
    """A reader of the wheel has no seed files: a source is named by what it is."""
    assert SHANGHAI.source.startswith("Ron de Shanghái (Spanish")
    assert "wiki" in sr.get_variant("shanghai-wiki").source
    assert "Romanian and Finnish" in sr.get_variant("shanghai-wiki").source
    assert CAMPING.source.startswith("Kortti-Peli-Suosikki: Shanghai Rommi (Finnish")
    assert RUMMY51.source.startswith("Rummy - reglas del juego (Spanish")
    for variant in sr.VARIANTS.values():
        assert "seeds/" not in variant.source and ".txt" not in variant.source


def test_rules_pages_cite_sources_by_name_not_by_file_number() -> None:
    for page in (Path(__file__).resolve().parents[1] / "docs" / "rules").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"`00[0-9]`|seeds/|_[0-9a-f]{16}", text), page.name


def test_unknown_variant_lists_known_ids() -> None:
    with pytest.raises(
        sr.VariantError, match="known: rummy51, shanghai, shanghai-camping, shanghai-wiki"
    ):
        sr.get_variant("liverpool")


def test_variant_is_frozen_and_keyword_only() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        SHANGHAI.deal_count = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        sr.Variant("x")  # type: ignore[call-arg, misc]


def test_negative_penalty_names_the_field() -> None:
    with pytest.raises(sr.VariantError, match=r"Variant\.buying\.penalty_cards"):
        attrs.evolve(SHANGHAI, buying=attrs.evolve(SHANGHAI.buying, penalty_cards=-1))


def test_contract_no_hand_can_hold_is_refused() -> None:
    deals = (sr.DealSpec(requirement=sr.Contract(sets=(3, 3, 3)), cards=5),)
    with pytest.raises(sr.VariantError, match=r"deals\[0\]\.requirement.*at most"):
        attrs.evolve(SHANGHAI, deals=deals, deal_count=1, buying=sr.BuyRules(enabled=False))


def test_run_longer_than_aces_allow_is_refused() -> None:
    deals = (sr.DealSpec(requirement=sr.Contract(runs=(14,)), cards=11),)
    with pytest.raises(sr.VariantError, match="not a valid run"):
        attrs.evolve(SHANGHAI, deals=deals, deal_count=1)


def test_joker_table_without_a_contract_size_is_refused() -> None:
    with pytest.raises(sr.VariantError, match=r"jokers\.going_down_by_size.*group of 10"):
        attrs.evolve(
            CAMPING, jokers=sr.JokerRules(going_down_by_size=((3, 1), (4, 1), (5, 2), (7, 3)))
        )


def test_packs_must_cover_every_player_count() -> None:
    with pytest.raises(sr.VariantError, match="packs"):
        attrs.evolve(SHANGHAI, max_players=7)


def test_too_many_cards_dealt_is_refused() -> None:
    deals = (sr.DealSpec(requirement=sr.Contract(sets=(3,)), cards=30),)
    with pytest.raises(sr.VariantError, match=r"deals\[0\]\.cards"):
        attrs.evolve(SHANGHAI, deals=deals, deal_count=1)


def test_card_values_from_mapping_needs_every_rank() -> None:
    with pytest.raises(sr.VariantError, match="no value for"):
        sr.CardValues.from_mapping({"2-9": 5})
    with pytest.raises(sr.VariantError, match="twice"):
        sr.CardValues.from_mapping({"2-A": 5, "K": 1, "JK": 0})


def test_liverpool_jokers_equal_players_minus_one_expressible() -> None:
    packs = tuple(
        sr.PackSize(min_players=n, max_players=n, decks=2 if n <= 4 else 3, jokers=n - 1)
        for n in range(3, 9)
    )
    liverpool = attrs.evolve(CAMPING, id="liverpool", packs=packs)
    assert [liverpool.pack_size(n).jokers for n in range(3, 9)] == [2, 3, 4, 5, 6, 7]
