"""Benchmark of the boundary: the worst documents the maxima allow, loaded and checked.

Documents (each a valid game state the loaders accept):

- ``largest_hand_open_ended``: Rummy 51, the starter's 15 cards (limits.MAX_OPEN_ENDED_HAND_CARDS)
  with all 4 jokers, a run of hearts that opens in thousands of ways;
- ``largest_hand``: shanghai-wiki, 6 seats (3 decks, 6 jokers), deal 10, a seat holding 24
  cards (limits.MAX_HAND_CARDS: 11 dealt, 1 drawn, 4 buys of 3) with all 6 jokers, reached
  by play from a stacked deal;
- ``most_seats_most_jokers``: a house rule at limits.MAX_PLAYERS seats with limits.MAX_DECKS
  decks and limits.MAX_JOKERS jokers, the seat to act holding 12 cards, all 8 jokers among them;
- ``longest_history``: shanghai at 6 seats, every deal played to its turn limit (1000), every
  upcard offered to every seat: the longest history the presets allow;
- ``owing_swapped_joker``: the ``largest_hand`` position forged to owe all 6 of its jokers
  to its going down (``turn_state.jokers_to_meld``), as a client could send it: its history
  refuses it, so it is loaded without the history check (``check_history=False``), which
  searches for a way holding the jokers.

``validate_cold`` and ``legal_actions_cold`` are calls each after
:func:`shanghai_rummy.caches.clear_caches` (every memo forgotten, as in a fresh process):
the other figures' repeated calls reuse the memos of the first. Each time is the best of the
calls, in wall time (``ms``) and in CPU time (``cpu_ms``, steadier on a shared machine).
``legal_actions`` lists a new state equal to the document's at each call (read from it
again, as a server reads each request), so it shows the memos of the hand at work, not
the listing remembered for one state object.

For each: the document's size, and the time (best of ``--repeats``, wall and CPU) and peak
traced memory of ``from_json`` (without its history check), ``validate`` and
``legal_actions``; where the state's history replays (``history_replays``: every document
but the forged one), ``from_json_with_history``, the default, which replays the seed (or
the stacked deal) and the history; for the longest history, the history check's cost per
action, the cost of reading per action, and the same document with its history in the older
form (every action an object, as versions before the short forms wrote it: ``older_form``,
its size and ``from_json``). ``legal_actions`` lists going down one group at a time, which
with many jokers can still run to thousands of groups, so it is stopped after
``--listing-timeout`` seconds and reported as over it.

    python benchmarks/safe_loading.py [--repeats N] [--listing-timeout S] [--quick]
"""

from __future__ import annotations

import argparse
import json
import platform
import signal
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import attrs

import shanghai_rummy as sr
from shanghai_rummy import limits
from shanghai_rummy.caches import clear_caches


class _TooLong(Exception):
    pass


def _measure(
    call: Callable[[], object],
    repeats: int,
    timeout: float | None = None,
    *,
    cold: bool = False,
) -> dict[str, Any]:
    """Best wall time and CPU time (ms) over ``repeats`` calls, and the peak traced memory
    (MB) of one more; ``cold``: every memo forgotten before each (as in a fresh process).
    A call over ``timeout`` seconds (20 times it under tracemalloc) stops the measure."""

    def alarm(*_: object) -> None:
        raise _TooLong

    if timeout is not None:
        signal.signal(signal.SIGALRM, alarm)
    best = best_cpu = float("inf")
    try:
        for _ in range(repeats):
            if cold:
                clear_caches()
            if timeout is not None:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
            signal.setitimer(signal.ITIMER_REAL, 0)
        if cold:
            clear_caches()
        tracemalloc.start()
        if timeout is not None:
            signal.setitimer(signal.ITIMER_REAL, timeout * 20)
        call()
        signal.setitimer(signal.ITIMER_REAL, 0)
        peak = tracemalloc.get_traced_memory()[1]
    except _TooLong:
        signal.setitimer(signal.ITIMER_REAL, 0)
        tracemalloc.stop()
        return {"ms": None, "over_seconds": timeout, "peak_mb": None}
    tracemalloc.stop()
    return {
        "ms": round(best * 1000, 3),
        "cpu_ms": round(best_cpu * 1000, 3),
        "peak_mb": round(peak / 2**20, 2),
    }


