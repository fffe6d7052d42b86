"""Small helpers shared by the scenario tests."""

from __future__ import annotations

from collections import Counter

import attrs

import shanghai_rummy as sr
from shanghai_rummy.cards import make_pack

C = sr.Card.parse
cards = sr.parse_cards


def all_cards(state: sr.GameState) -> Counter[sr.Card]:
    """Every card of the game: hands, stock, discard pile and table."""
    counted: Counter[sr.Card] = Counter(state.stock)
    counted.update(state.discard_pile)
    for hand in state.hands:
        counted.update(hand)
    for table_meld in state.table:
        counted.update(table_meld.cards)
    return counted


def pack_of(state: sr.GameState) -> Counter[sr.Card]:
    pack = state.variant.pack_size(state.num_players)
    return Counter(make_pack(pack.decks, pack.jokers))


def short_stock(state: sr.GameState, keep: int) -> sr.GameState:
    """The same deal with only ``keep`` cards left in the stock; the rest moved, face up,
    beneath the discard pile (cards are conserved)."""
    return attrs.evolve(
        state,
        stock=state.stock[:keep],
        discard_pile=state.stock[keep:] + state.discard_pile,
    )


def with_seat(state: sr.GameState, seat: int, **changes: object) -> sr.GameState:
    """The state with one seat's per-deal facts changed (down, buys, turns)."""
    seats = list(state.seats)
    seats[seat] = attrs.evolve(seats[seat], **changes)
    return attrs.evolve(state, seats=tuple(seats))


def filler(n: int, avoid: str = "") -> tuple[sr.Card, ...]:
    """``n`` low, unrelated cards for padding hands."""
    pool = cards("3C 5D 7S 9C JD KS 4H 6C 8D 10S QH 2D 3S 5H 7C 9D")
    avoided = set(cards(avoid))
    return tuple(card for card in pool if card not in avoided)[:n]


def stacked(
    variant: sr.Variant,
    given: dict[int, tuple[sr.Card, ...]],
    *,
    players: int = 4,
    upcard: sr.Card | None = None,
    stock_top: tuple[sr.Card, ...] = (),
    size: int = 11,
    **options: object,
) -> sr.GameState:
    """A stacked deal: the seats in ``given`` hold those cards; every other seat gets ``size``
    cards that remain in the pack (a fixed spread of ranks and suits, never a joker)."""
    remaining = pack_of_variant(variant, players)
    for card in [*(c for hand in given.values() for c in hand), *stock_top]:
        remaining[card] -= 1
    if upcard is not None:
        remaining[upcard] -= 1
    order = [c for c in _SPREAD if remaining[c] > 0]
    hands = []
    for seat in range(players):
        if seat in given:
            hands.append(given[seat])
            continue
        hand = []
        for card in order:
            if len(hand) == size:
                break
            if remaining[card] > 0 and card not in hand:
                hand.append(card)
                remaining[card] -= 1
        hands.append(tuple(hand))
    return sr.deal_from(variant, hands=hands, upcard=upcard, stock_top=stock_top, **options)  # type: ignore[arg-type]


def pack_of_variant(variant: sr.Variant, players: int) -> Counter[sr.Card]:
    pack = variant.pack_size(players)
    return Counter(make_pack(pack.decks, pack.jokers))


_SPREAD = tuple(
    sr.Card.of(rank, suit)
    for step in range(13)
    for suit_index, suit in enumerate(sr.Suit)
    for rank in [tuple(sr.Rank)[(step * 5 + suit_index * 3) % 13]]
)
