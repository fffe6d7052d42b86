"""Variants from files (issue 5, point 5): TOML and JSON, the conveniences, errors naming the
field, every field documented, and Pagat's Contract Rummy played from configuration alone."""

from __future__ import annotations

import json
import random
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shanghai_rummy as sr

from .games import EXAMPLES, PRESETS, assert_schema_valid, dumps_checked_against_the_schema


@pytest.fixture(autouse=True, scope="module")
def _every_dump_matches_the_schema() -> Iterator[None]:
    with dumps_checked_against_the_schema():
        yield


DOCS = Path(__file__).resolve().parents[1] / "docs" / "variant-files.md"


def test_shanghai_file_is_the_preset() -> None:
    assert sr.load_variant(EXAMPLES / "shanghai.toml") == sr.get_variant("shanghai")


def test_contract_rummy_from_configuration_alone() -> None:
    variant = sr.load_variant(EXAMPLES / "contract-rummy.toml")
    assert variant.id == "contract-rummy" and variant.total_deals(4) == 7
    described = [variant.deal(n).requirement.describe() for n in range(1, 8)]
    assert described == [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "2 runs of 4",
        "3 sets of 3",
        "2 sets of 3 + 1 run of 4",
        "1 set of 3 + 2 runs of 4",
        "3 runs of 4",
    ]
    assert [variant.deal(n).cards for n in range(1, 8)] == [10, 10, 10, 10, 12, 12, 12]


def test_a_game_of_contract_rummy() -> None:
    variant = sr.load_variant(EXAMPLES / "contract-rummy.toml")
    state = sr.new_game(variant, players=4, seed=12)
    rng = random.Random(12)
    dealt = {1: [len(hand) for hand in state.hands]}
    while not state.is_over:
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
            dealt[state.deal_number] = [len(hand) for hand in state.hands]
        state = sr.apply(state, rng.choice(sr.legal_actions(state)))
        if state.history_length % 50 == 0:
            sr.validate(state)
    assert state.deal_number == 7 and len(state.results) == 7
    assert state.outcome is not None and state.outcome.totals == state.totals
    assert dealt == {n: [10 if n <= 4 else 12] * 4 for n in range(1, 8)}
    assert sr.from_json(sr.to_json(sr.record(state)), sr.GameRecord) == sr.record(state)


def test_liverpool_jokers_are_players_minus_one() -> None:
    variant = sr.load_variant(EXAMPLES / "liverpool.toml")
    for players in range(variant.min_players, variant.max_players + 1):
        assert variant.pack_size(players).jokers == players - 1
        state = sr.new_game(variant, players=players, seed=players)
        assert sr.make_pack(1, 1).count(sr.JOKER) == 1
        held = sum(hand.count(sr.JOKER) for hand in state.hands)
        held += state.stock.count(sr.JOKER) + state.discard_pile.count(sr.JOKER)
        assert held == players - 1


def test_house_rules_json_builds_on_a_preset() -> None:
    variant = sr.load_variant(EXAMPLES / "house-rules.json")
    camping = sr.get_variant("shanghai-camping")
    assert variant.id == "camping-house"
    assert variant.buying.penalty_cards == 2 and variant.scoring.one_turn_out is None
    assert variant.jokers == camping.jokers and variant.deals == camping.deals
    assert variant.buying.limits == camping.buying.limits  # tables merge key by key


@pytest.mark.parametrize("path", sorted(EXAMPLES.iterdir()), ids=lambda path: path.name)
def test_example_files_survive_json(path: Path) -> None:
    variant = sr.load_variant(path)
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant
    text = sr.to_json(variant)
    assert_schema_valid(json.loads(text))
    assert sr.from_json(text, sr.Variant) == variant
    assert sr.load_variant(sr.variant_to_dict(variant)) == variant


def test_a_json_file_and_a_toml_file_agree(tmp_path: Path) -> None:
    variant = sr.get_variant("rummy51")
    path = tmp_path / "rummy51.json"
    path.write_text(json.dumps(sr.variant_to_dict(variant)))
    assert sr.load_variant(path) == variant
    assert sr.load_variant(str(path)) == variant


# --- random variants round-trip ------------------------------------------------------------

variants = st.builds(
    lambda base, aces, penalty, priority, going_out, restock, limit, deals: attrs.evolve(
        sr.get_variant(base),
        id=f"random-{base}",
        melds=attrs.evolve(sr.get_variant(base).melds, aces=aces),
        buying=attrs.evolve(sr.get_variant(base).buying, priority=priority)
        if not sr.get_variant(base).buying.enabled
        else attrs.evolve(sr.get_variant(base).buying, priority=priority, penalty_cards=penalty),
        going_out=going_out,
        stock=sr.StockRules(restock=restock, turn_limit=limit),
        deal_count=deals,
    ),
    base=st.sampled_from(PRESETS),
    aces=st.sampled_from(sr.Aces),
    penalty=st.integers(min_value=0, max_value=2),
    priority=st.sampled_from(sr.BuyPriority),
    going_out=st.sampled_from(sr.GoOutDiscard),
    restock=st.sampled_from(sr.Restock),
    limit=st.integers(min_value=1, max_value=1000),
    deals=st.none() | st.integers(min_value=1, max_value=20),
)


