"""Full states consistent with what one seat knows: :func:`sample_state`, the information-set
sampling that determinized search (PIMC, ISMCTS) plays on.

A seat's :class:`~shanghai_rummy.PlayerView` shows its own hand, the table, the face-up pile,
every hand's size and the deal's public events (which cards went where in the open: the
upcards taken and bought, the cards melded, laid off, swapped and discarded). What it does not
show is where the other cards are: the other hands and the order of the stock.
:func:`sample_state` deals those at random, seeded, and keeps every card the events show in the
hand that holds it, so that ``sr.view(sample, seat) == view``.

How it works: the deal's events are walked once. Every card a seat was dealt or drew unseen is
a *slot*; a card the seat later shows (melds, lays off, discards, gives for a joker) fills one
of its slots, unless the events already put that card in its hand (an upcard it took, a joker
it swapped for). The slots left are filled from the cards nobody has seen, shuffled with the
seed, and the rest of those cards make the stock. The deal is then dealt that way and replayed
move by move through the engine, so the sample is a real reachable state (its turn facts,
buys, turns and meld ids come from the engine itself) rather than one assembled by hand.

**How near uniform.** Over the deals consistent with the public events and the seat's own
cards, the sample is uniform over where the unseen cards lie, with two simplifications: it
reads nothing into the other seats' choices (a seat that passed an upcard is not taken to lack
use for it: the policy of the other seats is unknown to the library), and a card a seat shows
fills the newest of its slots that may hold it (a card shown was more often drawn lately than
held from the start; the slots left hold what the seat kept), and after a re-stock a slot
drawn from the re-stocked pile can hold only the pile's cards. A deal whose stock was
re-stocked within a draw after a buy took the last stock cards is refused
(:class:`~shanghai_rummy.RummyError`); a re-stock at the start of a turn, the usual one, is
sampled.

The sample's ``seed`` is the sampling seed (the game's own is hidden: it would fix the stock)
and its history holds this deal's moves only.

>>> import shanghai_rummy as sr
>>> variant = sr.get_variant("shanghai")
>>> state = sr.new_game(variant, players=4, seed=3)
>>> bots = [sr.GreedyBot(variant) for _ in range(4)]
>>> for _ in range(30):
...     seat = state.to_act
...     state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
>>> seen = sr.view(state, 2)
>>> sample = sr.sample_state(seen, seed=1)
>>> sr.view(sample, 2) == seen, sample.hand(2) == state.hand(2)
(True, True)
>>> sample.hands == state.hands  # the other hands are dealt at random
False
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import attrs

from .actions import Action, Buy, Discard, Draw, LayOff, Meld, PassBuy, Source, SwapJoker
from .cards import JOKER, Card, make_pack
from .contracts import Requirement
from .engine import apply, deal_from
from .errors import IllegalMoveError, RummyError
from .event_log import deal_chain
from .events import (
    Bought,
    DealEnded,
    DealStarted,
    Discarded,
    Drew,
    Event,
    LaidOff,
    Melded,
    PassedBuy,
    Restocked,
    SwappedJoker,
    TookCutCard,
    TookUpcard,
    UpcardOffered,
    chain_of,
)
from .levels import contract_number
from .melds import joker_kept_in_run, named_kind
from .solver import check_laid, solve
from .state import GameState
from .variants import Variant, get_variant
from .views import PlayerView

__all__ = ["sample_state"]


class _Slot:
    """A card a seat holds unseen: dealt, drawn from the stock or taken as a penalty card.
    ``domain``: which cards it may be (0: the pack as dealt; k: the k-th re-stocked pile)."""

    __slots__ = ("card", "domain")

    def __init__(self, domain: int) -> None:
        self.domain = domain
        self.card: Card | None = None


_Item = Card | _Slot


class _Walk:
    """The walk over a deal's events: every seat's holdings, the stock's takes and the cards
    each domain may still supply."""

    def __init__(self, view: PlayerView, variant: Variant, started: DealStarted) -> None:
        self.seat = view.seat
        self.variant = variant
        self.joker_stays: set[int] = set()  # the runs a swapped joker stays in (by meld id)
        pack = variant.pack_size(view.num_players, view.deal_number)
        self.left: list[Counter[Card]] = [Counter(make_pack(pack.decks, pack.jokers))]
        self.held: list[list[_Item]] = []
        self.dealt: list[list[_Slot]] = []
        for size in started.hand_sizes:
            slots = [_Slot(0) for _ in range(size)]
            self.dealt.append(slots)
            self.held.append(list(slots))
        # the stock's cards in the order they were taken, per domain (domain 0 first)
        self.takes: list[list[_Item]] = [[]]
        self.pile: list[Card] = []
        self.cut_card = started.cut_card
        self.rest: list[list[Card]] = []
        self.shuffle_domains: random.Random | None = None
        if started.upcard is not None:
            self._use(0, started.upcard)
            self.pile.append(started.upcard)
        if started.cut_card is not None:
            self._use(0, started.cut_card)

    def _use(self, domain: int, card: Card) -> None:
        left = self.left[domain]
        if left[card] <= 0:
            raise _inconsistent(f"the events show more {card} than the cards left could hold")
        left[card] -= 1

    def take_from_stock(self, seat: int, card: Card | None) -> None:
        domain = len(self.left) - 1
        item: _Item
        if card is not None:
            self._use(domain, card)
            item = card
        else:
            item = _Slot(domain)
        self.takes[domain].append(item)
        self.held[seat].append(item)

    def shows(self, seat: int, card: Card) -> None:
        """``seat`` plays ``card`` from its hand."""
        held = self.held[seat]
        for index, item in enumerate(held):
            if item is card:
                del held[index]
                return
        # the newest slot that may hold the card, of the dealt pack first: a card shown
        # was more often drawn lately than held from the start, and a re-stocked pile's
        # cards are few and known, so they are kept for the draws that show them
        domains = sorted({item.domain for item in held if type(item) is _Slot})
        if self.shuffle_domains is not None and len(domains) > 1:
            self.shuffle_domains.shuffle(domains)  # a later try, after a re-stock
        for domain in domains:
            if self.left[domain][card] <= 0:
                continue
            for index in range(len(held) - 1, -1, -1):
                item = held[index]
                if type(item) is _Slot and item.domain == domain:
                    self._use(domain, card)
                    item.card = card
                    del held[index]
                    return
        raise _inconsistent(f"seat {seat} plays {card}, which no card it holds could be")

    def restocked(self) -> None:
        fresh = Counter(self.pile[:-1])
        self.pile = self.pile[-1:]
        self.left.append(fresh)
        self.takes.append([])
        self.cut_card = None

    def event(self, event: Event) -> None:
        """Walk one event of the deal."""
        kind = type(event)
        if kind is Drew:
            assert isinstance(event, Drew)
            self.take_from_stock(event.seat, event.card)
        elif kind is TookUpcard:
            assert isinstance(event, TookUpcard)
            self.held[event.seat].append(self.pile.pop())
        elif kind is TookCutCard:
            assert isinstance(event, TookCutCard)
            self.held[event.seat].append(event.card)
            self.cut_card = None
        elif kind is Bought:
            assert isinstance(event, Bought)
            self.held[event.seat].append(self.pile.pop())
            shown: Sequence[Card | None] = event.penalty or (None,) * event.penalty_cards
            for card in shown:
                self.take_from_stock(event.seat, card)
        elif kind is Melded:
            assert isinstance(event, Melded)
            for table_meld in event.melds:
                if joker_kept_in_run(table_meld, self.variant):
                    self.joker_stays.add(table_meld.id)
                for card in table_meld.cards:
                    self.shows(event.seat, card)
        elif kind is LaidOff:
            assert isinstance(event, LaidOff)
            self.shows(event.seat, event.card)
        elif kind is SwappedJoker:
            assert isinstance(event, SwappedJoker)
            self.shows(event.seat, event.card)
            if event.meld_id not in self.joker_stays:
                self.held[event.seat].append(JOKER)
        elif kind is Discarded:
            assert isinstance(event, Discarded)
            self.shows(event.seat, event.card)
            self.pile.append(event.card)
        elif kind is Restocked:
            self.restocked()

    def snapshot(self, seat: int) -> list[_Item]:
        """What ``seat`` holds now (the items, whose slots may be filled later)."""
        return list(self.held[seat])

    def plant(
        self,
        items: list[_Item],
        extra: Sequence[Card],
        requirement: Requirement,
        variant: Variant,
        rng: random.Random,
    ) -> None:
        """Fill some of the empty slots among ``items`` (a seat's holding at one moment) with
        a way to meet ``requirement`` together with the cards known among them and ``extra``,
        drawn from a random half of the unseen cards, where one is found."""
        domain = len(self.left) - 1
        known = [_card(item) for item in items if isinstance(item, Card) or item.card is not None]
        known += extra
        slots = [
            item
            for item in items
            if type(item) is _Slot and item.card is None and item.domain == domain
        ]
        unseen = list(self.left[domain].elements())
        rng.shuffle(unseen)
        way = solve(known + unseen[: len(unseen) // 2], requirement, variant)
        if way is None:
            return
        needed = Counter(card for group in way for card in group)
        needed.subtract(known)
        cards = list((+needed).elements())
        if len(cards) > len(slots):
            return
        rng.shuffle(slots)
        for slot, card in zip(slots, cards, strict=False):
            self._use(domain, card)
            slot.card = card

    def fill_known(self, seat: int, hand: Sequence[Card]) -> None:
        """Fill a seat's slots with the cards its hand is known to hold (the view's own, or
        every hand once the deal is scored)."""
        own = Counter(hand)
        own.subtract(item for item in self.held[seat] if type(item) is Card)
        slots = [item for item in self.held[seat] if type(item) is _Slot]
        # the slots of the latest re-stocked pile first: they may hold only its cards
        for slot in sorted(slots, key=lambda slot: -slot.domain):
            left = self.left[slot.domain]
            card = next((card for card, count in own.items() if count > 0 and left[card]), None)
            if card is None:
                raise _inconsistent(f"seat {seat}'s hand is not what its events left it")
            own[card] -= 1
            self._use(slot.domain, card)
            slot.card = card

    def fill(self, rng: random.Random) -> None:
        """Fill the other seats' slots left at random; what is left makes the stock."""
        for domain, left in enumerate(self.left):  # every slot still empty, at random
            slots = [
                item
                for held in self.held
                for item in held
                if type(item) is _Slot and item.card is None and item.domain == domain
            ]
            cards = sorted(left.elements(), key=str)
            rng.shuffle(cards)
            if len(cards) < len(slots):
                raise _inconsistent("more unseen cards held than the pack has left")
            for slot, card in zip(slots, cards, strict=False):
                slot.card = card
            left.clear()
            self.rest.append(cards[len(slots) :])  # what the stock still holds of it

    def stock_order(self, domain: int) -> list[Card]:
        """The stock dealt (domain 0) or re-stocked (domain k) from the top: the cards taken
        from it, in order, then those it still holds (shuffled)."""
        cards = [_card(item) for item in self.takes[domain]] + self.rest[domain]
        if domain == 0 and self.cut_card is not None:
            cards.append(self.cut_card)  # face up at the bottom, where the deal put it
        return cards


