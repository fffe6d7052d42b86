"""The server's hold on one game: the seam between the server and the rules engine.

A :class:`Game` is the game of one table, with every seat played by the server's caller:
the server decides which seats its bots play (bot seats, and people's seats a bot has taken
over), so a game replayed from its stored actions is the same game in every process. It
gives the server the documents it sends: each seat's view, its legal actions with their
labels, and the events a seat has not yet seen.

>>> import shanghai_rummy as sr
>>> game = Game.new(sr.get_variant("shanghai"), players=3, seed=4)
>>> game.to_act, game.action_count, game.is_over
(1, 0, False)
>>> [entry["label"] for entry in game.legal(1)]
['draw', 'take']
>>> game.act(1, sr.parse_action("draw", seat=1))
>>> game.action_count, game.events_since(None, 0)[0]["text"]
(1, 'seat 1: draw')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ..actions import Action
from ..bots import Bot
from ..dealing import new_game
from ..engine import apply, next_deal
from ..errors import NotYourTurnError, RummyError
from ..legal import legal_actions
from ..notation import format_action
from ..records import GameRecord, replay
from ..serialization import to_dict
from ..state import GameState, Phase
from ..variants import Variant
from ..views import PlayerView, view

__all__ = ["Game"]


class Game:
    """One table's game: people's and bots' actions alike come in through :meth:`act`."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._actions: list[Action] = list(state.history)

    @classmethod
    def new(cls, variant: Variant, players: int, seed: int) -> Game:
        """A new game, its first deal dealt (:class:`~shanghai_rummy.VariantError` for a
        number of seats the variant does not allow)."""
        return cls(new_game(variant, players=players, seed=seed))

    @classmethod
    def resume(cls, variant: Variant, players: int, seed: int, actions: Sequence[Action]) -> Game:
        """The game after ``actions`` (as stored), replayed from its seed."""
        game = cls(replay(GameRecord(variant=variant, players=players, seed=seed, actions=actions)))
        game._deal_on()
        return game

    # -- what the game is --------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The whole state (hidden cards included): never sent to a client."""
        return self._state

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._state.variant

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self._state.num_players

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None when the game is over."""
        return None if self.is_over else self._state.to_act

    @property
    def is_over(self) -> bool:
        """True once the last deal is scored."""
        return self._state.phase is Phase.GAME_OVER

    @property
    def action_count(self) -> int:
        """How many actions the game has accepted (the stored actions' count)."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action accepted, in order: what the store keeps."""
        return tuple(self._actions)

    # -- moves -------------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` and deal the next deal when this one ends; a
        :class:`~shanghai_rummy.RummyError` (the game unchanged) when the rules refuse it."""
        if self.is_over or self._state.to_act != seat:
            raise NotYourTurnError(
                f"seat {seat} cannot act now: "
                + ("the game is over" if self.is_over else f"seat {self._state.to_act} is to act")
            )
        if action.seat != seat:
            raise NotYourTurnError(f"an action for seat {action.seat} sent by seat {seat}")
        self._state = apply(self._state, action)
        self._actions.append(action)
        self._deal_on()

    def play_bot(self, seat: int, bot: Bot) -> None:
        """Let ``bot`` make ``seat``'s pending decision."""
        self.act(seat, bot.choose(view(self._state, seat)))

    def _deal_on(self) -> None:
        if self._state.phase is Phase.DEAL_OVER:
            self._state = next_deal(self._state)

    # -- documents ---------------------------------------------------------------------------

    def player_view(self, seat: int | None) -> PlayerView:
        """What ``seat`` sees; a spectator (None) sees no hand and has no actions."""
        if seat is None:
            seen = view(self._state, 0)
            return _spectators_view(seen)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise RummyError(f"no seat {seat!r}: the game has seats 0 to {self.num_players - 1}")
        return view(self._state, seat)

    def view_document(self, seat: int | None) -> dict[str, Any]:
        """The view's JSON document (a spectator's has ``seat`` None and an empty hand)."""
        document = to_dict(self.player_view(seat))
        if seat is None:
            document["data"]["seat"] = None
        return document

    def seat_documents(self, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view's document and the legal actions of :meth:`legal`, from one view."""
        seen = self.player_view(seat)
        document = to_dict(seen)
        if seat is None:
            document["data"]["seat"] = None
        legal = [
            {"action": to_dict(action), "label": format_action(action)}
            for action in seen.legal_actions
        ]
        return document, legal

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions, each as ``{"action": document, "label": text}``."""
        if seat is None or self.is_over or self._state.to_act != seat:
            return []
        return [
            {"action": to_dict(action), "label": format_action(action)}
            for action in legal_actions(self._state)
        ]

    def events_since(self, seat: int | None, number: int) -> list[dict[str, Any]]:
        """The events from ``number`` on, as ``seat`` may see them: one per accepted action
        (every action is public: a stock draw names no card)."""
        start = max(0, number)
        return [
            {
                "number": index,
                "seat": action.seat,
                "action": to_dict(action),
                "text": f"seat {action.seat}: {format_action(action)}",
            }
            for index, action in enumerate(self._actions[start:], start)
        ]

    @property
    def event_count(self) -> int:
        """How many events the game has had (the next event's number)."""
        return len(self._actions)


def _spectators_view(seen: PlayerView) -> PlayerView:
    return attrs.evolve(seen, hand=(), legal_actions=())
