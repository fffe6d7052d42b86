"""`shanghai-rummy variants` (issue 29): a preset written as a file to edit, the JSON Schema of
variant files, and the rules shown without settings that do not apply."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

import shanghai_rummy as sr
from shanghai_rummy.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
VALIDATOR = jsonschema.Draft202012Validator(sr.variant_file_schema())


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("variant_id", sorted(sr.VARIANTS))
def test_toml_template_reads_back_as_the_preset_and_fits_the_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant_id: str
) -> None:
    status, out, _ = _run(capsys, "variants", variant_id, "--toml")
    assert status == 0
    assert out.startswith(f"#:schema {sr.variant_file_schema()['$id']}\n")
    VALIDATOR.validate(tomllib.loads(out))
    path = tmp_path / "house.toml"
    path.write_text(out, encoding="utf-8")
    assert sr.load_variant(path) == sr.get_variant(variant_id)


@pytest.mark.parametrize("variant_id", sorted(sr.VARIANTS))
def test_json_template_names_its_schema_and_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant_id: str
) -> None:
    path = tmp_path / "house.json"
    assert _run(capsys, "variants", variant_id, "--json", "--output", str(path)) == (0, "", "")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["$schema"] == sr.variant_file_schema()["$id"]
    VALIDATOR.validate(data)
    assert sr.load_variant(path) == sr.get_variant(variant_id)


def test_the_committed_schema_file_is_the_generated_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "variants", "--schema")
    assert status == 0
    committed = (ROOT / "schema" / "variant-file.schema.json").read_text(encoding="utf-8")
    assert json.loads(out) == json.loads(committed) == sr.variant_file_schema()
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_the_schema_accepts_every_example_file_and_refuses_what_the_loader_refuses() -> None:
    for path in sorted((ROOT / "examples" / "variants").iterdir()):
        text = path.read_text(encoding="utf-8")
        VALIDATOR.validate(tomllib.loads(text) if path.suffix == ".toml" else json.loads(text))
    refused = [
        {"base": "gin"},
        {"base": "shanghai", "melds": {"aces": "sideways"}},
        {"base": "shanghai", "buying": {"penalty": 1}},
        {"base": "shanghai", "scoring": {"values": {"3-9": 5, "Z": 1}}},
        {"base": "shanghai", "deals": [{"cards": 11, "requirement": {"kind": "gin"}}]},
        {"id": "x", "name": "X"},  # no base: every required field
        {"base": "shanghai", "max_players": 10**9},  # over limits.MAX_PLAYERS
        {
            "base": "shanghai",
            "packs": [{"min_players": 2, "max_players": 6, "decks": 9, "jokers": 2}],
        },
        {"base": "shanghai", "stock": {"turn_limit": "none"}},  # a deal always ends
    ]
    for document in refused:
        assert not VALIDATOR.is_valid(document), document
        with pytest.raises(sr.VariantError):
            sr.load_variant(document)
    assert VALIDATOR.is_valid({"base": "shanghai", "melds": {"set_max": "none"}})
    values = {"2": 20, "3-A": 5, "JK": 1}
    assert VALIDATOR.is_valid({"base": "shanghai", "scoring": {"values": values}})


def test_variants_without_buying_show_no_buying_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = _run(capsys, "variants", "rummy51")
    assert "buying.penalty_cards" not in out and "buying.limits" not in out
    assert "buying  " in out and "none (buying.enabled = no)" in out
    _, out, _ = _run(capsys, "variants", "shanghai")
    assert "buying.penalty_cards" in out


def test_one_deck_is_one_deck_not_one_decks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "small.toml"
    path.write_text(
        'base = "shanghai"\nid = "small"\nmax_players = 3\n'
        "[[packs]]\nmin_players = 2\nmax_players = 3\ndecks = 1\njokers = 1\n",
        encoding="utf-8",
    )
    _, out, _ = _run(capsys, "variants", str(path))
    assert "1 deck + 1 joker = 53 cards" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["variants", "--toml"], "name its ID"),
        (["variants", "shanghai", "--schema"], "--schema takes no ID"),
        (["variants", "-o", "x.toml"], "--output goes with"),
        (["variants", "shanghai", "--toml", "-o", "/no/such/dir/x.toml"], "cannot write"),
    ],
)
def test_variants_file_options_refuse_bad_combinations(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = _run(capsys, *argv)
    assert status == 2 and message in err
