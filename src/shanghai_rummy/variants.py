"""A variant is every rule of a game as data: a frozen :class:`Variant` made of small policy
objects. The engine reads these fields and never asks which preset it is running.

Presets live in :data:`VARIANTS`; build your own with :func:`attrs.evolve` or from a file.

>>> import attrs
>>> from shanghai_rummy import get_variant
>>> shanghai = get_variant("shanghai")
>>> shanghai.pack_size(4).cards, shanghai.pack_size(5).cards
(106, 159)
>>> house = attrs.evolve(
...     shanghai, id="house", buying=attrs.evolve(shanghai.buying, penalty_cards=1)
... )
>>> house.buying.penalty_cards
1
"""

from __future__ import annotations

import enum

import attrs

from . import limits
from ._field_types import describe_type, first_mistyped
from .cards import Card
from .contracts import RUMMY51_VALUES, CardValues, Contract, Opening, Requirement
from .errors import VariantError

__all__ = [
    "VARIANTS",
    "Aces",
    "BuyPriority",
    "BuyRules",
    "DealSpec",
    "DrawRules",
    "FirstDealer",
    "FreedJoker",
    "GoOutDiscard",
    "GoingDownRules",
    "JokerRules",
    "JokerSwapRules",
    "MeldRules",
    "NewMelds",
    "PackSize",
    "Progression",
    "Restock",
    "SameSuitRuns",
    "Scoring",
    "StockRules",
    "SwapFrom",
    "SwapWho",
    "Variant",
    "get_variant",
]


def _fail(field: str, problem: str) -> VariantError:
    return VariantError(f"Variant.{field}: {problem}")


def _check_int(field: str, value: object, low: int, high: int, limit: str) -> None:
    """``value`` is an integer from ``low`` to ``high``, the maximum named ``limit`` in
    :mod:`.limits`; compared before anything loops over it."""
    if type(value) is not int or not low <= value <= high:
        raise _fail(
            field,
            f"must be an integer from {low} to {high} (limits.{limit}), got {_short(value)}",
        )


def _short(value: object) -> str:
    return describe_type(value) if type(value) is not int else _short_int(value)


def _short_int(value: int) -> str:
    # an int of more than 4,300 digits cannot be printed; a long one is not worth printing
    if value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    return str(value)


class Aces(enum.Enum):
    """Where an ace may sit in a run."""

    HIGH = "high"
    """Above the king only: Q-K-A, never A-2-3."""
    LOW = "low"
    """Below the 2 only: A-2-3, never Q-K-A."""
    HIGH_OR_LOW = "high_or_low"
    """Either end, never both in one run, no wrap: A-2-3 and Q-K-A, not K-A-2."""
    BOTH_ENDS = "both_ends"
    """Either end, and one run may run from ace to ace (A-2-...-K-A), but no wrap past it."""
    WRAP = "wrap"
    """Runs may turn the corner: K-A-2 is a run."""


@attrs.frozen(kw_only=True)
class PackSize:
    """The pack for ``min_players`` to ``max_players`` seats: ``decks`` standard decks plus
    ``jokers`` jokers."""

    min_players: int
    max_players: int
    decks: int
    jokers: int

    @property
    def cards(self) -> int:
        """How many cards the pack holds."""
        return 52 * self.decks + self.jokers


@attrs.frozen(kw_only=True)
class DealSpec:
    """One deal: what going down requires, and how many cards each player is dealt.
    ``packs``: house rule: the pack of this deal by seat count, as :attr:`Variant.packs`
    (empty: the variant's packs), for tables that add a deck or jokers in the long deals.
    ``going_out``: house rule: this deal's going-out rule (``None``: :attr:`Variant.going_out`),
    for tables where the last deal must be gone out by discarding, say."""

    requirement: Requirement
    cards: int
    packs: tuple[PackSize, ...] = ()
    going_out: GoOutDiscard | None = None


@attrs.frozen(kw_only=True)
class MeldRules:
    """The shapes of valid groups.

    ``set_max``/``run_max`` of ``None`` mean no limit beyond what the pack and aces allow.
    ``set_distinct_suits`` forbids two cards of one suit in a set (so sets hold at most 4),
    always. ``set_distinct_suits_when_laid`` forbids it only in a set as it is laid down (when
    going down, or as a new group): lay-offs and joker swaps may then add a suit it holds.
    Neither: suits do not matter.
    """

    set_min: int = 3
    set_max: int | None = None
    set_distinct_suits: bool = False
    set_distinct_suits_when_laid: bool = False
    run_min: int = 4
    run_max: int | None = None
    aces: Aces = Aces.HIGH

    @property
    def longest_run(self) -> int:
        """The longest run the ace rule and ``run_max`` allow."""
        natural_limit = 14 if self.aces is Aces.BOTH_ENDS else 13
        return natural_limit if self.run_max is None else min(self.run_max, natural_limit)

    @property
    def largest_set(self) -> int | None:
        """The largest set allowed, or None for no limit."""
        limits = [
            limit for limit in (self.set_max, 4 if self.set_distinct_suits else None) if limit
        ]
        return min(limits) if limits else None

    @property
    def largest_laid_set(self) -> int | None:
        """The largest set that may be laid down (going down, or as a new group), or None
        for no limit: :attr:`largest_set`, and 4 where ``set_distinct_suits_when_laid``."""
        largest = self.largest_set
        if not self.set_distinct_suits_when_laid:
            return largest
        return 4 if largest is None else min(largest, 4)

    @property
    def distinct_suits_when_laid(self) -> bool:
        """Whether a set laid down may not hold two cards of one suit (either field)."""
        return self.set_distinct_suits or self.set_distinct_suits_when_laid


