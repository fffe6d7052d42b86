"""The sample documents of the docs (docs/samples/): a view, a state and one event of every
kind, made from seeded games. ``python -m tests.samples`` writes them again; test_schema
checks that the files are what this makes, and that each validates and loads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import shanghai_rummy as sr
from shanghai_rummy.serialization import EVENT_TAGS

from .positions import rummy51_cut_card_deal

SAMPLES = Path(__file__).resolve().parents[1] / "docs" / "samples"
WIDTH = 96


def event_examples() -> dict[type, tuple[sr.GameState, sr.Event]]:
    """One (state, event) for every event kind: the state just after the event. A seeded
    Shanghai game of two greedy and two random bots shows every kind but the cut card's."""
    cut = sr.draw(rummy51_cut_card_deal(), 0, sr.Source.CUT_CARD)
    found: dict[type, tuple[sr.GameState, sr.Event]] = {sr.TookCutCard: (cut, cut.events[-1])}
    bots = [sr.GreedyBot(), sr.RandomBot(seed=0), sr.GreedyBot(), sr.RandomBot(seed=1)]
    state = sr.new_game(sr.get_variant("shanghai"), players=4, seed=0)
    known = -1
    while True:
        for event in state.events:
            if event.number > known:
                found.setdefault(type(event), (state, event))
        known = state.events[-1].number
        if state.is_over:
            return found
        if state.phase is sr.Phase.DEAL_OVER:
            state = sr.next_deal(state)
        else:
            seat = state.to_act
            assert seat is not None
            state = sr.apply(state, bots[seat].choose(sr.view(state, seat)))


def _sample_state() -> sr.GameState:
    """Rummy 51 for two: the starter (who holds the extra card) discarded, and the other seat
    drew from the stock and is to play."""
    state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=8)
    starter = state.turn
    state = sr.discard(state, starter, state.hand(starter)[-1])
    return sr.draw(state, state.turn, sr.Source.STOCK)


def samples() -> dict[str, dict[str, Any]]:
    """Each sample's file name and document."""
    state = _sample_state()
    found = {
        "view.json": sr.to_dict(sr.view(state, state.to_act)),
        "state.json": sr.to_dict(state),
    }
    examples = event_examples()
    for kind, tag in EVENT_TAGS.items():
        _, event = examples[kind]
        found[f"event-{tag}.json"] = sr.to_dict(event)
    return found


def pretty(value: Any, indent: int = 0) -> str:
    """JSON text a person can read: objects one key a line, arrays of plain values filled
    into lines of at most WIDTH characters."""
    pad = " " * (indent + 2)
    if isinstance(value, dict) and value:
        items = [
            f"{pad}{json.dumps(key)}: {pretty(item, indent + 2)}" for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        items = [pad + pretty(item, indent + 2) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    if isinstance(value, list):
        lines: list[str] = []
        line = ""
        for item in (json.dumps(item, ensure_ascii=False) for item in value):
            if line and len(pad) + len(line) + len(item) + 2 > WIDTH:
                lines.append(line + ",")
                line = item
            else:
                line = f"{line}, {item}" if line else item
        if len(lines) == 0:
            return f"[{line}]"
        lines.append(line)
        return "[\n" + "\n".join(pad + text for text in lines) + "\n" + " " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def write() -> None:
    """Write every sample into docs/samples/."""
    SAMPLES.mkdir(exist_ok=True)
    for name, document in samples().items():
        (SAMPLES / name).write_text(pretty(document) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
    sys.stdout.write(f"wrote {len(samples())} samples into {SAMPLES}\n")
