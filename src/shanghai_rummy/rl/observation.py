"""A seat's view as a fixed-shape array: :class:`Observation`.

Everything comes from the seat's :class:`~shanghai_rummy.PlayerView`, so two states the seat
cannot tell apart give equal observations. Seats are numbered from the observer: relative
seat 0 is the observer, 1 the seat on its left, and so on. Cards are counted in the 53
kinds of :data:`~shanghai_rummy.rl.CARDS`. Sizes are scaled to about 0..1.

The blocks, in order (``P`` seats, ``M`` meld ids, ``D`` deals; :attr:`Observation.layout`
gives each block's offset):

==================  ============  ==========================================================
block               size          what
==================  ============  ==========================================================
hand                53            the observer's cards, counted
known               (P-1) x 53    cards known to be in each other hand (upcards taken,
                                  cards bought, jokers swapped for, less what it showed since)
table_cards         53            every card on the table, counted
pile                53            the face-up discard pile, counted (dead cards too)
upcard              53            the live upcard, one-hot (zeros when none)
seats               P x 5         hand size / 24, down, buys left / 4, buys used / 4,
                                  total / 500
phase               5             draw, buy, play, deal over, game over (one-hot)
to_act              P             who decides now (one-hot; zeros between deals)
turn                P             whose turn it is (one-hot)
deal                D             the deal number (one-hot)
dealer              P             the dealer (one-hot)
requirement         13            the contract's set sizes and run sizes (6 each, size / 15,
                                  largest first), the opening's points / 100
stock               1             stock size / the pack's cards
melds               M x (P + 12)  per meld id: present, owner (one-hot), set, run, suit
                                  (one-hot, runs), rank / 14 (sets), first position / 14,
                                  length / 14, jokers / length, part of the going down this
                                  turn, then 1 spare
half_laid           1             the seat in turn has a going down half-laid
==================  ============  ==========================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..cards import JOKER, Card, Suit
from ..contracts import Contract, Opening
from ..events import (
    Bought,
    DealStarted,
    Discarded,
    Event,
    LaidOff,
    Melded,
    SwappedJoker,
    TookCutCard,
    TookUpcard,
)
from ..melds import MeldKind
from ..state import Phase
from ..variants import Variant
from ..views import PlayerView
from .encoding import CARDS, card_index

__all__ = ["KnownCards", "Observation", "known_cards"]

_PHASES = tuple(Phase)
_SUITS = tuple(Suit)
_CARD_KINDS = len(CARDS)


class KnownCards:
    """Per seat, the cards the deal's public events put in its hand and it has not shown
    since: upcards and cut cards taken, upcards bought, jokers swapped for (a card shown
    that was known counts it off; equal cards are one kind). Fed events one by one, so an
    environment keeps it up to date at the cost of the new events only."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.by_seat: list[Counter[Card]] = [Counter() for _ in range(players)]

    def add(self, event: Event) -> None:
        """Take one more event of the game into account (a new deal starts afresh)."""
        kind = type(event)
        known = self.by_seat
        if kind is DealStarted:
            self.by_seat = [Counter() for _ in range(self.players)]
        elif kind is TookUpcard or kind is TookCutCard or kind is Bought:
            assert isinstance(event, TookUpcard | TookCutCard | Bought)
            known[event.seat][event.card] += 1
        elif kind is SwappedJoker:
            assert isinstance(event, SwappedJoker)
            _show(known[event.seat], event.card)
            known[event.seat][JOKER] += 1
        elif kind is Discarded or kind is LaidOff:
            assert isinstance(event, Discarded | LaidOff)
            _show(known[event.seat], event.card)
        elif kind is Melded:
            assert isinstance(event, Melded)
            for meld in event.melds:
                for card in meld.cards:
                    _show(known[event.seat], card)


def known_cards(view: PlayerView) -> list[Counter[Card]]:
    """Per seat, the cards known to be in its hand from the view's events (see
    :class:`KnownCards`).

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=3, seed=2)
    >>> upcard = state.upcard
    >>> state = sr.draw(state, 1, sr.Source.DISCARD)
    >>> known_cards(sr.view(state, 0))[1] == {upcard: 1}
    True
    """
    known = KnownCards(view.num_players)
    for event in view.events:
        known.add(event)
    return known.by_seat


def _show(known: Counter[Card], card: Card) -> None:
    if known[card] > 0:
        known[card] -= 1
        if not known[card]:
            del known[card]