@attrs.frozen(kw_only=True)
class JokerRules:
    """How many jokers a group may hold. Every group needs at least one natural card.

    - ``at_most_naturals``: a group never holds more jokers than natural cards (8-8-JK and
      8-8-JK-JK but not 8-JK-JK), whenever it is laid down or grows.
    - ``going_down_by_size``: when going down, a contract group of that size holds at most
      that many jokers: pairs ``(size, max_jokers)``, one for every size of every contract.
    - ``going_down_per_group``: when going down (opening), each group holds at most this many.
    - ``per_group_for_the_going_down_turn``: that limit holds for the whole turn of going
      down: no lay-off that turn adds a joker to one of the player's groups beyond it.
    - ``min_naturals``: house rule: the fewest natural cards a group is laid with (2: no
      group of one natural card and jokers, as some tables play with ``at_most_naturals``
      off); from 1 to the smallest group. A group of jokers only is not supported: nothing
      would say what its jokers stand for.
    - ``side_by_side_in_runs``: two jokers may sit next to each other in a run (false: as in
      Remik, never, whenever a run is laid down or grows: 5-JK-7-JK but not 5-JK-JK-8).
    - ``wild_ranks``: house rule (deuces wild): the ranks whose cards are wild besides the
      jokers, as rank numbers (2 to 10, J 11, Q 12, K 13, A 14; ``(2,)``: deuces wild). In a
      group such a card is natural where it stands as itself (its rank in a set, its rank
      and suit at its place in a run) and a joker everywhere else; every joker limit counts
      it as a joker only where it stands for another card. Only the jokers themselves are
      ever swapped out of a group. A wild card held scores its rank's value. The solver
      counts a wild card held as a joker or as itself, with sets of distinct suits too.
    - ``dead_wild_discards``: house rule, with ``wild_ranks``: a card of a wild rank on top
      of the discard pile is dead, like a card covered by another: it may not be taken or
      bought (the next player draws from the stock), whether a player discarded it or it
      was turned up to start the pile. A joker on the pile is not concerned.
    """

    at_most_naturals: bool = True
    going_down_by_size: tuple[tuple[int, int], ...] = ()
    going_down_per_group: int | None = None
    per_group_for_the_going_down_turn: bool = False
    min_naturals: int = 1
    side_by_side_in_runs: bool = True
    wild_ranks: tuple[int, ...] = ()
    dead_wild_discards: bool = False

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is a joker or a card of a wild rank."""
        return card.rank is None or card.rank in self.wild_ranks

    def dead_on_the_pile(self, card: Card) -> bool:
        """Whether ``card`` on top of the discard pile is dead (``dead_wild_discards``: a
        card of a wild rank), so that it is no upcard to take or buy."""
        return self.dead_wild_discards and card.rank is not None and card.rank in self.wild_ranks

    def going_down_limit(self, size: int | None) -> int | None:
        """The limit for a group laid down when going down, from the size the contract asks
        for (``None`` for an opening), or None where only ``at_most_naturals`` applies."""
        limits = [] if self.going_down_per_group is None else [self.going_down_per_group]
        if size is not None:
            limits.extend(
                limit for group_size, limit in self.going_down_by_size if group_size == size
            )
        return min(limits) if limits else None


class BuyPriority(enum.Enum):
    """Who is offered the upcard first when several players want to buy it."""

    DEALER_LEFT = "dealer_left"
    """Closest to the dealer's left first."""
    NEXT_PLAYER_LEFT = "next_player_left"
    """Clockwise from the left of the player whose turn it is."""


@attrs.frozen(kw_only=True)
class BuyRules:
    """Buying the upcard out of turn.

    ``limits`` pairs ``(first_deal, max_buys)``: from that deal number on, a player may buy
    at most that many times per deal (``((1, 3), (9, 4))``: 3 in deals 1-8, 4 from deal 9).
    ``down_players_may_buy`` lets a player who is down buy; ``down_player_may_block`` lets a
    down player whose turn it is take the upcard before others may buy it.
    """

    enabled: bool = True
    penalty_cards: int = 2
    limits: tuple[tuple[int, int], ...] = ((1, 3), (9, 4))
    priority: BuyPriority = BuyPriority.DEALER_LEFT
    down_players_may_buy: bool = False
    down_player_may_block: bool = False

    def limit(self, deal_number: int) -> int:
        """The most buys a player may make in that deal (0 when buying is off)."""
        if not self.enabled:
            return 0
        allowed = 0
        for first_deal, max_buys in self.limits:
            if deal_number >= first_deal:
                allowed = max_buys
        return allowed


