"""A bot that searches: :class:`SearchBot`, determinized search over states sampled from its
view (Perfect Information Monte Carlo), aimed at the decisions GreedyBot settles by a rule
of thumb.

The bot plays as :class:`~shanghai_rummy.GreedyBot` except at the decisions it searches.
There it samples full states consistent with what its seat knows
(:func:`~shanghai_rummy.sample_state`), plays each candidate move in each sampled state,
plays the deal on to its end with GreedyBots at every seat (a *rollout*), and keeps the move
whose rollouts ended best for it: the lowest of its points minus the mean of the other seats'
points, summed over the samples. Every candidate is tried on the same samples (common random
numbers: the same hidden hands and the same stock), so the comparison is paired, and the
default candidate is kept unless another does better by ``margin`` points per sample.

Which decisions are searched (``decisions``):

- ``"buy"`` (searched by default): the buys GreedyBot's size rule turns down. GreedyBot
  buys an upcard that brings its contract nearer only while the hand, penalty cards
  included, stays at most ``buy_slack`` (2) cards above the contract's size; an eager
  GreedyBot (no size limit) would buy it. Where the two disagree, the bot weighs buying (the
  default candidate) against passing; in its own rollouts it plays on as the eager
  GreedyBot. Everywhere else the two agree, and nothing is searched.
- ``"take"`` (searched by default): once down, where the variant lets a player lay new
  groups (Rummy 51), the upcards that make a group with two natural cards of the hand, which
  GreedyBot leaves for the stock (it takes only what lays off); the eager GreedyBot
  (``take_to_build=True``) takes them. The bot weighs taking (the default) against drawing.
- ``"draw"``: taking the upcard or drawing from the stock, where the upcard is near the hand
  (a joker, a card of a rank it holds, of a suit it holds two ranks or less away; once down,
  a card that lays off).
- ``"discard"``: GreedyBot's discard against the next highest-valued ones
  (``max_candidates`` in all).

Going down, laying off and swapping always follow GreedyBot. Measured against three
GreedyBots (``benchmarks/search_bot.py``, figures on the bots page of the docs), it scores
fewer points a deal in every preset; the gain comes from making the buys and takes
GreedyBot turns down (the eager GreedyBot alone gains as much), not from the rollouts that
may overrule them, which at the default budget do no better than the rule they start from
(and searching the draw and the discard with a few rollouts each did no better than
GreedyBot: the noise of a handful of samples outweighs the small differences between moves).

The budget is ``simulations`` rollouts per searched decision, shared by the candidates (at
least one sample each); ``horizon`` cuts a rollout after that many moves and scores the
hands as they stand. The search is seeded: the same seed, views and budget give the same
moves; :attr:`SearchBot.searches` counts the decisions searched.

>>> import shanghai_rummy as sr
>>> variant = sr.get_variant("shanghai")
>>> state = sr.new_game(variant, players=3, seed=4)
>>> bots = [
...     sr.SearchBot(variant, simulations=4, seed=1),
...     sr.GreedyBot(variant),
...     sr.GreedyBot(variant),
... ]
>>> for _ in range(12):
...     seat = state.to_act
...     state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))
>>> state.phase in (sr.Phase.DRAW, sr.Phase.BUY, sr.Phase.PLAY)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import Action, Discard, Draw, Source
from .bots import Bot, GreedyBot
from .cards import Card, Rank
from .contracts import Contract
from .engine import apply
from .errors import RummyError
from .melds import lay_off_ends
from .sampling import sample_state
from .scoring import score_deal
from .state import GameState, Phase
from .variants import Variant, get_variant
from .views import PlayerView, view

__all__ = ["SearchBot"]

DECISIONS = frozenset({"buy", "take", "draw", "discard"})
"""The kinds of decision a :class:`SearchBot` may search."""

EAGER_BUY_SLACK = 1000
"""The eager GreedyBot's ``buy_slack``: more cards than any hand holds, so no size limit."""

_OVER = (Phase.DEAL_OVER, Phase.GAME_OVER)


