"""Quick refusals for :mod:`shanghai_rummy.solver`: necessary conditions, read from a few
card counts, that most hands unable to meet a contract (or an opening) already fail, so that
the common "no" costs a few microseconds instead of a search. Nothing here is public.

**Soundness.** A hand refused here truly has no way to meet the contract: every bound below
is a lower bound on the jokers that any way to meet it must spend, and the hand is refused
only when that exceeds its jokers (or when some contract slot has no group at all). A hand
let through is searched as before, so the answers of :func:`~shanghai_rummy.solve` do not
change.

Let a way to meet the contract give each of its ``k`` set slots (sizes ``s_i``) and run slots
their own group, group ``i`` holding ``n_i`` natural cards and ``j_i`` jokers, with
``sum(j_i) <= J`` (the hand's jokers). Let ``S`` be the smallest slot size of the kind.

* A group filling slot ``s`` has ``j <= min(J, cap(s), most(len))`` (``cap``: the going-down
  limit, ``most(n)``: the jokers a group of ``n`` cards may hold), and ``len - most(len)`` only
  grows with ``len``, so ``n >= least(s) = max(1, s - min(J, cap(s), most(s)))``; ``L`` is the
  smallest ``least(s)`` of the kind.
* Sets: the ``k_r`` sets of rank ``r`` share its ``c_r`` natural cards, so ``k_r * L <= c_r``
  and their jokers are at least ``f_r(k_r) = max(0, k_r * S - c_r)``. Each ``f_r`` is convex,
  so the sum of the ``k`` smallest increments ``f_r(k) - f_r(k - 1)`` over all ranks is the
  least ``sum(f_r(k_r))`` can be over every split of ``k`` (and too few increments: no way).
* Runs: a run of length ``n >= S`` misses at least as many cards of its suit as its best
  window of ``S`` positions does (a window inside it misses no more), so it holds at least
  ``m_u = S - b_u`` jokers, ``b_u`` the most positions of suit ``u`` held in ``S`` consecutive
  positions; and it needs ``m_u <= min(J, cap)``. The ``k_u`` runs of suit ``u`` share its
  ``c_u`` natural cards, so ``k_u * L <= c_u`` and their jokers are at least
  ``g_u(k_u) = max(k_u * m_u, k_u * S - c_u)``, convex again: the ``k`` smallest increments
  bound the runs' jokers.
* Sets and runs spend jokers from one supply, and each bound above holds with every natural
  card available, so the hand is refused when the two bounds together exceed ``J``.

**Openings** (card values >= 0). A natural card in a set of its rank needs that rank to hold
``least = max(1, set_min - min(J, limit, most(set_min)))`` natural cards a set may take
together (one per suit where ``set_distinct_suits``); a natural card in a run lies in a span
(of a length and place the ace rule allows) that misses at most ``min(J, limit,
most(length))`` cards of its suit, ``limit`` the per-group limit. A way to open is worth at
most the value of the natural cards that pass one of these tests, plus ``J`` times the
highest value (each joker counts as one card); the hand is refused when that is short of
``min_points``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card, Rank
from ..contracts import Contract, Opening
from ._card_counts import JOKER_BYTE, NO_LIMIT, RANK_BYTE, SUIT_BITS, SUIT_BYTE, held_bits, tally_of
from ._memo import Memo, MemoKind
from ._variant_rules import VariantRules


def _ranks_held(held: int, suit: int, memo: Memo[int, int]) -> int:
    """The ranks (bits) of ``suit`` held, from :func:`held_bits` (``memo``: of
    :data:`RANKS_HELD`)."""
    spread = held >> (128 * suit) & SUIT_BITS
    known = memo.get(spread)
    if known is None:
        known = sum(1 << rank for rank in range(2, 15) if spread >> (8 * rank + 7) & 1)
        memo[spread] = known
    return known


RANKS_HELD: MemoKind[int, int] = MemoKind("ranks held in a suit", 1 << 13)
"""The ranks a suit holds, by that suit's bytes of :func:`held_bits` (at most 2 ** 13 of them)."""