@attrs.frozen(kw_only=True)
class DrawRules:
    """Dealing and drawing.

    - ``upcard_at_start``: turn the top of the stock up to start the discard pile.
    - ``starter_extra_card``: the first player is dealt one card more and begins by
      discarding without drawing.
    - ``upcard_obliges_going_down_from_turn``: from that turn of a seat on (1 = its first
      turn of the deal), taking the upcard while not down obliges going down that turn.
      ``None``: taking it never obliges anything.
    - ``down_players_take_upcard``: a player who is down may take the upcard in their turn
      (false: a player who is down draws from the stock only, as some contract-rummy tables
      play it; the upcard is still offered to buyers).
    """

    upcard_at_start: bool = True
    starter_extra_card: bool = False
    upcard_obliges_going_down_from_turn: int | None = None
    down_players_take_upcard: bool = True


class GoOutDiscard(enum.Enum):
    """Whether the last card may, or must, be a discard."""

    NEVER = "never"
    """Go out by melding or laying off every card; discarding the last card is not allowed."""
    OPTIONAL = "optional"
    """Go out by playing or by discarding the last card."""
    REQUIRED = "required"
    """Go out only by discarding the last card; it may not be melded or laid off."""


class NewMelds(enum.Enum):
    """Whether a player who is down may lay down new groups."""

    NEVER = "never"
    LATER_TURNS = "later_turns"
    SAME_TURN = "same_turn"


class SameSuitRuns(enum.Enum):
    """Two runs of one suit laid down together when going down."""

    ALLOWED = "allowed"
    NOT_JOINABLE = "not_joinable"
    """Allowed unless they could form one run (3-6♥ with 7-10♥ is refused)."""
    SEPARATED = "separated"
    """They must be separated by at least one rank (3-6♥ with 8-J♥)."""


@attrs.frozen(kw_only=True)
class GoingDownRules:
    """Laying down the contract, and what a player who is down may do.

    - ``exact_meld_count``: exactly the contract's number of groups (else more are allowed).
    - ``exact_sizes``: each group exactly its contract size (else at least it).
    - ``lay_off_same_turn``: may lay off on the turn of going down.
    - ``new_melds``: whether new groups may be laid down after going down.
    - ``same_suit_runs``: how runs of one suit laid down together must relate.
    - ``out_same_turn``: a player may go out on the turn they go down (false: that turn
      must end with a discard that leaves a card in hand, so the going down and the turn's
      other plays leave at least two cards).
    """

    exact_meld_count: bool = True
    exact_sizes: bool = False
    lay_off_same_turn: bool = True
    new_melds: NewMelds = NewMelds.NEVER
    same_suit_runs: SameSuitRuns = SameSuitRuns.NOT_JOINABLE
    out_same_turn: bool = True


class SwapFrom(enum.Enum):
    """Which table groups a joker may be taken from."""

    RUNS_AND_SETS = "runs_and_sets"
    RUNS = "runs"
    """From runs only: a joker in a set stays there."""
    SETS = "sets"
    """From sets only: a joker in a run stays there."""


class SwapWho(enum.Enum):
    """Who may take a joker from a table group by giving the card it stands for."""

    ANYONE = "anyone"
    DOWN_ONLY = "down_only"
    NOBODY = "nobody"


class FreedJoker(enum.Enum):
    """Where the joker a swap frees goes."""

    TO_HAND = "to_hand"
    """Into the hand of the player who swapped it."""
    TO_RUN_END = "to_run_end"
    """Freed from a run, it stays in the run: the natural card takes its place and the joker
    moves to the run's high end, or its low end where the high one is not free (the ace rule,
    the longest run, ``jokers.side_by_side_in_runs``); a swap from a run with neither end free
    is refused. Such a swap is a lay-off in effect: only a player who is down makes it, by
    the lay-off rules (``going_down.lay_off_same_turn``), and playing the last card that way
    goes out. Freed from a set (which has no ends), the joker goes into the hand."""


@attrs.frozen(kw_only=True)
class JokerSwapRules:
    """Joker swaps.

    - ``who``: who may swap.
    - ``must_go_down_same_turn``: a player not yet down who swaps must go down that turn.
    - ``joker_into_new_meld``: the joker taken must be laid down in a new group that turn.
    - ``same_turn_as_going_down``: a player may swap on the turn they went down on (false:
      only on later turns, as ``going_down.lay_off_same_turn`` for lay-offs).
    - ``from_melds``: the groups a joker may be taken from: runs and sets, runs only, or
      sets only.
    - ``freed_joker``: where the joker goes: into the swapper's hand, or (house rule) it
      stays in a run, moved to an end (see :class:`FreedJoker`); ``joker_into_new_meld``
      then concerns only the jokers that go into the hand.
    """

    who: SwapWho = SwapWho.ANYONE
    must_go_down_same_turn: bool = True
    joker_into_new_meld: bool = False
    same_turn_as_going_down: bool = True
    from_melds: SwapFrom = SwapFrom.RUNS_AND_SETS
    freed_joker: FreedJoker = FreedJoker.TO_HAND


class Restock(enum.Enum):
    """What happens when the stock runs out."""

    RESHUFFLE_PILE = "reshuffle_pile"
    """Shuffle the discard pile but its top card into a new stock."""
    END_DEAL = "end_deal"
    """The deal ends with no winner."""