def _card(item: _Item) -> Card:
    if type(item) is _Slot:
        assert item.card is not None
        return item.card
    assert isinstance(item, Card)
    return item


def _inconsistent(why: str) -> RummyError:
    return RummyError(f"sample_state: the view is not consistent with any deal: {why}")


def _action(event: Event, variant: Variant) -> Action | None:
    """The move that made ``event`` under ``variant``; None for the engine's own steps."""
    kind = type(event)
    if kind is Drew or kind is UpcardOffered:
        assert isinstance(event, Drew | UpcardOffered)
        return Draw(event.seat, Source.STOCK)
    if kind is TookUpcard:
        assert isinstance(event, TookUpcard)
        return Draw(event.seat, Source.DISCARD)
    if kind is TookCutCard:
        assert isinstance(event, TookCutCard)
        return Draw(event.seat, Source.CUT_CARD)
    if kind is Bought:
        assert isinstance(event, Bought)
        return Buy(event.seat)
    if kind is PassedBuy:
        assert isinstance(event, PassedBuy)
        return PassBuy(event.seat)
    if kind is Melded:
        assert isinstance(event, Melded)
        kinds = tuple(named_kind(table_meld, variant) for table_meld in event.melds)
        return Meld(event.seat, tuple(table_meld.cards for table_meld in event.melds), kinds)
    if kind is LaidOff:
        assert isinstance(event, LaidOff)
        return LayOff(event.seat, event.card, event.meld_id, event.end)
    if kind is SwappedJoker:
        assert isinstance(event, SwappedJoker)
        return SwapJoker(event.seat, event.card, event.meld_id)
    if kind is Discarded:
        assert isinstance(event, Discarded)
        return Discard(event.seat, event.card)
    return None