class Observation:
    """The observation of ``variant`` with ``players`` seats (see the module's text):
    :meth:`encode` gives a float32 array of :attr:`size` entries; :meth:`info_state` a
    string naming the seat's information state.

    >>> import shanghai_rummy as sr
    >>> from shanghai_rummy.rl import Observation
    >>> observation = Observation(sr.get_variant("shanghai"), players=4)
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    >>> array = observation.encode(sr.view(state, 1))
    >>> array.shape == (observation.size,), float(array[:53].sum())  # 11 cards in hand
    (True, 11.0)
    """

    def __init__(self, variant: Variant, players: int, max_meld_id: int | None = None) -> None:
        pack = variant.largest_pack(players)  # one layout for every deal's pack
        self.variant = variant
        self.players = players
        self.pack_cards = pack.cards
        melds = variant.melds
        self.max_meld_id = max_meld_id or pack.cards // min(melds.set_min, melds.run_min)
        self.deals = variant.total_deals(players)
        p = players
        blocks = [
            ("hand", _CARD_KINDS),
            ("known", (p - 1) * _CARD_KINDS),
            ("table_cards", _CARD_KINDS),
            ("pile", _CARD_KINDS),
            ("upcard", _CARD_KINDS),
            ("seats", p * 5),
            ("phase", len(_PHASES)),
            ("to_act", p),
            ("turn", p),
            ("deal", self.deals),
            ("dealer", p),
            ("requirement", 13),
            ("stock", 1),
            ("melds", self.max_meld_id * (p + 12)),
            ("half_laid", 1),
        ]
        self.layout: dict[str, tuple[int, int]] = {}
        offset = 0
        for name, length in blocks:
            self.layout[name] = (offset, length)
            offset += length
        self.size = offset
        self.shape = (offset,)

    def __repr__(self) -> str:
        return f"Observation({self.variant.id!r}, players={self.players}, size={self.size})"

    def encode(
        self, view: PlayerView, known: Sequence[Counter[Card]] | None = None
    ) -> npt.NDArray[np.float32]:
        """The seat's view as an array (a spectator's: no hand, nothing known). ``known``:
        the view's :func:`known_cards`, where the caller keeps them up to date (the
        environments do, so as not to read every event again at every step)."""
        out = np.zeros(self.size, dtype=np.float32)
        layout = self.layout
        p = self.players
        me = 0 if view.seat is None else view.seat

        def relative(seat: int) -> int:
            return (seat - me) % p

        start = layout["hand"][0]
        for card in view.hand:
            out[start + card_index(card)] += 1
        if view.seat is not None:
            start = layout["known"][0]
            for seat, cards in enumerate(known_cards(view) if known is None else known):
                if seat == me:
                    continue
                base = start + (relative(seat) - 1) * _CARD_KINDS
                for card, count in cards.items():
                    out[base + card_index(card)] = count
        start = layout["table_cards"][0]
        for meld in view.table:
            for card in meld.cards:
                out[start + card_index(card)] += 1
        start = layout["pile"][0]
        for card in view.discard_pile:
            out[start + card_index(card)] += 1
        if view.upcard is not None:
            out[layout["upcard"][0] + card_index(view.upcard)] = 1
        start = layout["seats"][0]
        for seat in range(p):
            base = start + relative(seat) * 5
            out[base] = view.hand_sizes[seat] / 24
            out[base + 1] = view.down[seat]
            out[base + 2] = view.buys_left[seat] / 4
            out[base + 3] = view.buys_used[seat] / 4
            out[base + 4] = view.totals[seat] / 500
        out[layout["phase"][0] + _PHASES.index(view.phase)] = 1
        if view.to_act is not None:
            out[layout["to_act"][0] + relative(view.to_act)] = 1
        out[layout["turn"][0] + relative(view.turn)] = 1
        if 1 <= view.deal_number <= self.deals:
            out[layout["deal"][0] + view.deal_number - 1] = 1
        out[layout["dealer"][0] + relative(view.dealer)] = 1
        self._requirement(view, out)
        out[layout["stock"][0]] = view.stock_size / self.pack_cards
        self._melds(view, out, relative)
        out[layout["half_laid"][0]] = view.still_to_lay is not None
        return out

    def _requirement(self, view: PlayerView, out: npt.NDArray[np.float32]) -> None:
        start = self.layout["requirement"][0]
        requirement = view.requirement
        if isinstance(requirement, Contract):
            for slot, size in enumerate(sorted(requirement.sets, reverse=True)[:6]):
                out[start + slot] = size / 15
            for slot, size in enumerate(sorted(requirement.runs, reverse=True)[:6]):
                out[start + 6 + slot] = size / 15
        elif isinstance(requirement, Opening):
            out[start + 12] = requirement.min_points / 100

    def _melds(
        self, view: PlayerView, out: npt.NDArray[np.float32], relative: Callable[[int], int]
    ) -> None:
        start = self.layout["melds"][0]
        width = self.players + 12
        p = self.players
        for meld in view.table:
            if not 1 <= meld.id <= self.max_meld_id:
                continue
            base = start + (meld.id - 1) * width
            out[base] = 1
            out[base + 1 + relative(meld.owner)] = 1
            features = base + 1 + p
            is_set = meld.kind is MeldKind.SET
            out[features] = is_set
            out[features + 1] = not is_set
            if meld.suit is not None:
                out[features + 2 + _SUITS.index(meld.suit)] = 1
            if meld.rank is not None:
                out[features + 6] = meld.rank.value / 14
            if meld.start is not None:
                out[features + 7] = meld.start / 14
            out[features + 8] = len(meld.cards) / 14
            out[features + 9] = sum(card.is_joker for card in meld.cards) / len(meld.cards)
            out[features + 10] = meld.id in view.going_down

    def info_state(self, view: PlayerView) -> str:
        """The seat's information state as text: its seat, its hand and every event of the
        game as it saw them (the results of earlier deals, then this deal's events), so two
        histories the seat cannot tell apart give the same string.

        >>> import shanghai_rummy as sr
        >>> from shanghai_rummy.rl import Observation
        >>> state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=3)
        >>> Observation(sr.get_variant("rummy51"), 2).info_state(sr.view(state, 0))[:40]
        'rummy51 seat 0 deal 1 phase play to_act '
        """
        hand = " ".join(map(str, view.hand))
        events = "; ".join(repr(event) for event in view.events)
        return (
            f"{view.variant_id} seat {view.seat} deal {view.deal_number} phase "
            f"{view.phase.value} to_act {view.to_act} | hand {hand} | events {events}"
        )
