"""Every way to meet a contract whose slots of each kind are alike (the usual case: "2 sets
of 3 + 1 run of 5"), for :func:`~shanghai_rummy.solver.arrangements`, by parts instead of
one walk over every group the hand can form.

Where ``variant.going_down.exact_meld_count`` holds and the slots of each kind share one
size, a way is exactly ``k`` sets and ``m`` runs that fit the hand together, and any such
choice is accepted (every group listed fits every slot of its kind). Runs of different suits
only share the jokers, and so do sets of different ranks; so the ways are read from small
per-suit and per-rank tables, each the multisets of ``t`` groups that one suit's (or rank's)
cards allow with the jokers they spend, memoised by those cards (a hand changes a card at a
time). The runs are combined first, then, from the cards they leave, the sets. Every way comes
out in canonical order, as :func:`~shanghai_rummy._every.every_way` gives it.
Nothing here is public.
"""

from __future__ import annotations

from collections.abc import Callable

from ._every import _Candidate
from ._every import _runs_of_suit as runs_of_suit
from ._every import _sets_of_rank as sets_of_rank
from ._rules import (
    _ACE,
    _NO_LIMIT,
    _Entries,
    _Rules,
)
from .contracts import Contract
from .variants import SameSuitRuns

_Choice = tuple[int, tuple[_Candidate, ...]]  # jokers spent, the groups in canonical order
_NO_POINTS = [0] * 16  # a contract counts no points


class _Part:
    """The choices of one suit's runs (or one rank's sets): ``by_count[t]`` lists the
    multisets of ``t`` groups with the jokers they spend, ``cheapest[t]`` the fewest jokers
    among them; ``slots``, the card slots any of them takes. Every ``t`` up to ``most`` has a
    choice (fewer groups of a choice are one)."""

    __slots__ = ("by_count", "cheapest", "most", "slots")

    def __init__(self, by_count: list[list[_Choice]]) -> None:
        self.by_count = by_count
        self.most = len(by_count) - 1
        self.cheapest = [min(jokers for jokers, _ in choices) for choices in by_count]
        # the card slots its groups take
        self.slots = frozenset(index for _, (group,) in by_count[1] for index, _ in group.need)


class _Plan:
    """What the enumeration reads of one alike-slots contract under one variant: how many
    groups of each kind, their sizes, the jokers each may hold, and the fewest natural cards
    one may hold for each count of jokers in the hand (as in :mod:`._bounds`)."""

    __slots__ = (
        "run_cap",
        "run_least",
        "run_sizes",
        "runs",
        "set_cap",
        "set_least",
        "set_sizes",
        "sets",
    )

    def __init__(self, contract: Contract, rules: _Rules) -> None:
        variant = rules.variant
        exact = variant.going_down.exact_sizes

        def sizes(slots: tuple[int, ...]) -> range:
            low = min(slots, default=0)
            return range(low, (low if exact else 63) + 1)

        def cap(slots: tuple[int, ...]) -> int:
            limit = variant.jokers.going_down_limit(slots[0]) if slots else 0
            return _NO_LIMIT if limit is None else limit

        def least(size: int, cap: int) -> list[int]:
            # a longer group needs no fewer natural cards (see :mod:`._bounds`)
            return [max(1, size - min(jokers, cap, rules.jm[size])) for jokers in range(64)]

        self.sets, self.set_sizes, self.set_cap = (
            len(contract.sets),
            sizes(contract.sets),
            cap(contract.sets),
        )
        self.runs, self.run_sizes, self.run_cap = (
            len(contract.runs),
            sizes(contract.runs),
            cap(contract.runs),
        )
        self.set_least = least(self.set_sizes.start, self.set_cap)
        self.run_least = least(self.run_sizes.start, self.run_cap)


_PLANS: dict[tuple[int, int], tuple[Contract, _Rules, _Plan | None]] = {}


def plan_of(contract: Contract, rules: _Rules) -> _Plan | None:
    """The plan of ``contract``, or None when it is not an alike-slots contract."""
    key = (id(contract), id(rules))  # a bot judges hands under a variant of its own
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is contract and cached[1] is rules:
        return cached[2]
    alike = (
        rules.variant.going_down.exact_meld_count
        and len(set(contract.sets)) <= 1
        and len(set(contract.runs)) <= 1
    )
    plan = _Plan(contract, rules) if alike else None
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[key] = (contract, rules, plan)
    return plan