@attrs.frozen(kw_only=True)
class StockRules:
    """The stock.

    - ``restock``: what happens when the stock runs out.
    - ``turn_limit``: after this many turns a deal ends with no winner (a safety so that
      every deal ends whatever the players do; at most
      :data:`~shanghai_rummy.limits.MAX_TURN_LIMIT`, and there is no "no limit").
    - ``max_restocks``: house rule: at most this many re-stocks in a deal; when the stock runs
      out again the deal ends with no winner (``None``: as often as the pile allows; at most
      :data:`~shanghai_rummy.limits.MAX_TURN_LIMIT`, since each re-stock takes a turn's
      discard).
    """

    restock: Restock = Restock.RESHUFFLE_PILE
    turn_limit: int = 1000
    max_restocks: int | None = None


@attrs.frozen(kw_only=True)
class Scoring:
    """Points at the end of a deal; the lowest total wins.

    - ``values``: what each card left in hand costs.
    - ``going_out``: the score of the player who goes out.
    - ``one_turn_out``: the score instead when that player went down and out in one turn,
      never having gone down before ("blind", or a "hand"); ``None``: no such bonus.
      ``one_turn_out_without_jokers``: the same when no joker was used (``None``: as above).
      ``one_turn_out_allows_lay_off_on_others``: whether laying off on other players' groups
      that turn still counts as a one-turn out.
    - ``others_multiplier_after_one_turn_out``: the other players' points are multiplied.
    - ``never_down_penalty``: a flat score for a player who never went down (``None``: count
      the cards).
    - ``cut_card_hand``: optional house rule: the cut card at the bottom of the stock may be
      taken only to go out in one turn, scoring this (``None``: off).
    """

    values: CardValues
    going_out: int = 0
    one_turn_out: int | None = None
    one_turn_out_without_jokers: int | None = None
    one_turn_out_allows_lay_off_on_others: bool = True
    others_multiplier_after_one_turn_out: int = 1
    never_down_penalty: int | None = None
    cut_card_hand: int | None = None


class Progression(enum.Enum):
    """Which contract each seat works on in a deal (:attr:`Variant.progression`)."""

    PER_DEAL = "per_deal"
    """Every seat plays deal *n*'s contract in deal *n* (``deals[(n - 1) % len(deals)]``), and
    the game lasts ``deal_count`` deals."""
    PER_SEAT = "per_seat"
    """Progressive contracts (as in Phase 10): ``deals`` are levels; every seat starts on
    level 1 and moves to the next level after a deal in which it went down. Each deal deals
    every seat the ``cards`` of the highest level any seat is on. The game ends after the
    deal in which a seat completes the last level (the seats that did are placed first, by
    their totals), or after ``deal_count`` deals, which must be at least one per level (then
    the seats are placed by the levels they completed, then by their totals)."""


class FirstDealer(enum.Enum):
    """Who deals the first deal."""

    SEAT_ZERO = "seat_zero"
    LOWEST_CUT = "lowest_cut"
    """Every seat cuts a card from a seeded shuffle; the lowest deals (ties: the earlier seat)."""


SHANGHAI_VALUES = CardValues.from_mapping({"2": 20, "3-9": 5, "10-K": 10, "A": 15, "JK": 25})
"""Shanghai's card values: 3-9 5, 10-K 10, A 15, 2 20, joker 25."""