class _ContractBounds:
    """What the bounds read of one contract under one variant's rules, precomputed:
    ``set_least[j]``/``run_least[j]`` is ``L`` of the kind for a hand of ``j`` jokers (up to
    63: no group takes more), ``missing`` memoises :meth:`missing_in`."""

    __slots__ = (
        "min_cards",
        "missing",
        "rank_positions",
        "run_cap",
        "run_least",
        "run_size",
        "runs",
        "set_costs",
        "set_least",
        "set_size",
        "sets",
    )

    def __init__(self, rules: VariantRules, contract: Contract) -> None:
        cap = rules.slot_joker_cap

        def least(sizes: tuple[int, ...], jokers: int) -> int:
            return min(
                (rules.fewest_naturals(size, jokers, cap(size)) for size in sizes),
                default=0,
            )

        self.min_cards = contract.min_cards
        self.sets = len(contract.sets)
        self.runs = len(contract.runs)
        self.set_size = min(contract.sets, default=0)
        self.run_size = min(contract.runs, default=0)
        self.set_least = [least(contract.sets, jokers) for jokers in range(64)]
        # by jokers, as set_least (none without sets)
        self.set_costs: list[SetCosts] = []
        if self.sets:
            size, wanted = self.set_size, self.sets
            costs = {fewest: SetCosts(size, fewest, wanted) for fewest in set(self.set_least)}
            self.set_costs = [costs[fewest] for fewest in self.set_least]
        self.run_least = [least(contract.runs, jokers) for jokers in range(64)]
        self.run_cap = max((cap(size) for size in contract.runs), default=0)
        self.rank_positions = rules.rank_positions
        # by a suit's 16 card slots as held flags (a byte each, 1: held), at most 2 ** 13
        self.missing: Memo[bytes, int] = Memo(1 << 13)

    def missing_in(self, held: bytes) -> int:
        """The fewest positions a run of ``run_size`` misses of a suit whose card slots
        ``held`` flags (a byte a rank, 1 where held): ``run_size`` less the most positions
        held in ``run_size`` consecutive run positions (every window, whatever the ace
        rule: a bound), remembered in :attr:`missing`. A best window may start at a held
        position: moving a window's start up to its first held position keeps every
        position it held."""
        known = self.missing.get(held)
        if known is None:
            rank_positions = self.rank_positions
            positions = 0
            for rank in range(2, 15):
                if held[rank]:
                    positions |= rank_positions[rank]
            window = (1 << self.run_size) - 1
            best = 0
            rest = positions
            while rest:
                low = rest & -rest
                best = max(best, (positions & window * low).bit_count())
                rest ^= low
            known = self.missing[held] = self.run_size - best
        return known


CONTRACT_BOUNDS: MemoKind[int, tuple[Contract, _ContractBounds]] = MemoKind("contract bounds", 256)
"""What the bounds read of each contract, by the contract's identity."""


def _bounds_of(contract: Contract, rules: VariantRules) -> _ContractBounds:
    return rules.memos.built_for(CONTRACT_BOUNDS, contract, _ContractBounds, rules)


def _cheapest(increments: list[int], wanted: int) -> int:
    """The sum of the ``wanted`` smallest increments, or no limit when there are fewer."""
    if len(increments) < wanted:
        return NO_LIMIT
    increments.sort()
    return sum(increments[:wanted])


