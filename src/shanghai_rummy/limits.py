"""The documented maxima: every size a variant, a document or an argument may set.

A :class:`~shanghai_rummy.Variant` over one of these is refused with a
:class:`~shanghai_rummy.VariantError` that names the field and the limit, before any work
that grows with the value; a document or an argument over one is refused with the error of
its kind (:class:`~shanghai_rummy.SerializationError`, ...). They are chosen so that every
state an accepted variant can reach stays within what the solver and the listing of legal
actions handle in bounded time and memory, while every preset and every house rule of the
sources fits with room to spare.

The going-down maxima (:data:`MAX_HAND_CARDS`, :data:`MAX_OPEN_ENDED_HAND_CARDS`,
:data:`MIN_GROUP_CARDS`, :data:`MAX_CONTRACT_GROUPS`) bound the number of ways a hand can go
down, which the listing of legal actions enumerates today; they may be relaxed once going
down is listed one group at a time.

>>> import shanghai_rummy as sr
>>> from shanghai_rummy import limits
>>> limits.MAX_PLAYERS, limits.MAX_DECKS, limits.MAX_JOKERS
(10, 4, 8)
>>> sr.load_variant({"base": "shanghai", "max_players": 10**9})
Traceback (most recent call last):
...
shanghai_rummy.errors.VariantError: Variant.max_players: must be an integer from 2 to 10 ...
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "MAX_BUYS_PER_DEAL",
    "MAX_CARDS_DEALT",
    "MAX_CARD_VALUE",
    "MAX_CONTRACT_GROUPS",
    "MAX_DEALS",
    "MAX_DECKS",
    "MAX_DOCUMENT_BYTES",
    "MAX_GROUP_CARDS",
    "MAX_HAND_CARDS",
    "MAX_HISTORY_ACTIONS",
    "MAX_JOKERS",
    "MAX_MULTIPLIER",
    "MAX_OPEN_ENDED_HAND_CARDS",
    "MAX_PENALTY_CARDS",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_SEED",
    "MAX_TEXT_LENGTH",
    "MAX_TURN_LIMIT",
    "MIN_GROUP_CARDS",
]

# --- seats and the pack ---------------------------------------------------------------------

MAX_PLAYERS: Final = 10
"""The most seats a variant may seat (``max_players``, and every pack's range)."""

MAX_DECKS: Final = 4
"""The most standard 52-card decks in a pack (``packs[i].decks``)."""

MAX_JOKERS: Final = 8
"""The most jokers in a pack (``packs[i].jokers``)."""

# --- hands --------------------------------------------------------------------------------

MAX_CARDS_DEALT: Final = 15
"""The most cards dealt to each seat in one deal (``deals[i].cards``)."""

MAX_HAND_CARDS: Final = 24
"""The most cards a hand may ever hold under the variant: the cards dealt, the starter's
extra card, the card drawn in turn and every buy with its penalty cards
(``deals[i].cards + 2 + buying limit x (1 + buying.penalty_cards)`` at most). The Shanghai
presets reach 24 in deals 9 and 10 (11 dealt, 1 drawn, 4 buys of 3 cards)."""

MAX_OPEN_ENDED_HAND_CARDS: Final = 15
"""The most cards a hand may hold where a going down may hold any number of groups (an
:class:`~shanghai_rummy.Opening`, or a contract with ``going_down.exact_meld_count`` off):
Rummy 51's 15. Every extra group multiplies the ways to go down."""

MAX_BUYS_PER_DEAL: Final = 6
"""The most buys a seat may make in one deal (each ``buying.limits`` entry's maximum)."""

MAX_PENALTY_CARDS: Final = 3
"""The most penalty cards a buy takes from the stock (``buying.penalty_cards``)."""

# --- groups and contracts -----------------------------------------------------------------

MIN_GROUP_CARDS: Final = 3
"""The fewest cards in a set or a run (``melds.set_min``, ``melds.run_min``, every contract
size): groups of two would let nearly any hand go down in thousands of ways."""

MAX_GROUP_CARDS: Final = 24
"""The largest size a contract may ask for or ``melds.set_max`` may set (runs stop at 14 by
the ace rules; a set can hold every copy of a rank and every joker of the largest pack)."""

MAX_CONTRACT_GROUPS: Final = 6
"""The most groups one contract may ask for (the presets ask for 4 at most, in deal 9)."""

# --- a game ---------------------------------------------------------------------------------

MAX_DEALS: Final = 20
"""The most deals in a game: the length of ``deals``, ``deal_count``, and the deal numbers
that ``buying.limits`` may name. A game of one deal per seat has at most :data:`MAX_PLAYERS`."""

MAX_TURN_LIMIT: Final = 1000
"""The largest ``stock.turn_limit``; a deal always ends (there is no "no limit")."""

MAX_HISTORY_ACTIONS: Final = 2_000_000
"""The most actions in a state's history or a record: more than any game under the maxima
can hold (every deal at its turn limit, every turn with its buys offered to every seat)."""

# --- values ---------------------------------------------------------------------------------

MAX_CARD_VALUE: Final = 1000
"""The largest card value (in ``scoring.values`` and an opening's values), either sign."""

MAX_POINTS: Final = 100_000
"""The largest score a variant may set (``scoring.going_out``, ``one_turn_out``,
``never_down_penalty``, ``cut_card_hand``, an opening's ``min_points``), either sign."""

MAX_MULTIPLIER: Final = 10
"""The largest ``scoring.others_multiplier_after_one_turn_out``."""

MAX_TEXT_LENGTH: Final = 1000
"""The longest text a variant may hold (``id``, ``name``, ``source``, in characters)."""

# --- arguments and documents --------------------------------------------------------------

MAX_SEED: Final = 2**64 - 1
"""Seeds are integers from 0 to this (``new_game``, ``deal_from``, a record's seed)."""

MAX_DOCUMENT_BYTES: Final = 16 * 1024 * 1024
"""The default size limit of :func:`~shanghai_rummy.from_json` (its ``max_bytes``): a
document over it is refused before it is parsed. A server may pass a smaller one."""
