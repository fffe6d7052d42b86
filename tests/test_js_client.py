"""The JavaScript client of examples/js (issue 25): Node plays a whole game through
``shanghai-rummy serve --stdio`` and validates every document it receives with ajv (draft
2020-12, strict). Skipped where node or the client's ajv (``npm ci`` in examples/js) is
missing, except in CI, which installs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .serving import missing

CLIENT = Path(__file__).resolve().parents[1] / "examples" / "js"


def test_the_js_client_plays_a_whole_game_and_every_document_validates_in_ajv() -> None:
    node = shutil.which("node")
    if node is None or not (CLIENT / "node_modules" / "ajv" / "package.json").exists():
        missing("node with the JS client's ajv (npm ci in examples/js)")
    assert node is not None
    done = subprocess.run(
        [node, "play.js", "3"],
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
