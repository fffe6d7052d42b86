"""Starting games and deals: shuffling from a seed, dealing, stacked deals, re-stocking.

Every shuffle derives its own :class:`random.Random` from ``(seed, deal number, re-stock
count)``, so the same seed always gives the same game and no global RNG is touched.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .._arguments import check_seed, expect, refuses_bad_arguments
from ..cards import Card, card_error, checked_cards, make_pack, refuse_text
from ..errors import RummyError, WrongPhaseError
from ..event_log import deal_chain
from ..events import EventNode
from ..levels import cards_dealt, first_levels, next_levels
from ..scoring import DealResult
from ..state import GameState, History, Phase, SeatState, StackedDeal, TurnState
from ..variants import FirstDealer, Progression, Variant
from .turns import begin_turn

__all__ = ["first_state", "new_game", "next_deal", "score", "stacked_deal"]


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random("/".join(str(part) for part in (seed, *parts)))


def _shuffled(cards: Sequence[Card], seed: int, *parts: object) -> tuple[Card, ...]:
    deck = list(cards)
    _rng(seed, *parts).shuffle(deck)
    return tuple(deck)


def first_dealer(variant: Variant, players: int, seed: int) -> int:
    """The seat that deals first: seat 0, or the lowest cut (ties: the earlier seat; a
    joker cut counts high)."""
    if variant.first_dealer is FirstDealer.SEAT_ZERO:
        return 0
    pack = variant.pack_size(players)
    cut = _shuffled(make_pack(pack.decks, pack.jokers), seed, "cut")[:players]
    ranks = [99 if card.rank is None else int(card.rank) for card in cut]
    return ranks.index(min(ranks))


def new_game(variant: Variant, players: int, seed: int = 0) -> GameState:
    """A new game with deal 1 dealt, ready for the first decision.

    >>> import shanghai_rummy as sr
    >>> state = sr.new_game(sr.get_variant("rummy51"), players=3, seed=1)
    >>> [len(state.hand(seat)) for seat in range(3)], state.phase, state.upcard
    ([14, 15, 14], <Phase.PLAY: 'play'>, None)
    """
    expect(variant, Variant, "new_game", "variant")
    check_seed(seed, "new_game")
    variant.pack_size(players)
    dealer = first_dealer(variant, players, seed)
    levels = first_levels(variant, players)
    return _deal(variant, players, seed, 1, dealer, (0,) * players, (), None, levels=levels)


def _deal(
    variant: Variant,
    players: int,
    seed: int,
    deal_number: int,
    dealer: int,
    totals: tuple[int, ...],
    results: tuple[DealResult, ...],
    log: History | None,
    events: EventNode | None = None,
    stacked: StackedDeal | None = None,
    levels: tuple[int, ...] = (),
) -> GameState:
    pack = variant.pack_size(players, deal_number)
    deck = _shuffled(make_pack(pack.decks, pack.jokers), seed, deal_number, 0)
    order = [(dealer + 1 + offset) % players for offset in range(players)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for _ in range(cards_dealt(variant, deal_number, levels)):
        for seat in order:
            hands[seat].append(deck[position])
            position += 1
    if variant.drawing.starter_extra_card:
        hands[order[0]].append(deck[position])
        position += 1
    pile: tuple[Card, ...] = ()
    if variant.drawing.upcard_at_start:
        pile = (deck[position],)
        position += 1
    return _start(
        variant,
        seed,
        dealer,
        deal_number,
        tuple(map(tuple, hands)),
        deck[position:],
        pile,
        totals,
        results,
        log,
        events,
        stacked,
        levels,
    )


def _start(
    variant: Variant,
    seed: int,
    dealer: int,
    deal_number: int,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    pile: tuple[Card, ...],
    totals: tuple[int, ...],
    results: tuple[DealResult, ...],
    log: History | None,
    events: EventNode | None = None,
    stacked: StackedDeal | None = None,
    levels: tuple[int, ...] = (),
) -> GameState:
    players = len(hands)
    starter = (dealer + 1) % players
    cut_card = stock[-1] if stock and variant.scoring.cut_card_hand is not None else None
    state = GameState(
        variant=variant,
        seed=seed,
        num_players=players,
        deal_number=deal_number,
        dealer=dealer,
        phase=Phase.DRAW,
        to_act=starter,
        turn=starter,
        hands=hands,
        stock=stock,
        discard_pile=pile,
        upcard_live=bool(pile) and not variant.jokers.dead_on_the_pile(pile[-1]),
        table=(),
        seats=(SeatState(),) * players,
        turn_state=TurnState(),
        next_meld_id=1,
        restocks=0,
        turns_this_deal=0,
        totals=totals,
        results=results,
        log=log,
        cut_card=cut_card,
        event_log=deal_chain(
            events, deal_number, dealer, hands, pile[-1] if pile else None, stock, cut_card
        ),
        stacked=stacked,
        levels=levels,
    )
    return begin_turn(state, starter, None, first=True)


def next_deal_state(state: GameState) -> GameState:
    """The next deal of the game, dealt (the caller checked the phase)."""
    return _deal(
        state.variant,
        state.num_players,
        state.seed,
        state.deal_number + 1,
        (state.dealer + 1) % state.num_players,
        state.totals,
        state.results,
        state.log,
        state.event_log,
        state.stacked,
        next_levels(state),
    )


@refuses_bad_arguments
def stacked_deal(
    variant: Variant,
    hands: Sequence[Sequence[Card]],
    upcard: Card | None = None,
    stock_top: Sequence[Card] = (),
    seed: int = 0,
    deal_number: int = 1,
    dealer: int = 0,
    levels: Sequence[int] | None = None,
) -> GameState:
    """The stacked deal :func:`~shanghai_rummy.deal_from` makes, before it checks the
    deal's invariants."""
    expect(variant, Variant, "deal_from", "variant")
    check_seed(seed, "deal_from")
    refuse_text(hands)
    try:
        held = tuple(checked_cards(hand) for hand in hands)
    except TypeError:  # not a collection
        raise RummyError(f"hands must be a sequence of hands of cards, got {hands!r}") from None
    stock = checked_cards(stock_top)
    if upcard is not None and type(upcard) is not Card:
        raise card_error(upcard)
    players = len(held)
    variant.pack_size(players)  # VariantError where the variant is not for that many
    for seat, hand in enumerate(held):
        if not hand:
            raise RummyError(f"hands[{seat}]: every seat needs a card to play the deal")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RummyError(f"dealer must be a seat from 0 to {players - 1}, got {dealer!r}")
    total_deals = variant.total_deals(players)
    if type(deal_number) is not int or not 1 <= deal_number <= total_deals:
        raise RummyError(f"deal_number must be from 1 to {total_deals}, got {deal_number!r}")
    on = _stacked_levels(variant, players, deal_number, levels)
    pack = variant.pack_size(players, deal_number)
    placed = [card for hand in held for card in hand] + list(stock)
    if upcard is not None:
        placed.append(upcard)
    remaining = Counter(make_pack(pack.decks, pack.jokers))
    remaining.subtract(placed)
    short = sorted(str(card) for card, count in remaining.items() if count < 0)
    if short:
        raise RummyError(
            f"more cards than the pack holds ({pack.cards} cards: {pack.decks} decks and "
            f"{pack.jokers} jokers): too many {', '.join(short)}"
        )
    rest = _shuffled(sorted(remaining.elements(), key=str), seed, deal_number, "stacked")
    stacked = StackedDeal(deal_number, dealer, held, upcard, stock + rest, on)
    state = _start(
        variant,
        seed,
        dealer,
        deal_number,
        held,
        stock + rest,
        () if upcard is None else (upcard,),
        (0,) * players,
        (),
        None,
        stacked=stacked,
        levels=on,
    )
    return state


