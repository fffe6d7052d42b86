"""Which single groups of a hand can start (or continue) a going down of a contract that the
rest of the hand can still complete: one pass over the hand's groups, with each slot still
to fill read from the hand's *irreducible* groups for it. Nothing here is public
(:func:`shanghai_rummy.solver.startable_groups` is).

A group fills a contract slot (of a kind and size) when its kind matches and
:meth:`~._variant_rules.VariantRules.slot_accepts` takes its size and jokers. It is
*irreducible* for the slot when no group one card smaller (a set less one card, a run less
an end card) that the hand's cards make also fills it. Any way to complete a going down
keeps being one, as far as the cards go, when each of its groups is replaced by an
irreducible group inside it: fewer cards are used, each slot is still filled, and the
groups stay disjoint. So where no choice of disjoint irreducible groups (one per slot left)
fits in the rest of the hand, no completion exists at all (a sound "no"); a choice that also
keeps the same-suit-runs rule with every group laid and leaves a number of cards the turn
may end with is a completion (a sure "yes"). Only a hand whose choices all fail those two
rules, or whose search runs past its budget, is left undecided, for the exact search of
:func:`shanghai_rummy.solver.complete` to answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import TypeVar

from ..cards import Card
from ..contracts import Contract
from ..melds import GroupShape, MeldKind
from ..variants import SameSuitRuns
from ._candidate_groups import Candidate, every_group_keyed, groups_of_sizes, hand_candidates
from ._card_counts import JOKER_CODE, packed_counts
from ._memo import Memo, MemoKind
from ._variant_rules import VariantRules

Slot = tuple[MeldKind, int]
"""A contract slot: the kind of group and its size."""
Placed = tuple[int, int, int]
"""A run on the table or chosen: suit index, first position, length."""

YES, UNDECIDED, NO = 2, 1, 0
"""The answers of :meth:`HandGroups.completes`: a completion found; only choices that break
the same-suit-runs rule or the turn-end rule (or the budget ran out); none at all."""

SEARCH_BUDGET = 400
"""The most choices one question tries before it is left undecided."""


Key = TypeVar("Key")
Value = TypeVar("Value")
Witness = tuple[list[Candidate], int, int, int]
"""A completion found: its groups (one a slot, in the slots' order), their needs packed,
their jokers and their cards."""
FOUND_LATELY: MemoKind[tuple[tuple[Slot, ...], Callable[[int], bool] | None], list[Witness]] = (
    MemoKind("completions found lately", 256)
)
"""The last :data:`MOST_FOUND` completions found of each list of slots (and turn-end rule),
whatever hand they were found in: each is tried first on every later hand, where it fits
(the hands of one game change a card at a time, and keep most of their groups)."""
MOST_FOUND = 16
HAND_GROUPS: MemoKind[bytes, HandGroups] = MemoKind("groups of a hand for slots", 8)
"""The :class:`HandGroups` of a hand, by its tally (a listing and the move made from it
ask about the same hand)."""


def remember(memo: Memo[Key, Value], made: dict[Key, Value]) -> None:
    """Keep every entry of ``made`` (keys ``memo`` lacks) in ``memo``, as writing each would:
    at once where they all fit, one by one (``memo`` emptied when full) where they do not."""
    if len(memo) + len(made) <= memo.size:
        dict.update(memo, made)
    else:
        for key, value in made.items():
            memo[key] = value


def fills(candidate: Candidate, slot: Slot, rules: VariantRules) -> bool:
    """Whether ``candidate`` fills ``slot`` when laid toward a going down."""
    kind, size = slot
    return (
        candidate.kind is kind
        and candidate.jokers <= rules.per_group_limit
        and rules.slot_accepts(size, candidate.size, candidate.jokers)
    )


def _fills_irreducibly(reading: int, size: int, rules: VariantRules) -> bool:
    """Whether a group of ``reading`` (see ``Candidate.reading``) fills a slot of its kind
    and ``size`` (see :func:`fills`) and no valid group one card smaller does (a set less
    one card, a run less an end card): whether it is irreducible for the slot."""
    cards, jokers, smaller = reading >> 9, reading >> 2 & 127, reading & 3
    accepts = rules.slot_accepts
    if jokers > rules.per_group_limit or not accepts(size, cards, jokers):
        return False
    if cards == size:  # no slot of the size takes a group one card smaller
        return True
    return not (
        (smaller & 1 and accepts(size, cards - 1, jokers))
        or (smaller & 2 and accepts(size, cards - 1, jokers - 1))
    )


class HandGroups:
    """One hand's groups as the completion check reads them: its card counts packed (see
    :func:`._card_counts.packed_counts`), its jokers, and, made when first asked, its groups
    (each a :class:`Candidate` with its ``reading``, in canonical order), the same by key, and
    the irreducible groups for each slot (fewest jokers first)."""

    __slots__ = (
        "by_slot",
        "counts",
        "groups",
        "guard",
        "jokers",
        "known",
        "listed",
        "masks",
        "packed",
        "rules",
        "searches",
        "shapes",
        "total",
    )

    def __init__(
        self,
        counts: list[int],
        jokers: int,
        rules: VariantRules,
        groups: list[Candidate] | None = None,
    ) -> None:
        """``groups``: the hand's groups, where they are known."""
        self.rules = rules
        self.counts = counts
        self.guard, self.packed = packed_counts(counts)
        self.jokers = jokers
        self.total = sum(counts) + jokers
        self.groups = groups
        # the hand's groups by key and cards, where they are read before its candidates
        self.listed: list[tuple[tuple[int, ...], tuple[Card, ...]]] | None = None
        self.known: dict[tuple[int, ...], Candidate] | None = None
        self.by_slot: dict[Slot, list[Candidate]] = {}
        self.masks: dict[Slot, SlotMasks] = {}
        self.searches: dict[
            tuple[tuple[Slot, ...], Callable[[int], bool] | None], CompletionSearch
        ] = {}
        # the hand's groups (keys) with their shapes, once read (see solver.possible_shapes)
        self.shapes: list[tuple[tuple[int, ...], GroupShape]] | None = None

    def within(self, counts: list[int], jokers: int) -> HandGroups:
        """The :class:`HandGroups` of a smaller hand, ``jokers`` jokers and the card
        ``counts`` (each at most this hand's): its groups are those of this hand its cards
        still form (every valid group a hand can form is one of a larger hand's, in the same
        order), and so are its shapes and its irreducible groups of each slot read so far
        (whether a group is irreducible depends on the group alone)."""
        guard, packed = packed_counts(counts)
        known = {
            key: candidate
            for key, candidate in self.keyed().items()
            if candidate.jokers <= jokers and (packed - candidate.packed) & guard == guard
        }
        smaller = HandGroups(counts, jokers, self.rules, list(known.values()))
        smaller.known = known
        if self.shapes is not None:
            smaller.shapes = [(key, shape) for key, shape in self.shapes if key in known]
        smaller.by_slot = {
            slot: [candidate for candidate in groups if candidate.key in known]
            for slot, groups in self.by_slot.items()
        }
        return smaller

    def candidates(self) -> list[Candidate]:
        """The hand's groups, made when first asked."""
        groups = self.groups
        if groups is None:
            groups = self.groups = hand_candidates(self.counts, self.jokers, self.rules)
        return groups

    def entries(self) -> Iterable[tuple[tuple[int, ...], tuple[Card, ...]]]:
        """The hand's groups in canonical order, each by its key and cards: read from its
        candidates where they are made, else listed alone (what the shapes of the groups
        read, cheaper to list)."""
        groups = self.groups
        if groups is not None:
            return zip(map(_KEY, groups), map(_CARDS, groups), strict=True)
        listed = self.listed
        if listed is None:
            listed = self.listed = every_group_keyed(self.counts, self.jokers, self.rules)
        return listed

    def keyed(self) -> dict[tuple[int, ...], Candidate]:
        """The hand's groups by key, read when first asked."""
        known = self.known
        if known is None:
            known = self.known = {candidate.key: candidate for candidate in self.candidates()}
        return known

    def slot_groups(self, slot: Slot) -> list[Candidate]:
        """The hand's irreducible groups for ``slot`` (see the module notes)."""
        known = self.by_slot.get(slot)
        if known is not None:
            return known
        kind, size = slot
        group = 0 if kind is MeldKind.SET else 1
        # whether a group fills the slot irreducibly depends on its reading alone
        fitting: dict[int, bool] = {}
        groups = []
        for candidate in self.candidates():
            if candidate.group != group:
                continue
            reading = candidate.reading
            fits = fitting.get(reading)
            if fits is None:
                fits = fitting[reading] = _fills_irreducibly(reading, size, self.rules)
            if fits:
                groups.append(candidate)
        groups.sort(key=_fewest_jokers)
        self.by_slot[slot] = groups
        return groups

    def slot_masks(self, slot: Slot) -> SlotMasks:
        """The :class:`SlotMasks` of the hand's irreducible groups for ``slot``."""
        known = self.masks.get(slot)
        if known is None:
            known = self.masks[slot] = SlotMasks(self.slot_groups(slot), self.jokers)
        return known

    def completes(
        self,
        taken: Candidate | None,
        slots: tuple[Slot, ...],
        placed: Sequence[Placed],
        leaves: Callable[[int], bool] | None,
    ) -> int:
        """Whether the hand less ``taken`` (a group of it, or None) can fill ``slots`` (in a
        fixed order) with groups of its own: :data:`YES`, :data:`NO` or :data:`UNDECIDED`
        (see the module notes). ``placed``: the runs laid or taken that the same-suit-runs
        rule reads; ``leaves``: the numbers of cards the turn may end with."""
        return self.search(slots, leaves).run(taken, placed)

    def search(
        self,
        slots: tuple[Slot, ...],
        leaves: Callable[[int], bool] | None,
        contract: Contract | None = None,
    ) -> CompletionSearch:
        """The :class:`CompletionSearch` of ``slots`` under ``leaves`` in this hand, made
        once (:meth:`completes` asks it); ``contract``: the contract of those slots, where
        the caller knows one."""
        key = (slots, leaves)
        search = self.searches.get(key)
        if search is None:
            apart = self.rules.variant.going_down.same_suit_runs is SameSuitRuns.ALLOWED
            search = self.searches[key] = CompletionSearch(self, slots, leaves, apart)
        if search.contract is None:
            search.contract = contract
        return search


