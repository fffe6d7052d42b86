"""Computer players. A bot sees only what its seat may see, a
:class:`~shanghai_rummy.PlayerView`, and answers with one of the view's legal actions.

- :class:`RandomBot` picks uniformly among the legal actions (seeded).
- :class:`GreedyBot` plays to go down and out: it goes down as soon as it can, lays off all it
  can, swaps jokers when that helps, takes or buys the upcard when it brings its contract
  nearer, and discards the highest-value card that helps it least.

Any object with a ``choose(view) -> Action`` method is a :class:`Bot`.

>>> import shanghai_rummy as sr
>>> variant = sr.get_variant("shanghai")
>>> state = sr.new_game(variant, players=3, seed=4)
>>> bots = [sr.GreedyBot(variant) for _ in range(3)]
>>> while state.to_act is not None:
...     seat = state.to_act
...     state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
>>> state.phase, sr.score(state).winner is not None
(<Phase.DEAL_OVER: 'deal_over'>, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from math import comb
from typing import Final, Protocol, runtime_checkable

import attrs

from ._arguments import check_seed, expect, wrong_type
from .actions import Action, Buy, Discard, Draw, LayOff, Meld, PassBuy, Source, SwapJoker
from .cards import JOKER, Card, Rank, Suit, sort_cards
from .contracts import Contract, Opening
from .errors import RummyError
from .limits import MAX_OPEN_ENDED_HAND_CARDS
from .melds import MeldKind, TableMeld, check_group, lay_off_ends
from .memo import IdentityMemo
from .solver import arrangements, solve
from .state import Phase
from .variants import Aces, GoOutDiscard, JokerRules, NewMelds, Variant, get_variant
from .views import PlayerView

__all__ = ["Bot", "GreedyBot", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """A player: given what its seat sees, it returns one of ``view.legal_actions``.

    >>> import shanghai_rummy as sr
    >>> isinstance(sr.RandomBot(seed=1), sr.Bot), isinstance(object(), sr.Bot)
    (True, False)
    """

    def choose(self, view: PlayerView) -> Action:
        """The action to play (the view's seat is to act)."""
        ...


def _seat_of(view: PlayerView) -> int:
    """The view's seat; a spectator's view (seat None) has no decision to make."""
    if view.seat is None:
        raise _no_choice(view)
    return view.seat


def _no_choice(view: PlayerView) -> RummyError:
    return RummyError(
        f"seat {view.seat} has no decision to make: seat {view.to_act} is to act "
        f"(phase {view.phase.value!r})"
    )


class RandomBot:
    """Uniformly random among the legal actions, from its own seeded generator.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=7)
    >>> sr.RandomBot(seed=3).choose(sr.view(state, 1)) in sr.legal_actions(state)
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_seed(seed, "RandomBot")
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"

    def choose(self, view: PlayerView) -> Action:
        """A legal action, chosen at random."""
        expect(view, PlayerView, "RandomBot.choose", "view")
        if not view.legal_actions:
            raise _no_choice(view)
        return view.legal_actions[self._rng.randrange(len(view.legal_actions))]


# -- what the greedy bot knows about cards ---------------------------------------------------

_MOST_JOKERS = 14
"""No requirement needs more missing cards than this (the largest contracts hold 15 cards)."""


def _key(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a multiset key: sorted (cards are shared values, hashed by identity)."""
    return sort_cards(cards)


def _without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    remaining = list(cards)
    remaining.remove(card)
    return tuple(remaining)


def _positions(card: Card, aces: Aces) -> tuple[int, ...]:
    """The run positions ``card`` may take (an ace may sit low where the variant allows)."""
    assert card.rank is not None
    if card.rank is Rank.ACE:
        if aces is Aces.HIGH:
            return (14,)
        if aces is Aces.LOW:
            return (1,)
        return (1, 14)
    return (card.rank.value,)


# the run positions of a card of each rank, under each rule for aces
_RUN_POSITIONS = {
    aces: {rank: _positions(Card.of(rank, Suit.CLUBS), aces) for rank in Rank} for aces in Aces
}


class _Unknown:
    """Not yet searched."""


_UNKNOWN = _Unknown()
Arrangement = tuple[tuple[Card, ...], ...]


_RANK_CARDS = tuple((rank, frozenset(Card.of(rank, suit) for suit in Suit)) for rank in Rank)


_GoneCards = tuple[frozenset[Card], frozenset[Rank]]
_Stands = tuple[tuple[Card, ...], tuple[Rank, ...]]


class _Look:
    """What one decision needs: the view, the variant, and which cards can no longer come."""

    __slots__ = (
        "down",
        "gone",
        "gone_ranks",
        "hand",
        "kinds",
        "relaxed",
        "requirement",
        "tag",
        "variant",
    )

    def __init__(
        self,
        view: PlayerView,
        variant: Variant,
        relaxed: Variant,
        gone: _GoneCards,
    ) -> None:
        self.variant = variant
        self.relaxed = relaxed
        self.requirement = view.requirement
        self.hand = view.hand
        self.down = view.seat is not None and view.down[view.seat]
        self.gone, self.gone_ranks = gone
        self.tag = (id(relaxed), self.requirement)
        requirement = self.requirement
        # whether the requirement asks for sets, for runs (an opening takes both)
        self.kinds = (
            (True, True)
            if isinstance(requirement, Opening)
            else (bool(requirement.sets), bool(requirement.runs))
        )


class _TableSeen:
    """The natural cards on a table, counted, and those every copy of which is there."""

    __slots__ = ("counts", "gone", "table")

    def __init__(self, table: tuple[TableMeld, ...], copies: int) -> None:
        self.table = table
        counts = Counter(card for meld in table for card in meld.cards if not card.is_joker)
        self.counts = dict(counts)
        self.gone = _with_ranks(
            frozenset(card for card, count in counts.items() if count >= copies)
        )

    def gone_with(self, hand: Sequence[Card], copies: int) -> _GoneCards:
        """The natural cards every copy of which is on the table or in ``hand``, and the
        ranks every card of which is."""
        on_table = self.counts.get
        more = [
            card
            for card in hand
            if card.rank is not None and on_table(card, 0) + hand.count(card) >= copies
        ]
        if not more:
            return self.gone
        return _with_ranks(self.gone[0].union(more))


def _with_ranks(gone: frozenset[Card]) -> _GoneCards:
    if len(gone) < len(Suit):
        return gone, frozenset()
    return gone, frozenset(rank for rank, every_suit in _RANK_CARDS if every_suit <= gone)


_RELAXED: Final[IdentityMemo[Variant]] = IdentityMemo("bots.relaxed_variant", 64)


def _relaxed(variant: Variant) -> Variant:
    """The variant with no joker limits: wild cards then measure what a hand lacks. One
    object per variant, shared by every bot, so that they share the solver's tables too."""
    known = _RELAXED.get(variant)
    if known is None:
        relaxed = attrs.evolve(variant, jokers=JokerRules(at_most_naturals=False))
        known = _RELAXED.put(variant, None, relaxed)
    return known


class GreedyBot:
    """A simple, deterministic player that tries to go down and out.

    It reads only its :class:`~shanghai_rummy.PlayerView` and the variant's rules (pass the
    :class:`~shanghai_rummy.Variant`; a preset is looked up by the view's ``variant_id`` when
    none is given). To judge a card it asks :func:`~shanghai_rummy.solve` how many wild cards
    the hand lacks to meet the deal's requirement, with and without that card (a wild card may
    not stand for a card whose every copy is already on the table or in its hand):

    - **upcard**: taken when it leaves fewer cards missing (once down: when it can be laid
      off, and with ``take_to_build``, where the variant lets a player who is down lay new
      groups, also when it makes a group with two natural cards of the hand); bought,
      within ``max_buys`` per deal and the variant's limit, when it completes
      the contract, or leaves fewer cards missing and the hand, penalty cards included, at
      most ``buy_slack`` cards (default 2) above the contract's size (bigger hands clog the
      table and stall deals);
    - **going down**: as soon as a group is listed, the whole way that lays down the most
      cards, laid a group at a time (where the listed groups could make too many ways to
      weigh, the largest listed group, each step);
    - **once down**: new groups where the variant allows them, joker swaps, every lay-off;
    - **while not down**: a joker swap when it leaves fewer cards missing;
    - **discard**: a card the hand can best spare (no more cards missing without it, then
      the fewest neighbours for sets and runs, then the highest value; under an opening worth
      points the lowest value); never a joker unless nothing else is left.

    >>> import shanghai_rummy as sr
    >>> variant = sr.get_variant("shanghai")
    >>> state = sr.deal_from(
    ...     variant,
    ...     hands=[sr.parse_cards("2C"), sr.parse_cards("8C 8D 9H 9S 9D KC QS 4H 5D 6S 7C")],
    ...     upcard=sr.Card.parse("8H"),
    ... )
    >>> bot = sr.GreedyBot(variant)
    >>> bot.choose(sr.view(state, 1))  # the 8H completes a set: take it
    Draw(seat=1, source=<Source.DISCARD: 'discard'>)
    >>> state = sr.apply(state, bot.choose(sr.view(state, 1)))
    >>> first = bot.choose(sr.view(state, 1))  # its going down, a group at a time
    >>> sr.format_action(first), sr.format_action(bot.choose(sr.view(sr.apply(state, first), 1)))
    ('meld 8C 8D 8H', 'meld 9D 9H 9S')
    """

    _plan_limit = 32
    """Where more single groups than this are listed to go down with, the bot lays the
    largest group listed instead of weighing every whole way (their number grows with the
    product of the groups)."""

    _ways_budget = 8192
    """The most whole ways the bot weighs: where the ways the listed groups could make
    (multisets of as many groups as the contract asks; any subset of them where a going down
    may hold more groups, for hands above ``limits.MAX_OPEN_ENDED_HAND_CARDS``) could be
    more, it plans group by group instead (the largest group listed, each step), so that a
    step's work stays bounded under house rules of big hands."""

    def __init__(
        self,
        variant: Variant | None = None,
        *,
        max_buys: int | None = None,
        buy_slack: int = 2,
        take_to_build: bool = False,
    ) -> None:
        if variant is not None:
            expect(variant, Variant, "GreedyBot", "variant")
        if max_buys is not None and (type(max_buys) is not int or max_buys < 0):
            raise wrong_type("GreedyBot", "max_buys", "a non-negative integer or None", max_buys)
        if type(buy_slack) is not int or buy_slack < 0:
            raise wrong_type("GreedyBot", "buy_slack", "a non-negative integer", buy_slack)
        if type(take_to_build) is not bool:
            raise wrong_type("GreedyBot", "take_to_build", "a bool", take_to_build)
        self.variant = variant
        self.max_buys = max_buys
        self.buy_slack = buy_slack
        self.take_to_build = take_to_build
        self._found: dict[tuple[object, ...], Arrangement | _Unknown | None] = {}
        # the relaxed variants this bot judged under, kept so that their ids in the keys of
        # _found stay unique while it lives (the shared registry may let one go)
        self._judged_under: dict[int, Variant] = {}
        self._missing_of: dict[tuple[object, ...], int] = {}
        self._last_missing = 0
        # what the jokers of a group stand for (see _dead_slots), by the relaxed variant's id
        # and the group
        self._stands: dict[tuple[int, tuple[Card, ...]], _Stands | None] = {}
        # the last table read and its natural cards; the last gone cards worked out, with the
        # table, hand and copies of each card they were worked out for
        self._table_seen: tuple[int, _TableSeen] | None = None
        self._gone_known: tuple[tuple[TableMeld, ...], tuple[Card, ...], int, _GoneCards] | None = (
            None
        )
        # the copies of each card in the pack, for the variant, seats and deal last asked
        self._copies: tuple[Variant, int, int, int] | None = None
        # the tally of the last hand counted (the hand, by identity: a state keeps a hand's
        # tuple until it changes, and a seat is offered several upcards with one hand)
        self._tallied: tuple[tuple[Card, ...], _HandTally] | None = None
        # the going down planned: (seat, deal, the hand it is for) and the groups still to lay
        self._plan: tuple[tuple[int, int, object], tuple[tuple[Card, ...], ...]] | None = None

    def __repr__(self) -> str:
        variant = None if self.variant is None else self.variant.id
        return (
            f"GreedyBot(variant={variant!r}, max_buys={self.max_buys!r}, "
            f"buy_slack={self.buy_slack!r}"
            + (", take_to_build=True)" if self.take_to_build else ")")
        )

    # -- the decision ------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        """The greedy choice among ``view.legal_actions``."""
        expect(view, PlayerView, "GreedyBot.choose", "view")
        actions = view.legal_actions
        variant = self._variant(view)
        if not actions:
            return self._unlisted_meld(view, variant)
        if len(actions) == 1:
            return actions[0]
        relaxed = _relaxed(variant)
        self._judged_under[id(relaxed)] = relaxed
        look = _Look(view, variant, relaxed, self._gone(view, variant))
        if view.phase is Phase.BUY:
            return self._buy_or_pass(view, look, actions)
        if view.phase is Phase.DRAW:
            return self._draw(view, look, actions)
        return self._play(view, look, actions)

    def _gone(self, view: PlayerView, variant: Variant) -> _GoneCards:
        """The cards that can no longer come (see :class:`_TableSeen`), kept for the last table
        and hand: a seat asks about the same hand at every offer of an upcard."""
        counted = self._copies
        if (
            counted is None
            or counted[0] is not variant
            or counted[1] != view.num_players
            or counted[2] != view.deal_number
        ):
            decks = variant.pack_size(view.num_players, view.deal_number).decks
            counted = self._copies = (variant, view.num_players, view.deal_number, decks)
        copies = counted[3]
        table, hand = view.table, view.hand
        known = self._gone_known
        if known is not None and known[0] is table and known[1] == hand and known[2] == copies:
            return known[3]
        seen = self._table_seen
        if seen is None or seen[1].table is not table or seen[0] != copies:
            seen = self._table_seen = (copies, _TableSeen(table, copies))
        gone = seen[1].gone_with(hand, copies)
        self._gone_known = (table, hand, copies, gone)
        return gone

    def _tally(self, hand: tuple[Card, ...]) -> _HandTally:
        """The :class:`_HandTally` of ``hand``, kept for the last hand counted."""
        tallied = self._tallied
        if tallied is None or tallied[0] is not hand:
            tallied = self._tallied = (hand, _HandTally(hand))
        return tallied[1]

    def _variant(self, view: PlayerView) -> Variant:
        if self.variant is not None:
            if self.variant.id != view.variant_id:
                raise RummyError(
                    f"this GreedyBot plays variant {self.variant.id!r}, not {view.variant_id!r}"
                )
            return self.variant
        return get_variant(view.variant_id)

    def _unlisted_meld(self, view: PlayerView, variant: Variant) -> Action:
        """Going down with every card where :func:`~shanghai_rummy.legal_actions` lists
        nothing (after a joker swap that obliges going down this turn, the list leaves out
        a going down that empties the hand, though the engine accepts it)."""
        hand = view.hand
        seat = _seat_of(view)
        if view.is_my_turn and view.phase is Phase.PLAY and not view.down[seat]:
            for groups in arrangements(hand, view.requirement, variant):
                if sum(len(group) for group in groups) == len(hand):
                    return Meld(seat, groups)
        raise _no_choice(view)

    def _buy_or_pass(self, view: PlayerView, look: _Look, actions: Sequence[Action]) -> Action:
        seat = _seat_of(view)
        upcard = view.upcard
        if (
            upcard is None
            or Buy(seat) not in actions
            or (self.max_buys is not None and view.buys_used[seat] >= self.max_buys)
            or not self._advances(view, look, upcard)
        ):
            return PassBuy(seat)
        requirement = look.requirement
        if look.down or not isinstance(requirement, Contract):
            return Buy(seat)  # (an opening: no more cards than the contract may use)
        after = len(look.hand) + 1 + look.variant.buying.penalty_cards
        if after <= requirement.min_cards + self.buy_slack:
            return Buy(seat)  # (the search below would only say Buy again)
        if self._meets((*look.hand, upcard), 0, look):
            return Buy(seat)  # it completes the contract
        return PassBuy(seat)

    def _draw(self, view: PlayerView, look: _Look, actions: Sequence[Action]) -> Action:
        for action in actions:  # a special draw (the cut card) is listed only when it serves
            if isinstance(action, Draw) and action.source not in (Source.STOCK, Source.DISCARD):
                return action
        seat = _seat_of(view)
        take = Draw(seat, Source.DISCARD)
        upcard = view.upcard
        if (
            upcard is not None
            and take in actions
            and (
                self._advances(view, look, upcard) or (self.take_to_build and _builds(upcard, look))
            )
        ):
            return take
        return Draw(seat, Source.STOCK)

    def _advances(self, view: PlayerView, look: _Look, card: Card) -> bool:
        """Whether ``card`` brings the seat nearer to going down, or out."""
        if look.down:
            return any(lay_off_ends(meld, card, look.variant) for meld in view.table)
        if not card.is_joker and _neighbours(card, self._tally(look.hand), look, 1) == 0:
            return False  # nothing in hand builds on it: not worth a search
        missing = self._missing(look.hand, look)
        if missing == 0:
            return False
        return self._meets((*look.hand, card), missing - 1, look)

    def _play(self, view: PlayerView, look: _Look, actions: Sequence[Action]) -> Action:
        melds = [action for action in actions if isinstance(action, Meld)]
        swaps = [action for action in actions if isinstance(action, SwapJoker)]
        if melds:
            if not look.down or view.going_down:
                return self._going_down(view, look, melds)
            return max(melds, key=lambda meld: self._meld_worth(meld, look))
        if not look.down and swaps:
            missing = self._missing(look.hand, look)
            for swap in swaps:
                if self._meets((*_without(look.hand, swap.card), JOKER), missing - 1, look):
                    return swap
        elif look.down:
            if swaps:
                return swaps[0]
            lay_offs = [action for action in actions if isinstance(action, LayOff)]
            if lay_offs:
                values = look.variant.scoring.values
                return max(lay_offs, key=lambda lay: (not lay.card.is_joker, values.of(lay.card)))
        discards = [action for action in actions if isinstance(action, Discard)]
        if not discards:
            return actions[0]
        return self._discard(view, look, discards)

    def _going_down(self, view: PlayerView, look: _Look, melds: Sequence[Meld]) -> Action:
        """The next group of the going down planned: the whole way that lays the most cards
        (then leaves the fewest points, then holds the fewest jokers), chosen when the going
        down begins and laid a group at a time in its canonical order. Where the plan no
        longer fits what is listed, or too many groups are listed to weigh every way
        (:attr:`_plan_limit`), the listed group that lays the most cards."""
        seat = _seat_of(view)
        listed = {meld.groups[0]: meld for meld in melds if len(meld.groups) == 1}
        hand = _key(view.hand)
        plan = self._plan
        if not (plan is not None and plan[0] == (seat, view.deal_number, hand)):
            plan = None
            if not view.going_down and self._few_ways(len(listed), look):
                plan = self._new_plan(view, look, listed, hand)
        if plan is not None and plan[1] and plan[1][0] in listed:
            group, rest = plan[1][0], plan[1][1:]
            after = Counter(hand)
            after.subtract(group)
            self._plan = (seat, view.deal_number, _key(after.elements())), rest
            return listed[group]
        self._plan = None
        return max(melds, key=lambda meld: self._meld_worth(meld, look))

    def _few_ways(self, listed: int, look: _Look) -> bool:
        """Whether the whole ways ``listed`` single groups could make are few enough to
        weigh (:attr:`_plan_limit`, :attr:`_ways_budget`)."""
        if listed > self._plan_limit:
            return False
        requirement = look.requirement
        if isinstance(requirement, Contract) and look.variant.going_down.exact_meld_count:
            groups = requirement.group_count
            bound = comb(listed + groups - 1, groups)
        elif len(look.hand) <= MAX_OPEN_ENDED_HAND_CARDS:
            return True  # hands this small make few ways (the weighing of every version)
        else:
            bound = 1 << listed
        return bound <= self._ways_budget

    def _new_plan(
        self, view: PlayerView, look: _Look, listed: dict[tuple[Card, ...], Meld], hand: object
    ) -> tuple[tuple[int, int, object], tuple[tuple[Card, ...], ...]] | None:
        """The plan of the best whole way whose first group is listed, or None."""
        seat = _seat_of(view)
        variant = look.variant
        rule = variant.going_out_in(view.deal_number)
        best: tuple[tuple[int, int, int], Arrangement] | None = None
        for way in arrangements(view.hand, view.requirement, variant):
            left = len(view.hand) - sum(map(len, way))
            if (rule is GoOutDiscard.REQUIRED and left == 0) or way[0] not in listed:
                continue
            worth = self._meld_worth(Meld(seat, way), look)
            if best is None or worth > best[0]:
                best = (worth, way)
        if best is None:
            return None
        return (seat, view.deal_number, hand), best[1]

    @staticmethod
    def _meld_worth(meld: Meld, look: _Look) -> tuple[int, int, int]:
        laid = [card for group in meld.groups for card in group]
        left = Counter(look.hand)
        left.subtract(laid)
        values = look.variant.scoring.values
        jokers = sum(1 for card in laid if card.is_joker)
        return (len(laid), -sum(values.of(card) * n for card, n in left.items()), -jokers)

    # -- discarding --------------------------------------------------------------------------

    def _discard(self, view: PlayerView, look: _Look, discards: Sequence[Discard]) -> Action:
        hand = look.hand
        values = look.variant.scoring.values
        keep_high = isinstance(look.requirement, Opening)
        new_groups = look.down and look.variant.going_down.new_melds is not NewMelds.NEVER

        tally = self._tally(hand)

        def cost(discard: Discard) -> tuple[bool, float, int]:
            card = discard.card
            use = 0.0
            if not look.down or new_groups:
                use += _neighbours(card, tally, look)
            if look.down:
                use += _table_use(card, view.table, look)
            value = values.of(card)
            return (card.is_joker, use, value if keep_high else -value)

        ranked = sorted(discards, key=cost)
        if look.down:
            return ranked[0]
        missing = self._missing(hand, look)
        ways = self._ways_found(hand, missing, look)
        for discard in ranked:  # the first that leaves no more cards missing
            card = discard.card
            if card.is_joker:
                break
            rest = _without(hand, card)
            ordered = _key(rest)
            if any(_leaves_out(way, hand, card) for way in ways) or self._meets(
                rest, missing, look, ordered
            ):
                self._remember(rest, missing, look, ordered)
                return discard
        return ranked[0]

    def _ways_found(self, hand: Sequence[Card], wild: int, look: _Look) -> list[Arrangement]:
        """The ways the search found for ``hand``, or for ``hand`` less one card, with
        ``wild`` wild cards, where any way serves as well as the search's own for the hand
        less a card: where no wild card's place can count against it (no card is gone, or
        no wild card is asked for, see :meth:`_meets`), the hand less a card one of these
        ways holds fewer copies of than the hand meets the requirement by that way, and
        :meth:`_meets` would say so. Empty where places count or none was searched."""
        if look.gone and wild:
            return []
        ordered = _key(hand)
        found = self._found
        tag = look.tag
        ways: list[Arrangement] = []
        way = found.get((tag, ordered, wild))
        if isinstance(way, tuple):
            ways.append(way)
        previous = None
        for index, card in enumerate(ordered):  # the hand less one copy of each card
            if card is not previous:
                way = found.get((tag, ordered[:index] + ordered[index + 1 :], wild))
                if isinstance(way, tuple):
                    ways.append(way)
            previous = card
        return ways

    # -- how far a hand is from its requirement ----------------------------------------------

    def _meets(
        self, cards: Sequence[Card], wild: int, look: _Look, ordered: tuple[Card, ...] = ()
    ) -> bool:
        """Whether ``cards`` and ``wild`` wild cards meet the requirement, no wild card
        standing for a card that cannot come any more (beyond the hand's own jokers).
        ``ordered``: ``_key(cards)`` where the caller has it."""
        if wild < 0:
            return False
        key = (look.tag, ordered or _key(cards), wild)
        found = self._found.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            if len(self._found) > 100_000:
                self._found.clear()
            found = solve((*cards, *(JOKER,) * wild), look.requirement, look.relaxed)
            self._found[key] = found
        if found is None or isinstance(found, _Unknown):
            return False
        return wild == 0 or self._dead_slots(found, look) <= cards.count(JOKER)

    def _dead_slots(self, groups: Arrangement, look: _Look) -> int:
        """How many jokers in ``groups`` stand for a card that cannot come any more."""
        if not look.gone:
            return 0
        dead = 0
        stands_of = self._stands
        for group in groups:
            key = (look.tag[0], group)
            stands = stands_of.get(key, _UNKNOWN)
            if isinstance(stands, _Unknown):
                if len(stands_of) > 100_000:
                    stands_of.clear()
                stands = stands_of[key] = _joker_stands(group, look.relaxed)
            if stands is None:
                continue
            cards, ranks = stands
            for card in cards:
                dead += card in look.gone
            for rank in ranks:
                dead += rank in look.gone_ranks
        return dead

    def _missing(self, cards: Sequence[Card], look: _Look) -> int:
        """About how many cards ``cards`` lack to meet the requirement: the fewest wild cards
        that meet it. A hand one card away from a hand already measured lacks as many, or
        one fewer; otherwise the search starts from the last answer."""
        ordered = _key(cards)
        tag, measured = look.tag, self._missing_of
        known = measured.get((tag, ordered))
        if known is not None:
            return known
        # each card's first place in the ordered hand, the cards in that order (not a set's,
        # which follows the cards' identities and so differs from process to process)
        first: dict[Card, int] = {}
        for index, card in enumerate(ordered):
            first.setdefault(card, index)
        for index in first.values():  # the hand without one copy of the card: still in order
            parent = measured.get((tag, ordered[:index] + ordered[index + 1 :]))
            if parent is not None:
                missing = parent
                while missing > 0 and self._meets(cards, missing - 1, look, ordered):
                    missing -= 1
                break
        else:
            missing = min(self._last_missing, _MOST_JOKERS)
            if self._meets(cards, missing, look, ordered):
                while missing > 0 and self._meets(cards, missing - 1, look, ordered):
                    missing -= 1
            else:
                while missing <= _MOST_JOKERS and not self._meets(cards, missing, look, ordered):
                    missing += 1
        self._last_missing = missing
        self._remember(cards, missing, look, ordered)
        return missing

    def _remember(
        self, cards: Sequence[Card], missing: int, look: _Look, ordered: tuple[Card, ...] = ()
    ) -> None:
        if len(self._missing_of) > 100_000:
            self._missing_of.clear()
        self._missing_of[look.tag, ordered or _key(cards)] = missing


def _leaves_out(way: Arrangement, hand: Sequence[Card], card: Card) -> bool:
    """Whether ``way`` (of some of ``hand`` and wild cards) holds fewer copies of ``card``
    than ``hand`` does: the hand less one of them still holds the way."""
    return sum(group.count(card) for group in way) < hand.count(card)


def _builds(card: Card, look: _Look) -> bool:
    """Whether a seat that is down, where the variant lets it lay new groups, can make a group
    of the natural ``card`` and two natural cards of its hand."""
    if not look.down or card.is_joker or look.variant.going_down.new_melds is NewMelds.NEVER:
        return False
    naturals = [other for other in look.hand if not other.is_joker]
    for first, second in combinations(naturals, 2):
        try:
            check_group((first, second, card), look.variant)
        except RummyError:
            continue
        return True
    return False


def _joker_stands(group: tuple[Card, ...], relaxed: Variant) -> _Stands | None:
    """What the jokers of ``group`` stand for, read under ``relaxed``: the natural cards (in
    a run) and the ranks (in a set); None where it holds no joker or is no group."""
    if JOKER not in group:
        return None
    try:
        shape = check_group(group, relaxed)
    except RummyError:
        return None
    cards: list[Card] = []
    ranks: list[Rank] = []
    for index, card in enumerate(shape.cards):
        if card.is_joker:
            stands = shape.stands_for(index)
            if isinstance(stands, Card):
                cards.append(stands)
            else:
                ranks.append(stands)
    return tuple(cards), tuple(ranks)


class _HandTally:
    """A hand's natural cards counted by rank and by card, and the ranks held in each suit
    (one entry a card), for :func:`_neighbours`."""

    __slots__ = ("cards", "ranks", "suits")

    def __init__(self, hand: Iterable[Card]) -> None:
        self.ranks: dict[Rank, int] = {}
        self.cards: dict[Card, int] = {}
        self.suits: dict[Suit, list[Rank]] = {}
        for card in hand:
            rank, suit = card.rank, card.suit
            if rank is None or suit is None:
                continue  # a joker
            self.ranks[rank] = self.ranks.get(rank, 0) + 1
            self.cards[card] = self.cards.get(card, 0) + 1
            self.suits.setdefault(suit, []).append(rank)


def _neighbours(card: Card, hand: _HandTally, look: _Look, added: int = 0) -> float:
    """How much the other cards in hand build on ``card``: cards of its rank count for sets,
    cards of its suit one or two places away for runs (not across a card that cannot come).
    ``added``: 1 where ``hand`` is counted without ``card``, which then joins it (the tally
    of the hand as it is serves every card it is offered)."""
    suit, rank = card.suit, card.rank
    if suit is None or rank is None:
        return 0.0
    sets, runs = look.kinds
    score = 0.0
    if runs:
        links = _SUIT_LINKS[look.variant.melds.aces][suit][rank]
        gone = look.gone
        for other_rank in hand.suits.get(suit, ()):
            if other_rank is rank:
                continue  # a copy of the card counts for sets
            ones, betweens = links[other_rank]
            score += ones
            for between in betweens:
                if between not in gone:
                    score += 0.5
    if sets and rank not in look.gone_ranks:
        # the other cards of its rank: one copy of the card is the card itself; where sets
        # need distinct suits, no copy of it counts
        copies = hand.cards.get(card, 0) + added
        others = copies if look.variant.melds.set_distinct_suits else min(copies, 1)
        score += hand.ranks.get(rank, 0) + added - others
    return score


def _links(rank: Rank, other: Rank, aces: Aces) -> tuple[int, tuple[Rank, ...]]:
    """How a card of ``rank`` and one of ``other`` of its suit link for runs: the pairs of
    their run positions side by side, and the rank between each pair one place apart."""
    ones = 0
    betweens = []
    for here in _RUN_POSITIONS[aces][rank]:
        for there in _RUN_POSITIONS[aces][other]:
            gap = abs(here - there)
            if gap == 1:
                ones += 1
            elif gap == 2:
                betweens.append(_rank_at((here + there) // 2))
    return ones, tuple(betweens)


def _rank_at(position: int) -> Rank:
    return Rank.ACE if position in (1, 14) else Rank(position)


# by the rule for aces, a card's rank and another card's of its suit: _links
_RUN_LINKS = {
    aces: {rank: {other: _links(rank, other, aces) for other in Rank} for rank in Rank}
    for aces in Aces
}

# the same by suit, each rank between as the card of that suit
_SUIT_LINKS = {
    aces: {
        suit: {
            rank: {
                other: (ones, tuple(Card.of(between, suit) for between in betweens))
                for other, (ones, betweens) in links.items()
            }
            for rank, links in by_rank.items()
        }
        for suit in Suit
    }
    for aces, by_rank in _RUN_LINKS.items()
}


def _table_use(card: Card, table: Sequence[TableMeld], look: _Look) -> float:
    """How near ``card`` is to fitting a table meld: it fits now, or one card is missing."""
    if card.suit is None:
        return 0.0
    suit = card.suit
    if any(lay_off_ends(meld, card, look.variant) for meld in table):
        return 4.0
    score = 0.0
    for meld in table:
        if meld.kind is MeldKind.SET:
            score += 2.0 if meld.rank is card.rank else 0.0
        elif meld.suit is card.suit and meld.start is not None and meld.end is not None:
            for position in _positions(card, look.variant.melds.aces):
                low_gap, high_gap = meld.start - position, position - meld.end
                if low_gap == 2 or high_gap == 2:
                    between = Card.of(_rank_at(position + (1 if low_gap == 2 else -1)), suit)
                    if between not in look.gone:
                        score += 1.0
                        break
    return score
