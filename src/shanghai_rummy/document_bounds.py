"""The bounds of the documents' fields, in one place: the JSON Schema writes them as its
keywords (:mod:`.schema`) and the loader refuses a value outside them (:mod:`.serialization`),
so that the two agree on what a document may hold."""

from __future__ import annotations

from typing import Any

from . import limits
from ._schema_parts import CARD_VALUE, PLAYERS, VARIANT_BOUNDS

__all__ = ["PACK_CARDS", "field_bounds"]

PACK_CARDS = limits.MAX_DECKS * 52 + limits.MAX_JOKERS
_SEAT = {"minimum": 0, "maximum": limits.MAX_PLAYERS - 1}
_PER_SEAT = {"minItems": 2, "maxItems": limits.MAX_PLAYERS}
_COUNT = {"minimum": 0}
_DEAL = {"minimum": 1, "maximum": limits.MAX_DEALS}
_HAND = {"maxItems": limits.MAX_HAND_CARDS}
_HAND_SIZE = {"minimum": 0, "maximum": limits.MAX_HAND_CARDS}
_PILE = {"maxItems": PACK_CARDS}
_GROUP = {"minItems": 1, "maxItems": limits.MAX_GROUP_CARDS}
_GROUPS = {"maxItems": limits.MAX_HAND_CARDS, "items": _GROUP}
_MELD_ID = {"minimum": 0}
_SEEN_EVENTS = {"maxItems": limits.MAX_HISTORY_ACTIONS}
_LEVELS = {"maxItems": limits.MAX_PLAYERS, "items": _DEAL}  # progressive contracts: by seat
"""The most cards a pack may hold (every deck and joker the maxima allow)."""

