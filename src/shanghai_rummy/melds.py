"""Meld geometry under a variant: what a group of cards is, what its jokers stand for, and
where a card may be laid off or swapped for a joker.

A *group* is a set (cards of one rank) or a run (consecutive cards of one suit). A run is
always given in rank order, low to high, so that each joker's place says which card it stands
for. Which groups are valid is decided by :class:`~shanghai_rummy.Variant` fields only.

**Run positions.** A run records the *position* of its first card (``start``); the card at
index ``i`` sits at position ``start + i``. Positions 2 to 13 are the ranks 2 to K; the ace is
position 1 when it sits below the 2 and position 14 when it sits above the king. Under
:attr:`Aces.WRAP <shanghai_rummy.Aces.WRAP>` a run may turn the corner, so positions go on
past 14 (15 is the 2 again, 16 the 3, ...); there ``start`` is kept between 2 and 14 (an ace
that starts a run is position 14) and a position's rank is found modulo 13
(:func:`rank_at`).

**Set or run?** A group whose natural cards share one rank *and* one suit (one natural card
and jokers) may read both ways. :func:`check_group` reads it as a set whenever it is a valid
set (the joker limit for going down aside), else as a run; pass ``kind`` to choose. A
:class:`~shanghai_rummy.Meld` names the kind in ``kinds`` (RULES.md: such a group "is laid as
whichever the player names"); :func:`run_readings` and :func:`named_kind` give the other
reading and the kind to name.

>>> from shanghai_rummy import get_variant, parse_cards
>>> shanghai = get_variant("shanghai")
>>> run = check_group(parse_cards("JK 5H 6H 7H"), shanghai)
>>> str(run), run.start, run.stands_for(0)
('run JK 5H 6H 7H', 4, Card.parse('4H'))
>>> check_group(parse_cards("8C 8D JK"), shanghai).stands_for(2)
<Rank.EIGHT: 8>
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import operator
from collections.abc import Sequence
from typing import Final, Literal, Protocol, TypeAlias

import attrs

from .cards import JOKER, Card, Rank, Suit, card_error, cards_error, refuse_text
from .contracts import CardValues
from .errors import InvalidMeldError, JokerSwapError, LayOffError
from .memo import IdentityMemo
from .variants import Aces, FreedJoker, MeldRules, SwapFrom, Variant

__all__ = [
    "GroupShape",
    "LayOffPlace",
    "MeldKind",
    "TableMeld",
    "check_group",
    "extend",
    "group_points",
    "joker_kept_in_run",
    "joker_moved_to_end",
    "joker_swapped",
    "lay_off_ends",
    "make_table_meld",
    "named_kind",
    "natural_stretch",
    "rank_at",
    "run_readings",
    "sets_may_read_as_runs",
    "span_error",
    "swap_positions",
]

LayOffPlace = Literal["low", "high", "set"]
"""Where a card is laid off: at the ``"low"`` or ``"high"`` end of a run, or on a ``"set"``."""

_RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_NAMES = {
    Suit.CLUBS: "club",
    Suit.DIAMONDS: "diamond",
    Suit.HEARTS: "heart",
    Suit.SPADES: "spade",
}


class MeldKind(enum.Enum):
    """A set (cards of one rank) or a run (consecutive cards of one suit)."""

    SET = "set"
    RUN = "run"

    # Members are singletons compared by identity, so an identity hash agrees with equality;
    # it is computed in C, where Enum's own hashes the member's name in Python (shapes and
    # the going-down listing's keys hash a kind each).
    __hash__ = object.__hash__


def rank_at(position: int) -> Rank:
    """The rank at a run position: 1 and 14 are the ace, 2..13 the ranks 2..K, and positions
    past 14 (used under :attr:`Aces.WRAP <shanghai_rummy.Aces.WRAP>`) go round again.

    >>> rank_at(1), rank_at(14), rank_at(15)
    (<Rank.ACE: 14>, <Rank.ACE: 14>, <Rank.TWO: 2>)
    """
    return _RANKS[(position - 2) % 13]


class _ShapeFields(Protocol):
    @property
    def kind(self) -> MeldKind: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def rank(self) -> Rank | None: ...
    @property
    def suit(self) -> Suit | None: ...
    @property
    def start(self) -> int | None: ...


class _ShapeMethods:
    """What :class:`GroupShape` and :class:`TableMeld` share."""

    __slots__ = ()

    @property
    def naturals(self: _ShapeFields) -> int:
        """How many natural cards the group holds: cards that stand as themselves (a card of
        a wild rank standing for another card counts as a joker, see
        ``JokerRules.wild_ranks``)."""
        return _natural_count(self)

    @property
    def jokers(self: _ShapeFields) -> int:
        """How many jokers the group holds: cards that stand for another card (the jokers,
        and cards of a wild rank that do not stand as themselves)."""
        return len(self.cards) - _natural_count(self)

    @property
    def end(self: _ShapeFields) -> int | None:
        """A run's last position (``start + len(cards) - 1``); None for a set."""
        return None if self.start is None else self.start + len(self.cards) - 1

    def stands_for(self: _ShapeFields, index: int) -> Card | Rank:
        """What the card at ``index`` stands for: in a run the natural card of that place; in a
        set the set's rank (a joker there may be replaced by any suit of it, one the set does
        not hold yet where ``variant.melds.set_distinct_suits``)."""
        if not -len(self.cards) <= index < len(self.cards):
            raise IndexError(f"no card at index {index} of {len(self.cards)}")
        index %= len(self.cards)
        if self.kind is MeldKind.SET:
            assert self.rank is not None
            return self.rank
        assert self.start is not None
        assert self.suit is not None
        return Card.of(rank_at(self.start + index), self.suit)

    def describe(self: _ShapeFields) -> str:
        """The kind and the cards, such as ``"set 8C 8D JK"``."""
        return f"{self.kind.value} {_text(self.cards)}"


