"""A bot that searches: :class:`SearchBot`, determinized search over states sampled from its
view (Perfect Information Monte Carlo).

At a decision with a real choice, the bot samples full states consistent with what its seat
knows (:func:`~shanghai_rummy.sample_state`), plays each candidate move in each sampled
state, plays the deal on with :class:`~shanghai_rummy.GreedyBot` at every seat (a
*rollout*), and keeps the move whose rollouts ended best for it: the lowest of its points
minus the mean of the other seats' points, summed over the samples (another move than
GreedyBot's must win by ``margin`` points per sample). Every candidate is
tried on the same samples, so the comparison is paired: a sample in which every move does
badly counts against none of them.

Which decisions are searched: the draw (stock, upcard, cut card), the buy (buy or pass), and
the discard (GreedyBot's choice against the next highest-valued ones, ``max_candidates`` in
all). Going down, laying off and swapping follow GreedyBot: it already plays them as soon
as it can, which rollouts rarely beat.

The budget is ``simulations`` rollouts per searched decision, shared by the candidates
(at least one sample each); ``horizon`` cuts a rollout after that many moves and scores
the hands as they stand (the points each would hold if the deal ended with no winner). The
search is seeded: the same seed, views and budget give the same moves.

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

from .actions import Action, Buy, Discard, Draw, PassBuy
from .bots import Bot, GreedyBot
from .engine import apply
from .errors import RummyError
from .sampling import sample_state
from .scoring import score_deal
from .state import GameState, Phase
from .variants import Variant, get_variant
from .views import PlayerView, view

__all__ = ["SearchBot"]

_OVER = (Phase.DEAL_OVER, Phase.GAME_OVER)


class SearchBot:
    """Determinized search (PIMC) with GreedyBot rollouts; see :mod:`shanghai_rummy.search_bot`.

    ``variant``: the rules (looked up by the view's ``variant_id`` when None);
    ``simulations``: rollouts per searched decision; ``max_candidates``: discards weighed at
    most; ``horizon``: moves per rollout before the hands are scored as they stand;
    ``seed``: the search's own generator.

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
        simulations: int = 16,
        max_candidates: int = 3,
        horizon: int = 120,
        margin: float = 15.0,
        seed: int = 0,
    ) -> None:
        for name, value in (
            ("simulations", simulations),
            ("max_candidates", max_candidates),
            ("horizon", horizon),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RummyError(f"SearchBot: {name} must be a positive integer, got {value!r}")
        self.variant = variant
        self.simulations = simulations
        self.max_candidates = max_candidates
        self.horizon = horizon
        self.margin = float(margin)
        self.seed = seed
        self._rng = random.Random(f"SearchBot/{seed}")
        self._policy = GreedyBot(variant)
        self._rollout_bots: dict[int, list[Bot]] = {}

    def __repr__(self) -> str:
        variant = None if self.variant is None else self.variant.id
        return (
            f"SearchBot(variant={variant!r}, simulations={self.simulations}, "
            f"max_candidates={self.max_candidates}, horizon={self.horizon}, "
            f"margin={self.margin}, seed={self.seed})"
        )

    def choose(self, view: PlayerView) -> Action:
        """The candidate move whose rollouts from sampled states ended best for the seat."""
        fallback = self._policy.choose(view)
        candidates = self._candidates(view, fallback)
        if len(candidates) < 2:
            return fallback
        variant = self._variant(view)
        seat = view.seat
        assert seat is not None  # the policy refused a spectator's view
        totals = dict.fromkeys(candidates, 0.0)
        samples = max(1, self.simulations // len(candidates))
        played = 0
        for _ in range(samples):
            try:
                world = sample_state(view, seed=self._rng.getrandbits(64), variant=variant)
            except RummyError:
                continue  # a view no placement was found for: the others still count
            played += 1
            for action in candidates:
                totals[action] += self._rollout(apply(world, action), seat)
        best = min(candidates, key=lambda action: (totals[action], action != fallback))
        # another move than the policy's must do better by ``margin`` points per sample:
        # with few samples, a small gap is as likely noise as a better move
        if played and totals[best] + self.margin * played < totals[fallback]:
            return best
        return fallback

    def _variant(self, view: PlayerView) -> Variant:
        if self.variant is not None:
            return self.variant
        return get_variant(view.variant_id)

    def _candidates(self, view: PlayerView, chosen: Action) -> Sequence[Action]:
        """The moves weighed: every draw or buy answer; discards where the policy discards."""
        actions = view.legal_actions
        if view.phase is not Phase.PLAY:
            return [action for action in actions if isinstance(action, Draw | Buy | PassBuy)]
        if not isinstance(chosen, Discard):
            return [chosen]
        values = self._variant(view).scoring.values
        others = sorted(
            (action for action in actions if isinstance(action, Discard) and action != chosen),
            key=lambda action: -values.of(action.card),
        )
        return [chosen, *others[: self.max_candidates - 1]]

    def _bots(self, players: int) -> list[Bot]:
        bots = self._rollout_bots.get(players)
        if bots is None:
            bots = self._rollout_bots[players] = [GreedyBot(self.variant) for _ in range(players)]
        return bots

    def _rollout(self, state: GameState, seat: int) -> float:
        """Play on with the rollout policy; the seat's points less the others' mean."""
        bots = self._bots(state.num_players)
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