def contract_ways(
    counts: list[int], jokers: int, contract: Contract, rules: _Rules
) -> list[tuple[_Candidate, ...]] | None:
    """Every way to meet ``contract`` with the counted cards, each in canonical order (in no
    particular order overall); None when ``contract`` is not an alike-slots contract under
    ``rules`` (the caller then walks every way)."""
    plan = plan_of(contract, rules)
    if plan is None:
        return None
    set_choices: list[_Choice] = [(0, ())]
    shared: frozenset[int] = frozenset()  # the card slots some sets may take
    if plan.sets:
        set_parts = _set_parts(counts, jokers, plan, rules)
        set_choices = _combine(set_parts, plan.sets, jokers)
        if not set_choices:
            return []  # the runs could only take cards away from the sets
        shared = shared.union(*(part.slots for part in set_parts))
    if not plan.runs:
        return [sets for _, sets in set_choices]
    run_parts = [
        part
        for suit in range(4)
        if (part := _run_part(counts, suit, jokers, plan, rules)) is not None
    ]
    run_choices = _combine(run_parts, plan.runs, jokers)
    if not plan.sets:
        return [runs for _, runs in run_choices]
    both = shared.intersection(frozenset().union(*(part.slots for part in run_parts)))
    return _join(counts, jokers, set_choices, run_choices, both)


def _join(
    counts: list[int],
    jokers: int,
    set_choices: list[_Choice],
    run_choices: list[_Choice],
    shared: frozenset[int],
) -> list[tuple[_Candidate, ...]]:
    """Every pair of a choice of sets and one of runs that the hand holds together: each
    side fits the hand alone, so only the cards both may take (``shared``) and the jokers
    are checked."""
    set_takes: list[tuple[tuple[int, int], ...]] = []
    ways: list[tuple[_Candidate, ...]] = []
    # many runs take the same of those cards: their sets are found once
    known: dict[tuple[object, ...], list[tuple[_Candidate, ...]]] = {}
    for spent, runs in run_choices:
        taken = _takes(runs, shared)
        key = (taken, spent)
        fitting = known.get(key)
        if fitting is None:
            budget = jokers - spent
            if not taken:
                fitting = [sets for used, sets in set_choices if used <= budget]
            else:
                if not set_takes:
                    set_takes = [_takes(sets, shared) for _, sets in set_choices]
                fitting = _fitting(counts, budget, dict(taken), set_choices, set_takes)
            known[key] = fitting
        ways.extend(sets + runs for sets in fitting)
    return ways


def _fitting(
    counts: list[int],
    budget: int,
    taken: dict[int, int],
    set_choices: list[_Choice],
    set_takes: list[tuple[tuple[int, int], ...]],
) -> list[tuple[_Candidate, ...]]:
    """The choices of sets that fit beside runs taking ``taken`` and leaving ``budget``
    jokers (``set_takes[i]``: what choice ``i`` takes of some of the cards ``taken`` holds)."""
    return [
        sets
        for (used, sets), takes in zip(set_choices, set_takes, strict=True)
        if used <= budget
        and all(count + taken.get(index, 0) <= counts[index] for index, count in takes)
    ]


def _takes(groups: tuple[_Candidate, ...], only: frozenset[int]) -> tuple[tuple[int, int], ...]:
    """The natural cards ``groups`` take together of the card slots ``only``, by slot."""
    if len(groups) == 1:
        return tuple(pair for pair in groups[0].need if pair[0] in only)
    total: dict[int, int] = {}
    for group in groups:
        for index, need in group.need:
            if index in only:
                total[index] = total.get(index, 0) + need
    return tuple(sorted(total.items()))


# --- combining the parts ----------------------------------------------------------------------


def _combine(parts: list[_Part], wanted: int, budget: int) -> list[_Choice]:
    """Every choice of ``wanted`` groups in all, some from each of some parts, that spends
    at most ``budget`` jokers; a part's groups follow the earlier parts' groups."""
    supply = [0] * (len(parts) + 1)  # the most groups the parts from i on can give
    for i in range(len(parts) - 1, -1, -1):
        supply[i] = supply[i + 1] + parts[i].most
    found: list[_Choice] = []

    def pick(first: int, wanted: int, spent: int, chosen: tuple[_Candidate, ...]) -> None:
        for i in range(first, len(parts)):
            if supply[i] < wanted:
                return
            part = parts[i]
            for count in range(1, min(wanted, part.most) + 1):
                if spent + part.cheapest[count] > budget:
                    break  # more groups of a part spend no fewer jokers
                if count == wanted:
                    found.extend(
                        (spent + jokers, chosen + groups)
                        for jokers, groups in part.by_count[count]
                        if spent + jokers <= budget
                    )
                    continue
                for jokers, groups in part.by_count[count]:
                    if spent + jokers <= budget:
                        pick(i + 1, wanted - count, spent + jokers, chosen + groups)

    pick(0, wanted, 0, ())
    return found


# --- the parts: runs per suit, sets per rank --------------------------------------------------


