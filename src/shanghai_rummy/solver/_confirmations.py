"""Completions found that confirm many groups of a hand at once, for
:func:`shanghai_rummy.solver.startable_groups` over a hand of many groups. Nothing here is
public.

A completion found (a *witness*: one group a slot left, see ``_startable``) of what a group
leaves to lay is a completion for every other group that leaves the same to lay and that
the hand still holds beside the witness's groups (as multisets of cards, jokers counted
apart), as long as the cards left over make a number the turn may end with and, where runs
of one suit may clash, the group clashes with none of the witness's runs (and they with
none laid): a sure "yes", read without a search. Likewise a group whose rest holds no
completion at all refutes every group holding all its cards (and as many jokers or more)
that leaves the same to lay: their rests are smaller (a sure "no"). The groups asked
about are numbered (those of one multiset of natural cards side by side), and each card's
users, the jokers, sizes and run spans are kept as bit masks over those numbers, so that
one witness confirms (one refusal refutes) every group it reaches in a few operations on
integers, whatever the number of groups.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from ..melds import MeldKind
from ._candidate_groups import Candidate
from ._startable import CompletionSearch, HandGroups, Placed, Witness, runs_clash_among

Searches = tuple[CompletionSearch | None, ...]
"""The searches of what a group leaves to lay, one a reading (None: an opening's points)."""
Asked = tuple[tuple[int, ...], Candidate, Searches]
"""A group asked about: its key (flattened canonical codes), its candidate and the searches
of what it leaves to lay."""


def mask_of(indexes: list[int], width: int) -> int:
    """The integer whose bits ``indexes`` are set (built a byte at a time: or-ing single
    bits into a wide integer would copy it each time)."""
    bits = bytearray((width >> 3) + 1)
    for index in indexes:
        bits[index >> 3] |= 1 << (index & 7)
    return int.from_bytes(bits, "little")


_Alike = tuple[Searches, int, int, int, int]
"""What groups share for their masks: the searches of what they leave to lay, their jokers,
size, and a run's suit and start (-1 for a set)."""


_Range = tuple[tuple[tuple[int, int], ...], int, int]
"""The groups of one multiset of natural cards: its need (see ``Candidate.need``), and the
first and past-the-last of their numbers."""

_BIT_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
"""A byte a bit (0 or 1) as the digit of it."""


def _numbered(
    asked: Sequence[Asked],
) -> tuple[list[int], dict[_Alike, list[int]], list[_Range]]:
    """The number of each group ``asked`` (by its place among them), the groups alike (see
    :data:`_Alike`, by number), and the numbers of the groups of each multiset of natural
    cards: the groups of one multiset are numbered side by side, so that the groups needing
    a card are a few ranges of numbers, not thousands of bits set one by one."""
    natural: dict[int, list[int]] = {}
    needs: dict[int, tuple[tuple[int, int], ...]] = {}
    for index, (_, group, _) in enumerate(asked):
        packed = group.packed
        indexes = natural.get(packed)
        if indexes is None:
            indexes = natural[packed] = []
            needs[packed] = group.need
        indexes.append(index)
    number = [0] * len(asked)
    ranges: list[_Range] = []
    first = 0
    for packed, indexes in natural.items():
        for offset, index in enumerate(indexes, first):
            number[index] = offset
        ranges.append((needs[packed], first, first + len(indexes)))
        first += len(indexes)
    alike: dict[_Alike, list[int]] = {}
    for index, (_, group, searches) in enumerate(asked):
        key = (searches, group.jokers, group.size, group.suit, group.start)
        numbers = alike.get(key)
        if numbers is None:
            numbers = alike[key] = []
        numbers.append(number[index])
    return number, alike, ranges


def _users_of(ranges: list[_Range], width: int) -> dict[int, list[int]]:
    """By card code, the masks of the groups needing at least each count of it (see
    ``Confirmations.users``), from the ranges of numbers of the groups of each multiset of
    natural cards: a byte a group for each card and count, filled a range at a time, then
    read as the digits of one mask."""
    ones = b"\x01" * width
    flags: dict[tuple[int, int], bytearray] = {}
    for need, first, past in ranges:
        for pair in need:
            held = flags.get(pair)
            if held is None:
                held = flags[pair] = bytearray(width)
            held[first:past] = ones[: past - first]
    exact: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for (code, count), held in flags.items():
        exact[code][count] = int(held.translate(_BIT_DIGITS)[::-1], 2)
    users: dict[int, list[int]] = {}
    for code, by_count in exact.items():
        masks = [0] * (max(by_count) + 1)
        more = 0
        for count in range(len(masks) - 1, 0, -1):
            more |= by_count.get(count, 0)
            masks[count] = more
        users[code] = masks
    return users


class Confirmations:
    """The groups asked about in one hand (by number: ``number[i]`` is the bit of the
    ``i``-th group asked, those of one multiset of natural cards side by side) that witnesses
    confirm (``confirmed``, a bit each; see the module notes), and those whose rest is known
    to hold no completion (``refuted``, see :meth:`refute`). As masks over those numbers:
    ``users[code][t]``, the groups that need at least ``t`` copies of the card of ``code``;
    ``over[k]``, those that hold more than ``k`` jokers; ``sizes``, the groups of each
    size; ``spans``, the runs of each span (suit, first position, length), ``clashing``
    those that clash with a run; ``among``, the groups each search asks for, ``alone``
    those it is the only search of. ``taken``: how many of each search's witnesses are
    confirmed already."""

    __slots__ = (
        "alone",
        "among",
        "clashing",
        "confirmed",
        "counts",
        "every",
        "jokers",
        "leaves",
        "leaving",
        "number",
        "over",
        "placed",
        "refuted",
        "rules",
        "sizes",
        "spans",
        "taken",
        "total",
        "users",
    )

    def __init__(
        self,
        asked: Sequence[Asked],
        hand: HandGroups,
        leaves: Callable[[int], bool] | None,
        placed: Sequence[Placed] | None,
    ) -> None:
        """``asked``: the groups asked about in ``hand``, in order, each with its
        candidate and the searches of what it leaves to lay; ``placed``: the runs laid
        where runs of one suit may clash (None where they may not). The witnesses each
        search starts with (found in earlier hands) are confirmed at once."""
        width = len(asked)
        jokers = hand.jokers
        self.number, alike, ranges = _numbered(asked)
        holding: defaultdict[int, int] = defaultdict(int)
        self.sizes: dict[int, int] = defaultdict(int)
        self.spans: dict[Placed, int] = defaultdict(int)
        reading: defaultdict[Searches, int] = defaultdict(int)
        for (searches, held, size, suit, start), indexes in alike.items():
            mask = mask_of(indexes, width)
            reading[searches] |= mask
            holding[held] |= mask
            self.sizes[size] |= mask
            if suit >= 0:  # a run (a set's suit is -1)
                self.spans[suit, start, size] |= mask
        self.among: dict[CompletionSearch, int] = defaultdict(int)
        self.alone: dict[CompletionSearch, int] = defaultdict(int)
        for searches, mask in reading.items():
            for search in searches:
                if search is not None:
                    self.among[search] |= mask
            if len(searches) == 1 and searches[0] is not None:
                self.alone[searches[0]] |= mask
        self.users = _users_of(ranges, width)
        self.over = [0] * (jokers + 1)
        more = 0
        for held in range(jokers, 0, -1):
            more |= holding.get(held, 0)
            self.over[held - 1] = more
        self.every = (1 << width) - 1
        self.clashing: dict[Placed, int] = {}
        self.counts = hand.counts
        self.jokers = jokers
        self.total = hand.total
        self.leaves = leaves
        self.leaving: dict[int, int] = {}
        self.placed = placed
        self.rules = hand.rules
        self.confirmed = 0
        self.refuted = 0
        self.taken: dict[CompletionSearch, int] = {}
        for search, among in self.among.items():
            for witness in search.found:
                self.confirm(witness, among)
            self.taken[search] = len(search.kept)

    def take(self, searches: Searches) -> None:
        """Confirm the groups the witnesses ``searches`` found since last asked complete."""
        for search in searches:
            if search is None:
                continue
            kept = search.kept
            taken = self.taken[search]
            if taken < len(kept):
                among = self.among[search]
                for witness in kept[taken:]:
                    self.confirm(witness, among)
                self.taken[search] = len(kept)

    def confirm(self, witness: Witness, among: int) -> None:
        """Confirm the groups of ``among`` (a mask) that ``witness`` completes."""
        fits = among & ~self.confirmed
        if not fits:
            return
        groups, _, held, size = witness
        spare = self.jokers - held
        if spare < 0:
            return
        if spare < len(self.over):
            fits &= ~self.over[spare]
        need: dict[int, int] = {}
        for group in groups:
            for code, count in group.need:
                need[code] = need.get(code, 0) + count
        counts, users_of = self.counts, self.users
        for code, count in need.items():
            left = counts[code] - count
            if left < 0:
                return
            users = users_of.get(code)
            if users is not None and left + 1 < len(users):
                fits &= ~users[left + 1]
        if self.leaves is not None:
            fits &= self._leaving(size)
        if self.placed is not None:
            if self._clashes(groups):
                return
            for group in groups:
                if group.kind is MeldKind.RUN:
                    fits &= ~self._clashing((group.suit, group.start, group.size))
        self.confirmed |= fits

    def refute(self, group: Candidate, searches: Searches) -> None:
        """Refute the groups holding every card of ``group`` (and as many jokers or more)
        whose one search is that of ``group``, whose rest holds no completion: theirs,
        smaller, holds none either."""
        if len(searches) != 1 or searches[0] is None:
            return
        holding = self.alone[searches[0]]
        users = self.users
        for code, count in group.need:
            holding &= users[code][count]
        if group.jokers:
            holding &= self.over[group.jokers - 1]
        self.refuted |= holding

    def _leaving(self, size: int) -> int:
        """The groups that, beside a witness of ``size`` cards, leave a number of cards the
        turn may end with."""
        known = self.leaving.get(size)
        if known is None:
            leaves = self.leaves
            assert leaves is not None
            rest = self.total - size
            known = 0
            for group_size, mask in self.sizes.items():
                if leaves(rest - group_size):
                    known |= mask
            self.leaving[size] = known
        return known

    def _clashing(self, run: Placed) -> int:
        """The runs asked about that clash with ``run``."""
        known = self.clashing.get(run)
        if known is None:
            suit, start, length = run
            clash = self.rules.clash
            known = 0
            for (other, first, size), mask in self.spans.items():
                if other == suit and clash(first, size, start, length):
                    known |= mask
            self.clashing[run] = known
        return known

    def _clashes(self, groups: list[Candidate]) -> bool:
        """Whether the runs of ``groups`` clash with the runs placed or among themselves."""
        assert self.placed is not None
        return runs_clash_among(groups, self.placed, self.rules.clash)