def _replay(
    state: GameState, events: Sequence[Event], restock_order: list[list[Card]]
) -> GameState:
    """Play the deal's moves from ``state`` (the deal as sampled), each event's move once."""
    index = 0
    restocks = 0
    while index < len(events):
        action = _action(events[index], state.variant)
        if action is None:
            index += 1  # the engine's own step
            continue
        before = state.event_log
        try:
            state = apply(state, action)
        except IllegalMoveError as error:
            raise _Refused(f"its move {action!r} is refused: {error}", index, action.seat) from None
        after = state.event_log
        assert before is not None and after is not None
        made = after[1] - before[1]  # the events of the move, and the engine's steps after it
        if state.restocks > restocks:
            restocks = state.restocks
            order = restock_order[restocks] if restocks < len(restock_order) else []
            if Counter(order) != Counter(state.stock) or not isinstance(action, Discard):
                raise RummyError(
                    "sample_state: a re-stock within a draw (after a buy took the last stock "
                    "cards) is not sampled"
                )
            state = attrs.evolve(state, stock=tuple(order))
        index += made
    return state


def sample_state(view: PlayerView, *, seed: int = 0, variant: Variant | None = None) -> GameState:
    """A full :class:`~shanghai_rummy.GameState` consistent with ``view`` and its events: the
    cards the seat saw go to the hands that hold them, the unseen cards are dealt at random
    (seeded by ``seed``), and ``sr.view(sample, view.seat) == view``. ``variant``: the rules
    (looked up by ``view.variant_id`` when not given; pass it for a variant of your own).
    See the module's text for how near uniform the sampling is.

    :class:`~shanghai_rummy.RummyError` for a spectator's view (no seat), or a view that no
    deal could give.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("rummy51"), players=3, seed=5)
    >>> seen = sr.view(state, 0)
    >>> sample = sr.sample_state(seen, seed=9)
    >>> sr.view(sample, 0) == seen, sample.hand(0) == state.hand(0), sample.stock_size
    (True, True, 65)
    """
    if not isinstance(view, PlayerView):
        raise RummyError(f"sample_state needs a PlayerView, got {type(view).__name__}")
    if view.seat is None:
        raise RummyError("sample_state needs a seat's view: a spectator holds no cards")
    if variant is None:
        variant = get_variant(view.variant_id)
    events = tuple(view.events)
    start = next((i for i, event in enumerate(events) if type(event) is DealStarted), None)
    if start is None:
        raise _inconsistent("its events have no DealStarted")
    earlier = [event for event in events[:start] if type(event) is DealEnded]
    started = events[start]
    assert isinstance(started, DealStarted)
    deal = events[start + 1 :]
    rng = random.Random(f"sample_state/{seed}")
    failure: RummyError = _inconsistent("no deal found")
    known = {view.seat: view.hand}
    ended = next((event for event in deal if isinstance(event, DealEnded)), None)
    if ended is not None:  # the hands are shown once the deal is scored
        known = {score.seat: score.cards for score in ended.result.seats}
    targets: dict[int, int] = {}  # event index -> seat whose move there was refused
    for attempt in range(_ATTEMPTS):
        walk = _Walk(view, variant, started)
        try:
            _place(walk, view, variant, deal, known, targets, rng, attempt)
        except RummyError as error:
            if len(walk.left) == 1:
                raise  # no re-stock: no other way to place the cards
            failure = error  # after a re-stock, another try places them otherwise
            continue
        try:
            return _dealt(view, variant, seed, walk, started, earlier, deal, known)
        except _Refused as refused:
            failure = _inconsistent(str(refused))
            if refused.index is not None and refused.seat not in (None, view.seat):
                targets[refused.index] = refused.seat
    raise failure


