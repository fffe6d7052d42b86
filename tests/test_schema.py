"""The JSON Schema of the documents (issue 25): discriminated unions, bounds, optional fields
with defaults, plain descriptions, the committed file and the ``schema`` command; hand-damaged
documents refused by the schema (two independent validators) as by the loader."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import shanghai_rummy as sr
from shanghai_rummy._schema_parts import field_descriptions
from shanghai_rummy.cli import main
from shanghai_rummy.commands.schema import schema_text
from shanghai_rummy.schema import SCHEMA_FILE
from shanghai_rummy.serialization import EVENT_TAGS

from .games import schema_validator
from .samples import SAMPLES, pretty, samples

ROOT = Path(__file__).resolve().parents[1]
C = sr.Card.parse
SCHEMA = sr.json_schema()
PYTHON_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert sr.json_schema() is not sr.json_schema(), "each call returns a fresh copy"


def test_no_union_is_an_undiscriminated_one_of() -> None:
    assert not [node for node in _walk(SCHEMA) if "oneOf" in node]
    for name, tag_key in (("Action", "type"), ("Event", "type"), ("Requirement", "kind")):
        union = SCHEMA["$defs"][name]
        tags = union["properties"][tag_key]["enum"]
        assert union["required"] == [tag_key]
        assert [rule["if"]["properties"][tag_key]["const"] for rule in union["allOf"]] == tags
    assert SCHEMA["properties"]["type"]["enum"] == [
        "game_state",
        "action",
        "player_view",
        "variant",
        "deal_result",
        "game_record",
        "event",
        "outcome",
    ]


def test_descriptions_are_plain_text() -> None:
    descriptions = [node["description"] for node in _walk(SCHEMA) if "description" in node]
    assert len(descriptions) > 60
    for text in descriptions:
        assert isinstance(text, str) and text
        assert "``" not in text and ":class:" not in text and ":func:" not in text, text
    fields = SCHEMA["$defs"]["GameState"]["properties"]
    assert fields["to_act"]["description"].startswith("The seat whose decision is pending; null")
    rules = SCHEMA["$defs"]["JokerRules"]["properties"]
    assert rules["going_down_per_group"]["description"].startswith("when going down (opening)")
    described = sr.variant_file_schema()["properties"]["drawing"]["properties"]
    assert described["starter_extra_card"]["description"].startswith("the first player is dealt")


def test_fields_with_defaults_may_be_left_out() -> None:
    defs = SCHEMA["$defs"]
    assert defs["LayOff"]["required"] == ["type", "seat", "card", "meld_id"]
    assert defs["GoOut"]["required"] == ["type", "seat"]
    assert "history" not in defs["GameState"]["required"]
    envelope = {"format": "shanghai-rummy", "version": 1, "type": "action"}
    for data, action in (
        ({"type": "lay_off", "seat": 1, "card": "8C", "meld_id": 2}, sr.LayOff(1, C("8C"), 2)),
        ({"type": "go_out", "seat": 2, "discard": "KS"}, sr.GoOut(2, discard=C("KS"))),
    ):
        document = {**envelope, "data": data}
        schema_validator().validate(document)
        assert sr.from_dict(document, sr.Action) == action


def test_views_carry_the_labels_of_their_legal_actions() -> None:
    view = sr.view(sr.new_game(sr.get_variant("shanghai"), players=3, seed=1), 1)
    document = sr.to_dict(view)
    assert document["data"]["labels"] == list(view.labels) and view.labels
    schema_validator().validate(document)
    assert SCHEMA["$defs"]["PlayerView"]["properties"]["labels"]["items"]["type"] == "string"


def test_a_game_outcome_is_a_document() -> None:
    outcome = sr.Outcome(totals=(40, 15, 15), winners=(1, 2))
    document = sr.to_dict(outcome)
    assert document["type"] == "outcome"
    schema_validator().validate(document)
    assert sr.from_dict(document, sr.Outcome) == outcome


def test_a_damaged_discard_gives_one_error_at_its_card() -> None:
    document = sr.to_dict(sr.Discard(seat=1, card=C("10H")))
    document["data"]["card"] = "11H"
    errors = list(PYTHON_VALIDATOR.iter_errors(document))
    assert [list(error.absolute_path) for error in errors] == [["data", "card"]]
    assert [list(error.instance_path) for error in schema_validator().iter_errors(document)] == [
        ["data", "card"]
    ]
    with pytest.raises(sr.SerializationError, match=r"^\$\.data\.card: unknown card code"):
        sr.from_dict(document, sr.Action)


def test_the_committed_schema_file_is_the_generated_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    committed = (ROOT / "schema" / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), "regenerate: shanghai-rummy schema --output schema/..."
    assert json.loads(committed) == SCHEMA
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == committed


def test_the_schema_command_writes_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "documents.schema.json"
    assert main(["schema", "--output", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == SCHEMA
    assert main(["schema", "--output", str(tmp_path / "missing" / "x.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_wheel_ships_the_schema_file() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (
        '"schema/shanghai-rummy.schema.json" = "shanghai_rummy/shanghai-rummy.schema.json"' in text
    )


# --- hand-damaged documents ---------------------------------------------------------------------


def _state() -> dict[str, Any]:
    return sr.to_dict(sr.new_game(sr.get_variant("shanghai"), players=4, seed=3))


def _view() -> dict[str, Any]:
    return sr.to_dict(sr.view(sr.new_game(sr.get_variant("shanghai"), players=4, seed=3), 1))


def _variant() -> dict[str, Any]:
    return sr.to_dict(sr.get_variant("shanghai"))


def _opening_variant() -> dict[str, Any]:
    return sr.to_dict(sr.get_variant("rummy51"))


def _record() -> dict[str, Any]:
    state = sr.new_game(sr.get_variant("rummy51"), players=2, seed=5)
    state = sr.apply(state, sr.legal_actions(state)[0])
    return sr.to_dict(sr.record(state))


def _result() -> dict[str, Any]:
    seats = tuple(sr.SeatScore(seat, (), 0, 0, "out") for seat in range(3))
    return sr.to_dict(sr.DealResult(deal_number=1, winner=0, one_turn_out=False, seats=seats))


def _discard() -> dict[str, Any]:
    return sr.to_dict(sr.Discard(seat=1, card=C("10H")))


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A damage: the field at ``path`` (keys and indexes, dot-separated) set to ``value``."""

    def damage(document: dict[str, Any]) -> None:
        *parents, last = [int(key) if key.isdigit() else key for key in path.split(".")]
        node: Any = document
        for key in parents:
            node = node[key]
        node[last] = value

    return damage


