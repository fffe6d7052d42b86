"""The JSON-lines protocol (issue 25): every operation, every refusal, and a whole game through
``shanghai-rummy serve --stdio`` in a child process."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import shanghai_rummy as sr
from shanghai_rummy import protocol as protocol_module
from shanghai_rummy.commands.stdio import serve_stdio
from shanghai_rummy.protocol import ERROR_CODES, Protocol

from .games import assert_schema_valid


def _ok(reply: dict[str, Any]) -> Any:
    assert reply["ok"] is True, reply
    return reply["result"]


def _refused(reply: dict[str, Any], code: str, path: str | None = None) -> str:
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code and code in ERROR_CODES
    assert reply["error"]["path"] == path
    message: str = reply["error"]["message"]
    return message


def _table(protocol: Protocol, **fields: Any) -> str:
    request = {"op": "create", "variant": "shanghai", "seats": ["person", "person"], **fields}
    name: str = _ok(protocol.handle(request))["table"]
    return name


def test_create_view_legal_act_events_record() -> None:
    protocol = Protocol()
    created = _ok(
        protocol.handle(
            {
                "id": "a",
                "op": "create",
                "variant": "rummy51",
                "seats": ["person", "greedy"],
                "seed": 3,
            }
        )
    )
    name, seat = created["table"], created["to_act"]
    assert seat == 0 and created["event_count"] > 1  # the bot seat started the deal
    view = _ok(protocol.handle({"op": "view", "table": name, "seat": 0}))
    assert_schema_valid(view)
    assert sr.from_dict(view, sr.PlayerView) == protocol.tables[name].view(0)
    assert view["data"]["labels"] == [
        entry["label"] for entry in _ok(protocol.handle({"op": "legal", "table": name, "seat": 0}))
    ]
    spectator = _ok(protocol.handle({"op": "view", "table": name, "seat": None}))
    assert spectator["data"]["seat"] is None and spectator["data"]["hand"] == []
    done = _ok(protocol.handle({"op": "act", "table": name, "seat": 0, "action": "draw"}))
    assert done["events"][0]["type"] == "drew" and done["events"][0]["card"] is not None
    events = _ok(protocol.handle({"op": "events", "table": name, "seat": 1, "since": 0}))
    assert events["event_count"] == done["event_count"]
    assert [e for e in events["events"] if e["type"] == "drew" and e["seat"] == 0][-1][
        "card"
    ] is None
    record = _ok(protocol.handle({"op": "record", "table": name}))
    assert_schema_valid(record)
    assert sr.replay(sr.from_dict(record, sr.GameRecord)) == protocol.tables[name].state
    resumed = _ok(
        protocol.handle({"op": "resume", "record": record, "seats": ["person", "greedy"]})
    )
    assert protocol.tables[resumed["table"]].state == protocol.tables[name].state
    assert _ok(protocol.handle({"op": "close", "table": name})) == {"closed": name}
    _refused(protocol.handle({"op": "view", "table": name, "seat": 0}), "unknown_table", "$.table")


def test_actions_as_data_document_or_text() -> None:
    protocol = Protocol()
    name = _table(protocol, seed=2)
    seat = protocol.tables[name].to_act
    legal = _ok(protocol.handle({"op": "legal", "table": name, "seat": seat}))
    take = next(entry for entry in legal if entry["label"] == "take")
    _ok(protocol.handle({"op": "act", "table": name, "seat": seat, "action": take["action"]}))
    card = protocol.tables[name].state.hand(seat)[0]
    document = sr.to_dict(sr.Discard(seat, card))
    done = _ok(protocol.handle({"op": "act", "table": name, "seat": seat, "action": document}))
    assert done["events"][0] == {"type": "discarded", "number": 2, "seat": seat, "card": str(card)}


def test_undo_set_seat_next_deal_and_schema() -> None:
    protocol = Protocol()
    name = _table(protocol, allow_undo=True, auto_next_deal=False)
    seat = protocol.tables[name].to_act
    state = protocol.tables[name].state
    _ok(protocol.handle({"op": "act", "table": name, "seat": seat, "action": "take"}))
    undone = _ok(protocol.handle({"op": "undo", "table": name, "seat": seat}))
    assert undone["events"] == [] and protocol.tables[name].state == state
    played = _ok(
        protocol.handle({"op": "set_seat", "table": name, "seat": seat, "player": "greedy"})
    )
    assert played["events"]
    _refused(protocol.handle({"op": "next_deal", "table": name}), "wrong_phase", "$.action")
    _refused(
        protocol.handle({"op": "set_seat", "table": name, "seat": 0, "player": "genius"}),
        "bad_request",
        "$.player",
    )
    assert _ok(protocol.handle({"op": "schema"})) == sr.json_schema()


def test_variant_documents_and_bad_variants() -> None:
    protocol = Protocol()
    document = sr.to_dict(sr.get_variant("rummy51"))
    _ok(protocol.handle({"op": "create", "variant": document, "seats": ["person", "person"]}))
    mapping = sr.variant_to_dict(sr.get_variant("shanghai"))
    _ok(protocol.handle({"op": "create", "variant": mapping, "seats": ["person", "person"]}))
    _refused(
        protocol.handle({"op": "create", "variant": "gin", "seats": ["person"] * 2}),
        "bad_variant",
        "$.variant",
    )
    document["data"]["decks"] = 0
    reply = protocol.handle({"op": "create", "variant": document, "seats": ["person"] * 2})
    assert reply["error"]["code"] == "bad_document"
    assert reply["error"]["path"].startswith("$.variant.data")
    _refused(
        protocol.handle({"op": "create", "variant": 5, "seats": []}), "bad_request", "$.variant"
    )


@pytest.mark.parametrize(
    ("request_", "code", "path"),
    [
        ("{not json", "bad_request", None),
        ("[1, 2]", "bad_request", None),
        ({"op": 3}, "bad_request", "$.op"),
        ({"op": "dance"}, "unknown_op", "$.op"),
        ({"op": "view", "table": "t9", "seat": 0}, "unknown_table", "$.table"),
        ({"op": "view", "table": 1, "seat": 0}, "bad_request", "$.table"),
        ({"op": "view", "table": "t1"}, "bad_request", "$.seat"),
        ({"op": "view", "table": "t1", "seat": 5}, "bad_request", "$.seat"),
        ({"op": "view", "table": "t1", "seat": 0, "colour": "red"}, "bad_request", "$.colour"),
        ({"op": "act", "table": "t1", "seat": 0, "action": "draw"}, "not_your_turn", "$.seat"),
        ({"op": "act", "table": "t1", "seat": 1, "action": "fly"}, "bad_notation", "$.action"),
        ({"op": "act", "table": "t1", "seat": 1, "action": "buy"}, "illegal_move", "$.action"),
        ({"op": "act", "table": "t1", "seat": 1, "action": 7}, "bad_request", "$.action"),
        (
            {
                "op": "act",
                "table": "t1",
                "seat": 1,
                "action": {"type": "discard", "seat": 1, "card": "11H"},
            },
            "bad_document",
            "$.action.card",
        ),
        (
            {
                "op": "act",
                "table": "t1",
                "seat": 1,
                "action": {
                    "format": "shanghai-rummy",
                    "version": 1,
                    "type": "action",
                    "data": {"type": "discard", "seat": 1, "card": "11H"},
                },
            },
            "bad_document",
            "$.action.data.card",
        ),
        ({"op": "events", "table": "t1", "seat": 0, "since": -2}, "bad_request", "$.since"),
        (
            {"op": "create", "variant": "shanghai", "seats": ["person", "wizard"]},
            "bad_request",
            "$.seats[1]",
        ),
        ({"op": "create", "variant": "shanghai", "seats": "pp"}, "bad_request", "$.seats"),
        (
            {"op": "create", "variant": "shanghai", "seats": ["person"] * 2, "seed": "x"},
            "bad_request",
            "$.seed",
        ),
        (
            {"op": "create", "variant": "shanghai", "seats": ["person"] * 9},
            "bad_request",
            "$.seats",
        ),
        ({"op": "undo", "table": "t1", "seat": 0}, "refused", None),
        (
            {"op": "resume", "record": {"format": "x"}, "seats": []},
            "bad_document",
            "$.record.format",
        ),
    ],
)
def test_bad_requests_get_error_documents(request_: Any, code: str, path: str | None) -> None:
    protocol = Protocol()
    name = _table(protocol, seed=2)  # t1: seat 1 is to act
    state = protocol.tables[name].state
    reply = protocol.handle(request_)
    _refused(reply, code, path)
    assert protocol.tables[name].state is state


def test_the_id_comes_back_and_a_fault_is_internal() -> None:
    class Broken:
        def choose(self, view: sr.PlayerView) -> sr.Action:
            raise ZeroDivisionError("bot fault")

    protocol = Protocol(bots={"broken": lambda variant, seed: Broken()})
    reply = protocol.handle(
        {"id": [1, "x"], "op": "create", "variant": "shanghai", "seats": ["broken", "broken"]}
    )
    assert reply["id"] == [1, "x"]
    _refused(reply, "internal")


def test_tables_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol_module, "MAX_TABLES", 2)
    protocol = Protocol()
    _table(protocol)
    _table(protocol)
    _refused(
        protocol.handle({"op": "create", "variant": "shanghai", "seats": ["person"] * 2}),
        "too_many_tables",
    )


def test_serve_stdio_answers_line_by_line() -> None:
    source = io.StringIO('\n{"id": 1, "op": "schema"}\n' + "x" * 1_000_005 + '\n{"id": 2}\n')
    out = io.StringIO()
    assert serve_stdio(source, out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [reply["id"] for reply in replies] == [1, None, 2]
    assert replies[1]["error"]["code"] == "bad_request"


class _Child:
    """``shanghai-rummy serve --stdio`` in a child process, one request a line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "shanghai_rummy", "serve", "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.sent = 0

    def ask(self, request: dict[str, Any] | str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.sent += 1
        line = request if isinstance(request, str) else json.dumps({"id": self.sent, **request})
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply: dict[str, Any] = json.loads(self.process.stdout.readline())
        if not isinstance(request, str):
            assert reply["id"] == self.sent
        return reply

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def test_a_whole_game_over_stdio_with_bad_requests_between() -> None:
    child = _Child()
    rng = random.Random(4)
    try:
        table = _ok(
            child.ask(
                {"op": "create", "variant": "rummy51", "seats": ["person", "greedy"], "seed": 11}
            )
        )["table"]
        moves = refusals = 0
        while moves < 3000:
            view = _ok(child.ask({"op": "view", "table": table, "seat": 0}))
            data = view["data"]
            if data["phase"] == "game_over":
                break
            assert data["to_act"] == 0
            bad = [
                '{"op": "view", "table": ',  # malformed JSON
                {"op": "act", "table": "t99", "seat": 0, "action": "draw"},  # unknown table
                {"op": "act", "table": table, "seat": 1, "action": "draw"},  # another seat
                {
                    "op": "act",
                    "table": table,
                    "seat": 0,  # a card seat 0 does not hold
                    "action": {
                        "type": "discard",
                        "seat": 0,
                        "card": next(
                            c.code for c in sr.make_pack(1, 1) if c.code not in data["hand"]
                        ),
                    },
                },
                {"op": "act", "table": table, "seat": 0, "action": "buy"},  # illegal here
            ][moves % 5]
            if moves % 7 == 0:
                reply = child.ask(bad)
                assert reply["ok"] is False and reply["error"]["code"] in ERROR_CODES
                refusals += 1
                assert _ok(child.ask({"op": "view", "table": table, "seat": 0})) == view
            entries = _ok(child.ask({"op": "legal", "table": table, "seat": 0}))
            assert [entry["label"] for entry in entries] == data["labels"]
            entry = rng.choice(entries)
            action = entry["label"] if moves % 2 else entry["action"]
            done = _ok(child.ask({"op": "act", "table": table, "seat": 0, "action": action}))
            for event in done["events"]:
                assert_schema_valid(
                    {"format": "shanghai-rummy", "version": 1, "type": "event", "data": event}
                )
            moves += 1
        final = _ok(child.ask({"op": "view", "table": table, "seat": None}))["data"]
        assert final["phase"] == "game_over" and refusals >= 5
        assert final["events"][-1]["type"] == "game_ended"
        record = _ok(child.ask({"op": "record", "table": table}))
        assert sr.replay(sr.from_dict(record, sr.GameRecord)).is_over
    finally:
        assert child.close() == 0


def test_the_sample_session_in_the_docs_plays_as_shown() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith(("> ", "< "))]
    assert len(lines) >= 20
    protocol = Protocol()
    for request, reply in zip(lines[::2], lines[1::2], strict=True):
        assert request.startswith("> ") and reply.startswith("< ")
        assert protocol.handle(request[2:]) == json.loads(reply[2:]), request
