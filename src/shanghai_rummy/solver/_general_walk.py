"""The general walk (:class:`GeneralWalk`): every way to meet a requirement
(:func:`~shanghai_rummy.solver.arrangements` where the alike-slots tables do not apply), or
the first way that leaves a number of cards a rule accepts, over the candidate groups of
:mod:`._candidate_groups`. Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from ..cards import Rank
from ..contracts import Contract, Opening, Requirement
from ..melds import MeldKind
from ..variants import SameSuitRuns
from ._candidate_groups import Candidate, requirement_candidates
from ._card_counts import count_cards, packed_counts
from ._contract_search import solve_contract
from ._run_rules import natural_stretch_of
from ._variant_rules import VariantRules, match_slots, runs_clash


def _accepts(
    chosen: list[Candidate], requirement: Requirement, rules: VariantRules, points: int
) -> bool:
    """Whether ``chosen`` (whose runs never clash: :func:`every_way` keeps them apart) meets
    ``requirement``."""
    if isinstance(requirement, Opening):
        return points >= requirement.min_points and (
            not requirement.natural_run or _holds_natural_run(chosen, requirement.natural_run)
        )
    for kind, sizes in ((MeldKind.SET, requirement.sets), (MeldKind.RUN, requirement.runs)):
        laid = [i for i, c in enumerate(chosen) if c.kind is kind]
        fits = [[i for i in laid if _slot_takes(size, chosen[i], rules)] for size in sizes]
        if not match_slots(fits, len(chosen)):
            return False
    return True


def _holds_natural_run(chosen: list[Candidate], length: int) -> bool:
    """Whether a run of ``chosen`` holds ``length`` natural cards in a row (an opening's
    ``natural_run``)."""
    return any(
        candidate.kind is MeldKind.RUN and natural_stretch_of(candidate.codes) >= length
        for candidate in chosen
    )


_KEY = attrgetter("key")


def _most_jokers_first(candidate: Candidate) -> tuple[int, int]:
    """The order candidates are tried in where jokers are wanted: sets before runs (as in
    canonical order), each kind most jokers first."""
    return candidate.group, -candidate.jokers


_MOST_JOKERS_FIRST = _most_jokers_first

# A contract's walk asks whether the cards its sets leave can still make the contract's
# runs (see ``every_way``) only after this many choices of sets: most walks are over sooner
# than the questions would pay for, and a walk over many sets (dozens to choose from in a
# long hand) is pruned to those that leave the runs possible. A count, not a clock, so that
# every walk is the same from run to run. Measured on random house contracts, 500 to 2,000
# serve alike.
_SETS_BEFORE_RUNS_CHECK = 2000


def _slot_takes(size: int, candidate: Candidate, rules: VariantRules) -> bool:
    """Whether a contract slot of ``size`` may hold ``candidate`` (of the slot's kind): its
    size (``exact_sizes``) and the going-down joker limit."""
    return rules.slot_accepts(size, candidate.size, candidate.jokers)


def _fits_a_slot(candidate: Candidate, contract: Contract, rules: VariantRules) -> bool:
    """Whether ``candidate`` may be the group of some slot of ``contract``."""
    sizes = contract.sets if candidate.kind is MeldKind.SET else contract.runs
    return any(_slot_takes(size, candidate, rules) for size in sizes)


def every_way(
    counts: list[int],
    jokers: int,
    requirement: Requirement,
    rules: VariantRules,
    *,
    first_only: bool = False,
    leaves: Callable[[int], bool] | None = None,
    most_left: int | None = None,
    laid_runs: Sequence[tuple[int, int, int]] = (),
    least_left: int = 0,
    jokers_at_least: int = 0,
) -> list[list[Candidate]]:
    """Every accepted multiset of candidate groups, each in canonical order (or the first);
    with ``leaves``, only those leaving a number of cards (jokers too) it accepts, and with
    ``most_left`` (which ``leaves`` must imply), the walk gives up on a choice as soon as
    more cards than that are held that no candidate still to be tried takes; with
    ``least_left`` (which ``leaves`` must imply too), as soon as the groups chosen, and the
    fewest cards the groups still needed take, leave fewer. ``laid_runs`` (suit index,
    start, length): runs laid already this turn, that no run of a way may clash with (a
    going down completed around the groups laid so far). With ``jokers_at_least``, only the
    ways whose groups hold that many jokers: the groups with more jokers are tried first,
    and a choice is given up as soon as the groups still to choose cannot hold the jokers
    missing (:meth:`GeneralWalk.joker_room`). See :class:`GeneralWalk`."""
    walk = GeneralWalk(counts, jokers, requirement, rules, first_only, leaves, most_left, laid_runs)
    if least_left or jokers_at_least:
        walk.bound(least_left, jokers_at_least)
    return walk.ways()


class GeneralWalk:
    """One walk over the groups a hand can form, for every way to meet a requirement.

    Pruning rules keep the walk to choices that can still be accepted: a run that clashes
    with a run already chosen (``variant.going_down.same_suit_runs``) is never added, as no
    larger choice would be accepted; a contract's walk chooses no more groups of a kind than
    the contract asks for of it (each needs its own), and no run before every set it asks
    for (the candidates hold the sets first, so no set could follow); and a long walk over a
    contract's sets stops at sets whose cards left cannot make its runs
    (``_SETS_BEFORE_RUNS_CHECK``). Where ``exact_meld_count`` does not hold, every way is a
    way of exactly the contract's groups (its core) and extra groups from the cards it
    leaves: the walk finds the cores, and each core grows by every multiset of extra groups
    (:meth:`grow`). Walking every multiset of groups instead would try, for a hand of twenty
    cards, millions that hold no core. Where the first way is enough and ``most_left``
    bounds the cards left (going out by hand), the cards a core leaves are covered lowest
    card first instead (:meth:`cover`), which remembers what it could not cover, and the
    whole hand is asked so first.

    The walk's state: the cards still held (``counts``, and packed into one integer,
    ``free``, so that whether a candidate's cards are held is one subtraction, the walk's
    hottest test), the jokers and points left, the groups chosen and how many of each kind."""

    __slots__ = (
        "best",
        "candidates",
        "chosen",
        "clashes",
        "core",
        "counts",
        "covering",
        "extras",
        "first_only",
        "free",
        "grown",
        "guard",
        "held",
        "high",
        "joker_bounds",
        "jokers_held",
        "jokers_left",
        "jokers_wanted",
        "kind_jokers",
        "laid",
        "laid_runs",
        "last_any",
        "last_core",
        "last_natural_run",
        "least_left",
        "leaves",
        "low",
        "most",
        "most_left",
        "natural_run",
        "out",
        "points_left",
        "requirement",
        "rules",
        "runs_alone",
        "runs_found",
        "runs_from",
        "runs_possible",
        "sets_needed",
        "smallest_from",
        "steps",
        "takers",
        "target",
        "total",
        "uncovered",
    )

    def __init__(
        self,
        counts: list[int],
        jokers: int,
        requirement: Requirement,
        rules: VariantRules,
        first_only: bool,
        leaves: Callable[[int], bool] | None,
        most_left: int | None,
        laid_runs: Sequence[tuple[int, int, int]],
    ) -> None:
        self.rules = rules
        self.requirement = requirement
        self.counts = counts
        self.first_only = first_only
        self.leaves = leaves
        self.most_left = most_left
        self.laid_runs = laid_runs
        self.candidates = requirement_candidates(counts, jokers, requirement, rules)
        self._read_requirement(requirement)
        self.clashes = rules.variant.going_down.same_suit_runs is not SameSuitRuns.ALLOWED
        self.out: list[list[Candidate]] = []
        self.grown: dict[tuple[tuple[int, ...], ...], list[Candidate]] = {}  # by the keys
        self.chosen: list[Candidate] = []
        self.jokers_left = jokers
        value = [0] * 16  # by rank, the index of a card's slot & 15
        if self.target:
            assert isinstance(requirement, Opening)
            value[2:15] = [requirement.values.of_rank(rank) for rank in Rank]
        self.points_left = sum(value[index & 15] * count for index, count in enumerate(counts))
        self.laid = [0, 0]  # groups chosen of each kind (set, run)
        self.guard, self.free = packed_counts(counts)
        self.held = [index for index, count in enumerate(counts) if count]
        self._find_last_takers()
        self.covering = self.extras and first_only and most_left is not None
        self.takers: dict[int, dict[int, list[Candidate]]] = {}
        if self.covering:
            for candidate in self.candidates:
                lowest = min(index for index, _ in candidate.need)
                self.takers.setdefault(lowest, {}).setdefault(candidate.packed, []).append(
                    candidate
                )
        self.uncovered: set[tuple[object, ...]] = set()
        self.runs_possible: dict[tuple[int, int], bool] = {}
        self.runs_found: list[tuple[int, int]] = []  # some runs' cards and jokers
        self.steps = 0  # choices of sets walked
        self.total = sum(counts) + jokers  # the cards of the hand
        self.least_left = self.jokers_wanted = 0  # off (see :meth:`bound`)
        self.jokers_held = jokers
        self.joker_bounds: dict[int, list[tuple[int, int, float]]] = {}
        self.smallest_from: list[int] = []
        self.kind_jokers: list[tuple[int, int]] = []

    def bound(self, least_left: int, jokers_wanted: int) -> None:
        """Walk only to ways that leave at least ``least_left`` cards and whose groups hold
        at least ``jokers_wanted`` jokers (see :func:`every_way`). Where jokers are wanted,
        the candidates are tried most jokers first (sets still before runs), and, from each
        place on, the most jokers a candidate holds, the fewest natural cards and the most
        jokers per natural card are kept for :meth:`joker_room`."""
        self.least_left = least_left
        self.jokers_wanted = jokers_wanted
        if jokers_wanted:
            self.candidates.sort(key=_MOST_JOKERS_FIRST)
            if self.core is not self.candidates:
                self.core.sort(key=_MOST_JOKERS_FIRST)
            self._find_places(self.requirement)
            self._find_last_takers()
        smallest = [64] * (len(self.core) + 1)  # the fewest cards of a core group from a place
        for place in range(len(self.core) - 1, -1, -1):
            smallest[place] = min(smallest[place + 1], self.core[place].size)
        self.smallest_from = smallest
        kinds = [(0, 0)] * (len(self.core) + 1)  # the most jokers of a core set, run from a place
        for place in range(len(self.core) - 1, -1, -1):
            candidate = self.core[place]
            most_set, most_run = kinds[place + 1]
            if candidate.group:
                most_run = max(most_run, candidate.jokers)
            else:
                most_set = max(most_set, candidate.jokers)
            kinds[place] = (most_set, most_run)
        self.kind_jokers = kinds
        for placed in (self.candidates, self.core):
            bounds: list[tuple[int, int, float]] = [(0, 64, 0.0)] * (len(placed) + 1)
            for place in range(len(placed) - 1, -1, -1):
                candidate = placed[place]
                naturals = candidate.size - candidate.jokers
                most, fewest, ratio = bounds[place + 1]
                bounds[place] = (
                    max(most, candidate.jokers),
                    min(fewest, naturals),
                    max(ratio, candidate.jokers / naturals if naturals else 64.0),
                )
            self.joker_bounds[id(placed)] = bounds

    def joker_room(self, first: int, placed: list[Candidate], groups: int) -> int:
        """An upper bound of the jokers that at most ``groups`` more candidates of ``placed``
        from place ``first`` on can hold: no more than the jokers held, than ``groups`` times
        the most a candidate holds, than the natural cards held allow at the most jokers per
        natural card, and than the groups those natural cards can make hold."""
        most, fewest, ratio = self.joker_bounds[id(placed)][first]
        counts = self.counts
        naturals = sum(counts[index] for index in self.held)
        if fewest:
            groups = min(groups, naturals // fewest)
        room = min(self.jokers_left, groups * most)
        if ratio < 64.0:
            room = min(room, int(naturals * ratio + 1e-9))
        return room

    def jokers_missing(self) -> int:
        """The jokers the groups chosen still lack of those wanted (0: none, or enough)."""
        return max(0, self.jokers_wanted - (self.jokers_held - self.jokers_left))

    def used(self) -> int:
        """The cards the groups chosen take."""
        counts = self.counts
        return self.total - self.jokers_left - sum(counts[index] for index in self.held)

    def _read_requirement(self, requirement: Requirement) -> None:
        """What the walk reads of ``requirement``: how many groups of each kind and in all,
        the sets chosen before any run, an opening's points, whether cores grow by extra
        groups; the candidates a core may hold (``core``, sets first) and, for a contract of
        sets and runs, its runs alone (see :meth:`runs_left_possible`)."""
        self.most = [64, 64]  # groups of each kind (set, run)
        self.sets_needed = 0  # the sets a contract's groups hold, chosen before any run
        self.target = self.best = 0  # an opening with values >= 0: the points within reach
        self.extras = False  # whether each core grows by extra groups
        self.runs_alone: Contract | None = None
        if isinstance(requirement, Opening):
            self.low, self.high = 1, 64
            if min(requirement.values.by_rank) >= 0:
                self.target = requirement.min_points
                self.best = max(requirement.values.by_rank)
            self.core = self.candidates
        else:
            self.low = self.high = requirement.group_count
            self.most = [len(requirement.sets), len(requirement.runs)]
            self.sets_needed = self.most[0]
            self.extras = not self.rules.variant.going_down.exact_meld_count
            # with extra groups the candidates hold groups of any size; a core only those
            # some slot can take
            self.core = [c for c in self.candidates if _fits_a_slot(c, requirement, self.rules)]
            if requirement.sets and requirement.runs:
                self.runs_alone = Contract(runs=requirement.runs)
        self._find_places(requirement)

    def _find_places(self, requirement: Requirement) -> None:
        """The places in ``core`` the walk reads: of the last candidate that holds an
        opening's natural run, and of the first run."""
        # an opening's natural run: the last candidate of the core that holds it (-1: none)
        self.natural_run = 0
        self.last_natural_run = len(self.core)
        if isinstance(requirement, Opening) and requirement.natural_run:
            self.natural_run = requirement.natural_run
            self.last_natural_run = max(
                (
                    place
                    for place, candidate in enumerate(self.core)
                    if _holds_natural_run([candidate], self.natural_run)
                ),
                default=-1,
            )
        self.runs_from = len(self.core)  # where the core's runs start (canonical order)
        if self.sets_needed:
            self.runs_from = next(
                (place for place, group in enumerate(self.core) if group.group), self.runs_from
            )

    def _find_last_takers(self) -> None:
        """The last candidate that takes each card (a joker: -1): of all, by its place in
        ``candidates``, and of those a core may hold, by its place in ``core``."""
        self.last_any: dict[int, int] = {}
        self.last_core: dict[int, int] = {}
        if self.most_left is None:
            return
        for last, placed in ((self.last_any, self.candidates), (self.last_core, self.core)):
            for place, candidate in enumerate(placed):
                for index, _ in candidate.need:
                    last[index] = place
                if candidate.jokers:
                    last[-1] = place

    def ways(self) -> list[list[Candidate]]:
        """Walk: every way (or the first), each in canonical order."""
        if self.covering:
            # every way's groups, the contract's and the extra, cover the hand: where no
            # groups can, no choice of the contract's groups need be tried
            if not self.cover(0):
                return []
            self.grown.clear()  # the groups that covered it need not hold the contract's
        self.walk(0, 0)
        return list(self.grown.values()) if self.extras else self.out

    def clash(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` is a run that may not go down with a run chosen or laid."""
        if candidate.kind is not MeldKind.RUN:
            return False
        variant = self.rules.variant
        suit, start, size = candidate.suit, candidate.start, candidate.size
        return any(
            other.kind is MeldKind.RUN
            and other.suit == suit
            and runs_clash(other.start, other.size, start, size, variant)
            for other in self.chosen
        ) or any(
            laid_suit == suit and runs_clash(laid_start, laid_size, start, size, variant)
            for laid_suit, laid_start, laid_size in self.laid_runs
        )

    def fits(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` can join the groups chosen (its cards and jokers held, and
        no clash)."""
        return not (
            candidate.jokers > self.jokers_left
            or (self.free - candidate.packed) & self.guard != self.guard
            or (self.clashes and self.clash(candidate))
        )

    def take(self, candidate: Candidate) -> None:
        """Choose ``candidate``."""
        counts = self.counts
        for index, need in candidate.need:
            counts[index] -= need
        self.free -= candidate.packed
        self.jokers_left -= candidate.jokers
        self.points_left -= candidate.value
        self.laid[candidate.group] += 1
        self.chosen.append(candidate)

    def give(self, candidate: Candidate) -> None:
        """Undo :meth:`take` of ``candidate``, the last chosen."""
        self.chosen.pop()
        self.laid[candidate.group] -= 1
        self.points_left += candidate.value
        self.jokers_left += candidate.jokers
        self.free += candidate.packed
        counts = self.counts
        for index, need in candidate.need:
            counts[index] += need

    def kept(self) -> bool:
        """Whether the groups chosen leave a number of cards ``leaves`` accepts."""
        if self.leaves is None:
            return True
        counts = self.counts
        return self.leaves(self.jokers_left + sum(counts[index] for index in self.held))

    def stranded(self, first: int, last: dict[int, int]) -> bool:
        """Whether more than ``most_left`` cards are held that no candidate from ``first``
        on takes (the walk only goes forward), so every way from here leaves them."""
        assert self.most_left is not None
        cards = self.jokers_left if last.get(-1, -1) < first else 0
        counts = self.counts
        for index in self.held:
            if counts[index] and last.get(index, -1) < first:
                cards += counts[index]
        return cards > self.most_left

    def record(self) -> bool:
        """Record the groups chosen as a way, once; True where it is new."""
        way = sorted(self.chosen, key=_KEY)  # the order of ``candidates``
        key = tuple(candidate.key for candidate in way)
        if key in self.grown:
            return False
        self.grown[key] = way
        return True

    def grow(self, first: int) -> bool:
        """Record the core chosen with every multiset of extra groups from ``first`` on;
        True once one is recorded, where the first is enough."""
        if self.most_left is not None and self.stranded(first, self.last_any):
            return False
        if self.least_left and self.used() > self.total - self.least_left:
            return False
        missing = self.jokers_missing()
        if not missing and self.kept() and self.record() and self.first_only:
            return True
        candidates = self.candidates
        if missing and self.joker_room(first, candidates, 64) < missing:
            return False
        for number in range(first, len(candidates)):
            candidate = candidates[number]
            if self.fits(candidate):
                self.take(candidate)
                stop = self.grow(number)
                self.give(candidate)
                if stop:
                    return True
        return False

    def cover(self, aside: int) -> bool:
        """Whether extra groups can take the cards left but for some (``aside`` of them set
        aside so far) that the way may leave; records the first such way.

        For going out by hand, where one way is enough and at most ``most_left`` cards may
        be left. Growing each choice of the contract's groups by every multiset of extra
        groups tries, where no way exists, multiset after multiset that leaves the same card
        unplaced. This places the lowest card left first (set aside, or in a group whose
        lowest card it is), so each choice differs in what it covers, and remembers the
        cards left that could not be covered (with, where runs of a suit may clash, the runs
        chosen): many choices of the contract's groups leave the same cards. It is first
        asked of the whole hand: where no groups can cover it, no choice is tried."""
        assert self.most_left is not None
        situation: tuple[object, ...] = (self.free, self.jokers_left, aside)
        if self.clashes:  # the runs chosen decide which runs may still be added
            runs = frozenset(candidate.key for candidate in self.chosen if candidate.group)
            situation = (*situation, runs)
        if situation in self.uncovered:
            return False
        counts = self.counts
        lowest = next((index for index in self.held if counts[index]), None)
        if lowest is None:
            if self.leaves is None or self.leaves(aside + self.jokers_left):
                self.record()
                return True
        elif (aside < self.most_left and self._cover_setting_aside(lowest, aside)) or (
            self._cover_taking(lowest, aside)
        ):
            return True
        self.uncovered.add(situation)
        return False

    def _cover_setting_aside(self, lowest: int, aside: int) -> bool:
        """:meth:`cover` with the lowest card left set aside (left in the hand)."""
        self.counts[lowest] -= 1
        self.free -= 1 << (lowest << 3)
        found = self.cover(aside + 1)
        self.free += 1 << (lowest << 3)
        self.counts[lowest] += 1
        return found

    def _cover_taking(self, lowest: int, aside: int) -> bool:
        """:meth:`cover` with the lowest card left in a group whose lowest card it is."""
        for packed, alike in self.takers.get(lowest, {}).items():
            if (self.free - packed) & self.guard != self.guard:
                continue  # the cards these groups take are not all held
            for candidate in alike:
                if candidate.jokers > self.jokers_left or (self.clashes and self.clash(candidate)):
                    continue
                self.take(candidate)
                found = self.cover(aside)
                self.give(candidate)
                if found:
                    return True
        return False

    def runs_left_possible(self, runs: Contract) -> bool:
        """Whether the cards left (natural and jokers) can make ``runs``: by the runs found
        before where they still fit, else by the suit-by-suit search
        (:mod:`._contract_search`)."""
        for need, jokers_used in self.runs_found:
            if jokers_used <= self.jokers_left and (self.free - need) & self.guard == self.guard:
                return True
        situation = (self.free, self.jokers_left)
        known = self.runs_possible.get(situation)
        if known is None:
            shapes = solve_contract(list(self.counts), self.jokers_left, runs, self.rules)
            known = self.runs_possible[situation] = shapes is not None
            if shapes is not None and len(self.runs_found) < 8:
                used, jokers_used = count_cards(card for shape in shapes for card in shape.cards)
                self.runs_found.append((int.from_bytes(bytes(used), "little"), jokers_used))
        return known

    def accepted(self, points: int) -> bool:
        """Whether the groups chosen (worth ``points``) are a way, recorded; True where the
        first is enough and it is found."""
        if self.covering:
            return self.cover(0)
        if self.extras:
            return self.grow(0)
        if self.kept() and not self.jokers_missing():
            self.out.append(list(self.chosen))
            return self.first_only
        return False

    def out_of_bounds(self, first: int) -> bool:
        """Whether every way from the groups chosen, the core's next from place ``first``
        on, leaves fewer cards than ``least_left`` or holds fewer jokers than wanted (extra
        groups, where a core grows by them, may hold jokers too)."""
        chosen = len(self.chosen)
        if self.least_left:
            needed = max(0, self.low - chosen)
            fewest = self.smallest_from[first] if needed else 0
            if self.used() + needed * fewest > self.total - self.least_left:
                return True
        missing = self.jokers_missing()
        if not missing:
            return False
        if self.extras:
            return self.joker_room(0, self.candidates, 64) < missing
        room = self.joker_room(first, self.core, self.high - chosen)
        if self.high < 64:  # a contract: so many more groups of each kind, each its most
            most_set, most_run = self.kind_jokers[first]
            laid, most = self.laid, self.most
            room = min(room, (most[0] - laid[0]) * most_set + (most[1] - laid[1]) * most_run)
        return room < missing

    def walk(self, first: int, points: int) -> bool:
        """Choose the groups of ``core`` from place ``first`` on, worth ``points`` so far;
        True once a way is found where the first is enough."""
        runs_alone = self.runs_alone
        laid = self.laid
        if runs_alone is not None and laid[0] and not laid[1]:
            self.steps += 1
            if self.steps > _SETS_BEFORE_RUNS_CHECK and not self.runs_left_possible(runs_alone):
                return False  # sets chosen, and the cards they leave make no runs
        chosen = self.chosen
        if (
            len(chosen) >= self.low
            and _accepts(chosen, self.requirement, self.rules, points)
            and self.accepted(points)
        ):
            return True
        if len(chosen) == self.high:
            return False
        if self.most_left is not None and not self.extras and self.stranded(first, self.last_core):
            return False  # with extra groups, those may take what no core takes
        if self.target and points + self.points_left + self.jokers_left * self.best < self.target:
            return False  # more groups add at most the cards left (a joker: the best card)
        if (self.least_left or self.jokers_wanted) and self.out_of_bounds(first):
            return False
        if first > self.last_natural_run and not _holds_natural_run(chosen, self.natural_run):
            return False  # an opening's natural run: no group left to try holds it
        core, most = self.core, self.most
        # no run before every set the contract asks for: no set could follow it
        for place in range(first, len(core) if laid[0] >= self.sets_needed else self.runs_from):
            candidate = core[place]
            group = candidate.group
            if (
                candidate.jokers > self.jokers_left
                or laid[group] == most[group]
                or (self.free - candidate.packed) & self.guard != self.guard
                or (self.clashes and self.clash(candidate))
            ):
                continue
            self.take(candidate)
            stop = self.walk(place, points + candidate.points)
            self.give(candidate)
            if stop:
                return True
        return False