def _place(
    walk: _Walk,
    view: PlayerView,
    variant: Variant,
    deal: Sequence[Event],
    known: dict[int, tuple[Card, ...]],
    targets: dict[int, int],
    rng: random.Random,
    attempt: int,
) -> None:
    """One try at placing every card: walk the deal's events, fill the known hands, plant
    ways to finish the going downs the engine refused (``targets``: event index -> seat) and
    the one the seat in turn may owe, then fill the rest at random."""
    if attempt:
        walk.shuffle_domains = rng
    held: dict[int, list[_Item]] = {}
    for index, event in enumerate(deal):
        if index in targets:
            held[index] = walk.snapshot(targets[index])
        walk.event(event)
    for seat, hand in known.items():
        walk.fill_known(seat, hand)
    for index, items in held.items():
        event = deal[index]
        extra = (event.card,) if isinstance(event, TookUpcard) else ()
        requirement = variant.deal(contract_number(view, targets[index])).requirement
        walk.plant(items, extra, requirement, variant, rng)
    if attempt:  # the seat in turn may owe a going down its hidden cards must finish
        _plant_owed(walk, view, variant, rng)
    walk.fill(rng)


_ATTEMPTS = 24
"""Deals tried before :func:`sample_state` gives up: a random fill may leave a seat that is
half-way through a going down (or took an upcard that obliges one) without the cards to
finish it; the next tries plant a way to finish it among its hidden cards."""


