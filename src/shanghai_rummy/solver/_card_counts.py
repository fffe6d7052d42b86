"""The cards as the solver counts them: a hand's card counts in one encoding, 64 card slots
indexed ``suit * 16 + rank`` (suits in :class:`~shanghai_rummy.Suit` order, ranks 2..14),
held three ways: as a list (:func:`count_cards`, what the searches change as they go), as
the bytes of a tally (:func:`tally_of`: the 64 slots, then per rank, per suit and the
jokers, read by the quick refusals), and packed into one integer with guard bits
(:func:`packed_counts`, whether a group's cards are held in one subtraction); with the card
tables they share. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import JOKER, Card, Rank, Suit, card_error, cards_error
from ..errors import RummyError
from ..limits import MAX_DECKS
from ..melds import rank_at

SUITS: tuple[Suit, ...] = tuple(Suit)
SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
ACE = Rank.ACE.value
NO_LIMIT = 1 << 30
JOKER_CODE = 99  # after every natural card's index, as jokers sort last
CARD_AT: list[Card] = [JOKER] * 64
for _suit_index, _suit in enumerate(SUITS):
    for _rank in Rank:
        CARD_AT[_suit_index * 16 + _rank.value] = Card.of(_rank, _suit)
RANK_OF_POSITION = [rank_at(position).value for position in range(28)]
INDEX_OF: dict[Card, int] = {card: i for i, card in enumerate(CARD_AT) if card.rank is not None}


def count_cards(cards: Iterable[Card]) -> tuple[list[int], int]:
    counts = [0] * 64
    jokers = 0
    index_of = INDEX_OF
    try:
        for card in cards:
            index = index_of.get(card)
            if index is not None:
                counts[index] += 1
            elif card is JOKER:
                jokers += 1
            else:
                raise card_error(card)
    except TypeError:  # not a collection, or an unhashable item in it
        raise cards_error(cards) from None
    if jokers > MOST_JOKERS or max(counts) > MOST_COPIES or sum(counts) + jokers > MOST_CARDS:
        raise too_many_copies()
    return counts, jokers


MOST_COPIES = 2 * MAX_DECKS
"""The most copies of a natural card the solver takes: twice the largest pack's."""
MOST_JOKERS = 63 - 4 * MOST_COPIES
"""The most jokers the solver takes (31): a set of every copy of a rank and every joker
then holds 63 cards, the most a group's packed size holds; far more than
:data:`~shanghai_rummy.limits.MAX_JOKERS`, for bots that ask with jokers for cards to come."""
MOST_CARDS = 255
"""The most cards the solver takes (each count is packed in a byte)."""


def too_many_copies() -> RummyError:
    """The error for cards holding more copies of a card than the solver's packed counts
    hold (far more than any pack)."""
    return RummyError(
        f"more copies of a card than the solver takes: at most {MOST_COPIES} of a natural "
        f"card ({MAX_DECKS} in the largest pack, limits.MAX_DECKS) and {MOST_JOKERS} jokers, "
        f"{MOST_CARDS} cards in all"
    )


# A hand's counts, a byte each, in one integer: the copies of each card slot (suit * 16 +
# rank, as the searches count them), then of each rank, of each suit and the jokers; above
# them the number of cards, which no byte may exceed. Summing the cards' integers counts
# them all at once.
RANK_BYTE = 64  # + rank
SUIT_BYTE = 80  # + suit index
JOKER_BYTE = 84
_TALLY_BYTES = 85
_CARDS_SHIFT = 8 * _TALLY_BYTES
_TALLY: dict[Card, int] = {
    Card.of(rank, suit): (1 << _CARDS_SHIFT)
    | 1 << 8 * (suit_index * 16 + rank.value)
    | 1 << 8 * (RANK_BYTE + rank.value)
    | 1 << 8 * (SUIT_BYTE + suit_index)
    for suit_index, suit in enumerate(Suit)
    for rank in Rank
}
_TALLY[JOKER] = 1 << _CARDS_SHIFT | 1 << 8 * JOKER_BYTE
_HELD = int.from_bytes(b"\x7f" * 64, "little")  # added to the card slots' counts: bit 7 of
_HIGH_BITS = int.from_bytes(b"\x80" * 64, "little")  # each byte is set where a card is held
SUIT_BITS = (1 << 128) - 1  # one suit's 16 bytes


def tally_of(cards: Iterable[Card]) -> bytes:
    """The counts of ``cards`` (see ``_TALLY``), a byte each; a :func:`cards_error` for
    something that is not a card, a :class:`RummyError` for more cards, or more copies of
    one, than the largest pack the limits allow (each count must fit its byte)."""
    try:
        total = sum(map(_TALLY.__getitem__, cards))
    except (KeyError, TypeError):  # not a card, or not a collection
        raise cards_error(cards) from None
    if total >> _CARDS_SHIFT > MOST_CARDS:
        raise too_many_copies()
    tally = total.to_bytes(_CARDS_SHIFT // 8 + 1, "little")
    # every card slot's count is at most MOST_COPIES: nothing is left once those are deleted
    if tally[:64].translate(None, _FEW_ENOUGH) or tally[JOKER_BYTE] > MOST_JOKERS:
        raise too_many_copies()
    return tally


_FEW_ENOUGH = bytes(range(MOST_COPIES + 1))
"""The counts a card slot may hold (:data:`MOST_COPIES` or fewer)."""


def tally_without(tally: bytes, cards: Iterable[Card]) -> bytes:
    """The tally of the cards of ``tally`` less ``cards`` (all of them among those)."""
    total = int.from_bytes(tally, "little") - sum(map(_TALLY.__getitem__, cards))
    return total.to_bytes(len(tally), "little")


def held_bits(tally: bytes) -> int:
    """Bit 7 of each card slot's byte, set where ``tally`` holds that card."""
    return (int.from_bytes(tally[:64], "little") + _HELD) & _HIGH_BITS


def packed_counts(counts: list[int]) -> tuple[int, int]:
    """The guard bits and the counts packed into one integer, a byte a card slot whose top
    bit is a guard: taking packed needs (see ``Candidate.packed``) away from the counts
    clears the guard of exactly the slots they run short of, and never borrows from the next
    byte (a slot's count and needs stay below 128)."""
    guard = int.from_bytes(b"\x80" * len(counts), "little")
    return guard, int.from_bytes(bytes(counts), "little") | guard