def _stacked(variant: sr.Variant, players: int, seat_hand: str, deal_number: int) -> sr.GameState:
    """A deal with the seat to act (seat 1) holding ``seat_hand`` after its draw, the other
    seats two cards each (by play: the deal, then the draws and offers before it)."""
    hand = list(sr.parse_cards(seat_hand))
    pack = variant.pack_size(players)
    rest = Counter(sr.make_pack(pack.decks, pack.jokers))
    rest.subtract(hand)
    spare = sorted(rest.elements(), key=str)
    others = [spare[2 * index : 2 * index + 2] for index in range(players)]
    dealt = min(len(hand), variant.deal(deal_number).cards + variant.drawing.starter_extra_card)
    hands = [others[seat] if seat != 1 else hand[:dealt] for seat in range(players)]
    state = sr.deal_from(
        variant,
        hands=hands,
        upcard=spare[2 * players] if variant.drawing.upcard_at_start else None,
        stock_top=hand[dealt:],
        deal_number=deal_number,
    )
    while state.phase is not sr.Phase.PLAY:
        actions = sr.legal_actions(state)
        state = sr.apply(state, actions[-1] if state.phase is sr.Phase.BUY else actions[0])
    assert sorted(state.hand(1), key=str) == sorted(hand, key=str)
    sr.validate(state)
    return state


def _bought_up(variant: sr.Variant, players: int, deal_number: int) -> sr.GameState:
    """Seat 1 holding the most cards a hand can reach, by play: 11 dealt (6 jokers and
    3H-7H), four buys of 3 cards (the upcard 8H, the discards 9H 10H JH of seats 2 to 4,
    and QH KH 3S-8S from the stock) and its draw (9S): 24 cards, limits.MAX_HAND_CARDS."""
    seat1 = sr.parse_cards("JK JK JK JK JK JK 3H 4H 5H 6H 7H")
    discards = dict(zip((2, 3, 4), sr.parse_cards("9H 10H JH"), strict=True))
    bought = sr.parse_cards("QH KH 3S 4S 5S 6S 7S 8S")
    upcard, last = sr.Card.parse("8H"), sr.Card.parse("9S")
    pack = variant.pack_size(players)
    rest = Counter(sr.make_pack(pack.decks, pack.jokers))
    rest.subtract([*seat1, *discards.values(), *bought, upcard, last])
    spare = sorted((card for card in rest.elements() if not card.is_joker), key=str)
    hands: list[tuple[sr.Card, ...]] = []
    for seat in range(players):
        if seat == 1:
            hands.append(seat1)
        else:  # ten spare cards, then the card it will discard (a spare one for most)
            hand = [spare.pop() for _ in range(10)]
            hands.append((*hand, discards[seat] if seat in discards else spare.pop()))
    filler = [spare.pop() for _ in range(7)]
    # the stock in the order it is taken: each buy's two penalty cards come before the draw
    # of the seat in turn; seat 1 draws and discards in its first turn, and draws last
    stock = [*bought[:2], *filler[:3], *bought[2:4], filler[3], *bought[4:6], filler[4]]
    stock += [*bought[6:], filler[5], filler[6], last]
    state = sr.deal_from(
        variant,
        hands=hands,
        upcard=upcard,
        stock_top=stock,
        deal_number=deal_number,
        dealer=players - 1,
    )
    while not (state.to_act == 1 and state.phase is sr.Phase.PLAY and state.seats[1].buys == 4):
        seat = state.to_act
        assert seat is not None
        if state.phase is sr.Phase.BUY:
            buys = seat == 1 and state.turn in (0, 3, 4, 5) and state.seats[1].buys < 4
            state = sr.buy(state, 1) if buys else sr.pass_buy(state, seat)
        elif state.phase is sr.Phase.DRAW:
            state = sr.draw(state, seat, sr.Source.STOCK)
        else:
            hand = state.hand(seat)
            state = sr.discard(state, seat, discards.get(seat, hand[-1] if seat == 1 else hand[0]))
    return state


def _longest_history(quick: bool) -> sr.GameState:
    """Shanghai at 6 seats with nobody ever going down: every upcard offered to every seat
    and passed, every deal played to the turn limit."""
    variant = sr.get_variant("shanghai")
    if quick:
        variant = attrs.evolve(
            variant, id="short", stock=sr.StockRules(turn_limit=50), deal_count=2
        )
    state = sr.new_game(variant, players=6, seed=1)
    while state.phase is not sr.Phase.GAME_OVER:
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
            continue
        actions = sr.legal_actions(state)
        quiet = [a for a in actions if isinstance(a, (sr.PassBuy, sr.Discard))]
        draws = [a for a in actions if isinstance(a, sr.Draw) and a.source is sr.Source.STOCK]
        state = sr.apply(state, (quiet or draws or list(actions))[0])
    return state


