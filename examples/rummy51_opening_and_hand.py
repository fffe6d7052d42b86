"""Rummy 51 in two scenes: an opening worth at least 51 points, and a "hand" (going down and
out in one turn) with the scores it brings.

Run: python examples/rummy51_opening_and_hand.py
"""

from __future__ import annotations

import shanghai_rummy as sr

RUMMY51 = sr.get_variant("rummy51")
cards = sr.parse_cards


def show(state: sr.GameState, seat: int) -> str:
    return " ".join(card.symbol for card in sr.sort_cards(state.hand(seat)))


def opening() -> None:
    print("== An opening worth 51 ==")
    # Two seats, dealer 0: seat 1 starts with 15 cards and begins by discarding, no draw.
    starter = cards("6S 7S 8S 10D 10C 10H 9H 10H JH 2C 3D 5S 7C QS KD")
    other = cards("2H 3C 5D 7D 9C 4C 6H 9H 10S QH KC KH 3S 5C")
    state = sr.deal_from(RUMMY51, hands=[other, starter], upcard=None)
    print("seat 1 holds:", show(state, 1))
    try:
        sr.meld(state, 1, [cards("6S 7S 8S"), cards("9H 10H JH")])
    except sr.ContractNotMetError as refused:
        print("6♠7♠8♠ (21) + 9♥10♥J♥ (29) refused:", refused)
    groups = [cards("6S 7S 8S"), cards("10D 10C 10H")]
    state = sr.meld(state, 1, groups)
    print("opened with 6♠7♠8♠ (21) + 10♦10♣10♥ (30) = 51:")
    for table_meld in state.table:
        print("   ", table_meld)
    state = sr.discard(state, 1, sr.Card.parse("KD"))
    print("seat 1 discards K♦ and holds:", show(state, 1))


def hand_win() -> None:
    print()
    print("== A hand: everything down in one turn ==")
    starter = cards("AH 2H 3H 4S 5S 6S 7S 8S 8C 8D 8H JC QC KC 2D")
    other = cards("2C 3C 5D 7D 9D 4H 6H 9H 10H QS KD KH 3D 5C")
    state = sr.deal_from(RUMMY51, hands=[other, starter], upcard=None)
    print("seat 1 holds:", show(state, 1))
    groups = [cards("AH 2H 3H"), cards("4S 5S 6S 7S 8S"), cards("8C 8D 8H"), cards("JC QC KC")]
    state = sr.go_out(state, 1, groups, discard=sr.Card.parse("2D"))
    result = sr.score(state)
    for seat_score in result.seats:
        print(f"  seat {seat_score.seat}: {seat_score.points:+4d}  ({seat_score.reason})")
    assert result.points == (200, -80)


if __name__ == "__main__":
    opening()
    hand_win()
