"""The text notation for actions: reading, writing, round trips and refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shanghai_rummy as sr

C = sr.Card.parse
cards = sr.parse_cards

ALL_CARDS = [sr.JOKER, *(sr.Card.of(rank, suit) for suit in sr.Suit for rank in sr.Rank)]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", sr.Draw(2, sr.Source.STOCK)),
        ("DRAW STOCK", sr.Draw(2, sr.Source.STOCK)),
        ("take", sr.Draw(2, sr.Source.DISCARD)),
        ("draw discard", sr.Draw(2, sr.Source.DISCARD)),
        ("draw upcard", sr.Draw(2, sr.Source.DISCARD)),
        ("draw cut card", sr.Draw(2, sr.Source.CUT_CARD)),
        ("take cut", sr.Draw(2, sr.Source.CUT_CARD)),
        ("buy", sr.Buy(2)),
        ("pass", sr.PassBuy(2)),
        ("meld 8C 8D JK", sr.Meld(2, [cards("8C 8D JK")])),
        ("meld 8c 8d * / 4S 5S 6S 7S", sr.Meld(2, [cards("8C 8D JK"), cards("4S 5S 6S 7S")])),
        ("meld 8C 8D JK/TH JH QH KH", sr.Meld(2, [cards("8C 8D JK"), cards("10H JH QH KH")])),
        ("layoff 9C 3", sr.LayOff(2, C("9C"), 3)),
        ("layoff 9C #3 high", sr.LayOff(2, C("9C"), 3, "high")),
        ("lay off JK 12 low", sr.LayOff(2, sr.JOKER, 12, "low")),
        ("lay-off 10s 1", sr.LayOff(2, C("10S"), 1)),
        ("swap 8H 1", sr.SwapJoker(2, C("8H"), 1)),
        ("discard KH", sr.Discard(2, C("KH"))),
        ("  discard   kh  ", sr.Discard(2, C("KH"))),
        ("out", sr.GoOut(2)),
        ("out discard KH", sr.GoOut(2, discard=C("KH"))),
        (
            "go out meld 8C 8D 8H / 4S 5S 6S 7S layoff 9C 3, JK 2 low discard KH",
            sr.GoOut(
                2,
                [cards("8C 8D 8H"), cards("4S 5S 6S 7S")],
                [sr.PlannedLayOff(C("9C"), 3), sr.PlannedLayOff(sr.JOKER, 2, "low")],
                C("KH"),
            ),
        ),
        (
            "out layoff 9C 3 lay off 10C 3 high",
            sr.GoOut(
                2, lay_offs=[sr.PlannedLayOff(C("9C"), 3), sr.PlannedLayOff(C("10C"), 3, "high")]
            ),
        ),
        ("out discard 2C meld 3C 3D 3H", sr.GoOut(2, [cards("3C 3D 3H")], (), C("2C"))),
    ],
)
def test_parse_reads_every_kind_and_its_aliases(text: str, action: sr.Action) -> None:
    assert sr.parse_action(text, seat=2) == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (sr.Draw(0, sr.Source.STOCK), "draw"),
        (sr.Draw(0, sr.Source.DISCARD), "take"),
        (sr.Draw(0, sr.Source.CUT_CARD), "draw cut card"),
        (sr.Buy(0), "buy"),
        (sr.PassBuy(0), "pass"),
        (sr.Meld(0, [cards("JK 5H 6H 7H"), cards("8C 8D 8S")]), "meld JK 5H 6H 7H / 8C 8D 8S"),
        (sr.LayOff(0, C("10D"), 4), "layoff 10D 4"),
        (sr.LayOff(0, sr.JOKER, 4, "low"), "layoff JK 4 low"),
        (sr.SwapJoker(0, C("AS"), 2), "swap AS 2"),
        (sr.Discard(0, C("QC")), "discard QC"),
        (sr.GoOut(0), "out"),
        (
            sr.GoOut(0, [cards("8C 8D 8H")], [sr.PlannedLayOff(C("9C"), 3)], C("KH")),
            "out meld 8C 8D 8H layoff 9C 3 discard KH",
        ),
    ],
)
def test_format_writes_every_kind(action: sr.Action, text: str) -> None:
    assert sr.format_action(action) == text


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("", "expected a move"),
        ("   ", "expected a move"),
        ("fly", "unknown move 'fly'"),
        ("discard", "expected a card"),
        ("discard 11H", "not a card: '11H'"),
        ("discard KH QH", "unexpected 'QH'"),
        ("draw 8C", "unexpected '8C'"),
        ("buy now", "unexpected 'now'"),
        ("take KH", "unexpected 'KH'"),
        ("meld", "a group with no cards"),
        ("meld 8C 8D /", "a group with no cards"),
        ("meld 8C / / 9C", "an empty group"),
        ("meld 8C, 8D", "not a card: ','"),
        ("layoff 9C", "expected a meld id"),
        ("layoff 9C x", "expected a meld id (a number"),
        ("layoff 9C 3 middle", "unexpected 'middle'"),
        ("swap 8H", "expected a meld id"),
        ("go", "expected 'go out'"),
        ("out discard KH discard QH", "unexpected 'discard'"),
        ("out layoff 9C 3 9D 4", "expected ',' between lay-offs"),
        ("out meld", "a group with no cards"),
        ("out sing", "unexpected 'sing'"),
    ],
)
def test_bad_text_raises_notation_error_quoting_it(text: str, quoted: str) -> None:
    with pytest.raises(sr.NotationError) as raised:
        sr.parse_action(text, seat=0)
    message = str(raised.value)
    assert quoted in message
    assert repr(text.strip()) in message


@pytest.mark.parametrize("seat", [-1, True, "0", 1.0])
def test_parse_refuses_a_bad_seat(seat: object) -> None:
    with pytest.raises(sr.NotationError, match="seat must be"):
        sr.parse_action("draw", seat)  # type: ignore[arg-type]


def test_format_refuses_what_it_cannot_write() -> None:
    with pytest.raises(sr.NotationError, match="at least one group"):
        sr.format_action(sr.Meld(0, []))
    with pytest.raises(sr.NotationError, match="every group at least one card"):
        sr.format_action(sr.GoOut(0, [cards("8C 8D 8H"), ()]))
    with pytest.raises(sr.NotationError, match="not an action"):
        sr.format_action("discard KH")  # type: ignore[arg-type]


def test_notation_error_is_a_rummy_error() -> None:
    with pytest.raises(sr.RummyError):
        sr.parse_action("shuffle", 0)


# -- round trips -----------------------------------------------------------------------------

seats = st.integers(min_value=0, max_value=7)
card = st.sampled_from(ALL_CARDS)
group = st.lists(card, min_size=1, max_size=6).map(tuple)
groups = st.lists(group, min_size=1, max_size=4).map(tuple)
meld_ids = st.integers(min_value=-5, max_value=10_000)
ends = st.sampled_from([None, "low", "high"])
planned = st.builds(sr.PlannedLayOff, card, meld_ids, ends)

actions = st.one_of(
    st.builds(sr.Draw, seats, st.sampled_from(list(sr.Source))),
    st.builds(sr.Buy, seats),
    st.builds(sr.PassBuy, seats),
    st.builds(sr.Meld, seats, groups),
    st.builds(sr.LayOff, seats, card, meld_ids, ends),
    st.builds(sr.SwapJoker, seats, card, meld_ids),
    st.builds(sr.Discard, seats, card),
    st.builds(
        sr.GoOut,
        seats,
        st.one_of(st.just(()), groups),
        st.lists(planned, max_size=4),
        st.one_of(st.none(), card),
    ),
)


@given(actions)
def test_parse_of_format_is_the_action(action: sr.Action) -> None:
    assert sr.parse_action(sr.format_action(action), action.seat) == action


@given(actions)
def test_format_is_stable_through_parsing(action: sr.Action) -> None:
    text = sr.format_action(action)
    assert sr.format_action(sr.parse_action(text.upper(), action.seat)) == text


@pytest.mark.parametrize("preset", ["shanghai", "shanghai-camping", "rummy51"])
def test_every_legal_action_of_real_play_round_trips(preset: str) -> None:
    variant = sr.get_variant(preset)
    state = sr.new_game(variant, players=3, seed=11)
    rng = random.Random(11)
    bots = [sr.GreedyBot(variant) for _ in range(3)]
    kinds: set[type] = set()
    for _ in range(150):
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        if state.phase is sr.Phase.GAME_OVER:
            break
        seat = state.to_act
        assert seat is not None
        for action in sr.legal_actions(state):
            kinds.add(type(action))
            assert sr.parse_action(sr.format_action(action), seat) == action
        seen = sr.view(state, seat)
        choice = bots[seat].choose(seen) if rng.random() < 0.8 else rng.choice(seen.legal_actions)
        state = sr.apply(state, choice)
    assert {sr.Draw, sr.Discard, sr.Meld} <= kinds
