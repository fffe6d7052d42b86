"""What a player must lay down to go down: a contract of sets and runs, or an opening worth
at least some points. The solver that finds a way to meet one lives in :mod:`.solver`.

>>> from shanghai_rummy import Contract, Opening
>>> Contract(sets=(3,), runs=(4,)).describe()
'1 set of 3 + 1 run of 4'
>>> Opening(min_points=51).describe()
'groups worth at least 51 points'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sized
from typing import TypeAlias

import attrs

from ._field_types import describe_type
from .cards import Card, Rank
from .errors import VariantError
from .limits import MAX_CONTRACT_GROUPS, MAX_GROUP_CARDS

_MOST_NUMBERS = 13  # a CardValues holds 13; no contract holds more groups
_LONGEST_RUN = 14  # ace to ace, where a variant allows it

__all__ = ["RUMMY51_VALUES", "CardValues", "Contract", "Opening", "Requirement"]


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sized):
        # one size instead of a tuple of them: Contract(sets=3)
        raise VariantError(
            f"Contract: the sizes are a tuple with one entry per group, such as sets=(3, 3) "
            f"or runs=(4,); got {describe_type(values)}"
        )
    if len(values) > _MOST_NUMBERS:  # before making a tuple of a range(10**9)
        raise VariantError(f"Contract: at most {_MOST_NUMBERS} numbers, got {len(values)}")
    return tuple(values)


@attrs.frozen(kw_only=True)
class Contract:
    """A contract: one set per entry of ``sets`` and one run per entry of ``runs``, each
    entry its minimum (or, where the variant says so, exact) size.

    >>> Contract(sets=(3, 3)).group_count, Contract(sets=(3,), runs=(10,)).min_cards
    (2, 13)
    """

    sets: tuple[int, ...] = attrs.field(default=(), converter=_int_tuple)
    runs: tuple[int, ...] = attrs.field(default=(), converter=_int_tuple)

    def __attrs_post_init__(self) -> None:
        if not self.sets and not self.runs:
            raise VariantError("Contract: a contract needs at least one set or run")
        for name, sizes in (("sets", self.sets), ("runs", self.runs)):
            for size in sizes:
                if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                    raise VariantError(
                        f"Contract.{name}: sizes must be positive integers, got {size!r}"
                    )
                longest = _LONGEST_RUN if name == "runs" else MAX_GROUP_CARDS
                if size > longest:
                    raise VariantError(
                        f"Contract.{name}: a size of {size}; at most {longest} "
                        f"({'the longest run' if name == 'runs' else 'limits.MAX_GROUP_CARDS'})"
                    )
        if self.group_count > MAX_CONTRACT_GROUPS:
            raise VariantError(
                f"Contract: at most {MAX_CONTRACT_GROUPS} groups (limits.MAX_CONTRACT_GROUPS), "
                f"got {self.group_count}"
            )

    @property
    def group_count(self) -> int:
        """How many groups the contract asks for."""
        return len(self.sets) + len(self.runs)

    @property
    def min_cards(self) -> int:
        """The fewest cards that meet it."""
        return sum(self.sets) + sum(self.runs)

    def describe(self) -> str:
        """The contract in words."""
        parts = []
        for word, sizes in (("set", self.sets), ("run", self.runs)):
            for size, count in sorted(Counter(sizes).items()):
                parts.append(f"{count} {word}{'s' if count > 1 else ''} of {size}")
        return " + ".join(parts)


@attrs.frozen(kw_only=True)
class CardValues:
    """Points per card: ``by_rank`` lists the values of 2, 3, ..., K, A in that order (13
    numbers); ``joker`` is a joker's value. ``ace_low``: house rule: the value of an ace
    that sits below the 2 in a run (A-2-3), where it differs from the ace's (Remik: 1 there,
    11 elsewhere); from 0 to the ace's value. ``None``: an ace is worth its value anywhere.
    It counts in a group's worth (an opening's points); a card left in hand is worth
    ``by_rank``.

    >>> from shanghai_rummy import JOKER, Card
    >>> values = CardValues.from_mapping({"2": 20, "3-9": 5, "10-K": 10, "A": 15, "JK": 25})
    >>> values.of(Card.parse("AS")), values.of(JOKER), values.of(Card.parse("7D"))
    (15, 25, 5)
    >>> remik = CardValues.from_mapping({"2-10": 0, "J-K": 10, "A": 11, "A low": 1, "JK": 0})
    >>> remik.at_position(1), remik.at_position(14), remik.at_position(12)
    (1, 11, 10)
    """

    by_rank: tuple[int, ...] = attrs.field(converter=_int_tuple)
    joker: int
    ace_low: int | None = None

    def __attrs_post_init__(self) -> None:
        if len(self.by_rank) != len(Rank):
            raise VariantError(
                f"CardValues.by_rank: needs {len(Rank)} values (2, 3, ..., K, A), "
                f"got {len(self.by_rank)}"
            )
        for value in (*self.by_rank, self.joker):
            if not isinstance(value, int) or isinstance(value, bool):
                raise VariantError(f"CardValues: values must be integers, got {value!r}")
        low = self.ace_low
        if low is not None and (
            not isinstance(low, int) or isinstance(low, bool) or not 0 <= low <= self.by_rank[-1]
        ):
            # an ace never counts for more low than anywhere: the searches' bounds rely on it
            raise VariantError(
                f"CardValues.ace_low: from 0 to the ace's value ({self.by_rank[-1]}), got {low!r}"
            )

    def of(self, card: Card) -> int:
        """The value of one card (a joker's is ``joker``)."""
        if card.rank is None:
            return self.joker
        return self.by_rank[card.rank - 2]

    def of_rank(self, rank: Rank) -> int:
        """The value of a natural card of that rank."""
        return self.by_rank[rank - 2]

    def at_position(self, position: int) -> int:
        """The value of the card at a run position (see :mod:`shanghai_rummy.melds`: 1 is the
        ace below the 2, 2 to 13 the ranks 2 to K, 14 the ace above the king, and on round
        the corner): ``ace_low`` at position 1 where it is set."""
        if position == 1 and self.ace_low is not None:
            return self.ace_low
        return self.by_rank[(position - 2) % 13]

    @staticmethod
    def from_mapping(mapping: dict[str, int]) -> CardValues:
        """Build from rank codes or ranges of them (``"3-9"``, ``"10-K"``) and ``"JK"``.
        Every rank and the joker must be given exactly once; ``"A low"``, if given, is
        ``ace_low``."""
        codes = [rank.code for rank in Rank]
        values: dict[str, int] = {}
        ace_low: int | None = None
        for key, value in mapping.items():
            key = " ".join(key.upper().split())
            if key == "A LOW":
                ace_low = value
                continue
            if key in ("JK", "JOKER", "*"):
                names = ["JK"]
            elif "-" in key:
                low, _, high = key.partition("-")
                if low not in codes or high not in codes or codes.index(low) > codes.index(high):
                    raise VariantError(f"CardValues: not a rank range: {key!r}")
                names = codes[codes.index(low) : codes.index(high) + 1]
            elif key in codes:
                names = [key]
            else:
                raise VariantError(f"CardValues: not a rank: {key!r}")
            for name in names:
                if name in values:
                    raise VariantError(f"CardValues: {name} is given twice")
                values[name] = value
        missing = [name for name in [*codes, "JK"] if name not in values]
        if missing:
            raise VariantError(f"CardValues: no value for {', '.join(missing)}")
        return CardValues(
            by_rank=tuple(values[code] for code in codes), joker=values["JK"], ace_low=ace_low
        )


RUMMY51_VALUES = CardValues(by_rank=(2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10), joker=20)
"""Rummy 51's values: 2-9 at face value, 10 to ace 10; a joker left in hand 20 (for opening,
a joker counts as the card it stands for)."""


@attrs.frozen(kw_only=True)
class Opening:
    """An opening requirement: any number of valid groups worth at least ``min_points`` in
    total, each card counted by ``values`` and a joker as the card it stands for; where
    ``natural_run`` is not 0, one of them a run holding at least that many consecutive
    natural cards (Remik: a run of 3 with no joker among them).

    >>> Opening(min_points=51, natural_run=3).describe()
    'groups worth at least 51 points, one a run of 3 natural cards in a row'
    """

    min_points: int
    values: CardValues = attrs.field(factory=lambda: RUMMY51_VALUES)
    natural_run: int = 0

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.min_points, int) or self.min_points < 0:
            raise VariantError(
                f"Opening.min_points: must be a non-negative integer, got {self.min_points!r}"
            )
        run = self.natural_run
        if type(run) is not int or run == 1 or not 0 <= run <= _LONGEST_RUN:
            raise VariantError(
                f"Opening.natural_run: must be 0 (no run needed) or an integer from 2 to "
                f"{_LONGEST_RUN}, got {run!r}"
            )

    def describe(self) -> str:
        """The requirement in words."""
        run = f"a run of {self.natural_run} natural cards in a row"
        if self.natural_run and not self.min_points:
            return run
        text = f"groups worth at least {self.min_points} points"
        return f"{text}, one {run}" if self.natural_run else text


Requirement: TypeAlias = Contract | Opening
"""What going down asks for: a :class:`Contract` or an :class:`Opening`."""