@attrs.frozen(kw_only=True)
class Variant:
    """Every rule of a game. Frozen and keyword-only; construction validates and raises
    :class:`~shanghai_rummy.VariantError` naming the bad field.

    ``deals`` lists the deals in order; deal *n* uses ``deals[(n - 1) % len(deals)]``.
    ``deal_count`` is the number of deals in a game (``None``: one per seat).
    ``progression``: house rule: :attr:`Progression.PER_SEAT` makes ``deals`` levels that
    each seat climbs on its own (progressive contracts) and ``deal_count`` the most deals a
    game may last; see :class:`Progression`.
    """

    id: str
    name: str
    source: str
    min_players: int
    max_players: int
    packs: tuple[PackSize, ...]
    deals: tuple[DealSpec, ...]
    deal_count: int | None
    first_dealer: FirstDealer = FirstDealer.SEAT_ZERO
    melds: MeldRules = MeldRules()
    jokers: JokerRules = JokerRules()
    drawing: DrawRules = DrawRules()
    buying: BuyRules = BuyRules()
    going_down: GoingDownRules = GoingDownRules()
    going_out: GoOutDiscard = GoOutDiscard.NEVER
    joker_swap: JokerSwapRules = JokerSwapRules()
    stock: StockRules = StockRules()
    scoring: Scoring = attrs.field(factory=lambda: Scoring(values=SHANGHAI_VALUES))
    progression: Progression = Progression.PER_DEAL

    def __attrs_post_init__(self) -> None:
        _validate(self)

    def pack_size(self, players: int, deal_number: int | None = None) -> PackSize:
        """The pack for that many seats (in deal ``deal_number``, where its
        :attr:`DealSpec.packs` sets one; None: the variant's own packs);
        :class:`~shanghai_rummy.VariantError` if the variant is not for that many."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise VariantError(
                f"Variant.min_players/max_players: {self.id!r} is for "
                f"{self.min_players}-{self.max_players} players, not {players!r}"
            )
        packs = self.packs
        if deal_number is not None and self.deal(deal_number).packs:
            packs = self.deal(deal_number).packs
        for pack in packs:
            if pack.min_players <= players <= pack.max_players:
                return pack
        raise _fail("packs", f"no pack for {players} players")  # pragma: no cover - validated

    def largest_pack(self, players: int) -> PackSize:
        """The most decks and the most jokers any deal's pack holds for that many seats
        (what a fixed layout of every deal's cards must hold, such as an RL action space)."""
        packs = [self.pack_size(players)]
        packs += [self.pack_size(players, number) for number in range(1, len(self.deals) + 1)]
        return PackSize(
            min_players=players,
            max_players=players,
            decks=max(pack.decks for pack in packs),
            jokers=max(pack.jokers for pack in packs),
        )

    def deal(self, deal_number: int) -> DealSpec:
        """The deal with that (1-based) number."""
        return self.deals[(deal_number - 1) % len(self.deals)]

    def going_out_in(self, deal_number: int) -> GoOutDiscard:
        """The going-out rule of the deal with that number: its own
        (:attr:`DealSpec.going_out`), else :attr:`going_out`."""
        rule = self.deals[(deal_number - 1) % len(self.deals)].going_out
        return self.going_out if rule is None else rule

    def total_deals(self, players: int) -> int:
        """How many deals a game with that many seats lasts."""
        return players if self.deal_count is None else self.deal_count


def _validate(variant: Variant) -> None:
    # Types first, then every size against its maximum, and only then the checks that loop
    # over seat counts and deals: nothing here does work that grows with a value before the
    # value is known to be small.
    mistyped = first_mistyped(variant, Variant, "Variant")
    if mistyped is not None:
        path, problem = mistyped
        raise VariantError(f"{path}: {problem}")
    for name in ("id", "name", "source"):
        text = getattr(variant, name)
        if len(text) > limits.MAX_TEXT_LENGTH:
            raise _fail(
                name, f"at most {limits.MAX_TEXT_LENGTH} characters (limits.MAX_TEXT_LENGTH)"
            )
        _check_text(name, text)
    if not variant.id:
        raise _fail("id", "must be a non-empty string")
    _check_int("min_players", variant.min_players, 2, limits.MAX_PLAYERS, "MAX_PLAYERS")
    _check_int(
        "max_players", variant.max_players, variant.min_players, limits.MAX_PLAYERS, "MAX_PLAYERS"
    )
    _validate_packs("packs", variant.packs, variant)
    if not variant.deals:
        raise _fail("deals", "needs at least one deal")
    if len(variant.deals) > limits.MAX_DEALS:
        raise _fail("deals", f"at most {limits.MAX_DEALS} deals (limits.MAX_DEALS)")
    if variant.deal_count is not None:
        _check_int("deal_count", variant.deal_count, 1, limits.MAX_DEALS, "MAX_DEALS")
    _validate_melds(variant)
    _validate_buying(variant)
    if variant.progression is Progression.PER_SEAT:
        _validate_levels(variant)
    for index, spec in enumerate(variant.deals):
        _validate_deal(variant, index, spec)
    _check_int(
        "stock.turn_limit", variant.stock.turn_limit, 1, limits.MAX_TURN_LIMIT, "MAX_TURN_LIMIT"
    )
    if variant.stock.max_restocks is not None:
        _check_int(
            "stock.max_restocks",
            variant.stock.max_restocks,
            0,
            limits.MAX_TURN_LIMIT,
            "MAX_TURN_LIMIT",
        )
    obliges = variant.drawing.upcard_obliges_going_down_from_turn
    if obliges is not None:
        _check_int(
            "drawing.upcard_obliges_going_down_from_turn",
            obliges,
            1,
            limits.MAX_TURN_LIMIT,
            "MAX_TURN_LIMIT",
        )
    if variant.buying.down_player_may_block and not variant.drawing.down_players_take_upcard:
        raise _fail(
            "buying.down_player_may_block",
            "a player who is down may block buyers only by taking the upcard, which "
            "drawing.down_players_take_upcard=false forbids",
        )
    _validate_scoring(variant.scoring)
    if not variant.going_down.out_same_turn:
        scoring = variant.scoring
        for name in ("one_turn_out", "one_turn_out_without_jokers", "cut_card_hand"):
            if getattr(scoring, name) is not None:
                raise _fail(
                    f"scoring.{name}",
                    "scores going down and out in one turn, which "
                    "going_down.out_same_turn=false forbids",
                )


def _check_text(field: str, text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(field, "holds a lone surrogate, which no UTF-8 text can hold") from None


def _validate_packs(name: str, packs: tuple[PackSize, ...], variant: Variant) -> None:
    if not packs or len(packs) > limits.MAX_PLAYERS:
        raise _fail(name, f"needs 1 to {limits.MAX_PLAYERS} packs (limits.MAX_PLAYERS)")
    for index, pack in enumerate(packs):
        field = f"{name}[{index}]"
        _check_int(f"{field}.min_players", pack.min_players, 2, limits.MAX_PLAYERS, "MAX_PLAYERS")
        _check_int(
            f"{field}.max_players",
            pack.max_players,
            pack.min_players,
            limits.MAX_PLAYERS,
            "MAX_PLAYERS",
        )
        _check_int(f"{field}.decks", pack.decks, 1, limits.MAX_DECKS, "MAX_DECKS")
        _check_int(f"{field}.jokers", pack.jokers, 0, limits.MAX_JOKERS, "MAX_JOKERS")
    for players in range(variant.min_players, variant.max_players + 1):
        covering = [p for p in packs if p.min_players <= players <= p.max_players]
        if len(covering) != 1:
            raise _fail(name, f"{len(covering)} packs cover {players} players; exactly one must")


def _validate_scoring(scoring: Scoring) -> None:
    _check_values("scoring.values", scoring.values)
    for name in (
        "going_out",
        "one_turn_out",
        "one_turn_out_without_jokers",
        "never_down_penalty",
        "cut_card_hand",
    ):
        points = getattr(scoring, name)
        if points is not None:
            _check_int(
                f"scoring.{name}", points, -limits.MAX_POINTS, limits.MAX_POINTS, "MAX_POINTS"
            )
    _check_int(
        "scoring.others_multiplier_after_one_turn_out",
        scoring.others_multiplier_after_one_turn_out,
        0,
        limits.MAX_MULTIPLIER,
        "MAX_MULTIPLIER",
    )


def _check_values(field: str, values: CardValues) -> None:
    for value in (*values.by_rank, values.joker):
        if not -limits.MAX_CARD_VALUE <= value <= limits.MAX_CARD_VALUE:
            raise _fail(
                field,
                f"card values are from {-limits.MAX_CARD_VALUE} to {limits.MAX_CARD_VALUE} "
                "(limits.MAX_CARD_VALUE)",
            )


def _validate_melds(variant: Variant) -> None:
    melds = variant.melds
    low, high = limits.MIN_GROUP_CARDS, limits.MAX_GROUP_CARDS
    _check_int("melds.set_min", melds.set_min, low, high, "MIN_GROUP_CARDS, MAX_GROUP_CARDS")
    _check_int("melds.run_min", melds.run_min, low, high, "MIN_GROUP_CARDS, MAX_GROUP_CARDS")
    if melds.set_max is not None:
        _check_int("melds.set_max", melds.set_max, melds.set_min, high, "MAX_GROUP_CARDS")
    if melds.run_max is not None:
        _check_int("melds.run_max", melds.run_max, melds.run_min, high, "MAX_GROUP_CARDS")
    largest = melds.largest_laid_set
    if largest is not None and largest < melds.set_min:
        raise _fail("melds.set_min", f"{melds.set_min} is more than a set may hold ({largest})")
    if melds.run_min > melds.longest_run:
        raise _fail(
            "melds.run_min", f"{melds.run_min} is longer than the longest run ({melds.longest_run})"
        )
    jokers = variant.jokers
    smallest = min(melds.set_min, melds.run_min)
    least = jokers.min_naturals
    if type(least) is not int or not 1 <= least <= smallest:
        raise _fail(
            "jokers.min_naturals",
            f"must be an integer from 1 (a group of jokers only is not supported) to the "
            f"smallest group, {smallest}; got {_short(least)}",
        )
    if len(set(jokers.wild_ranks)) != len(jokers.wild_ranks):
        raise _fail("jokers.wild_ranks", "a rank is given twice")
    for index, rank in enumerate(jokers.wild_ranks):
        if type(rank) is not int or not 2 <= rank <= 14:
            raise _fail(
                f"jokers.wild_ranks[{index}]",
                f"must be a rank number from 2 to 14 (J 11, Q 12, K 13, A 14), got {_short(rank)}",
            )
    if jokers.dead_wild_discards and not jokers.wild_ranks:
        raise _fail("jokers.dead_wild_discards", "needs wild ranks (jokers.wild_ranks)")
    if len(jokers.going_down_by_size) > high:
        raise _fail("jokers.going_down_by_size", f"at most {high} entries (limits.MAX_GROUP_CARDS)")
    for index, (size, limit) in enumerate(jokers.going_down_by_size):
        _check_int(f"jokers.going_down_by_size[{index}] size", size, 1, high, "MAX_GROUP_CARDS")
        _check_int(f"jokers.going_down_by_size[{index}] limit", limit, 0, high, "MAX_GROUP_CARDS")
    if jokers.going_down_per_group is not None:
        _check_int(
            "jokers.going_down_per_group", jokers.going_down_per_group, 0, high, "MAX_GROUP_CARDS"
        )


def _validate_buying(variant: Variant) -> None:
    buying = variant.buying
    _check_int(
        "buying.penalty_cards",
        buying.penalty_cards,
        0,
        limits.MAX_PENALTY_CARDS,
        "MAX_PENALTY_CARDS",
    )
    if len(buying.limits) > limits.MAX_DEALS:
        raise _fail("buying.limits", f"at most {limits.MAX_DEALS} entries (limits.MAX_DEALS)")
    previous = 0
    for index, (first_deal, max_buys) in enumerate(buying.limits):
        _check_int(
            f"buying.limits[{index}] first deal",
            first_deal,
            previous + 1,
            limits.MAX_DEALS,
            "MAX_DEALS",
        )
        _check_int(
            f"buying.limits[{index}] max buys",
            max_buys,
            0,
            limits.MAX_BUYS_PER_DEAL,
            "MAX_BUYS_PER_DEAL",
        )
        previous = first_deal


def _validate_levels(variant: Variant) -> None:
    """The deals of progressive contracts (``progression=per_seat``) are levels, and the
    game must end: at most ``deal_count`` deals, at least one per level."""
    levels = len(variant.deals)
    if variant.deal_count is None or variant.deal_count < levels:
        raise _fail(
            "deal_count",
            f"progression=per_seat: a game lasts at most deal_count deals (at most "
            f"{limits.MAX_DEALS}, limits.MAX_DEALS), which must allow one per level ({levels} "
            f"levels), not {variant.deal_count!r}",
        )
    for index, spec in enumerate(variant.deals):
        for name in ("packs", "going_out"):
            if getattr(spec, name) not in ((), None):
                raise _fail(
                    f"deals[{index}].{name}",
                    "progression=per_seat: seats on different levels play one deal together, "
                    f"so a level may not set its own {name} (set the variant's)",
                )


def _validate_deal(variant: Variant, index: int, spec: DealSpec) -> None:
    field = f"deals[{index}]"
    _check_int(f"{field}.cards", spec.cards, 1, limits.MAX_CARDS_DEALT, "MAX_CARDS_DEALT")
    if spec.packs:
        _validate_packs(f"{field}.packs", spec.packs, variant)
    extra = int(variant.drawing.starter_extra_card) + int(variant.drawing.upcard_at_start)
    for players in range(variant.min_players, variant.max_players + 1):
        pack = variant.pack_size(players, index + 1).cards
        if spec.cards * players + extra >= pack:
            raise _fail(
                f"{field}.cards",
                f"{spec.cards} cards to each of {players} players leave no stock in {pack} cards",
            )
    # a seat on any level is dealt the cards of the highest level a seat is on
    dealt = spec.cards
    if variant.progression is Progression.PER_SEAT:
        dealt = max(level.cards for level in variant.deals)
    most_cards = dealt + 1
    if variant.buying.enabled:
        most_cards += variant.buying.limit(index + 1) * (1 + variant.buying.penalty_cards)
    requirement = spec.requirement
    open_ended = isinstance(requirement, Opening) or not variant.going_down.exact_meld_count
    most_allowed = limits.MAX_OPEN_ENDED_HAND_CARDS if open_ended else limits.MAX_HAND_CARDS
    if most_cards > most_allowed:
        name = "MAX_OPEN_ENDED_HAND_CARDS" if open_ended else "MAX_HAND_CARDS"
        why = " where a going down may hold any number of groups" if open_ended else ""
        raise _fail(
            f"{field}.cards",
            f"a hand may reach {most_cards} cards (dealt, drawn, and bought with their penalty "
            f"cards); at most {most_allowed}{why} (limits.{name})",
        )
    if isinstance(requirement, Opening):
        _check_int(
            f"{field}.requirement.min_points",
            requirement.min_points,
            0,
            limits.MAX_POINTS,
            "MAX_POINTS",
        )
        _check_values(f"{field}.requirement.values", requirement.values)
        if requirement.natural_run > variant.melds.longest_run:
            raise _fail(
                f"{field}.requirement.natural_run",
                f"{requirement.natural_run} natural cards in a row make a run longer than the "
                f"longest run ({variant.melds.longest_run})",
            )
        return
    melds = variant.melds
    largest_set = melds.largest_laid_set
    for size in requirement.sets:
        if size < melds.set_min or (largest_set is not None and size > largest_set):
            raise _fail(f"{field}.requirement", f"a set of {size} is not a valid set under melds")
    for size in requirement.runs:
        if not melds.run_min <= size <= melds.longest_run:
            raise _fail(f"{field}.requirement", f"a run of {size} is not a valid run under melds")
    table = dict(variant.jokers.going_down_by_size)
    if table:
        for size in (*requirement.sets, *requirement.runs):
            if size not in table:
                raise _fail(
                    "jokers.going_down_by_size",
                    f"has no limit for a group of {size}, which {field} asks for",
                )
    if requirement.min_cards > most_cards:
        raise _fail(
            f"{field}.requirement",
            f"{requirement.describe()} needs {requirement.min_cards} cards; "
            f"a hand can hold at most {most_cards}",
        )


CAMPING_VALUES = CardValues.from_mapping({"2": 20, "3-9": 5, "10-K": 10, "A": 20, "JK": 25})

SHANGHAI_CONTRACTS: tuple[Contract, ...] = (
    Contract(sets=(3, 3)),
    Contract(sets=(3,), runs=(4,)),
    Contract(runs=(4, 4)),
    Contract(sets=(3, 3, 3)),
    Contract(sets=(3,), runs=(7,)),
    Contract(sets=(3, 3), runs=(5,)),
    Contract(runs=(4, 4, 4)),
    Contract(sets=(3,), runs=(10,)),
    Contract(sets=(3, 3, 3), runs=(5,)),
    Contract(runs=(5, 5, 5)),
)

_SHANGHAI_DEALS = tuple(DealSpec(requirement=contract, cards=11) for contract in SHANGHAI_CONTRACTS)

SHANGHAI = Variant(
    id="shanghai",
    name="Shanghai Rummy (aces high)",
    source="Ron de Shanghái (Spanish rules page)",
    # Two players may play, but nobody can buy then (the discarder and the player in turn are
    # excluded), so deals 8-10, which need 13-15 cards, are seldom won: most end by the turn
    # limit with no winner.
    min_players=2,
    max_players=6,
    packs=(
        PackSize(min_players=2, max_players=4, decks=2, jokers=2),
        PackSize(min_players=5, max_players=6, decks=3, jokers=3),
    ),
    deals=_SHANGHAI_DEALS,
    deal_count=10,
)

SHANGHAI_WIKI = attrs.evolve(
    SHANGHAI,
    id="shanghai-wiki",
    name="Shanghai Rummy (ace high or low)",
    source=(
        "Shanghai Rummy, the Basics section of a wiki article"
        " (Romanian and Finnish translations of one text)"
    ),
    packs=(
        PackSize(min_players=2, max_players=4, decks=2, jokers=4),
        PackSize(min_players=5, max_players=6, decks=3, jokers=6),
    ),
    melds=MeldRules(aces=Aces.HIGH_OR_LOW),
)

SHANGHAI_CAMPING = attrs.evolve(
    SHANGHAI,
    id="shanghai-camping",
    name="Shanghai Rummy (camping rules: joker table, exact melds, one penalty card)",
    source=(
        "Kortti-Peli-Suosikki: Shanghai Rommi (Finnish translation of a Go Camping America article)"
    ),
    min_players=3,
    max_players=8,
    packs=(
        PackSize(min_players=3, max_players=4, decks=2, jokers=1),
        PackSize(min_players=5, max_players=8, decks=3, jokers=2),
    ),
    melds=MeldRules(aces=Aces.HIGH_OR_LOW),
    jokers=JokerRules(going_down_by_size=((3, 1), (4, 1), (5, 2), (7, 3), (10, 4))),
    buying=BuyRules(penalty_cards=1, priority=BuyPriority.NEXT_PLAYER_LEFT),
    going_down=GoingDownRules(
        exact_sizes=True, lay_off_same_turn=False, same_suit_runs=SameSuitRuns.SEPARATED
    ),
    going_out=GoOutDiscard.OPTIONAL,
    joker_swap=JokerSwapRules(
        who=SwapWho.DOWN_ONLY, must_go_down_same_turn=False, same_turn_as_going_down=False
    ),
    scoring=Scoring(values=CAMPING_VALUES, one_turn_out=-25, one_turn_out_without_jokers=-50),
)

RUMMY51 = Variant(
    id="rummy51",
    name="Rummy 51 (Balkan Remi)",
    source="Rummy - reglas del juego (Spanish rules page of an online Remi game)",
    min_players=2,
    max_players=6,
    packs=(PackSize(min_players=2, max_players=6, decks=2, jokers=4),),
    deals=(DealSpec(requirement=Opening(min_points=51, values=RUMMY51_VALUES), cards=14),),
    deal_count=None,
    melds=MeldRules(set_min=3, set_max=4, set_distinct_suits=True, run_min=3, aces=Aces.BOTH_ENDS),
    jokers=JokerRules(
        at_most_naturals=False, going_down_per_group=1, per_group_for_the_going_down_turn=True
    ),
    drawing=DrawRules(
        upcard_at_start=False, starter_extra_card=True, upcard_obliges_going_down_from_turn=2
    ),
    buying=BuyRules(enabled=False, penalty_cards=0, limits=()),
    going_down=GoingDownRules(
        exact_meld_count=False,
        lay_off_same_turn=True,
        new_melds=NewMelds.LATER_TURNS,
        same_suit_runs=SameSuitRuns.ALLOWED,
    ),
    going_out=GoOutDiscard.REQUIRED,
    joker_swap=JokerSwapRules(
        who=SwapWho.DOWN_ONLY, must_go_down_same_turn=False, joker_into_new_meld=True
    ),
    scoring=Scoring(
        values=RUMMY51_VALUES,
        going_out=-40,
        one_turn_out=-80,
        one_turn_out_allows_lay_off_on_others=False,
        others_multiplier_after_one_turn_out=2,
        never_down_penalty=100,
    ),
)

VARIANTS: dict[str, Variant] = {
    variant.id: variant for variant in (SHANGHAI, SHANGHAI_WIKI, SHANGHAI_CAMPING, RUMMY51)
}
"""The presets by id: ``shanghai``, ``shanghai-wiki``, ``shanghai-camping``, ``rummy51``."""


def get_variant(variant_id: str) -> Variant:
    """The preset with that id.

    >>> get_variant("rummy51").melds.run_min
    3
    >>> get_variant("gin")
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.VariantError: unknown variant 'gin'; known: rummy51, shanghai, ...
    """
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"unknown variant {variant_id!r}; known: {known}") from None
