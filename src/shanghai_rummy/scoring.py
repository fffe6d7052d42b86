"""What a finished deal scores, and who wins a game. Lower is better.

>>> import shanghai_rummy as sr
>>> outcome = sr.Outcome.from_totals((35, 20, 20, 90))
>>> outcome.winners, outcome.is_tie
((1, 2), True)
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .cards import Card
from .errors import RummyError
from .variants import Scoring

__all__ = ["DealResult", "Outcome", "SeatScore", "score_deal"]


@attrs.frozen
class SeatScore:
    """One seat's score for a deal, and why.

    ``cards``: the cards left in hand; ``card_points``: what they are worth;
    ``points``: the score for the deal, bonus or penalty included; ``reason``: in words.
    """

    seat: int
    cards: tuple[Card, ...]
    card_points: int
    points: int
    reason: str


@attrs.frozen
class DealResult:
    """The result of one deal: ``winner`` (None when the deal ended with no winner),
    ``one_turn_out`` (the winner went down and out in one turn), and a :class:`SeatScore`
    per seat."""

    deal_number: int
    winner: int | None
    one_turn_out: bool
    seats: tuple[SeatScore, ...]

    @property
    def points(self) -> tuple[int, ...]:
        """The deal's points per seat, bonuses included."""
        return tuple(seat.points for seat in self.seats)


@attrs.frozen
class Outcome:
    """The end of a game: the final totals and the winner(s): the seats placed first.

    Under progressive contracts ``completed`` holds the levels each seat completed, and the
    seats are placed by it first (the most levels first), then by their totals; empty
    otherwise, where the lowest total wins.

    >>> import shanghai_rummy as sr
    >>> climbed = sr.Outcome.from_totals((35, 20, 20, 90), completed=(7, 6, 5, 7))
    >>> climbed.winners, climbed.placings
    ((0,), (1, 3, 4, 2))
    """

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    completed: tuple[int, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.completed and len(self.completed) != len(self.totals):
            raise RummyError(
                f"Outcome.completed: {len(self.completed)} levels completed for "
                f"{len(self.totals)} seats (one per seat, or none without progressive contracts)"
            )

    @property
    def is_tie(self) -> bool:
        """True when several seats share first place."""
        return len(self.winners) > 1

    @property
    def placings(self) -> tuple[int, ...]:
        """Each seat's place, 1st to nth, the lowest total first (under progressive
        contracts, the most levels completed first, then the lowest total); tied seats share a place
        and the next place is skipped (totals 10, 25, 10, 40 place 1, 3, 1, 4).

        >>> import shanghai_rummy as sr
        >>> sr.Outcome.from_totals((10, 25, 10, 40)).placings
        (1, 3, 1, 4)
        """
        keys = self._keys()
        return tuple(1 + sum(other < key for other in keys) for key in keys)

    def _keys(self) -> tuple[tuple[int, int], ...]:
        """What places the seats, the lower the better: fewer levels completed last, then
        the total."""
        done = self.completed or (0,) * len(self.totals)
        return tuple((-levels, total) for levels, total in zip(done, self.totals, strict=True))

    @property
    def standings(self) -> tuple[tuple[int, ...], ...]:
        """The seats place by place: a tuple of the seats sharing each place, best first.

        >>> import shanghai_rummy as sr
        >>> sr.Outcome.from_totals((10, 25, 10, 40)).standings
        ((0, 2), (1,), (3,))
        """
        placings = self.placings
        return tuple(
            tuple(seat for seat, placed in enumerate(placings) if placed == place)
            for place in sorted(set(placings))
        )

    @staticmethod
    def from_totals(totals: Sequence[int], completed: Sequence[int] = ()) -> Outcome:
        """The outcome for these final totals (and, under progressive contracts, the levels
        each seat completed)."""
        placed = Outcome(tuple(totals), (), tuple(completed))
        keys = placed._keys()
        best = min(keys)
        return Outcome(
            totals=placed.totals,
            winners=tuple(seat for seat, key in enumerate(keys) if key == best),
            completed=placed.completed,
        )


def score_deal(
    scoring: Scoring,
    deal_number: int,
    hands: Sequence[tuple[Card, ...]],
    down: Sequence[bool],
    winner: int | None,
    *,
    one_turn_out: bool = False,
    used_joker: bool = False,
    took_cut_card: bool = False,
) -> DealResult:
    """Score a finished deal under ``scoring``.

    The winner scores ``scoring.going_out``, or the one-turn-out score; every other seat
    scores the values of the cards left in hand, or ``never_down_penalty`` if it never went
    down, multiplied after a one-turn out. A one-turn out made with the cut card scores
    ``cut_card_hand``.

    >>> import shanghai_rummy as sr
    >>> hands = ((), sr.parse_cards("AS 2C JK"), sr.parse_cards("7D"))
    >>> result = score_deal(sr.get_variant("shanghai").scoring, 1, hands, (True, True, False), 0)
    >>> result.points
    (0, 60, 5)
    """
    bonus: int | None = None
    if winner is not None and one_turn_out:
        bonus = scoring.one_turn_out
        if not used_joker and scoring.one_turn_out_without_jokers is not None:
            bonus = scoring.one_turn_out_without_jokers
        if took_cut_card and scoring.cut_card_hand is not None:
            bonus = scoring.cut_card_hand
    multiplier = scoring.others_multiplier_after_one_turn_out if bonus is not None else 1
    seats = []
    for seat, hand in enumerate(hands):
        card_points = sum(scoring.values.of(card) for card in hand)
        if seat == winner:
            if bonus is not None:
                points, reason = bonus, "went down and out in one turn"
            else:
                points, reason = scoring.going_out, "went out"
        elif not down[seat] and scoring.never_down_penalty is not None:
            points = scoring.never_down_penalty * multiplier
            reason = f"never went down: flat {scoring.never_down_penalty}"
        else:
            points = card_points * multiplier
            reason = f"{len(hand)} card{'s' if len(hand) != 1 else ''} left"
        if seat != winner and multiplier != 1:
            reason += f", x{multiplier} after a one-turn out"
        seats.append(SeatScore(seat, tuple(hand), card_points, points, reason))
    return DealResult(deal_number, winner, bonus is not None, tuple(seats))
