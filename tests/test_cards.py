"""Cards, their notation and packs (RULES.md §1-3: packs per preset and player count)."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shanghai_rummy as sr
from shanghai_rummy.cards import make_pack


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("8C", "8C"),
        ("10h", "10H"),
        ("TH", "10H"),
        ("as", "AS"),
        ("JK", "JK"),
        ("*", "JK"),
        (" qd ", "QD"),
    ],
)
def test_card_notation_accepts_codes_in_any_case(text: str, code: str) -> None:
    assert str(sr.Card.parse(text)) == code


@pytest.mark.parametrize("text", ["", "1C", "11H", "KX", "JKK", "10", "8C8D"])
def test_bad_card_text_raises_notation_error_quoting_it(text: str) -> None:
    with pytest.raises(sr.NotationError, match="not a card"):
        sr.Card.parse(text)


def test_parse_cards_accepts_spaces_and_commas() -> None:
    assert sr.parse_cards("8C,8D  JK,, 10s") == (
        sr.Card.of(sr.Rank.EIGHT, sr.Suit.CLUBS),
        sr.Card.of(sr.Rank.EIGHT, sr.Suit.DIAMONDS),
        sr.JOKER,
        sr.Card.of(sr.Rank.TEN, sr.Suit.SPADES),
    )


def test_symbol_form_for_display() -> None:
    assert sr.Card.parse("8C").symbol == "8♣"
    assert sr.Card.parse("10H").symbol == "10♥"


def test_a_card_needs_both_rank_and_suit_or_neither() -> None:
    with pytest.raises(sr.NotationError):
        sr.Card(sr.Rank.ACE, None)


@given(st.sampled_from(make_pack(1, 1)))
def test_each_card_has_one_instance_whatever_builds_it(card: sr.Card) -> None:
    # cards compare by identity, so every way of making or copying one must give the same
    assert sr.Card(card.rank, card.suit) is card
    assert attrs.evolve(card) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert sr.Card.parse(card.code) is card
    assert hash(sr.Card(card.rank, card.suit)) == hash(card)


def test_cards_of_different_rank_or_suit_differ() -> None:
    cards = make_pack(1, 1)
    assert len(set(cards)) == 53
    assert sr.Card.parse("8C") != sr.Card.parse("8D")
    assert sr.Card.parse("8C") != "8C"


@given(st.sampled_from(make_pack(1, 1)))
def test_card_code_round_trips(card: sr.Card) -> None:
    assert sr.Card.parse(str(card)) == card
    assert sr.Card.parse(str(card).lower()) is card


@pytest.mark.parametrize(
    ("variant_id", "players", "cards", "jokers"),
    [
        ("shanghai", 2, 106, 2),
        ("shanghai", 4, 106, 2),
        ("shanghai", 5, 159, 3),
        ("shanghai", 6, 159, 3),
        ("shanghai-wiki", 4, 108, 4),
        ("shanghai-wiki", 5, 162, 6),
        ("shanghai-camping", 3, 105, 1),
        ("shanghai-camping", 4, 105, 1),
        ("shanghai-camping", 5, 158, 2),
        ("shanghai-camping", 8, 158, 2),
        ("rummy51", 2, 108, 4),
        ("rummy51", 6, 108, 4),
    ],
)
def test_pack_size_per_preset_and_player_count(
    variant_id: str, players: int, cards: int, jokers: int
) -> None:
    pack = sr.get_variant(variant_id).pack_size(players)
    built = make_pack(pack.decks, pack.jokers)
    assert len(built) == pack.cards == cards
    assert built.count(sr.JOKER) == jokers


@pytest.mark.parametrize(
    ("variant_id", "players"), [("shanghai", 7), ("shanghai-camping", 2), ("rummy51", 1)]
)
def test_player_count_outside_the_preset_is_refused(variant_id: str, players: int) -> None:
    with pytest.raises(sr.VariantError, match="players"):
        sr.get_variant(variant_id).pack_size(players)
