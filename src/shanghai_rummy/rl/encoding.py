"""A fixed integer action space per variant and seat count: :class:`ActionEncoding`.

Every move :func:`~shanghai_rummy.legal_actions` can list has one index, the same in every
state of a game: ``encode(action)``; ``decode(index, state)`` gives the listed action back;
``action_mask(state)`` is a boolean array, True exactly at the encoded legal actions.

The layout, in index order (``M`` is the highest meld id a deal can reach: the pack's cards
over the smallest group, since ids are never reused within a deal; cards are numbered
clubs 2..A, diamonds, hearts, spades, then the joker: 53 in all):

========================  ===============  ==============================================
block                     size             one index per
========================  ===============  ==============================================
draw                      3                stock, upcard, cut card (:class:`Draw`)
buy                       2                buy, pass (:class:`Buy`, :class:`PassBuy`)
discard                   53               card (:class:`Discard`)
lay off                   53 x M x 3       card, meld id, end: none / low / high
swap                      53 x M           card given, meld id (:class:`SwapJoker`)
set                       by the variant   rank, copies of each suit, jokers
run                       by the variant   suit, first position, length, joker positions
========================  ===============  ==============================================

A :class:`Meld` is listed one group at a time, so each group is one index: a set by its
rank, how many cards of each suit it holds and its jokers; a run by its suit, the position
of its first card (1 is an ace below the 2, 14 an ace above the king), its length and which
of its places are jokers. The set and run blocks hold every group the variant's rules
allow (sizes, jokers against naturals, the pack's copies and jokers), so every listed group
has its index.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy.rl import ActionEncoding
>>> encoding = ActionEncoding(sr.get_variant("shanghai"), players=4)
>>> encoding.num_actions
17352
>>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
>>> [encoding.label(index) for index in encoding.legal_indices(state)]
['draw stock', 'draw upcard']
>>> encoding.decode(encoding.encode(sr.legal_actions(state)[1]), state)
Draw(seat=1, source=<Source.DISCARD: 'discard'>)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from ..actions import Action, Buy, Discard, Draw, LayOff, Meld, PassBuy, Source, SwapJoker
from ..cards import JOKER, Card, Rank, Suit
from ..engine import legal_actions
from ..errors import IllegalMoveError, RummyError
from ..melds import MeldKind, check_group, named_kind, rank_at
from ..state import GameState
from ..variants import Aces, Variant

__all__ = ["CARDS", "ActionEncoding", "card_index"]

CARDS: tuple[Card, ...] = (
    *(Card.of(rank, suit) for suit in Suit for rank in Rank),
    JOKER,
)
"""The 53 kinds of card in index order: clubs 2..A, diamonds, hearts, spades, the joker."""

_CARD_INDEX = {card: index for index, card in enumerate(CARDS)}
_SUITS = tuple(Suit)
_ENDS: tuple[str | None, ...] = (None, "low", "high")
_DRAW_SOURCES = (Source.STOCK, Source.DISCARD, Source.CUT_CARD)


def card_index(card: Card) -> int:
    """The card's number, 0..52 (see :data:`CARDS`).

    >>> from shanghai_rummy import Card
    >>> card_index(Card.parse("2C")), card_index(Card.parse("AS")), card_index(Card.parse("JK"))
    (0, 51, 52)
    """
    return _CARD_INDEX[card]


SetKey = tuple[Rank, tuple[int, ...], int]  # rank, copies per suit, jokers
RunKey = tuple[Suit, int, int, tuple[int, ...]]  # suit, first position, length, joker places


def _positions(aces: Aces, longest: int) -> Iterator[tuple[int, int]]:
    """Every (first position, length) of a run under the ace rule, up to ``longest``."""
    low = 1 if aces in (Aces.LOW, Aces.HIGH_OR_LOW, Aces.BOTH_ENDS) else 2
    high = 13 if aces is Aces.LOW else 14
    for length in range(1, longest + 1):
        for start in range(low if aces is not Aces.WRAP else 2, 15):
            end = start + length - 1
            if aces is Aces.WRAP:
                if length <= 13:
                    yield start, length
            elif end <= high and (aces is not Aces.HIGH_OR_LOW or length <= 13):
                yield start, length


class ActionEncoding:
    """The fixed action space of ``variant`` with ``players`` seats (see the module's text).

    ``num_actions``: its size; ``encode``/``decode``; ``action_mask``; ``label`` names each
    index (``"discard 8C"``, ``"lay off 8C on #3 at low end"``, ``"run 5H 6H JK 8H"``).
    """

    def __init__(self, variant: Variant, players: int) -> None:
        pack = variant.largest_pack(players)  # one layout for every deal's pack
        self.variant = variant
        self.players = players
        melds = variant.melds
        smallest = min(melds.set_min, melds.run_min)
        self.max_meld_id = pack.cards // smallest
        cards = len(CARDS)
        self._discard = 5
        self._lay_off = self._discard + cards
        self._swap = self._lay_off + cards * self.max_meld_id * len(_ENDS)
        self._sets_start = self._swap + cards * self.max_meld_id
        self._set_keys = list(self._sets(variant, pack.decks, pack.jokers))
        self._runs_start = self._sets_start + len(self._set_keys)
        self._run_keys = list(self._runs(variant, pack.decks, pack.jokers))
        self.num_actions = self._runs_start + len(self._run_keys)
        self._set_index = {key: i + self._sets_start for i, key in enumerate(self._set_keys)}
        self._run_index = {key: i + self._runs_start for i, key in enumerate(self._run_keys)}

    def __repr__(self) -> str:
        return (
            f"ActionEncoding({self.variant.id!r}, players={self.players}, "
            f"num_actions={self.num_actions})"
        )

    # -- the blocks of groups ---------------------------------------------------------------

    @staticmethod
    def _sets(variant: Variant, decks: int, jokers: int) -> Iterator[SetKey]:
        melds = variant.melds
        largest = melds.largest_set or decks * 4 + jokers
        copies = 1 if melds.set_distinct_suits else decks
        at_most_naturals = variant.jokers.at_most_naturals
        for rank in Rank:
            for counts in itertools.product(range(copies + 1), repeat=4):
                naturals = sum(counts)
                if naturals == 0:
                    continue
                for joker_count in range(jokers + 1):
                    size = naturals + joker_count
                    if at_most_naturals and joker_count > naturals:
                        break
                    if melds.set_min <= size <= largest:
                        yield rank, counts, joker_count

    @staticmethod
    def _runs(variant: Variant, decks: int, jokers: int) -> Iterator[RunKey]:
        melds = variant.melds
        at_most_naturals = variant.jokers.at_most_naturals
        for start, length in _positions(melds.aces, melds.longest_run):
            if length < melds.run_min:
                continue
            for joker_count in range(min(jokers, length - 1) + 1):
                if at_most_naturals and joker_count > length - joker_count:
                    break
                for places in itertools.combinations(range(length), joker_count):
                    for suit in _SUITS:
                        yield suit, start, length, places

    # -- encode, decode ---------------------------------------------------------------------

    def encode(self, action: Action) -> int:
        """The index of ``action`` (any move :func:`~shanghai_rummy.legal_actions` lists);
        :class:`~shanghai_rummy.RummyError` for one with no index (a :class:`GoOut`, a
        meld of several groups, a meld id past ``max_meld_id``).

        >>> import shanghai_rummy as sr
        >>> from shanghai_rummy.rl import ActionEncoding
        >>> encoding = ActionEncoding(sr.get_variant("rummy51"), players=2)
        >>> encoding.label(encoding.encode(sr.Meld(0, [sr.parse_cards("QS KS AS")])))
        'run QS KS AS'
        """
        kind = type(action)
        if kind is Draw:
            assert isinstance(action, Draw)
            return _DRAW_SOURCES.index(action.source)
        if kind is Buy:
            return 3
        if kind is PassBuy:
            return 4
        if kind is Discard:
            assert isinstance(action, Discard)
            return self._discard + card_index(action.card)
        if kind is LayOff:
            assert isinstance(action, LayOff)
            meld = self._meld_slot(action.meld_id)
            end = _ENDS.index(action.end)
            return self._lay_off + (card_index(action.card) * self.max_meld_id + meld) * 3 + end
        if kind is SwapJoker:
            assert isinstance(action, SwapJoker)
            meld = self._meld_slot(action.meld_id)
            return self._swap + card_index(action.card) * self.max_meld_id + meld
        if kind is Meld:
            assert isinstance(action, Meld)
            if len(action.groups) != 1:
                raise RummyError("encode: a Meld is encoded one group at a time")
            return self._group_index(action.groups[0], action.kinds[0] if action.kinds else None)
        raise RummyError(f"encode: {action!r} has no index (a GoOut is played move by move)")

    def _meld_slot(self, meld_id: int) -> int:
        if not 1 <= meld_id <= self.max_meld_id:
            raise RummyError(f"encode: meld id {meld_id} is past {self.max_meld_id}")
        return meld_id - 1

    def _group_index(self, group: Sequence[Card], kind: MeldKind | None = None) -> int:
        try:
            shape = check_group(tuple(group), self.variant, kind=kind)
        except RummyError as error:
            raise RummyError(f"encode: not a group: {error}") from None
        jokers = tuple(place for place, card in enumerate(shape.cards) if card.is_joker)
        if shape.kind is MeldKind.SET:
            assert shape.rank is not None
            counts = tuple(sum(card.suit is suit for card in shape.cards) for suit in _SUITS)
            index = self._set_index.get((shape.rank, counts, len(jokers)))
        else:
            assert shape.suit is not None and shape.start is not None
            index = self._run_index.get((shape.suit, shape.start, len(shape.cards), jokers))
        if index is None:
            raise RummyError(f"encode: the group {shape} has no index under {self.variant.id}")
        return index

    def action_at(self, index: int, seat: int) -> Action:
        """The move of ``seat`` that ``index`` stands for, as the layout builds it (a set's
        cards in suit order, jokers last)."""
        if not 0 <= index < self.num_actions:
            raise RummyError(f"action index {index!r} is not in 0..{self.num_actions - 1}")
        if index < 3:
            return Draw(seat, _DRAW_SOURCES[index])
        if index == 3:
            return Buy(seat)
        if index == 4:
            return PassBuy(seat)
        if index < self._lay_off:
            return Discard(seat, CARDS[index - self._discard])
        if index < self._swap:
            offset = index - self._lay_off
            card, rest = divmod(offset, self.max_meld_id * 3)
            meld, end = divmod(rest, 3)
            return LayOff(seat, CARDS[card], meld + 1, _ENDS[end])  # type: ignore[arg-type]
        if index < self._sets_start:
            card, meld = divmod(index - self._swap, self.max_meld_id)
            return SwapJoker(seat, CARDS[card], meld + 1)
        cards = self._group_cards(index)
        if index >= self._runs_start and sum(not card.is_joker for card in cards) == 1:
            # a run of one natural card and jokers that also reads as a set names its kind
            kind = named_kind(check_group(cards, self.variant, kind=MeldKind.RUN), self.variant)
            if kind is not None:
                return Meld(seat, (cards,), (kind,))
        return Meld(seat, (cards,))

    def _group_cards(self, index: int) -> tuple[Card, ...]:
        if index < self._runs_start:
            rank, counts, jokers = self._set_keys[index - self._sets_start]
            naturals = [
                Card.of(rank, suit)
                for suit, count in zip(_SUITS, counts, strict=True)
                for _ in range(count)
            ]
            return (*naturals, *(JOKER,) * jokers)
        suit, start, length, places = self._run_keys[index - self._runs_start]
        return tuple(
            JOKER if place in places else Card.of(rank_at(start + place), suit)
            for place in range(length)
        )

    def decode(self, index: int, state: GameState) -> Action:
        """The move of the seat to act that ``index`` stands for: the listed action itself
        when it is legal (so ``decode(encode(a), state) == a``); else
        :class:`~shanghai_rummy.IllegalMoveError` naming it."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise RummyError(f"action index must be an integer, got {index!r}")
        index = int(index)
        listed = self._listed(state)
        action = listed.get(index)
        if action is None:
            seat = state.to_act
            what = self.label(index) if 0 <= index < self.num_actions else str(index)
            raise IllegalMoveError(f"action {index} ({what}) is not legal for seat {seat} now")
        return action

    def _listed(self, state: GameState) -> dict[int, Action]:
        cached = self._last
        if cached is not None and cached[0] is state:
            return cached[1]
        listed = {self.encode(action): action for action in legal_actions(state)}
        self._last = (state, listed)
        return listed

    _last: tuple[GameState, dict[int, Action]] | None = None

    def legal_indices(self, state: GameState) -> list[int]:
        """The indices of the legal actions, in the order they are listed."""
        return list(self._listed(state))

    def action_mask(self, state: GameState) -> npt.NDArray[np.int8]:
        """1 at the index of every legal action of the seat to act, else 0 (``num_actions``
        entries, int8, as PettingZoo's and Gymnasium's masks are)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        indices = self.legal_indices(state)
        if indices:
            mask[indices] = 1
        return mask

    def label(self, index: int) -> str:
        """What ``index`` stands for, in words."""
        if not 0 <= index < self.num_actions:
            raise RummyError(f"action index {index!r} is not in 0..{self.num_actions - 1}")
        if index < 3:
            return f"draw {('stock', 'upcard', 'cut card')[index]}"
        if index < 5:
            return ("buy", "pass")[index - 3]
        action = self.action_at(index, 0)
        if isinstance(action, Discard):
            return f"discard {action.card}"
        if isinstance(action, LayOff):
            end = "" if action.end is None else f" at {action.end} end"
            return f"lay off {action.card} on #{action.meld_id}{end}"
        if isinstance(action, SwapJoker):
            return f"swap {action.card} for the joker of #{action.meld_id}"
        assert isinstance(action, Meld)
        kind = "set" if index < self._runs_start else "run"
        return f"{kind} {' '.join(map(str, action.groups[0]))}"