class SearchBot:
    """Determinized search (PIMC) with GreedyBot rollouts at the decisions it is told to
    search; see :mod:`shanghai_rummy.search_bot`.

    ``variant``: the rules (looked up by the view's ``variant_id`` when None);
    ``simulations``: rollouts per searched decision; ``decisions``: which kinds of decision
    to search (of :data:`DECISIONS`); ``max_candidates``: discards weighed at most;
    ``horizon``: moves per rollout before the hands are scored as they stand; ``margin``:
    points per sample another move must win by; ``seed``: the search's own generator.

    >>> import shanghai_rummy as sr
    >>> variant = sr.get_variant("shanghai")
    >>> state = sr.new_game(variant, players=4, seed=7)
    >>> bot = sr.SearchBot(variant, simulations=4, seed=2)
    >>> bot.choose(sr.view(state, 1)) in sr.legal_actions(state)
    True
    """

    def __init__(
        self,
        variant: Variant | None = None,
        *,
        simulations: int = 8,
        decisions: Sequence[str] = ("buy", "take"),
        max_candidates: int = 3,
        horizon: int = 1000,
        margin: float = 5.0,
        seed: int = 0,
    ) -> None:
        for name, value in (
            ("simulations", simulations),
            ("max_candidates", max_candidates),
            ("horizon", horizon),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RummyError(f"SearchBot: {name} must be a positive integer, got {value!r}")
        unknown = sorted(set(decisions) - DECISIONS)
        if isinstance(decisions, str) or unknown:
            raise RummyError(
                f"SearchBot: decisions must be a sequence of {sorted(DECISIONS)}, got {decisions!r}"
            )
        self.variant = variant
        self.simulations = simulations
        self.decisions = frozenset(decisions)
        self.max_candidates = max_candidates
        self.horizon = horizon
        self.margin = float(margin)
        self.seed = seed
        self.searches = 0
        """How many decisions this bot has searched."""
        self._rng = random.Random(f"SearchBot/{seed}")
        self._policy = GreedyBot(variant)
        self._eager = GreedyBot(variant, buy_slack=EAGER_BUY_SLACK, take_to_build=True)
        self._rollout_bots: dict[int, list[Bot]] = {}

    def __repr__(self) -> str:
        variant = None if self.variant is None else self.variant.id
        return (
            f"SearchBot(variant={variant!r}, simulations={self.simulations}, "
            f"decisions={sorted(self.decisions)!r}, max_candidates={self.max_candidates}, "
            f"horizon={self.horizon}, margin={self.margin}, seed={self.seed})"
        )

    def choose(self, view: PlayerView) -> Action:
        """GreedyBot's move, or where the decision is searched, the candidate whose rollouts
        from sampled states ended best for the seat."""
        candidates = self._candidates(view, self._policy.choose(view))
        default = candidates[0]
        if len(candidates) < 2:
            return default
        self.searches += 1
        variant = self._variant(view)
        seat = view.seat
        assert seat is not None  # the policy refused a spectator's view
        totals = dict.fromkeys(candidates, 0.0)
        played = 0
        for _ in range(max(1, self.simulations // len(candidates))):
            try:
                world = sample_state(view, seed=self._rng.getrandbits(64), variant=variant)
            except RummyError:
                continue  # a view no placement was found for: the others still count
            played += 1
            for action in candidates:
                totals[action] += self._rollout(apply(world, action), seat)
        best = min(candidates, key=lambda action: (totals[action], action != default))
        # another move than the default must do better by ``margin`` points per sample:
        # with few samples, a small gap is as likely noise as a better move
        if played and totals[best] + self.margin * played < totals[default]:
            return best
        return default

    def _variant(self, view: PlayerView) -> Variant:
        if self.variant is not None:
            return self.variant
        return get_variant(view.variant_id)

    def _candidates(self, view: PlayerView, chosen: Action) -> list[Action]:
        """The moves weighed, the default first (one move: nothing to search)."""
        seat = view.seat
        assert seat is not None
        searched = self.decisions
        if view.phase is Phase.BUY:
            if "buy" not in searched:
                return [chosen]
            eager = self._eager.choose(view)
            return [eager, chosen] if eager != chosen else [chosen]
        if view.phase is Phase.DRAW and "take" in searched:
            taker = self._eager.choose(view)
            if taker != chosen:
                return [taker, chosen]
        if view.phase is Phase.DRAW:
            take, stock = Draw(seat, Source.DISCARD), Draw(seat, Source.STOCK)
            if (
                "draw" not in searched
                or chosen not in (take, stock)
                or take not in view.legal_actions
                or view.upcard is None
                or not self._near(view, view.upcard)
            ):
                return [chosen]
            return [chosen, stock if chosen == take else take]
        if "discard" not in searched or not isinstance(chosen, Discard):
            return [chosen]
        values = self._variant(view).scoring.values
        others = sorted(
            (
                action
                for action in view.legal_actions
                if isinstance(action, Discard) and action != chosen
            ),
            key=lambda action: -values.of(action.card),
        )
        return [chosen, *others[: self.max_candidates - 1]]

    def _near(self, view: PlayerView, card: Card) -> bool:
        """Whether ``card`` could serve the hand: a joker, a card of a rank the hand holds
        (sets asked), of a suit it holds two ranks or less away (runs asked), or, once down,
        a card that lays off."""
        seat = view.seat
        assert seat is not None
        if card.is_joker:
            return True
        if view.down[seat]:
            variant = self._variant(view)
            return any(lay_off_ends(meld, card, variant) for meld in view.table)
        requirement = view.requirement
        sets = runs = True
        if isinstance(requirement, Contract):
            sets, runs = bool(requirement.sets), bool(requirement.runs)
        for other in view.hand:
            if other.rank is None or card.rank is None:
                continue
            if sets and other.rank is card.rank:
                return True
            if runs and other.suit is card.suit and 0 < _places_apart(card.rank, other.rank) <= 2:
                return True
        return False

    def _bots(self, players: int, seat: int) -> list[Bot]:
        """The rollout players: GreedyBots, the eager one at the seat where buys or takes are
        searched."""
        bots = self._rollout_bots.get(players)
        if bots is None:
            bots = self._rollout_bots[players] = [GreedyBot(self.variant) for _ in range(players)]
        if not self.decisions & {"buy", "take"}:
            return bots
        return [self._eager if other == seat else bot for other, bot in enumerate(bots)]

    def _rollout(self, state: GameState, seat: int) -> float:
        """Play on with the rollout players; the seat's points less the others' mean."""
        bots = self._bots(state.num_players, seat)
        for _ in range(self.horizon):
            if state.phase in _OVER or state.to_act is None:
                break
            actor = state.to_act
            state = apply(state, bots[actor].choose(view(state, actor)))
        if state.phase in _OVER:
            points = state.results[-1].points
        else:
            points = score_deal(
                state.variant.scoring,
                state.deal_number,
                state.hands,
                [facts.down for facts in state.seats],
                None,
            ).points
        others = [value for other, value in enumerate(points) if other != seat]
        return points[seat] - sum(others) / max(1, len(others))


def _places_apart(one: Rank, other: Rank) -> int:
    """How many places apart two ranks sit in a run (an ace at either end)."""
    here = (1, 14) if one is Rank.ACE else (one.value,)
    there = (1, 14) if other is Rank.ACE else (other.value,)
    return min(abs(a - b) for a in here for b in there)