@attrs.frozen
class GroupShape(_ShapeMethods):
    """A valid group as read under a variant (from :func:`check_group`): its kind, its cards
    in order, and what its jokers stand for: a set's ``rank``, or a run's ``suit`` and the
    position ``start`` of ``cards[0]`` (see the module notes on positions).

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> shape = check_group(parse_cards("QS KS AS"), get_variant("rummy51"))
    >>> shape.kind, shape.suit, shape.start, shape.end
    (<MeldKind.RUN: 'run'>, <Suit.SPADES: 'S'>, 12, 14)
    >>> shape.on_table(3, owner=1)
    TableMeld(id=3, owner=1, kind=<MeldKind.RUN: 'run'>, ...)
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    rank: Rank | None = None
    suit: Suit | None = None
    start: int | None = None

    def __str__(self) -> str:
        return self.describe()

    def on_table(self, meld_id: int, owner: int) -> TableMeld:
        """This group laid on the table as meld ``meld_id`` of seat ``owner``."""
        return TableMeld(meld_id, owner, self.kind, self.cards, self.rank, self.suit, self.start)


@attrs.frozen
class TableMeld(_ShapeMethods):
    """A group on the table: its ``id``, the seat that laid it (``owner``), and its shape
    (see :class:`GroupShape`). Build one with :func:`make_table_meld`, which validates.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> meld = make_table_meld(3, 0, parse_cards("8C 8D JK"), get_variant("shanghai"))
    >>> str(meld), meld.naturals, meld.jokers
    ('#3 set 8C 8D JK', 2, 1)
    """

    id: int
    owner: int
    kind: MeldKind
    cards: tuple[Card, ...]
    rank: Rank | None = None
    suit: Suit | None = None
    start: int | None = None

    def __str__(self) -> str:
        return f"#{self.id} {self.describe()}"

    @property
    def shape(self) -> GroupShape:
        """The group without its id and owner."""
        return GroupShape(self.kind, self.cards, self.rank, self.suit, self.start)


Shape: TypeAlias = GroupShape | TableMeld
"""A group read under a variant, on the table or not."""


def _natural_count(shape: _ShapeFields) -> int:
    """How many cards of ``shape`` stand as themselves: in a set the cards of its rank, in a
    run each card that is the card of its place (cards are shared values: compared by
    identity with the run's cards of that suit, position by position)."""
    cards = shape.cards
    if shape.kind is MeldKind.SET:
        rank = shape.rank
        return 0 if rank is None else sum(1 for card in cards if card.rank is rank)
    start, suit = shape.start, shape.suit
    assert start is not None
    assert suit is not None
    row = _RUN_ROWS[suit]
    if start + len(cards) > len(row):  # pragma: no cover - longer than any group allowed
        return sum(1 for i, card in enumerate(cards) if card is row[(start + i - 2) % 13 + 2])
    return sum(map(operator.is_, cards, row[start : start + len(cards)]))


_RUN_ROWS: Final = {
    suit: tuple(Card.of(rank_at(position), suit) for position in range(80)) for suit in Suit
}
"""Each suit's card at each run position (0 to 79, round the corner past 14)."""


def _a(rank: Rank) -> str:
    return ("an " if rank in (Rank.EIGHT, Rank.ACE) else "a ") + rank.code


def _text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


# --- reading a group --------------------------------------------------------------------------


def _joker_error(naturals: int, jokers: int, rules_amn: bool) -> str | None:
    if rules_amn and jokers > naturals:
        card_word = "card" if naturals == 1 else "cards"
        joker_word = "joker" if jokers == 1 else "jokers"
        return (
            f"too many jokers: {naturals} natural {card_word} and {jokers} {joker_word} "
            "(variant.jokers.at_most_naturals)"
        )
    return None


def _distinct_field(melds: MeldRules) -> str:
    """The field that makes a set laid down hold one card of each suit at most."""
    if melds.set_distinct_suits:
        return "variant.melds.set_distinct_suits"
    return "variant.melds.set_distinct_suits_when_laid"


def _naturals_error(naturals: int, variant: Variant) -> str | None:
    least = variant.jokers.min_naturals
    if naturals < least:
        return (
            f"too few natural cards: {naturals}, a group is laid with at least {least} "
            "(variant.jokers.min_naturals)"
        )
    return None


_SIDE_BY_SIDE = "two jokers side by side in a run (variant.jokers.side_by_side_in_runs=false)"


def _side_by_side_error(cards: Sequence[Card], variant: Variant) -> str | None:
    """Why the run ``cards`` breaks ``jokers.side_by_side_in_runs`` (two jokers next to each
    other), or None."""
    if variant.jokers.side_by_side_in_runs:
        return None
    for before, after in itertools.pairwise(cards):
        if before.rank is None and after.rank is None:
            return _SIDE_BY_SIDE
    return None


def _set_size_error(size: int, melds: MeldRules, laid: bool = True) -> str | None:
    if size < melds.set_min:
        return f"a set needs at least {melds.set_min} cards, got {size} (variant.melds.set_min)"
    if melds.set_max is not None and size > melds.set_max:
        return f"a set holds at most {melds.set_max} cards, got {size} (variant.melds.set_max)"
    distinct = melds.distinct_suits_when_laid if laid else melds.set_distinct_suits
    if distinct and size > 4:
        return (
            f"a set holds at most 4 cards, one of each suit, got {size} ({_distinct_field(melds)})"
        )
    return None


def _read_set(cards: tuple[Card, ...], variant: Variant, laid: bool = True) -> GroupShape | str:
    naturals = [card for card in cards if card.rank is not None]
    rank = naturals[0].rank
    assert rank is not None
    melds = variant.melds
    distinct = melds.distinct_suits_when_laid if laid else melds.set_distinct_suits
    seen: set[Suit] = set()
    for card in naturals:
        if card.rank is not rank:
            return f"{card} is not {_a(rank)} (a set is cards of one rank)"
        assert card.suit is not None
        if distinct and card.suit in seen:
            return f"two {_SUIT_NAMES[card.suit]}s in a set ({_distinct_field(melds)})"
        seen.add(card.suit)
    error = (
        _set_size_error(len(cards), variant.melds, laid)
        or _joker_error(len(naturals), len(cards) - len(naturals), variant.jokers.at_most_naturals)
        or _naturals_error(len(naturals), variant)
    )
    if error:
        return error
    return GroupShape(MeldKind.SET, cards, rank=rank)


def _ranks_text(start: int, length: int) -> str:
    return "-".join(rank_at(position).code for position in range(start, start + length))


def span_error(start: int, length: int, aces: Aces, joker_low: bool = False) -> str | None:
    """Why a run over positions start..start+length-1 breaks the ace rule, or None."""
    if aces is Aces.WRAP:
        return None
    end = start + length - 1
    if start < 1 or end > 14:
        return (
            f"{_ranks_text(start, length)} wraps around the ace (variant.melds.aces={aces.value})"
        )
    if aces is Aces.HIGH and start == 1:
        if joker_low:
            return (
                "the joker at the low end would stand for an ace below the 2, which is not "
                "allowed (variant.melds.aces=high)"
            )
        return "an ace below the 2 is not allowed (variant.melds.aces=high)"
    if aces is Aces.LOW and end == 14:
        return "an ace above the king is not allowed (variant.melds.aces=low)"
    if aces is Aces.HIGH_OR_LOW and start == 1 and end == 14:
        return "a run may not have an ace at both ends (variant.melds.aces=high_or_low)"
    return None


def _run_size_error(length: int, melds: MeldRules) -> str | None:
    if length < melds.run_min:
        return f"a run needs at least {melds.run_min} cards, got {length} (variant.melds.run_min)"
    if melds.run_max is not None and length > melds.run_max:
        return f"a run holds at most {melds.run_max} cards, got {length} (variant.melds.run_max)"
    if length > melds.longest_run:
        return (
            f"a run holds at most {melds.longest_run} cards, got {length} "
            f"(variant.melds.aces={melds.aces.value})"
        )
    return None


def _normal_start(start: int, aces: Aces) -> int:
    return (start - 2) % 13 + 2 if aces is Aces.WRAP else start


def _read_run(cards: tuple[Card, ...], variant: Variant) -> GroupShape | str:
    naturals = [(index, card) for index, card in enumerate(cards) if card.rank is not None]
    first_index, first = naturals[0]
    suit, first_rank = first.suit, first.rank
    assert suit is not None
    assert first_rank is not None
    for _, card in naturals:
        if card.suit is not suit:
            return f"{card} is not a {_SUIT_NAMES[suit]} (a run is cards of one suit)"
    base = first_rank - first_index  # the position of cards[0], modulo 13
    for index, card in naturals[1:]:
        if (base + index - 2) % 13 + 2 != card.rank:  # not rank_at(base + index)
            expected = Card.of(rank_at(base + index), suit)
            before = cards[index - 1]
            if before.rank is not None:
                return (
                    f"{before} is followed by {card}, not {expected} "
                    "(runs are consecutive cards of one suit, in rank order)"
                )
            return (
                f"{card} is where {expected} belongs (runs are consecutive cards of one suit, "
                "in rank order; a joker takes the place of the card it stands for)"
            )
    aces = variant.melds.aces
    length = len(cards)
    if aces is Aces.WRAP:
        start = _normal_start(base, aces)
    else:
        starts = [1 - first_index, 14 - first_index] if first_rank is Rank.ACE else [base]
        good = [s for s in starts if _span_fits(s, s + length - 1, aces)]
        if not good:
            errors = [span_error(s, length, aces, cards[0].rank is None) for s in starts]
            pairs = list(zip(starts, errors, strict=True))
            in_range = [e for s, e in pairs if s >= 1 and s + length - 1 <= 14]
            error = in_range[0] if in_range else errors[0]
            assert error is not None
            return error
        start = good[0]
    error = (
        _run_size_error(length, variant.melds)
        or _joker_error(len(naturals), length - len(naturals), variant.jokers.at_most_naturals)
        or _naturals_error(len(naturals), variant)
        or _side_by_side_error(cards, variant)
    )
    if error:
        return error
    return GroupShape(MeldKind.RUN, cards, suit=suit, start=start)


def check_group(
    cards: Sequence[Card],
    variant: Variant,
    *,
    kind: MeldKind | None = None,
    joker_limit: int | None = None,
    laid: bool = True,
) -> GroupShape:
    """Read ``cards`` as a valid set or run under ``variant``, or raise
    :class:`~shanghai_rummy.InvalidMeldError` naming the rule that fails.

    A run must be given in rank order. Without ``kind``, a group that is a valid set is a set
    (this only matters for one natural card with jokers), otherwise it must be a valid run.
    ``variant.jokers.at_most_naturals`` always applies; ``joker_limit`` is the extra cap when
    going down (``variant.jokers.going_down_limit(size)``), checked after the reading.
    ``laid``: the group is being laid down now, so ``melds.set_distinct_suits_when_laid``
    applies; False reads a group already on the table, which lay-offs and swaps may have
    grown past it.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> check_group(parse_cards("4H 5H 7H 8H"), shanghai)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.InvalidMeldError: run 4H 5H 7H 8H: 5H is followed by 7H, not 6H (runs ...)
    >>> check_group(parse_cards("8C JK JK"), shanghai)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.InvalidMeldError: set 8C JK JK: too many jokers: ...at_most_naturals)
    >>> str(check_group(parse_cards("8H JK JK"), get_variant("rummy51"), kind=MeldKind.RUN))
    'run 8H JK JK'
    """
    try:
        group = tuple(cards)
        natural_cards = [card for card in group if card.rank is not None]
    except (AttributeError, TypeError):  # not a collection of cards
        raise cards_error(cards) from None
    refuse_text(cards)
    if not natural_cards:
        what = _text(group) or "an empty group"
        raise InvalidMeldError(f"{what}: a group needs at least one natural card")
    if variant.jokers.wild_ranks:
        return _capped(_read_wild(group, variant, kind, laid), joker_limit)
    first = natural_cards[0]
    same_rank = all(card.rank is first.rank for card in natural_cards)
    same_suit = all(card.suit is first.suit for card in natural_cards)
    # only a group of one rank may read as a set, only one of one suit as a run
    if kind is not MeldKind.RUN and same_rank:
        read = _read_set(group, variant, laid)
        if isinstance(read, GroupShape):
            return _capped(read, joker_limit)
    if kind is not MeldKind.SET and same_suit:
        read = _read_run(group, variant)
        if isinstance(read, GroupShape):
            return _capped(read, joker_limit)
    raise InvalidMeldError(_group_refusal(group, natural_cards, variant, kind, laid))


def _read_wild(
    group: tuple[Card, ...], variant: Variant, kind: MeldKind | None, laid: bool
) -> GroupShape:
    """:func:`check_group` under ``jokers.wild_ranks``: each card of a wild rank is natural
    where it stands as itself and a joker elsewhere. The cards that are not wild fix the
    set's rank or the run's suit and places; where every natural card is wild, each is tried
    in turn as the one that stands as itself (a set first, as for any group)."""
    rules = variant.jokers
    naturals = [card for card in group if card.rank is not None]
    firm = [card for card in group if not rules.is_wild(card)]
    errors: list[str] = []
    if kind is not MeldKind.RUN:
        ranks = [firm[0].rank] if firm else list(dict.fromkeys(card.rank for card in naturals))
        for rank in ranks:
            masked = tuple(
                card if card.rank is rank or not rules.is_wild(card) else JOKER for card in group
            )
            read = _read_set(masked, variant, laid)
            if isinstance(read, GroupShape):
                return GroupShape(MeldKind.SET, group, rank=read.rank)
            errors.append(f"set: {read}")
    if kind is not MeldKind.SET:
        anchors = [group.index(firm[0])] if firm else [i for i, c in enumerate(group) if c.rank]
        for anchor in anchors:
            read = _read_run(_run_masked(group, anchor, rules.wild_ranks), variant)
            if isinstance(read, GroupShape):
                return GroupShape(MeldKind.RUN, group, suit=read.suit, start=read.start)
            errors.append(f"run: {read}")
    raise InvalidMeldError(f"{_text(group)}: {_wild_refusal(firm or naturals, errors)}")


def _wild_refusal(fixing: list[Card], errors: list[str]) -> str:
    """The reasons :func:`_read_wild` found no reading, the kind the cards fixing the
    reading look like first."""
    if len({card.rank for card in fixing}) > 1 and len({card.suit for card in fixing}) == 1:
        errors = sorted(errors, key=lambda error: not error.startswith("run"))
    return (
        "; ".join(dict.fromkeys(errors))
        + " (a card of a wild rank, variant.jokers.wild_ranks, is a joker where it does not "
        "stand as itself)"
    )


def _run_masked(
    group: tuple[Card, ...], anchor: int, wild_ranks: tuple[int, ...]
) -> tuple[Card, ...]:
    """``group`` with every wild card a joker but those standing as themselves in the run
    that ``group[anchor]`` places (its suit, its rank at its index)."""
    card = group[anchor]
    suit, rank = card.suit, card.rank
    assert rank is not None
    base = rank - anchor
    return tuple(
        held
        if held.rank is None
        or held.rank not in wild_ranks
        or (held.suit is suit and (base + index - 2) % 13 + 2 == held.rank)
        else JOKER
        for index, held in enumerate(group)
    )


def _group_refusal(
    group: tuple[Card, ...],
    natural_cards: list[Card],
    variant: Variant,
    kind: MeldKind | None,
    laid: bool,
) -> str:
    """Why :func:`check_group` reads ``group`` as no valid group: the rule the group breaks
    as the kind it most looks like."""
    same_rank = all(card.rank is natural_cards[0].rank for card in natural_cards)
    same_suit = all(card.suit is natural_cards[0].suit for card in natural_cards)
    text = _text(group)
    as_set = as_run = ""
    if kind is not MeldKind.RUN:
        read = _read_set(group, variant, laid)
        assert isinstance(read, str)
        as_set = read
    if kind is not MeldKind.SET:
        read = _read_run(group, variant)
        assert isinstance(read, str)
        as_run = read
    if kind is MeldKind.SET or (kind is None and same_rank and not same_suit):
        return f"set {text}: {as_set}"
    if kind is MeldKind.RUN or (same_suit and not same_rank):
        return f"run {text}: {as_run}"
    if not same_rank:
        first, second = natural_cards[0], natural_cards[1]
        if first.suit is second.suit:  # it starts like a run
            return f"run {text}: {as_run}"
        if first.rank is second.rank:  # it starts like a set
            return f"set {text}: {as_set}"
        return f"{text}: neither a set (cards of one rank) nor a run (cards of one suit)"
    set_fits = _set_size_error(len(group), variant.melds, laid) is None
    run_fits = _run_size_error(len(group), variant.melds) is None
    if set_fits and not run_fits:
        return f"set {text}: {as_set}"
    if run_fits and not set_fits:
        return f"run {text}: {as_run}"
    return f"{text}: neither a set ({as_set}) nor a run ({as_run})"


def named_kind(shape: Shape, variant: Variant) -> MeldKind | None:
    """The kind a :class:`~shanghai_rummy.Meld` must name to lay ``shape``'s cards as
    ``shape``: ``MeldKind.RUN`` for a run of one natural card and jokers whose cards also
    make a valid set (which :func:`check_group` reads first), else None.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> rummy51 = get_variant("rummy51")
    >>> named_kind(check_group(parse_cards("JK JK 9C"), rummy51, kind=MeldKind.RUN), rummy51)
    <MeldKind.RUN: 'run'>
    >>> named_kind(check_group(parse_cards("JK JK 9C"), rummy51), rummy51) is None
    True
    """
    if shape.kind is not MeldKind.RUN:
        return None
    if variant.jokers.wild_ranks:  # its cards read as a set, wild cards standing in
        try:
            check_group(shape.cards, variant, kind=MeldKind.SET)
        except InvalidMeldError:
            return None
        return MeldKind.RUN
    if shape.naturals != 1:
        return None
    return MeldKind.RUN if isinstance(_read_set(shape.cards, variant), GroupShape) else None


def sets_may_read_as_runs(variant: Variant) -> bool:
    """Whether some set may also read as a run under ``variant`` (so that a
    :class:`~shanghai_rummy.Meld` of it names its kind, see :func:`run_readings`): a set of
    one natural card and jokers where ``jokers.at_most_naturals`` is off, and under
    ``jokers.wild_ranks`` a set of wild cards standing in (with two wild ranks even where it
    is on, as ``2C 3C 3D`` with twos and threes wild).

    >>> from shanghai_rummy import get_variant
    >>> [sets_may_read_as_runs(get_variant(name)) for name in ("rummy51", "shanghai")]
    [True, False]
    """
    return not variant.jokers.at_most_naturals or bool(variant.jokers.wild_ranks)


def run_readings(shape: Shape, variant: Variant) -> tuple[GroupShape, ...]:
    """The runs the cards of a set of one natural card and jokers also make (the natural
    card at each place of the run in turn, where the ace rule and the run sizes allow), which
    a :class:`~shanghai_rummy.Meld` lays by naming ``MeldKind.RUN``; () for any other group.
    Under ``jokers.wild_ranks``: every distinct run the set's cards make, a set whose cards
    are all wild but one at most (its stand-ins told apart, its wild cards standing in).

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> rummy51 = get_variant("rummy51")
    >>> [str(run) for run in run_readings(check_group(parse_cards("9C JK JK"), rummy51), rummy51)]
    ['run 9C JK JK', 'run JK 9C JK', 'run JK JK 9C']
    """
    if shape.kind is not MeldKind.SET:
        return ()
    if variant.jokers.wild_ranks:
        return _wild_run_readings(shape, variant)
    if shape.naturals != 1:
        return ()
    natural = next(card for card in shape.cards if card.rank is shape.rank)
    standing = [card for card in shape.cards if card.rank is not shape.rank]  # jokers
    runs = []
    for place in range(len(standing) + 1):
        cards = (*standing[:place], natural, *standing[place:])
        read = _read_run(cards, variant)
        if isinstance(read, GroupShape):
            runs.append(read)
    return tuple(runs)


def _wild_run_readings(shape: Shape, variant: Variant) -> tuple[GroupShape, ...]:
    """:func:`run_readings` under ``jokers.wild_ranks``: every distinct order of the set's
    cards that reads as a run. Its stand-ins are told apart (``9C 2C JK`` and ``9C JK 2C``
    are two runs: the joker stands for another card), and a wild card natural in the set
    may stand in in the run (``2C 2D JK``, a set of deuces, is also the run 2C-3C-4C). A
    card that is not wild stands as itself in a run, so a set of two or more has none."""
    firm = [card for card in shape.cards if not variant.jokers.is_wild(card)]
    if len(firm) > 1:
        return ()
    # at most one card of a rank stands as itself in a run (two aces at its two ends)
    most_naturals = len({card.rank for card in shape.cards if card.rank is not None}) + 1
    if variant.jokers.at_most_naturals and 2 * most_naturals < len(shape.cards):
        return ()
    rest = list(shape.cards)
    if firm:
        rest.remove(firm[0])
    runs: dict[tuple[Card, ...], GroupShape] = {}
    for order in _distinct_orders(rest):
        places = range(len(order) + 1) if firm else (0,)
        for place in places:
            cards = (*order[:place], *firm, *order[place:])
            with contextlib.suppress(InvalidMeldError):
                run = check_group(cards, variant, kind=MeldKind.RUN)
                runs.setdefault(run.cards, run)
    return tuple(runs.values())


def _distinct_orders(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every distinct order of ``cards`` (copies alike), those of the cards' first order
    first."""
    kinds = list(dict.fromkeys(cards))
    left = {kind: cards.count(kind) for kind in kinds}
    orders: list[tuple[Card, ...]] = []

    def grow(done: tuple[Card, ...]) -> None:
        if len(done) == len(cards):
            orders.append(done)
            return
        for kind in kinds:
            if left[kind]:
                left[kind] -= 1
                grow((*done, kind))
                left[kind] += 1

    grow(())
    return orders


def _capped(shape: GroupShape, joker_limit: int | None) -> GroupShape:
    if joker_limit is not None and shape.jokers > joker_limit:
        raise InvalidMeldError(
            f"{shape}: too many jokers: {shape.jokers}, at most {joker_limit} in a group when "
            "going down (variant.jokers.going_down_by_size / going_down_per_group)"
        )
    return shape


def make_table_meld(
    meld_id: int,
    owner: int,
    cards: Sequence[Card],
    variant: Variant,
    *,
    kind: MeldKind | None = None,
    joker_limit: int | None = None,
) -> TableMeld:
    """Validate ``cards`` with :func:`check_group` and lay them on the table.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> str(make_table_meld(1, 2, parse_cards("QD KD AD"), get_variant("rummy51")))
    '#1 run QD KD AD'
    """
    return check_group(cards, variant, kind=kind, joker_limit=joker_limit).on_table(meld_id, owner)


# --- laying off -------------------------------------------------------------------------------


def _set_lay_off_error(meld: Shape, card: Card, variant: Variant) -> str | None:
    melds = variant.melds
    size = len(meld.cards) + 1
    largest = melds.largest_set
    if largest is not None and size > largest:
        field = "set_max" if melds.set_max == largest else "set_distinct_suits"
        return f"{meld} is closed: a set holds at most {largest} cards (variant.melds.{field})"
    if card.rank is None:
        return _joker_error(meld.naturals, meld.jokers + 1, variant.jokers.at_most_naturals)
    assert meld.rank is not None
    assert card.suit is not None
    if card.rank is not meld.rank:
        return f"{card} is not {_a(meld.rank)}: {meld} is a set of {meld.rank.code}s"
    if melds.set_distinct_suits and any(other.suit is card.suit for other in meld.cards):
        return f"{meld} already holds a {_SUIT_NAMES[card.suit]} (variant.melds.set_distinct_suits)"
    return None


def _run_lay_off_error(meld: Shape, card: Card, variant: Variant, end: str) -> str | None:
    assert meld.start is not None
    assert meld.suit is not None
    length = len(meld.cards) + 1
    start = meld.start - 1 if end == "low" else meld.start
    position = start if end == "low" else meld.start + len(meld.cards)
    if card.rank is not None:
        if card.suit is not meld.suit:
            suit = _SUIT_NAMES[meld.suit]
            return f"{card} is not a {suit}: {meld} is a run of {suit}s"
        if card.rank is not rank_at(position):
            return f"{card} does not extend {meld} at its {end} end"
    aces = variant.melds.aces
    error = span_error(start, length, aces, card.rank is None and end == "low")
    if error is None and aces is not Aces.WRAP and length > variant.melds.longest_run:
        error = _run_size_error(length, variant.melds)  # pragma: no cover - span checks first
    if error is None:
        error = _run_size_error(length, variant.melds)
    if error is None:
        jokers = meld.jokers + (card.rank is None)
        error = _joker_error(length - jokers, jokers, variant.jokers.at_most_naturals)
    side_by_side = variant.jokers.side_by_side_in_runs
    at_end = meld.cards[0 if end == "low" else -1]
    if error is None and card.rank is None and not side_by_side and at_end.rank is None:
        error = _SIDE_BY_SIDE
    return error


def _lay_off_options(
    meld: Shape, card: Card, variant: Variant
) -> list[tuple[LayOffPlace, str | None]]:
    """Each end of ``meld`` with why ``card`` may not go there (None where it may): the slow
    path, for error messages only; :func:`lay_off_ends` answers the same question fast."""
    if variant.jokers.wild_ranks:
        return _wild_lay_off_options(meld, card, variant)
    if meld.kind is MeldKind.SET:
        return [("set", _set_lay_off_error(meld, card, variant))]
    return [(end, _run_lay_off_error(meld, card, variant, end)) for end in ("low", "high")]


_LIMITS: Final[IdentityMemo[tuple[int, int]]] = IdentityMemo("melds.size_limits", 64)


def _limits(melds: MeldRules) -> tuple[int, int]:
    """``(largest set, longest run)`` of ``melds`` (a set without a limit: a huge number),
    remembered: both are properties that build lists."""
    known = _LIMITS.get(melds)
    if known is None:
        largest = melds.largest_set
        known = _LIMITS.put(
            melds, None, (1 << 30 if largest is None else largest, melds.longest_run)
        )
    return known


def _joker_count(cards: tuple[Card, ...]) -> int:
    return sum(1 for card in cards if card.rank is None)


_SET_END: tuple[LayOffPlace, ...] = ("set",)
_LOW_END: tuple[LayOffPlace, ...] = ("low",)
_HIGH_END: tuple[LayOffPlace, ...] = ("high",)
_BOTH_ENDS: tuple[LayOffPlace, ...] = ("low", "high")


def _set_ends(meld: Shape, card: Card, variant: Variant) -> tuple[LayOffPlace, ...]:
    """:func:`lay_off_ends` on a set, as :func:`_set_lay_off_error` decides it."""
    rank = card.rank
    if rank is not None and rank is not meld.rank:
        return ()
    cards = meld.cards
    melds = variant.melds
    if len(cards) >= _limits(melds)[0]:
        return ()
    if rank is None:
        if variant.jokers.at_most_naturals:
            jokers = _joker_count(cards) + 1
            if jokers > len(cards) + 1 - jokers:
                return ()
        return _SET_END
    if melds.set_distinct_suits:
        suit = card.suit
        for held in cards:
            if held.suit is suit:
                return ()
    return _SET_END


def _run_ends(meld: Shape, card: Card, variant: Variant) -> tuple[LayOffPlace, ...]:
    """:func:`lay_off_ends` on a run, as :func:`_run_lay_off_error` decides it: integer
    arithmetic on the run's positions (see the module notes)."""
    start = meld.start
    assert start is not None
    cards = meld.cards
    size = len(cards)
    rank = card.rank
    low = high = True
    if rank is not None:
        if card.suit is not meld.suit:
            return ()
        low = (start - 3) % 13 + 2 == rank  # rank_at(start - 1)
        high = (start + size - 2) % 13 + 2 == rank  # rank_at(start + size)
        if not (low or high):
            return ()
    melds = variant.melds
    length = size + 1
    if length < melds.run_min or length > _limits(melds)[1]:
        return ()
    if variant.jokers.at_most_naturals:
        jokers = _joker_count(cards) + (rank is None)
        if jokers > length - jokers:
            return ()
    aces = melds.aces
    if aces is not Aces.WRAP:
        low = low and _span_fits(start - 1, start + size - 1, aces)
        high = high and _span_fits(start, start + size, aces)
    if rank is None and not variant.jokers.side_by_side_in_runs:
        low = low and cards[0].rank is not None
        high = high and cards[-1].rank is not None
    if low:
        return _BOTH_ENDS if high else _LOW_END
    return _HIGH_END if high else ()


def _span_fits(first: int, last: int, aces: Aces) -> bool:
    """Whether positions ``first``..``last`` keep the ace rule (not wrap): the same answer
    as :func:`span_error`, without building its message."""
    if first < 1 or last > 14:
        return False
    if first == 1 and (aces is Aces.HIGH or (aces is Aces.HIGH_OR_LOW and last == 14)):
        return False
    return not (aces is Aces.LOW and last == 14)


def lay_off_ends(meld: Shape, card: Card, variant: Variant) -> tuple[LayOffPlace, ...]:
    """Where ``card`` may be laid off on ``meld``: ``("set",)`` or ``()`` for a set; for a run
    the ends it extends, a subset of ``("low", "high")`` (a joker may fit both).

    Fast: it reads the meld's fields and builds no text; :func:`extend` says why not.

    >>> from shanghai_rummy import Card, JOKER, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> run = make_table_meld(1, 0, parse_cards("4C 5C 6C 7C 8C"), shanghai)
    >>> lay_off_ends(run, Card.parse("3C"), shanghai), lay_off_ends(run, JOKER, shanghai)
    (('low',), ('low', 'high'))
    >>> lay_off_ends(run, Card.parse("10C"), shanghai)
    ()
    """
    if type(card) is not Card:
        raise card_error(card)
    if variant.jokers.wild_ranks and (card.rank is None or card.rank in variant.jokers.wild_ranks):
        return _wild_ends(meld, card, variant)
    if variant.jokers.wild_ranks:
        meld = _masked(meld)
    if meld.kind is MeldKind.SET:
        return _set_ends(meld, card, variant)
    return _run_ends(meld, card, variant)


def _wild_ends(meld: Shape, card: Card, variant: Variant) -> tuple[LayOffPlace, ...]:
    """:func:`lay_off_ends` of a card of a wild rank (or a joker) under
    ``jokers.wild_ranks``: at each end the card is itself where it fits as itself there,
    a joker elsewhere (as :func:`_wild_lay_off_options` decides it)."""
    masked = _masked(meld)
    if meld.kind is MeldKind.SET:
        laid = card if card.rank is meld.rank else JOKER
        return _set_ends(masked, laid, variant)
    assert meld.start is not None
    ends: list[LayOffPlace] = []
    for end, position in (("low", meld.start - 1), ("high", meld.start + len(meld.cards))):
        itself = card.suit is meld.suit and card.rank is not None
        itself = itself and (position - 2) % 13 + 2 == card.rank
        if end in _run_ends(masked, card if itself else JOKER, variant):
            ends.append(end)
    return tuple(ends)


def _masked(shape: Shape) -> Shape:
    """``shape`` with a joker in place of each card that does not stand as itself (a card
    of a wild rank standing for another card), for the checks written for jokers."""
    cards = shape.cards
    if shape.kind is MeldKind.SET:
        masked = tuple(card if card.rank is shape.rank else JOKER for card in cards)
    else:
        assert shape.start is not None
        assert shape.suit is not None
        row = _RUN_ROWS[shape.suit][shape.start :]
        masked = tuple(card if card is row[i] else JOKER for i, card in enumerate(cards))
    return shape if masked == cards else attrs.evolve(shape, cards=masked)


def _wild_lay_off_options(
    meld: Shape, card: Card, variant: Variant
) -> list[tuple[LayOffPlace, str | None]]:
    """:func:`_lay_off_options` under ``jokers.wild_ranks``: at each end a card of a wild
    rank is natural where it stands as itself there and a joker otherwise."""
    masked = _masked(meld)
    if meld.kind is MeldKind.SET:
        laid = card if card.rank is meld.rank or not variant.jokers.is_wild(card) else JOKER
        return [("set", _unmasked(_set_lay_off_error(masked, laid, variant), masked, meld))]
    assert meld.start is not None
    options: list[tuple[LayOffPlace, str | None]] = []
    places: tuple[tuple[LayOffPlace, int], ...] = (
        ("low", meld.start - 1),
        ("high", meld.start + len(meld.cards)),
    )
    for end, position in places:
        itself = card.suit is meld.suit and card.rank is not None
        itself = itself and (position - 2) % 13 + 2 == card.rank
        laid = card if itself or not variant.jokers.is_wild(card) else JOKER
        error = _run_lay_off_error(masked, laid, variant, end)
        options.append((end, _unmasked(error, masked, meld)))
    return options


def _unmasked(error: str | None, masked: Shape, meld: Shape) -> str | None:
    """``error`` naming ``meld`` where it names the ``masked`` copy of it."""
    return None if error is None else error.replace(str(masked), str(meld))


def extend(meld: TableMeld, card: Card, variant: Variant, end: str | None = None) -> TableMeld:
    """``meld`` with ``card`` laid off on it, or :class:`~shanghai_rummy.LayOffError` saying
    why not. ``end`` (``"low"`` or ``"high"``) is needed only where a card fits both ends of a
    run; a joker takes the place at that end.

    >>> from shanghai_rummy import Card, JOKER, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> run = make_table_meld(1, 0, parse_cards("4C 5C 6C 7C 8C"), shanghai)
    >>> str(extend(run, Card.parse("9C"), shanghai))
    '#1 run 4C 5C 6C 7C 8C 9C'
    >>> str(extend(run, JOKER, shanghai, end="low"))
    '#1 run JK 4C 5C 6C 7C 8C'
    >>> extend(run, JOKER, shanghai)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.LayOffError: JK fits both ends of #1 run 4C 5C 6C 7C 8C: say end='low' ...
    """
    fits = lay_off_ends(meld, card, variant)
    if end is None:
        if not fits:
            options = _lay_off_options(meld, card, variant)
            raise LayOffError(f"{card} cannot be laid off on {meld}: " + _reasons(options))
        if len(fits) > 1:
            raise LayOffError(f"{card} fits both ends of {meld}: say end='low' or end='high'")
        return _extended(meld, card, fits[0], variant)
    for chosen in fits:
        if chosen == end:
            return _extended(meld, card, chosen, variant)
    for name, error in _lay_off_options(meld, card, variant):
        if name == end:
            raise LayOffError(f"{card} cannot be laid off on {meld}: {error}")
    expected = "end=None" if meld.kind is MeldKind.SET else "end='low' or end='high'"
    raise LayOffError(f"{end!r} is not an end of {meld} (use {expected})")


def _reasons(options: list[tuple[LayOffPlace, str | None]]) -> str:
    errors = [error for _, error in options if error is not None]
    if len(errors) == 2 and errors[0] != errors[1]:
        if errors[0].split(" does not extend ")[0] == errors[1].split(" does not extend ")[0]:
            return errors[0].split(" at its ")[0] + " at either end"
        return f"low end: {errors[0]}; high end: {errors[1]}"
    return errors[0]


def _extended(meld: TableMeld, card: Card, end: LayOffPlace, variant: Variant) -> TableMeld:
    if end == "set":
        if card.rank is None:
            return attrs.evolve(meld, cards=(*meld.cards, card))
        jokers_at = next((i for i, c in enumerate(meld.cards) if c.rank is None), len(meld.cards))
        cards = (*meld.cards[:jokers_at], card, *meld.cards[jokers_at:])
        if variant.jokers.wild_ranks:
            cards = _reading_kept(meld, cards, variant)
        return attrs.evolve(meld, cards=cards)
    assert meld.start is not None
    if end == "low":
        start = _normal_start(meld.start - 1, variant.melds.aces)
        return attrs.evolve(meld, cards=(card, *meld.cards), start=start)
    return attrs.evolve(meld, cards=(*meld.cards, card))


def _reading_kept(meld: TableMeld, cards: tuple[Card, ...], variant: Variant) -> tuple[Card, ...]:
    """The ``cards`` of a set grown by a lay-off under ``jokers.wild_ranks``, ordered so that
    they read again as the set of ``meld``'s rank: where every card is wild the first one
    that reads as a set fixes its rank (a set of threes ``2C 3D 3H`` given ``2H`` would read
    as a set of deuces), so a card of the set's rank is put first there."""
    with contextlib.suppress(InvalidMeldError):
        if check_group(cards, variant, kind=MeldKind.SET).rank is meld.rank:
            return cards
    first = next((i for i, held in enumerate(cards) if held.rank is meld.rank), 0)
    return (cards[first], *cards[:first], *cards[first + 1 :])


# --- joker swaps ------------------------------------------------------------------------------


def swap_positions(meld: Shape, card: Card, variant: Variant) -> tuple[int, ...]:
    """Indices of the jokers in ``meld`` that the natural ``card`` may replace: in a run the
    joker standing for ``card``; in a set every joker, when ``card`` has the set's rank (and,
    where ``variant.melds.set_distinct_suits``, a suit the set does not hold); none in a kind
    of group ``variant.joker_swap.from_melds`` closes.

    Fast: it reads the meld's fields and builds no text; :func:`joker_swapped` says why not.

    >>> from shanghai_rummy import Card, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> run = make_table_meld(1, 0, parse_cards("4C JK 6C JK"), shanghai)
    >>> swap_positions(run, Card.parse("7C"), shanghai)
    (3,)
    >>> swap_positions(run, Card.parse("8C"), shanghai)
    ()
    """
    if type(card) is not Card:
        raise card_error(card)
    rank = card.rank
    if rank is None or meld.kind not in _SWAP_KINDS[variant.joker_swap.from_melds]:
        return ()
    cards = meld.cards
    if meld.kind is MeldKind.SET:
        if rank is not meld.rank:
            return ()
        if variant.melds.set_distinct_suits:
            suit = card.suit
            for held in cards:
                if held.suit is suit:
                    return ()
        return tuple(index for index, held in enumerate(cards) if held.rank is None)
    start = meld.start
    assert start is not None
    if card.suit is not meld.suit:
        return ()
    # the card at index i stands for rank_at(start + i): that is ``rank`` when i = rank - start
    # modulo 13 (twice at most, in a run from ace to ace)
    first = (rank - start) % 13
    return tuple(index for index in range(first, len(cards), 13) if cards[index].rank is None)


_SWAP_KINDS = {
    SwapFrom.RUNS_AND_SETS: (MeldKind.RUN, MeldKind.SET),
    SwapFrom.RUNS: (MeldKind.RUN,),
    SwapFrom.SETS: (MeldKind.SET,),
}
"""The kinds of group a joker may be taken from, by ``joker_swap.from_melds``."""


def _swap_closed(kind: MeldKind, variant: Variant) -> str | None:
    """Why no joker may be taken from a group of that kind (``joker_swap.from_melds``)."""
    allowed = variant.joker_swap.from_melds
    if kind in _SWAP_KINDS[allowed]:
        return None
    return (
        f"jokers are taken from {allowed.value} only, not from a {kind.value} "
        f"(variant.joker_swap.from_melds={allowed.value})"
    )


def _swap_refusal(meld: Shape, card: Card, variant: Variant) -> str:
    """Why :func:`swap_positions` finds no joker of ``meld`` for ``card``."""
    jokers = [index for index, held in enumerate(meld.cards) if held.rank is None]
    if card.rank is None:
        return "a joker is swapped for a natural card, not for another joker"
    if not jokers:
        return f"{meld} holds no joker"
    closed = _swap_closed(meld.kind, variant)
    if closed is not None:
        return f"{meld}: {closed}"
    if meld.kind is MeldKind.SET:
        assert meld.rank is not None
        assert card.suit is not None
        if card.rank is not meld.rank:
            code = meld.rank.code
            return f"{card} is not {_a(meld.rank)}: the jokers of {meld} stand for {code}s"
        return f"{meld} already holds a {_SUIT_NAMES[card.suit]} (variant.melds.set_distinct_suits)"
    standing = ", ".join(str(meld.stands_for(index)) for index in jokers)
    return f"no joker of {meld} stands for {card} (its jokers stand for {standing})"


def joker_swapped(meld: TableMeld, card: Card, variant: Variant) -> TableMeld:
    """``meld`` with the natural ``card`` in place of a joker that stands for it, or
    :class:`~shanghai_rummy.JokerSwapError`. The meld stays valid.

    >>> from shanghai_rummy import Card, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> run = make_table_meld(1, 0, parse_cards("4C JK 6C 7C"), shanghai)
    >>> str(joker_swapped(run, Card.parse("5C"), shanghai))
    '#1 run 4C 5C 6C 7C'
    >>> joker_swapped(run, Card.parse("8C"), shanghai)
    Traceback (most recent call last):
    ...
    shanghai_rummy.errors.JokerSwapError: no joker of #1 run 4C JK 6C 7C stands for 8C ...
    """
    positions = swap_positions(meld, card, variant)
    if not positions:
        raise JokerSwapError(_swap_refusal(meld, card, variant))
    index = positions[0]
    return attrs.evolve(meld, cards=(*meld.cards[:index], card, *meld.cards[index + 1 :]))


def joker_kept_in_run(meld: Shape, variant: Variant) -> bool:
    """Whether a joker swapped out of ``meld`` stays in it, moved to an end: a run, under
    ``variant.joker_swap.freed_joker=to_run_end``."""
    return meld.kind is MeldKind.RUN and variant.joker_swap.freed_joker is FreedJoker.TO_RUN_END


def joker_moved_to_end(meld: TableMeld, card: Card, variant: Variant) -> TableMeld:
    """The run ``meld`` with the natural ``card`` in place of the joker that stands for it,
    and that joker moved to the run's high end, or to its low end where the high one is not
    free (``joker_swap.freed_joker=to_run_end``); :class:`~shanghai_rummy.JokerSwapError`
    where neither is.

    >>> from shanghai_rummy import Card, get_variant, parse_cards
    >>> shanghai = get_variant("shanghai")
    >>> run = make_table_meld(1, 0, parse_cards("4C JK 6C 7C"), shanghai)
    >>> str(joker_moved_to_end(run, Card.parse("5C"), shanghai))
    '#1 run 4C 5C 6C 7C JK'
    """
    swapped = joker_swapped(meld, card, variant)
    ends = lay_off_ends(swapped, JOKER, variant)
    if not ends:
        raise JokerSwapError(
            f"no end of {swapped} is free for the joker the swap frees "
            "(variant.joker_swap.freed_joker=to_run_end)"
        )
    return _extended(swapped, JOKER, "high" if "high" in ends else "low", variant)


# --- points -----------------------------------------------------------------------------------


def natural_stretch(shape: Shape) -> int:
    """The most natural cards in a row in a run (no joker among them), as an opening's
    ``Opening.natural_run`` asks; 0 for a set.

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> rummy51 = get_variant("rummy51")
    >>> natural_stretch(check_group(parse_cards("4S 5S JK 7S 8S 9S"), rummy51))
    3
    """
    if shape.kind is MeldKind.SET:
        return 0
    assert shape.start is not None
    assert shape.suit is not None
    row = _RUN_ROWS[shape.suit][shape.start :]
    longest = current = 0
    for index, card in enumerate(shape.cards):
        current = current + 1 if card is row[index] else 0  # a card standing as itself
        longest = max(longest, current)
    return longest


def group_points(shape: Shape, values: CardValues) -> int:
    """The value of a group for an opening: each card, a joker counted as the card it stands
    for (in a set, the set's rank).

    >>> from shanghai_rummy import get_variant, parse_cards
    >>> from shanghai_rummy.contracts import RUMMY51_VALUES
    >>> rummy51 = get_variant("rummy51")
    >>> group_points(check_group(parse_cards("6S JK 8S"), rummy51), RUMMY51_VALUES)
    21
    """
    if shape.kind is MeldKind.SET:
        assert shape.rank is not None
        return values.of_rank(shape.rank) * len(shape.cards)
    assert shape.start is not None
    return sum(values.at_position(shape.start + i) for i in range(len(shape.cards)))