def _stacked_levels(
    variant: Variant, players: int, deal_number: int, levels: Sequence[int] | None
) -> tuple[int, ...]:
    """The levels of a stacked deal: as given (None: every seat on level 1), under
    progressive contracts only, each from 1 to the levels there are and the deal number."""
    if variant.progression is not Progression.PER_SEAT:
        if levels is not None and len(levels) != 0:
            raise RummyError(
                "levels: only a variant with progressive contracts "
                "(variant.progression=per_seat) has levels"
            )
        return ()
    if levels is None:
        return first_levels(variant, players)
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence):
        raise RummyError(f"levels must be a sequence of levels, one per seat, got {levels!r}")
    top = min(len(variant.deals), deal_number)
    if len(levels) != players or any(
        type(level) is not int or not 1 <= level <= top for level in levels
    ):
        raise RummyError(
            f"levels must give each of the {players} seats a level from 1 to {top} (the levels "
            f"there are, and no more than the deal number), got {list(levels)!r}"
        )
    return tuple(levels)


def first_state(
    variant: Variant, players: int, seed: int, stacked: StackedDeal | None
) -> GameState:
    """The first state of a game: deal 1 dealt from ``seed``, or the ``stacked`` deal a game
    from :func:`~shanghai_rummy.deal_from` began with (later deals are dealt from the seed).
    Replays of a state's history and of a record both start here (through
    :func:`.validation.checked_first_state`)."""
    if stacked is None:
        return new_game(variant, players=players, seed=seed)
    return stacked_deal(
        variant,
        hands=stacked.hands,
        upcard=stacked.upcard,
        stock_top=stacked.stock,
        seed=seed,
        deal_number=stacked.deal_number,
        dealer=stacked.dealer,
        levels=stacked.levels or None,
    )


def score(state: GameState) -> DealResult:
    """The result of the deal that just ended: points per seat and why. Totals include it."""
    if state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER) or not state.results:
        raise WrongPhaseError(f"no deal to score: the deal is still in phase {state.phase.value!r}")
    return state.results[-1]


def next_deal(state: GameState) -> GameState:
    """Deal the next deal (the dealer moves one seat left, the next contract applies)."""
    if state.phase is Phase.GAME_OVER:
        raise WrongPhaseError("the game is over: there is no next deal")
    if state.phase is not Phase.DEAL_OVER:
        raise WrongPhaseError(
            f"the deal is still in progress (phase {state.phase.value!r}): finish it first"
        )
    return next_deal_state(state)