@settings(max_examples=60, deadline=None)
@given(variant=variants)
def test_random_variants_survive_dicts_and_json(variant: sr.Variant) -> None:
    assert sr.variant_from_dict(sr.variant_to_dict(variant)) == variant
    assert sr.load_variant(sr.variant_to_dict(variant)) == variant
    text = sr.to_json(variant)
    assert_schema_valid(json.loads(text))
    assert sr.from_json(text, sr.Variant) == variant


# --- conveniences and errors ---------------------------------------------------------------


def test_none_and_card_value_ranges() -> None:
    variant = sr.load_variant(
        {
            "base": "shanghai",
            "deal_count": "none",
            "melds": {"set_max": "none"},
            "scoring": {"values": {"2-10": 1, "J-A": 2, "JK": 3}},
        }
    )
    assert variant.deal_count is None and variant.melds.set_max is None
    assert (
        variant.scoring.values.by_rank == (1,) * 9 + (2,) * 4 and variant.scoring.values.joker == 3
    )


def test_arrays_replace_the_base() -> None:
    variant = sr.load_variant(
        {
            "base": "shanghai",
            "deals": [{"cards": 7, "requirement": {"kind": "contract", "sets": [3]}}],
        }
    )
    assert len(variant.deals) == 1 and variant.deal(5).cards == 7


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"base": "gin"}, "Variant.base: 'gin' is not a preset"),
        ({"base": "shanghai", "colour": "red"}, "Variant.colour: unknown field"),
        ({"base": "shanghai", "melds": {"ace": "high"}}, "Variant.melds.ace: unknown field"),
        (
            {"base": "shanghai", "melds": {"aces": "up"}},
            "Variant.melds.aces: 'up' is not a valid Aces",
        ),
        ({"base": "shanghai", "min_players": "2"}, "Variant.min_players: expected an integer"),
        (
            {"base": "shanghai", "max_players": 1},
            "Variant.max_players: must be an integer from 2 to 10",
        ),
        (
            {"base": "shanghai", "packs": []},
            "Variant.packs: needs 1 to 10 packs",
        ),
        ({"base": "shanghai", "deals": "all"}, "Variant.deals: expected an array"),
        (
            {"base": "shanghai", "deals": [{"cards": 11, "requirement": {"sets": [3]}}]},
            "Variant.deals[0].requirement.kind: expected one of 'contract', 'opening'; missing",
        ),
        (
            {"base": "shanghai", "deals": [{"cards": 11, "requirement": {"kind": "contract"}}]},
            "Variant.deals[0].requirement: a contract needs at least one set or run",
        ),
        (
            {"base": "shanghai", "buying": {"limits": [[1, 3, 5]]}},
            "Variant.buying.limits[0]: expected an array of 2 items",
        ),
        ({"base": "shanghai", "scoring": {"values": {"2-K": 5}}}, "Variant.scoring.values: "),
        ({"base": "shanghai", "scoring": {"values": {"by_rank": [1]}}}, "by_rank: needs 13"),
        ({"id": "x"}, "Variant.name: required field missing"),
        ({"base": "shanghai", "stock": {"turn_limit": "never"}}, "Variant.stock.turn_limit"),
    ],
)
def test_errors_name_the_field(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(sr.VariantError) as caught:
        sr.load_variant(data)
    assert expected in str(caught.value)


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(sr.VariantError, match=r"ends in \.toml or \.json"):
        sr.load_variant(tmp_path / "rules.yaml")
    with pytest.raises(sr.VariantError, match="cannot read the file"):
        sr.load_variant(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("id = ")
    with pytest.raises(sr.VariantError, match="not valid TOML"):
        sr.load_variant(bad)
    listed = tmp_path / "listed.json"
    listed.write_text("[1, 2]")
    with pytest.raises(sr.VariantError, match="holds a table of fields"):
        sr.load_variant(listed)
    typo = tmp_path / "typo.toml"
    typo.write_text('base = "shanghai"\n[buying]\npenalty_card = 1\n')
    with pytest.raises(
        sr.VariantError, match=r"typo\.toml: Variant\.buying\.penalty_card: unknown"
    ):
        sr.load_variant(typo)
    with pytest.raises(sr.VariantError, match="takes a path or a mapping"):
        sr.load_variant(42)  # type: ignore[arg-type]


def test_every_field_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    classes: list[Any] = [sr.Variant]
    seen = set()
    while classes:
        cls = classes.pop()
        if cls in seen:
            continue
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            assert f"`{field.name}`" in text, f"{cls.__name__}.{field.name} is not documented"
            for inner in (*typing.get_args(hints[field.name]), hints[field.name]):
                if isinstance(inner, type) and attrs.has(inner):
                    classes.append(inner)
    assert sr.DealSpec in seen and sr.Scoring in seen and sr.PackSize in seen
