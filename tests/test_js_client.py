"""The JavaScript client of examples/js (issue 25): Node plays a whole game through
``shanghai-rummy serve --stdio`` and validates every document it receives with ajv (draft
2020-12, strict); ajv, an independent validator, accepts every sample document of the docs
and refuses every hand-damaged document of test_schema. Skipped where node or the client's
ajv (``npm ci`` in examples/js) is missing, except in CI, which installs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .samples import SAMPLES
from .serving import missing
from .test_schema import DAMAGED

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "examples" / "js"
SCHEMA_FILE = ROOT / "schema" / "shanghai-rummy.schema.json"


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (CLIENT / "node_modules" / "ajv" / "package.json").exists():
        missing("node with the JS client's ajv (npm ci in examples/js)")
    assert node is not None
    return node


def _validate(*files: Path) -> dict[str, Any]:
    """What examples/js/validate.js (ajv, strict) says of ``files``."""
    done = subprocess.run(
        [_node(), "validate.js", str(SCHEMA_FILE), *map(str, files)],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_ajv_accepts_every_sample_document_and_places_the_damaged_discard() -> None:
    samples = sorted(SAMPLES.glob("*.json"))
    result = _validate(*samples)
    assert result["valid"] == len(samples) == 16 and result["invalid"] == {}
    assert result["damaged_discard"]["errors"] == ["/data/card", "/data", ""]


def test_ajv_refuses_every_hand_damaged_document(tmp_path: Path) -> None:
    files = []
    for index, (make, _, _, damage) in enumerate(DAMAGED):
        document = make()
        damage(document)
        files.append(tmp_path / f"damaged-{index}.json")
        files[-1].write_text(json.dumps(document), encoding="utf-8")
    result = _validate(*files)
    assert result["valid"] == 0 and len(result["invalid"]) == len(DAMAGED) >= 25


def test_the_js_client_plays_a_whole_game_and_every_document_validates_in_ajv() -> None:
    done = subprocess.run(
        [_node(), "play.js", "3"],
        cwd=CLIENT,
        env={
            **os.environ,
            "SHANGHAI_RUMMY_SERVE": f"{sys.executable} -m shanghai_rummy serve --stdio",
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["moves"] > 10
    assert summary["documents_validated"] > summary["moves"]
    assert len(summary["totals"]) == 2
    damaged = summary["damaged_discard"]
    assert damaged["ajv_errors"] <= 3 and damaged["first_error_at"] == "/data/card"
    assert damaged["server_error"]["path"] == "$.action.data.card"