def _documents(quick: bool) -> dict[str, sr.GameState]:
    rummy51 = sr.get_variant("rummy51")
    wiki = sr.get_variant("shanghai-wiki")
    house = attrs.evolve(
        sr.get_variant("shanghai"),
        id="most-seats",
        max_players=limits.MAX_PLAYERS,
        packs=(
            sr.PackSize(
                min_players=2,
                max_players=limits.MAX_PLAYERS,
                decks=limits.MAX_DECKS,
                jokers=limits.MAX_JOKERS,
            ),
        ),
    )
    hearts = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    largest = _bought_up(wiki, 6, 10)
    owing = attrs.evolve(largest, turn_state=attrs.evolve(largest.turn_state, jokers_to_meld=6))
    return {
        "largest_hand_open_ended": _stacked(rummy51, 2, "JK JK JK JK " + hearts, 1),
        "largest_hand": largest,
        "most_seats_most_jokers": _stacked(
            house, limits.MAX_PLAYERS, "JK JK JK JK JK JK JK JK 8C 8D 8H 8S", 1
        ),
        "longest_history": _longest_history(quick),
        "owing_swapped_joker": owing,
    }


def _older_form(state: sr.GameState, repeats: int) -> dict[str, Any]:
    """The size and ``from_json`` of ``state``'s document with every history item an
    action object (the form before the short forms), which still loads."""
    document = sr.to_dict(state)
    document["data"]["history"] = [sr.to_dict(action)["data"] for action in state.history]
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    assert sr.from_json(text, sr.GameState, check_history=False) == state
    return {
        "bytes": len(text.encode()),
        "from_json": _measure(
            lambda: sr.from_json(text, sr.GameState, check_history=False), repeats
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--listing-timeout", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="a short history, one repeat")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "documents": {},
    }
    for name, state in _documents(args.quick).items():
        text = sr.to_json(state)
        try:
            checked = sr.from_json(text, sr.GameState) == state
        except sr.SerializationError:  # a position whose buys were added by hand
            checked = False
        assert sr.from_json(text, sr.GameState, check_history=False) == state
        figures: dict[str, Any] = {
            "bytes": len(text.encode()),
            "seats": state.num_players,
            "hand_of_seat_to_act": None if state.to_act is None else len(state.hand(state.to_act)),
            "history_actions": len(state.history),
            "history_replays": checked,
            "from_json": _measure(
                lambda text=text: sr.from_json(text, sr.GameState, check_history=False), repeats
            ),
            "validate": _measure(lambda state=state: sr.validate(state), repeats),
        }
        if checked:  # the history check: the seed (or stacked deal) and history replayed
            figures["from_json_with_history"] = _measure(
                lambda text=text: sr.from_json(text, sr.GameState), repeats
            )

        def listing(state: sr.GameState = state) -> int:
            return len(sr.legal_actions(state))

        # each warm call lists a state equal to the document's but new (as a server gets
        # one per request): the memos of the hand are warm, the state's own listing is not
        copies = iter(
            [sr.from_json(text, sr.GameState, check_history=False) for _ in range(repeats + 1)]
        )

        def fresh_listing(copies: Iterator[sr.GameState] = copies) -> int:
            return len(sr.legal_actions(next(copies)))

        figures["legal_actions"] = _measure(fresh_listing, repeats, args.listing_timeout)
        if figures["legal_actions"]["ms"] is not None:
            figures["legal_actions"]["listed"] = listing()
        cold = min(repeats, 3)
        figures["validate_cold"] = _measure(lambda state=state: sr.validate(state), cold, cold=True)
        figures["legal_actions_cold"] = _measure(listing, cold, args.listing_timeout, cold=True)
        actions = len(state.history)
        if name == "longest_history":
            for unit, key in (
                ("ms", "history_check_us_per_action"),
                ("cpu_ms", "history_check_cpu_us_per_action"),
            ):
                spent = figures["from_json_with_history"][unit] - figures["from_json"][unit]
                figures[key] = round(spent * 1000 / actions, 3)
            figures["reading_cpu_us_per_action"] = round(
                figures["from_json"]["cpu_ms"] * 1000 / actions, 3
            )
            figures["older_form"] = _older_form(state, repeats)
        report["documents"][name] = figures
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