class SlotMasks:
    """The irreducible groups of one slot (see :meth:`HandGroups.slot_groups`) as bits, one
    a group in their order: ``users[code][t]``, the groups that need at least ``t`` copies
    of the card of ``code``; ``over[k]``, those holding more than ``k`` jokers; ``every``,
    all of them. The groups that fit beside groups already chosen are then read at once."""

    __slots__ = ("every", "over", "users")

    def __init__(self, groups: Sequence[Candidate], jokers: int) -> None:
        self.every = (1 << len(groups)) - 1
        users: dict[int, list[int]] = {}
        over = [0] * (jokers + 1)
        for index, group in enumerate(groups):
            bit = 1 << index
            for code, count in group.need:
                masks = users.get(code)
                if masks is None:
                    masks = users[code] = [0]
                while len(masks) <= count:
                    masks.append(0)
                for needed in range(1, count + 1):
                    masks[needed] |= bit
            for held in range(min(group.jokers, jokers + 1)):
                over[held] |= bit
        self.users = users
        self.over = over


_MOST_KEPT = 8
"""The most completions one search keeps to try again."""


_KEY, _CARDS = attrgetter("key"), attrgetter("cards")


def _fewest_jokers(candidate: Candidate) -> tuple[int, int]:
    return candidate.jokers, candidate.size


