"""The run rules of jokers and natural cards that the searches over card counts do not know:
no two jokers side by side in a run (``JokerRules.side_by_side_in_runs``), and an opening's
run of natural cards in a row (``Opening.natural_run``). Nothing here is public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..cards import Card
from ..contracts import Opening, Requirement
from ..errors import InvalidMeldError
from ..melds import check_group
from ._candidate_groups import every_run_keyed
from ._card_counts import JOKER_CODE, NO_LIMIT, count_cards
from ._variant_rules import Arrangement, VariantRules

Solver = Callable[[tuple[Card, ...], Requirement, VariantRules], Arrangement | None]
"""A search for one way to meet a requirement (``solver.solve`` without the natural run)."""


def jokers_apart(way: Arrangement, rules: VariantRules) -> bool:
    """Whether every group of ``way`` reads as a valid group, no run holding two jokers side
    by side (``JokerRules.side_by_side_in_runs``)."""
    try:
        for group in way:
            check_group(group, rules.variant)
    except InvalidMeldError:
        return False
    return True


def natural_stretch_of(codes: tuple[int, ...]) -> int:
    """The most natural cards in a row among a run candidate's card codes."""
    longest = current = 0
    for code in codes:
        current = 0 if code == JOKER_CODE else current + 1
        longest = max(longest, current)
    return longest


def with_natural_run(
    cards: tuple[Card, ...], opening: Opening, rules: VariantRules, solve_rest: Solver
) -> Arrangement | None:
    """One way to meet ``opening``, whose ``natural_run`` asks for a run of that many natural
    cards in a row, or None. Exact: every such way holds a run that has the stretch; for each
    run of the hand that has it, the cards it leaves are asked (by ``solve_rest``) for the
    points still missing, if any. A hand that cannot meet the points at all is refused first."""
    plain = Opening(min_points=opening.min_points, values=opening.values)
    if opening.min_points and solve_rest(cards, plain, rules) is None:
        return None
    counts, jokers = count_cards(cards)
    per_group = rules.variant.jokers.going_down_per_group
    cap = NO_LIMIT if per_group is None else per_group
    runs = every_run_keyed(counts, jokers, rules, cap, opening.natural_run)
    spans = rules.span_points(opening.values)
    rests: dict[int, Opening] = {}
    for key, run in runs.items():
        left = opening.min_points - spans.get((key[2], len(key) - 3), 0)
        if left <= 0:
            return (run,)
        rest = Counter(cards)
        rest.subtract(run)
        rest_opening = rests.get(left)
        if rest_opening is None:
            rest_opening = rests[left] = Opening(min_points=left, values=opening.values)
        way = solve_rest(tuple(rest.elements()), rest_opening, rules)
        if way is not None:
            return (run, *way)
    return None
