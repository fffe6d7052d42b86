"""The depth-first search behind :mod:`shanghai_rummy.solver` for one way to meet an
opening (:class:`OpeningSearch`), for card values >= 0, over the tables of
:mod:`._variant_rules`. Nothing here is public.
"""

from __future__ import annotations

from ..cards import Rank
from ..contracts import Opening
from ..melds import GroupShape
from ._card_counts import ACE, RANK_OF_POSITION
from ._memo import MemoKind
from ._variant_rules import (
    SetPlan,
    VariantRules,
    bit_positions,
    position_subsets,
    run_shape,
    set_shape,
)

BEST_SETS: MemoKind[tuple[tuple[int, ...], int], tuple[int, SetPlan]] = MemoKind(
    "best sets of one rank", 1 << 16
)
"""The most cards sets of one rank can hold (:func:`_set_best`), by the rank's copies per
suit and the jokers."""
SET_ROWS: MemoKind[tuple[tuple[int, ...], int], tuple[int, ...]] = MemoKind(
    "most set cards of one rank by jokers", 1 << 12
)
"""For each number of jokers from none to the most given, the most cards sets of one rank
can hold (:func:`_set_best`'s count), by the rank's copies per suit and that most: each
step of the opening search asks it of every rank held."""


def _set_best(rules: VariantRules, counts: tuple[int, ...], jokers: int) -> tuple[int, SetPlan]:
    """The most cards that sets of one rank can hold, from ``counts`` (copies per suit) and at
    most ``jokers`` jokers, with one way to do it: ``(cards, ((suit counts, jokers), ...))``."""
    key = (counts, jokers)
    memo = rules.memos.of(BEST_SETS)
    known = memo.get(key)
    if known is not None:
        return known
    first = next((suit for suit in range(4) if counts[suit]), -1)
    best: tuple[int, SetPlan] = (0, ())
    if first >= 0:
        rest = list(counts)
        rest[first] -= 1
        best = _set_best(rules, tuple(rest), jokers)  # that card stays out of the sets
        ranges = []
        for suit in range(4):
            most = rest[suit]
            if rules.set_distinct_suits:
                most = 0 if suit == first else min(1, most)
            ranges.append(range(most + 1))
        for a in ranges[0]:
            for b in ranges[1]:
                for c in ranges[2]:
                    for d in ranges[3]:
                        naturals = 1 + a + b + c + d
                        if naturals > rules.largest_set or naturals < rules.min_naturals:
                            continue
                        left = (rest[0] - a, rest[1] - b, rest[2] - c, rest[3] - d)
                        picked = [a, b, c, d]
                        picked[first] += 1
                        for used in range(min(jokers, rules.per_group_limit) + 1):
                            size = naturals + used
                            if size > rules.largest_set or (
                                rules.at_most_naturals and used > naturals
                            ):
                                break
                            if size < rules.set_min:
                                continue
                            more, plan = _set_best(rules, left, jokers - used)
                            if size + more > best[0]:
                                best = (size + more, ((tuple(picked), used), *plan))
    memo[key] = best
    return best