class CompletionSearch:
    """The depth-first choice of one irreducible group per slot (see
    :meth:`HandGroups.completes`), counting its steps against :data:`SEARCH_BUDGET`; the
    groups of each slot that fit beside those chosen are read at once from the slot's
    :class:`SlotMasks`, narrowed as each group is chosen by the cards it takes."""

    __slots__ = (
        "apart",
        "chosen",
        "contract",
        "counts",
        "found",
        "guard",
        "hand",
        "kept",
        "lately",
        "leaves",
        "lists",
        "masks",
        "placed",
        "refused",
        "rules",
        "slot_masks",
        "slots",
        "steps",
        "used",
    )

    def __init__(
        self,
        hand: HandGroups,
        slots: tuple[Slot, ...],
        leaves: Callable[[int], bool] | None,
        apart: bool,
    ) -> None:
        self.hand = hand
        self.guard = hand.guard
        self.counts = hand.counts
        self.slots = slots
        self.lists = [hand.slot_groups(slot) for slot in slots]
        # the masks of each distinct slot, and which of them each slot reads
        distinct = list(dict.fromkeys(slots))
        self.masks = [hand.slot_masks(slot) for slot in distinct]
        self.slot_masks = [distinct.index(slot) for slot in slots]
        self.placed: Sequence[Placed] = ()
        self.leaves = leaves
        self.apart = apart
        self.rules = hand.rules
        self.chosen: list[Candidate] = []
        self.used: dict[int, int] = {}
        self.steps = 0
        # the completions found lately that fit in the hand, tried first for every group
        # taken (see FOUND_LATELY); the groups taken whose rest holds none
        self.lately = hand.rules.memos.of(FOUND_LATELY).get((slots, leaves))
        guard, packed, jokers = self.guard, hand.packed, hand.jokers
        self.found: list[Witness] = [
            witness
            for witness in self.lately or ()
            if witness[2] <= jokers and (packed - witness[1]) & guard == guard
        ]
        self.refused: set[tuple[int, int]] = set()
        self.contract: Contract | None = None  # the contract of the slots, where known
        # every completion this search found, in order (see ``_confirmations``)
        self.kept: list[Witness] = []

    def run(self, taken: Candidate | None, placed: Sequence[Placed]) -> int:
        """The answer of :meth:`HandGroups.completes` for the hand less ``taken``."""
        hand = self.hand
        available, jokers, left = hand.packed, hand.jokers, hand.total
        if taken is not None:
            available -= taken.packed
            jokers -= taken.jokers
            left -= taken.size
        self.placed = placed
        if self._found_again(available, jokers, left):
            return YES
        if taken is not None and self._refused_before(taken):
            self.refused.add((taken.packed, taken.jokers))
            return NO
        self.used = {}
        fits = [masks.every for masks in self.masks]
        if taken is not None:
            fits = self._narrowed(fits, taken)
        self.chosen = []
        self.steps = 0
        answer = self.fill(0, 0, jokers, left, fits)
        if answer == NO and taken is not None:
            self.refused.add((taken.packed, taken.jokers))
        return answer

    def _found_again(self, available: int, jokers: int, left: int) -> bool:
        """Whether one of the completions found so far fits in the rest of the hand
        (``available`` its counts packed, ``jokers``, ``left`` cards) and ends well: then
        it completes this rest too."""
        guard = self.guard
        for groups, needs, held, size in self.found:
            if held > jokers or (available - needs) & guard != guard:
                continue
            self.chosen = groups
            if self._ends_well(left - size):
                return True
        return False

    def _refused_before(self, taken: Candidate) -> bool:
        """Whether the rest of the hand less ``taken`` lies inside the rest less a group
        taken before whose rest held no completion at all (a "no" depends on the rest's
        cards alone): one with the same natural cards and no more jokers, or one natural
        card fewer (an end card; any card of a small group). The rest less ``taken`` holds
        no more cards, so no completion either."""
        refused = self.refused
        if not refused:
            return False
        packed, jokers = taken.packed, taken.jokers
        need = taken.need
        dropped = need if len(need) <= 3 else (need[0], need[-1])
        for fewer in range(jokers, -1, -1):
            if (packed, fewer) in refused:
                return True
            for code, _ in dropped:
                if (packed - (1 << (code << 3)), fewer) in refused:
                    return True
        return False

    def _narrowed(self, fits: list[int], group: Candidate) -> list[int]:
        """Each slot's groups of ``fits`` that still fit once ``group``'s cards are taken
        too (counted in ``used``): those needing more copies of a card than are left go.
        The groups needing at least ``t`` copies hold those needing more, so the card's
        count after the take says it all."""
        used, counts = self.used, self.counts
        if len(fits) == 1:  # alike slots: one list of groups
            fit = fits[0]
            every_users = self.masks[0].users
            for code, count in group.need:
                taken = used[code] = used.get(code, 0) + count
                users = every_users.get(code)
                if users is not None:
                    needed = counts[code] - taken + 1
                    if needed < len(users):
                        fit &= ~users[needed]
            return [fit]
        narrowed = list(fits)
        for code, count in group.need:
            taken = used[code] = used.get(code, 0) + count
            needed = counts[code] - taken + 1
            for index, masks in enumerate(self.masks):
                users = masks.users.get(code)
                if users is not None and needed < len(users):
                    narrowed[index] &= ~users[needed]
        return narrowed

    def _give_back(self, group: Candidate) -> None:
        """Count ``group``'s cards as free again."""
        used = self.used
        for code, count in group.need:
            used[code] -= count

    def fill(self, slot: int, first: int, jokers: int, left: int, fits: list[int]) -> int:
        """The answer for ``slots[slot:]``, ``fits`` the groups of each slot's masks that fit
        in the cards left, from group index ``first`` on where the slot is the same as the
        one before (the groups of alike slots are chosen in order)."""
        masks_index = self.slot_masks[slot]
        over = self.masks[masks_index].over
        fit = fits[masks_index] & ~over[jokers] if jokers >= 0 else 0
        fit >>= first
        if not fit:
            return NO
        groups = self.lists[slot]
        if slot == len(self.slots) - 1:
            return self._last(fit, first, groups, left)
        alike = self.slots[slot + 1] == self.slots[slot]
        best = NO
        index = first
        while fit:
            if fit & 1:
                group = groups[index]
                self.steps += 1
                if self.steps > SEARCH_BUDGET:
                    return UNDECIDED
                self.chosen.append(group)
                narrowed = self._narrowed(fits, group)
                answer = self.fill(
                    slot + 1,
                    index if alike else 0,
                    jokers - group.jokers,
                    left - group.size,
                    narrowed,
                )
                self._give_back(group)
                self.chosen.pop()
                if answer == YES:
                    return YES
                best = max(best, answer)
                if self.steps > SEARCH_BUDGET:
                    return UNDECIDED
            fit >>= 1
            index += 1
        return best

    def _last(self, fit: int, first: int, groups: list[Candidate], left: int) -> int:
        """:meth:`fill` of the last slot, ``fit`` its groups that fit (from ``first`` on)."""
        index = first
        while fit:
            if fit & 1:
                self.steps += 1
                group = groups[index]
                self.chosen.append(group)
                ends = self._ends_well(left - group.size)
                if ends:
                    self._keep_found()
                self.chosen.pop()
                if ends:
                    return YES
                if self.steps > SEARCH_BUDGET:
                    return UNDECIDED
            fit >>= 1
            index += 1
        return UNDECIDED

    def _keep_found(self) -> None:
        """Keep the groups chosen, a completion, to try first on the next groups taken and
        on later hands (see :data:`FOUND_LATELY`)."""
        chosen = list(self.chosen)
        witness = (
            chosen,
            sum(each.packed for each in chosen),
            sum(each.jokers for each in chosen),
            sum(each.size for each in chosen),
        )
        self.kept.append(witness)
        if len(self.found) < _MOST_KEPT:
            self.found.append(witness)
        lately = self.lately
        if lately is None:
            lately = self.lately = []
            self.hand.rules.memos.of(FOUND_LATELY)[self.slots, self.leaves] = lately
        lately.append(witness)
        if len(lately) > MOST_FOUND:
            del lately[0]

    def _ends_well(self, left: int) -> bool:
        """Whether the groups chosen keep the same-suit-runs rule with the runs placed and
        among themselves, and leave a number of cards the turn may end with."""
        if self.leaves is not None and not self.leaves(left):
            return False
        if self.apart:
            return True
        return not runs_clash_among(self.chosen, self.placed, self.rules.clash)