class _Refused(RummyError):
    """A sampled deal whose replay the engine refused: the move of ``seat`` made from the
    view's event at ``index``."""

    def __init__(self, message: str, index: int | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.seat = seat


def _plant_owed(walk: _Walk, view: PlayerView, variant: Variant, rng: random.Random) -> None:
    """Plant among the hidden cards of the seat in turn a way to finish the going down it
    may owe now: what is still to lay when it is half-laid, else the whole requirement (an
    upcard taken may oblige one)."""
    seat = view.turn
    if seat == view.seat or view.down[seat] or view.to_act is None:
        return
    requirement = variant.deal(contract_number(view, seat)).requirement
    if view.going_down:
        laid = [meld.shape for meld in view.table if meld.id in view.going_down]
        try:
            left = next((left for left in check_laid(laid, requirement, variant) if left), None)
        except RummyError:
            return
        if left is None:
            return
        requirement = left
    walk.plant(walk.snapshot(seat), (), requirement, variant, rng)


def _dealt(
    view: PlayerView,
    variant: Variant,
    seed: int,
    walk: _Walk,
    started: DealStarted,
    earlier: Sequence[Event],
    deal: Sequence[Event],
    known: dict[int, tuple[Card, ...]],
) -> GameState:
    """The deal the walk filled, dealt and replayed to the view's moment; ``known``: the
    hands known, in their order."""
    assert view.seat is not None
    hands = [[_card(slot) for slot in dealt] for dealt in walk.dealt]
    restock_order = [walk.stock_order(domain) for domain in range(len(walk.takes))]
    try:
        state = deal_from(
            variant,
            hands,
            upcard=started.upcard,
            stock_top=restock_order[0],
            seed=seed,
            deal_number=started.deal_number,
            dealer=started.dealer,
            levels=view.levels or None,
        )
    except RummyError as error:
        raise _inconsistent(str(error)) from None
    totals = [0] * view.num_players
    results = tuple(event.result for event in earlier if isinstance(event, DealEnded))
    for result in results:
        totals = [total + points for total, points in zip(totals, result.points, strict=True)]
    state = attrs.evolve(
        state,
        totals=tuple(totals),
        results=results,
        event_log=deal_chain(
            chain_of(earlier),
            started.deal_number,
            started.dealer,
            state.hands,
            started.upcard,
            state.stock,
            state.cut_card,
        ),
    )
    state = _replay(state, deal, restock_order)
    hands_now = list(state.hands)
    for seat, hand in known.items():
        hands_now[seat] = hand
    state = attrs.evolve(state, hands=tuple(hands_now))
    ended = next((event for event in deal if isinstance(event, DealEnded)), None)
    if ended is not None:  # the deal's result lists each hand in the order it was held
        events = [ended if event.number == ended.number else event for event in state.events]
        results = (*state.results[:-1], ended.result)
        state = attrs.evolve(state, results=results, event_log=chain_of(events))
    if (
        tuple(map(len, state.hands)) != view.hand_sizes
        or state.stock_size != view.stock_size
        or state.discard_pile != view.discard_pile
        or state.table != view.table
        or state.to_act != view.to_act
    ):
        raise _Refused("the replay does not come to the view's table")
    return state