class OpeningSearch:
    """Groups worth at least the opening's points, for card values >= 0. Runs are few: the
    search tries every collection of runs (with jokers in any place), and for each the best
    sets of what is left, which are exact per rank (memoised) and shared jokers."""

    def __init__(self, rules: VariantRules, counts: list[int], jokers: int, opening: Opening):
        self.rules = rules
        self.counts = counts
        self.jokers = jokers
        self.target = opening.min_points
        self.value = [0, 0] + [opening.values.of_rank(rank) for rank in Rank]
        self.best = max(self.value)
        self.avail = [0] * 4
        self.left = 0
        for index, count in enumerate(counts):
            if count:
                self.avail[index >> 4] |= rules.rank_positions[index & 15]
                self.left += count * self.value[index & 15]
        spans = rules.span_points(opening.values)
        found = []
        room = min(jokers, rules.per_group_limit)
        for suit in range(4):
            avail = self.avail[suit]
            if not avail:
                continue  # a run needs a natural card
            for start, pairs in rules.spans_by_start:
                for length, interval in pairs:
                    forced = length - (avail & interval).bit_count()
                    if forced > room:
                        break  # longer spans miss even more
                    if forced <= rules.most_jokers[length]:
                        found.append((spans[start, length], suit, start, length))
        found.sort(reverse=True)
        self.candidates = found
        # by candidate number, the positions of each suit that candidates from there on span
        self.later_spans = [(0, 0, 0, 0)] * (len(found) + 1)
        spanned = [0, 0, 0, 0]
        for number in range(len(found) - 1, -1, -1):
            _, suit, start, length = found[number]
            spanned[suit] |= rules.span_mask[start, length]
            self.later_spans[number] = (spanned[0], spanned[1], spanned[2], spanned[3])
        # the most a card of each rank, and a joker, is worth in a set or a run
        values = opening.values
        self.worth = [
            max(
                [self.value[rank]]
                + [values.at_position(p) for p in bit_positions(rules.rank_positions[rank])]
            )
            for rank in range(15)
        ]
        self.joker_worth = max(self.best, *self.worth)
        self.runs: list[tuple[int, int, int, int]] = []
        self.run_points = 0
        self.sets: list[GroupShape] = []

    def _natural_mask(self, suit: int, start: int, length: int) -> int:
        aces = self.counts[suit * 16 + ACE]
        return self.rules.natural_positions(self.avail[suit], aces, start, length)

    def _move(self, suit: int, mask: int, sign: int) -> None:
        base = suit * 16
        for position in bit_positions(mask):
            rank = RANK_OF_POSITION[position]
            index = base + rank
            self.counts[index] -= sign
            self.left -= sign * self.value[rank]
            if self.counts[index]:
                self.avail[suit] |= self.rules.rank_positions[rank]
            else:
                self.avail[suit] &= ~self.rules.rank_positions[rank]

    def _sets_points(self, build: bool) -> int:
        counts = self.counts
        jokers = self.jokers
        rows = []
        points = 0
        known_rows = self.rules.memos.of(SET_ROWS)
        for rank in range(2, 15):
            key = (counts[rank], counts[16 + rank], counts[32 + rank], counts[48 + rank])
            if key == (0, 0, 0, 0):
                continue
            row = known_rows.get((key, jokers))
            if row is None:
                row = known_rows[key, jokers] = tuple(
                    _set_best(self.rules, key, used)[0] for used in range(jokers + 1)
                )
            points += self.value[rank] * row[0]
            if row[-1] > row[0]:
                rows.append((rank, row))
        # share the jokers among the ranks they help: best extra points for j jokers
        table: list[tuple[int, tuple[tuple[int, int], ...]]] = [(0, ())] * (jokers + 1)
        for rank, row in rows:
            gain = [self.value[rank] * (cards - row[0]) for cards in row]
            table = [
                max(
                    (
                        (table[j - t][0] + gain[t], (*table[j - t][1], (rank, t)))
                        for t in range(j + 1)
                    ),
                    key=lambda entry: entry[0],
                )
                for j in range(jokers + 1)
            ]
        extra, shares = table[jokers]
        if build:
            given = dict(shares)
            for rank in range(2, 15):
                key = (counts[rank], counts[16 + rank], counts[32 + rank], counts[48 + rank])
                if key == (0, 0, 0, 0):
                    continue
                _, plan = _set_best(self.rules, key, given.get(rank, 0))
                for picked, used in plan:
                    naturals = [suit * 16 + rank for suit in range(4) for _ in range(picked[suit])]
                    self.sets.append(set_shape(rank, naturals, used))
        return points + extra

    def _later_runs_worth(self, first: int) -> int:
        """The most the natural cards left that lie in the span of some candidate from
        number ``first`` on are worth: more runs from here hold no other natural cards."""
        counts, positions, worth = self.counts, self.rules.rank_positions, self.worth
        total = 0
        for suit, spanned in enumerate(self.later_spans[first]):
            held = spanned & self.avail[suit]
            if held:
                base = suit * 16
                for rank in range(2, 15):
                    if positions[rank] & held:
                        total += counts[base + rank] * worth[rank]
        return total

    def search(self, first: int) -> bool:
        rules = self.rules
        if self.run_points + self.left + self.jokers * self.best < self.target:
            return False
        sets_points = self._sets_points(False)
        if self.run_points + sets_points >= self.target:
            self._sets_points(True)
            return True
        # the most any way from here is worth: the runs placed, the best sets of all that is
        # left (sets hold no more), the cards more runs could hold and every joker; a
        # subtree that cannot reach the target holds no way, so cutting it leaves the first
        # way found the same
        most = self.run_points + sets_points + self._later_runs_worth(first)
        if most + self.jokers * self.joker_worth < self.target:
            return False
        for number in range(first, len(self.candidates)):
            points, suit, start, length = self.candidates[number]
            have = self._natural_mask(suit, start, length)
            forced = length - have.bit_count()
            most = min(self.jokers, rules.per_group_limit, rules.most_jokers[length])
            if forced > most:
                continue
            if rules.clashes_with(self.runs, suit, start, length):
                continue
            choices = position_subsets(bit_positions(have), most - forced)
            interval = rules.span_mask[start, length]
            for natural, used in rules.run_fillings(have, choices, length):
                self._move(suit, natural, 1)
                self.jokers -= used
                self.run_points += points
                self.runs.append((suit, start, length, interval & ~natural))
                if self.search(number):
                    return True
                self.runs.pop()
                self.run_points -= points
                self.jokers += used
                self._move(suit, natural, -1)
        return False

    def shapes(self) -> list[GroupShape]:
        return self.sets + [run_shape(*run) for run in self.runs]
