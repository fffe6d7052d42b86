"""Pictures of a game (issue 29): an SVG of a seat's view and of a whole state, shown by
Jupyter through ``_repr_svg_`` / ``_repr_html_``; a view's picture shows no hidden card."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

import shanghai_rummy as sr
from shanghai_rummy.pictures import state_svg, view_svg

SVG = "{http://www.w3.org/2000/svg}"


def _played(moves: int, variant_id: str = "shanghai", players: int = 4) -> sr.GameState:
    state = sr.new_game(sr.get_variant(variant_id), players=players, seed=7)
    bots = [sr.GreedyBot(state.variant) for _ in range(players)]
    for _ in range(moves):
        if state.to_act is None:
            break
        state = sr.apply(state, bots[state.to_act].choose(sr.view(state, state.to_act)))
    return state


def _cards_drawn(svg: str) -> Counter[str]:
    root = ET.fromstring(svg)
    drawn: Counter[str] = Counter()
    for group in root.iter(f"{SVG}g"):
        title = group.find(f"{SVG}title")
        if group.get("class") == "card" and title is not None:
            drawn[title.text or ""] += 1
    return drawn


@pytest.mark.parametrize(
    ("variant_id", "moves"), [("shanghai", 0), ("shanghai", 40), ("rummy51", 25)]
)
def test_a_views_picture_shows_its_hand_the_table_and_the_upcard_and_nothing_hidden(
    variant_id: str, moves: int
) -> None:
    state = _played(moves, variant_id)
    for seat in range(state.num_players):
        seen = sr.view(state, seat)
        visible = Counter(card.code for card in seen.hand)
        visible.update(card.code for meld in seen.table for card in meld.cards)
        if seen.upcard is not None:
            visible[seen.upcard.code] += 1
        svg = view_svg(seen)
        assert _cards_drawn(svg) == visible
        backs = sum(1 for element in ET.fromstring(svg).iter() if element.get("class") == "back")
        others = [size for other, size in enumerate(seen.hand_sizes) if other != seat]
        assert backs == sum(min(size, 3) for size in others)
        for other, size in enumerate(seen.hand_sizes):
            if other != seat:
                assert f"{size} card{'s' if size != 1 else ''}" in svg


def test_a_states_picture_shows_every_hand() -> None:
    state = _played(40)
    expected = Counter(card.code for seat in range(4) for card in state.hand(seat))
    expected.update(card.code for meld in state.table for card in meld.cards)
    if state.upcard is not None:
        expected[state.upcard.code] += 1
    assert _cards_drawn(state_svg(state)) == expected


def test_states_and_views_show_as_pictures_in_jupyter() -> None:
    state = _played(12)
    seen = sr.view(state, 2)
    assert state._repr_svg_() == state_svg(state)
    assert seen._repr_svg_() == view_svg(seen)
    for html, svg in (
        (state._repr_html_(), state_svg(state)),
        (seen._repr_html_(), view_svg(seen)),
    ):
        assert html.startswith("<div") and svg in html


def test_the_picture_escapes_text_and_names_the_deal() -> None:
    state = _played(0)
    svg = view_svg(sr.view(state, 0))
    title = ET.fromstring(svg).find(f"{SVG}title")
    assert title is not None and title.text == "shanghai · deal 1 of 10: 2 sets of 3: seat 0's view"
    assert "you" not in (title.text or "")
    assert "Your hand (seat 0)" in svg
