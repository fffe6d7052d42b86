"""Save, send and restore a game: what a server embedding shanghai-rummy does.

1. Load a variant from a file (Pagat's Contract Rummy, built from configuration alone).
2. Play random legal moves, sending each seat only its view.
3. Save the game as JSON, load it back (loading validates it), and refuse a forged copy.
4. Keep the game as a small record, and replay it to the identical state.

Run:  python examples/save_and_replay.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import shanghai_rummy as sr

HERE = Path(__file__).resolve().parent


def main() -> None:
    variant = sr.load_variant(HERE / "variants" / "contract-rummy.toml")
    print(f"variant: {variant.name}, {variant.total_deals(4)} deals")
    for number in range(1, variant.total_deals(4) + 1):
        spec = variant.deal(number)
        print(f"  deal {number}: {spec.cards} cards, {spec.requirement.describe()}")

    state = sr.new_game(variant, players=4, seed=2024)
    rng = random.Random(2024)
    while state.deal_number < 3 and state.history_length < 6000 and not state.is_over:
        if state.phase is sr.Phase.DEAL_OVER:
            print(f"deal {state.deal_number} over: points {sr.score(state).points}")
            state = sr.next_deal(state)
        seat = state.to_act
        assert seat is not None
        seen = sr.view(state, seat)  # all a client of this seat is sent
        state = sr.apply(state, rng.choice(seen.legal_actions))

    print(f"after {state.history_length} actions: deal {state.deal_number}, {state.phase.value}")
    print(f"totals so far: {state.totals}")

    seen = sr.view(state, 0)
    print(f"seat 0 sees its hand {' '.join(map(str, seen.hand))}")
    print(f"  and only the sizes of the others: {seen.hand_sizes}, stock {seen.stock_size}")

    saved = sr.to_json(state)
    restored = sr.from_json(saved, sr.GameState)
    assert restored.history == state.history and sr.to_json(restored) == saved
    print(f"saved game: {len(saved)} bytes of JSON; loaded back and validated")

    document = json.loads(saved)
    document["data"]["hands"][1].append("JK")  # a client slips itself a joker
    try:
        sr.from_json(json.dumps(document), sr.GameState)
    except sr.SerializationError as error:
        print(f"forged copy refused: {error}")

    game = sr.record(state)
    text = sr.to_json(game)
    replayed = sr.replay(sr.from_json(text, sr.GameRecord))
    assert sr.to_json(replayed) == saved
    print(f"record: {len(text)} bytes; replayed to the identical state")

    schema = sr.json_schema()
    print(f"JSON Schema: {len(schema['$defs'])} definitions for front-ends to generate types from")


if __name__ == "__main__":
    main()