# The bounds of the documents' fields, by class and field; a bound "items" applies to each item.
_BOUNDS: dict[tuple[str, str], dict[str, Any]] = {
    **VARIANT_BOUNDS,
    ("CardValues", "by_rank"): {"minItems": 13, "maxItems": 13, "items": CARD_VALUE},
    ("CardValues", "joker"): CARD_VALUE,
    ("GameState", "seed"): {"minimum": 0, "maximum": limits.MAX_SEED},
    ("GameState", "num_players"): PLAYERS,
    ("GameState", "deal_number"): _DEAL,
    ("GameState", "dealer"): _SEAT,
    ("GameState", "to_act"): _SEAT,
    ("GameState", "turn"): _SEAT,
    ("GameState", "hands"): {**_PER_SEAT, "items": _HAND},
    ("GameState", "stock"): _PILE,
    ("GameState", "discard_pile"): _PILE,
    ("GameState", "table"): {"maxItems": PACK_CARDS // limits.MIN_GROUP_CARDS},
    ("GameState", "seats"): _PER_SEAT,
    ("GameState", "next_meld_id"): {"minimum": 1},
    ("GameState", "restocks"): _COUNT,
    ("GameState", "turns_this_deal"): _COUNT,
    ("GameState", "totals"): _PER_SEAT,
    ("GameState", "results"): {"maxItems": limits.MAX_DEALS},
    ("GameState", "history"): {"maxItems": limits.MAX_HISTORY_ACTIONS},
    ("GameState", "events"): _SEEN_EVENTS,
    ("GameState", "levels"): _LEVELS,
    ("StackedDeal", "deal_number"): _DEAL,
    ("StackedDeal", "dealer"): _SEAT,
    ("StackedDeal", "hands"): {**_PER_SEAT, "items": _HAND},
    ("StackedDeal", "stock"): _PILE,
    ("StackedDeal", "levels"): _LEVELS,
    ("SeatState", "buys"): {"minimum": 0, "maximum": limits.MAX_BUYS_PER_DEAL},
    ("SeatState", "turns"): _COUNT,
    ("TurnState", "jokers_to_meld"): _COUNT,
    ("TurnState", "buy_queue"): {"maxItems": limits.MAX_PLAYERS - 1, "items": _SEAT},
    ("TurnState", "discarded_by"): _SEAT,
    ("TurnState", "going_down"): {"maxItems": limits.MAX_CONTRACT_GROUPS, "items": _MELD_ID},
    ("TableMeld", "id"): {"minimum": 1},
    ("TableMeld", "owner"): _SEAT,
    ("TableMeld", "cards"): {
        "minItems": limits.MIN_GROUP_CARDS,
        "maxItems": limits.MAX_GROUP_CARDS,
    },
    ("PlayerView", "seat"): _SEAT,
    ("PlayerView", "variant_id"): {"minLength": 1, "maxLength": limits.MAX_TEXT_LENGTH},
    ("PlayerView", "num_players"): PLAYERS,
    ("PlayerView", "deal_number"): _DEAL,
    ("PlayerView", "deal_count"): _DEAL,
    ("PlayerView", "dealer"): _SEAT,
    ("PlayerView", "to_act"): _SEAT,
    ("PlayerView", "turn"): _SEAT,
    ("PlayerView", "hand"): _HAND,
    ("PlayerView", "hand_sizes"): {**_PER_SEAT, "items": _HAND_SIZE},
    ("PlayerView", "down"): _PER_SEAT,
    ("PlayerView", "buys_used"): {**_PER_SEAT, "items": _COUNT},
    ("PlayerView", "buys_left"): {**_PER_SEAT, "items": _COUNT},
    ("PlayerView", "totals"): _PER_SEAT,
    ("PlayerView", "table"): {"maxItems": PACK_CARDS // limits.MIN_GROUP_CARDS},
    ("PlayerView", "discard_pile"): _PILE,
    ("PlayerView", "stock_size"): {"minimum": 0, "maximum": PACK_CARDS},
    ("PlayerView", "results"): {"maxItems": limits.MAX_DEALS},
    ("PlayerView", "going_down"): {"maxItems": limits.MAX_CONTRACT_GROUPS, "items": _MELD_ID},
    ("PlayerView", "events"): _SEEN_EVENTS,
    ("PlayerView", "levels"): _LEVELS,
    ("DealResult", "deal_number"): _DEAL,
    ("DealResult", "winner"): _SEAT,
    ("DealResult", "seats"): _PER_SEAT,
    ("SeatScore", "seat"): _SEAT,
    ("SeatScore", "cards"): _HAND,
    ("Outcome", "totals"): _PER_SEAT,
    ("Outcome", "winners"): {"minItems": 1, "maxItems": limits.MAX_PLAYERS, "items": _SEAT},
    ("Outcome", "completed"): {
        "maxItems": limits.MAX_PLAYERS,
        "items": {"minimum": 0, "maximum": limits.MAX_DEALS},
    },
    ("GameRecord", "players"): PLAYERS,
    ("GameRecord", "seed"): {"minimum": 0, "maximum": limits.MAX_SEED},
    ("GameRecord", "actions"): {"maxItems": limits.MAX_HISTORY_ACTIONS},
    ("GameRecord", "deal_number"): _DEAL,
    # actions: a seat, a meld id, groups of cards
    ("Meld", "groups"): {**_GROUPS, "minItems": 1},
    ("GoOut", "groups"): _GROUPS,
    ("GoOut", "lay_offs"): {"maxItems": limits.MAX_HAND_CARDS},
    ("LayOff", "meld_id"): _MELD_ID,
    ("SwapJoker", "meld_id"): _MELD_ID,
    ("PlannedLayOff", "meld_id"): _MELD_ID,
    # events
    ("DealStarted", "deal_number"): _DEAL,
    ("DealStarted", "dealer"): _SEAT,
    ("DealStarted", "hand_sizes"): {**_PER_SEAT, "items": _HAND_SIZE},
    ("DealStarted", "stock_size"): {"minimum": 0, "maximum": PACK_CARDS},
    ("UpcardOffered", "buyers"): {"maxItems": limits.MAX_PLAYERS - 1, "items": _SEAT},
    ("Bought", "penalty_cards"): {"minimum": 0, "maximum": limits.MAX_PENALTY_CARDS},
    ("Bought", "penalty"): {"maxItems": limits.MAX_PENALTY_CARDS},
    ("Melded", "melds"): {"minItems": 1, "maxItems": limits.MAX_HAND_CARDS},
    ("LaidOff", "meld_id"): _MELD_ID,
    ("SwappedJoker", "meld_id"): _MELD_ID,
    ("Restocked", "cards"): {"minimum": 0, "maximum": PACK_CARDS},
}


def field_bounds(cls_name: str, field: str) -> dict[str, Any] | None:
    """The bounds of a document field (JSON Schema keywords: minimum, maximum, minItems,
    maxItems, minLength, maxLength, and "items" for each item), or None.

    >>> field_bounds("Discarded", "seat")
    {'minimum': 0, 'maximum': 9}
    """
    if field == "seat" and (cls_name, field) not in _BOUNDS:  # every action and event
        return _SEAT
    if field == "number" and cls_name not in ("GameState", "PlayerView"):  # events
        return _COUNT
    return _BOUNDS.get((cls_name, field))
