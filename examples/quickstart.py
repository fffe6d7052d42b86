"""Quickstart: a whole game of Shanghai Rummy between four bots, told move by move.

Each seat is played by a GreedyBot that sees only its own view of the game; every move is
printed in the library's text notation (``take``, ``meld 8C 8D JK / 4S 5S 6S 7S``,
``layoff 9C 3``, ``discard KH``, ...) and each deal ends with its scores.

Run:  python examples/quickstart.py [seed]
"""

from __future__ import annotations

import sys

import shanghai_rummy as sr


def cards(hand: tuple[sr.Card, ...]) -> str:
    return " ".join(str(card) for card in sr.sort_cards(hand))


def main(seed: int = 2025) -> None:
    variant = sr.get_variant("shanghai")
    state = sr.new_game(variant, players=4, seed=seed)
    bots = [sr.GreedyBot(variant) for _ in range(state.num_players)]
    print(f"{variant.name}: 4 greedy bots, seed {seed}")

    while True:
        contract = variant.deal(state.deal_number).requirement.describe()
        print(f"\nDeal {state.deal_number}: {contract}; upcard {state.upcard}")
        for seat in range(state.num_players):
            print(f"  seat {seat} holds {cards(state.hand(seat))}")

        while state.to_act is not None:  # None once the deal is over
            seat = state.to_act
            action = bots[seat].choose(sr.view(state, seat))  # a bot sees only its view
            state = sr.apply(state, action)  # a new state; the old one is unchanged
            print(f"  seat {seat}: {sr.format_action(action)}")

        result = sr.score(state)
        if result.winner is None:
            print(f"  nobody went out after {state.turns_this_deal} turns")
        else:
            print(f"  seat {result.winner} went out after {state.turns_this_deal} turns")
        for line in result.seats:
            total = state.totals[line.seat]
            print(f"  seat {line.seat}: {line.points:>3} ({line.reason}), total {total}")
        if state.is_over:
            break
        state = sr.next_deal(state)

    outcome = state.outcome
    assert outcome is not None
    winners = " and ".join(f"seat {seat}" for seat in outcome.winners)
    print(f"\nFinal totals {outcome.totals}: {winners} won with {min(outcome.totals)} points")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2025)
