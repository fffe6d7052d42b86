"""Cards, their notation and packs (RULES.md §1-3: packs per preset and player count)."""

from __future__ import annotations

import copy
import pickle
import re

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


# --- something given where cards belong that is not one (DESIGN.md: precise errors) ----------

SHANGHAI = sr.get_variant("shanghai")
RUMMY51 = sr.get_variant("rummy51")
TWO_SETS = SHANGHAI.deal(1).requirement
EIGHTS = sr.make_table_meld(1, 0, sr.parse_cards("8C 8D 8H"), SHANGHAI)
TAKES_CARDS = {
    "solve": lambda cards: sr.solve(cards, TWO_SETS, SHANGHAI),
    "solve an opening": lambda cards: sr.solve(cards, RUMMY51.deal(1).requirement, RUMMY51),
    "arrangements": lambda cards: sr.arrangements(cards, TWO_SETS, SHANGHAI),
    "possible_groups": lambda cards: sr.possible_groups(cards, SHANGHAI),
    "check_group": lambda cards: sr.check_group(cards, SHANGHAI),
    "make_table_meld": lambda cards: sr.make_table_meld(1, 0, cards, SHANGHAI),
    "check_going_down": lambda cards: sr.check_going_down([cards], TWO_SETS, SHANGHAI),
    "canonical_groups": lambda cards: sr.canonical_groups([cards], SHANGHAI),
    "sort_cards": sr.sort_cards,
    "deal_from": lambda cards: sr.deal_from(SHANGHAI, hands=[cards, sr.parse_cards("9C")]),
}


@pytest.mark.parametrize("function", sorted(TAKES_CARDS))
@pytest.mark.parametrize(
    ("given", "named"),
    [
        (["8C", "8D", "8H"], "the text '8C'"),  # codes not parsed: the usual slip
        ("8C 8D 8H", "the text '8C 8D 8H'"),
        ([sr.Card.parse("8C"), 8], "8 (of type int)"),
        ([sr.Card.parse("8C"), None], "None (of type NoneType)"),
        ([sr.Card.parse("8C"), ["8D"]], "['8D'] (of type list)"),
        (None, "None (of type NoneType)"),
    ],
)
def test_what_is_not_a_card_is_refused_by_name_where_cards_belong(
    function: str, given: object, named: str
) -> None:
    # before, text was counted as jokers by the solver (a wrong answer, no error) and other
    # functions raised AttributeError, KeyError or TypeError from inside
    with pytest.raises(sr.NotationError, match=f"not (a card|cards): {re.escape(named)}"):
        TAKES_CARDS[function](given)


@pytest.mark.parametrize("function", [sr.lay_off_ends, sr.swap_positions])
def test_a_meld_question_about_card_text_is_refused(function: object) -> None:
    with pytest.raises(sr.NotationError, match="not a card: the text '8S'"):
        function(EIGHTS, "8S", SHANGHAI)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("rank", "suit"),
    [("8", "C"), (sr.Rank.EIGHT, "C"), (None, sr.Suit.CLUBS), ([8], sr.Suit.CLUBS)],
)
def test_a_card_takes_a_rank_and_a_suit(rank: object, suit: object) -> None:
    with pytest.raises(sr.NotationError):
        sr.Card(rank, suit)  # type: ignore[arg-type]
    if rank is not None:
        with pytest.raises(sr.NotationError, match="a card takes a Rank and a Suit"):
            sr.Card.of(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 8, ["8C"]])
def test_card_parsers_take_text(text: object) -> None:
    with pytest.raises(sr.NotationError, match="not a card code"):
        sr.Card.parse(text)  # type: ignore[arg-type]
    with pytest.raises(sr.NotationError, match="not card codes"):
        sr.parse_cards(text)  # type: ignore[arg-type]
    with pytest.raises(sr.NotationError, match="not a move"):
        sr.parse_action(text, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("decks", "jokers"), [("2", 0), (0, 2), (2, -1), (2.0, 0), (True, 0)])
def test_a_pack_takes_whole_numbers_of_decks_and_jokers(decks: object, jokers: object) -> None:
    with pytest.raises(sr.RummyError, match=r"make_pack: (decks|jokers) must be an integer"):
        make_pack(decks, jokers)  # type: ignore[arg-type]


def test_cards_given_once_through_and_holding_something_else_are_refused() -> None:
    # an iterator is used up by the time the error is built: the message cannot quote it
    with pytest.raises(sr.NotationError, match="something given for them is not a Card"):
        sr.sort_cards(iter([sr.Card.parse("8C"), ["8D"]]))


def test_a_stacked_deal_takes_hands_of_cards_and_a_card_for_upcard() -> None:
    with pytest.raises(sr.RummyError, match="hands must be a sequence of hands of cards"):
        sr.deal_from(SHANGHAI, hands=5)  # type: ignore[arg-type]
    with pytest.raises(sr.NotationError, match="not a card: the text '8S'"):
        sr.deal_from(SHANGHAI, hands=[(), ()], upcard="8S")  # type: ignore[arg-type]
    with pytest.raises(sr.NotationError, match="not a card: the text 'x'"):
        sr.deal_from(SHANGHAI, hands=[(), ()], stock_top=["x"])  # type: ignore[list-item]