class SetCosts:
    """The least jokers ``wanted`` sets of ``size`` take (see the module notes), each holding
    at least ``least`` natural cards, read from the natural cards of each rank
    (:meth:`jokers`). A rank's increments ``f_r(k) - f_r(k - 1)`` are 0 for each set its
    cards fill, then ``size - c_r % size`` for a set they partly fill, then ``size``, for the
    ``k`` with ``k * least <= c_r``: they are counted by tables a byte a count, not listed."""

    __slots__ = ("free", "full", "partial", "size", "wanted")

    def __init__(self, size: int, least: int, wanted: int) -> None:
        self.size = size
        self.wanted = wanted
        free, partial, full = bytearray(256), bytearray(256), bytearray(256)
        for count in range(256):
            if count < least:
                continue
            most = wanted if least <= 0 else min(wanted, count // least)
            filled = min(count // size, most)
            more = most - filled
            if more and count % size:
                partial[count] = size - count % size
                more -= 1
            free[count] = filled
            full[count] = more
        self.free, self.partial, self.full = bytes(free), bytes(partial), bytes(full)

    def jokers(self, rank_counts: bytes) -> int:
        """The sum of the ``wanted`` smallest increments over the ranks holding
        ``rank_counts`` natural cards (a byte a rank), or :data:`NO_LIMIT` when there are
        fewer."""
        need = self.wanted - sum(rank_counts.translate(self.free))
        if need <= 0:
            return 0
        partial = rank_counts.translate(self.partial)
        spent = 0
        for value in range(1, self.size):
            found = partial.count(value)
            if found >= need:
                return spent + need * value
            spent += found * value
            need -= found
        if sum(rank_counts.translate(self.full)) < need:
            return NO_LIMIT
        return spent + need * self.size


def _sets_jokers(bounds: _ContractBounds, rank_count: bytes, jokers: int) -> int:
    """The least jokers the contract's sets take (see the module notes)."""
    return bounds.set_costs[min(jokers, 63)].jokers(rank_count)


def _runs_jokers(bounds: _ContractBounds, tally: bytes, jokers: int, rules: VariantRules) -> int:
    """The least jokers the contract's runs take (see the module notes)."""
    wanted = bounds.runs
    size = bounds.run_size
    least = bounds.run_least[min(jokers, 63)]
    room = min(jokers, bounds.run_cap)
    increments: list[int] = []
    known = bounds.missing.get
    for suit in range(4):
        count = tally[SUIT_BYTE + suit]
        if count < least:
            continue
        held = tally[suit << 4 : (suit + 1) << 4].translate(_HELD_FLAG)
        missing = known(held)
        if missing is None:
            missing = bounds.missing_in(held)
        if missing > room:
            continue
        before = 0
        taken = 1
        while taken <= wanted and taken * least <= count:
            now = max(taken * missing, taken * size - count)
            increments.append(now - before)
            before = now
            taken += 1
    return _cheapest(increments, wanted)


_HELD_FLAG = b"\x00" + b"\x01" * 255
"""A byte translation: 0 for a count of 0, else 1."""


def contract_out_of_reach(cards: Iterable[Card], contract: Contract, rules: VariantRules) -> bool:
    """Whether the bounds (see the module notes) show that no part of ``cards`` meets
    ``contract``: True only when none does; False says nothing."""
    return contract_tally(cards, contract, rules) is None


def contract_tally(
    cards: Iterable[Card], contract: Contract, rules: VariantRules
) -> tuple[list[int], int] | None:
    """The card counts of ``cards`` (as :func:`._variant_rules.count_cards` gives them,
    for the search), or None when the bounds show that no part of them meets
    ``contract``."""
    tally = tally_of(cards)
    if tally_out_of_reach(tally, contract, rules):
        return None
    return list(tally[:64]), tally[JOKER_BYTE]


def tally_out_of_reach(tally: bytes, contract: Contract, rules: VariantRules) -> bool:
    """:func:`contract_out_of_reach` of the cards of ``tally`` (see ``_card_counts``)."""
    bounds = _bounds_of(contract, rules)
    jokers = tally[JOKER_BYTE]
    if sum(tally[SUIT_BYTE:JOKER_BYTE]) + jokers < bounds.min_cards:
        return True
    spent = _sets_jokers(bounds, tally[RANK_BYTE:SUIT_BYTE], jokers) if bounds.sets else 0
    if spent > jokers:
        return True
    if bounds.runs:
        spent += _runs_jokers(bounds, tally, jokers, rules)
    return spent > jokers


class _OpeningBounds:
    """What the opening bound reads of one opening under one variant's rules: card values by
    rank, ``set_least[j]`` (``least`` for ``j`` jokers), and a memo of :meth:`runnable`."""

    __slots__ = ("best", "memo", "rules", "set_least", "target", "value")

    def __init__(self, rules: VariantRules, opening: Opening) -> None:
        self.rules = rules
        self.value = [0, 0] + [opening.values.of_rank(rank) for rank in Rank]
        self.best = max(self.value)
        self.target = opening.min_points
        size = rules.set_min
        self.set_least = [
            rules.fewest_naturals(size, jokers, rules.per_group_limit) for jokers in range(64)
        ]
        self.memo: Memo[tuple[int, int], int] = Memo(1 << 16)

    def runnable(self, ranks: int, room: int) -> int:
        """The ranks (bits) of a suit holding ``ranks`` that lie in some span missing at most
        ``room`` (and no more than its length allows) of the suit's cards."""
        key = (ranks, room)
        known = self.memo.get(key)
        if known is None:
            rules = self.rules
            held = 0
            for rank in range(2, 15):
                if ranks >> rank & 1:
                    held |= rules.rank_positions[rank]
            covered = 0
            for _, pairs in rules.spans_by_start:
                for length, interval in pairs:
                    have = held & interval
                    forced = length - have.bit_count()
                    if forced > room:
                        break  # longer spans miss even more
                    if forced <= rules.most_jokers[length]:
                        covered |= have
            known = 0
            for rank in range(2, 15):
                if covered & rules.rank_positions[rank]:
                    known |= 1 << rank
            self.memo[key] = known
        return known


OPENING_BOUNDS: MemoKind[int, tuple[Opening, _OpeningBounds]] = MemoKind("opening bounds", 256)
"""What the bound reads of each opening, by the opening's identity."""


def opening_out_of_reach(cards: Iterable[Card], opening: Opening, rules: VariantRules) -> bool:
    """Whether the bound (see the module notes) shows that no part of ``cards`` is worth
    ``opening.min_points`` in valid groups: True only when none is; False says nothing. For
    card values >= 0 only."""
    return opening_tally(cards, opening, rules) is None


def opening_tally(
    cards: Iterable[Card], opening: Opening, rules: VariantRules
) -> tuple[list[int], int] | None:
    """The card counts of ``cards`` (for the search), or None when the bound shows that no
    part of them is worth ``opening.min_points``. For card values >= 0 only."""
    memo = rules.memos.of(OPENING_BOUNDS)
    cached = memo.get(id(opening))
    if cached is not None and cached[0] is opening:
        bounds = cached[1]
    else:
        bounds = _OpeningBounds(rules, opening)
        memo[id(opening)] = (opening, bounds)
    tally = tally_of(cards)
    jokers = tally[JOKER_BYTE]
    held = held_bits(tally)
    least = bounds.set_least[min(jokers, 63)]
    if rules.set_distinct_suits:  # a set takes one card of each suit: the suits holding each rank
        ones = held >> 7
        suits = (ones + (ones >> 128) + (ones >> 256) + (ones >> 384)) & SUIT_BITS
        per_rank = suits.to_bytes(16, "little")
    else:
        per_rank = tally[RANK_BYTE:SUIT_BYTE]
    setable = 0
    for rank in range(2, 15):
        if per_rank[rank] >= least:
            setable |= 1 << rank
    room = min(jokers, rules.per_group_limit)
    value = bounds.value
    worth = jokers * bounds.best
    ranks_memo = rules.memos.of(RANKS_HELD)
    for suit in range(4):
        if not tally[SUIT_BYTE + suit]:
            continue
        ranks = _ranks_held(held, suit, ranks_memo)
        meldable = ranks & (setable | bounds.runnable(ranks, room))
        base = suit * 16
        for rank in range(2, 15):
            if meldable >> rank & 1:
                worth += tally[base + rank] * value[rank]
    return None if worth < bounds.target else (list(tally[:64]), jokers)