def hand_groups(
    tally: bytes,
    counts: list[int],
    jokers: int,
    rules: VariantRules,
    larger: bytes | None = None,
) -> HandGroups:
    """The :class:`HandGroups` of the hand of ``tally``, remembered; where the hand of tally
    ``larger`` (holding every card of this one) is remembered, its groups are read from that
    hand's (a going down laid group by group asks about the hand less each group)."""
    memo = rules.memos.of(HAND_GROUPS)
    known = memo.get(tally)
    if known is None:
        parent = memo.get(larger) if larger is not None else None
        if parent is not None:
            known = memo[tally] = parent.within(counts, jokers)
        else:
            known = memo[tally] = HandGroups(counts, jokers, rules)
    return known


def every_card_in_a_slot_group(
    counts: list[int], jokers: int, slots: Sequence[Slot], rules: VariantRules
) -> bool:
    """Whether every natural card counted in ``counts`` (with ``jokers``) lies in some group
    of those cards that fills one of ``slots``: what a way to fill the slots with every card
    needs (a group of one natural card and jokers counted for either kind, as it may read
    either way)."""
    wanted = {code for code, count in enumerate(counts) if count}
    sizes = {
        kind: min((size for each, size in slots if each is kind), default=64) for kind in MeldKind
    }
    keyed = groups_of_sizes(
        counts, jokers, rules, range(sizes[MeldKind.SET], 64), range(sizes[MeldKind.RUN], 64)
    )
    # whether a group fills one of the slots depends on its kind, length and jokers only
    fitting: dict[tuple[int, int, int], bool] = {}
    for key in keyed:
        codes = key[2:] if key[0] == 0 else key[3:]
        if wanted.isdisjoint(codes):
            continue  # it holds no card still wanted
        held = codes.count(JOKER_CODE)
        reading = (key[0], len(codes), held)
        fits = fitting.get(reading)
        if fits is None:
            fits = fitting[reading] = _fills_a_slot(reading, slots, rules)
        if fits:
            wanted.difference_update(codes)
            if not wanted:
                return True
    return not wanted


def _fills_a_slot(
    reading: tuple[int, int, int], slots: Sequence[Slot], rules: VariantRules
) -> bool:
    """Whether a group of ``reading`` (0 for a set or 1 for a run, its length, its jokers)
    fills one of ``slots`` (one natural card and jokers: either kind, as it may read so)."""
    group, length, held = reading
    if held > rules.per_group_limit:
        return False
    kind = MeldKind.SET if group == 0 else MeldKind.RUN
    either = length - held <= 1
    return any(
        (either or slot_kind is kind) and rules.slot_accepts(size, length, held)
        for slot_kind, size in slots
    )


def runs_clash_among(
    groups: Sequence[Candidate],
    placed: Sequence[Placed],
    clash: Callable[[int, int, int, int], bool],
) -> bool:
    """Whether a run of ``groups`` clashes (``clash`` of two starts and lengths in one suit)
    with one of the runs ``placed`` or with a run of ``groups`` before it."""
    runs = list(placed)
    for group in groups:
        if group.kind is not MeldKind.RUN:
            continue
        suit, start, length = group.suit, group.start, group.size
        for other, first, size in runs:
            if other == suit and clash(start, length, first, size):
                return True
        runs.append((suit, start, length))
    return False