def _drop_hand(document: dict[str, Any]) -> None:
    document["data"]["hands"].pop()


# (what the document is, what is damaged, how): every one refused by the loader and the schema
DAMAGED: list[
    tuple[Callable[[], dict[str, Any]], object, str, Callable[[dict[str, Any]], None]]
] = [
    (_discard, sr.Action, "card 11H", _set("data.card", "11H")),
    (_discard, sr.Action, "negative seat", _set("data.seat", -1)),
    (_discard, sr.Action, "seat 10", _set("data.seat", 10)),
    (_discard, sr.Action, "unknown action type", _set("data.type", "steal")),
    (_discard, sr.Action, "an unknown field", _set("data.face", "up")),
    (_discard, sr.Action, "version 2", _set("version", 2)),
    (_discard, sr.Action, "another format", _set("format", "gin-rummy")),
    (_discard, sr.Action, "seat as text", _set("data.seat", "1")),
    (_variant, sr.Variant, "decks 0", _set("data.packs.0.decks", 0)),
    (_variant, sr.Variant, "12 by_rank values", _set("data.scoring.values.by_rank", [5] * 12)),
    (_variant, sr.Variant, "empty deals", _set("data.deals", [])),
    (_variant, sr.Variant, "turn_limit 0", _set("data.stock.turn_limit", 0)),
    (_variant, sr.Variant, "turn_limit 1001", _set("data.stock.turn_limit", 1001)),
    (_variant, sr.Variant, "max_players 11", _set("data.max_players", 11)),
    (_variant, sr.Variant, "9 jokers", _set("data.packs.0.jokers", 9)),
    (
        _variant,
        sr.Variant,
        "a set of 2 in a contract",
        _set("data.deals.0.requirement.sets", [2, 3]),
    ),
    (_variant, sr.Variant, "an empty id", _set("data.id", "")),
    (
        _opening_variant,
        sr.Variant,
        "an opening's natural run of 1",
        _set("data.deals.0.requirement.natural_run", 1),
    ),
    (_state, sr.GameState, "to_act 9 of 4 seats", _set("data.to_act", 9)),
    (_state, sr.GameState, "3 hands for 4 seats", _drop_hand),
    (_state, sr.GameState, "a stock card 1X", _set("data.stock.0", "1X")),
    (_state, sr.GameState, "seat 0 bought 7 times", _set("data.seats.0.buys", 7)),
    (_state, sr.GameState, "deal 0", _set("data.deal_number", 0)),
    (_state, sr.GameState, "an unknown phase", _set("data.phase", "bidding")),
    (_view, sr.PlayerView, "seat 5 of 4 seats", _set("data.seat", 5)),
    (_view, sr.PlayerView, "3 hand sizes for 4 seats", _set("data.hand_sizes", [11, 11, 11])),
    (_record, sr.GameRecord, "1 player", _set("data.players", 1)),
    (_result, sr.DealResult, "winner -1", _set("data.winner", -1)),
]


