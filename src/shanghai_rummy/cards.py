"""Cards, their text notation, and packs.

A card is a natural card (a :class:`Rank` and a :class:`Suit`) or the joker. Cards are values:
two cards of the same rank and suit from different decks are equal and interchangeable.

>>> from shanghai_rummy import Card, parse_cards, JOKER
>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("TH")), Card.parse("8C").symbol
('10H', '8♣')
>>> parse_cards("8C, 8d *") == (Card.parse("8C"), Card.parse("8D"), JOKER)
True
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import cast

import attrs

from .errors import NotationError, RummyError

__all__ = ["JOKER", "Card", "Rank", "Suit", "make_pack", "parse_cards", "sort_cards"]


class Suit(enum.Enum):
    """The four suits; the value is the one-letter code used in card notation."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # Members are singletons compared by identity, so an identity hash agrees with equality;
    # it is computed in C, where Enum's own hashes the member's name in Python.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The suit's symbol, such as ``"♣"``."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """Ranks 2 to ace. The value orders them with the ace high (14); whether an ace may also
    sit below the 2 in a run is a variant setting (:class:`~shanghai_rummy.Aces`)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        """The rank's code in card notation: ``"2"`` .. ``"10"``, ``"J"``, ``"Q"``, ``"K"``,
        ``"A"``."""
        return _RANK_CODES[self]