def _run_part(
    counts: list[int], suit: int, jokers: int, plan: _Plan, rules: _Rules
) -> _Part | None:
    """The choices of up to ``plan.runs`` runs of ``suit``; None when it has none."""
    base = suit * 16
    held = tuple(counts[base + 2 : base + 15])
    naturals = sum(held)
    if naturals < plan.run_least[min(jokers, 63)]:
        return None
    room = _useful_jokers(jokers, naturals, rules)
    key = (1, suit, held, room, plan.runs, plan.run_sizes, plan.run_cap)
    memo = rules.way_memo
    if key not in memo:
        _make_room(memo)
        memo[key] = _suit_runs(suit, counts, room, plan, rules)
    return memo[key]


def _suit_runs(
    suit: int, counts: list[int], jokers: int, plan: _Plan, rules: _Rules
) -> _Part | None:
    avail = 0
    for rank in range(2, 15):
        if counts[suit * 16 + rank]:
            avail |= rules.position_bits[rank]
    one_ace = counts[suit * 16 + _ACE] == 1
    room = min(jokers, plan.run_cap)
    entries = runs_of_suit(suit, avail, one_ace, room, rules, plan.run_sizes)
    candidates = _candidates(entries, rules)
    if rules.variant.going_down.same_suit_runs is SameSuitRuns.ALLOWED:
        return _multisets(candidates, counts, jokers, plan.runs, None)
    clashes = rules.clash

    def clash(chosen: tuple[_Candidate, ...], run: _Candidate) -> bool:
        return any(clashes(other.start, other.size, run.start, run.size) for other in chosen)

    return _multisets(candidates, counts, jokers, plan.runs, clash)


def _set_parts(counts: list[int], jokers: int, plan: _Plan, rules: _Rules) -> list[_Part]:
    """The choices of up to ``plan.sets`` sets of each rank that has some, by rank."""
    least = plan.set_least[min(jokers, 63)]
    memo = rules.way_memo
    parts = []
    for rank in range(2, 15):
        held = (counts[rank], counts[16 + rank], counts[32 + rank], counts[48 + rank])
        naturals = 4 - held.count(0) if rules.distinct else sum(held)
        if naturals < least:
            continue
        room = _useful_jokers(jokers, sum(held), rules)
        key = (0, rank, held, room, plan.sets, plan.set_sizes, plan.set_cap)
        if key not in memo:
            _make_room(memo)
            kinds = [1 if count else 0 for count in held] if rules.distinct else list(held)
            entries = sets_of_rank(rank, kinds, min(room, plan.set_cap), rules, plan.set_sizes)
            candidates = _candidates(entries, rules)
            memo[key] = _multisets(candidates, counts, room, plan.sets, None)
        part = memo[key]
        if part is not None:
            parts.append(part)
    return parts


def _useful_jokers(jokers: int, naturals: int, rules: _Rules) -> int:
    """The jokers that groups of ``naturals`` natural cards may spend in all: no more than
    those cards where ``variant.jokers.at_most_naturals`` holds (a smaller memo key)."""
    return min(jokers, naturals) if rules.amn else jokers


def _candidates(entries: _Entries, rules: _Rules) -> list[_Candidate]:
    """The candidates of ``entries`` in key order, each made once per variant (a contract
    counts no points, so a candidate depends on its key alone)."""
    made = rules.candidate_memo
    if len(made) > 1 << 16:
        made.clear()
    found = []
    for key, cards in sorted(entries):
        candidate = made.get(key)
        if candidate is None:
            candidate = made[key] = _Candidate(key, cards, _NO_POINTS, {})
        found.append(candidate)
    return found


def _multisets(
    candidates: list[_Candidate],
    counts: list[int],
    jokers: int,
    most: int,
    clash: Callable[[tuple[_Candidate, ...], _Candidate], bool] | None,
) -> _Part | None:
    """The multisets of up to ``most`` of ``candidates`` (in their order) that the counted
    cards and ``jokers`` allow together, and where ``clash`` says no pair clashes; None when
    there is none."""
    nothing: tuple[_Candidate, ...] = ()
    by_count: list[list[_Choice]] = [[(0, nothing)]] + [[] for _ in range(most)]

    def grow(first: int, spent: int, chosen: tuple[_Candidate, ...]) -> None:
        for number in range(first, len(candidates)):
            candidate = candidates[number]
            if spent + candidate.jokers > jokers or any(
                counts[index] < need for index, need in candidate.need
            ):
                continue
            if clash is not None and clash(chosen, candidate):
                continue
            grown = (*chosen, candidate)
            by_count[len(grown)].append((spent + candidate.jokers, grown))
            if len(grown) < most:
                for index, need in candidate.need:
                    counts[index] -= need
                grow(number, spent + candidate.jokers, grown)
                for index, need in candidate.need:
                    counts[index] += need

    grow(0, 0, ())
    while not by_count[-1]:  # a subset of a choice is a choice: only the top can be empty
        by_count.pop()
    return _Part(by_count) if len(by_count) > 1 else None


def _make_room(memo: dict[tuple[object, ...], _Part | None]) -> None:
    if len(memo) > 1 << 14:
        memo.clear()