@pytest.mark.parametrize(
    ("make", "cls", "damage"),
    [(make, cls, damage) for make, cls, _, damage in DAMAGED],
    ids=[name for _, _, name, _ in DAMAGED],
)
def test_hand_damaged_documents_are_refused_by_the_schema_and_the_loader(
    make: Callable[[], dict[str, Any]], cls: object, damage: Callable[[dict[str, Any]], None]
) -> None:
    document = make()
    schema_validator().validate(document)  # undamaged, it is valid
    damaged = copy.deepcopy(document)
    damage(damaged)
    assert damaged != document
    assert not schema_validator().is_valid(damaged)
    assert not PYTHON_VALIDATOR.is_valid(damaged)
    with pytest.raises(sr.SerializationError):
        sr.from_dict(damaged, cls)


def test_there_are_at_least_25_damaged_documents() -> None:
    assert len(DAMAGED) >= 25


# --- the sample documents of the docs -----------------------------------------------------------

DOCUMENT_TYPES = {
    "game_state": sr.GameState,
    "player_view": sr.PlayerView,
    "event": sr.Event,
}


def test_the_sample_documents_are_what_the_seeded_games_make() -> None:
    made = samples()
    files = sorted(path.name for path in SAMPLES.glob("*.json"))
    assert files == sorted(made), "regenerate with: python -m tests.samples"
    for name, document in made.items():
        assert (SAMPLES / name).read_text(encoding="utf-8") == pretty(document) + "\n", name
    tags = {document["data"]["type"] for document in made.values() if document["type"] == "event"}
    assert tags == set(EVENT_TAGS.values())


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda path: path.name)
def test_every_sample_document_validates_and_loads(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    schema_validator().validate(document)
    PYTHON_VALIDATOR.validate(document)
    loaded = sr.from_dict(document, DOCUMENT_TYPES[document["type"]])
    assert sr.to_dict(loaded) == document
    assert f"samples/{path.name}" in (ROOT / "docs" / "documents.md").read_text(encoding="utf-8")


def test_empty_groups_are_refused_by_the_schema_and_the_loader() -> None:
    for groups, path in (([], r"\$\.data\.groups: a meld lays"), ([["8C"], []], r"groups\[1\]")):
        document = {
            "format": "shanghai-rummy",
            "version": 1,
            "type": "action",
            "data": {"type": "meld", "seat": 0, "groups": groups},
        }
        assert not schema_validator().is_valid(document)
        with pytest.raises(sr.SerializationError, match=path):
            sr.from_dict(document, sr.Action)


def test_a_class_without_source_is_described_from_its_docstring_list() -> None:
    made = type("Made", (), {"__doc__": "A made class.\n\n- ``size``: how many ``cards``."})
    assert field_descriptions(made) == {"size": "how many cards."}