_RANK_CODES = {rank: str(rank.value) for rank in Rank if rank.value <= 10}
_RANK_CODES.update({Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"})


_SHARED: dict[tuple[Rank | None, Suit | None], Card] = {}


@attrs.frozen(eq=False, repr=False)
class Card:
    """A natural card or the joker (both fields ``None``); use :data:`JOKER` for the joker.

    There is one instance of each card: :meth:`parse`, :meth:`of` and ``Card(rank, suit)``
    all return it, so cards compare and hash by identity, in C, which every dictionary and
    set of cards in the engine relies on for speed. Copies and pickles keep the rule.

    >>> Card.of(Rank.ACE, Suit.SPADES) == Card.parse("as")
    True
    >>> Card.parse("JK").is_joker
    True
    """

    rank: Rank | None
    suit: Suit | None

    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Card:
        try:
            shared = _SHARED.get((rank, suit))
        except TypeError:  # an unhashable rank or suit
            shared = None
        if shared is not None:
            return shared
        if _SHARED:  # every card is made: only a wrong rank or suit gets here
            raise _not_a_rank_and_suit(rank, suit)
        return super().__new__(cls)

    def __reduce__(self) -> tuple[type[Card], tuple[Rank | None, Suit | None]]:
        return (Card, (self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.rank is None

    @property
    def code(self) -> str:
        """The card's code: ``"8C"``, ``"10H"``, ``"AS"``, ``"JK"``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.code + self.suit.value

    @property
    def symbol(self) -> str:
        """The card for display: ``"8♣"``, ``"10♥"``, ``"🃏"`` for the joker."""
        if self.rank is None or self.suit is None:
            return "🃏"
        return self.rank.code + self.suit.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The natural card of that rank and suit.

        >>> Card.of(Rank.QUEEN, Suit.HEARTS)
        Card.parse('QH')
        """
        try:
            return _NATURALS[rank, suit]
        except (KeyError, TypeError):
            raise _not_a_rank_and_suit(rank, suit) from None

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card code, in any case: ``"8C"``, ``"10H"`` or ``"TH"``, ``"AS"``,
        ``"JK"`` or ``"*"`` for the joker.

        >>> Card.parse("qd")
        Card.parse('QD')
        >>> Card.parse("1X")
        Traceback (most recent call last):
        ...
        shanghai_rummy.errors.NotationError: not a card: '1X' (expected a rank 2-10, ...)
        """
        if not isinstance(text, str):
            raise NotationError(f"not a card code: {text!r} (Card.parse takes text such as '8C')")
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"not a card: {text!r} (expected a rank 2-10, T, J, Q, K or A followed by "
                "a suit C, D, H or S, or JK / * for the joker)"
            )
        return card


def _not_a_rank_and_suit(rank: object, suit: object) -> NotationError:
    if (rank is None) != (suit is None):
        return NotationError(
            f"a card needs both a rank and a suit, or neither (the joker): "
            f"got rank={rank!r}, suit={suit!r}"
        )
    return NotationError(
        f"not a card: rank={rank!r}, suit={suit!r} (a card takes a Rank and a Suit; "
        "Card.parse reads a code such as '8C')"
    )


JOKER = Card(None, None)
"""The joker. Every joker is equal to every other."""

_NATURALS = {(rank, suit): Card(rank, suit) for suit in Suit for rank in Rank}
for _key, _card in _NATURALS.items():
    _SHARED[_key] = _card
_SHARED[None, None] = JOKER
_BY_CODE: dict[str, Card] = {card.code: card for card in _NATURALS.values()}
_BY_CODE.update({"JK": JOKER, "*": JOKER, "JOKER": JOKER})
_BY_CODE.update({"T" + suit.value: _NATURALS[Rank.TEN, suit] for suit in Suit})
_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse card codes separated by spaces and/or commas.

    >>> parse_cards("8C 8D JK")
    (Card.parse('8C'), Card.parse('8D'), Card.parse('JK'))
    >>> parse_cards("")
    ()
    """
    if not isinstance(text, str):
        raise NotationError(f"not card codes: {text!r} (parse_cards takes text such as '8C 8D')")
    return tuple(Card.parse(word) for word in _SEPARATORS.split(text.strip()) if word)


def _sort_key(card: Card) -> tuple[int, int]:
    if card.rank is None or card.suit is None:
        return (len(Suit), 0)
    return (_SUIT_ORDER[card.suit], card.rank.value)


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}


_SORT_INDEX: dict[Card, int] = {
    card: index for index, card in enumerate(sorted((*_NATURALS.values(), JOKER), key=_sort_key))
}


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted for display: by suit (clubs, diamonds, hearts, spades), then rank; jokers last.

    >>> " ".join(map(str, sort_cards(parse_cards("JK AS 2C 10C"))))
    '2C 10C AS JK'
    """
    try:
        return tuple(sorted(cards, key=_SORT_INDEX.__getitem__))
    except (KeyError, TypeError):
        raise cards_error(cards) from None


def card_error(item: object) -> NotationError:
    """The error for ``item``, found where a :class:`Card` belongs."""
    if isinstance(item, str):
        return NotationError(
            f"not a card: the text {item!r} (cards are Card objects: Card.parse or parse_cards "
            "reads card codes)"
        )
    return NotationError(f"not a card: {item!r} (of type {type(item).__name__})")


def checked_cards(cards: Iterable[object]) -> tuple[Card, ...]:
    """``cards`` as a tuple, or :func:`cards_error` when it is text, not a collection, or
    holds something that is not a :class:`Card`. For inputs that are not on a hot path.

    >>> checked_cards(["8C"])
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.NotationError: not a card: the text '8C' (cards are Card objects: ...
    """
    if isinstance(cards, str):
        raise cards_error(cards)
    try:
        items = tuple(cards)
    except TypeError:  # not a collection after all
        raise cards_error(cards) from None
    for item in items:
        if type(item) is not Card:
            raise card_error(item)
    return cast("tuple[Card, ...]", items)


def refuse_text(cards: object) -> None:
    """:func:`cards_error` if ``cards`` is text (whose characters would be read as items)."""
    if isinstance(cards, str):
        raise cards_error(cards)


def cards_error(cards: object) -> NotationError:
    """The error for ``cards``, given where cards belong and found to hold something else:
    the first item that is not a :class:`Card`, or ``cards`` itself when it is text or not
    a collection. For the paths that already failed (a check up front would cost every call).

    >>> print(cards_error([Card.parse("8C"), 8]))
    not a card: 8 (of type int)
    """
    if isinstance(cards, str):
        return NotationError(
            f"not cards: the text {cards!r} (cards are Card objects: parse_cards reads card codes)"
        )
    try:
        items = iter(cast("Iterable[object]", cards))  # not iterable: TypeError, as wanted
    except TypeError:
        return NotationError(f"not cards: {cards!r} (of type {type(cards).__name__})")
    for item in items:
        if type(item) is not Card:
            return card_error(item)
    return NotationError("not cards: something given for them is not a Card")


def make_pack(decks: int, jokers: int) -> tuple[Card, ...]:
    """The cards of ``decks`` standard 52-card decks plus ``jokers`` jokers, in a fixed order.

    >>> len(make_pack(2, 2)), make_pack(2, 2).count(JOKER)
    (106, 2)
    """
    for name, count, least in (("decks", decks, 1), ("jokers", jokers, 0)):
        if type(count) is not int or count < least:
            raise RummyError(f"make_pack: {name} must be an integer >= {least}, got {count!r}")
    naturals = tuple(_NATURALS.values())
    return naturals * decks + (JOKER,) * jokers
